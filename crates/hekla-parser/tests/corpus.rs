//! Golden tests: every `tests/corpus/*.sql` script is split into batches,
//! each batch is parsed, and the printed tree (or the error, as sqlcmd
//! shows it) is compared with `tests/corpus/*.out`. Every tree must also
//! survive a round trip: printing it and parsing the text again gives the
//! same tree, and printing that gives the same text.
//!
//! After a deliberate change, regenerate the expected files with
//! `HEKLA_BLESS=1 cargo test -p hekla-parser --test corpus` and review the diff.

use hekla_parser::print::to_sql;
use hekla_parser::script::split_batches;
use hekla_parser::{parse_batch, strip_spans};
use std::fmt::Write;
use std::path::{Path, PathBuf};

fn corpus_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/corpus exists")
        .map(|entry| entry.expect("readable corpus entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "sql"))
        .collect();
    files.sort();
    assert!(files.len() >= 20, "corpus went missing: {files:?}");
    files
}

/// The expected-output text for one script.
fn render(script: &str, name: &str) -> String {
    let mut out = String::new();
    for batch in split_batches(script) {
        writeln!(out, "-- batch at line {}", batch.first_line).unwrap();
        match parse_batch(batch.text) {
            Ok(tree) => {
                let printed = to_sql(&tree);
                check_round_trip(&tree, &printed, name, batch.first_line);
                check_spans(&tree, batch.text, name);
                writeln!(out, "{printed}").unwrap();
            }
            Err(error) => writeln!(out, "{error}").unwrap(),
        }
        out.push('\n');
    }
    out
}

fn check_round_trip(tree: &hekla_parser::ast::Batch, printed: &str, name: &str, line: u32) {
    let reparsed = parse_batch(printed).unwrap_or_else(|error| {
        panic!("{name}, batch at line {line}: printed text does not parse:\n{printed}\n{error}")
    });
    assert_eq!(
        strip_spans(&format!("{tree:?}")),
        strip_spans(&format!("{reparsed:?}")),
        "{name}, batch at line {line}: the printed text parses to a different tree:\n{printed}"
    );
    assert_eq!(
        to_sql(&reparsed),
        printed,
        "{name}, line {line}: printing is not stable"
    );
}

/// Statement spans lie inside the batch, in order, and start on a token.
fn check_spans(tree: &hekla_parser::ast::Batch, text: &str, name: &str) {
    let mut previous_end = 0;
    for statement in &tree.statements {
        let span = statement.span;
        assert!(
            span.start <= span.end && span.end as usize <= text.len(),
            "{name}: {span:?}"
        );
        assert!(
            span.start >= previous_end,
            "{name}: statements overlap at {span:?}"
        );
        let first = &text[span.start as usize..];
        assert!(
            !first.starts_with(char::is_whitespace),
            "{name}: span starts on blank"
        );
        previous_end = span.end;
    }
}

#[test]
fn corpus_matches_expected_output() {
    let bless = std::env::var_os("HEKLA_BLESS").is_some();
    let mut mismatches = Vec::new();
    for path in corpus_files() {
        let script = std::fs::read_to_string(&path).expect("readable script");
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let actual = render(&script, &name);
        let expected_path = path.with_extension("out");
        if bless {
            std::fs::write(&expected_path, &actual).expect("writable corpus");
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if expected != actual {
            let line = expected
                .lines()
                .zip(actual.lines())
                .position(|(e, a)| e != a)
                .map_or(expected.lines().count().min(actual.lines().count()), |i| i)
                + 1;
            mismatches.push(format!("{name}: differs from {name}.out at line {line}"));
        }
    }
    assert!(
        mismatches.is_empty(),
        "{}\n(HEKLA_BLESS=1 regenerates the .out files)",
        mismatches.join("\n")
    );
}

#[test]
fn every_seed_and_construct_file_parses_except_known_refusals() {
    // Batches the corpus keeps on purpose to show an error; everything else
    // in the corpus must parse.
    let expected_errors = [
        ("errors.sql", usize::MAX),
        ("dml_update_delete.sql", 2),
        ("security.sql", 1),
        ("seed_000_restore.sql", 1),
        ("seed_001_nesting_latch.sql", 2),
        ("seed_004_setup.sql", 1),
        ("transactions_settings.sql", 1),
    ];
    for path in corpus_files() {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let script = std::fs::read_to_string(&path).unwrap();
        let failures: Vec<String> = split_batches(&script)
            .iter()
            .filter_map(|batch| {
                parse_batch(batch.text)
                    .err()
                    .map(|e| format!("line {}: {e}", batch.first_line))
            })
            .collect();
        let allowed = expected_errors
            .iter()
            .find(|(file, _)| *file == name)
            .map_or(0, |(_, count)| *count);
        if allowed == usize::MAX {
            assert_eq!(
                failures.len(),
                split_batches(&script).len(),
                "{name}: every batch must fail"
            );
        } else {
            assert_eq!(failures.len(), allowed, "{name}: {failures:#?}");
        }
    }
}
