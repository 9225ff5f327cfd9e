//! Golden SQL tests: each `tests/sql/*.sql` script runs in a fresh
//! in-memory database and what sqlcmd would print must equal its `.out`
//! file. `HEKLA_BLESS=1 cargo test -p hekla-sql --test sql_golden`
//! regenerates the expected files for review (`HEKLA_BLESS=name` only those
//! of scripts whose file name contains `name`).

use hekla_parser::script::split_batches;
use hekla_sql::session::SqlDatabase;
use hekla_sql::text_output::{TextOptions, TextSink};
use std::path::Path;

fn run_script(script: &str) -> String {
    let db = SqlDatabase::in_memory().expect("in-memory database");
    let mut session = db.session().unwrap();
    let mut sink = TextSink::new(Vec::new(), TextOptions::default());
    for batch in split_batches(script) {
        for _ in 0..batch.repeat {
            session.execute(batch.text, &mut sink);
        }
    }
    let (out, failed) = sink.finish();
    assert!(failed.is_none(), "writing to memory cannot fail");
    String::from_utf8(out).expect("output is UTF-8")
}

#[test]
fn scripts_print_what_sql_server_prints() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/sql");
    let mut scripts: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/sql exists")
        .map(|entry| entry.expect("readable entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "sql"))
        .collect();
    scripts.sort();
    assert!(!scripts.is_empty());
    let bless = std::env::var("HEKLA_BLESS").ok();
    let mut mismatches = Vec::new();
    for path in scripts {
        let actual = run_script(&std::fs::read_to_string(&path).expect("readable script"));
        let expected_path = path.with_extension("out");
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if let Some(filter) = &bless {
            if filter == "1" || name.contains(filter.as_str()) {
                std::fs::write(&expected_path, &actual).expect("writable");
            }
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if expected != actual {
            let line = expected
                .lines()
                .zip(actual.lines())
                .position(|(e, a)| e != a)
                .unwrap_or(expected.lines().count().min(actual.lines().count()))
                + 1;
            mismatches.push(format!(
                "{name}: line {line}\n  expected: {:?}\n  actual:   {:?}",
                expected.lines().nth(line - 1),
                actual.lines().nth(line - 1)
            ));
        }
    }
    assert!(
        mismatches.is_empty(),
        "{}\n(HEKLA_BLESS=1 regenerates)",
        mismatches.join("\n")
    );
}
