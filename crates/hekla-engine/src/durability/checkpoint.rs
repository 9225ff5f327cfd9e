//! The continuous checkpoint: a background worker follows the redo log
//! and files every committed insert into the data file of the pair that
//! covers its commit timestamp, and every delete into the delta file of the
//! pair holding the deleted row. A checkpoint seals the pairs under
//! construction, merges pairs that have emptied, and writes a new root.
//!
//! Log order is not commit-timestamp order (a transaction may log after
//! one with a later timestamp), so a checkpoint at timestamp `b` first
//! waits until no transaction at or below `b` is still preparing, then
//! reads the log to its end: every commit at or below `b` is then in hand.
//! Commits above `b` read in the same pass are applied only after the root
//! is written, and replay after a crash starts at the first block holding
//! one of them, skipping commits at or below `b`.

use super::log_reader::{read_range, truncate_before};
use super::log_writer::LogWriter;
use super::pair::{
    data_path, delta_path, read_entries, Appender, CheckpointFileInfo, DeletedRows, FileState,
    Pair, Tombstone,
};
use super::record::{decode_block, Change, Record};
use super::root::{CatalogImage, PairImage, Root};
use super::rows::row_identity;
use super::StorageConfig;
use crate::catalog::TableId;
use crate::database::Shared;
use crate::errors;
use crate::layout::RowLayout;
use hekla_types::{SqlError, SqlResult};
use std::collections::{HashMap, VecDeque};
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

/// How often the worker looks for new log when nobody wakes it.
const FOLLOW_INTERVAL: Duration = Duration::from_millis(20);
/// A checkpoint merges at most this many times, so that it stays short.
const MAX_MERGES_PER_CHECKPOINT: usize = 4;
/// The worker remembers this many of its latest checkpoints.
const HISTORY_LEN: usize = 64;

/// What one checkpoint did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CheckpointReport {
    /// Every commit at or below this timestamp is in the checkpoint.
    pub checkpoint_ts: u64,
    pub duration: Duration,
    /// Bytes written to checkpoint files since the previous checkpoint,
    /// continuously and by this one (including merge targets).
    pub bytes_written: u64,
    /// Time the worker spent following the log into checkpoint files and
    /// checkpointing, over the same span: `bytes_written / busy` is the
    /// checkpoint's write bandwidth.
    pub busy: Duration,
    pub pairs_sealed: usize,
    pub merges: usize,
    pub active_pairs: usize,
}

/// What started a checkpoint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckpointTrigger {
    /// `CHECKPOINT` (`Database::checkpoint`).
    Manual,
    /// The worker, once the log had grown `checkpoint_log_bytes`.
    Automatic,
}

/// A checkpoint that completed, as `Database::checkpoint_history` lists it.
#[derive(Clone, Debug)]
pub struct CompletedCheckpoint {
    pub trigger: CheckpointTrigger,
    pub finished_at: SystemTime,
    pub report: CheckpointReport,
}

pub(crate) enum Request {
    Checkpoint(Sender<SqlResult<CheckpointReport>>),
    Files(Sender<Vec<CheckpointFileInfo>>),
    History(Sender<Vec<CompletedCheckpoint>>),
    Stop,
}

pub(crate) struct Checkpointer {
    root_dir: PathBuf,
    data_dir: PathBuf,
    log_dir: PathBuf,
    config: StorageConfig,
    catalog: CatalogImage,
    /// Row layouts of the tables in `catalog` (merges compute identities).
    layouts: HashMap<TableId, RowLayout>,
    /// Pairs under construction and sealed ones, ordered by timestamp range.
    pairs: Vec<Pair>,
    precreated: Option<Pair>,
    /// Merged sources, deleted at the next checkpoint.
    tombstones: Vec<Tombstone>,
    next_pair_id: u64,
    checkpoint_ts: u64,
    replay_lsn: u64,
    /// The log is applied up to here.
    read_lsn: u64,
    max_ts_seen: u64,
    /// Time spent following the log and checkpointing since the last checkpoint.
    busy: Duration,
    /// The latest checkpoints, oldest first, at most `HISTORY_LEN`.
    history: VecDeque<CompletedCheckpoint>,
    failure: Option<SqlError>,
}

impl Checkpointer {
    /// A worker continuing from `root` (or from nothing), whose sealed
    /// pairs recovery has loaded.
    pub fn new(
        root_dir: PathBuf,
        config: StorageConfig,
        root: Option<&Root>,
    ) -> SqlResult<Checkpointer> {
        let data_dir = root_dir.join("data");
        let mut checkpointer = Checkpointer {
            log_dir: root_dir.join("log"),
            config,
            catalog: CatalogImage::default(),
            layouts: HashMap::new(),
            pairs: Vec::new(),
            precreated: None,
            tombstones: Vec::new(),
            next_pair_id: 1,
            checkpoint_ts: 0,
            replay_lsn: 0,
            read_lsn: 0,
            max_ts_seen: 0,
            busy: Duration::ZERO,
            history: VecDeque::new(),
            failure: None,
            data_dir,
            root_dir,
        };
        if let Some(root) = root {
            checkpointer.catalog = root.catalog.clone();
            for (&id, def) in &root.catalog.tables {
                checkpointer
                    .layouts
                    .insert(id, RowLayout::new(&def.columns));
            }
            checkpointer.next_pair_id = root.next_pair_id;
            checkpointer.checkpoint_ts = root.checkpoint_ts;
            checkpointer.replay_lsn = root.replay_lsn;
            checkpointer.read_lsn = root.replay_lsn;
            checkpointer.max_ts_seen = root.checkpoint_ts;
            for image in &root.pairs {
                checkpointer.pairs.push(Pair {
                    id: image.id,
                    state: FileState::Active,
                    lower_ts: image.lower_ts,
                    upper_ts: image.upper_ts,
                    data: Appender::reopen(
                        &checkpointer.config.storage,
                        data_path(&checkpointer.data_dir, image.id),
                        image.data_len,
                    )?,
                    delta: Appender::reopen(
                        &checkpointer.config.storage,
                        delta_path(&checkpointer.data_dir, image.id),
                        image.delta_len,
                    )?,
                    rows: image.rows,
                    deleted: image.deleted,
                });
            }
        }
        checkpointer.remove_unknown_files()?;
        Ok(checkpointer)
    }

    /// Files in the data directory that no sealed pair names are leftovers
    /// of pairs under construction (or precreated) before a restart.
    fn remove_unknown_files(&self) -> SqlResult<()> {
        let known: Vec<PathBuf> = self
            .pairs
            .iter()
            .flat_map(|p| [p.data.path.clone(), p.delta.path.clone()])
            .collect();
        let storage = &*self.config.storage;
        let entries = storage
            .list(&self.data_dir)
            .map_err(|e| errors::io_error("listing", &self.data_dir, &e))?;
        for path in entries {
            if !known.contains(&path) {
                storage
                    .remove(&path)
                    .map_err(|e| errors::io_error("removal", &path, &e))?;
            }
        }
        Ok(())
    }

    /// Applies one log record at or above the checkpoint.
    fn apply(&mut self, record: &Record) -> SqlResult<()> {
        self.max_ts_seen = self.max_ts_seen.max(record.ts());
        match record {
            Record::CommitPart { ts, changes, .. } => {
                for change in changes {
                    match *change {
                        Change::Insert { table, row } => {
                            let pair = self.pair_for(*ts)?;
                            pair.insert(table, *ts, row)?;
                        }
                        Change::Delete {
                            table,
                            begin_ts,
                            identity,
                        } => {
                            let pair = self.pair_for(begin_ts)?;
                            pair.delete(table, begin_ts, identity)?;
                        }
                    }
                }
                self.roll_over()?;
            }
            Record::CreateSchema { id, name, .. } => {
                self.catalog.schemas.insert(*id, name.clone());
                self.catalog.next_schema = self.catalog.next_schema.max(id + 1);
            }
            Record::CreateTable { id, def, .. } => {
                self.catalog.tables.insert(*id, def.clone());
                self.catalog.next_table = self.catalog.next_table.max(id + 1);
                self.layouts.insert(*id, RowLayout::new(&def.columns));
            }
            Record::DropTable { id, .. } => {
                self.catalog.tables.remove(id);
                self.layouts.remove(id);
            }
            Record::Options { options, .. } => self.catalog.options = *options,
        }
        Ok(())
    }

    /// The pair whose range holds `ts`, opening one under construction if
    /// `ts` is past every range.
    fn pair_for(&mut self, ts: u64) -> SqlResult<&mut Pair> {
        if let Some(i) = self.pairs.iter().position(|p| p.holds(ts)) {
            return Ok(&mut self.pairs[i]);
        }
        let lower = self
            .pairs
            .iter()
            .map(|p| p.upper_ts)
            .max()
            .unwrap_or(0)
            .max(self.checkpoint_ts);
        if ts <= lower {
            return Err(errors::recovery_failed(
                &self.data_dir,
                0,
                &format!("no checkpoint file holds the rows committed at timestamp {ts}"),
            ));
        }
        let mut pair = self.take_precreated()?;
        pair.state = FileState::UnderConstruction;
        pair.lower_ts = lower;
        pair.upper_ts = u64::MAX;
        self.pairs.push(pair);
        Ok(self.pairs.last_mut().expect("just pushed"))
    }

    fn new_pair(&mut self, state: FileState) -> SqlResult<Pair> {
        let id = self.next_pair_id;
        self.next_pair_id += 1;
        Ok(Pair {
            id,
            state,
            lower_ts: 0,
            upper_ts: 0,
            data: Appender::create(
                &self.config.storage,
                data_path(&self.data_dir, id),
                self.config.data_file_bytes,
            )?,
            delta: Appender::create(
                &self.config.storage,
                delta_path(&self.data_dir, id),
                self.config.delta_file_bytes,
            )?,
            rows: 0,
            deleted: 0,
        })
    }

    fn take_precreated(&mut self) -> SqlResult<Pair> {
        match self.precreated.take() {
            Some(pair) => Ok(pair),
            None => self.new_pair(FileState::Precreated),
        }
    }

    /// Keeps a pair ready so that opening one costs nothing on the way.
    fn precreate(&mut self) -> SqlResult<()> {
        if self.precreated.is_none() {
            self.precreated = Some(self.new_pair(FileState::Precreated)?);
        }
        Ok(())
    }

    /// Closes the range of a full pair under construction at the newest
    /// timestamp seen; later commits go to a new pair. Stragglers with
    /// lower timestamps still land in the closed range.
    fn roll_over(&mut self) -> SqlResult<()> {
        let Some(open) = self.pairs.iter_mut().find(|p| p.upper_ts == u64::MAX) else {
            return Ok(());
        };
        if open.data.used() < self.config.data_file_bytes || self.max_ts_seen <= open.lower_ts {
            return Ok(());
        }
        open.upper_ts = self.max_ts_seen;
        Ok(())
    }

    /// Applies the log from where it was read to `limit`.
    fn follow(&mut self, limit: u64) -> SqlResult<()> {
        if limit <= self.read_lsn {
            return Ok(());
        }
        let started = Instant::now();
        let above = self.checkpoint_ts;
        let log_dir = self.log_dir.clone();
        let storage = self.config.storage.clone();
        read_range(&*storage, &log_dir, self.read_lsn, limit, |lsn, payload| {
            for record in decode_block(payload, &log_dir, lsn)? {
                if record.ts() > above {
                    self.apply(&record)?;
                }
            }
            Ok(())
        })?;
        self.read_lsn = limit;
        self.busy += started.elapsed();
        Ok(())
    }

    pub fn checkpoint(
        &mut self,
        shared: &Shared,
        log: &LogWriter,
        trigger: CheckpointTrigger,
    ) -> SqlResult<CheckpointReport> {
        if let Some(failure) = &self.failure {
            return Err(failure.clone());
        }
        let outcome = self.try_checkpoint(shared, log);
        match &outcome {
            Ok(report) => self.remember(trigger, report.clone()),
            Err(error) => self.failure = Some(error.clone()),
        }
        outcome
    }

    fn remember(&mut self, trigger: CheckpointTrigger, report: CheckpointReport) {
        if self.history.len() == HISTORY_LEN {
            self.history.pop_front();
        }
        self.history.push_back(CompletedCheckpoint {
            trigger,
            finished_at: SystemTime::now(),
            report,
        });
    }

    fn try_checkpoint(&mut self, shared: &Shared, log: &LogWriter) -> SqlResult<CheckpointReport> {
        let started = Instant::now();
        let ts = log.read_clock(&shared.clock);
        shared.txns.wait_for_preparing_through(ts);
        log.flush()?;
        let limit = log.written_lsn();
        // Everything at or below `ts` is now in the log before `limit`.
        let previous = self.checkpoint_ts;
        let log_dir = self.log_dir.clone();
        let mut later: Vec<(u64, Vec<u8>)> = Vec::new();
        let storage = self.config.storage.clone();
        read_range(&*storage, &log_dir, self.read_lsn, limit, |lsn, payload| {
            let records = decode_block(payload, &log_dir, lsn)?;
            let mut holds_later = false;
            for record in records {
                if record.ts() > ts {
                    holds_later = true;
                } else if record.ts() > previous {
                    self.apply(&record)?;
                }
            }
            if holds_later {
                later.push((lsn, payload.to_vec()));
            }
            Ok(())
        })?;
        self.read_lsn = limit;
        let replay_lsn = later.first().map_or(limit, |(lsn, _)| *lsn);

        let mut report = CheckpointReport {
            checkpoint_ts: ts,
            ..CheckpointReport::default()
        };
        let mut empty = Vec::new();
        for pair in std::mem::take(&mut self.pairs) {
            let mut pair = pair;
            if pair.state == FileState::UnderConstruction {
                pair.upper_ts = pair.upper_ts.min(ts);
                pair.state = FileState::Active;
                report.pairs_sealed += 1;
            }
            if pair.rows == 0 && pair.deleted == 0 {
                empty.push(pair);
            } else {
                self.pairs.push(pair);
            }
        }
        let mut sources = self.merge_some(&mut report)?;
        for pair in self.pairs.iter_mut().chain(&mut sources) {
            pair.data.sync()?;
            pair.delta.sync()?;
            report.bytes_written += pair.data.newly_written() + pair.delta.newly_written();
        }
        let root = Root {
            checkpoint_ts: ts,
            replay_lsn,
            next_pair_id: self.next_pair_id,
            catalog: self.catalog.clone(),
            pairs: self
                .pairs
                .iter()
                .map(|p| PairImage {
                    id: p.id,
                    lower_ts: p.lower_ts,
                    upper_ts: p.upper_ts,
                    data_len: p.data.used(),
                    delta_len: p.delta.used(),
                    rows: p.rows,
                    deleted: p.deleted,
                })
                .collect(),
        };
        // The pairs' files were created in the data directory: their
        // entries must be durable before a root names them, or a power
        // loss can leave a root naming files that are gone.
        storage
            .sync_dir(&self.data_dir)
            .map_err(|e| errors::io_error("sync", &self.data_dir, &e))?;
        root.write(&*storage, &self.root_dir)?;
        // The new root no longer names anything below; clean up behind it.
        // Every pair is sealed and synced now: none keeps a file open or a
        // buffer until it is written again.
        for pair in &mut self.pairs {
            pair.state = FileState::Active;
            pair.release();
        }
        for tombstone in self.tombstones.drain(..) {
            tombstone.remove_files(&*storage)?;
        }
        for pair in empty {
            pair.remove_files(&*storage)?;
        }
        for pair in &mut sources {
            pair.state = FileState::WaitingForLogTruncation;
        }
        truncate_before(&*storage, &self.log_dir, replay_lsn)?;
        self.tombstones
            .extend(sources.into_iter().map(Tombstone::of));
        self.checkpoint_ts = ts;
        self.replay_lsn = replay_lsn;
        for (lsn, payload) in later {
            for record in decode_block(&payload, &log_dir, lsn)? {
                if record.ts() > ts {
                    self.apply(&record)?;
                }
            }
        }
        self.busy += started.elapsed();
        report.busy = std::mem::take(&mut self.busy);
        report.active_pairs = self
            .pairs
            .iter()
            .filter(|p| p.state == FileState::Active)
            .count();
        report.duration = started.elapsed();
        Ok(report)
    }

    /// Estimated bytes of live rows in a pair.
    fn live_bytes(pair: &Pair) -> u64 {
        if pair.rows == 0 {
            return 0;
        }
        (pair.data.used() as u128 * pair.live_rows() as u128 / pair.rows as u128) as u64
    }

    /// Merges runs of adjacent sealed pairs whose live rows fit in one data
    /// file, and single pairs more than half deleted. Returns the sources.
    fn merge_some(&mut self, report: &mut CheckpointReport) -> SqlResult<Vec<Pair>> {
        let mut sources = Vec::new();
        while report.merges < MAX_MERGES_PER_CHECKPOINT {
            let Some(run) = self.merge_candidate() else {
                break;
            };
            let target = self.merge(run.clone())?;
            report.merges += 1;
            let merged: Vec<Pair> = self.pairs.splice(run, [target]).collect();
            sources.extend(merged);
        }
        Ok(sources)
    }

    fn merge_candidate(&self) -> Option<std::ops::Range<usize>> {
        let limit = self.config.data_file_bytes;
        let sealed = |p: &Pair| p.state == FileState::Active;
        for start in 0..self.pairs.len() {
            if !sealed(&self.pairs[start]) {
                continue;
            }
            let mut end = start;
            let mut live = 0;
            while end < self.pairs.len()
                && sealed(&self.pairs[end])
                && live + Self::live_bytes(&self.pairs[end]) <= limit
            {
                live += Self::live_bytes(&self.pairs[end]);
                end += 1;
            }
            if end - start >= 2 {
                return Some(start..end);
            }
            let pair = &self.pairs[start];
            if pair.deleted * 2 > pair.rows {
                return Some(start..start + 1);
            }
        }
        None
    }

    /// Writes the live rows of `run` into a new pair covering its range.
    fn merge(&mut self, run: std::ops::Range<usize>) -> SqlResult<Pair> {
        let mut target = self.new_pair(FileState::MergeTarget)?;
        target.lower_ts = self.pairs[run.start].lower_ts;
        target.upper_ts = self.pairs[run.end - 1].upper_ts;
        let mut identity = Vec::new();
        for i in run {
            self.pairs[i].state = FileState::MergedSource;
            let data_len = self.pairs[i].data.sync()?;
            let delta_len = self.pairs[i].delta.sync()?;
            let source = &self.pairs[i];
            let storage = &*self.config.storage;
            let deleted = DeletedRows::read(storage, &source.delta.path, delta_len)?;
            let (tables, layouts) = (&self.catalog.tables, &self.layouts);
            read_entries(storage, &source.data.path, 0..data_len, |entry| {
                // Rows of dropped tables go no further.
                let Some(def) = tables.get(&entry.table) else {
                    return Ok(());
                };
                let layout = &layouts[&entry.table];
                if deleted.take(entry.table, entry.begin_ts, &mut identity, |out| {
                    row_identity(def, layout, entry.bytes, out)
                }) {
                    return Ok(());
                }
                target.insert(entry.table, entry.begin_ts, entry.bytes)
            })?;
        }
        target.data.sync()?;
        target.delta.sync()?;
        Ok(target)
    }

    pub fn files(&self) -> Vec<CheckpointFileInfo> {
        self.pairs
            .iter()
            .chain(&self.precreated)
            .flat_map(|p| p.info())
            .chain(self.tombstones.iter().flat_map(|t| t.info().clone()))
            .collect()
    }
}

/// The worker thread: follows the log, checkpoints on request and after
/// `checkpoint_log_bytes` of log growth, keeps a pair precreated.
pub(crate) fn run(
    mut checkpointer: Checkpointer,
    shared: Arc<Shared>,
    log: Arc<LogWriter>,
    requests: Receiver<Request>,
) {
    // Requests are answered as they come, but the log is followed on a
    // fixed beat, so that frequent requests cannot starve it.
    let mut next_tick = Instant::now() + FOLLOW_INTERVAL;
    loop {
        if Instant::now() >= next_tick {
            follow_tick(&mut checkpointer, &shared, &log);
            next_tick = Instant::now() + FOLLOW_INTERVAL;
        }
        match requests.recv_timeout(next_tick.saturating_duration_since(Instant::now())) {
            Ok(Request::Stop) | Err(RecvTimeoutError::Disconnected) => return,
            Ok(Request::Checkpoint(reply)) => {
                let _ =
                    reply.send(checkpointer.checkpoint(&shared, &log, CheckpointTrigger::Manual));
            }
            Ok(Request::Files(reply)) => {
                let _ = reply.send(checkpointer.files());
            }
            Ok(Request::History(reply)) => {
                let _ = reply.send(checkpointer.history.iter().cloned().collect());
            }
            Err(RecvTimeoutError::Timeout) => {}
        }
    }
}

/// The worker's periodic step: file new log, keep a pair precreated, and
/// checkpoint once the log has grown enough.
fn follow_tick(checkpointer: &mut Checkpointer, shared: &Shared, log: &LogWriter) {
    if checkpointer.failure.is_some() {
        return;
    }
    let outcome = checkpointer
        .follow(log.written_lsn())
        .and_then(|()| checkpointer.precreate());
    if let Err(error) = outcome {
        checkpointer.failure = Some(error);
        return;
    }
    if log.written_lsn() - checkpointer.replay_lsn >= checkpointer.config.checkpoint_log_bytes {
        // A failure is kept and reported by the next explicit checkpoint.
        let _ = checkpointer.checkpoint(shared, log, CheckpointTrigger::Automatic);
    }
}
