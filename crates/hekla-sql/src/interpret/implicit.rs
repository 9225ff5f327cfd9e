//! `SET IMPLICIT_TRANSACTIONS ON`: outside a transaction, the statements
//! SQL Server lists (ALTER TABLE, BEGIN TRANSACTION, CREATE, DELETE, DROP,
//! GRANT, INSERT, REVOKE, SELECT from a table, TRUNCATE TABLE, UPDATE)
//! first run an unseen BEGIN TRANSACTION. The transaction stays open,
//! across batches, until COMMIT or ROLLBACK; an explicit BEGIN inside it
//! nests (`@@TRANCOUNT` 2). Statements SQL Server does not list begin
//! nothing: a SELECT that reads no table (`SELECT GETDATE()`), SET, IF,
//! PRINT, EXEC (a procedure's own statements may), SAVE TRANSACTION (628),
//! COMMIT. hekla has no MERGE or cursors (OPEN, FETCH).

use hekla_parser::ast::{self, ExprKind, QueryBody, SelectItem, StatementKind, TableRefKind};
use hekla_plan::bind::aggregate::children;
use hekla_types::SqlResult;

impl super::Interpreter<'_> {
    /// The unseen BEGIN TRANSACTION before a statement that begins one in
    /// implicit transaction mode. The sink hears of it with the
    /// statement's DONE, as of any BEGIN.
    pub(super) fn begin_implicit_transaction(&mut self, kind: &StatementKind) -> SqlResult<()> {
        let session = &mut *self.session;
        if session.options.implicit_transactions
            && !session.transaction.is_open()
            && begins_transaction(kind)
        {
            session.transaction.begin(None)?;
        }
        Ok(())
    }
}

/// True if `kind` begins a transaction in implicit transaction mode when
/// none is open.
fn begins_transaction(kind: &StatementKind) -> bool {
    use StatementKind::*;
    match kind {
        // SELECT INTO creates a table.
        Select(select) => select.into_target().is_some() || query_reads_table(&select.query, &[]),
        Insert(_) | Update(_) | Delete(_) | Truncate(_) => true,
        CreateTable(_)
        | AlterTable(_)
        | CreateIndex(_)
        | CreateTableType(_)
        | CreateAliasType { .. }
        | CreateSequence(_)
        | CreateView(_)
        | CreateProcedure(_)
        | CreateFunction(_)
        | CreateSchema { .. }
        | CreateStatistics { .. }
        | CreatePrincipal(_) => true,
        // A database cannot be created, altered or dropped inside a
        // transaction (226, 574), so these never begin one.
        Drop { object_type, .. } => *object_type != ast::DropType::Database,
        Permission(permission) => permission.action != ast::PermissionAction::Deny,
        BeginTransaction { .. } => true,
        _ => false,
    }
}

/// Whether a query reads a table, view, table variable or table-valued
/// function anywhere (a subquery included): `SELECT GETDATE()` does not.
/// `ctes` are the common table expressions in scope: their names in FROM
/// read what their queries read.
fn query_reads_table(query: &ast::Query, ctes: &[&str]) -> bool {
    let mut in_scope = ctes.to_vec();
    for cte in &query.with {
        // A CTE sees those before it (and, recursive, itself).
        in_scope.push(&cte.name.value);
        if query_reads_table(&cte.query, &in_scope) {
            return true;
        }
    }
    body_reads_table(&query.body, &in_scope)
}

fn body_reads_table(body: &QueryBody, ctes: &[&str]) -> bool {
    let expr_reads = |expr: &ast::Expr| expr_reads_table(expr, ctes);
    match body {
        QueryBody::Select(select) => {
            select
                .from
                .iter()
                .any(|source| source_reads_table(source, ctes))
                || select.items.iter().any(|item| match item {
                    SelectItem::Wildcard { .. } => false,
                    SelectItem::Expr { expr, .. } => expr_reads(expr),
                    SelectItem::Assign { value, .. } => expr_reads(value),
                })
                || select.where_clause.iter().any(expr_reads)
                || select.having.iter().any(expr_reads)
        }
        QueryBody::SetOp { left, right, .. } => {
            body_reads_table(left, ctes) || body_reads_table(right, ctes)
        }
        QueryBody::Nested(query) => query_reads_table(query, ctes),
    }
}

fn source_reads_table(source: &ast::TableRef, ctes: &[&str]) -> bool {
    match &source.kind {
        TableRefKind::Table { name, .. } => {
            let cte = name.schema().is_none()
                && ctes
                    .iter()
                    .any(|cte| cte.eq_ignore_ascii_case(&name.name().value));
            !cte
        }
        TableRefKind::Variable { .. } | TableRefKind::Function { .. } => true,
        TableRefKind::Derived { query, .. } => query_reads_table(query, ctes),
        TableRefKind::Values { rows, .. } => rows
            .iter()
            .flatten()
            .any(|expr| expr_reads_table(expr, ctes)),
        TableRefKind::Join {
            left, right, on, ..
        } => {
            source_reads_table(left, ctes)
                || source_reads_table(right, ctes)
                || on.iter().any(|expr| expr_reads_table(expr, ctes))
        }
    }
}

/// Whether an expression holds a subquery that reads a table.
fn expr_reads_table(expr: &ast::Expr, ctes: &[&str]) -> bool {
    let own_query = match &expr.kind {
        ExprKind::Exists(query) | ExprKind::Subquery(query) => Some(query),
        ExprKind::InSubquery { query, .. } | ExprKind::Quantified { query, .. } => Some(query),
        _ => None,
    };
    own_query.is_some_and(|query| query_reads_table(query, ctes))
        || children(expr)
            .into_iter()
            .any(|child| expr_reads_table(child, ctes))
}
