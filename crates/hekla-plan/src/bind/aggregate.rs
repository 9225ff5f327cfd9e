//! Grouping: GROUP BY keys and aggregate calls (COUNT, COUNT_BIG, SUM, AVG,
//! MIN, MAX), bound over the FROM scope. Expressions after grouping (the
//! select list, HAVING) read a row of key values followed by aggregate
//! results; the binder maps a GROUP BY expression or an aggregate call to
//! its place in that row by its canonical printed text, so `a+b` in the
//! select list matches `GROUP BY a + b`.

use super::expr::{implicit, Binder, Scalar, ScalarKind};
use hekla_parser::ast::{self, ExprKind};
use hekla_types::ops::ArithOp;
use hekla_types::{DataType, SqlError, SqlResult, Value};

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
    /// The distinct GROUP BY expressions, in the order first written.
    pub keys: Vec<(String, Scalar)>,
    pub aggregates: Vec<(String, AggregateCall)>,
    /// With ROLLUP, CUBE or GROUPING SETS: the grouping sets, each saying
    /// which keys it groups by (the others are NULL in its rows); the same
    /// set may come more than once, making its groups twice. Empty for a
    /// plain GROUP BY, which is the one set of all keys. With sets, a
    /// grouped row ends with one GROUPING() flag per key (1: rolled up).
    pub sets: Vec<Vec<bool>>,
}

/// The most grouping sets one GROUP BY may make, as in SQL Server.
const MAX_GROUPING_SETS: usize = 4096;
/// The most distinct expressions a GROUP BY with grouping sets may have.
const MAX_GROUPING_SET_KEYS: usize = 32;

/// Grouping sets as lists of key positions.
type Sets = Vec<Vec<usize>>;

impl Grouping {
    /// Binds GROUP BY keys and the aggregate calls found in `outputs` (the
    /// select list and HAVING) with `input`, the FROM-scope binder.
    pub fn bind(
        input: &Binder,
        group_by: &[ast::GroupByItem],
        outputs: &[&ast::Expr],
    ) -> SqlResult<Self> {
        let mut grouping = Grouping::default();
        let mut keys = KeyList {
            input,
            keys: &mut grouping.keys,
        };
        let sets = product(&keys.each(group_by)?)?;
        let with_sets = group_by
            .iter()
            .any(|item| !matches!(item, ast::GroupByItem::Expr(_)));
        if with_sets && grouping.keys.len() > MAX_GROUPING_SET_KEYS {
            return Err(SqlError::new(
                10707,
                15,
                1,
                format!("Too many expressions are specified in the GROUP BY clause. The maximum number is {MAX_GROUPING_SET_KEYS} when grouping sets are supplied."),
            ));
        }
        let kept: Vec<Vec<bool>> = sets
            .iter()
            .map(|set| (0..grouping.keys.len()).map(|k| set.contains(&k)).collect())
            .collect();
        // One set of every key is a plain GROUP BY.
        if !matches!(kept.as_slice(), [all] if all.iter().all(|&k| k)) {
            grouping.sets = kept;
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

    /// Columns of a grouped row: keys, aggregate results and, with
    /// grouping sets, one GROUPING() flag per key.
    pub fn width(&self) -> usize {
        let flags = if self.sets.is_empty() {
            0
        } else {
            self.keys.len()
        };
        self.keys.len() + self.aggregates.len() + flags
    }

    /// `GROUPING(key)` or `GROUPING_ID(key, ...)` read from the grouped
    /// row; None when `call` is neither.
    pub fn grouping_function(&self, call: &ast::FunctionCall) -> SqlResult<Option<Scalar>> {
        if call.name.parts.len() != 1 || call.over.is_some() {
            return Ok(None);
        }
        let name = call.name.name().value.to_ascii_uppercase();
        match name.as_str() {
            "GROUPING" => match call.args.as_slice() {
                [key] if !call.star && !call.distinct => {
                    self.grouping_flag(key, 1, "GROUPING").map(Some)
                }
                _ => Err(SqlError::new(
                    174,
                    15,
                    1,
                    "The grouping function requires 1 argument(s).",
                )),
            },
            "GROUPING_ID" if !call.args.is_empty() => self.grouping_id(&call.args).map(Some),
            _ => Ok(None),
        }
    }

    /// `GROUPING(key)`: tinyint 1 in rows where `key` is rolled up; the
    /// constant 0 without grouping sets. Msg 8161 when `key` is not a
    /// GROUP BY expression (`function`'s argument `number`).
    fn grouping_flag(&self, key: &ast::Expr, number: usize, function: &str) -> SqlResult<Scalar> {
        let text = key.to_string();
        let Some(index) = self.keys.iter().position(|(t, _)| *t == text) else {
            return Err(SqlError::new(
                8161,
                15,
                1,
                format!("Argument {number} of the {function} function does not match any of the expressions in the GROUP BY clause."),
            ));
        };
        let kind = if self.sets.is_empty() {
            ScalarKind::Constant(Value::TinyInt(0))
        } else {
            ScalarKind::Column(self.keys.len() + self.aggregates.len() + index)
        };
        Ok(Scalar {
            kind,
            data_type: DataType::TinyInt,
        })
    }

    /// `GROUPING_ID(a, b, ...)`: the GROUPING() flags as the bits of an
    /// int, `a`'s the highest: the OR of each flag times its bit's value.
    fn grouping_id(&self, args: &[ast::Expr]) -> SqlResult<Scalar> {
        let constant = |n: i32| Scalar {
            kind: ScalarKind::Constant(Value::Int(n)),
            data_type: DataType::Int,
        };
        let arithmetic = |op: ArithOp, left: Scalar, right: Scalar| Scalar {
            kind: ScalarKind::Arithmetic {
                op,
                left: Box::new(left),
                right: Box::new(right),
            },
            data_type: DataType::Int,
        };
        let mut bits = Vec::new();
        for (position, arg) in args.iter().enumerate() {
            let flag = self.grouping_flag(arg, position + 1, "GROUPING_ID")?;
            // The last argument is bit 0; bits past 31 fall off, as an int's.
            let shift = (args.len() - 1 - position) as u32;
            let value = 1u32.checked_shl(shift).unwrap_or(0) as i32;
            if !matches!(flag.kind, ScalarKind::Constant(_)) && value != 0 {
                bits.push(arithmetic(
                    ArithOp::Multiply,
                    implicit(flag, &DataType::Int)?,
                    constant(value),
                ));
            }
        }
        Ok(bits
            .into_iter()
            .reduce(|all, bit| arithmetic(ArithOp::BitOr, all, bit))
            .unwrap_or_else(|| constant(0)))
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

/// GROUP BY's keys as they are met, each bound once, and the grouping sets
/// the items make of them.
struct KeyList<'k, 'b> {
    input: &'k Binder<'b>,
    keys: &'k mut Vec<(String, Scalar)>,
}

impl KeyList<'_, '_> {
    /// The position of `expr` among the keys, bound and added if new.
    fn key(&mut self, expr: &ast::Expr) -> SqlResult<usize> {
        if contains_aggregate(expr) {
            return Err(SqlError::new(
                144,
                15,
                1,
                "Cannot use an aggregate or a subquery in an expression used for the group by list of a GROUP BY clause.",
            ));
        }
        let text = expr.to_string();
        if let Some(index) = self.keys.iter().position(|(t, _)| *t == text) {
            return Ok(index);
        }
        let scalar = self.input.scalar(expr)?;
        self.keys.push((text, scalar));
        Ok(self.keys.len() - 1)
    }

    /// The sets `item` makes, in SQL Server's order.
    fn sets(&mut self, item: &ast::GroupByItem) -> SqlResult<Sets> {
        use ast::GroupByItem as Item;
        match item {
            Item::Expr(expr) => Ok(vec![vec![self.key(expr)?]]),
            Item::Composite(parts) => product(&self.each(parts)?),
            // (a, b, c), (a, b), (a), ().
            Item::Rollup(parts) => {
                let parts = self.each(parts)?;
                let mut sets = Vec::new();
                for end in (0..=parts.len()).rev() {
                    sets.extend(product(&parts[..end])?);
                    check_count(sets.len())?;
                }
                Ok(sets)
            }
            // Every subset, the first part's presence the highest bit.
            Item::Cube(parts) => {
                let parts = self.each(parts)?;
                let subsets = u32::try_from(parts.len())
                    .ok()
                    .and_then(|n| 1usize.checked_shl(n))
                    .filter(|&n| n <= MAX_GROUPING_SETS)
                    .ok_or_else(too_many_sets)?;
                let mut sets = Vec::new();
                for mask in (0..subsets).rev() {
                    let chosen = parts
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| mask & (subsets >> (i + 1)) != 0)
                        .map(|(_, part)| part);
                    sets.extend(product(chosen)?);
                    check_count(sets.len())?;
                }
                Ok(sets)
            }
            Item::GroupingSets(listed) => {
                let mut sets = Vec::new();
                for set in listed {
                    sets.extend(self.sets(set)?);
                    check_count(sets.len())?;
                }
                Ok(sets)
            }
        }
    }

    /// Each item's sets.
    fn each(&mut self, items: &[ast::GroupByItem]) -> SqlResult<Vec<Sets>> {
        items.iter().map(|item| self.sets(item)).collect()
    }
}

/// The cross product of the parts' sets: each combination of one set per
/// part, joined.
fn product<'s>(parts: impl IntoIterator<Item = &'s Sets>) -> SqlResult<Sets> {
    let mut product: Sets = vec![Vec::new()];
    for choices in parts {
        check_count(product.len().saturating_mul(choices.len()))?;
        product = product
            .iter()
            .flat_map(|set| {
                choices.iter().map(move |choice| {
                    let mut joined = set.clone();
                    joined.extend(choice);
                    joined
                })
            })
            .collect();
    }
    Ok(product)
}

fn check_count(sets: usize) -> SqlResult<()> {
    if sets > MAX_GROUPING_SETS {
        return Err(too_many_sets());
    }
    Ok(())
}

/// Msg 10705: more grouping sets than SQL Server allows.
fn too_many_sets() -> SqlError {
    SqlError::new(
        10705,
        15,
        1,
        format!("Too many grouping sets. The maximum number is {MAX_GROUPING_SETS}."),
    )
}

/// True if a query needs grouping: GROUP BY, or an aggregate, GROUPING()
/// or GROUPING_ID() in its select list (without GROUP BY, the latter
/// two's arguments match no key: Msg 8161).
pub fn is_grouped(group_by: &[ast::GroupByItem], outputs: &[&ast::Expr]) -> bool {
    !group_by.is_empty()
        || outputs
            .iter()
            .any(|expr| contains_aggregate(expr) || contains_grouping_function(expr))
}

fn contains_grouping_function(expr: &ast::Expr) -> bool {
    let is_grouping = matches!(&expr.kind, ExprKind::Function(call)
        if call.name.parts.len() == 1
            && call.over.is_none()
            && matches!(call.name.name().value.to_ascii_uppercase().as_str(), "GROUPING" | "GROUPING_ID"));
    is_grouping || children(expr).into_iter().any(contains_grouping_function)
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
        if call.over.is_none()
            && call.name.parts.len() == 1
            && AggregateFunction::from_name(&call.name.name().value).is_some())
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
pub fn children(expr: &ast::Expr) -> Vec<&ast::Expr> {
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
