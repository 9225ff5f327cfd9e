//! `hekla bench native`: natively compiled procedures run as compiled code
//! against the same procedures run through the interpreter
//! (`SqlDatabase::set_native_compilation`), side by side, embedded, in one
//! run (issue 19):
//!
//! 1. **scans**: three native procedures over `--rows` SalesOrderDetail-like
//!    rows of a SCHEMA_ONLY memory-optimized table, on one thread:
//!    `SUM(UnitPrice)`, `SUM(OrderQty) ... WHERE ProductID = @p` and
//!    `COUNT(*)`. Each runs once untimed (a warm-up: caches, and any
//!    compiling left to the first call), then `--repeat` times each way;
//!    the best and the median are shown, and both ways must return the
//!    same value. Next to each, the physical floor: the table's bytes
//!    (`memory_used_by_table_kb` of `sys.dm_db_xtp_table_memory_stats`,
//!    the row versions a scan reads) streamed once at the memory bandwidth
//!    of one thread, measured in the same run (`bandwidth.rs`).
//! 2. **sales orders**: the sample's `Sales.usp_InsertSalesOrder_inmem`
//!    (workloads/sales_orders.sql) called as a driver calls it, an RPC with
//!    a 5-line table-valued parameter, on 1 and 2 threads, with delayed
//!    durability (`DELAYED_DURABILITY = FORCED`: a commit returns before
//!    its log flush) and full (each commit waits for its group-commit
//!    flush), compiled and interpreted: orders/s. Each measurement gets a
//!    fresh database, so none inserts into the hash chains another filled.
//!    Next to them, the engine's own cost for the same work: the
//!    procedure's seeks and inserts through the embedded engine API, with
//!    no SQL layer (`engine_orders.rs`).
//! 3. **YCSB read and update** as native procedures called as RPCs on one
//!    thread, interpreted and compiled (`ycsb.rs`).

mod engine_orders;
mod ycsb;

use super::bandwidth;
use super::counting::{self, Counting};
use super::report::{format_value, Report};
use super::workdir::WorkDir;
use crate::sql::first_value::first_value;
use clap::Args;
use hekla_sql::rpc::{RpcParameter, RpcValue};
use hekla_sql::session::{Session, SqlDatabase};
use hekla_types::{Collation, DataType, Length, Value};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Rows the scanned table starts with before its doublings.
const SEED_ROWS: u64 = 8;

#[derive(Args)]
pub struct NativeArgs {
    /// Rows of the scanned table (issue 19's 5,000,000).
    #[arg(long, default_value_t = 5_000_000,
          value_parser = clap::value_parser!(u64).range(SEED_ROWS..=i32::MAX as u64))]
    rows: u64,
    /// Timed runs of each scan each way (the best and the median are shown).
    #[arg(long, default_value_t = 5)]
    repeat: u32,
    /// Seconds each sales-order measurement runs for.
    #[arg(long, default_value_t = 3.0)]
    seconds: f64,
    /// Measurements of each sales-order configuration each way, the two
    /// ways taking turns to go first; the best is shown.
    #[arg(long, default_value_t = 3)]
    rounds: u32,
    /// Numbers of threads calling the sales-order procedure at once.
    #[arg(long, value_delimiter = ',', default_values_t = vec![1usize, 2])]
    threads: Vec<usize>,
    /// Records of YCSB's usertable for the read and update procedures.
    #[arg(long, default_value_t = 100_000,
          value_parser = clap::value_parser!(u64).range(1..))]
    ycsb_records: u64,
    /// MiB of the buffer the memory bandwidth is measured over (much more
    /// than the caches).
    #[arg(long, default_value_t = 1024)]
    bandwidth_mib: usize,
    /// A short run for smoke tests: 20,000 rows, 2 runs, 0.2 s, 1 round,
    /// 128 MiB, 1,000 YCSB records.
    #[arg(long)]
    quick: bool,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    json: bool,
}

pub fn run(args: NativeArgs) -> Result<(), String> {
    let (rows, repeat, seconds, rounds, bandwidth_mib, ycsb_records) = if args.quick {
        (20_000, 2, 0.2, 1, 128, 1_000)
    } else {
        (
            args.rows,
            args.repeat.max(1),
            args.seconds,
            args.rounds.max(1),
            args.bandwidth_mib,
            args.ycsb_records,
        )
    };
    let mut report = Report::new("native", args.json);
    scans(&mut report, rows, repeat, bandwidth_mib)?;
    sales_orders(
        &mut report,
        &args.threads,
        Duration::from_secs_f64(seconds),
        rounds,
    )?;
    ycsb::ycsb(
        &mut report,
        ycsb_records,
        Duration::from_secs_f64(seconds),
        rounds,
    )?;
    report.finish();
    Ok(())
}

// ---- scans ------------------------------------------------------------------

/// A scan statement, run inside the native procedure `dbo.bench_NAME`.
struct Scan {
    /// The figures' prefix and the procedure's name.
    name: &'static str,
    /// The procedure's parameter list.
    parameters: &'static str,
    statement: &'static str,
    /// Whether it returns the table's row count (checked).
    counts_rows: bool,
}

const SCANS: [Scan; 3] = [
    Scan {
        name: "sum",
        parameters: "",
        statement: "SELECT SUM(UnitPrice) FROM dbo.SalesOrderDetail",
        counts_rows: false,
    },
    Scan {
        name: "filtered_sum",
        parameters: "@p int",
        statement: "SELECT SUM(OrderQty) FROM dbo.SalesOrderDetail WHERE ProductID = @p",
        counts_rows: false,
    },
    Scan {
        name: "count",
        parameters: "",
        statement: "SELECT COUNT(*) FROM dbo.SalesOrderDetail",
        counts_rows: true,
    },
];

/// One statement's times each way, in ms, sorted.
struct Timings {
    interpreted: Vec<f64>,
    compiled: Vec<f64>,
}

fn best(times: &[f64]) -> f64 {
    times[0]
}

fn median(times: &[f64]) -> f64 {
    times[times.len() / 2]
}

fn scans(report: &mut Report, rows: u64, repeat: u32, bandwidth_mib: usize) -> Result<(), String> {
    let db = SqlDatabase::in_memory().map_err(|e| e.message)?;
    let mut session = db.session().map_err(|e| e.message)?;
    counting::execute(&mut session, "SET NOCOUNT ON")?;
    let start = Instant::now();
    let product = load(&mut session, rows)?;
    let load_rows_per_s = rows as f64 / start.elapsed().as_secs_f64();
    report.record("load_rows_per_s", load_rows_per_s, "rows/s");
    let table_bytes = table_bytes(&mut session)?;
    let bytes_per_s = bandwidth::read_bytes_per_s(bandwidth_mib << 20, 5);
    let floor_ms = bandwidth::stream_ms(table_bytes, bytes_per_s);
    report.record("rows", rows as f64, "rows");
    report.record("table_bytes", table_bytes as f64, "bytes");
    report.record("memory_bandwidth_gb_per_s", bytes_per_s / 1e9, "GB/s");
    report.record("scan_floor_ms", floor_ms, "ms");
    if !report.is_json() {
        println!(
            "hekla bench native: natively compiled procedures, interpreted vs compiled, embedded\n\n\
             ## scans: {rows} rows ({}/s loaded), one thread, best of {repeat} after a warm-up run (median)\n\
             table bytes (memory_used_by_table_kb): {} ({:.1} per row)\n\
             memory bandwidth, one thread ({bandwidth_mib} MiB buffer, best of 5): {:.2} GB/s\n\
             floor = table bytes / bandwidth: {floor_ms:.2} ms\n",
            format_value(load_rows_per_s),
            format_value(table_bytes as f64),
            table_bytes as f64 / rows as f64,
            bytes_per_s / 1e9,
        );
        println!(
            "{:<16} {:>20} {:>20} {:>8} {:>12} {:>12}",
            "statement", "interpreted ms", "compiled ms", "ratio", "interp/floor", "comp/floor"
        );
    }
    for scan in &SCANS {
        counting::execute(
            &mut session,
            &format!(
                "CREATE PROCEDURE dbo.bench_{} {} WITH NATIVE_COMPILATION, SCHEMABINDING AS
                 BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')
                     {}
                 END",
                scan.name, scan.parameters, scan.statement
            ),
        )?;
        let call = if scan.parameters.is_empty() {
            format!("EXEC dbo.bench_{}", scan.name)
        } else {
            format!("EXEC dbo.bench_{} @p = {product}", scan.name)
        };
        let expected = scan.counts_rows.then_some(Value::Int(rows as i32));
        let timings = compare(&db, &mut session, &call, scan.statement, repeat, expected)?;
        add_scan(report, scan.name, &timings, floor_ms);
    }
    Ok(())
}

/// Fills `dbo.SalesOrderDetail` with `rows` rows: SEED_ROWS, then
/// doublings (INSERT ... SELECT TOP (n) from itself, each ProductID one
/// more). Returns the ProductID the filtered SUM looks for: one in the
/// middle of those every full doubling made.
fn load(session: &mut Session, rows: u64) -> Result<i64, String> {
    counting::execute(
        session,
        &format!(
            "CREATE TABLE dbo.SalesOrderDetail (
                 SalesOrderDetailID int IDENTITY(1, 1) NOT NULL
                     PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = {}),
                 ProductID int NOT NULL, OrderQty smallint NOT NULL, UnitPrice money NOT NULL,
                 CarrierTrackingNumber varchar(25) NULL
             ) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_ONLY)
             INSERT INTO dbo.SalesOrderDetail (ProductID, OrderQty, UnitPrice, CarrierTrackingNumber)
             VALUES (707, 1, 34.99, '4911-403C-98'), (708, 2, 20.10, NULL), (709, 3, 5.70, '6431-4D57-83'),
                    (710, 1, 8.99, NULL), (711, 4, 2.29, 'B501-448E-96'), (712, 1, 49.99, NULL),
                    (713, 2, 3.99, '8551-4CDF-A1'), (714, 6, 24.49, NULL)",
            rows.next_power_of_two()
        ),
    )?;
    let (mut loaded, mut doublings) = (SEED_ROWS, 0);
    while loaded < rows {
        let more = loaded.min(rows - loaded);
        counting::execute(
            session,
            &format!(
                "INSERT INTO dbo.SalesOrderDetail (ProductID, OrderQty, UnitPrice, CarrierTrackingNumber)
                 SELECT TOP ({more}) ProductID + 1, OrderQty, UnitPrice, CarrierTrackingNumber
                 FROM dbo.SalesOrderDetail"
            ),
        )?;
        doublings += i64::from(more == loaded);
        loaded += more;
    }
    Ok(707 + (SEED_ROWS as i64 + doublings) / 2)
}

/// The bytes of the table's row versions, as the engine counts them.
fn table_bytes(session: &mut Session) -> Result<u64, String> {
    let kb = first_value(
        session,
        "SELECT memory_used_by_table_kb FROM sys.dm_db_xtp_table_memory_stats
         WHERE object_id = OBJECT_ID('dbo.SalesOrderDetail')",
    )?;
    match kb {
        Value::BigInt(kb) if kb > 0 => Ok(kb as u64 * 1024),
        other => Err(format!(
            "sys.dm_db_xtp_table_memory_stats gave {other} KB for dbo.SalesOrderDetail"
        )),
    }
}

/// Times `call` interpreted, then compiled; fails unless both ways return
/// the same value, not NULL (a SUM over no row measures nothing) and the
/// `expected` one if given.
fn compare(
    db: &SqlDatabase,
    session: &mut Session,
    call: &str,
    statement: &str,
    repeat: u32,
    expected: Option<Value>,
) -> Result<Timings, String> {
    db.set_native_compilation(false);
    let (interpreted_value, interpreted) = timed_value(session, call, repeat)?;
    db.set_native_compilation(true);
    let (compiled_value, compiled) = timed_value(session, call, repeat)?;
    if interpreted_value != compiled_value {
        return Err(format!(
            "{statement}: interpreted {interpreted_value:?}, compiled {compiled_value:?}"
        ));
    }
    if let Some(expected) = expected.filter(|expected| *expected != compiled_value) {
        return Err(format!(
            "{statement}: {compiled_value:?}, expected {expected:?}"
        ));
    }
    if compiled_value.is_null() {
        return Err(format!("{statement}: NULL, no row qualified"));
    }
    Ok(Timings {
        interpreted,
        compiled,
    })
}

/// Runs `batch` once untimed, then `repeat` times: its value (the same
/// every time) and the times in ms, sorted.
fn timed_value(
    session: &mut Session,
    batch: &str,
    repeat: u32,
) -> Result<(Value, Vec<f64>), String> {
    let value = first_value(session, batch)?;
    let times = super::timed_runs(repeat, || match first_value(session, batch)? {
        again if again == value => Ok(()),
        again => Err(format!("{batch}: {value:?}, then {again:?}")),
    })?;
    Ok((value, times))
}

fn add_scan(report: &mut Report, name: &str, timings: &Timings, floor_ms: f64) {
    let interpreted = best(&timings.interpreted);
    let compiled = best(&timings.compiled);
    report.record(format!("{name}_interpreted_ms"), interpreted, "ms");
    report.record(format!("{name}_compiled_ms"), compiled, "ms");
    report.record(
        format!("{name}_interpreted_median_ms"),
        median(&timings.interpreted),
        "ms",
    );
    report.record(
        format!("{name}_compiled_median_ms"),
        median(&timings.compiled),
        "ms",
    );
    report.record(format!("{name}_speedup"), interpreted / compiled, "x");
    report.record(
        format!("{name}_compiled_vs_floor"),
        compiled / floor_ms,
        "x",
    );
    if !report.is_json() {
        let with_median = |best: f64, median: f64| format!("{best:.1} ({median:.1})");
        println!(
            "{:<16} {:>20} {:>20} {:>7.1}x {:>11.1}x {:>11.1}x",
            name,
            with_median(interpreted, median(&timings.interpreted)),
            with_median(compiled, median(&timings.compiled)),
            interpreted / compiled,
            interpreted / floor_ms,
            compiled / floor_ms,
        );
    }
}

// ---- sales orders -----------------------------------------------------------

/// The order's lines: (OrderQty, ProductID, SpecialOfferID), as
/// `hekla bench sql` sends them.
const ORDER_LINES: [(i16, i32, i32); 5] = [(1, 1, 1), (2, 2, 2), (3, 3, 1), (4, 4, 2), (5, 5, 1)];

#[derive(Clone, Copy)]
enum Durability {
    Delayed,
    Full,
}

impl Durability {
    fn name(self) -> &'static str {
        match self {
            Durability::Delayed => "delayed",
            Durability::Full => "full",
        }
    }

    fn option(self) -> &'static str {
        match self {
            Durability::Delayed => "FORCED",
            Durability::Full => "DISABLED",
        }
    }
}

/// How an order is made: the procedure interpreted or compiled, or the
/// engine loop doing its work without the SQL layer.
#[derive(Clone, Copy, PartialEq)]
enum Way {
    Interpreted,
    Compiled,
    Engine,
}

impl Way {
    const ALL: [Way; 3] = [Way::Interpreted, Way::Compiled, Way::Engine];

    fn name(self) -> &'static str {
        match self {
            Way::Interpreted => "interpreted",
            Way::Compiled => "compiled",
            Way::Engine => "engine",
        }
    }
}

fn sales_orders(
    report: &mut Report,
    threads: &[usize],
    duration: Duration,
    rounds: u32,
) -> Result<(), String> {
    let work = WorkDir::create(None, "native", false)?;
    if !report.is_json() {
        println!(
            "\n## sales orders: Sales.usp_InsertSalesOrder_inmem, 5-line TVP, one RPC per order, \
             {:.1} s each, a fresh durable database each (under {}), best of {rounds}\n\
             delayed: DELAYED_DURABILITY = FORCED; full: each commit waits for its (group-commit) log flush\n",
            duration.as_secs_f64(),
            work.path.display()
        );
        println!(
            "engine: the procedure's 20 hash seeks and 6 inserts through the engine API, \
             one transaction per order, no SQL layer\n\
             comp/interp: compiled orders/s over interpreted; comp/engine: compiled cost per order \
             over the engine's (engine orders/s over compiled)\n"
        );
        println!(
            "{:<10} {:>8} {:>14} {:>14} {:>14} {:>12} {:>12}",
            "durability",
            "threads",
            "interpreted/s",
            "compiled/s",
            "engine/s",
            "comp/interp",
            "comp/engine"
        );
    }
    for durability in [Durability::Delayed, Durability::Full] {
        for &threads in threads {
            // Interpreted, compiled, engine: the best of the rounds.
            let mut per_s = [0.0f64; Way::ALL.len()];
            for round in 0..rounds {
                // Taking turns to go first, so that no way always runs
                // right after another on a machine shared with others.
                let mut ways = Way::ALL;
                ways.rotate_left(round as usize % Way::ALL.len());
                for way in ways {
                    let measured = orders_per_s(&work.path, durability, way, threads, duration)?;
                    let best = &mut per_s[way as usize];
                    *best = best.max(measured);
                }
            }
            let headline = threads == 1 && matches!(durability, Durability::Full);
            for (way, per_s) in Way::ALL.into_iter().zip(per_s) {
                let mode = way.name();
                report.record(
                    format!("sales_order_{mode}_{}_{threads}t_per_s", durability.name()),
                    per_s,
                    "orders/s",
                );
                if headline {
                    report.record(format!("sales_order_{mode}_per_s"), per_s, "orders/s");
                }
            }
            // The compiled procedure's cost per order over the engine's.
            let [interpreted, compiled, engine] = per_s;
            report.record(
                format!(
                    "sales_order_compiled_vs_engine_{}_{threads}t",
                    durability.name()
                ),
                engine / compiled,
                "x",
            );
            if headline {
                report.record("sales_order_compiled_vs_engine", engine / compiled, "x");
            }
            if !report.is_json() {
                println!(
                    "{:<10} {:>8} {:>14} {:>14} {:>14} {:>11.2}x {:>11.2}x",
                    durability.name(),
                    threads,
                    format_value(interpreted),
                    format_value(compiled),
                    format_value(engine),
                    compiled / interpreted,
                    engine / compiled
                );
            }
        }
    }
    Ok(())
}

/// A fresh database under `parent` (removed afterwards: each preallocates
/// its log and checkpoint files) with the sales-order schema, the
/// procedure called (or the engine loop run) on `threads` threads at once
/// for `duration`: orders/s. Fails unless every order left its header and
/// five lines (and the engine loop the procedure's row contents).
fn orders_per_s(
    parent: &Path,
    durability: Durability,
    way: Way,
    threads: usize,
    duration: Duration,
) -> Result<f64, String> {
    let dir = WorkDir::create(Some(parent), "orders", false)?;
    let db = crate::sql::open_database(&dir.path, None)?;
    let mut session = db.session().map_err(|e| e.message)?;
    super::sql::create_sales_orders(&mut session)?;
    counting::execute(
        &mut session,
        &format!(
            "ALTER DATABASE CURRENT SET DELAYED_DURABILITY = {}",
            durability.option()
        ),
    )?;
    db.set_native_compilation(way == Way::Compiled);
    let (orders, per_s) = if way == Way::Engine {
        // One order by the procedure first (untimed), whose rows the
        // engine loop's must match.
        let tables = engine_orders::OrderTables::find(&db)?;
        call_order(&mut session, 0)?;
        let first_order = first_value(
            &mut session,
            "SELECT MAX(SalesOrderID) FROM Sales.SalesOrderHeader_inmem",
        )?;
        let start = Instant::now();
        let orders = engine_orders::insert_orders(&db, &tables, threads, start, duration)?;
        let per_s = orders as f64 / start.elapsed().as_secs_f64();
        engine_orders::check_rows(&mut session, &first_order)?;
        (orders + 1, per_s)
    } else {
        let start = Instant::now();
        let orders = call_orders(&db, threads, start, duration)?;
        (orders, orders as f64 / start.elapsed().as_secs_f64())
    };
    for (table, per_order) in [
        ("Sales.SalesOrderHeader_inmem", 1),
        ("Sales.SalesOrderDetail_inmem", ORDER_LINES.len() as u64),
    ] {
        let count = first_value(&mut session, &format!("SELECT COUNT_BIG(*) FROM {table}"))?;
        if count != Value::BigInt((orders * per_order) as i64) {
            return Err(format!(
                "{table}: {count} rows after {orders} orders of {per_order} row(s) each"
            ));
        }
    }
    Ok(per_s)
}

/// Calls the procedure on `threads` sessions until `duration` after
/// `start`: the calls made.
fn call_orders(
    db: &Arc<SqlDatabase>,
    threads: usize,
    start: Instant,
    duration: Duration,
) -> Result<u64, String> {
    super::on_sessions(db, threads, |thread, session| {
        let mut calls = 0u64;
        while start.elapsed() < duration {
            let customer = (calls * 2 + thread as u64) % 10_000;
            call_order(session, customer as i32)?;
            calls += 1;
        }
        Ok(calls)
    })
}

/// One call of the procedure, for `customer`.
fn call_order(session: &mut Session, customer: i32) -> Result<(), String> {
    let mut sink = Counting::default();
    session.call(
        "Sales.usp_InsertSalesOrder_inmem",
        order_parameters(customer),
        &mut sink,
    );
    match sink.error {
        Some(error) => Err(format!("Sales.usp_InsertSalesOrder_inmem: {error}")),
        None => Ok(()),
    }
}

/// The procedure's parameters as a driver sends them: the order's ID
/// OUTPUT, its due date, customer and ship method, and its lines as a
/// table-valued parameter.
fn order_parameters(customer: i32) -> Vec<RpcParameter> {
    let scalar = |name: &str, data_type, value, output| RpcParameter {
        name: Some(name.to_string()),
        data_type,
        value: RpcValue::Scalar(value),
        output,
    };
    let lines = ORDER_LINES
        .iter()
        .map(|&(quantity, product, offer)| {
            vec![
                Value::SmallInt(quantity),
                Value::Int(product),
                Value::Int(offer),
            ]
        })
        .collect();
    vec![
        scalar("SalesOrderID", DataType::Int, Value::Null, true),
        scalar(
            "DueDate",
            DataType::NVarChar {
                len: Length::Bounded(10),
                collation: Collation::default(),
            },
            Value::String("2026-12-01".to_string()),
            false,
        ),
        scalar("CustomerID", DataType::Int, Value::Int(customer), false),
        scalar("ShipMethodID", DataType::Int, Value::Int(3), false),
        RpcParameter {
            name: Some("SalesOrderDetails".to_string()),
            data_type: DataType::Int,
            value: RpcValue::Table {
                type_schema: "Sales".to_string(),
                type_name: "SalesOrderDetailType_inmem".to_string(),
                rows: lines,
            },
            output: false,
        },
    ]
}
