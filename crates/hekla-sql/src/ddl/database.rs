//! CREATE DATABASE and DROP DATABASE: hekla serves one database, so these
//! only refuse, with SQL Server's messages (see `catalog::databases`).

use hekla_parser::ast;
use hekla_plan::catalog::databases::{named, Named};
use hekla_plan::error::{not_supported_yet, Refused};
use hekla_types::{SqlError, SqlResult};

/// `CREATE DATABASE name ...`: 226 in a transaction, 1801 for a database
/// that exists, 10794 for a new one (hekla serves one database).
pub fn create(create: &ast::CreateDatabase, in_transaction: bool) -> SqlResult<()> {
    if in_transaction {
        return Err(SqlError::new(
            226,
            16,
            5,
            "CREATE DATABASE statement not allowed within multi-statement transaction.",
        ));
    }
    let name = &create.name.value;
    match named(name) {
        Named::Current | Named::System => Err(SqlError::new(
            1801,
            16,
            3,
            format!("Database '{name}' already exists. Choose a different database name."),
        )),
        Named::Missing => Err(not_supported_yet(
            Refused::Statement,
            "CREATE DATABASE of a second database",
        )),
    }
}

/// `DROP DATABASE [IF EXISTS] name, ...`: 574 in a transaction; the
/// current database is in use by this very session (3702), the system
/// databases cannot be dropped (3708), and other names do not exist (3701,
/// nothing with IF EXISTS). The names are checked in order; the first
/// error ends the statement.
pub fn drop(names: &[ast::ObjectName], if_exists: bool, in_transaction: bool) -> SqlResult<()> {
    if in_transaction {
        return Err(SqlError::new(
            574,
            16,
            0,
            "DROP DATABASE statement cannot be used inside a user transaction.",
        ));
    }
    for name in names {
        let name = &name.name().value;
        match named(name) {
            Named::Current => {
                return Err(SqlError::new(
                    3702,
                    16,
                    3,
                    format!("Cannot drop database \"{name}\" because it is currently in use."),
                ))
            }
            Named::System => {
                return Err(SqlError::new(
                    3708,
                    16,
                    4,
                    format!("Cannot drop the database '{name}' because it is a system database."),
                ))
            }
            Named::Missing if if_exists => {}
            Named::Missing => {
                return Err(SqlError::new(
                    3701,
                    11,
                    1,
                    format!("Cannot drop the database '{name}', because it does not exist or you do not have permission."),
                ))
            }
        }
    }
    Ok(())
}
