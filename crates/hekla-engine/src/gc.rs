//! Garbage collection of row versions.
//!
//! A version is garbage once its end timestamp is at or below every active
//! transaction's read timestamp: nobody can see it any more. Committing
//! transactions hand the versions they ended to the collector, tagged with
//! their commit timestamp; an aborted transaction hands over the versions it
//! created, tagged so that they wait for every transaction that might have
//! read them (see `Transaction::abort`). Collection
//! unlinks a version from every index, marks its slot free and returns the
//! slot to the heap after an epoch, when no thread can still be reading it.
//! Work is done cooperatively by committing threads (a bounded amount per
//! commit) and by a background pass; lookups also mark garbage they meet so
//! that chains stay short between passes.

use crate::heap::RowHeap;
use crate::sharding::Padded;
use crate::table::{IndexStructure, TableRef};
use crate::txn_table::TxnTable;
use crate::version::VersionPtr;
use crate::word::FREE;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// A committing thread starts collecting once this many versions wait in
/// its shard, so that the fixed costs of a pass (pinning, deferring the
/// free) are shared by many versions.
const COOPERATIVE_BATCH: usize = 32;
/// ... and collects at most this many, so commit latency stays flat.
const COOPERATIVE_BUDGET: usize = 256;

pub(crate) struct Garbage {
    pub table: TableRef,
    pub version: VersionPtr,
}

/// Versions ended at `ts`; garbage once every active transaction began
/// after `ts`.
struct Retired {
    ts: u64,
    garbage: Garbage,
}

/// Committing threads queue garbage in their own shard, so that two cores
/// committing at once do not meet on one lock.
const SHARDS: usize = 4;

#[derive(Default)]
pub(crate) struct Collector {
    queues: [Padded<Mutex<VecDeque<Retired>>>; SHARDS],
    /// A recent value of the oldest active read timestamp; never too high.
    watermark: AtomicU64,
    collected: AtomicU64,
    /// Versions taken off a queue and not yet processed: another thread's
    /// pass may be mid-way when someone asks for everything to be done.
    in_flight: AtomicUsize,
}

impl Collector {
    /// The watermark readers may use to spot garbage: any version whose end
    /// is below it is invisible to every transaction.
    pub fn watermark(&self) -> u64 {
        self.watermark.load(Ordering::Acquire)
    }

    pub fn collected(&self) -> u64 {
        self.collected.load(Ordering::Relaxed)
    }

    fn home(&self) -> &Mutex<VecDeque<Retired>> {
        &self.queues[crate::sharding::shard_of(SHARDS)]
    }

    /// Queues versions that ended at `ts`.
    pub fn retire(&self, ts: u64, versions: impl IntoIterator<Item = Garbage>) {
        let mut versions = versions.into_iter().peekable();
        if versions.peek().is_none() {
            return;
        }
        let mut queue = self.home().lock().expect("gc queue");
        // Counted per run of one table's versions, under the queue's lock,
        // so a collector never sees a version before its table counts it.
        let mut run: Option<(TableRef, usize)> = None;
        for garbage in versions {
            match &mut run {
                Some((table, count)) if table.address() == garbage.table.address() => *count += 1,
                _ => {
                    if let Some((table, count)) = run.replace((garbage.table, 1)) {
                        table.garbage_queued(count);
                    }
                }
            }
            queue.push_back(Retired { ts, garbage });
        }
        if let Some((table, count)) = run {
            table.garbage_queued(count);
        }
    }

    /// Collects a bounded batch of ready garbage from this thread's shard,
    /// if there is enough of it and nobody else is at it.
    pub fn collect_some(&self, txns: &TxnTable, clock: &AtomicU64) {
        let ready = match self.home().try_lock() {
            Ok(mut queue) if queue.len() >= COOPERATIVE_BATCH => {
                self.take_ready(&mut queue, txns, clock, COOPERATIVE_BUDGET)
            }
            _ => return,
        };
        self.process(ready);
    }

    /// Collects everything that is garbage now; returns how many versions.
    pub fn collect_all(&self, txns: &TxnTable, clock: &AtomicU64) -> usize {
        let mut total = 0;
        for shard in &self.queues {
            loop {
                let ready = {
                    let mut queue = shard.lock().expect("gc queue");
                    self.take_ready(&mut queue, txns, clock, 4096)
                };
                if ready.is_empty() {
                    break;
                }
                total += ready.len();
                self.process(ready);
            }
        }
        total
    }

    /// Versions queued or being collected.
    pub fn pending(&self) -> usize {
        let queued: usize = self
            .queues
            .iter()
            .map(|shard| shard.lock().expect("gc queue").len())
            .sum();
        queued + self.in_flight.load(Ordering::Acquire)
    }

    /// Waits until no other thread's collection pass is mid-way.
    pub fn settle(&self) {
        while self.in_flight.load(Ordering::Acquire) > 0 {
            std::thread::yield_now();
        }
    }

    fn take_ready(
        &self,
        queue: &mut VecDeque<Retired>,
        txns: &TxnTable,
        clock: &AtomicU64,
        budget: usize,
    ) -> Vec<Garbage> {
        let mut ready = Vec::new();
        let mut refreshed = false;
        while let Some(front) = queue.front() {
            // A version that ended at `ts` is visible only to readers before
            // `ts`, so it is garbage once no reader is older than `ts`.
            if front.ts > self.watermark() {
                if refreshed {
                    break;
                }
                let oldest = txns.oldest_active(clock);
                self.watermark.fetch_max(oldest, Ordering::AcqRel);
                refreshed = true;
                continue;
            }
            ready.push(queue.pop_front().expect("front exists").garbage);
            if ready.len() >= budget {
                break;
            }
        }
        // Counted while the queue is still locked, so that `pending` never
        // misses these versions between the queue and `process`.
        self.in_flight.fetch_add(ready.len(), Ordering::AcqRel);
        ready
    }

    fn process(&self, garbage: Vec<Garbage>) {
        if garbage.is_empty() {
            return;
        }
        let guard = crossbeam_epoch::pin();
        unlink_from_hash_indexes(&garbage);
        let mut freed = Vec::with_capacity(garbage.len());
        let mut range_key = Vec::new();
        for Garbage { table, version } in garbage {
            let payload = table.payload(version);
            for (i, index) in table.indexes.iter().enumerate() {
                if let IndexStructure::Range(tree) = &index.structure {
                    tree.row_key(table.stored_key(i, payload), &mut range_key);
                    tree.remove(&range_key, version);
                }
            }
            let size = table.version_size(payload.len());
            // Unreachable through indexes now; heap scanners skip FREE slots
            // and, pinned earlier, still see unchanged memory until the epoch
            // passes and the slot can be reused.
            let begin = version.begin().swap(FREE, Ordering::AcqRel);
            assert_ne!(begin, FREE, "version {version:?} collected twice");
            freed.push((table, size, version));
        }
        self.collected
            .fetch_add(freed.len() as u64, Ordering::Relaxed);
        freed.sort_unstable_by_key(|(table, size, _)| (table.address(), *size));
        // The heaps are counted, so the closure may run after their tables
        // (and the database) are gone; the tables themselves are not held.
        let groups: Vec<(Arc<RowHeap>, usize, Vec<VersionPtr>)> = freed
            .chunk_by(|a, b| a.0.address() == b.0.address() && a.1 == b.1)
            .map(|group| {
                let (table, size, _) = &group[0];
                let heap = table.heap.clone();
                // Last touch of the table: once its count drops to none, a
                // dropped table may be freed.
                table.garbage_collected(group.len());
                (heap, *size, group.iter().map(|g| g.2).collect())
            })
            .collect();
        // Unlinked, marked free and no longer counted by their tables: for
        // `pending` and `settle`, these are done, and a dropped table may go.
        self.in_flight.fetch_sub(freed.len(), Ordering::AcqRel);
        // The closure runs only after every thread pinned now has unpinned,
        // so no traversal can still be holding these slots.
        guard.defer(move || {
            for (heap, size, slots) in groups {
                heap.release(size, slots.iter().map(|v| v.slot()));
            }
        });
        // Hand the closure to the global queue now: left in this thread's
        // local bag it would wait for 63 more, holding their memory.
        guard.flush();
    }
}

/// Takes `garbage` out of every hash index: all of it is marked first,
/// then each bucket it is in is walked once for all its versions there.
/// Versions of one key many rows share (a hash index on a column of few
/// values) sit in one long chain, where removing them one at a time from
/// the head would cost a walk each: quadratic in the chain's length.
/// The caller must be pinned.
fn unlink_from_hash_indexes(garbage: &[Garbage]) {
    // (table, index, bucket hash, version address) per hash index entry.
    let mut entries: Vec<(TableRef, usize, u64, usize)> = Vec::new();
    for Garbage { table, version } in garbage {
        let payload = table.payload(*version);
        for (i, index) in table.indexes.iter().enumerate() {
            if let IndexStructure::Hash(hash) = &index.structure {
                hash.mark(*version);
                entries.push((*table, i, table.row_key_hash(i, payload), version.addr()));
            }
        }
    }
    entries.sort_unstable_by_key(|&(table, i, hash, addr)| (table.address(), i, hash, addr));
    for group in entries.chunk_by(|a, b| a.0.address() == b.0.address() && a.1 == b.1 && a.2 == b.2)
    {
        let (table, i, hash, _) = group[0];
        let IndexStructure::Hash(index) = &table.indexes[i].structure else {
            unreachable!("only hash indexes are gathered")
        };
        let ours: Vec<usize> = group.iter().map(|entry| entry.3).collect();
        index.unlink_marked(hash, &ours);
    }
}
