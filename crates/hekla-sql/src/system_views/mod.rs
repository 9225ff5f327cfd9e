//! System views: SQL Server's catalog views, DMVs and `master..spt_values`,
//! computed from hekla's catalog and engine when a query reads them.
//!
//! A query names a view the way SQL Server users do (`sys.tables`,
//! `master..spt_values`, `INFORMATION_SCHEMA.COLUMNS`); [`find_view`]
//! finds it for the planner (through its context), and the executor reads
//! its rows ([`view_rows`]) once per statement, a snapshot taken when the
//! statement starts.
//!
//! Every figure comes from hekla itself: object ids and names from the
//! catalog, bucket counts and memory from the engine's structures,
//! checkpoint files from the checkpoint worker, sessions from
//! [`crate::session_registry`]. Where a SQL Server column describes a feature hekla does
//! not have, the view gives what SQL Server gives for a database without
//! it (0, or NULL), and the module says so next to the column.
//!
//! | module | views |
//! |---|---|
//! | `objects` | sys.schemas, sys.objects, sys.tables, sys.views, sys.procedures, sys.sequences, sys.foreign_keys, sys.foreign_key_columns, sys.check_constraints |
//! | `table_columns` | sys.columns, sys.identity_columns, sys.types |
//! | `indexes` | sys.indexes, sys.hash_indexes, sys.index_columns, sys.key_constraints |
//! | `modules` | sys.sql_modules, sys.parameters, sys.table_types |
//! | `storage` | sys.databases, sys.filegroups, sys.database_files, sys.partitions, sys.allocation_units |
//! | `information_schema` | INFORMATION_SCHEMA.TABLES, INFORMATION_SCHEMA.COLUMNS, INFORMATION_SCHEMA.VIEWS |
//! | `dmv_xtp` | sys.dm_db_xtp_* and sys.dm_xtp_transaction_stats |
//! | `dmv_native` | sys.dm_os_loaded_modules, sys.dm_hekla_native_modules |
//! | `dmv_os` | sys.dm_os_memory_clerks, sys.dm_os_wait_stats, sys.dm_os_buffer_descriptors |
//! | `security` | sys.server_principals, sys.sql_logins, sys.server_role_members, sys.database_principals, sys.database_role_members, sys.database_permissions |
//! | `dmv_exec` | sys.dm_exec_sessions, sys.dm_exec_requests |
//! | `dmv_plan_cache` | sys.dm_exec_cached_plans, sys.dm_exec_query_stats, sys.dm_exec_procedure_stats, sys.dm_exec_sql_text() |
//! | `spt_values` | master.dbo.spt_values |

pub mod context;
mod dmv_exec;
mod dmv_native;
mod dmv_os;
pub mod dmv_plan_cache;
mod dmv_resource_governor;
mod dmv_xtp;
mod indexes;
mod information_schema;
mod modules;
pub(crate) mod objects;
mod security;
mod shared;
mod spt_values;
mod stats;
mod storage;
mod table_columns;
mod types;

pub use context::SystemContext;
use hekla_plan::names::{DATABASE_NAME, MASTER_NAME};
use hekla_plan::plan::system::SystemRelation;
use hekla_types::{SqlError, SqlResult, Value};

pub use hekla_plan::plan::system::ViewColumn;

/// Which databases a view can be named from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Describes the current database (`sys.tables`, `sys.dm_db_*`,
    /// `INFORMATION_SCHEMA.*`): no database part, or the current one.
    /// hekla's `master` has no catalog of its own, so `master.sys.tables`
    /// is not resolved rather than answered with this database's tables.
    Database,
    /// Describes the server (`sys.databases`, `sys.dm_exec_*`, `sys.dm_os_*`,
    /// `sys.dm_xtp_*`): the same from every database.
    Server,
    /// Lives in `master` only (`spt_values`).
    Master,
}

/// One system view: its name, its columns and how to compute its rows.
pub struct SystemView {
    /// `sys`, `INFORMATION_SCHEMA` or `dbo` (for spt_values).
    pub schema: &'static str,
    pub name: &'static str,
    pub scope: Scope,
    pub columns: fn() -> Vec<ViewColumn>,
    /// Every row, each with one value per column, of the column's type.
    /// Takes the catalog's read lock: call it without holding a catalog
    /// guard (a waiting writer would otherwise deadlock the two reads).
    pub rows: fn(&dyn SystemContext) -> SqlResult<Vec<Vec<Value>>>,
}

impl std::fmt::Debug for SystemView {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.schema, self.name)
    }
}

/// The view a query names, if it names one: `database` is the first part
/// of a three-part name (`master`, `tempdb` or the current database),
/// `schema` defaults to `dbo` when the query leaves it out.
pub fn lookup(database: Option<&str>, schema: &str, name: &str) -> Option<&'static SystemView> {
    view_index(database, schema, name).map(|index| &VIEWS[index])
}

/// The view a query names (as [`lookup`] finds it), as a plan reads it.
pub fn find_view(database: Option<&str>, schema: &str, name: &str) -> Option<SystemRelation> {
    let index = view_index(database, schema, name)?;
    let view = &VIEWS[index];
    Some(SystemRelation {
        index,
        schema: view.schema,
        name: view.name,
        parameters: Vec::new,
        columns: view.columns,
    })
}

/// The rows of the view a plan reads, as [`find_view`] gave it.
pub fn view_rows(db: &dyn SystemContext, view: &SystemRelation) -> SqlResult<Rows> {
    match VIEWS.get(view.index) {
        Some(found) => (found.rows)(db),
        None => Err(unknown(view)),
    }
}

/// A relation no list holds: a plan's index is always one
/// [`find_view`] or [`find_function`] gave, so only a plan built
/// elsewhere (a test's) can name one.
fn unknown(relation: &SystemRelation) -> SqlError {
    hekla_plan::error::invalid_object_name(&format!("{}.{}", relation.schema, relation.name), 1)
}

fn view_index(database: Option<&str>, schema: &str, name: &str) -> Option<usize> {
    let current = database.is_none_or(|db| db.eq_ignore_ascii_case(DATABASE_NAME));
    let master = database.is_some_and(|db| db.eq_ignore_ascii_case(MASTER_NAME));
    VIEWS.iter().position(|view| {
        let reachable = match view.scope {
            Scope::Database => current,
            Scope::Server => current || master,
            Scope::Master => master,
        };
        reachable
            && view.schema.eq_ignore_ascii_case(schema)
            && view.name.eq_ignore_ascii_case(name)
    })
}

/// A view's or function's rows, each with one value per column.
pub type Rows = Vec<Vec<Value>>;

/// A system table-valued function (`sys.dm_exec_sql_text(handle)`): a
/// view whose rows depend on its arguments.
pub struct SystemFunction {
    pub schema: &'static str,
    pub name: &'static str,
    pub parameters: fn() -> Vec<hekla_plan::catalog::function::FunctionParameter>,
    pub columns: fn() -> Vec<ViewColumn>,
    /// The rows for the arguments, one per parameter, of its type.
    pub rows: fn(&dyn SystemContext, &[Value]) -> SqlResult<Rows>,
}

impl std::fmt::Debug for SystemFunction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.schema, self.name)
    }
}

/// The system function a FROM item calls, if it names one; like the
/// server-scoped views, it can be named from this database or `master`.
pub fn find_function(database: Option<&str>, schema: &str, name: &str) -> Option<SystemRelation> {
    let reachable = database.is_none_or(|db| {
        db.eq_ignore_ascii_case(DATABASE_NAME) || db.eq_ignore_ascii_case(MASTER_NAME)
    });
    let index = FUNCTIONS.iter().position(|function| {
        reachable
            && function.schema.eq_ignore_ascii_case(schema)
            && function.name.eq_ignore_ascii_case(name)
    })?;
    let function = &FUNCTIONS[index];
    Some(SystemRelation {
        index,
        schema: function.schema,
        name: function.name,
        parameters: function.parameters,
        columns: function.columns,
    })
}

/// The rows of the function a plan calls, as [`find_function`] gave it,
/// for `arguments` (one per parameter, of its type).
pub fn function_rows(
    db: &dyn SystemContext,
    function: &SystemRelation,
    arguments: &[Value],
) -> SqlResult<Rows> {
    match FUNCTIONS.get(function.index) {
        Some(found) => (found.rows)(db, arguments),
        None => Err(unknown(function)),
    }
}

/// Every system table-valued function hekla has.
pub static FUNCTIONS: &[SystemFunction] = &[dmv_plan_cache::SQL_TEXT];

/// Every system view hekla has.
pub static VIEWS: &[SystemView] = &[
    objects::SCHEMAS,
    objects::OBJECTS,
    objects::TABLES,
    objects::VIEWS,
    objects::PROCEDURES,
    objects::SEQUENCES,
    objects::FOREIGN_KEYS,
    objects::FOREIGN_KEY_COLUMNS,
    objects::CHECK_CONSTRAINTS,
    table_columns::COLUMNS,
    table_columns::IDENTITY_COLUMNS,
    table_columns::TYPES,
    indexes::INDEXES,
    stats::STATS,
    stats::STATS_COLUMNS,
    indexes::HASH_INDEXES,
    indexes::INDEX_COLUMNS,
    indexes::KEY_CONSTRAINTS,
    modules::SQL_MODULES,
    modules::PARAMETERS,
    modules::TABLE_TYPES,
    storage::DATABASES,
    storage::FILEGROUPS,
    storage::DATABASE_FILES,
    storage::PARTITIONS,
    storage::ALLOCATION_UNITS,
    information_schema::TABLES,
    information_schema::COLUMNS,
    information_schema::VIEWS,
    dmv_xtp::TABLE_MEMORY_STATS,
    dmv_xtp::MEMORY_CONSUMERS,
    dmv_xtp::HASH_INDEX_STATS,
    dmv_xtp::INDEX_STATS,
    dmv_xtp::CHECKPOINT_FILES,
    dmv_xtp::TRANSACTION_STATS,
    dmv_xtp::TRANSACTIONS,
    dmv_os::MEMORY_CLERKS,
    dmv_os::WAIT_STATS,
    dmv_os::BUFFER_DESCRIPTORS,
    dmv_os::LATCH_STATS,
    dmv_os::SPINLOCK_STATS,
    dmv_native::LOADED_MODULES,
    dmv_native::NATIVE_MODULES,
    dmv_resource_governor::RESOURCE_POOLS,
    security::SERVER_PRINCIPALS,
    security::SQL_LOGINS,
    security::SERVER_ROLE_MEMBERS,
    security::DATABASE_PRINCIPALS,
    security::DATABASE_ROLE_MEMBERS,
    security::DATABASE_PERMISSIONS,
    dmv_exec::SESSIONS,
    dmv_exec::REQUESTS,
    dmv_plan_cache::CACHED_PLANS,
    dmv_plan_cache::QUERY_STATS,
    dmv_plan_cache::PROCEDURE_STATS,
    spt_values::SPT_VALUES,
];
