//! TRUNCATE TABLE: every row of a table that is not memory-optimized goes,
//! and its IDENTITY starts again at the seed.
//!
//! SQL Server deallocates the table's pages; hekla deletes each row in the
//! statement's transaction, so a TRUNCATE inside a user transaction rolls
//! back with it, as SQL Server's does. The IDENTITY restart is part of that
//! transaction too: its durable record goes in the same commit, and the
//! caller puts the in-memory counter back if the transaction rolls back.
//! Other sessions are not kept out meanwhile (SQL Server locks the table):
//! rows they insert take values from the restarted counter.

use crate::context::Context;
use hekla_parser::ast::ObjectName;
use hekla_plan::bind::variables::Variables;
use hekla_plan::catalog::counter::CounterState;
use hekla_plan::catalog::table::TableMeta;
use hekla_plan::names::DATABASE_NAME;
use hekla_plan::plan::context::PlanContext;
use hekla_types::{SqlError, SqlResult};
use std::sync::Arc;

/// The table `name` names, if TRUNCATE TABLE may empty it: Msg 4701 when
/// there is none, 4708 for a view, 10794 for a memory-optimized table
/// (SQL Server has no TRUNCATE for those), 4712 while another table's
/// foreign key references it (its own may).
pub fn target(
    db: &dyn PlanContext,
    variables: &Variables,
    name: &ObjectName,
) -> SqlResult<Arc<TableMeta>> {
    let written = hekla_plan::catalog::sequence::written(name);
    let table = if hekla_plan::catalog::temp::is_temp(name) {
        hekla_plan::plan::context::resolve_table(db, variables, name)
            .map_err(|_| not_found(&written))?
    } else {
        let catalog = db.catalog();
        let in_database = name
            .other_database(DATABASE_NAME)
            .is_none_or(|database| database.value.eq_ignore_ascii_case(DATABASE_NAME));
        let schema = name.schema().map_or("dbo", |s| s.value.as_str());
        let found = catalog
            .schema_id(schema)
            .and_then(|id| catalog.table(id, &name.name().value))
            .filter(|_| in_database)
            .cloned();
        match found {
            Some(table) => table,
            None if hekla_plan::catalog::view::names_view(&catalog, name) => {
                return Err(SqlError::new(
                    4708,
                    16,
                    1,
                    format!("Could not truncate object '{written}' because it is not a table."),
                ))
            }
            None => return Err(not_found(&written)),
        }
    };
    if table.memory_optimized {
        return Err(SqlError::new(
            10794,
            16,
            96,
            "The statement 'TRUNCATE TABLE' is not supported with memory optimized tables.",
        ));
    }
    let referenced = db
        .catalog()
        .referencing_keys(table.object_id)
        .iter()
        .any(|(child, _)| child.object_id != table.object_id);
    if referenced {
        return Err(SqlError::new(
            4712,
            16,
            1,
            format!("Cannot truncate table '{written}' because it is being referenced by a FOREIGN KEY constraint."),
        ));
    }
    Ok(table)
}

/// Deletes every row of `table` in the context's transaction and restarts
/// its IDENTITY; where the counter stood before, to put it back should the
/// transaction roll back.
pub fn run(context: &Context, table: &TableMeta) -> SqlResult<Option<CounterState>> {
    let mut tx = context.transaction()?;
    tx.delete_all(&table.engine)?;
    match &table.identity {
        Some(identity) => Ok(Some(identity.counter.restart(&mut tx, &identity.series())?)),
        None => Ok(None),
    }
}

/// Msg 4701.
fn not_found(written: &str) -> SqlError {
    SqlError::new(
        4701,
        16,
        1,
        format!("Cannot find the object \"{written}\" because it does not exist or you do not have permissions."),
    )
}
