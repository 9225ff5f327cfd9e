//! Parses the same T-SQL statements with hekla-parser and with sqlparser-rs
//! (MsSqlDialect) and prints MB/s and statements/s for both. Only
//! statements both parsers accept are timed, so the figures compare equal
//! work; how many each accepts is printed too.

use sqlparser::dialect::MsSqlDialect;
use sqlparser::parser::Parser;
use std::hint::black_box;
use std::time::{Duration, Instant};

const CORPUS_DIR: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../crates/hekla-parser/tests/corpus"
);

/// Single statements from the corpus: each batch's statements printed back
/// one at a time by hekla, so both parsers see one statement per input.
fn statements() -> Vec<String> {
    let mut files: Vec<_> = std::fs::read_dir(CORPUS_DIR)
        .expect("corpus directory")
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "sql"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let script = std::fs::read_to_string(&path).unwrap();
        for batch in hekla_parser::script::split_batches(&script) {
            let Ok(tree) = hekla_parser::parse_batch(batch.text) else {
                continue;
            };
            for statement in tree.statements {
                out.push(statement.span.text(batch.text).to_string());
            }
        }
    }
    out
}

fn time(inputs: &[String], seconds: f64, parse: impl Fn(&str) -> bool) -> (f64, f64) {
    let start = Instant::now();
    let (mut bytes, mut count) = (0usize, 0usize);
    while start.elapsed() < Duration::from_secs_f64(seconds) {
        for text in inputs {
            assert!(parse(black_box(text)));
            bytes += text.len();
            count += 1;
        }
    }
    let elapsed = start.elapsed().as_secs_f64();
    (bytes as f64 / elapsed / 1e6, count as f64 / elapsed)
}

fn main() {
    let seconds: f64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(3.0);
    let dialect = MsSqlDialect {};
    let hekla = |text: &str| hekla_parser::parse_batch(text).is_ok();
    let peer = |text: &str| Parser::parse_sql(&dialect, text).is_ok();

    let all = statements();
    let common: Vec<String> = all
        .iter()
        .filter(|s| hekla(s) && peer(s))
        .cloned()
        .collect();
    let ycsb: Vec<String> = [
        "SELECT * FROM usertable WHERE YCSB_KEY = @P0",
        "SELECT TOP (@P1) * FROM usertable WHERE YCSB_KEY >= @P0 ORDER BY YCSB_KEY",
        "INSERT INTO usertable (YCSB_KEY, FIELD0, FIELD1, FIELD2, FIELD3, FIELD4, FIELD5, FIELD6, FIELD7, FIELD8, FIELD9) VALUES (@P0, @P1, @P2, @P3, @P4, @P5, @P6, @P7, @P8, @P9, @P10)",
        "UPDATE usertable SET FIELD3 = @P0 WHERE YCSB_KEY = @P1",
        "DELETE FROM usertable WHERE YCSB_KEY = @P0",
    ]
    .iter()
    .map(|s| s.to_string())
    .filter(|s| hekla(s) && peer(s))
    .collect();

    println!(
        "corpus statements: {} (hekla parses all; sqlparser MsSqlDialect parses {})",
        all.len(),
        common.len()
    );
    for (name, inputs) in [
        ("common corpus statements", &common),
        ("YCSB statements", &ycsb),
    ] {
        let (hekla_mb, hekla_rate) = time(inputs, seconds, hekla);
        let (peer_mb, peer_rate) = time(inputs, seconds, peer);
        println!("{name} ({} inputs)", inputs.len());
        println!("  hekla       {hekla_mb:8.1} MB/s  {hekla_rate:12.0} statements/s");
        println!("  sqlparser   {peer_mb:8.1} MB/s  {peer_rate:12.0} statements/s");
        println!("  ratio       {:8.2}x", hekla_mb / peer_mb);
    }
}
