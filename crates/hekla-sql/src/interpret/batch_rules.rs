//! What SQL Server refuses about a batch as a whole before it runs any of
//! it: CREATE VIEW, PROCEDURE, FUNCTION and SCHEMA must start their batch
//! (Msg 111; everything after such a statement belongs to it), SET
//! SHOWPLAN must be alone in its batch (Msg 1067), a variable may be
//! declared once (Msg 134) and, in a client's batch, must be declared
//! before it is used (Msg 137 or 1087).

use hekla_parser::ast::{Statement, StatementKind};
use hekla_plan::bind::undeclared::first_undeclared;
use hekla_plan::bind::variables::first_redeclaration;
use hekla_types::SqlError;

/// The error that keeps the whole batch from running, with its line.
pub(super) fn violation(statements: &[Statement]) -> Option<(SqlError, u32)> {
    if statements.len() > 1 {
        if let Some(statement) = statements.iter().find(|s| is_set_showplan(s)) {
            return Some((showplan_not_alone(), statement.span.line));
        }
    }
    // A CREATE SCHEMA's elements (its CREATE TABLE and CREATE VIEW
    // statements) follow it in the batch as statements of their own.
    let elements = match statements.first().map(|s| &s.kind) {
        Some(StatementKind::CreateSchema { .. }) => statements[1..]
            .iter()
            .take_while(|s| {
                matches!(
                    s.kind,
                    StatementKind::CreateTable(_) | StatementKind::CreateView(_)
                )
            })
            .count(),
        _ => 0,
    };
    let misplaced = statements.iter().skip(1 + elements).find_map(|statement| {
        let what = must_start_batch(&statement.kind)?;
        Some((not_first(what), statement.span.line))
    });
    misplaced.or_else(|| first_redeclaration([], statements))
}

/// The first variable a client's batch of `statements` (parsed from
/// `text`) uses undeclared, with its line. A batch that CREATEs a module
/// is the module's: its body is checked as the module's
/// (`ddl::procedure`, `ddl::function`). Dynamic SQL is not checked here:
/// its lines count from its own text, so such an error is reported where
/// it runs, inside it.
pub(super) fn undeclared_variable(statements: &[Statement], text: &str) -> Option<(SqlError, u32)> {
    let defines_module = statements
        .first()
        .is_some_and(|statement| must_start_batch(&statement.kind).is_some());
    if defines_module {
        return None;
    }
    first_undeclared([], statements, text)
}

/// How Msg 111 names a statement that must start its batch.
fn must_start_batch(kind: &StatementKind) -> Option<&'static str> {
    let named = |alter: bool, create: &'static str, altered: &'static str| {
        Some(if alter { altered } else { create })
    };
    match kind {
        StatementKind::CreateView(view) => named(view.alter, "CREATE VIEW", "ALTER VIEW"),
        StatementKind::CreateProcedure(_) => Some("CREATE/ALTER PROCEDURE"),
        StatementKind::CreateFunction(function) => {
            named(function.alter, "CREATE FUNCTION", "ALTER FUNCTION")
        }
        StatementKind::CreateSchema { .. } => Some("CREATE SCHEMA"),
        _ => None,
    }
}

fn not_first(what: &str) -> SqlError {
    SqlError::new(
        111,
        15,
        1,
        format!("'{what}' must be the first statement in a query batch."),
    )
}

/// `SET SHOWPLAN_TEXT | SHOWPLAN_ALL | SHOWPLAN_XML ...`.
fn is_set_showplan(statement: &Statement) -> bool {
    matches!(&statement.kind, StatementKind::SetOption { options, .. }
        if options.iter().any(|option| option.value.to_ascii_uppercase().starts_with("SHOWPLAN")))
}

fn showplan_not_alone() -> SqlError {
    SqlError::new(
        1067,
        15,
        1,
        "The SET SHOWPLAN statements must be the only statements in the batch.",
    )
}
