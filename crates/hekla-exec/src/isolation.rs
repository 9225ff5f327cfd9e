//! The isolation level of each table read, by SQL Server's rules for
//! memory-optimized tables in interpreted T-SQL:
//!
//! - under READ COMMITTED (or READ UNCOMMITTED) a memory-optimized table
//!   is read at SNAPSHOT in an autocommit statement; in an explicit
//!   transaction it needs an isolation hint (`WITH (SNAPSHOT)`), or the
//!   database option MEMORY_OPTIMIZED_ELEVATE_TO_SNAPSHOT, else Msg 41368;
//! - under REPEATABLE READ or SERIALIZABLE it must be read at SNAPSHOT,
//!   asked for by a hint, else Msg 41333;
//! - under SNAPSHOT it cannot be accessed at all (Msg 41332).
//!
//! A natively compiled procedure's atomic block reads every table at the
//! block's own level. Other tables (`#temp` tables, table variables, tables
//! made without `MEMORY_OPTIMIZED = ON`) are SQL Server's disk-based
//! tables: read at the hint's level, else the session's (hekla reads READ
//! COMMITTED as SNAPSHOT: it has only committed versions to read).

use hekla_engine::IsolationLevel;
use hekla_parser::ast;
use hekla_plan::catalog::table::TableMeta;
use hekla_types::{SqlError, SqlResult};

/// What decides how a statement's table reads are isolated.
#[derive(Clone, Copy, Debug)]
pub struct ReadIsolation {
    /// `SET TRANSACTION ISOLATION LEVEL`, or an atomic block's level.
    pub session: ast::IsolationLevel,
    /// Inside a natively compiled procedure's atomic block.
    pub atomic_block: bool,
    /// The statement runs in an explicit transaction (`BEGIN TRAN`).
    pub explicit: bool,
    /// The database option MEMORY_OPTIMIZED_ELEVATE_TO_SNAPSHOT.
    pub elevate_to_snapshot: bool,
}

/// An autocommit statement at READ COMMITTED, SQL Server's default.
impl Default for ReadIsolation {
    fn default() -> Self {
        ReadIsolation {
            session: ast::IsolationLevel::ReadCommitted,
            atomic_block: false,
            explicit: false,
            elevate_to_snapshot: false,
        }
    }
}

impl ReadIsolation {
    /// The level reads without a table of their own are made at (the
    /// lookups constraints make), and a transaction begins at.
    pub fn default_level(&self) -> IsolationLevel {
        engine_level(self.session)
    }

    /// The level to read `table` at, its reference's table hint asking
    /// for `hint`; SQL Server's error when the read is not allowed.
    pub fn read_level(
        &self,
        table: &TableMeta,
        hint: Option<ast::IsolationLevel>,
    ) -> SqlResult<IsolationLevel> {
        use ast::IsolationLevel::*;
        if !table.memory_optimized || self.atomic_block {
            return Ok(engine_level(hint.unwrap_or(self.session)));
        }
        self.check_access(table)?;
        match (self.session, hint) {
            (RepeatableRead | Serializable, Some(Snapshot)) => Ok(IsolationLevel::Snapshot),
            (RepeatableRead | Serializable, _) => Err(snapshot_required()),
            (_, Some(level)) => Ok(engine_level(level)),
            (_, None) if self.explicit && !self.elevate_to_snapshot => {
                Err(read_committed_in_transaction())
            }
            (_, None) => Ok(IsolationLevel::Snapshot),
        }
    }

    /// Whether `table` may be accessed at all (written, say): not a
    /// memory-optimized table under the session level SNAPSHOT (41332).
    pub fn check_access(&self, table: &TableMeta) -> SqlResult<()> {
        if table.memory_optimized
            && !self.atomic_block
            && self.session == ast::IsolationLevel::Snapshot
        {
            return Err(snapshot_session());
        }
        Ok(())
    }
}

/// The engine level a SQL level reads at: READ COMMITTED and READ
/// UNCOMMITTED read committed versions as of the transaction's snapshot.
pub fn engine_level(level: ast::IsolationLevel) -> IsolationLevel {
    match level {
        ast::IsolationLevel::RepeatableRead => IsolationLevel::RepeatableRead,
        ast::IsolationLevel::Serializable => IsolationLevel::Serializable,
        ast::IsolationLevel::ReadUncommitted
        | ast::IsolationLevel::ReadCommitted
        | ast::IsolationLevel::Snapshot => IsolationLevel::Snapshot,
    }
}

fn read_committed_in_transaction() -> SqlError {
    SqlError::new(
        41368,
        16,
        0,
        "Accessing memory optimized tables using the READ COMMITTED isolation level is supported only for autocommit transactions. It is not supported for explicit or implicit transactions. Provide a supported isolation level for the memory optimized table using a table hint, such as WITH (SNAPSHOT).",
    )
}

fn snapshot_required() -> SqlError {
    SqlError::new(
        41333,
        16,
        1,
        "The following transactions must access memory optimized tables and natively compiled stored procedures under snapshot isolation: RepeatableRead transactions, Serializable transactions, and transactions that access tables that are not memory optimized in RepeatableRead or Serializable isolation.",
    )
}

fn snapshot_session() -> SqlError {
    SqlError::new(
        41332,
        16,
        0,
        "Memory optimized tables and natively compiled stored procedures cannot be accessed or created when the session TRANSACTION ISOLATION LEVEL is set to SNAPSHOT.",
    )
}
