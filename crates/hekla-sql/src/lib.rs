//! hekla's SQL layer over the engine: it binds the trees `hekla_parser`
//! produces against the SQL catalog, plans and executes them, runs
//! procedural T-SQL, and keeps sessions, security and the system views.
//! Results leave through [`ResultSink`].

pub mod bind;
pub mod cancel;
pub mod catalog;
pub mod database_context;
pub mod ddl;
pub mod error;
pub mod exec;
pub mod identity;
pub mod interpret;
pub mod names;
pub mod permission;
pub mod plan;
pub mod plan_cache;
pub mod result;
pub mod rpc;
pub mod security;
pub mod session;
pub mod session_options;
pub mod session_registry;
pub mod set_statement;
pub mod statistics;
pub mod system_views;
pub mod text_output;
pub mod type_names;

pub use cancel::CancelHandle;
pub use result::{ResultSink, StatementCommand, TransactionEvent};
pub use rpc::{RpcParameter, RpcValue};
pub use security::Principal;
pub use session::{Session, SqlDatabase};
