//! The compiled code of natively compiled modules
//! (`crate::native_code`): `sys.dm_os_loaded_modules`, where SQL
//! Server lists the DLL of each native module, and hekla's own
//! `sys.dm_hekla_native_modules`, with code sizes and what ran compiled.

use super::context::SystemContext;
use super::shared::{bigint, bit, datetime_at, int, int_count, not_null, nvarchar, sysname, text};
use super::shared::{varbinary, varchar};
use super::{Scope, SystemView, ViewColumn};
use crate::plan_cache::PlanKind;
use hekla_plan::names::DATABASE_ID;
use hekla_types::{DataType, SqlResult, Value};
use std::collections::HashMap;

/// What SQL Server's `description` says of a native module's DLL.
const NATIVE_DESCRIPTION: &str = "XTP Native DLL";

// ---- sys.dm_os_loaded_modules ---------------------------------------------

pub const LOADED_MODULES: SystemView = SystemView {
    schema: "sys",
    name: "dm_os_loaded_modules",
    scope: Scope::Server,
    columns: loaded_modules_columns,
    rows: loaded_modules_rows,
};

fn loaded_modules_columns() -> Vec<ViewColumn> {
    vec![
        not_null("base_address", varbinary(8)),
        not_null("file_version", varchar(23)),
        not_null("product_version", varchar(23)),
        not_null("debug", DataType::Bit),
        not_null("patched", DataType::Bit),
        not_null("prerelease", DataType::Bit),
        not_null("private_build", DataType::Bit),
        not_null("special_build", DataType::Bit),
        not_null("language", DataType::Int),
        not_null("company", nvarchar(256)),
        not_null("description", nvarchar(256)),
        not_null("name", nvarchar(255)),
    ]
}

/// A row per native module that has machine code, named as SQL Server
/// names its DLLs (`xtp_p_<database>_<object>_<version>`, without a
/// path: the code lives in memory only). hekla's own executable and
/// libraries are not listed.
fn loaded_modules_rows(db: &dyn SystemContext) -> SqlResult<Vec<Vec<Value>>> {
    let version = format!("{}:0.0", env!("CARGO_PKG_VERSION").replace('.', ","));
    Ok(db
        .native_modules()
        .iter()
        .filter_map(|module| {
            let address = module.code.base_address()?;
            Some(vec![
                Value::Binary((address as u64).to_be_bytes().to_vec()),
                text(version.clone()),
                text(version.clone()),
                bit(false),
                bit(false),
                bit(false),
                bit(false),
                bit(false),
                int(0),
                text("hekla"),
                text(NATIVE_DESCRIPTION),
                text(format!(
                    "xtp_p_{DATABASE_ID}_{}_{}",
                    module.object_id, module.generation
                )),
            ])
        })
        .collect())
}

// ---- sys.dm_hekla_native_modules ------------------------------------------

pub const NATIVE_MODULES: SystemView = SystemView {
    schema: "sys",
    name: "dm_hekla_native_modules",
    scope: Scope::Database,
    columns: native_modules_columns,
    rows: native_modules_rows,
};

fn native_modules_columns() -> Vec<ViewColumn> {
    vec![
        not_null("object_id", DataType::Int),
        not_null("name", sysname()),
        not_null("generation", DataType::Int),
        not_null("compiled_time", DataType::DateTime),
        not_null("compile_time_us", DataType::BigInt),
        not_null("statements", DataType::Int),
        not_null("compiled_statements", DataType::Int),
        not_null("kernels", DataType::Int),
        not_null("late_kernels", DataType::Int),
        not_null("code_bytes", DataType::BigInt),
        not_null("statement_executions", DataType::BigInt),
        not_null("kernel_executions", DataType::BigInt),
    ]
}

/// A row per compiled native procedure: `statements` the compiler bound,
/// `compiled_statements` those with machine code (the rest run in the
/// interpreter), its `kernels`, and since it was compiled: `late_kernels`
/// (compiled at a statement's first run, for a plan the compiler did not
/// see or that a schema change moved) and its kernels' runs; and the
/// statements its cached plans ran to completion (`statement_executions`,
/// the plan cache's own counts, as `sys.dm_exec_query_stats` shows them:
/// they start again when the plan is compiled again).
fn native_modules_rows(db: &dyn SystemContext) -> SqlResult<Vec<Vec<Value>>> {
    let names: HashMap<i32, String> = db
        .catalog()
        .procedures
        .iter()
        .map(|procedure| (procedure.object_id, procedure.name.clone()))
        .collect();
    let plans = db.cached_plans();
    Ok(db
        .native_modules()
        .iter()
        .filter_map(|module| {
            let name = names.get(&module.object_id)?;
            let statements_run: u64 = plans
                .iter()
                .filter(|plan| {
                    plan.kind == PlanKind::Proc && plan.module.object_id == module.object_id
                })
                .flat_map(|plan| plan.statements.iter())
                .map(|statement| statement.counters().execution_count)
                .sum();
            let (kernels, late_kernels) = module.code.kernels();
            let micros = u64::try_from(module.compile_time.as_micros()).unwrap_or(u64::MAX);
            Some(vec![
                int(module.object_id),
                text(name.clone()),
                int_count(u64::from(module.generation)),
                datetime_at(module.compiled_at),
                bigint(micros),
                int_count(module.statements as u64),
                int_count(module.compiled_statements as u64),
                int_count(kernels as u64),
                int_count(late_kernels as u64),
                bigint(module.code.code_bytes() as u64),
                bigint(statements_run),
                bigint(module.code.kernel_runs()),
            ])
        })
        .collect())
}
