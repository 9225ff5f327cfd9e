//! A database: catalog, transaction table, clock and garbage collector.

use crate::catalog::{SchemaId, TableDef, TableId, DBO_SCHEMA};
use crate::durability::{
    self, CheckpointFileInfo, CheckpointReport, Checkpointer, CompletedCheckpoint, DatabaseOptions,
    DelayedDurability, DirectoryLock, DurableLog, LogStats, LogWriter, OptionsCell, Record,
    RecoveryReport, Request, StorageConfig,
};
use crate::errors;
use crate::gc::{Collector, Garbage};
use crate::log::CommitLog;
use crate::memory::{default_memory_limit, MemoryBudget};
use crate::stats::{Counters, DatabaseStats};
use crate::table::Table;
use crate::transaction::{Dependencies, IsolationLevel, Transaction};
use crate::txn_table::{ActiveTransaction, TxnTable, MAX_TRANSACTIONS};
use crate::word::FIRST_TIMESTAMP;
use hekla_types::SqlResult;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::ptr::NonNull;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Mutex, OnceLock, RwLock, Weak};
use std::thread::JoinHandle;
use std::time::Duration;

#[derive(Clone, Debug)]
pub struct DatabaseConfig {
    /// How many transactions may be active at once.
    pub max_transactions: usize,
    /// How often the background collector runs; None disables it (garbage
    /// is then collected only by committing threads and `collect_garbage`).
    pub gc_interval: Option<Duration>,
    /// The memory the database's memory-optimized tables may take (row
    /// pages and hash bucket arrays), as a resource pool's limit does in
    /// SQL Server: past it, CREATE TABLE and writes fail with Msg 41805.
    /// Default: [`default_memory_limit`], a share of physical memory.
    pub memory_limit_bytes: u64,
    /// The most memory one request's large values (strings and binaries
    /// functions build) and operator buffers (sorts, hash tables) may
    /// take, so one client cannot take the server's memory: past it, Msg
    /// 701. Default: [`DEFAULT_REQUEST_MEMORY_LIMIT`] (1 GiB).
    pub request_memory_limit_bytes: u64,
}

/// The default of [`DatabaseConfig::request_memory_limit_bytes`].
pub const DEFAULT_REQUEST_MEMORY_LIMIT: u64 = 1 << 30;

impl Default for DatabaseConfig {
    fn default() -> Self {
        DatabaseConfig {
            max_transactions: 4096.min(MAX_TRANSACTIONS),
            gc_interval: Some(Duration::from_millis(10)),
            memory_limit_bytes: default_memory_limit(),
            request_memory_limit_bytes: DEFAULT_REQUEST_MEMORY_LIMIT,
        }
    }
}

struct Catalog {
    schemas: BTreeMap<SchemaId, String>,
    tables: BTreeMap<TableId, Arc<Table>>,
    /// Dropped tables not yet freed: write sets and the garbage queue may
    /// still point at them (see [`Shared::reclaim_dropped`]).
    dropped: Vec<Dropped>,
    next_schema: SchemaId,
    next_table: TableId,
}

/// A dropped table waiting to be freed.
struct Dropped {
    table: Arc<Table>,
    /// The clock when nothing but this list was seen holding the table;
    /// None while something else does.
    orphaned_at: Option<u64>,
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
    /// What the tables' memory is charged to.
    pub memory: Arc<MemoryBudget>,
    catalog: RwLock<Catalog>,
}

impl Shared {
    /// Frees the dropped tables nothing can reach any more. A table is
    /// reached by counted references (the SQL layer's; the collector's
    /// deferred frees count only the table's heap) and by uncounted `TableRef`s in write sets and the
    /// garbage queue. Once only this list counts it, no new `TableRef` can
    /// be made; the transactions that may hold one were active then, so
    /// they began at or before that moment. When all of them have ended,
    /// their garbage is queued (a transaction queues it before it leaves
    /// its slot), and when none of that is left the table can go.
    pub(crate) fn reclaim_dropped(&self) {
        if self.catalog.read().expect("catalog").dropped.is_empty() {
            return;
        }
        let oldest = self.txns.oldest_begin();
        let mut catalog = self.catalog.write().expect("catalog");
        catalog.dropped.retain_mut(|dropped| {
            if Arc::strong_count(&dropped.table) > 1 {
                dropped.orphaned_at = None;
                return true;
            }
            match dropped.orphaned_at {
                // Read after seeing it orphaned: a transaction holding a
                // `TableRef` got it earlier, so began at or before this.
                None => {
                    dropped.orphaned_at = Some(self.clock.load(Ordering::SeqCst));
                    true
                }
                // `oldest` was read after `at` (a pass before this one).
                Some(at) => {
                    oldest.is_some_and(|begin| begin <= at) || dropped.table.has_queued_garbage()
                }
            }
        });
    }
}

static NEXT_DATABASE_SERIAL: AtomicU64 = AtomicU64::new(1);

/// How a new table's name is checked against the tables already there.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Names {
    /// No other table of the schema may have it.
    Unique,
    /// Only the given table (the one being replaced) may have it too.
    SharedWith(TableId),
    /// Not checked (recovery).
    Unchecked,
}

pub struct Database {
    shared: Arc<Shared>,
    gc_stop: Arc<AtomicBool>,
    gc_thread: Option<JoinHandle<()>>,
    /// What `ALTER DATABASE ... SET` chose.
    options: Arc<OptionsCell>,
    /// Present for a database opened from a directory.
    durable: Option<Durable>,
    /// See [`DatabaseConfig::request_memory_limit_bytes`].
    request_memory_limit: u64,
}

/// The durability machinery of a database opened from a directory.
struct Durable {
    dir: PathBuf,
    log: Arc<LogWriter>,
    requests: Mutex<Sender<Request>>,
    worker: Option<JoinHandle<()>>,
    flusher_stop: Arc<AtomicBool>,
    flusher: Option<JoinHandle<()>>,
    recovery: RecoveryReport,
    /// Released last, when everything above has stopped.
    _lock: DirectoryLock,
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
            memory: Arc::new(MemoryBudget::new(config.memory_limit_bytes)),
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
            options: Arc::default(),
            durable: None,
            request_memory_limit: config.request_memory_limit_bytes,
        }
    }

    /// Opens the database stored in `dir` (creating it if the directory is
    /// new or empty): recovers its tables from the last checkpoint and the
    /// log, then logs every commit to SCHEMA_AND_DATA tables and every
    /// catalog change, and checkpoints continuously. A database whose files
    /// are damaged is refused with an error naming the file.
    pub fn open(
        dir: impl AsRef<Path>,
        config: DatabaseConfig,
        storage: StorageConfig,
    ) -> SqlResult<Database> {
        let dir = dir.as_ref();
        let lock = DirectoryLock::acquire(dir)?;
        let mut db = Database::new(config);
        let (root, tail, recovery) = durability::recover(&db, dir, &storage)?;
        let name = dir.file_name().map_or_else(
            || dir.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        let log = Arc::new(LogWriter::open(
            storage.storage.clone(),
            &dir.join("log"),
            &name,
            storage.log_segment_bytes,
            tail,
        )?);
        db.set_commit_log(Arc::new(DurableLog {
            log: log.clone(),
            options: db.options.clone(),
        }))?;
        let checkpointer = Checkpointer::new(dir.to_path_buf(), storage.clone(), root.as_ref())?;
        let (requests, inbox) = mpsc::channel();
        let worker = {
            let (shared, log) = (db.shared.clone(), log.clone());
            std::thread::Builder::new()
                .name("hekla-checkpoint".to_string())
                .spawn(move || durability::run_checkpointer(checkpointer, shared, log, inbox))
                .map_err(|e| errors::io_error("thread start", dir, &e))?
        };
        let flusher_stop = Arc::new(AtomicBool::new(false));
        let flusher = durability::spawn_flusher(
            log.clone(),
            storage.delayed_flush_interval,
            flusher_stop.clone(),
        )
        .map_err(|e| errors::io_error("thread start", dir, &e))?;
        db.durable = Some(Durable {
            dir: dir.to_path_buf(),
            log,
            requests: Mutex::new(requests),
            worker: Some(worker),
            flusher_stop,
            flusher: Some(flusher),
            recovery,
            _lock: lock,
        });
        Ok(db)
    }

    /// The directory a durable database lives in.
    pub fn directory(&self) -> Option<&Path> {
        self.durable.as_ref().map(|d| d.dir.as_path())
    }

    /// Logs a catalog change (durably) if this database has a log.
    fn log_catalog(&self, make: impl FnOnce(u64) -> Record<'static>) -> SqlResult<()> {
        if let Some(durable) = &self.durable {
            durable.log.append_catalog(&self.shared.clock, make)?;
        }
        Ok(())
    }

    fn ask_worker<T>(&self, make: impl FnOnce(Sender<T>) -> Request) -> Option<T> {
        let durable = self.durable.as_ref()?;
        let (reply, answer) = mpsc::channel();
        durable
            .requests
            .lock()
            .expect("checkpoint requests")
            .send(make(reply))
            .ok()?;
        answer.recv().ok()
    }

    /// `CHECKPOINT`: seals the checkpoint files under construction, merges
    /// emptied pairs, writes a new root and truncates the log. A database
    /// without a directory has nothing to checkpoint.
    pub fn checkpoint(&self) -> SqlResult<CheckpointReport> {
        match self.durable {
            None => Ok(CheckpointReport::default()),
            Some(_) => self.ask_worker(Request::Checkpoint).unwrap_or_else(|| {
                Err(errors::invalid_argument(
                    "the checkpoint worker has stopped".into(),
                ))
            }),
        }
    }

    /// The latest checkpoints (up to 64, oldest first), automatic ones
    /// included: what each did and when it finished. Empty without a
    /// directory.
    pub fn checkpoint_history(&self) -> Vec<CompletedCheckpoint> {
        self.ask_worker(Request::History).unwrap_or_default()
    }

    /// `sys.dm_db_xtp_checkpoint_files`: every checkpoint file and its state.
    pub fn checkpoint_files(&self) -> Vec<CheckpointFileInfo> {
        self.ask_worker(Request::Files).unwrap_or_default()
    }

    /// `sys.sp_flush_log`: makes every delayed-durable commit durable.
    pub fn flush_log(&self) -> SqlResult<()> {
        match &self.durable {
            Some(durable) => durable.log.flush(),
            None => Ok(()),
        }
    }

    /// `ALTER DATABASE ... SET`: applies `change` to the options and logs
    /// them all (durably, like any catalog change) before they take effect.
    pub fn change_options(
        &self,
        change: impl FnOnce(&mut DatabaseOptions),
    ) -> SqlResult<DatabaseOptions> {
        self.options.change(change, |options| {
            self.log_catalog(|ts| Record::Options { ts, options })
        })
    }

    pub fn options(&self) -> DatabaseOptions {
        self.options.get()
    }

    /// `ALTER DATABASE ... SET DELAYED_DURABILITY = ...`, logged.
    pub fn set_delayed_durability(&self, mode: DelayedDurability) -> SqlResult<()> {
        self.change_options(|options| options.delayed_durability = mode)
            .map(|_| ())
    }

    pub fn delayed_durability(&self) -> DelayedDurability {
        self.options.delayed_durability()
    }

    pub(crate) fn restore_options(&self, options: DatabaseOptions) {
        self.options.set(options);
    }

    /// What the log has written since the database opened.
    pub fn log_stats(&self) -> Option<LogStats> {
        self.durable.as_ref().map(|d| d.log.stats())
    }

    /// What recovery did when the database opened.
    pub fn recovery_report(&self) -> Option<&RecoveryReport> {
        self.durable.as_ref().map(|d| &d.recovery)
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

    /// [`Transaction::settle_dependencies`] for the transaction `of`
    /// stands for, while that transaction is borrowed. Nothing is left to
    /// wait for once it has ended.
    pub fn settle_dependencies(&self, of: Dependencies) -> SqlResult<()> {
        of.settle(&self.shared)
    }

    pub fn create_schema(&self, name: &str) -> SqlResult<SchemaId> {
        let mut catalog = self.shared.catalog.write().expect("catalog");
        if catalog.schema_named(name).is_some() {
            return Err(errors::object_exists(name));
        }
        let id = catalog.next_schema;
        self.log_catalog(|ts| Record::CreateSchema {
            ts,
            id,
            name: name.to_string(),
        })?;
        catalog.next_schema += 1;
        catalog.schemas.insert(id, name.to_string());
        Ok(id)
    }

    /// Re-creates a schema under its old id (recovery).
    pub(crate) fn restore_schema(&self, id: SchemaId, name: &str) -> SqlResult<()> {
        let mut catalog = self.shared.catalog.write().expect("catalog");
        catalog.next_schema = catalog.next_schema.max(id + 1);
        catalog.schemas.insert(id, name.to_string());
        Ok(())
    }

    /// Makes sure ids below these are never handed out again (recovery).
    pub(crate) fn reserve_ids(&self, next_schema: SchemaId, next_table: TableId) {
        let mut catalog = self.shared.catalog.write().expect("catalog");
        catalog.next_schema = catalog.next_schema.max(next_schema);
        catalog.next_table = catalog.next_table.max(next_table);
    }

    pub(crate) fn next_ids(&self) -> (SchemaId, TableId) {
        let catalog = self.shared.catalog.read().expect("catalog");
        (catalog.next_schema, catalog.next_table)
    }

    /// Moves the clock to at least `ts` (recovery).
    pub(crate) fn advance_clock(&self, ts: u64) {
        self.shared.clock.fetch_max(ts, Ordering::SeqCst);
    }

    /// Hands a version ended at `ts` to the collector (recovery).
    pub(crate) fn retire(&self, ts: u64, garbage: Garbage) {
        self.shared.gc.retire(ts, [garbage]);
    }

    /// Every schema, by id.
    pub fn schemas(&self) -> Vec<(SchemaId, String)> {
        let catalog = self.shared.catalog.read().expect("catalog");
        catalog
            .schemas
            .iter()
            .map(|(&id, name)| (id, name.clone()))
            .collect()
    }

    pub fn schema_id(&self, name: &str) -> Option<SchemaId> {
        self.shared
            .catalog
            .read()
            .expect("catalog")
            .schema_named(name)
    }

    pub fn create_table(&self, def: TableDef) -> SqlResult<Arc<Table>> {
        self.add_table(None, def, Names::Unique)
    }

    /// Creates a table that is to take the place of table `replaces`: a
    /// rebuild (ALTER TABLE) copies the rows of `replaces` into it and then
    /// drops one of the two. Until then both may carry the same name in the
    /// same schema (so that the replacement's error messages already name
    /// the table as the user knows it); any other clash is refused as by
    /// [`Database::create_table`].
    pub fn create_replacement(&self, replaces: TableId, def: TableDef) -> SqlResult<Arc<Table>> {
        self.add_table(None, def, Names::SharedWith(replaces))
    }

    /// Re-creates a table under the id it had before a restart (recovery).
    /// Names are not checked again: they were when the table was created,
    /// and a crash during a rebuild leaves a table and its replacement
    /// under one name (the SQL layer drops the one it no longer describes).
    pub fn restore_table(&self, id: TableId, def: TableDef) -> SqlResult<Arc<Table>> {
        self.add_table(Some(id), def, Names::Unchecked)
    }

    fn add_table(&self, id: Option<TableId>, def: TableDef, names: Names) -> SqlResult<Arc<Table>> {
        def.validate()?;
        let mut catalog = self.shared.catalog.write().expect("catalog");
        let schema_name = catalog
            .schemas
            .get(&def.schema)
            .cloned()
            .ok_or_else(|| errors::invalid_object(&format!("schema {}", def.schema)))?;
        let taken = names != Names::Unchecked
            && catalog.tables.values().any(|t| {
                t.def.schema == def.schema
                    && t.def.name.eq_ignore_ascii_case(&def.name)
                    && names != Names::SharedWith(t.id)
            });
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
        // Allocated before it is logged: a table refused for memory (41805)
        // must not come back at recovery.
        let table = Table::new(
            id,
            def.clone(),
            &schema_name,
            self.shared.serial,
            &self.shared.memory,
        )?;
        self.log_catalog(|ts| Record::CreateTable { ts, id, def })?;
        catalog.next_table = catalog.next_table.max(id + 1);
        catalog.tables.insert(id, table.clone());
        Ok(table)
    }

    /// Dropped tables whose memory has not been given back yet.
    pub fn dropped_tables_pending(&self) -> usize {
        self.shared.catalog.read().expect("catalog").dropped.len()
    }

    /// Removes a table from the catalog. Its memory goes once nothing can
    /// reach it any more (see [`Shared::reclaim_dropped`]).
    pub fn drop_table(&self, id: TableId) -> SqlResult<()> {
        let mut catalog = self.shared.catalog.write().expect("catalog");
        if !catalog.tables.contains_key(&id) {
            return Err(errors::invalid_object(&format!("table id {id}")));
        }
        self.log_catalog(|ts| Record::DropTable { ts, id })?;
        let table = catalog.tables.remove(&id).expect("checked above");
        catalog.dropped.push(Dropped {
            table,
            orphaned_at: None,
        });
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

    /// The transactions active now (`sys.dm_db_xtp_transactions`).
    pub fn active_transactions(&self) -> Vec<ActiveTransaction> {
        self.shared.txns.active_transactions()
    }

    /// The memory budget of the memory-optimized tables: its limit, and
    /// what is taken now.
    pub fn memory_limit(&self) -> u64 {
        self.shared.memory.limit()
    }

    pub fn memory_used(&self) -> u64 {
        self.shared.memory.used()
    }

    /// What is left under the limit.
    pub fn memory_available(&self) -> u64 {
        self.shared.memory.available()
    }

    /// The most memory one request may take for what it builds (see
    /// [`DatabaseConfig::request_memory_limit_bytes`]).
    pub fn request_memory_limit(&self) -> u64 {
        self.request_memory_limit
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
        // The background collector may hold a batch it took before this
        // pass; wait for it, so that figures read right after are settled.
        self.shared.gc.settle();
        // Slots go back to the heap once the epoch has moved on; nudge it so
        // that memory figures read right after are settled.
        for _ in 0..4 {
            crossbeam_epoch::pin().flush();
        }
        self.shared.reclaim_dropped();
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
                shared.reclaim_dropped();
            }
        })
        .expect("spawn the garbage collector thread")
}

impl Drop for Database {
    fn drop(&mut self) {
        if let Some(durable) = &mut self.durable {
            let _ = durable
                .requests
                .lock()
                .expect("checkpoint requests")
                .send(Request::Stop);
            if let Some(worker) = durable.worker.take() {
                let _ = worker.join();
            }
            durable.flusher_stop.store(true, Ordering::Release);
            if let Some(flusher) = durable.flusher.take() {
                flusher.thread().unpark();
                let _ = flusher.join();
            }
            // Delayed-durable commits reach the disk on a clean shutdown.
            let _ = durable.log.flush();
        }
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
