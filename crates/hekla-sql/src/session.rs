//! Databases and sessions: the embedded SQL API. A [`SqlDatabase`] is an
//! engine database plus its SQL catalog; a [`Session`] runs batches against
//! it and reports what happens to a [`ResultSink`], the way SQL Server
//! streams results, DONE counts, messages and errors to a client.

use crate::ast::{self, StatementKind};
use crate::bind::variables::Variables;
use crate::catalog::store::{ObjectStore, ObjectType};
use crate::catalog::table::{TableDesign, TableMeta};
use crate::catalog::{stored_object, Catalog};
use crate::error::SyntaxError;
use crate::exec::context::{Context, SessionState};
use crate::exec::not_yet;
use crate::plan::Planner;
use hekla_engine::{Database, DatabaseConfig, IsolationLevel, StorageConfig};
use hekla_types::{DataType, SqlError, SqlResult, Value};
use std::path::Path;
use std::sync::{Arc, RwLock};

/// A column of a result set.
#[derive(Clone, Debug, PartialEq)]
pub struct ResultColumn {
    pub name: String,
    pub data_type: DataType,
    pub nullable: bool,
}

/// An error as a client sees it: SQL Server's number, severity, state and
/// text, with the batch line and the procedure it happened in.
#[derive(Clone, Debug, PartialEq)]
pub struct ErrorEvent {
    pub error: SqlError,
    pub line: u32,
    pub procedure: Option<String>,
}

impl ErrorEvent {
    fn from_syntax(error: SyntaxError) -> ErrorEvent {
        ErrorEvent {
            error: SqlError::new(error.number, error.level, error.state, error.message),
            line: error.line,
            procedure: error.procedure,
        }
    }
}

/// The two lines sqlcmd prints for an error.
impl std::fmt::Display for ErrorEvent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let e = &self.error;
        write!(
            f,
            "Msg {}, Level {}, State {}, ",
            e.number, e.severity, e.state
        )?;
        if let Some(procedure) = &self.procedure {
            write!(f, "Procedure {procedure}, ")?;
        }
        write!(f, "Line {}\n{}", self.line, e.message)
    }
}

/// Where a session's results go, in order.
pub trait ResultSink {
    /// A result set starts.
    fn columns(&mut self, columns: &[ResultColumn]);
    fn row(&mut self, values: &[Value]);
    /// A statement finished; `rows` is its row count when it has one
    /// (a query or DML) and `SET NOCOUNT` is off.
    fn done(&mut self, rows: Option<u64>);
    /// PRINT and informational messages.
    fn message(&mut self, text: &str);
    fn error(&mut self, error: &ErrorEvent);
}

/// An engine database with its SQL catalog, shared by sessions.
pub struct SqlDatabase {
    engine: Arc<Database>,
    store: ObjectStore,
    catalog: RwLock<Catalog>,
    /// Every session's `#temp` and `##global` tables.
    temp: crate::catalog::temp::TempTables,
    /// Statements hold it shared, table rebuilds alone (Sch-S / Sch-M).
    schema_lock: crate::catalog::alter::SchemaLock,
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
        let catalog = Catalog::load(&engine, &store)?;
        let db = Arc::new(SqlDatabase {
            engine: Arc::new(engine),
            store,
            catalog: RwLock::new(catalog),
            temp: Default::default(),
            schema_lock: Default::default(),
        });
        crate::catalog::view::bind_restored(&db);
        Ok(db)
    }

    pub fn engine(&self) -> &Arc<Database> {
        &self.engine
    }

    /// A read view of the catalog.
    pub fn catalog(&self) -> std::sync::RwLockReadGuard<'_, Catalog> {
        self.catalog.read().expect("catalog lock")
    }

    /// The catalog, for DDL to change.
    pub(crate) fn catalog_mut(&self) -> std::sync::RwLockWriteGuard<'_, Catalog> {
        self.catalog.write().expect("catalog lock")
    }

    /// Where object definitions are stored.
    pub(crate) fn object_store(&self) -> &ObjectStore {
        &self.store
    }

    /// The schema lock (see `catalog::alter::gate`).
    pub(crate) fn schema_lock(&self) -> &crate::catalog::alter::SchemaLock {
        &self.schema_lock
    }

    /// The temporary tables of every session.
    pub(crate) fn temp_tables(&self) -> &crate::catalog::temp::TempTables {
        &self.temp
    }

    /// Creates the engine table, then commits its definition; if that
    /// fails the engine table goes again (and a crash in between is undone
    /// at the next open, see [`Catalog::load`]).
    pub(crate) fn create_table(
        &self,
        create: &ast::CreateTable,
        text: &str,
    ) -> SqlResult<Arc<TableMeta>> {
        let mut catalog = self.catalog.write().expect("catalog lock");
        let schema = create.name.schema().map_or("dbo", |s| s.value.as_str());
        let name = &create.name.name().value;
        if let Some(schema_id) = catalog.schema_id(schema) {
            if catalog.object_exists(schema_id, name) {
                return Err(hekla_engine::errors::object_exists(name));
            }
        }
        let object_id = catalog.allocate_object_id()?;
        let design = TableDesign::bind(create, &catalog, object_id)?;
        let engine = self.engine.create_table(design.engine_def())?;
        let object = stored_object(
            object_id,
            design.schema_id,
            &design.name,
            ObjectType::Table,
            Some(engine.id),
            text,
        );
        let stored = self
            .engine
            .begin(IsolationLevel::Snapshot)
            .and_then(|mut tx| {
                self.store.insert(&mut tx, &object)?;
                tx.commit()
            });
        if let Err(error) = stored {
            let _ = self.engine.drop_table(engine.id);
            return Err(error);
        }
        catalog.add_table(TableMeta::new(design, object_id, engine, text));
        Ok(Arc::clone(
            catalog.table_by_id(object_id).expect("just added"),
        ))
    }

    /// A new session; Msg 17809 when every session id is taken.
    pub fn session(self: &Arc<Self>) -> SqlResult<Session> {
        let registration = crate::system_views::sessions::register(self)?;
        let state = SessionState {
            spid: registration.session_id(),
            ..SessionState::default()
        };
        Ok(Session {
            registration,
            db: Arc::clone(self),
            nocount: false,
            xact_abort: false,
            showplan: false,
            variables: Variables::for_session(state.spid),
            state,
        })
    }
}

/// One connection's state.
pub struct Session {
    /// Its row in sys.dm_exec_sessions; declared first so the session
    /// leaves the registry before its database can go.
    registration: crate::system_views::sessions::SessionHandle,
    db: Arc<SqlDatabase>,
    /// `SET NOCOUNT ON`: no row counts in DONE.
    nocount: bool,
    /// `SET SHOWPLAN_TEXT ON`: queries show their plans instead of running.
    showplan: bool,
    /// `SET XACT_ABORT ON`: an error ends the rest of the batch too.
    xact_abort: bool,
    /// The running batch's local variables.
    variables: Variables,
    /// What `@@SPID`, `@@ROWCOUNT`, `@@ERROR` and `@@IDENTITY` read.
    state: SessionState,
}

impl Session {
    /// Runs one batch (text between `GO` lines). A syntax error stops the
    /// batch before anything runs; a failing statement reports its error
    /// and the batch goes on with the next one, as in SQL Server.
    pub fn execute(&mut self, batch: &str, sink: &mut dyn ResultSink) {
        self.variables = Variables::for_session(self.state.spid);
        let parsed = match crate::parse_batch(batch) {
            Ok(parsed) => parsed,
            Err(error) => return sink.error(&ErrorEvent::from_syntax(error)),
        };
        for statement in &parsed.statements {
            let text = statement.span.text(batch);
            self.registration.begin_request(statement.kind.keywords());
            let outcome = self
                .statement(statement, text, sink)
                .map_err(|error| crate::catalog::temp::present_error(&self.variables, error));
            self.registration.end_request();
            self.record_outcome(&statement.kind, &outcome);
            match outcome {
                Ok(rows) => sink.done(rows.filter(|_| !self.nocount)),
                Err(error) => {
                    // With XACT_ABORT ON an error aborts the batch, which
                    // SQL Server reports without "terminated".
                    let aborts_batch = self.xact_abort && error.severity >= 11;
                    let terminated = !aborts_batch && terminates_statement(&statement.kind, &error);
                    sink.error(&ErrorEvent {
                        error,
                        line: statement.span.line,
                        procedure: crate::catalog::view::procedure_of(&statement.kind),
                    });
                    if terminated {
                        sink.message("The statement has been terminated.");
                    }
                    if aborts_batch {
                        break;
                    }
                }
            }
        }
        crate::catalog::temp::end_batch(&self.db, &mut self.variables);
    }

    /// What `@@ROWCOUNT` and `@@ERROR` say after a statement. DECLARE
    /// leaves them alone; other statements without a row count set
    /// `@@ROWCOUNT` to 0, as SET and PRINT do in SQL Server.
    fn record_outcome(&mut self, kind: &StatementKind, outcome: &SqlResult<Option<u64>>) {
        match outcome {
            Ok(_)
                if matches!(
                    kind,
                    StatementKind::Declare(_) | StatementKind::DeclareTable { .. }
                ) => {}
            Ok(rows) => {
                self.state.rowcount = rows.map_or(0, |n| i64::try_from(n).unwrap_or(i64::MAX));
                self.state.error = 0;
            }
            Err(error) => {
                self.state.rowcount = 0;
                self.state.error = i32::try_from(error.number).unwrap_or(i32::MAX);
            }
        }
    }

    /// Runs one statement; the row count for DONE, if it has one.
    fn statement(
        &mut self,
        statement: &ast::Statement,
        text: &str,
        sink: &mut dyn ResultSink,
    ) -> SqlResult<Option<u64>> {
        let db = Arc::clone(&self.db);
        let _schema_stability = crate::catalog::alter::stability(&db, &statement.kind);
        match &statement.kind {
            StatementKind::Select(select) => self.select(select, text, sink),
            StatementKind::Insert(insert) => self.in_statement(|context, planner| {
                crate::exec::insert::run(context, planner, insert, sink)
            }),
            StatementKind::Update(update) => self.in_statement(|context, planner| {
                crate::exec::modify::update(context, planner, update, sink)
            }),
            StatementKind::Delete(delete) => self.in_statement(|context, planner| {
                crate::exec::modify::delete(context, planner, delete, sink)
            }),
            StatementKind::DeclareTable { variable, elements } => {
                crate::catalog::temp::declare_table(
                    &self.db,
                    &mut self.variables,
                    variable,
                    elements,
                )?;
                Ok(None)
            }
            StatementKind::Declare(declarations) => {
                crate::exec::variables::declare(
                    &self.db,
                    declarations,
                    &mut self.variables,
                    &self.state,
                )?;
                Ok(None)
            }
            StatementKind::SetVariable {
                variable,
                op,
                value,
            } => {
                crate::exec::variables::set(
                    &self.db,
                    variable,
                    *op,
                    value,
                    &mut self.variables,
                    &self.state,
                )?;
                Ok(None)
            }
            StatementKind::Print(expr) => {
                let planner = Planner::new(&self.db, &self.variables);
                let bound = crate::exec::variables::binder(&planner).scalar(expr)?;
                let value = crate::exec::variables::evaluate(
                    &self.db,
                    &self.variables,
                    &self.state,
                    &bound,
                )?;
                let text = hekla_types::convert::to_text(&value, &bound.data_type)?;
                sink.message(text.as_deref().unwrap_or(""));
                Ok(None)
            }
            StatementKind::CreateSchema {
                name,
                authorization,
            } => {
                if authorization.is_some() {
                    return Err(not_yet("CREATE SCHEMA ... AUTHORIZATION"));
                }
                self.create_schema(&name.value)?;
                Ok(None)
            }
            StatementKind::CreateTable(create) if crate::catalog::temp::is_temp(&create.name) => {
                let (_, messages) =
                    crate::catalog::temp::create(&self.db, self.state.spid, create)?;
                for message in messages {
                    sink.message(&message);
                }
                Ok(None)
            }
            StatementKind::CreateTable(create) => {
                self.db.create_table(create, text)?;
                Ok(None)
            }
            StatementKind::Drop {
                object_type: ast::DropType::Table,
                if_exists,
                names,
                ..
            } => {
                for name in names {
                    self.drop_table(name, *if_exists)?;
                }
                Ok(None)
            }
            StatementKind::CreateSequence(create) => {
                crate::catalog::sequence::create(&self.db, create, text)?;
                Ok(None)
            }
            StatementKind::Drop {
                object_type: ast::DropType::Sequence,
                if_exists,
                names,
                ..
            } => {
                crate::catalog::sequence::drop(&self.db, names, *if_exists)?;
                Ok(None)
            }
            StatementKind::CreateView(create) => {
                crate::catalog::view::create(&self.db, create, text)?;
                Ok(None)
            }
            StatementKind::Drop {
                object_type: ast::DropType::View,
                if_exists,
                names,
                ..
            } => {
                crate::catalog::view::drop(&self.db, names, *if_exists)?;
                Ok(None)
            }
            StatementKind::SetOption { options, value } => self.set_option(options, value),
            kind if crate::catalog::alter::rebuilds(kind) => {
                crate::catalog::alter::run(&self.db, statement, sink)
            }
            _ => Err(not_yet(statement.kind.keywords())),
        }
    }

    /// A query, an assignment SELECT, or (with SHOWPLAN_TEXT) its plan.
    fn select(
        &mut self,
        select: &ast::SelectStatement,
        text: &str,
        sink: &mut dyn ResultSink,
    ) -> SqlResult<Option<u64>> {
        if crate::exec::select_into::target(select).is_some() && !self.showplan {
            return self.select_into(select);
        }
        let planner = Planner::new(&self.db, &self.variables);
        if is_assignment(select) {
            let (plan, slots) = planner.assignment(select)?;
            let context = self.context();
            crate::exec::variables::assign_rows(&context, &plan, &slots)?;
            context.commit()?;
            for (slot, value) in context.into_variables().into_iter().enumerate() {
                self.variables.assign(slot, value);
            }
            return Ok(None);
        }
        let plan = planner.statement(select)?;
        if self.showplan {
            let operators = crate::plan::explain::explain(&self.db, &plan, &self.variables);
            show_plan(text, operators, sink);
            return Ok(None);
        }
        let context = self.context();
        let rows = crate::exec::select::run(&context, &plan, sink)?;
        context.commit()?;
        Ok(rows)
    }

    /// `SELECT ... INTO t`: creates `t` and fills it, in one statement.
    fn select_into(&mut self, select: &ast::SelectStatement) -> SqlResult<Option<u64>> {
        let context = self.context();
        let planner = Planner::new(&self.db, &self.variables);
        let outcome = crate::exec::select_into::run(&context, &planner, select);
        if let Some(identity) = context.last_identity() {
            self.state.identity = Some(identity);
        }
        outcome
    }

    /// Runs a data-changing statement in its own transaction: committed
    /// if it succeeds, rolled back (nothing changed) if it fails.
    fn in_statement(
        &mut self,
        body: impl FnOnce(&Context, &Planner) -> SqlResult<Option<u64>>,
    ) -> SqlResult<Option<u64>> {
        let planner = Planner::new(&self.db, &self.variables);
        let context = self.context();
        let outcome = body(&context, &planner).and_then(|rows| {
            context.commit()?;
            Ok(rows)
        });
        // An identity handed out stays handed out, even if the statement
        // then failed (as in SQL Server).
        if let Some(identity) = context.last_identity() {
            self.state.identity = Some(identity);
        }
        outcome
    }

    /// A statement's context: the database, the variables, the session.
    fn context(&self) -> Context<'_> {
        Context::new(&self.db, self.variables.values()).with_session(&self.state)
    }

    fn create_schema(&self, name: &str) -> SqlResult<()> {
        let mut catalog = self.db.catalog.write().expect("catalog lock");
        let id = self.db.engine.create_schema(name)?;
        catalog.add_schema(id, name);
        Ok(())
    }

    /// Deletes the definition first, then the engine table: a crash in
    /// between leaves an engine table without a definition, which the next
    /// open drops.
    fn drop_table(&self, name: &ast::ObjectName, if_exists: bool) -> SqlResult<()> {
        if crate::catalog::temp::is_temp(name) {
            return crate::catalog::temp::drop(&self.db, self.state.spid, name, if_exists);
        }
        let mut catalog = self.db.catalog.write().expect("catalog lock");
        let schema = name.schema().map_or("dbo", |s| s.value.as_str());
        let table = catalog
            .schema_id(schema)
            .and_then(|schema_id| catalog.table(schema_id, &name.name().value))
            .cloned();
        let Some(table) = table else {
            if if_exists {
                return Ok(());
            }
            crate::catalog::view::refuse_drop_table(&catalog, name)?;
            return Err(SqlError::new(
                3701,
                11,
                5,
                format!(
                    "Cannot drop the table '{}', because it does not exist or you do not have permission.",
                    name.name().value
                ),
            ));
        };
        crate::catalog::view::refuse_if_bound(&catalog, table.object_id, "DROP TABLE", name)?;
        crate::exec::constraints::prepare_drop(&catalog, &table, name)?;
        let mut tx = self.db.engine.begin(IsolationLevel::Snapshot)?;
        self.db.store.delete(&mut tx, table.object_id)?;
        tx.commit()?;
        catalog.remove_table(table.object_id);
        self.db.engine.drop_table(table.engine.id)
    }

    fn set_option(
        &mut self,
        options: &[ast::Ident],
        value: &ast::OptionValue,
    ) -> SqlResult<Option<u64>> {
        let on = match value {
            ast::OptionValue::Words(words) if words.len() == 1 => {
                match words[0].value.to_ascii_uppercase().as_str() {
                    "ON" => true,
                    "OFF" => false,
                    _ => return Err(not_yet("this SET option value")),
                }
            }
            _ => return Err(not_yet("this SET option value")),
        };
        for option in options {
            match option.value.to_ascii_uppercase().as_str() {
                "NOCOUNT" => self.nocount = on,
                "SHOWPLAN_TEXT" => self.showplan = on,
                "XACT_ABORT" => self.xact_abort = on,
                other => return Err(not_yet(&format!("SET {other}"))),
            }
        }
        Ok(None)
    }
}

/// A session's `#temp` and `##global` tables go with it.
impl Drop for Session {
    fn drop(&mut self) {
        crate::catalog::temp::end_batch(&self.db, &mut self.variables);
        crate::catalog::temp::end_session(&self.db, self.state.spid);
    }
}

/// SHOWPLAN_TEXT's two result sets: the statement, then its operators.
fn show_plan(statement: &str, operators: Vec<String>, sink: &mut dyn ResultSink) {
    let column = [ResultColumn {
        name: "StmtText".to_string(),
        data_type: DataType::NVarChar {
            len: hekla_types::Length::Max,
            collation: hekla_types::Collation::default(),
        },
        nullable: true,
    }];
    sink.columns(&column);
    sink.row(&[Value::String(statement.to_string())]);
    sink.done(None);
    sink.columns(&column);
    for line in operators {
        sink.row(&[Value::String(line)]);
    }
}

/// True if SQL Server follows `error` with its informational message 3621,
/// "The statement has been terminated.": a data-changing statement that
/// failed while changing rows (a key, constraint, conversion, arithmetic
/// or conflict error), not one that never ran (a name or syntax error).
fn terminates_statement(kind: &StatementKind, error: &SqlError) -> bool {
    let changes_rows = matches!(
        kind,
        StatementKind::Insert(_) | StatementKind::Update(_) | StatementKind::Delete(_)
    );
    const WHILE_CHANGING_ROWS: &[u32] = &[
        220, 232, 245, 512, 515, 517, 535, 547, 550, 2601, 2627, 2628, 8114, 8115, 8134, 8152,
        41301, 41302, 41305, 41325,
    ];
    changes_rows && WHILE_CHANGING_ROWS.contains(&error.number)
        || crate::catalog::alter::terminates(kind, error)
}

/// `SELECT @v = ...`: every item assigns a variable.
fn is_assignment(select: &ast::SelectStatement) -> bool {
    match &select.query.body {
        ast::QueryBody::Select(body) => body
            .items
            .iter()
            .any(|item| matches!(item, ast::SelectItem::Assign { .. })),
        _ => false,
    }
}
