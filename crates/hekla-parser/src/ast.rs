//! The T-SQL abstract syntax tree. Every node carries the [`Span`] of the
//! text it was parsed from: expressions, names, clauses and list items have
//! their own; a statement's payload struct (`Insert`, `CreateTable`, ...)
//! is spanned by its [`Statement`]. The tree records meaning, not spelling: `x = e`
//! and `e AS x` aliases, `TOP 5` and `TOP (5)`, redundant parentheses and
//! keyword case all parse to the same nodes, so printing a tree and parsing
//! the result gives the same tree back.
//!
//! Generic `WITH (NAME = value, ...)` option lists ([`OptionItem`]) are kept
//! as written; the binder gives them meaning and rejects unknown ones, so
//! the parser stays as lenient as SQL Server's grammar.

use crate::span::Span;

/// An identifier, quotes removed. Comparisons of names are the binder's
/// business (they follow the catalog collation).
#[derive(Clone, Debug, PartialEq)]
pub struct Ident {
    pub value: String,
    pub span: Span,
}

/// `a`, `s.a`, `db.s.a`, `server.db.s.a` or `db..a` (an omitted part is
/// `None`). The last part is never omitted.
#[derive(Clone, Debug, PartialEq)]
pub struct ObjectName {
    pub parts: Vec<Option<Ident>>,
    pub span: Span,
}

impl ObjectName {
    /// The object's own name (the last part).
    pub fn name(&self) -> &Ident {
        self.parts
            .last()
            .and_then(Option::as_ref)
            .expect("an object name's last part is never omitted")
    }

    /// The schema part, if written.
    pub fn schema(&self) -> Option<&Ident> {
        let n = self.parts.len();
        if n >= 2 {
            self.parts[n - 2].as_ref()
        } else {
            None
        }
    }

    /// The database part as written, even the current database's name:
    /// CREATE VIEW, PROCEDURE, FUNCTION and TYPE refuse any (Msg 166).
    pub fn written_database(&self) -> Option<&Ident> {
        let n = self.parts.len();
        self.parts.get(n.checked_sub(3)?)?.as_ref()
    }

    /// The database part, if written and naming another database than
    /// `current`, the one the session is in: `hekla.dbo.t` and `hekla..t`
    /// name the objects `dbo.t` and `t` name, so they resolve alike. A
    /// four-part name keeps its database part: hekla has no linked servers.
    pub fn other_database(&self, current: &str) -> Option<&Ident> {
        let database = self.written_database()?;
        let is_current = database.value.eq_ignore_ascii_case(current);
        (!is_current || self.parts.len() > 3).then_some(database)
    }
}

/// A parsed batch: the statements between two `GO` lines.
#[derive(Clone, Debug, PartialEq)]
pub struct Batch {
    pub statements: Vec<Statement>,
}

// ---------------------------------------------------------------------------
// Expressions

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    Literal(Literal),
    /// `a`, `t.a`, `s.t.a`: a column or, in some argument positions
    /// (`DATEADD(day, ...)`), a bare word the binder interprets.
    Column(Vec<Ident>),
    /// `@name` (without the `@`).
    Variable(String),
    /// `@@NAME` (without the `@@`, case as written).
    GlobalVariable(String),
    /// `DEFAULT` in a VALUES list or an EXEC argument.
    Default,
    Unary {
        op: UnaryOp,
        operand: Box<Expr>,
    },
    Binary {
        op: BinaryOp,
        left: Box<Expr>,
        right: Box<Expr>,
    },
    /// `x [NOT] BETWEEN low AND high`.
    Between {
        expr: Box<Expr>,
        negated: bool,
        low: Box<Expr>,
        high: Box<Expr>,
    },
    /// `x [NOT] IN (a, b, ...)`.
    InList {
        expr: Box<Expr>,
        negated: bool,
        list: Vec<Expr>,
    },
    /// `x [NOT] IN (SELECT ...)`.
    InSubquery {
        expr: Box<Expr>,
        negated: bool,
        query: Box<Query>,
    },
    /// `x [NOT] LIKE pattern [ESCAPE e]`.
    Like {
        expr: Box<Expr>,
        negated: bool,
        pattern: Box<Expr>,
        escape: Option<Box<Expr>>,
    },
    /// `x IS [NOT] NULL`.
    IsNull {
        expr: Box<Expr>,
        negated: bool,
    },
    /// `EXISTS (SELECT ...)`.
    Exists(Box<Query>),
    /// A scalar subquery `(SELECT ...)`.
    Subquery(Box<Query>),
    /// `x op ANY|SOME|ALL (SELECT ...)`.
    Quantified {
        expr: Box<Expr>,
        op: BinaryOp,
        quantifier: Quantifier,
        query: Box<Query>,
    },
    /// `CASE [operand] WHEN .. THEN .. [ELSE ..] END`.
    Case {
        operand: Option<Box<Expr>>,
        whens: Vec<(Expr, Expr)>,
        else_result: Option<Box<Expr>>,
    },
    /// `CAST(x AS t)` / `TRY_CAST(x AS t)`.
    Cast {
        expr: Box<Expr>,
        data_type: DataType,
        is_try: bool,
    },
    /// `CONVERT(t, x [, style])` / `TRY_CONVERT(...)`.
    Convert {
        data_type: DataType,
        expr: Box<Expr>,
        style: Option<Box<Expr>>,
        is_try: bool,
    },
    Function(Box<FunctionCall>),
    /// `NEXT VALUE FOR seq`.
    NextValueFor(ObjectName),
    /// `x COLLATE name`.
    Collate {
        expr: Box<Expr>,
        collation: Ident,
    },
    /// `x AT TIME ZONE zone`.
    AtTimeZone {
        expr: Box<Expr>,
        zone: Box<Expr>,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub enum Literal {
    Null,
    /// Digits as written (no sign): the binder picks int, bigint or numeric.
    Integer(String),
    /// `1.50`, `.5`, `1.` as written.
    Decimal(String),
    /// `1.5E10` as written.
    Float(String),
    /// `$1.50` as written, without the `$`.
    Money(String),
    String {
        value: String,
        national: bool,
    },
    Binary(Vec<u8>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    Plus,
    Minus,
    BitNot,
    Not,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryOp {
    Multiply,
    Divide,
    Modulo,
    Add,
    Subtract,
    BitAnd,
    BitOr,
    BitXor,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    NotLt,
    NotGt,
    And,
    Or,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quantifier {
    Any,
    Some,
    All,
}

#[derive(Clone, Debug, PartialEq)]
pub struct FunctionCall {
    pub name: ObjectName,
    pub args: Vec<Expr>,
    /// `COUNT(*)`: the argument list is a lone `*`.
    pub star: bool,
    /// `COUNT(DISTINCT x)`.
    pub distinct: bool,
    /// `STRING_AGG(...) WITHIN GROUP (ORDER BY ...)`.
    pub within_group: Vec<OrderItem>,
    pub over: Option<Window>,
    pub span: Span,
}

/// `OVER ([PARTITION BY ...] [ORDER BY ...] [ROWS|RANGE ...])`.
#[derive(Clone, Debug, PartialEq)]
pub struct Window {
    pub partition_by: Vec<Expr>,
    pub order_by: Vec<OrderItem>,
    pub frame: Option<WindowFrame>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct WindowFrame {
    pub units: FrameUnits,
    pub start: FrameBound,
    /// `BETWEEN start AND end`; `None` for the one-bound form.
    pub end: Option<FrameBound>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameUnits {
    Rows,
    Range,
}

#[derive(Clone, Debug, PartialEq)]
pub enum FrameBound {
    UnboundedPreceding,
    Preceding(Box<Expr>),
    CurrentRow,
    Following(Box<Expr>),
    UnboundedFollowing,
}

/// A type name with its arguments: `int`, `decimal(18, 2)`,
/// `varchar(max)`, `Sales.OrderLines` (a user type).
#[derive(Clone, Debug, PartialEq)]
pub struct DataType {
    pub name: ObjectName,
    pub args: Vec<TypeArg>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TypeArg {
    Number(u64),
    Max,
}

// ---------------------------------------------------------------------------
// Queries

#[derive(Clone, Debug, PartialEq)]
pub struct Query {
    pub with: Vec<Cte>,
    pub body: QueryBody,
    pub order_by: Vec<OrderItem>,
    pub offset: Option<OffsetFetch>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Cte {
    pub name: Ident,
    pub columns: Vec<Ident>,
    pub query: Box<Query>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum QueryBody {
    Select(Box<Select>),
    /// `left UNION [ALL] | EXCEPT | INTERSECT right`.
    SetOp {
        op: SetOperator,
        all: bool,
        left: Box<QueryBody>,
        right: Box<QueryBody>,
    },
    /// A parenthesised query (it may have its own ORDER BY with TOP).
    Nested(Box<Query>),
}

impl QueryBody {
    /// The first SELECT: the leftmost operand of set operators, inside
    /// any parentheses.
    pub fn first_select(&self) -> &Select {
        match self {
            QueryBody::Select(select) => select,
            QueryBody::Nested(query) => query.body.first_select(),
            QueryBody::SetOp { left, .. } => left.first_select(),
        }
    }

    /// The same, to change.
    pub fn first_select_mut(&mut self) -> &mut Select {
        match self {
            QueryBody::Select(select) => select,
            QueryBody::Nested(query) => query.body.first_select_mut(),
            QueryBody::SetOp { left, .. } => left.first_select_mut(),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetOperator {
    Union,
    Except,
    Intersect,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Select {
    pub distinct: bool,
    pub top: Option<Top>,
    pub items: Vec<SelectItem>,
    pub into: Option<ObjectName>,
    pub from: Vec<TableRef>,
    pub where_clause: Option<Expr>,
    pub group_by: Vec<GroupByItem>,
    pub having: Option<Expr>,
    pub span: Span,
}

/// One item of a GROUP BY clause. Each makes a list of grouping sets;
/// the clause groups by the cross product of its items' lists.
#[derive(Clone, Debug, PartialEq)]
pub enum GroupByItem {
    Expr(Expr),
    /// `(a, b)`: its parts together, as one element of ROLLUP, CUBE or
    /// GROUPING SETS; `()` is the grand total.
    Composite(Vec<GroupByItem>),
    /// `ROLLUP (a, b)`: the sets (a, b), (a) and ().
    Rollup(Vec<GroupByItem>),
    /// `CUBE (a, b)`: every subset, (a, b), (a), (b) and ().
    Cube(Vec<GroupByItem>),
    /// `GROUPING SETS ((a, b), a, ())`: the sets listed.
    GroupingSets(Vec<GroupByItem>),
}

/// `TOP (n) [PERCENT] [WITH TIES]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Top {
    pub count: Expr,
    pub percent: bool,
    pub with_ties: bool,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum SelectItem {
    /// `*` or `t.*`.
    Wildcard {
        qualifier: Option<ObjectName>,
        span: Span,
    },
    /// `expr [AS alias]` (also written `alias = expr`).
    Expr {
        expr: Expr,
        alias: Option<Ident>,
        span: Span,
    },
    /// `@v = expr` or `@v += expr`: an assignment select.
    Assign {
        variable: String,
        op: AssignOp,
        value: Expr,
        span: Span,
    },
}

/// `=` or a compound assignment `+=`, `-=`, ...
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AssignOp {
    Assign,
    Add,
    Subtract,
    Multiply,
    Divide,
    Modulo,
    BitAnd,
    BitOr,
    BitXor,
}

#[derive(Clone, Debug, PartialEq)]
pub struct OrderItem {
    pub expr: Expr,
    /// `DESC`; `ASC` and nothing are both ascending.
    pub descending: bool,
    pub span: Span,
}

/// `OFFSET n ROWS [FETCH NEXT m ROWS ONLY]`.
#[derive(Clone, Debug, PartialEq)]
pub struct OffsetFetch {
    pub offset: Expr,
    pub fetch: Option<Expr>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TableRef {
    pub kind: TableRefKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum TableRefKind {
    /// A table or view, `#temp` included.
    Table {
        name: ObjectName,
        alias: Option<Ident>,
        hints: Vec<TableHint>,
    },
    /// A table variable `@t`.
    Variable { name: String, alias: Option<Ident> },
    /// `(SELECT ...) AS alias [(columns)]`.
    Derived {
        query: Box<Query>,
        alias: Ident,
        columns: Vec<Ident>,
    },
    /// `(VALUES (...), (...)) AS alias (columns)`.
    Values {
        rows: Vec<Vec<Expr>>,
        alias: Ident,
        columns: Vec<Ident>,
    },
    /// A table-valued function `dbo.f(1) [AS alias]`.
    Function {
        call: Box<FunctionCall>,
        alias: Option<Ident>,
        columns: Vec<Ident>,
    },
    Join {
        left: Box<TableRef>,
        right: Box<TableRef>,
        kind: JoinKind,
        hint: Option<JoinHint>,
        /// `ON` condition; `None` for CROSS JOIN and APPLY.
        on: Option<Expr>,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JoinKind {
    Inner,
    Left,
    Right,
    Full,
    Cross,
    CrossApply,
    OuterApply,
}

/// `INNER LOOP JOIN` and friends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JoinHint {
    Loop,
    Hash,
    Merge,
    Remote,
}

/// A table hint: `NOLOCK`, `SNAPSHOT`, `INDEX(ix)` (also written
/// `INDEX = ix`), `TABLOCK`... Arguments are index names or numbers.
#[derive(Clone, Debug, PartialEq)]
pub struct TableHint {
    pub name: Ident,
    pub args: Vec<Expr>,
    pub span: Span,
}

/// A query hint in `OPTION (...)`: words, with a value for `MAXDOP 1`
/// style hints, e.g. `["HASH", "JOIN"]` or `["MAXDOP"]` + `1`, or a
/// parenthesised list: `USE HINT ('A', 'B')`, `OPTIMIZE FOR (@p = 1)`.
#[derive(Clone, Debug, PartialEq)]
pub struct QueryHint {
    pub words: Vec<Ident>,
    pub value: Option<Expr>,
    pub args: Vec<Expr>,
    pub span: Span,
}

// ---------------------------------------------------------------------------
// Statements

#[derive(Clone, Debug, PartialEq)]
pub struct Statement {
    pub kind: StatementKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum StatementKind {
    Select(SelectStatement),
    Insert(Box<Insert>),
    Update(Box<Update>),
    Delete(Box<Delete>),
    Truncate(ObjectName),

    CreateTable(Box<CreateTable>),
    AlterTable(Box<AlterTable>),
    CreateIndex(Box<CreateIndex>),
    /// `CREATE TYPE name AS TABLE (...) [WITH (...)]`.
    CreateTableType(Box<CreateTableType>),
    /// `CREATE TYPE name FROM base [NOT NULL]`.
    CreateAliasType {
        name: ObjectName,
        base: DataType,
        nullable: Option<bool>,
    },
    CreateSequence(Box<CreateSequence>),
    AlterSequence(Box<AlterSequence>),
    CreateView(Box<CreateView>),
    CreateProcedure(Box<CreateProcedure>),
    CreateFunction(Box<CreateFunction>),
    CreateSchema {
        name: Ident,
        authorization: Option<Ident>,
    },
    CreateStatistics {
        name: Ident,
        table: ObjectName,
        columns: Vec<Ident>,
        options: Vec<OptionItem>,
    },
    UpdateStatistics {
        table: ObjectName,
        target: Option<Ident>,
        options: Vec<OptionItem>,
    },
    CreateDatabase(Box<CreateDatabase>),
    AlterDatabase(Box<AlterDatabase>),
    /// `CREATE LOGIN name WITH ...` / `ALTER LOGIN name WITH ...`, and the
    /// same for USER and ROLE (`principal` says which).
    CreatePrincipal(Box<CreatePrincipal>),
    /// `ALTER [SERVER] ROLE role ADD | DROP MEMBER member`.
    AlterRole {
        role: Ident,
        add: bool,
        member: Ident,
        /// A server role (`ALTER SERVER ROLE`).
        server: bool,
    },
    /// GRANT / DENY / REVOKE.
    Permission(Box<Permission>),
    /// `DROP kind [IF EXISTS] a, b [ON table]`.
    Drop {
        object_type: DropType,
        if_exists: bool,
        names: Vec<ObjectName>,
        /// `DROP INDEX ix ON t`.
        on_table: Option<ObjectName>,
    },

    /// `DECLARE @a int = 1, @b varchar(10)`.
    Declare(Vec<Declaration>),
    /// `DECLARE @t TABLE (...)`.
    DeclareTable {
        variable: String,
        elements: Vec<TableElement>,
    },
    /// `SET @v = expr`, `SET @v += expr`.
    SetVariable {
        variable: String,
        op: AssignOp,
        value: Expr,
    },
    /// `SET NOCOUNT ON`, `SET ANSI_NULLS, QUOTED_IDENTIFIER ON`,
    /// `SET TEXTSIZE 1000`, `SET DATEFORMAT mdy`, `SET STATISTICS IO ON`.
    SetOption {
        options: Vec<Ident>,
        value: OptionValue,
    },
    SetTransactionIsolation(IsolationLevel),
    /// `SET IDENTITY_INSERT table ON | OFF`.
    SetIdentityInsert {
        table: ObjectName,
        on: bool,
    },
    If {
        condition: Expr,
        then_branch: Box<Statement>,
        else_branch: Option<Box<Statement>>,
    },
    While {
        condition: Expr,
        body: Box<Statement>,
    },
    /// `BEGIN ... END`.
    Block(Vec<Statement>),
    /// `BEGIN ATOMIC WITH (...) ... END` of a natively compiled module.
    AtomicBlock {
        options: Vec<OptionItem>,
        body: Vec<Statement>,
    },
    TryCatch {
        try_block: Vec<Statement>,
        catch_block: Vec<Statement>,
    },
    Break,
    Continue,
    Return(Option<Expr>),
    Goto(Ident),
    Label(Ident),
    /// `THROW` (rethrow) or `THROW number, message, state`.
    Throw(Option<Box<[Expr; 3]>>),
    /// `RAISERROR (msg, severity, state [, args]) [WITH options]`.
    Raiserror {
        args: Vec<Expr>,
        options: Vec<Ident>,
    },
    Print(Expr),
    /// `WAITFOR DELAY expr` / `WAITFOR TIME expr`.
    WaitFor {
        delay: bool,
        time: Expr,
    },
    Exec(Box<Exec>),
    /// `EXEC ('text' + @v)`: dynamic SQL.
    ExecString(Vec<Expr>),

    BeginTransaction {
        name: Option<Expr>,
    },
    Commit {
        name: Option<Expr>,
        options: Vec<OptionItem>,
    },
    Rollback {
        name: Option<Expr>,
    },
    SaveTransaction {
        name: Expr,
    },
    Use(Ident),
    /// `CHECKPOINT [duration]`.
    Checkpoint(Option<Expr>),
    /// `DBCC command [(args)] [WITH options]`, for the commands hekla
    /// runs (the parser refuses the others).
    Dbcc {
        command: DbccCommand,
        args: Vec<Expr>,
        options: Vec<Ident>,
    },
}

/// The DBCC commands hekla runs: those that empty caches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DbccCommand {
    DropCleanBuffers,
    FreeProcCache,
    FreeSystemCache,
}

impl DbccCommand {
    pub fn name(self) -> &'static str {
        match self {
            DbccCommand::DropCleanBuffers => "DROPCLEANBUFFERS",
            DbccCommand::FreeProcCache => "FREEPROCCACHE",
            DbccCommand::FreeSystemCache => "FREESYSTEMCACHE",
        }
    }
}

impl StatementKind {
    /// The statement's leading keywords, for messages ("The statement
    /// 'CREATE VIEW' is not supported ...").
    pub fn keywords(&self) -> &'static str {
        use StatementKind::*;
        match self {
            Select(_) => "SELECT",
            Insert(_) => "INSERT",
            Update(_) => "UPDATE",
            Delete(_) => "DELETE",
            Truncate(_) => "TRUNCATE TABLE",
            CreateTable(_) => "CREATE TABLE",
            AlterTable(_) => "ALTER TABLE",
            CreateIndex(_) => "CREATE INDEX",
            CreateTableType(_) | CreateAliasType { .. } => "CREATE TYPE",
            CreateSequence(_) => "CREATE SEQUENCE",
            AlterSequence(_) => "ALTER SEQUENCE",
            CreateView(_) => "CREATE VIEW",
            CreateProcedure(_) => "CREATE PROCEDURE",
            CreateFunction(_) => "CREATE FUNCTION",
            CreateSchema { .. } => "CREATE SCHEMA",
            CreateStatistics { .. } => "CREATE STATISTICS",
            UpdateStatistics { .. } => "UPDATE STATISTICS",
            CreateDatabase(_) => "CREATE DATABASE",
            AlterDatabase(_) => "ALTER DATABASE",
            CreatePrincipal(principal) => match (principal.alter, principal.principal) {
                (false, PrincipalKind::Login) => "CREATE LOGIN",
                (false, PrincipalKind::User) => "CREATE USER",
                (false, PrincipalKind::Role) => "CREATE ROLE",
                (true, PrincipalKind::Login) => "ALTER LOGIN",
                (true, PrincipalKind::User) => "ALTER USER",
                (true, PrincipalKind::Role) => "ALTER ROLE",
            },
            AlterRole { server: false, .. } => "ALTER ROLE",
            AlterRole { server: true, .. } => "ALTER SERVER ROLE",
            Permission(permission) => match permission.action {
                PermissionAction::Grant => "GRANT",
                PermissionAction::Deny => "DENY",
                PermissionAction::Revoke => "REVOKE",
            },
            Drop { .. } => "DROP",
            Declare(_) | DeclareTable { .. } => "DECLARE",
            SetVariable { .. } | SetOption { .. } => "SET",
            SetTransactionIsolation(_) => "SET TRANSACTION ISOLATION LEVEL",
            SetIdentityInsert { .. } => "SET IDENTITY_INSERT",
            If { .. } => "IF",
            While { .. } => "WHILE",
            Block(_) => "BEGIN",
            AtomicBlock { .. } => "BEGIN ATOMIC",
            TryCatch { .. } => "BEGIN TRY",
            Break => "BREAK",
            Continue => "CONTINUE",
            Return(_) => "RETURN",
            Goto(_) => "GOTO",
            Label(_) => "label",
            Throw(_) => "THROW",
            Raiserror { .. } => "RAISERROR",
            Print(_) => "PRINT",
            WaitFor { .. } => "WAITFOR",
            Exec(_) | ExecString(_) => "EXECUTE",
            BeginTransaction { .. } => "BEGIN TRANSACTION",
            Commit { .. } => "COMMIT TRANSACTION",
            Rollback { .. } => "ROLLBACK TRANSACTION",
            SaveTransaction { .. } => "SAVE TRANSACTION",
            Use(_) => "USE",
            Checkpoint(_) => "CHECKPOINT",
            Dbcc { .. } => "DBCC",
        }
    }
}

/// A query statement: the query plus its `OPTION (...)` hints.
#[derive(Clone, Debug, PartialEq)]
pub struct SelectStatement {
    pub query: Box<Query>,
    pub hints: Vec<QueryHint>,
}

impl SelectStatement {
    /// The table the statement selects INTO, if it does: the INTO of its
    /// first SELECT (`SELECT ... INTO t FROM a UNION SELECT ... FROM b`
    /// fills `t` with the whole union).
    pub fn into_target(&self) -> Option<&ObjectName> {
        self.query.body.first_select().into.as_ref()
    }

    /// `SELECT @v = ...`: its items assign variables.
    pub fn assigns_variables(&self) -> bool {
        match &self.query.body {
            QueryBody::Select(body) => body
                .items
                .iter()
                .any(|item| matches!(item, SelectItem::Assign { .. })),
            _ => false,
        }
    }
}

/// The target of INSERT/UPDATE/DELETE: a table (with hints) or `@t`.
#[derive(Clone, Debug, PartialEq)]
pub enum DmlTarget {
    Table {
        name: ObjectName,
        hints: Vec<TableHint>,
    },
    Variable(String),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Insert {
    pub with: Vec<Cte>,
    pub top: Option<Top>,
    pub target: DmlTarget,
    pub columns: Vec<Ident>,
    /// At most `OUTPUT ... INTO ...` followed by `OUTPUT ...`.
    pub output: Vec<OutputClause>,
    pub source: InsertSource,
    pub hints: Vec<QueryHint>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum InsertSource {
    Values(Vec<Vec<Expr>>),
    Query(Box<Query>),
    Exec(Box<Exec>),
    /// `EXEC ('dynamic sql')`.
    ExecString(Vec<Expr>),
    DefaultValues,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Update {
    pub with: Vec<Cte>,
    pub top: Option<Top>,
    pub target: DmlTarget,
    pub assignments: Vec<Assignment>,
    /// At most `OUTPUT ... INTO ...` followed by `OUTPUT ...`.
    pub output: Vec<OutputClause>,
    pub from: Vec<TableRef>,
    pub where_clause: Option<Expr>,
    pub hints: Vec<QueryHint>,
}

/// One `SET` item of an UPDATE.
#[derive(Clone, Debug, PartialEq)]
pub enum Assignment {
    /// `col = expr`, `t.col += expr`.
    Column {
        column: Vec<Ident>,
        op: AssignOp,
        value: Expr,
        span: Span,
    },
    /// `@v = expr` or `@v = col = expr`.
    Variable {
        variable: String,
        column: Option<Vec<Ident>>,
        op: AssignOp,
        value: Expr,
        span: Span,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Delete {
    pub with: Vec<Cte>,
    pub top: Option<Top>,
    pub target: DmlTarget,
    /// At most `OUTPUT ... INTO ...` followed by `OUTPUT ...`.
    pub output: Vec<OutputClause>,
    pub from: Vec<TableRef>,
    pub where_clause: Option<Expr>,
    pub hints: Vec<QueryHint>,
}

/// `OUTPUT items [INTO target [(columns)]]`.
#[derive(Clone, Debug, PartialEq)]
pub struct OutputClause {
    pub items: Vec<SelectItem>,
    pub into: Option<(DmlTarget, Vec<Ident>)>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct CreateTable {
    pub name: ObjectName,
    pub elements: Vec<TableElement>,
    pub options: Vec<OptionItem>,
    /// `ON [PRIMARY]` or another filegroup.
    pub filegroup: Option<Ident>,
}

/// A column, table constraint or inline index in CREATE TABLE, CREATE
/// TYPE AS TABLE, DECLARE @t TABLE and ALTER TABLE ADD.
#[derive(Clone, Debug, PartialEq)]
pub enum TableElement {
    Column(Box<ColumnDef>),
    Constraint(TableConstraint),
    Index(IndexDef),
}

#[derive(Clone, Debug, PartialEq)]
pub struct ColumnDef {
    pub name: Ident,
    /// `None` for a computed column.
    pub data_type: Option<DataType>,
    /// `AS (expr) [PERSISTED]`.
    pub computed: Option<(Expr, bool)>,
    pub collation: Option<Ident>,
    /// `NULL` (`Some(true)`), `NOT NULL` (`Some(false)`), or unsaid.
    pub nullable: Option<bool>,
    pub identity: Option<(Expr, Expr)>,
    /// `[CONSTRAINT name] DEFAULT expr`.
    pub default: Option<(Option<Ident>, Expr)>,
    /// `DEFAULT expr WITH VALUES`: ALTER TABLE ADD fills existing rows
    /// with the default even when the column is nullable.
    pub with_values: bool,
    pub constraints: Vec<TableConstraint>,
    /// An inline `INDEX name ...` on this column.
    pub index: Option<IndexDef>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TableConstraint {
    pub name: Option<Ident>,
    pub kind: ConstraintKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ConstraintKind {
    /// PRIMARY KEY or UNIQUE. `columns` is empty on a column constraint.
    Key {
        primary: bool,
        layout: IndexLayout,
        columns: Vec<IndexColumn>,
        options: Vec<OptionItem>,
    },
    Check(Expr),
    /// `[FOREIGN KEY (cols)] REFERENCES t (cols) [ON DELETE ...]`.
    ForeignKey {
        columns: Vec<Ident>,
        table: ObjectName,
        referenced: Vec<Ident>,
        on_delete: Option<ReferentialAction>,
        on_update: Option<ReferentialAction>,
    },
    /// `DEFAULT expr FOR column` (ALTER TABLE ADD CONSTRAINT only).
    Default {
        value: Expr,
        column: Ident,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReferentialAction {
    NoAction,
    Cascade,
    SetNull,
    SetDefault,
}

/// How an index is organised: `[CLUSTERED | NONCLUSTERED] [HASH]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct IndexLayout {
    /// `Some(true)` CLUSTERED, `Some(false)` NONCLUSTERED, `None` unsaid.
    pub clustered: Option<bool>,
    pub hash: bool,
    /// `COLUMNSTORE`.
    pub columnstore: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct IndexColumn {
    pub name: Ident,
    pub descending: bool,
    pub span: Span,
}

/// An inline `INDEX name [UNIQUE] layout (columns) [WITH (...)]`, or the
/// body of CREATE INDEX.
#[derive(Clone, Debug, PartialEq)]
pub struct IndexDef {
    pub name: Ident,
    pub unique: bool,
    pub layout: IndexLayout,
    /// Empty on a column-level inline index (it covers that column).
    pub columns: Vec<IndexColumn>,
    pub include: Vec<Ident>,
    pub filter: Option<Expr>,
    pub options: Vec<OptionItem>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct AlterTable {
    pub table: ObjectName,
    pub action: AlterTableAction,
}

#[derive(Clone, Debug, PartialEq)]
pub enum AlterTableAction {
    /// `ADD` columns, constraints or indexes.
    Add(Vec<TableElement>),
    /// `DROP [COLUMN|CONSTRAINT|INDEX] [IF EXISTS] a, b`.
    Drop {
        what: AlterDropKind,
        if_exists: bool,
        names: Vec<Ident>,
    },
    /// `ALTER COLUMN c type [NULL|NOT NULL]`.
    AlterColumn {
        name: Ident,
        data_type: DataType,
        collation: Option<Ident>,
        nullable: Option<bool>,
    },
    /// `ALTER INDEX ix REBUILD [WITH (...)]`.
    RebuildIndex {
        index: Ident,
        options: Vec<OptionItem>,
    },
    /// `SET (option = value, ...)`.
    Set(Vec<OptionItem>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AlterDropKind {
    Column,
    Constraint,
    Index,
}

#[derive(Clone, Debug, PartialEq)]
pub struct CreateIndex {
    pub table: ObjectName,
    pub index: IndexDef,
    pub filegroup: Option<Ident>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct CreateTableType {
    pub name: ObjectName,
    pub elements: Vec<TableElement>,
    pub options: Vec<OptionItem>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct CreateSequence {
    pub name: ObjectName,
    pub data_type: Option<DataType>,
    pub options: Vec<SequenceOption>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct AlterSequence {
    pub name: ObjectName,
    pub options: Vec<SequenceOption>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum SequenceOption {
    StartWith(Expr),
    /// `RESTART [WITH n]`.
    Restart(Option<Expr>),
    IncrementBy(Expr),
    /// `MINVALUE n` / `NO MINVALUE`.
    MinValue(Option<Expr>),
    MaxValue(Option<Expr>),
    Cycle(bool),
    /// `CACHE [n]` / `NO CACHE` (`None` for `NO CACHE`).
    Cache(Option<Option<Expr>>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct CreateView {
    pub or_alter: bool,
    pub alter: bool,
    pub name: ObjectName,
    pub columns: Vec<Ident>,
    pub options: Vec<Ident>,
    pub query: Box<Query>,
    /// `WITH CHECK OPTION`.
    pub check_option: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct CreateProcedure {
    /// `CREATE OR ALTER`.
    pub or_alter: bool,
    /// `ALTER PROCEDURE`.
    pub alter: bool,
    pub name: ObjectName,
    pub params: Vec<Parameter>,
    /// `WITH NATIVE_COMPILATION, SCHEMABINDING, EXECUTE AS OWNER`.
    pub options: Vec<ModuleOption>,
    pub body: Vec<Statement>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Parameter {
    /// Without the `@`.
    pub name: String,
    pub data_type: DataType,
    pub nullable: Option<bool>,
    pub default: Option<Expr>,
    pub output: bool,
    pub readonly: bool,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ModuleOption {
    NativeCompilation,
    SchemaBinding,
    Recompile,
    Encryption,
    ReturnsNullOnNullInput,
    CalledOnNullInput,
    /// `EXECUTE AS CALLER | SELF | OWNER | 'user'`.
    ExecuteAs(Expr),
}

#[derive(Clone, Debug, PartialEq)]
pub struct CreateFunction {
    pub or_alter: bool,
    pub alter: bool,
    pub name: ObjectName,
    pub params: Vec<Parameter>,
    pub returns: FunctionReturns,
    pub options: Vec<ModuleOption>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum FunctionReturns {
    /// `RETURNS type ... AS BEGIN ... END`.
    Scalar {
        data_type: DataType,
        body: Vec<Statement>,
    },
    /// `RETURNS TABLE AS RETURN (query)`.
    InlineTable(Box<Query>),
    /// `RETURNS @t TABLE (...) AS BEGIN ... END`.
    MultiStatementTable {
        variable: String,
        elements: Vec<TableElement>,
        body: Vec<Statement>,
    },
}

/// `DECLARE @name [AS] type [= value]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Declaration {
    pub name: String,
    pub data_type: DataType,
    /// `NOT NULL` (natively compiled modules).
    pub not_null: bool,
    pub value: Option<Expr>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IsolationLevel {
    ReadUncommitted,
    ReadCommitted,
    RepeatableRead,
    Snapshot,
    Serializable,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Exec {
    /// `EXEC @rc = proc`: the variable for the return status.
    pub return_status: Option<String>,
    /// The procedure, or `@var` holding its name.
    pub procedure: ExecTarget,
    pub args: Vec<ExecArg>,
    /// `WITH RECOMPILE` and similar.
    pub options: Vec<Ident>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExecTarget {
    Name(ObjectName),
    Variable(String),
}

/// `[@param =] value [OUTPUT]`.
#[derive(Clone, Debug, PartialEq)]
pub struct ExecArg {
    pub name: Option<String>,
    pub value: Expr,
    pub output: bool,
    pub span: Span,
}

/// `NAME = value` in a `WITH (...)` list; the name may be several words
/// (`TRANSACTION ISOLATION LEVEL = SNAPSHOT`) and the value may be missing
/// (`WITH (FULLSCAN)`, `WITH (NOLOCK)`).
#[derive(Clone, Debug, PartialEq)]
pub struct OptionItem {
    pub name: Vec<Ident>,
    pub value: Option<OptionValue>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum OptionValue {
    /// A bare word or words: `ON`, `SCHEMA_ONLY`, `REPEATABLE READ`.
    Words(Vec<Ident>),
    /// A literal, variable or other expression: `1024`, `N'us_english'`.
    Expr(Expr),
    /// A parenthesised list: `(name = 'x', filename = 'y')`.
    List(Vec<OptionItem>),
}

/// `CREATE DATABASE name [CONTAINMENT = ..] [ON filegroups] [LOG ON files]
/// [COLLATE c]`.
#[derive(Clone, Debug, PartialEq)]
pub struct CreateDatabase {
    pub name: Ident,
    pub containment: Option<Ident>,
    pub filegroups: Vec<FilegroupSpec>,
    /// `LOG ON (file), ...`: each file is its option list.
    pub log_files: Vec<Vec<OptionItem>>,
    pub collation: Option<Ident>,
}

/// `[PRIMARY] (file), ...` or `FILEGROUP name [CONTAINS
/// MEMORY_OPTIMIZED_DATA] (file), ...`.
#[derive(Clone, Debug, PartialEq)]
pub struct FilegroupSpec {
    /// `None` for the primary filegroup.
    pub name: Option<Ident>,
    pub memory_optimized: bool,
    pub files: Vec<Vec<OptionItem>>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct AlterDatabase {
    /// `None` for `CURRENT`.
    pub database: Option<Ident>,
    pub action: AlterDatabaseAction,
}

#[derive(Clone, Debug, PartialEq)]
pub enum AlterDatabaseAction {
    /// `SET option = value, ... [WITH ROLLBACK IMMEDIATE | NO_WAIT]` (also
    /// `SET RECOVERY SIMPLE`).
    Set {
        options: Vec<OptionItem>,
        termination: Vec<Ident>,
    },
    /// `ADD FILEGROUP fg [CONTAINS MEMORY_OPTIMIZED_DATA]`.
    AddFilegroup { name: Ident, memory_optimized: bool },
    /// `ADD FILE (...) [TO FILEGROUP fg]`.
    AddFile {
        files: Vec<Vec<OptionItem>>,
        filegroup: Option<Ident>,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct CreatePrincipal {
    pub principal: PrincipalKind,
    /// `ALTER` rather than `CREATE`.
    pub alter: bool,
    pub name: Ident,
    /// `FOR LOGIN l` / `FROM LOGIN l` (users).
    pub login: Option<Ident>,
    /// `WITHOUT LOGIN` (users).
    pub without_login: bool,
    /// `WITH PASSWORD = '...', ...`.
    pub options: Vec<OptionItem>,
    /// `ALTER LOGIN name ENABLE` (true) or `DISABLE` (false).
    pub enable: Option<bool>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PrincipalKind {
    Login,
    User,
    Role,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Permission {
    pub action: PermissionAction,
    /// `SELECT`, `EXECUTE`, `VIEW DEFINITION` (words), optionally with a
    /// column list.
    pub permissions: Vec<(Vec<Ident>, Vec<Ident>)>,
    /// `ON [class::]object`; `None` for database-wide permissions.
    pub on: Option<(Option<Ident>, ObjectName)>,
    pub principals: Vec<Ident>,
    /// `WITH GRANT OPTION` (GRANT) or `GRANT OPTION FOR` (REVOKE).
    pub grant_option: bool,
    pub cascade: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PermissionAction {
    Grant,
    Deny,
    Revoke,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DropType {
    Table,
    View,
    Procedure,
    Function,
    Index,
    Schema,
    Type,
    Sequence,
    Statistics,
    Login,
    User,
    Role,
    Database,
}

// ---------------------------------------------------------------------------
// Operator precedence, shared by the parser and the printer so that printed
// text parses back to the same tree.

/// Binding strength of each expression form, loosest first.
pub mod precedence {
    pub const OR: u8 = 1;
    pub const AND: u8 = 2;
    pub const NOT: u8 = 3;
    /// Comparisons and the predicates BETWEEN, IN, LIKE, IS NULL, ANY/ALL.
    pub const COMPARISON: u8 = 4;
    /// `+ - & | ^`.
    pub const ADDITIVE: u8 = 5;
    /// `* / %`.
    pub const MULTIPLICATIVE: u8 = 6;
    /// Unary `+ - ~`.
    pub const UNARY: u8 = 7;
    /// `x COLLATE c`.
    pub const COLLATE: u8 = 8;
    /// Literals, names, calls, CASE, CAST, parenthesised subqueries.
    pub const ATOM: u8 = 9;
}

impl BinaryOp {
    pub fn precedence(self) -> u8 {
        use BinaryOp::*;
        match self {
            Or => precedence::OR,
            And => precedence::AND,
            Eq | Ne | Lt | Le | Gt | Ge | NotLt | NotGt => precedence::COMPARISON,
            Add | Subtract | BitAnd | BitOr | BitXor => precedence::ADDITIVE,
            Multiply | Divide | Modulo => precedence::MULTIPLICATIVE,
        }
    }
}

impl Expr {
    /// How tightly this expression binds: a child printed inside a parent
    /// of higher precedence needs parentheses.
    pub fn precedence(&self) -> u8 {
        match &self.kind {
            ExprKind::Binary { op, .. } => op.precedence(),
            ExprKind::Unary {
                op: UnaryOp::Not, ..
            } => precedence::NOT,
            ExprKind::Unary { .. } => precedence::UNARY,
            ExprKind::Between { .. }
            | ExprKind::InList { .. }
            | ExprKind::InSubquery { .. }
            | ExprKind::Like { .. }
            | ExprKind::IsNull { .. }
            | ExprKind::Quantified { .. } => precedence::COMPARISON,
            ExprKind::Collate { .. } | ExprKind::AtTimeZone { .. } => precedence::COLLATE,
            _ => precedence::ATOM,
        }
    }
}
