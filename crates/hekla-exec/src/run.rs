//! Running plans: each operator pushes its rows into the closure its
//! consumer gives it, which answers whether to go on (so TOP and EXISTS
//! stop a scan early). `params` carries what an operator is run with: the
//! columns to its left in a FROM clause (its rows start with them), the
//! rows of enclosing queries, and the statement's context.

use super::aggregate::{Accumulator, Groups};
use super::context::{Context, MemoryCharge};
use super::eval::Inputs;
use super::row_buffer::RowBuffer;
use super::sort::Sorter;
use crate::eval::Evaluate;
use hekla_plan::bind::aggregate::{AggregateCall, AggregateFunction, Grouping};
use hekla_plan::bind::expr::{Predicate, Reads};
use hekla_plan::plan::access::AccessPath;
use hekla_plan::plan::{AggregateMethod, Limit, Node, SetOperation, SortKey, TableRead};
use hekla_types::{encode_key, DataType, SortOrder, SqlError, SqlResult, Value};
use std::collections::HashSet;
use std::ops::ControlFlow;

/// Where an operator's rows go.
pub type Emit<'e> = dyn FnMut(&[Value]) -> SqlResult<ControlFlow<()>> + 'e;

/// Runs `node`, handing each of its rows to `emit`; Break if `emit` asked
/// to stop.
pub fn run(node: &Node, params: &Inputs<'_>, emit: &mut Emit<'_>) -> SqlResult<ControlFlow<()>> {
    match node {
        Node::Single => emit(params.row),
        Node::Values { rows } => {
            let inputs = params.with_row(&[]);
            for row in rows {
                let mut values = params.row.to_vec();
                for scalar in row {
                    values.push(scalar.eval(&inputs)?);
                }
                if emit(&values)?.is_break() {
                    return Ok(ControlFlow::Break(()));
                }
            }
            Ok(ControlFlow::Continue(()))
        }
        Node::View { view } => {
            for row in params.context.db.view_rows(view)? {
                if emit(&prefixed(params.row, &row))?.is_break() {
                    return Ok(ControlFlow::Break(()));
                }
            }
            Ok(ControlFlow::Continue(()))
        }
        Node::SystemFunction {
            function,
            arguments,
        } => {
            let values = arguments
                .iter()
                .map(|argument| argument.eval(params))
                .collect::<SqlResult<Vec<Value>>>()?;
            for row in params.context.db.function_rows(function, &values)? {
                if emit(&prefixed(params.row, &row))?.is_break() {
                    return Ok(ControlFlow::Break(()));
                }
            }
            Ok(ControlFlow::Continue(()))
        }
        Node::Table(read) => table(read, params, emit),
        Node::Derived { plan, correlated } => {
            let inner = Inputs {
                row: &[],
                outer: if *correlated {
                    Some(params)
                } else {
                    params.outer
                },
                context: params.context,
            };
            if params.row.is_empty() {
                return run(&plan.root, &inner, emit);
            }
            run(&plan.root, &inner, &mut |row| {
                emit(&prefixed(params.row, row))
            })
        }
        Node::Function { arguments, plan } => {
            let values = arguments
                .iter()
                .map(|argument| argument.eval(params))
                .collect::<SqlResult<Vec<Value>>>()?;
            let parameters = Inputs {
                row: &values,
                outer: None,
                context: params.context,
            };
            let inner = Inputs {
                row: &[],
                outer: Some(&parameters),
                context: params.context,
            };
            if params.row.is_empty() {
                return run(&plan.root, &inner, emit);
            }
            run(&plan.root, &inner, &mut |row| {
                emit(&prefixed(params.row, row))
            })
        }
        Node::Filter { input, predicate } => run(input, params, &mut |row| {
            if predicate.eval(&params.with_row(row))? == Some(true) {
                emit(row)
            } else {
                Ok(ControlFlow::Continue(()))
            }
        }),
        Node::Project { input, exprs } => {
            let mut out = Vec::with_capacity(exprs.len());
            run(input, params, &mut |row| {
                let inputs = params.with_row(row);
                out.clear();
                for expr in exprs {
                    out.push(expr.eval(&inputs)?);
                }
                emit(&out)
            })
        }
        Node::Join(join) => super::join::run(join, params, emit),
        Node::Aggregate {
            input,
            grouping,
            method: AggregateMethod::Stream,
        } => super::aggregate::stream(input, grouping, params, emit),
        Node::Aggregate {
            input, grouping, ..
        } => {
            if let Some(row) = count_only(input, grouping, params)? {
                return emit(&row);
            }
            if let Some(row) = super::compiled::aggregate(input, grouping, params)? {
                return emit(&row);
            }
            let mut groups = Groups::new(grouping);
            let mut charge = params.context.memory_charge();
            for_each(input, params, &mut |row| {
                let held = groups.held_bytes();
                groups.add(&params.with_row(row))?;
                charge.add_bytes(groups.held_bytes() - held)
            })?;
            emit_all(groups.finish()?, emit)
        }
        Node::Window { input, calls } => super::window::run(input, calls, params, emit),
        Node::Sort { input, keys, top } => {
            let mut sorter = Sorter::new(keys, *top);
            let mut charge = params.context.memory_charge();
            let mut values = Vec::with_capacity(keys.len());
            for_each(input, params, &mut |row| {
                let inputs = params.with_row(row);
                values.clear();
                for key in keys {
                    values.push(key.expr.eval(&inputs)?);
                }
                // A Top N Sort past its n-th row copies only rows that
                // still sort before it.
                if sorter.admits(&values) {
                    charge.add_row(row)?;
                    sorter.push(std::mem::take(&mut values), row.to_vec());
                }
                Ok(())
            })?;
            emit_all(sorter.finish(), emit)
        }
        Node::Top {
            input,
            skip,
            limit,
            ties,
        } => top(input, *skip, *limit, ties, params, emit),
        Node::Distinct { input, types } => {
            let mut seen = RowSet::new(types, params.context);
            run(input, params, &mut |row| {
                if seen.insert(row)? {
                    emit(row)
                } else {
                    Ok(ControlFlow::Continue(()))
                }
            })
        }
        Node::SetOp {
            op,
            left,
            right,
            types,
        } => set_operation(*op, left, right, types, params, emit),
        Node::Recursive {
            anchor,
            step,
            id,
            max_recursion,
        } => recursive(anchor, step, *id, *max_recursion, params, emit),
        Node::Working { id } => {
            let rows = params.context.working(*id);
            for row in rows.iter() {
                params.context.check_cancel()?;
                if emit(&prefixed(params.row, row))?.is_break() {
                    return Ok(ControlFlow::Break(()));
                }
            }
            Ok(ControlFlow::Continue(()))
        }
    }
}

/// Runs `node` to the end, handing each row to `visit`.
pub fn for_each(
    node: &Node,
    params: &Inputs<'_>,
    visit: &mut dyn FnMut(&[Value]) -> SqlResult<()>,
) -> SqlResult<()> {
    run(node, params, &mut |row| {
        visit(row)?;
        Ok(ControlFlow::Continue(()))
    })
    .map(|_| ())
}

/// A recursive CTE: the anchor's rows, then each step's rows made from the
/// previous step's, until a step makes none; Msg 530 when a step past
/// `max_recursion` (0: no limit) still makes rows.
fn recursive(
    anchor: &Node,
    step: &Node,
    id: usize,
    max_recursion: u32,
    params: &Inputs<'_>,
    emit: &mut Emit<'_>,
) -> SqlResult<ControlFlow<()>> {
    let mut rows = collect(anchor, params)?;
    let mut level: u32 = 0;
    loop {
        for row in &rows {
            if emit(row)?.is_break() {
                return Ok(ControlFlow::Break(()));
            }
        }
        if rows.is_empty() {
            return Ok(ControlFlow::Continue(()));
        }
        params.context.set_working(id, std::rc::Rc::new(rows));
        rows = collect(step, params)?;
        level += 1;
        if max_recursion != 0 && level > max_recursion && !rows.is_empty() {
            return Err(SqlError::new(
                530,
                16,
                1,
                format!("The statement terminated. The maximum recursion {max_recursion} has been exhausted before statement completion."),
            ));
        }
    }
}

/// Every row of `node`, in memory.
pub fn collect(node: &Node, params: &Inputs<'_>) -> SqlResult<Vec<Vec<Value>>> {
    let mut rows = Vec::new();
    for_each(node, params, &mut |row| {
        rows.push(row.to_vec());
        Ok(())
    })?;
    Ok(rows)
}

pub fn emit_all(
    rows: impl IntoIterator<Item = Vec<Value>>,
    emit: &mut Emit<'_>,
) -> SqlResult<ControlFlow<()>> {
    for row in rows {
        if emit(&row)?.is_break() {
            return Ok(ControlFlow::Break(()));
        }
    }
    Ok(ControlFlow::Continue(()))
}

/// `prefix` followed by `row`.
pub fn prefixed(prefix: &[Value], row: &[Value]) -> Vec<Value> {
    let mut joined = Vec::with_capacity(prefix.len() + row.len());
    joined.extend_from_slice(prefix);
    joined.extend_from_slice(row);
    joined
}

/// A table's rows through its access path, each starting with
/// `params.row`; columns no expression reads stay NULL.
fn table(read: &TableRead, params: &Inputs<'_>, emit: &mut Emit<'_>) -> SqlResult<ControlFlow<()>> {
    // In a native module, a filter that compiled tests the stored rows
    // (and only the rows it passes are decoded): none is left to test.
    let mut compiled = super::compiled::row_filter(read, params)?;
    let interpreted_filter = if compiled.is_some() {
        None
    } else {
        read.filter.as_ref()
    };
    let accepts = |row: &[Value]| holds(interpreted_filter, &params.with_row(row));
    // Whether the row stored as `payload` may pass (the compiled filter's
    // verdict, if there is one).
    let mut may_pass = |payload: &[u8]| match &mut compiled {
        Some(filter) => {
            params.context.check_cancel()?;
            filter.passes(payload)
        }
        None => Ok(true),
    };
    // Each row: the columns before the table, the table's, its row id.
    let width = params.row.len() + read.needed.len() + usize::from(read.row_ids);
    // Appends the row to `buffer`.
    let decode = |row: &hekla_engine::Row<'_>, buffer: &mut Vec<Value>| {
        buffer.extend_from_slice(params.row);
        for (column, &needed) in read.needed.iter().enumerate() {
            buffer.push(if needed {
                row.value(column)
            } else {
                Value::Null
            });
        }
        if read.row_ids {
            buffer.push(Value::BigInt(params.context.register_row(row.id())));
        }
    };
    if !read.stream {
        // The rows one after another in chunks, not a vector each. A seek
        // (usually of a unique key) is sized for one row; a scan for a
        // few, so a small table's rows are not copied as they grow.
        let expected_rows = match read.path {
            AccessPath::Seek { .. } => 1,
            AccessPath::Scan | AccessPath::Ordered { .. } | AccessPath::Range { .. } => {
                SCAN_ROWS_RESERVED
            }
        };
        // A filter without subqueries is tested as the rows are read (as
        // a streaming read does), so only the rows it accepts are kept:
        // a DELETE with a selective WHERE no longer copies the table.
        let filter_now = interpreted_filter.is_none_or(|f| !f.has_subquery());
        let mut rows = RowBuffer::new(width, expected_rows);
        {
            let mut outcome = Ok(());
            let table = params.context.table(&read.table);
            let mut tx = params.context.reading(table, read.hint)?;
            super::access::read_along(&read.path, &mut tx, table, params, |row| {
                match may_pass(row.payload()) {
                    Ok(true) => {}
                    Ok(false) => return ControlFlow::Continue(()),
                    Err(error) => {
                        outcome = Err(error);
                        return ControlFlow::Break(());
                    }
                }
                let values = rows.next_row();
                let start = values.len();
                decode(&row, values);
                if !filter_now {
                    rows.keep();
                    return ControlFlow::Continue(());
                }
                let tested = params
                    .context
                    .check_cancel()
                    .and_then(|()| accepts(&values[start..]));
                match tested {
                    Ok(true) => rows.keep(),
                    Ok(false) => rows.discard(),
                    Err(error) => {
                        outcome = Err(error);
                        return ControlFlow::Break(());
                    }
                }
                ControlFlow::Continue(())
            })?;
            outcome?;
        }
        for row in rows.rows() {
            params.context.check_cancel()?;
            if (filter_now || accepts(row)?) && emit(row)?.is_break() {
                return Ok(ControlFlow::Break(()));
            }
        }
        return Ok(ControlFlow::Continue(()));
    }
    let mut outcome = Ok(ControlFlow::Continue(()));
    let mut buffer: Vec<Value> = Vec::with_capacity(width);
    let table = params.context.table(&read.table);
    let mut tx = params.context.reading(table, read.hint)?;
    super::access::read_along(&read.path, &mut tx, table, params, |row| {
        let step = match may_pass(row.payload()).and_then(|passes| {
            if passes {
                buffer.clear();
                decode(&row, &mut buffer);
                params.context.check_cancel()?;
                accepts(&buffer)
            } else {
                Ok(false)
            }
        }) {
            Ok(true) => emit(&buffer),
            Ok(false) => Ok(ControlFlow::Continue(())),
            Err(error) => Err(error),
        };
        match step {
            Ok(ControlFlow::Continue(())) => ControlFlow::Continue(()),
            stop => {
                outcome = stop;
                ControlFlow::Break(())
            }
        }
    })?;
    outcome
}

/// Rows a buffered scan's vector is first sized for.
const SCAN_ROWS_RESERVED: usize = 8;

/// `SELECT COUNT(*) FROM t` (any number of COUNT(*) / COUNT_BIG(*), no
/// GROUP BY, no WHERE): counts the visible rows without decoding them.
/// None when the query is anything else.
fn count_only(
    input: &Node,
    grouping: &Grouping,
    params: &Inputs<'_>,
) -> SqlResult<Option<Vec<Value>>> {
    let Node::Table(read) = input else {
        return Ok(None);
    };
    let counts_rows = |call: &AggregateCall| {
        call.argument.is_none()
            && matches!(
                call.function,
                AggregateFunction::Count | AggregateFunction::CountBig
            )
    };
    if !grouping.keys.is_empty()
        || read.filter.is_some()
        || !grouping
            .aggregates
            .iter()
            .all(|(_, call)| counts_rows(call))
    {
        return Ok(None);
    }
    let mut count: i64 = 0;
    let table = params.context.table(&read.table);
    let mut tx = params.context.reading(table, read.hint)?;
    super::access::read_along(&read.path, &mut tx, table, params, |_| {
        count += 1;
        ControlFlow::Continue(())
    })?;
    drop(tx);
    let row = grouping
        .aggregates
        .iter()
        .map(|(_, call)| Accumulator::seen(count, Value::Null).finish(call))
        .collect::<SqlResult<Vec<Value>>>()?;
    Ok(Some(row))
}

/// OFFSET `skip` rows, then at most `limit` (and, with `ties`, the rows
/// after the last one that equal it on those keys); stops its input once
/// done. A PERCENT limit needs the input's size, so it reads it first.
fn top(
    input: &Node,
    skip: u64,
    limit: Option<Limit>,
    ties: &[SortKey],
    params: &Inputs<'_>,
    emit: &mut Emit<'_>,
) -> SqlResult<ControlFlow<()>> {
    let limit = match limit {
        Some(Limit::Percent(percent)) => {
            let rows = collect(input, params)?;
            let count = (rows.len() as f64 * percent / 100.0).ceil() as u64;
            return limited(
                &mut |visit| {
                    for row in &rows {
                        if visit(row)?.is_break() {
                            break;
                        }
                    }
                    Ok(())
                },
                skip,
                Some(count),
                ties,
                params,
                emit,
            );
        }
        Some(Limit::Rows(rows)) => Some(rows),
        None => None,
    };
    limited(
        &mut |visit| run(input, params, visit).map(|_| ()),
        skip,
        limit,
        ties,
        params,
        emit,
    )
}

/// The rows `source` produces, with OFFSET, the limit and ties applied.
fn limited(
    source: &mut dyn FnMut(&mut Emit<'_>) -> SqlResult<()>,
    skip: u64,
    limit: Option<u64>,
    ties: &[SortKey],
    params: &Inputs<'_>,
    emit: &mut Emit<'_>,
) -> SqlResult<ControlFlow<()>> {
    if limit == Some(0) {
        return Ok(ControlFlow::Continue(()));
    }
    let (mut skipped, mut sent) = (0, 0);
    let mut stopped = false;
    // With ties: the sort keys of the last row the limit let through.
    let mut last_keys: Option<Vec<Value>> = None;
    let keys_of = |row: &[Value]| -> SqlResult<Vec<Value>> {
        let inputs = params.with_row(row);
        ties.iter().map(|key| key.expr.eval(&inputs)).collect()
    };
    source(&mut |row| {
        if skipped < skip {
            skipped += 1;
            return Ok(ControlFlow::Continue(()));
        }
        if let Some(last) = &last_keys {
            let keys = keys_of(row)?;
            let tied = ties
                .iter()
                .zip(last.iter().zip(&keys))
                .all(|(key, (a, b))| key.compare(a, b).is_eq());
            if !tied {
                return Ok(ControlFlow::Break(()));
            }
        }
        if emit(row)?.is_break() {
            stopped = true;
            return Ok(ControlFlow::Break(()));
        }
        sent += 1;
        if last_keys.is_none() && limit.is_some_and(|limit| sent >= limit) {
            if ties.is_empty() {
                return Ok(ControlFlow::Break(()));
            }
            last_keys = Some(keys_of(row)?);
        }
        Ok(ControlFlow::Continue(()))
    })?;
    Ok(if stopped {
        ControlFlow::Break(())
    } else {
        ControlFlow::Continue(())
    })
}

fn set_operation(
    op: SetOperation,
    left: &Node,
    right: &Node,
    types: &[DataType],
    params: &Inputs<'_>,
    emit: &mut Emit<'_>,
) -> SqlResult<ControlFlow<()>> {
    match op {
        SetOperation::UnionAll => {
            if run(left, params, emit)?.is_break() {
                return Ok(ControlFlow::Break(()));
            }
            run(right, params, emit)
        }
        SetOperation::Union => {
            let mut seen = RowSet::new(types, params.context);
            for side in [left, right] {
                let flow = run(side, params, &mut |row| {
                    if seen.insert(row)? {
                        emit(row)
                    } else {
                        Ok(ControlFlow::Continue(()))
                    }
                })?;
                if flow.is_break() {
                    return Ok(ControlFlow::Break(()));
                }
            }
            Ok(ControlFlow::Continue(()))
        }
        SetOperation::Except | SetOperation::Intersect => {
            let mut other = RowSet::new(types, params.context);
            for_each(right, params, &mut |row| other.insert(row).map(|_| ()))?;
            let keep_present = op == SetOperation::Intersect;
            let mut seen = RowSet::new(types, params.context);
            run(left, params, &mut |row| {
                if other.contains(row)? == keep_present && seen.insert(row)? {
                    emit(row)
                } else {
                    Ok(ControlFlow::Continue(()))
                }
            })
        }
    }
}

/// Rows compared as DISTINCT and the set operators compare them: NULLs
/// equal, strings by collation (through the key encoding).
pub struct RowSet<'c, 'a> {
    types: Vec<(DataType, SortOrder)>,
    seen: HashSet<Vec<u8>>,
    /// What the rows kept take, against the request's memory limit.
    charge: MemoryCharge<'c, 'a>,
}

impl<'c, 'a> RowSet<'c, 'a> {
    pub fn new(types: &[DataType], context: &'c Context<'a>) -> Self {
        RowSet {
            types: types.iter().map(|t| (*t, SortOrder::Ascending)).collect(),
            seen: HashSet::new(),
            charge: context.memory_charge(),
        }
    }

    fn encode(&self, row: &[Value]) -> SqlResult<Vec<u8>> {
        let mut encoded = Vec::new();
        encode_key(&self.types, &row[..self.types.len()], &mut encoded)?;
        Ok(encoded)
    }

    /// True if the row was not there yet.
    pub fn insert(&mut self, row: &[Value]) -> SqlResult<bool> {
        let encoded = self.encode(row)?;
        let bytes = encoded.len() as u64;
        let new = self.seen.insert(encoded);
        if new {
            self.charge.add_bytes(bytes)?;
        }
        Ok(new)
    }

    pub fn contains(&self, row: &[Value]) -> SqlResult<bool> {
        Ok(self.seen.contains(&self.encode(row)?))
    }
}

/// True if `predicate` (if any) holds for `row`.
pub fn holds(predicate: Option<&Predicate>, row: &Inputs<'_>) -> SqlResult<bool> {
    match predicate {
        Some(predicate) => Ok(predicate.eval(row)? == Some(true)),
        None => Ok(true),
    }
}
