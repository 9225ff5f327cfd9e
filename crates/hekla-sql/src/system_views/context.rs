//! What the system views read of a running database, as a trait: the
//! views are computed over the model (catalog, principals, cached plans),
//! the engine and the session registry, never over the database type
//! that holds them. The database implements it (`crate::database_context`);
//! a test can implement it over a catalog of its own.

use crate::native_code::CompiledModule;
use crate::plan_cache::ProcedurePlan;
use crate::security::Principals;
use crate::session_registry::SessionInfo;
use hekla_engine::Database;
use hekla_plan::catalog::Catalog;
use std::sync::{Arc, RwLockReadGuard};

/// The database a system view describes.
pub trait SystemContext {
    /// The SQL catalog, read-locked: take it once per view and drop it
    /// before returning (a waiting writer would otherwise deadlock a
    /// second read).
    fn catalog(&self) -> RwLockReadGuard<'_, Catalog>;

    /// The engine database under the catalog: its tables, transactions,
    /// options and checkpoint files.
    fn engine(&self) -> &Database;

    /// Logins, users, roles and permissions, read-locked.
    fn principals(&self) -> RwLockReadGuard<'_, Principals>;

    /// A snapshot of the plans in the plan cache.
    fn cached_plans(&self) -> Vec<Arc<ProcedurePlan>>;

    /// The sessions open on the database, by session id.
    fn sessions(&self) -> Vec<SessionInfo>;

    /// The compiled natively compiled modules, by object id.
    fn native_modules(&self) -> Vec<Arc<CompiledModule>>;
}
