//! Latch-free hash index.
//!
//! An array of bucket heads (8 bytes each, a power of two of them); each
//! bucket chains row versions through the version header's link for this
//! index. Inserts push at the head with compare-and-swap. Removal follows
//! Harris: a version is first *marked* (the low bit of its own link), then
//! unlinked from its predecessor; any traversal that meets a marked version
//! helps unlink it. Memory is never freed here: versions return to the heap
//! only after every index has unlinked them and an epoch has passed.

use crate::memory::{charged_block, Block, Charge, MemoryBudget};
use crate::version::{VersionPtr, LINK_MARK};
use hekla_types::SqlResult;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

pub struct HashIndex {
    /// Zeroed memory holding `mask + 1` bucket heads (AtomicUsize).
    memory: Block,
    /// The database's memory budget, charged for `memory`.
    _charge: Charge,
    mask: u64,
    /// Which link of the version header chains this index.
    link: usize,
}

/// `sys.dm_db_xtp_hash_index_stats`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct HashIndexStats {
    pub total_bucket_count: u64,
    pub empty_bucket_count: u64,
    pub avg_chain_length: f64,
    pub max_chain_length: u64,
    pub allocated_bytes: u64,
}

impl HashIndex {
    /// `bucket_count` is rounded up to the next power of two; its bucket
    /// array is charged to `budget` (Msg 41805 when it does not fit).
    pub fn new(bucket_count: u64, link: usize, budget: &Arc<MemoryBudget>) -> SqlResult<HashIndex> {
        let count = bucket_count.max(1).next_power_of_two();
        let bytes = usize::try_from(count)
            .ok()
            .and_then(|count| count.checked_mul(8))
            .ok_or_else(crate::errors::insufficient_memory)?;
        let (memory, charge) = charged_block(budget, bytes, 64)?;
        Ok(HashIndex {
            memory,
            _charge: charge,
            mask: count - 1,
            link,
        })
    }

    fn buckets(&self) -> &[AtomicUsize] {
        // SAFETY: the block holds mask + 1 zeroed, 8-byte aligned words; a
        // zeroed AtomicUsize is a valid empty bucket, and all access is atomic.
        unsafe {
            std::slice::from_raw_parts(
                self.memory.as_ptr() as *const AtomicUsize,
                self.mask as usize + 1,
            )
        }
    }

    #[inline]
    fn bucket(&self, hash: u64) -> &AtomicUsize {
        // SAFETY: hash & mask < mask + 1 words in the block (see `buckets`).
        unsafe { &*(self.memory.as_ptr() as *const AtomicUsize).add((hash & self.mask) as usize) }
    }

    /// Links `version` at the head of its bucket. The version is not yet
    /// visible to anyone, so its link may be written plainly first.
    pub fn insert(&self, version: VersionPtr, hash: u64) {
        let bucket = self.bucket(hash);
        let mut head = bucket.load(Ordering::Acquire);
        loop {
            version.link(self.link).store(head, Ordering::Relaxed);
            match bucket.compare_exchange_weak(
                head,
                version.addr(),
                Ordering::AcqRel,
                Ordering::Acquire,
            ) {
                Ok(_) => return,
                Err(current) => head = current,
            }
        }
    }

    /// Visits the unmarked versions of `hash`'s bucket, newest first, each
    /// at most once, helping to unlink marked ones on the way. Versions
    /// linked after the walk starts may be missed. The caller must be pinned.
    pub fn for_each<B>(
        &self,
        hash: u64,
        mut visit: impl FnMut(VersionPtr) -> ControlFlow<B>,
    ) -> Option<B> {
        let mut prev = self.bucket(hash);
        let mut current = prev.load(Ordering::Acquire);
        while let Some(version) = VersionPtr::from_link(current) {
            let next = version.link(self.link).load(Ordering::Acquire);
            if next & LINK_MARK != 0 {
                // Help unlink it. If the predecessor changed meanwhile, a
                // later pass will; either way step over it.
                let successor = next & !LINK_MARK;
                let _ =
                    prev.compare_exchange(current, successor, Ordering::AcqRel, Ordering::Acquire);
                current = successor;
                continue;
            }
            if let ControlFlow::Break(b) = visit(version) {
                return Some(b);
            }
            prev = version.link(self.link);
            current = next;
        }
        None
    }

    /// Marks `version` as removed (Harris's first step): from now on
    /// traversals step over it and help unlink it. [`Self::unlink_marked`]
    /// takes it out of the chain.
    pub fn mark(&self, version: VersionPtr) {
        version
            .link(self.link)
            .fetch_or(LINK_MARK, Ordering::AcqRel);
    }

    /// Unlinks the marked versions of `hash`'s bucket until every version
    /// in `ours` (marked by the caller; addresses, sorted) is out of the
    /// chain: on return no new traversal can reach them. One walk of the
    /// chain serves them all, so removing many versions of one long chain
    /// (a hash key many rows share) costs one pass, not one each. The
    /// caller must be pinned.
    pub fn unlink_marked(&self, hash: u64, ours: &[usize]) {
        let mut remaining = ours.len();
        'pass: loop {
            let mut prev = self.bucket(hash);
            let mut current = prev.load(Ordering::Acquire);
            while let Some(node) = VersionPtr::from_link(current) {
                if remaining == 0 {
                    return;
                }
                let next = node.link(self.link).load(Ordering::Acquire);
                if next & LINK_MARK == 0 {
                    prev = node.link(self.link);
                    current = next;
                    continue;
                }
                let successor = next & !LINK_MARK;
                if prev
                    .compare_exchange(current, successor, Ordering::AcqRel, Ordering::Acquire)
                    .is_err()
                {
                    // The predecessor changed or was marked: start over.
                    continue 'pass;
                }
                // The predecessor was live (unmarked), so the node is out
                // of the chain for good.
                if ours.binary_search(&node.addr()).is_ok() {
                    remaining -= 1;
                }
                current = successor;
            }
            // A whole pass: what it did not meet of ours, a traversal had
            // already unlinked.
            return;
        }
    }

    /// How many buckets the index has: its BUCKET_COUNT rounded up to a
    /// power of two (`sys.hash_indexes.bucket_count`).
    pub fn bucket_count(&self) -> u64 {
        self.mask + 1
    }

    /// Walks every bucket; cost is proportional to the index size, so DMVs
    /// call it on demand rather than keeping counters on the hot path.
    pub fn stats(&self) -> HashIndexStats {
        let guard = crossbeam_epoch::pin();
        let mut empty = 0u64;
        let mut total_chain = 0u64;
        let mut max_chain = 0u64;
        for bucket in self.buckets().iter() {
            let mut length = 0u64;
            let mut current = bucket.load(Ordering::Acquire);
            while let Some(version) = VersionPtr::from_link(current) {
                let next = version.link(self.link).load(Ordering::Acquire);
                if next & LINK_MARK == 0 {
                    length += 1;
                }
                current = next;
            }
            if length == 0 {
                empty += 1;
            }
            total_chain += length;
            max_chain = max_chain.max(length);
        }
        drop(guard);
        let used = self.buckets().len() as u64 - empty;
        HashIndexStats {
            total_bucket_count: self.buckets().len() as u64,
            empty_bucket_count: empty,
            avg_chain_length: if used == 0 {
                0.0
            } else {
                total_chain as f64 / used as f64
            },
            max_chain_length: max_chain,
            allocated_bytes: self.buckets().len() as u64 * 8,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;
    use std::ptr::NonNull;

    /// Version-shaped memory: begin, end and one link, never moved or freed
    /// during a test, so traversals need no epoch protection here.
    fn nodes(count: usize) -> Vec<[u64; 3]> {
        vec![[0u64; 3]; count]
    }

    fn ptr(node: &[u64; 3]) -> VersionPtr {
        VersionPtr::new(NonNull::from(node).cast())
    }

    fn unlimited(bucket_count: u64) -> HashIndex {
        HashIndex::new(bucket_count, 0, &Arc::new(MemoryBudget::new(u64::MAX))).unwrap()
    }

    /// Marks and unlinks one version, as the collector does in bulk.
    fn remove(index: &HashIndex, version: VersionPtr, hash: u64) {
        index.mark(version);
        index.unlink_marked(hash, &[version.addr()]);
    }

    fn chain(index: &HashIndex, hash: u64) -> Vec<VersionPtr> {
        let mut seen = Vec::new();
        index.for_each::<()>(hash, |v| {
            seen.push(v);
            ControlFlow::Continue(())
        });
        seen
    }

    #[test]
    fn bucket_count_rounds_up_to_a_power_of_two() {
        let stats = unlimited(5_000_000).stats();
        assert_eq!(stats.total_bucket_count, 8_388_608);
        assert_eq!(stats.allocated_bytes, 8_388_608 * 8);
        assert_eq!(stats.empty_bucket_count, 8_388_608);
    }

    #[test]
    fn bucket_arrays_are_charged_to_the_budget() {
        let budget = Arc::new(MemoryBudget::new(1 << 20));
        let fits = HashIndex::new(1 << 16, 0, &budget).unwrap();
        assert_eq!(budget.used(), 8 << 16);
        let refused = HashIndex::new(1 << 30, 0, &budget).map(|_| ()).unwrap_err();
        assert_eq!(refused.number, 41805);
        assert_eq!(budget.used(), 8 << 16);
        drop(fits);
        assert_eq!(budget.used(), 0);
    }

    #[test]
    fn chains_hold_what_was_inserted_and_not_removed() {
        let index = unlimited(2);
        let all = nodes(6);
        for (i, node) in all.iter().enumerate() {
            index.insert(ptr(node), i as u64);
        }
        remove(&index, ptr(&all[2]), 2);
        remove(&index, ptr(&all[5]), 5);
        assert_eq!(chain(&index, 0), vec![ptr(&all[4]), ptr(&all[0])]);
        assert_eq!(chain(&index, 1), vec![ptr(&all[3]), ptr(&all[1])]);
        let stats = index.stats();
        assert_eq!((stats.max_chain_length, stats.empty_bucket_count), (2, 0));
        assert!((stats.avg_chain_length - 2.0).abs() < f64::EPSILON);
    }

    /// Four threads insert into and remove from the same four buckets at
    /// once (long chains, adjacent removals). Invariants: a traversal never
    /// meets a node twice, and at the end each chain holds exactly the
    /// nodes inserted and not removed.
    #[test]
    fn concurrent_inserts_and_removals_keep_chains_exact() {
        const THREADS: usize = 4;
        const PER_THREAD: usize = 3_000;
        const BUCKETS: u64 = 4;
        let index = unlimited(BUCKETS);
        let all = nodes(THREADS * PER_THREAD);
        std::thread::scope(|scope| {
            for t in 0..THREADS {
                let (index, all) = (&index, &all);
                scope.spawn(move || {
                    let _guard = crossbeam_epoch::pin();
                    for i in (t..all.len()).step_by(THREADS) {
                        index.insert(ptr(&all[i]), i as u64);
                        // Remove every other node a little after inserting it,
                        // so removals interleave with other threads' inserts.
                        if i >= 8 * THREADS && (i / THREADS).is_multiple_of(2) {
                            let victim = i - 8 * THREADS;
                            remove(index, ptr(&all[victim]), victim as u64);
                        }
                        let walked = chain(index, i as u64);
                        let distinct: HashSet<_> = walked.iter().collect();
                        assert_eq!(distinct.len(), walked.len(), "a node met twice");
                    }
                });
            }
        });
        let removed = |i: usize| {
            let round = i / THREADS;
            round + 8 < PER_THREAD && (round + 8).is_multiple_of(2)
        };
        for bucket in 0..BUCKETS {
            let found: HashSet<_> = chain(&index, bucket).into_iter().collect();
            let expected: HashSet<_> = (0..all.len())
                .filter(|&i| i as u64 % BUCKETS == bucket && !removed(i))
                .map(|i| ptr(&all[i]))
                .collect();
            assert_eq!(found, expected, "bucket {bucket}");
        }
    }

    /// One key, one long chain: two threads each take out every other
    /// version of their own half in one `unlink_marked` call, while a third
    /// inserts more and walks the chain. Each call returns only once its
    /// versions are out (it may stop early, but never before); what stays
    /// is exactly what was not removed.
    #[test]
    fn unlinking_many_marked_versions_of_one_chain_at_once() {
        const LOADED: usize = 20_000;
        const ADDED: usize = 2_000;
        let index = unlimited(1);
        let all = nodes(LOADED + ADDED);
        for node in &all[..LOADED] {
            index.insert(ptr(node), 7);
        }
        let doomed = |i: usize| i < LOADED && i.is_multiple_of(2);
        std::thread::scope(|scope| {
            for half in [0..LOADED / 2, LOADED / 2..LOADED] {
                let (index, all) = (&index, &all);
                scope.spawn(move || {
                    let _guard = crossbeam_epoch::pin();
                    let mut ours: Vec<usize> = half
                        .filter(|&i| doomed(i))
                        .map(|i| {
                            index.mark(ptr(&all[i]));
                            ptr(&all[i]).addr()
                        })
                        .collect();
                    ours.sort_unstable();
                    index.unlink_marked(7, &ours);
                    let left: HashSet<usize> = chain(index, 7).iter().map(|v| v.addr()).collect();
                    assert!(ours.iter().all(|addr| !left.contains(addr)));
                });
            }
            let (index, all) = (&index, &all);
            scope.spawn(move || {
                let _guard = crossbeam_epoch::pin();
                for node in &all[LOADED..] {
                    index.insert(ptr(node), 7);
                    let walked = chain(index, 7);
                    let distinct: HashSet<_> = walked.iter().collect();
                    assert_eq!(distinct.len(), walked.len(), "a node met twice");
                }
            });
        });
        let found: HashSet<_> = chain(&index, 7).into_iter().collect();
        let expected: HashSet<_> = (0..all.len())
            .filter(|&i| !doomed(i))
            .map(|i| ptr(&all[i]))
            .collect();
        assert_eq!(found, expected);
    }
}
