//! Latch-free hash index.
//!
//! An array of bucket heads (8 bytes each, a power of two of them); each
//! bucket chains row versions through the version header's link for this
//! index. Inserts push at the head with compare-and-swap. Removal follows
//! Harris: a version is first *marked* (the low bit of its own link), then
//! unlinked from its predecessor; any traversal that meets a marked version
//! helps unlink it. Memory is never freed here: versions return to the heap
//! only after every index has unlinked them and an epoch has passed.

use crate::memory::Block;
use crate::version::{VersionPtr, LINK_MARK};
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicUsize, Ordering};

pub struct HashIndex {
    /// Zeroed memory holding `mask + 1` bucket heads (AtomicUsize).
    memory: Block,
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
    /// `bucket_count` is rounded up to the next power of two.
    pub fn new(bucket_count: u64, link: usize) -> HashIndex {
        let count = bucket_count.max(1).next_power_of_two();
        HashIndex {
            memory: Block::zeroed(count as usize * 8, 64),
            mask: count - 1,
            link,
        }
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

    /// Marks `version` as removed and unlinks it from its bucket. On return
    /// no new traversal can reach it. The caller must be pinned.
    pub fn remove(&self, version: VersionPtr, hash: u64) {
        version
            .link(self.link)
            .fetch_or(LINK_MARK, Ordering::AcqRel);
        'pass: loop {
            let mut prev = self.bucket(hash);
            let mut current = prev.load(Ordering::Acquire);
            while let Some(node) = VersionPtr::from_link(current) {
                let next = node.link(self.link).load(Ordering::Acquire);
                if next & LINK_MARK == 0 {
                    prev = node.link(self.link);
                    current = next;
                    continue;
                }
                let successor = next & !LINK_MARK;
                let unlinked = prev
                    .compare_exchange(current, successor, Ordering::AcqRel, Ordering::Acquire)
                    .is_ok();
                if node == version {
                    if unlinked {
                        // The predecessor was live (unmarked), so `version`
                        // is out of the chain for good.
                        return;
                    }
                    continue 'pass;
                }
                current = successor;
            }
            // A whole pass never met it: it is not in the chain.
            return;
        }
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
