//! Recursive-descent T-SQL parser. One [`Parser`] walks the token vector of
//! a batch; the grammar is split by area: [`expr`], [`query`], [`dml`],
//! [`ddl`], [`procedural`]. Keywords are matched case-insensitively on
//! `Word` tokens; reserved ones (see [`crate::keywords`]) never become
//! names.
//!
//! Limits: nesting (parentheses, subqueries, blocks, unary chains) and
//! operator chains share one depth budget, [`MAX_DEPTH`], so every tree the
//! parser builds can be walked recursively (printed, bound, dropped) on an
//! ordinary thread stack. Beyond it the batch fails with Msg 191.

mod ddl;
mod dml;
mod expr;
mod procedural;
mod query;

use crate::ast::*;
use crate::error::SyntaxError;
use crate::keywords::UpperWord;
use crate::lexer::{quoted_ident_value, tokenize, Token, TokenKind};
use crate::span::Span;

/// Depth budget of one batch's tree (see the module docs).
pub const MAX_DEPTH: u32 = 1024;
/// Budget one level of nesting costs: a nested level takes several stack
/// frames while parsing, an operator in a chain only one tree level.
const NEST_COST: u32 = 8;
const CHAIN_COST: u32 = 1;

type Result<T> = std::result::Result<T, SyntaxError>;

/// Statements SQL Server has that hekla refuses with Msg 10794.
const UNSUPPORTED_STATEMENTS: &[&str] = &[
    "BACKUP",
    "RESTORE",
    "BULK",
    "OPEN",
    "FETCH",
    "CLOSE",
    "DEALLOCATE",
    "KILL",
    "RECONFIGURE",
    "SHUTDOWN",
    "READTEXT",
    "WRITETEXT",
    "UPDATETEXT",
    "DUMP",
    "LOAD",
    "SETUSER",
    "REVERT",
];

/// Objects after CREATE / ALTER that hekla refuses with Msg 10794.
const UNSUPPORTED_OBJECTS: &[&str] = &[
    "TRIGGER",
    "PARTITION",
    "RESOURCE",
    "SERVER",
    "ASSEMBLY",
    "SYNONYM",
    "XML",
    "FULLTEXT",
    "CERTIFICATE",
    "MASTER",
    "SYMMETRIC",
    "ASYMMETRIC",
    "CREDENTIAL",
    "EVENT",
    "QUEUE",
    "SERVICE",
    "ENDPOINT",
    "RULE",
    "AGGREGATE",
    "AVAILABILITY",
    "WORKLOAD",
];

/// Parses one batch (the text between `GO` lines).
pub fn parse_batch(source: &str) -> Result<Batch> {
    let tokens = tokenize(source)?;
    let mut parser = Parser {
        source,
        tokens,
        pos: 0,
        depth: 0,
        option_depth: 0,
        in_module: false,
    };
    let statements = parser.statements_until_end()?;
    Ok(Batch { statements })
}

pub(crate) struct Parser<'a> {
    source: &'a str,
    tokens: Vec<Token>,
    pos: usize,
    depth: u32,
    /// How many `(...)` option lists enclose the current token.
    option_depth: u32,
    /// Inside a procedure's or function's definition (no USE there).
    in_module: bool,
}

impl<'a> Parser<'a> {
    // -- token access -------------------------------------------------------

    fn peek(&self) -> Token {
        self.tokens[self.pos]
    }

    fn peek_at(&self, ahead: usize) -> Token {
        let last = self.tokens.len() - 1;
        self.tokens[(self.pos + ahead).min(last)]
    }

    fn kind(&self) -> TokenKind {
        self.tokens[self.pos].kind
    }

    fn kind_at(&self, ahead: usize) -> TokenKind {
        self.peek_at(ahead).kind
    }

    fn text(&self, token: Token) -> &'a str {
        token.span.text(self.source)
    }

    fn advance(&mut self) -> Token {
        let token = self.tokens[self.pos];
        if token.kind != TokenKind::Eof {
            self.pos += 1;
        }
        token
    }

    /// Span of the token just consumed.
    fn previous_span(&self) -> Span {
        self.tokens[self.pos.saturating_sub(1)].span
    }

    /// Span from `start` to the end of the last consumed token.
    fn span_from(&self, start: Span) -> Span {
        start.to(self.previous_span())
    }

    fn at(&self, kind: TokenKind) -> bool {
        self.kind() == kind
    }

    fn eat(&mut self, kind: TokenKind) -> bool {
        if self.at(kind) {
            self.advance();
            true
        } else {
            false
        }
    }

    fn expect(&mut self, kind: TokenKind) -> Result<Token> {
        if self.at(kind) {
            Ok(self.advance())
        } else {
            Err(self.error_here())
        }
    }

    /// True if the token `ahead` is the unquoted word `keyword` (any case).
    fn is_word_at(&self, ahead: usize, keyword: &str) -> bool {
        let token = self.peek_at(ahead);
        token.kind == TokenKind::Word && self.text(token).eq_ignore_ascii_case(keyword)
    }

    fn is_word(&self, keyword: &str) -> bool {
        self.is_word_at(0, keyword)
    }

    fn is_any_word(&self, keywords: &[&str]) -> bool {
        keywords.iter().any(|keyword| self.is_word(keyword))
    }

    fn eat_word(&mut self, keyword: &str) -> bool {
        if self.is_word(keyword) {
            self.advance();
            true
        } else {
            false
        }
    }

    fn expect_word(&mut self, keyword: &str) -> Result<Span> {
        if self.is_word(keyword) {
            Ok(self.advance().span)
        } else {
            Err(self.error_here())
        }
    }

    /// `TRAN` or `TRANSACTION`.
    fn eat_tran(&mut self) -> bool {
        self.eat_word("TRAN") || self.eat_word("TRANSACTION")
    }

    /// True if the current token is a word that is not reserved.
    fn at_plain_word(&self) -> bool {
        self.at(TokenKind::Word) && !self.peek().reserved
    }

    // -- errors -------------------------------------------------------------

    /// The error SQL Server gives at the current token: 156 near a keyword,
    /// 102 otherwise; at the end of the batch, near the last token.
    fn error_here(&self) -> SyntaxError {
        let mut token = self.peek();
        if token.kind == TokenKind::Eof && self.pos > 0 {
            token = self.tokens[self.pos - 1];
        }
        self.error_at(token)
    }

    fn error_at(&self, token: Token) -> SyntaxError {
        let text = self.text(token);
        if token.reserved {
            SyntaxError::near_keyword(text, token.span.line)
        } else {
            SyntaxError::near(text, token.span.line)
        }
    }

    // -- depth --------------------------------------------------------------

    fn enter(&mut self, cost: u32) -> Result<()> {
        self.depth += cost;
        if self.depth > MAX_DEPTH {
            return Err(SyntaxError::nested_too_deeply(self.peek().span.line));
        }
        Ok(())
    }

    fn leave(&mut self, cost: u32) {
        self.depth -= cost;
    }

    /// Runs `parse` one nesting level deeper.
    fn nested<T>(&mut self, parse: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        self.enter(NEST_COST)?;
        let result = parse(self);
        self.leave(NEST_COST);
        result
    }

    // -- names --------------------------------------------------------------

    /// An identifier: an unreserved word or a quoted name.
    fn ident(&mut self) -> Result<Ident> {
        match self.kind() {
            TokenKind::Word if !self.peek().reserved => Ok(self.word_ident()),
            TokenKind::QuotedIdent => {
                let token = self.advance();
                Ok(Ident {
                    value: quoted_ident_value(self.text(token)),
                    span: token.span,
                })
            }
            _ => Err(self.error_here()),
        }
    }

    /// Any word, reserved or not, as an identifier (option names, hints).
    fn word_ident(&mut self) -> Ident {
        let token = self.advance();
        Ident {
            value: self.text(token).to_string(),
            span: token.span,
        }
    }

    /// An identifier or any keyword: for positions where SQL Server takes
    /// keywords as names (option words, principals such as `public`).
    fn any_ident(&mut self) -> Result<Ident> {
        if self.at(TokenKind::Word) {
            Ok(self.word_ident())
        } else {
            self.ident()
        }
    }

    /// A part after a dot: there even reserved words are names
    /// (`c.precision`, `sys.columns.default`).
    fn name_after_dot(&mut self) -> Result<Ident> {
        if self.at(TokenKind::Word) {
            return Ok(self.word_ident());
        }
        self.ident()
    }

    fn at_ident(&self) -> bool {
        self.at_plain_word() || self.at(TokenKind::QuotedIdent)
    }

    /// `a`, `a.b`, `a.b.c`, `a.b.c.d`, with omitted middle parts (`db..t`).
    fn object_name(&mut self) -> Result<ObjectName> {
        let first = self.ident()?;
        let start = first.span;
        let mut parts = vec![Some(first)];
        while self.at(TokenKind::Dot) && parts.len() < 4 {
            self.advance();
            if self.at(TokenKind::Dot) {
                parts.push(None);
                continue;
            }
            parts.push(Some(self.name_after_dot()?));
        }
        if parts.last().is_some_and(Option::is_none) {
            return Err(self.error_here());
        }
        Ok(ObjectName {
            parts,
            span: self.span_from(start),
        })
    }

    /// `(a, b, c)`.
    fn ident_list_in_parens(&mut self) -> Result<Vec<Ident>> {
        self.expect(TokenKind::LParen)?;
        let list = self.comma_list(Self::ident)?;
        self.expect(TokenKind::RParen)?;
        Ok(list)
    }

    /// One or more `item`s separated by commas.
    fn comma_list<T>(&mut self, mut item: impl FnMut(&mut Self) -> Result<T>) -> Result<Vec<T>> {
        let mut items = vec![item(self)?];
        while self.eat(TokenKind::Comma) {
            items.push(item(self)?);
        }
        Ok(items)
    }

    /// `@name` without the `@`.
    fn variable_name(&mut self) -> Result<String> {
        let token = self.expect(TokenKind::Variable)?;
        Ok(self.text(token)[1..].to_string())
    }

    /// An alias after `AS`, or a bare unreserved word / quoted name, or a
    /// string (`SELECT 1 'x'`).
    fn optional_alias(&mut self) -> Result<Option<Ident>> {
        if self.eat_word("AS") {
            return self.alias_name().map(Some);
        }
        if self.at_ident() || self.at(TokenKind::String) {
            return self.alias_name().map(Some);
        }
        Ok(None)
    }

    fn alias_name(&mut self) -> Result<Ident> {
        if matches!(self.kind(), TokenKind::String | TokenKind::NString) {
            let token = self.advance();
            let value = crate::lexer::string_value(self.text(token));
            if value.chars().count() > crate::error::MAX_IDENTIFIER_LENGTH {
                return Err(SyntaxError::identifier_too_long(&value, token.span.line));
            }
            if value.is_empty() {
                return Err(SyntaxError::empty_name(token.span.line));
            }
            return Ok(Ident {
                value,
                span: token.span,
            });
        }
        self.ident()
    }

    // -- statements ---------------------------------------------------------

    /// Statements until the end of the batch.
    fn statements_until_end(&mut self) -> Result<Vec<Statement>> {
        let mut statements = Vec::new();
        loop {
            while self.eat(TokenKind::Semicolon) {}
            if self.at(TokenKind::Eof) {
                return Ok(statements);
            }
            statements.push(self.statement()?);
        }
    }

    /// Statements until the word `END` (not consumed).
    fn statements_until_end_keyword(&mut self) -> Result<Vec<Statement>> {
        let mut statements = Vec::new();
        loop {
            while self.eat(TokenKind::Semicolon) {}
            if self.is_word("END") || self.at(TokenKind::Eof) {
                return Ok(statements);
            }
            statements.push(self.statement()?);
        }
    }

    fn statement(&mut self) -> Result<Statement> {
        self.nested(|parser| {
            let start = parser.peek().span;
            let kind = parser.statement_kind()?;
            Ok(Statement {
                kind,
                span: parser.span_from(start),
            })
        })
    }

    fn statement_kind(&mut self) -> Result<StatementKind> {
        let token = self.peek();
        if token.kind == TokenKind::LParen {
            return self.select_statement(Vec::new());
        }
        if token.kind == TokenKind::Word && self.kind_at(1) == TokenKind::Colon && !token.reserved {
            let label = self.ident()?;
            self.advance();
            return Ok(StatementKind::Label(label));
        }
        if token.kind != TokenKind::Word {
            return Err(self.error_here());
        }
        let word = UpperWord::new(self.text(token));
        let word = word.as_str();
        match word {
            "SELECT" => self.select_statement(Vec::new()),
            "WITH" => self.with_statement(),
            "INSERT" => self.insert(Vec::new()),
            "UPDATE" if self.is_word_at(1, "STATISTICS") => self.update_statistics(),
            "UPDATE" => self.update(Vec::new()),
            "DELETE" => self.delete(Vec::new()),
            "TRUNCATE" => {
                self.advance();
                self.expect_word("TABLE")?;
                Ok(StatementKind::Truncate(self.object_name()?))
            }
            "MERGE" => Err(SyntaxError::not_supported_with_memory_optimized(
                "MERGE",
                token.span.line,
            )),
            "CREATE" => self.create(),
            "ALTER" => self.alter(),
            "DROP" => self.drop(),
            "GRANT" | "DENY" | "REVOKE" => self.permission(),
            "DECLARE" => self.declare(),
            "SET" => self.set(),
            "IF" => self.if_statement(),
            "WHILE" => self.while_statement(),
            "BEGIN" => self.begin(),
            "COMMIT" => self.commit(),
            "ROLLBACK" => self.rollback(),
            "SAVE" => self.save_transaction(),
            "BREAK" => {
                self.advance();
                Ok(StatementKind::Break)
            }
            "CONTINUE" => {
                self.advance();
                Ok(StatementKind::Continue)
            }
            "RETURN" => self.return_statement(),
            "GOTO" => {
                self.advance();
                Ok(StatementKind::Goto(self.ident()?))
            }
            "THROW" => self.throw(),
            "RAISERROR" => self.raiserror(),
            "PRINT" => {
                self.advance();
                Ok(StatementKind::Print(self.expr()?))
            }
            "WAITFOR" => self.waitfor(),
            "EXEC" | "EXECUTE" => self.exec_statement(),
            "USE" if self.in_module => Err(SyntaxError::use_in_module(self.peek().span.line)),
            "USE" => {
                self.advance();
                Ok(StatementKind::Use(self.ident()?))
            }
            "DBCC" => self.dbcc(),
            "CHECKPOINT" => {
                self.advance();
                let duration = if self.at(TokenKind::Integer) {
                    Some(self.expr()?)
                } else {
                    None
                };
                Ok(StatementKind::Checkpoint(duration))
            }
            _ if UNSUPPORTED_STATEMENTS.contains(&word) => {
                Err(SyntaxError::unsupported(word, token.span.line))
            }
            // A procedure call without EXEC is allowed as a batch's first
            // statement.
            _ if self.pos == 0 && !token.reserved => {
                Ok(StatementKind::Exec(Box::new(self.exec_call()?)))
            }
            _ => Err(self.error_here()),
        }
    }

    /// After CREATE or ALTER: a statement hekla knows and does not run, or
    /// a syntax error.
    fn unsupported_object(&self, verb: &str) -> SyntaxError {
        let token = self.peek();
        let word = self.text(token).to_ascii_uppercase();
        if token.kind == TokenKind::Word && UNSUPPORTED_OBJECTS.contains(&word.as_str()) {
            return SyntaxError::unsupported(&format!("{verb} {word}"), token.span.line);
        }
        self.error_here()
    }

    /// `WITH cte AS (...) SELECT | INSERT | UPDATE | DELETE`.
    fn with_statement(&mut self) -> Result<StatementKind> {
        let ctes = self.ctes()?;
        if self.is_word("SELECT") || self.at(TokenKind::LParen) {
            self.select_statement(ctes)
        } else if self.is_word("INSERT") {
            self.insert(ctes)
        } else if self.is_word("UPDATE") {
            self.update(ctes)
        } else if self.is_word("DELETE") {
            self.delete(ctes)
        } else if self.is_word("MERGE") {
            Err(SyntaxError::not_supported_with_memory_optimized(
                "MERGE",
                self.peek().span.line,
            ))
        } else {
            Err(self.error_here())
        }
    }

    /// `OPTION (hint, ...)` if present.
    fn query_hints(&mut self) -> Result<Vec<QueryHint>> {
        if !self.eat_word("OPTION") {
            return Ok(Vec::new());
        }
        self.expect(TokenKind::LParen)?;
        let hints = self.comma_list(Self::query_hint)?;
        self.expect(TokenKind::RParen)?;
        Ok(hints)
    }

    fn query_hint(&mut self) -> Result<QueryHint> {
        let start = self.peek().span;
        let mut words = Vec::new();
        while self.at(TokenKind::Word) {
            words.push(self.word_ident());
        }
        if words.is_empty() {
            return Err(self.error_here());
        }
        self.eat(TokenKind::Eq);
        let value = if matches!(
            self.kind(),
            TokenKind::Integer | TokenKind::Decimal | TokenKind::Variable
        ) {
            Some(self.primary()?)
        } else {
            None
        };
        let args = if value.is_none() && self.at(TokenKind::LParen) {
            self.advance();
            let args = self.comma_list(Self::expr)?;
            self.expect(TokenKind::RParen)?;
            args
        } else {
            Vec::new()
        };
        Ok(QueryHint {
            words,
            value,
            args,
            span: self.span_from(start),
        })
    }

    /// `(NAME = value, ...)`: a parenthesised option list.
    fn option_list(&mut self) -> Result<Vec<OptionItem>> {
        self.expect(TokenKind::LParen)?;
        self.option_depth += 1;
        let items = self.comma_list(Self::option_item);
        self.option_depth -= 1;
        let items = items?;
        self.expect(TokenKind::RParen)?;
        Ok(items)
    }

    /// `WITH (options)` if present.
    fn optional_with_options(&mut self) -> Result<Vec<OptionItem>> {
        if self.is_word("WITH") && self.kind_at(1) == TokenKind::LParen {
            self.advance();
            return self.option_list();
        }
        Ok(Vec::new())
    }

    /// `NAME [WORDS] [= value]`.
    fn option_item(&mut self) -> Result<OptionItem> {
        let start = self.peek().span;
        let mut name = vec![self.any_ident()?];
        while self.at(TokenKind::Word) && !self.at_end_of_option() {
            name.push(self.word_ident());
        }
        let value = if self.eat(TokenKind::Eq) {
            Some(self.option_value()?)
        } else {
            None
        };
        Ok(OptionItem {
            name,
            value,
            span: self.span_from(start),
        })
    }

    fn at_end_of_option(&self) -> bool {
        matches!(
            self.kind(),
            TokenKind::Comma | TokenKind::RParen | TokenKind::Eq | TokenKind::Eof
        )
    }

    /// The value after `NAME =`. Inside parentheses a value runs to the
    /// next `,` or `)` (`REPEATABLE READ`); in a bare list a reserved word
    /// ends it.
    fn option_value(&mut self) -> Result<OptionValue> {
        if self.at(TokenKind::LParen) {
            return Ok(OptionValue::List(self.option_list()?));
        }
        if self.at(TokenKind::QuotedIdent) {
            return Ok(OptionValue::Words(vec![self.ident()?]));
        }
        if self.at(TokenKind::Word) && !self.is_word("NULL") {
            let in_parens = self.option_depth > 0;
            let mut words = vec![self.word_ident()];
            while self.at(TokenKind::Word)
                && !(self.at_end_of_option() || (!in_parens && self.at_option_boundary()))
            {
                words.push(self.word_ident());
            }
            return Ok(OptionValue::Words(words));
        }
        if let Some(size) = self.size_literal() {
            return Ok(OptionValue::Expr(size));
        }
        Ok(OptionValue::Expr(self.expr()?))
    }

    /// `100MB` file sizes and `10%` growth: digits directly followed by a
    /// unit, kept as one integer literal with its unit.
    fn size_literal(&mut self) -> Option<Expr> {
        let number = self.peek();
        let unit = self.peek_at(1);
        let is_unit = match unit.kind {
            TokenKind::Word => ["KB", "MB", "GB", "TB"]
                .iter()
                .any(|u| self.text(unit).eq_ignore_ascii_case(u)),
            TokenKind::Percent => true,
            _ => false,
        };
        if number.kind != TokenKind::Integer || unit.span.start != number.span.end || !is_unit {
            return None;
        }
        self.pos += 2;
        let span = number.span.to(unit.span);
        Some(Expr {
            kind: ExprKind::Literal(Literal::Integer(span.text(self.source).to_string())),
            span,
        })
    }

    /// In an unparenthesised `WITH a = 1, b = 2` list, the words that end
    /// the list because a new clause or statement begins.
    fn at_option_boundary(&self) -> bool {
        self.at_end_of_option() || self.peek().reserved
    }
}

#[cfg(test)]
mod tests;
