//! Control flow, variables, SET options, EXEC and transactions.

use super::{Parser, Result};
use crate::ast::*;
use crate::error::SyntaxError;
use crate::lexer::TokenKind;

impl Parser<'_> {
    /// `DECLARE @a [AS] type [= v], ...` or `DECLARE @t [AS] TABLE (...)`.
    pub(super) fn declare(&mut self) -> Result<StatementKind> {
        let start = self.expect_word("DECLARE")?;
        if self.at_plain_word() && self.is_word_at(1, "CURSOR") {
            return Err(SyntaxError::unsupported("DECLARE CURSOR", start.line));
        }
        let table_variable = self.at(TokenKind::Variable)
            && (self.is_word_at(1, "TABLE")
                || (self.is_word_at(1, "AS") && self.is_word_at(2, "TABLE")));
        if table_variable {
            let variable = self.variable_name()?;
            self.eat_word("AS");
            self.expect_word("TABLE")?;
            let elements = self.table_elements()?;
            return Ok(StatementKind::DeclareTable { variable, elements });
        }
        let declarations = self.comma_list(|parser| {
            let start = parser.peek().span;
            let name = parser.variable_name()?;
            parser.eat_word("AS");
            let data_type = parser.data_type()?;
            let not_null = parser.is_word("NOT") && parser.is_word_at(1, "NULL");
            if not_null {
                parser.pos += 2;
            }
            let value = if parser.eat(TokenKind::Eq) {
                Some(parser.expr()?)
            } else {
                None
            };
            Ok(Declaration {
                name,
                data_type,
                not_null,
                value,
                span: parser.span_from(start),
            })
        })?;
        Ok(StatementKind::Declare(declarations))
    }

    pub(super) fn set(&mut self) -> Result<StatementKind> {
        self.expect_word("SET")?;
        if self.at(TokenKind::Variable) {
            let variable = self.variable_name()?;
            let op = self.assignment_op()?;
            let value = self.expr()?;
            return Ok(StatementKind::SetVariable {
                variable,
                op,
                value,
            });
        }
        if self.eat_word("TRANSACTION") {
            self.expect_word("ISOLATION")?;
            self.expect_word("LEVEL")?;
            return Ok(StatementKind::SetTransactionIsolation(
                self.isolation_level()?,
            ));
        }
        if self.eat_word("IDENTITY_INSERT") {
            let table = self.object_name()?;
            let on = if self.eat_word("ON") {
                true
            } else {
                self.expect_word("OFF")?;
                false
            };
            return Ok(StatementKind::SetIdentityInsert { table, on });
        }
        let mut options = vec![self.any_ident()?];
        if options[0].value.eq_ignore_ascii_case("STATISTICS") {
            options.push(self.any_ident()?);
        }
        while self.eat(TokenKind::Comma) {
            options.push(self.any_ident()?);
        }
        let value = if self.at(TokenKind::Word) {
            OptionValue::Words(vec![self.word_ident()])
        } else if self.at(TokenKind::QuotedIdent) {
            OptionValue::Words(vec![self.ident()?])
        } else if matches!(
            self.kind(),
            TokenKind::Minus
                | TokenKind::Plus
                | TokenKind::Integer
                | TokenKind::Decimal
                | TokenKind::Float
                | TokenKind::String
                | TokenKind::NString
                | TokenKind::Binary
                | TokenKind::Money
                | TokenKind::Variable
        ) {
            // A number, string or variable: `SET TEXTSIZE 100`, `SET
            // LOCK_TIMEOUT -1`, `SET LANGUAGE N'us_english'`.
            OptionValue::Expr(self.unary()?)
        } else {
            return Err(self.error_here());
        };
        Ok(StatementKind::SetOption { options, value })
    }

    fn isolation_level(&mut self) -> Result<IsolationLevel> {
        if self.eat_word("READ") {
            if self.eat_word("UNCOMMITTED") {
                return Ok(IsolationLevel::ReadUncommitted);
            }
            self.expect_word("COMMITTED")?;
            return Ok(IsolationLevel::ReadCommitted);
        }
        if self.eat_word("REPEATABLE") {
            self.expect_word("READ")?;
            return Ok(IsolationLevel::RepeatableRead);
        }
        if self.eat_word("SNAPSHOT") {
            return Ok(IsolationLevel::Snapshot);
        }
        self.expect_word("SERIALIZABLE")?;
        Ok(IsolationLevel::Serializable)
    }

    pub(super) fn if_statement(&mut self) -> Result<StatementKind> {
        self.expect_word("IF")?;
        let condition = self.expr()?;
        let then_branch = Box::new(self.statement()?);
        let mut ahead = 0;
        while self.kind_at(ahead) == TokenKind::Semicolon {
            ahead += 1;
        }
        let else_branch = if self.is_word_at(ahead, "ELSE") {
            self.pos += ahead + 1;
            Some(Box::new(self.statement()?))
        } else {
            None
        };
        Ok(StatementKind::If {
            condition,
            then_branch,
            else_branch,
        })
    }

    pub(super) fn while_statement(&mut self) -> Result<StatementKind> {
        self.expect_word("WHILE")?;
        let condition = self.expr()?;
        let body = Box::new(self.statement()?);
        Ok(StatementKind::While { condition, body })
    }

    /// `BEGIN TRAN`, `BEGIN TRY`, `BEGIN ATOMIC`, or a `BEGIN ... END` block.
    pub(super) fn begin(&mut self) -> Result<StatementKind> {
        self.expect_word("BEGIN")?;
        if self.eat_tran() {
            let name = self.optional_transaction_name()?;
            return Ok(StatementKind::BeginTransaction { name });
        }
        if self.eat_word("TRY") {
            return self.try_catch();
        }
        if self.eat_word("ATOMIC") {
            let options = if self.eat_word("WITH") {
                self.option_list()?
            } else {
                Vec::new()
            };
            let body = self.block_body()?;
            return Ok(StatementKind::AtomicBlock { options, body });
        }
        if self.is_word("DISTRIBUTED") {
            return Err(SyntaxError::unsupported(
                "BEGIN DISTRIBUTED TRANSACTION",
                self.peek().span.line,
            ));
        }
        Ok(StatementKind::Block(self.block_body()?))
    }

    /// Statements up to and including `END`.
    fn block_body(&mut self) -> Result<Vec<Statement>> {
        let body = self.statements_until_end_keyword()?;
        self.expect_word("END")?;
        Ok(body)
    }

    /// After `BEGIN TRY`: `... END TRY BEGIN CATCH ... END CATCH`.
    fn try_catch(&mut self) -> Result<StatementKind> {
        let try_block = self.statements_until_end_keyword()?;
        self.expect_word("END")?;
        self.expect_word("TRY")?;
        while self.eat(TokenKind::Semicolon) {}
        self.expect_word("BEGIN")?;
        self.expect_word("CATCH")?;
        let catch_block = self.statements_until_end_keyword()?;
        self.expect_word("END")?;
        self.expect_word("CATCH")?;
        Ok(StatementKind::TryCatch {
            try_block,
            catch_block,
        })
    }

    /// A transaction or savepoint name: an identifier or `@variable`.
    fn optional_transaction_name(&mut self) -> Result<Option<Expr>> {
        if self.at(TokenKind::Variable) {
            return Ok(Some(self.primary()?));
        }
        if self.at_ident() && !self.is_word("WITH") {
            let name = self.ident()?;
            return Ok(Some(Expr {
                span: name.span,
                kind: ExprKind::Column(vec![name]),
            }));
        }
        Ok(None)
    }

    /// `COMMIT [TRAN[SACTION]|WORK] [name] [WITH (DELAYED_DURABILITY = ON)]`.
    pub(super) fn commit(&mut self) -> Result<StatementKind> {
        self.expect_word("COMMIT")?;
        let name = if self.eat_word("WORK") {
            None
        } else if self.eat_tran() {
            self.optional_transaction_name()?
        } else {
            None
        };
        let options = self.optional_with_options()?;
        Ok(StatementKind::Commit { name, options })
    }

    pub(super) fn rollback(&mut self) -> Result<StatementKind> {
        self.expect_word("ROLLBACK")?;
        let name = if self.eat_word("WORK") {
            None
        } else if self.eat_tran() {
            self.optional_transaction_name()?
        } else {
            None
        };
        Ok(StatementKind::Rollback { name })
    }

    pub(super) fn save_transaction(&mut self) -> Result<StatementKind> {
        self.expect_word("SAVE")?;
        if !self.eat_tran() {
            return Err(self.error_here());
        }
        match self.optional_transaction_name()? {
            Some(name) => Ok(StatementKind::SaveTransaction { name }),
            None => Err(self.error_here()),
        }
    }

    pub(super) fn return_statement(&mut self) -> Result<StatementKind> {
        self.expect_word("RETURN")?;
        let value = if self.at_expr_start() {
            Some(self.expr()?)
        } else {
            None
        };
        Ok(StatementKind::Return(value))
    }

    /// `THROW` alone rethrows; otherwise three arguments.
    pub(super) fn throw(&mut self) -> Result<StatementKind> {
        self.expect_word("THROW")?;
        if !self.at_expr_start() {
            return Ok(StatementKind::Throw(None));
        }
        let number = self.expr()?;
        self.expect(TokenKind::Comma)?;
        let message = self.expr()?;
        self.expect(TokenKind::Comma)?;
        let state = self.expr()?;
        Ok(StatementKind::Throw(Some(Box::new([
            number, message, state,
        ]))))
    }

    /// `RAISERROR (msg, severity, state [, args]) [WITH LOG, NOWAIT, SETERROR]`.
    pub(super) fn raiserror(&mut self) -> Result<StatementKind> {
        self.expect_word("RAISERROR")?;
        self.expect(TokenKind::LParen)?;
        let args = self.comma_list(Self::expr)?;
        self.expect(TokenKind::RParen)?;
        if args.len() < 3 {
            return Err(self.error_at(self.tokens[self.pos - 1]));
        }
        let mut options = Vec::new();
        if self.eat_word("WITH") {
            options = self.comma_list(Self::any_ident)?;
        }
        Ok(StatementKind::Raiserror { args, options })
    }

    /// `DBCC DROPCLEANBUFFERS | FREEPROCCACHE | FREESYSTEMCACHE [(args)]
    /// [WITH NO_INFOMSGS | MARK_IN_USE_FOR_REMOVAL, ...]`; any other DBCC
    /// command is refused (Msg 10794).
    pub(super) fn dbcc(&mut self) -> Result<StatementKind> {
        let line = self.peek().span.line;
        self.expect_word("DBCC")?;
        let name = self.any_ident()?.value.to_ascii_uppercase();
        let command = match name.as_str() {
            "DROPCLEANBUFFERS" => DbccCommand::DropCleanBuffers,
            "FREEPROCCACHE" => DbccCommand::FreeProcCache,
            "FREESYSTEMCACHE" => DbccCommand::FreeSystemCache,
            _ => return Err(SyntaxError::unsupported(&format!("DBCC {name}"), line)),
        };
        let mut args = Vec::new();
        if self.eat(TokenKind::LParen) {
            args = self.comma_list(Self::expr)?;
            self.expect(TokenKind::RParen)?;
        }
        // WITH starts the options only before one: a CTE could follow.
        let mut options = Vec::new();
        if self.is_word("WITH")
            && ["NO_INFOMSGS", "MARK_IN_USE_FOR_REMOVAL"]
                .iter()
                .any(|option| self.is_word_at(1, option))
        {
            self.advance();
            options = self.comma_list(Self::any_ident)?;
        }
        Ok(StatementKind::Dbcc {
            command,
            args,
            options,
        })
    }

    pub(super) fn waitfor(&mut self) -> Result<StatementKind> {
        self.expect_word("WAITFOR")?;
        let delay = if self.eat_word("DELAY") {
            true
        } else {
            self.expect_word("TIME")?;
            false
        };
        let time = self.expr()?;
        Ok(StatementKind::WaitFor { delay, time })
    }

    /// `EXEC ('dynamic' + @sql)` or `EXEC [@rc =] proc args`.
    pub(super) fn exec_statement(&mut self) -> Result<StatementKind> {
        self.advance();
        if self.at(TokenKind::LParen) {
            self.advance();
            let text = self.nested(Self::expr)?;
            self.expect(TokenKind::RParen)?;
            let mut parts = Vec::new();
            flatten_concatenation(text, &mut parts);
            return Ok(StatementKind::ExecString(parts));
        }
        Ok(StatementKind::Exec(Box::new(self.exec_call()?)))
    }

    /// After EXEC: `[@rc =] name|@var [arg, ...] [WITH RECOMPILE]`.
    pub(super) fn exec_call(&mut self) -> Result<Exec> {
        let mut return_status = None;
        if self.at(TokenKind::Variable) && self.kind_at(1) == TokenKind::Eq {
            return_status = Some(self.variable_name()?);
            self.advance();
        }
        let procedure = if self.at(TokenKind::Variable) {
            ExecTarget::Variable(self.variable_name()?)
        } else {
            ExecTarget::Name(self.object_name()?)
        };
        let args = if self.at_expr_start() || self.is_word("DEFAULT") {
            self.comma_list(Self::exec_arg)?
        } else {
            Vec::new()
        };
        let mut options = Vec::new();
        if self.eat_word("WITH") {
            options = self.comma_list(Self::any_ident)?;
        }
        Ok(Exec {
            return_status,
            procedure,
            args,
            options,
        })
    }

    fn exec_arg(&mut self) -> Result<ExecArg> {
        let start = self.peek().span;
        let name = if self.at(TokenKind::Variable) && self.kind_at(1) == TokenKind::Eq {
            let name = self.variable_name()?;
            self.advance();
            Some(name)
        } else {
            None
        };
        let value = self.value_or_default()?;
        let output = self.eat_word("OUTPUT") || self.eat_word("OUT");
        Ok(ExecArg {
            name,
            value,
            output,
            span: self.span_from(start),
        })
    }
}

/// `a + b + c` as `[a, b, c]`: the parts of a dynamic SQL string.
fn flatten_concatenation(expr: Expr, parts: &mut Vec<Expr>) {
    match expr.kind {
        ExprKind::Binary {
            op: BinaryOp::Add,
            left,
            right,
        } => {
            flatten_concatenation(*left, parts);
            parts.push(*right);
        }
        kind => parts.push(Expr {
            kind,
            span: expr.span,
        }),
    }
}
