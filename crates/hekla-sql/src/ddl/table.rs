//! CREATE TABLE and DROP TABLE of user tables (`#temp` tables are
//! [`super::temp`]'s).

use crate::ddl::DdlDatabase;
use hekla_engine::IsolationLevel;
use hekla_parser::ast;
use hekla_plan::catalog::store::ObjectType;
use hekla_plan::catalog::stored_object;
use hekla_plan::catalog::table::{TableDesign, TableMeta};
use hekla_types::SqlResult;
use std::sync::Arc;

/// Creates the engine table, then commits its definition; if that fails
/// the engine table goes again (and a crash in between is undone at the
/// next open, see [`hekla_plan::catalog::Catalog::load`]).
pub fn create(
    db: &dyn DdlDatabase,
    create: &ast::CreateTable,
    text: &str,
) -> SqlResult<Arc<TableMeta>> {
    // Before Msg 2714, which would look in this database.
    if let Some(database) = create.name.other_database(hekla_plan::names::DATABASE_NAME) {
        return Err(hekla_plan::catalog::databases::not_here(
            &database.value,
            "CREATE TABLE",
        ));
    }
    let mut catalog = db.catalog_mut();
    let schema = create.name.schema().map_or("dbo", |s| s.value.as_str());
    let name = &create.name.name().value;
    if let Some(schema_id) = catalog.schema_id(schema) {
        if catalog.object_exists(schema_id, name) {
            return Err(hekla_engine::errors::object_exists(name));
        }
    }
    let object_id = catalog.allocate_object_id()?;
    let design = TableDesign::bind(create, &catalog, object_id)?;
    let engine = db.engine().create_table(design.engine_def())?;
    let object = stored_object(
        object_id,
        design.schema_id,
        &design.name,
        ObjectType::Table,
        Some(engine.id),
        text,
    );
    let stored = db
        .engine()
        .begin(IsolationLevel::Snapshot)
        .and_then(|mut tx| {
            db.object_store().insert(&mut tx, &object)?;
            tx.commit()
        });
    if let Err(error) = stored {
        let _ = db.engine().drop_table(engine.id);
        return Err(error);
    }
    catalog.add_table(TableMeta::new(design, object_id, engine, text));
    Ok(Arc::clone(
        catalog.table_by_id(object_id).expect("just added"),
    ))
}

/// Drops table `name` (a `#temp` table of session `spid` for a `#` name).
/// Deletes the definition first, then the engine table: a crash in between
/// leaves an engine table without a definition, which the next open
/// drops.
pub fn drop(
    db: &dyn DdlDatabase,
    spid: i16,
    name: &ast::ObjectName,
    if_exists: bool,
) -> SqlResult<()> {
    if hekla_plan::catalog::temp::is_temp(name) {
        return super::temp::drop(db, spid, name, if_exists);
    }
    let mut catalog = db.catalog_mut();
    let schema = name.schema().map_or("dbo", |s| s.value.as_str());
    let table = catalog
        .schema_id(schema)
        .and_then(|schema_id| catalog.table(schema_id, &name.name().value))
        .cloned();
    let Some(table) = table else {
        if if_exists {
            return Ok(());
        }
        super::view::refuse_drop_table(&catalog, name)?;
        return Err(hekla_plan::catalog::cannot_drop(
            "table",
            &name.name().value,
        ));
    };
    super::view::refuse_if_bound(&catalog, table.object_id, "DROP TABLE", name)?;
    hekla_exec::constraints::prepare_drop(&catalog, &table, name)?;
    let mut tx = db.engine().begin(IsolationLevel::Snapshot)?;
    db.object_store().delete(&mut tx, table.object_id)?;
    super::statistics::unstore_for_table(db, &catalog, table.object_id, &mut tx)?;
    tx.commit()?;
    let statistics: Vec<i32> = catalog
        .statistics_of(table.object_id)
        .map(|s| s.object_id)
        .collect();
    for id in statistics {
        catalog.remove_statistics(id);
    }
    catalog.remove_table(table.object_id);
    db.engine().drop_table(table.engine.id)
}
