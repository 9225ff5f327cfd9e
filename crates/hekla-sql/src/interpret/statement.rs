//! Statements that do work: queries, DML, DDL, DECLARE / SET, PRINT and
//! the transaction statements. Each reports its DONE (with its row count
//! unless `SET NOCOUNT ON`) and sets `@@ROWCOUNT` / `@@ERROR`.
//!
//! Everything that reads or writes tables runs in a [`Context`] holding
//! the session's user transaction when one is open (else its own, committed
//! at the end): a failing statement undoes only what it did.

use super::kept_plans::{Kept, TableVariables};
use super::showplan::show_plan;
use super::{Flow, Frame, Interpreter};
use crate::ddl::temp::VariableShape;
use crate::interpret::failure::Failure;
use hekla_exec::context::Context;
use hekla_exec::eval::Evaluate;
use hekla_exec::eval::Inputs;
use hekla_parser::ast::{self, StatementKind};
use hekla_plan::bind::expr::{implicit, Scalar, ScalarKind};
use hekla_plan::bind::variables::Variables;
use hekla_plan::error::{not_supported_yet, Refused};
use hekla_plan::plan::change::{DeletePlan, InsertPlan, UpdatePlan};
use hekla_plan::plan::context::PlanContext;
use hekla_plan::plan::Planner;
use hekla_plan::result::{ResultSink, StatementCommand};
use hekla_types::{DataType, SqlError, SqlResult, Value};
use std::sync::Arc;

impl Interpreter<'_> {
    /// A statement without control flow of its own.
    pub(super) fn simple(
        &mut self,
        statement: &ast::Statement,
        frame: &mut Frame,
    ) -> Result<Flow, Failure> {
        let text = statement.span.text(frame.source);
        self.session
            .registration
            .begin_request(statement.kind.keywords());
        let measured = reports_statistics(&statement.kind);
        let stopwatch = (measured && self.session.options.statistics_time)
            .then(crate::statistics::Stopwatch::start);
        let db = Arc::clone(&self.session.db);
        let dropping = crate::security::ddl::dropped_objects(&*db, &statement.kind);
        let mut failed_on_rows = false;
        let outcome = self
            .holding_schema_stability(statement, text, frame, &mut failed_on_rows)
            .and_then(|rows| {
                crate::security::grants::forget_dropped(&*db, &dropping)?;
                Ok(rows)
            })
            .map_err(|error| frame.variables.present_error(error));
        let open_transactions = self.session.transaction.count();
        self.session.registration.end_request(open_transactions);
        self.record_outcome(&statement.kind, &outcome);
        self.report_transaction();
        if let Err(error) = &outcome {
            if hekla_plan::cancel::is_cancelled(error) {
                self.session.take_messages();
                return Err(self.failure(error.clone(), statement, frame));
            }
        }
        for message in self.session.take_messages() {
            self.sink.message(&message);
        }
        let reads = std::mem::take(&mut self.session.reads);
        match outcome {
            Ok(rows) => {
                self.sink.statement_done(
                    statement_command(&statement.kind),
                    rows.filter(|_| !self.session.options.nocount),
                );
                if measured {
                    for message in reads.messages() {
                        self.sink.message(&message);
                    }
                }
                if let Some(stopwatch) = stopwatch {
                    self.sink.message(&stopwatch.execution_message());
                }
                Ok(Flow::Next)
            }
            Err(error) => {
                let mut failure = self.failure(error, statement, frame);
                // A rebuild that failed copying a row (see `ddl::alter`).
                failure.terminated |= failed_on_rows && !self.session.options.xact_abort;
                Err(failure)
            }
        }
    }

    /// What `@@ROWCOUNT` and `@@ERROR` say after a statement. DECLARE
    /// leaves them alone; other statements without a row count set
    /// `@@ROWCOUNT` to 0, as SET and PRINT do in SQL Server.
    fn record_outcome(&mut self, kind: &StatementKind, outcome: &SqlResult<Option<u64>>) {
        let state = &mut self.session.state;
        match outcome {
            Ok(_)
                if matches!(
                    kind,
                    StatementKind::Declare(_) | StatementKind::DeclareTable { .. }
                ) => {}
            Ok(rows) => {
                state.rowcount = rows.map_or(0, |n| i64::try_from(n).unwrap_or(i64::MAX));
                state.error = 0;
            }
            Err(error) => {
                state.rowcount = 0;
                state.error = i32::try_from(error.number).unwrap_or(i32::MAX);
            }
        }
    }

    /// Runs one statement (see [`Self::work`]) holding the schema lock
    /// shared, unless a statement it runs inside holds it already.
    fn holding_schema_stability(
        &mut self,
        statement: &ast::Statement,
        text: &str,
        frame: &mut Frame,
        failed_on_rows: &mut bool,
    ) -> SqlResult<Option<u64>> {
        let db = Arc::clone(&self.session.db);
        let inside_statement = self.session.holds_schema_stability;
        let stability = if inside_statement {
            None
        } else {
            crate::ddl::alter::stability(&*db, &statement.kind)
        };
        self.session.holds_schema_stability = inside_statement || stability.is_some();
        let outcome = self.work(statement, text, frame, inside_statement, failed_on_rows);
        self.session.holds_schema_stability = inside_statement;
        outcome
    }

    /// Runs one statement; the row count for DONE, if it has one. A
    /// rebuild inside another statement is refused; one that fails on a
    /// row sets `failed_on_rows`.
    fn work(
        &mut self,
        statement: &ast::Statement,
        text: &str,
        frame: &mut Frame,
        inside_statement: bool,
        failed_on_rows: &mut bool,
    ) -> SqlResult<Option<u64>> {
        let db = Arc::clone(&self.session.db);
        self.begin_implicit_transaction(&statement.kind)?;
        if is_ddl(&statement.kind) && self.session.transaction.is_open() {
            return Err(ddl_in_transaction());
        }
        // DDL is checked against the caller inside procedures too: the
        // ownership chain covers data access only, as in SQL Server.
        let caller = &self.session.state.principal;
        crate::security::ddl::check(
            &*db,
            caller,
            crate::security::access::access_of(caller).as_ref(),
            &statement.kind,
        )?;
        match &statement.kind {
            StatementKind::Select(select) => self.select(select, statement, text, frame),
            StatementKind::Insert(insert) => self.change(
                statement,
                frame,
                |planner| planner.insert(insert),
                InsertPlan::writes_temporary,
                hekla_plan::plan::explain::explain_insert,
                hekla_exec::insert::run,
            ),
            StatementKind::Update(update) => self.change(
                statement,
                frame,
                |planner| planner.update(update),
                UpdatePlan::writes_temporary,
                hekla_plan::plan::explain::explain_update,
                hekla_exec::modify::update,
            ),
            StatementKind::Delete(delete) => self.change(
                statement,
                frame,
                |planner| planner.delete(delete),
                DeletePlan::writes_temporary,
                hekla_plan::plan::explain::explain_delete,
                hekla_exec::modify::delete,
            ),
            StatementKind::Truncate(name) => self.truncate(name, frame),
            StatementKind::DeclareTable { variable, elements } => {
                if !frame.variables.was_declared(statement.span) {
                    crate::ddl::temp::declare_table(
                        &*db,
                        &mut frame.variables,
                        variable,
                        &VariableShape::declared(elements),
                    )?;
                    frame.variables.mark_declared(statement.span);
                }
                Ok(None)
            }
            StatementKind::Declare(declarations) => {
                // A DECLARE of one variable keeps its binding as a plan; in
                // one of several, a later value may read an earlier one, so
                // each binds over the variables as they are then.
                let keeps_binding = declarations.len() == 1;
                for (ordinal, declaration) in declarations.iter().enumerate() {
                    self.declare(statement, declaration, ordinal, keeps_binding, frame)?;
                }
                Ok(None)
            }
            StatementKind::SetVariable {
                variable,
                op,
                value,
            } => {
                let (assignment, tables) = self.planned(
                    statement,
                    frame,
                    |planner| hekla_exec::variables::assignment(planner, variable, *op, value),
                    |_| true,
                )?;
                let (slot, scalar) = &*assignment;
                let value = self.evaluate_reading(scalar, frame, tables)?;
                frame.variables.assign_checked(*slot, value)?;
                Ok(None)
            }
            StatementKind::Print(expr) => {
                let text = self.print_text(expr, frame)?;
                self.sink.message(&text);
                Ok(None)
            }
            StatementKind::BeginTransaction { name } => {
                let name = self.transaction_name(name.as_ref(), frame)?;
                self.session.transaction.begin(name.as_deref())?;
                Ok(None)
            }
            StatementKind::Commit { options, .. } => {
                let delayed = delayed_durability(options)?;
                self.session.transaction.commit(delayed)?;
                Ok(None)
            }
            StatementKind::Rollback { name } => {
                let name = self.transaction_name(name.as_ref(), frame)?;
                self.session.transaction.rollback(name.as_deref())?;
                Ok(None)
            }
            StatementKind::SaveTransaction { name } => {
                let name = self
                    .transaction_name(Some(name), frame)?
                    .unwrap_or_default();
                let isolation = self.session.engine_isolation();
                self.session
                    .transaction
                    .save(&name, db.engine(), isolation)?;
                Ok(None)
            }
            StatementKind::SetTransactionIsolation(level) => {
                self.session.options.isolation = *level;
                Ok(None)
            }
            StatementKind::SetIdentityInsert { table, on } => {
                let target = super::identity_insert::insert_target(
                    &db,
                    &frame.variables,
                    table,
                    *on,
                    self.session.options.identity_insert,
                )?;
                self.session.options.identity_insert = target;
                Ok(None)
            }
            StatementKind::WaitFor { delay, time } => {
                self.wait_for(*delay, time, frame)?;
                Ok(None)
            }
            StatementKind::CreateSchema {
                name,
                authorization,
            } => {
                let owner = authorization.as_ref().map(|owner| owner.value.as_str());
                crate::ddl::schema::create(&*db, &name.value, owner)?;
                Ok(None)
            }
            StatementKind::CreateTable(create)
                if hekla_plan::catalog::temp::is_temp(&create.name) =>
            {
                let (_, messages) =
                    crate::ddl::temp::create(&*db, self.session.state.spid, create)?;
                for message in messages {
                    self.sink.message(&message);
                }
                Ok(None)
            }
            StatementKind::CreateTable(create) => {
                crate::ddl::table::create(&*db, create, text)?;
                Ok(None)
            }
            StatementKind::Drop {
                object_type: ast::DropType::Table,
                if_exists,
                names,
                ..
            } => {
                for name in names {
                    crate::ddl::table::drop(&*db, self.session.state.spid, name, *if_exists)?;
                }
                Ok(None)
            }
            StatementKind::CreateSequence(create) => {
                crate::ddl::sequence::create(&*db, create, text)?;
                Ok(None)
            }
            StatementKind::Drop {
                object_type: ast::DropType::Sequence,
                if_exists,
                names,
                ..
            } => {
                crate::ddl::sequence::drop(&*db, names, *if_exists)?;
                Ok(None)
            }
            StatementKind::CreateView(create) => {
                crate::ddl::view::create(&*db, create, text)?;
                Ok(None)
            }
            StatementKind::Drop {
                object_type: ast::DropType::View,
                if_exists,
                names,
                ..
            } => {
                crate::ddl::view::drop(&*db, names, *if_exists)?;
                Ok(None)
            }
            StatementKind::CreateTableType(_) | StatementKind::CreateAliasType { .. } => {
                crate::ddl::user_type::create(&*db, &statement.kind, text)?;
                Ok(None)
            }
            StatementKind::Drop {
                object_type: ast::DropType::Type,
                if_exists,
                names,
                ..
            } => {
                crate::ddl::user_type::drop(&*db, names, *if_exists)?;
                Ok(None)
            }
            StatementKind::CreateProcedure(create) => {
                crate::ddl::procedure::create(&*db, create, text)?;
                Ok(None)
            }
            StatementKind::Drop {
                object_type: ast::DropType::Procedure,
                if_exists,
                names,
                ..
            } => {
                crate::ddl::procedure::drop(&*db, names, *if_exists)?;
                Ok(None)
            }
            StatementKind::CreateFunction(create) => {
                crate::ddl::function::create(&*db, create, text)?;
                Ok(None)
            }
            StatementKind::Drop {
                object_type: ast::DropType::Function,
                if_exists,
                names,
                ..
            } => {
                crate::ddl::function::drop(&*db, names, *if_exists)?;
                Ok(None)
            }
            StatementKind::Use(database) => {
                hekla_plan::catalog::databases::use_database(database, self.sink)?;
                Ok(None)
            }
            StatementKind::CreateDatabase(create) => {
                let in_transaction = self.session.transaction.is_open();
                crate::ddl::database::create(create, in_transaction)?;
                Ok(None)
            }
            StatementKind::Drop {
                object_type: ast::DropType::Database,
                if_exists,
                names,
                ..
            } => {
                let in_transaction = self.session.transaction.is_open();
                crate::ddl::database::drop(names, *if_exists, in_transaction)?;
                Ok(None)
            }
            StatementKind::AlterDatabase(alter) => {
                let in_transaction = self.session.transaction.is_open();
                let line = statement.span.line;
                crate::ddl::database_options::alter(&*db, alter, in_transaction, line, self.sink)?;
                Ok(None)
            }
            StatementKind::Dbcc {
                command,
                args,
                options,
            } => {
                let message = hekla_exec::dbcc::run(*command, args, options)?;
                // FREESYSTEMCACHE ('ALL') empties the plan cache too.
                if *command != ast::DbccCommand::DropCleanBuffers {
                    self.session.db.plan_cache().clear();
                }
                if let Some(message) = message {
                    self.sink.message(message);
                }
                Ok(None)
            }
            StatementKind::Checkpoint(duration) => {
                if let Some(duration) = duration {
                    // Only checked: the checkpoint runs as fast as it can.
                    self.checkpoint_duration(duration, frame)?;
                }
                // Seals and syncs the checkpoint file pairs; nothing to do
                // for a database without a data directory.
                db.engine().checkpoint()?;
                Ok(None)
            }
            StatementKind::CreateStatistics {
                name,
                table,
                columns,
                options,
            } => {
                crate::ddl::statistics::create(&*db, name, table, columns, options, text)?;
                Ok(None)
            }
            StatementKind::UpdateStatistics {
                table,
                target,
                options,
            } => {
                crate::ddl::statistics::update(&*db, table, target.as_ref(), options)?;
                Ok(None)
            }
            StatementKind::Drop {
                object_type: ast::DropType::Statistics,
                names,
                ..
            } => {
                crate::ddl::statistics::drop(&*db, names)?;
                Ok(None)
            }
            StatementKind::CreatePrincipal(create) => {
                crate::security::principal_statement(&*db, &self.session.state.principal, create)?;
                Ok(None)
            }
            StatementKind::AlterRole {
                role,
                add,
                member,
                server,
            } => {
                let alter = if *server {
                    crate::security::logins::alter_server_role
                } else {
                    crate::security::users::alter_role
                };
                alter(&*db, &self.session.state.principal, role, *add, member)?;
                Ok(None)
            }
            StatementKind::Permission(permission) => {
                crate::security::grants::run(&*db, &self.session.state.principal, permission)?;
                Ok(None)
            }
            StatementKind::Drop {
                object_type:
                    object_type @ (ast::DropType::Login | ast::DropType::User | ast::DropType::Role),
                if_exists,
                names,
                ..
            } => {
                crate::security::drop_principals(
                    &*db,
                    &self.session.state.principal,
                    *object_type,
                    names,
                    *if_exists,
                )?;
                Ok(None)
            }
            StatementKind::SetOption { options, value } => {
                self.session.set_option(options, value, &frame.variables)?;
                Ok(None)
            }
            kind if crate::ddl::alter::rebuilds(kind) => {
                crate::ddl::alter::run(&*db, statement, self.sink, inside_statement).map_err(
                    |rejected| {
                        *failed_on_rows = rejected.on_rows;
                        rejected.error
                    },
                )
            }
            _ => Err(not_supported_yet(
                Refused::Statement,
                statement.kind.keywords(),
            )),
        }
    }

    /// A query, an assignment SELECT, or (with SHOWPLAN_TEXT) its plan.
    fn select(
        &mut self,
        select: &ast::SelectStatement,
        statement: &ast::Statement,
        text: &str,
        frame: &mut Frame,
    ) -> SqlResult<Option<u64>> {
        let db = Arc::clone(&self.session.db);
        let showplan = self.session.options.showplan;
        if let Some(target) = select.into_target().filter(|_| !showplan) {
            if !hekla_plan::catalog::temp::is_temp(target) && self.session.transaction.is_open() {
                return Err(ddl_in_transaction());
            }
            let planner = self.session.planner(&db, &frame.variables);
            return self.session.in_context(&frame.variables, |context| {
                crate::ddl::select_into::run(&*db, context, &planner, select)
            });
        }
        if select.assigns_variables() && !showplan {
            let (plan, tables) = self.planned(
                statement,
                frame,
                |planner| planner.assignment(select),
                |_| true,
            )?;
            let (plan, slots) = &*plan;
            let values = self
                .session
                .running_plan(&frame.variables, tables, |context| {
                    hekla_exec::variables::assign_rows(context, plan, slots)?;
                    Ok(slots
                        .iter()
                        .map(|&slot| (slot, context.variable(slot)))
                        .collect::<Vec<_>>())
                })?;
            for (slot, value) in values {
                frame.variables.assign_checked(slot, value)?;
            }
            return Ok(None);
        }
        if showplan {
            let plan = self
                .session
                .planner(&db, &frame.variables)
                .statement(select)?;
            let operators = hekla_plan::plan::explain::explain(&*db, &plan, &frame.variables);
            show_plan(text, operators, self.sink);
            return Ok(None);
        }
        let (plan, tables) = self.planned(
            statement,
            frame,
            |planner| planner.statement(select),
            |_| true,
        )?;
        let sink = &mut *self.sink;
        self.session
            .running_plan(&frame.variables, tables, |context| {
                hekla_exec::select::run(context, &plan, sink)
            })
    }

    /// The plan `plan` makes for `statement`, or the one kept for it in
    /// its batch's or procedure's cached plan (see [`super::kept_plans`])
    /// with the tables its table variables hold now. The plan is kept
    /// (for the user whose permissions it checked) unless it depends on
    /// something a later run could change unseen (`reusable` says whether
    /// its own content allows it).
    fn planned<P: std::any::Any + Send + Sync>(
        &mut self,
        statement: &ast::Statement,
        frame: &Frame,
        plan: impl FnOnce(&Planner) -> SqlResult<P>,
        reusable: impl FnOnce(&P) -> bool,
    ) -> SqlResult<(Arc<P>, TableVariables)> {
        let db = Arc::clone(&self.session.db);
        let schema_version = db.schema_version();
        let access = self.session.access();
        let options = &self.session.options;
        let cached = frame
            .plan
            .as_ref()
            .and_then(|cached| Some((cached, cached.statement_slot(statement)?)));
        if let Some((cached, slot)) = cached {
            let kept = cached.bound_plan(slot).and_then(|kept| {
                Kept::reuse(kept, schema_version, &access, options, &frame.variables)
            });
            if let Some(kept) = kept {
                return Ok(kept);
            }
        }
        let planner = self.session.planner(&db, &frame.variables);
        let made = Arc::new(plan(&planner)?);
        if let Some((cached, slot)) = cached {
            if !planner.state.not_reusable.get() && reusable(&made) {
                let kept = Kept::bound(
                    Arc::clone(&made),
                    schema_version,
                    access,
                    options,
                    &frame.variables,
                );
                cached.keep_bound_plan(slot, kept);
            }
        }
        Ok((made, Vec::new()))
    }

    /// INSERT, UPDATE or DELETE: planned, then run with `run`; under
    /// SHOWPLAN_TEXT, the plan shown (by `explain`) instead.
    fn change<P: std::any::Any + Send + Sync>(
        &mut self,
        statement: &ast::Statement,
        frame: &Frame,
        plan: impl FnOnce(&Planner) -> SqlResult<P>,
        writes_temporary: fn(&P) -> bool,
        explain: fn(&dyn PlanContext, &P, &Variables) -> Vec<String>,
        run: fn(&Context, &P, &mut dyn ResultSink) -> SqlResult<Option<u64>>,
    ) -> SqlResult<Option<u64>> {
        let db = Arc::clone(&self.session.db);
        if self.session.options.showplan {
            let plan = plan(&self.session.planner(&db, &frame.variables))?;
            show_plan(
                statement.span.text(frame.source),
                explain(&*db, &plan, &frame.variables),
                self.sink,
            );
            return Ok(None);
        }
        if self.session.transaction.is_doomed() {
            return Err(hekla_engine::errors::transaction_doomed());
        }
        let (plan, tables) =
            self.planned(statement, frame, plan, |plan| !writes_temporary(plan))?;
        self.changing_rows(frame, tables, |context, sink| run(context, &plan, sink))
    }

    /// TRUNCATE TABLE. Its IDENTITY restart is undone if the statement
    /// fails, or later if the user transaction it ran in rolls back.
    fn truncate(&mut self, name: &ast::ObjectName, frame: &Frame) -> SqlResult<Option<u64>> {
        let table = hekla_exec::truncate::target(&*self.session.db, &frame.variables, name)?;
        let mut restarted = None;
        let outcome = self.changing_rows(frame, Vec::new(), |context, _| {
            restarted = hekla_exec::truncate::run(context, &table)?;
            Ok(None)
        });
        if let Some(before) = restarted {
            if outcome.is_err() {
                restore_identity(&table, before);
            } else if self.session.transaction.is_open() {
                self.session
                    .transaction
                    .on_rollback(Box::new(move || restore_identity(&table, before)));
            }
        }
        outcome
    }

    /// Changes rows (INSERT, UPDATE, DELETE, TRUNCATE) with `body`; Msg 3930
    /// in a doomed transaction.
    fn changing_rows(
        &mut self,
        frame: &Frame,
        table_variables: TableVariables,
        body: impl FnOnce(&Context, &mut dyn ResultSink) -> SqlResult<Option<u64>>,
    ) -> SqlResult<Option<u64>> {
        if self.session.transaction.is_doomed() {
            return Err(hekla_engine::errors::transaction_doomed());
        }
        let sink = &mut *self.sink;
        self.session
            .running_plan(&frame.variables, table_variables, |context| {
                body(context, sink)
            })
    }

    /// An expression's value converted to `data_type`, as an assignment
    /// converts it.
    pub(super) fn value(
        &mut self,
        expr: &ast::Expr,
        data_type: &DataType,
        frame: &Frame,
    ) -> SqlResult<Value> {
        // A variable of the very type wanted (an EXEC's or an RPC's usual
        // argument) needs no binding, conversion or statement context.
        if let Some((value, own_type)) = variable_read(expr, frame) {
            if own_type == *data_type {
                return Ok(value.clone());
            }
        }
        // So does a NULL or a small integer literal (a parameter's usual
        // default: `@Status tinyint = 1`, `@Comment nvarchar(128) = NULL`).
        if let Some(value) = literal_read(expr, data_type) {
            return Ok(value);
        }
        let scalar = implicit(self.bound(expr, frame)?, data_type)?;
        self.evaluate(&scalar, frame)
    }

    /// `CHECKPOINT n`: n must be an int above zero.
    fn checkpoint_duration(&mut self, duration: &ast::Expr, frame: &Frame) -> SqlResult<()> {
        match self.plain_value(duration, frame)? {
            Value::Int(seconds) if seconds > 0 => Ok(()),
            _ => Err(not_supported_yet(
                Refused::Statement,
                "CHECKPOINT with a checkpoint_duration other than an int above zero",
            )),
        }
    }

    /// An expression's value in its own type.
    pub(super) fn plain_value(&mut self, expr: &ast::Expr, frame: &Frame) -> SqlResult<Value> {
        if let Some((value, _)) = variable_read(expr, frame) {
            return Ok(value.clone());
        }
        let scalar = self.bound(expr, frame)?;
        self.evaluate(&scalar, frame)
    }

    /// PRINT's message: the expression converted implicitly to
    /// nvarchar(4000) if it is Unicode text, else to varchar(8000), so
    /// that numbers and dates print and longer text is cut, as SQL Server
    /// does; a type with no implicit conversion to text is Msg 257 or 206.
    fn print_text(&mut self, expr: &ast::Expr, frame: &Frame) -> SqlResult<String> {
        let scalar = self.bound(expr, frame)?;
        let collation = scalar.data_type.collation().unwrap_or_default();
        let message_type = match scalar.data_type {
            DataType::NChar { .. } | DataType::NVarChar { .. } => DataType::NVarChar {
                len: hekla_types::Length::Bounded(hekla_types::datatype::MAX_NCHAR_LENGTH),
                collation,
            },
            _ => DataType::VarChar {
                len: hekla_types::Length::Bounded(hekla_types::datatype::MAX_BYTE_LENGTH),
                collation,
            },
        };
        match self.evaluate(&implicit(scalar, &message_type)?, frame)? {
            Value::String(text) => Ok(text),
            _ => Ok(String::new()),
        }
    }

    /// The type of an expression, as SQL Server names it in messages.
    pub(super) fn type_name(&mut self, expr: &ast::Expr, frame: &Frame) -> SqlResult<String> {
        Ok(self.bound(expr, frame)?.data_type.sql_name())
    }

    /// An expression outside any query, bound over the frame's variables.
    fn bound(&self, expr: &ast::Expr, frame: &Frame) -> SqlResult<Scalar> {
        let db = Arc::clone(&self.session.db);
        let planner = self.session.planner(&db, &frame.variables);
        hekla_plan::plan::value_binder(&planner).scalar(expr)
    }

    /// A bound value, read in a statement context of its own.
    fn evaluate(&mut self, scalar: &Scalar, frame: &Frame) -> SqlResult<Value> {
        self.evaluate_reading(scalar, frame, Vec::new())
    }

    /// [`Self::evaluate`] for a reused binding whose subqueries read
    /// `table_variables` (see [`Context::with_table_variables`]). A
    /// variable or a constant reads no table and computes nothing: it needs
    /// no statement context, only the options published as one would.
    fn evaluate_reading(
        &mut self,
        scalar: &Scalar,
        frame: &Frame,
        table_variables: TableVariables,
    ) -> SqlResult<Value> {
        match &scalar.kind {
            ScalarKind::Variable(slot) => {
                self.session.registration.publish(&self.session.options);
                Ok(frame.variables.values()[*slot].clone())
            }
            ScalarKind::Constant(value) => {
                self.session.registration.publish(&self.session.options);
                Ok(value.clone())
            }
            _ => self
                .session
                .running_plan(&frame.variables, table_variables, |context| {
                    scalar.eval(&Inputs::top(context))
                }),
        }
    }

    /// The `ordinal`th declaration of a DECLARE. Run again (by a loop),
    /// it declares nothing: the variable keeps its value, or takes the
    /// initial value if the declaration has one, and a table variable
    /// keeps its rows, as in SQL Server.
    /// With `keeps_binding`, its type and bound value are kept as the
    /// plan of `statement` (see [`Self::planned`]).
    fn declare(
        &mut self,
        statement: &ast::Statement,
        declaration: &ast::Declaration,
        ordinal: usize,
        keeps_binding: bool,
        frame: &mut Frame,
    ) -> SqlResult<()> {
        let db = Arc::clone(&self.session.db);
        let again = frame.variables.was_declared(declaration.span);
        if !again
            && crate::ddl::temp::declare_variable(&*db, &mut frame.variables, declaration, ordinal)?
        {
            frame.variables.mark_declared(declaration.span);
            return Ok(());
        }
        if again && frame.variables.table(&declaration.name).is_some() {
            return Ok(());
        }
        let native = frame.native;
        let bind = |planner: &Planner| {
            hekla_exec::variables::declared(planner, declaration, ordinal, native)
        };
        let (declared, tables) = if keeps_binding {
            self.planned(statement, frame, bind, |_| true)?
        } else {
            let planner = self.session.planner(&db, &frame.variables);
            (Arc::new(bind(&planner)?), Vec::new())
        };
        let (data_type, value) = &*declared;
        let data_type = *data_type;
        let value = match value {
            Some(scalar) => Some(self.evaluate_reading(scalar, frame, tables)?),
            None => None,
        };
        let slot = if again {
            frame.variables.resolve(&declaration.name)?
        } else {
            let slot = frame.variables.declare(&declaration.name, data_type)?;
            if declaration.not_null {
                frame.variables.forbid_null(slot);
            }
            frame.variables.mark_declared(declaration.span);
            slot
        };
        if let Some(value) = value {
            frame.variables.assign_checked(slot, value)?;
        }
        Ok(())
    }

    /// An IF or WHILE condition: true only if it holds (UNKNOWN does not).
    pub(super) fn condition(&mut self, expr: &ast::Expr, frame: &Frame) -> SqlResult<bool> {
        let db = Arc::clone(&self.session.db);
        let planner = self.session.planner(&db, &frame.variables);
        let predicate = hekla_plan::plan::value_binder(&planner).predicate(expr)?;
        self.session.in_context(&frame.variables, |context| {
            Ok(predicate.eval(&Inputs::top(context))? == Some(true))
        })
    }

    /// A transaction or savepoint name: a word, or a variable holding it.
    fn transaction_name(
        &mut self,
        name: Option<&ast::Expr>,
        frame: &Frame,
    ) -> SqlResult<Option<String>> {
        let Some(name) = name else {
            return Ok(None);
        };
        if let ast::ExprKind::Column(parts) = &name.kind {
            if let [word] = parts.as_slice() {
                return Ok(Some(word.value.clone()));
            }
        }
        match self.plain_value(name, frame)? {
            Value::String(text) => Ok(Some(text)),
            Value::Null => Ok(None),
            _ => Err(SqlError::new(
                6401,
                16,
                1,
                "Cannot roll back or save a transaction with a name that is not text.",
            )),
        }
    }

    /// `WAITFOR DELAY 'hh:mm:ss[.fff]'` sleeps that long; `WAITFOR TIME`
    /// sleeps until that time of day (UTC).
    fn wait_for(&mut self, delay: bool, time: &ast::Expr, frame: &Frame) -> SqlResult<()> {
        let text = match self.plain_value(time, frame)? {
            Value::String(text) => text,
            _ => return Err(wait_for_format()),
        };
        let time_type = DataType::Time { scale: 3 };
        let parsed = hekla_types::convert::convert(&Value::String(text), &time_type, None)
            .map_err(|_| wait_for_format())?;
        let Value::Time(hekla_types::Time(ticks)) = parsed else {
            return Err(wait_for_format());
        };
        let nanos = ticks * 100;
        let duration = if delay {
            std::time::Duration::from_nanos(nanos)
        } else {
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap_or_default();
            let day = 86_400_000_000_000u128;
            let today = (now.as_nanos() % day) as u64;
            let wait = if nanos >= today {
                nanos - today
            } else {
                (day as u64) - today + nanos
            };
            std::time::Duration::from_nanos(wait)
        };
        self.sleep(duration)
    }

    /// Sleeps for `duration`, waking every few milliseconds to see whether
    /// the request was cancelled.
    fn sleep(&self, duration: std::time::Duration) -> SqlResult<()> {
        const SLICE: std::time::Duration = std::time::Duration::from_millis(10);
        let end = std::time::Instant::now() + duration;
        loop {
            if self.session.state.cancel.is_cancelled() {
                return Err(hekla_plan::cancel::cancelled());
            }
            let left = end.saturating_duration_since(std::time::Instant::now());
            if left.is_zero() {
                return Ok(());
            }
            std::thread::sleep(left.min(SLICE));
        }
    }
}

fn wait_for_format() -> SqlError {
    SqlError::new(
        148,
        15,
        1,
        "Incorrect time syntax in time string used with WAITFOR.",
    )
}

/// `COMMIT WITH (DELAYED_DURABILITY = ON | OFF)`.
fn delayed_durability(options: &[ast::OptionItem]) -> SqlResult<bool> {
    let mut delayed = false;
    for option in options {
        let name = option
            .name
            .iter()
            .map(|word| word.value.to_ascii_uppercase())
            .collect::<Vec<_>>()
            .join(" ");
        let value = match &option.value {
            Some(ast::OptionValue::Words(words)) if words.len() == 1 => {
                words[0].value.to_ascii_uppercase()
            }
            _ => String::new(),
        };
        match (name.as_str(), value.as_str()) {
            ("DELAYED_DURABILITY", "ON") => delayed = true,
            ("DELAYED_DURABILITY", "OFF") => delayed = false,
            _ => {
                return Err(SqlError::new(
                    102,
                    15,
                    1,
                    format!("Incorrect syntax near '{}'.", option.name[0].value),
                ))
            }
        }
    }
    Ok(delayed)
}

/// Statements that change the catalog of user objects, which SQL Server
/// refuses inside a user transaction for memory-optimized tables (12331).
/// `#temp` tables are allowed, as in SQL Server.
/// Puts a truncated table's IDENTITY counter back where it stood.
fn restore_identity(
    table: &hekla_plan::catalog::table::TableMeta,
    before: hekla_plan::catalog::counter::CounterState,
) {
    if let Some(identity) = &table.identity {
        identity.counter.restore(before);
    }
}

/// The statements SET STATISTICS IO and TIME report on: queries and the
/// statements that change rows.
fn reports_statistics(kind: &StatementKind) -> bool {
    matches!(
        kind,
        StatementKind::Select(_)
            | StatementKind::Insert(_)
            | StatementKind::Update(_)
            | StatementKind::Delete(_)
            | StatementKind::Truncate(_)
    )
}

fn is_ddl(kind: &StatementKind) -> bool {
    use StatementKind::*;
    match kind {
        CreateTable(create) => !hekla_plan::catalog::temp::is_temp(&create.name),
        // DROP DATABASE has its own error in a transaction (574).
        Drop {
            object_type: ast::DropType::Database,
            ..
        } => false,
        Drop { names, .. } => !names.iter().all(hekla_plan::catalog::temp::is_temp),
        AlterTable(_)
        | CreateIndex(_)
        | CreateTableType(_)
        | CreateAliasType { .. }
        | CreateSequence(_)
        | AlterSequence(_)
        | CreateView(_)
        | CreateProcedure(_)
        | CreateFunction(_)
        | CreateSchema { .. }
        | CreateStatistics { .. }
        | CreatePrincipal(_)
        | AlterRole { .. }
        | Permission(_) => true,
        _ => false,
    }
}

fn ddl_in_transaction() -> SqlError {
    SqlError::new(
        12331,
        16,
        1,
        "DDL statements ALTER, DROP and CREATE inside user transactions are not supported with memory optimized tables.",
    )
}

/// The kind of statement a DONE ends, as TDS names it in the DONE's CurCmd.
fn statement_command(kind: &StatementKind) -> StatementCommand {
    match kind {
        StatementKind::Select(_) => StatementCommand::Select,
        StatementKind::Insert(_) => StatementCommand::Insert,
        StatementKind::Update(_) => StatementCommand::Update,
        StatementKind::Delete(_) => StatementCommand::Delete,
        _ => StatementCommand::Other,
    }
}

/// A bare `@variable` declared in the frame: its value and type, read as
/// binding and evaluating it would (an undeclared one is left to the
/// binder, for its error).
/// `expr` as a value of `data_type` if it is a literal no conversion rule
/// could make anything else of: NULL (of any type), or digits in the range
/// of the integer type wanted. Anything else is bound and converted.
fn literal_read(expr: &ast::Expr, data_type: &DataType) -> Option<Value> {
    match &expr.kind {
        ast::ExprKind::Literal(ast::Literal::Null) => Some(Value::Null),
        ast::ExprKind::Literal(ast::Literal::Integer(digits)) => {
            let number: i64 = digits.parse().ok()?;
            match data_type {
                DataType::TinyInt => u8::try_from(number).ok().map(Value::TinyInt),
                DataType::SmallInt => i16::try_from(number).ok().map(Value::SmallInt),
                DataType::Int => i32::try_from(number).ok().map(Value::Int),
                DataType::BigInt => Some(Value::BigInt(number)),
                _ => None,
            }
        }
        _ => None,
    }
}

fn variable_read<'f>(expr: &ast::Expr, frame: &'f Frame) -> Option<(&'f Value, DataType)> {
    let ast::ExprKind::Variable(name) = &expr.kind else {
        return None;
    };
    let slot = frame.variables.slot(name)?;
    Some((
        &frame.variables.values()[slot],
        frame.variables.data_type(slot),
    ))
}
