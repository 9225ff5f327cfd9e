//! Tables as SQL sees them: CREATE TABLE bound to an engine [`TableDef`]
//! plus what SQL keeps about it, and the same binding replayed at open from
//! the stored definition.

use super::store::StoredObject;
use super::Catalog;
use crate::ast::{self, ConstraintKind, OptionValue, TableElement};
use crate::bind::expr::{assignment_type, implicit, Binder, Scalar};
use crate::bind::types::{self, TypeContext};
use crate::bind::variables::Variables;
use hekla_engine::{
    ColumnDef, Database, Durability, IndexDef, IndexKind, SchemaId, Table, TableDef, Uniqueness,
};
use hekla_types::{Collation, DataType, SortOrder, SqlError, SqlResult};
use std::sync::Arc;

#[derive(Clone, Debug, PartialEq)]
pub struct ColumnMeta {
    pub name: String,
    pub data_type: DataType,
    pub nullable: bool,
    /// `DEFAULT expr`, bound without columns or variables and converted to
    /// the column's type; evaluated per inserted row (so `SYSDATETIME()`
    /// is the time of the insert).
    pub default: Option<Scalar>,
}

/// Which constraint an index enforces, if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyConstraint {
    PrimaryKey,
    Unique,
}

#[derive(Clone, Debug, PartialEq)]
pub struct IndexMeta {
    pub name: String,
    pub kind: IndexKind,
    pub columns: Vec<(usize, SortOrder)>,
    pub constraint: Option<KeyConstraint>,
}

/// A user table.
pub struct TableMeta {
    pub object_id: i32,
    pub schema_id: SchemaId,
    pub name: String,
    pub engine: Arc<Table>,
    pub columns: Vec<ColumnMeta>,
    pub indexes: Vec<IndexMeta>,
    pub durability: Durability,
    /// The CREATE TABLE text.
    pub definition: String,
    pub created_ms: i64,
}

/// Tables print as their name and id (plans print them in Debug output).
impl std::fmt::Debug for TableMeta {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "TableMeta({} #{})", self.name, self.object_id)
    }
}

/// A bound CREATE TABLE: what the engine needs and what SQL keeps.
pub struct TableDesign {
    pub schema_id: SchemaId,
    pub name: String,
    pub columns: Vec<ColumnMeta>,
    pub indexes: Vec<IndexMeta>,
    pub durability: Durability,
}

impl TableDesign {
    /// Binds `create` against `catalog`; `object_id` names unnamed keys.
    pub fn bind(create: &ast::CreateTable, catalog: &Catalog, object_id: i32) -> SqlResult<Self> {
        let schema_name = create
            .name
            .schema()
            .map_or("dbo", |schema| schema.value.as_str());
        let schema_id = catalog.schema_id(schema_name).ok_or_else(|| {
            SqlError::new(
                2760,
                16,
                1,
                format!("The specified schema name \"{schema_name}\" either does not exist or you do not have permission to use it."),
            )
        })?;
        let name = create.name.name().value.clone();
        if create.name.database().is_some() {
            return Err(not_yet("three-part names in CREATE TABLE"));
        }
        if name.starts_with('#') {
            return Err(not_yet("temporary tables"));
        }
        let (memory_optimized, durability) = table_options(&create.options)?;
        let mut builder = Builder {
            table: &name,
            object_id,
            columns: Vec::new(),
            declared_nullable: Vec::new(),
            indexes: Vec::new(),
        };
        for element in &create.elements {
            if let TableElement::Column(column) = element {
                builder.column(column)?;
            }
        }
        for element in &create.elements {
            match element {
                TableElement::Column(column) => builder.column_keys(column)?,
                TableElement::Constraint(constraint) => builder.table_constraint(constraint)?,
                TableElement::Index(index) => builder.table_index(index)?,
            }
        }
        builder.check_keys()?;
        let has_primary_key = builder
            .indexes
            .iter()
            .any(|index| index.constraint == Some(KeyConstraint::PrimaryKey));
        if memory_optimized && durability == Durability::SchemaAndData && !has_primary_key {
            return Err(SqlError::new(
                41321,
                16,
                7,
                format!("The memory optimized table '{name}' with DURABILITY=SCHEMA_AND_DATA must have a primary key."),
            ));
        }
        if memory_optimized && builder.indexes.is_empty() {
            return Err(SqlError::new(
                41327,
                16,
                1,
                format!("The memory optimized table '{name}' must have at least one index or a primary key."),
            ));
        }
        let (columns, indexes) = (builder.columns, builder.indexes);
        Ok(TableDesign {
            schema_id,
            name,
            columns,
            indexes,
            durability,
        })
    }

    /// The engine's definition of the table.
    pub fn engine_def(&self) -> TableDef {
        let columns = self
            .columns
            .iter()
            .map(|c| ColumnDef::new(&c.name, c.data_type, c.nullable))
            .collect();
        let indexes = self.indexes.iter().map(engine_index).collect();
        let mut def = TableDef::new(&self.name, columns, indexes);
        def.schema = self.schema_id;
        def.durability = self.durability;
        def
    }
}

impl TableMeta {
    pub fn new(design: TableDesign, object_id: i32, engine: Arc<Table>, definition: &str) -> Self {
        TableMeta {
            object_id,
            schema_id: design.schema_id,
            name: design.name,
            engine,
            columns: design.columns,
            indexes: design.indexes,
            durability: design.durability,
            definition: definition.to_string(),
            created_ms: super::store::now_ms(),
        }
    }

    /// Re-binds a stored CREATE TABLE to the engine table recovery restored.
    pub fn restore(db: &Database, catalog: &Catalog, object: &StoredObject) -> SqlResult<Self> {
        let damaged = |why: &str| {
            SqlError::new(
                3414,
                21,
                1,
                format!(
                    "The stored definition of table object {} cannot be restored: {why}.",
                    object.object_id
                ),
            )
        };
        let batch = crate::parse_batch(&object.definition).map_err(|e| damaged(&e.message))?;
        let Some(ast::StatementKind::CreateTable(create)) =
            batch.statements.first().map(|s| &s.kind)
        else {
            return Err(damaged("it is not a CREATE TABLE"));
        };
        let design = TableDesign::bind(create, catalog, object.object_id)?;
        let engine = object
            .engine_table
            .and_then(|id| db.table(id))
            .ok_or_else(|| damaged("its engine table is missing"))?;
        if engine.def != design.engine_def() {
            return Err(damaged("it no longer matches its engine table"));
        }
        let mut meta = TableMeta::new(design, object.object_id, engine, &object.definition);
        meta.created_ms = object.created_ms;
        Ok(meta)
    }

    pub fn column_index(&self, name: &str) -> Option<usize> {
        self.columns
            .iter()
            .position(|c| c.name.eq_ignore_ascii_case(name))
    }
}

fn engine_index(index: &IndexMeta) -> IndexDef {
    let uniqueness = match index.constraint {
        Some(KeyConstraint::PrimaryKey) => Uniqueness::PrimaryKey,
        Some(KeyConstraint::Unique) => Uniqueness::UniqueConstraint,
        None => Uniqueness::NotUnique,
    };
    match index.kind {
        IndexKind::Hash { bucket_count } => {
            let columns: Vec<usize> = index.columns.iter().map(|&(c, _)| c).collect();
            IndexDef::hash(&index.name, &columns, bucket_count, uniqueness)
        }
        IndexKind::Range => IndexDef::range(&index.name, &index.columns, uniqueness),
    }
}

/// `MEMORY_OPTIMIZED = ON|OFF` and `DURABILITY = ...`. Every hekla table
/// is memory-optimized; OFF (or no option) makes one with SQL Server's
/// disk-table rules (no primary key required).
fn table_options(options: &[ast::OptionItem]) -> SqlResult<(bool, Durability)> {
    let mut memory_optimized = false;
    let mut durability = Durability::SchemaAndData;
    for option in options {
        let name = option_name(option);
        let value = option_word(option);
        match (name.as_str(), value.as_deref()) {
            ("MEMORY_OPTIMIZED", Some("ON")) => memory_optimized = true,
            ("MEMORY_OPTIMIZED", Some("OFF")) => memory_optimized = false,
            ("DURABILITY", Some("SCHEMA_AND_DATA")) => durability = Durability::SchemaAndData,
            ("DURABILITY", Some("SCHEMA_ONLY")) => durability = Durability::SchemaOnly,
            ("DATA_COMPRESSION", Some("NONE")) => {}
            _ => {
                return Err(SqlError::new(
                    155,
                    15,
                    1,
                    format!("'{name}' is not a recognized CREATE TABLE option."),
                ))
            }
        }
    }
    Ok((memory_optimized, durability))
}

fn option_name(option: &ast::OptionItem) -> String {
    option
        .name
        .iter()
        .map(|word| word.value.to_ascii_uppercase())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The value of `NAME = WORD`, upper-cased.
fn option_word(option: &ast::OptionItem) -> Option<String> {
    match &option.value {
        Some(OptionValue::Words(words)) if words.len() == 1 => {
            Some(words[0].value.to_ascii_uppercase())
        }
        _ => None,
    }
}

/// A feature hekla parses but does not run yet: Msg 10794, not silence.
fn not_yet(feature: &str) -> SqlError {
    SqlError::new(
        10794,
        16,
        1,
        format!("The feature '{feature}' is not supported by hekla yet."),
    )
}

struct Builder<'a> {
    table: &'a str,
    object_id: i32,
    columns: Vec<ColumnMeta>,
    /// Per column: `NULL` / `NOT NULL` as written, if written.
    declared_nullable: Vec<Option<bool>>,
    indexes: Vec<IndexMeta>,
}

impl Builder<'_> {
    fn column(&mut self, column: &ast::ColumnDef) -> SqlResult<()> {
        if self
            .columns
            .iter()
            .any(|c| c.name.eq_ignore_ascii_case(&column.name.value))
        {
            return Err(SqlError::new(
                2705,
                16,
                3,
                format!(
                    "Column names in each table must be unique. Column name '{}' in table '{}' is specified more than once.",
                    column.name.value, self.table
                ),
            ));
        }
        let Some(data_type) = &column.data_type else {
            return Err(not_yet("computed columns"));
        };
        if column.identity.is_some() {
            return Err(not_yet("IDENTITY columns"));
        }
        let collation = match &column.collation {
            Some(name) => Collation::from_name(&name.value).ok_or_else(|| {
                SqlError::new(448, 16, 1, format!("Invalid collation '{}'.", name.value))
            })?,
            None => Collation::default(),
        };
        let ordinal = self.columns.len() + 1;
        let data_type = types::resolve(data_type, collation, TypeContext::Declaration { ordinal })?;
        let default = match &column.default {
            Some((_, value)) => Some(bind_default(value, &data_type)?),
            None => None,
        };
        self.declared_nullable.push(column.nullable);
        self.columns.push(ColumnMeta {
            name: column.name.value.clone(),
            data_type,
            nullable: column.nullable.unwrap_or(true),
            default,
        });
        Ok(())
    }

    /// A column's own key constraints and inline index.
    fn column_keys(&mut self, column: &ast::ColumnDef) -> SqlResult<()> {
        let ordinal = self
            .columns
            .iter()
            .position(|c| c.name.eq_ignore_ascii_case(&column.name.value))
            .expect("columns are bound first");
        for constraint in &column.constraints {
            match &constraint.kind {
                ConstraintKind::Key {
                    primary,
                    layout,
                    options,
                    ..
                } => self.key(
                    constraint.name.as_ref(),
                    *primary,
                    *layout,
                    vec![(ordinal, SortOrder::Ascending)],
                    options,
                )?,
                ConstraintKind::Check(_) => return Err(not_yet("CHECK constraints")),
                ConstraintKind::ForeignKey { .. } => {
                    return Err(not_yet("FOREIGN KEY constraints"))
                }
                ConstraintKind::Default { .. } => return Err(not_yet("DEFAULT constraints")),
            }
        }
        if let Some(index) = &column.index {
            let columns = vec![(ordinal, SortOrder::Ascending)];
            self.index(
                &index.name.value,
                index.layout,
                columns,
                &index.options,
                index.unique,
            )?;
        }
        Ok(())
    }

    fn table_constraint(&mut self, constraint: &ast::TableConstraint) -> SqlResult<()> {
        match &constraint.kind {
            ConstraintKind::Key {
                primary,
                layout,
                columns,
                options,
            } => {
                let columns = self.key_columns(columns)?;
                self.key(
                    constraint.name.as_ref(),
                    *primary,
                    *layout,
                    columns,
                    options,
                )
            }
            ConstraintKind::Check(_) => Err(not_yet("CHECK constraints")),
            ConstraintKind::ForeignKey { .. } => Err(not_yet("FOREIGN KEY constraints")),
            ConstraintKind::Default { .. } => Err(not_yet("DEFAULT constraints")),
        }
    }

    fn table_index(&mut self, index: &ast::IndexDef) -> SqlResult<()> {
        if !index.include.is_empty() || index.filter.is_some() || index.layout.columnstore {
            return Err(not_yet("INCLUDE, filtered and columnstore indexes"));
        }
        let columns = self.key_columns(&index.columns)?;
        self.index(
            &index.name.value,
            index.layout,
            columns,
            &index.options,
            index.unique,
        )
    }

    fn key_columns(&self, columns: &[ast::IndexColumn]) -> SqlResult<Vec<(usize, SortOrder)>> {
        columns
            .iter()
            .map(|column| {
                let ordinal = self
                    .columns
                    .iter()
                    .position(|c| c.name.eq_ignore_ascii_case(&column.name.value))
                    .ok_or_else(|| {
                        SqlError::new(
                            1911,
                            16,
                            1,
                            format!(
                                "Column name '{}' does not exist in the target table or view.",
                                column.name.value
                            ),
                        )
                    })?;
                let order = if column.descending {
                    SortOrder::Descending
                } else {
                    SortOrder::Ascending
                };
                Ok((ordinal, order))
            })
            .collect()
    }

    fn key(
        &mut self,
        name: Option<&ast::Ident>,
        primary: bool,
        layout: ast::IndexLayout,
        columns: Vec<(usize, SortOrder)>,
        options: &[ast::OptionItem],
    ) -> SqlResult<()> {
        let (constraint, prefix) = if primary {
            (KeyConstraint::PrimaryKey, "PK")
        } else {
            (KeyConstraint::Unique, "UQ")
        };
        if primary
            && self
                .indexes
                .iter()
                .any(|i| i.constraint == Some(constraint))
        {
            return Err(SqlError::new(
                8110,
                16,
                0,
                format!(
                    "Cannot add multiple PRIMARY KEY constraints to table '{}'.",
                    self.table
                ),
            ));
        }
        let name = match name {
            Some(name) => name.value.clone(),
            None => format!("{prefix}__{}__{:08X}", self.table, self.object_id),
        };
        self.index(&name, layout, columns, options, true)?;
        self.indexes.last_mut().expect("just added").constraint = Some(constraint);
        Ok(())
    }

    fn index(
        &mut self,
        name: &str,
        layout: ast::IndexLayout,
        columns: Vec<(usize, SortOrder)>,
        options: &[ast::OptionItem],
        unique: bool,
    ) -> SqlResult<()> {
        let mut bucket_count = None;
        for option in options {
            let option_name = option_name(option);
            match (option_name.as_str(), &option.value) {
                ("BUCKET_COUNT", Some(OptionValue::Expr(expr))) => {
                    bucket_count = Some(bucket_count_value(expr, name)?);
                }
                _ => {
                    return Err(SqlError::new(
                        155,
                        15,
                        1,
                        format!("'{option_name}' is not a recognized CREATE INDEX option."),
                    ))
                }
            }
        }
        let kind = if layout.hash {
            IndexKind::Hash {
                bucket_count: bucket_count.ok_or_else(|| {
                    SqlError::new(
                        10794,
                        16,
                        1,
                        format!("The index option 'BUCKET_COUNT' must be specified for HASH index '{name}'."),
                    )
                })?,
            }
        } else if bucket_count.is_some() {
            return Err(SqlError::new(
                10794,
                16,
                1,
                format!("The index option 'BUCKET_COUNT' is only valid for HASH index, not for index '{name}'."),
            ));
        } else {
            IndexKind::Range
        };
        self.indexes.push(IndexMeta {
            name: name.to_string(),
            kind,
            columns,
            constraint: unique.then_some(KeyConstraint::Unique),
        });
        Ok(())
    }

    /// Primary key columns are NOT NULL unless declared NULL, which is
    /// Msg 8111.
    fn check_keys(&mut self) -> SqlResult<()> {
        let key_columns: Vec<usize> = self
            .indexes
            .iter()
            .filter(|index| index.constraint == Some(KeyConstraint::PrimaryKey))
            .flat_map(|index| index.columns.iter().map(|&(column, _)| column))
            .collect();
        for column in key_columns {
            if self.declared_nullable[column] == Some(true) {
                return Err(SqlError::new(
                    8111,
                    16,
                    1,
                    format!(
                        "Cannot define PRIMARY KEY constraint on nullable column in table '{}'.",
                        self.table
                    ),
                ));
            }
            self.columns[column].nullable = false;
        }
        Ok(())
    }
}

/// A DEFAULT expression: constants and functions only (a column name is
/// Msg 128, as in SQL Server).
fn bind_default(value: &ast::Expr, data_type: &DataType) -> SqlResult<Scalar> {
    let variables = Variables::default();
    let scalar = Binder::new(&variables).scalar(value).map_err(|error| {
        if error.number == 207 || error.number == 137 {
            SqlError::new(
                128,
                15,
                1,
                format!("The name \"{value}\" is not permitted in this context. Valid expressions are constants, constant expressions, and (in some contexts) variables. Column names are not permitted."),
            )
        } else {
            error
        }
    })?;
    implicit(scalar, &assignment_type(data_type))
}

fn bucket_count_value(expr: &ast::Expr, index: &str) -> SqlResult<u64> {
    match &expr.kind {
        ast::ExprKind::Literal(ast::Literal::Integer(digits)) => digits
            .parse::<u64>()
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(|| bad_bucket_count(index)),
        _ => Err(bad_bucket_count(index)),
    }
}

fn bad_bucket_count(index: &str) -> SqlError {
    SqlError::new(
        10794,
        16,
        1,
        format!("The BUCKET_COUNT of HASH index '{index}' must be a positive integer constant."),
    )
}
