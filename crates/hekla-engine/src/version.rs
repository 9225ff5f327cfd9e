//! Row versions: a header of atomic words followed by the payload.
//!
//! ```text
//! [begin: u64][end: u64][link 0: usize]...[link n-1: usize][payload ...]
//! ```
//! `begin`/`end` are [`crate::word`]s. Link `i` chains the version into
//! index `i`; its low bit marks the version as removed from that index.

use std::ptr::NonNull;
use std::sync::atomic::{AtomicU64, AtomicUsize};

pub const HEADER_WORDS: usize = 2;

/// The low bit of a link: "this version is being removed from the index".
pub const LINK_MARK: usize = 1;

/// The address of a version in a table's heap.
///
/// A `VersionPtr` is only dereferenced while the slot is protected: either
/// the holder is pinned in the current epoch and reached the version through
/// an index or the heap, or the version is visible to (or written by) a
/// transaction that is still active, which keeps it from being collected.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VersionPtr(NonNull<u8>);

// SAFETY: a VersionPtr is an address; the protection rules above, not the
// thread that holds it, decide when it may be dereferenced.
unsafe impl Send for VersionPtr {}
// SAFETY: as above.
unsafe impl Sync for VersionPtr {}

impl VersionPtr {
    #[inline]
    pub fn new(slot: NonNull<u8>) -> VersionPtr {
        VersionPtr(slot)
    }

    /// From a non-null, unmarked link value.
    #[inline]
    pub fn from_link(link: usize) -> Option<VersionPtr> {
        NonNull::new((link & !LINK_MARK) as *mut u8).map(VersionPtr)
    }

    #[inline]
    pub fn addr(self) -> usize {
        self.0.as_ptr() as usize
    }

    #[inline]
    pub fn slot(self) -> NonNull<u8> {
        self.0
    }

    #[inline]
    fn word(self, index: usize) -> *const u8 {
        // SAFETY: header words lie inside the slot the pointer was made from.
        unsafe { self.0.as_ptr().add(index * 8) }
    }

    #[inline]
    pub fn begin<'a>(self) -> &'a AtomicU64 {
        // SAFETY: word 0 is an 8-byte aligned u64 inside a protected slot
        // (see the type's documentation); slots are only accessed atomically
        // through these words.
        unsafe { &*(self.word(0) as *const AtomicU64) }
    }

    #[inline]
    pub fn end<'a>(self) -> &'a AtomicU64 {
        // SAFETY: as for `begin`, word 1.
        unsafe { &*(self.word(1) as *const AtomicU64) }
    }

    #[inline]
    pub fn link<'a>(self, index: usize) -> &'a AtomicUsize {
        // SAFETY: as for `begin`; the table's layout reserves one word per index.
        unsafe { &*(self.word(HEADER_WORDS + index) as *const AtomicUsize) }
    }

    /// The payload of a version in a table with `links` indexes.
    ///
    /// # Safety
    /// The slot must be protected, hold a published version, and be at least
    /// `header + len` bytes long.
    #[inline]
    pub unsafe fn payload<'a>(self, links: usize, len: usize) -> &'a [u8] {
        std::slice::from_raw_parts(self.word(HEADER_WORDS + links), len)
    }

    /// # Safety
    /// As for [`VersionPtr::payload`]; `prefix_len` bytes must exist.
    #[inline]
    pub unsafe fn payload_ptr(self, links: usize) -> *const u8 {
        self.word(HEADER_WORDS + links)
    }
}

/// Bytes of header for a table with `links` indexes.
pub const fn header_bytes(links: usize) -> usize {
    (HEADER_WORDS + links) * 8
}
