//! Checkpoint file pairs: a data file of row versions inserted in a range
//! of commit timestamps, and a delta file naming the ones later deleted.
//! Both are append-only sequences of blocks (`frame`), written in large
//! sequential chunks and synced only when a checkpoint seals them.
//!
//! ```text
//! data row:    [table u32][begin ts u64][row bytes]
//! delta entry: [table u32][begin ts u64][row identity bytes]
//! ```

use super::codec::{Decoder, Encoder};
use super::frame::{self, Read};
use super::mutations::{self, Mutation};
use super::storage::{Storage, StorageFile};
use crate::catalog::TableId;
use crate::errors;
use hekla_types::SqlResult;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

/// Rows gather in a block of about this size before it is written.
const BLOCK_BYTES: usize = 1 << 20;

/// A file's state, as `sys.dm_db_xtp_checkpoint_files` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileState {
    /// Created ahead of need, holding nothing yet.
    Precreated,
    /// Receiving rows from the log; not yet part of a checkpoint.
    UnderConstruction,
    /// Sealed by a checkpoint; recovery loads it.
    Active,
    /// Being written by a merge; becomes Active with the next checkpoint.
    MergeTarget,
    /// Merged into a target; still named by the last checkpoint.
    MergedSource,
    /// Superseded by a checkpoint, waiting for the log before it to go.
    WaitingForLogTruncation,
    /// No longer needed; deleted at the next checkpoint.
    Tombstone,
}

impl FileState {
    pub fn name(self) -> &'static str {
        match self {
            FileState::Precreated => "PRECREATED",
            FileState::UnderConstruction => "UNDER CONSTRUCTION",
            FileState::Active => "ACTIVE",
            FileState::MergeTarget => "MERGE TARGET",
            FileState::MergedSource => "MERGED SOURCE",
            FileState::WaitingForLogTruncation => "WAITING FOR LOG TRUNCATION",
            FileState::Tombstone => "TOMBSTONE",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileType {
    Data,
    Delta,
}

impl FileType {
    pub fn name(self) -> &'static str {
        match self {
            FileType::Data => "DATA",
            FileType::Delta => "DELTA",
        }
    }
}

/// One checkpoint file, for `sys.dm_db_xtp_checkpoint_files`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckpointFileInfo {
    pub pair_id: u64,
    pub file_type: FileType,
    pub state: FileState,
    pub path: PathBuf,
    /// Bytes allocated on disk / bytes holding blocks.
    pub file_size_bytes: u64,
    pub file_size_used_bytes: u64,
    /// The pair's commit-timestamp range: (lower, upper]; upper is
    /// `u64::MAX` while the pair is still open.
    pub lower_bound_ts: u64,
    pub upper_bound_ts: u64,
    pub inserted_row_count: u64,
    pub deleted_row_count: u64,
}

/// An append-only file of blocks.
pub struct Appender {
    pub path: PathBuf,
    file: Box<dyn StorageFile>,
    /// Bytes of whole blocks written to the file.
    written: u64,
    block: Vec<u8>,
    /// Whether blocks were written since the last sync.
    dirty: bool,
    /// `written` when `newly_written` was last asked.
    counted: u64,
}

fn io<'p>(
    op: &'static str,
    path: &'p Path,
) -> impl FnOnce(std::io::Error) -> hekla_types::SqlError + 'p {
    move |e| errors::io_error(op, path, &e)
}

impl Appender {
    /// Creates an empty file with `reserve` bytes allocated, so that later
    /// appends neither wait for allocation nor fail for lack of space.
    pub fn create(storage: &dyn Storage, path: PathBuf, reserve: u64) -> SqlResult<Appender> {
        let file = storage.create(&path).map_err(io("create", &path))?;
        if reserve > 0 {
            file.reserve(reserve).map_err(io("preallocation", &path))?;
        }
        Ok(Appender {
            path,
            file,
            written: 0,
            block: frame::new_block(BLOCK_BYTES),
            dirty: false,
            counted: 0,
        })
    }

    /// Reopens a sealed file to append after its first `len` bytes (what
    /// the last checkpoint counted); anything after them is dropped.
    pub fn reopen(storage: &dyn Storage, path: PathBuf, len: u64) -> SqlResult<Appender> {
        let file = storage.open(&path).map_err(io("open", &path))?;
        file.set_len(len).map_err(io("truncation", &path))?;
        Ok(Appender {
            path,
            file,
            written: len,
            block: frame::new_block(BLOCK_BYTES),
            dirty: true,
            counted: len,
        })
    }

    /// Appends one entry, built by `encode` into the current block.
    pub fn push(&mut self, encode: impl FnOnce(&mut Encoder)) -> SqlResult<()> {
        encode(&mut Encoder(&mut self.block));
        if self.block.len() >= BLOCK_BYTES {
            self.write_block()?;
        }
        Ok(())
    }

    fn write_block(&mut self) -> SqlResult<()> {
        if self.block.len() == frame::HEADER_BYTES {
            return Ok(());
        }
        frame::seal(&mut self.block, self.written);
        self.file
            .write_all_at(&self.block, self.written)
            .map_err(io("write", &self.path))?;
        self.written += self.block.len() as u64;
        self.block.truncate(0);
        self.block.resize(frame::HEADER_BYTES, 0);
        self.dirty = true;
        Ok(())
    }

    /// Writes what is buffered and syncs; returns the file's length.
    pub fn sync(&mut self) -> SqlResult<u64> {
        self.write_block()?;
        if self.dirty {
            if !mutations::is_active(Mutation::NoPairSync) {
                self.file.sync_data().map_err(io("sync", &self.path))?;
            }
            self.dirty = false;
        }
        Ok(self.written)
    }

    /// Bytes written since the last call.
    pub fn newly_written(&mut self) -> u64 {
        let n = self.written - self.counted;
        self.counted = self.written;
        n
    }

    /// Bytes written or buffered.
    pub fn used(&self) -> u64 {
        self.written + (self.block.len() - frame::HEADER_BYTES) as u64
    }

    pub fn allocated(&self) -> u64 {
        self.file.allocated().unwrap_or(0)
    }
}

pub fn data_path(dir: &Path, id: u64) -> PathBuf {
    dir.join(format!("{id:010}.data"))
}

pub fn delta_path(dir: &Path, id: u64) -> PathBuf {
    dir.join(format!("{id:010}.delta"))
}

/// A pair of checkpoint files.
pub struct Pair {
    pub id: u64,
    pub state: FileState,
    /// Commit timestamps (lower, upper] whose inserts this pair holds.
    pub lower_ts: u64,
    pub upper_ts: u64,
    pub data: Appender,
    pub delta: Appender,
    pub rows: u64,
    pub deleted: u64,
}

impl Pair {
    pub fn holds(&self, ts: u64) -> bool {
        self.lower_ts < ts && ts <= self.upper_ts
    }

    pub fn insert(&mut self, table: TableId, begin_ts: u64, row: &[u8]) -> SqlResult<()> {
        self.rows += 1;
        self.data.push(|e| {
            e.u32(table);
            e.u64(begin_ts);
            e.bytes(row);
        })
    }

    pub fn delete(&mut self, table: TableId, begin_ts: u64, identity: &[u8]) -> SqlResult<()> {
        self.deleted += 1;
        self.delta.push(|e| {
            e.u32(table);
            e.u64(begin_ts);
            e.bytes(identity);
        })
    }

    pub fn live_rows(&self) -> u64 {
        self.rows.saturating_sub(self.deleted)
    }

    pub fn remove_files(&self, storage: &dyn Storage) -> SqlResult<()> {
        for path in [&self.data.path, &self.delta.path] {
            match storage.remove(path) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                    return Err(errors::io_error("removal", path, &e))
                }
                _ => {}
            }
        }
        Ok(())
    }

    pub fn info(&self) -> [CheckpointFileInfo; 2] {
        let file = |file_type, appender: &Appender, count_rows: bool| CheckpointFileInfo {
            pair_id: self.id,
            file_type,
            state: self.state,
            path: appender.path.clone(),
            file_size_bytes: appender.allocated(),
            file_size_used_bytes: appender.used(),
            lower_bound_ts: self.lower_ts,
            upper_bound_ts: self.upper_ts,
            inserted_row_count: if count_rows { self.rows } else { 0 },
            deleted_row_count: if count_rows { 0 } else { self.deleted },
        };
        [
            file(FileType::Data, &self.data, true),
            file(FileType::Delta, &self.delta, false),
        ]
    }
}

/// One entry of a data or delta file: the table, the begin timestamp, and
/// the row (data) or the row identity (delta).
pub struct Entry<'a> {
    pub table: TableId,
    pub begin_ts: u64,
    pub bytes: &'a [u8],
}

/// Reads the bytes `range` of a checkpoint file, which must start and end
/// on block boundaries, and calls `visit` for every entry. Anything short of
/// valid blocks filling the range is corruption.
pub fn read_entries(
    storage: &dyn Storage,
    path: &Path,
    range: std::ops::Range<u64>,
    mut visit: impl FnMut(Entry<'_>) -> SqlResult<()>,
) -> SqlResult<()> {
    let file = storage.open(path).map_err(io("open", path))?;
    let mut bytes = vec![0u8; (range.end - range.start) as usize];
    file.read_exact_at(&mut bytes, range.start).map_err(|e| {
        errors::recovery_failed(
            path,
            range.start,
            &format!("cannot read up to {}: {e}", range.end),
        )
    })?;
    let mut at = 0;
    while at < bytes.len() {
        let block_at = range.start + at as u64;
        let payload = match frame::read(&bytes, at, block_at) {
            Read::Block { payload, next } => {
                at = next;
                payload
            }
            Read::End => {
                return Err(errors::recovery_failed(
                    path,
                    block_at,
                    "the file ends before the length its checkpoint recorded",
                ))
            }
            Read::Bad(problem) => return Err(errors::recovery_failed(path, block_at, &problem)),
        };
        let mut d = Decoder::new(payload);
        while !d.is_empty() {
            let entry_at = block_at + (frame::HEADER_BYTES + d.position()) as u64;
            let entry =
                Entry::decode(&mut d).map_err(|m| errors::recovery_failed(path, entry_at, &m.0))?;
            visit(entry)?;
        }
    }
    Ok(())
}

impl<'a> Entry<'a> {
    fn decode(d: &mut Decoder<'a>) -> Result<Entry<'a>, super::codec::Malformed> {
        Ok(Entry {
            table: d.u32()?,
            begin_ts: d.u64()?,
            bytes: d.bytes()?,
        })
    }
}

/// The offsets where the blocks of a checkpoint file's first `len` bytes
/// start, read from their headers alone (checksums are checked when the
/// blocks themselves are read), so that a big file can be loaded in pieces.
pub fn block_offsets(storage: &dyn Storage, path: &Path, len: u64) -> SqlResult<Vec<u64>> {
    let file = storage.open(path).map_err(io("open", path))?;
    let mut offsets = Vec::new();
    let mut at = 0;
    let mut header = [0u8; frame::HEADER_BYTES];
    while at < len {
        file.read_exact_at(&mut header, at).map_err(|e| {
            errors::recovery_failed(path, at, &format!("cannot read a block header: {e}"))
        })?;
        let payload = u32::from_le_bytes(header[4..8].try_into().expect("4 bytes")) as usize;
        let next = at + frame::block_len(payload.min(frame::MAX_PAYLOAD_BYTES)) as u64;
        if next > len {
            return Err(errors::recovery_failed(
                path,
                at,
                "a block runs past the recorded length",
            ));
        }
        offsets.push(at);
        at = next;
    }
    Ok(offsets)
}

/// The rows a delta file names, as a multiset of (table, begin timestamp,
/// identity). Read-only once built: loaders sharing it consume matches by
/// decrementing atomic counts.
#[derive(Default)]
pub struct DeletedRows {
    by_commit: HashMap<(TableId, u64), HashMap<Vec<u8>, AtomicU32>>,
}

impl DeletedRows {
    pub fn read(storage: &dyn Storage, path: &Path, len: u64) -> SqlResult<DeletedRows> {
        let mut deleted = DeletedRows::default();
        read_entries(storage, path, 0..len, |entry| {
            let count = deleted
                .by_commit
                .entry((entry.table, entry.begin_ts))
                .or_default()
                .entry(entry.bytes.to_vec())
                .or_default();
            *count.get_mut() += 1;
            Ok(())
        })?;
        Ok(deleted)
    }

    /// Whether a row of `table` born at `begin_ts` is one of the deleted
    /// (consuming the match). `identity` writes the row's identity into the
    /// scratch buffer; it is only called when the commit has deletes.
    pub fn take(
        &self,
        table: TableId,
        begin_ts: u64,
        scratch: &mut Vec<u8>,
        identity: impl FnOnce(&mut Vec<u8>),
    ) -> bool {
        let Some(identities) = self.by_commit.get(&(table, begin_ts)) else {
            return false;
        };
        scratch.clear();
        identity(scratch);
        identities.get(scratch.as_slice()).is_some_and(|count| {
            count
                .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1))
                .is_ok()
        })
    }
}
