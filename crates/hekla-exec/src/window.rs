//! Window functions. Numbering over a constant order with no partition
//! (`ROW_NUMBER() OVER (ORDER BY (SELECT NULL))`, the usual row generator)
//! streams; everything else reads its input into memory, sorts each
//! function's rows by partition and order, and computes a column.

use super::aggregate::Accumulator;
use super::eval::Inputs;
use super::run::{collect, emit_all, run as run_node, Emit};
use crate::eval::Evaluate;
use hekla_plan::plan::window::{Frame, FrameEdge, WindowCall, WindowFunction};
use hekla_plan::plan::Node;
use hekla_types::{encode_key, SortOrder, SqlError, SqlResult, Value};
use std::cmp::Ordering;
use std::ops::ControlFlow;

pub fn run(
    input: &Node,
    calls: &[WindowCall],
    params: &Inputs<'_>,
    emit: &mut Emit<'_>,
) -> SqlResult<ControlFlow<()>> {
    if calls.iter().all(WindowCall::streams) {
        let mut number: i64 = 0;
        let mut out = Vec::new();
        return run_node(input, params, &mut |row| {
            number += 1;
            out.clear();
            out.extend_from_slice(row);
            for call in calls {
                // A constant order makes every row a peer of the others.
                let value = match call.function {
                    WindowFunction::RowNumber => number,
                    _ => 1,
                };
                out.push(Value::BigInt(value));
            }
            emit(&out)
        });
    }
    let mut rows = collect(input, params)?;
    let columns = calls
        .iter()
        .map(|call| column(call, &rows, params))
        .collect::<SqlResult<Vec<Vec<Value>>>>()?;
    for (index, row) in rows.iter_mut().enumerate() {
        row.extend(columns.iter().map(|column| column[index].clone()));
    }
    emit_all(rows, emit)
}

/// The first and last positions of the frame of the row at `position` in a
/// partition of `len` rows; None when the frame holds no row.
fn frame_bounds(
    frame: Frame,
    position: usize,
    len: usize,
    peer_span: &dyn Fn(usize) -> (usize, usize),
) -> Option<(usize, usize)> {
    let at = position as i64;
    let first = match frame.start {
        FrameEdge::Unbounded => 0,
        FrameEdge::Rows(offset) => at.saturating_add(offset),
        FrameEdge::Peers => peer_span(position).0 as i64,
    };
    let last = match frame.end {
        FrameEdge::Unbounded => len as i64 - 1,
        FrameEdge::Rows(offset) => at.saturating_add(offset),
        FrameEdge::Peers => peer_span(position).1 as i64,
    };
    let (first, last) = (first.max(0), last.min(len as i64 - 1));
    (first <= last).then_some((first as usize, last as usize))
}

/// One row's partition key (encoded) and order values.
struct Placed {
    partition: Vec<u8>,
    order: Vec<Value>,
}

/// The function's value for every row, in input order.
fn column(call: &WindowCall, rows: &[Vec<Value>], params: &Inputs<'_>) -> SqlResult<Vec<Value>> {
    let partition_types: Vec<_> = call
        .partition
        .iter()
        .map(|p| (p.data_type, SortOrder::Ascending))
        .collect();
    let mut placed = Vec::with_capacity(rows.len());
    for row in rows {
        let inputs = params.with_row(row);
        let values = call
            .partition
            .iter()
            .map(|p| p.eval(&inputs))
            .collect::<SqlResult<Vec<_>>>()?;
        let mut partition = Vec::new();
        encode_key(&partition_types, &values, &mut partition)?;
        let order = call
            .order
            .iter()
            .map(|key| key.expr.eval(&inputs))
            .collect::<SqlResult<Vec<_>>>()?;
        placed.push(Placed { partition, order });
    }
    let compare_order = |a: &Placed, b: &Placed| {
        call.order
            .iter()
            .zip(a.order.iter().zip(&b.order))
            .map(|(key, (x, y))| key.compare(x, y))
            .find(|o| o.is_ne())
            .unwrap_or(Ordering::Equal)
    };
    let mut sorted: Vec<usize> = (0..rows.len()).collect();
    sorted.sort_by(|&a, &b| {
        placed[a]
            .partition
            .cmp(&placed[b].partition)
            .then_with(|| compare_order(&placed[a], &placed[b]))
    });
    let mut result = vec![Value::Null; rows.len()];
    let mut start = 0;
    while start < sorted.len() {
        let key = &placed[sorted[start]].partition;
        let end = start
            + sorted[start..]
                .iter()
                .take_while(|&&i| placed[i].partition == *key)
                .count();
        let partition = &sorted[start..end];
        let peers = |a: usize, b: usize| compare_order(&placed[a], &placed[b]) == Ordering::Equal;
        partition_values(call, partition, rows, params, &peers, &mut result)?;
        start = end;
    }
    Ok(result)
}

/// Fills `result` for one partition's rows (`partition`, in window order).
fn partition_values(
    call: &WindowCall,
    partition: &[usize],
    rows: &[Vec<Value>],
    params: &Inputs<'_>,
    peers: &dyn Fn(usize, usize) -> bool,
    result: &mut [Value],
) -> SqlResult<()> {
    let arg = |n: usize, row: usize| call.args[n].eval(&params.with_row(&rows[row]));
    // The first and last positions of the current row's peer group.
    let peer_span = |position: usize| {
        let (mut first, mut last) = (position, position);
        while first > 0 && peers(partition[position], partition[first - 1]) {
            first -= 1;
        }
        while last + 1 < partition.len() && peers(partition[position], partition[last + 1]) {
            last += 1;
        }
        (first, last)
    };
    match &call.function {
        WindowFunction::RowNumber => {
            for (position, &row) in partition.iter().enumerate() {
                result[row] = Value::BigInt(position as i64 + 1);
            }
        }
        WindowFunction::Rank | WindowFunction::DenseRank => {
            let (mut rank, mut dense) = (0i64, 0i64);
            for (position, &row) in partition.iter().enumerate() {
                if position == 0 || !peers(partition[position - 1], row) {
                    rank = position as i64 + 1;
                    dense += 1;
                }
                let value = if call.function == WindowFunction::Rank {
                    rank
                } else {
                    dense
                };
                result[row] = Value::BigInt(value);
            }
        }
        WindowFunction::Ntile => {
            let buckets = match arg(0, partition[0])?.as_i64() {
                Some(n) if n > 0 => n as usize,
                _ => {
                    return Err(SqlError::new(
                        4116,
                        16,
                        1,
                        "The function 'NTILE' takes only a positive int argument.",
                    ))
                }
            };
            let (size, larger) = (partition.len() / buckets, partition.len() % buckets);
            let mut position = 0;
            for bucket in 0..buckets.min(partition.len()) {
                let count = size + usize::from(bucket < larger);
                for &row in &partition[position..position + count] {
                    result[row] = Value::BigInt(bucket as i64 + 1);
                }
                position += count;
            }
        }
        WindowFunction::Lag | WindowFunction::Lead => {
            for (position, &row) in partition.iter().enumerate() {
                let offset = match call.args.get(1) {
                    Some(_) => arg(1, row)?.as_i64().unwrap_or(1),
                    None => 1,
                };
                if offset < 0 {
                    return Err(SqlError::new(
                        4110,
                        16,
                        1,
                        "The offset argument of LAG and LEAD must be non-negative.",
                    ));
                }
                let target = if call.function == WindowFunction::Lag {
                    (position as i64).checked_sub(offset)
                } else {
                    (position as i64).checked_add(offset)
                };
                let source = target
                    .and_then(|t| usize::try_from(t).ok())
                    .and_then(|t| partition.get(t));
                result[row] = match (source, call.args.get(2)) {
                    (Some(&source), _) => arg(0, source)?,
                    (None, Some(_)) => arg(2, row)?,
                    (None, None) => Value::Null,
                };
            }
        }
        WindowFunction::FirstValue | WindowFunction::LastValue => {
            for position in 0..partition.len() {
                let row = partition[position];
                let source = match frame_bounds(call.frame, position, partition.len(), &peer_span) {
                    Some((first, _)) if call.function == WindowFunction::FirstValue => {
                        Some(partition[first])
                    }
                    Some((_, last)) => Some(partition[last]),
                    None => None,
                };
                result[row] = match source {
                    Some(source) => arg(0, source)?,
                    None => Value::Null,
                };
            }
        }
        WindowFunction::Aggregate(aggregate) => {
            let value_of = |row: usize| -> SqlResult<Option<Value>> {
                match &aggregate.argument {
                    Some(argument) => Ok(Some(argument.eval(&params.with_row(&rows[row]))?)),
                    None => Ok(None),
                }
            };
            // From the partition's start, frames only grow: keep one
            // running accumulator. Otherwise each row's frame is added up
            // afresh.
            let running = call.frame.start == FrameEdge::Unbounded;
            let mut accumulator = Accumulator::new(aggregate);
            let mut added = 0;
            for position in 0..partition.len() {
                let bounds = frame_bounds(call.frame, position, partition.len(), &peer_span);
                let value = match bounds {
                    Some((first, last)) if running => {
                        debug_assert_eq!(first, 0);
                        while added <= last {
                            accumulator.add(aggregate, value_of(partition[added])?)?;
                            added += 1;
                        }
                        accumulator.clone().finish(aggregate)?
                    }
                    Some((first, last)) => {
                        let mut fresh = Accumulator::new(aggregate);
                        for &row in &partition[first..=last] {
                            fresh.add(aggregate, value_of(row)?)?;
                        }
                        fresh.finish(aggregate)?
                    }
                    // An empty frame: what the aggregate gives over no rows.
                    None => Accumulator::new(aggregate).finish(aggregate)?,
                };
                result[partition[position]] = value;
            }
        }
    }
    Ok(())
}
