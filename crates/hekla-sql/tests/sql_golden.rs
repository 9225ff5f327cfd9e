//! Golden SQL tests: each `tests/sql/*.sql` script runs in a fresh
//! in-memory database and what sqlcmd would print must equal its `.out`
//! file. `HEKLA_BLESS=1 cargo test -p hekla-sql --test sql_golden`
//! regenerates the expected files for review (`HEKLA_BLESS=name` only those
//! of scripts whose file name contains `name`).
//!
//! The scripts with natively compiled procedures also run with native
//! compilation off (`SqlDatabase::set_native_compilation(false)`: every
//! statement interpreted), and must print the same either way.

mod common;

use hekla_sql::session::SqlDatabase;
use std::path::{Path, PathBuf};

/// What sqlcmd would print for `script` run in a fresh database, with
/// natively compiled modules compiled or interpreted.
fn run_script(script: &str, native_compilation: bool) -> String {
    let db = SqlDatabase::in_memory().expect("in-memory database");
    db.set_native_compilation(native_compilation);
    let mut session = db.session().unwrap();
    common::printed(&mut session, script)
}

/// The golden scripts, in name order.
fn scripts() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/sql");
    let mut scripts: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/sql exists")
        .map(|entry| entry.expect("readable entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "sql"))
        .collect();
    scripts.sort();
    assert!(!scripts.is_empty());
    scripts
}

fn file_name(path: &Path) -> String {
    path.file_name().unwrap().to_string_lossy().into_owned()
}

/// Where `expected` and `actual` first differ, for a failure report.
fn first_difference(name: &str, expected: &str, actual: &str) -> String {
    let line = expected
        .lines()
        .zip(actual.lines())
        .position(|(e, a)| e != a)
        .unwrap_or(expected.lines().count().min(actual.lines().count()))
        + 1;
    format!(
        "{name}: line {line}\n  expected: {:?}\n  actual:   {:?}",
        expected.lines().nth(line - 1),
        actual.lines().nth(line - 1)
    )
}

#[test]
fn scripts_print_what_sql_server_prints() {
    let bless = std::env::var("HEKLA_BLESS").ok();
    let mut mismatches = Vec::new();
    for path in scripts() {
        let actual = run_script(
            &std::fs::read_to_string(&path).expect("readable script"),
            true,
        );
        let expected_path = path.with_extension("out");
        let name = file_name(&path);
        if let Some(filter) = &bless {
            if filter == "1" || name.contains(filter.as_str()) {
                std::fs::write(&expected_path, &actual).expect("writable");
            }
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if expected != actual {
            mismatches.push(first_difference(&name, &expected, &actual));
        }
    }
    assert!(
        mismatches.is_empty(),
        "{}\n(HEKLA_BLESS=1 regenerates)",
        mismatches.join("\n")
    );
}

#[test]
fn native_procedures_print_the_same_compiled_and_interpreted() {
    let mut compared = 0;
    let mut mismatches = Vec::new();
    for path in scripts() {
        let script = std::fs::read_to_string(&path).expect("readable script");
        let upper = script.to_ascii_uppercase();
        // Scripts that show the compiled code itself (its DMVs) print
        // what only compiling makes.
        let shows_the_code = ["DM_HEKLA_NATIVE_MODULES", "DM_OS_LOADED_MODULES"]
            .iter()
            .any(|view| upper.contains(view));
        if !upper.contains("NATIVE_COMPILATION") || shows_the_code {
            continue;
        }
        compared += 1;
        let interpreted = run_script(&script, false);
        let compiled = run_script(&script, true);
        if interpreted != compiled {
            mismatches.push(first_difference(&file_name(&path), &interpreted, &compiled));
        }
    }
    assert!(compared > 0, "no golden script has a native procedure");
    assert!(
        mismatches.is_empty(),
        "interpreted (expected) and compiled (actual) differ:\n{}",
        mismatches.join("\n")
    );
}
