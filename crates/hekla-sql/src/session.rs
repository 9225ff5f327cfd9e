//! Databases and sessions: the embedded SQL API. A [`SqlDatabase`] is an
//! engine database plus its SQL catalog; a [`Session`] runs batches against
//! it and reports what happens to a [`ResultSink`], the way SQL Server
//! streams results, DONE counts, messages and errors to a client.

use crate::plan_cache::PlanCache;
use crate::security::store::SecurityTables;
use crate::security::{Identity, Principal};
use crate::user_transaction::UserTransaction;
use hekla_engine::{Database, DatabaseConfig, IsolationLevel, StorageConfig};
use hekla_exec::context::{Context, SessionState};
use hekla_exec::eval::Evaluate;
use hekla_parser::ast;
use hekla_plan::bind::variables::Variables;
use hekla_plan::catalog::store::{ObjectStore, SYSTEM_SCHEMA};
use hekla_plan::catalog::Catalog;
use hekla_plan::plan::Planner;
pub use hekla_plan::result::{
    ErrorEvent, ResultColumn, ResultSink, StatementCommand, TransactionEvent,
};
use hekla_plan::session_options::SetOptions;
use hekla_types::{SqlResult, Value};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, RwLock};

/// An engine database with its SQL catalog, shared by sessions.
pub struct SqlDatabase {
    engine: Arc<Database>,
    store: ObjectStore,
    /// Where logins, users, roles and permissions are stored.
    security_store: SecurityTables,
    catalog: RwLock<Catalog>,
    /// Every session's `#temp` and `##global` tables.
    temp: hekla_plan::catalog::temp::TempTables,
    /// Statements hold it shared, table rebuilds alone (Sch-S / Sch-M).
    schema_lock: crate::ddl::alter::SchemaLock,
    /// Logins, users and roles (see [`crate::security`]).
    principals: RwLock<crate::security::Principals>,
    /// Compiled batches, parameterized statements and procedures.
    plan_cache: PlanCache<hekla_plan::catalog::procedure::ProcedureMeta>,
    /// One more each time DDL takes the catalog to change it: a cached
    /// plan compiled at an older version is compiled again.
    schema_version: AtomicU64,
    /// Whether natively compiled modules run their compiled code (off:
    /// every statement is interpreted; benchmarks and the differential
    /// tests compare the two).
    native_compilation: AtomicBool,
    /// The machine code of natively compiled procedures.
    native_modules: crate::native_code::NativeModules,
    /// Whether calls of natively compiled procedures are counted in
    /// `sys.dm_exec_procedure_stats` (`sys.sp_xtp_control_proc_exec_stats`;
    /// off at startup, as in SQL Server).
    native_procedure_stats: AtomicBool,
}

impl SqlDatabase {
    /// Opens (creating if needed) and recovers the database in `dir`.
    pub fn open(
        dir: &Path,
        config: DatabaseConfig,
        storage: StorageConfig,
    ) -> SqlResult<Arc<SqlDatabase>> {
        SqlDatabase::over(Database::open(dir, config, storage)?)
    }

    /// A database that lives in memory only.
    pub fn in_memory() -> SqlResult<Arc<SqlDatabase>> {
        SqlDatabase::over(Database::new(DatabaseConfig::default()))
    }

    fn over(engine: Database) -> SqlResult<Arc<SqlDatabase>> {
        let store = ObjectStore::open(&engine)?;
        let security = SecurityTables::open(&engine, store.system_schema(), SYSTEM_SCHEMA)?;
        let catalog = Catalog::load(&engine, &store, &|id| security.owns_engine_table(id))?;
        let principals = crate::security::Principals::new(
            security.load(&engine)?,
            security.load_members(&engine)?,
            security.load_server_members(&engine)?,
            security.load_permissions(&engine)?,
        );
        let db = Arc::new(SqlDatabase {
            engine: Arc::new(engine),
            store,
            security_store: security,
            catalog: RwLock::new(catalog),
            temp: Default::default(),
            schema_lock: Default::default(),
            principals: RwLock::new(principals),
            plan_cache: PlanCache::default(),
            schema_version: AtomicU64::new(0),
            native_compilation: AtomicBool::new(true),
            native_modules: Default::default(),
            native_procedure_stats: AtomicBool::new(false),
        });
        crate::ddl::load::bind_views(&*db);
        crate::ddl::load::bind_functions(&*db);
        crate::ddl::load::compile_native_modules(&*db);
        crate::security::grants::forget_missing_objects(&*db)?;
        Ok(db)
    }

    pub fn engine(&self) -> &Arc<Database> {
        &self.engine
    }

    /// A read view of the catalog.
    pub fn catalog(&self) -> std::sync::RwLockReadGuard<'_, Catalog> {
        self.catalog.read().expect("catalog lock")
    }

    /// The catalog, for DDL to change: the schema version goes up, so
    /// plans compiled before are compiled again.
    pub(crate) fn catalog_mut(&self) -> std::sync::RwLockWriteGuard<'_, Catalog> {
        self.mark_plans_stale();
        self.catalog.write().expect("catalog lock")
    }

    /// Moves the schema version on: every cached plan is compiled again
    /// at its next use, and the plans kept until now are let go.
    pub(crate) fn mark_plans_stale(&self) {
        self.schema_version.fetch_add(1, Ordering::Relaxed);
        self.plan_cache.release_bound_plans();
    }

    /// How many times DDL changed the catalog (see [`Self::catalog_mut`]).
    pub fn schema_version(&self) -> u64 {
        self.schema_version.load(Ordering::Relaxed)
    }

    /// Turns the machine code of natively compiled modules on (the
    /// default) or off, when they run through the interpreter alone. The
    /// results are the same either way; only the speed differs.
    pub fn set_native_compilation(&self, enabled: bool) {
        self.native_compilation.store(enabled, Ordering::Relaxed);
    }

    /// The machine code of natively compiled procedures.
    pub fn native_modules(&self) -> &crate::native_code::NativeModules {
        &self.native_modules
    }

    /// See [`Self::set_native_compilation`].
    pub fn native_compilation(&self) -> bool {
        self.native_compilation.load(Ordering::Relaxed)
    }

    /// Turns the counting of natively compiled procedures' calls on or
    /// off; whether it was on.
    pub fn set_native_procedure_stats(&self, enabled: bool) -> bool {
        self.native_procedure_stats.swap(enabled, Ordering::Relaxed)
    }

    /// See [`Self::set_native_procedure_stats`].
    pub fn native_procedure_stats(&self) -> bool {
        self.native_procedure_stats.load(Ordering::Relaxed)
    }

    /// The plan cache (see [`crate::plan_cache`]).
    pub fn plan_cache(&self) -> &PlanCache<hekla_plan::catalog::procedure::ProcedureMeta> {
        &self.plan_cache
    }

    /// Where object definitions are stored.
    pub(crate) fn object_store(&self) -> &ObjectStore {
        &self.store
    }

    /// Where logins, users, roles and permissions are stored.
    pub(crate) fn security_store(&self) -> &SecurityTables {
        &self.security_store
    }

    /// The schema lock (see `ddl::alter::gate`).
    pub(crate) fn schema_lock(&self) -> &crate::ddl::alter::SchemaLock {
        &self.schema_lock
    }

    /// The temporary tables of every session.
    pub(crate) fn temp_tables(&self) -> &hekla_plan::catalog::temp::TempTables {
        &self.temp
    }

    /// Logins, users and roles, to read.
    pub(crate) fn principals(&self) -> std::sync::RwLockReadGuard<'_, crate::security::Principals> {
        self.principals.read().expect("principals lock")
    }

    /// Logins, users and roles, for security statements to change: plans
    /// kept with the permission checks of their user are made again.
    pub(crate) fn principals_mut(
        &self,
    ) -> std::sync::RwLockWriteGuard<'_, crate::security::Principals> {
        self.mark_plans_stale();
        self.principals.write().expect("principals lock")
    }

    /// First start of a server: gives the `sa` login (a `sysadmin`) the
    /// password `password` and enables it, unless it has a password
    /// already. True if it did.
    pub fn ensure_sa_login(&self, password: &str) -> SqlResult<bool> {
        crate::security::logins::ensure_sa(self, password)
    }

    /// Checks a SQL-authentication login. Any mismatch (unknown login,
    /// wrong password, disabled login) is Msg 18456, Level 14, State 1,
    /// "Login failed for user '<name>'.", the same text whatever was wrong.
    pub fn authenticate(&self, login: &str, password: &str) -> SqlResult<Principal> {
        crate::security::logins::authenticate(self, login, password)
    }

    /// A session running as `principal`: as `dbo` for a `sysadmin`, else
    /// as the login's database user (Msg 4060 if it has none).
    pub fn session_for(self: &Arc<Self>, principal: &Principal) -> SqlResult<Session> {
        let identity = crate::security::logins::identity(&**self, principal)?;
        self.session_as(identity, Some(principal.login.clone()))
    }

    /// A new session as the database owner (`dbo`, logged in as `sa`), as
    /// the embedded API and `hekla sql --data-dir` run; Msg 17809 when
    /// every session id is taken.
    pub fn session(self: &Arc<Self>) -> SqlResult<Session> {
        self.session_as(Identity::default(), None)
    }

    /// A session running as `identity`, connected as `login` (None for
    /// the embedded API, which has no login: `SUSER_SNAME()` is NULL).
    fn session_as(
        self: &Arc<Self>,
        identity: Identity,
        login: Option<String>,
    ) -> SqlResult<Session> {
        let registration = crate::session_registry::register(self.engine(), login.as_deref())?;
        let state = SessionState {
            spid: registration.session_id(),
            login,
            principal: identity,
            ..SessionState::default()
        };
        Ok(Session {
            registration,
            db: Arc::clone(self),
            in_ownership_chain: false,
            options: SetOptions::default(),
            transaction: UserTransaction::default(),
            state,
            messages: Vec::new(),
            reads: hekla_exec::table_reads::TableReads::default(),
            prepared: Default::default(),
            transaction_shown: false,
            holds_schema_stability: false,
        })
    }
}

/// A clean close: IDENTITY columns and sequences continue without a gap at
/// the next open (a crash still skips the unused rest of their blocks).
impl Drop for SqlDatabase {
    fn drop(&mut self) {
        if let Ok(catalog) = self.catalog.read() {
            catalog.release_unused_counter_values(&self.engine);
        }
    }
}

/// One connection's state.
pub struct Session {
    /// Its row in sys.dm_exec_sessions; declared first so the session
    /// leaves the registry before its database can go.
    pub(crate) registration: crate::session_registry::SessionHandle,
    pub(crate) db: Arc<SqlDatabase>,
    /// Running a stored procedure's statements: the ownership chain spares
    /// them permission checks (see [`crate::security::access`]).
    pub(crate) in_ownership_chain: bool,
    /// What SET statements chose.
    pub(crate) options: SetOptions,
    /// BEGIN TRANSACTION ... COMMIT; it may span batches.
    pub(crate) transaction: UserTransaction,
    /// What `@@SPID`, `@@ROWCOUNT`, `@@ERROR`, `@@IDENTITY` ... read.
    pub(crate) state: SessionState,
    /// Informational messages of the running statement (arithmetic
    /// warnings, SET LANGUAGE's), sent before its DONE.
    messages: Vec<String>,
    /// The running statement's table reads, for SET STATISTICS IO.
    pub(crate) reads: hekla_exec::table_reads::TableReads,
    /// What sp_prepare and sp_prepexec prepared, by handle.
    pub(crate) prepared: crate::prepared_statements::PreparedStatements,
    /// Whether the sink was last told the transaction is open (see
    /// [`ResultSink::transaction_changed`]).
    pub(crate) transaction_shown: bool,
    /// A statement of the session is running and holds the schema lock
    /// shared (see `ddl::alter::gate`): statements inside it (a
    /// procedure's) do not take it again.
    pub(crate) holds_schema_stability: bool,
}

impl Session {
    /// sp_reset_connection (a pooled connection handed to its next user):
    /// rolls back an open transaction, drops the session's `#temp`
    /// tables, sets the SET options back to their defaults and forgets the
    /// prepared statements. The sink is not told of the rollback: the
    /// server's reply to a reset says it all.
    pub fn reset(&mut self) {
        self.transaction.roll_back_all();
        self.transaction_shown = false;
        crate::ddl::temp::end_session(&*self.db, self.state.spid);
        self.options = SetOptions::default();
        self.registration.publish(&self.options);
        self.prepared.clear();
        self.messages.clear();
        let state = &mut self.state;
        (state.rowcount, state.error) = (0, 0);
        (state.identity, state.scope_identity) = (None, None);
    }

    /// Records what the session's client said of itself at login (the
    /// server calls this after LOGIN7), for `APP_NAME()`, `HOST_NAME()`
    /// and `sys.dm_exec_sessions`.
    pub fn set_client(&mut self, client: hekla_plan::identity::ClientInfo) {
        let client = Arc::new(client);
        self.registration.set_client(Arc::clone(&client));
        self.state.client = Some(client);
    }

    /// The session's id (`@@SPID`; TDS packet headers carry it).
    pub fn session_id(&self) -> i16 {
        self.state.spid
    }

    /// Something another thread uses to stop the running request (a TDS
    /// ATTENTION); see [`hekla_plan::cancel`].
    pub fn cancel_handle(&self) -> hekla_plan::cancel::CancelHandle {
        self.state.cancel.clone()
    }

    /// A planner for a statement binding `variables` under the session's
    /// SET options.
    pub(crate) fn planner<'a>(&self, db: &'a SqlDatabase, variables: &'a Variables) -> Planner<'a> {
        Planner::new(db, variables, self.options.clone()).with_access(self.access())
    }

    /// The permission checks the session's next statement gets: none for
    /// `dbo` and inside a procedure's ownership chain.
    pub(crate) fn access(&self) -> Option<hekla_plan::permission::Access> {
        if self.in_ownership_chain {
            return None;
        }
        crate::security::access::access_of(&self.state.principal)
    }

    /// The informational messages raised since the last call, in order.
    pub(crate) fn take_messages(&mut self) -> Vec<String> {
        std::mem::take(&mut self.messages)
    }

    /// Runs `body` in a statement context over `variables`: in the user
    /// transaction if one is open (a failure undoes only the statement),
    /// else in a transaction of its own, committed if `body` succeeds.
    pub(crate) fn in_context<T>(
        &mut self,
        variables: &Variables,
        body: impl FnOnce(&Context) -> SqlResult<T>,
    ) -> SqlResult<T> {
        self.running_plan(variables, Vec::new(), body)
    }

    /// [`Self::in_context`] for a plan that reads `table_variables` (see
    /// [`Context::with_table_variables`]).
    pub(crate) fn running_plan<T>(
        &mut self,
        variables: &Variables,
        table_variables: Vec<(i32, Arc<hekla_plan::catalog::table::TableMeta>)>,
        body: impl FnOnce(&Context) -> SqlResult<T>,
    ) -> SqlResult<T> {
        self.state.trancount = self.transaction.count();
        self.state.xact_state = self.transaction.state();
        // sys.dm_exec_sessions shows the options as of the statement.
        self.registration.publish(&self.options);
        let db = Arc::clone(&self.db);
        let mut context = Context::for_session(&*db, variables.values(), &self.state)
            .with_options(&self.options)
            .with_isolation(self.read_isolation())
            .with_table_variables(table_variables);
        let user = self.transaction.is_open();
        if user {
            context = context.in_user_transaction(self.transaction.lend());
        }
        let outcome = body(&context).and_then(|value| {
            context.commit()?;
            Ok(value)
        });
        if outcome.is_err() {
            context.undo_statement();
        }
        if user {
            self.transaction.give_back(context.take_transaction());
        }
        // An identity handed out stays handed out, even if the statement
        // then failed (as in SQL Server).
        if let Some(identity) = context.last_identity() {
            self.state.identity = Some(identity.clone());
            self.state.scope_identity = Some(identity);
        }
        self.messages.extend(context.take_warnings());
        self.reads.merge(context.take_reads());
        outcome
    }

    /// The engine isolation level a transaction begins at: READ COMMITTED
    /// reads memory-optimized tables as SNAPSHOT, as in SQL Server.
    pub(crate) fn engine_isolation(&self) -> IsolationLevel {
        hekla_exec::isolation::engine_level(self.options.isolation)
    }

    /// How a statement's table reads are isolated (`exec::isolation`).
    fn read_isolation(&self) -> hekla_exec::isolation::ReadIsolation {
        hekla_exec::isolation::ReadIsolation {
            session: self.options.isolation,
            atomic_block: self.options.atomic_block,
            explicit: self.transaction.is_open(),
            elevate_to_snapshot: self.db.engine.options().elevate_to_snapshot,
        }
    }

    /// `SET option ... value` (see [`crate::set_statement`]); a variable
    /// given as the value is read from `variables`. SET LANGUAGE's
    /// message is not sent from inside a procedure, as in SQL Server.
    pub(crate) fn set_option(
        &mut self,
        names: &[ast::Ident],
        value: &ast::OptionValue,
        variables: &Variables,
    ) -> SqlResult<()> {
        let mut options = self.options.clone();
        let message = crate::set_statement::apply(&mut options, names, value, &mut |expr| {
            self.evaluate(expr, variables)
        })?;
        self.options = options;
        self.registration.publish(&self.options);
        if self.state.nest_level == 0 {
            self.messages.extend(message);
        }
        Ok(())
    }

    /// An expression's value outside any query.
    fn evaluate(&mut self, expr: &ast::Expr, variables: &Variables) -> SqlResult<Value> {
        let db = Arc::clone(&self.db);
        let planner = self.planner(&db, variables);
        let scalar = hekla_plan::plan::value_binder(&planner).scalar(expr)?;
        self.in_context(variables, |context| {
            scalar.eval(&hekla_exec::eval::Inputs::top(context))
        })
    }
}

/// A session's `#temp` and `##global` tables go with it, and a
/// transaction it left open is rolled back.
impl Drop for Session {
    fn drop(&mut self) {
        self.transaction.roll_back_all();
        crate::ddl::temp::end_session(&*self.db, self.state.spid);
    }
}
