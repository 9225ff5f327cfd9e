//! Statistics objects: `CREATE STATISTICS s ON t (c, ...) [WITH FULLSCAN |
//! NORECOMPUTE]`, `UPDATE STATISTICS t [s] [WITH ...]`, `DROP STATISTICS
//! t.s`, listed with each index's statistics in `sys.stats`.
//!
//! hekla's planner chooses by the indexes a query can use, not by costs,
//! so it keeps no histograms: a statistics object is its name, table,
//! columns and NORECOMPUTE flag, stored durably (its CREATE STATISTICS
//! text under a code of hekla's own, `ST`) so that it lasts until dropped,
//! and UPDATE STATISTICS has nothing to rebuild.

use super::store::ObjectType;
use super::table::TableMeta;
use super::{stored_object, Catalog};
use crate::error::{not_supported_yet, Refused};
use crate::session::SqlDatabase;
use crate::system_views::DATABASE_NAME;
use hekla_parser::ast::{self, ObjectName, OptionItem};
use hekla_types::{SqlError, SqlResult};
use std::sync::Arc;

#[derive(Debug)]
pub struct StatisticsMeta {
    /// The id its definition is stored under (no object in SQL Server).
    pub object_id: i32,
    pub name: String,
    /// The table's object id.
    pub table_id: i32,
    /// Column ordinals of the table, in the order written.
    pub columns: Vec<usize>,
    pub no_recompute: bool,
}

/// CREATE STATISTICS.
pub fn create(
    db: &SqlDatabase,
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

/// The ordinals of the columns named (Msg 1911 for one the table does not
/// have).
fn column_ordinals(table: &TableMeta, columns: &[ast::Ident]) -> SqlResult<Vec<usize>> {
    columns
        .iter()
        .map(|column| {
            table.column_index(&column.value).ok_or_else(|| {
                SqlError::new(
                    1911,
                    16,
                    1,
                    format!(
                        "Column name '{}' does not exist in the target table, index or view.",
                        column.value
                    ),
                )
            })
        })
        .collect()
}

/// At open: the statistics a stored CREATE STATISTICS made (its name was
/// checked when it was made, and indexes added since checked against it).
pub fn restore(
    catalog: &Catalog,
    object: &super::store::StoredObject,
) -> SqlResult<StatisticsMeta> {
    let (name, table, columns, options) =
        super::parse_stored(&object.definition, "statistics", |kind| match kind {
            ast::StatementKind::CreateStatistics {
                name,
                table,
                columns,
                options,
            } => Some((name, table, columns, options)),
            _ => None,
        })?;
    let table = find_table(catalog, &table)?;
    let no_recompute = read_options(&options, false)?;
    Ok(StatisticsMeta {
        object_id: object.object_id,
        name: name.value,
        table_id: table.object_id,
        columns: column_ordinals(&table, &columns)?,
        no_recompute,
    })
}

/// UPDATE STATISTICS: there are no histograms to rebuild, so this checks
/// the table, the statistics or index named and the options.
pub fn update(
    db: &SqlDatabase,
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
pub fn drop(db: &SqlDatabase, names: &[ObjectName]) -> SqlResult<()> {
    for name in names {
        let written = super::sequence::written(name);
        let mut catalog = db.catalog_mut();
        let statistics_name = &name.name().value;
        let table = table_part(name).and_then(|table| find_table(&catalog, &table).ok());
        let Some(table) = table else {
            return Err(super::cannot_drop("statistics", &written));
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
            return Err(super::cannot_drop("statistics", &written));
        };
        super::unstore_object(db, object_id)?;
        catalog.remove_statistics(object_id);
    }
    Ok(())
}

/// DROP TABLE: deletes the stored definitions of the table's statistics
/// in `tx`, the transaction that deletes the table's.
pub fn unstore_for_table(
    db: &SqlDatabase,
    catalog: &Catalog,
    table_id: i32,
    tx: &mut hekla_engine::Transaction,
) -> SqlResult<()> {
    for statistics in catalog.statistics_of(table_id) {
        db.object_store().delete(tx, statistics.object_id)?;
    }
    Ok(())
}

/// `t.s` names table `t`; `dbo.t.s` table `dbo.t`.
fn table_part(name: &ObjectName) -> Option<ObjectName> {
    let (_, table) = name.parts.split_last()?;
    if table.is_empty() || table.last().is_none_or(Option::is_none) {
        return None;
    }
    Some(ObjectName {
        parts: table.to_vec(),
        ..name.clone()
    })
}

/// The user table `name` names: Msg 1088 when there is none (temporary
/// tables, whose statistics would outlive them here, and views are
/// 10794).
fn find_table(catalog: &Catalog, name: &ObjectName) -> SqlResult<Arc<TableMeta>> {
    if crate::catalog::temp::is_temp(name) {
        return Err(not_supported_yet(
            Refused::Statement,
            "statistics on temporary tables",
        ));
    }
    if crate::catalog::view::names_view(catalog, name) {
        return Err(not_supported_yet(Refused::Statement, "statistics on views"));
    }
    let found = name
        .other_database(DATABASE_NAME)
        .is_none()
        .then(|| catalog.named_schema(name))
        .flatten()
        .and_then(|schema| catalog.table(schema, &name.name().value))
        .cloned();
    found.ok_or_else(|| {
        SqlError::new(
            1088,
            16,
            1,
            format!(
                "Cannot find the object \"{}\" because it does not exist or you do not have permissions.",
                super::sequence::written(name)
            ),
        )
    })
}

/// `WITH FULLSCAN | SAMPLE n PERCENT | SAMPLE n ROWS | NORECOMPUTE`
/// (UPDATE STATISTICS also `RESAMPLE`, `ALL`, `COLUMNS`, `INDEX`):
/// whether NORECOMPUTE is given. How much to sample changes nothing here
/// (there is no histogram to build), but is checked: Msg 1031 for a
/// percentage outside 0 to 100, 1052 for FULLSCAN with SAMPLE. Other
/// options are 10794.
fn read_options(options: &[OptionItem], update: bool) -> SqlResult<bool> {
    let mut no_recompute = false;
    let mut sampling: Option<String> = None;
    for option in options {
        let words: Vec<String> = option
            .name
            .iter()
            .map(|w| w.value.to_ascii_uppercase())
            .collect();
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        match (words.as_slice(), &option.value) {
            (["FULLSCAN"], None) => sampled(&mut sampling, "FULLSCAN", update)?,
            (["SAMPLE", unit], Some(ast::OptionValue::Expr(size))) => {
                if *unit == "PERCENT" && !is_percentage(size) {
                    return Err(SqlError::new(
                        1031,
                        16,
                        1,
                        "Percent values must be between 0 and 100.",
                    ));
                }
                sampled(&mut sampling, unit, update)?;
            }
            (["NORECOMPUTE"], None) => no_recompute = true,
            ([word], None) if update && ["RESAMPLE", "ALL", "COLUMNS", "INDEX"].contains(word) => {}
            _ => {
                return Err(not_supported_yet(
                    Refused::Statement,
                    format!("the statistics option {}", words.join(" ")),
                ))
            }
        }
    }
    Ok(no_recompute)
}

/// Records how the statistics are sampled: Msg 1052 if they already are.
fn sampled(sampling: &mut Option<String>, how: &str, update: bool) -> SqlResult<()> {
    if let Some(before) = sampling.replace(how.to_string()) {
        return Err(SqlError::new(
            1052,
            16,
            1,
            format!(
                "Conflicting {} STATISTICS options \"{how}\" and \"{before}\".",
                if update { "UPDATE" } else { "CREATE" }
            ),
        ));
    }
    Ok(())
}

/// A number from 0 to 100 written as a literal.
fn is_percentage(size: &ast::Expr) -> bool {
    let digits = match &size.kind {
        ast::ExprKind::Literal(ast::Literal::Integer(d) | ast::Literal::Decimal(d)) => d,
        _ => return false,
    };
    digits
        .parse::<f64>()
        .is_ok_and(|n| (0.0..=100.0).contains(&n))
}
