//! One B+tree node: a 4 KiB slotted page of atomic words guarded by an
//! optimistic version lock.
//!
//! ```text
//! word 0        version lock (bit 1: locked; +4 per write)
//! word 1        meta: count | heap start << 16 | heap garbage << 32 | leaf << 48
//! word 2        right sibling on the same level (0 for the rightmost)
//! word 3        inner nodes: the child for keys below slot 0's key
//! words 4..     slots of three words, growing up: [prefix, key ref, value]
//! ...           key suffixes, growing down from the end of the page
//! ```
//! A key's first 8 bytes live in its slot as a big-endian `prefix`, so most
//! comparisons never leave the slot array; the rest (the suffix) is packed
//! into big-endian words in the heap. The key ref is `offset << 32 | len`.
//! In a leaf, `value` is the caller's; in an inner node it is the child for
//! keys at or above the slot's key.
//!
//! Readers never write: they read words with relaxed atomic loads and then
//! validate the version (a seqlock). A reader may therefore see a torn
//! node, so every read here is bounds-clamped and never panics; the caller
//! discards what it read unless validation succeeds. Writers hold the lock.

use std::cmp::Ordering;
use std::sync::atomic::{fence, AtomicU64, Ordering::*};

pub const NODE_BYTES: usize = 4096;
const WORDS: usize = NODE_BYTES / 8;

const LOCK: usize = 0;
const META: usize = 1;
const NEXT: usize = 2;
const FIRST_CHILD: usize = 3;
const HEADER: usize = 4;
const SLOT_WORDS: usize = 3;

/// The most slots a node can hold (short keys).
pub const MAX_SLOTS: usize = (WORDS - HEADER) / SLOT_WORDS;
/// The longest key the tree takes. A split leaves each half at most half
/// full plus one entry, so two of the largest entries still fit afterwards.
pub const MAX_KEY_BYTES: usize = 1000;
/// Words the largest entry occupies: an inner node must have this much room
/// before a child may split into it.
pub const MAX_ENTRY_WORDS: usize = entry_words(MAX_KEY_BYTES);

const LOCKED: u64 = 2;
const COUNT_MASK: u64 = 0xFFFF;
const LEAF_FLAG: u64 = 1 << 48;

/// Words an entry with a key of `len` bytes occupies (slot + suffix).
pub const fn entry_words(len: usize) -> usize {
    SLOT_WORDS + suffix_words(len)
}

const fn suffix_words(len: usize) -> usize {
    len.saturating_sub(8).div_ceil(8)
}

/// Big-endian word `index` of `bytes`, zero-padded past the end.
#[inline]
fn word_of(bytes: &[u8], index: usize) -> u64 {
    let start = index * 8;
    match bytes.get(start..start + 8) {
        Some(chunk) => u64::from_be_bytes(chunk.try_into().expect("8 bytes")),
        None => {
            let mut padded = [0u8; 8];
            let tail = bytes.get(start..).unwrap_or_default();
            padded[..tail.len()].copy_from_slice(tail);
            u64::from_be_bytes(padded)
        }
    }
}

/// A key being searched for or inserted, with its prefix word precomputed.
pub struct SearchKey<'a> {
    prefix: u64,
    bytes: &'a [u8],
}

impl<'a> SearchKey<'a> {
    pub fn new(bytes: &'a [u8]) -> SearchKey<'a> {
        SearchKey {
            prefix: word_of(bytes, 0),
            bytes,
        }
    }

    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }
}

/// The optimistic lock protocol failed: start the operation again.
#[derive(Debug)]
pub struct Restart;

#[repr(C, align(64))]
pub struct Node {
    words: [AtomicU64; WORDS],
}

const _: () = assert!(std::mem::size_of::<Node>() == NODE_BYTES);
const _: () = assert!(MAX_ENTRY_WORDS * 4 <= WORDS - HEADER);

impl Node {
    /// Turns zeroed memory into an empty node; before it is published.
    pub fn init(&self, leaf: bool) {
        let meta = (WORDS as u64) << 16 | if leaf { LEAF_FLAG } else { 0 };
        self.words[META].store(meta, Relaxed);
    }

    // ---- the version lock ----

    /// Waits until the node is unlocked and returns its version.
    #[inline]
    pub fn read_lock(&self) -> u64 {
        let mut spins = 0u32;
        loop {
            let version = self.words[LOCK].load(Acquire);
            if version & LOCKED == 0 {
                return version;
            }
            spins += 1;
            if spins < 128 {
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
    }

    /// Whether nothing changed since `version` was read: only then are the
    /// reads made in between a consistent picture.
    #[inline]
    pub fn validate(&self, version: u64) -> Result<(), Restart> {
        fence(Acquire);
        if self.words[LOCK].load(Relaxed) == version {
            Ok(())
        } else {
            Err(Restart)
        }
    }

    /// Takes the write lock if the node is still at `version`.
    pub fn upgrade(&self, version: u64) -> Result<(), Restart> {
        self.words[LOCK]
            .compare_exchange(version, version | LOCKED, Acquire, Relaxed)
            .map_err(|_| Restart)?;
        // Keeps the writes that follow from becoming visible before the
        // lock bit: a reader that sees any of them fails validation.
        fence(Release);
        Ok(())
    }

    /// Releases the write lock, publishing a new version.
    pub fn unlock(&self) {
        debug_assert!(self.words[LOCK].load(Relaxed) & LOCKED != 0);
        self.words[LOCK].fetch_add(LOCKED, Release);
    }

    // ---- reads (safe on a torn node; validate before trusting) ----

    /// Asks for every cache line of the node at once. A scan reads most of
    /// a leaf, and key suffixes lie in insertion order, not key order: read
    /// one by one they cost a memory round trip each, prefetched together
    /// they overlap.
    pub fn prefetch(&self) {
        self.prefetch_words(0..WORDS);
    }

    /// Asks for the cache lines of the slot array: a binary search's probes
    /// are dependent loads, each a memory round trip in a cold node, while
    /// the lines requested together arrive in about one.
    fn prefetch_slots(&self) {
        self.prefetch_words(0..self.slot(self.count()));
    }

    fn prefetch_words(&self, words: std::ops::Range<usize>) {
        #[cfg(target_arch = "x86_64")]
        for line in words.step_by(8) {
            let address = self.words[line].as_ptr() as *const i8;
            // SAFETY: a prefetch is a hint that cannot fault, and SSE is
            // part of the x86-64 baseline.
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(address)
            };
        }
    }

    #[inline]
    fn load(&self, index: usize) -> u64 {
        self.words.get(index).map_or(0, |w| w.load(Relaxed))
    }

    #[inline]
    fn meta(&self) -> u64 {
        self.words[META].load(Relaxed)
    }

    #[inline]
    pub fn is_leaf(&self) -> bool {
        self.meta() & LEAF_FLAG != 0
    }

    #[inline]
    pub fn count(&self) -> usize {
        ((self.meta() & COUNT_MASK) as usize).min(MAX_SLOTS)
    }

    fn heap_start(&self) -> usize {
        ((self.meta() >> 16 & COUNT_MASK) as usize).min(WORDS)
    }

    fn garbage(&self) -> usize {
        (self.meta() >> 32 & COUNT_MASK) as usize
    }

    /// Words free for new entries, counting those compaction would reclaim.
    pub fn free_words(&self) -> usize {
        self.contiguous_free() + self.garbage()
    }

    fn contiguous_free(&self) -> usize {
        self.heap_start()
            .saturating_sub(HEADER + SLOT_WORDS * self.count())
    }

    /// Words in use by entries (slots and live suffixes).
    pub fn used_words(&self) -> usize {
        (WORDS - HEADER).saturating_sub(self.free_words())
    }

    /// Whether an entry with a key of `len` bytes fits (after compaction).
    pub fn has_room(&self, len: usize) -> bool {
        self.count() < MAX_SLOTS && self.free_words() >= entry_words(len)
    }

    pub fn next(&self) -> u64 {
        self.words[NEXT].load(Relaxed)
    }

    pub fn first_child(&self) -> u64 {
        self.words[FIRST_CHILD].load(Relaxed)
    }

    #[inline]
    fn slot(&self, i: usize) -> usize {
        HEADER + SLOT_WORDS * i
    }

    #[inline]
    pub fn value(&self, i: usize) -> u64 {
        self.load(self.slot(i) + 2)
    }

    /// `(heap offset, length)` of slot `i`'s key.
    #[inline]
    fn key_ref(&self, i: usize) -> (usize, usize) {
        let packed = self.load(self.slot(i) + 1);
        (
            (packed >> 32) as usize,
            (packed as u32 as usize).min(MAX_KEY_BYTES),
        )
    }

    /// Orders slot `i`'s key against `key`.
    #[inline]
    fn compare(&self, i: usize, key: &SearchKey) -> Ordering {
        let prefix = self.load(self.slot(i));
        match prefix.cmp(&key.prefix) {
            Ordering::Equal => {}
            unequal => return unequal,
        }
        let (offset, len) = self.key_ref(i);
        let words = suffix_words(len).min(suffix_words(key.bytes.len()));
        for w in 0..words {
            match self.load(offset + w).cmp(&word_of(key.bytes, w + 1)) {
                Ordering::Equal => {}
                unequal => return unequal,
            }
        }
        len.cmp(&key.bytes.len())
    }

    /// The first slot whose key is at or above `key`, and whether it equals it.
    #[inline]
    pub fn lower_bound(&self, key: &SearchKey) -> (usize, bool) {
        self.prefetch_slots();
        let (mut low, mut high) = (0, self.count());
        while low < high {
            let mid = (low + high) / 2;
            match self.compare(mid, key) {
                Ordering::Less => low = mid + 1,
                Ordering::Equal => return (mid, true),
                Ordering::Greater => high = mid,
            }
        }
        (low, false)
    }

    /// The first slot whose key is above `key`.
    pub fn upper_bound(&self, key: &SearchKey) -> usize {
        match self.lower_bound(key) {
            (i, true) => i + 1,
            (i, false) => i,
        }
    }

    /// Inner nodes: the child whose key range holds `key`.
    #[inline]
    pub fn child_for(&self, key: &SearchKey) -> u64 {
        match self.upper_bound(key) {
            0 => self.first_child(),
            i => self.value(i - 1),
        }
    }

    /// Appends slot `i`'s key to `out`.
    pub fn read_key(&self, i: usize, out: &mut Vec<u8>) {
        let (offset, len) = self.key_ref(i);
        let prefix = self.load(self.slot(i)).to_be_bytes();
        out.extend_from_slice(&prefix[..len.min(8)]);
        for w in 0..suffix_words(len) {
            let bytes = self.load(offset + w).to_be_bytes();
            let take = (len - 8 - w * 8).min(8);
            out.extend_from_slice(&bytes[..take]);
        }
    }

    // ---- writes (the caller holds the lock, or the node is unpublished) ----

    fn store(&self, index: usize, value: u64) {
        self.words[index].store(value, Relaxed);
    }

    fn set_meta(&self, count: usize, heap_start: usize, garbage: usize) {
        let leaf = self.meta() & LEAF_FLAG;
        self.store(
            META,
            count as u64 | (heap_start as u64) << 16 | (garbage as u64) << 32 | leaf,
        );
    }

    pub fn set_next(&self, next: u64) {
        self.store(NEXT, next);
    }

    pub fn set_first_child(&self, child: u64) {
        self.store(FIRST_CHILD, child);
    }

    pub fn set_value(&self, i: usize, value: u64) {
        self.store(self.slot(i) + 2, value);
    }

    /// Inserts `key` at slot `i`; the node must have room (`has_room`).
    pub fn insert_at(&self, i: usize, key: &SearchKey, value: u64) {
        let len = key.bytes.len();
        assert!(len <= MAX_KEY_BYTES && self.has_room(len), "no room");
        if self.contiguous_free() < entry_words(len) {
            self.compact();
        }
        let count = self.count();
        for w in (self.slot(i)..self.slot(count)).rev() {
            self.store(w + SLOT_WORDS, self.load(w));
        }
        let offset = self.heap_start() - suffix_words(len);
        for w in 0..suffix_words(len) {
            self.store(offset + w, word_of(key.bytes, w + 1));
        }
        let slot = self.slot(i);
        self.store(slot, key.prefix);
        self.store(slot + 1, (offset as u64) << 32 | len as u64);
        self.store(slot + 2, value);
        self.set_meta(count + 1, offset, self.garbage());
    }

    /// Removes slot `i`; its suffix words become garbage until compaction.
    pub fn remove_at(&self, i: usize) {
        let count = self.count();
        assert!(i < count, "slot {i} of {count}");
        let freed = suffix_words(self.key_ref(i).1);
        for w in self.slot(i + 1)..self.slot(count) {
            self.store(w - SLOT_WORDS, self.load(w));
        }
        self.set_meta(count - 1, self.heap_start(), self.garbage() + freed);
    }

    /// Rewrites the node with its suffixes packed at the end of the page.
    fn compact(&self) {
        let mut image = Image::new();
        image.copy_from(self, 0..self.count());
        image.store_into(self);
    }

    /// Moves the upper part of this node's entries (by size) into `right`,
    /// a fresh node of the same kind, and links it as the right sibling.
    /// Returns the separator for the parent: every key in `right` is at or
    /// above it and every key left here below it.
    pub fn split_into(&self, right: &Node, right_address: u64) -> Vec<u8> {
        let count = self.count();
        assert!(count >= 2, "a node splits with at least two entries");
        let total: usize = (0..count).map(|i| entry_words(self.key_ref(i).1)).sum();
        let mut at = 0;
        let mut left_words = 0;
        while at < count - 1 && (left_words < total / 2 || at == 0) {
            left_words += entry_words(self.key_ref(at).1);
            at += 1;
        }
        let mut separator = Vec::new();
        self.read_key(at, &mut separator);
        let mut upper = Image::new();
        if self.is_leaf() {
            upper.copy_from(self, at..count);
        } else {
            // The separator moves up; its child leads the right node.
            right.set_first_child(self.value(at));
            upper.copy_from(self, at + 1..count);
        }
        upper.store_into(right);
        right.set_next(self.next());
        let mut lower = Image::new();
        lower.copy_from(self, 0..at);
        lower.store_into(self);
        self.set_next(right_address);
        separator
    }
}

/// A node's entries being rebuilt off to the side (compaction and splits),
/// then stored into a node in one pass.
struct Image {
    words: [u64; WORDS],
    count: usize,
    heap_start: usize,
}

impl Image {
    fn new() -> Image {
        Image {
            words: [0; WORDS],
            count: 0,
            heap_start: WORDS,
        }
    }

    fn copy_from(&mut self, node: &Node, slots: std::ops::Range<usize>) {
        for i in slots {
            let (offset, len) = node.key_ref(i);
            let suffix = suffix_words(len);
            self.heap_start -= suffix;
            for w in 0..suffix {
                self.words[self.heap_start + w] = node.load(offset + w);
            }
            let slot = HEADER + SLOT_WORDS * self.count;
            self.words[slot] = node.load(node.slot(i));
            self.words[slot + 1] = (self.heap_start as u64) << 32 | len as u64;
            self.words[slot + 2] = node.value(i);
            self.count += 1;
        }
    }

    /// Writes the entries into `node`, leaving its lock and links alone.
    fn store_into(&self, node: &Node) {
        for w in HEADER..HEADER + SLOT_WORDS * self.count {
            node.store(w, self.words[w]);
        }
        for w in self.heap_start..WORDS {
            node.store(w, self.words[w]);
        }
        node.set_meta(self.count, self.heap_start, 0);
    }
}
