//! Large zeroed allocations backed by transparent huge pages where the
//! kernel offers them (`madvise` mode), so that probing a large bucket array
//! or heap costs fewer TLB misses.
//!
//! Blocks of a huge page or more are mapped directly: fresh anonymous
//! memory is zero without being written, and advising it before the first
//! touch lets the kernel back it with 2 MiB pages from the start.

use std::alloc::{self, Layout};
use std::ptr::NonNull;

/// The huge page size on x86-64 and aarch64 Linux.
pub const HUGE_PAGE: usize = 2 << 20;

/// An owned block of zeroed memory.
pub struct Block {
    ptr: NonNull<u8>,
    size: usize,
    kind: Kind,
}

enum Kind {
    Heap(Layout),
    /// A private anonymous mapping of `size` bytes.
    #[cfg(target_os = "linux")]
    Mapped,
}

// SAFETY: a Block is plain memory owned by one value; sharing it is up to
// the structures built on it, which use atomics.
unsafe impl Send for Block {}
// SAFETY: as above.
unsafe impl Sync for Block {}

impl Block {
    /// `size` zeroed bytes aligned to `align` (huge blocks: to a huge page).
    pub fn zeroed(size: usize, align: usize) -> Block {
        let size = size.max(1);
        #[cfg(target_os = "linux")]
        if size >= HUGE_PAGE {
            if let Some(block) = Block::mapped(size) {
                return block;
            }
        }
        let layout = Layout::from_size_align(size, align).expect("block layout");
        // SAFETY: the layout has non-zero size.
        let raw = unsafe { alloc::alloc_zeroed(layout) };
        let Some(ptr) = NonNull::new(raw) else {
            alloc::handle_alloc_error(layout);
        };
        Block {
            ptr,
            size,
            kind: Kind::Heap(layout),
        }
    }

    /// Maps `size` bytes (rounded up to huge pages) at a huge-page boundary.
    #[cfg(target_os = "linux")]
    fn mapped(size: usize) -> Option<Block> {
        let size = size.div_ceil(HUGE_PAGE) * HUGE_PAGE;
        let span = size + HUGE_PAGE;
        // SAFETY: an anonymous private mapping of fresh memory; no existing
        // memory is affected.
        let raw = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                span,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if raw == libc::MAP_FAILED {
            return None;
        }
        let start = raw as usize;
        let aligned = start.div_ceil(HUGE_PAGE) * HUGE_PAGE;
        // SAFETY: both trimmed ranges lie inside the mapping just made and
        // outside [aligned, aligned + size), which we keep. MADV_HUGEPAGE
        // only changes how the kernel backs the range; failure is harmless.
        unsafe {
            if aligned > start {
                libc::munmap(raw, aligned - start);
            }
            let tail = aligned + size;
            if start + span > tail {
                libc::munmap(tail as *mut libc::c_void, start + span - tail);
            }
            libc::madvise(aligned as *mut libc::c_void, size, libc::MADV_HUGEPAGE);
        }
        Some(Block {
            ptr: NonNull::new(aligned as *mut u8)?,
            size,
            kind: Kind::Mapped,
        })
    }

    pub fn as_ptr(&self) -> *mut u8 {
        self.ptr.as_ptr()
    }

    pub fn size(&self) -> usize {
        self.size
    }
}

impl Drop for Block {
    fn drop(&mut self) {
        match self.kind {
            // SAFETY: allocated in `zeroed` with this layout, freed once.
            Kind::Heap(layout) => unsafe { alloc::dealloc(self.ptr.as_ptr(), layout) },
            // SAFETY: the range is exactly the mapping kept in `mapped`.
            #[cfg(target_os = "linux")]
            Kind::Mapped => unsafe {
                libc::munmap(self.ptr.as_ptr().cast(), self.size);
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_are_zeroed_and_aligned() {
        for size in [64, 4096, HUGE_PAGE, HUGE_PAGE + 8] {
            let block = Block::zeroed(size, 64);
            let align = if size >= HUGE_PAGE { HUGE_PAGE } else { 64 };
            assert_eq!(block.as_ptr() as usize % align, 0);
            assert!(block.size >= size);
            // SAFETY: the block is `size` bytes long and initialised (zeroed).
            let bytes = unsafe { std::slice::from_raw_parts_mut(block.as_ptr(), size) };
            assert!(bytes.iter().all(|&b| b == 0));
            bytes[size - 1] = 1;
        }
    }
}
