//! `hekla bench parse`: how fast T-SQL text becomes syntax trees. Figures:
//! statements/s and MB/s of T-SQL parsed for the sales-order procedure, the
//! statements a YCSB client sends, and a mixed corpus of DDL, queries and
//! procedures; plus the lexer alone.

use super::report::Report;
use clap::Args;
use hekla_parser::script::split_batches;
use std::hint::black_box;
use std::time::{Duration, Instant};

#[derive(Args)]
pub struct ParseArgs {
    /// Seconds each workload runs for.
    #[arg(long, default_value_t = 3.0)]
    seconds: f64,
    /// A short run for smoke tests (0.2 s per workload).
    #[arg(long)]
    quick: bool,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    json: bool,
}

/// The sales-order sample's scripts: the first batch is the natively
/// compiled `Sales.usp_InsertSalesOrder_inmem`.
const SALES_ORDER_PROCS: &str =
    include_str!("../../../hekla-parser/tests/corpus/sales_order_procs.sql");

/// The statements a YCSB client sends, one batch each (parameters as the
/// JDBC driver names them).
const YCSB_STATEMENTS: &[&str] = &[
    "SELECT * FROM usertable WHERE YCSB_KEY = @P0",
    "SELECT TOP (@P1) * FROM usertable WHERE YCSB_KEY >= @P0 ORDER BY YCSB_KEY",
    "INSERT INTO usertable (YCSB_KEY, FIELD0, FIELD1, FIELD2, FIELD3, FIELD4, FIELD5, FIELD6, FIELD7, FIELD8, FIELD9) VALUES (@P0, @P1, @P2, @P3, @P4, @P5, @P6, @P7, @P8, @P9, @P10)",
    "UPDATE usertable SET FIELD3 = @P0 WHERE YCSB_KEY = @P1",
    "DELETE FROM usertable WHERE YCSB_KEY = @P0",
];

/// A mixed corpus: DDL for memory-optimized tables, queries, DML and
/// procedures.
const CORPUS: &[&str] = &[
    include_str!("../../../hekla-parser/tests/corpus/ddl_tables.sql"),
    include_str!("../../../hekla-parser/tests/corpus/select_basic.sql"),
    include_str!("../../../hekla-parser/tests/corpus/select_joins.sql"),
    include_str!("../../../hekla-parser/tests/corpus/select_advanced.sql"),
    include_str!("../../../hekla-parser/tests/corpus/dml_insert.sql"),
    include_str!("../../../hekla-parser/tests/corpus/dml_update_delete.sql"),
    include_str!("../../../hekla-parser/tests/corpus/procedural.sql"),
    include_str!("../../../hekla-parser/tests/corpus/procedures.sql"),
    include_str!("../../../hekla-parser/tests/corpus/sales_order.sql"),
    SALES_ORDER_PROCS,
];

pub fn run(args: ParseArgs) -> Result<(), String> {
    let duration = Duration::from_secs_f64(if args.quick { 0.2 } else { args.seconds });
    let mut report = Report::new("parse", args.json);

    let sales_order = split_batches(SALES_ORDER_PROCS)
        .first()
        .map(|batch| batch.text.to_string())
        .ok_or("the sales-order script has no batches")?;
    let corpus: Vec<String> = CORPUS
        .iter()
        .flat_map(|script| split_batches(script))
        .map(|batch| batch.text.to_string())
        .filter(|text| hekla_parser::parse_batch(text).is_ok())
        .collect();
    let ycsb: Vec<String> = YCSB_STATEMENTS.iter().map(|s| s.to_string()).collect();

    for (name, batches) in [
        ("sales_order_proc", vec![sales_order]),
        ("ycsb", ycsb),
        ("corpus", corpus.clone()),
    ] {
        report.section(&format!("parse: {name}"));
        let figures = measure(&batches, duration, |text| {
            hekla_parser::parse_batch(text)
                .map(|batch| batch.statements.len())
                .map_err(|error| error.to_string())
        })?;
        report.add(
            format!("{name}_statements_per_s"),
            figures.statements_per_s,
            "stmt/s",
        );
        report.add(format!("{name}_mb_per_s"), figures.mb_per_s, "MB/s");
        report.add(format!("{name}_us_per_batch"), figures.us_per_batch, "us");
    }

    report.section("lexer alone: corpus");
    let figures = measure(&corpus, duration, |text| {
        hekla_parser::lexer::tokenize(text)
            .map(|tokens| tokens.len())
            .map_err(|error| error.to_string())
    })?;
    report.add("lexer_mb_per_s", figures.mb_per_s, "MB/s");
    report.finish();
    Ok(())
}

struct Figures {
    statements_per_s: f64,
    mb_per_s: f64,
    us_per_batch: f64,
}

/// Runs `work` over `batches` round-robin for `duration`; `work` returns
/// how many statements (or tokens) it produced.
fn measure(
    batches: &[String],
    duration: Duration,
    work: impl Fn(&str) -> Result<usize, String>,
) -> Result<Figures, String> {
    let mut statements = 0usize;
    let mut bytes = 0usize;
    let mut runs = 0usize;
    let start = Instant::now();
    while start.elapsed() < duration {
        for text in batches {
            statements += work(black_box(text))?;
            bytes += text.len();
            runs += 1;
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    Ok(Figures {
        statements_per_s: statements as f64 / seconds,
        mb_per_s: bytes as f64 / seconds / 1e6,
        us_per_batch: seconds * 1e6 / runs as f64,
    })
}
