//! CREATE TABLE and DROP TABLE of `#temp` and `##global` tables. Their
//! model, lookup and lifetime are `catalog::temp`'s.

use crate::catalog::table::TableMeta;
use crate::catalog::temp::{is_global, make_table, release, strip_foreign_keys, MAX_NAME};
use crate::error::{not_supported_yet, Refused};
use crate::session::SqlDatabase;
use hekla_parser::ast::{self};
use hekla_types::{SqlError, SqlResult};
use std::sync::Arc;

/// `CREATE TABLE #t (...)` (or `##t`) for session `spid`; SELECT INTO
/// makes its temporary tables here too. Returns the table and the
/// informational messages SQL Server prints (FOREIGN KEY constraints are
/// skipped on temporary tables).
pub fn create(
    db: &SqlDatabase,
    spid: i16,
    create: &ast::CreateTable,
) -> SqlResult<(Arc<TableMeta>, Vec<String>)> {
    let name = create.name.name().value.clone();
    if name.chars().count() > MAX_NAME {
        return Err(SqlError::new(
            193,
            15,
            1,
            format!("The object or column name starting with '{name}' is too long. The maximum length is {MAX_NAME} characters."),
        ));
    }
    if !create.options.is_empty() {
        return Err(not_supported_yet(
            Refused::Statement,
            "CREATE TABLE options on temporary tables",
        ));
    }
    let temp = db.temp_tables();
    if temp.find(spid, &name).is_some() {
        return Err(hekla_engine::errors::object_exists(&name));
    }
    let mut local = create.clone();
    local.name = ast::ObjectName {
        parts: vec![Some(create.name.name().clone())],
        span: create.name.span,
    };
    let skipped = strip_foreign_keys(&mut local.elements);
    let table = match temp.take_spare(&local.to_string()) {
        Some(table) => table,
        None => {
            let object_id = temp.allocate_id()?;
            let engine_name = if is_global(&name) {
                name.clone()
            } else {
                // A 12-digit number, as SQL Server's suffix.
                format!("{name:_<MAX_NAME$}{:012X}", -i64::from(object_id))
            };
            make_table(db, &local, object_id, &engine_name)?
        }
    };
    let object_id = table.object_id;
    let messages = skipped
        .into_iter()
        .map(|constraint| {
            let constraint = constraint.unwrap_or_else(|| {
                crate::catalog::constraint::system_name("FK", &name, None, object_id)
            });
            format!("Skipping FOREIGN KEY constraint '{constraint}' definition for temporary table. FOREIGN KEY constraints are not enforced on local or global temporary tables.")
        })
        .collect();
    if !temp.add(spid, &name, &table) {
        release(db, table);
        return Err(hekla_engine::errors::object_exists(&name));
    }
    Ok((table, messages))
}

/// `DROP TABLE [IF EXISTS] #t` by session `spid` (any session may drop a
/// `##t`); Msg 3701 when there is none.
pub fn drop(db: &SqlDatabase, spid: i16, name: &ast::ObjectName, if_exists: bool) -> SqlResult<()> {
    let written = &name.name().value;
    match db.temp_tables().take(spid, written) {
        Some(table) => {
            release(db, table);
            Ok(())
        }
        None if if_exists => Ok(()),
        None => Err(crate::catalog::cannot_drop("table", written)),
    }
}
