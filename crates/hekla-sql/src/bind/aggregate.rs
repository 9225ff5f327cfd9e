//! Grouping: GROUP BY keys and aggregate calls (COUNT, COUNT_BIG, SUM, AVG,
//! MIN, MAX), bound over the FROM scope. Expressions after grouping (the
//! select list, HAVING) read a row of key values followed by aggregate
//! results; the binder maps a GROUP BY expression or an aggregate call to
//! its place in that row by its canonical printed text, so `a+b` in the
//! select list matches `GROUP BY a + b`.

use super::expr::{Binder, Scalar};
use crate::ast::{self, ExprKind};
use hekla_types::{DataType, SqlError, SqlResult};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AggregateFunction {
    Count,
    CountBig,
    Sum,
    Avg,
    Min,
    Max,
}

impl AggregateFunction {
    pub fn from_name(name: &str) -> Option<AggregateFunction> {
        Some(match name.to_ascii_uppercase().as_str() {
            "COUNT" => AggregateFunction::Count,
            "COUNT_BIG" => AggregateFunction::CountBig,
            "SUM" => AggregateFunction::Sum,
            "AVG" => AggregateFunction::Avg,
            "MIN" => AggregateFunction::Min,
            "MAX" => AggregateFunction::Max,
            _ => return None,
        })
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct AggregateCall {
    pub function: AggregateFunction,
    /// None for `COUNT(*)`.
    pub argument: Option<Scalar>,
    pub distinct: bool,
    pub result_type: DataType,
}

/// The keys and aggregates of a grouped query, with the canonical text of
/// each so later expressions can find them.
#[derive(Clone, Debug, Default)]
pub struct Grouping {
    pub keys: Vec<(String, Scalar)>,
    pub aggregates: Vec<(String, AggregateCall)>,
    /// GROUP BY ROLLUP / CUBE: the grouping sets, each saying which keys
    /// it groups by (the others are NULL in its rows). Empty for a plain
    /// GROUP BY, which is the one set of all keys. With sets, a grouped
    /// row ends with one GROUPING() flag per key (1: rolled up).
    pub sets: Vec<Vec<bool>>,
}

/// The most grouping sets one GROUP BY may make, as in SQL Server.
const MAX_GROUPING_SETS: usize = 4096;

impl Grouping {
    /// Binds GROUP BY keys and the aggregate calls found in `outputs` (the
    /// select list and HAVING) with `input`, the FROM-scope binder.
    pub fn bind(input: &Binder, group_by: &[ast::Expr], outputs: &[&ast::Expr]) -> SqlResult<Self> {
        let mut grouping = Grouping::default();
        // Each GROUP BY item's keys and the ways it groups them.
        let mut choices: Vec<Vec<Vec<bool>>> = Vec::new();
        for item in group_by {
            let (keys, kind) = match &item.kind {
                ExprKind::Function(call) if call.name.parts.len() == 1 && call.over.is_none() => {
                    match call.name.name().value.to_ascii_uppercase().as_str() {
                        "ROLLUP" => (call.args.iter().collect(), Some(true)),
                        "CUBE" => (call.args.iter().collect(), Some(false)),
                        _ => (vec![item], None),
                    }
                }
                _ => (vec![item], None),
            };
            let first = grouping.keys.len();
            for key in &keys {
                if contains_aggregate(key) {
                    return Err(SqlError::new(
                        144,
                        15,
                        1,
                        "Cannot use an aggregate or a subquery in an expression used for the group by list of a GROUP BY clause.",
                    ));
                }
                grouping.keys.push((key.to_string(), input.scalar(key)?));
            }
            let count = keys.len();
            choices.push(match kind {
                // ROLLUP (a, b): (a, b), (a), ().
                Some(true) => (0..=count)
                    .rev()
                    .map(|n| (0..count).map(|i| i < n).collect())
                    .collect(),
                // CUBE (a, b): every subset.
                Some(false) => {
                    if count > 12 {
                        return Err(too_many_sets());
                    }
                    (0..1usize << count)
                        .rev()
                        .map(|mask| {
                            (0..count)
                                .map(|i| mask & (1 << (count - 1 - i)) != 0)
                                .collect()
                        })
                        .collect()
                }
                None => vec![vec![true; count]],
            });
            debug_assert_eq!(first + count, grouping.keys.len());
        }
        if group_by.iter().any(is_rollup_or_cube) {
            // The cross product of the items' choices, keys in order.
            let mut sets: Vec<Vec<bool>> = vec![Vec::new()];
            for choice in &choices {
                sets = sets
                    .iter()
                    .flat_map(|set| {
                        choice.iter().map(move |part| {
                            let mut combined = set.clone();
                            combined.extend(part);
                            combined
                        })
                    })
                    .collect();
                if sets.len() > MAX_GROUPING_SETS {
                    return Err(too_many_sets());
                }
            }
            grouping.sets = sets;
        }
        let mut calls = Vec::new();
        for expr in outputs {
            aggregate_calls(expr, &mut calls);
        }
        for call in calls {
            let text = call.to_string();
            if grouping.aggregates.iter().any(|(t, _)| *t == text) {
                continue;
            }
            grouping.aggregates.push((text, bind_call(input, &call)?));
        }
        Ok(grouping)
    }

    /// `GROUPING(key)`: where its flag is in the grouped row (0 without
    /// grouping sets, so None); Msg 8161 when `key` is not a GROUP BY key.
    pub fn grouping_flag(&self, key: &ast::Expr) -> SqlResult<Option<usize>> {
        let text = key.to_string();
        let Some(index) = self.keys.iter().position(|(t, _)| *t == text) else {
            return Err(SqlError::new(
                8161,
                16,
                1,
                "Argument 1 of the GROUPING function does not match any of the expressions in the GROUP BY clause.",
            ));
        };
        Ok((!self.sets.is_empty()).then(|| self.keys.len() + self.aggregates.len() + index))
    }

    /// The position in the grouped row of an expression that is a key or
    /// an aggregate call, and its type.
    pub fn position(&self, expr: &ast::Expr) -> Option<(usize, DataType)> {
        let text = expr.to_string();
        if let Some(index) = self.keys.iter().position(|(t, _)| *t == text) {
            return Some((index, self.keys[index].1.data_type));
        }
        self.aggregates
            .iter()
            .position(|(t, _)| *t == text)
            .map(|index| {
                (
                    self.keys.len() + index,
                    self.aggregates[index].1.result_type,
                )
            })
    }
}

fn is_rollup_or_cube(item: &ast::Expr) -> bool {
    matches!(&item.kind, ExprKind::Function(call)
        if call.name.parts.len() == 1
            && matches!(call.name.name().value.to_ascii_uppercase().as_str(), "ROLLUP" | "CUBE"))
}

/// Msg 10715: more grouping sets than SQL Server allows.
fn too_many_sets() -> SqlError {
    SqlError::new(
        10715,
        16,
        1,
        "Too many grouping sets. The maximum number is 4096.",
    )
}

/// True if a query needs grouping: GROUP BY, or an aggregate in its
/// select list.
pub fn is_grouped(group_by: &[ast::Expr], outputs: &[&ast::Expr]) -> bool {
    !group_by.is_empty() || outputs.iter().any(|expr| contains_aggregate(expr))
}

fn bind_call(input: &Binder, expr: &ast::Expr) -> SqlResult<AggregateCall> {
    let ExprKind::Function(call) = &expr.kind else {
        unreachable!("aggregate_calls collects calls only");
    };
    if call.args.iter().any(contains_aggregate) {
        return Err(SqlError::new(
            130,
            16,
            1,
            "Cannot perform an aggregate function on an expression containing an aggregate or a subquery.",
        ));
    }
    bind_aggregate(input, expr)
}

/// An aggregate call, its argument bound with `input`: the FROM row for a
/// grouped query, the grouped row for a window aggregate (where
/// `SUM(COUNT(*)) OVER ()` is allowed).
pub(crate) fn bind_aggregate(input: &Binder, expr: &ast::Expr) -> SqlResult<AggregateCall> {
    let ExprKind::Function(call) = &expr.kind else {
        unreachable!("callers pass calls only");
    };
    let function = AggregateFunction::from_name(&call.name.name().value)
        .expect("callers pass aggregates only");
    let counting = matches!(
        function,
        AggregateFunction::Count | AggregateFunction::CountBig
    );
    let argument = match (call.star, call.args.as_slice()) {
        (true, []) if counting => None,
        (false, [argument]) => Some(input.scalar(argument)?),
        _ => {
            return Err(SqlError::new(
                174,
                15,
                1,
                format!(
                    "The {} function requires 1 argument(s).",
                    call.name.name().value.to_ascii_lowercase()
                ),
            ))
        }
    };
    let result_type = match (&function, &argument) {
        (AggregateFunction::Count, _) => DataType::Int,
        (AggregateFunction::CountBig, _) => DataType::BigInt,
        (AggregateFunction::Min | AggregateFunction::Max, Some(argument)) => argument.data_type,
        (AggregateFunction::Sum | AggregateFunction::Avg, Some(argument)) => {
            sum_type(function, &argument.data_type, &call.name.name().value)?
        }
        _ => unreachable!("only COUNT takes *"),
    };
    Ok(AggregateCall {
        function,
        argument,
        distinct: call.distinct,
        result_type,
    })
}

/// SUM and AVG result types: integers widen to int (bigint stays),
/// decimal(p, s) to decimal(38, s) (AVG: scale at least 6), money and float
/// stay; anything else is Msg 8117.
fn sum_type(function: AggregateFunction, input: &DataType, name: &str) -> SqlResult<DataType> {
    Ok(match *input {
        DataType::TinyInt | DataType::SmallInt | DataType::Int => DataType::Int,
        DataType::BigInt => DataType::BigInt,
        DataType::Decimal { scale, .. } => DataType::Decimal {
            precision: 38,
            scale: if function == AggregateFunction::Avg {
                scale.max(6)
            } else {
                scale
            },
        },
        DataType::Money | DataType::SmallMoney => DataType::Money,
        DataType::Float | DataType::Real => DataType::Float,
        _ => {
            return Err(SqlError::new(
                8117,
                16,
                1,
                format!(
                    "Operand data type {} is invalid for {} operator.",
                    input.sql_name().split('(').next().unwrap_or_default(),
                    name.to_ascii_lowercase()
                ),
            ))
        }
    })
}

fn is_aggregate_call(expr: &ast::Expr) -> bool {
    matches!(&expr.kind, ExprKind::Function(call)
        if call.over.is_none() && AggregateFunction::from_name(&call.name.name().value).is_some())
}

pub fn contains_aggregate(expr: &ast::Expr) -> bool {
    let mut calls = Vec::new();
    aggregate_calls(expr, &mut calls);
    !calls.is_empty()
}

/// The outermost aggregate calls in `expr` (subqueries are their own
/// scope and are not searched).
fn aggregate_calls(expr: &ast::Expr, out: &mut Vec<ast::Expr>) {
    if is_aggregate_call(expr) {
        out.push(expr.clone());
        return;
    }
    for child in children(expr) {
        aggregate_calls(child, out);
    }
}

/// The direct sub-expressions of `expr` (not those inside subqueries).
pub(crate) fn children(expr: &ast::Expr) -> Vec<&ast::Expr> {
    match &expr.kind {
        ExprKind::Unary { operand, .. } => vec![operand],
        ExprKind::Binary { left, right, .. } => vec![left, right],
        ExprKind::Between {
            expr, low, high, ..
        } => vec![expr, low, high],
        ExprKind::InList { expr, list, .. } => std::iter::once(&**expr).chain(list).collect(),
        ExprKind::Like {
            expr,
            pattern,
            escape,
            ..
        } => [Some(&**expr), Some(&**pattern), escape.as_deref()]
            .into_iter()
            .flatten()
            .collect(),
        ExprKind::IsNull { expr, .. }
        | ExprKind::Cast { expr, .. }
        | ExprKind::Collate { expr, .. }
        | ExprKind::InSubquery { expr, .. }
        | ExprKind::Quantified { expr, .. } => vec![expr],
        ExprKind::Convert { expr, style, .. } => {
            std::iter::once(&**expr).chain(style.as_deref()).collect()
        }
        ExprKind::AtTimeZone { expr, zone } => vec![expr, zone],
        ExprKind::Case {
            operand,
            whens,
            else_result,
        } => operand
            .as_deref()
            .into_iter()
            .chain(whens.iter().flat_map(|(when, then)| [when, then]))
            .chain(else_result.as_deref())
            .collect(),
        ExprKind::Function(call) => call.args.iter().collect(),
        _ => Vec::new(),
    }
}
