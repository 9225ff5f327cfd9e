//! `hekla demo` as a user runs it: the sample loads, the orders asked for
//! are inserted and counted in the table, the views are shown before and
//! after, a second run resets the sample, a temporary database is removed,
//! and the same runs against a `hekla serve` process.

mod common;

use std::path::Path;
use std::process::Command;

fn demo(args: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_hekla"))
        .arg("demo")
        .args(args)
        .output()
        .expect("hekla runs");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

/// The report's value for `name` (`orders inserted      400 (...)`).
fn figure<'a>(report: &'a str, name: &str) -> &'a str {
    report
        .lines()
        .find_map(|line| line.strip_prefix(name))
        .unwrap_or_else(|| panic!("no {name:?} in:\n{report}"))
        .split_whitespace()
        .next()
        .unwrap()
}

fn check_run(report: &str, orders: &str, total_after: &str) {
    assert_eq!(figure(report, "orders inserted"), orders, "{report}");
    assert!(
        report.contains(&format!(
            "({total_after} in Sales.SalesOrderHeader_inmem now)"
        )),
        "{report}"
    );
    assert_eq!(figure(report, "errors"), "0", "{report}");
    assert_eq!(figure(report, "connections failed"), "0", "{report}");
    for heading in ["before the workload", "after the workload"] {
        assert!(report.contains(&format!("## Memory and checkpoint files {heading}")));
    }
    // The article's views: the XTP memory clerk and the checkpoint files.
    assert!(report.contains("MEMORYCLERK_XTP"), "{report}");
    assert!(report.contains("SalesOrderDetail_inmem"), "{report}");
    assert!(
        report.contains("DATA") && report.contains("DELTA"),
        "{report}"
    );
}

#[test]
fn loads_the_sample_inserts_the_orders_and_resets_on_a_second_run() {
    let dir = std::env::temp_dir().join(format!("hekla-demo-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let data_dir = dir.to_str().unwrap();
    let args = [
        "--orders",
        "400",
        "--connections",
        "4",
        "-q",
        "--data-dir",
        data_dir,
    ];
    let first = demo(&args);
    assert!(first.contains("loaded the sample"), "{first}");
    check_run(&first, "400", "31865");
    // 400 orders at 20 a batch over 4 connections: 5 runs each.
    assert!(first.contains("4 connections x 5 runs"), "{first}");
    let second = demo(&args);
    assert!(second.contains("reset with Demo.usp_DemoReset"), "{second}");
    check_run(&second, "400", "31865");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_temporary_database_is_removed_at_the_end() {
    let report = demo(&["--orders", "40", "--connections", "2", "-q"]);
    check_run(&report, "40", "31505");
    let dir = report
        .lines()
        .next()
        .and_then(|line| line.split("embedded, durable, in ").nth(1))
        .and_then(|rest| rest.strip_suffix(')'))
        .unwrap_or_else(|| panic!("the first line names the directory:\n{report}"));
    assert!(!Path::new(dir).exists(), "{dir} is left behind");
}

#[test]
fn runs_against_a_server() {
    let root = std::env::temp_dir().join(format!("hekla-demo-server-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let server = common::start(&root);
    let password = common::generated_password(&server);
    let endpoint = server.address.replace(':', ",");
    let report = demo(&[
        "-S",
        &endpoint,
        "-U",
        "sa",
        "-P",
        &password,
        "--orders",
        "60",
        "--connections",
        "3",
        "-q",
    ]);
    check_run(&report, "60", "31525");
    let (clean, _) = server.terminate();
    assert!(clean);
    let _ = std::fs::remove_dir_all(&root);
}
