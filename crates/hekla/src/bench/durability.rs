//! `hekla bench durability`: what durability costs and how fast the
//! machinery behind it runs, next to what this machine's disk can do.
//!
//! 1. **disk**: the fdatasync rate (small appends to a preallocated file,
//!    each synced, as the log does) and the sequential write bandwidth.
//! 2. **commits**: fully durable single-row insert transactions/s at
//!    several numbers of concurrent committers, with commits per log flush.
//! 3. **delayed**: the same with `DELAYED_DURABILITY = FORCED`.
//! 4. **checkpoints**: the checkpoint scenario of the seed article: a table
//!    `(id int, guid uniqueidentifier PRIMARY KEY NONCLUSTERED HASH,
//!    created datetime)` filled with 10,000 rows, doubled 12 times, five
//!    range deletes, a checkpoint after every step.
//! 5. **recovery**: that database reopened, cold (its files evicted from the
//!    page cache) and warm, with its row count checked.
//! 6. **merge**: a table churned like a queue until several data files have
//!    filled with rows mostly deleted; one CHECKPOINT seals and merges
//!    them. Its time, bandwidth, and the memory the process took on.
//!
//! Every file goes to a fresh directory (under `--dir`, or the system temp
//! directory), removed at the end.

use super::histogram::Histogram;
use super::process::{peak_resident_bytes, reset_peak_resident, resident_bytes};
use super::report::{format_value, Report};
use super::workdir::WorkDir;
use super::workload::Rng;
use clap::Args;
use hekla_engine::{
    CheckpointReport, ColumnDef, Database, DatabaseConfig, DelayedDurability, FileState, FileType,
    IndexDef, IsolationLevel, RecoveryReport, RowId, StorageConfig, Table, TableDef, Uniqueness,
};
use hekla_types::{DataType, DateTime, SqlError, Uuid, Value};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::ops::ControlFlow;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// Decimal megabytes, as disk bandwidth is usually quoted.
const MB: f64 = 1e6;
/// Bytes per append in the fdatasync test: a single-row commit's log block
/// is smaller still, and the page cache writes back whole pages anyway.
const SYNC_WRITE_BYTES: usize = 512;
/// Size of the preallocated file the fdatasync test appends to (wrapping).
const SYNC_FILE_BYTES: u64 = 16 << 20;
/// Chunk size of the sequential write test.
const SEQ_CHUNK_BYTES: usize = 1 << 20;

/// The targets.
const TARGET_DURABLE_COMMITS: f64 = 100_000.0;
const TARGET_DURABLE_COMMITTERS: usize = 64;
const TARGET_CHECKPOINT_FRACTION: f64 = 0.70;
const TARGET_RECOVERY_ROWS_PER_S: f64 = 5_000_000.0;

#[derive(Args)]
pub struct DurabilityArgs {
    /// Seconds each committer count runs for (durable and delayed).
    #[arg(long, default_value_t = 5.0)]
    seconds: f64,
    /// Numbers of concurrent committer threads.
    #[arg(long, value_delimiter = ',', default_values_t = vec![1usize, 4, 16, 64])]
    committers: Vec<usize>,
    /// Seconds of the fdatasync rate test.
    #[arg(long, default_value_t = 3.0)]
    sync_seconds: f64,
    /// MiB written (in 1 MiB chunks, then fsync) for the sequential bandwidth.
    #[arg(long, default_value_t = 1024)]
    seq_mib: u64,
    /// Rows the checkpoint scenario's table starts with.
    #[arg(long, default_value_t = 10_000)]
    initial_rows: u64,
    /// Times the checkpoint scenario doubles its table (one transaction each).
    #[arg(long, default_value_t = 12)]
    doublings: u32,
    /// Range deletes after the doublings (one transaction each).
    #[arg(long, default_value_t = 5)]
    deletes: u64,
    /// Rows each range delete removes.
    #[arg(long, default_value_t = 1000)]
    delete_rows: u64,
    /// Data files the merge part fills (all but one row in 20 deleted)
    /// before its CHECKPOINT merges them.
    #[arg(long, default_value_t = 4)]
    merge_pairs: usize,
    /// Which parts to run: disk, commits, delayed, checkpoints, recovery, merge.
    #[arg(long, value_delimiter = ',', default_values_t = Part::ALL.map(String::from).to_vec())]
    parts: Vec<String>,
    /// Directory to put the files in (a fresh subdirectory is made and
    /// removed afterwards); default: the system temp directory.
    #[arg(long)]
    dir: Option<PathBuf>,
    /// Keep the files instead of removing them at the end.
    #[arg(long)]
    keep: bool,
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
    const ALL: [&'static str; 6] = [
        "disk",
        "commits",
        "delayed",
        "checkpoints",
        "recovery",
        "merge",
    ];
}

pub fn run(mut args: DurabilityArgs) -> Result<(), String> {
    if let Some(unknown) = args.parts.iter().find(|p| !Part::ALL.contains(&p.as_str())) {
        return Err(format!(
            "unknown part '{unknown}'; the parts are {}",
            Part::ALL.join(", ")
        ));
    }
    let wants = |part: &str| args.parts.iter().any(|p| p == part);
    if wants("recovery") && !wants("checkpoints") {
        return Err(
            "the recovery part reopens the checkpoints part's database: \
                    run both"
                .to_string(),
        );
    }
    if args.quick {
        args.seconds = args.seconds.min(0.5);
        args.sync_seconds = args.sync_seconds.min(0.5);
        args.seq_mib = args.seq_mib.min(64);
        args.doublings = args.doublings.min(5);
    }
    let positive = |x: f64| x.is_finite() && x > 0.0;
    if !positive(args.seconds)
        || !positive(args.sync_seconds)
        || args.seq_mib == 0
        || args.initial_rows == 0
        || args.committers.is_empty()
        || args.committers.contains(&0)
        || args.merge_pairs == 0
    {
        return Err(
            "--seconds, --sync-seconds, --seq-mib, --initial-rows, --committers and --merge-pairs must be positive"
                .to_string(),
        );
    }
    let work = WorkDir::create(args.dir.as_deref(), "durability", args.keep)?;
    let mut report = Report::new("durability", args.json);
    if !report.is_json() {
        let defaults = StorageConfig::default();
        println!(
            "files in {} ({}); data/delta files {}/{} MiB, log segments {} MiB",
            work.path.display(),
            filesystem_of(&work.path),
            defaults.data_file_bytes >> 20,
            defaults.delta_file_bytes >> 20,
            defaults.log_segment_bytes >> 20,
        );
    }

    let mut disk = None;
    if wants("disk") {
        disk = Some(measure_disk(&args, &work.path, &mut report)?);
    }
    if wants("commits") || wants("delayed") {
        let modes = [
            (wants("commits"), Mode::Durable),
            (wants("delayed"), Mode::Delayed),
        ];
        let modes: Vec<Mode> = modes.iter().filter(|m| m.0).map(|m| m.1).collect();
        single_row_commits(&args, &work.path, &modes, disk.as_ref(), &mut report)?;
    }
    if wants("checkpoints") {
        let dir = work.path.join("article");
        let expected = checkpoint_scenario(&args, &dir, disk.as_ref(), &mut report)?;
        if wants("recovery") {
            recovery(&dir, &expected, &mut report)?;
        }
    }
    if wants("merge") {
        merge(&args, &work.path.join("merge"), &mut report)?;
    }
    report.finish();
    Ok(())
}

fn sql(error: SqlError) -> String {
    error.to_string()
}

/// "ext4 on /dev/vda": the mount holding `path`, from /proc/mounts, so that
/// a reader can tell a real disk from tmpfs (where syncs cost nothing).
fn filesystem_of(path: &Path) -> String {
    let path = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    let mounts = std::fs::read_to_string("/proc/mounts").unwrap_or_default();
    mounts
        .lines()
        .filter_map(|line| {
            let mut fields = line.split_whitespace();
            let (device, mount, kind) = (fields.next()?, fields.next()?, fields.next()?);
            path.starts_with(mount)
                .then_some((mount.len(), device, kind))
        })
        // The deepest mount point holding the path is the one in effect.
        .max_by_key(|(depth, _, _)| *depth)
        .map_or_else(
            || "filesystem unknown".to_string(),
            |(_, device, kind)| format!("{kind} on {device}"),
        )
}

/// What the disk can do, as measured in part 1.
struct Disk {
    syncs_per_s: f64,
    seq_bytes_per_s: f64,
}

fn measure_disk(args: &DurabilityArgs, dir: &Path, report: &mut Report) -> Result<Disk, String> {
    report.section("disk: fdatasync rate and sequential write bandwidth");
    let io = |what: &str, path: &Path, e: std::io::Error| format!("{what} {}: {e}", path.display());

    // fdatasync: append small records to a zero-filled, synced file, as the
    // log does with its preallocated segments (so no sync has metadata to
    // write), and sync after each.
    let path = dir.join("fdatasync.test");
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(true)
        .open(&path)
        .map_err(|e| io("create", &path, e))?;
    let zeros = vec![0u8; 1 << 20];
    for at in (0..SYNC_FILE_BYTES).step_by(zeros.len()) {
        file.write_all_at(&zeros, at)
            .map_err(|e| io("write", &path, e))?;
    }
    file.sync_all().map_err(|e| io("sync", &path, e))?;
    let record = [0xA5u8; SYNC_WRITE_BYTES];
    let mut latency = Histogram::default();
    let mut syncs = 0u64;
    let deadline = Duration::from_secs_f64(args.sync_seconds);
    let started = Instant::now();
    while started.elapsed() < deadline {
        let at = (syncs * SYNC_WRITE_BYTES as u64) % SYNC_FILE_BYTES;
        let t0 = Instant::now();
        file.write_all_at(&record, at)
            .map_err(|e| io("write", &path, e))?;
        file.sync_data().map_err(|e| io("sync", &path, e))?;
        latency.record(t0.elapsed().as_nanos() as u64);
        syncs += 1;
    }
    let syncs_per_s = syncs as f64 / started.elapsed().as_secs_f64();
    drop(file);
    let _ = std::fs::remove_file(&path);
    report.add("disk_fdatasync_per_s", syncs_per_s, "syncs/s");
    report.add(
        "disk_fdatasync_p50",
        latency.percentile(0.5) as f64 / 1000.0,
        "us",
    );
    report.add(
        "disk_fdatasync_p99",
        latency.percentile(0.99) as f64 / 1000.0,
        "us",
    );

    // Sequential bandwidth: a new file written in large chunks, timed up to
    // the end of its fsync. Each chunk is stamped with its number so that a
    // deduplicating virtual disk cannot write it once.
    let path = dir.join("sequential.test");
    let mut chunk = vec![0u8; SEQ_CHUNK_BYTES];
    let mut rng = Rng::new(11);
    for word in chunk.chunks_exact_mut(8) {
        word.copy_from_slice(&rng.next_u64().to_le_bytes());
    }
    let chunks = args.seq_mib * (1 << 20) / SEQ_CHUNK_BYTES as u64;
    let started = Instant::now();
    let mut file = File::create(&path).map_err(|e| io("create", &path, e))?;
    for n in 0..chunks {
        chunk[..8].copy_from_slice(&n.to_le_bytes());
        file.write_all(&chunk).map_err(|e| io("write", &path, e))?;
    }
    file.sync_all().map_err(|e| io("sync", &path, e))?;
    let seconds = started.elapsed().as_secs_f64();
    drop(file);
    let _ = std::fs::remove_file(&path);
    let seq_bytes_per_s = (chunks * SEQ_CHUNK_BYTES as u64) as f64 / seconds;
    report.add("disk_seq_write_mb_per_s", seq_bytes_per_s / MB, "MB/s");
    Ok(Disk {
        syncs_per_s,
        seq_bytes_per_s,
    })
}

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Durable,
    Delayed,
}

impl Mode {
    fn name(self) -> &'static str {
        match self {
            Mode::Durable => "durable",
            Mode::Delayed => "delayed",
        }
    }
}

/// One committer count's outcome.
struct CommitRun {
    commits: u64,
    seconds: f64,
    flushes: u64,
    /// Log records written; a single-row commit is one record.
    records: u64,
    latency: Histogram,
}

/// Parts 2 and 3: single-row insert transactions on every committer count,
/// fully durable and then delayed, on one database.
fn single_row_commits(
    args: &DurabilityArgs,
    work: &Path,
    modes: &[Mode],
    disk: Option<&Disk>,
    report: &mut Report,
) -> Result<(), String> {
    let dir = work.join("commits");
    let db =
        Database::open(&dir, DatabaseConfig::default(), StorageConfig::default()).map_err(sql)?;
    // Enough buckets for the rows fast delayed runs leave behind (over a
    // million a second), so that chains stay short to the end.
    let buckets = if args.quick { 1 << 20 } else { 1 << 24 };
    let table = db
        .create_table(TableDef::new(
            "single_row_commits",
            vec![
                ColumnDef::new("id", DataType::BigInt, false),
                ColumnDef::new("value", DataType::Int, false),
            ],
            vec![IndexDef::hash("pk", &[0], buckets, Uniqueness::PrimaryKey)],
        ))
        .map_err(sql)?;
    let mut runs_so_far = 0u64;
    for &mode in modes {
        let forced = match mode {
            Mode::Durable => DelayedDurability::Disabled,
            Mode::Delayed => DelayedDurability::Forced,
        };
        db.set_delayed_durability(forced).map_err(sql)?;
        report.section(&format!(
            "single-row insert transactions, {}",
            match mode {
                Mode::Durable => "fully durable (each commit waits for its log flush)",
                Mode::Delayed =>
                    "DELAYED_DURABILITY = FORCED (the log flushes every 60 KB or 10 ms)",
            }
        ));
        if !report.is_json() {
            println!(
                "{:>10} {:>12} {:>10} {:>10} {:>12} {:>13} {:>16}",
                "committers",
                "commits/s",
                "p50 us",
                "p99 us",
                "flushes/s",
                "commits/flush",
                "disk fdatasync/s"
            );
        }
        for &committers in &args.committers {
            let run = commit_run(&db, &table, committers, args.seconds, runs_so_far)?;
            runs_so_far += 1;
            let name = format!("{}_insert_{committers}c", mode.name());
            let per_s = run.commits as f64 / run.seconds;
            let flushes_per_s = run.flushes as f64 / run.seconds;
            let per_flush = run.records as f64 / run.flushes.max(1) as f64;
            let p50 = run.latency.percentile(0.5) as f64 / 1000.0;
            let p99 = run.latency.percentile(0.99) as f64 / 1000.0;
            report.record(name.clone(), per_s, "commits/s");
            report.record(format!("{name}_p50"), p50, "us");
            report.record(format!("{name}_p99"), p99, "us");
            report.record(format!("{name}_flushes_per_s"), flushes_per_s, "flushes/s");
            report.record(format!("{name}_commits_per_flush"), per_flush, "commits");
            if !report.is_json() {
                println!(
                    "{:>10} {:>12} {:>10} {:>10} {:>12} {:>13} {:>16}",
                    committers,
                    format_value(per_s),
                    format_value(p50),
                    format_value(p99),
                    format_value(flushes_per_s),
                    format_value(per_flush),
                    disk.map_or("-".to_string(), |d| format_value(d.syncs_per_s)),
                );
            }
            if mode == Mode::Durable && committers == TARGET_DURABLE_COMMITTERS {
                target(
                    report,
                    &format!(
                        ">= {} durable commits/s at {committers} committers",
                        format_value(TARGET_DURABLE_COMMITS)
                    ),
                    per_s >= TARGET_DURABLE_COMMITS,
                );
            }
        }
        // Delayed commits still waiting reach the disk before the next mode.
        db.flush_log().map_err(sql)?;
    }
    drop(db);
    // The rows are of no further use; free the disk for the scenario.
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

/// Runs `committers` threads that each insert one row per transaction until
/// `seconds` have passed; the log's counters before and after give the
/// commits per flush.
fn commit_run(
    db: &Database,
    table: &Arc<Table>,
    committers: usize,
    seconds: f64,
    run: u64,
) -> Result<CommitRun, String> {
    let stop = AtomicBool::new(false);
    // Everyone starts together, so the timed span has every thread in it.
    let start = Barrier::new(committers + 1);
    let before = db.log_stats().unwrap_or_default();
    let (outcomes, elapsed) = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..committers as u64)
            .map(|t| {
                let (stop, start) = (&stop, &start);
                scope.spawn(move || -> Result<(u64, Histogram), String> {
                    let mut latency = Histogram::default();
                    let mut commits = 0u64;
                    // Keys unique across threads and runs, with no shared
                    // counter for the threads to fight over.
                    let key_base = (run << 40) | (t << 32);
                    let mut row = [Value::BigInt(0), Value::Int(t as i32)];
                    start.wait();
                    while !stop.load(Ordering::Relaxed) {
                        row[0] = Value::BigInt((key_base + commits) as i64);
                        let t0 = Instant::now();
                        let mut tx = db.begin(IsolationLevel::Snapshot).map_err(sql)?;
                        tx.insert(table, &row).map_err(sql)?;
                        tx.commit().map_err(sql)?;
                        // A commit costs microseconds at the least, so the
                        // clock is cheap enough to read around every one.
                        latency.record(t0.elapsed().as_nanos() as u64);
                        commits += 1;
                    }
                    Ok((commits, latency))
                })
            })
            .collect();
        start.wait();
        let started = Instant::now();
        std::thread::sleep(Duration::from_secs_f64(seconds));
        stop.store(true, Ordering::Relaxed);
        let outcomes: Vec<_> = workers
            .into_iter()
            .map(|w| w.join().expect("committer panicked"))
            .collect();
        (outcomes, started.elapsed().as_secs_f64())
    });
    let after = db.log_stats().unwrap_or_default();
    let mut total = CommitRun {
        commits: 0,
        seconds: elapsed,
        flushes: after.flushes - before.flushes,
        records: after.records - before.records,
        latency: Histogram::default(),
    };
    for outcome in outcomes {
        let (commits, latency) = outcome?;
        total.commits += commits;
        total.latency.merge(&latency);
    }
    Ok(total)
}

/// Prints a target and whether it is met (table mode only; CI machines
/// vary, so the JSON carries figures, not verdicts).
fn target(report: &Report, text: &str, met: bool) {
    if !report.is_json() {
        println!("  target {text}: {}", if met { "met" } else { "NOT met" });
    }
}

/// The scenario's table after its last step: what recovery must bring back.
struct Expected {
    rows: u64,
    id_sum: u64,
}

/// One checkpoint of the scenario and the step before it.
struct Step {
    label: String,
    rows: u64,
    step_seconds: f64,
    checkpoint: CheckpointReport,
}

/// Part 4: the seed article's checkpoint scenario.
fn checkpoint_scenario(
    args: &DurabilityArgs,
    dir: &Path,
    disk: Option<&Disk>,
    report: &mut Report,
) -> Result<Expected, String> {
    let final_rows = args
        .initial_rows
        .checked_shl(args.doublings)
        .filter(|&rows| rows >> args.doublings == args.initial_rows && rows <= i32::MAX as u64)
        .ok_or("--initial-rows doubled --doublings times overflows the int id column")?;
    if args.deletes * args.delete_rows > final_rows / 2 {
        return Err("the range deletes would remove more than half the table".to_string());
    }
    // The hash index is sized for the final table, rounded up to a power of
    // two as the engine does anyway: about one key per bucket at the end.
    let buckets = final_rows.next_power_of_two();
    report.section(&format!(
        "checkpoints: {} rows doubled {} times to {} (one transaction each), {} range deletes \
         of {} rows, a CHECKPOINT after each step; hash BUCKET_COUNT = {}",
        args.initial_rows,
        args.doublings,
        format_value(final_rows as f64),
        args.deletes,
        args.delete_rows,
        format_value(buckets as f64),
    ));
    // Only the checkpoints asked for here run, so that their reports add up
    // to all the checkpoint writing (an automatic one's report is dropped).
    let storage = StorageConfig {
        checkpoint_log_bytes: u64::MAX,
        ..StorageConfig::default()
    };
    let db = Database::open(dir, DatabaseConfig::default(), storage).map_err(sql)?;
    let table = db
        .create_table(TableDef::new(
            "t",
            id_guid_created(),
            vec![IndexDef::hash(
                "pk_guid",
                &[1],
                buckets,
                Uniqueness::PrimaryKey,
            )],
        ))
        .map_err(sql)?;
    if !report.is_json() {
        println!(
            "{:<14} {:>12} {:>10} {:>12} {:>14} {:>10} {:>10}",
            "step", "rows after", "step s", "step rows/s", "checkpoint s", "MB", "busy s"
        );
    }
    let mut rng = Rng::new(2014);
    let mut steps = Vec::new();
    let mut rows = 0u64;
    let mut inserted_seconds = 0.0;
    let mut step = |label: String, rows: u64, step_seconds: f64, report: &mut Report| {
        let checkpoint = db.checkpoint().map_err(sql)?;
        let step = Step {
            label,
            rows,
            step_seconds,
            checkpoint,
        };
        print_step(report, &step);
        steps.push(step);
        Ok::<_, String>(())
    };

    // The fill is one transaction; so is each doubling (the article's
    // INSERT ... SELECT of the whole table with new ids and guids).
    let started = Instant::now();
    insert_rows(&db, &table, &mut rng, 1, args.initial_rows)?;
    let seconds = started.elapsed().as_secs_f64();
    inserted_seconds += seconds;
    rows += args.initial_rows;
    step("fill".to_string(), rows, seconds, report)?;
    for doubling in 1..=args.doublings {
        let started = Instant::now();
        insert_rows(&db, &table, &mut rng, rows + 1, rows)?;
        let seconds = started.elapsed().as_secs_f64();
        inserted_seconds += seconds;
        rows *= 2;
        step(format!("doubling {doubling}"), rows, seconds, report)?;
    }
    let mut id_sum = rows * (rows + 1) / 2;

    // Deletes spread over the id range, each of `delete_rows` ids; with no
    // index on id each one scans the table, as SQL Server would.
    let started = Instant::now();
    for k in 0..args.deletes {
        let first = 1 + (2 * k + 1) * rows / (2 * args.deletes) - args.delete_rows / 2;
        let last = first + args.delete_rows - 1;
        let deleted = delete_id_range(&db, &table, first, last)?;
        if deleted != args.delete_rows {
            return Err(format!(
                "the delete of ids {first}..={last} removed {deleted} rows, not {}",
                args.delete_rows
            ));
        }
        id_sum -= (first + last) * args.delete_rows / 2;
    }
    if args.deletes > 0 {
        rows -= args.deletes * args.delete_rows;
        let seconds = started.elapsed().as_secs_f64();
        step(format!("{} deletes", args.deletes), rows, seconds, report)?;
    }

    let inserted = args.initial_rows << args.doublings;
    report.add(
        "scenario_insert_rows_per_s",
        inserted as f64 / inserted_seconds,
        "rows/s",
    );
    let total_seconds: f64 = steps
        .iter()
        .map(|s| s.checkpoint.duration.as_secs_f64())
        .sum();
    let bytes: u64 = steps.iter().map(|s| s.checkpoint.bytes_written).sum();
    let busy: f64 = steps.iter().map(|s| s.checkpoint.busy.as_secs_f64()).sum();
    let bandwidth = bytes as f64 / busy;
    report.add("checkpoint_count", steps.len() as f64, "checkpoints");
    report.add("checkpoint_total_s", total_seconds, "s");
    report.add(
        "checkpoint_final_s",
        steps
            .last()
            .map_or(0.0, |s| s.checkpoint.duration.as_secs_f64()),
        "s",
    );
    report.add("checkpoint_mb_written", bytes as f64 / MB, "MB");
    report.add("checkpoint_busy_s", busy, "s");
    report.add("checkpoint_write_mb_per_s", bandwidth / MB, "MB/s");
    if let Some(disk) = disk {
        let fraction = bandwidth / disk.seq_bytes_per_s;
        report.add("checkpoint_write_pct_of_seq_disk", fraction * 100.0, "%");
        target(
            report,
            &format!(
                ">= {:.0}% of sequential disk bandwidth",
                TARGET_CHECKPOINT_FRACTION * 100.0
            ),
            fraction >= TARGET_CHECKPOINT_FRACTION,
        );
    }
    // What the checkpoint files hold, and what they take with their
    // preallocated space (and the precreated pair) included.
    let files = db.checkpoint_files();
    report.add(
        "checkpoint_files_used_mb",
        files.iter().map(|f| f.file_size_used_bytes).sum::<u64>() as f64 / MB,
        "MB",
    );
    report.add(
        "checkpoint_files_allocated_mb",
        files.iter().map(|f| f.file_size_bytes).sum::<u64>() as f64 / MB,
        "MB",
    );
    report.add("checkpoint_file_count", files.len() as f64, "files");
    // One figure per checkpoint, for whoever wants the curve.
    for (i, step) in steps.iter().enumerate() {
        report.record(
            format!("checkpoint_{i}_s"),
            step.checkpoint.duration.as_secs_f64(),
            "s",
        );
        report.record(
            format!("checkpoint_{i}_mb"),
            step.checkpoint.bytes_written as f64 / MB,
            "MB",
        );
    }
    Ok(Expected { rows, id_sum })
}

fn print_step(report: &Report, step: &Step) {
    if report.is_json() {
        return;
    }
    let added = if step.label.starts_with("doubling") {
        format_value(step.rows as f64 / 2.0 / step.step_seconds)
    } else if step.label == "fill" {
        format_value(step.rows as f64 / step.step_seconds)
    } else {
        "-".to_string()
    };
    println!(
        "{:<14} {:>12} {:>10.3} {:>12} {:>14.3} {:>10.1} {:>10.3}",
        step.label,
        format_value(step.rows as f64),
        step.step_seconds,
        added,
        step.checkpoint.duration.as_secs_f64(),
        step.checkpoint.bytes_written as f64 / MB,
        step.checkpoint.busy.as_secs_f64(),
    );
}

/// `(id int, guid uniqueidentifier, created datetime)`: the article's
/// table, and the rows `insert_rows` makes.
fn id_guid_created() -> Vec<ColumnDef> {
    vec![
        ColumnDef::new("id", DataType::Int, false),
        ColumnDef::new("guid", DataType::UniqueIdentifier, false),
        ColumnDef::new("created", DataType::DateTime, true),
    ]
}

/// One transaction inserting `count` rows with ids from `first`, a random
/// guid each (NEWID()) and one creation time for all (GETDATE(), evaluated
/// once per statement).
fn insert_rows(
    db: &Database,
    table: &Arc<Table>,
    rng: &mut Rng,
    first: u64,
    count: u64,
) -> Result<(), String> {
    let created = Value::DateTime(datetime_now());
    let mut tx = db.begin(IsolationLevel::Snapshot).map_err(sql)?;
    let mut row = [Value::Int(0), Value::Null, created];
    for id in first..first + count {
        let mut guid = [0u8; 16];
        guid[..8].copy_from_slice(&rng.next_u64().to_le_bytes());
        guid[8..].copy_from_slice(&rng.next_u64().to_le_bytes());
        row[0] = Value::Int(id as i32);
        row[1] = Value::UniqueIdentifier(Uuid(guid));
        tx.insert(table, &row).map_err(sql)?;
    }
    tx.commit().map_err(sql)?;
    Ok(())
}

/// `DELETE FROM t WHERE id BETWEEN first AND last` as one transaction;
/// returns the rows deleted.
fn delete_id_range(
    db: &Database,
    table: &Arc<Table>,
    first: u64,
    last: u64,
) -> Result<u64, String> {
    let mut tx = db.begin(IsolationLevel::Snapshot).map_err(sql)?;
    let mut doomed: Vec<RowId> = Vec::new();
    tx.scan(table, |row| {
        if let Value::Int(id) = row.value(0) {
            if (first..=last).contains(&(id as u64)) {
                doomed.push(row.id());
            }
        }
        ControlFlow::<()>::Continue(())
    })
    .map_err(sql)?;
    for &id in &doomed {
        tx.delete(table, id).map_err(sql)?;
    }
    tx.commit().map_err(sql)?;
    Ok(doomed.len() as u64)
}

/// The current time as a `datetime` (days since 1900-01-01, 1/300 s ticks).
fn datetime_now() -> DateTime {
    /// Days from 1900-01-01 to 1970-01-01.
    const UNIX_EPOCH_DAYS: i64 = 25_567;
    let since = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    let seconds = since.as_secs() as i64;
    let of_day = (seconds % 86_400) as u32;
    DateTime {
        days: (UNIX_EPOCH_DAYS + seconds / 86_400) as i32,
        ticks: of_day * DateTime::TICKS_PER_SECOND
            + since.subsec_millis() * DateTime::TICKS_PER_SECOND / 1000,
    }
}

/// Part 6: a table `(id int PRIMARY KEY NONCLUSTERED HASH, guid
/// uniqueidentifier, created datetime)` churned like a queue (a commit
/// inserts 10,000 rows, the next deletes all but one in twenty of them)
/// until `--merge-pairs` data files have filled; then one CHECKPOINT seals
/// them and merges them into one. Reports how long it took, the bytes
/// merged per second, and how much the process's resident memory grew
/// meanwhile (its peak, reset before the checkpoint), then reopens the
/// database and checks the rows left.
fn merge(args: &DurabilityArgs, dir: &Path, report: &mut Report) -> Result<(), String> {
    const BATCH: i32 = 10_000;
    const KEEP_ONE_IN: i32 = 20;
    let storage = StorageConfig {
        checkpoint_log_bytes: u64::MAX,
        ..StorageConfig::default()
    };
    let (data_file_bytes, pairs) = if args.quick {
        (4 << 20, 2)
    } else {
        (storage.data_file_bytes, args.merge_pairs)
    };
    report.section(&format!(
        "merge: {pairs} data files of {} MiB filled by a churned table (one row in {KEEP_ONE_IN} kept), then one CHECKPOINT",
        data_file_bytes >> 20
    ));
    let storage = StorageConfig {
        data_file_bytes,
        ..storage
    };
    let db = Database::open(dir, DatabaseConfig::default(), storage.clone()).map_err(sql)?;
    let table = db
        .create_table(TableDef::new(
            "queue",
            id_guid_created(),
            vec![IndexDef::hash("pk", &[0], 1 << 20, Uniqueness::PrimaryKey)],
        ))
        .map_err(sql)?;
    let filled = |db: &Database| {
        db.checkpoint_files()
            .iter()
            .filter(|f| f.file_type == FileType::Data)
            .filter(|f| f.state == FileState::UnderConstruction && f.upper_bound_ts != u64::MAX)
            .count()
    };
    let mut rng = Rng::new(2026);
    let (mut next, mut kept) = (0i32, 0u64);
    let started = Instant::now();
    while filled(&db) < pairs {
        if next > i32::MAX - BATCH {
            return Err("the merge part ran out of int ids".to_string());
        }
        insert_rows(&db, &table, &mut rng, next as u64, BATCH as u64)?;
        let mut tx = db.begin(IsolationLevel::Snapshot).map_err(sql)?;
        for id in (next..next + BATCH).filter(|id| id % KEEP_ONE_IN != 0) {
            let row = tx
                .get(&table, 0, &[Value::Int(id)])
                .map_err(sql)?
                .ok_or_else(|| format!("row {id} vanished"))?;
            tx.delete(&table, row).map_err(sql)?;
        }
        tx.commit().map_err(sql)?;
        kept += (BATCH / KEEP_ONE_IN) as u64;
        next += BATCH;
    }
    let churn_seconds = started.elapsed().as_secs_f64();
    let merged_bytes: u64 = db
        .checkpoint_files()
        .iter()
        .filter(|f| f.state == FileState::UnderConstruction)
        .map(|f| f.file_size_used_bytes)
        .sum();

    let pid = std::process::id();
    let before = resident_bytes(pid);
    let peak_measured = reset_peak_resident();
    let checkpoint = db.checkpoint().map_err(sql)?;
    let peak = peak_resident_bytes(pid);
    let after = resident_bytes(pid);
    drop(db);
    let seconds = checkpoint.duration.as_secs_f64();
    report.add("merge_rows_inserted", next as f64, "rows");
    report.add("merge_churn_s", churn_seconds, "s");
    report.add(
        "merge_pairs_sealed",
        checkpoint.pairs_sealed as f64,
        "pairs",
    );
    report.add("merge_merges", checkpoint.merges as f64, "merges");
    report.add("merge_source_mb", merged_bytes as f64 / MB, "MB");
    report.add("merge_checkpoint_s", seconds, "s");
    report.add(
        "merge_source_mb_per_s",
        merged_bytes as f64 / MB / seconds,
        "MB/s",
    );
    if peak_measured {
        report.add(
            "merge_peak_rss_growth_mb",
            peak.saturating_sub(before) as f64 / MB,
            "MB",
        );
    }
    report.add(
        "merge_rss_kept_mb",
        after.saturating_sub(before) as f64 / MB,
        "MB",
    );
    if checkpoint.merges == 0 {
        return Err(format!("the checkpoint merged nothing: {checkpoint:?}"));
    }

    let db = Database::open(dir, DatabaseConfig::default(), storage).map_err(sql)?;
    let table = db
        .table_named("dbo", "queue")
        .ok_or("the queue table is gone after a restart")?;
    let mut tx = db.begin(IsolationLevel::Snapshot).map_err(sql)?;
    let mut rows = 0u64;
    tx.scan(&table, |_| {
        rows += 1;
        ControlFlow::<()>::Continue(())
    })
    .map_err(sql)?;
    if rows != kept {
        return Err(format!(
            "after the merge and a restart the queue holds {rows} rows, not {kept}"
        ));
    }
    Ok(())
}

/// Part 5: reopen the scenario's database twice, first with its files out
/// of the page cache (as after a reboot), then with them in it.
fn recovery(dir: &Path, expected: &Expected, report: &mut Report) -> Result<(), String> {
    report.section(&format!(
        "recovery of the checkpoint scenario's database ({} rows)",
        format_value(expected.rows as f64)
    ));
    for (label, cold) in [("cold", true), ("warm", false)] {
        if cold {
            evict_from_page_cache(dir)?;
        }
        let db = Database::open(dir, DatabaseConfig::default(), StorageConfig::default())
            .map_err(sql)?;
        let recovered = db
            .recovery_report()
            .cloned()
            .ok_or("a database opened from a directory has a recovery report")?;
        check_contents(&db, expected)?;
        drop(db);
        report_recovery(report, label, &recovered);
        if cold {
            let rows = (recovered.rows_loaded + recovered.rows_replayed) as f64;
            target(
                report,
                &format!(
                    ">= {} rows/s recovered (cold)",
                    format_value(TARGET_RECOVERY_ROWS_PER_S)
                ),
                rows / recovered.total_time.as_secs_f64() >= TARGET_RECOVERY_ROWS_PER_S,
            );
        }
    }
    Ok(())
}

fn report_recovery(report: &mut Report, label: &str, recovered: &RecoveryReport) {
    let rows = (recovered.rows_loaded + recovered.rows_replayed) as f64;
    let total = recovered.total_time.as_secs_f64();
    report.add(format!("recovery_{label}_s"), total, "s");
    report.add(
        format!("recovery_{label}_rows_per_s"),
        rows / total,
        "rows/s",
    );
    report.add(
        format!("recovery_{label}_load_s"),
        recovered.load_time.as_secs_f64(),
        "s",
    );
    report.add(
        format!("recovery_{label}_replay_s"),
        recovered.replay_time.as_secs_f64(),
        "s",
    );
    report.add(
        format!("recovery_{label}_rows_loaded"),
        recovered.rows_loaded as f64,
        "rows",
    );
    report.add(
        format!("recovery_{label}_rows_replayed"),
        recovered.rows_replayed as f64,
        "rows",
    );
    report.add(
        format!("recovery_{label}_pairs_loaded"),
        recovered.pairs_loaded as f64,
        "pairs",
    );
}

/// A wrong row count after recovery is a failure of the engine, not a figure.
fn check_contents(db: &Database, expected: &Expected) -> Result<(), String> {
    let table = db
        .table_named("dbo", "t")
        .ok_or("the scenario's table is missing after recovery")?;
    let mut tx = db.begin(IsolationLevel::Snapshot).map_err(sql)?;
    let (mut rows, mut id_sum) = (0u64, 0u64);
    tx.scan(&table, |row| {
        rows += 1;
        if let Value::Int(id) = row.value(0) {
            id_sum += id as u64;
        }
        ControlFlow::<()>::Continue(())
    })
    .map_err(sql)?;
    tx.commit().map_err(sql)?;
    if rows != expected.rows || id_sum != expected.id_sum {
        return Err(format!(
            "after recovery the table holds {rows} rows (id sum {id_sum}); \
             expected {} rows (id sum {})",
            expected.rows, expected.id_sum
        ));
    }
    Ok(())
}

/// Drops every file under `dir` from the page cache, so that recovery
/// reads the disk. The files are synced first: only clean pages go.
fn evict_from_page_cache(dir: &Path) -> Result<(), String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("listing {}: {e}", dir.display()))?;
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            evict_from_page_cache(&path)?;
            continue;
        }
        let file = File::open(&path).map_err(|e| format!("opening {}: {e}", path.display()))?;
        file.sync_all()
            .map_err(|e| format!("syncing {}: {e}", path.display()))?;
        // SAFETY: advice on a descriptor we own; no memory is involved.
        let rc = unsafe {
            libc::posix_fadvise(
                std::os::fd::AsRawFd::as_raw_fd(&file),
                0,
                0,
                libc::POSIX_FADV_DONTNEED,
            )
        };
        if rc != 0 {
            return Err(format!(
                "evicting {} from the page cache: {}",
                path.display(),
                std::io::Error::from_raw_os_error(rc)
            ));
        }
    }
    Ok(())
}
