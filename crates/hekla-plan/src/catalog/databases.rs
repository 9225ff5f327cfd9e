//! The databases a hekla server has: the one it serves, [`DATABASE_NAME`],
//! and `master`, which holds `spt_values` only. `USE`, `CREATE DATABASE`
//! and `DROP DATABASE` answer as SQL Server answers for a server holding
//! those two: the current database can be used but neither created again
//! (1801) nor dropped while in use (3702); the system databases cannot be
//! used here (10794) nor dropped (3708); any other name does not exist
//! (911, 3701), and creating a second database is not supported (10794).

use crate::error::{not_supported_yet, Refused};
use crate::names::{DATABASE_NAME, MASTER_NAME};
use crate::result::ResultSink;
use hekla_parser::ast::Ident;
use hekla_types::{SqlError, SqlResult};

/// SQL Server's system databases.
pub const SYSTEM_DATABASES: [&str; 4] = [MASTER_NAME, "tempdb", "model", "msdb"];

/// What a database name names.
#[derive(Debug, PartialEq, Eq)]
pub enum Named {
    /// The database hekla serves.
    Current,
    /// master, tempdb, model or msdb.
    System,
    /// No database hekla has.
    Missing,
}

pub fn named(name: &str) -> Named {
    if name.eq_ignore_ascii_case(DATABASE_NAME) {
        Named::Current
    } else if SYSTEM_DATABASES
        .iter()
        .any(|system| name.eq_ignore_ascii_case(system))
    {
        Named::System
    } else {
        Named::Missing
    }
}

/// A statement creating an object in `database`, which is not the current
/// one: Msg 2702 if it does not exist, 10794 for a system database (hekla
/// does not build their catalogs).
pub fn not_here(database: &str, statement: &str) -> SqlError {
    match named(database) {
        Named::Missing => SqlError::new(
            2702,
            16,
            2,
            format!("Database '{database}' does not exist."),
        ),
        Named::Current | Named::System => not_supported_yet(
            Refused::Statement,
            format!("{statement} in database {database}"),
        ),
    }
}

/// `USE database`: the session's database stays the one hekla serves, so
/// only that name is accepted (reported as SQL Server reports a change).
pub fn use_database(name: &Ident, sink: &mut dyn ResultSink) -> SqlResult<()> {
    match named(&name.value) {
        Named::Current => {
            sink.database_changed(DATABASE_NAME);
            Ok(())
        }
        Named::System => Err(not_supported_yet(
            Refused::Statement,
            format!("USE {}", name.value),
        )),
        Named::Missing => Err(SqlError::new(
            911,
            16,
            1,
            format!(
                "Database '{}' does not exist. Make sure that the name is entered correctly.",
                name.value
            ),
        )),
    }
}
