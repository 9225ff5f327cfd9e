//! `hekla bench checkpoint` as a user runs it: the load makes the rows the
//! doublings promise, the five deletes remove exactly the IDs of their
//! ranges that exist, the manual CHECKPOINT is reported among the run's
//! checkpoints, and a kept data directory holds what the run left.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Output};

/// The article's deletes, inclusive ID ranges (two of them overlap).
const DELETED_RANGES: [(u64, u64); 5] = [
    (1000, 2000),
    (25000, 26000),
    (555555, 556555),
    (6666666, 6667666),
    (333, 1333),
];

fn hekla(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hekla"))
        .args(args)
        .output()
        .expect("hekla runs")
}

/// Runs the benchmark with `--json`; its figures by name.
fn bench(args: &[&str]) -> BTreeMap<String, f64> {
    let output = hekla(&[&["bench", "checkpoint", "--json"], args].concat());
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    figures(&stdout)
}

/// `{"bench": "checkpoint", "results": [{"name": N, "value": V, ...}, ...]}`
/// as N → V.
fn figures(json: &str) -> BTreeMap<String, f64> {
    assert!(
        json.starts_with("{\"bench\": \"checkpoint\", \"results\": ["),
        "{json}"
    );
    let mut figures = BTreeMap::new();
    for result in json.split("{\"name\": \"").skip(1) {
        let (name, rest) = result.split_once('"').expect("a closing quote");
        let value = rest
            .strip_prefix(", \"value\": ")
            .and_then(|rest| rest.split_once(',').map(|(value, _)| value))
            .unwrap_or_else(|| panic!("no value for {name} in {json}"));
        let value = value.parse().expect("a number");
        assert!(
            figures.insert(name.to_string(), value).is_none(),
            "{name} twice"
        );
    }
    figures
}

fn get(figures: &BTreeMap<String, f64>, name: &str) -> f64 {
    *figures
        .get(name)
        .unwrap_or_else(|| panic!("no {name} in {figures:?}"))
}

/// IDs 1..=rows that fall in at least one of the deleted ranges.
fn ids_deleted(rows: u64) -> u64 {
    (1..=rows)
        .filter(|id| {
            DELETED_RANGES
                .iter()
                .any(|(low, high)| (low..=high).contains(&id))
        })
        .count() as u64
}

#[test]
fn the_scenario_deletes_the_ranges_and_reports_every_checkpoint() {
    let figures = bench(&["--initial-rows", "200", "--doublings", "3"]);
    assert_eq!(get(&figures, "rows_loaded"), 1600.0);
    // 333..=1333 and 1000..=2000 overlap and end past the last ID: 333..=1600.
    assert_eq!(ids_deleted(1600), 1268);
    assert_eq!(get(&figures, "rows_deleted"), 1268.0);
    assert_eq!(get(&figures, "rows_after_deletes"), 1600.0 - 1268.0);
    for phase in [
        "single_row_inserts_s",
        "doubling_1_s",
        "doubling_2_s",
        "doubling_3_s",
        "deletes_s",
        "load_s",
        "checkpoint_statement_ms",
    ] {
        assert!(get(&figures, phase) > 0.0, "{phase}: {figures:?}");
    }
    assert!(!figures.contains_key("doubling_4_s"));

    // Every checkpoint is listed as checkpoint_N_KIND_*, N from 1; the
    // scenario's CHECKPOINT is the last, and the only manual one.
    let listed: Vec<&str> = (1..)
        .map_while(|n| {
            ["automatic", "manual"]
                .into_iter()
                .find(|kind| figures.contains_key(&format!("checkpoint_{n}_{kind}_ms")))
        })
        .collect();
    assert_eq!(listed.last(), Some(&"manual"), "{figures:?}");
    assert_eq!(listed.iter().filter(|kind| **kind == "manual").count(), 1);
    assert_eq!(
        get(&figures, "automatic_checkpoints"),
        (listed.len() - 1) as f64
    );
    let last = listed.len();
    let manual_ms = get(&figures, "manual_checkpoint_ms");
    assert!(manual_ms > 0.0);
    assert_eq!(
        get(&figures, &format!("checkpoint_{last}_manual_ms")),
        manual_ms
    );
    assert!(get(&figures, "manual_checkpoint_bytes_written") > 0.0);
    assert!(get(&figures, "checkpoint_total_ms") >= manual_ms);
    assert!(
        get(&figures, "checkpoint_bytes_written_total")
            >= get(&figures, "manual_checkpoint_bytes_written")
    );
    // The statement's own clock includes the checkpoint it ran.
    assert!(get(&figures, "checkpoint_statement_ms") >= manual_ms);

    assert!(get(&figures, "files_active_count") >= 2.0, "{figures:?}");
    assert!(get(&figures, "files_active_used_bytes") > 0.0);
    assert!(get(&figures, "data_dir_bytes") > 0.0);
    assert!(get(&figures, "data_dir_allocated_bytes") > 0.0);
}

/// With --data-dir the database stays, and a restart finds the rows the
/// scenario left (recovered from its checkpoint).
#[test]
fn a_given_data_dir_keeps_the_database() {
    let dir = std::env::temp_dir().join(format!("hekla-checkpoint-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let path = dir.to_str().expect("a UTF-8 path");
    let figures = bench(&[
        "--initial-rows",
        "50",
        "--doublings",
        "5",
        "--data-dir",
        path,
    ]);
    assert_eq!(get(&figures, "rows_loaded"), 1600.0);
    assert_eq!(get(&figures, "rows_after_deletes"), 332.0);
    let output = hekla(&[
        "sql",
        "--data-dir",
        path,
        "-h",
        "-1",
        "-Q",
        "SET NOCOUNT ON; SELECT COUNT(*), MIN(ID), MAX(ID) FROM HK_tbl",
    ]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    let numbers: Vec<&str> = stdout.split_whitespace().collect();
    assert_eq!(numbers, ["332", "1", "332"], "{stdout}");
    std::fs::remove_dir_all(Path::new(&dir)).expect("the directory was kept");
}

#[test]
fn sizes_beyond_the_int_identity_are_refused() {
    let output = hekla(&[
        "bench",
        "checkpoint",
        "--initial-rows",
        "10000",
        "--doublings",
        "18",
    ]);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("2621440000 rows after 18 doublings overflow the int IDENTITY column"),
        "{stderr}"
    );
}
