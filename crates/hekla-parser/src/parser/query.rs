//! Queries: CTEs, set operators, SELECT, FROM with joins and APPLY, table
//! hints, ORDER BY and OFFSET/FETCH.

use super::{Parser, Result};
use crate::ast::*;
use crate::lexer::TokenKind;

/// Hints accepted in the legacy form `FROM t (NOLOCK)` without WITH.
const LEGACY_HINTS: &[&str] = &[
    "NOLOCK",
    "READUNCOMMITTED",
    "READCOMMITTED",
    "REPEATABLEREAD",
    "SERIALIZABLE",
    "SNAPSHOT",
    "HOLDLOCK",
    "UPDLOCK",
    "ROWLOCK",
    "PAGLOCK",
    "TABLOCK",
    "TABLOCKX",
    "XLOCK",
    "NOWAIT",
    "READPAST",
    "INDEX",
];

impl Parser<'_> {
    /// A query statement: `[WITH ...] query [OPTION (...)]`.
    pub(super) fn select_statement(&mut self, with: Vec<Cte>) -> Result<StatementKind> {
        let query = self.query_after_ctes(with)?;
        let hints = self.query_hints()?;
        Ok(StatementKind::Select(SelectStatement {
            query: Box::new(query),
            hints,
        }))
    }

    /// `[WITH ctes] body [ORDER BY] [OFFSET/FETCH]`.
    pub(super) fn query(&mut self) -> Result<Query> {
        let with = if self.is_word("WITH") {
            self.ctes()?
        } else {
            Vec::new()
        };
        self.query_after_ctes(with)
    }

    fn query_after_ctes(&mut self, with: Vec<Cte>) -> Result<Query> {
        let start = with.first().map_or(self.peek().span, |cte| cte.span);
        let body = self.set_operations()?;
        let order_by = if self.is_word("ORDER") {
            self.order_by_clause()?
        } else {
            Vec::new()
        };
        let offset = self.offset_fetch()?;
        Ok(Query {
            with,
            body,
            order_by,
            offset,
            span: self.span_from(start),
        })
    }

    /// `WITH name [(columns)] AS (query), ...`.
    pub(super) fn ctes(&mut self) -> Result<Vec<Cte>> {
        self.expect_word("WITH")?;
        self.comma_list(|parser| {
            let name = parser.ident()?;
            let columns = if parser.at(TokenKind::LParen) {
                parser.ident_list_in_parens()?
            } else {
                Vec::new()
            };
            parser.expect_word("AS")?;
            let query = Box::new(parser.parenthesised_query()?);
            Ok(Cte {
                span: parser.span_from(name.span),
                name,
                columns,
                query,
            })
        })
    }

    /// UNION and EXCEPT, left-associative, over INTERSECT terms.
    fn set_operations(&mut self) -> Result<QueryBody> {
        let mut left = self.intersections()?;
        let mut chain = 0;
        let result = loop {
            let op = if self.is_word("UNION") {
                SetOperator::Union
            } else if self.is_word("EXCEPT") {
                SetOperator::Except
            } else {
                break Ok(left);
            };
            self.advance();
            let all = op == SetOperator::Union && self.eat_word("ALL");
            if let Err(error) = self.enter(super::CHAIN_COST) {
                break Err(error);
            }
            chain += super::CHAIN_COST;
            match self.intersections() {
                Ok(right) => {
                    left = QueryBody::SetOp {
                        op,
                        all,
                        left: Box::new(left),
                        right: Box::new(right),
                    }
                }
                Err(error) => break Err(error),
            }
        };
        self.leave(chain);
        result
    }

    /// INTERSECT binds tighter than UNION and EXCEPT.
    fn intersections(&mut self) -> Result<QueryBody> {
        let mut left = self.query_primary()?;
        let mut chain = 0;
        let result = loop {
            if !self.eat_word("INTERSECT") {
                break Ok(left);
            }
            if let Err(error) = self.enter(super::CHAIN_COST) {
                break Err(error);
            }
            chain += super::CHAIN_COST;
            match self.query_primary() {
                Ok(right) => {
                    left = QueryBody::SetOp {
                        op: SetOperator::Intersect,
                        all: false,
                        left: Box::new(left),
                        right: Box::new(right),
                    }
                }
                Err(error) => break Err(error),
            }
        };
        self.leave(chain);
        result
    }

    fn query_primary(&mut self) -> Result<QueryBody> {
        if self.at(TokenKind::LParen) {
            let query = self.parenthesised_query()?;
            return Ok(QueryBody::Nested(Box::new(query)));
        }
        Ok(QueryBody::Select(Box::new(self.select()?)))
    }

    fn select(&mut self) -> Result<Select> {
        let start = self.expect_word("SELECT")?;
        let distinct = self.eat_word("DISTINCT");
        if !distinct {
            self.eat_word("ALL");
        }
        let top = self.optional_top()?;
        let items = self.comma_list(Self::select_item)?;
        let into = if self.eat_word("INTO") {
            Some(self.object_name()?)
        } else {
            None
        };
        let from = if self.eat_word("FROM") {
            self.comma_list(Self::table_ref)?
        } else {
            Vec::new()
        };
        let where_clause = self.optional_where()?;
        let group_by = if self.is_word("GROUP") && self.is_word_at(1, "BY") {
            self.advance();
            self.advance();
            self.comma_list(Self::group_by_item)?
        } else {
            Vec::new()
        };
        let having = if self.eat_word("HAVING") {
            Some(self.expr()?)
        } else {
            None
        };
        Ok(Select {
            distinct,
            top,
            items,
            into,
            from,
            where_clause,
            group_by,
            having,
            span: self.span_from(start),
        })
    }

    /// A GROUP BY item: an expression, `ROLLUP (...)`, `CUBE (...)`,
    /// `GROUPING SETS (...)` or `()`, the grand total. (A list `(a, b)`
    /// stands alone only inside those three, as in SQL Server.)
    fn group_by_item(&mut self) -> Result<GroupByItem> {
        if self.is_word("GROUPING") && self.is_word_at(1, "SETS") {
            self.advance();
            self.advance();
            let sets = self.grouping_list(Self::grouping_set)?;
            return Ok(GroupByItem::GroupingSets(sets));
        }
        if let Some(item) = self.rollup_or_cube()? {
            return Ok(item);
        }
        if self.eat_grand_total() {
            return Ok(GroupByItem::Composite(Vec::new()));
        }
        Ok(GroupByItem::Expr(self.expr()?))
    }

    /// `ROLLUP (...)` or `CUBE (...)` of expressions and lists `(a, b)`.
    fn rollup_or_cube(&mut self) -> Result<Option<GroupByItem>> {
        let rollup = self.is_word("ROLLUP");
        if !(rollup || self.is_word("CUBE")) || self.kind_at(1) != TokenKind::LParen {
            return Ok(None);
        }
        self.advance();
        let elements = self.grouping_list(Self::grouping_expression)?;
        Ok(Some(if rollup {
            GroupByItem::Rollup(elements)
        } else {
            GroupByItem::Cube(elements)
        }))
    }

    /// An element of ROLLUP or CUBE: an expression or a list `(a, b)`.
    fn grouping_expression(&mut self) -> Result<GroupByItem> {
        self.expr_or_list(Self::grouping_expression)
    }

    /// An element of GROUPING SETS: `()`, ROLLUP, CUBE, an expression, or
    /// a list of those.
    fn grouping_set(&mut self) -> Result<GroupByItem> {
        if let Some(item) = self.rollup_or_cube()? {
            return Ok(item);
        }
        if self.eat_grand_total() {
            return Ok(GroupByItem::Composite(Vec::new()));
        }
        self.expr_or_list(Self::grouping_set)
    }

    /// `()`, consumed if there.
    fn eat_grand_total(&mut self) -> bool {
        let empty = self.at(TokenKind::LParen) && self.kind_at(1) == TokenKind::RParen;
        if empty {
            self.advance();
            self.advance();
        }
        empty
    }

    /// An expression, or at `(` that is not one (`(a, b)`), a list of
    /// `element`s. `(a + b) * 2` is an expression: the list is tried
    /// only when no expression ends the element there.
    fn expr_or_list(
        &mut self,
        element: fn(&mut Self) -> Result<GroupByItem>,
    ) -> Result<GroupByItem> {
        if !self.at(TokenKind::LParen) {
            return Ok(GroupByItem::Expr(self.expr()?));
        }
        let start = self.pos;
        if let Ok(expr) = self.expr() {
            if matches!(self.kind(), TokenKind::Comma | TokenKind::RParen) {
                return Ok(GroupByItem::Expr(expr));
            }
        }
        self.pos = start;
        Ok(GroupByItem::Composite(self.grouping_list(element)?))
    }

    /// `(element, ...)`.
    fn grouping_list(
        &mut self,
        element: fn(&mut Self) -> Result<GroupByItem>,
    ) -> Result<Vec<GroupByItem>> {
        self.expect(TokenKind::LParen)?;
        let elements = self.nested(|parser| parser.comma_list(element))?;
        self.expect(TokenKind::RParen)?;
        Ok(elements)
    }

    pub(super) fn optional_where(&mut self) -> Result<Option<Expr>> {
        if self.eat_word("WHERE") {
            Ok(Some(self.expr()?))
        } else {
            Ok(None)
        }
    }

    /// `TOP n`, `TOP (expr)`, with PERCENT and WITH TIES.
    pub(super) fn optional_top(&mut self) -> Result<Option<Top>> {
        if !self.is_word("TOP") {
            return Ok(None);
        }
        let start = self.advance().span;
        let count = if self.at(TokenKind::LParen) {
            self.advance();
            let count = self.nested(Self::expr)?;
            self.expect(TokenKind::RParen)?;
            count
        } else if matches!(
            self.kind(),
            TokenKind::Integer | TokenKind::Decimal | TokenKind::Float | TokenKind::Variable
        ) {
            self.primary()?
        } else {
            return Err(self.error_here());
        };
        let percent = self.eat_word("PERCENT");
        let with_ties = if self.is_word("WITH") && self.is_word_at(1, "TIES") {
            self.advance();
            self.advance();
            true
        } else {
            false
        };
        Ok(Some(Top {
            count,
            percent,
            with_ties,
            span: self.span_from(start),
        }))
    }

    /// `*`, `t.*`, `@v = expr`, `alias = expr`, `expr [AS] alias`.
    pub(super) fn select_item(&mut self) -> Result<SelectItem> {
        let start = self.peek().span;
        if self.eat(TokenKind::Star) {
            return Ok(SelectItem::Wildcard {
                qualifier: None,
                span: start,
            });
        }
        if let Some(qualifier) = self.wildcard_qualifier()? {
            return Ok(SelectItem::Wildcard {
                qualifier: Some(qualifier),
                span: self.span_from(start),
            });
        }
        if self.at(TokenKind::Variable) && !self.text(self.peek()).starts_with("@@") {
            if let Some(op) = assign_op(self.kind_at(1)) {
                let variable = self.variable_name()?;
                self.advance();
                let value = self.scalar()?;
                return Ok(SelectItem::Assign {
                    variable,
                    op,
                    value,
                    span: self.span_from(start),
                });
            }
        }
        let named_first = matches!(
            self.kind(),
            TokenKind::Word | TokenKind::QuotedIdent | TokenKind::String | TokenKind::NString
        ) && self.kind_at(1) == TokenKind::Eq;
        if named_first && (self.at_ident() || !self.at(TokenKind::Word)) {
            let alias = self.alias_name()?;
            self.advance();
            let expr = self.scalar()?;
            return Ok(SelectItem::Expr {
                expr,
                alias: Some(alias),
                span: self.span_from(start),
            });
        }
        let expr = self.scalar()?;
        let alias = self.optional_alias()?;
        Ok(SelectItem::Expr {
            expr,
            alias,
            span: self.span_from(start),
        })
    }

    /// `a.b.*`: the qualifier before `.*`, consuming it all; otherwise
    /// nothing is consumed.
    fn wildcard_qualifier(&mut self) -> Result<Option<ObjectName>> {
        // At most `db.schema.table.*`.
        let mut ahead = 0;
        while ahead < 6
            && matches!(
                self.kind_at(ahead),
                TokenKind::Word | TokenKind::QuotedIdent
            )
            && self.kind_at(ahead + 1) == TokenKind::Dot
        {
            ahead += 2;
            if self.kind_at(ahead) == TokenKind::Star {
                let name = self.object_name_before_star()?;
                return Ok(Some(name));
            }
        }
        Ok(None)
    }

    fn object_name_before_star(&mut self) -> Result<ObjectName> {
        let start = self.peek().span;
        let mut parts = Vec::new();
        loop {
            parts.push(Some(self.ident()?));
            self.expect(TokenKind::Dot)?;
            if self.eat(TokenKind::Star) {
                break;
            }
        }
        let end = self.tokens[self.pos - 3].span;
        Ok(ObjectName {
            parts,
            span: start.to(end),
        })
    }

    /// `ORDER BY expr [ASC|DESC], ...`.
    pub(super) fn order_by_clause(&mut self) -> Result<Vec<OrderItem>> {
        self.expect_word("ORDER")?;
        self.expect_word("BY")?;
        self.comma_list(|parser| {
            let expr = parser.expr()?;
            let descending = if parser.eat_word("DESC") {
                true
            } else {
                parser.eat_word("ASC");
                false
            };
            Ok(OrderItem {
                span: parser.span_from(expr.span),
                expr,
                descending,
            })
        })
    }

    /// `OFFSET n ROW[S] [FETCH FIRST|NEXT m ROW[S] ONLY]`.
    fn offset_fetch(&mut self) -> Result<Option<OffsetFetch>> {
        if !self.is_word("OFFSET") {
            return Ok(None);
        }
        let start = self.advance().span;
        let offset = self.expr()?;
        self.expect_rows()?;
        let fetch = if self.eat_word("FETCH") {
            if !self.eat_word("NEXT") {
                self.expect_word("FIRST")?;
            }
            let count = self.expr()?;
            self.expect_rows()?;
            self.expect_word("ONLY")?;
            Some(count)
        } else {
            None
        };
        Ok(Some(OffsetFetch {
            offset,
            fetch,
            span: self.span_from(start),
        }))
    }

    fn expect_rows(&mut self) -> Result<()> {
        if self.eat_word("ROWS") || self.eat_word("ROW") {
            Ok(())
        } else {
            Err(self.error_here())
        }
    }

    // -- FROM ---------------------------------------------------------------

    /// A table source followed by any joins.
    pub(super) fn table_ref(&mut self) -> Result<TableRef> {
        let left = self.table_primary()?;
        self.joins(left)
    }

    fn joins(&mut self, mut left: TableRef) -> Result<TableRef> {
        let mut chain = 0;
        let result = loop {
            let Some((kind, hint)) = self.join_keywords()? else {
                break Ok(left);
            };
            if let Err(error) = self.enter(super::CHAIN_COST) {
                break Err(error);
            }
            chain += super::CHAIN_COST;
            match self.join_rest(left, kind, hint) {
                Ok(joined) => left = joined,
                Err(error) => break Err(error),
            }
        };
        self.leave(chain);
        result
    }

    /// The right side and ON condition of a join.
    fn join_rest(
        &mut self,
        left: TableRef,
        kind: JoinKind,
        hint: Option<JoinHint>,
    ) -> Result<TableRef> {
        let mut right = self.table_primary()?;
        let needs_on = !matches!(
            kind,
            JoinKind::Cross | JoinKind::CrossApply | JoinKind::OuterApply
        );
        // `a JOIN b JOIN c ON .. ON ..`: the inner join nests on the right.
        if needs_on && !self.is_word("ON") && self.at_join_keyword() {
            right = self.nested(|parser| parser.joins(right))?;
        }
        let on = if needs_on {
            self.expect_word("ON")?;
            Some(self.expr()?)
        } else {
            None
        };
        let span = left.span.to(self.previous_span());
        Ok(TableRef {
            kind: TableRefKind::Join {
                left: Box::new(left),
                right: Box::new(right),
                kind,
                hint,
                on,
            },
            span,
        })
    }

    fn at_join_keyword(&self) -> bool {
        self.is_any_word(&["JOIN", "INNER", "LEFT", "RIGHT", "FULL", "CROSS", "OUTER"])
    }

    /// Consumes `[INNER|LEFT [OUTER]|...] [hint] JOIN`, `CROSS JOIN`,
    /// `CROSS APPLY`, `OUTER APPLY`.
    fn join_keywords(&mut self) -> Result<Option<(JoinKind, Option<JoinHint>)>> {
        if self.eat_word("CROSS") {
            if self.eat_word("APPLY") {
                return Ok(Some((JoinKind::CrossApply, None)));
            }
            self.expect_word("JOIN")?;
            return Ok(Some((JoinKind::Cross, None)));
        }
        if self.is_word("OUTER") && self.is_word_at(1, "APPLY") {
            self.advance();
            self.advance();
            return Ok(Some((JoinKind::OuterApply, None)));
        }
        let kind = if self.eat_word("INNER") {
            JoinKind::Inner
        } else if self.is_any_word(&["LEFT", "RIGHT", "FULL"]) {
            let kind = match {
                let token = self.advance();
                self.text(token)
            }
            .to_ascii_uppercase()
            .as_str()
            {
                "LEFT" => JoinKind::Left,
                "RIGHT" => JoinKind::Right,
                _ => JoinKind::Full,
            };
            self.eat_word("OUTER");
            kind
        } else if self.is_word("JOIN") {
            JoinKind::Inner
        } else {
            return Ok(None);
        };
        let hint = if self.eat_word("LOOP") {
            Some(JoinHint::Loop)
        } else if self.eat_word("HASH") {
            Some(JoinHint::Hash)
        } else if self.eat_word("MERGE") {
            Some(JoinHint::Merge)
        } else if self.eat_word("REMOTE") {
            Some(JoinHint::Remote)
        } else {
            None
        };
        self.expect_word("JOIN")?;
        Ok(Some((kind, hint)))
    }

    fn table_primary(&mut self) -> Result<TableRef> {
        self.nested(|parser| {
            let start = parser.peek().span;
            let kind = parser.table_primary_kind()?;
            Ok(TableRef {
                kind,
                span: parser.span_from(start),
            })
        })
    }

    fn table_primary_kind(&mut self) -> Result<TableRefKind> {
        if self.at(TokenKind::LParen) {
            if self.at_query_in_parens() {
                let query = Box::new(self.parenthesised_query()?);
                let alias = self.required_alias()?;
                let columns = self.optional_column_aliases()?;
                return Ok(TableRefKind::Derived {
                    query,
                    alias,
                    columns,
                });
            }
            if self.is_word_at(1, "VALUES") {
                self.advance();
                self.advance();
                let rows = self.values_rows()?;
                self.expect(TokenKind::RParen)?;
                let alias = self.required_alias()?;
                let columns = self.optional_column_aliases()?;
                return Ok(TableRefKind::Values {
                    rows,
                    alias,
                    columns,
                });
            }
            self.advance();
            let inner = self.table_ref()?;
            self.expect(TokenKind::RParen)?;
            return Ok(inner.kind);
        }
        if self.at(TokenKind::Variable) {
            let name = self.variable_name()?;
            let alias = self.table_alias()?;
            return Ok(TableRefKind::Variable { name, alias });
        }
        let name = self.object_name()?;
        if self.at(TokenKind::LParen) && !self.at_legacy_hints() {
            let call = Box::new(self.function_call(name)?);
            let alias = self.table_alias()?;
            let columns = self.optional_column_aliases()?;
            return Ok(TableRefKind::Function {
                call,
                alias,
                columns,
            });
        }
        let alias = self.table_alias()?;
        let hints = self.table_hints()?;
        Ok(TableRefKind::Table { name, alias, hints })
    }

    fn required_alias(&mut self) -> Result<Ident> {
        self.eat_word("AS");
        self.ident()
    }

    /// `[AS] alias`, never a reserved word.
    fn table_alias(&mut self) -> Result<Option<Ident>> {
        if self.eat_word("AS") || self.at_ident() {
            return self.ident().map(Some);
        }
        Ok(None)
    }

    fn optional_column_aliases(&mut self) -> Result<Vec<Ident>> {
        if self.at(TokenKind::LParen) {
            self.ident_list_in_parens()
        } else {
            Ok(Vec::new())
        }
    }

    /// `(NOLOCK)` right after a table name.
    fn at_legacy_hints(&self) -> bool {
        self.kind() == TokenKind::LParen
            && LEGACY_HINTS.iter().any(|hint| self.is_word_at(1, hint))
            && matches!(
                self.kind_at(2),
                TokenKind::RParen | TokenKind::Comma | TokenKind::LParen
            )
    }

    /// `WITH (hint, ...)` or legacy `(hint, ...)`.
    pub(super) fn table_hints(&mut self) -> Result<Vec<TableHint>> {
        let with = self.is_word("WITH") && self.kind_at(1) == TokenKind::LParen;
        if !with && !self.at_legacy_hints() {
            return Ok(Vec::new());
        }
        if with {
            self.advance();
        }
        self.expect(TokenKind::LParen)?;
        let mut hints = Vec::new();
        loop {
            hints.push(self.table_hint()?);
            if self.eat(TokenKind::RParen) {
                return Ok(hints);
            }
            self.eat(TokenKind::Comma);
        }
    }

    fn table_hint(&mut self) -> Result<TableHint> {
        if !self.at(TokenKind::Word) {
            return Err(self.error_here());
        }
        let name = self.word_ident();
        let mut args = Vec::new();
        if self.eat(TokenKind::Eq) {
            args.push(self.hint_arg()?);
        } else if self.eat(TokenKind::LParen) {
            args = self.comma_list(Self::hint_arg)?;
            self.expect(TokenKind::RParen)?;
        }
        Ok(TableHint {
            span: self.span_from(name.span),
            name,
            args,
        })
    }

    /// An index name or number in `INDEX(...)`.
    fn hint_arg(&mut self) -> Result<Expr> {
        if self.at(TokenKind::Integer) {
            return self.primary();
        }
        let name = self.ident()?;
        Ok(Expr {
            span: name.span,
            kind: ExprKind::Column(vec![name]),
        })
    }

    /// `(a, b), (c, d)` after VALUES.
    pub(super) fn values_rows(&mut self) -> Result<Vec<Vec<Expr>>> {
        self.comma_list(|parser| {
            parser.expect(TokenKind::LParen)?;
            let row = parser.nested(|parser| parser.comma_list(Self::value_or_default))?;
            parser.expect(TokenKind::RParen)?;
            Ok(row)
        })
    }

    /// An expression, or `DEFAULT` where a column default may be asked for.
    pub(super) fn value_or_default(&mut self) -> Result<Expr> {
        if self.is_word("DEFAULT") {
            let span = self.advance().span;
            return Ok(Expr {
                kind: ExprKind::Default,
                span,
            });
        }
        self.expr()
    }
}

/// The assignment operator a token stands for, if any.
pub(super) fn assign_op(kind: TokenKind) -> Option<AssignOp> {
    Some(match kind {
        TokenKind::Eq => AssignOp::Assign,
        TokenKind::PlusEq => AssignOp::Add,
        TokenKind::MinusEq => AssignOp::Subtract,
        TokenKind::StarEq => AssignOp::Multiply,
        TokenKind::SlashEq => AssignOp::Divide,
        TokenKind::PercentEq => AssignOp::Modulo,
        TokenKind::AmpEq => AssignOp::BitAnd,
        TokenKind::PipeEq => AssignOp::BitOr,
        TokenKind::CaretEq => AssignOp::BitXor,
        _ => return None,
    })
}
