//! `hekla bench checkpoint`: the checkpoint scenario SQL Server's In-Memory
//! OLTP is judged by. A durable memory-optimized table keyed by a random
//! uniqueidentifier gets rows one per batch, is then doubled again and
//! again by INSERT ... SELECT from itself, loses five ranges of IDs, and a
//! CHECKPOINT follows. Every checkpoint of the run is listed with its
//! duration and the bytes it wrote: the automatic ones (set off by the
//! log's growth while the load runs) and the manual one. Then the
//! checkpoint files by state and the data directory's size. The statements
//! are T-SQL text run through an embedded session, as a client sends them.

use super::counting;
use super::report::Report;
use super::workdir::WorkDir;
use crate::sql::first_value::first_value;
use clap::Args;
use hekla_engine::{CheckpointTrigger, CompletedCheckpoint};
use hekla_sql::session::{Session, SqlDatabase};
use hekla_types::Value;
use std::collections::BTreeMap;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

/// The five deletes, by ID range (inclusive), at the article's positions;
/// a range beyond the table's last ID deletes what exists of it.
const DELETED_RANGES: [(u32, u32); 5] = [
    (1000, 2000),
    (25000, 26000),
    (555555, 556555),
    (6666666, 6667666),
    (333, 1333),
];

#[derive(Args)]
pub struct CheckpointArgs {
    /// Rows inserted one per batch before the doublings (the article's 10,000).
    #[arg(long, default_value_t = 10_000,
          value_parser = clap::value_parser!(u32).range(1..))]
    initial_rows: u32,
    /// Times the table is doubled by INSERT ... SELECT from itself; the
    /// article's 12 make 40,960,000 rows.
    #[arg(long, default_value_t = 8,
          value_parser = clap::value_parser!(u32).range(0..=24))]
    doublings: u32,
    /// The database directory (created if missing, kept afterwards);
    /// by default a temporary one, removed at the end.
    #[arg(long, value_name = "DIR")]
    data_dir: Option<PathBuf>,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    json: bool,
}

pub fn run(args: CheckpointArgs) -> Result<(), String> {
    let final_rows = u64::from(args.initial_rows) << args.doublings;
    if final_rows > i32::MAX as u64 {
        return Err(format!(
            "{} rows after {} doublings overflow the int IDENTITY column",
            final_rows, args.doublings
        ));
    }
    let temporary = match &args.data_dir {
        Some(_) => None,
        None => Some(WorkDir::create(None, "checkpoint", false)?),
    };
    let dir = args
        .data_dir
        .clone()
        .or_else(|| temporary.as_ref().map(|work| work.path.clone()))
        .unwrap_or_default();
    let db = crate::sql::open_database(&dir, None)?;
    let mut report = Report::new("checkpoint", args.json);
    if !report.is_json() {
        println!(
            "hekla bench checkpoint: {} single-row inserts, {} doublings ({final_rows} rows), \
             five deletes, CHECKPOINT; durable, in {}",
            args.initial_rows,
            args.doublings,
            dir.display()
        );
    }
    let result = scenario(&args, &db, &mut report, final_rows).and_then(|started| {
        checkpoints(&db, &mut report, started)?;
        files(&db, &dir, &mut report);
        Ok(())
    });
    drop(db);
    result?;
    report.finish();
    Ok(())
}

/// Loads, deletes and checkpoints; returns when the run started.
fn scenario(
    args: &CheckpointArgs,
    db: &std::sync::Arc<SqlDatabase>,
    report: &mut Report,
    final_rows: u64,
) -> Result<SystemTime, String> {
    let started = SystemTime::now();
    let mut session = db.session().map_err(|e| e.message)?;
    // The article sizes the hash index for the rows it ends with.
    counting::execute(
        &mut session,
        &format!(
            "CREATE TABLE dbo.HK_tbl
             (
                [ID] Int identity(1,1) Not null ,
                [Data] uniqueidentifier PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = {}) NOT NULL,
                [dt] datetime not null
             ) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_AND_DATA);",
            final_rows.max(1)
        ),
    )?;

    report.section("load");
    let load = Instant::now();
    let phase = Instant::now();
    for _ in 0..args.initial_rows {
        counting::execute(
            &mut session,
            "Insert into HK_tbl(data,dt) Select NEWID(),getdate()",
        )?;
    }
    report.add("single_row_inserts_s", seconds(phase), "s");
    let mut rows_loaded = u64::from(args.initial_rows);
    for doubling in 1..=args.doublings {
        let phase = Instant::now();
        let inserted = counting::execute(
            &mut session,
            "Insert into HK_tbl(data,dt)\n Select newid(),getdate() from HK_tbl",
        )?
        .affected;
        report.add(format!("doubling_{doubling}_s"), seconds(phase), "s");
        rows_loaded += inserted;
    }
    report.add("rows_loaded", rows_loaded as f64, "rows");
    let phase = Instant::now();
    let mut rows_deleted = 0;
    for (low, high) in DELETED_RANGES {
        rows_deleted += counting::execute(
            &mut session,
            &format!("delete HK_tbl where id between {low} and {high}"),
        )?
        .affected;
    }
    report.add("deletes_s", seconds(phase), "s");
    report.add("rows_deleted", rows_deleted as f64, "rows");
    report.add("load_s", seconds(load), "s");

    report.section("manual checkpoint");
    let phase = Instant::now();
    counting::execute(&mut session, "checkpoint;")?;
    report.add(
        "checkpoint_statement_ms",
        phase.elapsed().as_secs_f64() * 1000.0,
        "ms",
    );
    report.add(
        "rows_after_deletes",
        row_count(&mut session)? as f64,
        "rows",
    );
    Ok(started)
}

fn row_count(session: &mut Session) -> Result<u64, String> {
    match first_value(session, "SELECT COUNT_BIG(*) FROM HK_tbl")? {
        Value::BigInt(n) => Ok(n.max(0) as u64),
        other => Err(format!("COUNT_BIG(*) returned {other:?}")),
    }
}

/// Every checkpoint that finished since `started`, in order, and their
/// totals; the last manual one is the scenario's CHECKPOINT.
fn checkpoints(db: &SqlDatabase, report: &mut Report, started: SystemTime) -> Result<(), String> {
    let run: Vec<CompletedCheckpoint> = db
        .engine()
        .checkpoint_history()
        .into_iter()
        .filter(|c| c.finished_at >= started)
        .collect();
    let manual = run
        .iter()
        .rfind(|c| c.trigger == CheckpointTrigger::Manual)
        .ok_or("the CHECKPOINT statement left no checkpoint in the history")?;
    report.add("manual_checkpoint_ms", millis(manual.report.duration), "ms");
    report.add(
        "manual_checkpoint_bytes_written",
        manual.report.bytes_written as f64,
        "bytes",
    );

    report.section("every checkpoint of the run (the worker writes continuously in between)");
    for (n, checkpoint) in run.iter().enumerate() {
        let kind = match checkpoint.trigger {
            CheckpointTrigger::Manual => "manual",
            CheckpointTrigger::Automatic => "automatic",
        };
        let at = checkpoint
            .finished_at
            .duration_since(started)
            .unwrap_or_default()
            .saturating_sub(checkpoint.report.duration);
        let name = format!("checkpoint_{}_{kind}", n + 1);
        report.add(format!("{name}_started_at_s"), at.as_secs_f64(), "s");
        report.add(
            format!("{name}_ms"),
            millis(checkpoint.report.duration),
            "ms",
        );
        report.add(
            format!("{name}_bytes_written"),
            checkpoint.report.bytes_written as f64,
            "bytes",
        );
    }
    let automatic = run
        .iter()
        .filter(|c| c.trigger == CheckpointTrigger::Automatic)
        .count();
    report.add("automatic_checkpoints", automatic as f64, "");
    let total = |part: fn(&CompletedCheckpoint) -> Duration| -> f64 {
        run.iter().map(part).sum::<Duration>().as_secs_f64() * 1000.0
    };
    report.add("checkpoint_total_ms", total(|c| c.report.duration), "ms");
    report.add(
        "checkpoint_bytes_written_total",
        run.iter().map(|c| c.report.bytes_written).sum::<u64>() as f64,
        "bytes",
    );
    report.add("checkpoint_worker_busy_ms", total(|c| c.report.busy), "ms");
    Ok(())
}

/// The checkpoint files by state, and what the directory takes on disk.
fn files(db: &SqlDatabase, dir: &Path, report: &mut Report) {
    report.section("checkpoint files by state, data directory");
    // By name: `MERGE TARGET` as `merge_target`.
    let mut by_state: BTreeMap<String, (u64, u64, u64)> = BTreeMap::new();
    for file in db.engine().checkpoint_files() {
        let state = file.state.name().to_lowercase().replace(' ', "_");
        let entry = by_state.entry(state).or_default();
        entry.0 += 1;
        entry.1 += file.file_size_bytes;
        entry.2 += file.file_size_used_bytes;
    }
    for (state, (count, size, used)) in by_state {
        report.add(format!("files_{state}_count"), count as f64, "files");
        report.add(format!("files_{state}_bytes"), size as f64, "bytes");
        report.add(format!("files_{state}_used_bytes"), used as f64, "bytes");
    }
    let (apparent, allocated) = directory_bytes(dir);
    report.add("data_dir_bytes", apparent as f64, "bytes");
    report.add("data_dir_allocated_bytes", allocated as f64, "bytes");
}

/// The files under `dir`: their sizes, and the blocks they hold on disk
/// (less for files reserved but not yet written, more for none).
fn directory_bytes(dir: &Path) -> (u64, u64) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return (0, 0);
    };
    let mut total = (0, 0);
    for entry in entries.flatten() {
        let Ok(metadata) = entry.metadata() else {
            continue;
        };
        let (apparent, allocated) = if metadata.is_dir() {
            directory_bytes(&entry.path())
        } else {
            (metadata.len(), metadata.blocks() * 512)
        };
        total.0 += apparent;
        total.1 += allocated;
    }
    total
}

fn seconds(since: Instant) -> f64 {
    since.elapsed().as_secs_f64()
}

fn millis(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}
