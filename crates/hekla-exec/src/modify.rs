//! Running UPDATE and DELETE plans (`plan::change`), in one engine
//! transaction so the statement is all or nothing. Write-write conflicts
//! surface as the engine's 41302. CHECK and FOREIGN KEY constraints are
//! checked as rows change and when the statement's writes are done (see
//! `constraints`).
//!
//! The rows to change are read first, then their new values computed,
//! then they are changed (so an UPDATE never meets a row it moved, and a
//! subquery in SET sees the table as the statement found it). A target
//! row that joins several rows of the other tables changes once: UPDATE
//! takes the values of the first match (SQL Server leaves which one
//! undefined). `TOP (n)` changes any n of the rows that qualify, and SET
//! ROWCOUNT stops the statement after that many rows.

use super::access::for_each_row;
use super::constraints::{Statement, StatementChecks};
use super::context::Context;
use super::eval::Inputs;
use super::output::Output;
use super::run::run;
use crate::eval::Evaluate;
use hekla_engine::RowId;
use hekla_plan::plan::change::{DeletePlan, Reading, RowSource, TopCount, UpdatePlan};
use hekla_plan::plan::Limit;
use hekla_plan::result::ResultSink;
use hekla_types::{SqlError, SqlResult, Value};
use std::collections::HashSet;
use std::ops::ControlFlow;

pub fn update(
    context: &Context,
    plan: &UpdatePlan,
    sink: &mut dyn ResultSink,
) -> SqlResult<Option<u64>> {
    let table = &plan.target.table;
    let output = Output::start(context, plan.output.as_ref(), sink);
    let rows = found_rows(context, &plan.rows)?;
    let offset = plan.rows.offset;
    // Every new value before any change.
    let mut new_values = Vec::with_capacity(rows.len());
    let computes = table.columns.iter().any(|c| c.computed.is_some());
    for (_, row) in &rows {
        let inputs = Inputs::top(context).with_row(row);
        let mut values = plan
            .assignments
            .iter()
            .map(|(column, value)| Ok((*column, value.eval(&inputs)?)))
            .collect::<SqlResult<Vec<(usize, Value)>>>()?;
        if computes {
            // Computed columns follow the columns they read.
            let mut new_row = row[offset..offset + table.columns.len()].to_vec();
            for (column, value) in &values {
                new_row[*column] = value.clone();
            }
            let new_row = super::insert::with_computed(context, table, new_row)?;
            for (position, column) in table.columns.iter().enumerate() {
                if column.computed.is_some() {
                    values.push((position, new_row[position].clone()));
                }
            }
        }
        new_values.push(values);
    }
    let checks = StatementChecks::new(context.db.planning(), table, Statement::Update);
    let changed: Vec<usize> = plan.assignments.iter().map(|(column, _)| *column).collect();
    let old_values = offset..offset + table.columns.len();
    let mut updated = Vec::new();
    for ((id, row), new) in rows.iter().zip(&new_values) {
        let new_id = context.transaction()?.update(&table.engine, *id, new)?;
        if plan.target.checks() {
            updated.push(new_id);
        }
        if checks.is_empty() && output.is_none() {
            continue;
        }
        let old = &row[old_values.clone()];
        let mut new_row = old.to_vec();
        for (column, value) in new {
            new_row[*column] = value.clone();
        }
        if !checks.is_empty() {
            checks.updated(context, old, &new_row, &changed)?;
        }
        if let Some(output) = &output {
            let read = row.get(plan.rows.named.clone());
            let inserted = plan.target.shown(&new_row, read);
            let deleted = plan.target.shown(old, read);
            output.row(context, sink, Some(&inserted), Some(&deleted), row)?;
        }
    }
    checks.finish(context)?;
    super::target::check_option(context, &plan.target, &updated)?;
    if let Some(output) = &output {
        output.finish(context)?;
    }
    Ok(Some(rows.len() as u64))
}

pub fn delete(
    context: &Context,
    plan: &DeletePlan,
    sink: &mut dyn ResultSink,
) -> SqlResult<Option<u64>> {
    let table = &plan.target.table;
    let output = Output::start(context, plan.output.as_ref(), sink);
    let rows = found_rows(context, &plan.rows)?;
    let checks = StatementChecks::new(context.db.planning(), table, Statement::Delete);
    let old_values = plan.rows.offset..plan.rows.offset + table.columns.len();
    for (id, row) in &rows {
        context.transaction()?.delete(&table.engine, *id)?;
        let old = &row[old_values.clone()];
        checks.deleted(old);
        if let Some(output) = &output {
            let deleted = plan.target.shown(old, row.get(plan.rows.named.clone()));
            output.row(context, sink, None, Some(&deleted), row)?;
        }
    }
    checks.finish(context)?;
    if let Some(output) = &output {
        output.finish(context)?;
    }
    Ok(Some(rows.len() as u64))
}

/// The target rows to change, each once, with their ids and the row
/// found (the target's own without FROM): at most TOP's and SET
/// ROWCOUNT's.
fn found_rows(context: &Context, source: &RowSource) -> SqlResult<Vec<(RowId, Vec<Value>)>> {
    let row_count = match context.options.row_count {
        0 => usize::MAX,
        rows => usize::try_from(rows).unwrap_or(usize::MAX),
    };
    let top = match &source.top {
        Some(top) => Some(top_count(context, top)?),
        None => None,
    };
    match top {
        Some(Limit::Percent(percent)) => {
            // A share of the rows that qualify: all of them first.
            let mut rows = read_rows(context, source, usize::MAX)?;
            let share = (rows.len() as f64 * percent / 100.0).ceil() as usize;
            rows.truncate(share.min(row_count));
            Ok(rows)
        }
        Some(Limit::Rows(top)) => {
            let top = usize::try_from(top).unwrap_or(usize::MAX);
            read_rows(context, source, top.min(row_count))
        }
        None => read_rows(context, source, row_count),
    }
}

/// The value of an UPDATE's or DELETE's TOP as the statement runs.
fn top_count(context: &Context, top: &TopCount) -> SqlResult<Limit> {
    let value = top.count.eval(&Inputs::top(context))?;
    if top.percent {
        return match value {
            Value::Float(percent) if (0.0..=100.0).contains(&percent) => {
                Ok(Limit::Percent(percent))
            }
            _ => Err(hekla_plan::error::top_percent_invalid()),
        };
    }
    match value.as_i64() {
        Some(rows) if rows >= 0 => Ok(Limit::Rows(rows as u64)),
        _ => Err(hekla_plan::error::top_rows_not_integer()),
    }
}

/// The first `limit` target rows `source` finds, each once.
fn read_rows(
    context: &Context,
    source: &RowSource,
    limit: usize,
) -> SqlResult<Vec<(RowId, Vec<Value>)>> {
    let mut rows = Vec::new();
    if limit == 0 {
        return Ok(rows);
    }
    let inputs = Inputs::top(context);
    let (root, id_column) = match &source.reading {
        Reading::Target(read) => {
            for_each_row(read, &inputs, |id, values| {
                rows.push((id, values));
                Ok(more_below(rows.len(), limit))
            })?;
            return Ok(rows);
        }
        Reading::Plan { root, id_column } => (root, *id_column),
    };
    let mut seen: HashSet<RowId> = HashSet::new();
    run(root, &inputs, &mut |row| {
        // An outer join's row without a target row changes nothing.
        if row[id_column].is_null() {
            return Ok(ControlFlow::Continue(()));
        }
        let id = row[id_column]
            .as_i64()
            .and_then(|number| context.row_id(number))
            .ok_or_else(|| {
                SqlError::new(
                    8630,
                    16,
                    1,
                    "Internal Query Processor Error: a row to change has no row id.",
                )
            })?;
        if seen.insert(id) {
            rows.push((id, row.to_vec()));
        }
        Ok(more_below(rows.len(), limit))
    })
    .map(|_| ())?;
    Ok(rows)
}

/// Whether to read on, with `count` rows of at most `limit` read.
fn more_below(count: usize, limit: usize) -> ControlFlow<()> {
    if count < limit {
        ControlFlow::Continue(())
    } else {
        ControlFlow::Break(())
    }
}
