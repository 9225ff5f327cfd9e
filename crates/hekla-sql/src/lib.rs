//! hekla's SQL layer over the engine: it runs batches of T-SQL text. The
//! trees `hekla_parser` produces are planned by `hekla_plan` and run by
//! `hekla_exec`; this crate adds what needs a whole database: DDL, the
//! procedural interpreter, sessions, security, the plan cache and the
//! system views. Results leave through [`ResultSink`].
//!
//! The planner's and the executor's modules are re-exported under their
//! old names (`hekla_sql::catalog`, `hekla_sql::exec`, ...) for the crates
//! above this one.

pub mod database_context;
pub mod ddl;
pub mod interpret;
pub mod native_code;
pub mod plan_cache;
pub mod prepared_statements;
pub mod rpc;
pub mod security;
pub mod session;
pub mod session_registry;
pub mod set_statement;
pub mod statistics;
pub mod system_views;
pub mod text_output;
pub mod user_transaction;

pub use hekla_exec as exec;
pub use hekla_plan::{
    bind, cancel, catalog, error, identity, names, permission, plan, result, session_options,
    type_names,
};

pub use hekla_plan::cancel::CancelHandle;
pub use hekla_plan::result::{ResultSink, StatementCommand, TransactionEvent};
pub use rpc::{RpcParameter, RpcValue};
pub use security::Principal;
pub use session::{Session, SqlDatabase};
