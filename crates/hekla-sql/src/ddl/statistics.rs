//! CREATE STATISTICS, UPDATE STATISTICS and DROP STATISTICS. The
//! statistics objects' model is `catalog::statistics`.

use crate::ddl::DdlDatabase;
use hekla_parser::ast::{self, ObjectName, OptionItem};
use hekla_plan::catalog::statistics::{
    column_ordinals, find_table, read_options, table_part, StatisticsMeta,
};
use hekla_plan::catalog::store::ObjectType;
use hekla_plan::catalog::table::TableMeta;
use hekla_plan::catalog::{stored_object, Catalog};
use hekla_plan::error::{not_supported_yet, Refused};
use hekla_types::{SqlError, SqlResult};

/// CREATE STATISTICS.
pub fn create(
    db: &dyn DdlDatabase,
    name: &ast::Ident,
    table: &ObjectName,
    columns: &[ast::Ident],
    options: &[OptionItem],
    text: &str,
) -> SqlResult<()> {
    let mut catalog = db.catalog_mut();
    let table = find_table(&catalog, table)?;
    let no_recompute = read_options(options, false)?;
    let statistics = bind(&catalog, &table, name, columns, no_recompute)?;
    let object_id = catalog.allocate_object_id()?;
    let object = stored_object(
        object_id,
        table.schema_id,
        &name.value,
        ObjectType::Statistics,
        None,
        text,
    );
    super::store_object(db, &object)?;
    catalog.add_statistics(StatisticsMeta {
        object_id,
        ..statistics
    });
    Ok(())
}

/// The statistics a CREATE STATISTICS makes (its id still 0): Msg 1927
/// for a name an index or statistics of the table has, 1911 for a column
/// the table does not have.
fn bind(
    catalog: &Catalog,
    table: &TableMeta,
    name: &ast::Ident,
    columns: &[ast::Ident],
    no_recompute: bool,
) -> SqlResult<StatisticsMeta> {
    let taken = table
        .indexes
        .iter()
        .any(|index| index.name.eq_ignore_ascii_case(&name.value))
        || catalog
            .statistics_of(table.object_id)
            .any(|s| s.name.eq_ignore_ascii_case(&name.value));
    if taken {
        return Err(SqlError::new(
            1927,
            16,
            1,
            format!(
                "There are already statistics on table '{}' named '{}'.",
                table.name, name.value
            ),
        ));
    }
    Ok(StatisticsMeta {
        object_id: 0,
        name: name.value.clone(),
        table_id: table.object_id,
        columns: column_ordinals(table, columns)?,
        no_recompute,
    })
}

/// UPDATE STATISTICS: there are no histograms to rebuild, so this checks
/// the table, the statistics or index named and the options.
pub fn update(
    db: &dyn DdlDatabase,
    table: &ObjectName,
    target: Option<&ast::Ident>,
    options: &[OptionItem],
) -> SqlResult<()> {
    let catalog = db.catalog();
    let table = find_table(&catalog, table)?;
    read_options(options, true)?;
    if let Some(target) = target {
        let known = table
            .indexes
            .iter()
            .any(|index| index.name.eq_ignore_ascii_case(&target.value))
            || catalog
                .statistics_of(table.object_id)
                .any(|s| s.name.eq_ignore_ascii_case(&target.value));
        if !known {
            return Err(not_supported_yet(
                Refused::Statement,
                "UPDATE STATISTICS of statistics that do not exist",
            ));
        }
    }
    Ok(())
}

/// DROP STATISTICS table.statistics, ...: Msg 3701 for statistics that
/// do not exist, 3739 for an index's.
pub fn drop(db: &dyn DdlDatabase, names: &[ObjectName]) -> SqlResult<()> {
    for name in names {
        let written = hekla_plan::catalog::sequence::written(name);
        let mut catalog = db.catalog_mut();
        let statistics_name = &name.name().value;
        let table = table_part(name).and_then(|table| find_table(&catalog, &table).ok());
        let Some(table) = table else {
            return Err(hekla_plan::catalog::cannot_drop("statistics", &written));
        };
        if table
            .indexes
            .iter()
            .any(|index| index.name.eq_ignore_ascii_case(statistics_name))
        {
            return Err(SqlError::new(
                3739,
                11,
                1,
                format!(
                    "Cannot DROP the index '{written}' because it is not a statistics collection."
                ),
            ));
        }
        let found = catalog
            .statistics_of(table.object_id)
            .find(|s| s.name.eq_ignore_ascii_case(statistics_name))
            .map(|s| s.object_id);
        let Some(object_id) = found else {
            return Err(hekla_plan::catalog::cannot_drop("statistics", &written));
        };
        super::unstore_object(db, object_id)?;
        catalog.remove_statistics(object_id);
    }
    Ok(())
}

/// DROP TABLE: deletes the stored definitions of the table's statistics
/// in `tx`, the transaction that deletes the table's.
pub fn unstore_for_table(
    db: &dyn DdlDatabase,
    catalog: &Catalog,
    table_id: i32,
    tx: &mut hekla_engine::Transaction,
) -> SqlResult<()> {
    for statistics in catalog.statistics_of(table_id) {
        db.object_store().delete(tx, statistics.object_id)?;
    }
    Ok(())
}
