//! DECLARE, SET @v and assignment SELECT (`SELECT @v = expr [FROM ...]`).
//! Values convert to the variable's type as an assignment does; strings
//! too long for it are cut, as SQL Server cuts them for variables.

use super::access::for_each_row;
use super::eval::Inputs;
use super::{not_yet, resolve_table, table_scope};
use crate::ast::{self, AssignOp, SelectItem};
use crate::bind::expr::{implicit, Binder, Scalar, ScalarKind, Scope};
use crate::bind::types::{self, TypeContext};
use crate::bind::variables::Variables;
use crate::session::SqlDatabase;
use hekla_engine::IsolationLevel;
use hekla_types::{Collation, SqlError, SqlResult};
use std::ops::ControlFlow;

pub fn declare(declarations: &[ast::Declaration], variables: &mut Variables) -> SqlResult<()> {
    for (ordinal, declaration) in declarations.iter().enumerate() {
        let data_type = types::resolve(
            &declaration.data_type,
            Collation::default(),
            TypeContext::Declaration {
                ordinal: ordinal + 1,
            },
        )?;
        if declaration.not_null {
            return Err(not_yet(
                "NOT NULL variables outside natively compiled modules",
            ));
        }
        let value = match &declaration.value {
            Some(expr) => Some(assignment(variables, expr, &data_type)?),
            None => None,
        };
        let slot = variables.declare(&declaration.name, data_type)?;
        if let Some(value) = value {
            let value = value.eval(&Inputs {
                row: &[],
                variables: variables.values(),
            })?;
            variables.assign(slot, value);
        }
    }
    Ok(())
}

pub fn set(
    name: &str,
    op: AssignOp,
    value: &ast::Expr,
    variables: &mut Variables,
) -> SqlResult<()> {
    let slot = variables.resolve(name)?;
    let data_type = variables.data_type(slot);
    let current = Scalar {
        kind: ScalarKind::Variable(slot),
        data_type,
    };
    let scalar = Binder::new(variables).assignment(current, op, value, &data_type)?;
    let value = scalar.eval(&Inputs {
        row: &[],
        variables: variables.values(),
    })?;
    variables.assign(slot, value);
    Ok(())
}

/// `SELECT @a = x, @b = y [FROM t WHERE ...]`: each row read assigns in
/// turn, so the variables hold the last row's values (unchanged when no
/// row qualifies). No row count, as in SQL Server.
pub fn assign_select(
    db: &SqlDatabase,
    statement: &ast::SelectStatement,
    variables: &mut Variables,
) -> SqlResult<Option<u64>> {
    let ast::QueryBody::Select(select) = &statement.query.body else {
        return Err(not_yet("assignment in a set operation"));
    };
    if select
        .items
        .iter()
        .any(|item| !matches!(item, SelectItem::Assign { .. }))
    {
        return Err(SqlError::new(
            141,
            15,
            1,
            "A SELECT statement that assigns a value to a variable must not be combined with data-retrieval operations.",
        ));
    }
    if select.from.len() > 1 || select.top.is_some() || !select.group_by.is_empty() {
        return Err(not_yet("assignment SELECT with joins, TOP or GROUP BY"));
    }
    let mut binder = Binder::new(variables);
    let table = match select.from.first().map(|from| &from.kind) {
        Some(ast::TableRefKind::Table { name, alias, hints }) if hints.is_empty() => {
            let table = resolve_table(db, name)?;
            let shown = alias.as_ref().map_or(&table.name, |a| &a.value);
            binder.scope = Scope {
                columns: table_scope(db, &table, shown),
            };
            Some(table)
        }
        Some(_) => return Err(not_yet("assignment SELECT from joins or derived tables")),
        None => None,
    };
    let mut targets = Vec::new();
    for item in &select.items {
        let SelectItem::Assign {
            variable,
            op,
            value,
            ..
        } = item
        else {
            unreachable!("checked above");
        };
        let slot = variables.resolve(variable)?;
        let data_type = variables.data_type(slot);
        let current = Scalar {
            kind: ScalarKind::Variable(slot),
            data_type,
        };
        targets.push((slot, binder.assignment(current, *op, value, &data_type)?));
    }
    let filter = select
        .where_clause
        .as_ref()
        .map(|c| binder.predicate(c))
        .transpose()?;
    drop(binder);
    let assign_row = |row: &[hekla_types::Value], variables: &mut Variables| -> SqlResult<()> {
        for (slot, scalar) in &targets {
            let value = scalar.eval(&Inputs {
                row,
                variables: variables.values(),
            })?;
            variables.assign(*slot, value);
        }
        Ok(())
    };
    let Some(table) = table else {
        if filter.is_some() {
            return Err(not_yet("WHERE without FROM"));
        }
        assign_row(&[], variables)?;
        return Ok(None);
    };
    let mut tx = db.engine().begin(IsolationLevel::Snapshot)?;
    let mut rows = Vec::new();
    for_each_row(
        &mut tx,
        &table,
        filter.as_ref(),
        variables.values(),
        |_, values| {
            rows.push(values);
            Ok(ControlFlow::Continue(()))
        },
    )?;
    tx.commit()?;
    for row in &rows {
        assign_row(row, variables)?;
    }
    // Assignments return no rows, so SQL Server reports no row count.
    Ok(None)
}

/// A value bound for storing into a variable of `data_type`.
fn assignment(
    variables: &Variables,
    expr: &ast::Expr,
    data_type: &hekla_types::DataType,
) -> SqlResult<Scalar> {
    implicit(Binder::new(variables).scalar(expr)?, data_type)
}
