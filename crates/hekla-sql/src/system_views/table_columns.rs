//! `sys.columns` (every column of every user table, view and table type),
//! `sys.identity_columns`
//! (the IDENTITY ones, with their seed, increment and last value) and
//! `sys.types` (the system types hekla supports and the user types).

use super::context::SystemContext;
use super::objects::{user_tables, user_views};
use super::shared::{
    bit, int, not_null, nullable, nvarchar, or_null, smallint, sysname, text, tinyint,
};
use super::types::id::TABLE_TYPE;
use super::types::{describe, system_types, TypeInfo};
use super::{Scope, SystemView, ViewColumn};
use hekla_plan::catalog::table::{ColumnMeta, TableMeta};
use hekla_plan::catalog::user_type::{UserType, UserTypeKind};
use hekla_types::{DataType, SqlResult, Value};

/// `system_type_id`, `user_type_id`, `max_length`, `precision`, `scale`
/// and `collation_name`, which both views have.
fn type_values(info: &TypeInfo) -> [Value; 6] {
    [
        tinyint(info.system_type_id),
        int(info.user_type_id),
        smallint(info.max_length),
        tinyint(info.precision),
        tinyint(info.scale),
        or_null(info.collation, |c| text(c.name())),
    ]
}

fn type_columns() -> [ViewColumn; 6] {
    [
        not_null("system_type_id", DataType::TinyInt),
        not_null("user_type_id", DataType::Int),
        not_null("max_length", DataType::SmallInt),
        not_null("precision", DataType::TinyInt),
        not_null("scale", DataType::TinyInt),
        nullable("collation_name", sysname()),
    ]
}

// ---- sys.columns ----------------------------------------------------------

pub const COLUMNS: SystemView = SystemView {
    schema: "sys",
    name: "columns",
    scope: Scope::Database,
    columns: columns_columns,
    rows: columns_rows,
};

pub(super) fn columns_columns() -> Vec<ViewColumn> {
    let mut columns = vec![
        not_null("object_id", DataType::Int),
        nullable("name", sysname()),
        not_null("column_id", DataType::Int),
    ];
    columns.extend(type_columns());
    columns.extend([
        nullable("is_nullable", DataType::Bit),
        nullable("is_ansi_padded", DataType::Bit),
        nullable("is_rowguidcol", DataType::Bit),
        nullable("is_identity", DataType::Bit),
        nullable("is_computed", DataType::Bit),
        nullable("is_filestream", DataType::Bit),
        nullable("is_replicated", DataType::Bit),
        nullable("is_non_sql_subscribed", DataType::Bit),
        nullable("is_merge_published", DataType::Bit),
        nullable("is_dts_replicated", DataType::Bit),
        not_null("is_xml_document", DataType::Bit),
        not_null("xml_collection_id", DataType::Int),
        // NULL for a column with a default: see below.
        nullable("default_object_id", DataType::Int),
        not_null("rule_object_id", DataType::Int),
        nullable("is_sparse", DataType::Bit),
        nullable("is_column_set", DataType::Bit),
        nullable("generated_always_type", DataType::TinyInt),
        nullable("generated_always_type_desc", nvarchar(60)),
        nullable("encryption_type", DataType::Int),
        nullable("encryption_type_desc", nvarchar(64)),
        nullable("encryption_algorithm_name", sysname()),
        nullable("column_encryption_key_id", DataType::Int),
        nullable("column_encryption_key_database_name", sysname()),
        nullable("is_hidden", DataType::Bit),
        not_null("is_masked", DataType::Bit),
    ]);
    columns
}

/// The columns of tables, views and table types (whose object id is
/// their table's, `sys.table_types.type_table_object_id`).
fn columns_rows(db: &dyn SystemContext) -> SqlResult<Vec<Vec<Value>>> {
    let mut rows = Vec::new();
    for table in user_tables(db) {
        for ordinal in 0..table.columns.len() {
            rows.push(column_row(&table, ordinal));
        }
    }
    for view in user_views(db) {
        for (ordinal, column) in view.columns.iter().enumerate() {
            let described = Described {
                object_id: view.object_id,
                name: &column.name,
                ordinal,
                data_type: &column.data_type,
                user_type_id: None,
                nullable: column.nullable,
                is_identity: false,
                has_default: false,
            };
            rows.push(described.row());
        }
    }
    let catalog = db.catalog();
    for user_type in catalog.types.iter() {
        let Some(table_type) = user_type.as_table() else {
            continue;
        };
        for (ordinal, column) in table_type.columns.iter().enumerate() {
            let is_identity = table_type.identity_column == Some(ordinal);
            rows.push(Described::column(user_type.id, column, ordinal, is_identity).row());
        }
    }
    Ok(rows)
}

/// The `sys.columns` row of column `ordinal` of `table`.
fn column_row(table: &TableMeta, ordinal: usize) -> Vec<Value> {
    let is_identity = table
        .identity
        .as_ref()
        .is_some_and(|identity| identity.column == ordinal);
    Described::column(
        table.object_id,
        &table.columns[ordinal],
        ordinal,
        is_identity,
    )
    .row()
}

/// What a `sys.columns` row says about a column of a table, view or table
/// type.
struct Described<'a> {
    object_id: i32,
    name: &'a str,
    ordinal: usize,
    data_type: &'a DataType,
    /// The alias type the column was declared with.
    user_type_id: Option<i32>,
    nullable: bool,
    is_identity: bool,
    has_default: bool,
}

impl<'a> Described<'a> {
    /// A column of a table or table type with `object_id`.
    fn column(object_id: i32, column: &'a ColumnMeta, ordinal: usize, is_identity: bool) -> Self {
        Described {
            object_id,
            name: &column.name,
            ordinal,
            data_type: &column.data_type,
            user_type_id: column.user_type_id,
            nullable: column.nullable,
            is_identity,
            has_default: column.default.is_some(),
        }
    }

    fn row(&self) -> Vec<Value> {
        let mut row = vec![
            int(self.object_id),
            text(self.name),
            int(i32::try_from(self.ordinal + 1).unwrap_or(i32::MAX)),
        ];
        let described = describe(self.data_type);
        let info = TypeInfo {
            user_type_id: self.user_type_id.unwrap_or(described.user_type_id),
            ..described
        };
        row.extend(type_values(&info));
        row.extend(self.rest());
        row
    }

    fn rest(&self) -> [Value; 25] {
        let (nullable, is_identity) = (self.nullable, self.is_identity);
        [
            bit(nullable),
            // Character and binary columns keep trailing spaces and
            // zeros as ANSI_PADDING ON does; other types have no padding.
            bit(is_padded(self.data_type)),
            // hekla refuses ROWGUIDCOL, computed, FILESTREAM, sparse,
            // encrypted, hidden and masked columns, xml and replication:
            // SQL Server's values for a column without them.
            bit(false),
            bit(is_identity),
            bit(false),
            bit(false),
            bit(false),
            bit(false),
            bit(false),
            bit(false),
            bit(false),
            int(0),
            // A DEFAULT is a constraint object in SQL Server; hekla
            // gives it no object id, so a column with a default says
            // NULL (unknown) rather than 0, which means "no default".
            if self.has_default {
                Value::Null
            } else {
                int(0)
            },
            int(0),
            bit(false),
            bit(false),
            tinyint(0),
            text("NOT_APPLICABLE"),
            Value::Null,
            Value::Null,
            Value::Null,
            Value::Null,
            Value::Null,
            bit(false),
            bit(false),
        ]
    }
}

// ---- sys.identity_columns ---------------------------------------------------

pub const IDENTITY_COLUMNS: SystemView = SystemView {
    schema: "sys",
    name: "identity_columns",
    scope: Scope::Database,
    columns: identity_columns_columns,
    rows: identity_columns_rows,
};

/// `sys.columns`' columns, then the identity's. SQL Server types the
/// values sql_variant; hekla has no sql_variant and gives decimal(38, 0),
/// which holds every value of every type an IDENTITY column may have.
fn identity_columns_columns() -> Vec<ViewColumn> {
    let value = DataType::Decimal {
        precision: 38,
        scale: 0,
    };
    let mut columns = columns_columns();
    columns.extend([
        nullable("seed_value", value),
        nullable("increment_value", value),
        nullable("last_value", value),
        nullable("is_not_for_replication", DataType::Bit),
    ]);
    columns
}

fn identity_columns_rows(db: &dyn SystemContext) -> SqlResult<Vec<Vec<Value>>> {
    use hekla_plan::catalog::counter::as_decimal;
    let mut rows = Vec::new();
    for table in user_tables(db) {
        let Some(identity) = &table.identity else {
            continue;
        };
        let mut row = column_row(&table, identity.column);
        row.extend([
            as_decimal(identity.seed),
            as_decimal(identity.increment),
            // NULL until the first value is generated, as in SQL Server.
            or_null(identity.counter.last(), as_decimal),
            bit(false),
        ]);
        rows.push(row);
    }
    Ok(rows)
}

fn is_padded(data_type: &DataType) -> bool {
    matches!(
        data_type,
        DataType::Char { .. }
            | DataType::VarChar { .. }
            | DataType::NChar { .. }
            | DataType::NVarChar { .. }
            | DataType::Binary { .. }
            | DataType::VarBinary { .. }
    )
}

// ---- sys.types ------------------------------------------------------------

pub const TYPES: SystemView = SystemView {
    schema: "sys",
    name: "types",
    scope: Scope::Database,
    columns: types_columns,
    rows: types_rows,
};

pub(super) fn types_columns() -> Vec<ViewColumn> {
    let mut columns = vec![not_null("name", sysname())];
    columns.extend(type_columns());
    // sys.types has schema_id and principal_id between user_type_id and
    // max_length: put them where SQL Server does.
    columns.insert(3, not_null("schema_id", DataType::Int));
    columns.insert(4, nullable("principal_id", DataType::Int));
    columns.extend([
        nullable("is_nullable", DataType::Bit),
        not_null("is_user_defined", DataType::Bit),
        not_null("is_assembly_type", DataType::Bit),
        not_null("default_object_id", DataType::Int),
        not_null("rule_object_id", DataType::Int),
        not_null("is_table_type", DataType::Bit),
    ]);
    columns
}

/// The system types live in the `sys` schema (schema_id 4 in SQL Server);
/// hekla reports its own id for `sys`. User types follow, by id.
fn types_rows(db: &dyn SystemContext) -> SqlResult<Vec<Vec<Value>>> {
    let catalog = db.catalog();
    let sys_schema = catalog
        .schema_id(hekla_plan::catalog::store::SYSTEM_SCHEMA)
        .map_or(Value::Null, |id| int(hekla_plan::names::schema_id(id)));
    let mut rows: Vec<Vec<Value>> = system_types()
        .into_iter()
        .map(|ty| {
            TypeRow {
                name: ty.info.name,
                values: type_values(&ty.info),
                schema_id: sys_schema.clone(),
                nullable: ty.nullable,
                user_defined: false,
                table_type: false,
            }
            .values()
        })
        .collect();
    rows.extend(
        catalog
            .types
            .iter()
            .map(|user_type| user_type_row(user_type)),
    );
    Ok(rows)
}

/// The `sys.types` row of a user type. An alias type has its base's
/// system type id and sizes; a table type is SQL Server's type 243
/// (`table`), of no size or collation, never nullable.
pub(super) fn user_type_row(user_type: &UserType) -> Vec<Value> {
    let (values, nullable) = match &user_type.kind {
        UserTypeKind::Alias(alias) => {
            let info = TypeInfo {
                user_type_id: user_type.id,
                ..describe(&alias.base)
            };
            (type_values(&info), alias.nullable)
        }
        UserTypeKind::Table(_) => {
            let values = [
                tinyint(TABLE_TYPE),
                int(user_type.id),
                smallint(-1),
                tinyint(0),
                tinyint(0),
                Value::Null,
            ];
            (values, false)
        }
    };
    TypeRow {
        name: &user_type.name,
        values,
        schema_id: int(hekla_plan::names::schema_id(user_type.schema_id)),
        nullable,
        user_defined: true,
        table_type: user_type.as_table().is_some(),
    }
    .values()
}

/// What a `sys.types` row says.
struct TypeRow<'a> {
    name: &'a str,
    /// From `system_type_id` to `collation_name` ([`type_values`]).
    values: [Value; 6],
    schema_id: Value,
    nullable: bool,
    user_defined: bool,
    table_type: bool,
}

impl TypeRow<'_> {
    fn values(self) -> Vec<Value> {
        let [system_type_id, user_type_id, max_length, precision, scale, collation] = self.values;
        vec![
            text(self.name),
            system_type_id,
            user_type_id,
            self.schema_id,
            // principal_id: owned by the schema's owner.
            Value::Null,
            max_length,
            precision,
            scale,
            collation,
            bit(self.nullable),
            bit(self.user_defined),
            // is_assembly_type, default_object_id, rule_object_id: hekla
            // has no CLR types, bound defaults or rules.
            bit(false),
            int(0),
            int(0),
            bit(self.table_type),
        ]
    }
}
