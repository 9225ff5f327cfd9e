//! What a running statement reads besides its rows: the database, the
//! batch's variables, the statement's transaction and the session's SET
//! options; it collects the warnings the statement gives. Subqueries inside
//! expressions reach the same transaction through it, and so do the
//! user-defined functions they call (`Context::in_function`), so a
//! statement sees one snapshot however deeply its queries nest.

use super::isolation::ReadIsolation;
use super::scalar_function::BoundBody;
use super::table_reads::TableReads;
use hekla_engine::{Database, Dependencies, RowId, Savepoint, Transaction};
use hekla_parser::ast;
use hekla_plan::bind::functions::RuntimeConstantId;
use hekla_plan::catalog::table::TableMeta;
use hekla_plan::identity::Identity;
use hekla_plan::plan::context::PlanContext;
use hekla_plan::plan::system::SystemRelation;
use hekla_plan::result::ResultSink;
use hekla_plan::session_options::SetOptions;
use hekla_types::{SqlError, SqlResult, Value};
use std::cell::{Cell, OnceCell, RefCell, RefMut};
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

/// Bound scalar function bodies, by the address of their catalog entry.
type FunctionBodies = Rc<RefCell<HashMap<usize, Rc<BoundBody>>>>;

/// The database a statement runs in, as the executor sees it: the engine,
/// the catalog it plans against, and what the layers above the executor
/// compute for it (system views' rows, security functions' answers). The
/// database answers it (`database_context`); the executor never names the
/// session, its database type, the system views or security. Each call is
/// per statement or per function call, never per row.
pub trait StatementDatabase {
    fn engine(&self) -> &Arc<Database>;
    /// The catalog and the session's temporary tables, as the planner
    /// sees them (a scalar function's body is bound on first call).
    fn planning(&self) -> &dyn PlanContext;
    /// The rows of a system view (`FROM sys.tables`) as they are now.
    fn view_rows(&self, view: &SystemRelation) -> SqlResult<Vec<Vec<Value>>>;
    /// The rows a system table-valued function (`sys.dm_exec_sql_text`)
    /// returns for `arguments`.
    fn function_rows(
        &self,
        function: &SystemRelation,
        arguments: &[Value],
    ) -> SqlResult<Vec<Vec<Value>>>;
    /// What `USER_NAME()`, `IS_MEMBER()` and the like answer.
    fn security_functions(&self) -> &dyn SecurityFunctions;
}

/// The security functions, answered for the session running as `who`
/// from the database's principals (which the executor does not read
/// itself). An `Option<Option<_>>` argument is absent (`None`: the
/// session's own principal) or given, perhaps NULL.
pub trait SecurityFunctions {
    /// `USER_NAME([id])`.
    fn user_name(&self, who: &Identity, id: Option<Option<i64>>) -> Value;
    /// `USER_ID(['user'])`.
    fn user_id(&self, who: &Identity, name: Option<Option<&str>>) -> Value;
    /// `SUSER_ID(['login'])`; `session_login` is the login the session
    /// connected with, None when embedded.
    fn suser_id(
        &self,
        who: &Identity,
        session_login: Option<&str>,
        login: Option<Option<&str>>,
    ) -> Value;
    /// `IS_MEMBER('role')`.
    fn is_member(&self, who: &Identity, role: Option<&str>) -> Value;
    /// `IS_SRVROLEMEMBER('role' [, 'login'])`.
    fn is_srvrolemember(
        &self,
        who: &Identity,
        role: Option<&str>,
        login: Option<Option<&str>>,
    ) -> Value;
}

pub struct Context<'a> {
    pub db: &'a dyn StatementDatabase,
    /// The engine of `db`, held here because rows reach it (IDENTITY
    /// and sequence values, transactions) without a call through `db`.
    engine: &'a Arc<Database>,
    /// The batch's variable values; an assignment SELECT changes them row
    /// by row while the statement runs.
    variables: RefCell<Vec<Value>>,
    /// The session's user transaction, or one begun when the statement
    /// first reads or writes a table.
    transaction: RefCell<Option<Transaction>>,
    /// How its table reads are isolated (and what level a transaction
    /// begun here gets).
    isolation: ReadIsolation,
    /// False when the transaction is the session's user transaction,
    /// which the statement must not commit.
    owns_transaction: bool,
    /// The commit dependencies of the transaction last taken through
    /// [`Context::transaction`], for rows sent while a streaming scan holds
    /// it (see [`Context::send_row`]).
    dependencies: Cell<Option<Dependencies>>,
    /// Where the transaction stood when the statement first used it: what
    /// a failing statement rolls back to (statement atomicity).
    statement_start: Cell<Option<Savepoint>>,
    /// Results of subqueries that do not depend on the outer row, computed
    /// once per statement; keyed by the subquery's address in the plan.
    cached: RefCell<HashMap<usize, Rc<Vec<Vec<Value>>>>>,
    /// Each running recursive CTE's previous step, by its id.
    working: RefCell<HashMap<usize, Rc<Vec<Vec<Value>>>>>,
    /// The values of the runtime constants (RAND(), GETDATE() ...) the
    /// statement has read, each computed on first use.
    runtime_constants: RefCell<HashMap<RuntimeConstantId, Value>>,
    /// The last IDENTITY value the statement generated (an INSERT into a
    /// table with an IDENTITY column sets it for every row it inserts),
    /// for @@IDENTITY and SCOPE_IDENTITY(); read it with
    /// [`Context::last_identity`]. Values generated by an INSERT that then
    /// failed count too, as in SQL Server.
    pub last_identity: Cell<Option<Value>>,
    /// What `@@` functions read about the session.
    pub session: SessionState,
    /// The session's SET options as the statement started.
    pub options: SetOptions,
    /// The warnings arithmetic errors turned NULL gave (see
    /// [`Context::arithmetic`]), each once, in order.
    warnings: RefCell<Vec<&'static str>>,
    /// The ids of the rows an UPDATE or DELETE read from its target, by
    /// the number its plan carries them as (see `TableRead::row_ids`).
    row_ids: RefCell<Vec<RowId>>,
    /// The bodies of the scalar functions the statement calls, bound on
    /// first use and shared with the contexts the calls run in; keyed by
    /// the address of the function's catalog entry, which the plan holds.
    /// Made on first use: most statements call none.
    functions: OnceCell<FunctionBodies>,
    /// The scans and seeks of tables that are not memory-optimized, for
    /// SET STATISTICS IO.
    reads: RefCell<TableReads>,
    /// Rows handled since the cancel flag was last looked at.
    rows_unchecked: Cell<u32>,
    /// The bytes the statement's operators hold now (see [`MemoryCharge`]).
    memory_held: Cell<u64>,
    /// A reused plan's table variables: the table each names in this run,
    /// by the object id of the one it was planned against (see
    /// [`Context::table`]).
    table_variables: Vec<(i32, std::sync::Arc<TableMeta>)>,
}

/// The session's state as of the statement's start, for `@@SPID`,
/// `@@ROWCOUNT`, `@@ERROR`, `@@IDENTITY` / `SCOPE_IDENTITY()` and
/// `SUSER_SNAME()`.
#[derive(Clone, Debug, Default)]
pub struct SessionState {
    pub spid: i16,
    /// Rows the previous statement affected or returned.
    pub rowcount: i64,
    /// The previous statement's error number, 0 if it succeeded.
    pub error: i32,
    /// The last IDENTITY value the session generated.
    pub identity: Option<Value>,
    /// The last one generated in the running scope (batch or procedure).
    pub scope_identity: Option<Value>,
    /// `@@TRANCOUNT` and `XACT_STATE()`.
    pub trancount: u32,
    pub xact_state: i16,
    /// `@@NESTLEVEL`: how many procedures deep the statement runs.
    pub nest_level: u8,
    /// The machine code of the natively compiled module the statement is
    /// in: its plans that compiled to row kernels run them
    /// (`crate::compiled`). None outside native modules, and when native
    /// compilation is off.
    pub native_code: Option<std::sync::Arc<crate::compiled::ModuleCode>>,
    /// The error the innermost running CATCH block handles.
    pub caught: Option<std::sync::Arc<hekla_plan::result::ErrorEvent>>,
    /// The login the session connected with; None when embedded.
    pub login: Option<String>,
    /// What the client told of itself at login; None when embedded.
    pub client: Option<std::sync::Arc<hekla_plan::identity::ClientInfo>>,
    /// Who the session runs as: its login and database user.
    pub principal: Identity,
    /// Set by another thread to stop the running request.
    pub cancel: hekla_plan::cancel::CancelHandle,
}

impl<'a> Context<'a> {
    pub fn new(db: &'a dyn StatementDatabase, variables: &[Value]) -> Self {
        Self::with_state(db, variables, SessionState::default())
    }

    /// A context reading `session` for the `@@` functions: a session's
    /// statement (made in place, not over a default state, whose login
    /// and cancel flag would be allocated for nothing).
    pub fn for_session(
        db: &'a dyn StatementDatabase,
        variables: &[Value],
        session: &SessionState,
    ) -> Self {
        Self::with_state(db, variables, session.clone())
    }

    fn with_state(
        db: &'a dyn StatementDatabase,
        variables: &[Value],
        session: SessionState,
    ) -> Self {
        Context {
            db,
            engine: db.engine(),
            variables: RefCell::new(variables.to_vec()),
            transaction: RefCell::new(None),
            isolation: ReadIsolation::default(),
            owns_transaction: true,
            dependencies: Cell::new(None),
            statement_start: Cell::new(None),
            cached: RefCell::new(HashMap::new()),
            working: RefCell::new(HashMap::new()),
            runtime_constants: RefCell::new(HashMap::new()),
            last_identity: Cell::new(None),
            session,
            options: SetOptions::default(),
            warnings: RefCell::new(Vec::new()),
            row_ids: RefCell::new(Vec::new()),
            functions: OnceCell::new(),
            reads: RefCell::default(),
            rows_unchecked: Cell::new(0),
            memory_held: Cell::new(0),
            table_variables: Vec::new(),
        }
    }

    /// The same context running a reused plan: `tables` maps the object
    /// id of each table variable the plan was made against to the table
    /// that variable holds now (a table variable or table-valued parameter
    /// is a new table on every call; its columns and indexes are its
    /// type's, so the plan fits it).
    pub fn with_table_variables(mut self, tables: Vec<(i32, std::sync::Arc<TableMeta>)>) -> Self {
        self.table_variables = tables;
        self
    }

    /// The table a plan's `planned` table is in this run: itself, or for a
    /// table variable of a reused plan, the variable's table now.
    pub fn table<'t>(
        &'t self,
        planned: &'t std::sync::Arc<TableMeta>,
    ) -> &'t std::sync::Arc<TableMeta> {
        self.table_variables
            .iter()
            .find(|(id, _)| *id == planned.object_id)
            .map_or(planned, |(_, table)| table)
    }

    /// The engine the statement runs on.
    pub fn engine(&self) -> &'a Arc<Database> {
        self.engine
    }

    /// The same context, under the session's SET `options`.
    pub fn with_options(mut self, options: &SetOptions) -> Self {
        self.options = options.clone();
        self
    }

    /// An arithmetic result. When SET ARITHABORT and ANSI_WARNINGS are
    /// both OFF, an arithmetic error (overflow, divide by zero, an invalid
    /// floating point operation) is NULL instead, with SQL Server's warning
    /// after the statement unless SET ARITHIGNORE is ON.
    pub fn arithmetic(&self, result: SqlResult<Value>) -> SqlResult<Value> {
        let Err(error) = result else {
            return result;
        };
        let warning = match error.number {
            8134 => "Division by zero occurred.",
            8115 | 220 | 232 => "Arithmetic overflow occurred.",
            3623 => "Warning: An invalid floating point operation occurred.",
            _ => return Err(error),
        };
        if !self.options.arithmetic_errors_are_null() {
            return Err(error);
        }
        let mut warnings = self.warnings.borrow_mut();
        if !self.options.arithignore && !warnings.contains(&warning) {
            warnings.push(warning);
        }
        Ok(Value::Null)
    }

    /// The value of the runtime constant `id` in this statement: computed
    /// by `compute` the first time it is read, the same value after that.
    pub fn runtime_constant(
        &self,
        id: RuntimeConstantId,
        compute: impl FnOnce() -> SqlResult<Value>,
    ) -> SqlResult<Value> {
        if let Some(value) = self.runtime_constants.borrow().get(&id) {
            return Ok(value.clone());
        }
        let value = compute()?;
        self.runtime_constants
            .borrow_mut()
            .insert(id, value.clone());
        Ok(value)
    }

    /// The warnings the statement gave, for the client.
    pub fn take_warnings(&self) -> Vec<String> {
        self.warnings
            .take()
            .into_iter()
            .map(str::to_string)
            .collect()
    }

    /// Runs `body` in the context of a call of a scalar function, `level`
    /// modules deep (`@@NESTLEVEL`), over the function's `variables`. It
    /// shares the statement's database and session, and, when the
    /// function `reads` tables, the statement's transaction (lent to it
    /// meanwhile), so the function reads the statement's snapshot.
    pub fn in_function<T>(
        &self,
        level: u8,
        variables: Vec<Value>,
        reads: bool,
        body: impl FnOnce(&Context) -> SqlResult<T>,
    ) -> SqlResult<T> {
        let lent = if reads {
            self.transaction
                .try_borrow_mut()
                .map_err(|_| in_use())?
                .take()
        } else {
            None
        };
        let call = Context {
            db: self.db,
            engine: self.engine,
            variables: RefCell::new(variables),
            transaction: RefCell::new(lent),
            isolation: self.isolation,
            owns_transaction: false,
            dependencies: Cell::new(None),
            statement_start: Cell::new(None),
            cached: RefCell::new(HashMap::new()),
            working: RefCell::new(HashMap::new()),
            runtime_constants: RefCell::new(HashMap::new()),
            last_identity: Cell::new(None),
            session: SessionState {
                nest_level: level,
                ..self.session.clone()
            },
            options: self.options.clone(),
            warnings: RefCell::new(Vec::new()),
            row_ids: RefCell::new(Vec::new()),
            functions: OnceCell::from(Rc::clone(self.function_bodies())),
            reads: RefCell::default(),
            rows_unchecked: Cell::new(0),
            memory_held: Cell::new(0),
            table_variables: Vec::new(),
        };
        let outcome = body(&call);
        if reads {
            *self.transaction.borrow_mut() = call.take_transaction();
        }
        // The function's warnings are its calling statement's.
        let mut warnings = self.warnings.borrow_mut();
        for warning in call.warnings.take() {
            if !warnings.contains(&warning) {
                warnings.push(warning);
            }
        }
        outcome
    }

    /// The bound body of the scalar function at `key`, bound by `bind` on
    /// the statement's first call.
    pub fn function_body(
        &self,
        key: usize,
        bind: impl FnOnce() -> SqlResult<BoundBody>,
    ) -> SqlResult<Rc<BoundBody>> {
        if let Some(body) = self.function_bodies().borrow().get(&key) {
            return Ok(Rc::clone(body));
        }
        let body = Rc::new(bind()?);
        self.function_bodies()
            .borrow_mut()
            .insert(key, Rc::clone(&body));
        Ok(body)
    }

    /// The statement's bound function bodies, shared with the contexts of
    /// the calls.
    fn function_bodies(&self) -> &FunctionBodies {
        self.functions.get_or_init(Rc::default)
    }

    /// Forgets the rows of uncorrelated subqueries: they were computed for
    /// one statement of a function's body, and the next may see other
    /// variable values.
    pub fn forget_subqueries(&self) {
        self.cached.borrow_mut().clear();
    }

    /// Counts a row an operator handled; every
    /// [`hekla_plan::cancel::ROWS_PER_CHECK`] rows, the cancelled error if the
    /// request was cancelled meanwhile.
    pub fn check_cancel(&self) -> SqlResult<()> {
        let rows = self.rows_unchecked.get() + 1;
        if rows < hekla_plan::cancel::ROWS_PER_CHECK {
            self.rows_unchecked.set(rows);
            return Ok(());
        }
        self.rows_unchecked.set(0);
        if self.session.cancel.is_cancelled() {
            return Err(hekla_plan::cancel::cancelled());
        }
        Ok(())
    }

    /// The most bytes one value a function builds may take: what the
    /// request's memory limit leaves beside the operators' buffers, and
    /// no more than the database's memory limit leaves (beyond, Msg 701).
    pub fn memory_for_value(&self) -> u64 {
        let engine = self.engine;
        let request = engine
            .request_memory_limit()
            .saturating_sub(self.memory_held.get());
        request.min(engine.memory_available())
    }

    /// A meter for the memory an operator holds while it runs.
    pub fn memory_charge(&self) -> MemoryCharge<'_, 'a> {
        MemoryCharge {
            context: self,
            bytes: 0,
        }
    }

    /// The same context, isolating its reads by `isolation`.
    pub fn with_isolation(mut self, isolation: ReadIsolation) -> Self {
        self.isolation = isolation;
        self
    }

    /// The same context, running in the session's user transaction
    /// (`transaction`, or one begun here if the user transaction has not
    /// touched a table yet), which the statement leaves open.
    pub fn in_user_transaction(mut self, transaction: Option<Transaction>) -> Self {
        self.transaction = RefCell::new(transaction);
        self.owns_transaction = false;
        self
    }

    /// The transaction back, for the session to keep (a user transaction
    /// goes on after the statement).
    pub fn take_transaction(&self) -> Option<Transaction> {
        self.transaction.borrow_mut().take()
    }

    /// Undoes what the statement wrote, leaving its transaction open.
    pub fn undo_statement(&self) {
        if let (Some(tx), Some(start)) = (
            self.transaction.borrow_mut().as_mut(),
            self.statement_start.get(),
        ) {
            tx.rollback_to(start);
        }
    }

    /// The last IDENTITY value generated by the statement, if any.
    pub fn last_identity(&self) -> Option<Value> {
        let value = self.last_identity.take();
        self.last_identity.set(value.clone());
        value
    }

    pub fn variable(&self, slot: usize) -> Value {
        self.variables.borrow()[slot].clone()
    }

    pub fn assign(&self, slot: usize, value: Value) {
        self.variables.borrow_mut()[slot] = value;
    }

    /// The variable values as the statement left them.
    pub fn into_variables(self) -> Vec<Value> {
        self.variables.into_inner()
    }

    /// The statement's transaction, begun on first use. Operators that
    /// stream rows out of a table hold it while they do, so the planner
    /// makes any operator that reads tables while such a stream is open
    /// read into memory first (see `plan::streaming`); meeting a held
    /// transaction here is therefore a planner bug, reported as an error.
    pub fn transaction(&self) -> SqlResult<RefMut<'_, Transaction>> {
        let mut slot = self.transaction.try_borrow_mut().map_err(|_| in_use())?;
        let default_level = self.isolation.default_level();
        if slot.is_none() {
            *slot = Some(self.engine.begin(default_level)?);
        }
        if self.statement_start.get().is_none() {
            let tx = slot.as_ref().expect("begun above");
            self.statement_start.set(Some(tx.savepoint()));
        }
        let mut tx = RefMut::map(slot, |tx| tx.as_mut().expect("just begun"));
        // A table read may have left another level in force.
        tx.set_read_isolation(default_level);
        self.dependencies.set(Some(tx.dependencies()));
        Ok(tx)
    }

    /// Sends a row to the client once the statement's transaction has no
    /// unresolved commit dependency: a row read speculatively from a
    /// transaction still committing waits for its outcome, and if that
    /// transaction aborted the statement fails with 41301 instead (the
    /// client never sees a row its transaction could not commit). Every
    /// row of a result set goes through here.
    pub fn send_row(&self, sink: &mut dyn ResultSink, row: &[Value]) -> SqlResult<()> {
        self.settle_dependencies()?;
        sink.row(row);
        Ok(())
    }

    fn settle_dependencies(&self) -> SqlResult<()> {
        match self.transaction.try_borrow() {
            Ok(tx) => tx.as_ref().map_or(Ok(()), Transaction::settle_dependencies),
            // A scan streaming this row holds the transaction; it took it
            // through `transaction`, which noted its dependencies.
            Err(_) => match self.dependencies.get() {
                Some(dependencies) => self.engine.settle_dependencies(dependencies),
                None => Err(in_use()),
            },
        }
    }

    /// The statement's transaction, set to read `table` at the level its
    /// reference's table hint (`hint`) and the session's rules give; SQL
    /// Server's error when they forbid the read (see `exec::isolation`).
    pub fn reading(
        &self,
        table: &TableMeta,
        hint: Option<ast::IsolationLevel>,
    ) -> SqlResult<RefMut<'_, Transaction>> {
        let level = self.isolation.read_level(table, hint)?;
        let mut tx = self.transaction()?;
        tx.set_read_isolation(level);
        if self.options.statistics_io && !table.memory_optimized {
            self.reads.borrow_mut().count(&table.name);
        }
        Ok(tx)
    }

    /// The table reads SET STATISTICS IO reports.
    pub fn take_reads(&self) -> TableReads {
        self.reads.take()
    }

    /// Whether the statement may write `table` (Msg 41332 when not).
    pub fn check_access(&self, table: &TableMeta) -> SqlResult<()> {
        self.isolation.check_access(table)
    }

    /// Commits what the statement did, if it touched a table and the
    /// transaction is its own.
    pub fn commit(&self) -> SqlResult<()> {
        if !self.owns_transaction {
            return Ok(());
        }
        match self.transaction.borrow_mut().take() {
            Some(tx) => tx.commit().map(|_| ()),
            None => Ok(()),
        }
    }

    /// Registers the id of a row read from an UPDATE's or DELETE's target;
    /// the number its plan carries it as.
    pub fn register_row(&self, id: RowId) -> i64 {
        let mut ids = self.row_ids.borrow_mut();
        ids.push(id);
        ids.len() as i64 - 1
    }

    /// The row id registered as `number`.
    pub fn row_id(&self, number: i64) -> Option<RowId> {
        let index = usize::try_from(number).ok()?;
        self.row_ids.borrow().get(index).copied()
    }

    /// Sets the rows recursive CTE `id`'s next step reads.
    pub fn set_working(&self, id: usize, rows: Rc<Vec<Vec<Value>>>) {
        self.working.borrow_mut().insert(id, rows);
    }

    /// The rows recursive CTE `id`'s current step reads.
    pub fn working(&self, id: usize) -> Rc<Vec<Vec<Value>>> {
        self.working.borrow().get(&id).cloned().unwrap_or_default()
    }

    /// The rows of an uncorrelated subquery, computed on first use.
    pub fn cached_rows(
        &self,
        key: usize,
        compute: impl FnOnce() -> SqlResult<Vec<Vec<Value>>>,
    ) -> SqlResult<Rc<Vec<Vec<Value>>>> {
        if let Some(rows) = self.cached.borrow().get(&key) {
            return Ok(Rc::clone(rows));
        }
        let rows = Rc::new(compute()?);
        self.cached.borrow_mut().insert(key, Rc::clone(&rows));
        Ok(rows)
    }
}

/// Msg 8630: the planner let an operator use the transaction while
/// another held it.
fn in_use() -> SqlError {
    SqlError::new(
        8630,
        16,
        1,
        "Internal Query Processor Error: the statement's transaction is already in use.",
    )
}

/// The memory an operator (a sort, a hash table) holds, counted against
/// the request's memory limit while the operator runs and given back when
/// it is dropped; past the limit, Msg 701.
pub struct MemoryCharge<'c, 'a> {
    context: &'c Context<'a>,
    bytes: u64,
}

impl MemoryCharge<'_, '_> {
    /// Counts a row the operator keeps.
    pub fn add_row(&mut self, row: &[Value]) -> SqlResult<()> {
        self.add_bytes(row_bytes(row))
    }

    /// Counts `bytes` more the operator keeps.
    pub fn add_bytes(&mut self, bytes: u64) -> SqlResult<()> {
        let held = self.context.memory_held.get() + bytes;
        if held > self.context.engine.request_memory_limit() {
            return Err(hekla_engine::errors::insufficient_system_memory());
        }
        self.context.memory_held.set(held);
        self.bytes += bytes;
        Ok(())
    }
}

impl Drop for MemoryCharge<'_, '_> {
    fn drop(&mut self) {
        let held = &self.context.memory_held;
        held.set(held.get().saturating_sub(self.bytes));
    }
}

/// About what a kept row takes: its values, and the text and bytes they
/// point to.
pub fn row_bytes(row: &[Value]) -> u64 {
    let heap: usize = row
        .iter()
        .map(|value| match value {
            Value::String(text) => text.len(),
            Value::Binary(bytes) => bytes.len(),
            _ => 0,
        })
        .sum();
    (std::mem::size_of_val(row) + heap) as u64
}
