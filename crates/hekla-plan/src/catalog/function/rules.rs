//! What SQL Server refuses in the body of a scalar function, checked at
//! CREATE: a RETURN without a value (Msg 1075, before anything else), a
//! statement with side effects (443), a SELECT that returns rows to the
//! client (444), a call of NEWID, NEWSEQUENTIALID or RAND (443), and a
//! last statement that is not RETURN (455). The first of these in the
//! text is reported; SQL Server reports all of them. Statements in
//! branches that never run count too: the rules are about the text.
//!
//! Also whether a function may read tables ([`reads_data`]).

use hekla_parser::ast::{self, DmlTarget, OptionValue, StatementKind};
use hekla_parser::lexer::{tokenize, Token, TokenKind};
use hekla_types::{SqlError, SqlResult};

/// Checks a scalar function's body; `definition` is the text its spans
/// point into.
pub fn check_scalar_body(statements: &[ast::Statement], definition: &str) -> SqlResult<()> {
    if has_bare_return(statements) {
        return Err(SqlError::new(
            1075,
            15,
            1,
            "RETURN statements in scalar valued functions must include an argument.",
        ));
    }
    let statement = first_refused_statement(statements, definition);
    let call = first_side_effecting_call(statements, definition);
    let first = match (statement, call) {
        (Some(a), Some(b)) => Some(if a.0 <= b.0 { a } else { b }),
        (a, b) => a.or(b),
    };
    if let Some((_, error)) = first {
        return Err(error);
    }
    if !ends_with_return(statements) {
        return Err(SqlError::new(
            455,
            16,
            2,
            "The last statement included within a function must be a return statement.",
        ));
    }
    Ok(())
}

/// Whether a scalar function's body may read tables: it has a FROM
/// clause or calls a schema-qualified (user-defined) function.
/// Conservative: a body that reads nothing but says FROM (`TRIM('x' FROM
/// @s)`) only costs its caller some streaming.
pub fn reads_data(statements: &[ast::Statement], definition: &str) -> bool {
    let (text, _) = body_text(statements, definition);
    let Ok(tokens) = tokenize(text) else {
        return true;
    };
    let name = |token: Option<&Token>| {
        token.is_some_and(|t| matches!(t.kind, TokenKind::Word | TokenKind::QuotedIdent))
    };
    let kind = |token: Option<&Token>, kind: TokenKind| token.is_some_and(|t| t.kind == kind);
    (0..tokens.len()).any(|i| {
        is_keyword(&tokens[i], text, "FROM")
            || name(tokens.get(i))
                && kind(tokens.get(i + 1), TokenKind::Dot)
                && name(tokens.get(i + 2))
                && kind(tokens.get(i + 3), TokenKind::LParen)
    })
}

/// The text of a body's statements (not the function's header, which
/// names the function and its parameters), with where it starts.
fn body_text<'d>(statements: &[ast::Statement], definition: &'d str) -> (&'d str, u32) {
    match (statements.first(), statements.last()) {
        (Some(first), Some(last)) => (first.span.to(last.span).text(definition), first.span.start),
        _ => ("", 0),
    }
}

fn is_keyword(token: &Token, text: &str, keyword: &str) -> bool {
    token.kind == TokenKind::Word && token.span.text(text).eq_ignore_ascii_case(keyword)
}

/// The statements a statement runs directly (its branches and blocks).
fn nested(statement: &ast::Statement) -> Vec<&ast::Statement> {
    match &statement.kind {
        StatementKind::If {
            then_branch,
            else_branch,
            ..
        } => std::iter::once(&**then_branch)
            .chain(else_branch.as_deref())
            .collect(),
        StatementKind::While { body, .. } => vec![body],
        StatementKind::Block(body) | StatementKind::AtomicBlock { body, .. } => {
            body.iter().collect()
        }
        StatementKind::TryCatch {
            try_block,
            catch_block,
        } => try_block.iter().chain(catch_block).collect(),
        _ => Vec::new(),
    }
}

fn has_bare_return<'a>(statements: impl IntoIterator<Item = &'a ast::Statement>) -> bool {
    statements.into_iter().any(|statement| {
        matches!(statement.kind, StatementKind::Return(None)) || has_bare_return(nested(statement))
    })
}

/// The last statement must be RETURN; a trailing BEGIN ... END counts by
/// its own last statement, a trailing IF or WHILE does not count.
fn ends_with_return(statements: &[ast::Statement]) -> bool {
    match statements.last().map(|s| &s.kind) {
        Some(StatementKind::Return(_)) => true,
        Some(StatementKind::Block(body) | StatementKind::AtomicBlock { body, .. }) => {
            ends_with_return(body)
        }
        _ => false,
    }
}

/// The first statement (in text order) SQL Server refuses in a function,
/// with where it starts.
fn first_refused_statement(
    statements: &[ast::Statement],
    definition: &str,
) -> Option<(u32, SqlError)> {
    statements.iter().find_map(|statement| {
        if let Some(error) = refusal(statement, definition) {
            return Some((statement.span.start, error));
        }
        nested(statement)
            .into_iter()
            .find_map(|inner| first_refused_statement(std::slice::from_ref(inner), definition))
    })
}

/// Msg 443 or 444 for a statement a function may not run itself.
fn refusal(statement: &ast::Statement, definition: &str) -> Option<SqlError> {
    use StatementKind::*;
    let (operator, state) = match &statement.kind {
        // Statements that write something outside the function: tables,
        // transactions, session settings.
        Insert(insert) if is_table(&insert.target) => ("INSERT".to_string(), 15),
        Update(update) if is_table(&update.target) => ("UPDATE".to_string(), 15),
        Delete(delete) if is_table(&delete.target) => ("DELETE".to_string(), 15),
        Truncate(_) => ("TRUNCATE TABLE".to_string(), 15),
        Select(select) if into(select) => ("SELECT INTO".to_string(), 15),
        Select(select) if !assigns(select) => {
            return Some(returns_rows(select, statement, definition))
        }
        BeginTransaction { .. } => ("BEGIN TRANSACTION".to_string(), 15),
        Commit { .. } => ("COMMIT TRANSACTION".to_string(), 15),
        Rollback { .. } => ("ROLLBACK TRANSACTION".to_string(), 15),
        SaveTransaction { .. } => ("SAVEPOINT".to_string(), 15),
        SetTransactionIsolation(_) => ("SET TRANSACTION ISOLATION LEVEL".to_string(), 15),
        SetOption { options, value } => (set_operator(options, value), 15),
        // Statements that talk to the client or handle errors.
        Print(_) => ("PRINT".to_string(), 14),
        Raiserror { .. } => ("RAISERROR".to_string(), 14),
        Throw(_) => ("THROW".to_string(), 14),
        WaitFor { .. } => ("WAITFOR".to_string(), 14),
        ExecString(_) => ("EXECUTE STRING".to_string(), 14),
        TryCatch { .. } => ("BEGIN TRY".to_string(), 14),
        // Statements a function runs itself (EXEC fails when it runs).
        Declare(_)
        | DeclareTable { .. }
        | SetVariable { .. }
        | Select(_)
        | Insert(_)
        | Update(_)
        | Delete(_)
        | If { .. }
        | While { .. }
        | Block(_)
        | AtomicBlock { .. }
        | Break
        | Continue
        | Return(_)
        | Goto(_)
        | Label(_)
        | Exec(_) => return None,
        // DDL and the rest change the database or the session.
        other => (other.keywords().to_string(), 15),
    };
    Some(side_effect(&operator, state))
}

/// Msg 443.
fn side_effect(operator: &str, state: u8) -> SqlError {
    SqlError::new(
        443,
        16,
        state,
        format!("Invalid use of a side-effecting operator '{operator}' within a function."),
    )
}

/// Msg 444: state 2 when the query reads rows (a FROM clause anywhere in
/// it, or a set operator), 3 when it only computes values.
fn returns_rows(
    select: &ast::SelectStatement,
    statement: &ast::Statement,
    definition: &str,
) -> SqlError {
    let text = statement.span.text(definition);
    let has_from = tokenize(text)
        .is_ok_and(|tokens| tokens.iter().any(|token| is_keyword(token, text, "FROM")));
    let set_operation = matches!(select.query.body, ast::QueryBody::SetOp { .. });
    SqlError::new(
        444,
        16,
        if has_from || set_operation { 2 } else { 3 },
        "Select statements included within a function cannot return data to a client.",
    )
}

/// How SQL Server names a SET statement in Msg 443.
fn set_operator(options: &[ast::Ident], value: &OptionValue) -> String {
    let first = options
        .first()
        .map(|option| option.value.to_ascii_uppercase())
        .unwrap_or_default();
    let switch = match value {
        OptionValue::Words(words) if words.len() == 1 => {
            Some(words[0].value.to_ascii_uppercase()).filter(|w| w == "ON" || w == "OFF")
        }
        _ => None,
    };
    match (first.as_str(), switch) {
        ("STATISTICS", Some(switch)) => format!("SET STATISTICS {switch}"),
        ("ROWCOUNT", _) => "SET ROW COUNT".to_string(),
        ("TEXTSIZE", _) => "SET TEXTSIZE".to_string(),
        (_, Some(switch)) => format!("SET OPTION {switch}"),
        _ => "SET COMMAND".to_string(),
    }
}

fn is_table(target: &DmlTarget) -> bool {
    matches!(target, DmlTarget::Table { .. })
}

fn into(select: &ast::SelectStatement) -> bool {
    matches!(&select.query.body, ast::QueryBody::Select(body) if body.into.is_some())
}

/// `SELECT @v = ...`: assigns, returns nothing.
fn assigns(select: &ast::SelectStatement) -> bool {
    matches!(&select.query.body, ast::QueryBody::Select(body)
        if body.items.iter().any(|item| matches!(item, ast::SelectItem::Assign { .. })))
}

/// The first call of a built-in that answers differently each time
/// (NEWID, NEWSEQUENTIALID, RAND): Msg 443 state 1, named in lower case.
fn first_side_effecting_call(
    statements: &[ast::Statement],
    definition: &str,
) -> Option<(u32, SqlError)> {
    let (text, start) = body_text(statements, definition);
    let tokens = tokenize(text).ok()?;
    tokens.iter().enumerate().find_map(|(i, token)| {
        let name = token.span.text(text).to_ascii_lowercase();
        let called = tokens
            .get(i + 1)
            .is_some_and(|next| next.kind == TokenKind::LParen);
        let qualified = i > 0 && tokens[i - 1].kind == TokenKind::Dot;
        let refused = matches!(name.as_str(), "newid" | "newsequentialid" | "rand");
        (token.kind == TokenKind::Word && called && !qualified && refused)
            .then(|| (start + token.span.start, side_effect(&name, 1)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The statements of `dbo.f(@x int)` with `body`, and its text.
    fn parsed(body: &str) -> (Vec<ast::Statement>, String) {
        let text = format!("CREATE FUNCTION dbo.f(@x int) RETURNS int AS BEGIN {body} END");
        let batch = hekla_parser::parse_batch(&text).unwrap();
        let Some(StatementKind::CreateFunction(create)) =
            batch.statements.into_iter().next().map(|s| s.kind)
        else {
            panic!("not a function");
        };
        let ast::FunctionReturns::Scalar { body, .. } = create.returns else {
            panic!("not scalar");
        };
        (body, text)
    }

    fn check(body: &str) -> Result<(), (u32, u8)> {
        let (statements, text) = parsed(body);
        check_scalar_body(&statements, &text).map_err(|e| (e.number, e.state))
    }

    fn reads(body: &str) -> bool {
        let (statements, text) = parsed(body);
        reads_data(&statements, &text)
    }

    #[test]
    fn bodies_that_create() {
        assert_eq!(check("RETURN 1"), Ok(()));
        assert_eq!(check("SET @x = 2 BEGIN SET @x = 3 RETURN @x END"), Ok(()));
        assert_eq!(check("IF @x = 1 BEGIN RETURN 1 END RETURN 2"), Ok(()));
        assert_eq!(check("DECLARE @v int SELECT @v = 1 RETURN @v"), Ok(()));
        assert_eq!(check("RETURN (SELECT 1)"), Ok(()));
        assert_eq!(check("RETURN dbo.rand(1)"), Ok(()));
    }

    #[test]
    fn refusals_and_their_order() {
        assert_eq!(check("SET @x = 1 RETURN"), Err((1075, 1)));
        assert_eq!(check("PRINT 'x' IF @x = 1 RETURN RETURN 1"), Err((1075, 1)));
        assert_eq!(check("IF @x = 1 RETURN 1 ELSE RETURN 2"), Err((455, 2)));
        assert_eq!(check("WHILE @x < 9 BEGIN RETURN 1 END"), Err((455, 2)));
        assert_eq!(check("IF 1 = 0 PRINT 'hi' RETURN 1"), Err((443, 14)));
        assert_eq!(check("SELECT 1 SET @x = 2"), Err((444, 3)));
        assert_eq!(check("SELECT 1 UNION SELECT 2 RETURN 1"), Err((444, 2)));
        assert_eq!(check("BEGIN TRAN RETURN 1"), Err((443, 15)));
        assert_eq!(check("PRINT 'x' RETURN NEWID()"), Err((443, 14)));
        assert_eq!(
            check("DECLARE @r float = RAND() PRINT 'x' RETURN 1"),
            Err((443, 1))
        );
    }

    #[test]
    fn data_access_is_read_from_the_body() {
        assert!(reads("RETURN (SELECT COUNT(*) FROM dbo.t)"));
        assert!(reads("RETURN dbo.g(1)"));
        assert!(!reads("RETURN @x + LEN('x')"));
    }
}
