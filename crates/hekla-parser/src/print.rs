//! The AST printer: trees back to T-SQL. The output is canonical (one
//! spelling per tree: keywords in upper case, minimal parentheses, every
//! statement ended by `;`) and parses back to the same tree, so it doubles
//! as the expected text of golden tests.
//!
//! Layout: simple statements take one line; the bodies of `BEGIN ... END`,
//! `BEGIN TRY`, `BEGIN CATCH`, `BEGIN ATOMIC`, `IF` and `WHILE` are indented
//! by four spaces per level. A `BEGIN ... END` block under `IF`, `ELSE` or
//! `WHILE` sits at the level of its keyword, and `ELSE IF` chains stay flat.
//! Procedure and function bodies start at the level of `CREATE`.

use std::fmt::{self, Display, Formatter, Write as _};

use crate::ast::precedence;
use crate::ast::*;
use crate::keywords::is_reserved;
use crate::lexer::is_bare_identifier;

/// The text of a batch: its statements, one per line (compound statements
/// take several).
pub fn to_sql(batch: &Batch) -> String {
    batch.to_string()
}

// ---------------------------------------------------------------------------
// Helpers

/// A `Display` made from a closure.
struct Show<F>(F);

impl<F: Fn(&mut Formatter<'_>) -> fmt::Result> Display for Show<F> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        (self.0)(f)
    }
}

fn show<F: Fn(&mut Formatter<'_>) -> fmt::Result>(write: F) -> Show<F> {
    Show(write)
}

/// `items` printed by `each`, separated by `sep`.
fn join_with<'a, T, F>(items: &'a [T], sep: &'static str, each: F) -> impl Display + 'a
where
    F: Fn(&mut Formatter<'_>, &'a T) -> fmt::Result + 'a,
{
    show(move |f| {
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                f.write_str(sep)?;
            }
            each(f, item)?;
        }
        Ok(())
    })
}

/// `a, b, c`.
fn comma<T: Display>(items: &[T]) -> impl Display + '_ {
    join_with(items, ", ", |f, item| item.fmt(f))
}

/// `prefix` then the comma-separated `items`, or nothing if there are none:
/// `clause(" GROUP BY ", &select.group_by)`.
fn clause<'a, T: Display>(prefix: &'static str, items: &'a [T]) -> impl Display + 'a {
    show(move |f| {
        if items.is_empty() {
            Ok(())
        } else {
            write!(f, "{prefix}{}", comma(items))
        }
    })
}

/// `prefix` then `value`, or nothing: `opt(" WHERE ", where_clause.as_ref())`.
fn opt<T: Display>(prefix: &'static str, value: Option<T>) -> impl Display {
    show(move |f| match &value {
        Some(value) => write!(f, "{prefix}{value}"),
        None => Ok(()),
    })
}

/// `text` if `on`, else nothing.
fn flag(on: bool, text: &'static str) -> &'static str {
    if on {
        text
    } else {
        ""
    }
}

/// ` (a, b)` after a name, or nothing for an empty list.
fn column_list<T: Display>(columns: &[T]) -> impl Display + '_ {
    show(move |f| {
        if columns.is_empty() {
            Ok(())
        } else {
            write!(f, " ({})", comma(columns))
        }
    })
}

/// ` WITH (A = 1, B = ON)`, or nothing.
fn with_options(options: &[OptionItem]) -> impl Display + '_ {
    show(move |f| {
        if options.is_empty() {
            Ok(())
        } else {
            write!(f, " WITH ({})", comma(options))
        }
    })
}

/// ` NULL`, ` NOT NULL` or nothing.
fn nullability(nullable: Option<bool>) -> &'static str {
    match nullable {
        Some(true) => " NULL",
        Some(false) => " NOT NULL",
        None => "",
    }
}

/// `WITH a AS (...), b AS (...) ` before a query or DML statement.
fn ctes(with: &[Cte]) -> impl Display + '_ {
    show(move |f| {
        if with.is_empty() {
            Ok(())
        } else {
            write!(f, "WITH {} ", comma(with))
        }
    })
}

/// ` OPTION (MAXDOP 1, HASH JOIN)`, or nothing.
fn query_hints(hints: &[QueryHint]) -> impl Display + '_ {
    show(move |f| {
        if hints.is_empty() {
            Ok(())
        } else {
            write!(f, " OPTION ({})", comma(hints))
        }
    })
}

/// ` WITH (NOLOCK, INDEX(ix))` after a table, or nothing.
fn table_hints(hints: &[TableHint]) -> impl Display + '_ {
    show(move |f| {
        if hints.is_empty() {
            Ok(())
        } else {
            write!(f, " WITH ({})", comma(hints))
        }
    })
}

/// `(1, 2), (3, 4)`: the rows of a VALUES list.
fn value_rows(rows: &[Vec<Expr>]) -> impl Display + '_ {
    join_with(rows, ", ", |f, row| write!(f, "({})", comma(row)))
}

/// `CREATE`, `ALTER` or `CREATE OR ALTER`.
fn create_verb(or_alter: bool, alter: bool) -> &'static str {
    match (or_alter, alter) {
        (true, _) => "CREATE OR ALTER",
        (false, true) => "ALTER",
        (false, false) => "CREATE",
    }
}

// ---------------------------------------------------------------------------
// Names

/// True if `value` can be written without brackets as far as the lexer is
/// concerned (reserved keywords aside).
fn is_bare_word(value: &str) -> bool {
    is_bare_identifier(value)
}

fn bracketed(f: &mut Formatter<'_>, value: &str) -> fmt::Result {
    write!(f, "[{}]", value.replace(']', "]]"))
}

/// Identifiers are bare unless they are reserved keywords or hold
/// characters a bare word cannot: `name`, `[order]`, `[my col]`, `[a]]b]`.
impl Display for Ident {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        if is_bare_word(&self.value) && !is_reserved(&self.value) {
            f.write_str(&self.value)
        } else {
            bracketed(f, &self.value)
        }
    }
}

/// A word the grammar wants bare even when it is a reserved keyword:
/// option names and values (`ON`, `FILLFACTOR`), hints (`NOLOCK`,
/// `INDEX`), permissions (`SELECT`), collations. Bracketed only when it
/// cannot be lexed as a word at all.
struct Word<'a>(&'a Ident);

impl Display for Word<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        if is_bare_word(&self.0.value) {
            f.write_str(&self.0.value)
        } else {
            bracketed(f, &self.0.value)
        }
    }
}

/// `prefix` then comma-separated words, or nothing: ` WITH NOWAIT, LOG`.
fn word_clause<'a>(prefix: &'static str, items: &'a [Ident]) -> impl Display + 'a {
    show(move |f| {
        if items.is_empty() {
            Ok(())
        } else {
            write!(f, "{prefix}{}", word_list(items))
        }
    })
}

/// `STATISTICS IO`, `REPEATABLE READ`: words separated by spaces.
fn words(items: &[Ident]) -> impl Display + '_ {
    join_with(items, " ", |f, word| Word(word).fmt(f))
}

/// `a, b`: words separated by commas.
fn word_list(items: &[Ident]) -> impl Display + '_ {
    join_with(items, ", ", |f, word| Word(word).fmt(f))
}

/// `db.s.t`, `master..spt_values`.
impl Display for ObjectName {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        join_with(&self.parts, ".", |f, part| match part {
            Some(ident) => ident.fmt(f),
            None => Ok(()),
        })
        .fmt(f)
    }
}

/// A dotted name held as a list of identifiers: `t.col`.
fn dotted(parts: &[Ident]) -> impl Display + '_ {
    join_with(parts, ".", |f, part| part.fmt(f))
}

/// `@name`.
fn variable(name: &str) -> impl Display + '_ {
    show(move |f| write!(f, "@{name}"))
}

// ---------------------------------------------------------------------------
// Expressions

impl Display for Literal {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Literal::Null => f.write_str("NULL"),
            Literal::Integer(text) | Literal::Decimal(text) | Literal::Float(text) => {
                f.write_str(text)
            }
            Literal::Money(text) => write!(f, "${text}"),
            Literal::String { value, national } => {
                write!(f, "{}'{}'", flag(*national, "N"), value.replace('\'', "''"))
            }
            Literal::Binary(bytes) => {
                f.write_str("0x")?;
                bytes.iter().try_for_each(|byte| write!(f, "{byte:02X}"))
            }
        }
    }
}

impl Display for UnaryOp {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            UnaryOp::Plus => "+",
            UnaryOp::Minus => "-",
            UnaryOp::BitNot => "~",
            UnaryOp::Not => "NOT",
        })
    }
}

impl Display for BinaryOp {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        use BinaryOp::*;
        f.write_str(match self {
            Multiply => "*",
            Divide => "/",
            Modulo => "%",
            Add => "+",
            Subtract => "-",
            BitAnd => "&",
            BitOr => "|",
            BitXor => "^",
            Eq => "=",
            Ne => "<>",
            Lt => "<",
            Le => "<=",
            Gt => ">",
            Ge => ">=",
            NotLt => "!<",
            NotGt => "!>",
            And => "AND",
            Or => "OR",
        })
    }
}

impl Display for AssignOp {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        use AssignOp::*;
        f.write_str(match self {
            Assign => "=",
            Add => "+=",
            Subtract => "-=",
            Multiply => "*=",
            Divide => "/=",
            Modulo => "%=",
            BitAnd => "&=",
            BitOr => "|=",
            BitXor => "^=",
        })
    }
}

impl Display for Quantifier {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Quantifier::Any => "ANY",
            Quantifier::Some => "SOME",
            Quantifier::All => "ALL",
        })
    }
}

/// `expr`, in parentheses if it binds more loosely than `min` (see
/// [`precedence`]).
fn operand(expr: &Expr, min: u8) -> impl Display + '_ {
    show(move |f| {
        if expr.precedence() < min {
            write!(f, "({expr})")
        } else {
            expr.fmt(f)
        }
    })
}

/// An operand of BETWEEN, IN, LIKE, IS NULL or a quantified comparison:
/// arithmetic or tighter goes bare.
fn predicate_operand(expr: &Expr) -> impl Display + '_ {
    operand(expr, precedence::ADDITIVE)
}

fn not(negated: bool) -> &'static str {
    flag(negated, "NOT ")
}

fn fmt_unary(f: &mut Formatter<'_>, op: UnaryOp, expr: &Expr) -> fmt::Result {
    match op {
        UnaryOp::Not => write!(f, "NOT {}", operand(expr, precedence::NOT)),
        UnaryOp::BitNot => write!(f, "~{}", operand(expr, precedence::UNARY)),
        UnaryOp::Plus | UnaryOp::Minus => {
            // `--` would start a comment: `- -1`, and `- +x` to match.
            let text = operand(expr, precedence::UNARY).to_string();
            let gap = flag(text.starts_with(['-', '+']), " ");
            write!(f, "{op}{gap}{text}")
        }
    }
}

impl Display for Expr {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ExprKind::Literal(literal) => literal.fmt(f),
            ExprKind::Column(parts) => dotted(parts).fmt(f),
            ExprKind::Variable(name) => variable(name).fmt(f),
            ExprKind::GlobalVariable(name) => write!(f, "@@{name}"),
            ExprKind::Default => f.write_str("DEFAULT"),
            ExprKind::Unary { op, operand } => fmt_unary(f, *op, operand),
            ExprKind::Binary { op, left, right } => {
                let binding = op.precedence();
                // Left-associative: an equal-precedence right child needs
                // parentheses, an equal-precedence left child does not.
                write!(
                    f,
                    "{} {op} {}",
                    operand(left, binding),
                    operand(right, binding + 1)
                )
            }
            ExprKind::Between {
                expr,
                negated,
                low,
                high,
            } => write!(
                f,
                "{} {}BETWEEN {} AND {}",
                predicate_operand(expr),
                not(*negated),
                predicate_operand(low),
                predicate_operand(high)
            ),
            ExprKind::InList {
                expr,
                negated,
                list,
            } => write!(
                f,
                "{} {}IN ({})",
                predicate_operand(expr),
                not(*negated),
                comma(list)
            ),
            ExprKind::InSubquery {
                expr,
                negated,
                query,
            } => write!(
                f,
                "{} {}IN ({query})",
                predicate_operand(expr),
                not(*negated)
            ),
            ExprKind::Like {
                expr,
                negated,
                pattern,
                escape,
            } => write!(
                f,
                "{} {}LIKE {}{}",
                predicate_operand(expr),
                not(*negated),
                predicate_operand(pattern),
                opt(" ESCAPE ", escape.as_deref().map(predicate_operand))
            ),
            ExprKind::IsNull { expr, negated } => {
                write!(f, "{} IS {}NULL", predicate_operand(expr), not(*negated))
            }
            ExprKind::Exists(query) => write!(f, "EXISTS ({query})"),
            ExprKind::Subquery(query) => write!(f, "({query})"),
            ExprKind::Quantified {
                expr,
                op,
                quantifier,
                query,
            } => write!(f, "{} {op} {quantifier} ({query})", predicate_operand(expr)),
            ExprKind::Case {
                operand,
                whens,
                else_result,
            } => {
                f.write_str("CASE")?;
                write!(f, "{}", opt(" ", operand.as_ref()))?;
                for (condition, result) in whens {
                    write!(f, " WHEN {condition} THEN {result}")?;
                }
                write!(f, "{} END", opt(" ELSE ", else_result.as_ref()))
            }
            ExprKind::Cast {
                expr,
                data_type,
                is_try,
            } => write!(f, "{}CAST({expr} AS {data_type})", flag(*is_try, "TRY_")),
            ExprKind::Convert {
                data_type,
                expr,
                style,
                is_try,
            } => write!(
                f,
                "{}CONVERT({data_type}, {expr}{})",
                flag(*is_try, "TRY_"),
                opt(", ", style.as_ref())
            ),
            ExprKind::Function(call) => call.fmt(f),
            ExprKind::NextValueFor(name) => write!(f, "NEXT VALUE FOR {name}"),
            ExprKind::Collate { expr, collation } => write!(
                f,
                "{} COLLATE {}",
                operand(expr, precedence::COLLATE),
                Word(collation)
            ),
            ExprKind::AtTimeZone { expr, zone } => write!(
                f,
                "{} AT TIME ZONE {}",
                operand(expr, precedence::COLLATE),
                operand(zone, precedence::ATOM)
            ),
        }
    }
}

/// Reserved keywords that are also built-in functions: their calls print
/// bare (`LEFT(s, 2)`, not `[LEFT](s, 2)`).
const RESERVED_FUNCTIONS: &[&str] = &[
    "COALESCE",
    "CONTAINSTABLE",
    "CURRENT_DATE",
    "CURRENT_TIMESTAMP",
    "CURRENT_USER",
    "FREETEXTTABLE",
    "IDENTITY",
    "LEFT",
    "NULLIF",
    "OPENDATASOURCE",
    "OPENQUERY",
    "OPENROWSET",
    "OPENXML",
    "RIGHT",
    "SESSION_USER",
    "SYSTEM_USER",
    "USER",
];

/// Functions written without an argument list: `CURRENT_TIMESTAMP`.
const NILADIC_FUNCTIONS: &[&str] = &[
    "CURRENT_DATE",
    "CURRENT_TIMESTAMP",
    "CURRENT_USER",
    "SESSION_USER",
    "SYSTEM_USER",
    "USER",
];

fn is_one_of(value: &str, list: &[&str]) -> bool {
    list.iter().any(|name| name.eq_ignore_ascii_case(value))
}

/// A single-part name of a call to a reserved built-in, if this is one.
fn reserved_builtin(name: &ObjectName) -> Option<&Ident> {
    match name.parts.as_slice() {
        [Some(ident)] if is_one_of(&ident.value, RESERVED_FUNCTIONS) => Some(ident),
        _ => None,
    }
}

impl Display for FunctionCall {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match reserved_builtin(&self.name) {
            Some(builtin) => {
                Word(builtin).fmt(f)?;
                let bare = is_one_of(&builtin.value, NILADIC_FUNCTIONS)
                    && self.args.is_empty()
                    && !self.star
                    && !self.distinct
                    && self.within_group.is_empty()
                    && self.over.is_none();
                if bare {
                    return Ok(());
                }
            }
            None => self.name.fmt(f)?,
        }
        f.write_str("(")?;
        f.write_str(flag(self.distinct, "DISTINCT "))?;
        if self.star {
            f.write_str("*")?;
        } else {
            comma(&self.args).fmt(f)?;
        }
        f.write_str(")")?;
        if !self.within_group.is_empty() {
            write!(f, " WITHIN GROUP (ORDER BY {})", comma(&self.within_group))?;
        }
        write!(f, "{}", opt(" OVER ", self.over.as_ref()))
    }
}

/// `(PARTITION BY a ORDER BY b ROWS UNBOUNDED PRECEDING)`, parentheses
/// included.
impl Display for Window {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str("(")?;
        let mut sep = "";
        if !self.partition_by.is_empty() {
            write!(f, "PARTITION BY {}", comma(&self.partition_by))?;
            sep = " ";
        }
        if !self.order_by.is_empty() {
            write!(f, "{sep}ORDER BY {}", comma(&self.order_by))?;
            sep = " ";
        }
        if let Some(frame) = &self.frame {
            write!(f, "{sep}{frame}")?;
        }
        f.write_str(")")
    }
}

impl Display for WindowFrame {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let units = match self.units {
            FrameUnits::Rows => "ROWS",
            FrameUnits::Range => "RANGE",
        };
        match &self.end {
            Some(end) => write!(f, "{units} BETWEEN {} AND {end}", self.start),
            None => write!(f, "{units} {}", self.start),
        }
    }
}

impl Display for FrameBound {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            FrameBound::UnboundedPreceding => f.write_str("UNBOUNDED PRECEDING"),
            FrameBound::Preceding(n) => write!(f, "{n} PRECEDING"),
            FrameBound::CurrentRow => f.write_str("CURRENT ROW"),
            FrameBound::Following(n) => write!(f, "{n} FOLLOWING"),
            FrameBound::UnboundedFollowing => f.write_str("UNBOUNDED FOLLOWING"),
        }
    }
}

impl Display for TypeArg {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            TypeArg::Number(n) => n.fmt(f),
            TypeArg::Max => f.write_str("max"),
        }
    }
}

/// `int`, `decimal(18, 2)`, `varchar(max)`.
impl Display for DataType {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        self.name.fmt(f)?;
        if self.args.is_empty() {
            Ok(())
        } else {
            write!(f, "({})", comma(&self.args))
        }
    }
}

// ---------------------------------------------------------------------------
// Queries

impl Display for Query {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}{}",
            ctes(&self.with),
            self.body,
            clause(" ORDER BY ", &self.order_by)
        )?;
        if let Some(offset) = &self.offset {
            write!(f, " OFFSET {} ROWS", offset.offset)?;
            if let Some(fetch) = &offset.fetch {
                write!(f, " FETCH NEXT {fetch} ROWS ONLY")?;
            }
        }
        Ok(())
    }
}

/// `name (c1, c2) AS (query)`.
impl Display for Cte {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{} AS ({})",
            self.name,
            column_list(&self.columns),
            self.query
        )
    }
}

/// Binding strength of a query body: INTERSECT binds tighter than UNION
/// and EXCEPT, and a SELECT or parenthesised query tighter than both.
fn set_precedence(body: &QueryBody) -> u8 {
    match body {
        QueryBody::SetOp {
            op: SetOperator::Union | SetOperator::Except,
            ..
        } => 1,
        QueryBody::SetOp {
            op: SetOperator::Intersect,
            ..
        } => 2,
        QueryBody::Select(_) | QueryBody::Nested(_) => 3,
    }
}

/// A set operation's operand, in parentheses if it binds more loosely than
/// `min`.
fn set_operand(body: &QueryBody, min: u8) -> impl Display + '_ {
    show(move |f| {
        if set_precedence(body) < min {
            write!(f, "({body})")
        } else {
            body.fmt(f)
        }
    })
}

impl Display for SetOperator {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SetOperator::Union => "UNION",
            SetOperator::Except => "EXCEPT",
            SetOperator::Intersect => "INTERSECT",
        })
    }
}

impl Display for QueryBody {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            QueryBody::Select(select) => select.fmt(f),
            QueryBody::Nested(query) => write!(f, "({query})"),
            QueryBody::SetOp {
                op,
                all,
                left,
                right,
            } => {
                // Left-associative, like binary operators.
                let binding = set_precedence(self);
                write!(
                    f,
                    "{} {op}{} {}",
                    set_operand(left, binding),
                    flag(*all, " ALL"),
                    set_operand(right, binding + 1)
                )
            }
        }
    }
}

impl Display for Select {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "SELECT{}{} {}{}{}{}{}{}",
            flag(self.distinct, " DISTINCT"),
            opt(" ", self.top.as_ref()),
            comma(&self.items),
            opt(" INTO ", self.into.as_ref()),
            clause(" FROM ", &self.from),
            opt(" WHERE ", self.where_clause.as_ref()),
            clause(" GROUP BY ", &self.group_by),
            opt(" HAVING ", self.having.as_ref()),
        )
    }
}

impl Display for GroupByItem {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            GroupByItem::Expr(expr) => expr.fmt(f),
            GroupByItem::Composite(parts) => write!(f, "({})", comma(parts)),
            GroupByItem::Rollup(parts) => write!(f, "ROLLUP ({})", comma(parts)),
            GroupByItem::Cube(parts) => write!(f, "CUBE ({})", comma(parts)),
            GroupByItem::GroupingSets(sets) => write!(f, "GROUPING SETS ({})", comma(sets)),
        }
    }
}

/// `TOP (n) [PERCENT] [WITH TIES]`.
impl Display for Top {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "TOP ({}){}{}",
            self.count,
            flag(self.percent, " PERCENT"),
            flag(self.with_ties, " WITH TIES")
        )
    }
}

impl Display for SelectItem {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            SelectItem::Wildcard { qualifier, .. } => match qualifier {
                Some(qualifier) => write!(f, "{qualifier}.*"),
                None => f.write_str("*"),
            },
            // Items are scalar: a predicate needs its parentheses back.
            SelectItem::Expr { expr, alias, .. } => write!(
                f,
                "{}{}",
                operand(expr, precedence::ADDITIVE),
                opt(" AS ", alias.as_ref())
            ),
            SelectItem::Assign {
                variable: name,
                op,
                value,
                ..
            } => write!(
                f,
                "{} {op} {}",
                variable(name),
                operand(value, precedence::ADDITIVE)
            ),
        }
    }
}

impl Display for OrderItem {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.expr, flag(self.descending, " DESC"))
    }
}

/// `NOLOCK`, `INDEX(ix)`.
impl Display for TableHint {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        Word(&self.name).fmt(f)?;
        if self.args.is_empty() {
            Ok(())
        } else {
            write!(f, "({})", comma(&self.args))
        }
    }
}

/// `MAXDOP 1`, `HASH JOIN`, `MAX_GRANT_PERCENT = 10`, `USE HINT ('X')`.
impl Display for QueryHint {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let takes_equals = self
            .words
            .last()
            .is_some_and(|word| word.value.to_ascii_uppercase().ends_with("_GRANT_PERCENT"));
        let separator = if takes_equals { " = " } else { " " };
        write!(
            f,
            "{}{}",
            words(&self.words),
            opt(separator, self.value.as_ref())
        )?;
        if !self.args.is_empty() {
            write!(f, " ({})", comma(&self.args))?;
        }
        Ok(())
    }
}

fn join_keywords(kind: JoinKind, hint: Option<JoinHint>) -> impl Display {
    show(move |f| {
        let hint = match hint {
            Some(JoinHint::Loop) => "LOOP ",
            Some(JoinHint::Hash) => "HASH ",
            Some(JoinHint::Merge) => "MERGE ",
            Some(JoinHint::Remote) => "REMOTE ",
            None => "",
        };
        let kind = match kind {
            JoinKind::Inner => "INNER",
            JoinKind::Left => "LEFT OUTER",
            JoinKind::Right => "RIGHT OUTER",
            JoinKind::Full => "FULL OUTER",
            JoinKind::Cross => "CROSS",
            JoinKind::CrossApply => return f.write_str("CROSS APPLY"),
            JoinKind::OuterApply => return f.write_str("OUTER APPLY"),
        };
        write!(f, "{kind} {hint}JOIN")
    })
}

impl Display for TableRef {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match &self.kind {
            TableRefKind::Table { name, alias, hints } => write!(
                f,
                "{name}{}{}",
                opt(" AS ", alias.as_ref()),
                table_hints(hints)
            ),
            TableRefKind::Variable { name, alias } => {
                write!(f, "{}{}", variable(name), opt(" AS ", alias.as_ref()))
            }
            TableRefKind::Derived {
                query,
                alias,
                columns,
            } => write!(f, "({query}) AS {alias}{}", column_list(columns)),
            TableRefKind::Values {
                rows,
                alias,
                columns,
            } => write!(
                f,
                "(VALUES {}) AS {alias}{}",
                value_rows(rows),
                column_list(columns)
            ),
            TableRefKind::Function {
                call,
                alias,
                columns,
            } => write!(
                f,
                "{call}{}{}",
                opt(" AS ", alias.as_ref()),
                column_list(columns)
            ),
            TableRefKind::Join {
                left,
                right,
                kind,
                hint,
                on,
            } => {
                write!(f, "{left} {} ", join_keywords(*kind, *hint))?;
                // Joins nest to the left; a join on the right is grouped.
                if matches!(right.kind, TableRefKind::Join { .. }) {
                    write!(f, "({right})")?;
                } else {
                    right.fmt(f)?;
                }
                write!(f, "{}", opt(" ON ", on.as_ref()))
            }
        }
    }
}

// ---------------------------------------------------------------------------
// DML

impl Display for DmlTarget {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            DmlTarget::Table { name, hints } => write!(f, "{name}{}", table_hints(hints)),
            DmlTarget::Variable(name) => variable(name).fmt(f),
        }
    }
}

/// `OUTPUT inserted.a, deleted.* [INTO target (columns)]`.
/// ` OUTPUT ... INTO ... OUTPUT ...`: each clause with a leading space.
fn outputs(clauses: &[OutputClause]) -> impl Display + '_ {
    join_with(clauses, "", |f, clause| write!(f, " {clause}"))
}

/// `EXECUTE ('a' + @b)`: dynamic SQL. Each part is an operand of `+`, so a
/// part that is itself a sum keeps its parentheses.
fn exec_string(parts: &[Expr]) -> impl Display + '_ {
    show(move |f| {
        write!(
            f,
            "EXECUTE ({})",
            join_with(parts, " + ", |f, part| {
                operand(part, precedence::ADDITIVE + 1).fmt(f)
            })
        )
    })
}

impl Display for OutputClause {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "OUTPUT {}", comma(&self.items))?;
        match &self.into {
            Some((target, columns)) => write!(f, " INTO {target}{}", column_list(columns)),
            None => Ok(()),
        }
    }
}

impl Display for Insert {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}INSERT{} INTO {}{}{} ",
            ctes(&self.with),
            opt(" ", self.top.as_ref()),
            self.target,
            column_list(&self.columns),
            outputs(&self.output),
        )?;
        match &self.source {
            InsertSource::Values(rows) => write!(f, "VALUES {}", value_rows(rows))?,
            InsertSource::Query(query) => query.fmt(f)?,
            InsertSource::Exec(exec) => exec.fmt(f)?,
            InsertSource::ExecString(parts) => exec_string(parts).fmt(f)?,
            InsertSource::DefaultValues => f.write_str("DEFAULT VALUES")?,
        }
        query_hints(&self.hints).fmt(f)
    }
}

impl Display for Assignment {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Assignment::Column {
                column, op, value, ..
            } => write!(f, "{} {op} {value}", dotted(column)),
            Assignment::Variable {
                variable: name,
                column,
                op,
                value,
                ..
            } => {
                write!(f, "{} ", variable(name))?;
                if let Some(column) = column {
                    write!(f, "= {} ", dotted(column))?;
                }
                write!(f, "{op} {value}")
            }
        }
    }
}

impl Display for Update {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}UPDATE{} {} SET {}{}{}{}{}",
            ctes(&self.with),
            opt(" ", self.top.as_ref()),
            self.target,
            comma(&self.assignments),
            outputs(&self.output),
            clause(" FROM ", &self.from),
            opt(" WHERE ", self.where_clause.as_ref()),
            query_hints(&self.hints),
        )
    }
}

impl Display for Delete {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}DELETE{} FROM {}{}{}{}{}",
            ctes(&self.with),
            opt(" ", self.top.as_ref()),
            self.target,
            outputs(&self.output),
            clause(" FROM ", &self.from),
            opt(" WHERE ", self.where_clause.as_ref()),
            query_hints(&self.hints),
        )
    }
}

/// `[@p =] value [OUTPUT]`.
impl Display for ExecArg {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        if let Some(name) = &self.name {
            write!(f, "{} = ", variable(name))?;
        }
        write!(f, "{}{}", self.value, flag(self.output, " OUTPUT"))
    }
}

/// `EXECUTE [@rc =] proc args [WITH RECOMPILE]`.
impl Display for Exec {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str("EXECUTE ")?;
        if let Some(status) = &self.return_status {
            write!(f, "{} = ", variable(status))?;
        }
        match &self.procedure {
            ExecTarget::Name(name) => name.fmt(f)?,
            ExecTarget::Variable(name) => variable(name).fmt(f)?,
        }
        if !self.args.is_empty() {
            write!(f, " {}", comma(&self.args))?;
        }
        word_clause(" WITH ", &self.options).fmt(f)
    }
}

// ---------------------------------------------------------------------------
// DDL

/// `NAME = value`, `TRANSACTION ISOLATION LEVEL = SNAPSHOT`, `FULLSCAN`.
impl Display for OptionItem {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        // Statistics' `SAMPLE n PERCENT | ROWS` has its value inside.
        if let ([sample, unit], Some(value)) = (self.name.as_slice(), &self.value) {
            if sample.value.eq_ignore_ascii_case("SAMPLE") {
                let unit = unit.value.to_ascii_uppercase();
                return write!(f, "{sample} {value} {unit}");
            }
        }
        write!(
            f,
            "{}{}",
            words(&self.name),
            opt(" = ", self.value.as_ref())
        )
    }
}

impl Display for OptionValue {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            OptionValue::Words(items) => words(items).fmt(f),
            OptionValue::Expr(expr) => expr.fmt(f),
            OptionValue::List(items) => write!(f, "({})", comma(items)),
        }
    }
}

/// ` CLUSTERED HASH`, ` NONCLUSTERED`, ` COLUMNSTORE`: each word with a
/// leading space, nothing for the default layout.
impl Display for IndexLayout {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self.clustered {
            Some(true) => f.write_str(" CLUSTERED")?,
            Some(false) => f.write_str(" NONCLUSTERED")?,
            None => {}
        }
        write!(
            f,
            "{}{}",
            flag(self.hash, " HASH"),
            flag(self.columnstore, " COLUMNSTORE")
        )
    }
}

impl Display for IndexColumn {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.name, flag(self.descending, " DESC"))
    }
}

/// What follows an index's layout: ` (cols) INCLUDE (cols) WHERE filter
/// WITH (options)`, parts omitted when empty.
fn index_tail(index: &IndexDef) -> impl Display + '_ {
    show(move |f| {
        write!(
            f,
            "{}{}{}{}{}",
            column_list(&index.columns),
            flag(!index.include.is_empty(), " INCLUDE"),
            column_list(&index.include),
            opt(" WHERE ", index.filter.as_ref()),
            with_options(&index.options)
        )
    })
}

/// An inline index: `INDEX ix [UNIQUE] NONCLUSTERED HASH (c) WITH (...)`.
impl Display for IndexDef {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "INDEX {}{}{}{}",
            self.name,
            flag(self.unique, " UNIQUE"),
            self.layout,
            index_tail(self)
        )
    }
}

impl Display for ReferentialAction {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ReferentialAction::NoAction => "NO ACTION",
            ReferentialAction::Cascade => "CASCADE",
            ReferentialAction::SetNull => "SET NULL",
            ReferentialAction::SetDefault => "SET DEFAULT",
        })
    }
}

/// A DEFAULT value: bare if unary or tighter (`0`, `-1`, `getdate()`),
/// otherwise parenthesised, as SQL Server itself writes them.
fn default_value(expr: &Expr) -> impl Display + '_ {
    operand(expr, precedence::UNARY)
}

impl Display for ConstraintKind {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            ConstraintKind::Key {
                primary,
                layout,
                columns,
                options,
            } => write!(
                f,
                "{}{layout}{}{}",
                if *primary { "PRIMARY KEY" } else { "UNIQUE" },
                column_list(columns),
                with_options(options)
            ),
            ConstraintKind::Check(expr) => write!(f, "CHECK ({expr})"),
            ConstraintKind::ForeignKey {
                columns,
                table,
                referenced,
                on_delete,
                on_update,
            } => {
                if !columns.is_empty() {
                    write!(f, "FOREIGN KEY ({}) ", comma(columns))?;
                }
                write!(
                    f,
                    "REFERENCES {table}{}{}{}",
                    column_list(referenced),
                    opt(" ON DELETE ", on_delete.as_ref()),
                    opt(" ON UPDATE ", on_update.as_ref())
                )
            }
            ConstraintKind::Default { value, column } => {
                write!(f, "DEFAULT {} FOR {column}", default_value(value))
            }
        }
    }
}

/// `[CONSTRAINT name] PRIMARY KEY ...`.
impl Display for TableConstraint {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", constraint_name(self.name.as_ref()), self.kind)
    }
}

/// `CONSTRAINT name ` or nothing.
fn constraint_name(name: Option<&Ident>) -> impl Display + '_ {
    show(move |f| match name {
        Some(name) => write!(f, "CONSTRAINT {name} "),
        None => Ok(()),
    })
}

/// `name type [COLLATE c] [AS (expr) [PERSISTED]] [IDENTITY(s, i)]
/// [NULL|NOT NULL] [[CONSTRAINT n] DEFAULT v] [constraints] [INDEX ...]`.
impl Display for ColumnDef {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}{}",
            self.name,
            opt(" ", self.data_type.as_ref()),
            opt(" COLLATE ", self.collation.as_ref().map(Word))
        )?;
        if let Some((expr, persisted)) = &self.computed {
            write!(f, " AS ({expr}){}", flag(*persisted, " PERSISTED"))?;
        }
        if let Some((seed, increment)) = &self.identity {
            write!(f, " IDENTITY({seed}, {increment})")?;
        }
        f.write_str(nullability(self.nullable))?;
        if let Some((name, value)) = &self.default {
            write!(
                f,
                " {}DEFAULT {}",
                constraint_name(name.as_ref()),
                default_value(value)
            )?;
            f.write_str(flag(self.with_values, " WITH VALUES"))?;
        }
        for constraint in &self.constraints {
            write!(f, " {constraint}")?;
        }
        write!(f, "{}", opt(" ", self.index.as_ref()))
    }
}

impl Display for TableElement {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            TableElement::Column(column) => column.fmt(f),
            TableElement::Constraint(constraint) => constraint.fmt(f),
            TableElement::Index(index) => index.fmt(f),
        }
    }
}

impl Display for CreateTable {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "CREATE TABLE {} ({}){}{}",
            self.name,
            comma(&self.elements),
            opt(" ON ", self.filegroup.as_ref()),
            with_options(&self.options)
        )
    }
}

impl Display for AlterTable {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "ALTER TABLE {} ", self.table)?;
        match &self.action {
            AlterTableAction::Add(elements) => write!(f, "ADD {}", comma(elements)),
            AlterTableAction::Drop {
                what,
                if_exists,
                names,
            } => {
                let what = match what {
                    AlterDropKind::Column => "COLUMN",
                    AlterDropKind::Constraint => "CONSTRAINT",
                    AlterDropKind::Index => "INDEX",
                };
                write!(
                    f,
                    "DROP {what}{} {}",
                    flag(*if_exists, " IF EXISTS"),
                    comma(names)
                )
            }
            AlterTableAction::AlterColumn {
                name,
                data_type,
                collation,
                nullable,
            } => write!(
                f,
                "ALTER COLUMN {name} {data_type}{}{}",
                opt(" COLLATE ", collation.as_ref().map(Word)),
                nullability(*nullable)
            ),
            AlterTableAction::RebuildIndex { index, options } => {
                write!(f, "ALTER INDEX {index} REBUILD{}", with_options(options))
            }
            AlterTableAction::Set(options) => write!(f, "SET ({})", comma(options)),
        }
    }
}

impl Display for CreateIndex {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let index = &self.index;
        write!(
            f,
            "CREATE{}{} INDEX {} ON {}{}{}",
            flag(index.unique, " UNIQUE"),
            index.layout,
            index.name,
            self.table,
            index_tail(index),
            opt(" ON ", self.filegroup.as_ref())
        )
    }
}

impl Display for SequenceOption {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        /// `KEYWORD n` or `NO KEYWORD`.
        fn bound(f: &mut Formatter<'_>, keyword: &str, value: &Option<Expr>) -> fmt::Result {
            match value {
                Some(value) => write!(f, "{keyword} {value}"),
                None => write!(f, "NO {keyword}"),
            }
        }
        match self {
            SequenceOption::StartWith(value) => write!(f, "START WITH {value}"),
            SequenceOption::Restart(value) => {
                write!(f, "RESTART{}", opt(" WITH ", value.as_ref()))
            }
            SequenceOption::IncrementBy(value) => write!(f, "INCREMENT BY {value}"),
            SequenceOption::MinValue(value) => bound(f, "MINVALUE", value),
            SequenceOption::MaxValue(value) => bound(f, "MAXVALUE", value),
            SequenceOption::Cycle(cycle) => write!(f, "{}CYCLE", flag(!cycle, "NO ")),
            SequenceOption::Cache(None) => f.write_str("NO CACHE"),
            SequenceOption::Cache(Some(size)) => write!(f, "CACHE{}", opt(" ", size.as_ref())),
        }
    }
}

/// ` START WITH 1 INCREMENT BY 1 ...`: each option with a leading space.
fn sequence_options(options: &[SequenceOption]) -> impl Display + '_ {
    join_with(options, "", |f, option| write!(f, " {option}"))
}

impl Display for ModuleOption {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            ModuleOption::NativeCompilation => f.write_str("NATIVE_COMPILATION"),
            ModuleOption::SchemaBinding => f.write_str("SCHEMABINDING"),
            ModuleOption::Recompile => f.write_str("RECOMPILE"),
            ModuleOption::Encryption => f.write_str("ENCRYPTION"),
            ModuleOption::ReturnsNullOnNullInput => f.write_str("RETURNS NULL ON NULL INPUT"),
            ModuleOption::CalledOnNullInput => f.write_str("CALLED ON NULL INPUT"),
            ModuleOption::ExecuteAs(principal) => write!(f, "EXECUTE AS {principal}"),
        }
    }
}

/// `@a int NOT NULL = 1 OUTPUT`, `@t dbo.T READONLY`.
impl Display for Parameter {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {}{}{}{}{}",
            variable(&self.name),
            self.data_type,
            nullability(self.nullable),
            opt(" = ", self.default.as_ref()),
            flag(self.output, " OUTPUT"),
            flag(self.readonly, " READONLY")
        )
    }
}

/// `@a int = 1`.
impl Display for Declaration {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {}{}{}",
            variable(&self.name),
            self.data_type,
            flag(self.not_null, " NOT NULL"),
            opt(" = ", self.value.as_ref())
        )
    }
}

/// ALTER DATABASE SET options that are written `NAME = value`; the rest
/// are written `NAME value` (`RECOVERY SIMPLE`).
const DATABASE_OPTIONS_WITH_EQUALS: &[&str] = &[
    "DELAYED_DURABILITY",
    "MEMORY_OPTIMIZED_ELEVATE_TO_SNAPSHOT",
    "COMPATIBILITY_LEVEL",
    "TARGET_RECOVERY_TIME",
    "ACCELERATED_DATABASE_RECOVERY",
    "QUERY_STORE",
    "MEMORY_OPTIMIZED",
];

fn database_option(option: &OptionItem) -> impl Display + '_ {
    show(move |f| {
        let equals = option.name.len() == 1
            && DATABASE_OPTIONS_WITH_EQUALS
                .iter()
                .any(|name| option.name[0].value.eq_ignore_ascii_case(name));
        let separator = if equals { " = " } else { " " };
        write!(
            f,
            "{}{}",
            words(&option.name),
            opt(separator, option.value.as_ref())
        )
    })
}

/// `(NAME = x, FILENAME = 'y'), (...)`: database files.
fn files(files: &[Vec<OptionItem>]) -> impl Display + '_ {
    join_with(files, ", ", |f, file| write!(f, "({})", comma(file)))
}

impl Display for CreateDatabase {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "CREATE DATABASE {}", self.name)?;
        if let Some(containment) = &self.containment {
            write!(f, " CONTAINMENT = {containment}")?;
        }
        for (i, filegroup) in self.filegroups.iter().enumerate() {
            f.write_str(if i == 0 { " ON " } else { ", " })?;
            match &filegroup.name {
                Some(name) => write!(
                    f,
                    "FILEGROUP {name}{} ",
                    flag(
                        filegroup.memory_optimized,
                        " CONTAINS MEMORY_OPTIMIZED_DATA"
                    )
                )?,
                None => f.write_str("PRIMARY ")?,
            }
            files(&filegroup.files).fmt(f)?;
        }
        if !self.log_files.is_empty() {
            write!(f, " LOG ON {}", files(&self.log_files))?;
        }
        opt(" COLLATE ", self.collation.as_ref()).fmt(f)
    }
}

impl Display for AlterDatabase {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str("ALTER DATABASE ")?;
        match &self.database {
            Some(name) => write!(f, "{name} ")?,
            None => f.write_str("CURRENT ")?,
        }
        match &self.action {
            AlterDatabaseAction::Set {
                options,
                termination,
            } => write!(
                f,
                "SET {}{}",
                join_with(options, ", ", |f, option| database_option(option).fmt(f)),
                show(move |f| {
                    // Termination words and counts (`ROLLBACK AFTER 10
                    // SECONDS`) are keywords and digits: printed as they are.
                    if termination.is_empty() {
                        return Ok(());
                    }
                    f.write_str(" WITH")?;
                    termination
                        .iter()
                        .try_for_each(|word| write!(f, " {}", word.value))
                })
            ),
            AlterDatabaseAction::AddFilegroup {
                name,
                memory_optimized,
            } => write!(
                f,
                "ADD FILEGROUP {name}{}",
                flag(*memory_optimized, " CONTAINS MEMORY_OPTIMIZED_DATA")
            ),
            AlterDatabaseAction::AddFile {
                files: file_list,
                filegroup,
            } => write!(
                f,
                "ADD FILE {}{}",
                files(file_list),
                opt(" TO FILEGROUP ", filegroup.as_ref())
            ),
        }
    }
}

impl Display for CreatePrincipal {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let kind = match self.principal {
            PrincipalKind::Login => "LOGIN",
            PrincipalKind::User => "USER",
            PrincipalKind::Role => "ROLE",
        };
        write!(
            f,
            "{} {kind} {}{}{}{}{}",
            create_verb(false, self.alter),
            self.name,
            opt(" FOR LOGIN ", self.login.as_ref()),
            flag(self.without_login, " WITHOUT LOGIN"),
            match self.enable {
                Some(true) => " ENABLE",
                Some(false) => " DISABLE",
                None => "",
            },
            clause(" WITH ", &self.options)
        )
    }
}

impl Display for Permission {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let revoke = self.action == PermissionAction::Revoke;
        f.write_str(match self.action {
            PermissionAction::Grant => "GRANT ",
            PermissionAction::Deny => "DENY ",
            PermissionAction::Revoke => "REVOKE ",
        })?;
        f.write_str(flag(revoke && self.grant_option, "GRANT OPTION FOR "))?;
        join_with(&self.permissions, ", ", |f, (names, columns)| {
            write!(f, "{}{}", words(names), column_list(columns))
        })
        .fmt(f)?;
        if let Some((class, object)) = &self.on {
            f.write_str(" ON ")?;
            if let Some(class) = class {
                write!(f, "{}::", Word(class))?;
            }
            object.fmt(f)?;
        }
        write!(
            f,
            " {} {}{}{}",
            if revoke { "FROM" } else { "TO" },
            comma(&self.principals),
            flag(!revoke && self.grant_option, " WITH GRANT OPTION"),
            flag(self.cascade, " CASCADE")
        )
    }
}

impl Display for DropType {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        use DropType::*;
        f.write_str(match self {
            Table => "TABLE",
            View => "VIEW",
            Procedure => "PROCEDURE",
            Function => "FUNCTION",
            Index => "INDEX",
            Schema => "SCHEMA",
            Type => "TYPE",
            Sequence => "SEQUENCE",
            Statistics => "STATISTICS",
            Login => "LOGIN",
            User => "USER",
            Role => "ROLE",
            Database => "DATABASE",
        })
    }
}

impl Display for IsolationLevel {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            IsolationLevel::ReadUncommitted => "READ UNCOMMITTED",
            IsolationLevel::ReadCommitted => "READ COMMITTED",
            IsolationLevel::RepeatableRead => "REPEATABLE READ",
            IsolationLevel::Snapshot => "SNAPSHOT",
            IsolationLevel::Serializable => "SERIALIZABLE",
        })
    }
}

/// The options of `SET`: `NOCOUNT`, `ANSI_NULLS, QUOTED_IDENTIFIER`,
/// `STATISTICS IO`, `STATISTICS IO, TIME`.
fn set_options(options: &[Ident]) -> impl Display + '_ {
    show(move |f| match options {
        [first, rest @ ..] if first.value.eq_ignore_ascii_case("STATISTICS") => {
            write!(f, "{} {}", Word(first), word_list(rest))
        }
        _ => word_list(options).fmt(f),
    })
}

// ---------------------------------------------------------------------------
// Statements

impl Display for Batch {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        join_with(&self.statements, "\n", |f, statement| statement.fmt(f)).fmt(f)
    }
}

impl Display for Statement {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        fmt_statement(f, self, 0)
    }
}

const INDENT: &str = "    ";

/// A line break followed by the indentation of `level`.
fn newline(f: &mut Formatter<'_>, level: usize) -> fmt::Result {
    f.write_char('\n')?;
    (0..level).try_for_each(|_| f.write_str(INDENT))
}

/// Statements each on a new line at `level`.
fn fmt_body(f: &mut Formatter<'_>, body: &[Statement], level: usize) -> fmt::Result {
    body.iter().try_for_each(|statement| {
        newline(f, level)?;
        fmt_statement(f, statement, level)
    })
}

/// `head`, the body one level in, then `tail` back at `level`:
/// `BEGIN ... END`, `BEGIN TRY ... END TRY`.
fn fmt_block(
    f: &mut Formatter<'_>,
    head: impl Display,
    body: &[Statement],
    tail: &str,
    level: usize,
) -> fmt::Result {
    write!(f, "{head}")?;
    fmt_body(f, body, level + 1)?;
    newline(f, level)?;
    f.write_str(tail)
}

/// The statement under IF, ELSE or WHILE: a `BEGIN ... END` block at the
/// keyword's level, anything else on its own line one level in.
fn fmt_branch(f: &mut Formatter<'_>, statement: &Statement, level: usize) -> fmt::Result {
    let level = match statement.kind {
        StatementKind::Block(_) => level,
        _ => level + 1,
    };
    newline(f, level)?;
    fmt_statement(f, statement, level)
}

/// Writes `statement` with the cursor already at `level`'s indentation;
/// lines after the first are indented by `level` and more.
fn fmt_statement(f: &mut Formatter<'_>, statement: &Statement, level: usize) -> fmt::Result {
    use StatementKind as S;
    match &statement.kind {
        // Compound statements and those that carry no `;` of their own.
        S::Block(body) => return fmt_block(f, "BEGIN", body, "END;", level),
        S::AtomicBlock { options, body } => {
            let head = show(|f| write!(f, "BEGIN ATOMIC{}", with_options(options)));
            return fmt_block(f, head, body, "END;", level);
        }
        S::TryCatch {
            try_block,
            catch_block,
        } => {
            fmt_block(f, "BEGIN TRY", try_block, "END TRY", level)?;
            newline(f, level)?;
            return fmt_block(f, "BEGIN CATCH", catch_block, "END CATCH;", level);
        }
        S::If {
            condition,
            then_branch,
            else_branch,
        } => {
            write!(f, "IF {condition}")?;
            fmt_branch(f, then_branch, level)?;
            if let Some(else_branch) = else_branch {
                newline(f, level)?;
                f.write_str("ELSE")?;
                if let S::If { .. } = else_branch.kind {
                    f.write_str(" ")?;
                    return fmt_statement(f, else_branch, level);
                }
                return fmt_branch(f, else_branch, level);
            }
            return Ok(());
        }
        S::While { condition, body } => {
            write!(f, "WHILE {condition}")?;
            return fmt_branch(f, body, level);
        }
        S::CreateProcedure(procedure) => return fmt_create_procedure(f, procedure, level),
        S::CreateFunction(function) => return fmt_create_function(f, function, level),
        S::Label(name) => return write!(f, "{name}:"),

        // Simple statements: one line, then `;`.
        S::Select(select) => write!(f, "{}{}", select.query, query_hints(&select.hints))?,
        S::Insert(insert) => insert.fmt(f)?,
        S::Update(update) => update.fmt(f)?,
        S::Delete(delete) => delete.fmt(f)?,
        S::Truncate(name) => write!(f, "TRUNCATE TABLE {name}")?,
        S::CreateTable(table) => table.fmt(f)?,
        S::AlterTable(alter) => alter.fmt(f)?,
        S::CreateIndex(index) => index.fmt(f)?,
        S::CreateTableType(table_type) => write!(
            f,
            "CREATE TYPE {} AS TABLE ({}){}",
            table_type.name,
            comma(&table_type.elements),
            with_options(&table_type.options)
        )?,
        S::CreateAliasType {
            name,
            base,
            nullable,
        } => write!(
            f,
            "CREATE TYPE {name} FROM {base}{}",
            nullability(*nullable)
        )?,
        S::CreateSequence(sequence) => write!(
            f,
            "CREATE SEQUENCE {}{}{}",
            sequence.name,
            opt(" AS ", sequence.data_type.as_ref()),
            sequence_options(&sequence.options)
        )?,
        S::AlterSequence(sequence) => write!(
            f,
            "ALTER SEQUENCE {}{}",
            sequence.name,
            sequence_options(&sequence.options)
        )?,
        S::CreateView(view) => write!(
            f,
            "{} VIEW {}{}{} AS {}{}",
            create_verb(view.or_alter, view.alter),
            view.name,
            column_list(&view.columns),
            word_clause(" WITH ", &view.options),
            view.query,
            flag(view.check_option, " WITH CHECK OPTION")
        )?,
        S::CreateSchema {
            name,
            authorization,
        } => write!(
            f,
            "CREATE SCHEMA {name}{}",
            opt(" AUTHORIZATION ", authorization.as_ref())
        )?,
        S::CreateStatistics {
            name,
            table,
            columns,
            options,
        } => write!(
            f,
            "CREATE STATISTICS {name} ON {table} ({}){}",
            comma(columns),
            clause(" WITH ", options)
        )?,
        S::UpdateStatistics {
            table,
            target,
            options,
        } => write!(
            f,
            "UPDATE STATISTICS {table}{}{}",
            opt(" ", target.as_ref()),
            clause(" WITH ", options)
        )?,
        S::CreateDatabase(database) => database.fmt(f)?,
        S::AlterDatabase(alter) => alter.fmt(f)?,
        S::CreatePrincipal(principal) => principal.fmt(f)?,
        S::AlterRole {
            role,
            add,
            member,
            server,
        } => write!(
            f,
            "ALTER {}ROLE {role} {} MEMBER {member}",
            if *server { "SERVER " } else { "" },
            if *add { "ADD" } else { "DROP" }
        )?,
        S::Permission(permission) => permission.fmt(f)?,
        S::Drop {
            object_type,
            if_exists,
            names,
            on_table,
        } => write!(
            f,
            "DROP {object_type}{} {}{}",
            flag(*if_exists, " IF EXISTS"),
            comma(names),
            opt(" ON ", on_table.as_ref())
        )?,
        S::Declare(declarations) => write!(f, "DECLARE {}", comma(declarations))?,
        S::DeclareTable {
            variable: name,
            elements,
        } => write!(f, "DECLARE {} TABLE ({})", variable(name), comma(elements))?,
        S::SetVariable {
            variable: name,
            op,
            value,
        } => write!(f, "SET {} {op} {value}", variable(name))?,
        S::SetOption { options, value } => write!(f, "SET {} {value}", set_options(options))?,
        S::SetTransactionIsolation(level) => write!(f, "SET TRANSACTION ISOLATION LEVEL {level}")?,
        S::SetIdentityInsert { table, on } => write!(
            f,
            "SET IDENTITY_INSERT {table} {}",
            if *on { "ON" } else { "OFF" }
        )?,
        S::Break => f.write_str("BREAK")?,
        S::Continue => f.write_str("CONTINUE")?,
        S::Return(value) => write!(f, "RETURN{}", opt(" ", value.as_ref()))?,
        S::Goto(label) => write!(f, "GOTO {label}")?,
        S::Throw(args) => write!(
            f,
            "THROW{}",
            opt(" ", args.as_deref().map(|args| comma(args)))
        )?,
        S::Raiserror { args, options } => write!(
            f,
            "RAISERROR({}){}",
            comma(args),
            word_clause(" WITH ", options)
        )?,
        S::Print(value) => write!(f, "PRINT {value}")?,
        S::WaitFor { delay, time } => write!(
            f,
            "WAITFOR {} {time}",
            if *delay { "DELAY" } else { "TIME" }
        )?,
        S::Exec(exec) => exec.fmt(f)?,
        S::ExecString(parts) => exec_string(parts).fmt(f)?,
        S::BeginTransaction { name } => write!(f, "BEGIN TRANSACTION{}", opt(" ", name.as_ref()))?,
        S::Commit { name, options } => write!(
            f,
            "COMMIT TRANSACTION{}{}",
            opt(" ", name.as_ref()),
            with_options(options)
        )?,
        S::Rollback { name } => write!(f, "ROLLBACK TRANSACTION{}", opt(" ", name.as_ref()))?,
        S::SaveTransaction { name } => write!(f, "SAVE TRANSACTION {name}")?,
        S::Use(database) => write!(f, "USE {database}")?,
        S::Checkpoint(duration) => write!(f, "CHECKPOINT{}", opt(" ", duration.as_ref()))?,
        S::Dbcc {
            command,
            args,
            options,
        } => {
            write!(f, "DBCC {}", command.name())?;
            if !args.is_empty() {
                write!(f, "({})", comma(args))?;
            }
            write!(f, "{}", word_clause(" WITH ", options))?;
        }
    }
    f.write_str(";")
}

/// `\nWITH a, b` after a module header, or nothing.
fn fmt_module_options(
    f: &mut Formatter<'_>,
    options: &[ModuleOption],
    level: usize,
) -> fmt::Result {
    if options.is_empty() {
        return Ok(());
    }
    newline(f, level)?;
    write!(f, "WITH {}", comma(options))
}

/// ```text
/// CREATE PROCEDURE name @a int = 1, @b int OUTPUT
/// WITH NATIVE_COMPILATION, SCHEMABINDING
/// AS
/// BEGIN ATOMIC WITH (...)
///     ...
/// END;
/// ```
/// The body runs to the end of the batch, so it needs no closing keyword.
fn fmt_create_procedure(
    f: &mut Formatter<'_>,
    procedure: &CreateProcedure,
    level: usize,
) -> fmt::Result {
    write!(
        f,
        "{} PROCEDURE {}{}",
        create_verb(procedure.or_alter, procedure.alter),
        procedure.name,
        clause(" ", &procedure.params)
    )?;
    fmt_module_options(f, &procedure.options, level)?;
    newline(f, level)?;
    f.write_str("AS")?;
    fmt_body(f, &procedure.body, level)
}

/// ```text
/// CREATE FUNCTION name(@a int) RETURNS int
/// WITH NATIVE_COMPILATION, SCHEMABINDING
/// AS
/// BEGIN
///     RETURN @a;
/// END;
/// ```
/// or `... RETURNS TABLE` / `AS` / `RETURN (query);`.
fn fmt_create_function(
    f: &mut Formatter<'_>,
    function: &CreateFunction,
    level: usize,
) -> fmt::Result {
    write!(
        f,
        "{} FUNCTION {}({}) RETURNS ",
        create_verb(function.or_alter, function.alter),
        function.name,
        comma(&function.params)
    )?;
    match &function.returns {
        FunctionReturns::Scalar { data_type, .. } => data_type.fmt(f)?,
        FunctionReturns::InlineTable(_) => f.write_str("TABLE")?,
        FunctionReturns::MultiStatementTable {
            variable: name,
            elements,
            ..
        } => write!(f, "{} TABLE ({})", variable(name), comma(elements))?,
    }
    fmt_module_options(f, &function.options, level)?;
    newline(f, level)?;
    f.write_str("AS")?;
    newline(f, level)?;
    match &function.returns {
        FunctionReturns::Scalar { body, .. } => match body.as_slice() {
            [atomic @ Statement {
                kind: StatementKind::AtomicBlock { .. },
                ..
            }] => fmt_statement(f, atomic, level),
            _ => fmt_block(f, "BEGIN", body, "END;", level),
        },
        FunctionReturns::InlineTable(query) => write!(f, "RETURN ({query});"),
        FunctionReturns::MultiStatementTable { body, .. } => {
            fmt_block(f, "BEGIN", body, "END;", level)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::span::Span;
    use BinaryOp::*;

    // -- Tree builders ------------------------------------------------------

    fn id(value: &str) -> Ident {
        Ident {
            value: value.to_string(),
            span: Span::default(),
        }
    }

    /// `"a.b"` → `a.b`; an empty part is omitted: `"master..spt_values"`.
    fn obj(dotted: &str) -> ObjectName {
        ObjectName {
            parts: dotted
                .split('.')
                .map(|part| (!part.is_empty()).then(|| id(part)))
                .collect(),
            span: Span::default(),
        }
    }

    fn ex(kind: ExprKind) -> Expr {
        Expr {
            kind,
            span: Span::default(),
        }
    }

    fn col(dotted: &str) -> Expr {
        ex(ExprKind::Column(dotted.split('.').map(id).collect()))
    }

    fn int(digits: &str) -> Expr {
        ex(ExprKind::Literal(Literal::Integer(digits.to_string())))
    }

    fn text(value: &str, national: bool) -> Expr {
        ex(ExprKind::Literal(Literal::String {
            value: value.to_string(),
            national,
        }))
    }

    fn var(name: &str) -> Expr {
        ex(ExprKind::Variable(name.to_string()))
    }

    fn bin(left: Expr, op: BinaryOp, right: Expr) -> Expr {
        ex(ExprKind::Binary {
            op,
            left: Box::new(left),
            right: Box::new(right),
        })
    }

    fn unary(op: UnaryOp, operand: Expr) -> Expr {
        ex(ExprKind::Unary {
            op,
            operand: Box::new(operand),
        })
    }

    fn call(name: &str, args: Vec<Expr>) -> FunctionCall {
        FunctionCall {
            name: obj(name),
            args,
            star: false,
            distinct: false,
            within_group: vec![],
            over: None,
            span: Span::default(),
        }
    }

    fn data_type(name: &str, args: Vec<TypeArg>) -> DataType {
        DataType {
            name: obj(name),
            args,
            span: Span::default(),
        }
    }

    fn table(name: &str) -> TableRef {
        TableRef {
            kind: TableRefKind::Table {
                name: obj(name),
                alias: None,
                hints: vec![],
            },
            span: Span::default(),
        }
    }

    fn join(left: TableRef, kind: JoinKind, right: TableRef, on: Option<Expr>) -> TableRef {
        TableRef {
            kind: TableRefKind::Join {
                left: Box::new(left),
                right: Box::new(right),
                kind,
                hint: None,
                on,
            },
            span: Span::default(),
        }
    }

    fn select(items: Vec<Expr>, from: Vec<TableRef>) -> Select {
        Select {
            distinct: false,
            top: None,
            items: items
                .into_iter()
                .map(|expr| SelectItem::Expr {
                    expr,
                    alias: None,
                    span: Span::default(),
                })
                .collect(),
            into: None,
            from,
            where_clause: None,
            group_by: vec![],
            having: None,
            span: Span::default(),
        }
    }

    fn query(body: QueryBody) -> Query {
        Query {
            with: vec![],
            body,
            order_by: vec![],
            offset: None,
            span: Span::default(),
        }
    }

    fn body(items: Vec<Expr>) -> QueryBody {
        QueryBody::Select(Box::new(select(items, vec![])))
    }

    fn set_op(left: QueryBody, op: SetOperator, right: QueryBody) -> QueryBody {
        QueryBody::SetOp {
            op,
            all: false,
            left: Box::new(left),
            right: Box::new(right),
        }
    }

    fn stmt(kind: StatementKind) -> Statement {
        Statement {
            kind,
            span: Span::default(),
        }
    }

    fn print(expr: Expr) -> String {
        expr.to_string()
    }

    fn print_stmt(kind: StatementKind) -> String {
        stmt(kind).to_string()
    }

    // -- Expressions --------------------------------------------------------

    #[test]
    fn minimal_parentheses() {
        let (a, b, c) = (|| col("a"), || col("b"), || col("c"));
        assert_eq!(print(bin(bin(a(), Add, b()), Multiply, c())), "(a + b) * c");
        assert_eq!(print(bin(a(), Add, bin(b(), Multiply, c()))), "a + b * c");
        assert_eq!(
            print(bin(a(), Subtract, bin(b(), Subtract, c()))),
            "a - (b - c)"
        );
        assert_eq!(
            print(bin(bin(a(), Subtract, b()), Subtract, c())),
            "a - b - c"
        );
        assert_eq!(
            print(bin(a(), Divide, bin(b(), Multiply, c()))),
            "a / (b * c)"
        );
        assert_eq!(print(bin(bin(a(), Add, b()), Eq, c())), "a + b = c");
        let either = bin(bin(a(), Eq, int("1")), Or, bin(b(), Eq, int("2")));
        assert_eq!(
            print(unary(UnaryOp::Not, either.clone())),
            "NOT (a = 1 OR b = 2)"
        );
        assert_eq!(
            print(bin(c(), And, either.clone())),
            "c AND (a = 1 OR b = 2)"
        );
        assert_eq!(print(bin(either, And, c())), "(a = 1 OR b = 2) AND c");
        assert_eq!(
            print(bin(unary(UnaryOp::Not, a()), And, unary(UnaryOp::Not, b()))),
            "NOT a AND NOT b"
        );
        assert_eq!(print(unary(UnaryOp::Minus, bin(a(), Add, b()))), "-(a + b)");
        assert_eq!(
            print(bin(unary(UnaryOp::Minus, a()), Multiply, b())),
            "-a * b"
        );
        assert_eq!(print(unary(UnaryOp::BitNot, a())), "~a");
        let collated = ex(ExprKind::Collate {
            expr: Box::new(bin(a(), Add, b())),
            collation: id("Latin1_General_BIN2"),
        });
        assert_eq!(print(collated), "(a + b) COLLATE Latin1_General_BIN2");
    }

    #[test]
    fn unary_signs_never_make_a_comment() {
        let minus_one = || unary(UnaryOp::Minus, int("1"));
        assert_eq!(print(minus_one()), "-1");
        assert_eq!(print(unary(UnaryOp::Minus, minus_one())), "- -1");
        assert_eq!(
            print(unary(UnaryOp::Minus, unary(UnaryOp::Plus, col("x")))),
            "- +x"
        );
        assert_eq!(print(unary(UnaryOp::Plus, minus_one())), "+ -1");
        assert_eq!(print(bin(col("a"), Subtract, minus_one())), "a - -1");
        assert_eq!(print(unary(UnaryOp::BitNot, minus_one())), "~-1");
    }

    #[test]
    fn predicates() {
        let between = |expr, low, high| {
            ex(ExprKind::Between {
                expr: Box::new(expr),
                negated: false,
                low: Box::new(low),
                high: Box::new(high),
            })
        };
        assert_eq!(
            print(between(bin(col("a"), Add, int("1")), int("1"), int("2"))),
            "a + 1 BETWEEN 1 AND 2"
        );
        let both = bin(col("b"), And, col("c"));
        assert_eq!(
            print(between(col("a"), int("1"), both)),
            "a BETWEEN 1 AND (b AND c)"
        );
        assert_eq!(
            print(bin(between(col("a"), int("1"), int("2")), And, col("b"))),
            "a BETWEEN 1 AND 2 AND b"
        );
        let in_list = ex(ExprKind::InList {
            expr: Box::new(col("x")),
            negated: true,
            list: vec![int("1"), bin(int("2"), Add, int("3"))],
        });
        assert_eq!(print(in_list), "x NOT IN (1, 2 + 3)");
        let like = ex(ExprKind::Like {
            expr: Box::new(col("name")),
            negated: false,
            pattern: Box::new(text("a!%%", false)),
            escape: Some(Box::new(text("!", false))),
        });
        assert_eq!(print(like), "name LIKE 'a!%%' ESCAPE '!'");
        let is_null = ex(ExprKind::IsNull {
            expr: Box::new(ex(ExprKind::Subquery(Box::new(query(body(vec![int(
                "1",
            )])))))),
            negated: true,
        });
        assert_eq!(print(is_null), "(SELECT 1) IS NOT NULL");
        let quantified = ex(ExprKind::Quantified {
            expr: Box::new(col("x")),
            op: Ge,
            quantifier: Quantifier::All,
            query: Box::new(query(body(vec![col("y")]))),
        });
        assert_eq!(print(quantified), "x >= ALL (SELECT y)");
    }

    #[test]
    fn identifiers() {
        assert_eq!(id("name").to_string(), "name");
        assert_eq!(id("#temp").to_string(), "#temp");
        assert_eq!(id("order").to_string(), "[order]");
        assert_eq!(id("a]b").to_string(), "[a]]b]");
        assert_eq!(id("my col").to_string(), "[my col]");
        assert_eq!(id("1st").to_string(), "[1st]");
        assert_eq!(id("é").to_string(), "é", "non-ASCII letters lex as names");
        assert_eq!(obj("master..spt_values").to_string(), "master..spt_values");
        assert_eq!(obj("dbo.select").to_string(), "dbo.[select]");
        assert_eq!(print(col("t.key")), "t.[key]");
        assert_eq!(print(var("v")), "@v");
        assert_eq!(
            print(ex(ExprKind::GlobalVariable("ROWCOUNT".into()))),
            "@@ROWCOUNT"
        );
    }

    #[test]
    fn literals() {
        assert_eq!(print(text("it's", false)), "'it''s'");
        assert_eq!(print(text("", true)), "N''");
        let literal = |literal| print(ex(ExprKind::Literal(literal)));
        assert_eq!(literal(Literal::Binary(vec![0x0a, 0xff])), "0x0AFF");
        assert_eq!(literal(Literal::Binary(vec![])), "0x");
        assert_eq!(literal(Literal::Money("1.50".into())), "$1.50");
        assert_eq!(literal(Literal::Decimal(".5".into())), ".5");
        assert_eq!(literal(Literal::Float("1.5E10".into())), "1.5E10");
        assert_eq!(literal(Literal::Null), "NULL");
    }

    #[test]
    fn calls_casts_and_types() {
        let mut count = call("COUNT", vec![]);
        count.star = true;
        assert_eq!(count.to_string(), "COUNT(*)");
        let mut distinct = call("count", vec![col("x")]);
        distinct.distinct = true;
        assert_eq!(distinct.to_string(), "count(DISTINCT x)");
        assert_eq!(
            call("LEFT", vec![col("s"), int("2")]).to_string(),
            "LEFT(s, 2)"
        );
        assert_eq!(
            call("CURRENT_TIMESTAMP", vec![]).to_string(),
            "CURRENT_TIMESTAMP"
        );
        assert_eq!(call("dbo.select", vec![]).to_string(), "dbo.[select]()");

        let mut ranked = call("ROW_NUMBER", vec![]);
        ranked.over = Some(Window {
            partition_by: vec![col("a"), col("b")],
            order_by: vec![OrderItem {
                expr: col("c"),
                descending: true,
                span: Span::default(),
            }],
            frame: Some(WindowFrame {
                units: FrameUnits::Rows,
                start: FrameBound::UnboundedPreceding,
                end: Some(FrameBound::CurrentRow),
                span: Span::default(),
            }),
            span: Span::default(),
        });
        assert_eq!(
            ranked.to_string(),
            "ROW_NUMBER() OVER (PARTITION BY a, b ORDER BY c DESC \
             ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)"
        );

        let decimal = data_type("decimal", vec![TypeArg::Number(18), TypeArg::Number(2)]);
        assert_eq!(decimal.to_string(), "decimal(18, 2)");
        let cast = ex(ExprKind::Cast {
            expr: Box::new(col("x")),
            data_type: decimal,
            is_try: true,
        });
        assert_eq!(print(cast), "TRY_CAST(x AS decimal(18, 2))");
        let convert = ex(ExprKind::Convert {
            data_type: data_type("varchar", vec![TypeArg::Max]),
            expr: Box::new(col("d")),
            style: Some(Box::new(int("120"))),
            is_try: false,
        });
        assert_eq!(print(convert), "CONVERT(varchar(max), d, 120)");
        let case = ex(ExprKind::Case {
            operand: None,
            whens: vec![(bin(col("a"), Eq, int("1")), text("one", false))],
            else_result: Some(Box::new(ex(ExprKind::Literal(Literal::Null)))),
        });
        assert_eq!(print(case), "CASE WHEN a = 1 THEN 'one' ELSE NULL END");
    }

    // -- Queries ------------------------------------------------------------

    #[test]
    fn set_operations_group_by_precedence() {
        use SetOperator::*;
        let one = || body(vec![int("1")]);
        let two = || body(vec![int("2")]);
        let three = || body(vec![int("3")]);
        let left_nested = set_op(set_op(one(), Union, two()), Except, three());
        assert_eq!(
            left_nested.to_string(),
            "SELECT 1 UNION SELECT 2 EXCEPT SELECT 3"
        );
        let right_nested = set_op(one(), Union, set_op(two(), Union, three()));
        assert_eq!(
            right_nested.to_string(),
            "SELECT 1 UNION (SELECT 2 UNION SELECT 3)"
        );
        let tighter = set_op(one(), Union, set_op(two(), Intersect, three()));
        assert_eq!(
            tighter.to_string(),
            "SELECT 1 UNION SELECT 2 INTERSECT SELECT 3"
        );
        let looser = set_op(set_op(one(), Union, two()), Intersect, three());
        assert_eq!(
            looser.to_string(),
            "(SELECT 1 UNION SELECT 2) INTERSECT SELECT 3"
        );
    }

    #[test]
    fn full_query() {
        let mut select = select(vec![col("a")], vec![table("t")]);
        select.distinct = true;
        select.top = Some(Top {
            count: int("5"),
            percent: false,
            with_ties: true,
            span: Span::default(),
        });
        select.where_clause = Some(bin(col("a"), Gt, int("0")));
        select.group_by = vec![GroupByItem::Expr(col("a"))];
        let mut query = query(QueryBody::Select(Box::new(select)));
        query.with = vec![Cte {
            name: id("c"),
            columns: vec![id("x")],
            query: Box::new(self::query(body(vec![int("1")]))),
            span: Span::default(),
        }];
        query.order_by = vec![OrderItem {
            expr: col("a"),
            descending: true,
            span: Span::default(),
        }];
        query.offset = Some(OffsetFetch {
            offset: int("10"),
            fetch: Some(int("5")),
            span: Span::default(),
        });
        assert_eq!(
            query.to_string(),
            "WITH c (x) AS (SELECT 1) SELECT DISTINCT TOP (5) WITH TIES a FROM t \
             WHERE a > 0 GROUP BY a ORDER BY a DESC OFFSET 10 ROWS FETCH NEXT 5 ROWS ONLY"
        );
    }

    #[test]
    fn joins_group_to_the_left() {
        let on = |l: &str, r: &str| Some(bin(col(l), Eq, col(r)));
        let inner = join(table("b"), JoinKind::Inner, table("c"), on("b.id", "c.id"));
        let outer = join(table("a"), JoinKind::Left, inner, on("a.id", "b.id"));
        assert_eq!(
            outer.to_string(),
            "a LEFT OUTER JOIN (b INNER JOIN c ON b.id = c.id) ON a.id = b.id"
        );
        let mut chained = join(table("a"), JoinKind::Inner, table("b"), on("a.id", "b.id"));
        if let TableRefKind::Join { hint, .. } = &mut chained.kind {
            *hint = Some(JoinHint::Hash);
        }
        let chained = join(chained, JoinKind::CrossApply, table("c"), None);
        assert_eq!(
            chained.to_string(),
            "a INNER HASH JOIN b ON a.id = b.id CROSS APPLY c"
        );
        let hinted = TableRef {
            kind: TableRefKind::Table {
                name: obj("dbo.t"),
                alias: Some(id("x")),
                hints: vec![
                    TableHint {
                        name: id("NOLOCK"),
                        args: vec![],
                        span: Span::default(),
                    },
                    TableHint {
                        name: id("INDEX"),
                        args: vec![col("ix")],
                        span: Span::default(),
                    },
                ],
            },
            span: Span::default(),
        };
        assert_eq!(hinted.to_string(), "dbo.t AS x WITH (NOLOCK, INDEX(ix))");
        let values = TableRef {
            kind: TableRefKind::Values {
                rows: vec![vec![int("1"), int("2")], vec![int("3"), int("4")]],
                alias: id("v"),
                columns: vec![id("a"), id("b")],
            },
            span: Span::default(),
        };
        assert_eq!(values.to_string(), "(VALUES (1, 2), (3, 4)) AS v (a, b)");
    }

    // -- Statements ---------------------------------------------------------

    fn print_line(value: Expr) -> Statement {
        stmt(StatementKind::Print(value))
    }

    fn block(body: Vec<Statement>) -> Statement {
        stmt(StatementKind::Block(body))
    }

    fn if_else(condition: Expr, then: Statement, otherwise: Option<Statement>) -> Statement {
        stmt(StatementKind::If {
            condition,
            then_branch: Box::new(then),
            else_branch: otherwise.map(Box::new),
        })
    }

    #[test]
    fn if_else_indentation() {
        let simple = if_else(
            bin(var("a"), Eq, int("1")),
            print_line(text("one", false)),
            Some(print_line(text("other", false))),
        );
        assert_eq!(
            simple.to_string(),
            "IF @a = 1\n    PRINT 'one';\nELSE\n    PRINT 'other';"
        );
        let chained = if_else(
            bin(var("a"), Eq, int("1")),
            block(vec![print_line(int("1")), print_line(int("2"))]),
            Some(if_else(
                bin(var("a"), Eq, int("2")),
                print_line(int("3")),
                Some(block(vec![stmt(StatementKind::Return(None))])),
            )),
        );
        assert_eq!(
            chained.to_string(),
            "IF @a = 1\nBEGIN\n    PRINT 1;\n    PRINT 2;\nEND;\n\
             ELSE IF @a = 2\n    PRINT 3;\nELSE\nBEGIN\n    RETURN;\nEND;"
        );
    }

    #[test]
    fn blocks_nest() {
        let loop_body = block(vec![
            stmt(StatementKind::SetVariable {
                variable: "i".into(),
                op: AssignOp::Add,
                value: int("1"),
            }),
            if_else(
                bin(var("i"), Ge, int("5")),
                stmt(StatementKind::Break),
                None,
            ),
        ]);
        let outer = block(vec![
            stmt(StatementKind::While {
                condition: bin(var("i"), Lt, int("10")),
                body: Box::new(loop_body),
            }),
            stmt(StatementKind::TryCatch {
                try_block: vec![print_line(int("1"))],
                catch_block: vec![stmt(StatementKind::Throw(None))],
            }),
        ]);
        assert_eq!(
            outer.to_string(),
            "BEGIN\n\
             \x20   WHILE @i < 10\n\
             \x20   BEGIN\n\
             \x20       SET @i += 1;\n\
             \x20       IF @i >= 5\n\
             \x20           BREAK;\n\
             \x20   END;\n\
             \x20   BEGIN TRY\n\
             \x20       PRINT 1;\n\
             \x20   END TRY\n\
             \x20   BEGIN CATCH\n\
             \x20       THROW;\n\
             \x20   END CATCH;\n\
             END;"
        );
    }

    fn option(name: &str, value: OptionValue) -> OptionItem {
        OptionItem {
            name: name.split(' ').map(id).collect(),
            value: Some(value),
            span: Span::default(),
        }
    }

    fn on() -> OptionValue {
        OptionValue::Words(vec![id("ON")])
    }

    #[test]
    fn native_procedure() {
        let atomic = stmt(StatementKind::AtomicBlock {
            options: vec![
                option(
                    "TRANSACTION ISOLATION LEVEL",
                    OptionValue::Words(vec![id("SNAPSHOT")]),
                ),
                option("LANGUAGE", OptionValue::Expr(text("us_english", true))),
            ],
            body: vec![stmt(StatementKind::Select(SelectStatement {
                query: Box::new(query(body(vec![var("a")]))),
                hints: vec![],
            }))],
        });
        let procedure = CreateProcedure {
            or_alter: true,
            alter: false,
            name: obj("dbo.p"),
            params: vec![Parameter {
                name: "a".into(),
                data_type: data_type("int", vec![]),
                nullable: Some(false),
                default: Some(int("1")),
                output: true,
                readonly: false,
                span: Span::default(),
            }],
            options: vec![
                ModuleOption::NativeCompilation,
                ModuleOption::SchemaBinding,
                ModuleOption::ExecuteAs(col("OWNER")),
            ],
            body: vec![atomic],
        };
        assert_eq!(
            print_stmt(StatementKind::CreateProcedure(Box::new(procedure))),
            "CREATE OR ALTER PROCEDURE dbo.p @a int NOT NULL = 1 OUTPUT\n\
             WITH NATIVE_COMPILATION, SCHEMABINDING, EXECUTE AS OWNER\n\
             AS\n\
             BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')\n\
             \x20   SELECT @a;\n\
             END;"
        );
    }

    #[test]
    fn functions() {
        let scalar = CreateFunction {
            or_alter: false,
            alter: false,
            name: obj("dbo.f"),
            params: vec![],
            returns: FunctionReturns::Scalar {
                data_type: data_type("int", vec![]),
                body: vec![stmt(StatementKind::Return(Some(int("1"))))],
            },
            options: vec![],
        };
        assert_eq!(
            print_stmt(StatementKind::CreateFunction(Box::new(scalar))),
            "CREATE FUNCTION dbo.f() RETURNS int\nAS\nBEGIN\n    RETURN 1;\nEND;"
        );
        let inline = CreateFunction {
            or_alter: false,
            alter: true,
            name: obj("dbo.g"),
            params: vec![],
            returns: FunctionReturns::InlineTable(Box::new(query(body(vec![int("1")])))),
            options: vec![ModuleOption::SchemaBinding],
        };
        assert_eq!(
            print_stmt(StatementKind::CreateFunction(Box::new(inline))),
            "ALTER FUNCTION dbo.g() RETURNS TABLE\nWITH SCHEMABINDING\nAS\nRETURN (SELECT 1);"
        );
    }

    #[test]
    fn memory_optimized_table() {
        let id_column = ColumnDef {
            with_values: false,
            name: id("id"),
            data_type: Some(data_type("int", vec![])),
            computed: None,
            collation: None,
            nullable: Some(false),
            identity: Some((int("1"), int("1"))),
            default: None,
            constraints: vec![TableConstraint {
                name: Some(id("pk")),
                kind: ConstraintKind::Key {
                    primary: true,
                    layout: IndexLayout {
                        clustered: Some(false),
                        hash: true,
                        columnstore: false,
                    },
                    columns: vec![],
                    options: vec![option("BUCKET_COUNT", OptionValue::Expr(int("1024")))],
                },
                span: Span::default(),
            }],
            index: None,
            span: Span::default(),
        };
        let name_column = ColumnDef {
            with_values: false,
            name: id("name"),
            data_type: Some(data_type("nvarchar", vec![TypeArg::Number(50)])),
            computed: None,
            collation: Some(id("Latin1_General_100_BIN2")),
            nullable: Some(true),
            identity: None,
            default: Some((Some(id("df")), text("x", true))),
            constraints: vec![],
            index: None,
            span: Span::default(),
        };
        let index = IndexDef {
            name: id("ix_name"),
            unique: false,
            layout: IndexLayout::default(),
            columns: vec![IndexColumn {
                name: id("name"),
                descending: true,
                span: Span::default(),
            }],
            include: vec![],
            filter: None,
            options: vec![],
            span: Span::default(),
        };
        let create = CreateTable {
            name: obj("dbo.t"),
            elements: vec![
                TableElement::Column(Box::new(id_column)),
                TableElement::Column(Box::new(name_column)),
                TableElement::Index(index),
            ],
            options: vec![
                option("MEMORY_OPTIMIZED", on()),
                option(
                    "DURABILITY",
                    OptionValue::Words(vec![id("SCHEMA_AND_DATA")]),
                ),
            ],
            filegroup: Some(id("PRIMARY")),
        };
        assert_eq!(
            print_stmt(StatementKind::CreateTable(Box::new(create))),
            "CREATE TABLE dbo.t (\
             id int IDENTITY(1, 1) NOT NULL CONSTRAINT pk PRIMARY KEY NONCLUSTERED HASH \
             WITH (BUCKET_COUNT = 1024), \
             name nvarchar(50) COLLATE Latin1_General_100_BIN2 NULL CONSTRAINT df DEFAULT N'x', \
             INDEX ix_name (name DESC)) \
             ON [PRIMARY] WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_AND_DATA);"
        );
    }

    #[test]
    fn one_line_statements() {
        assert_eq!(
            print_stmt(StatementKind::Declare(vec![
                Declaration {
                    not_null: false,
                    name: "a".into(),
                    data_type: data_type("int", vec![]),
                    value: Some(int("1")),
                    span: Span::default(),
                },
                Declaration {
                    not_null: false,
                    name: "b".into(),
                    data_type: data_type("varchar", vec![TypeArg::Number(10)]),
                    value: None,
                    span: Span::default(),
                },
            ])),
            "DECLARE @a int = 1, @b varchar(10);"
        );
        assert_eq!(
            print_stmt(StatementKind::SetOption {
                options: vec![id("ANSI_NULLS"), id("QUOTED_IDENTIFIER")],
                value: on(),
            }),
            "SET ANSI_NULLS, QUOTED_IDENTIFIER ON;"
        );
        assert_eq!(
            print_stmt(StatementKind::SetOption {
                options: vec![id("STATISTICS"), id("IO")],
                value: on(),
            }),
            "SET STATISTICS IO ON;"
        );
        let exec = Exec {
            return_status: Some("rc".into()),
            procedure: ExecTarget::Name(obj("dbo.p")),
            args: vec![
                ExecArg {
                    name: None,
                    value: int("1"),
                    output: false,
                    span: Span::default(),
                },
                ExecArg {
                    name: Some("out".into()),
                    value: var("x"),
                    output: true,
                    span: Span::default(),
                },
            ],
            options: vec![id("RECOMPILE")],
        };
        assert_eq!(
            print_stmt(StatementKind::Exec(Box::new(exec))),
            "EXECUTE @rc = dbo.p 1, @out = @x OUTPUT WITH RECOMPILE;"
        );
        let grant = Permission {
            action: PermissionAction::Grant,
            permissions: vec![
                (vec![id("SELECT")], vec![id("a")]),
                (vec![id("EXECUTE")], vec![]),
            ],
            on: Some((Some(id("SCHEMA")), obj("dbo"))),
            principals: vec![id("app"), id("public")],
            grant_option: true,
            cascade: false,
        };
        assert_eq!(
            print_stmt(StatementKind::Permission(Box::new(grant))),
            "GRANT SELECT (a), EXECUTE ON SCHEMA::dbo TO app, [public] WITH GRANT OPTION;"
        );
        let insert = Insert {
            with: vec![],
            top: None,
            target: DmlTarget::Variable("t".into()),
            columns: vec![id("a"), id("b")],
            output: Vec::new(),
            source: InsertSource::Values(vec![vec![int("1"), ex(ExprKind::Default)]]),
            hints: vec![],
        };
        assert_eq!(
            print_stmt(StatementKind::Insert(Box::new(insert))),
            "INSERT INTO @t (a, b) VALUES (1, DEFAULT);"
        );
        assert_eq!(
            print_stmt(StatementKind::Drop {
                object_type: DropType::Index,
                if_exists: true,
                names: vec![obj("ix")],
                on_table: Some(obj("dbo.t")),
            }),
            "DROP INDEX IF EXISTS ix ON dbo.t;"
        );
        assert_eq!(
            print_stmt(StatementKind::ExecString(vec![
                text("SELECT ", false),
                var("sql")
            ])),
            "EXECUTE ('SELECT ' + @sql);"
        );
        assert_eq!(print_stmt(StatementKind::Label(id("retry"))), "retry:");
        assert_eq!(
            print_stmt(StatementKind::SetIdentityInsert {
                table: obj("orders"),
                on: true
            }),
            "SET IDENTITY_INSERT orders ON;"
        );
    }

    #[test]
    fn batch_puts_statements_on_lines() {
        let batch = Batch {
            statements: vec![
                stmt(StatementKind::BeginTransaction { name: None }),
                stmt(StatementKind::Truncate(obj("#work"))),
                stmt(StatementKind::Commit {
                    name: None,
                    options: vec![option("DELAYED_DURABILITY", on())],
                }),
            ],
        };
        assert_eq!(
            to_sql(&batch),
            "BEGIN TRANSACTION;\nTRUNCATE TABLE #work;\n\
             COMMIT TRANSACTION WITH (DELAYED_DURABILITY = ON);"
        );
    }
}
