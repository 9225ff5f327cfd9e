//! `hekla bench engine`: the engine embedded, on YCSB's `usertable` shape
//! (a varchar(255) key with a hash index and ten varchar(100) fields) and on
//! the sample's `SalesOrderDetail` shape for memory per row.

use super::histogram::Histogram;
use super::report::Report;
use super::workload::{field_value, write_ycsb_key, ycsb_key, Rng, Zipfian};
use super::{resident_bytes, MIB};
use clap::Args;
use hekla_engine::{
    ColumnDef, Database, DatabaseConfig, IndexDef, IsolationLevel, KeyRange, Row, Table, TableDef,
    Uniqueness,
};
use hekla_types::{Collation, DataType, Length, Money, SortOrder, SqlError, Value};
use std::ops::{Bound, ControlFlow};
use std::sync::Arc;
use std::time::{Duration, Instant};

const FIELDS: usize = 10;
const FIELD_LEN: usize = 100;
const LOAD_BATCH: usize = 100;
/// One operation in this many is timed for the latency percentiles.
const LATENCY_SAMPLE: usize = 8;
/// Rows per scan in the `scans` part (YCSB E's maximum scan length).
const SCAN_LENGTH: usize = 100;
/// Memory samples taken during the soak part.
const SOAK_SAMPLES: usize = 6;

#[derive(Args)]
pub struct EngineArgs {
    /// Rows loaded into usertable.
    #[arg(long, default_value_t = 1_000_000)]
    rows: u64,
    /// Seconds each workload runs for, per thread count.
    #[arg(long, default_value_t = 5.0)]
    seconds: f64,
    /// Thread counts to run every workload with.
    #[arg(long, value_delimiter = ',', default_values_t = vec![1usize, 2])]
    threads: Vec<usize>,
    /// Rows loaded into SalesOrderDetail for the memory figures.
    #[arg(long, default_value_t = 5_000_000)]
    sales_rows: u64,
    /// BUCKET_COUNT of SalesOrderDetail's hash index.
    #[arg(long, default_value_t = 5_000_000)]
    sales_buckets: u64,
    /// Seconds of the `soak` part (memory under sustained updates).
    #[arg(long, default_value_t = 60.0)]
    soak_seconds: f64,
    /// Which parts to run: memory, reads, updates, soak, inserts, scans.
    #[arg(long, value_delimiter = ',', default_values_t = Part::ALL.map(String::from).to_vec())]
    parts: Vec<String>,
    /// Small sizes and short runs: every part in well under a minute.
    #[arg(long)]
    quick: bool,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    json: bool,
}

/// The parts of the benchmark, in the order they run.
struct Part;

impl Part {
    const ALL: [&'static str; 6] = ["memory", "reads", "updates", "soak", "inserts", "scans"];
}

pub fn run(mut args: EngineArgs) -> Result<(), String> {
    if let Some(unknown) = args.parts.iter().find(|p| !Part::ALL.contains(&p.as_str())) {
        return Err(format!(
            "unknown part '{unknown}'; the parts are {}",
            Part::ALL.join(", ")
        ));
    }
    let wants = |part: &str| args.parts.iter().any(|p| p == part);
    if args.quick {
        args.rows = args.rows.min(20_000);
        args.seconds = args.seconds.min(0.5);
        args.sales_rows = args.sales_rows.min(100_000);
        args.sales_buckets = args.sales_buckets.min(100_000);
        args.soak_seconds = args.soak_seconds.min(2.0);
    }
    if args.rows == 0 || args.threads.contains(&0) || args.seconds.is_nan() || args.seconds <= 0.0 {
        return Err("--rows, --threads and --seconds must be positive".to_string());
    }
    let mut report = Report::new("engine", args.json);
    // Memory first, while the process is small, so RSS growth is its own.
    if wants("memory") {
        sales_order_detail_memory(&args, &mut report)?;
    }
    if ["reads", "updates", "soak", "inserts"]
        .iter()
        .any(|p| wants(p))
    {
        let bench = Usertable::load(&args, &mut report, PrimaryKey::Hash)?;
        if wants("reads") {
            bench.point_reads(&args, &mut report, false)?;
            bench.point_reads(&args, &mut report, true)?;
        }
        if wants("updates") {
            bench.updates(&args, &mut report)?;
        }
        if wants("soak") {
            bench.soak(&args, &mut report)?;
        }
        if wants("inserts") {
            bench.inserts(&args, &mut report)?;
        }
    }
    // YCSB's workload E needs an ordered key: a table of its own, loaded
    // after the hash-keyed one is gone.
    if wants("scans") {
        let bench = Usertable::load(&args, &mut report, PrimaryKey::Range)?;
        bench.scans(&args, &mut report)?;
    }
    report.finish();
    Ok(())
}

fn varchar(len: u32) -> DataType {
    DataType::VarChar {
        len: Length::Bounded(len),
        collation: Collation::default(),
    }
}

fn sql(error: SqlError) -> String {
    error.to_string()
}

fn sales_order_detail_memory(args: &EngineArgs, report: &mut Report) -> Result<(), String> {
    report.section(&format!(
        "SalesOrderDetail memory: {} rows, hash index BUCKET_COUNT = {}",
        args.sales_rows, args.sales_buckets
    ));
    let before = resident_bytes();
    let db = Database::new(DatabaseConfig::default());
    let table = db
        .create_table(TableDef::new(
            "SalesOrderDetail",
            vec![
                ColumnDef::new("SalesOrderID", DataType::Int, false),
                ColumnDef::new("SalesOrderDetailID", DataType::Int, false),
                ColumnDef::new(
                    "CarrierTrackingNumber",
                    DataType::NVarChar {
                        len: Length::Bounded(25),
                        collation: Collation::default(),
                    },
                    true,
                ),
                ColumnDef::new("OrderQty", DataType::SmallInt, false),
                ColumnDef::new("ProductID", DataType::Int, false),
                ColumnDef::new("UnitPrice", DataType::Money, false),
            ],
            vec![IndexDef::hash(
                "PK_SalesOrderDetail",
                &[0, 1],
                args.sales_buckets,
                Uniqueness::PrimaryKey,
            )],
        ))
        .map_err(sql)?;
    let mut rng = Rng::new(42);
    let started = Instant::now();
    let mut row = Vec::with_capacity(6);
    for batch_start in (0..args.sales_rows).step_by(1000) {
        let mut tx = db.begin(IsolationLevel::Snapshot).map_err(sql)?;
        for n in batch_start..(batch_start + 1000).min(args.sales_rows) {
            // AdventureWorks' tracking numbers look like "4911-403C-98".
            let tracking = format!(
                "{:04X}-{:04X}-{:02X}",
                rng.below(0x10000),
                rng.below(0x10000),
                rng.below(0x100)
            );
            row.clear();
            row.extend([
                Value::Int((n / 4) as i32 + 43659),
                Value::Int(n as i32 + 1),
                Value::String(tracking),
                Value::SmallInt(1 + rng.below(10) as i16),
                Value::Int(700 + rng.below(300) as i32),
                Value::Money(Money(rng.below(20_000_000) as i64)),
            ]);
            tx.insert(&table, &row).map_err(sql)?;
        }
        tx.commit().map_err(sql)?;
    }
    let load_seconds = started.elapsed().as_secs_f64();
    let growth = resident_bytes().saturating_sub(before) as f64;
    let stats = table.memory_stats();
    let index_bytes: u64 = stats.indexes.iter().map(|(_, s)| s.allocated_bytes()).sum();
    let rows = args.sales_rows as f64;
    report.add("sales_load_rows_per_s", rows / load_seconds, "rows/s");
    report.add(
        "sales_row_bytes_per_row",
        stats.rows.used_bytes as f64 / rows,
        "bytes",
    );
    report.add(
        "sales_rows_allocated_mib",
        stats.rows.allocated_bytes as f64 / MIB,
        "MiB",
    );
    report.add("sales_index_allocated_mib", index_bytes as f64 / MIB, "MiB");
    report.add(
        "sales_engine_total_mib",
        (stats.rows.allocated_bytes + index_bytes) as f64 / MIB,
        "MiB",
    );
    report.add("sales_rss_growth_mib", growth / MIB, "MiB");
    report.add("sales_rss_bytes_per_row", growth / rows, "bytes");
    Ok(())
}

/// Per-thread state of a measured workload.
struct Outcome {
    committed: u64,
    conflicts: u64,
    latency: Histogram,
}

/// Runs `op` on `threads` threads for `seconds`; `op` returns Ok(true) for a
/// committed transaction, Ok(false) for an expected conflict (41302).
fn measure<S>(
    threads: usize,
    seconds: f64,
    setup: impl Fn(usize) -> S + Sync,
    op: impl Fn(&mut S, &mut Rng) -> Result<bool, SqlError> + Sync,
) -> Result<(f64, Outcome), String> {
    let deadline = Duration::from_secs_f64(seconds);
    let started = Instant::now();
    let outcomes: Vec<Result<Outcome, String>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                let (setup, op) = (&setup, &op);
                scope.spawn(move || {
                    let mut state = setup(t);
                    let mut rng = Rng::new(0xC0FFEE + t as u64);
                    let mut outcome = Outcome {
                        committed: 0,
                        conflicts: 0,
                        latency: Histogram::default(),
                    };
                    let begun = Instant::now();
                    loop {
                        for i in 0..64 {
                            // Time one operation in LATENCY_SAMPLE: reading
                            // the clock twice per operation would cost more
                            // than a tenth of a point read.
                            let committed = if i % LATENCY_SAMPLE == 0 {
                                let t0 = Instant::now();
                                let committed = op(&mut state, &mut rng).map_err(sql)?;
                                outcome.latency.record(t0.elapsed().as_nanos() as u64);
                                committed
                            } else {
                                op(&mut state, &mut rng).map_err(sql)?
                            };
                            if committed {
                                outcome.committed += 1;
                            } else {
                                outcome.conflicts += 1;
                            }
                        }
                        if begun.elapsed() >= deadline {
                            return Ok(outcome);
                        }
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("benchmark worker panicked"))
            .collect()
    });
    let elapsed = started.elapsed().as_secs_f64();
    let mut total = Outcome {
        committed: 0,
        conflicts: 0,
        latency: Histogram::default(),
    };
    for outcome in outcomes {
        let outcome = outcome?;
        total.committed += outcome.committed;
        total.conflicts += outcome.conflicts;
        total.latency.merge(&outcome.latency);
    }
    Ok((elapsed, total))
}

fn add_outcome(report: &mut Report, name: &str, elapsed: f64, outcome: &Outcome) {
    report.add(
        name.to_string(),
        outcome.committed as f64 / elapsed,
        "ops/s",
    );
    for (suffix, fraction) in [("p50", 0.5), ("p99", 0.99), ("p999", 0.999)] {
        let nanos = outcome.latency.percentile(fraction);
        report.add(format!("{name}_{suffix}"), nanos as f64 / 1000.0, "us");
    }
    if outcome.conflicts > 0 {
        report.add(
            format!("{name}_conflicts"),
            outcome.conflicts as f64,
            "aborts",
        );
    }
}

/// What backs usertable's primary key.
#[derive(Clone, Copy, PartialEq)]
enum PrimaryKey {
    /// `NONCLUSTERED HASH WITH (BUCKET_COUNT = rows)`.
    Hash,
    /// `NONCLUSTERED`: a range index, for ordered scans.
    Range,
}

struct Usertable {
    db: Database,
    table: Arc<Table>,
    rows: u64,
    zipfian: Zipfian,
}

impl Usertable {
    fn load(args: &EngineArgs, report: &mut Report, key: PrimaryKey) -> Result<Usertable, String> {
        let (index, label) = match key {
            PrimaryKey::Hash => (
                IndexDef::hash("pk_usertable", &[0], args.rows, Uniqueness::PrimaryKey),
                "hash",
            ),
            PrimaryKey::Range => (
                IndexDef::range(
                    "pk_usertable",
                    &[(0, SortOrder::Ascending)],
                    Uniqueness::PrimaryKey,
                ),
                "range",
            ),
        };
        report.section(&format!(
            "usertable: {} rows of 10 x varchar(100), {label} primary key",
            args.rows
        ));
        let db = Database::new(DatabaseConfig::default());
        let mut columns = vec![ColumnDef::new("YCSB_KEY", varchar(255), false)];
        columns
            .extend((0..FIELDS).map(|i| ColumnDef::new(&format!("FIELD{i}"), varchar(100), true)));
        let table = db
            .create_table(TableDef::new("usertable", columns, vec![index]))
            .map_err(sql)?;
        let threads = args.threads.iter().copied().max().unwrap_or(1) as u64;
        let started = Instant::now();
        std::thread::scope(|scope| {
            let workers: Vec<_> = (0..threads)
                .map(|t| {
                    let (db, table) = (&db, &table);
                    scope.spawn(move || -> Result<(), String> {
                        let mut rng = Rng::new(t);
                        let mut row = row_template(&mut rng);
                        let mine: Vec<u64> = (t..args.rows).step_by(threads as usize).collect();
                        for batch in mine.chunks(LOAD_BATCH) {
                            let mut tx = db.begin(IsolationLevel::Snapshot).map_err(sql)?;
                            for &n in batch {
                                row[0] = Value::String(ycsb_key(n));
                                tx.insert(table, &row).map_err(sql)?;
                            }
                            tx.commit().map_err(sql)?;
                        }
                        Ok(())
                    })
                })
                .collect();
            workers
                .into_iter()
                .try_for_each(|w| w.join().expect("loader panicked"))
        })?;
        let seconds = started.elapsed().as_secs_f64();
        // The hash-keyed table's figures keep their original names.
        let prefix = match key {
            PrimaryKey::Hash => "",
            PrimaryKey::Range => "range_pk_",
        };
        report.add(
            format!("load_{prefix}rows_per_s_{threads}t"),
            args.rows as f64 / seconds,
            "rows/s",
        );
        let stats = table.memory_stats();
        let index_bytes: u64 = stats.indexes.iter().map(|(_, s)| s.allocated_bytes()).sum();
        report.add(
            format!("usertable_{prefix}row_bytes_per_row"),
            stats.rows.used_bytes as f64 / args.rows as f64,
            "bytes",
        );
        report.add(
            format!("usertable_{prefix}engine_total_mib"),
            (stats.rows.allocated_bytes + index_bytes) as f64 / MIB,
            "MiB",
        );
        let zipfian = Zipfian::new(args.rows, 0.99);
        Ok(Usertable {
            db,
            table,
            rows: args.rows,
            zipfian,
        })
    }

    /// Writes a random existing key into `key`, as YCSB's client does:
    /// from a record number, without touching any shared memory.
    fn pick(&self, rng: &mut Rng, zipfian: bool, key: &mut [Value; 1]) {
        let n = if zipfian {
            self.zipfian.next(rng)
        } else {
            rng.below(self.rows)
        };
        let Value::String(text) = &mut key[0] else {
            unreachable!("keys are strings");
        };
        text.clear();
        write_ycsb_key(n, text);
    }

    /// One transaction per read; every field's bytes are copied out.
    fn point_reads(
        &self,
        args: &EngineArgs,
        report: &mut Report,
        zipfian: bool,
    ) -> Result<(), String> {
        let distribution = if zipfian { "zipfian" } else { "uniform" };
        report.section(&format!("point reads (all fields), {distribution} keys"));
        for &threads in &args.threads {
            let (elapsed, outcome) = measure(
                threads,
                args.seconds,
                |_| (Vec::<u8>::with_capacity(2048), key_buffer()),
                |(buffer, key), rng| {
                    self.pick(rng, zipfian, key);
                    let mut tx = self.db.begin(IsolationLevel::Snapshot)?;
                    let found = tx.lookup(&self.table, 0, key, |row| {
                        copy_row(&row, buffer);
                        ControlFlow::Break(())
                    })?;
                    tx.commit()?;
                    assert!(found.is_some(), "every loaded key is found");
                    Ok(true)
                },
            )?;
            add_outcome(
                report,
                &format!("point_read_{distribution}_{threads}t"),
                elapsed,
                &outcome,
            );
        }
        Ok(())
    }

    /// One transaction per update of one field of one row (uniform keys).
    fn updates(&self, args: &EngineArgs, report: &mut Report) -> Result<(), String> {
        report.section("single-row updates of one field, uniform keys, durability off");
        let changes = field_changes();
        for &threads in &args.threads {
            let (elapsed, outcome) = measure(
                threads,
                args.seconds,
                |_| key_buffer(),
                |key, rng| self.update_one(&changes, key, rng),
            )?;
            add_outcome(
                report,
                &format!("update_uniform_{threads}t"),
                elapsed,
                &outcome,
            );
        }
        let stats = self.table.memory_stats();
        report.add(
            "usertable_live_versions_after_updates",
            stats.rows.live_slots as f64,
            "versions",
        );
        Ok(())
    }

    /// Updates for `--soak-seconds` on every thread, sampling the table's
    /// memory six times: garbage collection must keep it flat.
    fn soak(&self, args: &EngineArgs, report: &mut Report) -> Result<(), String> {
        let threads = args.threads.iter().copied().max().unwrap_or(1);
        report.section(&format!(
            "memory under sustained updates: {threads} threads, {} s",
            args.soak_seconds
        ));
        let changes = field_changes();
        let rows = self.rows as f64;
        let mut samples = Vec::new();
        let mut updates = 0;
        let mut second_half = (0u64, 0.0f64);
        let chunk = args.soak_seconds / SOAK_SAMPLES as f64;
        for sample in 1..=SOAK_SAMPLES {
            let (elapsed, outcome) = measure(
                threads,
                chunk,
                |_| key_buffer(),
                |key, rng| self.update_one(&changes, key, rng),
            )?;
            updates += outcome.committed;
            if sample > SOAK_SAMPLES / 2 {
                second_half.0 += outcome.committed;
                second_half.1 += elapsed;
            }
            let stats = self.table.memory_stats().rows;
            samples.push((stats.allocated_bytes, stats.live_slots));
            if !report.is_json() {
                println!(
                    "  after {:>5.0} s: {:>10} updates, rows allocated {:>8.1} MiB, {:.2} versions per row",
                    chunk * sample as f64,
                    updates,
                    stats.allocated_bytes as f64 / MIB,
                    stats.live_slots as f64 / rows
                );
            }
        }
        let first = samples.first().map_or(0, |s| s.0) as f64;
        let last = samples.last().map_or(0, |s| s.0) as f64;
        report.add("soak_updates", updates as f64, "updates");
        report.add(
            format!("soak_updates_per_s_second_half_{threads}t"),
            second_half.0 as f64 / second_half.1,
            "ops/s",
        );
        report.add("soak_rows_allocated_first_sample_mib", first / MIB, "MiB");
        report.add("soak_rows_allocated_last_sample_mib", last / MIB, "MiB");
        report.add(
            "soak_growth_after_first_sample_mib",
            (last - first) / MIB,
            "MiB",
        );
        Ok(())
    }

    /// One transaction updating one field of one random row; Ok(false) on
    /// a write conflict (41302), which aborts it.
    fn update_one(
        &self,
        changes: &[(usize, Value)],
        key: &mut [Value; 1],
        rng: &mut Rng,
    ) -> Result<bool, SqlError> {
        self.pick(rng, false, key);
        let change = &changes[rng.below(changes.len() as u64) as usize];
        let mut tx = self.db.begin(IsolationLevel::Snapshot)?;
        let Some(row) = tx.get(&self.table, 0, key)? else {
            panic!("every loaded key is found");
        };
        match tx.update(&self.table, row, std::slice::from_ref(change)) {
            Ok(_) => tx.commit().map(|_| true),
            Err(e) if e.number == 41302 => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// YCSB workload E's scan: one transaction reads SCAN_LENGTH rows in key
    /// order from a uniformly chosen existing key (`SELECT TOP (100) * ...
    /// WHERE YCSB_KEY >= @k ORDER BY YCSB_KEY`), copying every field.
    fn scans(&self, args: &EngineArgs, report: &mut Report) -> Result<(), String> {
        report.section(&format!(
            "ordered scans of {SCAN_LENGTH} rows (all fields), uniform start keys"
        ));
        for &threads in &args.threads {
            let (elapsed, outcome) = measure(
                threads,
                args.seconds,
                |_| (Vec::<u8>::with_capacity(2048), key_buffer()),
                |(buffer, key), rng| {
                    self.pick(rng, false, key);
                    let from = KeyRange::new(Bound::Included(key.to_vec()), Bound::Unbounded);
                    let mut tx = self.db.begin(IsolationLevel::Snapshot)?;
                    let mut rows = 0;
                    tx.scan_range(&self.table, 0, &from, |row| {
                        copy_row(&row, buffer);
                        rows += 1;
                        if rows < SCAN_LENGTH {
                            ControlFlow::Continue(())
                        } else {
                            ControlFlow::Break(())
                        }
                    })?;
                    tx.commit()?;
                    assert!(rows >= 1, "a scan from a loaded key finds it");
                    Ok(true)
                },
            )?;
            add_outcome(
                report,
                &format!("scan_{SCAN_LENGTH}_{threads}t"),
                elapsed,
                &outcome,
            );
        }
        Ok(())
    }

    /// One transaction per insert of a new row.
    fn inserts(&self, args: &EngineArgs, report: &mut Report) -> Result<(), String> {
        report.section("inserts of new rows");
        let mut next_base = self.rows;
        for &threads in &args.threads {
            let base = next_base;
            let (elapsed, outcome) = measure(
                threads,
                args.seconds,
                |t| {
                    let mut rng = Rng::new(1000 + t as u64);
                    (row_template(&mut rng), base + t as u64)
                },
                |(row, next), _| {
                    row[0] = Value::String(ycsb_key(*next));
                    *next += threads as u64;
                    let mut tx = self.db.begin(IsolationLevel::Snapshot)?;
                    tx.insert(&self.table, row)?;
                    tx.commit().map(|_| true)
                },
            )?;
            next_base =
                base + (outcome.committed + outcome.conflicts + threads as u64) * threads as u64;
            add_outcome(report, &format!("insert_{threads}t"), elapsed, &outcome);
        }
        Ok(())
    }
}

/// What a client reading the row receives: every column's stored bytes.
fn copy_row(row: &Row<'_>, buffer: &mut Vec<u8>) {
    buffer.clear();
    for column in 0..=FIELDS {
        buffer.extend_from_slice(row.stored(column).unwrap_or_default());
    }
}

fn key_buffer() -> [Value; 1] {
    [Value::String(String::with_capacity(32))]
}

/// New field values for updates, made once so the loop allocates nothing.
fn field_changes() -> Vec<(usize, Value)> {
    let mut rng = Rng::new(99);
    (0..256)
        .map(|i| {
            (
                1 + i % FIELDS,
                Value::String(field_value(&mut rng, FIELD_LEN)),
            )
        })
        .collect()
}

/// A usertable row with random fields; the caller sets the key (column 0).
fn row_template(rng: &mut Rng) -> Vec<Value> {
    let mut row = vec![Value::Null];
    row.extend((0..FIELDS).map(|_| Value::String(field_value(rng, FIELD_LEN))));
    row
}
