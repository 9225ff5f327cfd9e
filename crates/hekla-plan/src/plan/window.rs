//! Window functions: `f(...) OVER ([PARTITION BY ...] [ORDER BY ...]
//! [frame])` in the select list or ORDER BY. Like aggregates, each call is
//! bound once, found again by its printed text, and read from the row:
//! the Window operator appends one column per call after the columns it
//! is given (`base` onwards).

use super::SortKey;
use crate::bind::aggregate::{bind_aggregate, children, AggregateCall};
use crate::bind::expr::{Binder, Leaf, Reads, Scalar, ScalarKind};
use hekla_parser::ast::{self, ExprKind, FrameBound, FrameUnits};
use hekla_types::{DataType, SqlError, SqlResult};

#[derive(Debug, Default)]
pub struct WindowSet {
    pub calls: Vec<(String, WindowCall)>,
    /// Where the first call's column is in the row.
    pub base: usize,
}

#[derive(Clone, Debug, PartialEq)]
pub struct WindowCall {
    pub function: WindowFunction,
    pub args: Vec<Scalar>,
    pub partition: Vec<Scalar>,
    pub order: Vec<SortKey>,
    pub frame: Frame,
    pub result_type: DataType,
}

#[derive(Clone, Debug, PartialEq)]
pub enum WindowFunction {
    RowNumber,
    Rank,
    DenseRank,
    /// NTILE(n): `args[0]` is n.
    Ntile,
    /// LAG/LEAD(value [, offset [, default]]).
    Lag,
    Lead,
    FirstValue,
    LastValue,
    Aggregate(AggregateCall),
}

/// The rows of its partition an aggregate or FIRST/LAST_VALUE sees for
/// each row: from `start` to `end`, both included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frame {
    pub start: FrameEdge,
    pub end: FrameEdge,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameEdge {
    /// The partition's first row (as start) or last (as end).
    Unbounded,
    /// ROWS: this many rows after the current one (negative: before;
    /// 0: the current row).
    Rows(i64),
    /// RANGE CURRENT ROW: the current row's first peer (as start) or last
    /// peer (as end), peers being rows equal in the window's ORDER BY.
    Peers,
}

impl Frame {
    /// The whole partition (no ORDER BY).
    pub const PARTITION: Frame = Frame {
        start: FrameEdge::Unbounded,
        end: FrameEdge::Unbounded,
    };
}

impl WindowCall {
    pub fn expressions(&self, visit: &mut dyn FnMut(&dyn Reads)) {
        self.args
            .iter()
            .chain(&self.partition)
            .for_each(|s| visit(s));
        self.order.iter().for_each(|key| visit(&key.expr));
        if let WindowFunction::Aggregate(call) = &self.function {
            if let Some(argument) = &call.argument {
                visit(argument);
            }
        }
    }

    /// True if every row's value follows from the rows before it in
    /// arrival order: numbering with no partition and a constant order
    /// (`ROW_NUMBER() OVER (ORDER BY (SELECT NULL))`), which streams.
    pub fn streams(&self) -> bool {
        let numbering = matches!(
            self.function,
            WindowFunction::RowNumber | WindowFunction::Rank | WindowFunction::DenseRank
        );
        numbering && self.partition.is_empty() && self.order.iter().all(|k| is_constant(&k.expr))
    }
}

/// True if `scalar` has one value for the whole statement: it reads no
/// column of any row (variables and uncorrelated subqueries are fixed
/// while a statement runs), like `(SELECT NULL)`, and calls nothing that
/// answers differently each time (`ORDER BY NEWID()` shuffles).
fn is_constant(scalar: &Scalar) -> bool {
    let mut reads_rows = false;
    scalar.leaves(&mut |leaf| reads_rows |= leaf != Leaf::Subquery);
    !reads_rows && !calls_nondeterministic(scalar)
}

fn calls_nondeterministic(scalar: &Scalar) -> bool {
    match &scalar.kind {
        ScalarKind::Builtin { function, args } => {
            function.is_nondeterministic() || args.iter().any(calls_nondeterministic)
        }
        ScalarKind::Arithmetic { left, right, .. } | ScalarKind::Concat(left, right) => {
            calls_nondeterministic(left) || calls_nondeterministic(right)
        }
        ScalarKind::Negate(operand)
        | ScalarKind::BitNot(operand)
        | ScalarKind::Convert { operand, .. } => calls_nondeterministic(operand),
        ScalarKind::Case { whens, otherwise } => {
            whens
                .iter()
                .any(|(_, result)| calls_nondeterministic(result))
                || calls_nondeterministic(otherwise)
        }
        _ => false,
    }
}

impl WindowSet {
    /// Binds the window calls found in `exprs` with `input`, the binder
    /// of the rows the Window operator receives (`base` columns wide).
    pub fn bind(input: &Binder, exprs: &[&ast::Expr], base: usize) -> SqlResult<WindowSet> {
        let mut found = Vec::new();
        for expr in exprs {
            window_calls(expr, &mut found);
        }
        let mut set = WindowSet {
            calls: Vec::new(),
            base,
        };
        for expr in found {
            let text = expr.to_string();
            if set.calls.iter().all(|(t, _)| *t != text) {
                set.calls.push((text, bind_window(input, expr)?));
            }
        }
        Ok(set)
    }
}

/// A window call as the select list reads it: a column of the row.
pub fn read(windows: Option<&WindowSet>, expr: &ast::Expr) -> SqlResult<Scalar> {
    let text = expr.to_string();
    let found = windows.and_then(|set| {
        set.calls
            .iter()
            .position(|(t, _)| *t == text)
            .map(|i| (set.base + i, set.calls[i].1.result_type))
    });
    match found {
        Some((index, data_type)) => Ok(Scalar {
            kind: ScalarKind::Column(index),
            data_type,
        }),
        None => Err(SqlError::new(
            4108,
            16,
            1,
            "Windowed functions can only appear in the SELECT or ORDER BY clauses.",
        )),
    }
}

fn window_calls<'e>(expr: &'e ast::Expr, out: &mut Vec<&'e ast::Expr>) {
    if let ExprKind::Function(call) = &expr.kind {
        if call.over.is_some() {
            out.push(expr);
            return;
        }
    }
    for child in children(expr) {
        window_calls(child, out);
    }
}

fn bind_window(input: &Binder, expr: &ast::Expr) -> SqlResult<WindowCall> {
    let ExprKind::Function(call) = &expr.kind else {
        unreachable!("window_calls collects calls");
    };
    let window = call.over.as_ref().expect("a window call has OVER");
    let name = call.name.name().value.to_ascii_uppercase();
    let partition = window
        .partition_by
        .iter()
        .map(|e| input.scalar(e))
        .collect::<SqlResult<Vec<_>>>()?;
    let order = window
        .order_by
        .iter()
        .map(|item| {
            Ok(SortKey {
                expr: input.scalar(&item.expr)?,
                descending: item.descending,
            })
        })
        .collect::<SqlResult<Vec<_>>>()?;
    let needs_order = || {
        if order.is_empty() {
            Err(SqlError::new(
                4112,
                15,
                1,
                format!("The function '{name}' must have an OVER clause with ORDER BY."),
            ))
        } else {
            Ok(())
        }
    };
    let args = || {
        call.args
            .iter()
            .map(|e| input.scalar(e))
            .collect::<SqlResult<Vec<_>>>()
    };
    let argument_count = |range: std::ops::RangeInclusive<usize>| {
        if range.contains(&call.args.len()) && !call.star {
            Ok(())
        } else {
            Err(SqlError::new(
                174,
                15,
                1,
                format!(
                    "The {} function requires {} argument(s).",
                    name.to_ascii_lowercase(),
                    range.start()
                ),
            ))
        }
    };
    let (function, args, result_type) = match name.as_str() {
        "ROW_NUMBER" | "RANK" | "DENSE_RANK" => {
            needs_order()?;
            argument_count(0..=0)?;
            let function = match name.as_str() {
                "ROW_NUMBER" => WindowFunction::RowNumber,
                "RANK" => WindowFunction::Rank,
                _ => WindowFunction::DenseRank,
            };
            (function, Vec::new(), DataType::BigInt)
        }
        "NTILE" => {
            needs_order()?;
            argument_count(1..=1)?;
            let count =
                crate::bind::expr::implicit(input.scalar(&call.args[0])?, &DataType::BigInt)?;
            (WindowFunction::Ntile, vec![count], DataType::BigInt)
        }
        "LAG" | "LEAD" => {
            needs_order()?;
            argument_count(1..=3)?;
            let mut bound = args()?;
            let value_type = bound[0].data_type;
            if bound.len() > 1 {
                bound[1] = crate::bind::expr::implicit(bound[1].clone(), &DataType::BigInt)?;
            }
            if bound.len() > 2 {
                bound[2] = crate::bind::expr::implicit(bound[2].clone(), &value_type)?;
            }
            let function = if name == "LAG" {
                WindowFunction::Lag
            } else {
                WindowFunction::Lead
            };
            (function, bound, value_type)
        }
        "FIRST_VALUE" | "LAST_VALUE" => {
            needs_order()?;
            argument_count(1..=1)?;
            let bound = args()?;
            let value_type = bound[0].data_type;
            let function = if name == "FIRST_VALUE" {
                WindowFunction::FirstValue
            } else {
                WindowFunction::LastValue
            };
            (function, bound, value_type)
        }
        _ if crate::bind::aggregate::AggregateFunction::from_name(&name).is_some() => {
            if call.distinct {
                return Err(SqlError::new(
                    10759,
                    15,
                    1,
                    "Use of DISTINCT is not allowed with the OVER clause.",
                ));
            }
            let aggregate = bind_aggregate(input, expr)?;
            let result_type = aggregate.result_type;
            (
                WindowFunction::Aggregate(aggregate),
                Vec::new(),
                result_type,
            )
        }
        _ => {
            return Err(SqlError::new(
                4109,
                15,
                1,
                format!("The function '{name}' is not a windowed function hekla supports."),
            ))
        }
    };
    let frame = frame(input, window, &order)?;
    Ok(WindowCall {
        function,
        args,
        partition,
        order,
        frame,
        result_type,
    })
}

/// The frame an aggregate or FIRST/LAST_VALUE sees: with ORDER BY and no
/// frame, RANGE UNBOUNDED PRECEDING (to the current row's last peer);
/// without ORDER BY, the whole partition.
fn frame(input: &Binder, window: &ast::Window, order: &[SortKey]) -> SqlResult<Frame> {
    let Some(frame) = &window.frame else {
        return Ok(if order.is_empty() {
            Frame::PARTITION
        } else {
            Frame {
                start: FrameEdge::Unbounded,
                end: FrameEdge::Peers,
            }
        });
    };
    if order.is_empty() {
        return Err(SqlError::new(
            10756,
            15,
            1,
            "Window frame with ROWS or RANGE must have an ORDER BY clause.",
        ));
    }
    let end = frame.end.as_ref().unwrap_or(&FrameBound::CurrentRow);
    let edge = |bound: &FrameBound| -> SqlResult<FrameEdge> {
        Ok(match (bound, frame.units) {
            (FrameBound::UnboundedPreceding | FrameBound::UnboundedFollowing, _) => {
                FrameEdge::Unbounded
            }
            (FrameBound::CurrentRow, FrameUnits::Rows) => FrameEdge::Rows(0),
            (FrameBound::CurrentRow, FrameUnits::Range) => FrameEdge::Peers,
            (FrameBound::Preceding(n), FrameUnits::Rows) => FrameEdge::Rows(-offset(input, n)?),
            (FrameBound::Following(n), FrameUnits::Rows) => FrameEdge::Rows(offset(input, n)?),
            (_, FrameUnits::Range) => return Err(SqlError::new(
                4194,
                16,
                1,
                "RANGE is only supported with UNBOUNDED and CURRENT ROW window frame delimiters.",
            )),
        })
    };
    let misplaced = matches!(frame.start, FrameBound::UnboundedFollowing)
        || matches!(end, FrameBound::UnboundedPreceding);
    if misplaced {
        return Err(SqlError::new(
            102,
            15,
            1,
            "Incorrect syntax near 'UNBOUNDED'.",
        ));
    }
    Ok(Frame {
        start: edge(&frame.start)?,
        end: edge(end)?,
    })
}

/// A ROWS offset: a constant integer of at least 0 (Msg 102 otherwise).
fn offset(input: &Binder, expr: &ast::Expr) -> SqlResult<i64> {
    let bound = input.scalar(expr)?;
    let integer = matches!(
        bound.data_type,
        DataType::TinyInt | DataType::SmallInt | DataType::Int | DataType::BigInt
    );
    match (&bound.kind, integer) {
        (ScalarKind::Constant(value), true) if value.as_i64().is_some_and(|n| n >= 0) => {
            Ok(value.as_i64().expect("checked"))
        }
        // SQL Server's grammar takes an unsigned integer here.
        _ => Err(SqlError::new(
            102,
            15,
            1,
            format!("Incorrect syntax near '{expr}'."),
        )),
    }
}
