//! The running database as the planner sees it ([`PlanContext`]): its
//! catalog, its sessions' temporary tables, its permission checks, and
//! the executor's evaluation of a TOP, OFFSET or FETCH count.

use crate::bind::expr::Scalar;
use crate::catalog::table::TableMeta;
use crate::catalog::Catalog;
use crate::exec::context::Context;
use crate::exec::eval::Inputs;
use crate::plan::context::PlanContext;
use crate::security::access::{Access, ObjectRef};
use crate::security::permissions::Permission;
use crate::session::SqlDatabase;
use crate::session_options::SetOptions;
use hekla_parser::ast;
use hekla_types::{SqlResult, Value};
use std::sync::{Arc, RwLockReadGuard};

impl PlanContext for SqlDatabase {
    fn catalog(&self) -> RwLockReadGuard<'_, Catalog> {
        SqlDatabase::catalog(self)
    }

    fn temp_table(&self, spid: i16, name: &str) -> Option<Arc<TableMeta>> {
        self.temp_tables().find(spid, name)
    }

    fn require_object(
        &self,
        access: &Access,
        permission: Permission,
        object: ObjectRef,
    ) -> SqlResult<()> {
        access.require_object(self, permission, object)
    }

    fn require_named(
        &self,
        access: &Access,
        permission: Permission,
        name: &ast::ObjectName,
    ) -> SqlResult<()> {
        access.require_named(self, permission, name)
    }

    fn start_value(
        &self,
        scalar: &Scalar,
        variables: &[Value],
        options: &SetOptions,
    ) -> SqlResult<Value> {
        let context = Context::new(self, variables).with_options(options);
        scalar.eval(&Inputs::top(&context))
    }
}
