//! Commit dependencies before commit. A transaction that read another one
//! speculatively (one validating or logging its commit) may commit only if
//! that one does; as in Hekaton, it must not hand out results either until
//! then, or a client could see rows of a transaction that aborted.
//! [`Transaction::settle_dependencies`] waits for them; a [`Dependencies`]
//! handle does the same while the transaction itself is borrowed (a scan
//! streaming rows to the client holds it).

use super::Transaction;
use crate::database::Shared;
use crate::errors;
use crate::txn_table::TxnTable;
use hekla_types::SqlResult;

/// Which transaction to settle the dependencies of, without borrowing it:
/// see [`crate::Database::settle_dependencies`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dependencies {
    slot: u32,
    id: u64,
    database: u64,
}

impl Transaction {
    /// Returns at once unless this transaction read, speculatively, a
    /// transaction that has not ended yet; then waits, as commit does,
    /// until each has. 41301 if one of them aborted (or had already): this
    /// transaction can no longer commit, and what it read must not be
    /// shown. It stays active, for the caller to roll back.
    ///
    /// Cheap enough to call for every row sent to a client.
    pub fn settle_dependencies(&self) -> SqlResult<()> {
        if self.dependencies.is_empty() {
            return Ok(());
        }
        settle(&self.shared.txns, self.slot)
    }

    /// A handle to settle this transaction's dependencies while it is
    /// borrowed.
    pub fn dependencies(&self) -> Dependencies {
        Dependencies {
            slot: self.slot,
            id: self.id,
            database: self.shared.serial,
        }
    }
}

impl Dependencies {
    /// See [`Database::settle_dependencies`].
    pub(crate) fn settle(self, shared: &Shared) -> SqlResult<()> {
        if self.database != shared.serial {
            return Err(errors::invalid_argument(
                "the transaction belongs to another database".to_string(),
            ));
        }
        let txns = &shared.txns;
        // A slot's counters are reset when it is handed to another
        // transaction: settled means settled whoever holds it now.
        if txns.pending_dependencies(self.slot) == 0 && !txns.must_abort(self.slot) {
            return Ok(());
        }
        if !txns.holds(self.slot, self.id) {
            return Ok(());
        }
        settle(txns, self.slot)
    }
}

fn settle(txns: &TxnTable, slot: u32) -> SqlResult<()> {
    txns.wait_for_dependencies(slot);
    if txns.must_abort(slot) {
        return Err(errors::dependency_failure());
    }
    Ok(())
}
