//! Statistics objects: `CREATE STATISTICS s ON t (c, ...) [WITH FULLSCAN |
//! NORECOMPUTE]`, `UPDATE STATISTICS t [s] [WITH ...]`, `DROP STATISTICS
//! t.s`, listed with each index's statistics in `sys.stats`.
//!
//! hekla's planner chooses by the indexes a query can use, not by costs,
//! so it keeps no histograms: a statistics object is its name, table,
//! columns and NORECOMPUTE flag, stored durably (its CREATE STATISTICS
//! text under a code of hekla's own, `ST`) so that it lasts until dropped,
//! and UPDATE STATISTICS has nothing to rebuild.

use super::table::TableMeta;
use super::Catalog;
use crate::error::{not_supported_yet, Refused};
use crate::names::DATABASE_NAME;
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

/// The ordinals of the columns named (Msg 1911 for one the table does not
/// have).
pub fn column_ordinals(table: &TableMeta, columns: &[ast::Ident]) -> SqlResult<Vec<usize>> {
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

/// `t.s` names table `t`; `dbo.t.s` table `dbo.t`.
pub fn table_part(name: &ObjectName) -> Option<ObjectName> {
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
pub fn find_table(catalog: &Catalog, name: &ObjectName) -> SqlResult<Arc<TableMeta>> {
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
pub fn read_options(options: &[OptionItem], update: bool) -> SqlResult<bool> {
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
