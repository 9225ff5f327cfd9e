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
use super::storage::{SharedStorage, Storage, StorageFile};
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
///
/// A sealed pair's files are rarely written again (its data file never,
/// its delta file when its rows are deleted), and a database may have
/// hundreds of pairs: so the file is open and the block buffer allocated
/// only while there is something to write, and [`Appender::release`] lets
/// go of both once a checkpoint has synced them.
pub struct Appender {
    pub path: PathBuf,
    storage: SharedStorage,
    /// Open from the first write after a release until the next release.
    file: Option<Box<dyn StorageFile>>,
    /// Bytes of whole blocks written to the file.
    written: u64,
    /// The block being filled; empty (no header, no capacity) when released.
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
    pub fn create(storage: &SharedStorage, path: PathBuf, reserve: u64) -> SqlResult<Appender> {
        let file = storage.create(&path).map_err(io("create", &path))?;
        if reserve > 0 {
            file.reserve(reserve).map_err(io("preallocation", &path))?;
        }
        Ok(Appender::new(storage, path, Some(file), 0, false))
    }

    /// Reopens a sealed file to append after its first `len` bytes (what
    /// the last checkpoint counted); anything after them is dropped, and
    /// kept open until a checkpoint has synced that. A file holding exactly
    /// `len` bytes is left closed until it is written.
    pub fn reopen(storage: &SharedStorage, path: PathBuf, len: u64) -> SqlResult<Appender> {
        let file = storage.open(&path).map_err(io("open", &path))?;
        if file.size().map_err(io("stat", &path))? == len {
            return Ok(Appender::new(storage, path, None, len, false));
        }
        file.set_len(len).map_err(io("truncation", &path))?;
        Ok(Appender::new(storage, path, Some(file), len, true))
    }

    fn new(
        storage: &SharedStorage,
        path: PathBuf,
        file: Option<Box<dyn StorageFile>>,
        written: u64,
        dirty: bool,
    ) -> Appender {
        Appender {
            path,
            storage: storage.clone(),
            file,
            written,
            block: Vec::new(),
            dirty,
            counted: written,
        }
    }

    /// Appends one entry, built by `encode` into the current block.
    pub fn push(&mut self, encode: impl FnOnce(&mut Encoder)) -> SqlResult<()> {
        if self.block.is_empty() {
            // Grown as entries come, so that a few deletes cost a few bytes.
            self.block = frame::new_block(0);
        }
        encode(&mut Encoder(&mut self.block));
        if self.block.len() >= BLOCK_BYTES {
            self.write_block()?;
        }
        Ok(())
    }

    /// Opens the file again if a release closed it.
    fn open_if_released(&mut self) -> SqlResult<()> {
        if self.file.is_none() {
            let file = self
                .storage
                .open(&self.path)
                .map_err(io("open", &self.path))?;
            self.file = Some(file);
        }
        Ok(())
    }

    fn write_block(&mut self) -> SqlResult<()> {
        if self.block.len() <= frame::HEADER_BYTES {
            return Ok(());
        }
        self.open_if_released()?;
        frame::seal(&mut self.block, self.written);
        let file = self.file.as_deref().expect("opened above");
        file.write_all_at(&self.block, self.written)
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
                self.open_if_released()?;
                let file = self.file.as_deref().expect("opened above");
                file.sync_data().map_err(io("sync", &self.path))?;
            }
            self.dirty = false;
        }
        Ok(self.written)
    }

    /// Closes the file and frees the block buffer, once everything written
    /// is synced; the next write opens the file again.
    pub fn release(&mut self) {
        if !self.dirty && self.block.len() <= frame::HEADER_BYTES {
            self.file = None;
            self.block = Vec::new();
        }
    }

    /// Bytes written since the last call.
    pub fn newly_written(&mut self) -> u64 {
        let n = self.written - self.counted;
        self.counted = self.written;
        n
    }

    /// Bytes written or buffered.
    pub fn used(&self) -> u64 {
        self.written + self.block.len().saturating_sub(frame::HEADER_BYTES) as u64
    }

    pub fn allocated(&self) -> u64 {
        let allocated = |file: &dyn StorageFile| file.allocated().unwrap_or(0);
        match &self.file {
            Some(file) => allocated(&**file),
            None => self.storage.open(&self.path).map_or(0, |f| allocated(&*f)),
        }
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
        remove_files(storage, [&self.data.path, &self.delta.path])
    }

    /// Closes both files and frees their buffers once a checkpoint has
    /// synced them (see [`Appender`]).
    pub fn release(&mut self) {
        self.data.release();
        self.delta.release();
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

/// A merged-away pair, kept only as the description of its files until
/// the next checkpoint deletes them: it holds no open file and no buffer.
pub struct Tombstone([CheckpointFileInfo; 2]);

impl Tombstone {
    pub fn of(mut pair: Pair) -> Tombstone {
        pair.state = FileState::Tombstone;
        Tombstone(pair.info())
    }

    pub fn info(&self) -> &[CheckpointFileInfo; 2] {
        &self.0
    }

    pub fn remove_files(&self, storage: &dyn Storage) -> SqlResult<()> {
        remove_files(storage, self.0.iter().map(|file| &file.path))
    }
}

/// Removes files, some of which may already be gone.
fn remove_files<'p>(
    storage: &dyn Storage,
    paths: impl IntoIterator<Item = &'p PathBuf>,
) -> SqlResult<()> {
    for path in paths {
        match storage.remove(path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(errors::io_error("removal", path, &e))
            }
            _ => {}
        }
    }
    Ok(())
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
/// valid blocks filling the range is corruption. Blocks are read one at a
/// time into one buffer, so a merge or a loader holds one block of a file,
/// however big the file.
pub fn read_entries(
    storage: &dyn Storage,
    path: &Path,
    range: std::ops::Range<u64>,
    mut visit: impl FnMut(Entry<'_>) -> SqlResult<()>,
) -> SqlResult<()> {
    let file = storage.open(path).map_err(io("open", path))?;
    let mut block = Vec::new();
    let mut at = range.start;
    while at < range.end {
        let payload = read_block(&*file, path, at, range.end, &mut block)?;
        let mut d = Decoder::new(payload);
        while !d.is_empty() {
            let entry_at = at + (frame::HEADER_BYTES + d.position()) as u64;
            let entry =
                Entry::decode(&mut d).map_err(|m| errors::recovery_failed(path, entry_at, &m.0))?;
            visit(entry)?;
        }
        at += block.len() as u64;
    }
    Ok(())
}

/// Reads the block at `at`, which must end by `end`, into `buf` (which
/// then holds exactly the block) and returns its payload.
fn read_block<'b>(
    file: &dyn StorageFile,
    path: &Path,
    at: u64,
    end: u64,
    buf: &'b mut Vec<u8>,
) -> SqlResult<&'b [u8]> {
    let cannot_read = |e: std::io::Error| {
        errors::recovery_failed(path, at, &format!("cannot read up to {end}: {e}"))
    };
    let left = usize::try_from(end - at).unwrap_or(usize::MAX);
    let mut header = [0u8; frame::HEADER_BYTES];
    let header_len = frame::HEADER_BYTES.min(left);
    file.read_exact_at(&mut header[..header_len], at)
        .map_err(cannot_read)?;
    // A block claiming more than is left is read only to `end`, and
    // `frame::read` then calls it what it is.
    let len = frame::claimed_block_len(&header).min(left).max(header_len);
    buf.clear();
    buf.extend_from_slice(&header[..header_len]);
    buf.resize(len, 0);
    file.read_exact_at(&mut buf[header_len..], at + header_len as u64)
        .map_err(cannot_read)?;
    match frame::read(buf, 0, at) {
        Read::Block { payload, .. } => Ok(payload),
        Read::End => Err(errors::recovery_failed(
            path,
            at,
            "the file ends before the length its checkpoint recorded",
        )),
        Read::Bad(problem) => Err(errors::recovery_failed(path, at, &problem)),
    }
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
        let next = at + frame::claimed_block_len(&header) as u64;
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
///
/// A merge or a recovery holds one of these per delta file, so it is kept
/// compact: every identity in one byte buffer, one fixed-size entry per
/// deleted row grouped by commit, and one map entry per commit, instead of
/// an allocation per row.
pub struct DeletedRows {
    /// The range of `entries` holding each commit's deletes.
    by_commit: HashMap<(TableId, u64), std::ops::Range<usize>>,
    entries: Vec<DeletedEntry>,
    identities: Vec<u8>,
}

struct DeletedEntry {
    table: TableId,
    begin_ts: u64,
    /// `identities[start..start + len]`.
    start: usize,
    len: u32,
    /// Of the identity: entries sort on it, so that sorting and searching
    /// compare integers and read identities only on a match.
    hash: u32,
    /// 1 until a loaded row matches it, then 0.
    unmatched: AtomicU32,
}

// The delete set's size is this per deleted row, plus its identity.
const _: () = assert!(std::mem::size_of::<DeletedEntry>() == 32);

fn identity_hash(identity: &[u8]) -> u32 {
    crc32c::crc32c(identity)
}

impl DeletedEntry {
    fn commit(&self) -> (TableId, u64) {
        (self.table, self.begin_ts)
    }

    fn identity<'i>(&self, identities: &'i [u8]) -> &'i [u8] {
        &identities[self.start..self.start + self.len as usize]
    }
}

impl DeletedRows {
    pub fn read(storage: &dyn Storage, path: &Path, len: u64) -> SqlResult<DeletedRows> {
        // Counted first, so that the buffers are allocated once and exactly:
        // growing them by doubling could hold twice what they need.
        let (mut rows, mut identity_bytes) = (0, 0);
        read_entries(storage, path, 0..len, |entry| {
            rows += 1;
            identity_bytes += entry.bytes.len();
            Ok(())
        })?;
        let mut deleted = DeletedRows {
            by_commit: HashMap::new(),
            entries: Vec::with_capacity(rows),
            identities: Vec::with_capacity(identity_bytes),
        };
        read_entries(storage, path, 0..len, |entry| {
            let identity_len = u32::try_from(entry.bytes.len()).map_err(|_| {
                errors::recovery_failed(path, 0, "a row identity longer than 4 GiB")
            })?;
            deleted.entries.push(DeletedEntry {
                table: entry.table,
                begin_ts: entry.begin_ts,
                start: deleted.identities.len(),
                len: identity_len,
                hash: identity_hash(entry.bytes),
                unmatched: AtomicU32::new(1),
            });
            deleted.identities.extend_from_slice(entry.bytes);
            Ok(())
        })?;
        // By commit, then by identity hash, so that a commit that deleted
        // many rows is searched, not scanned.
        deleted
            .entries
            .sort_unstable_by_key(|entry| (entry.table, entry.begin_ts, entry.hash));
        let mut at = 0;
        for group in deleted.entries.chunk_by(|a, b| a.commit() == b.commit()) {
            deleted
                .by_commit
                .insert(group[0].commit(), at..at + group.len());
            at += group.len();
        }
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
        let Some(range) = self.by_commit.get(&(table, begin_ts)) else {
            return false;
        };
        scratch.clear();
        identity(scratch);
        let commit = &self.entries[range.clone()];
        let (wanted, hash) = (scratch.as_slice(), identity_hash(scratch));
        let first = commit.partition_point(|entry| entry.hash < hash);
        // Equal identities (a row deleted twice over, from a table without
        // a unique key) are matched one loaded row each.
        commit[first..]
            .iter()
            .take_while(|entry| entry.hash == hash)
            .any(|entry| {
                entry.identity(&self.identities) == wanted
                    && entry
                        .unmatched
                        .compare_exchange(1, 0, Ordering::Relaxed, Ordering::Relaxed)
                        .is_ok()
            })
    }
}
