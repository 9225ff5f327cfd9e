//! The running database as the layers below it see it, through the
//! traits they define: the planner's [`PlanContext`] (its catalog, its
//! sessions' temporary tables, its permission checks, and the executor's
//! evaluation of a TOP, OFFSET or FETCH count), the system views'
//! [`SystemContext`] (catalog, engine, principals, cached plans and open
//! sessions), security's [`SecurityContext`] (principals to check and
//! change, and where they are stored) and the executor's
//! [`StatementDatabase`] (the engine, and the other three).

use crate::ddl::alter::SchemaLock;
use crate::ddl::DdlDatabase;
use crate::native_code::NativeModules;
use crate::plan_cache::ProcedurePlan;
use crate::security;
use crate::security::access::Checks;
use crate::security::context::SecurityContext;
use crate::security::store::SecurityTables;
use crate::security::Principals;
use crate::session::SqlDatabase;
use crate::session_registry::{sessions_of, SessionInfo};
use crate::system_views::{self, SystemContext};
use hekla_engine::Database;
use hekla_exec::context::{Context, SecurityFunctions, StatementDatabase};
use hekla_exec::eval::Evaluate;
use hekla_exec::eval::Inputs;
use hekla_parser::ast;
use hekla_plan::bind::expr::Scalar;
use hekla_plan::catalog::procedure::ProcedureMeta;
use hekla_plan::catalog::store::ObjectStore;
use hekla_plan::catalog::table::TableMeta;
use hekla_plan::catalog::temp::TempTables;
use hekla_plan::catalog::Catalog;
use hekla_plan::identity::Identity;
use hekla_plan::permission::Permission;
use hekla_plan::permission::{Access, ObjectRef};
use hekla_plan::plan::context::PlanContext;
use hekla_plan::plan::system::SystemRelation;
use hekla_plan::session_options::SetOptions;
use hekla_types::{SqlResult, Value};
use std::sync::{Arc, RwLockReadGuard, RwLockWriteGuard};

impl StatementDatabase for SqlDatabase {
    fn engine(&self) -> &Arc<Database> {
        SqlDatabase::engine(self)
    }

    fn planning(&self) -> &dyn PlanContext {
        self
    }

    fn view_rows(&self, view: &SystemRelation) -> SqlResult<Vec<Vec<Value>>> {
        system_views::view_rows(self, view)
    }

    fn function_rows(
        &self,
        function: &SystemRelation,
        arguments: &[Value],
    ) -> SqlResult<Vec<Vec<Value>>> {
        system_views::function_rows(self, function, arguments)
    }

    fn security_functions(&self) -> &dyn SecurityFunctions {
        self
    }
}

impl SecurityFunctions for SqlDatabase {
    fn user_name(&self, who: &Identity, id: Option<Option<i64>>) -> Value {
        security::functions::user_name(self, who, id)
    }

    fn user_id(&self, who: &Identity, name: Option<Option<&str>>) -> Value {
        security::functions::user_id(self, who, name)
    }

    fn suser_id(
        &self,
        who: &Identity,
        session_login: Option<&str>,
        login: Option<Option<&str>>,
    ) -> Value {
        security::functions::suser_id(self, who, session_login, login)
    }

    fn is_member(&self, who: &Identity, role: Option<&str>) -> Value {
        security::functions::is_member(self, who, role)
    }

    fn is_srvrolemember(
        &self,
        who: &Identity,
        role: Option<&str>,
        login: Option<Option<&str>>,
    ) -> Value {
        security::functions::is_srvrolemember(self, who, role, login)
    }
}

impl DdlDatabase for SqlDatabase {
    fn catalog(&self) -> RwLockReadGuard<'_, Catalog> {
        SqlDatabase::catalog(self)
    }

    fn catalog_mut(&self) -> RwLockWriteGuard<'_, Catalog> {
        SqlDatabase::catalog_mut(self)
    }

    fn object_store(&self) -> &ObjectStore {
        SqlDatabase::object_store(self)
    }

    fn temp_tables(&self) -> &TempTables {
        SqlDatabase::temp_tables(self)
    }

    fn schema_lock(&self) -> &SchemaLock {
        SqlDatabase::schema_lock(self)
    }

    fn native_modules(&self) -> &NativeModules {
        SqlDatabase::native_modules(self)
    }

    fn plan_cache(&self) -> &crate::plan_cache::PlanCache<ProcedureMeta> {
        SqlDatabase::plan_cache(self)
    }
}

impl PlanContext for SqlDatabase {
    fn catalog(&self) -> RwLockReadGuard<'_, Catalog> {
        SqlDatabase::catalog(self)
    }

    fn temp_table(&self, spid: i16, name: &str) -> Option<Arc<TableMeta>> {
        self.temp_tables().find(spid, name)
    }

    fn system_view(
        &self,
        database: Option<&str>,
        schema: &str,
        name: &str,
    ) -> Option<SystemRelation> {
        crate::system_views::find_view(database, schema, name)
    }

    fn system_function(
        &self,
        database: Option<&str>,
        schema: &str,
        name: &str,
    ) -> Option<SystemRelation> {
        crate::system_views::find_function(database, schema, name)
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

impl SystemContext for SqlDatabase {
    fn catalog(&self) -> RwLockReadGuard<'_, Catalog> {
        SqlDatabase::catalog(self)
    }

    fn engine(&self) -> &Database {
        SqlDatabase::engine(self)
    }

    fn principals(&self) -> RwLockReadGuard<'_, Principals> {
        SqlDatabase::principals(self)
    }

    fn cached_plans(&self) -> Vec<Arc<ProcedurePlan>> {
        self.plan_cache().plans()
    }

    fn sessions(&self) -> Vec<SessionInfo> {
        sessions_of(SqlDatabase::engine(self))
    }

    fn native_modules(&self) -> Vec<Arc<crate::native_code::CompiledModule>> {
        SqlDatabase::native_modules(self).list()
    }
}

impl SecurityContext for SqlDatabase {
    fn catalog(&self) -> RwLockReadGuard<'_, Catalog> {
        SqlDatabase::catalog(self)
    }

    fn engine(&self) -> &Database {
        SqlDatabase::engine(self)
    }

    fn principals(&self) -> RwLockReadGuard<'_, Principals> {
        SqlDatabase::principals(self)
    }

    fn principals_mut(&self) -> RwLockWriteGuard<'_, Principals> {
        SqlDatabase::principals_mut(self)
    }

    fn security_tables(&self) -> &SecurityTables {
        self.security_store()
    }
}
