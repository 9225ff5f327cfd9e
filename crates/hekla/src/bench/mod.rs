//! `hekla bench NAME`: benchmark programs. Each prints a readable table and,
//! with `--json`, one JSON object `{"bench": NAME, "results": [...]}`.

mod bandwidth;
mod checkpoint;
mod counting;
mod durability;
mod engine;
pub(crate) mod histogram;
mod native;
mod parse;
pub(crate) mod process;
mod range_index;
pub(crate) mod report;
mod server;
mod sql;
mod workdir;
mod workload;
mod ycsb;

use clap::{Args, Subcommand};

#[derive(Args)]
pub struct BenchArgs {
    #[command(subcommand)]
    bench: Bench,
}

#[derive(Subcommand)]
enum Bench {
    /// Embedded YCSB-style point reads, updates and inserts, plus memory per row.
    Engine(engine::EngineArgs),
    /// Ordered indexes as concurrent maps: inserts, point lookups, short scans, memory.
    RangeIndex(range_index::RangeIndexArgs),
    /// The checkpoint scenario: single-row inserts, doublings, deletes, CHECKPOINT; every checkpoint's time.
    Checkpoint(checkpoint::CheckpointArgs),
    /// Durable and delayed commits/s, checkpoints and recovery, next to the disk's own figures.
    Durability(durability::DurabilityArgs),
    /// T-SQL parsing: statements/s and MB/s for the sales-order procedure, YCSB and a corpus.
    Parse(parse::ParseArgs),
    /// Embedded SQL statements/s: point SELECT, UPDATE by key, 5-row INSERT.
    Sql(sql::SqlBenchArgs),
    /// Through the wire protocol: requests/s, latency and server CPU per request against PostgreSQL.
    Server(server::ServerBenchArgs),
    /// Natively compiled procedures, interpreted vs compiled: scans next to the memory-bandwidth floor, sales orders/s.
    Native(native::NativeArgs),
    /// YCSB's core workloads A-F, embedded or against a server, with YCSB's report lines.
    Ycsb(ycsb::YcsbArgs),
}

pub fn run(args: BenchArgs) -> Result<(), String> {
    if cfg!(debug_assertions) {
        eprintln!("hekla: note: a debug build; figures worth recording need `cargo run --release`");
    }
    match args.bench {
        Bench::Engine(args) => engine::run(args),
        Bench::RangeIndex(args) => range_index::run(args),
        Bench::Checkpoint(args) => checkpoint::run(args),
        Bench::Durability(args) => durability::run(args),
        Bench::Parse(args) => parse::run(args),
        Bench::Sql(args) => sql::run(args),
        Bench::Server(args) => server::run(args),
        Bench::Native(args) => native::run(args),
        Bench::Ycsb(args) => ycsb::run(args),
    }
}

/// Runs `run` `repeat` times (at least once): each run's milliseconds,
/// sorted; the first error stops it.
fn timed_runs(
    repeat: u32,
    mut run: impl FnMut() -> Result<(), String>,
) -> Result<Vec<f64>, String> {
    let mut times = Vec::new();
    for _ in 0..repeat.max(1) {
        let start = std::time::Instant::now();
        run()?;
        times.push(start.elapsed().as_secs_f64() * 1000.0);
    }
    times.sort_by(f64::total_cmp);
    Ok(times)
}

/// Runs `work` on `threads` threads at once (at least one), each given
/// its thread number: the sum of what they count (a panic is an error).
fn on_threads(
    threads: usize,
    work: impl Fn(usize) -> Result<u64, String> + Sync,
) -> Result<u64, String> {
    let work = &work;
    let counts: Vec<Result<u64, String>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads.max(1))
            .map(|thread| scope.spawn(move || work(thread)))
            .collect();
        workers
            .into_iter()
            .map(|worker| {
                worker
                    .join()
                    .unwrap_or_else(|_| Err("a benchmark thread panicked".into()))
            })
            .collect()
    });
    counts.into_iter().sum()
}

/// [`on_threads`], each thread with a session of its own.
fn on_sessions(
    db: &std::sync::Arc<hekla_sql::session::SqlDatabase>,
    threads: usize,
    work: impl Fn(usize, &mut hekla_sql::session::Session) -> Result<u64, String> + Sync,
) -> Result<u64, String> {
    on_threads(threads, |thread| {
        let mut session = db.session().map_err(|e| e.message)?;
        work(thread, &mut session)
    })
}

/// This process's resident set size in bytes (Linux).
fn resident_bytes() -> u64 {
    process::resident_bytes(std::process::id())
}

const MIB: f64 = 1024.0 * 1024.0;
