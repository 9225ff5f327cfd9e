//! Recovery: load the checkpoint's pairs in parallel, then replay the log
//! tail. Rows go straight into tables and every index, with no
//! transactions; nobody can see the database until it is done, and any
//! damage stops it with an error naming the file, so a database is never
//! opened half-loaded.

use super::log_reader;
use super::log_writer::LogTail;
use super::pair::{block_offsets, data_path, delta_path, read_entries, DeletedRows};
use super::record::{decode_block, Change, Record};
use super::root::{PairImage, Root};
use super::storage::Storage;
use super::StorageConfig;
use crate::catalog::TableId;
use crate::database::Database;
use crate::errors;
use crate::gc::Garbage;
use crate::table::{Table, TableRef};
use hekla_types::SqlResult;
use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What recovery did, for the server log and the benchmark.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RecoveryReport {
    pub checkpoint_ts: u64,
    pub pairs_loaded: usize,
    pub rows_loaded: u64,
    pub load_time: Duration,
    pub log_bytes_replayed: u64,
    pub commits_replayed: u64,
    pub rows_replayed: u64,
    pub replay_time: Duration,
    pub total_time: Duration,
}

/// The tables recovery puts rows into, and which ids were dropped.
struct Tables {
    by_id: HashMap<TableId, Arc<Table>>,
    next_table: TableId,
}

impl Tables {
    fn of(db: &Database) -> Tables {
        let (_, next_table) = db.next_ids();
        Tables {
            by_id: db.tables().into_iter().map(|t| (t.id, t)).collect(),
            next_table,
        }
    }

    /// The table with `id`; None for a dropped table (its rows are skipped);
    /// an error for an id never handed out.
    fn get(&self, id: TableId, file: &Path, offset: u64) -> SqlResult<Option<&Arc<Table>>> {
        match self.by_id.get(&id) {
            Some(table) => Ok(Some(table)),
            None if id < self.next_table => Ok(None),
            None => Err(errors::recovery_failed(
                file,
                offset,
                &format!("a row names table {id}, which never existed"),
            )),
        }
    }
}

pub(crate) fn recover(
    db: &Database,
    dir: &Path,
    config: &StorageConfig,
) -> SqlResult<(Option<Root>, Option<LogTail>, RecoveryReport)> {
    let started = Instant::now();
    let storage = &*config.storage;
    for sub in [dir.to_path_buf(), dir.join("log"), dir.join("data")] {
        storage
            .create_dir_all(&sub)
            .map_err(|e| errors::io_error("creation", &sub, &e))?;
    }
    let mut report = RecoveryReport::default();
    let root = Root::read(storage, dir)?;
    let (checkpoint_ts, replay_lsn) = match &root {
        Some(root) => {
            for (&id, name) in &root.catalog.schemas {
                db.restore_schema(id, name)?;
            }
            db.reserve_ids(root.catalog.next_schema, root.catalog.next_table);
            for (&id, def) in &root.catalog.tables {
                db.restore_table(id, def.clone())?;
            }
            db.restore_options(root.catalog.options);
            let loading = Instant::now();
            report.rows_loaded = load_pairs(db, &dir.join("data"), &root.pairs, config)?;
            report.pairs_loaded = root.pairs.len();
            report.load_time = loading.elapsed();
            config.report(&format!(
                "recovery: loaded {} rows from {} checkpoint file pairs in {:.3} s",
                report.rows_loaded,
                report.pairs_loaded,
                report.load_time.as_secs_f64()
            ));
            (root.checkpoint_ts, root.replay_lsn)
        }
        None => (0, 0),
    };
    report.checkpoint_ts = checkpoint_ts;
    let replaying = Instant::now();
    let mut replay = Replay {
        db,
        checkpoint_ts,
        max_ts: checkpoint_ts,
        tables: Tables::of(db),
        parts: HashMap::new(),
        report: &mut report,
    };
    let log_dir = dir.join("log");
    let tail = log_reader::recover(storage, &log_dir, replay_lsn, |lsn, payload| {
        let records = decode_block(payload, &log_dir, lsn)?;
        for record in records {
            replay.apply(record, &log_dir, lsn)?;
        }
        Ok(())
    })?;
    let max_ts = replay.max_ts;
    report.log_bytes_replayed = tail
        .as_ref()
        .map_or(0, |t| t.end.saturating_sub(replay_lsn));
    report.replay_time = replaying.elapsed();
    db.advance_clock(max_ts);
    db.collect_garbage();
    report.total_time = started.elapsed();
    config.report(&format!(
        "recovery: replayed {} commits ({} rows, {} log bytes) in {:.3} s; database ready after {:.3} s",
        report.commits_replayed,
        report.rows_replayed,
        report.log_bytes_replayed,
        report.replay_time.as_secs_f64(),
        report.total_time.as_secs_f64()
    ));
    Ok((root, tail, report))
}

/// Data files are loaded in pieces of about this size, so that a file
/// much bigger than the others (one huge transaction) is not left to a
/// single thread.
const LOAD_PIECE_BYTES: u64 = 32 << 20;

/// Loads every pair: their delta files first, then the pieces of their
/// data files, spread over the thread budget. Returns the rows loaded.
fn load_pairs(
    db: &Database,
    data_dir: &Path,
    pairs: &[PairImage],
    config: &StorageConfig,
) -> SqlResult<u64> {
    let tables = Tables::of(db);
    let storage = &*config.storage;
    let deleted = pairs
        .iter()
        .map(|pair| DeletedRows::read(storage, &delta_path(data_dir, pair.id), pair.delta_len))
        .collect::<SqlResult<Vec<_>>>()?;
    let mut pieces = Vec::new();
    for (i, pair) in pairs.iter().enumerate() {
        let offsets = block_offsets(storage, &data_path(data_dir, pair.id), pair.data_len)?;
        let mut start = 0;
        for &offset in offsets.iter().skip(1) {
            if offset - start >= LOAD_PIECE_BYTES {
                pieces.push((i, start..offset));
                start = offset;
            }
        }
        if start < pair.data_len {
            pieces.push((i, start..pair.data_len));
        }
    }
    let threads = match config.recovery_threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    }
    .min(pieces.len())
    .max(1);
    let next = AtomicUsize::new(0);
    let rows = AtomicU64::new(0);
    let failure = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some((pair, range)) = pieces.get(i) else {
                    return;
                };
                let path = data_path(data_dir, pairs[*pair].id);
                match load_piece(storage, &tables, &path, range.clone(), &deleted[*pair]) {
                    Ok(n) => {
                        rows.fetch_add(n, Ordering::Relaxed);
                    }
                    Err(error) => {
                        failure.lock().expect("failure").get_or_insert(error);
                        next.store(pieces.len(), Ordering::Relaxed);
                        return;
                    }
                }
            });
        }
    });
    match failure.into_inner().expect("failure") {
        Some(error) => Err(error),
        None => Ok(rows.into_inner()),
    }
}

/// Loads the rows of one piece of a data file that its pair's delta file
/// does not name.
fn load_piece(
    storage: &dyn Storage,
    tables: &Tables,
    data: &Path,
    range: std::ops::Range<u64>,
    deleted: &DeletedRows,
) -> SqlResult<u64> {
    let mut identity = Vec::new();
    let mut loaded = 0;
    read_entries(storage, data, range, |entry| {
        let Some(table) = tables.get(entry.table, data, 0)? else {
            return Ok(());
        };
        if deleted.take(entry.table, entry.begin_ts, &mut identity, |out| {
            table.row_identity(entry.bytes, out)
        }) {
            return Ok(());
        }
        table
            .restore_row(entry.begin_ts, entry.bytes)
            .map_err(|problem| errors::recovery_failed(data, 0, &problem))?;
        loaded += 1;
        Ok(())
    })?;
    Ok(loaded)
}

/// An owned change, for a transaction whose parts span blocks.
enum OwnedChange {
    Insert(TableId, Vec<u8>),
    Delete(TableId, u64, Vec<u8>),
}

impl From<&Change<'_>> for OwnedChange {
    fn from(change: &Change<'_>) -> OwnedChange {
        match *change {
            Change::Insert { table, row } => OwnedChange::Insert(table, row.to_vec()),
            Change::Delete {
                table,
                begin_ts,
                identity,
            } => OwnedChange::Delete(table, begin_ts, identity.to_vec()),
        }
    }
}

impl OwnedChange {
    fn view(&self) -> Change<'_> {
        match self {
            OwnedChange::Insert(table, row) => Change::Insert { table: *table, row },
            OwnedChange::Delete(table, begin_ts, identity) => Change::Delete {
                table: *table,
                begin_ts: *begin_ts,
                identity,
            },
        }
    }
}

struct Replay<'a> {
    db: &'a Database,
    checkpoint_ts: u64,
    max_ts: u64,
    tables: Tables,
    /// Parts of transactions whose last part has not been seen yet.
    parts: HashMap<u64, Vec<OwnedChange>>,
    report: &'a mut RecoveryReport,
}

impl Replay<'_> {
    fn apply(&mut self, record: Record<'_>, log_dir: &Path, lsn: u64) -> SqlResult<()> {
        let ts = record.ts();
        if ts <= self.checkpoint_ts {
            return Ok(());
        }
        self.max_ts = self.max_ts.max(ts);
        match record {
            Record::CommitPart { ts, last, changes } => {
                // Earlier parts wait, copied, for the last; a transaction
                // in one part (nearly all) is applied straight from the block.
                if !last {
                    let parts = self.parts.entry(ts).or_default();
                    parts.extend(changes.iter().map(OwnedChange::from));
                    return Ok(());
                }
                let earlier = self.parts.remove(&ts).unwrap_or_default();
                self.report.commits_replayed += 1;
                self.report.rows_replayed += (earlier.len() + changes.len()) as u64;
                let earlier = earlier.iter().map(OwnedChange::view);
                for change in earlier.chain(changes) {
                    self.apply_change(ts, change, log_dir, lsn)?;
                }
            }
            Record::CreateSchema { id, name, .. } => self.db.restore_schema(id, &name)?,
            Record::CreateTable { id, def, .. } => {
                self.db.restore_table(id, def)?;
                self.tables = Tables::of(self.db);
            }
            Record::DropTable { id, .. } => {
                self.db.drop_table(id)?;
                self.tables = Tables::of(self.db);
            }
            Record::Options { options, .. } => self.db.restore_options(options),
        }
        Ok(())
    }

    fn apply_change(&self, ts: u64, change: Change<'_>, log_dir: &Path, lsn: u64) -> SqlResult<()> {
        let corrupt = |problem: String| errors::recovery_failed(log_dir, lsn, &problem);
        match change {
            Change::Insert { table: id, row } => {
                if let Some(table) = self.tables.get(id, log_dir, lsn)? {
                    table.restore_row(ts, row).map_err(corrupt)?;
                }
            }
            Change::Delete {
                table: id,
                begin_ts,
                identity,
            } => {
                let Some(table) = self.tables.get(id, log_dir, lsn)? else {
                    return Ok(());
                };
                let version = table.find_restored(begin_ts, identity).ok_or_else(|| {
                    corrupt(format!(
                        "a commit at timestamp {ts} deletes a row of table {id} (born at {begin_ts}) that does not exist"
                    ))
                })?;
                version.end().store(ts, Ordering::Release);
                self.db.retire(
                    ts,
                    Garbage {
                        table: TableRef::new(table),
                        version,
                    },
                );
            }
        }
        Ok(())
    }
}
