//! Transactions: optimistic multi-version concurrency control.
//!
//! Reads never block and never take locks. Writes install new versions and
//! claim old ones by writing the transaction's id into their `end` word;
//! whoever claims first wins, a second writer fails at once with 41302.
//! At commit a transaction takes its end timestamp from the shared clock,
//! validates what its isolation level requires (REPEATABLE READ: the read
//! set, 41305; SERIALIZABLE: also the scan set, 41325), waits for the commit
//! dependencies it took by reading speculatively (41301 if one aborted),
//! hands its redo record to the log, and stamps its versions.

use crate::database::SharedRef;
use crate::errors;
use crate::gc::Garbage;
use crate::log::{CommitRecord, RowChange};
use crate::stats::AbortReason;
use crate::table::{ProbeKey, Table, TableRef};
use crate::txn_table::TxnState;
use crate::version::{VersionPtr, LINK_MARK};
use crate::visibility::{begin_timestamp, see, Seen};
use crate::word::{Word, FREE, INFINITY, TXN_FLAG};
use hekla_types::{SqlError, SqlResult, Value};
use std::ops::ControlFlow;
use std::sync::atomic::Ordering::{AcqRel, Acquire, Release};
use std::sync::Arc;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IsolationLevel {
    Snapshot,
    RepeatableRead,
    Serializable,
}

/// A row version this transaction can see, usable for reads, updates and
/// deletes until the transaction ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RowId {
    version: VersionPtr,
    table: u32,
    txn: u64,
}

/// A visible row, borrowed for the duration of a visit.
pub struct Row<'a> {
    table: &'a Table,
    payload: &'a [u8],
    id: RowId,
}

impl<'a> Row<'a> {
    pub fn id(&self) -> RowId {
        self.id
    }

    pub fn value(&self, column: usize) -> Value {
        self.table.layout.value(self.payload, column)
    }

    pub fn values(&self) -> Vec<Value> {
        self.table.decode_row(self.payload)
    }

    /// A column's stored bytes (None for NULL), without decoding.
    pub fn stored(&self, column: usize) -> Option<&'a [u8]> {
        self.table.layout.column(self.payload, column)
    }

    /// The whole stored row.
    pub fn payload(&self) -> &'a [u8] {
        self.payload
    }
}

/// The write set: one entry per insert, update (both) or delete (old only).
pub(crate) struct Write {
    pub table: TableRef,
    pub old: Option<VersionPtr>,
    pub new: Option<VersionPtr>,
}

/// What a SERIALIZABLE transaction scanned, re-checked at commit for phantoms.
enum Scan {
    Table(Arc<Table>),
    HashKey {
        table: Arc<Table>,
        index: usize,
        key: ProbeKey,
    },
}

/// A point in the write set to roll back to (statement atomicity).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Savepoint(usize);

enum Status {
    Active,
    /// Aborted by the engine (41302 and the like); only rollback remains.
    Aborted,
    Finished,
}

pub struct Transaction {
    shared: SharedRef,
    slot: u32,
    id: u64,
    read_ts: u64,
    isolation: IsolationLevel,
    status: Status,
    writes: Vec<Write>,
    reads: Vec<VersionPtr>,
    scans: Vec<Scan>,
    dependencies: Vec<u64>,
}

impl Transaction {
    pub(crate) fn begin(shared: SharedRef, isolation: IsolationLevel) -> SqlResult<Transaction> {
        let registration = shared.txns.begin(&shared.clock)?;
        Ok(Transaction {
            shared,
            slot: registration.slot,
            id: registration.id,
            read_ts: registration.read_ts,
            isolation,
            status: Status::Active,
            writes: WRITE_SET.with(|w| w.take()),
            reads: Vec::new(),
            scans: Vec::new(),
            dependencies: Vec::new(),
        })
    }

    pub fn id(&self) -> u64 {
        self.id
    }

    pub fn isolation(&self) -> IsolationLevel {
        self.isolation
    }

    /// The timestamp this transaction reads as of.
    pub fn read_timestamp(&self) -> u64 {
        self.read_ts
    }

    pub fn is_active(&self) -> bool {
        matches!(self.status, Status::Active)
    }

    fn check_active(&self) -> SqlResult<()> {
        match self.status {
            Status::Active => Ok(()),
            _ => Err(errors::transaction_doomed()),
        }
    }

    /// Checks visibility and takes any commit dependency it implies.
    fn observe(&mut self, version: VersionPtr, at: u64) -> Seen {
        loop {
            let seen = see(&self.shared.txns, version, at, self.id);
            let mut registered_all = true;
            for on in seen.depends_on.into_iter().flatten() {
                // If it finished meanwhile, its outcome is final: look again.
                registered_all &= self.depend_on(on);
            }
            if registered_all {
                return seen;
            }
        }
    }

    /// Takes a commit dependency on `on` (once). False if `on` has already
    /// finished, in which case its outcome is final and needs no dependency.
    fn depend_on(&mut self, on: u64) -> bool {
        if self.dependencies.contains(&on) {
            return true;
        }
        let registered = self.shared.txns.add_dependency(self.slot, self.id, on);
        if registered {
            self.dependencies.push(on);
        }
        registered
    }

    fn row_of<'t>(&self, table: &'t Table, version: VersionPtr) -> Row<'t> {
        Row {
            table,
            payload: table.payload(version),
            id: RowId {
                version,
                table: table.id,
                txn: self.id,
            },
        }
    }

    fn checked_version(&self, table: &Table, id: RowId) -> SqlResult<VersionPtr> {
        self.check_active()?;
        if id.txn != self.id || id.table != table.id {
            return Err(errors::invalid_argument(
                "the row handle belongs to another transaction or table".to_string(),
            ));
        }
        if id.version.end().load(Acquire) == Word::txn(self.id) {
            return Err(errors::invalid_argument(
                "the row was already updated or deleted by this transaction".to_string(),
            ));
        }
        Ok(id.version)
    }

    /// Reads a row this transaction found earlier.
    pub fn row<'t>(&self, table: &'t Table, id: RowId) -> SqlResult<Row<'t>> {
        let version = self.checked_version(table, id)?;
        Ok(self.row_of(table, version))
    }

    /// Visits the visible rows whose key in hash index `index` equals `key`.
    pub fn lookup<B>(
        &mut self,
        table: &Arc<Table>,
        index: usize,
        key: &[Value],
        mut visit: impl FnMut(Row<'_>) -> ControlFlow<B>,
    ) -> SqlResult<Option<B>> {
        self.check_active()?;
        let mut probe = PROBE_KEY.with(|p| p.take());
        let result = self.lookup_probe(table, index, key, &mut probe, &mut visit);
        PROBE_KEY.with(|p| p.set(probe));
        result
    }

    fn lookup_probe<B>(
        &mut self,
        table: &Arc<Table>,
        index: usize,
        key: &[Value],
        probe: &mut ProbeKey,
        visit: &mut impl FnMut(Row<'_>) -> ControlFlow<B>,
    ) -> SqlResult<Option<B>> {
        table.probe_key(index, key, probe)?;
        let watermark = self.shared.gc.watermark();
        let guard = crossbeam_epoch::pin();
        let result = table.indexes[index].hash.for_each(probe.hash, |version| {
            let seen = self.observe(version, self.read_ts);
            if !seen.visible {
                if seen.end_ts.is_some_and(|end| end <= watermark) {
                    // Garbage: mark it so that the next traversal unlinks it.
                    version.link(index).fetch_or(LINK_MARK, AcqRel);
                }
                return ControlFlow::Continue(());
            }
            if !table.row_matches(index, table.payload(version), probe) {
                return ControlFlow::Continue(());
            }
            self.visit_visible(table, version, visit)
        });
        drop(guard);
        if self.isolation == IsolationLevel::Serializable {
            self.scans.push(Scan::HashKey {
                table: table.clone(),
                index,
                key: probe.clone(),
            });
        }
        Ok(result)
    }

    /// The first visible row with `key` in index `index` (unique indexes).
    pub fn get(
        &mut self,
        table: &Arc<Table>,
        index: usize,
        key: &[Value],
    ) -> SqlResult<Option<RowId>> {
        self.lookup(table, index, key, |row| ControlFlow::Break(row.id()))
    }

    /// Visits every visible row of the table, without any index.
    pub fn scan<B>(
        &mut self,
        table: &Arc<Table>,
        mut visit: impl FnMut(Row<'_>) -> ControlFlow<B>,
    ) -> SqlResult<Option<B>> {
        self.check_active()?;
        let guard = crossbeam_epoch::pin();
        let result = table.heap.for_each_slot(|slot| {
            let version = VersionPtr::new(slot);
            let begin = version.begin().load(Acquire);
            if begin == FREE {
                return ControlFlow::Continue(());
            }
            let seen = self.observe(version, self.read_ts);
            if !seen.visible || !same_incarnation(begin, version.begin().load(Acquire)) {
                return ControlFlow::Continue(());
            }
            self.visit_visible(table, version, &mut visit)
        });
        drop(guard);
        if self.isolation == IsolationLevel::Serializable {
            self.scans.push(Scan::Table(table.clone()));
        }
        Ok(result)
    }

    /// Records a visible version in the read set and shows it to `visit`.
    fn visit_visible<B>(
        &mut self,
        table: &Table,
        version: VersionPtr,
        visit: &mut impl FnMut(Row<'_>) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        // Versions this transaction created need no validation: nobody else
        // can see them, let alone change them.
        if self.isolation != IsolationLevel::Snapshot
            && version.begin().load(Acquire) != Word::txn(self.id)
        {
            self.reads.push(version);
        }
        visit(self.row_of(table, version))
    }

    /// Inserts a row; returns its id.
    pub fn insert(&mut self, table: &Arc<Table>, values: &[Value]) -> SqlResult<RowId> {
        self.check_active()?;
        let mut payload = take_row_buffer();
        let encoded = table
            .layout
            .encode(values, &mut payload)
            .map_err(|(column, e)| table.column_error(column, e, "INSERT"));
        let result = encoded.and_then(|()| self.install(table, &payload, None));
        return_row_buffer(payload);
        result.map(|version| RowId {
            version,
            table: table.id,
            txn: self.id,
        })
    }

    /// Replaces some columns of a row; returns the new version's id.
    pub fn update(
        &mut self,
        table: &Arc<Table>,
        id: RowId,
        changes: &[(usize, Value)],
    ) -> SqlResult<RowId> {
        let old = self.checked_version(table, id)?;
        let mut payload = take_row_buffer();
        let encoded = table
            .layout
            .patch(table.payload(old), changes, &mut payload)
            .map_err(|(column, e)| table.column_error(column, e, "UPDATE"));
        let result = encoded.and_then(|()| {
            self.claim(old)?;
            self.install(table, &payload, Some(old))
        });
        return_row_buffer(payload);
        result.map(|version| RowId {
            version,
            table: table.id,
            txn: self.id,
        })
    }

    /// Deletes a row.
    pub fn delete(&mut self, table: &Arc<Table>, id: RowId) -> SqlResult<()> {
        let old = self.checked_version(table, id)?;
        self.claim(old)?;
        self.writes.push(Write {
            table: TableRef::new(table),
            old: Some(old),
            new: None,
        });
        Ok(())
    }

    /// Writes this transaction's id into `old`'s end word: first writer wins.
    fn claim(&mut self, old: VersionPtr) -> SqlResult<()> {
        let mine = Word::txn(self.id);
        let mut expected = INFINITY;
        loop {
            match old.end().compare_exchange(expected, mine, AcqRel, Acquire) {
                Ok(_) => return Ok(()),
                Err(current) => match Word::decode(current) {
                    Word::Txn(other) => match self.shared.txns.lookup(other) {
                        // An aborted writer's claim is void.
                        Some((TxnState::Aborted, _)) => expected = current,
                        // It finished and restamped the word: read it again.
                        None => expected = INFINITY,
                        Some(_) => return Err(self.fail(AbortReason::WriteConflict)),
                    },
                    Word::Timestamp(_) => return Err(self.fail(AbortReason::WriteConflict)),
                },
            }
        }
    }

    /// Allocates, fills and publishes a version, links it into every index
    /// and checks unique indexes. On a duplicate the version is rolled back.
    fn install(
        &mut self,
        table: &Arc<Table>,
        payload: &[u8],
        replaces: Option<VersionPtr>,
    ) -> SqlResult<VersionPtr> {
        let savepoint = self.savepoint();
        let size = table.version_size(payload.len());
        let version = VersionPtr::new(table.heap.allocate(size));
        // SAFETY: the slot is ours alone (fresh from the heap), `size` bytes
        // long, and the payload goes after the header the table reserves.
        unsafe {
            std::ptr::copy_nonoverlapping(
                payload.as_ptr(),
                version.payload_ptr(table.index_count()) as *mut u8,
                payload.len(),
            );
        }
        version.end().store(INFINITY, Release);
        version.begin().store(Word::txn(self.id), Release);
        self.writes.push(Write {
            table: TableRef::new(table),
            old: replaces,
            new: Some(version),
        });
        let _guard = crossbeam_epoch::pin();
        for (i, index) in table.indexes.iter().enumerate() {
            let hash = table.row_key_hash(i, payload);
            index.hash.insert(version, hash);
            if index.uniqueness.is_unique() {
                if let Err(error) = self.check_unique(table, i, version, hash, payload) {
                    if error.number != 41302 {
                        self.rollback_to(savepoint);
                    }
                    return Err(error);
                }
            }
        }
        Ok(version)
    }

    /// After linking `version` into unique index `index`, looks at the
    /// versions linked before it: of two concurrent inserters of one key,
    /// the later to link always sees the earlier.
    fn check_unique(
        &mut self,
        table: &Table,
        index: usize,
        version: VersionPtr,
        hash: u64,
        payload: &[u8],
    ) -> SqlResult<()> {
        let mut older = Vec::new();
        let mut passed = false;
        table.indexes[index].hash.for_each::<()>(hash, |other| {
            if passed {
                older.push(other);
            }
            passed |= other == version;
            ControlFlow::Continue(())
        });
        for other in older {
            if !table.rows_share_key(index, table.payload(other), payload) {
                continue;
            }
            match self.key_holder(other) {
                KeyHolder::None => {}
                KeyHolder::Uncommitted => return Err(self.fail(AbortReason::WriteConflict)),
                KeyHolder::Committed => {
                    let def = &table.indexes[index];
                    let constraint = match def.uniqueness {
                        crate::catalog::Uniqueness::PrimaryKey => Some("PRIMARY KEY"),
                        crate::catalog::Uniqueness::UniqueConstraint => Some("UNIQUE KEY"),
                        _ => None,
                    };
                    return Err(errors::duplicate_key(
                        constraint,
                        &def.name,
                        &table.qualified_name,
                        &table.key_text(index, payload),
                    ));
                }
            }
        }
        Ok(())
    }

    /// Whether `version` holds its key against a new insert. A version
    /// whose deleter is already preparing is taken as gone, with a commit
    /// dependency on that deleter.
    fn key_holder(&mut self, version: VersionPtr) -> KeyHolder {
        loop {
            match Word::decode(version.end().load(Acquire)) {
                Word::Txn(deleter) if deleter == self.id => return KeyHolder::None,
                Word::Timestamp(end) if end != INFINITY => return KeyHolder::None,
                Word::Txn(deleter) => match self.shared.txns.lookup(deleter) {
                    None => continue,
                    Some((TxnState::Committed, _)) => return KeyHolder::None,
                    Some((TxnState::Preparing, _)) => {
                        if self.depend_on(deleter) {
                            return KeyHolder::None;
                        }
                        continue;
                    }
                    Some((TxnState::Active, _)) => return KeyHolder::Uncommitted,
                    Some((TxnState::Aborted, _)) => {}
                },
                Word::Timestamp(_) => {}
            }
            return match Word::decode(version.begin().load(Acquire)) {
                Word::Timestamp(FREE) => KeyHolder::None,
                Word::Timestamp(INFINITY) => KeyHolder::None,
                Word::Timestamp(_) => KeyHolder::Committed,
                Word::Txn(creator) if creator == self.id => KeyHolder::Committed,
                Word::Txn(creator) => match self.shared.txns.lookup(creator) {
                    None => continue,
                    Some((TxnState::Committed, _)) => KeyHolder::Committed,
                    Some((TxnState::Aborted, _)) => KeyHolder::None,
                    Some(_) => KeyHolder::Uncommitted,
                },
            };
        }
    }

    pub fn savepoint(&self) -> Savepoint {
        Savepoint(self.writes.len())
    }

    /// Undoes every write made after `savepoint` (statement rollback).
    pub fn rollback_to(&mut self, savepoint: Savepoint) {
        if self.writes.len() <= savepoint.0 {
            return;
        }
        let mut garbage = Vec::new();
        while self.writes.len() > savepoint.0 {
            let write = self.writes.pop().expect("len > savepoint");
            if let Some(old) = write.old {
                // Only if the claim is still ours: once this transaction is
                // marked aborted, another writer may take the version over.
                let _ = old
                    .end()
                    .compare_exchange(Word::txn(self.id), INFINITY, AcqRel, Acquire);
            }
            if let Some(new) = write.new {
                // Never visible to anyone: begin after every read time.
                new.end().store(0, Release);
                new.begin().store(INFINITY, Release);
                garbage.push(Garbage {
                    table: write.table,
                    version: new,
                });
            }
        }
        self.shared.gc.retire(0, garbage);
    }

    /// Aborts now (the engine's decision) and returns the error to report.
    fn fail(&mut self, reason: AbortReason) -> SqlError {
        self.abort(reason);
        match reason {
            AbortReason::WriteConflict => errors::write_conflict(),
            AbortReason::RepeatableReadValidation => errors::repeatable_read_failure(),
            AbortReason::SerializableValidation => errors::serializable_failure(),
            AbortReason::CommitDependency => errors::dependency_failure(),
            AbortReason::LogFailure | AbortReason::Rollback => errors::transaction_doomed(),
        }
    }

    fn abort(&mut self, reason: AbortReason) {
        if !self.is_active() {
            return;
        }
        let shared = self.shared;
        shared.txns.set_state(self.slot, TxnState::Aborted, 0);
        self.rollback_to(Savepoint(0));
        shared.txns.resolve_dependents(self.slot, false);
        self.wait_for_dependencies();
        shared.txns.release(self.slot);
        shared.counters.abort(reason);
        self.status = Status::Aborted;
    }

    /// Waits until every transaction this one read speculatively has ended.
    /// They are past validation already, so the wait is short.
    fn wait_for_dependencies(&self) {
        let mut spins = 0u32;
        while self.shared.txns.pending_dependencies(self.slot) > 0 {
            spins += 1;
            if spins < 64 {
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
    }

    /// Ends the transaction without committing.
    pub fn rollback(mut self) {
        self.abort(AbortReason::Rollback);
        self.status = Status::Finished;
    }

    /// Commits; returns the commit timestamp (the read timestamp for a
    /// read-only SNAPSHOT transaction, which needs none of its own).
    pub fn commit(mut self) -> SqlResult<u64> {
        self.check_active()?;
        let shared = self.shared;
        if self.writes.is_empty()
            && self.isolation == IsolationLevel::Snapshot
            && self.dependencies.is_empty()
        {
            shared.txns.release(self.slot);
            shared.counters.commit();
            self.status = Status::Finished;
            return Ok(self.read_ts);
        }
        let end_ts = shared.txns.prepare(self.slot, &shared.clock);
        if self.isolation != IsolationLevel::Snapshot && !self.reads_still_visible(end_ts) {
            return Err(self.fail(AbortReason::RepeatableReadValidation));
        }
        if self.isolation == IsolationLevel::Serializable && self.has_phantoms(end_ts) {
            return Err(self.fail(AbortReason::SerializableValidation));
        }
        self.wait_for_dependencies();
        if shared.txns.must_abort(self.slot) {
            return Err(self.fail(AbortReason::CommitDependency));
        }
        if let Err(error) = self.log(end_ts) {
            self.fail(AbortReason::LogFailure);
            return Err(error);
        }
        shared
            .txns
            .set_state(self.slot, TxnState::Committed, end_ts);
        shared.gc.retire(
            end_ts,
            self.writes.drain(..).filter_map(|write| {
                if let Some(new) = write.new {
                    new.begin().store(end_ts, Release);
                }
                let old = write.old?;
                old.end().store(end_ts, Release);
                Some(Garbage {
                    table: write.table,
                    version: old,
                })
            }),
        );
        shared.txns.resolve_dependents(self.slot, true);
        shared.txns.release(self.slot);
        shared.counters.commit();
        self.status = Status::Finished;
        shared.gc.collect_some(&shared.txns, &shared.clock);
        Ok(end_ts)
    }

    fn reads_still_visible(&self, end_ts: u64) -> bool {
        // A version this transaction ended itself cannot have been changed
        // by anyone else: its end word has held our id since.
        let mine = Word::txn(self.id);
        self.reads.iter().all(|&v| {
            v.end().load(Acquire) == mine || see(&self.shared.txns, v, end_ts, self.id).visible
        })
    }

    /// Whether a scan, repeated as of `end_ts`, finds a version it did not
    /// find as of the read timestamp.
    fn has_phantoms(&self, end_ts: u64) -> bool {
        let txns = &self.shared.txns;
        let phantom = |v: VersionPtr| {
            see(txns, v, end_ts, self.id).visible && !see(txns, v, self.read_ts, self.id).visible
        };
        let _guard = crossbeam_epoch::pin();
        self.scans.iter().any(|scan| match scan {
            Scan::Table(table) => table
                .heap
                .for_each_slot(|slot| {
                    let v = VersionPtr::new(slot);
                    if v.begin().load(Acquire) != FREE && phantom(v) {
                        ControlFlow::Break(())
                    } else {
                        ControlFlow::Continue(())
                    }
                })
                .is_some(),
            Scan::HashKey { table, index, key } => table.indexes[*index]
                .hash
                .for_each(key.hash, |v| {
                    if phantom(v) && table.row_matches(*index, table.payload(v), key) {
                        ControlFlow::Break(())
                    } else {
                        ControlFlow::Continue(())
                    }
                })
                .is_some(),
        })
    }

    fn log(&self, end_ts: u64) -> SqlResult<()> {
        let Some(log) = self.shared.commit_log.get() else {
            return Ok(());
        };
        let txns = &self.shared.txns;
        let mine = Word::txn(self.id);
        let mut changes = Vec::with_capacity(self.writes.len() * 2);
        for write in &self.writes {
            if write.table.def.durability != crate::catalog::Durability::SchemaAndData {
                continue;
            }
            // A version this transaction both created and ended never
            // existed for anyone else: neither side is logged.
            if let Some(old) = write.old {
                if old.begin().load(Acquire) != mine {
                    changes.push(RowChange::Delete {
                        table: &write.table,
                        row: write.table.payload(old),
                        begin_ts: begin_timestamp(txns, old),
                    });
                }
            }
            if let Some(new) = write.new {
                if new.end().load(Acquire) != mine {
                    changes.push(RowChange::Insert {
                        table: &write.table,
                        row: write.table.payload(new),
                    });
                }
            }
        }
        if changes.is_empty() {
            return Ok(());
        }
        log.append(&CommitRecord {
            commit_ts: end_ts,
            changes: &changes,
        })
    }
}

thread_local! {
    /// The write set of this thread's last transaction, reused by the next.
    static WRITE_SET: std::cell::Cell<Vec<Write>> = const { std::cell::Cell::new(Vec::new()) };
    /// Lookup keys are encoded here, so a point read allocates nothing.
    static PROBE_KEY: std::cell::Cell<ProbeKey> = std::cell::Cell::new(ProbeKey::default());
    /// A buffer to encode rows into, kept per thread so that a short
    /// transaction does not grow a fresh one for every row it writes.
    static ROW_BUFFER: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
}

fn take_row_buffer() -> Vec<u8> {
    ROW_BUFFER.with(|b| b.take())
}

fn return_row_buffer(buffer: Vec<u8>) {
    ROW_BUFFER.with(|b| b.set(buffer));
}

/// Whether a slot whose begin word read `first` and then `now` still holds
/// the same version: the word only changes from the creator's id to its
/// commit timestamp. Anything else means the slot was freed and reused.
fn same_incarnation(first: u64, now: u64) -> bool {
    first == now || (first & TXN_FLAG != 0 && now & TXN_FLAG == 0 && now != FREE && now != INFINITY)
}

enum KeyHolder {
    /// The version no longer holds its key (ended, or never born).
    None,
    /// Another transaction that has not committed holds it.
    Uncommitted,
    /// A committed (or this transaction's own) live version holds it.
    Committed,
}

impl Drop for Transaction {
    fn drop(&mut self) {
        self.abort(AbortReason::Rollback);
        // Hand the (now empty) write set's memory to the thread's next
        // transaction, unless a large one would keep it for nothing.
        if self.writes.capacity() <= 1024 {
            let writes = std::mem::take(&mut self.writes);
            WRITE_SET.with(|w| w.set(writes));
        }
    }
}
