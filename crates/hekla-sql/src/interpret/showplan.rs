//! `SET SHOWPLAN_TEXT ON`: statements are shown, not run.
//!
//! SQL Server compiles the batch and returns, for each statement, its text
//! and (for queries and DML) its plan; nothing executes. So here control
//! flow is walked, not followed: both branches of an IF, a loop's body
//! once, TRY and CATCH. Queries and INSERT/UPDATE/DELETE show their plans
//! (`statement.rs` plans them without running them); DECLARE declares, so
//! that later statements bind; EXEC shows the statements of the procedure
//! it calls; SET options apply (SHOWPLAN_TEXT OFF must). Every other
//! statement (DDL, SET @v, PRINT, transactions, CHECKPOINT ...) shows its
//! text alone and does nothing.

use super::failure::Failure;
use super::{Flow, Frame, Interpreter};
use hekla_parser::ast::{self, StatementKind};
use hekla_plan::result::{ResultColumn, ResultSink};
use hekla_types::{DataType, Value};

impl Interpreter<'_> {
    /// Shows `statement` as SHOWPLAN_TEXT does.
    pub(super) fn show(
        &mut self,
        statement: &ast::Statement,
        frame: &mut Frame,
    ) -> Result<Flow, Failure> {
        match &statement.kind {
            StatementKind::Block(statements) => self.show_all(statements, frame),
            StatementKind::If {
                then_branch,
                else_branch,
                ..
            } => {
                let branches = std::iter::once(then_branch).chain(else_branch);
                self.show_all(branches.map(|branch| &**branch), frame)
            }
            StatementKind::While { body, .. } => self.show_all([&**body], frame),
            StatementKind::TryCatch {
                try_block,
                catch_block,
            } => {
                self.show_all(try_block, frame)?;
                self.show_all(catch_block, frame)
            }
            StatementKind::Break
            | StatementKind::Continue
            | StatementKind::Goto(_)
            | StatementKind::Label(_)
            | StatementKind::Return(_) => Ok(Flow::Next),
            StatementKind::Select(_)
            | StatementKind::Insert(_)
            | StatementKind::Update(_)
            | StatementKind::Delete(_)
            | StatementKind::Declare(_)
            | StatementKind::DeclareTable { .. }
            | StatementKind::SetOption { .. } => self.simple(statement, frame),
            StatementKind::Exec(exec) => self.exec(exec, statement, frame),
            StatementKind::ExecString(parts) => self.exec_string(parts, statement, frame),
            _ => {
                show_statement(statement.span.text(frame.source), self.sink);
                Ok(Flow::Next)
            }
        }
    }

    /// Shows each statement; a failure (a name that does not bind) goes as
    /// far as it would reach if the statements ran.
    fn show_all<'a>(
        &mut self,
        statements: impl IntoIterator<Item = &'a ast::Statement>,
        frame: &mut Frame,
    ) -> Result<Flow, Failure> {
        for statement in statements {
            if let Err(failure) = self.show(statement, frame) {
                self.unwind(failure)?;
            }
        }
        Ok(Flow::Next)
    }
}

/// SHOWPLAN_TEXT's two result sets: the statement, then its operators.
pub(super) fn show_plan(statement: &str, operators: Vec<String>, sink: &mut dyn ResultSink) {
    show_statement(statement, sink);
    sink.columns(&[statement_text_column()]);
    for line in operators {
        sink.row(&[Value::String(line)]);
    }
}

/// SHOWPLAN_TEXT's result set for a statement without a plan: its text.
pub(super) fn show_statement(statement: &str, sink: &mut dyn ResultSink) {
    sink.columns(&[statement_text_column()]);
    sink.row(&[Value::String(statement.to_string())]);
    sink.done(None);
}

fn statement_text_column() -> ResultColumn {
    ResultColumn {
        name: "StmtText".to_string(),
        data_type: DataType::NVarChar {
            len: hekla_types::Length::Max,
            collation: hekla_types::Collation::default(),
        },
        nullable: true,
    }
}
