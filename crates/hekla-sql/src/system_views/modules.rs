//! `sys.sql_modules` (the definitions of views and procedures),
//! `sys.parameters` (of procedures) and `sys.table_types` (SQL Server's
//! columns and rows).

use super::objects::{procedures, user_views};
use super::shared::{bit, int, not_null, nullable, nvarchar, nvarchar_max, sysname, text};
use super::table_columns::{types_columns, user_type_row};
use super::{Scope, SystemView, ViewColumn};
use crate::catalog::procedure::ParameterKind;
use crate::session::SqlDatabase;
use hekla_types::{DataType, SqlResult, Value};

pub const SQL_MODULES: SystemView = SystemView {
    schema: "sys",
    name: "sql_modules",
    scope: Scope::Database,
    columns: sql_modules_columns,
    rows: sql_modules_rows,
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

/// Each view and procedure with its CREATE text: as written, except that
/// SQL Server's rewriting of ALTER to CREATE is applied (hekla keeps the
/// statement only, where SQL Server keeps the whole batch, comments around
/// the statement included).
fn sql_modules_rows(db: &SqlDatabase) -> SqlResult<Vec<Vec<Value>>> {
    let views = user_views(db);
    let procedures = procedures(db);
    let mut modules: Vec<(i32, &str, bool, bool)> = views
        .iter()
        .map(|v| (v.object_id, v.definition.as_str(), v.schemabinding, false))
        .chain(procedures.iter().map(|p| {
            (
                p.object_id,
                p.definition.as_str(),
                p.schemabinding,
                p.native,
            )
        }))
        .collect();
    modules.sort_by_key(|module| module.0);
    Ok(modules
        .into_iter()
        .map(|(object_id, definition, schemabinding, native)| {
            vec![
                int(object_id),
                text(definition),
                // hekla compares NULLs as ANSI_NULLS ON does and reads
                // "quoted" names as QUOTED_IDENTIFIER ON does.
                bit(true),
                bit(true),
                bit(schemabinding),
                // A schema-bound module depends on the database collation,
                // the only collation hekla has.
                bit(schemabinding),
                // Never WITH RECOMPILE, NULL ON NULL INPUT or EXECUTE AS
                // another principal in hekla.
                bit(false),
                bit(false),
                Value::Null,
                bit(native),
            ]
        })
        .collect())
}

pub const PARAMETERS: SystemView = SystemView {
    schema: "sys",
    name: "parameters",
    scope: Scope::Database,
    columns: parameters_columns,
    rows: parameters_rows,
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

/// Each procedure parameter, numbered from 1 in declaration order.
fn parameters_rows(db: &SqlDatabase) -> SqlResult<Vec<Vec<Value>>> {
    let mut rows = Vec::new();
    for procedure in procedures(db) {
        for (index, parameter) in procedure.parameters.iter().enumerate() {
            let ParameterKind::Scalar(data_type) = &parameter.kind else {
                continue;
            };
            let info = super::types::describe(data_type);
            rows.push(vec![
                int(procedure.object_id),
                text(format!("@{}", parameter.name)),
                int(index as i32 + 1),
                Value::TinyInt(info.system_type_id),
                int(info.user_type_id),
                Value::SmallInt(info.max_length),
                Value::TinyInt(info.precision),
                Value::TinyInt(info.scale),
                bit(parameter.output),
                bit(false),
                // SQL Server keeps defaults only for CLR modules here.
                bit(false),
                bit(false),
                Value::Null,
                int(0),
                bit(false),
                bit(!parameter.not_null),
            ]);
        }
    }
    Ok(rows)
}

pub const TABLE_TYPES: SystemView = SystemView {
    schema: "sys",
    name: "table_types",
    scope: Scope::Database,
    columns: table_types_columns,
    rows: table_types_rows,
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

/// Each table type's `sys.types` row, with the object id of the table it
/// describes (its own id in hekla) and whether it is memory-optimized.
fn table_types_rows(db: &SqlDatabase) -> SqlResult<Vec<Vec<Value>>> {
    let catalog = db.catalog();
    Ok(catalog
        .types
        .iter()
        .filter_map(|user_type| {
            let table_type = user_type.as_table()?;
            let mut row = user_type_row(user_type);
            row.extend([int(user_type.id), bit(table_type.memory_optimized)]);
            Some(row)
        })
        .collect())
}
