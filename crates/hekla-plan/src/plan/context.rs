//! What the planner (and the binder it drives) asks of the database it
//! plans for: the catalog's objects, a session's temporary tables, and
//! permission checks. `SqlDatabase` answers for a running database
//! (`database_context`); unit tests answer from a catalog built in
//! memory. Everything else the planner needs travels with it: the
//! batch's variables, the session's SET options and the state of binding
//! one statement ([`super::query::BindState`]).

use crate::bind::expr::Scalar;
use crate::bind::variables::Variables;
use crate::catalog::table::TableMeta;
use crate::catalog::temp;
use crate::catalog::Catalog;
use crate::permission::Permission;
use crate::permission::{Access, ObjectRef};
use crate::plan::system::SystemRelation;
use crate::session_options::SetOptions;
use hekla_parser::ast;
use hekla_types::{SqlResult, Value};
use std::sync::{Arc, RwLockReadGuard};

pub trait PlanContext {
    /// The catalog as it is now: tables, views, functions, sequences and
    /// types by name.
    fn catalog(&self) -> RwLockReadGuard<'_, Catalog>;

    /// The temporary table (`#t`, `##t`) that session `spid` sees as
    /// `name`, if any.
    fn temp_table(&self, spid: i16, name: &str) -> Option<Arc<TableMeta>>;

    /// The system view (`sys.tables`, `master..spt_values`) `schema`.`name`
    /// names, `database` the first part of a three-part name if any.
    fn system_view(
        &self,
        database: Option<&str>,
        schema: &str,
        name: &str,
    ) -> Option<SystemRelation>;

    /// The system table-valued function (`sys.dm_exec_sql_text`) a FROM
    /// item calls, named as [`Self::system_view`]'s views are.
    fn system_function(
        &self,
        database: Option<&str>,
        schema: &str,
        name: &str,
    ) -> Option<SystemRelation>;

    /// Msg 229 unless `access` allows `permission` on `object`.
    fn require_object(
        &self,
        access: &Access,
        permission: Permission,
        object: ObjectRef,
    ) -> SqlResult<()>;

    /// Msg 229 unless `access` allows `permission` on what `name` names
    /// (nothing for a name that names no securable).
    fn require_named(
        &self,
        access: &Access,
        permission: Permission,
        name: &ast::ObjectName,
    ) -> SqlResult<()>;

    /// The value of `scalar` (bound without a FROM clause: constants,
    /// variables and built-in functions) as the statement starts, for a
    /// TOP, OFFSET or FETCH count.
    fn start_value(
        &self,
        scalar: &Scalar,
        variables: &[Value],
        options: &SetOptions,
    ) -> SqlResult<Value>;
}

/// The table `name` names for a statement of the batch with `variables`:
/// a temporary table of its session (whatever database and schema are
/// written: SQL Server looks for `#` names in tempdb) or a user table.
/// Msg 208 when there is none.
pub fn resolve_table(
    db: &dyn PlanContext,
    variables: &Variables,
    name: &ast::ObjectName,
) -> SqlResult<Arc<TableMeta>> {
    if !temp::is_temp(name) {
        return crate::catalog::resolve_table(&db.catalog(), name);
    }
    db.temp_table(variables.session(), &name.name().value)
        .ok_or_else(|| crate::error::invalid_object_name(&name.name().value, 1))
}

/// The table an INSERT, UPDATE, DELETE or OUTPUT INTO writes.
pub fn resolve_target(
    db: &dyn PlanContext,
    variables: &Variables,
    target: &ast::DmlTarget,
) -> SqlResult<Arc<TableMeta>> {
    match target {
        ast::DmlTarget::Table { name, .. } => resolve_table(db, variables, name),
        ast::DmlTarget::Variable(name) => variables.writable_table(name),
    }
}
