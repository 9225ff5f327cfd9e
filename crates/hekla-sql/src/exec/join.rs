//! Joins. Every method hands on rows of the outer side's columns followed
//! by the inner side's, tests the join's ON condition on them, and pads
//! the missing side with NULLs for outer joins.

use super::eval::Inputs;
use super::run::{collect, holds, run as run_node, Emit};
use crate::plan::{Join, JoinKind, JoinMethod};
use hekla_types::{encode_key, SortOrder, SqlResult, Value};
use std::collections::HashMap;
use std::ops::ControlFlow;

pub fn run(join: &Join, params: &Inputs<'_>, emit: &mut Emit<'_>) -> SqlResult<ControlFlow<()>> {
    match &join.method {
        JoinMethod::Rescan => rescan(join, params, emit),
        JoinMethod::Spool => {
            let inner = inner_rows(join, params)?;
            let all: Vec<usize> = (0..inner.len()).collect();
            matched_join(join, params, emit, &inner, |_| Some(&all))
        }
        JoinMethod::Hash {
            outer_keys,
            inner_keys,
        } => {
            let inner = inner_rows(join, params)?;
            let types: Vec<_> = inner_keys
                .iter()
                .map(|k| (k.data_type, SortOrder::Ascending))
                .collect();
            // Inner rows by key; a NULL key joins nothing.
            let mut table: HashMap<Vec<u8>, Vec<usize>> = HashMap::new();
            let offset = inner_offset(join, params);
            let mut padded = vec![Value::Null; offset];
            for (index, row) in inner.iter().enumerate() {
                padded.truncate(offset);
                padded.extend_from_slice(row);
                let inputs = params.with_row(&padded);
                let values = inner_keys
                    .iter()
                    .map(|k| k.eval(&inputs))
                    .collect::<SqlResult<Vec<_>>>()?;
                if values.iter().any(Value::is_null) {
                    continue;
                }
                let mut encoded = Vec::new();
                encode_key(&types, &values, &mut encoded)?;
                table.entry(encoded).or_default().push(index);
            }
            let mut probe_key = Vec::new();
            matched_join(join, params, emit, &inner, |outer_inputs| {
                let values: Option<Vec<Value>> = outer_keys
                    .iter()
                    .map(|k| k.eval(outer_inputs).ok())
                    .collect();
                let values = values?;
                if values.iter().any(Value::is_null) {
                    return None;
                }
                probe_key.clear();
                encode_key(&types, &values, &mut probe_key).ok()?;
                table.get(&probe_key)
            })
        }
    }
}

/// Where the inner side's columns start in the clause's row: after the
/// columns the join was given and the outer side's own.
fn inner_offset(join: &Join, params: &Inputs<'_>) -> usize {
    params.row.len() + join.outer_width
}

/// The inner side's own columns of each of its rows, read once (run after
/// NULLs in place of the columns before it, which it cannot read).
fn inner_rows(join: &Join, params: &Inputs<'_>) -> SqlResult<Vec<Vec<Value>>> {
    let offset = inner_offset(join, params);
    let nulls = vec![Value::Null; offset];
    let mut rows = collect(&join.inner, &params.with_row(&nulls))?;
    for row in &mut rows {
        row.drain(..offset);
    }
    Ok(rows)
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

/// Loops over the candidates `candidates` finds in `inner` for each outer
/// row; pads unmatched rows of either side as the join kind requires.
fn matched_join<'c>(
    join: &Join,
    params: &Inputs<'_>,
    emit: &mut Emit<'_>,
    inner: &[Vec<Value>],
    mut candidates: impl FnMut(&Inputs<'_>) -> Option<&'c Vec<usize>>,
) -> SqlResult<ControlFlow<()>> {
    let mut inner_matched = vec![false; inner.len()];
    let mut joined = Vec::new();
    let flow = run_node(&join.outer, params, &mut |outer_row| {
        let mut matched = false;
        let outer_inputs = params.with_row(outer_row);
        if let Some(found) = candidates(&outer_inputs) {
            for &index in found {
                joined.clear();
                joined.extend_from_slice(outer_row);
                joined.extend_from_slice(&inner[index]);
                if !holds(join.on.as_ref(), &params.with_row(&joined))? {
                    continue;
                }
                matched = true;
                inner_matched[index] = true;
                if emit(&joined)?.is_break() {
                    return Ok(ControlFlow::Break(()));
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
        for (row, _) in inner.iter().zip(&inner_matched).filter(|(_, m)| !**m) {
            let mut padded = params.row.to_vec();
            padded.resize(inner_offset(join, params), Value::Null);
            padded.extend_from_slice(row);
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
