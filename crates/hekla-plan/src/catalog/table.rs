//! Tables as SQL sees them: CREATE TABLE bound to an engine [`TableDef`]
//! plus what SQL keeps about it, and the same binding replayed at open from
//! the stored definition.

use super::constraint::{self, CheckConstraint, ForeignKey, KeyTable};
use super::identity::IdentityColumn;
use super::store::StoredObject;
use super::user_type::{self, Resolved};
use super::Catalog;
use crate::bind::expr::{assignment_type, implicit, Binder, Reads, Scalar};
use crate::bind::variables::Variables;
use crate::error::{not_supported_yet, Refused};
use crate::names::DATABASE_NAME;
use crate::type_names::TypeContext;
use hekla_engine::{
    ColumnDef, Database, Durability, IndexDef, IndexKind, SchemaId, Table, TableDef, Uniqueness,
};
use hekla_parser::ast::{self, ConstraintKind, OptionValue, TableElement};
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
    /// The name the DEFAULT constraint was given, if any.
    pub default_name: Option<String>,
    /// `name AS (expr)`: the value, computed from the row's other columns
    /// (positions in the table) whenever the row is written. hekla stores
    /// every computed column, as if PERSISTED.
    pub computed: Option<Scalar>,
    /// The alias type the column was declared with (its `user_type_id`).
    pub user_type_id: Option<i32>,
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
    /// Created `WITH (MEMORY_OPTIMIZED = ON)`: SQL Server's rules for
    /// reading memory-optimized tables apply to it (`exec::isolation`).
    /// Every table lives in memory in hekla; the others behave as SQL
    /// Server's disk-based tables do.
    pub memory_optimized: bool,
    /// CHECK constraints, in the order written.
    pub checks: Vec<CheckConstraint>,
    /// FOREIGN KEY constraints this table declares (it is the referencing
    /// table), in the order written.
    pub foreign_keys: Vec<ForeignKey>,
    /// The IDENTITY column, if the table has one.
    pub identity: Option<IdentityColumn>,
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
    pub memory_optimized: bool,
    pub checks: Vec<CheckConstraint>,
    pub foreign_keys: Vec<ForeignKey>,
    pub identity: Option<IdentityColumn>,
    /// The highest object id the table and its constraints use (CREATE
    /// TABLE reserves the ids up to it).
    pub last_object_id: i32,
}

impl TableDesign {
    /// Binds `create` against `catalog`; `object_id` names unnamed keys.
    pub fn bind(create: &ast::CreateTable, catalog: &Catalog, object_id: i32) -> SqlResult<Self> {
        Self::bind_numbered(create, catalog, object_id, &[])
    }

    /// [`TableDesign::bind`] with the object ids of the CHECK and FOREIGN
    /// KEY constraints given, in the order the binder meets them (a stored
    /// definition an ALTER TABLE wrote: see `ddl::alter`); past the
    /// end of `constraint_ids` they follow the highest id so far.
    pub fn bind_numbered(
        create: &ast::CreateTable,
        catalog: &Catalog,
        object_id: i32,
        constraint_ids: &[i32],
    ) -> SqlResult<Self> {
        let schema_id = catalog.schema_of(&create.name)?;
        let schema_name = create
            .name
            .schema()
            .map_or("dbo", |schema| schema.value.as_str());
        let name = create.name.name().value.clone();
        if let Some(database) = create.name.other_database(DATABASE_NAME) {
            return Err(crate::catalog::databases::not_here(
                &database.value,
                "CREATE TABLE",
            ));
        }
        let (memory_optimized, durability) = table_options(&create.options)?;
        let mut builder = Builder {
            table: &name,
            schema: schema_name,
            schema_id,
            object_id,
            catalog,
            memory_optimized,
            columns: Vec::new(),
            declared_nullable: Vec::new(),
            indexes: Vec::new(),
            checks: Vec::new(),
            foreign_keys: Vec::new(),
            pending_keys: Vec::new(),
            identity: None,
            last_object_id: object_id,
            constraint_ids,
        };
        for element in &create.elements {
            if let TableElement::Column(column) = element {
                builder.column(column)?;
            }
        }
        builder.bind_computed(create)?;
        for element in &create.elements {
            match element {
                TableElement::Column(column) => builder.column_keys(column)?,
                TableElement::Constraint(constraint) => builder.table_constraint(constraint)?,
                TableElement::Index(index) => builder.table_index(index)?,
            }
        }
        builder.check_keys()?;
        builder.bind_foreign_keys()?;
        builder.check_names()?;
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
        let Builder {
            columns,
            indexes,
            checks,
            foreign_keys,
            identity,
            last_object_id,
            ..
        } = builder;
        Ok(TableDesign {
            schema_id,
            name,
            columns,
            indexes,
            durability,
            memory_optimized,
            checks,
            foreign_keys,
            identity,
            last_object_id,
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
            memory_optimized: design.memory_optimized,
            checks: design.checks,
            foreign_keys: design.foreign_keys,
            identity: design.identity,
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
        let batch =
            hekla_parser::parse_batch(&object.definition).map_err(|e| damaged(&e.message))?;
        let Some(ast::StatementKind::CreateTable(create)) =
            batch.statements.first().map(|s| &s.kind)
        else {
            return Err(damaged("it is not a CREATE TABLE"));
        };
        let (create, ids) = super::constraint_ids::split_stored(create)?;
        let design = TableDesign::bind_numbered(&create, catalog, object.object_id, &ids)?;
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

    /// The highest object id the table and its constraints use.
    pub fn last_object_id(&self) -> i32 {
        self.checks
            .iter()
            .map(|c| c.object_id)
            .chain(self.foreign_keys.iter().map(|f| f.object_id))
            .fold(self.object_id, i32::max)
    }

    /// Names of the constraints that are objects of the table's schema:
    /// the primary key, CHECK, FOREIGN KEY and named DEFAULTs. (UNIQUE
    /// constraints are left out: hekla does not tell them from unique
    /// indexes, whose names are per table.)
    pub fn constraint_names(&self) -> impl Iterator<Item = &str> {
        self.indexes
            .iter()
            .filter(|index| index.constraint == Some(KeyConstraint::PrimaryKey))
            .map(|index| index.name.as_str())
            .chain(self.checks.iter().map(|c| c.name.as_str()))
            .chain(self.foreign_keys.iter().map(|f| f.name.as_str()))
            .chain(
                self.columns
                    .iter()
                    .filter_map(|c| c.default_name.as_deref()),
            )
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

/// `MEMORY_OPTIMIZED = ON|OFF`, `DURABILITY = ...` and `DATA_COMPRESSION`.
/// Every hekla table is memory-optimized; OFF (or no option) makes one with
/// SQL Server's disk-table rules (no primary key required).
///
/// `DATA_COMPRESSION = ROW | PAGE` asks SQL Server to store a disk-based
/// table's pages compressed: a matter of space, never of results. hekla has
/// no pages, so it accepts the option on such tables and stores rows as it
/// always does; SQL Server refuses compression of memory-optimized tables, and so does hekla.
fn table_options(options: &[ast::OptionItem]) -> SqlResult<(bool, Durability)> {
    let mut memory_optimized = false;
    let mut durability = Durability::SchemaAndData;
    let mut compressed = false;
    for option in options {
        let name = option_name(option);
        let value = option_word(option);
        match (name.as_str(), value.as_deref()) {
            ("MEMORY_OPTIMIZED", Some("ON")) => memory_optimized = true,
            ("MEMORY_OPTIMIZED", Some("OFF")) => memory_optimized = false,
            ("DURABILITY", Some("SCHEMA_AND_DATA")) => durability = Durability::SchemaAndData,
            ("DURABILITY", Some("SCHEMA_ONLY")) => durability = Durability::SchemaOnly,
            ("DATA_COMPRESSION", Some("NONE")) => compressed = false,
            ("DATA_COMPRESSION", Some("ROW" | "PAGE")) => compressed = true,
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
    if memory_optimized && compressed {
        return Err(SqlError::new(
            10794,
            16,
            1,
            "The table option 'data_compression' is not supported with memory optimized tables.",
        ));
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

/// Msg 8140: a column-level constraint of `kind` that lists more than one
/// referencing column.
fn column_level_keys(kind: &str, table: &str) -> SqlError {
    SqlError::new(
        8140,
        16,
        0,
        format!("More than one key specified in column level {kind} constraint, table '{table}'."),
    )
}

struct Builder<'a> {
    table: &'a str,
    schema: &'a str,
    schema_id: SchemaId,
    object_id: i32,
    catalog: &'a Catalog,
    memory_optimized: bool,
    columns: Vec<ColumnMeta>,
    /// Per column: `NULL` / `NOT NULL` as written, if written.
    declared_nullable: Vec<Option<bool>>,
    indexes: Vec<IndexMeta>,
    checks: Vec<CheckConstraint>,
    foreign_keys: Vec<ForeignKey>,
    /// Foreign keys met, bound once every key of the table is known (a
    /// table may reference its own keys): object id, name, whether the
    /// name is the system's, referencing columns, the constraint.
    pending_keys: Vec<PendingKey<'a>>,
    identity: Option<IdentityColumn>,
    /// The last object id handed to a constraint.
    last_object_id: i32,
    /// Ids still to hand out, if the definition's constraints have them.
    constraint_ids: &'a [i32],
}

struct PendingKey<'a> {
    object_id: i32,
    name: Option<&'a ast::Ident>,
    columns: Vec<ast::Ident>,
    constraint: &'a ConstraintKind,
}

impl<'a> Builder<'a> {
    fn column(&mut self, column: &'a ast::ColumnDef) -> SqlResult<()> {
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
            // Typed once every column is known (see `bind_computed`).
            self.declared_nullable.push(column.nullable);
            self.columns.push(ColumnMeta {
                name: column.name.value.clone(),
                data_type: DataType::Int,
                nullable: true,
                default: None,
                default_name: None,
                computed: None,
                user_type_id: None,
            });
            return Ok(());
        };
        let collation = match &column.collation {
            Some(name) => Collation::from_name(&name.value).ok_or_else(|| {
                SqlError::new(448, 16, 1, format!("Invalid collation '{}'.", name.value))
            })?,
            None => Collation::default(),
        };
        let ordinal = self.columns.len() + 1;
        let context = TypeContext::Declaration { ordinal };
        let resolved = user_type::resolve(self.catalog, data_type, collation, context)?;
        let Resolved::Scalar { data_type, alias } = resolved else {
            return Err(SqlError::new(
                350,
                16,
                1,
                format!(
                    "The column \"{}\" does not have a valid data type. A column cannot be of a user-defined table type.",
                    column.name.value
                ),
            ));
        };
        // Unsaid, the nullability is the alias type's.
        let mut nullable = column
            .nullable
            .or(alias.as_ref().map(|alias| alias.nullable));
        if let Some(arguments) = &column.identity {
            self.identity_column(column, arguments, data_type)?;
            nullable = Some(false);
        }
        let default = match &column.default {
            Some((_, value)) => Some(bind_default(value, &data_type, self.catalog)?),
            None => None,
        };
        self.declared_nullable.push(column.nullable);
        self.columns.push(ColumnMeta {
            name: column.name.value.clone(),
            data_type,
            nullable: nullable.unwrap_or(true),
            default,
            default_name: column
                .default
                .as_ref()
                .and_then(|(name, _)| name.as_ref())
                .map(|name| name.value.clone()),
            computed: None,
            user_type_id: alias.map(|alias| alias.id),
        });
        Ok(())
    }

    /// Binds the computed columns over the table's other columns: their
    /// type is their expression's; Msg 1759 when one reads another.
    fn bind_computed(&mut self, create: &ast::CreateTable) -> SqlResult<()> {
        let definitions: Vec<(usize, &ast::Expr)> = create
            .elements
            .iter()
            .filter_map(|element| match element {
                TableElement::Column(column) => Some(column),
                _ => None,
            })
            .enumerate()
            .filter_map(|(position, column)| column.computed.as_ref().map(|(e, _)| (position, e)))
            .collect();
        let computed: Vec<usize> = definitions.iter().map(|(position, _)| *position).collect();
        for (position, expr) in definitions {
            let scalar = super::constraint::bind_column_expression(
                expr,
                self.table,
                self.schema,
                &self.columns,
            )?;
            if let Some(&other) = scalar.columns().iter().find(|c| computed.contains(c)) {
                return Err(SqlError::new(
                    1759,
                    16,
                    0,
                    format!(
                        "Computed column '{}' in table '{}' is not allowed to be used in another computed-column definition.",
                        self.columns[other].name, self.table
                    ),
                ));
            }
            let column = &mut self.columns[position];
            column.data_type = scalar.data_type;
            column.computed = Some(scalar);
        }
        Ok(())
    }

    /// `IDENTITY (seed, increment)` on the column about to be added:
    /// Msg 2744 for a second one, 8147 for an explicitly NULL column, 1754
    /// with a DEFAULT.
    fn identity_column(
        &mut self,
        column: &ast::ColumnDef,
        arguments: &(ast::Expr, ast::Expr),
        data_type: DataType,
    ) -> SqlResult<()> {
        let name = &column.name.value;
        if self.identity.is_some() {
            return Err(SqlError::new(
                2744,
                16,
                2,
                format!(
                    "Multiple identity columns specified for table '{}'. Only one identity column per table is allowed.",
                    self.table
                ),
            ));
        }
        let identity = super::identity::bind(
            arguments,
            name,
            self.columns.len(),
            data_type,
            self.memory_optimized,
            self.object_id,
            self.catalog.counter_table().clone(),
        )?;
        if column.nullable == Some(true) {
            return Err(SqlError::new(
                8147,
                16,
                1,
                format!(
                    "Could not create IDENTITY attribute on nullable column '{name}', table '{}'.",
                    self.table
                ),
            ));
        }
        if column.default.is_some() {
            return Err(SqlError::new(
                1754,
                16,
                0,
                format!(
                    "Defaults cannot be created on columns with an IDENTITY attribute. Table '{}', column '{name}'.",
                    self.table
                ),
            ));
        }
        self.identity = Some(identity);
        Ok(())
    }

    /// The object id of the next CHECK or FOREIGN KEY constraint.
    fn next_object_id(&mut self) -> SqlResult<i32> {
        if let Some((&id, rest)) = self.constraint_ids.split_first() {
            self.constraint_ids = rest;
            self.last_object_id = self.last_object_id.max(id);
            return Ok(id);
        }
        self.last_object_id = self
            .last_object_id
            .checked_add(1)
            .ok_or_else(|| SqlError::new(1105, 17, 1, "The database has run out of object ids."))?;
        Ok(self.last_object_id)
    }

    /// A column's own constraints and inline index. A key or foreign key
    /// that lists its columns is on those columns, wherever it is written
    /// (`f int NOT NULL PRIMARY KEY (k)` keys k), as in SQL Server.
    fn column_keys(&mut self, column: &'a ast::ColumnDef) -> SqlResult<()> {
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
                    columns,
                    options,
                } => {
                    let columns = if columns.is_empty() {
                        vec![(ordinal, SortOrder::Ascending)]
                    } else {
                        self.key_columns(columns)?
                    };
                    self.key(
                        constraint.name.as_ref(),
                        *primary,
                        *layout,
                        columns,
                        options,
                    )?
                }
                ConstraintKind::Check(condition) => {
                    self.check(constraint.name.as_ref(), condition, Some(ordinal))?
                }
                ConstraintKind::ForeignKey { columns, .. } => {
                    let columns = match columns.as_slice() {
                        [] => vec![column.name.clone()],
                        [_] => columns.clone(),
                        _ => return Err(column_level_keys("FOREIGN KEY", self.table)),
                    };
                    let object_id = self.next_object_id()?;
                    self.pending_keys.push(PendingKey {
                        object_id,
                        name: constraint.name.as_ref(),
                        columns,
                        constraint: &constraint.kind,
                    });
                }
                ConstraintKind::Default { .. } => {
                    return Err(not_supported_yet(Refused::Feature, "DEFAULT constraints"))
                }
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

    fn table_constraint(&mut self, constraint: &'a ast::TableConstraint) -> SqlResult<()> {
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
            ConstraintKind::Check(condition) => {
                self.check(constraint.name.as_ref(), condition, None)
            }
            ConstraintKind::ForeignKey { columns, .. } => {
                let object_id = self.next_object_id()?;
                self.pending_keys.push(PendingKey {
                    object_id,
                    name: constraint.name.as_ref(),
                    columns: columns.clone(),
                    constraint: &constraint.kind,
                });
                Ok(())
            }
            ConstraintKind::Default { .. } => {
                Err(not_supported_yet(Refused::Feature, "DEFAULT constraints"))
            }
        }
    }

    /// `CHECK (condition)`, on column `column` or the table.
    fn check(
        &mut self,
        name: Option<&ast::Ident>,
        condition: &ast::Expr,
        column: Option<usize>,
    ) -> SqlResult<()> {
        let (predicate, reads) =
            constraint::bind_check(condition, self.table, self.schema, &self.columns, column)?;
        let object_id = self.next_object_id()?;
        let named_column = column.or(match reads.as_slice() {
            [only] => Some(*only),
            _ => None,
        });
        let (name, system_named) = match name {
            Some(name) => (name.value.clone(), false),
            None => (
                constraint::system_name(
                    "CK",
                    self.table,
                    named_column.map(|c| self.columns[c].name.as_str()),
                    object_id,
                ),
                true,
            ),
        };
        self.checks.push(CheckConstraint {
            object_id,
            name,
            system_named,
            condition: predicate,
            column,
            reads,
            definition: format!("({condition})"),
        });
        Ok(())
    }

    /// Binds the foreign keys met, now that the table's own keys are known.
    fn bind_foreign_keys(&mut self) -> SqlResult<()> {
        for pending in std::mem::take(&mut self.pending_keys) {
            let ConstraintKind::ForeignKey {
                table,
                referenced,
                on_delete,
                on_update,
                ..
            } = pending.constraint
            else {
                unreachable!("only foreign keys are pending");
            };
            let first = pending.columns.first().map(|c| c.value.as_str());
            let (name, system_named) = match pending.name {
                Some(name) => (name.value.clone(), false),
                None => (
                    constraint::system_name("FK", self.table, first, pending.object_id),
                    true,
                ),
            };
            constraint::check_actions(*on_delete, *on_update)?;
            if table.other_database(DATABASE_NAME).is_some() {
                return Err(not_supported_yet(
                    Refused::Feature,
                    "FOREIGN KEY references to another database",
                ));
            }
            let referenced_name = super::sequence::written(table);
            let schema_name = table.schema().map_or("dbo", |s| s.value.as_str());
            let is_self = table.name().value.eq_ignore_ascii_case(self.table)
                && schema_name.eq_ignore_ascii_case(self.schema);
            let other = if is_self {
                None
            } else {
                let found = self
                    .catalog
                    .schema_id(schema_name)
                    .and_then(|schema| self.catalog.table(schema, &table.name().value));
                Some(found.ok_or_else(|| {
                    SqlError::new(
                        1767,
                        16,
                        0,
                        format!(
                            "Foreign key '{name}' references invalid table '{referenced_name}'."
                        ),
                    )
                })?)
            };
            let target = match other {
                Some(other) => KeyTable {
                    object_id: other.object_id,
                    columns: &other.columns,
                    indexes: &other.indexes,
                },
                None => KeyTable {
                    object_id: self.object_id,
                    columns: &self.columns,
                    indexes: &self.indexes,
                },
            };
            let resolved = constraint::bind_foreign_key(
                &name,
                self.table,
                &self.columns,
                &pending.columns,
                &target,
                &referenced_name,
                referenced,
            )?;
            let referenced_table = target.object_id;
            self.foreign_keys.push(ForeignKey {
                object_id: pending.object_id,
                name,
                system_named,
                columns: resolved.columns,
                referenced_table,
                referenced_columns: resolved.referenced_columns,
                referenced_index: resolved.referenced_index,
                key_order: resolved.key_order,
            });
        }
        Ok(())
    }

    /// Constraint names are objects of the schema: Msg 2714 for one that is
    /// taken, by another object or within this table.
    fn check_names(&self) -> SqlResult<()> {
        let names: Vec<&str> = self
            .indexes
            .iter()
            .filter(|index| index.constraint == Some(KeyConstraint::PrimaryKey))
            .map(|index| index.name.as_str())
            .chain(self.checks.iter().map(|c| c.name.as_str()))
            .chain(self.foreign_keys.iter().map(|f| f.name.as_str()))
            .chain(
                self.columns
                    .iter()
                    .filter_map(|c| c.default_name.as_deref()),
            )
            .collect();
        for (position, name) in names.iter().enumerate() {
            let repeated = names[..position]
                .iter()
                .any(|earlier| earlier.eq_ignore_ascii_case(name));
            if repeated
                || name.eq_ignore_ascii_case(self.table)
                || self.catalog.object_exists(self.schema_id, name)
            {
                return Err(hekla_engine::errors::object_exists(name));
            }
        }
        Ok(())
    }

    fn table_index(&mut self, index: &ast::IndexDef) -> SqlResult<()> {
        if !index.include.is_empty() || index.filter.is_some() || index.layout.columnstore {
            return Err(not_supported_yet(
                Refused::Feature,
                "INCLUDE, filtered and columnstore indexes",
            ));
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

/// A DEFAULT expression: constants, functions and NEXT VALUE FOR (a column
/// name is Msg 128, as in SQL Server).
fn bind_default(value: &ast::Expr, data_type: &DataType, catalog: &Catalog) -> SqlResult<Scalar> {
    let variables = Variables::default();
    let binder = Binder {
        catalog: Some(catalog),
        ..Binder::new(&variables)
    };
    let scalar = binder.scalar(value).map_err(|error| {
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

/// SQL Server's largest BUCKET_COUNT (2^30: an 8 GiB bucket array).
const MAX_BUCKET_COUNT: u64 = 1 << 30;

fn bucket_count_value(expr: &ast::Expr, index: &str) -> SqlResult<u64> {
    match &expr.kind {
        ast::ExprKind::Literal(ast::Literal::Integer(digits)) => digits
            .parse::<u64>()
            .ok()
            .filter(|n| (1..=MAX_BUCKET_COUNT).contains(n))
            .ok_or_else(|| bad_bucket_count(index)),
        _ => Err(bad_bucket_count(index)),
    }
}

fn bad_bucket_count(index: &str) -> SqlError {
    SqlError::new(
        10794,
        16,
        1,
        format!("The BUCKET_COUNT of HASH index '{index}' must be an integer constant from 1 to {MAX_BUCKET_COUNT}."),
    )
}
