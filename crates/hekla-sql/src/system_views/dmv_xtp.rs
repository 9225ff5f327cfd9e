//! The In-Memory OLTP DMVs (`sys.dm_db_xtp_*`, `sys.dm_xtp_*`), from the
//! engine: table and index memory (`Table::memory_stats`, which walks the
//! structures), checkpoint files (`Database::checkpoint_files`), the
//! transaction counters (`Database::stats`, `Database::log_stats`) and the
//! live transactions (`Database::active_transactions`).

use super::context::SystemContext;
use super::shared::{
    bigint, int, int_count, kb, not_null, nullable, nvarchar, or_null, smallint, text,
};
use super::storage::container_path;
use super::{Scope, SystemView, ViewColumn};
use hekla_engine::{
    AbortReason, FileState, FileType, IndexStats, Table, TableMemoryStats, TxnState,
};
use hekla_types::{DataType, SqlResult, Value};
use std::collections::HashMap;
use std::sync::Arc;

// ---- memory, shared with sys.dm_os_memory_clerks --------------------------

/// One engine table's memory.
pub struct TableMemory {
    /// The table's object id; None for hekla's own catalog tables
    /// (`sys.hekla_objects`, `sys.hekla_counters` and the security tables
    /// `sys.hekla_principals`, `sys.hekla_role_members`,
    /// `sys.hekla_server_role_members`, `sys.hekla_permissions`),
    /// In-Memory OLTP system tables, which SQL Server lists with no object
    /// id too.
    pub object_id: Option<i32>,
    /// The engine's id of the table (`xtp_object_id`).
    pub xtp_object_id: u32,
    pub stats: TableMemoryStats,
}

impl TableMemory {
    fn index_bytes(&self, used: bool) -> u64 {
        self.stats
            .indexes
            .iter()
            .map(|(_, stats)| match stats {
                // A hash index's buckets are all allocated and all in use.
                IndexStats::Hash(hash) => hash.allocated_bytes,
                IndexStats::Range(range) if used => range.used_bytes,
                IndexStats::Range(range) => range.allocated_bytes,
            })
            .sum()
    }

    /// Every byte allocated for the table's rows and indexes.
    pub fn allocated_bytes(&self) -> u64 {
        self.stats.rows.allocated_bytes + self.index_bytes(false)
    }
}

/// Every engine table's memory, measured now, in engine id order.
pub fn table_memory(db: &dyn SystemContext) -> Vec<TableMemory> {
    let object_ids: HashMap<u32, i32> = db
        .catalog()
        .tables()
        .map(|table| (table.engine.id, table.object_id))
        .collect();
    let mut tables: Vec<Arc<Table>> = db.engine().tables();
    tables.sort_by_key(|table| table.id);
    tables
        .iter()
        .map(|table| TableMemory {
            object_id: object_ids.get(&table.id).copied(),
            xtp_object_id: table.id,
            stats: table.memory_stats(),
        })
        .collect()
}

fn user_table_memory(db: &dyn SystemContext) -> Vec<TableMemory> {
    let mut tables = table_memory(db);
    tables.retain(|table| table.object_id.is_some());
    tables
}

// ---- sys.dm_db_xtp_table_memory_stats --------------------------------------

pub const TABLE_MEMORY_STATS: SystemView = SystemView {
    schema: "sys",
    name: "dm_db_xtp_table_memory_stats",
    scope: Scope::Database,
    columns: table_memory_stats_columns,
    rows: table_memory_stats_rows,
};

fn table_memory_stats_columns() -> Vec<ViewColumn> {
    vec![
        nullable("object_id", DataType::Int),
        nullable("memory_allocated_for_table_kb", DataType::BigInt),
        nullable("memory_used_by_table_kb", DataType::BigInt),
        nullable("memory_allocated_for_indexes_kb", DataType::BigInt),
        nullable("memory_used_by_indexes_kb", DataType::BigInt),
    ]
}

/// Table memory is the row heap (row versions included); index memory is
/// the hash buckets and range index nodes.
fn table_memory_stats_rows(db: &dyn SystemContext) -> SqlResult<Vec<Vec<Value>>> {
    Ok(table_memory(db)
        .iter()
        .map(|table| {
            vec![
                or_null(table.object_id, int),
                kb(table.stats.rows.allocated_bytes),
                kb(table.stats.rows.used_bytes),
                kb(table.index_bytes(false)),
                kb(table.index_bytes(true)),
            ]
        })
        .collect())
}

// ---- sys.dm_db_xtp_memory_consumers ----------------------------------------

pub const MEMORY_CONSUMERS: SystemView = SystemView {
    schema: "sys",
    name: "dm_db_xtp_memory_consumers",
    scope: Scope::Database,
    columns: memory_consumers_columns,
    rows: memory_consumers_rows,
};

/// The columns SQL Server documents for use; its internal-only ones
/// (partition and size-class counts, addresses) are left out.
fn memory_consumers_columns() -> Vec<ViewColumn> {
    vec![
        not_null("memory_consumer_id", DataType::BigInt),
        not_null("memory_consumer_type", DataType::Int),
        not_null("memory_consumer_type_desc", nvarchar(64)),
        nullable("memory_consumer_desc", nvarchar(64)),
        nullable("object_id", DataType::BigInt),
        nullable("xtp_object_id", DataType::BigInt),
        nullable("index_id", DataType::Int),
        not_null("allocated_bytes", DataType::BigInt),
        not_null("used_bytes", DataType::BigInt),
        not_null("allocation_count", DataType::Int),
    ]
}

const VARHEAP: (i32, &str) = (2, "VARHEAP");
const HASH: (i32, &str) = (3, "HASH");

/// Per table: its row heap ("Table heap", index_id NULL), then one
/// consumer per index: a hash index's bucket array ("Hash index", one
/// allocation) or a range index's nodes ("Range index heap", one
/// allocation per node). `memory_consumer_id` is the engine table id in
/// the high 32 bits and 0 for the heap or the index ordinal + 1.
fn memory_consumers_rows(db: &dyn SystemContext) -> SqlResult<Vec<Vec<Value>>> {
    let mut rows = Vec::new();
    for table in table_memory(db) {
        let consumer_id = |n: usize| bigint((u64::from(table.xtp_object_id) << 32) | n as u64);
        let row =
            |id: Value, (kind, kind_desc): (i32, &str), desc, index, allocated, used, count| {
                vec![
                    id,
                    int(kind),
                    text(kind_desc),
                    text(desc),
                    or_null(table.object_id, |id| Value::BigInt(i64::from(id))),
                    bigint(u64::from(table.xtp_object_id)),
                    or_null(index, int),
                    bigint(allocated),
                    bigint(used),
                    int_count(count),
                ]
            };
        let heap = &table.stats.rows;
        rows.push(row(
            consumer_id(0),
            VARHEAP,
            "Table heap",
            None,
            heap.allocated_bytes,
            heap.used_bytes,
            heap.live_slots,
        ));
        for (ordinal, (_, stats)) in table.stats.indexes.iter().enumerate() {
            let index = Some(super::shared::index_id(ordinal));
            rows.push(match stats {
                IndexStats::Hash(hash) => row(
                    consumer_id(ordinal + 1),
                    HASH,
                    "Hash index",
                    index,
                    hash.allocated_bytes,
                    hash.allocated_bytes,
                    1,
                ),
                IndexStats::Range(range) => row(
                    consumer_id(ordinal + 1),
                    VARHEAP,
                    "Range index heap",
                    index,
                    range.allocated_bytes,
                    range.used_bytes,
                    range.leaf_pages + range.internal_pages,
                ),
            });
        }
    }
    Ok(rows)
}

// ---- sys.dm_db_xtp_hash_index_stats ----------------------------------------

pub const HASH_INDEX_STATS: SystemView = SystemView {
    schema: "sys",
    name: "dm_db_xtp_hash_index_stats",
    scope: Scope::Database,
    columns: hash_index_stats_columns,
    rows: hash_index_stats_rows,
};

fn hash_index_stats_columns() -> Vec<ViewColumn> {
    vec![
        not_null("object_id", DataType::Int),
        not_null("xtp_object_id", DataType::BigInt),
        not_null("index_id", DataType::Int),
        not_null("total_bucket_count", DataType::BigInt),
        not_null("empty_bucket_count", DataType::BigInt),
        not_null("avg_chain_length", DataType::BigInt),
        not_null("max_chain_length", DataType::BigInt),
    ]
}

/// From `HashIndex::stats`, which walks every bucket (as SQL Server's
/// view scans the whole table). The average chain length, over non-empty
/// buckets, is truncated to the bigint SQL Server reports.
fn hash_index_stats_rows(db: &dyn SystemContext) -> SqlResult<Vec<Vec<Value>>> {
    let mut rows = Vec::new();
    for table in user_table_memory(db) {
        let object_id = table.object_id.map_or(Value::Null, int);
        for (ordinal, (_, stats)) in table.stats.indexes.iter().enumerate() {
            let IndexStats::Hash(hash) = stats else {
                continue;
            };
            rows.push(vec![
                object_id.clone(),
                bigint(u64::from(table.xtp_object_id)),
                int(super::shared::index_id(ordinal)),
                bigint(hash.total_bucket_count),
                bigint(hash.empty_bucket_count),
                bigint(hash.avg_chain_length as u64),
                bigint(hash.max_chain_length),
            ]);
        }
    }
    Ok(rows)
}

// ---- sys.dm_db_xtp_index_stats ----------------------------------------------

pub const INDEX_STATS: SystemView = SystemView {
    schema: "sys",
    name: "dm_db_xtp_index_stats",
    scope: Scope::Database,
    columns: index_stats_columns,
    rows: index_stats_rows,
};

fn index_stats_columns() -> Vec<ViewColumn> {
    vec![
        not_null("object_id", DataType::BigInt),
        not_null("xtp_object_id", DataType::BigInt),
        not_null("index_id", DataType::BigInt),
        nullable("scans_started", DataType::BigInt),
        nullable("scans_retries", DataType::BigInt),
        nullable("rows_returned", DataType::BigInt),
        nullable("rows_touched", DataType::BigInt),
    ]
}

/// One row per index. The engine keeps no per-index scan or row counters
/// (they would cost the hot path), so the counter columns are NULL:
/// unknown, not zero.
fn index_stats_rows(db: &dyn SystemContext) -> SqlResult<Vec<Vec<Value>>> {
    let mut rows = Vec::new();
    for table in super::objects::user_tables(db) {
        for ordinal in 0..table.indexes.len() {
            rows.push(vec![
                Value::BigInt(i64::from(table.object_id)),
                bigint(u64::from(table.engine.id)),
                Value::BigInt(i64::from(super::shared::index_id(ordinal))),
                Value::Null,
                Value::Null,
                Value::Null,
                Value::Null,
            ]);
        }
    }
    Ok(rows)
}

// ---- sys.dm_db_xtp_checkpoint_files -----------------------------------------

pub const CHECKPOINT_FILES: SystemView = SystemView {
    schema: "sys",
    name: "dm_db_xtp_checkpoint_files",
    scope: Scope::Database,
    columns: checkpoint_files_columns,
    rows: checkpoint_files_rows,
};

/// SQL Server's columns that hekla can fill. Files have no GUIDs in hekla,
/// so `container_guid`, `checkpoint_file_id` and `checkpoint_pair_file_id`
/// are left out; `pair_id` (hekla's own) says which data and delta file
/// belong together.
fn checkpoint_files_columns() -> Vec<ViewColumn> {
    vec![
        not_null("container_id", DataType::Int),
        not_null("pair_id", DataType::BigInt),
        nullable("relative_file_path", nvarchar(256)),
        not_null("file_type", DataType::SmallInt),
        not_null("file_type_desc", nvarchar(60)),
        not_null("file_size_in_bytes", DataType::BigInt),
        not_null("file_size_used_in_bytes", DataType::BigInt),
        nullable("logical_row_count", DataType::BigInt),
        not_null("inserted_row_count", DataType::BigInt),
        not_null("deleted_row_count", DataType::BigInt),
        not_null("state", DataType::SmallInt),
        not_null("state_desc", nvarchar(60)),
        nullable("lower_bound_tsn", DataType::BigInt),
        nullable("upper_bound_tsn", DataType::BigInt),
        not_null("encryption_status", DataType::SmallInt),
        not_null("encryption_status_desc", nvarchar(60)),
    ]
}

/// SQL Server's state codes: 0-3 and 8 as SQL Server 2016 numbers them;
/// MERGED SOURCE and TOMBSTONE, which 2016 no longer shows, keep their
/// SQL Server 2014 codes (4 and 7).
fn state_code(state: FileState) -> i16 {
    match state {
        FileState::Precreated => 0,
        FileState::UnderConstruction => 1,
        FileState::Active => 2,
        FileState::MergeTarget => 3,
        FileState::MergedSource => 4,
        FileState::Tombstone => 7,
        FileState::WaitingForLogTruncation => 8,
    }
}

fn checkpoint_files_rows(db: &dyn SystemContext) -> SqlResult<Vec<Vec<Value>>> {
    let engine = db.engine();
    let container = engine.directory().map(container_path);
    Ok(engine
        .checkpoint_files()
        .into_iter()
        .map(|file| {
            let relative = container
                .as_deref()
                .and_then(|dir| file.path.strip_prefix(dir).ok())
                .unwrap_or(&file.path);
            let (file_type, logical_rows) = match file.file_type {
                FileType::Data => (0, file.inserted_row_count),
                FileType::Delta => (1, file.deleted_row_count),
            };
            // An open pair has no upper bound yet.
            let upper = (file.upper_bound_ts != u64::MAX).then_some(file.upper_bound_ts);
            vec![
                int(super::shared::CONTAINER_FILE_ID),
                bigint(file.pair_id),
                text(relative.display().to_string()),
                smallint(file_type),
                text(file.file_type.name()),
                bigint(file.file_size_bytes),
                bigint(file.file_size_used_bytes),
                bigint(logical_rows),
                bigint(file.inserted_row_count),
                bigint(file.deleted_row_count),
                smallint(state_code(file.state)),
                text(file.state.name()),
                bigint(file.lower_bound_ts),
                or_null(upper, bigint),
                // hekla does not encrypt checkpoint files.
                smallint(0),
                text("UNENCRYPTED"),
            ]
        })
        .collect())
}

// ---- sys.dm_xtp_transaction_stats -------------------------------------------

pub const TRANSACTION_STATS: SystemView = SystemView {
    schema: "sys",
    name: "dm_xtp_transaction_stats",
    scope: Scope::Server,
    columns: transaction_stats_columns,
    rows: transaction_stats_rows,
};

/// The documented counters, plus `write_conflicts` (internal in SQL
/// Server, but hekla counts it). Counters hekla does not keep are NULL.
fn transaction_stats_columns() -> Vec<ViewColumn> {
    vec![
        not_null("total_count", DataType::BigInt),
        nullable("read_only_count", DataType::BigInt),
        not_null("total_aborts", DataType::BigInt),
        not_null("user_aborts", DataType::BigInt),
        not_null("validation_failures", DataType::BigInt),
        not_null("dependencies_failed", DataType::BigInt),
        nullable("savepoint_create", DataType::BigInt),
        nullable("savepoint_rollbacks", DataType::BigInt),
        not_null("log_bytes_written", DataType::BigInt),
        not_null("log_IO_count", DataType::BigInt),
        not_null("write_conflicts", DataType::BigInt),
        nullable("unique_constraint_violations", DataType::BigInt),
    ]
}

/// Since the database opened: every transaction that committed or
/// aborted; aborts by ROLLBACK (user) and by validation (repeatable read
/// and serializable), commit dependencies and write conflicts; and what
/// the log wrote (a database in memory only writes none).
fn transaction_stats_rows(db: &dyn SystemContext) -> SqlResult<Vec<Vec<Value>>> {
    let engine = db.engine();
    let stats = engine.stats();
    let aborts = |reason| stats.aborts_for(reason);
    let log = engine.log_stats().unwrap_or_default();
    Ok(vec![vec![
        bigint(stats.commits + stats.total_aborts()),
        Value::Null,
        bigint(stats.total_aborts()),
        bigint(aborts(AbortReason::Rollback)),
        bigint(
            aborts(AbortReason::RepeatableReadValidation)
                + aborts(AbortReason::SerializableValidation),
        ),
        bigint(aborts(AbortReason::CommitDependency)),
        Value::Null,
        Value::Null,
        bigint(log.bytes),
        // Writes of the log to disk.
        bigint(log.flushes),
        bigint(aborts(AbortReason::WriteConflict)),
        Value::Null,
    ]])
}

// ---- sys.dm_db_xtp_transactions ---------------------------------------------

pub const TRANSACTIONS: SystemView = SystemView {
    schema: "sys",
    name: "dm_db_xtp_transactions",
    scope: Scope::Database,
    columns: transactions_columns,
    rows: transactions_rows,
};

fn transactions_columns() -> Vec<ViewColumn> {
    vec![
        not_null("xtp_transaction_id", DataType::BigInt),
        not_null("transaction_id", DataType::BigInt),
        nullable("session_id", DataType::SmallInt),
        not_null("begin_tsn", DataType::BigInt),
        nullable("end_tsn", DataType::BigInt),
        not_null("state", DataType::Int),
        not_null("state_desc", nvarchar(60)),
        nullable("result", DataType::Int),
        nullable("result_desc", nvarchar(60)),
    ]
}

/// The transactions active in the engine now, the statement reading this
/// view's own included. `transaction_id` is 0, SQL Server's value for a
/// transaction that lives in the In-Memory OLTP engine only, which every
/// hekla transaction does; the engine does not know which session a
/// transaction belongs to, so `session_id` is NULL.
fn transactions_rows(db: &dyn SystemContext) -> SqlResult<Vec<Vec<Value>>> {
    let mut transactions = db.engine().active_transactions();
    transactions.sort_by_key(|t| t.id);
    Ok(transactions
        .into_iter()
        .map(|t| {
            let (state, state_desc, result) = match t.state {
                TxnState::Active => (0, "ACTIVE", Some((0, "IN PROGRESS"))),
                TxnState::Preparing => (3, "VALIDATING", Some((0, "IN PROGRESS"))),
                TxnState::Committed => (1, "COMMITTED", Some((1, "SUCCESS"))),
                // Why it aborted is not recorded in the transaction table.
                TxnState::Aborted => (2, "ABORTED", None),
            };
            vec![
                bigint(t.id),
                Value::BigInt(0),
                Value::Null,
                bigint(t.begin_ts),
                or_null(t.end_ts, bigint),
                int(state),
                text(state_desc),
                or_null(result, |(code, _)| int(code)),
                or_null(result, |(_, desc)| text(desc)),
            ]
        })
        .collect())
}
