//! What security reads and changes of a running database, as a trait:
//! permission checks, security functions (`USER_NAME()`, `IS_MEMBER()`)
//! and the login, user, role and GRANT statements work over the
//! principals, the catalog and the engine, never over the database type
//! that holds them. The database implements it (`crate::database_context`).

use super::store::SecurityTables;
use super::Principals;
use hekla_engine::Database;
use hekla_plan::catalog::Catalog;
use std::sync::{RwLockReadGuard, RwLockWriteGuard};

/// The database whose principals and permissions security works on.
pub trait SecurityContext {
    /// The SQL catalog (the securables), read-locked.
    fn catalog(&self) -> RwLockReadGuard<'_, Catalog>;

    /// The engine database, for the transactions that persist a change
    /// and for the sessions open on it.
    fn engine(&self) -> &Database;

    /// Logins, users, roles and permissions, read-locked.
    fn principals(&self) -> RwLockReadGuard<'_, Principals>;

    /// The same, write-locked, for a statement to change.
    fn principals_mut(&self) -> RwLockWriteGuard<'_, Principals>;

    /// The engine tables the principals are stored in.
    fn security_tables(&self) -> &SecurityTables;
}
