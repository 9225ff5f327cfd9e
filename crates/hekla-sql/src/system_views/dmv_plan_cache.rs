//! `sys.dm_exec_cached_plans`, `sys.dm_exec_query_stats` and
//! `sys.dm_exec_procedure_stats`, from the database's plan cache (see
//! [`crate::plan_cache`]), and the handles `sys.dm_exec_sql_text` takes.
//!
//! Handles are 12 bytes (SQL Server's are longer; both are opaque): a
//! plan handle is 0x05 (procedure) or 0x06 (batch) with the database id,
//! then the entry's number, which stays the same across recompilations;
//! a SQL handle is 0x03 with the procedure's object id, or 0x02 with a
//! hash of the batch text, as SQL Server derives them.

use super::context::SystemContext;
use super::shared::{
    bigint, bit, char, datetime_at, int, int_count, not_null, nullable, nvarchar, nvarchar_max,
    or_null, padded, smallint, text, varbinary,
};
use super::{Rows, Scope, SystemFunction, SystemView, ViewColumn};
use crate::plan_cache::ProcedurePlan as CachedPlan;
use crate::plan_cache::{PlanKind, Totals};
use hekla_plan::catalog::function::FunctionParameter;
use hekla_plan::names::DATABASE_ID;
use hekla_types::{DataType, SqlResult, Value};
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// `pool_id` of the resource pool plans are charged to: `default`.
const DEFAULT_POOL_ID: i32 = 2;

/// SQL Server's hash table size for the SQL and object plan caches on a
/// 64-bit server: `bucketid` is the key's hash modulo it.
const BUCKETS: u64 = 40_009;

fn handle(kind: u8, tail: [u8; 8]) -> Vec<u8> {
    let database = u8::try_from(DATABASE_ID).unwrap_or(0);
    let mut bytes = vec![kind, 0, database, 0];
    bytes.extend_from_slice(&tail);
    bytes
}

pub fn plan_handle(plan: &CachedPlan) -> Vec<u8> {
    let kind = match plan.kind {
        PlanKind::Proc => 0x05,
        PlanKind::Adhoc | PlanKind::Prepared => 0x06,
    };
    handle(kind, plan.id.to_be_bytes())
}

pub fn sql_handle(plan: &CachedPlan) -> Vec<u8> {
    if plan.kind == PlanKind::Proc {
        let mut tail = [0; 8];
        tail[..4].copy_from_slice(&plan.module.object_id.to_be_bytes());
        return handle(0x03, tail);
    }
    let mut hasher = std::hash::DefaultHasher::new();
    shown_text(plan).hash(&mut hasher);
    handle(0x02, hasher.finish().to_be_bytes())
}

/// The text `sys.dm_exec_sql_text` shows: a prepared statement's starts
/// with its parameter declarations in parentheses, as SQL Server's does.
pub fn shown_text(plan: &CachedPlan) -> &str {
    match plan.kind {
        PlanKind::Prepared => &plan.module.name,
        PlanKind::Adhoc | PlanKind::Proc => &plan.module.definition,
    }
}

// ---- sys.dm_exec_cached_plans ---------------------------------------------

pub const CACHED_PLANS: SystemView = SystemView {
    schema: "sys",
    name: "dm_exec_cached_plans",
    scope: Scope::Server,
    columns: cached_plans_columns,
    rows: cached_plans_rows,
};

fn cached_plans_columns() -> Vec<ViewColumn> {
    vec![
        not_null("bucketid", DataType::Int),
        not_null("refcounts", DataType::Int),
        not_null("usecounts", DataType::Int),
        not_null("size_in_bytes", DataType::Int),
        nullable("memory_object_address", varbinary(8)),
        not_null("cacheobjtype", nvarchar(34)),
        not_null("objtype", nvarchar(16)),
        not_null("plan_handle", varbinary(64)),
        nullable("pool_id", DataType::Int),
        nullable("parent_plan_handle", varbinary(64)),
    ]
}

/// One row per cached plan. `refcounts` counts the cache and every
/// running batch, procedure call or prepared handle using the plan;
/// `size_in_bytes` is the estimate the cache is bounded by.
fn cached_plans_rows(db: &dyn SystemContext) -> SqlResult<Vec<Vec<Value>>> {
    Ok(db
        .cached_plans()
        .into_iter()
        .map(|plan| {
            // Less the reference this snapshot holds.
            let refcounts = Arc::strong_count(&plan).saturating_sub(1);
            let address = Arc::as_ptr(&plan) as usize as u64;
            vec![
                int(i32::try_from(plan.key_hash() % BUCKETS).unwrap_or(0)),
                int_count(refcounts as u64),
                int_count(plan.usecounts()),
                int_count(plan.size_in_bytes as u64),
                Value::Binary(address.to_be_bytes().to_vec()),
                text("Compiled Plan"),
                text(plan.kind.objtype()),
                Value::Binary(plan_handle(&plan)),
                int(DEFAULT_POOL_ID),
                Value::Null,
            ]
        })
        .collect())
}

// ---- sys.dm_exec_query_stats ----------------------------------------------

pub const QUERY_STATS: SystemView = SystemView {
    schema: "sys",
    name: "dm_exec_query_stats",
    scope: Scope::Server,
    columns: query_stats_columns,
    rows: query_stats_rows,
};

fn query_stats_columns() -> Vec<ViewColumn> {
    let mut columns = vec![
        not_null("sql_handle", varbinary(64)),
        not_null("statement_start_offset", DataType::Int),
        not_null("statement_end_offset", DataType::Int),
        not_null("plan_generation_num", DataType::BigInt),
        not_null("plan_handle", varbinary(64)),
        not_null("creation_time", DataType::DateTime),
        not_null("last_execution_time", DataType::DateTime),
        not_null("execution_count", DataType::BigInt),
    ];
    // SQL Server lists other counters hekla does not keep (reads, writes,
    // CLR time, query hashes) among these.
    columns.extend(
        COUNTER_COLUMNS
            .iter()
            .map(|&name| not_null(name, DataType::BigInt)),
    );
    columns
}

/// The total, last, least and most of each figure, in [`totals`]'s order.
const COUNTER_COLUMNS: [&str; 12] = [
    "total_worker_time",
    "last_worker_time",
    "min_worker_time",
    "max_worker_time",
    "total_elapsed_time",
    "last_elapsed_time",
    "min_elapsed_time",
    "max_elapsed_time",
    "total_rows",
    "last_rows",
    "min_rows",
    "max_rows",
];

fn totals(figures: &Totals) -> [Value; 4] {
    [
        bigint(figures.total),
        bigint(figures.last),
        bigint(figures.min),
        bigint(figures.max),
    ]
}

/// One row per statement of a cached plan that has run since the plan
/// was compiled (control flow has no row). Offsets are in bytes of the
/// UTF-16 text `sys.dm_exec_sql_text` shows, from 0; the end offset is
/// the statement's last character's. Times are in microseconds: CPU time
/// of the session's thread (`worker_time`) and wall-clock time.
fn query_stats_rows(db: &dyn SystemContext) -> SqlResult<Vec<Vec<Value>>> {
    let mut rows = Vec::new();
    for plan in db.cached_plans() {
        let (sql, handle) = (sql_handle(&plan), plan_handle(&plan));
        let shown = shown_text(&plan);
        // A prepared text is shown after its "(declarations)".
        let prefix = shown.len() - plan.module.definition.len();
        let offset = |byte: u32| {
            let end = (prefix + byte as usize).min(shown.len());
            let units = shown.get(..end).map_or(0, |s| s.encode_utf16().count());
            int_count(2 * units as u64)
        };
        for statement in &plan.statements {
            let counters = statement.counters();
            if counters.execution_count == 0 {
                continue;
            }
            let mut row = vec![
                Value::Binary(sql.clone()),
                offset(statement.start),
                offset(statement.end.saturating_sub(1)),
                Value::BigInt(plan.generation),
                Value::Binary(handle.clone()),
                datetime_at(plan.created),
                or_null(counters.last_execution, datetime_at),
                bigint(counters.execution_count),
            ];
            row.extend(totals(&counters.worker_time));
            row.extend(totals(&counters.elapsed_time));
            row.extend(totals(&counters.rows));
            rows.push(row);
        }
    }
    Ok(rows)
}

// ---- sys.dm_exec_procedure_stats ------------------------------------------

pub const PROCEDURE_STATS: SystemView = SystemView {
    schema: "sys",
    name: "dm_exec_procedure_stats",
    scope: Scope::Server,
    columns: procedure_stats_columns,
    rows: procedure_stats_rows,
};

/// The figures of a procedure's executions, each as its total, last, min
/// and max, in SQL Server's order. hekla measures the first and fifth
/// (CPU and elapsed time); it reads no pages, from disk or a page server,
/// and spills nothing, so the others are 0, as SQL Server's are for a
/// procedure that touches only memory-optimized tables.
const PROCEDURE_FIGURES: [[&str; 4]; 9] = [
    [
        "total_worker_time",
        "last_worker_time",
        "min_worker_time",
        "max_worker_time",
    ],
    [
        "total_physical_reads",
        "last_physical_reads",
        "min_physical_reads",
        "max_physical_reads",
    ],
    [
        "total_logical_writes",
        "last_logical_writes",
        "min_logical_writes",
        "max_logical_writes",
    ],
    [
        "total_logical_reads",
        "last_logical_reads",
        "min_logical_reads",
        "max_logical_reads",
    ],
    [
        "total_elapsed_time",
        "last_elapsed_time",
        "min_elapsed_time",
        "max_elapsed_time",
    ],
    ["total_spills", "last_spills", "min_spills", "max_spills"],
    [
        "total_num_physical_reads",
        "last_num_physical_reads",
        "min_num_physical_reads",
        "max_num_physical_reads",
    ],
    [
        "total_page_server_reads",
        "last_page_server_reads",
        "min_page_server_reads",
        "max_page_server_reads",
    ],
    [
        "total_num_page_server_reads",
        "last_num_page_server_reads",
        "min_num_page_server_reads",
        "max_num_page_server_reads",
    ],
];

fn procedure_stats_columns() -> Vec<ViewColumn> {
    let mut columns = vec![
        not_null("database_id", DataType::Int),
        not_null("object_id", DataType::Int),
        not_null("type", char(2)),
        not_null("type_desc", nvarchar(60)),
        not_null("sql_handle", varbinary(64)),
        not_null("plan_handle", varbinary(64)),
        not_null("cached_time", DataType::DateTime),
        not_null("last_execution_time", DataType::DateTime),
        not_null("execution_count", DataType::BigInt),
    ];
    columns.extend(
        PROCEDURE_FIGURES
            .iter()
            .flatten()
            .map(|&name| not_null(name, DataType::BigInt)),
    );
    columns
}

/// One row per cached plan of a stored procedure as it is now (none for
/// a dropped or altered one's plan) that has counted a call since it was
/// compiled: see `interpret::call` for which calls count. Times are in
/// microseconds, as in [`query_stats_rows`]. A natively compiled
/// procedure's plan handle is its real one (SQL Server, which keeps such
/// procedures out of its plan cache, shows 0x000).
fn procedure_stats_rows(db: &dyn SystemContext) -> SqlResult<Vec<Vec<Value>>> {
    let catalog = db.catalog();
    let current = |plan: &CachedPlan| {
        catalog
            .procedures
            .by_id(plan.module.object_id)
            .is_some_and(|procedure| Arc::ptr_eq(procedure, &plan.module))
    };
    let mut rows = Vec::new();
    for plan in db.cached_plans() {
        let counters = plan.call_counters();
        if plan.kind != PlanKind::Proc || counters.execution_count == 0 || !current(&plan) {
            continue;
        }
        let mut row = vec![
            int(DATABASE_ID),
            int(plan.module.object_id),
            padded("P", 2),
            text("SQL_STORED_PROCEDURE"),
            Value::Binary(sql_handle(&plan)),
            Value::Binary(plan_handle(&plan)),
            datetime_at(plan.created),
            or_null(counters.last_execution, datetime_at),
            bigint(counters.execution_count),
        ];
        let unmeasured = Totals::default();
        for figures in [
            &counters.worker_time,
            &unmeasured,
            &unmeasured,
            &unmeasured,
            &counters.elapsed_time,
            &unmeasured,
            &unmeasured,
            &unmeasured,
            &unmeasured,
        ] {
            row.extend(totals(figures));
        }
        rows.push(row);
    }
    Ok(rows)
}

// ---- sys.dm_exec_sql_text -------------------------------------------------

pub const SQL_TEXT: SystemFunction = SystemFunction {
    schema: "sys",
    name: "dm_exec_sql_text",
    parameters: sql_text_parameters,
    columns: sql_text_columns,
    rows: sql_text_rows,
};

fn sql_text_parameters() -> Vec<FunctionParameter> {
    vec![FunctionParameter {
        name: "handle".to_string(),
        data_type: DataType::VarBinary {
            len: hekla_types::Length::Bounded(64),
        },
        default: None,
    }]
}

fn sql_text_columns() -> Vec<ViewColumn> {
    vec![
        nullable("dbid", DataType::SmallInt),
        nullable("objectid", DataType::Int),
        nullable("number", DataType::SmallInt),
        not_null("encrypted", DataType::Bit),
        nullable("text", nvarchar_max()),
    ]
}

/// The row of `sys.dm_exec_sql_text(handle)`: the text of the cached
/// plan whose SQL handle or plan handle `handle` is; none for a handle
/// no cached plan has (or NULL). `dbid` is the database compiled in (as
/// SQL Server 2012 on gives it for batches too); `objectid` and `number`
/// are a procedure's only.
fn sql_text_rows(db: &dyn SystemContext, arguments: &[Value]) -> SqlResult<Rows> {
    let Some(Value::Binary(handle)) = arguments.first() else {
        return Ok(Vec::new());
    };
    let found = db
        .cached_plans()
        .into_iter()
        .find(|plan| *handle == plan_handle(plan) || *handle == sql_handle(plan));
    let Some(plan) = found else {
        return Ok(Vec::new());
    };
    let procedure = plan.kind == PlanKind::Proc;
    Ok(vec![vec![
        smallint(i16::try_from(DATABASE_ID).unwrap_or(0)),
        if procedure {
            int(plan.module.object_id)
        } else {
            Value::Null
        },
        if procedure { smallint(1) } else { Value::Null },
        bit(false),
        text(shown_text(&plan)),
    ]])
}
