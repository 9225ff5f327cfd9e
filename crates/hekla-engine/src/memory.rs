//! Large zeroed allocations backed by transparent huge pages where the
//! kernel offers them (`madvise` mode), so that scanning a large heap or
//! probing a large bucket array costs fewer TLB misses.

use std::alloc::{self, Layout};
use std::ptr::NonNull;

/// The huge page size on x86-64 and aarch64 Linux.
pub const HUGE_PAGE: usize = 2 << 20;

/// An owned block of zeroed memory.
pub struct Block {
    ptr: NonNull<u8>,
    layout: Layout,
}

// SAFETY: a Block is plain memory owned by one value; sharing it is up to
// the structures built on it, which use atomics.
unsafe impl Send for Block {}
// SAFETY: as above.
unsafe impl Sync for Block {}

impl Block {
    /// `size` zeroed bytes, aligned to `align` — or to a huge page when the
    /// block is at least one huge page long, and then advised as such.
    pub fn zeroed(size: usize, align: usize) -> Block {
        let huge = size >= HUGE_PAGE;
        let align = if huge { HUGE_PAGE } else { align };
        let layout = Layout::from_size_align(size.max(1), align).expect("block layout");
        // SAFETY: the layout has non-zero size.
        let raw = unsafe { alloc::alloc_zeroed(layout) };
        let Some(ptr) = NonNull::new(raw) else {
            alloc::handle_alloc_error(layout);
        };
        if huge {
            advise_huge(ptr, layout.size());
        }
        Block { ptr, layout }
    }

    pub fn as_ptr(&self) -> *mut u8 {
        self.ptr.as_ptr()
    }

}

impl Drop for Block {
    fn drop(&mut self) {
        // SAFETY: allocated in `zeroed` with this layout, freed once.
        unsafe { alloc::dealloc(self.ptr.as_ptr(), self.layout) };
    }
}

#[cfg(target_os = "linux")]
fn advise_huge(ptr: NonNull<u8>, len: usize) {
    // SAFETY: the range is one live allocation we own; MADV_HUGEPAGE only
    // changes how the kernel backs it, never its contents. Failure (THP
    // disabled) is harmless, so the result is ignored.
    unsafe {
        libc::madvise(ptr.as_ptr().cast(), len, libc::MADV_HUGEPAGE);
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge(_ptr: NonNull<u8>, _len: usize) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_are_zeroed_and_aligned() {
        for size in [64, 4096, HUGE_PAGE, HUGE_PAGE + 8] {
            let block = Block::zeroed(size, 64);
            let align = if size >= HUGE_PAGE { HUGE_PAGE } else { 64 };
            assert_eq!(block.as_ptr() as usize % align, 0);
            // SAFETY: the block is `size` bytes long and initialised (zeroed).
            let bytes = unsafe { std::slice::from_raw_parts(block.as_ptr(), size) };
            assert!(bytes.iter().all(|&b| b == 0));
        }
    }
}
