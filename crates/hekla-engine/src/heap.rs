//! A table's row memory: size-classed slabs of zeroed pages.
//!
//! Every version of every row lives in a slot of some page, so a table with
//! no index can still be scanned by walking its pages in address order. A
//! slot whose first word (the version's `begin`) is [`crate::word::FREE`]
//! holds no version. Slots carry no allocator header: the caller knows a
//! version's size from its table layout, which keeps small rows small.

use crate::memory::{charged_block, Block, Charge, MemoryBudget, HUGE_PAGE};
use crate::sharding::Padded;
use hekla_types::SqlResult;
use std::ops::ControlFlow;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// Sizes up to this are rounded to 8 bytes; larger ones grow by quarters.
const SMALL_LIMIT: usize = 8192;
const SMALL_CLASSES: usize = SMALL_LIMIT / 8;
/// Enough quarter-step classes to reach past [`crate::layout::MAX_PAYLOAD_BYTES`].
const LARGE_CLASSES: usize = 4 * 12;
const CLASS_COUNT: usize = SMALL_CLASSES + LARGE_CLASSES;
/// Words of the bitmap of the classes made (`RowHeap::made`).
const CLASS_WORDS: usize = CLASS_COUNT.div_ceil(64);
const MIN_PAGE_BYTES: usize = 64 * 1024;
const PAGE_ALIGN: usize = 64;
/// Pages are carved from chunks this large (huge-page backed), except
/// pages bigger than a quarter chunk, which get a block of their own.
const CHUNK_BYTES: usize = HUGE_PAGE;
/// Each size class keeps this many independent free lists and bump pages,
/// so concurrent inserters rarely contend for one lock.
const SHARDS: usize = 4;
/// Free slots taken at once from a neighbouring shard.
const STEAL_BATCH: usize = 64;

/// Index of the size class serving `size` bytes, and that class's slot size.
fn size_class(size: usize) -> (usize, usize) {
    debug_assert!(size > 0);
    if size <= SMALL_LIMIT {
        let slot = size.div_ceil(8) * 8;
        return (slot / 8 - 1, slot);
    }
    // Classes 2^p + k * 2^(p-2) for k = 1..=4 above 8 KiB.
    let p = (usize::BITS - 1 - (size - 1).leading_zeros()) as usize;
    let quarter = 1usize << (p - 2);
    let k = (size - (1 << p)).div_ceil(quarter);
    let slot = (1 << p) + k * quarter;
    let index = SMALL_CLASSES + (p - 13) * 4 + (k - 1);
    (index, slot)
}

type Page = NonNull<u8>;

/// Where pages come from: zeroed, huge-page backed chunks shared by all
/// size classes of one table, so a small table wastes at most one chunk.
/// Each block is charged to the database's memory budget.
struct PageSource {
    budget: Arc<MemoryBudget>,
    state: Mutex<ChunkState>,
}

#[derive(Default)]
struct ChunkState {
    chunks: Vec<Block>,
    /// Bytes of the newest chunk handed out so far.
    used: usize,
    /// Blocks of one large page each.
    dedicated: Vec<Block>,
    /// What all the blocks above take from the budget.
    charge: Option<Charge>,
}

impl PageSource {
    /// A page of `size` bytes; Msg 41805 when a new block would pass the
    /// memory budget or the system refuses it.
    fn page(&self, size: usize) -> SqlResult<Page> {
        let mut state = self.state.lock().expect("page source");
        if size > CHUNK_BYTES / 4 {
            let block = self.take_block(&mut state, size)?;
            let page = NonNull::new(block.as_ptr()).expect("block memory");
            state.dedicated.push(block);
            return Ok(page);
        }
        if state.chunks.is_empty() || state.used + size > CHUNK_BYTES {
            let chunk = self.take_block(&mut state, CHUNK_BYTES)?;
            state.chunks.push(chunk);
            state.used = 0;
        }
        let chunk = state.chunks.last().expect("a chunk").as_ptr();
        // SAFETY: used + size <= CHUNK_BYTES, inside the chunk.
        let page = unsafe { NonNull::new_unchecked(chunk.add(state.used)) };
        state.used += size.div_ceil(PAGE_ALIGN) * PAGE_ALIGN;
        Ok(page)
    }

    fn take_block(&self, state: &mut ChunkState, size: usize) -> SqlResult<Block> {
        let (block, charge) = charged_block(&self.budget, size, PAGE_ALIGN)?;
        match &mut state.charge {
            Some(all) => all.absorb(charge),
            None => state.charge = Some(charge),
        }
        Ok(block)
    }
}

#[derive(Default)]
struct ClassState {
    pages: Vec<Page>,
    free: Vec<NonNull<u8>>,
    /// Slots handed out from the newest page so far.
    bumped: usize,
    /// Slots allocated minus slots released through this shard (a slot may
    /// be released through another shard than it came from).
    live: isize,
}

struct SizeClass {
    slot_size: usize,
    page_size: usize,
    slots_per_page: usize,
    shards: [Padded<Mutex<ClassState>>; SHARDS],
    /// Per shard, whether its free list held slots when last unlocked: a
    /// hint that lets an allocator skip empty neighbours without locking
    /// them (bulk loads free nothing, and would otherwise contend).
    has_free: [AtomicBool; SHARDS],
}

// SAFETY: the raw page pointers are owned by the class and only handed out
// as slots; all mutation of the bookkeeping happens under the mutex.
unsafe impl Send for SizeClass {}
// SAFETY: as above; shared access goes through the mutex.
unsafe impl Sync for SizeClass {}

impl SizeClass {
    fn new(slot_size: usize) -> SizeClass {
        let page_size = MIN_PAGE_BYTES.max(slot_size);
        SizeClass {
            slot_size,
            page_size,
            slots_per_page: page_size / slot_size,
            shards: Default::default(),
            has_free: Default::default(),
        }
    }

    fn lock(&self, shard: usize) -> std::sync::MutexGuard<'_, ClassState> {
        self.shards[shard].lock().expect("heap lock")
    }

    /// Each page of a shard with how many of its slots have been handed
    /// out: all but in its newest page, whose slots past `bumped` were
    /// never used (a scan of a small table need not walk a whole page).
    fn handed_out(&self, state: &ClassState) -> Vec<(Page, usize)> {
        let newest = state.pages.len().saturating_sub(1);
        let used = |position: usize| {
            if position == newest {
                state.bumped
            } else {
                self.slots_per_page
            }
        };
        let pages = state.pages.iter().enumerate();
        pages
            .map(|(position, &page)| (page, used(position)))
            .collect()
    }

    fn allocate(&self, source: &PageSource) -> SqlResult<NonNull<u8>> {
        let home = crate::sharding::shard_of(SHARDS);
        let mut state = self.lock(home);
        if let Some(slot) = state.free.pop() {
            state.live += 1;
            return Ok(slot);
        }
        // Slots are freed into the freeing thread's shard (often the
        // collector's): take a batch from a neighbour before growing.
        self.has_free[home].store(false, Ordering::Relaxed);
        for other in (1..SHARDS).map(|i| (home + i) % SHARDS) {
            if !self.has_free[other].load(Ordering::Relaxed) {
                continue;
            }
            // We hold our own shard, and a neighbour may be stealing from
            // us: waiting for its lock could deadlock, so spin briefly with
            // try_lock and skip a neighbour that stays busy.
            let Some(mut neighbour) = (0..64).find_map(|_| {
                let guard = self.shards[other].try_lock().ok();
                if guard.is_none() {
                    std::hint::spin_loop();
                }
                guard
            }) else {
                continue;
            };
            let keep = neighbour.free.len().saturating_sub(STEAL_BATCH);
            let stolen = neighbour.free.split_off(keep);
            self.has_free[other].store(keep > 0, Ordering::Relaxed);
            drop(neighbour);
            if !stolen.is_empty() {
                state.free.extend(stolen);
                let slot = state.free.pop().expect("stolen slots");
                self.has_free[home].store(!state.free.is_empty(), Ordering::Relaxed);
                state.live += 1;
                return Ok(slot);
            }
        }
        if state.pages.is_empty() || state.bumped == self.slots_per_page {
            // Zeroed memory makes every unused slot read as FREE to scanners.
            let page = source.page(self.page_size)?;
            state.pages.push(page);
            state.bumped = 0;
        }
        let page = *state.pages.last().expect("a page");
        let offset = state.bumped * self.slot_size;
        state.bumped += 1;
        state.live += 1;
        // SAFETY: offset + slot_size <= page_size, inside the page.
        Ok(unsafe { NonNull::new_unchecked(page.as_ptr().add(offset)) })
    }
}

/// Memory figures for DMVs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HeapStats {
    pub allocated_bytes: u64,
    pub used_bytes: u64,
    pub live_slots: u64,
}

/// The slabs of one table.
pub struct RowHeap {
    classes: Box<[AtomicPtr<SizeClass>]>,
    /// A bit for each entry of `classes` that holds a class: a table's
    /// rows take a few sizes, and a scan of a small table (a table
    /// variable, say) would otherwise spend most of its time loading the
    /// empty entries.
    made: [AtomicU64; CLASS_WORDS],
    pages: PageSource,
}

impl RowHeap {
    /// An empty heap whose pages are charged to `budget`.
    pub fn new(budget: &Arc<MemoryBudget>) -> RowHeap {
        RowHeap {
            classes: (0..CLASS_COUNT)
                .map(|_| AtomicPtr::new(std::ptr::null_mut()))
                .collect(),
            made: Default::default(),
            pages: PageSource {
                budget: Arc::clone(budget),
                state: Mutex::default(),
            },
        }
    }

    fn class(&self, size: usize) -> &SizeClass {
        let (index, slot_size) = size_class(size);
        let entry = &self.classes[index];
        let mut class = entry.load(Ordering::Acquire);
        if class.is_null() {
            // Marked before the class is published: whoever finds it (and
            // hands out its slots) finds it marked for scans too.
            self.made[index / 64].fetch_or(1 << (index % 64), Ordering::Release);
            let fresh = Box::into_raw(Box::new(SizeClass::new(slot_size)));
            match entry.compare_exchange(
                std::ptr::null_mut(),
                fresh,
                Ordering::AcqRel,
                Ordering::Acquire,
            ) {
                Ok(_) => class = fresh,
                Err(winner) => {
                    // SAFETY: `fresh` was never shared; we still own it.
                    drop(unsafe { Box::from_raw(fresh) });
                    class = winner;
                }
            }
        }
        // SAFETY: classes are created once and freed only when the heap drops.
        unsafe { &*class }
    }

    /// A slot of at least `size` bytes, 8-byte aligned, whose first word is
    /// FREE; Msg 41805 when a new page would pass the memory budget.
    pub fn allocate(&self, size: usize) -> SqlResult<NonNull<u8>> {
        self.class(size).allocate(&self.pages)
    }

    /// Returns slots of `size` bytes to the free list. The caller guarantees
    /// that nobody can reach them any more (epoch grace has passed) and that
    /// their first word has been reset to FREE.
    pub fn release(&self, size: usize, slots: impl ExactSizeIterator<Item = NonNull<u8>>) {
        let class = self.class(size);
        let shard = crate::sharding::shard_of(SHARDS);
        let mut state = class.lock(shard);
        state.live -= slots.len() as isize;
        for slot in slots {
            debug_assert_eq!(
                // SAFETY: released slots are heap memory whose first word is
                // only accessed atomically.
                unsafe {
                    (*(slot.as_ptr() as *const std::sync::atomic::AtomicU64))
                        .load(Ordering::Acquire)
                },
                0,
                "a released slot must be marked FREE"
            );
            state.free.push(slot);
        }
        class.has_free[shard].store(!state.free.is_empty(), Ordering::Relaxed);
    }

    /// Calls `visit` with the address of every slot handed out so far
    /// (free again or not), until it breaks. A slot handed out after the
    /// walk began may be missed, as a page added then is: its version was
    /// made after the reader's snapshot. Pages are never freed while the
    /// heap lives.
    pub fn for_each_slot<B>(
        &self,
        mut visit: impl FnMut(NonNull<u8>) -> ControlFlow<B>,
    ) -> Option<B> {
        for class in self.made_classes() {
            let pages: Vec<(Page, usize)> = class
                .shards
                .iter()
                .flat_map(|shard| class.handed_out(&shard.lock().expect("heap lock")))
                .collect();
            for (base, slots) in pages {
                for i in 0..slots {
                    // SAFETY: i * slot_size < page_size.
                    let slot =
                        unsafe { NonNull::new_unchecked(base.as_ptr().add(i * class.slot_size)) };
                    if let ControlFlow::Break(b) = visit(slot) {
                        return Some(b);
                    }
                }
            }
        }
        None
    }

    /// The size classes made so far, smallest first.
    fn made_classes(&self) -> impl Iterator<Item = &SizeClass> {
        let indexes = self.made.iter().enumerate().flat_map(|(word, bits)| {
            let mut bits = bits.load(Ordering::Acquire);
            std::iter::from_fn(move || {
                let bit = (bits != 0).then(|| bits.trailing_zeros() as usize)?;
                bits &= bits - 1;
                Some(word * 64 + bit)
            })
        });
        indexes.filter_map(|index| {
            let class = self.classes[index].load(Ordering::Acquire);
            // SAFETY: non-null class pointers stay valid until the heap drops.
            (!class.is_null()).then(|| unsafe { &*class })
        })
    }

    pub fn stats(&self) -> HeapStats {
        let mut stats = HeapStats::default();
        for class in self.made_classes() {
            let (mut pages, mut live) = (0usize, 0isize);
            for shard in &class.shards {
                let state = shard.lock().expect("heap lock");
                pages += state.pages.len();
                live += state.live;
            }
            let live = live.max(0) as u64;
            stats.allocated_bytes += (pages * class.page_size) as u64;
            stats.used_bytes += live * class.slot_size as u64;
            stats.live_slots += live;
        }
        stats
    }
}

impl Drop for RowHeap {
    fn drop(&mut self) {
        for entry in self.classes.iter() {
            let class = entry.swap(std::ptr::null_mut(), Ordering::AcqRel);
            if !class.is_null() {
                // SAFETY: we hold the heap exclusively; each class is freed once.
                drop(unsafe { Box::from_raw(class) });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_classes_cover_sizes_tightly() {
        assert_eq!(size_class(1), (0, 8));
        assert_eq!(size_class(61), (7, 64));
        assert_eq!(size_class(8192), (1023, 8192));
        assert_eq!(size_class(8193).1, 10240);
        assert_eq!(size_class(16384).1, 16384);
        assert_eq!(size_class(16385).1, 20480);
        let mut last = 0;
        for size in (1..(9usize << 20)).step_by(997) {
            let (index, slot) = size_class(size);
            assert!(slot >= size && index < CLASS_COUNT, "size {size}");
            assert!(index >= last);
            last = index;
        }
    }

    fn unlimited() -> RowHeap {
        RowHeap::new(&Arc::new(MemoryBudget::new(u64::MAX)))
    }

    #[test]
    fn pages_are_charged_to_the_budget() {
        let budget = Arc::new(MemoryBudget::new(CHUNK_BYTES as u64));
        let heap = RowHeap::new(&budget);
        heap.allocate(60).unwrap();
        assert_eq!(budget.used(), CHUNK_BYTES as u64);
        // A page of its own past the chunk: refused, and nothing counted.
        let refused = heap.allocate(CHUNK_BYTES / 2).unwrap_err();
        assert_eq!(refused.number, 41805);
        assert_eq!(heap.stats().live_slots, 1);
        drop(heap);
        assert_eq!(budget.used(), 0);
    }

    #[test]
    fn slots_are_reused_and_counted() {
        let heap = unlimited();
        let a = heap.allocate(60).unwrap();
        let b = heap.allocate(64).unwrap();
        assert_ne!(a, b);
        assert_eq!(heap.stats().live_slots, 2);
        assert_eq!(heap.stats().used_bytes, 128);
        heap.release(60, [a].into_iter());
        assert_eq!(heap.allocate(57).unwrap(), a);
        let mut slots = 0;
        heap.for_each_slot::<()>(|_| {
            slots += 1;
            ControlFlow::Continue(())
        });
        assert_eq!(slots, 2, "only the slots ever handed out");
    }

    #[test]
    fn a_walk_visits_full_pages_and_the_handed_out_part_of_the_newest() {
        let heap = unlimited();
        let per_page = MIN_PAGE_BYTES / 64;
        let handed_out: Vec<NonNull<u8>> = (0..per_page + 3)
            .map(|_| heap.allocate(64).unwrap())
            .collect();
        let mut visited = Vec::new();
        heap.for_each_slot::<()>(|slot| {
            visited.push(slot);
            ControlFlow::Continue(())
        });
        visited.sort();
        let mut expected = handed_out;
        expected.sort();
        assert_eq!(visited, expected);
    }
}
