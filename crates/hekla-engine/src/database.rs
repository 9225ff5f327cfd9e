//! A database: catalog, transaction table, clock and garbage collector.

use crate::catalog::{SchemaId, TableDef, TableId, DBO_SCHEMA};
use crate::errors;
use crate::gc::Collector;
use crate::log::CommitLog;
use crate::stats::{Counters, DatabaseStats};
use crate::table::Table;
use crate::transaction::{IsolationLevel, Transaction};
use crate::txn_table::{TxnTable, MAX_TRANSACTIONS};
use crate::word::FIRST_TIMESTAMP;
use hekla_types::SqlResult;
use std::collections::BTreeMap;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock, RwLock, Weak};
use std::thread::JoinHandle;
use std::time::Duration;

#[derive(Clone, Debug)]
pub struct DatabaseConfig {
    /// How many transactions may be active at once.
    pub max_transactions: usize,
    /// How often the background collector runs; None disables it (garbage
    /// is then collected only by committing threads and `collect_garbage`).
    pub gc_interval: Option<Duration>,
}

impl Default for DatabaseConfig {
    fn default() -> Self {
        DatabaseConfig {
            max_transactions: 4096.min(MAX_TRANSACTIONS),
            gc_interval: Some(Duration::from_millis(10)),
        }
    }
}

struct Catalog {
    schemas: BTreeMap<SchemaId, String>,
    tables: BTreeMap<TableId, Arc<Table>>,
    /// Dropped tables, kept until the database goes: write sets and the
    /// garbage queue may still point at them.
    dropped: Vec<Arc<Table>>,
    next_schema: SchemaId,
    next_table: TableId,
}

impl Catalog {
    fn schema_named(&self, name: &str) -> Option<SchemaId> {
        self.schemas
            .iter()
            .find(|(_, n)| n.eq_ignore_ascii_case(name))
            .map(|(&id, _)| id)
    }
}

/// An uncounted reference to a database's shared state, held by
/// transactions so that beginning one touches no shared reference count.
/// Valid because `Database`'s Drop leaks the state while any transaction is
/// still active, and a finished transaction never dereferences it.
#[derive(Clone, Copy)]
pub(crate) struct SharedRef(NonNull<Shared>);

// SAFETY: Shared is Sync; validity as explained above.
unsafe impl Send for SharedRef {}
// SAFETY: as above.
unsafe impl Sync for SharedRef {}

impl std::ops::Deref for SharedRef {
    type Target = Shared;
    fn deref(&self) -> &Shared {
        // SAFETY: see the type's documentation.
        unsafe { self.0.as_ref() }
    }
}

pub(crate) struct Shared {
    /// Distinguishes this database from every other in the process.
    pub serial: u64,
    pub clock: AtomicU64,
    pub txns: Arc<TxnTable>,
    pub gc: Collector,
    pub counters: Counters,
    pub commit_log: OnceLock<Arc<dyn CommitLog>>,
    catalog: RwLock<Catalog>,
}

static NEXT_DATABASE_SERIAL: AtomicU64 = AtomicU64::new(1);

pub struct Database {
    shared: Arc<Shared>,
    gc_stop: Arc<AtomicBool>,
    gc_thread: Option<JoinHandle<()>>,
}

impl Default for Database {
    fn default() -> Self {
        Database::new(DatabaseConfig::default())
    }
}

impl Database {
    pub fn new(config: DatabaseConfig) -> Database {
        let shared = Arc::new(Shared {
            serial: NEXT_DATABASE_SERIAL.fetch_add(1, Ordering::Relaxed),
            clock: AtomicU64::new(FIRST_TIMESTAMP),
            txns: Arc::new(TxnTable::new(config.max_transactions)),
            gc: Collector::default(),
            counters: Counters::default(),
            commit_log: OnceLock::new(),
            catalog: RwLock::new(Catalog {
                schemas: BTreeMap::from([(DBO_SCHEMA, "dbo".to_string())]),
                tables: BTreeMap::new(),
                dropped: Vec::new(),
                next_schema: DBO_SCHEMA + 1,
                next_table: 1,
            }),
        });
        let gc_stop = Arc::new(AtomicBool::new(false));
        let gc_thread = config
            .gc_interval
            .map(|interval| spawn_collector(Arc::downgrade(&shared), gc_stop.clone(), interval));
        Database {
            shared,
            gc_stop,
            gc_thread,
        }
    }

    /// Installs the redo log every later commit goes through. Only once.
    pub fn set_commit_log(&self, log: Arc<dyn CommitLog>) -> SqlResult<()> {
        self.shared
            .commit_log
            .set(log)
            .map_err(|_| errors::invalid_argument("a commit log is already installed".to_string()))
    }

    pub fn begin(&self, isolation: IsolationLevel) -> SqlResult<Transaction> {
        Transaction::begin(SharedRef(NonNull::from(&*self.shared)), isolation)
    }

    pub fn create_schema(&self, name: &str) -> SqlResult<SchemaId> {
        let mut catalog = self.shared.catalog.write().expect("catalog");
        if catalog.schema_named(name).is_some() {
            return Err(errors::object_exists(name));
        }
        let id = catalog.next_schema;
        catalog.next_schema += 1;
        catalog.schemas.insert(id, name.to_string());
        Ok(id)
    }

    pub fn schema_id(&self, name: &str) -> Option<SchemaId> {
        self.shared
            .catalog
            .read()
            .expect("catalog")
            .schema_named(name)
    }

    pub fn create_table(&self, def: TableDef) -> SqlResult<Arc<Table>> {
        self.add_table(None, def)
    }

    /// Re-creates a table under the id it had before a restart (recovery).
    pub fn restore_table(&self, id: TableId, def: TableDef) -> SqlResult<Arc<Table>> {
        self.add_table(Some(id), def)
    }

    fn add_table(&self, id: Option<TableId>, def: TableDef) -> SqlResult<Arc<Table>> {
        def.validate()?;
        let mut catalog = self.shared.catalog.write().expect("catalog");
        let schema_name = catalog
            .schemas
            .get(&def.schema)
            .cloned()
            .ok_or_else(|| errors::invalid_object(&format!("schema {}", def.schema)))?;
        let taken = catalog
            .tables
            .values()
            .any(|t| t.def.schema == def.schema && t.def.name.eq_ignore_ascii_case(&def.name));
        if taken {
            return Err(errors::object_exists(&format!(
                "{schema_name}.{}",
                def.name
            )));
        }
        let id = id.unwrap_or(catalog.next_table);
        if catalog.tables.contains_key(&id) {
            return Err(errors::invalid_argument(format!("table id {id} is in use")));
        }
        catalog.next_table = catalog.next_table.max(id + 1);
        let table = Table::new(id, def, &schema_name, self.shared.serial);
        catalog.tables.insert(id, table.clone());
        Ok(table)
    }

    /// Removes a table from the catalog. Its memory is kept until the
    /// database is dropped, since transactions may still be using it.
    pub fn drop_table(&self, id: TableId) -> SqlResult<()> {
        let mut catalog = self.shared.catalog.write().expect("catalog");
        let table = catalog
            .tables
            .remove(&id)
            .ok_or_else(|| errors::invalid_object(&format!("table id {id}")))?;
        catalog.dropped.push(table);
        Ok(())
    }

    pub fn table(&self, id: TableId) -> Option<Arc<Table>> {
        self.shared
            .catalog
            .read()
            .expect("catalog")
            .tables
            .get(&id)
            .cloned()
    }

    pub fn table_named(&self, schema: &str, name: &str) -> Option<Arc<Table>> {
        let catalog = self.shared.catalog.read().expect("catalog");
        let schema = catalog.schema_named(schema)?;
        catalog
            .tables
            .values()
            .find(|t| t.def.schema == schema && t.def.name.eq_ignore_ascii_case(name))
            .cloned()
    }

    pub fn tables(&self) -> Vec<Arc<Table>> {
        self.shared
            .catalog
            .read()
            .expect("catalog")
            .tables
            .values()
            .cloned()
            .collect()
    }

    pub fn stats(&self) -> DatabaseStats {
        self.shared.counters.snapshot()
    }

    /// The newest commit timestamp handed out.
    pub fn current_timestamp(&self) -> u64 {
        self.shared.clock.load(Ordering::Acquire)
    }

    /// Runs a full garbage-collection pass now; returns versions collected.
    pub fn collect_garbage(&self) -> usize {
        let collected = self
            .shared
            .gc
            .collect_all(&self.shared.txns, &self.shared.clock);
        // Slots go back to the heap once the epoch has moved on; nudge it so
        // that memory figures read right after are settled.
        for _ in 0..4 {
            crossbeam_epoch::pin().flush();
        }
        collected
    }

    /// Versions handed to the collector and not yet collected.
    pub fn garbage_pending(&self) -> usize {
        self.shared.gc.pending()
    }

    /// Versions collected since the database started.
    pub fn garbage_collected(&self) -> u64 {
        self.shared.gc.collected()
    }
}

fn spawn_collector(
    shared: Weak<Shared>,
    stop: Arc<AtomicBool>,
    interval: Duration,
) -> JoinHandle<()> {
    std::thread::Builder::new()
        .name("hekla-gc".to_string())
        .spawn(move || {
            while !stop.load(Ordering::Acquire) {
                std::thread::park_timeout(interval);
                let Some(shared) = shared.upgrade() else {
                    return;
                };
                shared.gc.collect_all(&shared.txns, &shared.clock);
            }
        })
        .expect("spawn the garbage collector thread")
}

impl Drop for Database {
    fn drop(&mut self) {
        self.gc_stop.store(true, Ordering::Release);
        if let Some(thread) = self.gc_thread.take() {
            thread.thread().unpark();
            let _ = thread.join();
        }
        if self.shared.txns.any_active() {
            // A transaction outlives its database: leak the state it points
            // at rather than free memory in use.
            std::mem::forget(self.shared.clone());
        }
    }
}
