//! `hekla bench ycsb` as a user runs it, embedded on a durable data
//! directory and against a `hekla serve` process: each workload's
//! operations add up, reads find the records the load wrote (also the
//! latest inserted, in D), scans find rows, and the table holds exactly
//! the rows loaded and inserted.

mod common;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

/// YCSB's report lines of one phase: ("[READ]", "Return=OK") → 3828.
type Figures = BTreeMap<(String, String), f64>;

/// Runs the benchmark on the database in `dir`; the load phase's and the
/// run phase's figures.
fn ycsb(dir: &Path, args: &[&str]) -> (Figures, Figures) {
    let dir = dir.to_str().expect("a UTF-8 path");
    let mut all = vec!["--data-dir", dir];
    all.extend(args);
    ycsb_with(&all)
}

fn ycsb_with(args: &[&str]) -> (Figures, Figures) {
    let output = Command::new(env!("CARGO_BIN_EXE_hekla"))
        .args(["bench", "ycsb"])
        .args(args)
        .output()
        .expect("hekla runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let (mut load, mut run) = (Figures::new(), Figures::new());
    let mut phase = None;
    for line in stdout.lines() {
        match line {
            "# load phase" => phase = Some(&mut load),
            "# run phase" => phase = Some(&mut run),
            _ => {
                let parts: Vec<&str> = line.split(", ").collect();
                let [section, metric, value] = parts[..] else {
                    panic!("not a report line: {line}");
                };
                let value = value.parse().expect("a number");
                let figures = phase.as_mut().expect("a phase heading first");
                figures.insert((section.to_string(), metric.to_string()), value);
            }
        }
    }
    (load, run)
}

fn get(figures: &Figures, section: &str, metric: &str) -> f64 {
    figures
        .get(&(section.to_string(), metric.to_string()))
        .copied()
        .unwrap_or(0.0)
}

fn rows_in_table(dir: &Path) -> u64 {
    let output = Command::new(env!("CARGO_BIN_EXE_hekla"))
        .args(["sql", "--data-dir"])
        .arg(dir)
        .args([
            "-h",
            "-1",
            "-Q",
            "SET NOCOUNT ON SELECT COUNT(*) FROM dbo.usertable",
        ])
        .output()
        .expect("hekla sql runs");
    let text = String::from_utf8_lossy(&output.stdout);
    text.trim()
        .parse()
        .unwrap_or_else(|_| panic!("a count: {text:?}"))
}

#[test]
fn every_workload_runs_its_mix_against_the_loaded_records() {
    let root = std::env::temp_dir().join(format!("hekla-ycsb-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let records = 400.0;
    let operations = 800.0;
    for workload in ["a", "b", "c", "d", "e", "f"] {
        let dir = root.join(workload);
        let (load, run) = ycsb(
            &dir,
            &[
                "--workload",
                workload,
                "--records",
                "400",
                "--operations",
                "800",
                "--threads",
                "2",
            ],
        );
        assert_eq!(get(&load, "[INSERT]", "Operations"), records, "{workload}");
        assert_eq!(get(&load, "[INSERT]", "Return=OK"), records, "{workload}");
        let sections = [
            "[READ]",
            "[UPDATE]",
            "[INSERT]",
            "[SCAN]",
            "[READ-MODIFY-WRITE]",
        ];
        let done: f64 = sections.iter().map(|s| get(&run, s, "Operations")).sum();
        assert_eq!(done, operations, "{workload}: {run:?}");
        for section in sections {
            // Every record asked for exists (D reads only acknowledged
            // inserts); write-write conflicts are the only failures.
            assert_eq!(
                get(&run, section, "Return=NOT_FOUND"),
                0.0,
                "{workload} {section}"
            );
            let failed = get(&run, section, "Return=ERROR");
            assert_eq!(
                failed,
                get(&run, section, "Msg 41302"),
                "{workload} {section}"
            );
        }
        let mix = |section| get(&run, section, "Operations") / operations;
        match workload {
            "a" => assert!((0.4..0.6).contains(&mix("[UPDATE]")), "{run:?}"),
            "b" => assert!(mix("[UPDATE]") < 0.15 && mix("[READ]") > 0.85, "{run:?}"),
            "c" => assert_eq!(mix("[READ]"), 1.0),
            "d" => assert!(mix("[INSERT]") > 0.0 && mix("[READ]") > 0.85, "{run:?}"),
            "e" => assert!(mix("[SCAN]") > 0.85 && mix("[INSERT]") > 0.0, "{run:?}"),
            _ => assert!((0.4..0.6).contains(&mix("[READ-MODIFY-WRITE]")), "{run:?}"),
        }
        let inserted = get(&run, "[INSERT]", "Return=OK");
        assert_eq!(
            rows_in_table(&dir),
            (records + inserted) as u64,
            "{workload}"
        );
    }
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn over_tds_the_server_holds_what_the_clients_did() {
    let root = std::env::temp_dir().join(format!("hekla-ycsb-tds-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let server = common::start(&root);
    let password = common::generated_password(&server);
    let endpoint = server.address.replace(':', ",");
    let remote = ["-S", endpoint.as_str(), "-U", "sa", "-P", password.as_str()];
    let run = |extra: &[&str]| {
        let mut args = remote.to_vec();
        args.extend(["--records", "300", "--operations", "600", "--threads", "3"]);
        args.extend(extra);
        ycsb_with(&args)
    };
    let (load, first) = run(&["--workload", "d"]);
    assert_eq!(get(&load, "[INSERT]", "Return=OK"), 300.0);
    let inserted = get(&first, "[INSERT]", "Return=OK");
    assert!(inserted > 0.0, "{first:?}");
    assert_eq!(get(&first, "[READ]", "Return=NOT_FOUND"), 0.0, "{first:?}");
    // A second run on the loaded table: every read finds its record.
    let (skipped, second) = run(&["--workload", "c", "--skip-load"]);
    assert!(skipped.is_empty(), "{skipped:?}");
    assert_eq!(get(&second, "[READ]", "Return=OK"), 600.0, "{second:?}");
    // What the server holds, through another client.
    let output = Command::new(env!("CARGO_BIN_EXE_hekla"))
        .arg("sql")
        .args(remote)
        .args([
            "-h",
            "-1",
            "-Q",
            "SET NOCOUNT ON SELECT COUNT(*) FROM dbo.usertable",
        ])
        .output()
        .expect("hekla sql runs");
    let count: f64 = String::from_utf8_lossy(&output.stdout)
        .trim()
        .parse()
        .unwrap();
    assert_eq!(count, 300.0 + inserted);
    let (clean, _) = server.terminate();
    assert!(clean);
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn bad_arguments_are_refused() {
    let output = Command::new(env!("CARGO_BIN_EXE_hekla"))
        .args(["bench", "ycsb", "--workload", "g"])
        .output()
        .expect("hekla runs");
    assert!(!output.status.success());
    let output = Command::new(env!("CARGO_BIN_EXE_hekla"))
        .args(["bench", "ycsb", "--threads", "0"])
        .output()
        .expect("hekla runs");
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("--threads"));
}
