//! `sys.stats` and `sys.stats_columns`: the statistics of each index
//! (under the index's name and id, as SQL Server lists them) and the
//! statistics objects CREATE STATISTICS made (`catalog::statistics`),
//! numbered after the table's highest index id in the order they were
//! made.

use super::context::SystemContext;
use super::objects::user_tables;
use super::shared::{bit, index_id, int, not_null, nullable, nvarchar_max, sysname, text};
use super::{Scope, SystemView, ViewColumn};
use hekla_plan::catalog::table::TableMeta;
use hekla_types::{DataType, SqlResult, Value};

pub const STATS: SystemView = SystemView {
    schema: "sys",
    name: "stats",
    scope: Scope::Database,
    columns: stats_columns,
    rows: stats_rows,
};

fn stats_columns() -> Vec<ViewColumn> {
    vec![
        not_null("object_id", DataType::Int),
        nullable("name", sysname()),
        not_null("stats_id", DataType::Int),
        nullable("auto_created", DataType::Bit),
        nullable("user_created", DataType::Bit),
        nullable("no_recompute", DataType::Bit),
        nullable("has_filter", DataType::Bit),
        nullable("filter_definition", nvarchar_max()),
        nullable("is_temporary", DataType::Bit),
        nullable("is_incremental", DataType::Bit),
    ]
}

/// One statistics of a table: its name, id, columns and whether a user
/// made it (else an index did), with NORECOMPUTE.
struct Statistics {
    name: String,
    id: i32,
    columns: Vec<usize>,
    user_created: bool,
    no_recompute: bool,
}

fn statistics_of(db: &dyn SystemContext, table: &TableMeta) -> Vec<Statistics> {
    let mut all: Vec<Statistics> = table
        .indexes
        .iter()
        .enumerate()
        .map(|(ordinal, index)| Statistics {
            name: index.name.clone(),
            id: index_id(ordinal),
            columns: index.columns.iter().map(|&(column, _)| column).collect(),
            user_created: false,
            no_recompute: false,
        })
        .collect();
    let catalog = db.catalog();
    for (position, statistics) in catalog.statistics_of(table.object_id).enumerate() {
        all.push(Statistics {
            name: statistics.name.clone(),
            id: index_id(table.indexes.len() + position),
            columns: statistics.columns.clone(),
            user_created: true,
            no_recompute: statistics.no_recompute,
        });
    }
    all
}

fn stats_rows(db: &dyn SystemContext) -> SqlResult<Vec<Vec<Value>>> {
    let mut rows = Vec::new();
    for table in user_tables(db) {
        for statistics in statistics_of(db, &table) {
            rows.push(vec![
                int(table.object_id),
                text(statistics.name),
                int(statistics.id),
                // hekla creates no statistics by itself.
                bit(false),
                bit(statistics.user_created),
                bit(statistics.no_recompute),
                bit(false),
                Value::Null,
                bit(false),
                bit(false),
            ]);
        }
    }
    Ok(rows)
}

pub const STATS_COLUMNS: SystemView = SystemView {
    schema: "sys",
    name: "stats_columns",
    scope: Scope::Database,
    columns: stats_columns_columns,
    rows: stats_columns_rows,
};

fn stats_columns_columns() -> Vec<ViewColumn> {
    vec![
        not_null("object_id", DataType::Int),
        not_null("stats_id", DataType::Int),
        not_null("stats_column_id", DataType::Int),
        not_null("column_id", DataType::Int),
    ]
}

fn stats_columns_rows(db: &dyn SystemContext) -> SqlResult<Vec<Vec<Value>>> {
    let ordinal = |n: usize| int(i32::try_from(n + 1).unwrap_or(i32::MAX));
    let mut rows = Vec::new();
    for table in user_tables(db) {
        for statistics in statistics_of(db, &table) {
            for (position, &column) in statistics.columns.iter().enumerate() {
                rows.push(vec![
                    int(table.object_id),
                    int(statistics.id),
                    ordinal(position),
                    ordinal(column),
                ]);
            }
        }
    }
    Ok(rows)
}
