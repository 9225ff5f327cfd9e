//! Durable storage of SQL object definitions. The engine persists schemas
//! and tables; everything else SQL needs (views, procedures, functions,
//! sequences, types, and a table's defaults and constraints) is the object's
//! CREATE text, kept as a row of one hidden engine table, `sys.hekla_objects`.
//! Rows are written in ordinary transactions, so they are logged,
//! checkpointed and recovered like any data; on open the SQL layer reads
//! them back and re-binds each definition.

use hekla_engine::{
    ColumnDef, Database, IndexDef, IsolationLevel, SchemaId, Table, TableDef, Transaction,
    Uniqueness,
};
use hekla_types::{Collation, DataType, Length, SqlError, SqlResult, Value};
use std::ops::ControlFlow;
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

/// The engine schema that holds the store (and that SQL reserves).
pub const SYSTEM_SCHEMA: &str = "sys";
const STORE_TABLE: &str = "hekla_objects";
/// Hash buckets of the store's key index: objects are few.
const STORE_BUCKETS: u64 = 4096;

/// SQL Server's `sys.objects.type` codes for the objects hekla stores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ObjectType {
    Table,
    View,
    Procedure,
    ScalarFunction,
    InlineTableFunction,
    TableFunction,
    Sequence,
    TableType,
    /// An alias type (`CREATE TYPE name FROM base`): no object in SQL
    /// Server, only a row of `sys.types`.
    AliasType,
    /// A statistics object: no object in SQL Server, a row of `sys.stats`.
    Statistics,
}

impl ObjectType {
    pub const ALL: [ObjectType; 10] = [
        ObjectType::Table,
        ObjectType::View,
        ObjectType::Procedure,
        ObjectType::ScalarFunction,
        ObjectType::InlineTableFunction,
        ObjectType::TableFunction,
        ObjectType::Sequence,
        ObjectType::TableType,
        ObjectType::AliasType,
        ObjectType::Statistics,
    ];

    /// The two-letter code of `sys.objects.type` (`TT` for table types,
    /// which SQL Server lists in `sys.table_types`). Alias types are no
    /// objects, nor are statistics; hekla stores them under codes of its
    /// own, `TY` and `ST`, which no SQL Server object type uses.
    pub fn code(self) -> &'static str {
        match self {
            ObjectType::Table => "U",
            ObjectType::View => "V",
            ObjectType::Procedure => "P",
            ObjectType::ScalarFunction => "FN",
            ObjectType::InlineTableFunction => "IF",
            ObjectType::TableFunction => "TF",
            ObjectType::Sequence => "SO",
            ObjectType::TableType => "TT",
            ObjectType::AliasType => "TY",
            ObjectType::Statistics => "ST",
        }
    }

    pub fn from_code(code: &str) -> Option<ObjectType> {
        ObjectType::ALL
            .into_iter()
            .find(|t| t.code() == code.trim_end())
    }
}

/// One stored definition.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredObject {
    pub object_id: i32,
    pub schema_id: u32,
    pub name: String,
    pub object_type: ObjectType,
    /// The engine table behind a table object.
    pub engine_table: Option<u32>,
    /// The CREATE statement, as the user wrote it.
    pub definition: String,
    /// Milliseconds since the Unix epoch.
    pub created_ms: i64,
    pub modified_ms: i64,
}

/// Column ordinals of `sys.hekla_objects`.
mod column {
    pub const OBJECT_ID: usize = 0;
    pub const SCHEMA_ID: usize = 1;
    pub const NAME: usize = 2;
    pub const TYPE: usize = 3;
    pub const ENGINE_TABLE: usize = 4;
    pub const DEFINITION: usize = 5;
    pub const CREATED: usize = 6;
    pub const MODIFIED: usize = 7;
}

pub struct ObjectStore {
    table: Arc<Table>,
    /// `sys.hekla_counters`: IDENTITY and sequence values.
    counters: super::counter::CounterTable,
    /// The `sys` schema the store's tables are in.
    schema: SchemaId,
}

impl ObjectStore {
    /// Finds the store in `db`, creating the `sys` schema and the table the
    /// first time a database is opened.
    pub fn open(db: &Database) -> SqlResult<ObjectStore> {
        let schema = match db.schema_id(SYSTEM_SCHEMA) {
            Some(id) => id,
            None => db.create_schema(SYSTEM_SCHEMA)?,
        };
        let table = match db.table_named(SYSTEM_SCHEMA, STORE_TABLE) {
            Some(table) => table,
            None => db.create_table(store_table_def(schema))?,
        };
        let counters = super::counter::CounterTable::open(db, schema, SYSTEM_SCHEMA)?;
        Ok(ObjectStore {
            table,
            counters,
            schema,
        })
    }

    /// Whether engine table `id` is one of the store's own (never a user
    /// table).
    pub fn owns_engine_table(&self, id: u32) -> bool {
        id == self.table.id || id == self.counters.engine_table().id
    }

    /// The `sys` schema, where other system tables go too (the security
    /// store's).
    pub fn system_schema(&self) -> SchemaId {
        self.schema
    }

    /// The durable values of IDENTITY columns and sequences.
    pub fn counters(&self) -> &super::counter::CounterTable {
        &self.counters
    }

    /// Every stored object, in object id order.
    pub fn load(&self, db: &Database) -> SqlResult<Vec<StoredObject>> {
        let mut tx = db.begin(IsolationLevel::Snapshot)?;
        let mut objects = Vec::new();
        let mut damaged = None;
        tx.scan(&self.table, |row| {
            match decode(&row.values()) {
                Some(object) => objects.push(object),
                None => damaged = Some(row.values()),
            }
            ControlFlow::<()>::Continue(())
        })?;
        tx.commit()?;
        if let Some(values) = damaged {
            return Err(SqlError::new(
                3414,
                21,
                1,
                format!("The SQL catalog holds a row hekla cannot read: {values:?}."),
            ));
        }
        objects.sort_by_key(|object| object.object_id);
        Ok(objects)
    }

    /// Adds `object` within `tx` (a duplicate id is the engine's 2627).
    pub fn insert(&self, tx: &mut Transaction, object: &StoredObject) -> SqlResult<()> {
        tx.insert(&self.table, &encode(object))?;
        Ok(())
    }

    /// Replaces the stored row of `object.object_id` (its definition, engine
    /// table and dates) within `tx`, leaving its counter alone (ALTER
    /// TABLE); adds it if absent.
    pub fn replace(&self, tx: &mut Transaction, object: &StoredObject) -> SqlResult<()> {
        if let Some(row) = tx.get(&self.table, 0, &[Value::Int(object.object_id)])? {
            tx.delete(&self.table, row)?;
        }
        self.insert(tx, object)
    }

    /// Writes `object` in a transaction of its own, in place of the row of
    /// its id if there is one (CREATE or ALTER of a module).
    pub fn save(&self, db: &Database, object: &StoredObject) -> SqlResult<()> {
        let mut tx = db.begin(IsolationLevel::Snapshot)?;
        self.replace(&mut tx, object)?;
        tx.commit()?;
        Ok(())
    }

    /// Removes the object with `object_id` in a transaction of its own
    /// (DROP of a module).
    pub fn remove(&self, db: &Database, object_id: i32) -> SqlResult<()> {
        let mut tx = db.begin(IsolationLevel::Snapshot)?;
        self.delete(&mut tx, object_id)?;
        tx.commit()?;
        Ok(())
    }

    /// Removes the object with `object_id` within `tx`, with its counter
    /// (IDENTITY or sequence) if it has one; false if absent.
    pub fn delete(&self, tx: &mut Transaction, object_id: i32) -> SqlResult<bool> {
        self.counters.delete(tx, object_id)?;
        match tx.get(&self.table, 0, &[Value::Int(object_id)])? {
            Some(row) => {
                tx.delete(&self.table, row)?;
                Ok(true)
            }
            None => Ok(false),
        }
    }
}

/// The definition of `sys.hekla_objects`.
fn store_table_def(schema: hekla_engine::SchemaId) -> TableDef {
    let collation = Collation::default();
    let nvarchar = |len| DataType::NVarChar { len, collation };
    let columns = vec![
        ColumnDef::new("object_id", DataType::Int, false),
        ColumnDef::new("schema_id", DataType::Int, false),
        ColumnDef::new("name", nvarchar(Length::Bounded(128)), false),
        ColumnDef::new("type", DataType::Char { len: 2, collation }, false),
        ColumnDef::new("engine_table", DataType::Int, true),
        ColumnDef::new("definition", nvarchar(Length::Max), false),
        ColumnDef::new("created_ms", DataType::BigInt, false),
        ColumnDef::new("modified_ms", DataType::BigInt, false),
    ];
    let key = IndexDef::hash(
        "PK_hekla_objects",
        &[column::OBJECT_ID],
        STORE_BUCKETS,
        Uniqueness::PrimaryKey,
    );
    let mut def = TableDef::new(STORE_TABLE, columns, vec![key]);
    def.schema = schema;
    def
}

fn encode(object: &StoredObject) -> Vec<Value> {
    vec![
        Value::Int(object.object_id),
        Value::Int(object.schema_id as i32),
        Value::String(object.name.clone()),
        Value::String(object.object_type.code().to_string()),
        object
            .engine_table
            .map_or(Value::Null, |id| Value::Int(id as i32)),
        Value::String(object.definition.clone()),
        Value::BigInt(object.created_ms),
        Value::BigInt(object.modified_ms),
    ]
}

fn decode(values: &[Value]) -> Option<StoredObject> {
    let int = |index: usize| match values.get(index)? {
        Value::Int(v) => Some(*v),
        _ => None,
    };
    let big = |index: usize| match values.get(index)? {
        Value::BigInt(v) => Some(*v),
        _ => None,
    };
    let text = |index: usize| match values.get(index)? {
        Value::String(v) => Some(v.clone()),
        _ => None,
    };
    let engine_table = match values.get(column::ENGINE_TABLE)? {
        Value::Null => None,
        Value::Int(id) => Some(u32::try_from(*id).ok()?),
        _ => return None,
    };
    Some(StoredObject {
        object_id: int(column::OBJECT_ID)?,
        schema_id: u32::try_from(int(column::SCHEMA_ID)?).ok()?,
        name: text(column::NAME)?,
        object_type: ObjectType::from_code(&text(column::TYPE)?)?,
        engine_table,
        definition: text(column::DEFINITION)?,
        created_ms: big(column::CREATED)?,
        modified_ms: big(column::MODIFIED)?,
    })
}

/// Milliseconds since the Unix epoch, for `created_ms` / `modified_ms`.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |elapsed| {
            i64::try_from(elapsed.as_millis()).unwrap_or(i64::MAX)
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use hekla_engine::{DatabaseConfig, StorageConfig};

    fn object(id: i32, object_type: ObjectType, definition: &str) -> StoredObject {
        StoredObject {
            object_id: id,
            schema_id: 1,
            name: format!("o{id}"),
            object_type,
            engine_table: (object_type == ObjectType::Table).then_some(7),
            definition: definition.to_string(),
            created_ms: 1_700_000_000_000,
            modified_ms: now_ms(),
        }
    }

    fn scratch_dir(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "hekla-sql-store-{name}-{}-{}",
            std::process::id(),
            now_ms()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn objects_round_trip_and_survive_a_restart() {
        let dir = scratch_dir("restart");
        let stored = vec![
            object(1, ObjectType::Table, "CREATE TABLE dbo.o1 (a int)"),
            object(
                2,
                ObjectType::Procedure,
                "CREATE PROCEDURE dbo.o2 AS SELECT N'é'",
            ),
            object(3, ObjectType::Sequence, "CREATE SEQUENCE dbo.o3"),
        ];
        {
            let db =
                Database::open(&dir, DatabaseConfig::default(), StorageConfig::small()).unwrap();
            let store = ObjectStore::open(&db).unwrap();
            let mut tx = db.begin(IsolationLevel::Snapshot).unwrap();
            for object in &stored {
                store.insert(&mut tx, object).unwrap();
            }
            tx.commit().unwrap();
            let mut tx = db.begin(IsolationLevel::Snapshot).unwrap();
            assert!(store.delete(&mut tx, 2).unwrap());
            assert!(!store.delete(&mut tx, 99).unwrap());
            tx.commit().unwrap();
            assert_eq!(store.load(&db).unwrap().len(), 2);
        }
        let db = Database::open(&dir, DatabaseConfig::default(), StorageConfig::small()).unwrap();
        let store = ObjectStore::open(&db).unwrap();
        let loaded = store.load(&db).unwrap();
        assert_eq!(loaded, vec![stored[0].clone(), stored[2].clone()]);
        drop(db);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn duplicate_ids_are_refused_and_roll_back() {
        let db = Database::new(DatabaseConfig::default());
        let store = ObjectStore::open(&db).unwrap();
        let mut tx = db.begin(IsolationLevel::Snapshot).unwrap();
        store
            .insert(
                &mut tx,
                &object(5, ObjectType::View, "CREATE VIEW v AS SELECT 1"),
            )
            .unwrap();
        let error = store
            .insert(
                &mut tx,
                &object(5, ObjectType::View, "CREATE VIEW w AS SELECT 2"),
            )
            .unwrap_err();
        assert_eq!(error.number, 2627);
        tx.rollback();
        assert!(store.load(&db).unwrap().is_empty());
    }

    #[test]
    fn type_codes_round_trip() {
        for object_type in ObjectType::ALL {
            assert_eq!(ObjectType::from_code(object_type.code()), Some(object_type));
        }
        assert_eq!(ObjectType::from_code("U "), Some(ObjectType::Table));
        assert_eq!(ObjectType::from_code("XX"), None);
    }
}
