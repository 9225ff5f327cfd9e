//! Evaluating bound expressions. Types were settled by the binder; here
//! only values move: conversions, operators, three-valued logic, and
//! subqueries run against the statement's transaction.

use super::context::Context;
use crate::functions::matching::Matcher;
use hekla_plan::bind::expr::{Predicate, Scalar, ScalarKind};
use hekla_plan::bind::subquery::SubqueryRef;
use hekla_types::convert::{convert_from, convert_under, try_convert_under};
use hekla_types::{ops, SqlError, SqlResult, Value};
use std::ops::ControlFlow;

/// What an expression reads: the current row (empty without FROM), the
/// rows of the queries it is nested in (for outer references), and the
/// statement's context (variables, transaction).
#[derive(Clone, Copy)]
pub struct Inputs<'a> {
    pub row: &'a [Value],
    pub outer: Option<&'a Inputs<'a>>,
    pub context: &'a Context<'a>,
}

impl<'a> Inputs<'a> {
    /// No row: a statement's top level.
    pub fn top(context: &'a Context<'a>) -> Self {
        Inputs {
            row: &[],
            outer: None,
            context,
        }
    }

    /// The same outer rows and context with another current row.
    pub fn with_row(&self, row: &'a [Value]) -> Self {
        Inputs { row, ..*self }
    }

    /// The row `depth` queries out.
    fn outer_row(&self, depth: usize) -> &'a [Value] {
        let mut inputs = *self;
        for _ in 0..depth {
            inputs = *inputs.outer.expect("the binder checked the nesting depth");
        }
        inputs.row
    }
}

/// Evaluating a bound expression or predicate against a row: the
/// executor's half of the model's [`Scalar`] and [`Predicate`] (the model
/// is data; how it runs is here).
pub trait Evaluate {
    /// A value for an expression; TRUE, FALSE or UNKNOWN (`None`) for a
    /// predicate.
    type Output;
    fn eval(&self, row: &Inputs<'_>) -> SqlResult<Self::Output>;
}

impl Evaluate for Scalar {
    type Output = Value;

    fn eval(&self, row: &Inputs<'_>) -> SqlResult<Value> {
        let context = row.context;
        match &self.kind {
            ScalarKind::Constant(value) => Ok(value.clone()),
            ScalarKind::Column(index) => Ok(row.row[*index].clone()),
            ScalarKind::Outer { depth, index } => Ok(row.outer_row(*depth)[*index].clone()),
            ScalarKind::Variable(slot) => Ok(context.variable(*slot)),
            ScalarKind::Arithmetic { op, left, right } => {
                let (left, right) = (left.eval(row)?, right.eval(row)?);
                joined_fits(context, &left, &right)?;
                context.arithmetic(ops::arithmetic(*op, &left, &right, &self.data_type))
            }
            ScalarKind::Concat(left, right) => {
                let (left, right) = (left.eval(row)?, right.eval(row)?);
                joined_fits(context, &left, &right)?;
                // SET CONCAT_NULL_YIELDS_NULL OFF: NULL joins as ''.
                let joined = match (left, right) {
                    (Value::Null, other) | (other, Value::Null)
                        if !context.options.concat_null_yields_null =>
                    {
                        other
                    }
                    (left, right) => ops::concat(&left, &right),
                };
                convert_from(&joined, &self.data_type, &self.data_type, None)
            }
            ScalarKind::Negate(operand) => {
                let operand = operand.eval(row)?;
                context.arithmetic(ops::negate(&operand, &self.data_type))
            }
            ScalarKind::BitNot(operand) => ops::bit_not(&operand.eval(row)?, &self.data_type),
            ScalarKind::Convert {
                operand,
                style,
                is_try,
            } => {
                let value = operand.eval(row)?;
                let (source, format) = (&operand.data_type, context.options.date_format);
                if *is_try {
                    try_convert_under(&value, source, &self.data_type, *style, format)
                } else {
                    context.arithmetic(convert_under(
                        &value,
                        source,
                        &self.data_type,
                        *style,
                        format,
                    ))
                }
            }
            ScalarKind::Builtin { function, args } => {
                let values = args
                    .iter()
                    .map(|arg| arg.eval(row))
                    .collect::<SqlResult<Vec<Value>>>()?;
                context.arithmetic(super::functions::evaluate(
                    *function,
                    &values,
                    &self.data_type,
                    &context.options,
                    context.memory_for_value(),
                ))
            }
            ScalarKind::RuntimeConstant { id, call } => {
                context.runtime_constant(*id, || call.eval(row))
            }
            ScalarKind::Server { function, args } => {
                let values = args
                    .iter()
                    .map(|arg| arg.eval(row))
                    .collect::<SqlResult<Vec<Value>>>()?;
                super::server::evaluate(*function, &values, &self.data_type, row.context)
            }
            ScalarKind::Case { whens, otherwise } => {
                for (condition, result) in whens {
                    if condition.eval(row)? == Some(true) {
                        return result.eval(row);
                    }
                }
                otherwise.eval(row)
            }
            ScalarKind::NextValue(sequence) => sequence.0.next_value(row.context.engine()),
            ScalarKind::UserFunction(call) => super::scalar_function::call(call, row),
            ScalarKind::Subquery(subquery) => {
                let mut first = None;
                let mut count = 0;
                subquery_rows(subquery, row, &mut |values| {
                    count += 1;
                    if count > 1 {
                        return ControlFlow::Break(());
                    }
                    first = values.first().cloned();
                    ControlFlow::Continue(())
                })?;
                if count > 1 {
                    return Err(SqlError::new(
                        512,
                        16,
                        1,
                        "Subquery returned more than 1 value. This is not permitted when the subquery follows =, !=, <, <= , >, >= or when the subquery is used as an expression.",
                    ));
                }
                Ok(first.unwrap_or(Value::Null))
            }
        }
    }
}

impl Evaluate for Predicate {
    type Output = Option<bool>;

    /// TRUE, FALSE or UNKNOWN (`None`).
    fn eval(&self, row: &Inputs<'_>) -> SqlResult<Option<bool>> {
        Ok(match self {
            Predicate::Compare {
                op,
                left,
                right,
                collation,
            } => ops::compare(&left.eval(row)?, &right.eval(row)?, *collation)
                .map(|ordering| op.holds(ordering)),
            Predicate::CompareNullsEqual {
                equal,
                left,
                right,
                collation,
                null_sides,
            } => {
                let (left, right) = (left.eval(row)?, right.eval(row)?);
                let null_side =
                    (null_sides[0] && left.is_null()) || (null_sides[1] && right.is_null());
                if null_side {
                    Some((left.is_null() && right.is_null()) == *equal)
                } else {
                    ops::compare(&left, &right, *collation)
                        .map(|ordering| ordering.is_eq() == *equal)
                }
            }
            Predicate::And(left, right) => match left.eval(row)? {
                Some(false) => Some(false),
                l => match (l, right.eval(row)?) {
                    (_, Some(false)) => Some(false),
                    (Some(true), Some(true)) => Some(true),
                    _ => None,
                },
            },
            Predicate::Or(left, right) => match left.eval(row)? {
                Some(true) => Some(true),
                l => match (l, right.eval(row)?) {
                    (_, Some(true)) => Some(true),
                    (Some(false), Some(false)) => Some(false),
                    _ => None,
                },
            },
            Predicate::Not(operand) => operand.eval(row)?.map(|truth| !truth),
            Predicate::IsNull { operand, negated } => {
                Some(operand.eval(row)?.is_null() != *negated)
            }
            Predicate::Like {
                operand,
                pattern,
                escape,
                collation,
            } => {
                let (text, pattern) = (operand.eval(row)?, pattern.eval(row)?);
                let escape = match escape {
                    Some(escape) => match escape.eval(row)? {
                        Value::Null => return Ok(None),
                        Value::String(e) if e.chars().count() == 1 => e.chars().next(),
                        other => {
                            return Err(SqlError::new(
                                506,
                                16,
                                1,
                                format!("The invalid escape character \"{other}\" was specified in a LIKE predicate."),
                            ))
                        }
                    },
                    None => None,
                };
                match (text, pattern) {
                    (Value::String(text), Value::String(pattern)) => {
                        Some(Matcher::new(*collation).like_match(&text, &pattern, escape))
                    }
                    _ => None, // NULL on either side
                }
            }
            Predicate::Exists(subquery) => {
                let mut any = false;
                subquery_rows(subquery, row, &mut |_| {
                    any = true;
                    ControlFlow::Break(())
                })?;
                Some(any)
            }
            Predicate::Quantified {
                operand,
                op,
                all,
                subquery,
                common,
                collation,
            } => {
                let value = operand.eval(row)?;
                let source = subquery.0.plan.columns[0].data_type;
                // ANY: TRUE on the first match; ALL: FALSE on the first
                // miss; otherwise UNKNOWN if any comparison was.
                let decisive = !*all;
                let mut unknown = false;
                let mut decided = false;
                let mut failure = None;
                subquery_rows(subquery, row, &mut |values| {
                    let date_format = row.context.options.date_format;
                    let item = match convert_under(&values[0], &source, common, None, date_format) {
                        Ok(item) => item,
                        Err(error) => {
                            failure = Some(error);
                            return ControlFlow::Break(());
                        }
                    };
                    match ops::compare(&value, &item, *collation).map(|o| op.holds(o)) {
                        Some(truth) if truth == decisive => {
                            decided = true;
                            ControlFlow::Break(())
                        }
                        Some(_) => ControlFlow::Continue(()),
                        None => {
                            unknown = true;
                            ControlFlow::Continue(())
                        }
                    }
                })?;
                if let Some(error) = failure {
                    return Err(error);
                }
                if decided {
                    Some(decisive)
                } else if unknown {
                    None
                } else {
                    Some(!decisive)
                }
            }
        })
    }
}

/// Runs a subquery for the current row, handing its rows to `visit` until
/// it breaks. One that reads no outer column runs once per statement.
fn subquery_rows(
    subquery: &SubqueryRef,
    inputs: &Inputs<'_>,
    visit: &mut dyn FnMut(&[Value]) -> ControlFlow<()>,
) -> SqlResult<()> {
    let root = &subquery.0.plan.root;
    if subquery.0.is_correlated() {
        let params = Inputs {
            row: &[],
            outer: Some(inputs),
            context: inputs.context,
        };
        return super::run::run(root, &params, &mut |row| Ok(visit(row))).map(|_| ());
    }
    let context = inputs.context;
    let rows = context.cached_rows(subquery.key(), || {
        super::run::collect(root, &Inputs::top(context))
    })?;
    for row in rows.iter() {
        if visit(row).is_break() {
            break;
        }
    }
    Ok(())
}

/// Msg 701 when joining two strings (or binaries) would build a value
/// larger than the request's memory allows.
fn joined_fits(context: &Context, left: &Value, right: &Value) -> SqlResult<()> {
    let size = |value: &Value| match value {
        Value::String(text) => text.len() as u64,
        Value::Binary(bytes) => bytes.len() as u64,
        _ => 0,
    };
    let joined = size(left) + size(right);
    // Small values cannot pass any limit worth having: no need to look.
    if joined > SMALL_VALUE && joined > context.memory_for_value() {
        return Err(hekla_engine::errors::insufficient_system_memory());
    }
    Ok(())
}

/// Values up to this size are never checked against the memory limit.
const SMALL_VALUE: u64 = 1 << 20;
