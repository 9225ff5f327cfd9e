//! `sys.sql_modules`, `sys.parameters` and `sys.table_types`: SQL Server's
//! columns and, until hekla stores procedures, functions, views and table
//! types, no rows.

use super::objects::no_rows;
use super::shared::{not_null, nullable, nvarchar, nvarchar_max, sysname};
use super::table_columns::types_columns;
use super::{Scope, SystemView, ViewColumn};
use hekla_types::DataType;

pub const SQL_MODULES: SystemView = SystemView {
    schema: "sys",
    name: "sql_modules",
    scope: Scope::Database,
    columns: sql_modules_columns,
    rows: no_rows,
};

fn sql_modules_columns() -> Vec<ViewColumn> {
    vec![
        not_null("object_id", DataType::Int),
        nullable("definition", nvarchar_max()),
        nullable("uses_ansi_nulls", DataType::Bit),
        nullable("uses_quoted_identifier", DataType::Bit),
        nullable("is_schema_bound", DataType::Bit),
        nullable("uses_database_collation", DataType::Bit),
        nullable("is_recompiled", DataType::Bit),
        nullable("null_on_null_input", DataType::Bit),
        nullable("execute_as_principal_id", DataType::Int),
        nullable("uses_native_compilation", DataType::Bit),
    ]
}

pub const PARAMETERS: SystemView = SystemView {
    schema: "sys",
    name: "parameters",
    scope: Scope::Database,
    columns: parameters_columns,
    rows: no_rows,
};

/// `default_value` is sql_variant in SQL Server, which hekla lacks; SQL
/// Server fills it only for CLR modules, so it would be NULL anyway.
fn parameters_columns() -> Vec<ViewColumn> {
    vec![
        not_null("object_id", DataType::Int),
        nullable("name", sysname()),
        not_null("parameter_id", DataType::Int),
        not_null("system_type_id", DataType::TinyInt),
        not_null("user_type_id", DataType::Int),
        not_null("max_length", DataType::SmallInt),
        not_null("precision", DataType::TinyInt),
        not_null("scale", DataType::TinyInt),
        not_null("is_output", DataType::Bit),
        not_null("is_cursor_ref", DataType::Bit),
        not_null("has_default_value", DataType::Bit),
        not_null("is_xml_document", DataType::Bit),
        nullable("default_value", nvarchar(4000)),
        not_null("xml_collection_id", DataType::Int),
        not_null("is_readonly", DataType::Bit),
        nullable("is_nullable", DataType::Bit),
    ]
}

pub const TABLE_TYPES: SystemView = SystemView {
    schema: "sys",
    name: "table_types",
    scope: Scope::Database,
    columns: table_types_columns,
    rows: no_rows,
};

/// `sys.types`' columns and two of its own.
fn table_types_columns() -> Vec<ViewColumn> {
    let mut columns = types_columns();
    columns.extend([
        not_null("type_table_object_id", DataType::Int),
        nullable("is_memory_optimized", DataType::Bit),
    ]);
    columns
}
