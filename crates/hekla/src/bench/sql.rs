//! `hekla bench sql`: statements/s through the embedded SQL session (parse,
//! bind, plan, run; results to a sink that counts them), one thread, in
//! memory: a point SELECT by hash key, a single-row UPDATE by key, a 5-row
//! INSERT; then the seeds' analytic queries: `SELECT COUNT(*)` over the
//! 5,000,000-row Sales.SalesOrderDetailMedium of `003_*.txt`, and the
//! SMALL/MEDIUM/LARGE three-table join of `001_*.txt`, each loaded the way
//! the articles load them (INSERT ... SELECT TOP (n) ROW_NUMBER() OVER
//! (ORDER BY (SELECT NULL)) FROM master..spt_values cross joins); then
//! GROUP BY over a column a range index leads with (a stream aggregate)
//! against the same values in a column without one (a hash aggregate);
//! and the seed's sales-order procedure (`workloads/sales_orders.sql`):
//! one order of 5 lines per batch, as a client sends it, and the article's
//! ostress script (20 orders per batch, the same text every time) on one
//! and on two sessions. The point statements run twice: as ad-hoc text
//! with the key inlined (a new text each time) and as one parameterised
//! `sp_executesql` statement called through the RPC entry point, as a
//! driver's prepared statement sends it.

use super::counting::{self, Counting};
use super::report::Report;
use clap::Args;
use hekla_sql::rpc::{RpcParameter, RpcValue};
use hekla_sql::session::{Session, SqlDatabase};
use hekla_types::{Collation, DataType, Length, Value};
use std::sync::Arc;
use std::time::{Duration, Instant};

#[derive(Args)]
pub struct SqlBenchArgs {
    /// Rows loaded before the timed runs.
    #[arg(long, default_value_t = 100_000)]
    rows: u32,
    /// Seconds each workload runs for.
    #[arg(long, default_value_t = 3.0)]
    seconds: f64,
    /// Rows of the COUNT(*) table (the article's 5,000,000).
    #[arg(long, default_value_t = 5_000_000)]
    count_rows: u64,
    /// Rows of the join's LARGE table (the article's 8,000,000; MEDIUM
    /// has 3/40 as many and SMALL 100).
    #[arg(long, default_value_t = 8_000_000)]
    large_rows: u64,
    /// Rows of the GROUP BY table (100 per group).
    #[arg(long, default_value_t = 2_000_000)]
    group_rows: u64,
    /// Times each analytic query runs (the best and the median are shown).
    #[arg(long, default_value_t = 5)]
    repeat: u32,
    /// A short run for smoke tests.
    #[arg(long)]
    quick: bool,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    json: bool,
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
    let point = measure(duration, || {
        let k = key.next(rows);
        execute_sql(
            &mut session,
            "SELECT field0, field1 FROM dbo.usertable WHERE ycsb_key = @k",
            k,
        )
    })?;
    report.add("point_select_param_per_s", point, "stmt/s");
    let update = measure(duration, || {
        let k = key.next(rows);
        execute_sql(
            &mut session,
            "UPDATE dbo.usertable SET counter += 1 WHERE ycsb_key = @k",
            k,
        )
    })?;
    report.add("update_by_key_param_per_s", update, "stmt/s");
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
    sales_orders(&mut report, duration)?;
    let (count_rows, large_rows, group_rows) = if args.quick {
        (20_000, 20_000, 20_000)
    } else {
        (args.count_rows, args.large_rows, args.group_rows)
    };
    let repeat = if args.quick { 1 } else { args.repeat };
    count_star(&mut session, &mut report, count_rows, repeat)?;
    three_table_join(&mut session, &mut report, large_rows, repeat)?;
    group_by(&mut session, &mut report, group_rows, repeat)?;
    report.finish();
    Ok(())
}

/// The row generator of the seeds: numbers 1..=n from spt_values.
fn numbers(n: u64) -> String {
    format!(
        "SELECT TOP ({n}) ROW_NUMBER() OVER (ORDER BY (SELECT NULL)) AS RN
         FROM master..spt_values t1 CROSS JOIN master..spt_values t2
         CROSS JOIN master..spt_values t3"
    )
}

/// `003_*.txt`: COUNT(*) over Sales.SalesOrderDetailMedium.
fn count_star(
    session: &mut Session,
    report: &mut Report,
    rows: u64,
    repeat: u32,
) -> Result<(), String> {
    execute(
        session,
        &format!(
            "CREATE SCHEMA Sales
             CREATE TABLE Sales.SalesOrderDetailMedium (
                 SalesOrderID int NOT NULL, SalesOrderDetailID int NOT NULL,
                 CarrierTrackingNumber nvarchar(25) NULL, OrderQty smallint NOT NULL,
                 ProductID int NOT NULL, UnitPrice money NOT NULL,
                 INDEX IX HASH (SalesOrderID, SalesOrderDetailID) WITH (BUCKET_COUNT = {rows})
             ) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_ONLY)"
        ),
    )?;
    report.section(&format!("COUNT(*) over {rows} rows (003)"));
    let start = Instant::now();
    execute(
        session,
        &format!(
            "INSERT Sales.SalesOrderDetailMedium
             SELECT 43659 + RN / 4, RN, N'4911-403C-98', RN % 10 + 1, 700 + RN % 300, 20.5
             FROM ({}) AS q",
            numbers(rows)
        ),
    )?;
    report.add(
        "count_table_load_rows_per_s",
        rows as f64 / start.elapsed().as_secs_f64(),
        "rows/s",
    );
    let times = timed(
        session,
        "SELECT COUNT(*) FROM Sales.SalesOrderDetailMedium",
        repeat,
        1,
    )?;
    report_times(report, "count_star", &times);
    execute(session, "DROP TABLE Sales.SalesOrderDetailMedium")?;
    Ok(())
}

/// `001_*.txt`: SMALL (100 rows) ⋈ LARGE ⋈ MEDIUM at MAXDOP 1, LARGE's
/// two indexes created after it is loaded, as the article does.
fn three_table_join(
    session: &mut Session,
    report: &mut Report,
    large: u64,
    repeat: u32,
) -> Result<(), String> {
    let medium = large * 3 / 40;
    report.section(&format!(
        "three-table join (001): SMALL 100, MEDIUM {medium}, LARGE {large} rows"
    ));
    let start = Instant::now();
    execute(
        session,
        &format!(
            "CREATE TABLE dbo.SMALL (ID_U NUMERIC(18, 0))
             INSERT INTO dbo.SMALL WITH (TABLOCK) SELECT TOP (100) 5 * RN FROM ({small}) AS q
             CREATE TABLE dbo.MEDIUM (ID_A NUMERIC(18, 0))
             INSERT INTO dbo.MEDIUM WITH (TABLOCK) SELECT RN FROM ({medium}) AS q
             CREATE TABLE dbo.LARGE (ID_A NUMERIC(18, 0), ID_U NUMERIC(18, 0), FILLER VARCHAR(100))
             INSERT INTO dbo.LARGE WITH (TABLOCK)
             SELECT 2 * (RN / 4), RN % 500, '{filler}' FROM ({large}) AS q",
            small = numbers(100),
            medium = numbers(medium),
            large = numbers(large),
            filler = "Z".repeat(100),
        ),
    )?;
    report.add("join_tables_load_s", start.elapsed().as_secs_f64(), "s");
    let start = Instant::now();
    execute(session, "CREATE INDEX IA ON dbo.LARGE (ID_A)")?;
    execute(session, "CREATE INDEX IU ON dbo.LARGE (ID_U)")?;
    report.add("join_create_indexes_s", start.elapsed().as_secs_f64(), "s");
    let query = "SELECT LARGE.ID_U
                 FROM dbo.SMALL
                 INNER JOIN dbo.LARGE ON SMALL.ID_U = LARGE.ID_U
                 INNER JOIN dbo.MEDIUM ON LARGE.ID_A = MEDIUM.ID_A
                 OPTION (MAXDOP 1)";
    let rows = execute(session, query)?;
    report.add("join_result_rows", rows as f64, "rows");
    let times = timed(session, query, repeat, rows)?;
    report_times(report, "three_table_join", &times);
    execute(
        session,
        "DROP TABLE dbo.SMALL DROP TABLE dbo.MEDIUM DROP TABLE dbo.LARGE",
    )?;
    Ok(())
}

/// GROUP BY over `rows` rows in groups of 100: on `k`, which the range
/// index `ix_k` leads with (read in key order, a stream aggregate), and on
/// `h`, the same values without an index (a hash aggregate); then the
/// first 10 groups in key order, which the stream aggregate reaches
/// without reading the rest; and the 10 rows of the largest `h` (a Top N
/// Sort over every row).
fn group_by(
    session: &mut Session,
    report: &mut Report,
    rows: u64,
    repeat: u32,
) -> Result<(), String> {
    let groups = rows.div_ceil(100);
    report.section(&format!("GROUP BY over {rows} rows, {groups} groups"));
    execute(
        session,
        &format!(
            "CREATE TABLE dbo.G (
                 id int NOT NULL PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = {rows}),
                 k int NOT NULL, h int NOT NULL, v int NOT NULL,
                 INDEX ix_k NONCLUSTERED (k)
             ) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_ONLY)
             INSERT dbo.G SELECT RN, RN % {groups}, RN % {groups}, RN % 7 FROM ({}) AS q",
            numbers(rows)
        ),
    )?;
    for (name, query, result_rows) in [
        (
            "group_by_stream",
            "SELECT k, COUNT(*), SUM(v) FROM dbo.G GROUP BY k",
            groups,
        ),
        (
            "group_by_hash",
            "SELECT h, COUNT(*), SUM(v) FROM dbo.G GROUP BY h",
            groups,
        ),
        (
            "group_by_top_10_stream",
            "SELECT TOP (10) k, COUNT(*) FROM dbo.G GROUP BY k ORDER BY k",
            10,
        ),
        (
            "group_by_top_10_hash",
            "SELECT TOP (10) h, COUNT(*) FROM dbo.G GROUP BY h ORDER BY h",
            10,
        ),
        // A Top N Sort: every row is read, 10 are kept.
        (
            "top_10_sort",
            "SELECT TOP (10) id, h FROM dbo.G ORDER BY h DESC, id",
            10,
        ),
    ] {
        let times = timed(session, query, repeat, result_rows.min(groups))?;
        report_times(report, name, &times);
    }
    execute(session, "DROP TABLE dbo.G")?;
    Ok(())
}

/// The schema and natively compiled insert procedure of the seed's
/// sales-order workload.
const SALES_ORDERS: &str = include_str!("../../../../workloads/sales_orders.sql");

/// The seed's ostress script, cut to our procedure's parameters: one
/// order built in a table variable, inserted 20 times.
const ORDERS_PER_SCRIPT: u64 = 20;
const SALES_ORDER_SCRIPT: &str = "
DECLARE @i int = 0, @od Sales.SalesOrderDetailType_inmem, @SalesOrderID int,
    @DueDate datetime2 = SYSDATETIME(), @CustomerID int = RAND() * 8000,
    @ShipMethodID int = (RAND() * 5) + 1
INSERT INTO @od VALUES (1, 1, 1), (2, 2, 2), (3, 3, 1), (4, 4, 2), (5, 5, 1)
WHILE (@i < 20)
BEGIN
    EXEC Sales.usp_InsertSalesOrder_inmem @SalesOrderID OUTPUT, @DueDate, @CustomerID, @ShipMethodID, @od
    SET @i += 1
END";

/// The sales-order workload in a database of its own: the procedure
/// `Sales.usp_InsertSalesOrder_inmem` called once per batch with a 5-line
/// table-valued parameter, then the article's script on one session and
/// on two at once; orders/s.
fn sales_orders(report: &mut Report, duration: Duration) -> Result<(), String> {
    let db = SqlDatabase::in_memory().map_err(|e| e.message)?;
    let mut session = db.session().map_err(|e| e.message)?;
    create_sales_orders(&mut session)?;
    execute(&mut session, "SET NOCOUNT ON")?;
    let mut customer = Keys(0x2545_f491_4f6c_dd1d);
    let orders = measure(duration, || {
        execute(
            &mut session,
            &format!(
                "DECLARE @od Sales.SalesOrderDetailType_inmem, @id int
                 INSERT INTO @od VALUES (1, 1, 1), (2, 2, 2), (3, 3, 1), (4, 4, 2), (5, 5, 1)
                 EXEC Sales.usp_InsertSalesOrder_inmem @id OUTPUT, '20261201', {}, 3, @od",
                customer.next(10_000)
            ),
        )
    })?;
    report.add("sales_order_per_s", orders, "orders/s");
    for sessions in [1, 2] {
        let orders = sales_order_scripts(&db, sessions, duration)?;
        report.add(
            format!("sales_order_script_{sessions}_sessions_per_s"),
            orders,
            "orders/s",
        );
    }
    Ok(())
}

/// Creates the sales-order workload's schema, its procedure
/// `Sales.usp_InsertSalesOrder_inmem` and the products and offers it reads.
pub(super) fn create_sales_orders(session: &mut Session) -> Result<(), String> {
    for batch in hekla_parser::script::split_batches(SALES_ORDERS) {
        execute(session, batch.text)?;
    }
    Ok(())
}

/// Runs the article's script on `sessions` sessions at once for
/// `duration`; orders/s over all of them.
fn sales_order_scripts(
    db: &Arc<SqlDatabase>,
    sessions: usize,
    duration: Duration,
) -> Result<f64, String> {
    let start = Instant::now();
    let total = super::on_sessions(db, sessions, |_, session| {
        execute(session, "SET NOCOUNT ON")?;
        let mut scripts = 0;
        while start.elapsed() < duration {
            execute(session, SALES_ORDER_SCRIPT)?;
            scripts += 1;
        }
        Ok(scripts)
    })?;
    Ok((total * ORDERS_PER_SCRIPT) as f64 / start.elapsed().as_secs_f64())
}

/// Runs `query` `repeat` times, checking it returns `rows` rows each time;
/// the elapsed times, sorted.
fn timed(session: &mut Session, query: &str, repeat: u32, rows: u64) -> Result<Vec<f64>, String> {
    super::timed_runs(repeat, || match execute(session, query)? {
        got if got == rows => Ok(()),
        got => Err(format!("{query}\nreturned {got} rows, expected {rows}")),
    })
}

fn report_times(report: &mut Report, name: &str, times: &[f64]) {
    report.add(format!("{name}_best_ms"), times[0], "ms");
    report.add(format!("{name}_median_ms"), times[times.len() / 2], "ms");
}

fn execute(session: &mut Session, batch: &str) -> Result<u64, String> {
    counting::execute(session, batch).map(|sink| sink.rows)
}

/// `statement` with its int parameter `@k` set to `key`, as a driver's
/// prepared statement calls it: an RPC of `sp_executesql`.
fn execute_sql(session: &mut Session, statement: &str, key: u64) -> Result<u64, String> {
    let text = |value: &str| RpcParameter {
        name: None,
        data_type: DataType::NVarChar {
            len: Length::Max,
            collation: Collation::default(),
        },
        value: RpcValue::Scalar(Value::String(value.to_string())),
        output: false,
    };
    let parameters = vec![
        text(statement),
        text("@k int"),
        RpcParameter {
            name: Some("@k".to_string()),
            data_type: DataType::Int,
            value: RpcValue::Scalar(Value::Int(key as i32)),
            output: false,
        },
    ];
    let mut sink = Counting::default();
    session.call("sp_executesql", parameters, &mut sink);
    match sink.error {
        Some(error) => Err(format!("{error}\nin: {statement}")),
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
