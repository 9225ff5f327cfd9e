//! `INFORMATION_SCHEMA.TABLES`, `INFORMATION_SCHEMA.COLUMNS` and
//! `INFORMATION_SCHEMA.VIEWS`, the ISO views over the same tables, views
//! and columns as `sys.tables`, `sys.views` and `sys.columns`.

use super::context::SystemContext;
use super::objects::{user_tables, user_views};
use super::shared::{
    int, not_null, nullable, nvarchar, or_null, smallint, sysname, text, tinyint, varchar,
};
use super::types::{describe, id, TypeInfo};
use super::{Scope, SystemView, ViewColumn};
use hekla_parser::ast;
use hekla_plan::catalog::table::TableMeta;
use hekla_plan::names::{DATABASE_NAME, MASTER_NAME};
use hekla_types::{DataType, Length, SqlResult, Value};

pub const TABLES: SystemView = SystemView {
    schema: "INFORMATION_SCHEMA",
    name: "TABLES",
    scope: Scope::Database,
    columns: tables_columns,
    rows: tables_rows,
};

fn tables_columns() -> Vec<ViewColumn> {
    vec![
        nullable("TABLE_CATALOG", nvarchar(128)),
        nullable("TABLE_SCHEMA", nvarchar(128)),
        not_null("TABLE_NAME", sysname()),
        nullable("TABLE_TYPE", varchar(10)),
    ]
}

/// The tables, then the views.
fn tables_rows(db: &dyn SystemContext) -> SqlResult<Vec<Vec<Value>>> {
    let tables = user_tables(db);
    let views = user_views(db);
    let catalog = db.catalog();
    let row = |schema_id, name: &str, kind: &str| {
        vec![
            text(DATABASE_NAME),
            or_null(catalog.schema_name(schema_id), text),
            text(name),
            text(kind),
        ]
    };
    let tables = tables
        .iter()
        .map(|table| row(table.schema_id, &table.name, "BASE TABLE"));
    let views = views
        .iter()
        .map(|view| row(view.schema_id, &view.name, "VIEW"));
    Ok(tables.chain(views).collect())
}

pub const COLUMNS: SystemView = SystemView {
    schema: "INFORMATION_SCHEMA",
    name: "COLUMNS",
    scope: Scope::Database,
    columns: columns_columns,
    rows: columns_rows,
};

fn columns_columns() -> Vec<ViewColumn> {
    vec![
        nullable("TABLE_CATALOG", nvarchar(128)),
        nullable("TABLE_SCHEMA", nvarchar(128)),
        not_null("TABLE_NAME", nvarchar(128)),
        nullable("COLUMN_NAME", nvarchar(128)),
        nullable("ORDINAL_POSITION", DataType::Int),
        nullable("COLUMN_DEFAULT", nvarchar(4000)),
        nullable("IS_NULLABLE", varchar(3)),
        nullable("DATA_TYPE", nvarchar(128)),
        nullable("CHARACTER_MAXIMUM_LENGTH", DataType::Int),
        nullable("CHARACTER_OCTET_LENGTH", DataType::Int),
        nullable("NUMERIC_PRECISION", DataType::TinyInt),
        nullable("NUMERIC_PRECISION_RADIX", DataType::SmallInt),
        nullable("NUMERIC_SCALE", DataType::Int),
        nullable("DATETIME_PRECISION", DataType::SmallInt),
        nullable("CHARACTER_SET_CATALOG", nvarchar(128)),
        nullable("CHARACTER_SET_SCHEMA", nvarchar(128)),
        nullable("CHARACTER_SET_NAME", nvarchar(128)),
        nullable("COLLATION_CATALOG", nvarchar(128)),
        nullable("COLLATION_SCHEMA", nvarchar(128)),
        nullable("COLLATION_NAME", nvarchar(128)),
        nullable("DOMAIN_CATALOG", nvarchar(128)),
        nullable("DOMAIN_SCHEMA", nvarchar(128)),
        nullable("DOMAIN_NAME", nvarchar(128)),
    ]
}

/// The columns of the tables, then of the views.
fn columns_rows(db: &dyn SystemContext) -> SqlResult<Vec<Vec<Value>>> {
    let tables = user_tables(db);
    let views = user_views(db);
    let catalog = db.catalog();
    let mut rows = Vec::new();
    for table in &tables {
        let schema = catalog.schema_name(table.schema_id);
        let defaults = default_texts(table);
        for (ordinal, column) in table.columns.iter().enumerate() {
            let default = defaults.get(ordinal).cloned().flatten();
            let column = ColumnRow {
                schema,
                table: &table.name,
                name: &column.name,
                ordinal,
                default,
                nullable: column.nullable,
                data_type: &column.data_type,
            };
            rows.push(column.values());
        }
    }
    for view in &views {
        let schema = catalog.schema_name(view.schema_id);
        for (ordinal, column) in view.columns.iter().enumerate() {
            let column = ColumnRow {
                schema,
                table: &view.name,
                name: &column.name,
                ordinal,
                default: None,
                nullable: column.nullable,
                data_type: &column.data_type,
            };
            rows.push(column.values());
        }
    }
    Ok(rows)
}

/// One column of a table or view, as `INFORMATION_SCHEMA.COLUMNS` shows it.
struct ColumnRow<'a> {
    schema: Option<&'a str>,
    table: &'a str,
    name: &'a str,
    ordinal: usize,
    default: Option<String>,
    nullable: bool,
    data_type: &'a DataType,
}

impl ColumnRow<'_> {
    fn values(self) -> Vec<Value> {
        let info = describe(self.data_type);
        let numeric = Numeric::of(&info);
        let characters = character_length(self.data_type);
        let character_set = character_set(self.data_type);
        let mut row = vec![
            text(DATABASE_NAME),
            or_null(self.schema, text),
            text(self.table),
            text(self.name),
            int(i32::try_from(self.ordinal + 1).unwrap_or(i32::MAX)),
            or_null(self.default, text),
            text(if self.nullable { "YES" } else { "NO" }),
            text(info.name),
            or_null(characters, int),
            // In bytes: max_length, -1 for the max types.
            or_null(characters.map(|_| i32::from(info.max_length)), int),
            or_null(numeric.map(|n| n.precision), tinyint),
            or_null(numeric.map(|n| n.radix), smallint),
            or_null(numeric.map(|n| n.scale), int),
            or_null(datetime_precision(self.data_type), smallint),
            // Character sets live in master; SQL Server leaves the
            // schema NULL.
            or_null(character_set.map(|_| MASTER_NAME), text),
            Value::Null,
            or_null(character_set, text),
            Value::Null,
            Value::Null,
            or_null(info.collation, |c| text(c.name())),
        ];
        // hekla has no alias types: no domain.
        row.extend([Value::Null, Value::Null, Value::Null]);
        row
    }
}

pub const VIEWS: SystemView = SystemView {
    schema: "INFORMATION_SCHEMA",
    name: "VIEWS",
    scope: Scope::Database,
    columns: views_columns,
    rows: views_rows,
};

fn views_columns() -> Vec<ViewColumn> {
    vec![
        nullable("TABLE_CATALOG", nvarchar(128)),
        nullable("TABLE_SCHEMA", nvarchar(128)),
        not_null("TABLE_NAME", sysname()),
        nullable("VIEW_DEFINITION", nvarchar(4000)),
        nullable("CHECK_OPTION", varchar(7)),
        nullable("IS_UPDATABLE", varchar(2)),
    ]
}

/// VIEW_DEFINITION is the definition's first 4,000 characters, as in SQL
/// Server; IS_UPDATABLE is always NO there (and views are read-only in
/// hekla anyway).
fn views_rows(db: &dyn SystemContext) -> SqlResult<Vec<Vec<Value>>> {
    let views = user_views(db);
    let catalog = db.catalog();
    Ok(views
        .iter()
        .map(|view| {
            vec![
                text(DATABASE_NAME),
                or_null(catalog.schema_name(view.schema_id), text),
                text(&view.name),
                text(view.definition.chars().take(4000).collect::<String>()),
                text("NONE"),
                text("NO"),
            ]
        })
        .collect())
}

/// NUMERIC_PRECISION, NUMERIC_PRECISION_RADIX and NUMERIC_SCALE, which SQL
/// Server gives for the integer, exact and approximate numeric and money
/// types (not bit).
#[derive(Clone, Copy)]
struct Numeric {
    precision: u8,
    radix: i16,
    scale: i32,
}

impl Numeric {
    fn of(info: &TypeInfo) -> Option<Numeric> {
        let radix = match info.system_type_id {
            id::TINYINT
            | id::SMALLINT
            | id::INT
            | id::BIGINT
            | id::DECIMAL
            | id::NUMERIC
            | id::MONEY
            | id::SMALLMONEY => 10,
            id::REAL | id::FLOAT => 2,
            _ => return None,
        };
        Some(Numeric {
            precision: info.precision,
            radix,
            scale: i32::from(info.scale),
        })
    }
}

/// The widest value in characters (bytes for binary types), -1 for the
/// `max` types; NULL for other types.
fn character_length(data_type: &DataType) -> Option<i32> {
    let length = |len: Length| match len {
        Length::Bounded(n) => i32::try_from(n).unwrap_or(i32::MAX),
        Length::Max => -1,
    };
    match *data_type {
        DataType::Char { len, .. } | DataType::NChar { len, .. } | DataType::Binary { len } => {
            Some(length(Length::Bounded(len)))
        }
        DataType::VarChar { len, .. }
        | DataType::NVarChar { len, .. }
        | DataType::VarBinary { len } => Some(length(len)),
        _ => None,
    }
}

/// `iso_1` for char/varchar, `UNICODE` for nchar/nvarchar.
fn character_set(data_type: &DataType) -> Option<&'static str> {
    match data_type {
        DataType::Char { .. } | DataType::VarChar { .. } => Some("iso_1"),
        DataType::NChar { .. } | DataType::NVarChar { .. } => Some("UNICODE"),
        _ => None,
    }
}

/// Fractional-second digits of the date and time types.
fn datetime_precision(data_type: &DataType) -> Option<i16> {
    match *data_type {
        DataType::Date | DataType::SmallDateTime => Some(0),
        DataType::DateTime => Some(3),
        DataType::Time { scale }
        | DataType::DateTime2 { scale }
        | DataType::DateTimeOffset { scale } => Some(i16::from(scale)),
        _ => None,
    }
}

/// Each column's DEFAULT as COLUMN_DEFAULT shows it: the expression of
/// the stored CREATE TABLE, in parentheses. (SQL Server also normalises
/// the text, e.g. `((0))` for `0` and `(getdate())`; hekla prints the
/// expression in its own canonical T-SQL instead.)
fn default_texts(table: &TableMeta) -> Vec<Option<String>> {
    let mut texts = vec![None; table.columns.len()];
    let Ok(batch) = hekla_parser::parse_batch(&table.definition) else {
        return texts;
    };
    let Some(ast::StatementKind::CreateTable(create)) = batch.statements.first().map(|s| &s.kind)
    else {
        return texts;
    };
    for element in &create.elements {
        let ast::TableElement::Column(column) = element else {
            continue;
        };
        let (Some((_, expr)), Some(ordinal)) =
            (&column.default, table.column_index(&column.name.value))
        else {
            continue;
        };
        texts[ordinal] = Some(format!("({expr})"));
    }
    texts
}
