//! `sys.sql_modules` (the definitions of views, procedures and
//! functions), `sys.parameters` (of procedures and functions) and
//! `sys.table_types`.

use super::context::SystemContext;
use super::objects::{functions, procedures, user_views};
use super::shared::{bit, int, not_null, nullable, nvarchar, nvarchar_max, sysname, text};
use super::table_columns::{types_columns, user_type_row};
use super::{Scope, SystemView, ViewColumn};
use hekla_plan::catalog::procedure::ParameterKind;
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

/// A row of `sys.sql_modules`.
struct ModuleRow<'a> {
    object_id: i32,
    definition: &'a str,
    schemabinding: bool,
    null_on_null_input: bool,
    native: bool,
}

/// Each view, procedure and function with its CREATE text: as written,
/// except that SQL Server's rewriting of ALTER to CREATE is applied (hekla
/// keeps the statement only, where SQL Server keeps the whole batch,
/// comments around the statement included).
fn sql_modules_rows(db: &dyn SystemContext) -> SqlResult<Vec<Vec<Value>>> {
    let views = user_views(db);
    let procedures = procedures(db);
    let functions = functions(db);
    let mut modules: Vec<ModuleRow> = views
        .iter()
        .map(|v| ModuleRow {
            object_id: v.object_id,
            definition: &v.definition,
            schemabinding: v.schemabinding,
            null_on_null_input: false,
            native: false,
        })
        .chain(procedures.iter().map(|p| ModuleRow {
            object_id: p.object_id,
            definition: &p.definition,
            schemabinding: p.schemabinding,
            null_on_null_input: false,
            native: p.native,
        }))
        .chain(functions.iter().map(|f| ModuleRow {
            object_id: f.object_id,
            definition: &f.definition,
            schemabinding: f.schemabinding,
            null_on_null_input: f.null_on_null_input,
            native: f.native,
        }))
        .collect();
    modules.sort_by_key(|module| module.object_id);
    Ok(modules
        .into_iter()
        .map(|module| {
            vec![
                int(module.object_id),
                text(module.definition),
                // hekla compares NULLs as ANSI_NULLS ON does and reads
                // "quoted" names as QUOTED_IDENTIFIER ON does.
                bit(true),
                bit(true),
                bit(module.schemabinding),
                // A schema-bound module depends on the database collation,
                // the only collation hekla has.
                bit(module.schemabinding),
                // Never WITH RECOMPILE or EXECUTE AS another principal in
                // hekla.
                bit(false),
                bit(module.null_on_null_input),
                Value::Null,
                bit(module.native),
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

/// A row of `sys.parameters`.
struct ParameterRow {
    object_id: i32,
    /// With its `@`; empty for a scalar function's return value.
    name: String,
    parameter_id: i32,
    data_type: DataType,
    /// OUTPUT, or a scalar function's return value.
    output: bool,
    nullable: bool,
}

impl ParameterRow {
    fn values(&self) -> Vec<Value> {
        let info = super::types::describe(&self.data_type);
        vec![
            int(self.object_id),
            text(self.name.as_str()),
            int(self.parameter_id),
            Value::TinyInt(info.system_type_id),
            int(info.user_type_id),
            Value::SmallInt(info.max_length),
            Value::TinyInt(info.precision),
            Value::TinyInt(info.scale),
            bit(self.output),
            bit(false),
            // SQL Server keeps defaults only for CLR modules here.
            bit(false),
            bit(false),
            Value::Null,
            int(0),
            bit(false),
            bit(self.nullable),
        ]
    }
}

/// Each procedure's and function's parameters, numbered from 1 in
/// declaration order; a scalar function's return value is parameter 0,
/// without a name.
fn parameters_rows(db: &dyn SystemContext) -> SqlResult<Vec<Vec<Value>>> {
    let mut rows = Vec::new();
    for procedure in procedures(db) {
        for (index, parameter) in procedure.parameters.iter().enumerate() {
            let ParameterKind::Scalar(data_type) = &parameter.kind else {
                continue;
            };
            rows.push(ParameterRow {
                object_id: procedure.object_id,
                name: format!("@{}", parameter.name),
                parameter_id: index as i32 + 1,
                data_type: *data_type,
                output: parameter.output,
                nullable: !parameter.not_null,
            });
        }
    }
    for function in functions(db) {
        if let Some(returns) = function.returns() {
            rows.push(ParameterRow {
                object_id: function.object_id,
                name: String::new(),
                parameter_id: 0,
                data_type: returns,
                output: true,
                nullable: true,
            });
        }
        for (index, parameter) in function.parameters.iter().enumerate() {
            rows.push(ParameterRow {
                object_id: function.object_id,
                name: format!("@{}", parameter.name),
                parameter_id: index as i32 + 1,
                data_type: parameter.data_type,
                output: false,
                nullable: true,
            });
        }
    }
    Ok(rows.iter().map(ParameterRow::values).collect())
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
fn table_types_rows(db: &dyn SystemContext) -> SqlResult<Vec<Vec<Value>>> {
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
