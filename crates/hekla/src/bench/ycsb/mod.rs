//! `hekla bench ycsb`: the Yahoo! Cloud Serving Benchmark's core
//! workloads (A–F) as a native client, embedded or over TDS, printing
//! YCSB's own report lines. The load phase inserts `--records` rows with
//! every field; the run phase performs `--operations` operations of the
//! workload's mix from `--threads` client threads, each with its own
//! connection.

mod connection;
mod stats;
mod workload;

use crate::bench::workload::Rng;
use crate::sql::remote::LoginArgs;
use clap::Args;
use connection::{Connection, Target};
use hekla_sql::SqlDatabase;
use stats::{OperationStats, PhaseReport};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;
pub(super) use workload::{field_type, key_type, FIELDS, FIELD_LENGTH};
use workload::{Keys, Workload};

#[derive(Args)]
pub struct YcsbArgs {
    /// The workload: a (update heavy), b (read mostly), c (read only),
    /// d (read latest), e (short ranges), f (read-modify-write).
    #[arg(long, value_enum, default_value_t = Workload::A)]
    workload: Workload,
    /// Records loaded (YCSB's recordcount).
    #[arg(long, default_value_t = 100_000)]
    records: u64,
    /// Operations of the run phase, over all threads (operationcount).
    #[arg(long, default_value_t = 100_000)]
    operations: u64,
    /// Client threads, each with its own connection.
    #[arg(long, default_value_t = 2)]
    threads: u32,
    /// The zipfian distribution's constant (YCSB's 0.99).
    #[arg(long, default_value_t = 0.99)]
    zipfian_constant: f64,
    /// Skip the load phase: the table is already there, loaded with
    /// `--records` rows by an earlier run.
    #[arg(long)]
    skip_load: bool,
    /// A durable database in this directory (embedded); without it and
    /// without -S, an in-memory database whose table is SCHEMA_ONLY.
    #[arg(long, conflicts_with = "server")]
    data_dir: Option<PathBuf>,
    #[command(flatten)]
    login: LoginArgs,
    /// Print one JSON object instead of YCSB's lines.
    #[arg(long)]
    json: bool,
}

pub fn run(args: YcsbArgs) -> Result<(), String> {
    if args.threads == 0 || args.records == 0 {
        return Err("--threads and --records must be at least 1".to_string());
    }
    let (target, durable) = match (&args.login.server, &args.data_dir) {
        (Some(server), _) => (
            Target::Server {
                address: crate::sql::remote::address(server)?,
                user: args.login.user().to_string(),
                password: args.login.password().to_string(),
            },
            true,
        ),
        (None, Some(dir)) => (
            Target::Embedded(crate::sql::open_database(dir, None)?),
            true,
        ),
        (None, None) => (
            Target::Embedded(SqlDatabase::in_memory().map_err(|e| e.message)?),
            false,
        ),
    };
    let mut report = PhaseReport::new(args.json);
    if !args.skip_load {
        let mut connection = Connection::open(&target)?;
        connection.batch(&workload::create_table(
            args.records,
            args.workload.scans(),
            durable,
        ))?;
        drop(connection);
        let load = load(&target, args.records, args.threads)?;
        report.phase("load", &load);
    }
    let run = run_operations(&target, &args)?;
    report.phase("run", &run);
    report.finish();
    Ok(())
}

/// `dbo.usertable` created in `db` and loaded with `records` records on
/// one session, as the load phase does (for `hekla bench native`, which
/// calls native procedures on it); SCHEMA_ONLY unless `durable`.
pub(super) fn load_usertable(
    db: &Arc<SqlDatabase>,
    records: u64,
    durable: bool,
) -> Result<(), String> {
    let target = Target::Embedded(db.clone());
    Connection::open(&target)?.batch(&workload::create_table(records, false, durable))?;
    load(&target, records, 1).map(drop)
}

/// What a phase measured: its wall time and each operation's figures.
pub struct Phase {
    pub elapsed_ms: f64,
    pub operations: Vec<OperationStats>,
}

/// Inserts records 0..`records`, the threads taking interleaved numbers.
fn load(target: &Target, records: u64, threads: u32) -> Result<Phase, String> {
    let next = AtomicU64::new(0);
    phase(target, threads, |connection, rng, stats| loop {
        let number = next.fetch_add(1, Ordering::Relaxed);
        if number >= records {
            return Ok(());
        }
        let start = Instant::now();
        let status = workload::load_record(connection, number, rng)?;
        stats
            .entry(workload::Operation::Insert)
            .record(start.elapsed(), status);
    })
}

fn run_operations(target: &Target, args: &YcsbArgs) -> Result<Phase, String> {
    let keys = Keys::new(args.workload, args.records, args.zipfian_constant);
    let remaining = AtomicU64::new(args.operations);
    let workload = args.workload;
    phase(target, args.threads, |connection, rng, stats| {
        while remaining
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1))
            .is_ok()
        {
            let operation = workload.choose(rng);
            let start = Instant::now();
            let status = workload::perform(operation, &keys, connection, rng)?;
            stats.entry(operation).record(start.elapsed(), status);
        }
        Ok(())
    })
}

/// Runs `work` on `threads` threads, each with its own connection and
/// random stream, and merges what they measured.
fn phase<F>(target: &Target, threads: u32, work: F) -> Result<Phase, String>
where
    F: Fn(&mut Connection, &mut Rng, &mut stats::ByOperation) -> Result<(), String> + Sync,
{
    let connections: Vec<Connection> = (0..threads)
        .map(|_| Connection::open(target))
        .collect::<Result<_, _>>()?;
    let started = Instant::now();
    let results: Vec<Result<stats::ByOperation, String>> = std::thread::scope(|scope| {
        let handles: Vec<_> = connections
            .into_iter()
            .enumerate()
            .map(|(n, mut connection)| {
                let work = &work;
                scope.spawn(move || {
                    let mut rng = Rng::new(0x9e37_79b9 ^ (n as u64 + 1));
                    let mut stats = stats::ByOperation::default();
                    work(&mut connection, &mut rng, &mut stats).map(|()| stats)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|handle| {
                handle
                    .join()
                    .unwrap_or_else(|_| Err("a client thread panicked".into()))
            })
            .collect()
    });
    let elapsed_ms = started.elapsed().as_secs_f64() * 1000.0;
    let mut merged = stats::ByOperation::default();
    for result in results {
        merged.merge(result?);
    }
    Ok(Phase {
        elapsed_ms,
        operations: merged.into_sorted(),
    })
}
