//! Large zeroed allocations backed by transparent huge pages where the
//! kernel offers them (`madvise` mode), so that probing a large bucket array
//! or heap costs fewer TLB misses.
//!
//! Blocks of a huge page or more are mapped directly: fresh anonymous
//! memory is zero without being written, and advising it before the first
//! touch lets the kernel back it with 2 MiB pages from the start.

use std::alloc::{self, Layout};
use std::ptr::NonNull;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

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
    /// `size` zeroed bytes aligned to `align` (huge blocks: to a huge page);
    /// aborts when the memory cannot be had (see [`Block::try_zeroed`]).
    pub fn zeroed(size: usize, align: usize) -> Block {
        Block::try_zeroed(size, align).unwrap_or_else(|| {
            alloc::handle_alloc_error(Layout::from_size_align(size, align).expect("block layout"))
        })
    }

    /// As [`Block::zeroed`], or None when the system refuses the memory.
    pub fn try_zeroed(size: usize, align: usize) -> Option<Block> {
        let size = size.max(1);
        #[cfg(target_os = "linux")]
        if size >= HUGE_PAGE {
            if let Some(block) = Block::mapped(size) {
                return Some(block);
            }
        }
        let layout = Layout::from_size_align(size, align).ok()?;
        // SAFETY: the layout has non-zero size.
        let raw = unsafe { alloc::alloc_zeroed(layout) };
        Some(Block {
            ptr: NonNull::new(raw)?,
            size,
            kind: Kind::Heap(layout),
        })
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

/// The memory a database's memory-optimized tables may take: their row
/// pages and hash bucket arrays, as SQL Server's resource pool limits the
/// memory-optimized data of the databases bound to it. Allocations past
/// the limit are refused with Msg 41805 instead of taken.
#[derive(Debug)]
pub struct MemoryBudget {
    limit: u64,
    used: AtomicU64,
}

impl MemoryBudget {
    pub fn new(limit: u64) -> MemoryBudget {
        MemoryBudget {
            limit,
            used: AtomicU64::new(0),
        }
    }

    pub fn limit(&self) -> u64 {
        self.limit
    }

    pub fn used(&self) -> u64 {
        self.used.load(Ordering::Acquire)
    }

    /// What is left under the limit.
    pub fn available(&self) -> u64 {
        self.limit.saturating_sub(self.used())
    }

    /// Takes `bytes` for one holder; None (and nothing taken) when that
    /// would pass the limit.
    pub fn charge(self: &Arc<Self>, bytes: u64) -> Option<Charge> {
        self.used
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |used| {
                used.checked_add(bytes).filter(|&total| total <= self.limit)
            })
            .ok()?;
        Some(Charge {
            budget: Arc::clone(self),
            bytes,
        })
    }
}

/// Memory taken from a [`MemoryBudget`], given back when dropped.
#[derive(Debug)]
pub struct Charge {
    budget: Arc<MemoryBudget>,
    bytes: u64,
}

impl Charge {
    /// Takes over `other`, charged to the same budget: one charge for a
    /// holder that allocates piece by piece.
    pub fn absorb(&mut self, other: Charge) {
        debug_assert!(Arc::ptr_eq(&self.budget, &other.budget));
        self.bytes += other.bytes;
        std::mem::forget(other);
    }
}

impl Drop for Charge {
    fn drop(&mut self) {
        self.budget.used.fetch_sub(self.bytes, Ordering::AcqRel);
    }
}

/// `size` zeroed bytes charged to `budget`: Msg 41805 when the budget or
/// the system cannot give them.
pub fn charged_block(
    budget: &Arc<MemoryBudget>,
    size: usize,
    align: usize,
) -> hekla_types::SqlResult<(Block, Charge)> {
    let charge = budget
        .charge(size as u64)
        .ok_or_else(crate::errors::insufficient_memory)?;
    let block = Block::try_zeroed(size, align).ok_or_else(crate::errors::insufficient_memory)?;
    Ok((block, charge))
}

/// The default limit: SQL Server's share of its memory that memory-optimized
/// tables may use, by the memory there is (70% up to 8 GB, 75% up to 16 GB,
/// 80% up to 32 GB, 85% up to 96 GB, 90% above), of the physical memory.
pub fn default_memory_limit() -> u64 {
    const GB: u64 = 1 << 30;
    let physical = physical_memory().unwrap_or(8 * GB);
    let percent = match physical {
        m if m <= 8 * GB => 70,
        m if m <= 16 * GB => 75,
        m if m <= 32 * GB => 80,
        m if m <= 96 * GB => 85,
        _ => 90,
    };
    physical / 100 * percent
}

fn physical_memory() -> Option<u64> {
    // SAFETY: sysconf only reads system configuration.
    let (pages, page_size) = unsafe {
        (
            libc::sysconf(libc::_SC_PHYS_PAGES),
            libc::sysconf(libc::_SC_PAGESIZE),
        )
    };
    let pages = u64::try_from(pages).ok()?;
    let page_size = u64::try_from(page_size).ok()?;
    pages.checked_mul(page_size).filter(|&bytes| bytes > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_refuse_past_their_limit_and_take_back_on_drop() {
        let budget = Arc::new(MemoryBudget::new(100));
        let mut first = budget.charge(60).unwrap();
        assert!(budget.charge(41).is_none());
        first.absorb(budget.charge(40).unwrap());
        assert_eq!(budget.available(), 0);
        drop(first);
        assert_eq!(budget.used(), 0);
        assert!(charged_block(&budget, 101, 8).is_err());
        let (_block, _charge) = charged_block(&budget, 100, 8).unwrap();
        assert_eq!(budget.available(), 0);
    }

    #[test]
    fn the_default_limit_is_a_share_of_physical_memory() {
        let limit = default_memory_limit();
        assert!(limit > 0);
        if let Some(physical) = physical_memory() {
            assert!(limit < physical);
        }
    }

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
