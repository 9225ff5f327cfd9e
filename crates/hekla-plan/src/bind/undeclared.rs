//! A module body's variables checked as SQL Server checks them when it
//! parses the module at CREATE: a variable used before any DECLARE of it
//! in the text (or never declared) is Msg 137 (Msg 1087 where a table
//! belongs), and the CREATE fails. Only variables: the tables a statement
//! names are still resolved when it runs (deferred name resolution).
//!
//! The check reads the body's tokens, the way SQL Server's parser meets
//! them, with the syntax tree for where each DECLARE and each statement
//! starts: a variable is known from its DECLARE on, in whichever block.

use crate::error::{undeclared_table_variable, undeclared_variable};
use hekla_parser::ast::{Statement, StatementKind};
use hekla_parser::lexer::{Token, TokenKind};
use hekla_types::SqlError;

/// The first variable the `body` of a module (with `parameters`, without
/// their `@`) uses undeclared, with its line; `text` is what the body's
/// spans point into.
pub fn first_undeclared<'a>(
    parameters: impl IntoIterator<Item = &'a str>,
    body: &[Statement],
    text: &str,
) -> Option<(SqlError, u32)> {
    let (Some(first), Some(last)) = (body.first(), body.last()) else {
        return None;
    };
    let mut layout = Layout::default();
    layout.walk(body);
    let tokens = hekla_parser::lexer::tokenize(text).ok()?;
    let mut declared: Vec<&str> = parameters.into_iter().collect();
    let mut declarations = layout.declarations.iter().peekable();
    let mut in_exec_arguments = false;
    let in_body = |token: &Token| {
        (first.span.start..last.span.end).contains(&token.span.start)
            && token.kind != TokenKind::Eof
    };
    for (index, token) in tokens.iter().enumerate().filter(|(_, t)| in_body(t)) {
        while let Some(&&(start, name)) = declarations.peek() {
            if start > token.span.start {
                break;
            }
            declared.push(name);
            declarations.next();
        }
        if layout.statement_starts.contains(&token.span.start) {
            in_exec_arguments = false;
        }
        let before = index.checked_sub(1).and_then(|i| tokens.get(i));
        let after = tokens.get(index + 1);
        if is_keyword(text, token, "EXEC") || is_keyword(text, token, "EXECUTE") {
            in_exec_arguments = after.is_some_and(|t| t.kind != TokenKind::LParen);
            continue;
        }
        if token.kind != TokenKind::Variable {
            continue;
        }
        let written = token.span.text(text);
        let Some(name) = written.strip_prefix('@').filter(|n| !n.starts_with('@')) else {
            continue; // @@ROWCOUNT and the other functions
        };
        // `EXEC p @param = value`: the callee's parameter, not a variable.
        let names_parameter = in_exec_arguments
            && after.is_some_and(|t| t.kind == TokenKind::Eq)
            && !before.is_some_and(|t| is_exec(text, t));
        if names_parameter || declared.iter().any(|d| d.eq_ignore_ascii_case(name)) {
            continue;
        }
        let table = before.is_some_and(|t| stands_for_table(text, t));
        let error = if table {
            undeclared_table_variable(name)
        } else {
            undeclared_variable(name)
        };
        return Some((error, token.span.line));
    }
    None
}

/// Where the body's DECLAREs and statements start.
#[derive(Default)]
struct Layout<'a> {
    /// Each declared variable's name (without the `@`) and where its
    /// declaration starts, in text order (the walk follows the text).
    declarations: Vec<(u32, &'a str)>,
    statement_starts: Vec<u32>,
}

impl<'a> Layout<'a> {
    fn walk(&mut self, statements: &'a [Statement]) {
        for statement in statements {
            self.statement(statement);
        }
    }

    fn statement(&mut self, statement: &'a Statement) {
        self.statement_starts.push(statement.span.start);
        match &statement.kind {
            StatementKind::Declare(declarations) => self
                .declarations
                .extend(declarations.iter().map(|d| (d.span.start, d.name.as_str()))),
            StatementKind::DeclareTable { variable, .. } => {
                self.declarations
                    .push((statement.span.start, variable.as_str()));
            }
            StatementKind::Block(body) | StatementKind::AtomicBlock { body, .. } => self.walk(body),
            StatementKind::TryCatch {
                try_block,
                catch_block,
            } => {
                self.walk(try_block);
                self.walk(catch_block);
            }
            StatementKind::If {
                then_branch,
                else_branch,
                ..
            } => {
                self.statement(then_branch);
                if let Some(otherwise) = else_branch {
                    self.statement(otherwise);
                }
            }
            StatementKind::While { body, .. } => self.statement(body),
            _ => {}
        }
    }
}

fn is_keyword(text: &str, token: &Token, keyword: &str) -> bool {
    token.kind == TokenKind::Word && token.span.text(text).eq_ignore_ascii_case(keyword)
}

fn is_exec(text: &str, token: &Token) -> bool {
    is_keyword(text, token, "EXEC") || is_keyword(text, token, "EXECUTE")
}

/// Whether a variable after `token` stands where a table does (`FROM @t`,
/// `INSERT INTO @t`, `UPDATE @t`, ...).
fn stands_for_table(text: &str, token: &Token) -> bool {
    [
        "FROM", "JOIN", "INTO", "UPDATE", "DELETE", "INSERT", "MERGE",
    ]
    .iter()
    .any(|keyword| is_keyword(text, token, keyword))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The error `first_undeclared` finds in the body of `procedure`.
    fn check(procedure: &str) -> Option<(u32, String)> {
        let batch = hekla_parser::parse_batch(procedure).expect("parses");
        let StatementKind::CreateProcedure(create) = &batch.statements[0].kind else {
            panic!("not a procedure");
        };
        let parameters = create.params.iter().map(|p| p.name.as_str());
        first_undeclared(parameters, &create.body, procedure)
            .map(|(error, line)| (line, format!("{} {}", error.number, error.message)))
    }

    #[test]
    fn declared_variables_and_parameters_pass() {
        let body = "CREATE PROCEDURE p @a int AS
DECLARE @b int = @a, @c int = 2
IF @a > 0
BEGIN
    DECLARE @t TABLE (x int)
    INSERT INTO @t VALUES (@b + @c + @@ROWCOUNT)
END
SELECT x FROM @t
EXEC dbo.q @p = @a, @r = @b OUTPUT
EXEC @c = dbo.q @a
SELECT 'no @d here' AS s";
        assert_eq!(check(body), None);
    }

    #[test]
    fn a_variable_used_before_its_declare_is_137_on_its_line() {
        let body = "CREATE PROCEDURE p AS
SET NOCOUNT ON
SELECT @late
DECLARE @late int";
        assert_eq!(
            check(body),
            Some((3, "137 Must declare the scalar variable \"@late\".".into()))
        );
    }

    #[test]
    fn a_missing_table_variable_is_1087() {
        let body = "CREATE PROCEDURE p AS
DELETE FROM @gone";
        assert_eq!(
            check(body),
            Some((2, "1087 Must declare the table variable \"@gone\".".into()))
        );
    }

    #[test]
    fn an_assignment_select_is_not_an_exec_argument() {
        let body = "CREATE PROCEDURE p AS
EXEC dbo.q @x = 1
SELECT @y = 1, @z = 2";
        assert_eq!(
            check(body),
            Some((3, "137 Must declare the scalar variable \"@y\".".into()))
        );
    }
}
