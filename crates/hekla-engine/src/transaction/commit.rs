//! Commit and abort: validation, commit dependencies, the redo record and
//! post-processing.

use super::*;
use crate::gc::Garbage;
use crate::log::{CommitRecord, RowChange};
use crate::txn_table::TxnState;
use crate::visibility::begin_timestamp;

impl Transaction {
    /// Aborts now (the engine's decision) and returns the error to report.
    pub(super) fn fail(&mut self, reason: AbortReason) -> SqlError {
        self.abort(reason);
        match reason {
            AbortReason::WriteConflict => errors::write_conflict(),
            AbortReason::RepeatableReadValidation => errors::repeatable_read_failure(),
            AbortReason::SerializableValidation => errors::serializable_failure(),
            AbortReason::CommitDependency => errors::dependency_failure(),
            AbortReason::LogFailure | AbortReason::Rollback => errors::transaction_doomed(),
        }
    }

    pub(super) fn abort(&mut self, reason: AbortReason) {
        if !self.is_active() {
            return;
        }
        let shared = self.shared;
        shared.txns.set_state(self.slot, TxnState::Aborted, 0);
        self.rollback_to(Savepoint(0));
        // Another transaction may have read these versions speculatively
        // while this one was preparing, and may hold handles to them until
        // it learns of the abort: collect them only after every transaction
        // active now has ended. Before preparing nobody else could see them.
        let ts = if self.prepared {
            shared.clock.load(Acquire) + 1
        } else {
            0
        };
        shared.gc.retire(ts, self.discarded.drain(..));
        shared.txns.resolve_dependents(self.slot, false);
        shared.txns.wait_for_dependencies(self.slot);
        shared.counters.abort(reason);
        self.status = Status::Aborted;
        // Last: once the slot is free the database may be dropped.
        shared.txns.release(self.slot);
    }

    /// Ends the transaction without committing.
    pub fn rollback(mut self) {
        self.abort(AbortReason::Rollback);
        self.status = Status::Finished;
    }

    /// Commits; returns the commit timestamp (the read timestamp for a
    /// transaction that wrote nothing and has nothing to validate, which
    /// needs none of its own).
    pub fn commit(mut self) -> SqlResult<u64> {
        self.check_active()?;
        let shared = self.shared;
        if self.writes.is_empty()
            && self.reads.is_empty()
            && self.scans.is_empty()
            && self.dependencies.is_empty()
        {
            shared.counters.commit();
            self.status = Status::Finished;
            // Last: once the slot is free the database may be dropped.
            shared.txns.release(self.slot);
            return Ok(self.read_ts);
        }
        let end_ts = shared.txns.prepare(self.slot, &shared.clock);
        self.prepared = true;
        // Each read recorded what its level asked for: SNAPSHOT reads
        // nothing, REPEATABLE READ its rows, SERIALIZABLE rows and scans.
        if !self.reads_still_visible(end_ts) {
            return Err(self.fail(AbortReason::RepeatableReadValidation));
        }
        if self.has_phantoms(end_ts) {
            return Err(self.fail(AbortReason::SerializableValidation));
        }
        shared.txns.wait_for_dependencies(self.slot);
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
        shared.gc.retire(end_ts, self.discarded.drain(..));
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
        shared.counters.commit();
        shared.gc.collect_some(&shared.txns, &shared.clock);
        self.status = Status::Finished;
        // Last: once the slot is free the database may be dropped.
        shared.txns.release(self.slot);
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
            Scan::Range {
                table,
                index,
                range,
            } => ordered::range_has(table, *index, range, phantom),
            Scan::HashKey { table, index, key } => table.indexes[*index]
                .hash()
                .expect("a hash key scan names a hash index")
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
            delayed: self.delayed_durability,
        })
    }
}
