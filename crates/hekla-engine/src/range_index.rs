//! Range (NONCLUSTERED) index: a B+tree from each distinct key (in the
//! order-preserving encoding of `hekla_types::key`) to the chain of row
//! versions that carry it, linked newest first through the version
//! header's link for this index, as Hekaton's Bw-tree leaves do.
//!
//! Chains change only with the key's leaf locked (inside
//! [`BTree::update`]), so inserts and unlinks never race each other;
//! readers walk chains without locks. An unlinked version keeps its link,
//! so a reader standing on it walks on, and its memory stays until an
//! epoch has passed (the collector defers the free).

use crate::btree::{BTree, BTreeStats, KeyTooLong};
use crate::version::VersionPtr;
use hekla_types::{encode_key_from_stored, DataType, SortOrder};
use std::ops::{Bound, ControlFlow};
use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};

pub struct RangeIndex {
    tree: BTree,
    /// Which link of the version header chains this index.
    link: usize,
    /// Each key column's type and order, for the key encoding.
    key_columns: Vec<(DataType, SortOrder)>,
}

/// `sys.dm_db_xtp_nonclustered_index_stats` and memory figures.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RangeIndexStats {
    /// Distinct keys (each heads a chain of versions).
    pub distinct_keys: u64,
    pub leaf_pages: u64,
    pub internal_pages: u64,
    pub depth: u32,
    pub allocated_bytes: u64,
    pub used_bytes: u64,
}

impl RangeIndex {
    pub fn new(link: usize, key_columns: Vec<(DataType, SortOrder)>) -> RangeIndex {
        RangeIndex {
            tree: BTree::new(),
            link,
            key_columns,
        }
    }

    pub fn key_columns(&self) -> &[(DataType, SortOrder)] {
        &self.key_columns
    }

    /// A row's key (the stored forms of its key columns) encoded into `out`.
    pub fn row_key<'a>(
        &self,
        stored: impl IntoIterator<Item = Option<&'a [u8]>>,
        out: &mut Vec<u8>,
    ) {
        out.clear();
        encode_key_from_stored(&self.key_columns, stored, out);
    }

    /// Links `version` at the head of `key`'s chain.
    pub fn insert(&self, key: &[u8], version: VersionPtr) -> Result<(), KeyTooLong> {
        self.tree.update(key, |head| {
            let next = head.unwrap_or(0) as usize;
            version.link(self.link).store(next, Relaxed);
            // The leaf's unlock publishes the link together with the head.
            Some(version.addr() as u64)
        })
    }

    /// Unlinks `version` from `key`'s chain (a no-op if it is not there),
    /// removing the key when its chain empties. The caller must be pinned.
    pub fn remove(&self, key: &[u8], version: VersionPtr) {
        let _ = self.tree.update(key, |head| {
            let head = head?;
            let after = version.link(self.link).load(Acquire) as u64;
            if head == version.addr() as u64 {
                return (after != 0).then_some(after);
            }
            let mut current = VersionPtr::from_link(head as usize);
            while let Some(node) = current {
                let next = node.link(self.link).load(Acquire);
                if next == version.addr() {
                    node.link(self.link).store(after as usize, Release);
                    break;
                }
                current = VersionPtr::from_link(next);
            }
            Some(head)
        });
    }

    /// Visits `key`'s versions, newest first. The caller must be pinned.
    pub fn for_each<B>(
        &self,
        key: &[u8],
        mut visit: impl FnMut(VersionPtr) -> ControlFlow<B>,
    ) -> Option<B> {
        let head = self.tree.get(key)?;
        self.walk(head as usize, &mut visit)
    }

    /// Visits the versions linked after `version` (older ones of its key).
    pub fn for_each_older<B>(
        &self,
        version: VersionPtr,
        mut visit: impl FnMut(VersionPtr) -> ControlFlow<B>,
    ) -> Option<B> {
        self.walk(version.link(self.link).load(Acquire), &mut visit)
    }

    fn walk<B>(
        &self,
        mut link: usize,
        visit: &mut impl FnMut(VersionPtr) -> ControlFlow<B>,
    ) -> Option<B> {
        while let Some(version) = VersionPtr::from_link(link) {
            link = version.link(self.link).load(Acquire);
            if let ControlFlow::Break(b) = visit(version) {
                return Some(b);
            }
        }
        None
    }

    /// Visits, in key order, the versions of every key between the bounds
    /// (each key's newest first) until `visit` breaks. The caller must be
    /// pinned.
    pub fn range(
        &self,
        lower: Bound<&[u8]>,
        upper: Bound<&[u8]>,
        mut visit: impl FnMut(VersionPtr) -> ControlFlow<()>,
    ) {
        self.tree.range(lower, upper, |head| {
            self.walk(head as usize, &mut visit)
                .map_or(ControlFlow::Continue(()), ControlFlow::Break)
        });
    }

    pub fn stats(&self) -> RangeIndexStats {
        let BTreeStats {
            entries,
            leaf_nodes,
            inner_nodes,
            depth,
            allocated_bytes,
            used_bytes,
        } = self.tree.stats();
        RangeIndexStats {
            distinct_keys: entries,
            leaf_pages: leaf_nodes,
            internal_pages: inner_nodes,
            depth,
            allocated_bytes,
            used_bytes,
        }
    }
}
