//! `hekla stress` as a user runs it: real processes on a real data
//! directory, and against a `hekla serve` server over TCP.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn hekla(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hekla"))
        .args(args)
        .output()
        .expect("hekla runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs `hekla` and expects success; its stdout.
fn succeeds(args: &[&str]) -> String {
    let output = hekla(args);
    assert!(
        output.status.success(),
        "hekla {args:?}: {} {}",
        text(&output.stdout),
        text(&output.stderr)
    );
    text(&output.stdout)
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hekla-stress-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The value of the report line `name` (its text after the name).
fn report_line<'a>(report: &'a str, name: &str) -> &'a str {
    report
        .lines()
        .find_map(|line| {
            line.strip_prefix(name)
                .filter(|rest| rest.starts_with(' '))
                .map(str::trim)
        })
        .unwrap_or_else(|| panic!("no {name} line in {report}"))
}

/// The value of `name` in the `--json` report.
fn json_value(json: &str, name: &str) -> f64 {
    let key = format!("\"name\": \"{name}\", \"value\": ");
    let start = json
        .find(&key)
        .unwrap_or_else(|| panic!("no {name} in {json}"))
        + key.len();
    let end = start + json[start..].find(',').expect("a unit follows");
    json[start..end].parse().expect("a number")
}

/// `SELECT COUNT(*)` through `hekla sql` with `connection` (a data
/// directory's or a server's flags).
fn count_rows(connection: &[&str], table: &str) -> u64 {
    let mut args = vec!["sql", "-h", "-1"];
    args.extend(connection);
    let query = format!("SET NOCOUNT ON; SELECT COUNT(*) FROM {table}");
    args.extend(["-Q", query.as_str()]);
    let out = succeeds(&args);
    out.trim()
        .parse()
        .unwrap_or_else(|_| panic!("a count: {out}"))
}

fn data_dir_flags(dir: &Path) -> [&str; 2] {
    ["--data-dir", dir.to_str().unwrap()]
}

#[test]
fn embedded_connections_insert_every_row_once() {
    let dir = scratch("embedded");
    let local = data_dir_flags(&dir);
    let mut create = vec!["sql"];
    create.extend(local);
    create.extend([
        "-Q",
        "CREATE TABLE dbo.hits (id int IDENTITY PRIMARY KEY NONCLUSTERED, \
         connection int NOT NULL) WITH (MEMORY_OPTIMIZED = ON)",
    ]);
    succeeds(&create);

    let mut stress = vec!["stress"];
    stress.extend(local);
    stress.extend(["-n", "4", "-r", "50", "-q", "-Q"]);
    stress.push("INSERT dbo.hits (connection) VALUES (@@SPID)");
    let report = succeeds(&stress);
    assert_eq!(report_line(&report, "batches"), "200 of 200", "{report}");
    assert_eq!(report_line(&report, "iterations"), "200 of 200", "{report}");
    assert_eq!(report_line(&report, "errors"), "0", "{report}");
    assert_eq!(report_line(&report, "connections failed"), "0", "{report}");
    assert!(
        report_line(&report, "latency p99").ends_with(" ms"),
        "{report}"
    );
    assert_eq!(count_rows(&local, "dbo.hits"), 200);

    // Four sessions, each of which inserted its 50 rows.
    let mut per_session = vec!["sql", "-h", "-1"];
    per_session.extend(local);
    per_session.extend([
        "-Q",
        "SET NOCOUNT ON; SELECT COUNT(*) FROM dbo.hits GROUP BY connection HAVING COUNT(*) = 50",
    ]);
    assert_eq!(succeeds(&per_session).lines().count(), 4);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn errors_are_counted_by_number_and_the_connections_go_on() {
    let dir = scratch("errors");
    let local = data_dir_flags(&dir);
    let mut create = vec!["sql"];
    create.extend(local);
    create.extend([
        "-Q",
        "CREATE TABLE dbo.k (id int NOT NULL PRIMARY KEY NONCLUSTERED) \
         WITH (MEMORY_OPTIMIZED = ON); \
         DECLARE @id int = 0; WHILE @id < 1000 BEGIN INSERT dbo.k VALUES (@id); SET @id += 1; END",
    ]);
    succeeds(&create);
    let logs = dir.join("logs");

    // A key violation ends its statement, not the batch: the division
    // after it fails too, and the query after that still runs; every
    // iteration runs the whole batch.
    let mut stress = vec!["stress"];
    stress.extend(local);
    stress.extend([
        "-n",
        "3",
        "-r",
        "10",
        "-q",
        "-o",
        logs.to_str().unwrap(),
        "-Q",
    ]);
    // Each connection repeats a key of its own (its session id, which
    // exists): connections inserting the same key at once may also
    // conflict (41302), which is not what this counts.
    stress.push("INSERT dbo.k VALUES (@@SPID); SELECT 1 / 0; SELECT id FROM dbo.k WHERE id = 1");
    let report = succeeds(&stress);
    assert_eq!(report_line(&report, "batches"), "30 of 30", "{report}");
    assert_eq!(report_line(&report, "errors"), "60", "{report}");
    assert_eq!(report_line(&report, "rows returned"), "30", "{report}");
    assert!(
        report.contains("\n  2627: 30  Violation of PRIMARY KEY constraint")
            && report.contains("\n  8134: 30  Divide by zero error encountered."),
        "{report}"
    );
    assert_eq!(count_rows(&local, "dbo.k"), 1000);

    // -o: a log per connection with its errors' texts, and the report.
    for connection in 1..=3 {
        let log =
            std::fs::read_to_string(logs.join(format!("connection_{connection}.log"))).unwrap();
        assert_eq!(log.matches("Msg 2627, Level 14").count(), 10, "{log}");
        assert_eq!(
            log.matches("Divide by zero error encountered.").count(),
            10,
            "{log}"
        );
        assert!(log.contains("iteration 10, batch 1: Msg 8134"), "{log}");
    }
    assert_eq!(
        std::fs::read_to_string(logs.join("summary.log")).unwrap(),
        report
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_script_runs_over_the_wire_on_every_connection() {
    let root = scratch("server");
    let server = common::start(&root.join("served"));
    let password = common::generated_password(&server);
    let endpoint = server.address.replace(':', ",");
    let remote = ["-S", endpoint.as_str(), "-U", "sa", "-P", password.as_str()];
    let mut create = vec!["sql"];
    create.extend(remote);
    create.extend([
        "-b",
        "-Q",
        "CREATE TABLE dbo.orders (id int IDENTITY PRIMARY KEY NONCLUSTERED, \
         spid int NULL) WITH (MEMORY_OPTIMIZED = ON)",
    ]);
    succeeds(&create);

    // Two batches an iteration: an insert, then a query whose one row is
    // read and counted.
    let script = root.join("orders.sql");
    std::fs::write(
        &script,
        "INSERT dbo.orders (spid) VALUES (@@SPID)\nGO\nSELECT COUNT(*) FROM dbo.orders\nGO\n",
    )
    .unwrap();
    let mut stress = vec!["stress"];
    stress.extend(remote);
    stress.extend([
        "-n",
        "4",
        "-r",
        "25",
        "--json",
        "-i",
        script.to_str().unwrap(),
    ]);
    let json = succeeds(&stress);
    assert_eq!(json_value(&json, "batches"), 200.0, "{json}");
    assert_eq!(json_value(&json, "iterations"), 100.0, "{json}");
    assert_eq!(json_value(&json, "rows"), 100.0, "{json}");
    assert_eq!(json_value(&json, "errors"), 0.0, "{json}");
    assert!(json_value(&json, "batches_per_s") > 0.0, "{json}");
    assert_eq!(count_rows(&remote, "dbo.orders"), 100);

    // Four server sessions, each of which inserted its 25 rows.
    let mut per_session = vec!["sql", "-h", "-1"];
    per_session.extend(remote);
    per_session.extend([
        "-Q",
        "SET NOCOUNT ON; SELECT COUNT(*) FROM dbo.orders GROUP BY spid HAVING COUNT(*) = 25",
    ]);
    assert_eq!(succeeds(&per_session).lines().count(), 4);

    // Errors come back over TDS with their numbers too.
    let mut failing = vec!["stress"];
    failing.extend(remote);
    failing.extend(["-n", "2", "-r", "5", "--json", "-Q", "SELECT 1 / 0"]);
    let json = succeeds(&failing);
    assert_eq!(json_value(&json, "errors_8134"), 10.0, "{json}");
    assert_eq!(json_value(&json, "batches"), 10.0, "{json}");

    // No connection logs in: exit status 1 and the server's reason.
    let output = hekla(&[
        "stress", "-S", &endpoint, "-U", "sa", "-P", "wrong", "-n", "3", "-Q", "SELECT 1",
    ]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains("no connection could be made")
            && stderr.contains("Login failed for user 'sa'."),
        "{stderr}"
    );

    let (clean, _) = server.terminate();
    assert!(clean);
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn a_connection_whose_server_goes_away_stops() {
    let root = scratch("lost");
    let server = common::start(&root.join("served"));
    let password = common::generated_password(&server);
    let endpoint = server.address.replace(':', ",");
    let stress = Command::new(env!("CARGO_BIN_EXE_hekla"))
        .args(["stress", "-S", &endpoint, "-U", "sa", "-P", &password])
        .args(["-n", "2", "-r", "100000000", "-q", "-Q", "SELECT 1"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    server.wait_for_log(" INFO  login ", 2);
    let (clean, _) = server.terminate();
    assert!(clean);

    // Each connection stops at its first failed batch: the run ends long
    // before its hundred million iterations, and says why.
    let output = stress.wait_with_output().unwrap();
    let report = text(&output.stdout);
    assert!(output.status.success(), "{report} {}", text(&output.stderr));
    assert_eq!(report_line(&report, "connections lost"), "2", "{report}");
    assert!(
        report.contains("\n  0: 2  communication link failure: "),
        "{report}"
    );
    let iterations = report_line(&report, "iterations");
    assert!(iterations.ends_with(" of 200,000,000"), "{report}");
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn wrong_arguments_are_usage_errors() {
    let dir = scratch("usage");
    let dir = dir.to_str().unwrap();
    for args in [
        &["stress", "--data-dir", dir][..],
        &["stress", "-Q", "SELECT 1"],
        &["stress", "--data-dir", dir, "-n", "0", "-Q", "SELECT 1"],
        &["stress", "--data-dir", dir, "-r", "many", "-Q", "SELECT 1"],
        &["stress", "--data-dir", dir, "-Q", "SELECT 1", "-i", "x.sql"],
        &["stress", "-S", "127.0.0.1", "-Q", "SELECT 1"],
        &["stress", "--data-dir", dir, "-d", "other", "-Q", "SELECT 1"],
    ] {
        let output = hekla(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(text(&output.stderr).starts_with("error: "), "{args:?}");
    }
    let output = hekla(&["stress", "-E", "-Q", "SELECT 1"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(text(&output.stderr).contains("-E (Windows authentication) is not supported"));
    let output = hekla(&["stress", "--data-dir", dir, "-i", "/nonexistent/x.sql"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(text(&output.stderr).contains("cannot read /nonexistent/x.sql"));
    let output = hekla(&["stress", "--data-dir", dir, "-Q", "\nGO\n"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(text(&output.stderr).contains("no batch to run"));
    let _ = std::fs::remove_dir_all(dir);
}
