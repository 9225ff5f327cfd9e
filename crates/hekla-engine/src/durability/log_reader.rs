//! Reading the redo log back: at recovery to its end, and while running to
//! follow it into checkpoint files.
//!
//! The end of the log is the first place where nothing valid was written.
//! A damaged block there is a torn last flush, unless a valid block follows
//! it somewhere (in the same segment or a later one): flushes are written
//! one at a time, each synced before the next starts, so a valid block
//! after a damaged one means the damage is not a torn write but corruption,
//! and recovery stops with an error naming the file and offset.

use super::frame::{self, Read};
use super::log_writer::{segment_name, LogTail};
use super::storage::Storage;
use crate::errors;
use hekla_types::SqlResult;
use std::path::{Path, PathBuf};

/// The log's segment files, by first LSN.
pub fn segments(storage: &dyn Storage, dir: &Path) -> SqlResult<Vec<(u64, PathBuf)>> {
    let entries = storage
        .list(dir)
        .map_err(|e| errors::io_error("listing", dir, &e))?;
    let mut found = Vec::new();
    for path in entries {
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        let Some(stem) = name.strip_suffix(".log") else {
            continue;
        };
        if let Ok(start) = u64::from_str_radix(stem, 16) {
            if segment_name(start) == name {
                found.push((start, path));
            }
        }
    }
    found.sort();
    Ok(found)
}

fn read_file(storage: &dyn Storage, path: &Path, from: u64, to: Option<u64>) -> SqlResult<Vec<u8>> {
    let file = storage
        .open(path)
        .map_err(|e| errors::io_error("open", path, &e))?;
    let len = file
        .size()
        .map_err(|e| errors::io_error("stat", path, &e))?;
    let end = to.map_or(len, |to| to.min(len));
    let mut bytes = vec![0u8; end.saturating_sub(from) as usize];
    file.read_exact_at(&mut bytes, from)
        .map_err(|e| errors::io_error("read", path, &e))?;
    Ok(bytes)
}

/// Calls `visit(lsn, payload)` for every block from `from` up to `limit`,
/// a position known to be written and synced. Any damage is corruption.
pub fn read_range(
    storage: &dyn Storage,
    dir: &Path,
    from: u64,
    limit: u64,
    mut visit: impl FnMut(u64, &[u8]) -> SqlResult<()>,
) -> SqlResult<()> {
    let list = segments(storage, dir)?;
    let mut lsn = from;
    while lsn < limit {
        // A block that did not fit in a segment starts the next one, so
        // the segment holding `lsn` is the last one starting at or before it.
        let Some(k) = list.iter().rposition(|(start, _)| *start <= lsn) else {
            return Err(errors::recovery_failed(
                dir,
                lsn,
                "no log segment holds this position",
            ));
        };
        let (start, path) = &list[k];
        // A segment's blocks end where the next segment starts; after that
        // it holds zeros or (reused) stale blocks.
        let end = list.get(k + 1).map_or(limit, |(next, _)| limit.min(*next));
        let bytes = read_file(storage, path, lsn - start, Some(end - start))?;
        let mut at = 0;
        while at < bytes.len() {
            match frame::read(&bytes, at, lsn + at as u64) {
                Read::Block { payload, next } => {
                    visit(lsn + at as u64, payload)?;
                    at = next;
                }
                Read::End => break,
                Read::Bad(problem) => {
                    return Err(errors::recovery_failed(
                        path,
                        lsn - start + at as u64,
                        &problem,
                    ))
                }
            }
        }
        if at == 0 {
            return Err(errors::recovery_failed(
                path,
                lsn - start,
                "the log ends before the position it was written up to",
            ));
        }
        lsn += at as u64;
    }
    Ok(())
}

/// Reads the whole log from `from` at recovery, calling `visit(lsn,
/// payload)` per block, and returns where the log ends. A torn tail is
/// zeroed so that later writes never sit next to stale bytes; segments past
/// the end are removed.
pub fn recover(
    storage: &dyn Storage,
    dir: &Path,
    from: u64,
    mut visit: impl FnMut(u64, &[u8]) -> SqlResult<()>,
) -> SqlResult<Option<LogTail>> {
    let list = segments(storage, dir)?;
    let Some(first) = list.iter().rposition(|(start, _)| *start <= from) else {
        return match list.first() {
            None if from == 0 => Ok(None),
            // Only a checkpoint truncates the log, and it writes a root
            // first: a log that starts later than the replay position
            // means the root (or a segment) went missing.
            _ => Err(errors::recovery_failed(
                dir,
                from,
                "the log segment to replay from is missing (a checkpoint truncated the log, so without its root file the database cannot be recovered)",
            )),
        };
    };
    let mut lsn = from;
    for (k, (start, path)) in list.iter().enumerate().skip(first) {
        if *start > lsn {
            // A segment that does not continue the log: it may only be an
            // unused one (all zeros); anything valid in it is corruption.
            check_nothing_after(storage, &list[k..], path, 0)?;
            remove_segments(storage, &list[k..])?;
            break;
        }
        let bytes = read_file(storage, path, 0, None)?;
        let mut at = (lsn - start) as usize;
        // Where the next segment starts, this one's blocks end.
        let bound = list
            .get(k + 1)
            .map_or(usize::MAX, |(next, _)| next.saturating_sub(*start) as usize);
        while at < bound {
            match frame::read(&bytes, at, start + at as u64) {
                Read::Block { payload, next } => {
                    visit(start + at as u64, payload)?;
                    at = next;
                }
                Read::End => break,
                Read::Bad(problem) => {
                    if frame::any_block_after(&bytes, at + frame::ALIGN, *start) {
                        return Err(errors::recovery_failed(path, at as u64, &problem));
                    }
                    check_nothing_after(storage, &list[k + 1..], path, at as u64)?;
                    // Zero the torn flush (a block is far below 16 MiB) so
                    // that its remains never sit next to new blocks; older
                    // bytes beyond it (a reused segment) name old positions.
                    let torn_end = (at + (16 << 20)).min(bytes.len());
                    zero_range(storage, path, at as u64, torn_end as u64)?;
                    remove_segments(storage, &list[k + 1..])?;
                    return Ok(Some(LogTail {
                        segment_start: *start,
                        end: start + at as u64,
                    }));
                }
            }
        }
        lsn = start + at as u64;
        if list.get(k + 1).is_none_or(|(next, _)| *next != lsn) {
            if let Some(rest) = list.get(k + 1..) {
                check_nothing_after(storage, rest, path, at as u64)?;
                remove_segments(storage, rest)?;
            }
            return Ok(Some(LogTail {
                segment_start: *start,
                end: lsn,
            }));
        }
    }
    let (start, _) = list.last().expect("a segment");
    Ok(Some(LogTail {
        segment_start: *start,
        end: lsn,
    }))
}

/// Fails if any segment in `rest` holds a valid block: the log's end was
/// found at `offset` of `path`, so such a block would be lost.
fn check_nothing_after(
    storage: &dyn Storage,
    rest: &[(u64, PathBuf)],
    path: &Path,
    offset: u64,
) -> SqlResult<()> {
    for (start, later) in rest {
        let bytes = read_file(storage, later, 0, None)?;
        if frame::any_block_after(&bytes, 0, *start) {
            return Err(errors::recovery_failed(
                path,
                offset,
                &format!(
                    "the log ends here but {} holds later blocks",
                    later.display()
                ),
            ));
        }
    }
    Ok(())
}

fn remove_segments(storage: &dyn Storage, rest: &[(u64, PathBuf)]) -> SqlResult<()> {
    for (_, path) in rest {
        storage
            .remove(path)
            .map_err(|e| errors::io_error("removal", path, &e))?;
    }
    Ok(())
}

fn zero_range(storage: &dyn Storage, path: &Path, from: u64, to: u64) -> SqlResult<()> {
    let file = storage
        .open(path)
        .map_err(|e| errors::io_error("open", path, &e))?;
    let zeros = vec![0u8; (to - from) as usize];
    file.write_all_at(&zeros, from)
        .and_then(|_| file.sync_data())
        .map_err(|e| errors::io_error("write", path, &e))
}

/// Segments kept for reuse at most; older ones beyond this are deleted.
const RECYCLED_SEGMENTS: usize = 2;

/// Prefix of a segment kept for reuse (see `log_writer::prepare_spare`).
pub const RECYCLED_PREFIX: &str = "recycled-";

/// Retires the segments wholly before `lsn` (the checkpoint's replay
/// start): a few are kept to be reused as spares, which spares the disk
/// from zero-filling new ones; the rest are deleted.
pub fn truncate_before(storage: &dyn Storage, dir: &Path, lsn: u64) -> SqlResult<()> {
    let list = segments(storage, dir)?;
    let mut kept = recycled(storage, dir)?.len();
    for pair in list.windows(2) {
        if pair[1].0 <= lsn {
            let (start, path) = &pair[0];
            let outcome = if kept < RECYCLED_SEGMENTS {
                kept += 1;
                storage.rename(
                    path,
                    &dir.join(format!("{RECYCLED_PREFIX}{start:016x}.log.tmp")),
                )
            } else {
                storage.remove(path)
            };
            outcome.map_err(|e| errors::io_error("removal", path, &e))?;
        }
    }
    Ok(())
}

/// Segments kept for reuse.
pub fn recycled(storage: &dyn Storage, dir: &Path) -> SqlResult<Vec<PathBuf>> {
    let entries = storage
        .list(dir)
        .map_err(|e| errors::io_error("listing", dir, &e))?;
    Ok(entries
        .into_iter()
        .filter(|path| {
            path.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(RECYCLED_PREFIX))
        })
        .collect())
}
