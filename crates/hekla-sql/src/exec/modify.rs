//! UPDATE and DELETE, first slice: one table, rows found by a full scan
//! with WHERE, changed in one engine transaction so the statement is all or
//! nothing. Write-write conflicts surface as the engine's 41302. CHECK
//! and FOREIGN KEY constraints are checked as rows change and when the
//! statement's writes are done (see `constraints`); an IDENTITY column
//! cannot be set (Msg 8102).

use super::access::for_each_row;
use super::constraints::{Statement, StatementChecks};
use super::context::Context;
use super::eval::Inputs;
use super::{not_yet, resolve_table, table_scope};
use crate::ast::{self, Assignment, DmlTarget};
use crate::bind::expr::{assignment_type, Binder, Predicate, Scalar, ScalarKind, Scope};
use crate::catalog::table::TableMeta;
use crate::plan::Planner;
use hekla_engine::RowId;
use hekla_types::{SqlError, SqlResult, Value};
use std::ops::ControlFlow;
use std::sync::Arc;

pub fn update(
    context: &Context,
    planner: &Planner,
    update: &ast::Update,
) -> SqlResult<Option<u64>> {
    let unsupported = !update.with.is_empty()
        || update.top.is_some()
        || !update.output.is_empty()
        || !update.from.is_empty()
        || !update.hints.is_empty();
    if unsupported {
        return Err(not_yet("UPDATE with WITH, TOP, OUTPUT, FROM or OPTION"));
    }
    let table = target_table(context, &update.target)?;
    let binder = binder_over(planner, &table);
    let filter = update
        .where_clause
        .as_ref()
        .map(|c| binder.predicate(c))
        .transpose()?;
    let mut changes = Vec::with_capacity(update.assignments.len());
    for assignment in &update.assignments {
        let Assignment::Column {
            column, op, value, ..
        } = assignment
        else {
            return Err(not_yet("variable assignment in UPDATE"));
        };
        let position = binder.scope.resolve(column)?;
        if table.identity.as_ref().map(|i| i.column) == Some(position) {
            return Err(SqlError::new(
                8102,
                16,
                1,
                format!(
                    "Cannot update identity column '{}'.",
                    table.columns[position].name
                ),
            ));
        }
        if changes.iter().any(|(c, _)| *c == position) {
            return Err(SqlError::new(
                264,
                16,
                1,
                format!(
                    "The column name '{}' is specified more than once in the SET clause or column list of an INSERT. A column cannot be assigned more than one value in the same clause. Modify the clause to make sure that a column is updated only once. If this statement updates or inserts columns into a view, column aliasing can conceal the duplication in your code.",
                    table.columns[position].name
                ),
            ));
        }
        let current = Scalar {
            kind: ScalarKind::Column(position),
            data_type: table.columns[position].data_type,
        };
        let stored = assignment_type(&current.data_type);
        changes.push((position, binder.assignment(current, *op, value, &stored)?));
    }
    let checks = StatementChecks::new(context.db, &table, Statement::Update);
    let changed: Vec<usize> = changes.iter().map(|(column, _)| *column).collect();
    let rows = matching_rows(context, &table, filter.as_ref())?;
    for (id, values) in &rows {
        let inputs = Inputs::top(context).with_row(values);
        let new_values = changes
            .iter()
            .map(|(column, scalar)| Ok((*column, scalar.eval(&inputs)?)))
            .collect::<SqlResult<Vec<(usize, Value)>>>()?;
        context
            .transaction()?
            .update(&table.engine, *id, &new_values)?;
        if !checks.is_empty() {
            let mut new_row = values.clone();
            for (column, value) in new_values {
                new_row[column] = value;
            }
            checks.updated(context, values, &new_row, &changed)?;
        }
    }
    checks.finish(context)?;
    Ok(Some(rows.len() as u64))
}

pub fn delete(
    context: &Context,
    planner: &Planner,
    delete: &ast::Delete,
) -> SqlResult<Option<u64>> {
    let unsupported = !delete.with.is_empty()
        || delete.top.is_some()
        || !delete.output.is_empty()
        || !delete.from.is_empty()
        || !delete.hints.is_empty();
    if unsupported {
        return Err(not_yet("DELETE with WITH, TOP, OUTPUT, FROM or OPTION"));
    }
    let table = target_table(context, &delete.target)?;
    let binder = binder_over(planner, &table);
    let filter = delete
        .where_clause
        .as_ref()
        .map(|c| binder.predicate(c))
        .transpose()?;
    let checks = StatementChecks::new(context.db, &table, Statement::Delete);
    let rows = matching_rows(context, &table, filter.as_ref())?;
    for (id, values) in &rows {
        context.transaction()?.delete(&table.engine, *id)?;
        checks.deleted(values);
    }
    checks.finish(context)?;
    Ok(Some(rows.len() as u64))
}

fn target_table(context: &Context, target: &DmlTarget) -> SqlResult<Arc<TableMeta>> {
    match target {
        DmlTarget::Table { name, hints } if hints.is_empty() => resolve_table(context.db, name),
        DmlTarget::Table { .. } => Err(not_yet("table hints")),
        DmlTarget::Variable(_) => Err(not_yet("table variables")),
    }
}

/// A binder whose scope is `table`'s columns, known by the table's name.
fn binder_over<'a>(planner: &'a Planner<'a>, table: &TableMeta) -> Binder<'a> {
    Binder {
        scope: Scope {
            columns: table_scope(planner.db, table, &table.name),
        },
        ..super::variables::binder(planner)
    }
}

/// The rows the filter accepts, with their values, read before any change
/// (so a row an UPDATE moves is not met twice).
fn matching_rows(
    context: &Context,
    table: &TableMeta,
    filter: Option<&Predicate>,
) -> SqlResult<Vec<(RowId, Vec<Value>)>> {
    let mut rows = Vec::new();
    for_each_row(table, filter, &Inputs::top(context), |id, values| {
        rows.push((id, values));
        Ok(ControlFlow::Continue(()))
    })?;
    Ok(rows)
}
