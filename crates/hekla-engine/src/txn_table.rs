//! The table of live transactions.
//!
//! A begin/end word that holds a transaction id is resolved here: the id's
//! low bits name a slot, the rest is a generation, so a reader can tell
//! whether the slot still belongs to that transaction. A transaction stamps
//! all its versions with timestamps before it gives its slot up, so a reader
//! that finds the slot gone simply rereads the word.

use crate::errors;
use crate::sharding::Padded;
use crate::word::INFINITY;
use hekla_types::SqlResult;
use std::cell::RefCell;
use std::sync::atomic::{
    AtomicBool, AtomicU32, AtomicU64, AtomicUsize,
    Ordering::{Relaxed, SeqCst},
};
use std::sync::{Arc, Condvar, Mutex, Weak};

const SLOT_BITS: u32 = 16;
/// The most transactions that can be active at once in one database.
pub const MAX_TRANSACTIONS: usize = 1 << SLOT_BITS;
const SLOT_MASK: u64 = (1 << SLOT_BITS) - 1;

/// `begin_ts` of a free slot.
const NO_TXN: u64 = u64::MAX;
/// `begin_ts` while a transaction is choosing its read timestamp: garbage
/// collection must not advance past anything then.
const REGISTERING: u64 = 0;

/// Where a transaction is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TxnState {
    Active,
    /// Has its end timestamp; validating, waiting for dependencies or logging.
    Preparing,
    Committed,
    Aborted,
}

const STATE_SHIFT: u32 = 62;
/// The timestamp of a Preparing transaction that has not yet taken one.
const PENDING_TS: u64 = (1 << STATE_SHIFT) - 1;

fn pack(state: TxnState, ts: u64) -> u64 {
    debug_assert!(ts <= INFINITY >> 1);
    ((state as u64) << STATE_SHIFT) | ts
}

fn unpack(word: u64) -> (TxnState, u64) {
    let state = match word >> STATE_SHIFT {
        0 => TxnState::Active,
        1 => TxnState::Preparing,
        2 => TxnState::Committed,
        _ => TxnState::Aborted,
    };
    (state, word & ((1 << STATE_SHIFT) - 1))
}

#[repr(align(128))]
#[derive(Default)]
struct Slot {
    id: AtomicU64,
    state: AtomicU64,
    begin_ts: AtomicU64,
    generation: AtomicU64,
    pending_dependencies: AtomicU32,
    abort_now: AtomicBool,
    /// Transactions that read this one speculatively. Only a Preparing
    /// transaction takes dependents, and it drains them after leaving that
    /// state, so the list is empty whenever the slot is handed out again.
    dependents: Mutex<Vec<u64>>,
    /// Where a transaction waiting for its dependencies sleeps, and whether
    /// one does (so that resolving takes the lock only when someone waits).
    settled: Condvar,
    settled_lock: Mutex<()>,
    waiting: AtomicBool,
}

/// Free slots are kept in a few shards so that threads beginning
/// transactions at the same time rarely meet on one lock.
const FREE_SHARDS: usize = 8;

fn home_shard() -> usize {
    crate::sharding::shard_of(FREE_SHARDS)
}

/// Each thread keeps the slot of its last transaction for its next one, so
/// that a stream of short transactions takes no lock for slots. The slot
/// goes back to the free list when the thread moves to another database or
/// exits.
#[derive(Default)]
struct SlotCache {
    entry: Option<(Weak<TxnTable>, Option<u32>)>,
}

impl SlotCache {
    fn take(&mut self, table: &Arc<TxnTable>) -> Option<u32> {
        match &mut self.entry {
            Some((owner, slot)) if Weak::as_ptr(owner) == Arc::as_ptr(table) => slot.take(),
            _ => None,
        }
    }

    /// Keeps `slot` of `table`; returns a slot that must go back instead.
    fn keep(&mut self, table: &Arc<TxnTable>, slot: u32) -> Option<(Arc<TxnTable>, u32)> {
        if let Some((owner, cached)) = &mut self.entry {
            if Weak::as_ptr(owner) == Arc::as_ptr(table) {
                return cached.replace(slot).map(|other| (table.clone(), other));
            }
        }
        // Idle threads' caches must not starve the table: at most half of
        // its slots may sit in caches.
        if table.caching_threads.fetch_add(1, SeqCst) >= table.slots.len() / 2 {
            table.caching_threads.fetch_sub(1, SeqCst);
            return Some((table.clone(), slot));
        }
        let previous = self.entry.replace((Arc::downgrade(table), Some(slot)));
        previous.and_then(|(owner, other)| leave(owner, other))
    }
}

/// Ends a thread's caching for `owner`, giving back the slot it held.
fn leave(owner: Weak<TxnTable>, slot: Option<u32>) -> Option<(Arc<TxnTable>, u32)> {
    let owner = owner.upgrade()?;
    owner.caching_threads.fetch_sub(1, SeqCst);
    slot.map(|slot| (owner, slot))
}

impl Drop for SlotCache {
    fn drop(&mut self) {
        if let Some((owner, slot)) = self.entry.take() {
            if let Some((owner, slot)) = leave(owner, slot) {
                owner.return_slot(slot);
            }
        }
    }
}

thread_local! {
    static SLOT_CACHE: RefCell<SlotCache> = RefCell::new(SlotCache::default());
}

pub struct TxnTable {
    slots: Box<[Slot]>,
    free: [Padded<Mutex<Vec<u32>>>; FREE_SHARDS],
    high_water: AtomicUsize,
    /// Threads whose slot cache belongs to this table.
    caching_threads: AtomicUsize,
}

/// A transaction that holds a slot (`sys.dm_db_xtp_transactions`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ActiveTransaction {
    pub id: u64,
    /// The read timestamp it began at.
    pub begin_ts: u64,
    pub state: TxnState,
    /// Its end (commit) timestamp, once it has taken one.
    pub end_ts: Option<u64>,
    /// The commit dependencies it is waiting on: transactions it read
    /// speculatively that have not ended yet.
    pub pending_dependencies: u32,
}

/// A newly begun transaction's identity.
pub struct Registration {
    pub slot: u32,
    pub id: u64,
    pub read_ts: u64,
}

impl TxnTable {
    pub fn new(capacity: usize) -> TxnTable {
        let capacity = capacity.clamp(1, MAX_TRANSACTIONS);
        let slots: Box<[Slot]> = (0..capacity)
            .map(|_| Slot {
                begin_ts: AtomicU64::new(NO_TXN),
                ..Slot::default()
            })
            .collect();
        // Popped from the end: low slots first, so scans stay short.
        let free = std::array::from_fn(|shard| {
            Padded(Mutex::new(
                (0..capacity as u32)
                    .rev()
                    .filter(|slot| *slot as usize % FREE_SHARDS == shard)
                    .collect(),
            ))
        });
        TxnTable {
            slots,
            free,
            high_water: AtomicUsize::new(0),
            caching_threads: AtomicUsize::new(0),
        }
    }

    fn take_slot(self: &Arc<Self>) -> SqlResult<u32> {
        let cached = SLOT_CACHE.try_with(|cache| cache.borrow_mut().take(self));
        if let Ok(Some(slot)) = cached {
            return Ok(slot);
        }
        let home = home_shard();
        let slot = (0..FREE_SHARDS)
            .find_map(|i| {
                self.free[(home + i) % FREE_SHARDS]
                    .lock()
                    .expect("txn free list")
                    .pop()
            })
            .ok_or_else(|| errors::too_many_transactions(self.slots.len()))?;
        // Read first: an unconditional read-modify-write would bounce this
        // cache line between cores on every begin.
        if self.high_water.load(SeqCst) <= slot as usize {
            self.high_water.fetch_max(slot as usize + 1, SeqCst);
        }
        Ok(slot)
    }

    /// Registers a new active transaction reading as of the clock's value.
    pub fn begin(self: &Arc<Self>, clock: &AtomicU64) -> SqlResult<Registration> {
        let index = self.take_slot()?;
        let slot = &self.slots[index as usize];
        slot.begin_ts.store(REGISTERING, SeqCst);
        // Only the slot's owner writes these, and readers look at them only
        // after seeing the new id, whose SeqCst store below publishes them.
        let generation = slot.generation.load(Relaxed) + 1;
        slot.generation.store(generation, Relaxed);
        let id = (generation << SLOT_BITS) | u64::from(index);
        // SeqCst, not Relaxed: a reader checks the id, then the state, then
        // the id again, and must not pair this state with the old id.
        slot.state.store(pack(TxnState::Active, 0), SeqCst);
        slot.pending_dependencies.store(0, Relaxed);
        slot.abort_now.store(false, Relaxed);
        slot.id.store(id, SeqCst);
        let read_ts = clock.load(SeqCst);
        slot.begin_ts.store(read_ts, SeqCst);
        Ok(Registration {
            slot: index,
            id,
            read_ts,
        })
    }

    /// Gives the slot back. The transaction has stamped every version it
    /// wrote and has no unresolved dependencies.
    pub fn release(self: &Arc<Self>, index: u32) {
        let slot = &self.slots[index as usize];
        debug_assert_eq!(slot.pending_dependencies.load(SeqCst), 0);
        // Everything that touches this table comes before the id is cleared:
        // from then on the database may be dropped by another thread.
        let displaced = SLOT_CACHE
            .try_with(|cache| cache.borrow_mut().keep(self, index))
            .unwrap_or(Some((self.clone(), index)));
        slot.begin_ts.store(NO_TXN, SeqCst);
        let id = slot.id.swap(0, SeqCst);
        assert_ne!(id, 0, "transaction slot {index} released twice");
        if let Some((table, slot)) = displaced {
            table.return_slot(slot);
        }
    }

    fn return_slot(&self, index: u32) {
        self.free[home_shard()]
            .lock()
            .expect("txn free list")
            .push(index);
    }

    pub fn set_state(&self, index: u32, state: TxnState, ts: u64) {
        self.slots[index as usize]
            .state
            .store(pack(state, ts), SeqCst);
    }

    /// The state and end timestamp of transaction `id`, or None once it has
    /// finished and released its slot.
    pub fn lookup(&self, id: u64) -> Option<(TxnState, u64)> {
        let slot = self.slots.get((id & SLOT_MASK) as usize)?;
        let mut spins = 0u32;
        loop {
            if slot.id.load(SeqCst) != id {
                return None;
            }
            let state = slot.state.load(SeqCst);
            if slot.id.load(SeqCst) != id {
                return None;
            }
            match unpack(state) {
                // Between announcing that it prepares and learning its end
                // timestamp (two instructions): wait, since a reader cannot
                // tell yet whether that timestamp falls before its own.
                (TxnState::Preparing, PENDING_TS) => {
                    spins += 1;
                    if spins < 128 {
                        std::hint::spin_loop();
                    } else {
                        std::thread::yield_now();
                    }
                }
                outcome => return Some(outcome),
            }
        }
    }

    /// Moves an active transaction to Preparing and gives it its end
    /// timestamp from `clock`. Readers that began before the timestamp was
    /// taken see the transaction as Active or wait; none sees it Active
    /// with an end timestamp at or below its read timestamp.
    pub fn prepare(&self, index: u32, clock: &AtomicU64) -> u64 {
        self.set_state(index, TxnState::Preparing, PENDING_TS);
        let end_ts = clock.fetch_add(1, SeqCst) + 1;
        self.set_state(index, TxnState::Preparing, end_ts);
        end_ts
    }

    /// Records that `me` (in slot `my_index`) may commit only if `on` commits.
    /// Returns false if `on` has already finished (the caller rereads).
    pub fn add_dependency(&self, my_index: u32, me: u64, on: u64) -> bool {
        let Some(target) = self.slots.get((on & SLOT_MASK) as usize) else {
            return false;
        };
        let mut dependents = target.dependents.lock().expect("dependents");
        // Checked under the lock: `resolve_dependents` changes the state
        // before it takes the lock to drain, so a registration either lands
        // before the drain or sees that the outcome is already known.
        let preparing = unpack(target.state.load(SeqCst)).0 == TxnState::Preparing;
        if !preparing || target.id.load(SeqCst) != on {
            return false;
        }
        self.slots[my_index as usize]
            .pending_dependencies
            .fetch_add(1, SeqCst);
        dependents.push(me);
        true
    }

    /// Tells the transactions that depended on slot `index` how it ended.
    /// The slot's state must already say Committed or Aborted.
    pub fn resolve_dependents(&self, index: u32, committed: bool) {
        let slot = &self.slots[index as usize];
        debug_assert_ne!(unpack(slot.state.load(SeqCst)).0, TxnState::Preparing);
        let ids = std::mem::take(&mut *slot.dependents.lock().expect("dependents"));
        for id in ids {
            // A dependent never releases its slot while it has pending
            // dependencies, so the slot is still its own.
            let slot = &self.slots[(id & SLOT_MASK) as usize];
            debug_assert_eq!(slot.id.load(SeqCst), id);
            if !committed {
                slot.abort_now.store(true, SeqCst);
            }
            let last = slot.pending_dependencies.fetch_sub(1, SeqCst) == 1;
            // Both sides SeqCst: either the waiter sees the count at zero
            // before it sleeps, or this sees it waiting and wakes it under
            // the lock it sleeps with.
            if last && slot.waiting.load(SeqCst) {
                let _guard = slot.settled_lock.lock().expect("settled lock");
                slot.settled.notify_all();
            }
        }
    }

    pub fn pending_dependencies(&self, index: u32) -> u32 {
        self.slots[index as usize].pending_dependencies.load(SeqCst)
    }

    pub fn must_abort(&self, index: u32) -> bool {
        self.slots[index as usize].abort_now.load(SeqCst)
    }

    /// Waits until every transaction slot `index` read speculatively has
    /// ended. They are past validation, but under full durability each
    /// still waits for its log flush (milliseconds): after a short spin the
    /// waiter sleeps until `resolve_dependents` wakes it, rather than
    /// yielding in a loop that, with many connections, burns every core.
    pub fn wait_for_dependencies(&self, index: u32) {
        for _ in 0..64 {
            if self.pending_dependencies(index) == 0 {
                return;
            }
            std::hint::spin_loop();
        }
        let slot = &self.slots[index as usize];
        let mut guard = slot.settled_lock.lock().expect("settled lock");
        slot.waiting.store(true, SeqCst);
        while slot.pending_dependencies.load(SeqCst) > 0 {
            // The timeout only bounds the cost of a missed wake-up, which
            // the SeqCst handshake above rules out.
            guard = slot
                .settled
                .wait_timeout(guard, std::time::Duration::from_millis(50))
                .expect("settled lock")
                .0;
        }
        slot.waiting.store(false, SeqCst);
    }

    /// Whether slot `index` still belongs to transaction `id`.
    pub fn holds(&self, index: u32, id: u64) -> bool {
        self.slots
            .get(index as usize)
            .is_some_and(|slot| slot.id.load(SeqCst) == id)
    }

    /// Waits until no transaction that has (or may yet take) an end
    /// timestamp at or below `ts` is still preparing: each has then either
    /// appended its commit record to the log or aborted. Preparing is
    /// short (validation and the log flush), so this polls.
    pub fn wait_for_preparing_through(&self, ts: u64) {
        let blocking = |slot: &Slot| {
            let (state, end_ts) = unpack(slot.state.load(SeqCst));
            state == TxnState::Preparing && (end_ts == PENDING_TS || end_ts <= ts)
        };
        loop {
            let used = self.high_water.load(SeqCst);
            if !self.slots[..used].iter().any(blocking) {
                return;
            }
            std::thread::sleep(std::time::Duration::from_micros(50));
        }
    }

    /// Every transaction holding a slot now. A transaction still choosing
    /// its read timestamp is left out; one that finishes during the walk
    /// may or may not be listed.
    pub fn active_transactions(&self) -> Vec<ActiveTransaction> {
        let used = self.high_water.load(SeqCst);
        self.slots[..used]
            .iter()
            .filter_map(|slot| {
                let id = slot.id.load(SeqCst);
                if id == 0 {
                    return None;
                }
                let begin_ts = slot.begin_ts.load(SeqCst);
                let (state, ts) = unpack(slot.state.load(SeqCst));
                // The slot changed hands meanwhile, or its owner has not
                // read the clock yet.
                if slot.id.load(SeqCst) != id || begin_ts == NO_TXN || begin_ts == REGISTERING {
                    return None;
                }
                let has_end = matches!(state, TxnState::Preparing | TxnState::Committed);
                Some(ActiveTransaction {
                    id,
                    begin_ts,
                    state,
                    end_ts: (has_end && ts != PENDING_TS).then_some(ts),
                    pending_dependencies: slot.pending_dependencies.load(SeqCst),
                })
            })
            .collect()
    }

    /// Whether any transaction holds a slot.
    pub fn any_active(&self) -> bool {
        let used = self.high_water.load(SeqCst);
        self.slots[..used]
            .iter()
            .any(|slot| slot.id.load(SeqCst) != 0)
    }

    /// The oldest read timestamp of any active transaction, or `now` if none
    /// is older. Versions that ended before it are invisible to everyone.
    /// The begin timestamp of the oldest transaction holding a slot, if
    /// any transaction does.
    pub fn oldest_begin(&self) -> Option<u64> {
        let used = self.high_water.load(SeqCst);
        self.slots[..used]
            .iter()
            .map(|slot| slot.begin_ts.load(SeqCst))
            .filter(|&begin| begin != NO_TXN)
            .min()
    }

    pub fn oldest_active(&self, clock: &AtomicU64) -> u64 {
        let mut oldest = clock.load(SeqCst);
        let used = self.high_water.load(SeqCst);
        for slot in &self.slots[..used] {
            let begin = slot.begin_ts.load(SeqCst);
            if begin != NO_TXN {
                oldest = oldest.min(begin);
            }
        }
        oldest
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_pack_and_unpack() {
        for state in [
            TxnState::Active,
            TxnState::Preparing,
            TxnState::Committed,
            TxnState::Aborted,
        ] {
            assert_eq!(unpack(pack(state, 12345)), (state, 12345));
        }
    }

    #[test]
    fn ids_change_with_every_use_of_a_slot() {
        let clock = AtomicU64::new(5);
        let table = Arc::new(TxnTable::new(4));
        let a = table.begin(&clock).unwrap();
        assert_eq!(table.lookup(a.id), Some((TxnState::Active, 0)));
        assert_eq!(table.oldest_active(&clock), 5);
        table.release(a.slot);
        assert_eq!(table.lookup(a.id), None);
        let b = table.begin(&clock).unwrap();
        assert_eq!(b.slot, a.slot);
        assert_ne!(b.id, a.id);
        table.release(b.slot);
    }

    #[test]
    fn active_transactions_are_listed_with_their_timestamps() {
        let clock = AtomicU64::new(7);
        let table = Arc::new(TxnTable::new(4));
        let a = table.begin(&clock).unwrap();
        let b = table.begin(&clock).unwrap();
        let end = table.prepare(b.slot, &clock);
        // `a` read `b` speculatively.
        assert!(table.add_dependency(a.slot, a.id, b.id));
        let mut listed = table.active_transactions();
        listed.sort_by_key(|t| t.id);
        let expected = |id, state, end_ts, pending_dependencies| ActiveTransaction {
            id,
            begin_ts: 7,
            state,
            end_ts,
            pending_dependencies,
        };
        let mut wanted = vec![
            expected(a.id, TxnState::Active, None, 1),
            expected(b.id, TxnState::Preparing, Some(end), 0),
        ];
        wanted.sort_by_key(|t| t.id);
        assert_eq!(listed, wanted);
        table.set_state(b.slot, TxnState::Committed, end);
        table.resolve_dependents(b.slot, true);
        assert_eq!(table.pending_dependencies(a.slot), 0);
        table.release(b.slot);
        table.release(a.slot);
        assert!(table.active_transactions().is_empty());
    }

    /// The calling thread's CPU time and context switches so far.
    fn thread_usage() -> (std::time::Duration, i64) {
        let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
        // SAFETY: getrusage fills the struct it is given; RUSAGE_THREAD
        // asks for the calling thread alone.
        let usage = unsafe {
            assert_eq!(libc::getrusage(libc::RUSAGE_THREAD, usage.as_mut_ptr()), 0);
            usage.assume_init()
        };
        let micros = |t: libc::timeval| t.tv_sec as u64 * 1_000_000 + t.tv_usec as u64;
        let cpu = std::time::Duration::from_micros(micros(usage.ru_utime) + micros(usage.ru_stime));
        (cpu, usage.ru_nvcsw + usage.ru_nivcsw)
    }

    /// A transaction whose dependency waits for its log flush sleeps until
    /// the dependency resolves. A waiter that spun would use the CPU for the
    /// whole wait on an idle machine, and give it up thousands of times on
    /// a busy one: both are bounded here.
    #[test]
    fn a_dependent_sleeps_until_its_dependency_ends() {
        let clock = AtomicU64::new(3);
        let table = Arc::new(TxnTable::new(4));
        let dependent = table.begin(&clock).unwrap();
        let dependency = table.begin(&clock).unwrap();
        let end = table.prepare(dependency.slot, &clock);
        assert!(table.add_dependency(dependent.slot, dependent.id, dependency.id));
        let waiter = {
            let table = table.clone();
            std::thread::spawn(move || {
                let (cpu, switches) = thread_usage();
                let started = std::time::Instant::now();
                table.wait_for_dependencies(dependent.slot);
                let (cpu_after, switches_after) = thread_usage();
                (
                    started.elapsed(),
                    cpu_after - cpu,
                    switches_after - switches,
                )
            })
        };
        std::thread::sleep(std::time::Duration::from_millis(200));
        assert!(!waiter.is_finished(), "returned with a dependency pending");
        table.set_state(dependency.slot, TxnState::Committed, end);
        table.resolve_dependents(dependency.slot, true);
        let (waited, cpu, switches) = waiter.join().unwrap();
        assert!(
            waited < std::time::Duration::from_secs(5),
            "woke late: {waited:?}"
        );
        assert!(
            cpu < std::time::Duration::from_millis(50),
            "spun: {cpu:?} of CPU in {waited:?}"
        );
        assert!(
            switches < 100,
            "spun: {switches} context switches in {waited:?}"
        );
        assert!(!table.must_abort(dependent.slot));
        table.release(dependency.slot);
        table.release(dependent.slot);
    }

    #[test]
    fn capacity_is_enforced() {
        let clock = AtomicU64::new(1);
        let table = Arc::new(TxnTable::new(2));
        let a = table.begin(&clock).unwrap();
        let b = table.begin(&clock).unwrap();
        assert_eq!(table.begin(&clock).err().unwrap().number, 41839);
        table.release(a.slot);
        table.release(b.slot);
        assert!(table.begin(&clock).is_ok());
    }

    #[test]
    fn a_thread_returns_its_cached_slot_when_it_exits() {
        let clock = AtomicU64::new(1);
        let table = Arc::new(TxnTable::new(1));
        let worker = {
            let table = table.clone();
            // A plain thread, not a scoped one: joining it waits until its
            // thread-local destructors have run.
            std::thread::spawn(move || {
                let clock = AtomicU64::new(1);
                let only = table.begin(&clock).unwrap();
                table.release(only.slot);
            })
        };
        worker.join().unwrap();
        // The exited thread held the only slot in its cache; it is back.
        let again = table.begin(&clock).unwrap();
        table.release(again.slot);
        // Another table on this thread displaces the cached slot back home.
        let other = Arc::new(TxnTable::new(1));
        let o = other.begin(&clock).unwrap();
        other.release(o.slot);
        assert!(table.begin(&clock).is_ok());
    }

    #[test]
    fn idle_threads_hold_at_most_half_the_slots() {
        let table = Arc::new(TxnTable::new(4));
        let (done, finish) = std::sync::mpsc::channel::<()>();
        let finish = Arc::new(Mutex::new(finish));
        let idle: Vec<_> = (0..3)
            .map(|_| {
                let (table, finish) = (table.clone(), finish.clone());
                let (ready_tx, ready_rx) = std::sync::mpsc::channel();
                let handle = std::thread::spawn(move || {
                    let clock = AtomicU64::new(1);
                    let r = table.begin(&clock).unwrap();
                    table.release(r.slot);
                    ready_tx.send(()).unwrap();
                    // Stay alive, holding whatever the cache kept.
                    let _ = finish.lock().unwrap().recv();
                });
                ready_rx.recv().unwrap();
                handle
            })
            .collect();
        // Three idle threads, but only two may cache: two slots remain.
        let clock = AtomicU64::new(1);
        let a = table.begin(&clock).unwrap();
        let b = table.begin(&clock).unwrap();
        table.release(a.slot);
        table.release(b.slot);
        drop(done);
        for thread in idle {
            thread.join().unwrap();
        }
    }
}
