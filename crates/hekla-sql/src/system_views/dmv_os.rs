//! The SQLOS DMVs hekla can answer: `sys.dm_os_memory_clerks` (the
//! In-Memory OLTP clerk), `sys.dm_os_wait_stats`,
//! `sys.dm_os_buffer_descriptors`, `sys.dm_os_latch_stats` and
//! `sys.dm_os_spinlock_stats`.

use super::context::SystemContext;
use super::dmv_xtp::table_memory;
use super::objects::no_rows;
use super::shared::{kb, not_null, nullable, nvarchar, smallint, text};
use super::{Scope, SystemView, ViewColumn};
use hekla_plan::names::DATABASE_ID;
use hekla_types::{DataType, SqlResult, Value};

// ---- sys.dm_os_memory_clerks ----------------------------------------------

pub const MEMORY_CLERKS: SystemView = SystemView {
    schema: "sys",
    name: "dm_os_memory_clerks",
    scope: Scope::Server,
    columns: memory_clerks_columns,
    rows: memory_clerks_rows,
};

/// The columns hekla can fill. Addresses, page size and the virtual,
/// AWE and shared memory break-downs are left out: hekla's allocations
/// are all counted in `pages_kb`.
fn memory_clerks_columns() -> Vec<ViewColumn> {
    vec![
        not_null("type", nvarchar(60)),
        not_null("name", nvarchar(256)),
        not_null("memory_node_id", DataType::SmallInt),
        not_null("pages_kb", DataType::BigInt),
    ]
}

/// One MEMORYCLERK_XTP clerk for the database, named `DB_ID_<id>` as SQL
/// Server names a database's clerk: the memory of every table (rows and
/// indexes, hekla's catalog table included). Memory node 0: hekla does
/// not place memory by NUMA node, as SQL Server on a single-node machine.
fn memory_clerks_rows(db: &dyn SystemContext) -> SqlResult<Vec<Vec<Value>>> {
    let bytes: u64 = table_memory(db).iter().map(|t| t.allocated_bytes()).sum();
    Ok(vec![vec![
        text("MEMORYCLERK_XTP"),
        text(format!("DB_ID_{DATABASE_ID}")),
        smallint(0),
        kb(bytes),
    ]])
}

// ---- sys.dm_os_wait_stats -------------------------------------------------

pub const WAIT_STATS: SystemView = SystemView {
    schema: "sys",
    name: "dm_os_wait_stats",
    scope: Scope::Server,
    columns: wait_stats_columns,
    rows: no_rows,
};

/// No rows: hekla does not record waits yet.
fn wait_stats_columns() -> Vec<ViewColumn> {
    vec![
        not_null("wait_type", nvarchar(60)),
        not_null("waiting_tasks_count", DataType::BigInt),
        not_null("wait_time_ms", DataType::BigInt),
        not_null("max_wait_time_ms", DataType::BigInt),
        not_null("signal_wait_time_ms", DataType::BigInt),
    ]
}

// ---- sys.dm_os_buffer_descriptors -----------------------------------------

pub const BUFFER_DESCRIPTORS: SystemView = SystemView {
    schema: "sys",
    name: "dm_os_buffer_descriptors",
    scope: Scope::Server,
    columns: buffer_descriptors_columns,
    rows: no_rows,
};

/// No rows: hekla has no buffer pool (memory-optimized rows are not kept
/// in pages), which is what SQL Server shows for memory-optimized tables.
fn buffer_descriptors_columns() -> Vec<ViewColumn> {
    vec![
        nullable("database_id", DataType::Int),
        nullable("file_id", DataType::Int),
        nullable("page_id", DataType::Int),
        nullable("page_level", DataType::Int),
        nullable("allocation_unit_id", DataType::BigInt),
        nullable("page_type", nvarchar(60)),
        nullable("row_count", DataType::Int),
        nullable("free_space_in_bytes", DataType::Int),
        nullable("is_modified", DataType::Bit),
        nullable("numa_node", DataType::Int),
        nullable("read_microsec", DataType::BigInt),
        nullable("is_in_bpool_extension", DataType::Bit),
    ]
}

// ---- sys.dm_os_latch_stats and sys.dm_os_spinlock_stats -------------------

pub const LATCH_STATS: SystemView = SystemView {
    schema: "sys",
    name: "dm_os_latch_stats",
    scope: Scope::Server,
    columns: latch_stats_columns,
    rows: no_rows,
};

/// No rows: hekla's tables and indexes are latch-free (rows are reached
/// by atomic operations on versions, not by latching pages), so there is
/// no latch class to count waits for. Rows of zeros for SQL Server's
/// classes would name latches hekla does not have.
fn latch_stats_columns() -> Vec<ViewColumn> {
    vec![
        not_null("latch_class", nvarchar(60)),
        not_null("waiting_requests_count", DataType::BigInt),
        not_null("wait_time_ms", DataType::BigInt),
        not_null("max_wait_time_ms", DataType::BigInt),
    ]
}

pub const SPINLOCK_STATS: SystemView = SystemView {
    schema: "sys",
    name: "dm_os_spinlock_stats",
    scope: Scope::Server,
    columns: spinlock_stats_columns,
    rows: no_rows,
};

/// No rows: hekla has no spinlocks of its own to count collisions of.
fn spinlock_stats_columns() -> Vec<ViewColumn> {
    vec![
        not_null("name", nvarchar(256)),
        not_null("collisions", DataType::BigInt),
        not_null("spins", DataType::BigInt),
        not_null("spins_per_collision", DataType::Real),
        not_null("sleep_time", DataType::BigInt),
        not_null("backoffs", DataType::Int),
    ]
}
