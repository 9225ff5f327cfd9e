//! `sys.dm_resource_governor_resource_pools`: SQL Server's two built-in
//! pools. hekla has no Resource Governor (its DDL is refused), so every
//! request runs in the default pool, whose memory is the budget of the
//! memory-optimized tables (`DatabaseConfig::memory_limit_bytes`, the
//! pool Msg 41805 names). The internal pool's memory is not told apart
//! from it, so its figures are NULL. The columns left out are figures
//! hekla does not keep (CPU usage, cache, compile and grant memory).

use super::context::SystemContext;
use super::shared::{int, kb, not_null, nullable, sysname, text};
use super::{Scope, SystemView, ViewColumn};
use hekla_types::{DataType, SqlResult, Value};

pub const RESOURCE_POOLS: SystemView = SystemView {
    schema: "sys",
    name: "dm_resource_governor_resource_pools",
    scope: Scope::Server,
    columns: resource_pools_columns,
    rows: resource_pools_rows,
};

fn resource_pools_columns() -> Vec<ViewColumn> {
    vec![
        not_null("pool_id", DataType::Int),
        not_null("name", sysname()),
        nullable("used_memory_kb", DataType::BigInt),
        nullable("max_memory_kb", DataType::BigInt),
        nullable("target_memory_kb", DataType::BigInt),
        not_null("min_cpu_percent", DataType::Int),
        not_null("max_cpu_percent", DataType::Int),
        not_null("min_memory_percent", DataType::Int),
        not_null("max_memory_percent", DataType::Int),
        not_null("cap_cpu_percent", DataType::Int),
    ]
}

/// `internal` (pool 1) and `default` (pool 2), with SQL Server's default
/// settings (0 to 100 percent of CPU and memory), which no DDL changes.
fn resource_pools_rows(db: &dyn SystemContext) -> SqlResult<Vec<Vec<Value>>> {
    let engine = db.engine();
    let settings = || vec![int(0), int(100), int(0), int(100), int(100)];
    let mut internal = vec![
        int(1),
        text("internal"),
        Value::Null,
        Value::Null,
        Value::Null,
    ];
    internal.extend(settings());
    let limit = kb(engine.memory_limit());
    let mut default = vec![
        int(2),
        text("default"),
        kb(engine.memory_used()),
        limit.clone(),
        limit,
    ];
    default.extend(settings());
    Ok(vec![internal, default])
}
