//! The T-SQL interpreter: runs a batch, or a procedure's body, statement
//! by statement, with SQL Server's control flow (IF, WHILE, BREAK,
//! CONTINUE, GOTO, RETURN), error handling (TRY/CATCH, THROW, RAISERROR,
//! the statement / scope / batch reach of errors, see [`failure`]) and
//! user transactions (see [`transaction`]).
//!
//! Statements that do the work (queries, DML, DDL, SET) are in
//! [`statement`]; each runs in a [`hekla_exec::context::Context`] holding
//! the session's transaction, so its failure undoes only itself.

mod atomic;
mod batch_rules;
mod call;
mod dynamic;
mod entry;
pub mod failure;
mod identity_insert;
mod implicit;
pub mod kept_plans;
pub mod prepared;
mod raise;
mod rpc;
mod showplan;
mod space_used;
mod statement;
mod xtp_control;

use crate::plan_cache::ProcedurePlan as CachedPlan;
use crate::session::Session;
use crate::statistics::Measurement;
use failure::{Failure, Reach};
use hekla_parser::ast::{self, StatementKind};
use hekla_plan::bind::variables::Variables;
use hekla_plan::catalog::procedure::ProcedureMeta;
use hekla_plan::result::{ErrorEvent, ResultSink, TransactionEvent};
use hekla_types::{SqlError, SqlResult};
use std::sync::Arc;

/// A batch or a procedure call: its variables and place in the call chain.
pub struct Frame<'t> {
    pub variables: Variables,
    /// 0 for a batch, one more per procedure call (`@@NESTLEVEL`).
    pub level: u8,
    /// The running procedure, named in its errors.
    pub procedure: Option<String>,
    /// The text the statements' spans point into.
    pub source: &'t str,
    /// `RETURN n`'s status.
    pub return_status: Option<i32>,
    /// A natively compiled procedure's frame (NOT NULL variables allowed).
    pub native: bool,
    /// The cached plan the statements come from, whose counters their
    /// runs add to (see [`crate::plan_cache`]).
    pub plan: Option<Arc<CachedPlan>>,
}

/// Where control goes after a statement.
#[derive(Debug, PartialEq)]
pub enum Flow {
    Next,
    Break,
    Continue,
    Return,
    Goto(String),
}

pub struct Interpreter<'s> {
    pub session: &'s mut Session,
    pub sink: &'s mut dyn ResultSink,
    /// The nesting levels of the TRY blocks running, innermost last.
    tries: Vec<u8>,
    /// How many atomic blocks are running: an error inside one ends it.
    atomic_blocks: u32,
    /// Running a SQL batch (not an RPC): its own EXECs of stored
    /// procedures are reported to the sink as procedure calls.
    in_sql_batch: bool,
}

impl<'s> Interpreter<'s> {
    pub fn new(session: &'s mut Session, sink: &'s mut dyn ResultSink) -> Self {
        Interpreter {
            session,
            sink,
            tries: Vec::new(),
            atomic_blocks: 0,
            in_sql_batch: false,
        }
    }

    /// Runs a compiled batch (see [`compile_batch`]). A transaction
    /// still doomed at its end is rolled back with Msg 3998, as SQL
    /// Server does.
    pub fn run_batch(&mut self, plan: Arc<CachedPlan>) {
        let batch = Arc::clone(&plan.module);
        let mut frame = Frame {
            variables: Variables::for_session(self.session.state.spid),
            level: 0,
            procedure: None,
            source: &batch.definition,
            return_status: None,
            native: false,
            plan: Some(plan),
        };
        self.in_sql_batch = true;
        let outcome = self.block(&batch.body, &mut frame);
        self.in_sql_batch = false;
        self.end_batch(outcome, &mut frame);
    }

    /// The end of a batch (or RPC) that ended with `outcome`. A transaction
    /// still doomed is rolled back with Msg 3998, as SQL Server does; a
    /// cancelled one reports nothing more.
    fn end_batch(&mut self, outcome: Result<Flow, Failure>, frame: &mut Frame) {
        match outcome {
            Ok(Flow::Goto(label)) => self.report_plain(undeclared_label(&label), 1),
            Err(failure) if failure.cancelled => return self.end_frame(frame),
            _ => {}
        }
        if self.session.transaction.is_doomed() {
            self.session.transaction.roll_back_all();
            self.report_transaction();
            self.report_plain(
                SqlError::new(
                    3998,
                    16,
                    1,
                    "Uncommittable transaction is detected at the end of the batch. The transaction is rolled back.",
                ),
                1,
            );
        }
        self.end_frame(frame);
    }

    /// Tells the sink when the session's transaction began or ended
    /// since it was last told (an atomic block's own transaction is no
    /// user transaction: its statements tell nothing).
    pub(super) fn report_transaction(&mut self) {
        let open = self.session.transaction.is_open();
        if self.atomic_blocks > 0 || open == self.session.transaction_shown {
            return;
        }
        self.session.transaction_shown = open;
        self.sink.transaction_changed(match open {
            true => TransactionEvent::Begin,
            false if self.session.transaction.committed() => TransactionEvent::Commit,
            false => TransactionEvent::Rollback,
        });
    }

    /// Gives back what the frame made: its table variables.
    pub fn end_frame(&mut self, frame: &mut Frame) {
        crate::ddl::temp::end_batch(&*self.session.db, &mut frame.variables);
    }

    /// Runs statements in order; an error is reported (or, inside TRY,
    /// passed up to the CATCH) and then goes as far as it reaches.
    pub fn block(
        &mut self,
        statements: &[ast::Statement],
        frame: &mut Frame,
    ) -> Result<Flow, Failure> {
        let mut index = 0;
        while let Some(statement) = statements.get(index) {
            match self.statement(statement, frame) {
                Ok(Flow::Next) => index += 1,
                Ok(Flow::Goto(label)) => match find_label(statements, &label) {
                    Some(position) => index = position + 1,
                    None => return Ok(Flow::Goto(label)),
                },
                Ok(flow) => return Ok(flow),
                Err(failure) => {
                    self.unwind(failure)?;
                    index += 1;
                }
            }
        }
        Ok(Flow::Next)
    }

    /// Decides what a failure does here: a TRY that will catch it gets it
    /// unreported; otherwise the client sees it, a rolling-back error
    /// rolls back, and it unwinds as far as it reaches.
    fn unwind(&mut self, mut failure: Failure) -> Result<(), Failure> {
        if failure.reported {
            return Err(failure);
        }
        if failure.cancelled {
            failure.reported = true;
            if failure.rolls_back {
                self.session.transaction.roll_back_all();
                self.report_transaction();
            }
            return Err(failure);
        }
        let caught = self.tries.iter().any(|&level| failure.caught_at(level));
        if caught || self.atomic_blocks > 0 {
            return Err(failure);
        }
        self.sink.error(&failure.event);
        if failure.terminated {
            self.sink
                .numbered_message(3621, 0, "The statement has been terminated.");
        }
        failure.reported = true;
        if failure.rolls_back {
            self.session.transaction.roll_back_all();
            self.report_transaction();
        }
        match failure.reach {
            Reach::Statement => Ok(()),
            Reach::Scope | Reach::Batch => Err(failure),
        }
    }

    fn statement(
        &mut self,
        statement: &ast::Statement,
        frame: &mut Frame,
    ) -> Result<Flow, Failure> {
        if self.session.state.cancel.is_cancelled() {
            return Err(self.failure(hekla_plan::cancel::cancelled(), statement, frame));
        }
        if self.session.options.showplan {
            return self.show(statement, frame);
        }
        let counted = frame
            .plan
            .as_ref()
            .and_then(|plan| plan.statement_slot(statement));
        let Some(slot) = counted else {
            return self.run_statement(statement, frame);
        };
        let measurement = Measurement::start(self.session.options.statistics_time);
        let outcome = self.run_statement(statement, frame);
        let lap = measurement.finish();
        // A failed statement is not counted.
        if let (Ok(_), Some(plan)) = (&outcome, &frame.plan) {
            let rows = u64::try_from(self.session.state.rowcount).unwrap_or(0);
            plan.record(slot, &lap, rows);
        }
        outcome
    }

    fn run_statement(
        &mut self,
        statement: &ast::Statement,
        frame: &mut Frame,
    ) -> Result<Flow, Failure> {
        match &statement.kind {
            StatementKind::Block(statements) => self.block(statements, frame),
            StatementKind::If {
                condition,
                then_branch,
                else_branch,
            } => {
                let holds = self
                    .condition(condition, frame)
                    .map_err(|error| self.failure(error, statement, frame))?;
                match (holds, else_branch) {
                    (true, _) => self.statement(then_branch, frame),
                    (false, Some(otherwise)) => self.statement(otherwise, frame),
                    (false, None) => Ok(Flow::Next),
                }
            }
            StatementKind::While { condition, body } => {
                self.while_loop(statement, condition, body, frame)
            }
            StatementKind::Break => Ok(Flow::Break),
            StatementKind::Continue => Ok(Flow::Continue),
            StatementKind::Goto(label) => Ok(Flow::Goto(label.value.clone())),
            StatementKind::Label(_) => Ok(Flow::Next),
            StatementKind::Return(value) => {
                let status = self
                    .return_status(value.as_ref(), frame)
                    .map_err(|error| self.failure(error, statement, frame))?;
                frame.return_status = Some(status);
                Ok(Flow::Return)
            }
            StatementKind::TryCatch {
                try_block,
                catch_block,
            } => {
                self.tries.push(frame.level);
                let outcome = self.block(try_block, frame);
                self.tries.pop();
                match outcome {
                    Err(failure) if failure.caught_at(frame.level) => {
                        self.catch(failure, catch_block, frame)
                    }
                    other => other,
                }
            }
            StatementKind::Throw(arguments) => {
                Err(self.throw(arguments.as_deref(), statement, frame))
            }
            StatementKind::Exec(exec) => self.exec(exec, statement, frame),
            StatementKind::ExecString(parts) => self.exec_string(parts, statement, frame),
            StatementKind::AtomicBlock { .. } => Err(self.failure(
                SqlError::new(
                    10794,
                    16,
                    1,
                    "The statement 'BEGIN ATOMIC' is supported only as the body of a natively compiled module.",
                ),
                statement,
                frame,
            )),
            StatementKind::Raiserror { args, options } => {
                self.raiserror(args, options, statement, frame)?;
                Ok(Flow::Next)
            }
            _ => self.simple(statement, frame),
        }
    }

    fn while_loop(
        &mut self,
        statement: &ast::Statement,
        condition: &ast::Expr,
        body: &ast::Statement,
        frame: &mut Frame,
    ) -> Result<Flow, Failure> {
        loop {
            let holds = self
                .condition(condition, frame)
                .map_err(|error| self.failure(error, statement, frame))?;
            if !holds {
                return Ok(Flow::Next);
            }
            match self.statement(body, frame) {
                Ok(Flow::Next | Flow::Continue) => {}
                Ok(Flow::Break) => return Ok(Flow::Next),
                Err(failure) => {
                    self.unwind(failure)?;
                }
                Ok(flow) => return Ok(flow),
            }
        }
    }

    /// Runs a CATCH block for `failure`: `ERROR_NUMBER()` and the rest
    /// read it there; an error that would have rolled back the transaction
    /// dooms it instead.
    fn catch(
        &mut self,
        failure: Failure,
        catch_block: &[ast::Statement],
        frame: &mut Frame,
    ) -> Result<Flow, Failure> {
        if failure.rolls_back {
            self.session.transaction.doom();
        }
        let caught = Arc::new(failure.event);
        let outer = self.session.state.caught.replace(caught);
        let outcome = self.block(catch_block, frame);
        self.session.state.caught = outer;
        outcome
    }

    /// An error of `statement`, classified by what it ends.
    pub fn failure(&self, error: SqlError, statement: &ast::Statement, frame: &Frame) -> Failure {
        // An error placed on a line of the statement (a CREATEd module's
        // body statement) is reported on that line of the batch.
        let line = match error.line {
            Some(line) => statement.span.line.saturating_add(line.saturating_sub(1)),
            None => statement.span.line,
        };
        let event = ErrorEvent {
            line,
            procedure: frame
                .procedure
                .clone()
                .or_else(|| hekla_plan::catalog::view::procedure_of(&statement.kind)),
            error,
        };
        let mut failure =
            Failure::classify(event, frame.level, self.session.options.xact_abort, false);
        failure.terminated = !self.session.options.xact_abort
            && terminates_statement(&statement.kind, failure.error());
        failure
    }

    /// An error of `frame` as a whole rather than of one statement (an
    /// atomic block's options or commit, a label its body lacks): reported
    /// on the frame's first line.
    pub(super) fn frame_failure(&self, error: SqlError, frame: &Frame) -> Failure {
        let event = ErrorEvent {
            error,
            line: 1,
            procedure: frame.procedure.clone(),
        };
        Failure::classify(event, frame.level, self.session.options.xact_abort, false)
    }

    /// Shows an error that belongs to no statement (the end of a batch).
    fn report_plain(&mut self, error: SqlError, line: u32) {
        self.sink.error(&ErrorEvent {
            error,
            line,
            procedure: None,
        });
    }

    /// The status `RETURN [value]` gives: 0 when there is no value.
    fn return_status(&mut self, value: Option<&ast::Expr>, frame: &Frame) -> SqlResult<i32> {
        let Some(value) = value else {
            return Ok(0);
        };
        let value = self.value(value, &hekla_types::DataType::Int, frame)?;
        Ok(value
            .as_i64()
            .and_then(|v| i32::try_from(v).ok())
            .unwrap_or(0))
    }
}

/// What a batch compiles to: its statements, parsed and checked by the
/// batch rules, or the error that keeps it from running at all.
pub fn compile_batch(text: &str) -> Result<Arc<ProcedureMeta>, ErrorEvent> {
    let batch = hekla_parser::parse_batch(text).map_err(ErrorEvent::from_syntax)?;
    let refused = batch_rules::violation(&batch.statements)
        .or_else(|| batch_rules::undeclared_variable(&batch.statements, text));
    if let Some((error, line)) = refused {
        return Err(ErrorEvent {
            error,
            line,
            procedure: None,
        });
    }
    Ok(Arc::new(ProcedureMeta::batch(
        text.to_string(),
        batch.statements,
    )))
}

/// The statement after `label:` in `statements`, if it is there.
fn find_label(statements: &[ast::Statement], label: &str) -> Option<usize> {
    statements.iter().position(|statement| {
        matches!(&statement.kind, StatementKind::Label(name) if name.value.eq_ignore_ascii_case(label))
    })
}

pub(super) fn undeclared_label(label: &str) -> SqlError {
    SqlError::new(
        133,
        15,
        1,
        format!(
            "A GOTO statement references the label '{label}' but the label has not been declared."
        ),
    )
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
}
