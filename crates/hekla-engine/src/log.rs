//! The durability hook: what the commit path hands to a redo log.
//!
//! One record per committing read-write transaction, holding only row images
//! (inserted rows, and deleted rows with the timestamp they were born at) —
//! never index changes and never undo. SCHEMA_ONLY tables are left out.

use crate::table::Table;
use hekla_types::SqlResult;

/// One row-level change of a committing transaction. An update appears as
/// a delete of the old version and an insert of the new one.
pub enum RowChange<'a> {
    Insert {
        table: &'a Table,
        row: &'a [u8],
    },
    Delete {
        table: &'a Table,
        row: &'a [u8],
        /// Commit timestamp of the transaction that created the deleted row.
        begin_ts: u64,
    },
}

pub struct CommitRecord<'a> {
    pub commit_ts: u64,
    pub changes: &'a [RowChange<'a>],
    /// The transaction asked for a delayed-durable commit.
    pub delayed: bool,
}

/// A redo log. `append` runs after validation and before the transaction's
/// writes become visible as committed; it returns once the record is as
/// durable as the transaction asked (or fails, which aborts the transaction).
pub trait CommitLog: Send + Sync {
    fn append(&self, record: &CommitRecord<'_>) -> SqlResult<()>;
}
