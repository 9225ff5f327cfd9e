//! Expressions, by precedence climbing: OR < AND < NOT < comparisons and
//! predicates < additive < multiplicative < unary < COLLATE < primaries.
//! The levels match [`crate::ast::precedence`], which the printer uses.

use super::{Parser, Result, CHAIN_COST};
use crate::ast::*;
use crate::keywords::{is_reserved, UpperWord};
use crate::lexer::{string_value, TokenKind};

/// Reserved words that are nonetheless called like functions.
const RESERVED_FUNCTIONS: &[&str] = &["LEFT", "RIGHT", "COALESCE", "NULLIF"];

/// Niladic keywords and the function calls they stand for.
const NILADIC: &[(&str, &str)] = &[
    ("CURRENT_TIMESTAMP", "GETDATE"),
    ("CURRENT_USER", "USER_NAME"),
    ("SESSION_USER", "USER_NAME"),
    ("USER", "USER_NAME"),
    ("SYSTEM_USER", "SUSER_SNAME"),
];

impl Parser<'_> {
    pub(super) fn expr(&mut self) -> Result<Expr> {
        self.binary_chain(precedence::OR)
    }

    /// Left-associative chains of binary operators at `level` and above.
    fn binary_chain(&mut self, level: u8) -> Result<Expr> {
        let mut left = self.binary_operand(level)?;
        let mut chain = 0;
        let result = loop {
            let Some(op) = self.binary_operator(level) else {
                break Ok(left);
            };
            self.advance();
            if let Err(error) = self.enter(CHAIN_COST) {
                break Err(error);
            }
            chain += CHAIN_COST;
            let right = match self.binary_operand(level) {
                Ok(right) => right,
                Err(error) => break Err(error),
            };
            let span = left.span.to(right.span);
            left = Expr {
                kind: ExprKind::Binary {
                    op,
                    left: Box::new(left),
                    right: Box::new(right),
                },
                span,
            };
        };
        self.leave(chain);
        result
    }

    fn binary_operand(&mut self, level: u8) -> Result<Expr> {
        match level {
            precedence::OR => self.binary_chain(precedence::AND),
            precedence::AND => self.not_expr(),
            precedence::ADDITIVE => self.binary_chain(precedence::MULTIPLICATIVE),
            _ => self.unary(),
        }
    }

    /// The binary operator at the current token, if it belongs to `level`.
    fn binary_operator(&self, level: u8) -> Option<BinaryOp> {
        let op = match self.kind() {
            TokenKind::Star => BinaryOp::Multiply,
            TokenKind::Slash => BinaryOp::Divide,
            TokenKind::Percent => BinaryOp::Modulo,
            TokenKind::Plus => BinaryOp::Add,
            TokenKind::Minus => BinaryOp::Subtract,
            TokenKind::Amp => BinaryOp::BitAnd,
            TokenKind::Pipe => BinaryOp::BitOr,
            TokenKind::Caret => BinaryOp::BitXor,
            TokenKind::Word if self.is_word("AND") => BinaryOp::And,
            TokenKind::Word if self.is_word("OR") => BinaryOp::Or,
            _ => return None,
        };
        (op.precedence() == level).then_some(op)
    }

    fn not_expr(&mut self) -> Result<Expr> {
        if !self.is_word("NOT") {
            return self.comparison();
        }
        let start = self.advance().span;
        let operand = self.nested(Self::not_expr)?;
        Ok(Expr {
            span: start.to(operand.span),
            kind: ExprKind::Unary {
                op: UnaryOp::Not,
                operand: Box::new(operand),
            },
        })
    }

    fn comparison_operator(&self) -> Option<BinaryOp> {
        Some(match self.kind() {
            TokenKind::Eq => BinaryOp::Eq,
            TokenKind::Ne => BinaryOp::Ne,
            TokenKind::Lt => BinaryOp::Lt,
            TokenKind::Le => BinaryOp::Le,
            TokenKind::Gt => BinaryOp::Gt,
            TokenKind::Ge => BinaryOp::Ge,
            TokenKind::NotLt => BinaryOp::NotLt,
            TokenKind::NotGt => BinaryOp::NotGt,
            _ => return None,
        })
    }

    /// An additive expression followed by at most one comparison or
    /// predicate (`=`, BETWEEN, IN, LIKE, IS NULL, `> ALL (...)`).
    fn comparison(&mut self) -> Result<Expr> {
        let left = self.additive()?;
        let start = left.span;
        if let Some(op) = self.comparison_operator() {
            self.advance();
            if let Some(quantifier) = self.quantifier() {
                self.advance();
                let query = self.parenthesised_query()?;
                return Ok(Expr {
                    kind: ExprKind::Quantified {
                        expr: Box::new(left),
                        op,
                        quantifier,
                        query: Box::new(query),
                    },
                    span: self.span_from(start),
                });
            }
            let right = self.additive()?;
            return Ok(Expr {
                span: start.to(right.span),
                kind: ExprKind::Binary {
                    op,
                    left: Box::new(left),
                    right: Box::new(right),
                },
            });
        }
        let negated = self.is_word("NOT") && self.is_predicate_word_at(1);
        if negated {
            self.advance();
        }
        let expr = Box::new(left);
        let kind = if self.eat_word("BETWEEN") {
            let low = Box::new(self.additive()?);
            self.expect_word("AND")?;
            let high = Box::new(self.additive()?);
            ExprKind::Between {
                expr,
                negated,
                low,
                high,
            }
        } else if self.eat_word("IN") {
            self.in_predicate(expr, negated)?
        } else if self.eat_word("LIKE") {
            let pattern = Box::new(self.additive()?);
            let escape = if self.eat_word("ESCAPE") {
                Some(Box::new(self.additive()?))
            } else {
                None
            };
            ExprKind::Like {
                expr,
                negated,
                pattern,
                escape,
            }
        } else if self.eat_word("IS") {
            let negated = self.eat_word("NOT");
            self.expect_word("NULL")?;
            ExprKind::IsNull { expr, negated }
        } else {
            return Ok(*expr);
        };
        Ok(Expr {
            kind,
            span: self.span_from(start),
        })
    }

    fn is_predicate_word_at(&self, ahead: usize) -> bool {
        ["BETWEEN", "IN", "LIKE"]
            .iter()
            .any(|word| self.is_word_at(ahead, word))
    }

    fn quantifier(&self) -> Option<Quantifier> {
        if self.kind_at(1) != TokenKind::LParen {
            return None;
        }
        if self.is_word("ANY") {
            Some(Quantifier::Any)
        } else if self.is_word("SOME") {
            Some(Quantifier::Some)
        } else if self.is_word("ALL") {
            Some(Quantifier::All)
        } else {
            None
        }
    }

    /// After `IN`: `(SELECT ...)` or `(a, b, ...)`.
    fn in_predicate(&mut self, expr: Box<Expr>, negated: bool) -> Result<ExprKind> {
        if self.at_query_in_parens() {
            let query = Box::new(self.parenthesised_query()?);
            return Ok(ExprKind::InSubquery {
                expr,
                negated,
                query,
            });
        }
        self.expect(TokenKind::LParen)?;
        let list = self.nested(|parser| parser.comma_list(Self::expr))?;
        self.expect(TokenKind::RParen)?;
        Ok(ExprKind::InList {
            expr,
            negated,
            list,
        })
    }

    /// True at `(` that opens a query (`(SELECT`, `(WITH`, `((SELECT`).
    pub(super) fn at_query_in_parens(&self) -> bool {
        let mut ahead = 0;
        while self.kind_at(ahead) == TokenKind::LParen {
            ahead += 1;
        }
        ahead > 0 && (self.is_word_at(ahead, "SELECT") || self.is_word_at(ahead, "WITH"))
    }

    /// `(query)`.
    pub(super) fn parenthesised_query(&mut self) -> Result<Query> {
        self.expect(TokenKind::LParen)?;
        let query = self.nested(Self::query)?;
        self.expect(TokenKind::RParen)?;
        Ok(query)
    }

    /// A scalar expression: arithmetic and below, no bare predicates
    /// (select items, where SQL Server allows no boolean).
    pub(super) fn scalar(&mut self) -> Result<Expr> {
        self.additive()
    }

    pub(super) fn additive(&mut self) -> Result<Expr> {
        self.binary_chain(precedence::ADDITIVE)
    }

    /// Unary `- + ~`, then a primary with an optional COLLATE.
    pub(super) fn unary(&mut self) -> Result<Expr> {
        let op = match self.kind() {
            TokenKind::Minus => UnaryOp::Minus,
            TokenKind::Plus => UnaryOp::Plus,
            TokenKind::Tilde => UnaryOp::BitNot,
            _ => return self.collated(),
        };
        let start = self.advance().span;
        let operand = self.nested(Self::unary)?;
        Ok(Expr {
            span: start.to(operand.span),
            kind: ExprKind::Unary {
                op,
                operand: Box::new(operand),
            },
        })
    }

    /// A primary with any `COLLATE c` / `AT TIME ZONE z` after it.
    fn collated(&mut self) -> Result<Expr> {
        let mut expr = self.primary()?;
        let mut chain = 0;
        let result = loop {
            let kind = if self.is_word("COLLATE") {
                self.advance();
                match self.ident() {
                    Ok(collation) => ExprKind::Collate {
                        expr: Box::new(expr),
                        collation,
                    },
                    Err(error) => break Err(error),
                }
            } else if self.is_word("AT") && self.is_word_at(1, "TIME") && self.is_word_at(2, "ZONE")
            {
                self.pos += 3;
                match self.primary() {
                    Ok(zone) => ExprKind::AtTimeZone {
                        expr: Box::new(expr),
                        zone: Box::new(zone),
                    },
                    Err(error) => break Err(error),
                }
            } else {
                break Ok(expr);
            };
            if let Err(error) = self.enter(CHAIN_COST) {
                break Err(error);
            }
            chain += CHAIN_COST;
            let start = match &kind {
                ExprKind::Collate { expr, .. } | ExprKind::AtTimeZone { expr, .. } => expr.span,
                _ => unreachable!("only postfix forms are built here"),
            };
            expr = Expr {
                kind,
                span: self.span_from(start),
            };
        };
        self.leave(chain);
        result
    }

    pub(super) fn primary(&mut self) -> Result<Expr> {
        let token = self.peek();
        let literal = |parser: &mut Self, literal| {
            parser.advance();
            Ok(Expr {
                kind: ExprKind::Literal(literal),
                span: token.span,
            })
        };
        let text = self.text(token);
        match token.kind {
            TokenKind::Integer => literal(self, Literal::Integer(text.to_string())),
            TokenKind::Decimal => literal(self, Literal::Decimal(text.to_string())),
            TokenKind::Float => literal(self, Literal::Float(text.to_string())),
            TokenKind::Money => literal(self, Literal::Money(text[1..].to_string())),
            TokenKind::String | TokenKind::NString => {
                let value = string_value(text);
                let national = token.kind == TokenKind::NString;
                literal(self, Literal::String { value, national })
            }
            TokenKind::Binary => literal(self, Literal::Binary(decode_hex(&text[2..]))),
            TokenKind::Variable => {
                self.advance();
                let kind = match text.strip_prefix("@@") {
                    Some(name) => ExprKind::GlobalVariable(name.to_string()),
                    None => ExprKind::Variable(text[1..].to_string()),
                };
                Ok(Expr {
                    kind,
                    span: token.span,
                })
            }
            TokenKind::LParen => self.parenthesised_expr(),
            TokenKind::Word => self.word_expr(),
            TokenKind::QuotedIdent => self.name_expr(),
            _ => Err(self.error_here()),
        }
    }

    /// `(SELECT ...)` as a scalar subquery, or `(expr)`.
    fn parenthesised_expr(&mut self) -> Result<Expr> {
        let start = self.peek().span;
        if self.at_query_in_parens() {
            let query = self.parenthesised_query()?;
            return Ok(Expr {
                kind: ExprKind::Subquery(Box::new(query)),
                span: self.span_from(start),
            });
        }
        self.advance();
        let inner = self.nested(Self::expr)?;
        self.expect(TokenKind::RParen)?;
        Ok(inner)
    }

    /// Keyword-led forms, then names and calls.
    fn word_expr(&mut self) -> Result<Expr> {
        let token = self.peek();
        let start = token.span;
        let word = UpperWord::new(self.text(token));
        let word = word.as_str();
        let kind = match word {
            "NULL" => {
                self.advance();
                ExprKind::Literal(Literal::Null)
            }
            "CASE" => self.case_expr()?,
            "CAST" | "TRY_CAST" if self.kind_at(1) == TokenKind::LParen => {
                self.advance();
                self.advance();
                let expr = Box::new(self.nested(Self::expr)?);
                self.expect_word("AS")?;
                let data_type = self.data_type()?;
                self.expect(TokenKind::RParen)?;
                ExprKind::Cast {
                    expr,
                    data_type,
                    is_try: word == "TRY_CAST",
                }
            }
            "CONVERT" | "TRY_CONVERT" if self.kind_at(1) == TokenKind::LParen => {
                self.advance();
                self.advance();
                let data_type = self.data_type()?;
                self.expect(TokenKind::Comma)?;
                let expr = Box::new(self.nested(Self::expr)?);
                let style = if self.eat(TokenKind::Comma) {
                    Some(Box::new(self.expr()?))
                } else {
                    None
                };
                self.expect(TokenKind::RParen)?;
                ExprKind::Convert {
                    data_type,
                    expr,
                    style,
                    is_try: word == "TRY_CONVERT",
                }
            }
            "EXISTS" => {
                self.advance();
                ExprKind::Exists(Box::new(self.parenthesised_query()?))
            }
            "NEXT" if self.is_word_at(1, "VALUE") && self.is_word_at(2, "FOR") => {
                self.advance();
                self.advance();
                self.advance();
                ExprKind::NextValueFor(self.object_name()?)
            }
            _ => {
                if let Some((_, function)) = NILADIC.iter().find(|(keyword, _)| *keyword == word) {
                    if self.kind_at(1) != TokenKind::LParen {
                        self.advance();
                        return Ok(niladic_call(function, start));
                    }
                }
                let callable =
                    RESERVED_FUNCTIONS.contains(&word) && self.kind_at(1) == TokenKind::LParen;
                if token.reserved && !callable {
                    return Err(self.error_here());
                }
                return self.name_expr();
            }
        };
        Ok(Expr {
            kind,
            span: self.span_from(start),
        })
    }

    /// A column reference `a.b.c`, `t.$action`, or a call `s.f(args)`.
    fn name_expr(&mut self) -> Result<Expr> {
        let start = self.peek().span;
        let mut parts = vec![self.name_part()?];
        while self.at(TokenKind::Dot) && parts.len() < 4 {
            self.advance();
            parts.push(self.name_after_dot()?);
        }
        if self.at(TokenKind::LParen) {
            let name = ObjectName {
                parts: parts.into_iter().map(Some).collect(),
                span: self.span_from(start),
            };
            let call = self.function_call(name)?;
            return Ok(Expr {
                span: call.span,
                kind: ExprKind::Function(Box::new(call)),
            });
        }
        Ok(Expr {
            kind: ExprKind::Column(parts),
            span: self.span_from(start),
        })
    }

    /// One part of a dotted name; the first may be a reserved function name
    /// such as `LEFT`, which callers have already vetted.
    fn name_part(&mut self) -> Result<Ident> {
        if self.at(TokenKind::Word) && self.kind_at(1) == TokenKind::LParen {
            return Ok(self.word_ident());
        }
        self.ident()
    }

    /// The argument list and any WITHIN GROUP / OVER after a function name.
    pub(super) fn function_call(&mut self, name: ObjectName) -> Result<FunctionCall> {
        let start = name.span;
        self.expect(TokenKind::LParen)?;
        let mut call = FunctionCall {
            name,
            args: Vec::new(),
            star: false,
            distinct: false,
            within_group: Vec::new(),
            over: None,
            span: start,
        };
        if self.eat(TokenKind::Star) {
            call.star = true;
        } else if !self.at(TokenKind::RParen) {
            call.distinct = self.eat_word("DISTINCT");
            if !call.distinct {
                self.eat_word("ALL");
            }
            // `DEFAULT` asks for a user-defined function's parameter default.
            call.args = self.nested(|parser| parser.comma_list(Self::value_or_default))?;
        }
        self.expect(TokenKind::RParen)?;
        if self.is_word("WITHIN") && self.is_word_at(1, "GROUP") {
            self.advance();
            self.advance();
            self.expect(TokenKind::LParen)?;
            call.within_group = self.order_by_clause()?;
            self.expect(TokenKind::RParen)?;
        }
        if self.eat_word("OVER") {
            call.over = Some(self.window()?);
        }
        call.span = self.span_from(start);
        Ok(call)
    }

    /// `(PARTITION BY ... ORDER BY ... frame)` after OVER.
    fn window(&mut self) -> Result<Window> {
        let start = self.expect(TokenKind::LParen)?.span;
        let mut window = Window {
            partition_by: Vec::new(),
            order_by: Vec::new(),
            frame: None,
            span: start,
        };
        if self.eat_word("PARTITION") {
            self.expect_word("BY")?;
            window.partition_by = self.comma_list(Self::expr)?;
        }
        if self.is_word("ORDER") {
            window.order_by = self.order_by_clause()?;
        }
        let units = if self.eat_word("ROWS") {
            Some(FrameUnits::Rows)
        } else if self.eat_word("RANGE") {
            Some(FrameUnits::Range)
        } else {
            None
        };
        if let Some(units) = units {
            let frame_start = self.previous_span();
            let (start, end) = if self.eat_word("BETWEEN") {
                let start = self.frame_bound()?;
                self.expect_word("AND")?;
                (start, Some(self.frame_bound()?))
            } else {
                (self.frame_bound()?, None)
            };
            window.frame = Some(WindowFrame {
                units,
                start,
                end,
                span: self.span_from(frame_start),
            });
        }
        self.expect(TokenKind::RParen)?;
        window.span = self.span_from(start);
        Ok(window)
    }

    fn frame_bound(&mut self) -> Result<FrameBound> {
        if self.eat_word("UNBOUNDED") {
            if self.eat_word("PRECEDING") {
                return Ok(FrameBound::UnboundedPreceding);
            }
            self.expect_word("FOLLOWING")?;
            return Ok(FrameBound::UnboundedFollowing);
        }
        if self.eat_word("CURRENT") {
            self.expect_word("ROW")?;
            return Ok(FrameBound::CurrentRow);
        }
        let offset = Box::new(self.additive()?);
        if self.eat_word("PRECEDING") {
            return Ok(FrameBound::Preceding(offset));
        }
        self.expect_word("FOLLOWING")?;
        Ok(FrameBound::Following(offset))
    }

    fn case_expr(&mut self) -> Result<ExprKind> {
        self.advance();
        self.nested(|parser| {
            let operand = if parser.is_word("WHEN") {
                None
            } else {
                Some(Box::new(parser.expr()?))
            };
            let mut whens = Vec::new();
            while parser.eat_word("WHEN") {
                let condition = parser.expr()?;
                parser.expect_word("THEN")?;
                whens.push((condition, parser.expr()?));
            }
            if whens.is_empty() {
                return Err(parser.error_here());
            }
            let else_result = if parser.eat_word("ELSE") {
                Some(Box::new(parser.expr()?))
            } else {
                None
            };
            parser.expect_word("END")?;
            Ok(ExprKind::Case {
                operand,
                whens,
                else_result,
            })
        })
    }

    /// `int`, `decimal(18, 2)`, `varchar(max)`, `Sales.MyType`,
    /// `double precision`, `national character varying(10)`.
    pub(super) fn data_type(&mut self) -> Result<DataType> {
        let start = self.peek().span;
        let mut name = if self.is_word("DOUBLE") && self.is_word_at(1, "PRECISION") {
            self.advance();
            let precision = self.advance().span;
            ObjectName {
                parts: vec![Some(Ident {
                    value: "float".to_string(),
                    span: start.to(precision),
                })],
                span: start.to(precision),
            }
        } else {
            self.object_name()?
        };
        if name.parts.len() == 1 && self.eat_word("VARYING") {
            let base = name.name().value.to_ascii_lowercase();
            let varying = match base.as_str() {
                "char" | "character" => "varchar",
                "nchar" => "nvarchar",
                "binary" => "varbinary",
                _ => return Err(self.error_at(self.tokens[self.pos - 1])),
            };
            name.parts[0] = Some(Ident {
                value: varying.to_string(),
                span: self.span_from(start),
            });
        }
        let mut args = Vec::new();
        if self.eat(TokenKind::LParen) {
            args = self.comma_list(Self::type_arg)?;
            self.expect(TokenKind::RParen)?;
        }
        Ok(DataType {
            name,
            args,
            span: self.span_from(start),
        })
    }

    fn type_arg(&mut self) -> Result<TypeArg> {
        if self.eat_word("MAX") {
            return Ok(TypeArg::Max);
        }
        let token = self.expect(TokenKind::Integer)?;
        self.text(token)
            .parse()
            .map(TypeArg::Number)
            .map_err(|_| self.error_at(token))
    }

    /// Can the current token begin an expression? Used where an
    /// expression is optional (RETURN, EXEC arguments).
    pub(super) fn at_expr_start(&self) -> bool {
        match self.kind() {
            TokenKind::Word => {
                let text = self.text(self.peek());
                !is_reserved(text)
                    || [
                        "NULL", "CASE", "EXISTS", "NOT", "CONVERT", "COALESCE", "NULLIF",
                    ]
                    .iter()
                    .any(|word| text.eq_ignore_ascii_case(word))
                    || (RESERVED_FUNCTIONS
                        .iter()
                        .any(|f| text.eq_ignore_ascii_case(f))
                        && self.kind_at(1) == TokenKind::LParen)
            }
            TokenKind::Semicolon
            | TokenKind::RParen
            | TokenKind::Comma
            | TokenKind::Eof
            | TokenKind::Dot
            | TokenKind::Colon
            | TokenKind::DoubleColon => false,
            kind => !is_operator(kind),
        }
    }
}

fn is_operator(kind: TokenKind) -> bool {
    use TokenKind::*;
    !matches!(
        kind,
        Word | QuotedIdent
            | Variable
            | String
            | NString
            | Integer
            | Decimal
            | Float
            | Money
            | Binary
            | LParen
            | Minus
            | Plus
            | Tilde
    )
}

fn niladic_call(function: &str, span: crate::span::Span) -> Expr {
    let name = ObjectName {
        parts: vec![Some(Ident {
            value: function.to_string(),
            span,
        })],
        span,
    };
    Expr {
        kind: ExprKind::Function(Box::new(FunctionCall {
            name,
            args: Vec::new(),
            star: false,
            distinct: false,
            within_group: Vec::new(),
            over: None,
            span,
        })),
        span,
    }
}

/// Hex digits to bytes; an odd count gets a leading zero, as in SQL Server.
fn decode_hex(digits: &str) -> Vec<u8> {
    let value = |c: u8| (c as char).to_digit(16).unwrap_or(0) as u8;
    let bytes = digits.as_bytes();
    let mut out = Vec::with_capacity(bytes.len().div_ceil(2));
    let mut i = 0;
    if bytes.len() % 2 == 1 {
        out.push(value(bytes[0]));
        i = 1;
    }
    while i + 1 < bytes.len() {
        out.push(value(bytes[i]) << 4 | value(bytes[i + 1]));
        i += 2;
    }
    out
}
