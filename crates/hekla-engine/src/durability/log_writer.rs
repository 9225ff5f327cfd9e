//! The redo log's writer: group commit over preallocated segment files.
//!
//! Committers append their records to one shared block under a mutex. A
//! committer that needs its record durable waits; the first waiter to find
//! no flush running becomes the leader, takes the whole block (its own
//! record and everyone else's), writes it with one `pwrite` and one
//! `fdatasync`, and wakes the others. While it flushes, the next group
//! gathers in a fresh block. Delayed-durability commits do not wait; their
//! records go out with the next flush, when the block passes
//! `DELAYED_FLUSH_BYTES`, or on the flusher thread's timer.
//!
//! One flush writes exactly one block and syncs it before the next flush
//! starts, so after a crash at most the last block is torn, and a damaged
//! block followed by a valid one is real corruption (see `log_reader`).
//!
//! Segments are zero-filled before use (a spare one is prepared in the
//! background), so a flush never extends a file and `fdatasync` has no
//! metadata to write; a full disk shows up when a segment is prepared, not
//! in the middle of a block.

use super::frame;
use super::mutations::{self, Mutation};
use super::record::{CommitPartWriter, Record, PART_BYTES};
use super::storage::{SharedStorage, Storage, StorageFile};
use crate::errors;
use hekla_types::{SqlError, SqlResult};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};

/// Delayed-durability records are flushed once this many bytes wait
/// (SQL Server flushes its 60 KB log buffer when it fills).
pub const DELAYED_FLUSH_BYTES: usize = 60 << 10;
/// A block is written out once it holds this much, even mid-transaction.
const MAX_BLOCK_BYTES: usize = 8 << 20;

pub fn segment_name(start_lsn: u64) -> String {
    format!("{start_lsn:016x}.log")
}

const SPARE_NAME: &str = "spare.log.tmp";

/// Creates `path` holding `len` zero bytes, synced, replacing any old file.
pub fn create_zeroed(
    storage: &dyn Storage,
    path: &Path,
    len: u64,
) -> std::io::Result<Box<dyn StorageFile>> {
    let file = storage.create(path)?;
    let zeros = vec![0u8; 1 << 20];
    let mut at = 0u64;
    while at < len {
        let n = (len - at).min(zeros.len() as u64) as usize;
        file.write_all_at(&zeros[..n], at)?;
        at += n as u64;
    }
    file.sync_all()?;
    Ok(file)
}

/// Turns a recycled segment of the right size into the spare: its old
/// blocks name old positions, so they can never pass for new ones, and its
/// space is already allocated. Recycled files of another size are deleted.
fn reuse_recycled(
    storage: &dyn Storage,
    dir: &Path,
    spare: &Path,
    len: u64,
) -> SqlResult<Option<Box<dyn StorageFile>>> {
    for path in super::log_reader::recycled(storage, dir)? {
        let fits = storage
            .open(&path)
            .and_then(|file| file.size())
            .is_ok_and(|file_len| file_len == len);
        if !fits {
            storage
                .remove(&path)
                .map_err(|e| errors::io_error("removal", &path, &e))?;
            continue;
        }
        storage
            .rename(&path, spare)
            .map_err(|e| errors::io_error("rename", &path, &e))?;
        let file = storage
            .open(spare)
            .map_err(|e| errors::io_error("open", spare, &e))?;
        return Ok(Some(file));
    }
    Ok(None)
}

/// The segment files; touched only by the flush leader (and, briefly, the
/// spare preparer).
struct Segments {
    storage: SharedStorage,
    dir: PathBuf,
    segment_bytes: u64,
    current: Box<dyn StorageFile>,
    /// The log sequence number of the segment's first byte.
    current_start: u64,
    current_len: u64,
    /// Bytes of the current segment in use.
    used: u64,
    spare: Option<Box<dyn StorageFile>>,
}

impl Segments {
    /// Writes a sealed block and syncs it; returns the LSN after it.
    fn write(&mut self, block: &mut Vec<u8>) -> std::io::Result<u64> {
        let len = frame::block_len(block.len() - frame::HEADER_BYTES) as u64;
        if self.used + len > self.current_len {
            self.switch(len)?;
        }
        let lsn = self.current_start + self.used;
        frame::seal(block, lsn);
        self.current.write_all_at(block, self.used)?;
        if !mutations::is_active(Mutation::NoLogSync) {
            self.current.sync_data()?;
        }
        self.used += len;
        Ok(lsn + len)
    }

    /// Moves to a new segment starting at the current end of the log.
    fn switch(&mut self, at_least: u64) -> std::io::Result<()> {
        let start = self.current_start + self.used;
        let path = self.dir.join(segment_name(start));
        let len = self.segment_bytes.max(at_least);
        let file = match self.spare.take() {
            Some(spare) if len == self.segment_bytes => {
                self.storage.rename(&self.dir.join(SPARE_NAME), &path)?;
                spare
            }
            _ => create_zeroed(&*self.storage, &path, len)?,
        };
        self.storage.sync_dir(&self.dir)?;
        self.current = file;
        self.current_start = start;
        self.current_len = len;
        self.used = 0;
        Ok(())
    }
}

struct Pending {
    /// Records appended and not yet flushed, in a block being built.
    block: Vec<u8>,
    /// Sequence number of the newest record appended / made durable.
    appended: u64,
    durable: u64,
    flushing: bool,
    /// Once a flush fails the log takes nothing more.
    failure: Option<SqlError>,
    /// Committers parked until their record (by sequence number) is
    /// durable. Each flush wakes exactly the ones it covered, plus one
    /// other to lead the next flush: waking everyone would make every
    /// waiter fight for this mutex after every flush.
    waiters: Vec<(u64, std::thread::Thread)>,
}

/// What the log has done since it opened.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LogStats {
    pub flushes: u64,
    pub records: u64,
    pub bytes: u64,
}

pub struct LogWriter {
    database: String,
    pending: Mutex<Pending>,
    flushed: Condvar,
    segments: Mutex<Segments>,
    /// The LSN up to which the log is written and synced.
    written: AtomicU64,
    /// Where the log ended when it opened, for `stats`.
    opened_at: u64,
    flushes: AtomicU64,
    records: AtomicU64,
}

/// Where the writer continues after recovery.
pub struct LogTail {
    pub segment_start: u64,
    /// The LSN of the end of the log: the next block goes here.
    pub end: u64,
}

impl LogWriter {
    /// Opens the log in `dir` to continue at `tail` (or to start afresh at
    /// LSN 0 if there is none).
    pub fn open(
        storage: SharedStorage,
        dir: &Path,
        database: &str,
        segment_bytes: u64,
        tail: Option<LogTail>,
    ) -> SqlResult<LogWriter> {
        let io = |op: &str, path: &Path| {
            let path = path.to_path_buf();
            let op = op.to_string();
            move |e: std::io::Error| errors::io_error(&op, &path, &e)
        };
        let tail = tail.unwrap_or(LogTail {
            segment_start: 0,
            end: 0,
        });
        let path = dir.join(segment_name(tail.segment_start));
        let current = match storage.open(&path) {
            Ok(file) => file,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let file =
                    create_zeroed(&*storage, &path, segment_bytes).map_err(io("create", &path))?;
                storage.sync_dir(dir).map_err(io("sync", dir))?;
                file
            }
            Err(e) => return Err(io("open", &path)(e)),
        };
        let current_len = current.size().map_err(io("stat", &path))?;
        Ok(LogWriter {
            database: database.to_string(),
            pending: Mutex::new(Pending {
                block: frame::new_block(DELAYED_FLUSH_BYTES),
                appended: 0,
                durable: 0,
                flushing: false,
                failure: None,
                waiters: Vec::new(),
            }),
            flushed: Condvar::new(),
            segments: Mutex::new(Segments {
                storage,
                dir: dir.to_path_buf(),
                segment_bytes,
                current,
                current_start: tail.segment_start,
                current_len,
                used: tail.end - tail.segment_start,
                spare: None,
            }),
            written: AtomicU64::new(tail.end),
            opened_at: tail.end,
            flushes: AtomicU64::new(0),
            records: AtomicU64::new(0),
        })
    }

    /// The LSN up to which the log is on stable storage.
    pub fn written_lsn(&self) -> u64 {
        self.written.load(Ordering::Acquire)
    }

    pub fn stats(&self) -> LogStats {
        LogStats {
            flushes: self.flushes.load(Ordering::Relaxed),
            records: self.records.load(Ordering::Relaxed),
            bytes: self.written_lsn() - self.opened_at,
        }
    }

    fn lock(&self) -> MutexGuard<'_, Pending> {
        self.pending.lock().expect("log pending")
    }

    /// Appends a catalog record; `ts` is taken from `clock` while the log
    /// is locked, so that a checkpoint that reads the clock under the same
    /// lock knows every catalog change at or below what it read is in the
    /// log. Returns once the record is durable.
    pub fn append_catalog(
        &self,
        clock: &AtomicU64,
        make: impl FnOnce(u64) -> Record<'static>,
    ) -> SqlResult<u64> {
        let mut pending = self.lock();
        if let Some(failure) = &pending.failure {
            return Err(failure.clone());
        }
        let ts = clock.fetch_add(1, Ordering::SeqCst) + 1;
        make(ts).encode(&mut pending.block);
        pending.appended += 1;
        let seq = pending.appended;
        self.wait_durable(pending, seq)?;
        Ok(ts)
    }

    /// Reads the clock with the log locked (see `append_catalog`).
    pub fn read_clock(&self, clock: &AtomicU64) -> u64 {
        let _pending = self.lock();
        clock.load(Ordering::SeqCst)
    }

    /// Appends a transaction's changes as one or more commit parts, and
    /// waits until they are durable unless `delayed`.
    pub fn append_commit<'c>(
        &self,
        ts: u64,
        changes: impl Iterator<Item = super::record::Change<'c>>,
        delayed: bool,
    ) -> SqlResult<()> {
        let mut pending = self.lock();
        if let Some(failure) = &pending.failure {
            return Err(failure.clone());
        }
        let mut changes = changes.peekable();
        loop {
            let mut part = CommitPartWriter::begin(&mut pending.block, ts);
            while part.len() < PART_BYTES {
                match changes.next() {
                    Some(change) => part.push(&change),
                    None => break,
                }
            }
            let last = changes.peek().is_none();
            part.finish(last);
            pending.appended += 1;
            if last {
                break;
            }
            if pending.block.len() >= MAX_BLOCK_BYTES {
                pending = self.flush_locked(pending)?;
            }
        }
        let seq = pending.appended;
        if !delayed {
            return self.wait_durable(pending, seq);
        }
        if pending.block.len() >= DELAYED_FLUSH_BYTES {
            drop(self.flush_locked(pending)?);
        }
        Ok(())
    }

    /// Makes everything appended so far durable (`sys.sp_flush_log`).
    pub fn flush(&self) -> SqlResult<()> {
        let pending = self.lock();
        let seq = pending.appended;
        self.wait_durable(pending, seq)
    }

    fn wait_durable<'g>(&'g self, mut pending: MutexGuard<'g, Pending>, seq: u64) -> SqlResult<()> {
        loop {
            if pending.durable >= seq {
                return Ok(());
            }
            if let Some(failure) = &pending.failure {
                return Err(failure.clone());
            }
            if !pending.flushing {
                pending = self.flush_locked(pending)?;
                continue;
            }
            pending.waiters.push((seq, std::thread::current()));
            drop(pending);
            // Woken by the flush that covers `seq`, or to lead the next
            // one; a spurious wake just looks again.
            std::thread::park();
            pending = self.lock();
        }
    }

    /// Writes out the pending block as leader. Waits for a running flush
    /// first; returns the guard again once done.
    fn flush_locked<'g>(
        &'g self,
        mut pending: MutexGuard<'g, Pending>,
    ) -> SqlResult<MutexGuard<'g, Pending>> {
        while pending.flushing {
            pending = self.flushed.wait(pending).expect("log pending");
        }
        if let Some(failure) = &pending.failure {
            return Err(failure.clone());
        }
        if pending.block.len() == frame::HEADER_BYTES {
            return Ok(pending);
        }
        let target = pending.appended;
        let records = target - pending.durable;
        let mut block =
            std::mem::replace(&mut pending.block, frame::new_block(DELAYED_FLUSH_BYTES));
        pending.flushing = true;
        drop(pending);
        let outcome = self
            .segments
            .lock()
            .expect("log segments")
            .write(&mut block);
        let mut pending = self.lock();
        pending.flushing = false;
        match outcome {
            Ok(end) => {
                self.written.store(end, Ordering::Release);
                self.flushes.fetch_add(1, Ordering::Relaxed);
                self.records.fetch_add(records, Ordering::Relaxed);
                pending.durable = target;
            }
            Err(error) => {
                let failure = if error.raw_os_error() == Some(libc::ENOSPC) {
                    errors::log_full(&self.database)
                } else {
                    errors::log_unavailable(&self.database, &error)
                };
                pending.failure = Some(failure);
            }
        }
        let woken = Self::take_woken(&mut pending);
        self.flushed.notify_all();
        // Waking takes a system call per thread: not under the lock, where
        // it would hold up every committer appending meanwhile.
        drop(pending);
        for thread in woken {
            thread.unpark();
        }
        let pending = self.lock();
        match &pending.failure {
            Some(failure) => Err(failure.clone()),
            None => Ok(pending),
        }
    }

    /// After a flush: takes the waiters it made durable (all of them if it
    /// failed), and one of the rest to lead the next flush.
    fn take_woken(pending: &mut Pending) -> Vec<std::thread::Thread> {
        let failed = pending.failure.is_some();
        let durable = pending.durable;
        let mut leader_chosen = false;
        let mut woken = Vec::new();
        pending.waiters.retain(|(seq, thread)| {
            let wake = failed || *seq <= durable || !leader_chosen;
            if wake {
                leader_chosen |= *seq > durable;
                woken.push(thread.clone());
            }
            !wake
        });
        woken
    }

    /// Flushes delayed records if any wait (the flusher thread's timer).
    pub fn flush_if_pending(&self) {
        let pending = self.lock();
        if pending.block.len() > frame::HEADER_BYTES && !pending.flushing {
            // A failure is recorded; the next committer reports it.
            drop(self.flush_locked(pending));
        }
    }

    /// Prepares the next segment ahead of need, off the commit path.
    pub fn prepare_spare(&self) -> SqlResult<()> {
        let (storage, dir, len) = {
            let segments = self.segments.lock().expect("log segments");
            if segments.spare.is_some() {
                return Ok(());
            }
            (
                segments.storage.clone(),
                segments.dir.clone(),
                segments.segment_bytes,
            )
        };
        let path = dir.join(SPARE_NAME);
        let file = match reuse_recycled(&*storage, &dir, &path, len)? {
            Some(file) => file,
            None => create_zeroed(&*storage, &path, len).map_err(|e| {
                let _ = storage.remove(&path);
                errors::io_error("preallocation", &path, &e)
            })?,
        };
        self.segments.lock().expect("log segments").spare = Some(file);
        Ok(())
    }
}

/// The log's timer thread: flushes delayed-durability records every
/// `interval` and keeps a spare segment ready, until `stop` is set.
pub fn spawn_flusher(
    log: std::sync::Arc<LogWriter>,
    interval: std::time::Duration,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
) -> std::io::Result<std::thread::JoinHandle<()>> {
    std::thread::Builder::new()
        .name("hekla-log-flush".to_string())
        .spawn(move || {
            while !stop.load(Ordering::Acquire) {
                std::thread::park_timeout(interval);
                log.flush_if_pending();
                // A full disk shows up again at the next segment switch.
                let _ = log.prepare_spare();
            }
        })
}
