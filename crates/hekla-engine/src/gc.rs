//! Garbage collection of row versions.
//!
//! A version is garbage once its end timestamp is older than every active
//! transaction's read timestamp: nobody can see it any more. Committing
//! transactions hand the versions they ended to the collector, tagged with
//! their commit timestamp; aborted inserts are garbage at once. Collection
//! unlinks a version from every index, marks its slot free and returns the
//! slot to the heap after an epoch, when no thread can still be reading it.
//! Work is done cooperatively by committing threads (a bounded amount per
//! commit) and by a background pass; lookups also mark garbage they meet so
//! that chains stay short between passes.

use crate::table::Table;
use crate::txn_table::TxnTable;
use crate::version::VersionPtr;
use crate::word::FREE;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// Versions a committing thread collects at most, so commit latency stays flat.
const COOPERATIVE_BUDGET: usize = 64;

pub(crate) struct Garbage {
    pub table: Arc<Table>,
    pub version: VersionPtr,
}

struct Batch {
    /// Garbage once every active transaction began after this timestamp.
    ts: u64,
    versions: Vec<Garbage>,
}

#[derive(Default)]
pub(crate) struct Collector {
    queue: Mutex<VecDeque<Batch>>,
    /// A recent value of the oldest active read timestamp; never too high.
    watermark: AtomicU64,
    collected: AtomicU64,
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

    /// Hands over versions ended at `ts`, then collects a bounded amount of
    /// ready garbage on the caller's thread.
    pub fn retire(&self, txns: &TxnTable, clock: &AtomicU64, ts: u64, versions: Vec<Garbage>) {
        let ready = {
            let mut queue = self.queue.lock().expect("gc queue");
            if !versions.is_empty() {
                queue.push_back(Batch { ts, versions });
            }
            self.take_ready(&mut queue, txns, clock, COOPERATIVE_BUDGET)
        };
        self.process(ready);
    }

    /// Collects everything that is garbage now; returns how many versions.
    pub fn collect_all(&self, txns: &TxnTable, clock: &AtomicU64) -> usize {
        let mut total = 0;
        loop {
            let ready = {
                let mut queue = self.queue.lock().expect("gc queue");
                self.take_ready(&mut queue, txns, clock, 4096)
            };
            if ready.is_empty() {
                return total;
            }
            total += ready.len();
            self.process(ready);
        }
    }

    pub fn pending(&self) -> usize {
        let queue = self.queue.lock().expect("gc queue");
        queue.iter().map(|b| b.versions.len()).sum()
    }

    fn take_ready(
        &self,
        queue: &mut VecDeque<Batch>,
        txns: &TxnTable,
        clock: &AtomicU64,
        budget: usize,
    ) -> Vec<Garbage> {
        let mut ready = Vec::new();
        let mut refreshed = false;
        while let Some(front) = queue.front() {
            if front.ts >= self.watermark() {
                if refreshed {
                    break;
                }
                let oldest = txns.oldest_active(clock);
                self.watermark.fetch_max(oldest, Ordering::AcqRel);
                refreshed = true;
                continue;
            }
            let batch = queue.pop_front().expect("front exists");
            ready.extend(batch.versions);
            if ready.len() >= budget {
                break;
            }
        }
        ready
    }

    fn process(&self, mut garbage: Vec<Garbage>) {
        if garbage.is_empty() {
            return;
        }
        let guard = crossbeam_epoch::pin();
        let mut freed = Vec::with_capacity(garbage.len());
        for Garbage { table, version } in garbage.drain(..) {
            let payload = table.payload(version);
            for (i, index) in table.indexes.iter().enumerate() {
                index.hash.remove(version, table.row_key_hash(i, payload));
            }
            let size = table.version_size(payload.len());
            // Unreachable through indexes now; heap scanners skip FREE slots
            // and, pinned earlier, still see unchanged memory until the epoch
            // passes and the slot can be reused.
            version.begin().store(FREE, Ordering::Release);
            freed.push((table, size, version));
        }
        self.collected
            .fetch_add(freed.len() as u64, Ordering::Relaxed);
        freed.sort_unstable_by_key(|(table, size, _)| (Arc::as_ptr(table) as usize, *size));
        // The closure runs only after every thread pinned now has unpinned,
        // so no traversal can still be holding these slots.
        guard.defer(move || {
            for group in freed.chunk_by(|a, b| Arc::ptr_eq(&a.0, &b.0) && a.1 == b.1) {
                let slots: Vec<_> = group.iter().map(|(_, _, v)| v.slot()).collect();
                group[0].0.heap.release(group[0].1, &slots);
            }
        });
        guard.flush();
    }
}
