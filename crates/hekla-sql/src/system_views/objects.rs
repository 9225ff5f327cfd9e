//! `sys.schemas`, `sys.objects` and the views that extend `sys.objects`
//! with columns of their own: `sys.tables`, `sys.views`, `sys.sequences`,
//! `sys.foreign_keys` (with `sys.foreign_key_columns`),
//! `sys.check_constraints` and `sys.procedures`.

use super::context::SystemContext;
use super::shared::{
    bit, char, datetime_ms, int, not_null, nullable, nvarchar, or_null, padded, sysname, text,
    tinyint, MEMORY_OPTIMIZED_DATA_SPACE,
};
use super::{Scope, SystemView, ViewColumn};
use hekla_engine::Durability;
use hekla_plan::catalog::constraint::{CheckConstraint, ForeignKey};
use hekla_plan::catalog::counter::as_decimal;
use hekla_plan::catalog::function::FunctionMeta;
use hekla_plan::catalog::procedure::ProcedureMeta;
use hekla_plan::catalog::sequence::Sequence;
use hekla_plan::catalog::store::ObjectType;
use hekla_plan::catalog::table::TableMeta;
use hekla_plan::catalog::table_type;
use hekla_plan::catalog::user_type::UserType;
use hekla_plan::catalog::view::ViewMeta;
use hekla_plan::names::schema_id;
use hekla_types::{DataType, Length, SqlResult, Value};

/// The `sys.objects` part of a row.
pub struct ObjectRow<'a> {
    pub name: &'a str,
    /// None for things hekla gives no object id (key constraints).
    pub object_id: Option<i32>,
    pub schema_id: u32,
    /// 0 for an object that belongs to none.
    pub parent_object_id: i32,
    /// `U`, `PK`, `UQ` ...
    pub type_code: &'a str,
    pub type_desc: &'a str,
    pub created_ms: i64,
    pub modified_ms: i64,
}

impl ObjectRow<'_> {
    /// A user table. Tables cannot be altered in hekla, so they were last
    /// modified when they were created.
    pub fn table(table: &TableMeta) -> ObjectRow<'_> {
        ObjectRow {
            name: &table.name,
            object_id: Some(table.object_id),
            schema_id: table.schema_id,
            parent_object_id: 0,
            type_code: ObjectType::Table.code(),
            type_desc: "USER_TABLE",
            created_ms: table.created_ms,
            modified_ms: table.created_ms,
        }
    }

    /// A sequence. Sequences cannot be altered in hekla either.
    pub fn sequence(sequence: &Sequence) -> ObjectRow<'_> {
        ObjectRow {
            name: &sequence.name,
            object_id: Some(sequence.object_id),
            schema_id: sequence.schema_id,
            parent_object_id: 0,
            type_code: ObjectType::Sequence.code(),
            type_desc: "SEQUENCE_OBJECT",
            created_ms: sequence.created_ms,
            modified_ms: sequence.created_ms,
        }
    }

    /// A view; ALTER VIEW changes its modification date.
    pub fn view(view: &ViewMeta) -> ObjectRow<'_> {
        ObjectRow {
            name: &view.name,
            object_id: Some(view.object_id),
            schema_id: view.schema_id,
            parent_object_id: 0,
            type_code: ObjectType::View.code(),
            type_desc: "VIEW",
            created_ms: view.created_ms,
            modified_ms: view.modified_ms,
        }
    }

    /// A stored procedure.
    pub fn procedure(procedure: &ProcedureMeta) -> ObjectRow<'_> {
        ObjectRow {
            name: &procedure.name,
            object_id: Some(procedure.object_id),
            schema_id: procedure.schema_id,
            parent_object_id: 0,
            type_code: ObjectType::Procedure.code(),
            type_desc: "SQL_STORED_PROCEDURE",
            created_ms: procedure.created_ms,
            modified_ms: procedure.modified_ms,
        }
    }

    /// The table a table type describes (`TT_<type>_<id>`); table types
    /// cannot be altered.
    pub fn table_type<'a>(user_type: &'a UserType, name: &'a str) -> ObjectRow<'a> {
        ObjectRow {
            name,
            object_id: Some(user_type.id),
            schema_id: user_type.schema_id,
            parent_object_id: 0,
            type_code: ObjectType::TableType.code(),
            type_desc: "TYPE_TABLE",
            created_ms: user_type.created_ms,
            modified_ms: user_type.created_ms,
        }
    }

    /// A user-defined function; ALTER FUNCTION changes its modification
    /// date.
    pub fn function(function: &FunctionMeta) -> ObjectRow<'_> {
        let object_type = function.object_type();
        ObjectRow {
            name: &function.name,
            object_id: Some(function.object_id),
            schema_id: function.schema_id,
            parent_object_id: 0,
            type_code: object_type.code(),
            type_desc: match object_type {
                ObjectType::ScalarFunction => "SQL_SCALAR_FUNCTION",
                _ => "SQL_INLINE_TABLE_VALUED_FUNCTION",
            },
            created_ms: function.created_ms,
            modified_ms: function.modified_ms,
        }
    }

    /// A CHECK constraint of `table`, created with it.
    pub fn check<'a>(table: &'a TableMeta, check: &'a CheckConstraint) -> ObjectRow<'a> {
        ObjectRow {
            name: &check.name,
            object_id: Some(check.object_id),
            schema_id: table.schema_id,
            parent_object_id: table.object_id,
            type_code: "C",
            type_desc: "CHECK_CONSTRAINT",
            created_ms: table.created_ms,
            modified_ms: table.created_ms,
        }
    }

    /// A FOREIGN KEY constraint of `table`, created with it.
    pub fn foreign_key<'a>(table: &'a TableMeta, key: &'a ForeignKey) -> ObjectRow<'a> {
        ObjectRow {
            name: &key.name,
            object_id: Some(key.object_id),
            schema_id: table.schema_id,
            parent_object_id: table.object_id,
            type_code: "F",
            type_desc: "FOREIGN_KEY_CONSTRAINT",
            created_ms: table.created_ms,
            modified_ms: table.created_ms,
        }
    }

    pub fn values(&self) -> Vec<Value> {
        vec![
            text(self.name),
            or_null(self.object_id, int),
            // principal_id: NULL, the object is owned by its schema's owner
            // (hekla has no other principals).
            Value::Null,
            int(schema_id(self.schema_id)),
            int(self.parent_object_id),
            padded(self.type_code, 2),
            text(self.type_desc),
            datetime_ms(self.created_ms),
            datetime_ms(self.modified_ms),
            // is_ms_shipped: user objects only are listed.
            bit(false),
            // is_published, is_schema_published: hekla has no replication.
            bit(false),
            bit(false),
        ]
    }
}

/// `sys.objects`' columns, which the views built on it start with.
/// `object_id` is nullable where a view lists things without one.
pub fn object_columns(object_id_nullable: bool) -> Vec<ViewColumn> {
    vec![
        not_null("name", sysname()),
        ViewColumn {
            name: "object_id",
            data_type: DataType::Int,
            nullable: object_id_nullable,
        },
        nullable("principal_id", DataType::Int),
        not_null("schema_id", DataType::Int),
        not_null("parent_object_id", DataType::Int),
        not_null("type", char(2)),
        nullable("type_desc", nvarchar(60)),
        not_null("create_date", DataType::DateTime),
        not_null("modify_date", DataType::DateTime),
        not_null("is_ms_shipped", DataType::Bit),
        not_null("is_published", DataType::Bit),
        not_null("is_schema_published", DataType::Bit),
    ]
}

/// `sys.objects`' columns followed by `extra`.
fn extended(extra: Vec<ViewColumn>) -> Vec<ViewColumn> {
    let mut columns = object_columns(false);
    columns.extend(extra);
    columns
}

/// The user tables, in object id order.
pub fn user_tables(db: &dyn SystemContext) -> Vec<std::sync::Arc<TableMeta>> {
    db.catalog().tables().cloned().collect()
}

/// The sequences, in object id order.
pub fn sequences(db: &dyn SystemContext) -> Vec<std::sync::Arc<Sequence>> {
    db.catalog().sequences().cloned().collect()
}

/// The views, in object id order.
pub fn user_views(db: &dyn SystemContext) -> Vec<std::sync::Arc<ViewMeta>> {
    db.catalog().views.iter().cloned().collect()
}

/// The stored procedures, in object id order.
pub fn procedures(db: &dyn SystemContext) -> Vec<std::sync::Arc<ProcedureMeta>> {
    db.catalog().procedures.iter().cloned().collect()
}

/// The user-defined functions, in object id order.
pub fn functions(db: &dyn SystemContext) -> Vec<std::sync::Arc<FunctionMeta>> {
    db.catalog().functions.iter().cloned().collect()
}

/// The rows of a view of things hekla does not have yet.
pub(super) fn no_rows(_: &dyn SystemContext) -> SqlResult<Vec<Vec<Value>>> {
    Ok(Vec::new())
}

// ---- sys.schemas ----------------------------------------------------------

pub const SCHEMAS: SystemView = SystemView {
    schema: "sys",
    name: "schemas",
    scope: Scope::Database,
    columns: schemas_columns,
    rows: schemas_rows,
};

fn schemas_columns() -> Vec<ViewColumn> {
    vec![
        not_null("name", sysname()),
        not_null("schema_id", DataType::Int),
        nullable("principal_id", DataType::Int),
    ]
}

/// The engine's schemas under their engine ids (the ids `sys.objects`
/// reports). `INFORMATION_SCHEMA` names views only and is no schema here.
fn schemas_rows(db: &dyn SystemContext) -> SqlResult<Vec<Vec<Value>>> {
    let catalog = db.catalog();
    Ok(catalog
        .schemas()
        // hekla has no database principals: it runs every session as the
        // database owner, dbo (principal 1), who owns every schema.
        .map(|(id, name)| vec![text(name), int(schema_id(id)), int(1)])
        .collect())
}

// ---- sys.objects ----------------------------------------------------------

pub const OBJECTS: SystemView = SystemView {
    schema: "sys",
    name: "objects",
    scope: Scope::Database,
    columns: objects_columns,
    rows: objects_rows,
};

fn objects_columns() -> Vec<ViewColumn> {
    object_columns(false)
}

/// hekla's objects are its tables with their CHECK and FOREIGN KEY
/// constraints, its views, sequences, procedures, functions and the
/// tables of its table types, in object id order. PRIMARY KEY and UNIQUE
/// constraints, which SQL Server also lists here, get no object id in
/// hekla; they are in `sys.key_constraints`.
fn objects_rows(db: &dyn SystemContext) -> SqlResult<Vec<Vec<Value>>> {
    let tables = user_tables(db);
    let sequences = sequences(db);
    let mut rows: Vec<(i32, Vec<Value>)> = Vec::new();
    for table in &tables {
        rows.push((table.object_id, ObjectRow::table(table).values()));
        for check in &table.checks {
            rows.push((check.object_id, ObjectRow::check(table, check).values()));
        }
        for key in &table.foreign_keys {
            rows.push((key.object_id, ObjectRow::foreign_key(table, key).values()));
        }
    }
    for sequence in &sequences {
        rows.push((sequence.object_id, ObjectRow::sequence(sequence).values()));
    }
    for view in &user_views(db) {
        rows.push((view.object_id, ObjectRow::view(view).values()));
    }
    for procedure in &procedures(db) {
        rows.push((
            procedure.object_id,
            ObjectRow::procedure(procedure).values(),
        ));
    }
    for function in &functions(db) {
        rows.push((function.object_id, ObjectRow::function(function).values()));
    }
    let catalog = db.catalog();
    for user_type in catalog.types.iter().filter(|t| t.as_table().is_some()) {
        let name = table_type::object_name(&user_type.name, user_type.id);
        rows.push((
            user_type.id,
            ObjectRow::table_type(user_type, &name).values(),
        ));
    }
    rows.sort_by_key(|(id, _)| *id);
    Ok(rows.into_iter().map(|(_, row)| row).collect())
}

// ---- sys.tables -----------------------------------------------------------

pub const TABLES: SystemView = SystemView {
    schema: "sys",
    name: "tables",
    scope: Scope::Database,
    columns: tables_columns,
    rows: tables_rows,
};

fn tables_columns() -> Vec<ViewColumn> {
    extended(vec![
        not_null("lob_data_space_id", DataType::Int),
        nullable("filestream_data_space_id", DataType::Int),
        not_null("max_column_id_used", DataType::Int),
        not_null("lock_on_bulk_load", DataType::Bit),
        nullable("uses_ansi_nulls", DataType::Bit),
        nullable("is_replicated", DataType::Bit),
        nullable("has_replication_filter", DataType::Bit),
        nullable("is_merge_published", DataType::Bit),
        nullable("is_sync_tran_subscribed", DataType::Bit),
        not_null("has_unchecked_assembly_data", DataType::Bit),
        nullable("text_in_row_limit", DataType::Int),
        nullable("large_value_types_out_of_row", DataType::Bit),
        nullable("is_tracked_by_cdc", DataType::Bit),
        nullable("lock_escalation", DataType::TinyInt),
        nullable("lock_escalation_desc", nvarchar(60)),
        nullable("is_filetable", DataType::Bit),
        nullable("is_memory_optimized", DataType::Bit),
        nullable("durability", DataType::TinyInt),
        nullable("durability_desc", nvarchar(60)),
        nullable("temporal_type", DataType::TinyInt),
        nullable("temporal_type_desc", nvarchar(60)),
        nullable("history_table_id", DataType::Int),
        nullable("is_remote_data_archive_enabled", DataType::Bit),
        nullable("is_external", DataType::Bit),
        nullable("is_node", DataType::Bit),
        nullable("is_edge", DataType::Bit),
    ])
}

fn tables_rows(db: &dyn SystemContext) -> SqlResult<Vec<Vec<Value>>> {
    Ok(user_tables(db)
        .iter()
        .map(|table| table_row(table))
        .collect())
}

fn table_row(table: &TableMeta) -> Vec<Value> {
    let has_lob = table.columns.iter().any(|c| {
        matches!(
            c.data_type,
            DataType::VarChar {
                len: Length::Max,
                ..
            } | DataType::NVarChar {
                len: Length::Max,
                ..
            } | DataType::VarBinary { len: Length::Max }
        )
    });
    // SQL Server's codes: 0 = SCHEMA_AND_DATA, 1 = SCHEMA_ONLY.
    let (durability, durability_desc) = match table.durability {
        Durability::SchemaAndData => (0, "SCHEMA_AND_DATA"),
        Durability::SchemaOnly => (1, "SCHEMA_ONLY"),
    };
    let max_column_id = i32::try_from(table.columns.len()).unwrap_or(i32::MAX);
    let mut row = ObjectRow::table(table).values();
    row.extend([
        // Large values live with the rest of the table, in the
        // memory-optimized filegroup.
        int(if has_lob {
            MEMORY_OPTIMIZED_DATA_SPACE
        } else {
            0
        }),
        // No FILESTREAM data.
        Value::Null,
        // Columns are never dropped (no ALTER TABLE), so the highest id
        // used is the column count.
        int(max_column_id),
        bit(false),
        // hekla compares with NULL as ANSI_NULLS ON does.
        bit(true),
        // No replication, CDC, FileTables, temporal, Stretch, external or
        // graph tables: SQL Server's values for a table without them.
        bit(false),
        bit(false),
        bit(false),
        bit(false),
        bit(false),
        int(0),
        // Large values are stored in the row.
        bit(false),
        bit(false),
        // LOCK_ESCALATION is TABLE, SQL Server's setting for every
        // memory-optimized table (which takes no locks to escalate).
        tinyint(0),
        text("TABLE"),
        bit(false),
        // Every hekla table is memory-optimized.
        bit(true),
        tinyint(durability),
        text(durability_desc),
        tinyint(0),
        text("NON_TEMPORAL_TABLE"),
        Value::Null,
        bit(false),
        bit(false),
        bit(false),
        bit(false),
    ]);
    row
}

// ---- views, procedures -------------------------------------------------------

pub const VIEWS: SystemView = SystemView {
    schema: "sys",
    name: "views",
    scope: Scope::Database,
    columns: views_columns,
    rows: views_rows,
};

fn views_columns() -> Vec<ViewColumn> {
    extended(vec![
        nullable("is_replicated", DataType::Bit),
        nullable("has_replication_filter", DataType::Bit),
        nullable("has_opaque_metadata", DataType::Bit),
        nullable("has_unchecked_assembly_data", DataType::Bit),
        nullable("with_check_option", DataType::Bit),
        nullable("is_date_correlation_view", DataType::Bit),
    ])
}

fn views_rows(db: &dyn SystemContext) -> SqlResult<Vec<Vec<Value>>> {
    Ok(user_views(db)
        .iter()
        .map(|view| {
            let mut row = ObjectRow::view(view).values();
            // No replication or assembly data; WITH CHECK OPTION is
            // refused; no date correlation (an old optimizer feature).
            row.extend([
                bit(false),
                bit(false),
                bit(view.view_metadata),
                bit(false),
                bit(false),
                bit(false),
            ]);
            row
        })
        .collect())
}

pub const PROCEDURES: SystemView = SystemView {
    schema: "sys",
    name: "procedures",
    scope: Scope::Database,
    columns: procedures_columns,
    rows: procedures_rows,
};

fn procedures_columns() -> Vec<ViewColumn> {
    extended(vec![
        nullable("is_auto_executed", DataType::Bit),
        nullable("is_execution_replicated", DataType::Bit),
        nullable("is_repl_serializable_only", DataType::Bit),
        nullable("skips_repl_constraints", DataType::Bit),
    ])
}

fn procedures_rows(db: &dyn SystemContext) -> SqlResult<Vec<Vec<Value>>> {
    Ok(procedures(db)
        .iter()
        .map(|procedure| {
            let mut row = ObjectRow::procedure(procedure).values();
            // Never run at startup or replicated.
            row.extend([bit(false), bit(false), bit(false), bit(false)]);
            row
        })
        .collect())
}

// ---- sys.sequences ----------------------------------------------------------

pub const SEQUENCES: SystemView = SystemView {
    schema: "sys",
    name: "sequences",
    scope: Scope::Database,
    columns: sequences_columns,
    rows: sequences_rows,
};

/// SQL Server types the value columns sql_variant; hekla has no
/// sql_variant, and decimal(38,0) holds every value of every type a
/// sequence may have (integers and decimal/numeric of scale 0).
fn sequences_columns() -> Vec<ViewColumn> {
    let value = || DataType::Decimal {
        precision: 38,
        scale: 0,
    };
    extended(vec![
        not_null("start_value", value()),
        not_null("increment", value()),
        nullable("minimum_value", value()),
        nullable("maximum_value", value()),
        not_null("is_cycling", DataType::Bit),
        not_null("is_cached", DataType::Bit),
        nullable("cache_size", DataType::Int),
        not_null("system_type_id", DataType::TinyInt),
        not_null("user_type_id", DataType::Int),
        not_null("precision", DataType::TinyInt),
        not_null("scale", DataType::TinyInt),
        not_null("current_value", value()),
        not_null("is_exhausted", DataType::Bit),
    ])
}

fn sequences_rows(db: &dyn SystemContext) -> SqlResult<Vec<Vec<Value>>> {
    Ok(sequences(db)
        .iter()
        .map(|sequence| {
            let info = super::types::describe(&sequence.data_type);
            let mut row = ObjectRow::sequence(sequence).values();
            row.extend([
                as_decimal(sequence.start),
                as_decimal(sequence.increment),
                as_decimal(sequence.min),
                as_decimal(sequence.max),
                bit(sequence.cycle),
                bit(sequence.cache.is_some()),
                // NULL for NO CACHE and for CACHE without a size (SQL
                // Server chooses the size; hekla's is 50).
                or_null(sequence.cache.flatten(), |size| {
                    int(i32::try_from(size).unwrap_or(i32::MAX))
                }),
                tinyint(info.system_type_id),
                int(info.user_type_id),
                tinyint(info.precision),
                tinyint(info.scale),
                as_decimal(sequence.current_value()),
                bit(sequence.is_exhausted()),
            ]);
            row
        })
        .collect())
}

// ---- sys.foreign_keys, sys.foreign_key_columns -------------------------------

pub const FOREIGN_KEYS: SystemView = SystemView {
    schema: "sys",
    name: "foreign_keys",
    scope: Scope::Database,
    columns: foreign_keys_columns,
    rows: foreign_keys_rows,
};

fn foreign_keys_columns() -> Vec<ViewColumn> {
    extended(vec![
        nullable("referenced_object_id", DataType::Int),
        nullable("key_index_id", DataType::Int),
        not_null("is_disabled", DataType::Bit),
        not_null("is_not_for_replication", DataType::Bit),
        not_null("is_not_trusted", DataType::Bit),
        nullable("delete_referential_action", DataType::TinyInt),
        nullable("delete_referential_action_desc", nvarchar(60)),
        nullable("update_referential_action", DataType::TinyInt),
        nullable("update_referential_action_desc", nvarchar(60)),
        not_null("is_system_named", DataType::Bit),
    ])
}

/// Every foreign key is enabled, trusted and NO ACTION (the only action
/// hekla runs).
fn foreign_keys_rows(db: &dyn SystemContext) -> SqlResult<Vec<Vec<Value>>> {
    let mut rows = Vec::new();
    for table in user_tables(db) {
        for key in &table.foreign_keys {
            let mut row = ObjectRow::foreign_key(&table, key).values();
            row.extend([
                int(key.referenced_table),
                int(super::shared::index_id(key.referenced_index)),
                bit(false),
                bit(false),
                bit(false),
                tinyint(0),
                text("NO_ACTION"),
                tinyint(0),
                text("NO_ACTION"),
                bit(key.system_named),
            ]);
            rows.push(row);
        }
    }
    Ok(rows)
}

pub const FOREIGN_KEY_COLUMNS: SystemView = SystemView {
    schema: "sys",
    name: "foreign_key_columns",
    scope: Scope::Database,
    columns: foreign_key_columns_columns,
    rows: foreign_key_columns_rows,
};

fn foreign_key_columns_columns() -> Vec<ViewColumn> {
    vec![
        not_null("constraint_object_id", DataType::Int),
        not_null("constraint_column_id", DataType::Int),
        not_null("parent_object_id", DataType::Int),
        not_null("parent_column_id", DataType::Int),
        not_null("referenced_object_id", DataType::Int),
        not_null("referenced_column_id", DataType::Int),
    ]
}

fn foreign_key_columns_rows(db: &dyn SystemContext) -> SqlResult<Vec<Vec<Value>>> {
    let column_id = |ordinal: usize| int(i32::try_from(ordinal + 1).unwrap_or(i32::MAX));
    let mut rows = Vec::new();
    for table in user_tables(db) {
        for key in &table.foreign_keys {
            for (position, (&column, &referenced)) in
                key.columns.iter().zip(&key.referenced_columns).enumerate()
            {
                rows.push(vec![
                    int(key.object_id),
                    column_id(position),
                    int(table.object_id),
                    column_id(column),
                    int(key.referenced_table),
                    column_id(referenced),
                ]);
            }
        }
    }
    Ok(rows)
}

// ---- sys.check_constraints ----------------------------------------------------

pub const CHECK_CONSTRAINTS: SystemView = SystemView {
    schema: "sys",
    name: "check_constraints",
    scope: Scope::Database,
    columns: check_constraints_columns,
    rows: check_constraints_rows,
};

fn check_constraints_columns() -> Vec<ViewColumn> {
    extended(vec![
        not_null("is_disabled", DataType::Bit),
        not_null("is_not_for_replication", DataType::Bit),
        not_null("is_not_trusted", DataType::Bit),
        not_null("parent_column_id", DataType::Int),
        nullable("definition", super::shared::nvarchar_max()),
        nullable("uses_database_collation", DataType::Bit),
        not_null("is_system_named", DataType::Bit),
    ])
}

/// `definition` is the condition as written, in parentheses (SQL Server
/// stores a normalized form, such as `([a]>(0))`); `parent_column_id` is
/// 0 for a table-level constraint.
fn check_constraints_rows(db: &dyn SystemContext) -> SqlResult<Vec<Vec<Value>>> {
    let mut rows = Vec::new();
    for table in user_tables(db) {
        for check in &table.checks {
            let mut row = ObjectRow::check(&table, check).values();
            row.extend([
                bit(false),
                bit(false),
                bit(false),
                int(check
                    .column
                    .map_or(0, |c| i32::try_from(c + 1).unwrap_or(i32::MAX))),
                text(&check.definition),
                bit(true),
                bit(check.system_named),
            ]);
            rows.push(row);
        }
    }
    Ok(rows)
}
