//! Joins. Every method hands on rows of the outer side's columns followed
//! by the inner side's, tests the join's ON condition on them, and pads
//! the missing side with NULLs for outer joins.

use super::context::MemoryCharge;
use super::eval::Inputs;
use super::hash_table::HashTable;
use super::run::{for_each, holds, run as run_node, Emit};
use crate::eval::Evaluate;
use hekla_plan::bind::expr::Scalar;
use hekla_plan::plan::{Join, JoinKind, JoinMethod};
use hekla_types::{encode_key, DataType, SortOrder, SqlResult, Value};
use std::ops::ControlFlow;

pub fn run(join: &Join, params: &Inputs<'_>, emit: &mut Emit<'_>) -> SqlResult<ControlFlow<()>> {
    // What the inner side's rows take while the join runs.
    let mut charge = params.context.memory_charge();
    match &join.method {
        JoinMethod::Rescan => rescan(join, params, emit),
        JoinMethod::Spool => {
            let inner = build(join, params, None, &mut charge)?;
            matched_join(join, params, emit, &inner, None)
        }
        JoinMethod::Hash {
            outer_keys,
            inner_keys,
        } => {
            let keys = Keys::new(inner_keys);
            let inner = build(join, params, Some(&keys), &mut charge)?;
            matched_join(join, params, emit, &inner, Some(&Keys::new(outer_keys)))
        }
    }
}

/// Join key expressions and how their values are encoded.
struct Keys<'k> {
    exprs: &'k [Scalar],
    types: Vec<(DataType, SortOrder)>,
}

impl<'k> Keys<'k> {
    fn new(exprs: &'k [Scalar]) -> Self {
        Keys {
            exprs,
            types: exprs
                .iter()
                .map(|k| (k.data_type, SortOrder::Ascending))
                .collect(),
        }
    }

    /// The key of `row` encoded into `out`; false if a part is NULL (which
    /// joins nothing).
    fn encode(&self, row: &Inputs<'_>, out: &mut Vec<u8>) -> SqlResult<bool> {
        out.clear();
        for (expr, column) in self.exprs.iter().zip(&self.types) {
            let value = expr.eval(row)?;
            if value.is_null() {
                return Ok(false);
            }
            encode_key(
                std::slice::from_ref(column),
                std::slice::from_ref(&value),
                out,
            )?;
        }
        Ok(true)
    }
}

/// Where the inner side's columns start in the clause's row: after the
/// columns the join was given and the outer side's own.
fn inner_offset(join: &Join, params: &Inputs<'_>) -> usize {
    params.row.len() + join.outer_width
}

/// Reads the inner side once (after NULLs in place of the columns before
/// it, which it cannot read), keeping each row's own columns, keyed by
/// `keys` if given.
fn build(
    join: &Join,
    params: &Inputs<'_>,
    keys: Option<&Keys>,
    charge: &mut MemoryCharge,
) -> SqlResult<HashTable> {
    let offset = inner_offset(join, params);
    let nulls = vec![Value::Null; offset];
    let mut table = HashTable::new(join.inner_width);
    let mut key = Vec::new();
    for_each(&join.inner, &params.with_row(&nulls), &mut |row| {
        let keyed = match keys {
            Some(keys) => keys.encode(&params.with_row(row), &mut key)?,
            None => false,
        };
        charge.add_row(&row[offset..])?;
        table.push(&row[offset..], keyed.then_some(&key[..]));
        Ok(())
    })?;
    Ok(table)
}

/// Runs the inner side again for every outer row (index seeks and APPLY).
fn rescan(join: &Join, params: &Inputs<'_>, emit: &mut Emit<'_>) -> SqlResult<ControlFlow<()>> {
    run_node(&join.outer, params, &mut |outer_row| {
        let mut matched = false;
        let flow = run_node(&join.inner, &params.with_row(outer_row), &mut |joined| {
            if !holds(join.on.as_ref(), &params.with_row(joined))? {
                return Ok(ControlFlow::Continue(()));
            }
            matched = true;
            emit(joined)
        })?;
        if flow.is_break() {
            return Ok(ControlFlow::Break(()));
        }
        if !matched && join.kind == JoinKind::Left {
            return emit(&padded_outer(outer_row, join.inner_width));
        }
        Ok(ControlFlow::Continue(()))
    })
}

/// Joins each outer row with the inner rows `probe` finds (every row
/// without keys); pads unmatched rows of either side as the kind requires.
fn matched_join(
    join: &Join,
    params: &Inputs<'_>,
    emit: &mut Emit<'_>,
    inner: &HashTable,
    probe: Option<&Keys>,
) -> SqlResult<ControlFlow<()>> {
    let mut inner_matched = vec![false; inner.len()];
    let mut joined = Vec::new();
    let mut key = Vec::new();
    let flow = run_node(&join.outer, params, &mut |outer_row| {
        let mut matched = false;
        let mut visit = |index: usize| -> SqlResult<ControlFlow<()>> {
            params.context.check_cancel()?;
            joined.clear();
            joined.extend_from_slice(outer_row);
            joined.extend_from_slice(inner.row(index));
            if !holds(join.on.as_ref(), &params.with_row(&joined))? {
                return Ok(ControlFlow::Continue(()));
            }
            matched = true;
            inner_matched[index] = true;
            emit(&joined)
        };
        match probe {
            None => {
                for index in 0..inner.len() {
                    if visit(index)?.is_break() {
                        return Ok(ControlFlow::Break(()));
                    }
                }
            }
            Some(keys) => {
                if keys.encode(&params.with_row(outer_row), &mut key)? {
                    for index in inner.matches(&key) {
                        if visit(index)?.is_break() {
                            return Ok(ControlFlow::Break(()));
                        }
                    }
                }
            }
        }
        if !matched && matches!(join.kind, JoinKind::Left | JoinKind::Full) {
            return emit(&padded_outer(outer_row, join.inner_width));
        }
        Ok(ControlFlow::Continue(()))
    })?;
    if flow.is_break() {
        return Ok(flow);
    }
    if matches!(join.kind, JoinKind::Right | JoinKind::Full) {
        for index in (0..inner.len()).filter(|&i| !inner_matched[i]) {
            let mut padded = params.row.to_vec();
            padded.resize(inner_offset(join, params), Value::Null);
            padded.extend_from_slice(inner.row(index));
            if emit(&padded)?.is_break() {
                return Ok(ControlFlow::Break(()));
            }
        }
    }
    Ok(ControlFlow::Continue(()))
}

/// An outer row with NULLs for the inner side's columns.
fn padded_outer(outer_row: &[Value], inner_width: usize) -> Vec<Value> {
    let mut padded = outer_row.to_vec();
    padded.extend(std::iter::repeat_n(Value::Null, inner_width));
    padded
}
