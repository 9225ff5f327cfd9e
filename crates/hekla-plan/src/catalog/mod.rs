//! The SQL catalog: what SQL knows about objects beyond the engine's
//! schemas and tables (see docs/sql.md, "Execution"). It is rebuilt at open
//! from the engine and the stored definitions ([`store`]), and changed only
//! by DDL under the database's catalog lock.

pub mod alias_type;
pub mod binding;
pub mod constraint;
pub mod constraint_ids;
pub mod counter;
pub mod databases;
pub mod dependency;
pub mod function;
pub mod identity;
pub mod objects;
pub mod procedure;
pub mod sequence;
pub mod statistics;
pub mod store;
pub mod table;
pub mod table_type;
pub mod temp;
pub mod user_type;
pub mod view;

use crate::error::{not_supported_yet, Refused};
use crate::names::DATABASE_NAME;
use hekla_engine::{Database, SchemaId, Table};
use hekla_parser::ast;
use hekla_types::{SqlError, SqlResult};
use sequence::Sequence;
use std::collections::BTreeMap;
use std::sync::Arc;
use store::{ObjectStore, ObjectType, StoredObject};
use table::TableMeta;

/// The first object id handed out in a new database; SQL Server's user
/// object ids are large positive numbers too.
const FIRST_OBJECT_ID: i32 = 1 << 20;

pub struct Catalog {
    schemas: BTreeMap<SchemaId, String>,
    tables: BTreeMap<i32, Arc<TableMeta>>,
    sequences: BTreeMap<i32, Arc<Sequence>>,
    pub views: view::Views,
    pub procedures: procedure::Procedures,
    pub functions: function::Functions,
    /// What objects created WITH SCHEMABINDING depend on.
    pub bindings: dependency::Bindings,
    /// Alias and table types.
    pub types: user_type::UserTypes,
    /// The user types objects other than tables use (a procedure's
    /// parameters), by the using object's id: DROP TYPE refuses to drop
    /// them (Msg 3732). Like `bindings`, rebuilt when those objects are
    /// bound again at open. Table columns need no record: each column
    /// knows its alias type.
    pub type_references: dependency::Bindings,
    /// Statistics objects, by the id their definitions are stored under.
    statistics: BTreeMap<i32, Arc<statistics::StatisticsMeta>>,
    next_object_id: i32,
    /// `sys.hekla_counters`, which IDENTITY columns and sequences record
    /// their values in.
    counters: Arc<Table>,
}

impl Catalog {
    /// Rebuilds the catalog of `db` from its stored definitions. Engine
    /// tables without a definition (a CREATE TABLE that crashed before its
    /// definition committed) are dropped.
    ///
    /// Objects are restored in id order, which is the order they were
    /// created in, so whatever an object refers to (the table a foreign
    /// key references, the sequence a DEFAULT uses) is restored before it.
    pub fn load(
        db: &Database,
        store: &ObjectStore,
        other_system_table: &dyn Fn(u32) -> bool,
    ) -> SqlResult<Catalog> {
        let mut catalog = Catalog {
            schemas: db.schemas().into_iter().collect(),
            tables: BTreeMap::new(),
            sequences: BTreeMap::new(),
            views: view::Views::default(),
            procedures: procedure::Procedures::default(),
            functions: function::Functions::default(),
            bindings: dependency::Bindings::default(),
            types: user_type::UserTypes::default(),
            type_references: dependency::Bindings::default(),
            statistics: BTreeMap::new(),
            next_object_id: FIRST_OBJECT_ID,
            counters: store.counters().engine_table().clone(),
        };
        let recorded = store.counters().load(db)?;
        let objects = store.load(db)?;
        // A table ALTER TABLE changed may refer to objects made after it (a
        // foreign key's table, a DEFAULT's sequence): tried again after the
        // others, pass after pass while some succeed.
        let mut deferred = Vec::new();
        for object in &objects {
            catalog.next_object_id = catalog.next_object_id.max(object.object_id + 1);
            match object.object_type {
                ObjectType::Table => {
                    if let Err(error) = catalog.restore_table(db, object, &recorded) {
                        deferred.push((object, error));
                    }
                }
                ObjectType::Sequence => {
                    let recorded = recorded.get(&object.object_id).copied();
                    let sequence = Sequence::restore(&catalog, object, recorded)?;
                    catalog
                        .sequences
                        .insert(object.object_id, Arc::new(sequence));
                }
                // Bound once the catalog is whole (`ddl::load::bind_views`).
                ObjectType::View => catalog.views.insert(view::ViewMeta::restore(object)?),
                ObjectType::Procedure => {
                    let restored = procedure::ProcedureMeta::restore(object, &catalog)?;
                    catalog
                        .type_references
                        .set(restored.object_id, restored.table_types());
                    catalog.procedures.insert(restored);
                }
                ObjectType::AliasType | ObjectType::TableType => {
                    let user_type = user_type::restore(&catalog, object)?;
                    catalog.types.insert(user_type);
                }
                // Bound once the catalog is whole (`ddl::load::bind_functions`).
                ObjectType::ScalarFunction | ObjectType::InlineTableFunction => catalog
                    .functions
                    .insert(function::FunctionMeta::restore(object, &catalog)?),
                _ => {}
            }
        }
        while !deferred.is_empty() {
            let before = deferred.len();
            let mut failed = Vec::new();
            for (object, _) in deferred {
                if let Err(error) = catalog.restore_table(db, object, &recorded) {
                    failed.push((object, error));
                }
            }
            if failed.len() == before {
                return Err(failed.swap_remove(0).1);
            }
            deferred = failed;
        }
        // Statistics name their table's columns: restored once every
        // table is.
        for object in &objects {
            if object.object_type == ObjectType::Statistics {
                let restored = statistics::restore(&catalog, object)?;
                catalog.add_statistics(restored);
            }
        }
        procedure::bind_restored(&mut catalog);
        let described: Vec<u32> = catalog.tables.values().map(|t| t.engine.id).collect();
        for table in db.tables() {
            let system = store.owns_engine_table(table.id) || other_system_table(table.id);
            if !system && !described.contains(&table.id) {
                db.drop_table(table.id)?;
            }
        }
        // Counters of objects that are gone (a DROP that raced a block
        // reservation) would otherwise resume under a reused id.
        let counted = |id: i32| {
            catalog.sequences.contains_key(&id)
                || catalog
                    .tables
                    .get(&id)
                    .is_some_and(|table| table.identity.is_some())
        };
        if recorded.keys().any(|&id| !counted(id)) {
            store.counters().retain(db, counted)?;
        }
        Ok(catalog)
    }

    /// Restores the table `object` defines (see [`Catalog::load`]).
    fn restore_table(
        &mut self,
        db: &Database,
        object: &StoredObject,
        recorded: &std::collections::HashMap<i32, i128>,
    ) -> SqlResult<()> {
        let meta = TableMeta::restore(db, self, object)?;
        if let Some(identity) = &meta.identity {
            identity
                .counter
                .resume(recorded.get(&object.object_id).copied());
        }
        self.next_object_id = self
            .next_object_id
            .max(meta.last_object_id().saturating_add(1));
        self.tables.insert(object.object_id, Arc::new(meta));
        Ok(())
    }

    pub fn schema_id(&self, name: &str) -> Option<SchemaId> {
        self.schemas
            .iter()
            .find(|(_, schema)| schema.eq_ignore_ascii_case(name))
            .map(|(&id, _)| id)
    }

    /// The schema a name is in as written (dbo when not written); None for
    /// a name in another database or a schema that does not exist.
    pub fn named_schema(&self, name: &hekla_parser::ast::ObjectName) -> Option<SchemaId> {
        if name.other_database(DATABASE_NAME).is_some() {
            return None;
        }
        self.schema_id(name.schema().map_or("dbo", |s| s.value.as_str()))
    }

    /// The schema a DDL statement's name is in (dbo when not written): Msg
    /// 2760 when it does not exist.
    pub fn schema_of(&self, name: &hekla_parser::ast::ObjectName) -> SqlResult<SchemaId> {
        let schema = name.schema().map_or("dbo", |s| s.value.as_str());
        self.schema_id(schema).ok_or_else(|| {
            SqlError::new(
                2760,
                16,
                1,
                format!("The specified schema name \"{schema}\" either does not exist or you do not have permission to use it."),
            )
        })
    }

    pub fn schema_name(&self, id: SchemaId) -> Option<&str> {
        self.schemas.get(&id).map(String::as_str)
    }

    /// Every schema, by id.
    pub fn schemas(&self) -> impl Iterator<Item = (SchemaId, &str)> {
        self.schemas.iter().map(|(&id, name)| (id, name.as_str()))
    }

    pub fn add_schema(&mut self, id: SchemaId, name: &str) {
        self.schemas.insert(id, name.to_string());
    }

    /// The table `schema.name` (names compare case-insensitively).
    pub fn table(&self, schema: SchemaId, name: &str) -> Option<&Arc<TableMeta>> {
        self.tables
            .values()
            .find(|t| t.schema_id == schema && t.name.eq_ignore_ascii_case(name))
    }

    pub fn tables(&self) -> impl Iterator<Item = &Arc<TableMeta>> {
        self.tables.values()
    }

    /// The table with object id `object_id`.
    pub fn table_by_id(&self, object_id: i32) -> Option<&Arc<TableMeta>> {
        self.tables.get(&object_id)
    }

    /// Any object named `name` in `schema` (for Msg 2714): a table, a
    /// sequence, a view, a procedure, a function or a table's constraint.
    pub fn object_exists(&self, schema: SchemaId, name: &str) -> bool {
        self.table(schema, name).is_some()
            || self.sequence(schema, name).is_some()
            || self.views.get(schema, name).is_some()
            || self.procedures.get(schema, name).is_some()
            || self.functions.get(schema, name).is_some()
            || self.tables.values().any(|table| {
                table.schema_id == schema
                    && table
                        .constraint_names()
                        .any(|constraint| constraint.eq_ignore_ascii_case(name))
            })
    }

    /// The object `schema.name` a schema-bound module can depend on: a
    /// table, a view, a function or (one a native procedure calls) a
    /// procedure.
    pub fn bindable(&self, schema: SchemaId, name: &str) -> Option<i32> {
        self.table(schema, name)
            .map(|table| table.object_id)
            .or_else(|| self.views.get(schema, name).map(|view| view.object_id))
            .or_else(|| self.functions.get(schema, name).map(|f| f.object_id))
            .or_else(|| self.procedures.get(schema, name).map(|p| p.object_id))
    }

    /// Adds a table, reserving the object ids its constraints use.
    pub fn add_table(&mut self, table: TableMeta) {
        self.next_object_id = self
            .next_object_id
            .max(table.last_object_id().saturating_add(1));
        self.tables.insert(table.object_id, Arc::new(table));
    }

    /// The foreign keys that reference the table with `object_id` (its own
    /// included): each referencing table with the key's position in its
    /// `foreign_keys`.
    pub fn referencing_keys(&self, object_id: i32) -> Vec<(Arc<TableMeta>, usize)> {
        self.tables
            .values()
            .flat_map(|table| {
                table
                    .foreign_keys
                    .iter()
                    .enumerate()
                    .filter(|(_, key)| key.referenced_table == object_id)
                    .map(|(position, _)| (Arc::clone(table), position))
            })
            .collect()
    }

    /// The sequence `schema.name`.
    pub fn sequence(&self, schema: SchemaId, name: &str) -> Option<&Arc<Sequence>> {
        self.sequences
            .values()
            .find(|s| s.schema_id == schema && s.name.eq_ignore_ascii_case(name))
    }

    pub fn sequences(&self) -> impl Iterator<Item = &Arc<Sequence>> {
        self.sequences.values()
    }

    /// At a clean close: every IDENTITY column and sequence records the
    /// last value it handed out, so that the next open continues without a
    /// gap (see [`counter::Counter::release_unused`]). Best effort: a
    /// counter that cannot record keeps its block, leaving the gap a crash
    /// would.
    pub fn release_unused_counter_values(&self, engine: &Database) {
        let identities = self.tables.values().filter_map(|t| t.identity.as_ref());
        let counters = identities
            .map(|identity| &identity.counter)
            .chain(self.sequences.values().map(|sequence| &sequence.counter));
        for counter in counters {
            let _ = counter.release_unused(engine);
        }
    }

    pub fn add_sequence(&mut self, sequence: Sequence) {
        self.sequences
            .insert(sequence.object_id, Arc::new(sequence));
    }

    pub fn remove_sequence(&mut self, object_id: i32) -> Option<Arc<Sequence>> {
        self.sequences.remove(&object_id)
    }

    /// What uses the sequence with `object_id` (a DEFAULT of some table's
    /// column): the DEFAULT constraint's name, or the table's when the
    /// constraint was not named.
    pub fn sequence_user(&self, object_id: i32) -> Option<String> {
        self.tables.values().find_map(|table| {
            table.columns.iter().find_map(|column| {
                let default = column.default.as_ref()?;
                default
                    .uses_sequence(object_id)
                    .then(|| column.default_name.clone().unwrap_or(table.name.clone()))
            })
        })
    }

    /// The name of the view, table, procedure or function with `object_id`, for
    /// messages (the id itself for anything else).
    pub fn object_name(&self, object_id: i32) -> String {
        if let Some(view) = self.views.by_id(object_id) {
            return view.name.clone();
        }
        if let Some(table) = self.table_by_id(object_id) {
            return table.name.clone();
        }
        if let Some(procedure) = self.procedures.by_id(object_id) {
            return procedure.name.clone();
        }
        if let Some(function) = self.functions.by_id(object_id) {
            return function.name.clone();
        }
        object_id.to_string()
    }

    /// The definition of the view, function or procedure with `object_id`.
    pub fn module_definition(&self, object_id: i32) -> Option<&str> {
        let view = || self.views.by_id(object_id).map(|v| v.definition.as_str());
        let function = || {
            self.functions
                .by_id(object_id)
                .map(|f| f.definition.as_str())
        };
        let procedure = || {
            self.procedures
                .by_id(object_id)
                .map(|p| p.definition.as_str())
        };
        view().or_else(function).or_else(procedure)
    }

    /// `sys.hekla_counters`.
    pub fn counter_table(&self) -> &Arc<Table> {
        &self.counters
    }

    pub fn remove_table(&mut self, object_id: i32) -> Option<Arc<TableMeta>> {
        self.tables.remove(&object_id)
    }

    /// Puts `table` in place of the table with its object id (ALTER
    /// TABLE's swap); returns the one it replaces.
    pub fn replace_table(&mut self, table: Arc<TableMeta>) -> Option<Arc<TableMeta>> {
        self.next_object_id = self
            .next_object_id
            .max(table.last_object_id().saturating_add(1));
        self.tables.insert(table.object_id, table)
    }

    /// The statistics objects of the table `table_id`, oldest first.
    pub fn statistics_of(
        &self,
        table_id: i32,
    ) -> impl Iterator<Item = &Arc<statistics::StatisticsMeta>> {
        self.statistics
            .values()
            .filter(move |s| s.table_id == table_id)
    }

    pub fn add_statistics(&mut self, statistics: statistics::StatisticsMeta) {
        self.statistics
            .insert(statistics.object_id, Arc::new(statistics));
    }

    pub fn remove_statistics(&mut self, object_id: i32) {
        self.statistics.remove(&object_id);
    }

    /// The id for a new object.
    pub fn allocate_object_id(&mut self) -> SqlResult<i32> {
        let id = self.next_object_id;
        self.next_object_id = id
            .checked_add(1)
            .ok_or_else(|| SqlError::new(1105, 17, 1, "The database has run out of object ids."))?;
        Ok(id)
    }
}

/// Msg 3701: DROP of a `kind` (table, view, procedure ...) named `name`
/// that does not exist.
pub fn cannot_drop(kind: &str, name: &str) -> SqlError {
    SqlError::new(
        3701,
        11,
        5,
        format!("Cannot drop the {kind} '{name}', because it does not exist or you do not have permission."),
    )
}

/// The statement a stored definition holds, as `pick` takes it (Msg 3414
/// when the text is damaged or is not that statement; `what` names the
/// object in the message).
pub fn parse_stored<T>(
    definition: &str,
    what: &str,
    pick: impl FnOnce(hekla_parser::ast::StatementKind) -> Option<T>,
) -> SqlResult<T> {
    let damaged = |why: &str| {
        SqlError::new(
            3414,
            21,
            1,
            format!("The stored definition of {what} cannot be restored: {why}."),
        )
    };
    let batch = hekla_parser::parse_batch(definition).map_err(|e| damaged(&e.message))?;
    batch
        .statements
        .into_iter()
        .next()
        .and_then(|statement| pick(statement.kind))
        .ok_or_else(|| damaged("it is not the statement that made it"))
}

/// A stored definition for `object`, stamped now.
pub fn stored_object(
    object_id: i32,
    schema_id: SchemaId,
    name: &str,
    object_type: ObjectType,
    engine_table: Option<u32>,
    definition: &str,
) -> StoredObject {
    let now = store::now_ms();
    StoredObject {
        object_id,
        schema_id,
        name: name.to_string(),
        object_type,
        engine_table,
        definition: definition.to_string(),
        created_ms: now,
        modified_ms: now,
    }
}

/// A user table by name (schema defaults to dbo); Msg 208 if there is none.
pub fn resolve_table(catalog: &Catalog, name: &ast::ObjectName) -> SqlResult<Arc<TableMeta>> {
    let schema = name.schema().map_or("dbo", |s| s.value.as_str());
    let found = match name.other_database(DATABASE_NAME) {
        None => catalog
            .schema_id(schema)
            .and_then(|id| catalog.table(id, &name.name().value)),
        Some(_) => None,
    };
    // INSERT, UPDATE and DELETE look for views first
    // (`plan::view_change`); OUTPUT INTO does not take one.
    if found.is_none() && view::names_view(catalog, name) {
        return Err(not_supported_yet(Refused::Statement, "OUTPUT INTO a view"));
    }
    found.cloned().ok_or_else(|| {
        let written: Vec<&str> = name
            .parts
            .iter()
            .map(|p| p.as_ref().map_or("", |i| i.value.as_str()))
            .collect();
        crate::error::invalid_object_name(&written.join("."), 1)
    })
}
