//! Transactions: optimistic multi-version concurrency control.
//!
//! Reads never block and never take locks. Writes install new versions and
//! claim old ones by writing the transaction's id into their `end` word;
//! whoever claims first wins, a second writer fails at once with 41302.
//! At commit a transaction takes its end timestamp from the shared clock,
//! validates what its reads asked for (the rows read at REPEATABLE READ or
//! SERIALIZABLE are unchanged, 41305; the scans made at SERIALIZABLE find
//! no new row, 41325), waits for the commit dependencies it took by
//! reading speculatively (41301 if one aborted), hands its redo record to
//! the log, and stamps its versions.
//!
//! The isolation level belongs to each read, not to the transaction: SQL
//! Server's table hints read one table at REPEATABLE READ and another at
//! SNAPSHOT in one transaction ([`Transaction::set_read_isolation`]), and
//! commit validates exactly what each read recorded.
//!
//! Reads live here; writes in [`write`], commit and abort in [`commit`],
//! waiting for commit dependencies before commit in [`dependencies`].

mod commit;
mod dependencies;
mod ordered;
mod payloads;
mod write;

pub use dependencies::Dependencies;
pub use ordered::KeyRange;
pub use payloads::{Payloads, SCAN_BATCH_ROWS};

use crate::database::SharedRef;
use crate::errors;
use crate::gc::Garbage;
use crate::stats::AbortReason;
use crate::table::{ProbeKey, Table, TableRef};
use crate::version::{VersionPtr, LINK_MARK};
use crate::visibility::{see, Seen};
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RowId {
    version: VersionPtr,
    table: u32,
    txn: u64,
    database: u64,
}

/// A visible row, borrowed for the duration of a visit.
pub struct Row<'a> {
    table: &'a Table,
    payload: &'a [u8],
    id: RowId,
}

impl std::fmt::Debug for Row<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Row")
            .field("table", &self.table.qualified_name)
            .field("values", &self.values())
            .finish()
    }
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
    Range {
        table: Arc<Table>,
        index: usize,
        range: ordered::EncodedRange,
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
    /// The level the next read is made at.
    read_isolation: IsolationLevel,
    status: Status,
    writes: Vec<Write>,
    /// Versions read at REPEATABLE READ or SERIALIZABLE: they must still
    /// be current at commit.
    reads: Vec<VersionPtr>,
    /// What was scanned at SERIALIZABLE: no new row may appear there.
    scans: Vec<Scan>,
    dependencies: Vec<u64>,
    /// Versions this transaction created and rolled back (statement
    /// rollback), handed to the collector when it ends.
    discarded: Vec<Garbage>,
    /// Whether it has taken an end timestamp (others may read it from then).
    prepared: bool,
    /// `COMMIT WITH (DELAYED_DURABILITY = ON)` was asked for.
    delayed_durability: bool,
}

impl Transaction {
    pub(crate) fn begin(shared: SharedRef, isolation: IsolationLevel) -> SqlResult<Transaction> {
        let registration = shared.txns.begin(&shared.clock)?;
        Ok(Transaction {
            shared,
            slot: registration.slot,
            id: registration.id,
            read_ts: registration.read_ts,
            read_isolation: isolation,
            status: Status::Active,
            writes: WRITE_SET.try_with(|w| w.take()).unwrap_or_default(),
            reads: Vec::new(),
            scans: Vec::new(),
            dependencies: Vec::new(),
            discarded: Vec::new(),
            prepared: false,
            delayed_durability: false,
        })
    }

    pub fn id(&self) -> u64 {
        self.id
    }

    /// Asks for this transaction's commit to be delayed-durable: it returns
    /// before the log reaches the disk. Honoured only when the database's
    /// `DELAYED_DURABILITY` is ALLOWED (FORCED delays every commit anyway).
    pub fn set_delayed_durability(&mut self, delayed: bool) {
        self.delayed_durability = delayed;
    }

    /// The isolation level the next read is made at: the level the
    /// transaction began at, until [`Transaction::set_read_isolation`].
    pub fn isolation(&self) -> IsolationLevel {
        self.read_isolation
    }

    /// Makes the following reads at `level` (a table hint such as `WITH
    /// (REPEATABLEREAD)`). Reads already made keep the level they were
    /// made at: commit validates each as it was recorded.
    ///
    /// ```
    /// use hekla_engine::*;
    /// use hekla_types::{DataType, Value};
    /// use std::ops::ControlFlow;
    ///
    /// let db = Database::default();
    /// let t = db.create_table(TableDef::new(
    ///     "t",
    ///     vec![ColumnDef::new("k", DataType::Int, false)],
    ///     vec![IndexDef::hash("pk", &[0], 8, Uniqueness::PrimaryKey)],
    /// ))?;
    /// let mut tx = db.begin(IsolationLevel::Snapshot)?;
    /// tx.set_read_isolation(IsolationLevel::Serializable);
    /// // A point read of key 1, protected from phantoms until commit.
    /// tx.lookup(&t, 0, &[Value::Int(1)], |_| ControlFlow::<()>::Continue(()))?;
    /// let mut other = db.begin(IsolationLevel::Snapshot)?;
    /// other.insert(&t, &[Value::Int(1)])?;
    /// other.commit()?;
    /// assert_eq!(tx.commit().unwrap_err().number, 41325);
    /// # Ok::<(), hekla_types::SqlError>(())
    /// ```
    pub fn set_read_isolation(&mut self, level: IsolationLevel) {
        self.read_isolation = level;
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

    /// Refuses a table of another database: its rows and memory are not
    /// this database's to read or collect.
    fn check_table(&self, table: &Table) -> SqlResult<()> {
        if table.database != self.shared.serial {
            return Err(errors::invalid_argument(format!(
                "table '{}' belongs to another database",
                table.qualified_name
            )));
        }
        Ok(())
    }

    /// For reads and writes: active, and not doomed by a transaction it
    /// read speculatively having aborted (its commit would fail with 41301).
    fn check_usable(&self) -> SqlResult<()> {
        self.check_active()?;
        if self.shared.txns.must_abort(self.slot) {
            return Err(errors::dependency_failure());
        }
        Ok(())
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

    /// A handle to `version` of `table`, usable by this transaction only.
    fn row_id(&self, table: &Table, version: VersionPtr) -> RowId {
        RowId {
            version,
            table: table.id,
            txn: self.id,
            database: self.shared.serial,
        }
    }

    fn row_of<'t>(&self, table: &'t Table, version: VersionPtr) -> Row<'t> {
        Row {
            table,
            payload: table.payload(version),
            id: self.row_id(table, version),
        }
    }

    fn checked_version(&self, table: &Table, id: RowId) -> SqlResult<VersionPtr> {
        self.check_usable()?;
        self.check_table(table)?;
        if id.txn != self.id || id.table != table.id || id.database != self.shared.serial {
            return Err(errors::invalid_argument(
                "the row handle belongs to another transaction or table".to_string(),
            ));
        }
        // Visible versions are never collected while this transaction is
        // active, so the check also proves the slot still holds the row.
        if !see(&self.shared.txns, id.version, self.read_ts, self.id).visible {
            return Err(errors::invalid_argument(
                "the row was updated, deleted or rolled back by this transaction".to_string(),
            ));
        }
        Ok(id.version)
    }

    /// Reads a row this transaction found earlier.
    /// The row borrows the transaction: a version is only protected from
    /// collection while the transaction that saw it is active.
    pub fn row<'t>(&'t self, table: &'t Table, id: RowId) -> SqlResult<Row<'t>> {
        let version = self.checked_version(table, id)?;
        Ok(self.row_of(table, version))
    }

    /// Visits the visible rows whose key in index `index` equals `key`
    /// (a value for every key column).
    pub fn lookup<B>(
        &mut self,
        table: &Arc<Table>,
        index: usize,
        key: &[Value],
        mut visit: impl FnMut(Row<'_>) -> ControlFlow<B>,
    ) -> SqlResult<Option<B>> {
        self.check_usable()?;
        self.check_table(table)?;
        if table.indexes.get(index).is_some_and(|i| i.is_range()) {
            return self.lookup_range(table, index, key, &mut visit);
        }
        let mut probe = PROBE_KEY.try_with(|p| p.take()).unwrap_or_default();
        let result = self.lookup_probe(table, index, key, &mut probe, &mut visit);
        let _ = PROBE_KEY.try_with(|p| p.set(probe));
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
        if !table.probe_key(index, key, probe)? {
            return Ok(None);
        }
        let watermark = self.shared.gc.watermark();
        let guard = crossbeam_epoch::pin();
        let hash_index = table.indexes[index]
            .hash()
            .expect("lookup sends range indexes elsewhere");
        let result = hash_index.for_each(probe.hash, |version| {
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
        if self.read_isolation == IsolationLevel::Serializable {
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
        self.for_each_visible(table, |tx, version| visit(tx.row_of(table, version)))
    }

    /// Walks the table's heap and shows `visit` every version visible to
    /// this transaction, recorded in the read set as it is shown.
    fn for_each_visible<B>(
        &mut self,
        table: &Arc<Table>,
        mut visit: impl FnMut(&Self, VersionPtr) -> ControlFlow<B>,
    ) -> SqlResult<Option<B>> {
        self.check_usable()?;
        self.check_table(table)?;
        let guard = crossbeam_epoch::pin();
        let result = table.heap.for_each_slot(|slot| {
            let version = VersionPtr::new(slot);
            let begin = version.begin().load(Acquire);
            if begin == FREE {
                return ControlFlow::Continue(());
            }
            // Most versions are settled: decided here, without the
            // dependency bookkeeping of `observe`.
            let end = version.end().load(Acquire);
            let visible = match crate::visibility::settled(begin, end, self.read_ts) {
                Some(seen) => seen.visible,
                None => self.observe(version, self.read_ts).visible,
            };
            if !visible || !same_incarnation(begin, version.begin().load(Acquire)) {
                return ControlFlow::Continue(());
            }
            self.record_read(version);
            visit(self, version)
        });
        drop(guard);
        if self.read_isolation == IsolationLevel::Serializable {
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
        self.record_read(version);
        visit(self.row_of(table, version))
    }

    /// Adds a version about to be shown to the read set, if this read's
    /// isolation level validates it at commit.
    #[inline]
    fn record_read(&mut self, version: VersionPtr) {
        // Versions this transaction created need no validation: nobody else
        // can see them, let alone change them.
        if self.read_isolation != IsolationLevel::Snapshot
            && version.begin().load(Acquire) != Word::txn(self.id)
        {
            self.reads.push(version);
        }
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

/// Whether a slot whose begin word read `first` and then `now` still holds
/// the same version: the word only changes from the creator's id to its
/// commit timestamp. Anything else means the slot was freed and reused.
fn same_incarnation(first: u64, now: u64) -> bool {
    first == now || (first & TXN_FLAG != 0 && now & TXN_FLAG == 0 && now != FREE && now != INFINITY)
}

impl Drop for Transaction {
    fn drop(&mut self) {
        self.abort(AbortReason::Rollback);
        // Hand the (now empty) write set's memory to the thread's next
        // transaction, unless a large one would keep it for nothing.
        if self.writes.capacity() <= 1024 {
            let writes = std::mem::take(&mut self.writes);
            let _ = WRITE_SET.try_with(|w| w.set(writes));
        }
    }
}
