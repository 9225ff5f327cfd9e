//! `sys.indexes`, `sys.hash_indexes`, `sys.index_columns` and
//! `sys.key_constraints`, from each table's indexes (hash or range) and
//! the PRIMARY KEY / UNIQUE constraints they enforce.

use super::context::SystemContext;
use super::objects::{object_columns, user_tables, ObjectRow};
use super::shared::{
    bit, index_id, int, not_null, nullable, nvarchar, nvarchar_max, sysname, text, tinyint,
    HEAP_INDEX_ID,
};
use super::{Scope, SystemView, ViewColumn};
use hekla_engine::IndexKind;
use hekla_plan::catalog::table::{IndexMeta, KeyConstraint, TableMeta};
use hekla_types::{DataType, SortOrder, SqlResult, Value};

fn index_columns() -> Vec<ViewColumn> {
    vec![
        not_null("object_id", DataType::Int),
        nullable("name", sysname()),
        not_null("index_id", DataType::Int),
        not_null("type", DataType::TinyInt),
        nullable("type_desc", nvarchar(60)),
        nullable("is_unique", DataType::Bit),
        nullable("data_space_id", DataType::Int),
        nullable("ignore_dup_key", DataType::Bit),
        nullable("is_primary_key", DataType::Bit),
        nullable("is_unique_constraint", DataType::Bit),
        not_null("fill_factor", DataType::TinyInt),
        nullable("is_padded", DataType::Bit),
        nullable("is_disabled", DataType::Bit),
        nullable("is_hypothetical", DataType::Bit),
        nullable("allow_row_locks", DataType::Bit),
        nullable("allow_page_locks", DataType::Bit),
        nullable("has_filter", DataType::Bit),
        nullable("filter_definition", nvarchar_max()),
        nullable("auto_created", DataType::Bit),
    ]
}

/// SQL Server's index type code and name.
fn index_type(kind: IndexKind) -> (u8, &'static str) {
    match kind {
        IndexKind::Hash { .. } => (7, "NONCLUSTERED HASH"),
        IndexKind::Range => (2, "NONCLUSTERED"),
    }
}

/// The `sys.indexes` row of a table's heap (`index` None) or of one of
/// its indexes.
fn index_row(table: &TableMeta, index: Option<(usize, &IndexMeta)>) -> Vec<Value> {
    let (name, id, (type_code, type_desc), constraint) = match index {
        None => (Value::Null, HEAP_INDEX_ID, (0, "HEAP"), None),
        Some((ordinal, meta)) => (
            text(&meta.name),
            index_id(ordinal),
            index_type(meta.kind),
            meta.constraint,
        ),
    };
    vec![
        int(table.object_id),
        name,
        int(id),
        tinyint(type_code),
        text(type_desc),
        bit(constraint.is_some()),
        // 0: an in-memory index (SQL Server's value for memory-optimized
        // indexes), and the heap is in memory too.
        int(0),
        // IGNORE_DUP_KEY cannot be set; duplicates always fail.
        bit(false),
        bit(constraint == Some(KeyConstraint::PrimaryKey)),
        // hekla enforces an inline UNIQUE index as a UNIQUE constraint
        // (duplicates raise 2627), so it is listed as one.
        bit(constraint == Some(KeyConstraint::Unique)),
        // Memory-optimized indexes have no pages to fill: the default 0.
        tinyint(0),
        bit(false),
        bit(false),
        bit(false),
        // hekla takes no locks (optimistic multi-versioning).
        bit(false),
        bit(false),
        // Filtered indexes are refused.
        bit(false),
        Value::Null,
        bit(false),
    ]
}

// ---- sys.indexes ----------------------------------------------------------

pub const INDEXES: SystemView = SystemView {
    schema: "sys",
    name: "indexes",
    scope: Scope::Database,
    columns: index_columns,
    rows: indexes_rows,
};

/// Per table: its row heap (index_id 0) and its indexes (from 2).
fn indexes_rows(db: &dyn SystemContext) -> SqlResult<Vec<Vec<Value>>> {
    let mut rows = Vec::new();
    for table in user_tables(db) {
        rows.push(index_row(&table, None));
        for (ordinal, index) in table.indexes.iter().enumerate() {
            rows.push(index_row(&table, Some((ordinal, index))));
        }
    }
    Ok(rows)
}

// ---- sys.hash_indexes -----------------------------------------------------

pub const HASH_INDEXES: SystemView = SystemView {
    schema: "sys",
    name: "hash_indexes",
    scope: Scope::Database,
    columns: hash_indexes_columns,
    rows: hash_indexes_rows,
};

fn hash_indexes_columns() -> Vec<ViewColumn> {
    let mut columns = index_columns();
    columns.push(nullable("bucket_count", DataType::Int));
    columns
}

/// `bucket_count` is the number of buckets the engine made: BUCKET_COUNT
/// rounded up to a power of two.
fn hash_indexes_rows(db: &dyn SystemContext) -> SqlResult<Vec<Vec<Value>>> {
    let mut rows = Vec::new();
    for table in user_tables(db) {
        for (ordinal, index) in table.indexes.iter().enumerate() {
            let Some(buckets) = table.engine.hash_bucket_count(ordinal) else {
                continue;
            };
            let mut row = index_row(&table, Some((ordinal, index)));
            // At most 2^30 buckets, so always an int.
            row.push(int(i32::try_from(buckets).unwrap_or(i32::MAX)));
            rows.push(row);
        }
    }
    Ok(rows)
}

// ---- sys.index_columns ----------------------------------------------------

pub const INDEX_COLUMNS: SystemView = SystemView {
    schema: "sys",
    name: "index_columns",
    scope: Scope::Database,
    columns: index_columns_columns,
    rows: index_columns_rows,
};

fn index_columns_columns() -> Vec<ViewColumn> {
    vec![
        not_null("object_id", DataType::Int),
        not_null("index_id", DataType::Int),
        not_null("index_column_id", DataType::Int),
        not_null("column_id", DataType::Int),
        not_null("key_ordinal", DataType::TinyInt),
        not_null("partition_ordinal", DataType::TinyInt),
        nullable("is_descending_key", DataType::Bit),
        nullable("is_included_column", DataType::Bit),
    ]
}

fn index_columns_rows(db: &dyn SystemContext) -> SqlResult<Vec<Vec<Value>>> {
    let mut rows = Vec::new();
    for table in user_tables(db) {
        for (ordinal, index) in table.indexes.iter().enumerate() {
            for (position, &(column, order)) in index.columns.iter().enumerate() {
                let position = i32::try_from(position + 1).unwrap_or(i32::MAX);
                rows.push(vec![
                    int(table.object_id),
                    int(index_id(ordinal)),
                    int(position),
                    int(i32::try_from(column + 1).unwrap_or(i32::MAX)),
                    // At most 32 key columns.
                    tinyint(u8::try_from(position).unwrap_or(u8::MAX)),
                    // Tables are not partitioned.
                    tinyint(0),
                    // Hash index keys have no order (always 0 in SQL Server).
                    bit(index.kind == IndexKind::Range && order == SortOrder::Descending),
                    // INCLUDE is refused: every column is a key column.
                    bit(false),
                ]);
            }
        }
    }
    Ok(rows)
}

// ---- sys.key_constraints --------------------------------------------------

pub const KEY_CONSTRAINTS: SystemView = SystemView {
    schema: "sys",
    name: "key_constraints",
    scope: Scope::Database,
    columns: key_constraints_columns,
    rows: key_constraints_rows,
};

/// `object_id` is NULL: a hekla constraint is part of its table, not an
/// object with an id of its own.
fn key_constraints_columns() -> Vec<ViewColumn> {
    let mut columns = object_columns(true);
    columns.extend([
        nullable("unique_index_id", DataType::Int),
        nullable("is_system_named", DataType::Bit),
    ]);
    columns
}

fn key_constraints_rows(db: &dyn SystemContext) -> SqlResult<Vec<Vec<Value>>> {
    let mut rows = Vec::new();
    for table in user_tables(db) {
        for (ordinal, index) in table.indexes.iter().enumerate() {
            let (type_code, type_desc, prefix) = match index.constraint {
                Some(KeyConstraint::PrimaryKey) => ("PK", "PRIMARY_KEY_CONSTRAINT", "PK"),
                Some(KeyConstraint::Unique) => ("UQ", "UNIQUE_CONSTRAINT", "UQ"),
                None => continue,
            };
            let object = ObjectRow {
                name: &index.name,
                object_id: None,
                schema_id: table.schema_id,
                parent_object_id: table.object_id,
                type_code,
                type_desc,
                // Created with the table and never altered.
                created_ms: table.created_ms,
                modified_ms: table.created_ms,
            };
            let mut row = object.values();
            row.push(int(index_id(ordinal)));
            // hekla names an unnamed key PK__<table>__<object id in hex>.
            let generated = format!("{prefix}__{}__{:08X}", table.name, table.object_id);
            row.push(bit(index.name == generated));
            rows.push(row);
        }
    }
    Ok(rows)
}
