//! INSERT, UPDATE and DELETE, with TOP, table hints, OUTPUT [INTO] and
//! OPTION.

use super::query::assign_op;
use super::{Parser, Result};
use crate::ast::*;
use crate::lexer::TokenKind;

impl Parser<'_> {
    pub(super) fn insert(&mut self, with: Vec<Cte>) -> Result<StatementKind> {
        self.expect_word("INSERT")?;
        let top = self.optional_top()?;
        self.eat_word("INTO");
        let target = self.dml_target()?;
        let columns = if self.at(TokenKind::LParen) && !self.at_query_in_parens() {
            self.ident_list_in_parens()?
        } else {
            Vec::new()
        };
        let output = self.optional_output()?;
        let source = if self.eat_word("VALUES") {
            InsertSource::Values(self.values_rows()?)
        } else if self.is_word("DEFAULT") && self.is_word_at(1, "VALUES") {
            self.advance();
            self.advance();
            InsertSource::DefaultValues
        } else if self.is_word("EXEC") || self.is_word("EXECUTE") {
            match self.exec_statement()? {
                StatementKind::ExecString(parts) => InsertSource::ExecString(parts),
                StatementKind::Exec(exec) => InsertSource::Exec(exec),
                _ => unreachable!("exec_statement makes EXEC statements only"),
            }
        } else {
            InsertSource::Query(Box::new(self.query()?))
        };
        let hints = self.query_hints()?;
        Ok(StatementKind::Insert(Box::new(Insert {
            with,
            top,
            target,
            columns,
            output,
            source,
            hints,
        })))
    }

    pub(super) fn update(&mut self, with: Vec<Cte>) -> Result<StatementKind> {
        self.expect_word("UPDATE")?;
        let top = self.optional_top()?;
        let target = self.dml_target()?;
        self.expect_word("SET")?;
        let assignments = self.comma_list(Self::assignment)?;
        let output = self.optional_output()?;
        let from = self.optional_from()?;
        let where_clause = self.optional_where()?;
        let hints = self.query_hints()?;
        Ok(StatementKind::Update(Box::new(Update {
            with,
            top,
            target,
            assignments,
            output,
            from,
            where_clause,
            hints,
        })))
    }

    /// `col = e`, `t.col += e`, `@v = e`, `@v = col = e`.
    fn assignment(&mut self) -> Result<Assignment> {
        let start = self.peek().span;
        if self.at(TokenKind::Variable) {
            let variable = self.variable_name()?;
            let op = self.assignment_op()?;
            let column = if op == AssignOp::Assign && self.at_column_assignment() {
                let column = self.column_path()?;
                self.expect(TokenKind::Eq)?;
                Some(column)
            } else {
                None
            };
            let value = self.value_or_default()?;
            return Ok(Assignment::Variable {
                variable,
                column,
                op,
                value,
                span: self.span_from(start),
            });
        }
        let column = self.column_path()?;
        let op = self.assignment_op()?;
        let value = self.value_or_default()?;
        Ok(Assignment::Column {
            column,
            op,
            value,
            span: self.span_from(start),
        })
    }

    /// `a.b.c =` (not `==`) ahead: the column of `@v = col = expr`.
    fn at_column_assignment(&self) -> bool {
        let mut ahead = 0;
        loop {
            if !matches!(
                self.kind_at(ahead),
                TokenKind::Word | TokenKind::QuotedIdent
            ) {
                return false;
            }
            match self.kind_at(ahead + 1) {
                TokenKind::Dot => ahead += 2,
                TokenKind::Eq => return true,
                _ => return false,
            }
        }
    }

    fn column_path(&mut self) -> Result<Vec<Ident>> {
        let mut parts = vec![self.ident()?];
        while self.eat(TokenKind::Dot) {
            parts.push(self.ident()?);
        }
        Ok(parts)
    }

    /// `=` or a compound operator; also `+ =` with a space, which the
    /// sales-order sample's own scripts use.
    pub(super) fn assignment_op(&mut self) -> Result<AssignOp> {
        if let Some(op) = assign_op(self.kind()) {
            self.advance();
            return Ok(op);
        }
        let spaced = match self.kind() {
            TokenKind::Plus => Some(AssignOp::Add),
            TokenKind::Minus => Some(AssignOp::Subtract),
            TokenKind::Star => Some(AssignOp::Multiply),
            TokenKind::Slash => Some(AssignOp::Divide),
            _ => None,
        };
        match spaced {
            Some(op) if self.kind_at(1) == TokenKind::Eq => {
                self.advance();
                self.advance();
                Ok(op)
            }
            _ => Err(self.error_here()),
        }
    }

    pub(super) fn delete(&mut self, with: Vec<Cte>) -> Result<StatementKind> {
        self.expect_word("DELETE")?;
        let top = self.optional_top()?;
        self.eat_word("FROM");
        let target = self.dml_target()?;
        let output = self.optional_output()?;
        let from = self.optional_from()?;
        let where_clause = self.optional_where()?;
        let hints = self.query_hints()?;
        Ok(StatementKind::Delete(Box::new(Delete {
            with,
            top,
            target,
            output,
            from,
            where_clause,
            hints,
        })))
    }

    fn optional_from(&mut self) -> Result<Vec<TableRef>> {
        if self.eat_word("FROM") {
            self.comma_list(Self::table_ref)
        } else {
            Ok(Vec::new())
        }
    }

    /// A table (with optional hints) or a table variable.
    fn dml_target(&mut self) -> Result<DmlTarget> {
        if self.at(TokenKind::Variable) {
            return Ok(DmlTarget::Variable(self.variable_name()?));
        }
        let name = self.object_name()?;
        let hints = self.table_hints()?;
        Ok(DmlTarget::Table { name, hints })
    }

    /// `[OUTPUT items INTO target [(columns)]] [OUTPUT items]`.
    fn optional_output(&mut self) -> Result<Vec<OutputClause>> {
        let mut clauses = Vec::new();
        while self.is_word("OUTPUT") && clauses.len() < 2 {
            let clause = self.output_clause()?;
            let into = clause.into.is_some();
            clauses.push(clause);
            if !into {
                break;
            }
        }
        Ok(clauses)
    }

    fn output_clause(&mut self) -> Result<OutputClause> {
        let start = self.advance().span;
        let items = self.comma_list(Self::select_item)?;
        let into = if self.eat_word("INTO") {
            let target = self.dml_target()?;
            let columns = if self.at(TokenKind::LParen) {
                self.ident_list_in_parens()?
            } else {
                Vec::new()
            };
            Some((target, columns))
        } else {
            None
        };
        Ok(OutputClause {
            items,
            into,
            span: self.span_from(start),
        })
    }
}
