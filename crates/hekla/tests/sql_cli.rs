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

/// `hekla sql` at a terminal: a pseudo-terminal whose other end the test
/// holds, so it types (writes) and reads the screen as a user would.
struct Terminal {
    child: std::process::Child,
    /// What the terminal shows, `\r` removed, collected by a reader thread.
    screen: std::sync::Arc<std::sync::Mutex<String>>,
    keyboard: std::fs::File,
}

impl Terminal {
    fn open(dir: &Path, history: &Path) -> Terminal {
        use std::os::fd::{FromRawFd, OwnedFd};
        let (mut controller, mut device) = (-1, -1);
        let size = libc::winsize {
            ws_row: 24,
            ws_col: 80,
            ws_xpixel: 0,
            ws_ypixel: 0,
        };
        // SAFETY: openpty writes the two descriptors it opens into the
        // integers given; the name and termios pointers may be null, and
        // the window size is read only during the call.
        let opened = unsafe {
            libc::openpty(
                &mut controller,
                &mut device,
                std::ptr::null_mut(),
                std::ptr::null(),
                &size,
            )
        };
        assert_eq!(opened, 0, "openpty: {}", std::io::Error::last_os_error());
        // SAFETY: both descriptors were just opened by openpty and are
        // owned by nothing else.
        let (controller, device) = unsafe {
            (
                OwnedFd::from_raw_fd(controller),
                OwnedFd::from_raw_fd(device),
            )
        };
        let stdio = || Stdio::from(device.try_clone().expect("dup"));
        let child = Command::new(env!("CARGO_BIN_EXE_hekla"))
            .arg("sql")
            .arg("--data-dir")
            .arg(dir)
            .env("TERM", "xterm")
            .env("HEKLA_HISTORY", history)
            .stdin(stdio())
            .stdout(stdio())
            .stderr(stdio())
            .spawn()
            .expect("hekla runs");
        // Only the child holds the device now, so reads end when it exits.
        drop(device);
        let keyboard = std::fs::File::from(controller);
        let screen = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
        let mut display = keyboard.try_clone().expect("dup");
        let shown = std::sync::Arc::clone(&screen);
        std::thread::spawn(move || {
            let mut chunk = [0u8; 4096];
            // Linux ends the reads with EIO once the child has closed the
            // device.
            while let Ok(n @ 1..) = std::io::Read::read(&mut display, &mut chunk) {
                let text = String::from_utf8_lossy(&chunk[..n]).replace('\r', "");
                shown.lock().unwrap().push_str(&text);
            }
        });
        Terminal {
            child,
            screen,
            keyboard,
        }
    }

    fn screen(&self) -> String {
        self.screen.lock().unwrap().clone()
    }

    /// Waits up to 30 seconds for `text` to show.
    fn wait_for(&self, text: &str) {
        let start = std::time::Instant::now();
        while !self.screen().contains(text) {
            assert!(
                start.elapsed().as_secs() < 30,
                "{text:?} never showed:\n{}",
                self.screen()
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }

    /// Sends `keys` in one write, as a paste arrives.
    fn type_keys(&mut self, keys: &str) {
        self.keyboard.write_all(keys.as_bytes()).unwrap();
    }

    /// Waits for the child to exit and returns the whole screen.
    fn close(mut self) -> String {
        let start = std::time::Instant::now();
        while self.child.try_wait().unwrap().is_none() {
            if start.elapsed().as_secs() >= 30 {
                self.child.kill().unwrap();
                panic!("hekla sql did not exit:\n{}", self.screen());
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        // The reader thread may still hold the last output.
        std::thread::sleep(std::time::Duration::from_millis(100));
        self.screen()
    }
}

fn scratch(name: &str) -> (std::path::PathBuf, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("hekla-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let history = dir.with_extension("history");
    let _ = std::fs::remove_file(&history);
    (dir, history)
}

/// At a terminal, lines are read through the line editor, batches run on
/// GO, and what was typed is kept in the history file for the next run.
#[test]
fn terminal_sessions_keep_a_history() {
    let (dir, history) = scratch("tty");
    let mut terminal = Terminal::open(&dir, &history);
    for line in ["SELECT 40 + 2 AS answer", "GO", "exit"] {
        terminal.wait_for("> ");
        terminal.type_keys(&format!("{line}\r"));
        // Typed one line at a time, as a user would.
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let shown = terminal.close();
    assert!(shown.contains("1> "), "{shown}");
    assert!(shown.contains("\n         42\n"), "{shown}");
    let kept = std::fs::read_to_string(&history).expect("history saved");
    assert!(
        kept.contains("SELECT 40 + 2 AS answer") && kept.contains("GO"),
        "{kept}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_file(&history).unwrap();
}

/// A script pasted at the prompt (or typed ahead while a batch runs)
/// arrives as many lines at once: every one of them runs, as from `-i`,
/// whether the terminal sends the paste as keys or brackets it
/// (`ESC [200~ ... ESC [201~`, one editor entry of several lines).
#[test]
fn pasted_scripts_run_every_line() {
    let (dir, history) = scratch("paste");
    let mut terminal = Terminal::open(&dir, &history);
    terminal.wait_for("1> ");
    terminal.type_keys("SELECT 1 AS a\rSELECT 2 AS b\rGO\rSELECT 3 AS c\rGO 2\r");
    terminal.type_keys("\x1b[200~SELECT 4 AS d\rGO\rSELECT 5 AS e\rGO\r\x1b[201~\r");
    // Typed while a batch runs, when the line editor is not reading.
    terminal.type_keys("WAITFOR DELAY '00:00:01'\rGO\r");
    terminal.wait_for("00:00:01");
    std::thread::sleep(std::time::Duration::from_millis(300));
    terminal.type_keys("SELECT 6 AS f\rGO\rexit\r");
    let shown = terminal.close();
    for (column, value, times) in [
        ("a", 1, 1),
        ("b", 2, 1),
        ("c", 3, 2),
        ("d", 4, 1),
        ("e", 5, 1),
        ("f", 6, 1),
    ] {
        let result = format!("{column}          \n-----------\n{value:>11}\n\n(1 rows affected)\n");
        assert_eq!(
            shown.matches(&result).count(),
            times,
            "{result:?} in\n{shown}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
    let _ = std::fs::remove_file(&history);
}

/// sqlcmd's scripting variables: `:SETVAR` in the script, `-v` on the
/// command line, `$(name)` replaced outside comments; an undefined name
/// drops its batch and stops the script, and `-b` makes that status 1.
#[test]
fn scripting_variables_are_substituted() {
    let dir = std::env::temp_dir().join(format!("hekla-cli-vars-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let script = dir.with_extension("sql");
    std::fs::write(
        &script,
        ":setvar Greeting \"hello \"\"world\"\"\"\n\
         SELECT '$(greeting)' AS g, $(Given) + 1 AS n -- $(undefined) here is a comment\n\
         GO\n\
         :SETVAR given\n\
         SELECT $(given) AS removed\n\
         GO\n\
         SELECT 'not reached' AS r\n",
    )
    .unwrap();
    let ran = hekla_sql(
        &dir,
        &["-W", "-b", "-i", script.to_str().unwrap(), "-v", "given=41"],
        "",
    );
    assert_eq!(
        text(&ran.stdout),
        "g n\n- -\nhello \"world\" 42\n\n(1 rows affected)\n"
    );
    assert_eq!(
        text(&ran.stderr),
        "'given' scripting variable not defined.\nhekla: 1 statement(s) failed\n"
    );
    assert_eq!(ran.status.code(), Some(1));

    let piped = hekla_sql(
        &dir,
        &["-W"],
        ":setvar x 5\nSELECT $(X) AS x\nGO\n:setvar 1x 2\nGO\n",
    );
    assert_eq!(text(&piped.stdout), "x\n-\n5\n\n(1 rows affected)\n");
    assert_eq!(
        text(&piped.stderr),
        "Sqlcmd: Error: Syntax error at line 4 near command ':SETVAR'.\n"
    );
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_file(&script).unwrap();
}

/// The numbers `query` prints, one per line (no headers, no counts).
fn numbers(dir: &Path, query: &str) -> Vec<i64> {
    let output = hekla_sql(dir, &["-b", "-h", "-1", "-Q", query], "");
    assert!(
        output.status.success(),
        "{}{}",
        text(&output.stdout),
        text(&output.stderr)
    );
    text(&output.stdout)
        .lines()
        .map(|line| line.trim().parse().expect("a number"))
        .collect()
}

const IDENTITY_AND_SEQUENCE: &str = "CREATE TABLE dbo.t (id int IDENTITY(1, 1) PRIMARY KEY NONCLUSTERED, v int) WITH (MEMORY_OPTIMIZED = ON)
GO
CREATE SEQUENCE dbo.s AS int START WITH 1 CACHE 50";

/// One new IDENTITY value and one sequence value: `id` then `next`.
const TAKE_ONE_OF_EACH: &str = "SET NOCOUNT ON
INSERT INTO dbo.t (v) VALUES (0)
SELECT MAX(id) FROM dbo.t
SELECT NEXT VALUE FOR dbo.s";

/// A process that ends normally records where IDENTITY columns and
/// sequences stopped, so the next one continues without a gap (SQL
/// Server's identity cache and sequence CACHE lose values only when the
/// server stops unexpectedly).
#[test]
fn identity_and_sequences_continue_without_a_gap_after_a_clean_exit() {
    let (dir, _) = scratch("counters-clean");
    numbers(&dir, IDENTITY_AND_SEQUENCE);
    assert_eq!(numbers(&dir, TAKE_ONE_OF_EACH), [1, 1]);
    assert_eq!(numbers(&dir, TAKE_ONE_OF_EACH), [2, 2]);
    assert_eq!(numbers(&dir, TAKE_ONE_OF_EACH), [3, 3]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Runs `script` in a `hekla sql` process reading standard input, waits
/// for all it prints (headers off), then kills it with SIGKILL: no clean
/// close. What it printed, line by line.
fn killed_after(dir: &Path, script: &str) -> Vec<String> {
    use std::io::BufRead;
    let mut child = Command::new(env!("CARGO_BIN_EXE_hekla"))
        .arg("sql")
        .arg("--data-dir")
        .arg(dir)
        .args(["-h", "-1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("hekla runs");
    let mut input = child.stdin.take().unwrap();
    writeln!(input, "{script}\nSELECT 'done'\nGO").unwrap();
    let mut said = Vec::new();
    for line in std::io::BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        if line.trim() == "done" {
            break;
        }
        said.push(line);
    }
    child.kill().unwrap();
    child.wait().unwrap();
    said
}

/// A killed process loses the rest of its reserved blocks (a gap, as in
/// SQL Server after an unexpected shutdown) but never hands a value out
/// twice.
#[test]
fn identity_and_sequences_skip_but_never_repeat_after_a_kill() {
    let (dir, _) = scratch("counters-killed");
    numbers(&dir, IDENTITY_AND_SEQUENCE);
    assert_eq!(numbers(&dir, TAKE_ONE_OF_EACH), [1, 1]);
    let said: Vec<i64> = killed_after(&dir, TAKE_ONE_OF_EACH)
        .iter()
        .map(|line| line.trim().parse().expect("a number"))
        .collect();
    assert_eq!(said, [2, 2]);
    // The blocks reserved by the killed process (IDENTITY int: 1000
    // values, the sequence: CACHE 50) are skipped.
    assert_eq!(numbers(&dir, TAKE_ONE_OF_EACH), [1002, 52]);
    let ids = numbers(&dir, "SET NOCOUNT ON SELECT id FROM dbo.t ORDER BY id");
    assert_eq!(ids, [1, 2, 1002]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Values given with IDENTITY_INSERT ON move the counter past them
/// durably: the next process continues after them, and after a kill
/// still never repeats one.
#[test]
fn identity_insert_values_are_never_handed_out_again() {
    let (dir, _) = scratch("identity-insert");
    numbers(&dir, IDENTITY_AND_SEQUENCE);
    let given = "SET NOCOUNT ON
SET IDENTITY_INSERT dbo.t ON
INSERT INTO dbo.t (id, v) VALUES (5000, 0)
SET IDENTITY_INSERT dbo.t OFF
SELECT MAX(id) FROM dbo.t";
    assert_eq!(numbers(&dir, given), [5000]);
    assert_eq!(numbers(&dir, TAKE_ONE_OF_EACH), [5001, 1]);
    // The explicit value's block is recorded before the insert commits.
    killed_after(
        &dir,
        "SET IDENTITY_INSERT dbo.t ON\nINSERT INTO dbo.t (id, v) VALUES (9000, 0)",
    );
    let next = numbers(&dir, TAKE_ONE_OF_EACH)[0];
    assert!(next > 9000, "{next} repeats or precedes a given value");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn memory_limit_turns_huge_allocations_into_errors() {
    let (dir, _) = scratch("memory-limit");
    let out = hekla_sql(
        &dir,
        &[
            "--memory-limit-mb",
            "16",
            "-Q",
            "CREATE TABLE dbo.huge (id int NOT NULL PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = 10000000)) WITH (MEMORY_OPTIMIZED = ON)
GO
SELECT LEN(REPLICATE(CAST('x' AS varchar(max)), 100000000)) AS n
GO
SELECT OBJECT_ID('dbo.huge') AS huge",
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.starts_with("Msg 41805, Level 16"), "{stdout}");
    assert!(stdout.contains("Msg 701, Level 17"), "{stdout}");
    // The refused table does not exist, and the session went on.
    assert!(
        stdout.contains("huge       \n-----------\nNULL"),
        "{stdout}"
    );
    let refused = hekla_sql(&dir, &["--memory-limit-mb", "0", "-Q", "SELECT 1"], "");
    assert!(!refused.status.success());
    let _ = std::fs::remove_dir_all(&dir);
}
