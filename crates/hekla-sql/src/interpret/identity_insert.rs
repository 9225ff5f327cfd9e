//! `SET IDENTITY_INSERT table ON | OFF`, which names the one table of a
//! session whose IDENTITY column INSERT may give values to.

use crate::session::SqlDatabase;
use hekla_parser::ast;
use hekla_plan::bind::variables::Variables;
use hekla_plan::names::DATABASE_NAME;
use hekla_types::{SqlError, SqlResult};

/// `SET IDENTITY_INSERT table ON | OFF`: the table INSERT may now give
/// IDENTITY values to, given the one that could before (`current`). Msg
/// 1088 for a table that does not exist, 8106 for one without IDENTITY,
/// 8107 when another table has it ON already.
pub fn insert_target(
    db: &SqlDatabase,
    variables: &Variables,
    name: &ast::ObjectName,
    on: bool,
    current: Option<i32>,
) -> SqlResult<Option<i32>> {
    let written = name.to_string();
    let table = hekla_plan::plan::context::resolve_table(db, variables, name).map_err(|_| {
        SqlError::new(
            1088,
            16,
            11,
            format!("Cannot find the object \"{written}\" because it does not exist or you do not have permissions."),
        )
    })?;
    if table.identity.is_none() {
        return Err(SqlError::new(
            8106,
            16,
            1,
            format!("Table '{written}' does not have the identity property. Cannot perform SET operation."),
        ));
    }
    match current {
        _ if !on => Ok(current.filter(|&id| id != table.object_id)),
        Some(other) if other != table.object_id => {
            let catalog = db.catalog();
            let other_name = catalog
                .table_by_id(other)
                .map(|t| {
                    let schema = catalog.schema_name(t.schema_id).unwrap_or("dbo");
                    format!("{DATABASE_NAME}.{schema}.{}", t.name)
                })
                .unwrap_or_default();
            Err(SqlError::new(
                8107,
                16,
                1,
                format!("IDENTITY_INSERT is already ON for table '{other_name}'. Cannot perform SET operation for table '{written}'."),
            ))
        }
        _ => Ok(Some(table.object_id)),
    }
}
