//! A concurrent B+tree with optimistic lock coupling (Leis et al., "The ART
//! of Practical Synchronization", 2016): an ordered map from byte-string
//! keys to `u64`, the structure behind range (NONCLUSTERED) indexes.
//!
//! Readers take no locks and write nothing: they read a node's version,
//! read the node, and validate the version, restarting if a writer got in
//! between. Writers lock only the nodes they change (a leaf; for a split,
//! the leaf and its parent). Inner nodes that could not take one more
//! separator are split on the way down, so a split never cascades.
//!
//! Nodes are never freed while the tree lives (there are no merges: a leaf
//! emptied by removals stays, linked, until the tree is dropped), so any
//! node address a reader has validated stays dereferenceable. Splits keep
//! the left half in place and link the new right node after it, which lets
//! a scan walk the leaf level through sibling links without re-descending.

mod arena;
mod node;

use arena::Arena;
pub use node::MAX_KEY_BYTES;
use node::{Node, Restart, SearchKey};
use std::ops::{Bound, ControlFlow};
use std::sync::atomic::{AtomicPtr, Ordering};

/// A key longer than [`MAX_KEY_BYTES`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyTooLong {
    pub len: usize,
}

/// Shape and memory of a tree (`sys.dm_db_xtp_nonclustered_index_stats`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BTreeStats {
    pub entries: u64,
    pub leaf_nodes: u64,
    pub inner_nodes: u64,
    /// Levels from the root to the leaves, both included.
    pub depth: u32,
    pub allocated_bytes: u64,
    pub used_bytes: u64,
}

pub struct BTree {
    root: AtomicPtr<Node>,
    arena: Arena,
}

impl Default for BTree {
    fn default() -> Self {
        BTree::new()
    }
}

impl BTree {
    pub fn new() -> BTree {
        let arena = Arena::default();
        let root = arena.allocate(true);
        BTree {
            root: AtomicPtr::new(root as *const Node as *mut Node),
            arena,
        }
    }

    fn root(&self) -> &Node {
        // SAFETY: the root is always a node of this tree's arena, which
        // lives as long as the tree.
        unsafe { &*self.root.load(Ordering::Acquire) }
    }

    /// The node at a validated child or sibling address.
    fn node(&self, address: u64) -> &Node {
        // SAFETY: callers pass an address read from a node and validated
        // since, so it was a live node of this arena, and nodes are freed
        // only with the tree.
        unsafe { &*(address as usize as *const Node) }
    }

    /// The value stored under `key`.
    pub fn get(&self, key: &[u8]) -> Option<u64> {
        let key = SearchKey::new(key);
        loop {
            let Ok((leaf, version)) = self.find_leaf(Some(&key)) else {
                continue;
            };
            let (i, exact) = leaf.lower_bound(&key);
            let value = leaf.value(i);
            if leaf.validate(version).is_ok() {
                return exact.then_some(value);
            }
        }
    }

    /// Sets `key` to `value`; returns the value it replaced.
    pub fn insert(&self, key: &[u8], value: u64) -> Result<Option<u64>, KeyTooLong> {
        let mut old = None;
        self.update(key, |current| {
            old = current;
            Some(value)
        })?;
        Ok(old)
    }

    /// Removes `key`; returns its value.
    pub fn remove(&self, key: &[u8]) -> Option<u64> {
        let mut old = None;
        // Removal never needs room, so the key's length cannot be refused
        // (a key too long to insert is simply absent).
        let _ = self.update(key, |current| {
            old = current;
            None
        });
        old
    }

    /// Reads and replaces `key`'s entry atomically: `change` gets the
    /// current value (None if absent) and returns the new one (None to
    /// remove). It runs exactly once, with the key's leaf locked, so it must
    /// be short and must not use the tree.
    pub fn update(
        &self,
        key: &[u8],
        change: impl FnOnce(Option<u64>) -> Option<u64>,
    ) -> Result<(), KeyTooLong> {
        if key.len() > MAX_KEY_BYTES {
            return Err(KeyTooLong { len: key.len() });
        }
        let key = SearchKey::new(key);
        let mut change = Some(change);
        while self.try_update(&key, &mut change).is_err() {}
        Ok(())
    }

    fn try_update(
        &self,
        key: &SearchKey,
        change: &mut Option<impl FnOnce(Option<u64>) -> Option<u64>>,
    ) -> Result<(), Restart> {
        let mut parent: Option<(&Node, u64)> = None;
        let (mut node, mut version) = self.locked_root()?;
        while !node.is_leaf() {
            if !node.has_room(MAX_KEY_BYTES) {
                self.split(parent, node, version)?;
                return Err(Restart);
            }
            let child = self.node(node.child_for(key));
            node.validate(version)?;
            let child_version = child.read_lock();
            node.validate(version)?;
            parent = Some((node, version));
            (node, version) = (child, child_version);
        }
        let (i, exact) = node.lower_bound(key);
        if !exact && !node.has_room(key.bytes().len()) {
            self.split(parent, node, version)?;
            return Err(Restart);
        }
        node.upgrade(version)?;
        // The lock was taken at the version the search ran under, so the
        // search result holds.
        let change = change.take().expect("a change runs once");
        let current = exact.then(|| node.value(i));
        match (current, change(current)) {
            (Some(_), Some(value)) => node.set_value(i, value),
            (Some(_), None) => node.remove_at(i),
            (None, Some(value)) => node.insert_at(i, key, value),
            (None, None) => {}
        }
        node.unlock();
        Ok(())
    }

    /// The root and its version, checked to still be the root.
    fn locked_root(&self) -> Result<(&Node, u64), Restart> {
        let root = self.root();
        let version = root.read_lock();
        // A root split swaps the root pointer while the old root is locked:
        // if the pointer still names this node now, its version predates
        // any split of it.
        if std::ptr::eq(root, self.root()) {
            Ok((root, version))
        } else {
            Err(Restart)
        }
    }

    /// Descends to the leaf whose range holds `key` (the leftmost for None).
    fn find_leaf(&self, key: Option<&SearchKey>) -> Result<(&Node, u64), Restart> {
        let (mut node, mut version) = self.locked_root()?;
        while !node.is_leaf() {
            let child = match key {
                Some(key) => node.child_for(key),
                None => node.first_child(),
            };
            node.validate(version)?;
            let child = self.node(child);
            let child_version = child.read_lock();
            // A split of `child` updates this parent before `child` is
            // unlocked: validating again catches a search that went left
            // of where the key now lives.
            node.validate(version)?;
            (node, version) = (child, child_version);
        }
        Ok((node, version))
    }

    /// Splits `node` (locking it and its parent), then the caller restarts.
    fn split(
        &self,
        parent: Option<(&Node, u64)>,
        node: &Node,
        version: u64,
    ) -> Result<(), Restart> {
        if let Some((parent, parent_version)) = parent {
            parent.upgrade(parent_version)?;
        }
        if let Err(restart) = node.upgrade(version) {
            if let Some((parent, _)) = parent {
                parent.unlock();
            }
            return Err(restart);
        }
        let right = self.arena.allocate(node.is_leaf());
        let right_address = right as *const Node as u64;
        let separator = node.split_into(right, right_address);
        let separator = SearchKey::new(&separator);
        match parent {
            Some((parent, _)) => {
                let at = parent.lower_bound(&separator).0;
                parent.insert_at(at, &separator, right_address);
                parent.unlock();
            }
            None => {
                let root = self.arena.allocate(false);
                root.set_first_child(node as *const Node as u64);
                root.insert_at(0, &separator, right_address);
                self.root
                    .store(root as *const Node as *mut Node, Ordering::Release);
            }
        }
        node.unlock();
        Ok(())
    }

    /// Visits the values of the entries between `lower` and `upper`, in
    /// key order, until `visit` breaks. Each leaf is read consistently;
    /// entries inserted or removed while the scan is under way may or may
    /// not be seen, but no entry present throughout is missed or visited
    /// twice.
    pub fn range(
        &self,
        lower: Bound<&[u8]>,
        upper: Bound<&[u8]>,
        mut visit: impl FnMut(u64) -> ControlFlow<()>,
    ) {
        let lower_key = match lower {
            Bound::Unbounded => None,
            Bound::Included(key) | Bound::Excluded(key) => Some(SearchKey::new(key)),
        };
        let upper_key = match upper {
            Bound::Unbounded => None,
            Bound::Included(key) | Bound::Excluded(key) => Some(SearchKey::new(key)),
        };
        let (mut leaf, mut version) = loop {
            if let Ok(found) = self.find_leaf(lower_key.as_ref()) {
                break found;
            }
        };
        // Only the first leaf starts at the lower bound: a later leaf holds
        // only keys above every key of the leaves before it (splits move
        // keys right, into a node linked after them, never left).
        let mut first_leaf = true;
        let mut values = Vec::new();
        loop {
            leaf.prefetch();
            let count = leaf.count();
            let first = match (&lower_key, first_leaf) {
                (Some(key), true) => match (lower, leaf.lower_bound(key)) {
                    (Bound::Excluded(_), (i, true)) => i + 1,
                    (_, (i, _)) => i,
                },
                _ => 0,
            };
            let end = match (&upper_key, upper) {
                (Some(key), Bound::Included(_)) => leaf.upper_bound(key),
                (Some(key), _) => leaf.lower_bound(key).0,
                (None, _) => count,
            };
            values.clear();
            values.extend((first..end.min(count)).map(|i| leaf.value(i)));
            let next = leaf.next();
            if leaf.validate(version).is_err() {
                version = leaf.read_lock();
                continue;
            }
            first_leaf = false;
            for &value in &values {
                if visit(value).is_break() {
                    return;
                }
            }
            if end < count || next == 0 {
                return;
            }
            leaf = self.node(next);
            version = leaf.read_lock();
        }
    }

    /// Walks every level; cost is proportional to the tree's size.
    pub fn stats(&self) -> BTreeStats {
        let mut stats = BTreeStats {
            allocated_bytes: self.arena.allocated_bytes(),
            ..BTreeStats::default()
        };
        let mut level_head = self.root() as *const Node as u64;
        loop {
            stats.depth += 1;
            let mut address = level_head;
            let mut leaves = false;
            let mut first_child = 0;
            while address != 0 {
                let node = self.node(address);
                loop {
                    let version = node.read_lock();
                    let (leaf, count, used, next, child) = (
                        node.is_leaf(),
                        node.count(),
                        node.used_words(),
                        node.next(),
                        node.first_child(),
                    );
                    if node.validate(version).is_err() {
                        continue;
                    }
                    leaves = leaf;
                    if address == level_head {
                        first_child = child;
                    }
                    if leaf {
                        stats.leaf_nodes += 1;
                        stats.entries += count as u64;
                    } else {
                        stats.inner_nodes += 1;
                    }
                    stats.used_bytes += (used * 8) as u64;
                    address = next;
                    break;
                }
            }
            if leaves {
                return stats;
            }
            level_head = first_child;
        }
    }
}

#[cfg(test)]
mod tests;
