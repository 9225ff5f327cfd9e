//! `hekla sql` as a user runs it: a real process on a real data directory.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn hekla_sql(dir: &Path, args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hekla"))
        .arg("sql")
        .arg("--data-dir")
        .arg(dir)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("hekla runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn query_script_and_stdin_share_one_durable_catalog() {
    let dir = std::env::temp_dir().join(format!("hekla-sql-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);

    let created = hekla_sql(
        &dir,
        &[
            "-Q",
            "CREATE SCHEMA Sales\nGO\nCREATE TABLE Sales.t (id int PRIMARY KEY NONCLUSTERED)",
        ],
        "",
    );
    assert!(created.status.success(), "{}", text(&created.stderr));
    assert_eq!(text(&created.stdout), "");

    let script = dir.with_extension("sql");
    std::fs::write(&script, "DROP TABLE Sales.t\nGO\nDROP TABLE Sales.t\n").unwrap();
    let dropped = hekla_sql(&dir, &["-i", script.to_str().unwrap()], "");
    assert!(dropped.status.success());
    assert_eq!(
        text(&dropped.stdout),
        "Msg 3701, Level 11, State 5, Line 1\nCannot drop the table 't', because it does not exist or you do not have permission.\n"
    );

    // Standard input: GO runs a batch, EXIT stops reading; -b turns any
    // error into exit status 1.
    let piped = hekla_sql(
        &dir,
        &["-b"],
        "CREATE TABLE Sales.u (a int)\nGO\nDROP TABLE nope\nEXIT\nDROP TABLE Sales.u\n",
    );
    assert_eq!(piped.status.code(), Some(1));
    assert!(text(&piped.stdout).starts_with("Msg 3701,"));
    assert!(text(&piped.stderr).contains("1 statement(s) failed"));
    let again = hekla_sql(&dir, &["-Q", "DROP TABLE Sales.u"], "");
    assert_eq!(text(&again.stdout), "", "EXIT stopped before the last DROP");

    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_file(&script).unwrap();
}

/// At a terminal (a pseudo-terminal from util-linux's `script`), lines are
/// read through the line editor, batches run on GO, and what was typed is
/// kept in the history file for the next run.
#[test]
fn terminal_sessions_keep_a_history() {
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("skipped: util-linux `script` (for a pseudo-terminal) is not installed");
        return;
    }
    let dir = std::env::temp_dir().join(format!("hekla-cli-tty-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let history = dir.with_extension("history");
    let _ = std::fs::remove_file(&history);
    let command = format!(
        "{} sql --data-dir {}",
        env!("CARGO_BIN_EXE_hekla"),
        dir.display()
    );
    let mut child = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .env("HEKLA_HISTORY", &history)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("script runs");
    let mut input = child.stdin.take().unwrap();
    for line in ["SELECT 40 + 2 AS answer", "GO", "exit"] {
        // Typed one line at a time, as a user would.
        std::thread::sleep(std::time::Duration::from_millis(300));
        input.write_all(format!("{line}\r").as_bytes()).unwrap();
    }
    let output = child.wait_with_output().unwrap();
    let shown = text(&output.stdout);
    assert!(shown.contains("1> "), "{shown}");
    assert!(shown.contains("42"), "{shown}");
    let kept = std::fs::read_to_string(&history).expect("history saved");
    assert!(
        kept.contains("SELECT 40 + 2 AS answer") && kept.contains("GO"),
        "{kept}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_file(&history).unwrap();
}
