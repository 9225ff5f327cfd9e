//! The SQL catalog: what SQL knows about objects beyond the engine's
//! schemas and tables (see docs/sql.md, "Execution"). It is rebuilt at open
//! from the engine and the stored definitions ([`store`]), and changed only
//! by DDL under the database's catalog lock.

pub mod store;
pub mod table;

use hekla_engine::{Database, SchemaId};
use hekla_types::{SqlError, SqlResult};
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
    next_object_id: i32,
}

impl Catalog {
    /// Rebuilds the catalog of `db` from its stored definitions. Engine
    /// tables without a definition (a CREATE TABLE that crashed before its
    /// definition committed) are dropped.
    pub fn load(db: &Database, store: &ObjectStore) -> SqlResult<Catalog> {
        let mut catalog = Catalog {
            schemas: db.schemas().into_iter().collect(),
            tables: BTreeMap::new(),
            next_object_id: FIRST_OBJECT_ID,
        };
        let objects = store.load(db)?;
        for object in &objects {
            catalog.next_object_id = catalog.next_object_id.max(object.object_id + 1);
            if object.object_type == ObjectType::Table {
                let meta = TableMeta::restore(db, &catalog, object)?;
                catalog.tables.insert(object.object_id, Arc::new(meta));
            }
        }
        let described: Vec<u32> = catalog.tables.values().map(|t| t.engine.id).collect();
        let store_id = store.engine_table_id();
        for table in db.tables() {
            if table.id != store_id && !described.contains(&table.id) {
                db.drop_table(table.id)?;
            }
        }
        Ok(catalog)
    }

    pub fn schema_id(&self, name: &str) -> Option<SchemaId> {
        self.schemas
            .iter()
            .find(|(_, schema)| schema.eq_ignore_ascii_case(name))
            .map(|(&id, _)| id)
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

    /// Any object named `name` in `schema` (for Msg 2714).
    pub fn object_exists(&self, schema: SchemaId, name: &str) -> bool {
        self.table(schema, name).is_some()
    }

    pub fn add_table(&mut self, table: TableMeta) {
        self.tables.insert(table.object_id, Arc::new(table));
    }

    pub fn remove_table(&mut self, object_id: i32) -> Option<Arc<TableMeta>> {
        self.tables.remove(&object_id)
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
