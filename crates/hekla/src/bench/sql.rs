//! `hekla bench sql`: statements/s through the embedded SQL session (parse,
//! bind, plan, run; results to a sink that counts them), one thread, in
//! memory: a point SELECT by hash key, a single-row UPDATE by key, and a
//! 5-row INSERT. The COUNT(*) and three-table join figures come
//! with hash joins and the larger data sets.

use super::report::Report;
use clap::Args;
use hekla_sql::session::{ErrorEvent, ResultColumn, ResultSink, Session, SqlDatabase};
use hekla_types::Value;
use std::time::{Duration, Instant};

#[derive(Args)]
pub struct SqlBenchArgs {
    /// Rows loaded before the timed runs.
    #[arg(long, default_value_t = 100_000)]
    rows: u32,
    /// Seconds each workload runs for.
    #[arg(long, default_value_t = 3.0)]
    seconds: f64,
    /// A short run for smoke tests.
    #[arg(long)]
    quick: bool,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    json: bool,
}

/// Counts rows and fails on any error: a benchmark that silently measured
/// errors would be worthless.
#[derive(Default)]
struct CountingSink {
    rows: u64,
    error: Option<String>,
}

impl ResultSink for CountingSink {
    fn columns(&mut self, _: &[ResultColumn]) {}
    fn row(&mut self, _: &[Value]) {
        self.rows += 1;
    }
    fn done(&mut self, _: Option<u64>) {}
    fn message(&mut self, _: &str) {}
    fn error(&mut self, error: &ErrorEvent) {
        self.error.get_or_insert_with(|| error.to_string());
    }
}

pub fn run(args: SqlBenchArgs) -> Result<(), String> {
    let rows = if args.quick { 2_000 } else { args.rows };
    let duration = Duration::from_secs_f64(if args.quick { 0.2 } else { args.seconds });
    let mut report = Report::new("sql", args.json);
    let db = SqlDatabase::in_memory().map_err(|e| e.message)?;
    let mut session = db.session().map_err(|e| e.message)?;
    execute(
        &mut session,
        &format!(
            "SET NOCOUNT ON
             CREATE TABLE dbo.usertable (
                 ycsb_key int NOT NULL PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = {buckets}),
                 field0 varchar(100) NOT NULL, field1 varchar(100) NOT NULL, counter int NOT NULL
             ) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_ONLY)",
            buckets = (rows as u64 * 2).next_power_of_two()
        ),
    )?;
    report.section(&format!("load: {rows} rows, 100 per INSERT"));
    let start = Instant::now();
    for first in (0..rows).step_by(100) {
        let values: Vec<String> = (first..(first + 100).min(rows))
            .map(|key| format!("({key}, 'value-a-{key}', 'value-b-{key}', 0)"))
            .collect();
        execute(
            &mut session,
            &format!("INSERT INTO dbo.usertable VALUES {}", values.join(", ")),
        )?;
    }
    report.add(
        "load_rows_per_s",
        rows as f64 / start.elapsed().as_secs_f64(),
        "rows/s",
    );

    let mut key = Keys(0x9e37_79b9_7f4a_7c15);
    report.section("one thread, statements/s");
    let point = measure(duration, || {
        let k = key.next(rows);
        execute(
            &mut session,
            &format!("SELECT field0, field1 FROM dbo.usertable WHERE ycsb_key = {k}"),
        )
    })?;
    report.add("point_select_per_s", point, "stmt/s");
    let update = measure(duration, || {
        let k = key.next(rows);
        execute(
            &mut session,
            &format!("UPDATE dbo.usertable SET counter += 1 WHERE ycsb_key = {k}"),
        )
    })?;
    report.add("update_by_key_per_s", update, "stmt/s");
    let mut next = rows;
    let insert = measure(duration, || {
        let values: Vec<String> = (next..next + 5)
            .map(|k| format!("({k}, 'a', 'b', 0)"))
            .collect();
        next += 5;
        execute(
            &mut session,
            &format!("INSERT INTO dbo.usertable VALUES {}", values.join(", ")),
        )
    })?;
    report.add("insert_5_rows_per_s", insert, "stmt/s");
    report.finish();
    Ok(())
}

fn execute(session: &mut Session, batch: &str) -> Result<u64, String> {
    let mut sink = CountingSink::default();
    session.execute(batch, &mut sink);
    match sink.error {
        Some(error) => Err(format!("{error}\nin: {batch}")),
        None => Ok(sink.rows),
    }
}

/// Runs `statement` for `duration`; statements per second.
fn measure(
    duration: Duration,
    mut statement: impl FnMut() -> Result<u64, String>,
) -> Result<f64, String> {
    let start = Instant::now();
    let mut count = 0u64;
    while start.elapsed() < duration {
        statement()?;
        count += 1;
    }
    Ok(count as f64 / start.elapsed().as_secs_f64())
}

/// xorshift64*: uniform keys below a bound.
struct Keys(u64);

impl Keys {
    fn next(&mut self, below: u32) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) % u64::from(below)
    }
}
