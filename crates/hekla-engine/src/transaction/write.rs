//! Writes: inserts, updates, deletes, first-writer-wins claims, unique
//! checks and statement rollback.

use super::*;
use crate::btree::MAX_KEY_BYTES;
use crate::gc::Garbage;
use crate::table::IndexStructure;
use crate::txn_table::TxnState;
use crate::word::{FREE, INFINITY};

impl Transaction {
    /// Inserts a row; returns its id.
    pub fn insert(&mut self, table: &Arc<Table>, values: &[Value]) -> SqlResult<RowId> {
        self.check_usable()?;
        self.check_table(table)?;
        let mut payload = take_row_buffer();
        let encoded = table
            .layout
            .encode(values, &mut payload)
            .map_err(|(column, e)| table.column_error(column, e, "INSERT"));
        let result = encoded.and_then(|()| self.install(table, &payload, None));
        return_row_buffer(payload);
        result.map(|version| self.row_id(table, version))
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
        result.map(|version| self.row_id(table, version))
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

    /// Deletes every row this transaction sees in `table` (TRUNCATE, and
    /// emptying a table for reuse); how many.
    pub fn delete_all(&mut self, table: &Arc<Table>) -> SqlResult<u64> {
        let mut rows = Vec::new();
        self.scan(table, |row| {
            rows.push(row.id());
            ControlFlow::<()>::Continue(())
        })?;
        for &id in &rows {
            self.delete(table, id)?;
        }
        Ok(rows.len() as u64)
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
        let version = VersionPtr::new(table.heap.allocate(size)?);
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
        let mut range_key = Vec::new();
        for (i, index) in table.indexes.iter().enumerate() {
            let hash = match &index.structure {
                IndexStructure::Hash(hash_index) => {
                    let hash = table.row_key_hash(i, payload);
                    hash_index.insert(version, hash);
                    hash
                }
                IndexStructure::Range(tree) => {
                    tree.row_key(table.stored_key(i, payload), &mut range_key);
                    if let Err(too_long) = tree.insert(&range_key, version) {
                        self.rollback_to(savepoint);
                        return Err(errors::index_key_too_long(
                            too_long.len,
                            &index.name,
                            MAX_KEY_BYTES,
                        ));
                    }
                    0
                }
            };
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
    /// the later to link always sees the earlier. `hash` is the key's hash
    /// for a hash index.
    fn check_unique(
        &mut self,
        table: &Table,
        index: usize,
        version: VersionPtr,
        hash: u64,
        payload: &[u8],
    ) -> SqlResult<()> {
        let mut older = Vec::new();
        match &table.indexes[index].structure {
            IndexStructure::Hash(hash_index) => {
                let mut passed = false;
                hash_index.for_each::<()>(hash, |other| {
                    if passed && table.rows_share_key(index, table.payload(other), payload) {
                        older.push(other);
                    }
                    passed |= other == version;
                    ControlFlow::Continue(())
                });
            }
            // A range index chains exactly the versions with this key.
            IndexStructure::Range(tree) => {
                tree.for_each_older::<()>(version, |other| {
                    older.push(other);
                    ControlFlow::Continue(())
                });
            }
        }
        // A committed holder decides (2627) even when an uncommitted one
        // comes first in the chain: that may be another insert of the key
        // on its way to failing against the same committed row.
        let mut in_flight = false;
        for other in older {
            match self.key_holder(other) {
                KeyHolder::None => {}
                KeyHolder::Uncommitted => in_flight = true,
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
        if in_flight {
            return Err(self.fail(AbortReason::WriteConflict));
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
                // Kept until the transaction ends: a row handle it still
                // holds must not find the slot reused meanwhile.
                self.discarded.push(Garbage {
                    table: write.table,
                    version: new,
                });
            }
        }
    }
}

enum KeyHolder {
    /// The version no longer holds its key (ended, or never born).
    None,
    /// Another transaction that has not committed holds it.
    Uncommitted,
    /// A committed (or this transaction's own) live version holds it.
    Committed,
}

fn take_row_buffer() -> Vec<u8> {
    ROW_BUFFER.try_with(|b| b.take()).unwrap_or_default()
}

fn return_row_buffer(buffer: Vec<u8>) {
    let _ = ROW_BUFFER.try_with(|b| b.set(buffer));
}
