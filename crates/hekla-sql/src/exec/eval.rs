//! Evaluating bound expressions. Types were settled by the binder; here
//! only values move: conversions, operators, three-valued logic.

use crate::bind::expr::{Predicate, Scalar, ScalarKind};
use hekla_types::convert::{convert_from, try_convert};
use hekla_types::{ops, SqlResult, Value};

/// What an expression reads: the current input row (empty without FROM)
/// and the batch's variables.
#[derive(Clone, Copy)]
pub struct Inputs<'a> {
    pub row: &'a [Value],
    pub variables: &'a [Value],
}

impl Scalar {
    pub fn eval(&self, row: &Inputs<'_>) -> SqlResult<Value> {
        match &self.kind {
            ScalarKind::Constant(value) => Ok(value.clone()),
            ScalarKind::Column(index) => Ok(row.row[*index].clone()),
            ScalarKind::Variable(slot) => Ok(row.variables[*slot].clone()),
            ScalarKind::Arithmetic { op, left, right } => {
                ops::arithmetic(*op, &left.eval(row)?, &right.eval(row)?, &self.data_type)
            }
            ScalarKind::Concat(left, right) => {
                let joined = ops::concat(&left.eval(row)?, &right.eval(row)?);
                convert_from(&joined, &self.data_type, &self.data_type, None)
            }
            ScalarKind::Negate(operand) => ops::negate(&operand.eval(row)?, &self.data_type),
            ScalarKind::BitNot(operand) => ops::bit_not(&operand.eval(row)?, &self.data_type),
            ScalarKind::Convert {
                operand,
                style,
                is_try,
            } => {
                let value = operand.eval(row)?;
                if *is_try {
                    try_convert(&value, &operand.data_type, &self.data_type, *style)
                } else {
                    convert_from(&value, &operand.data_type, &self.data_type, *style)
                }
            }
            ScalarKind::Builtin { function, args } => {
                let values = args
                    .iter()
                    .map(|arg| arg.eval(row))
                    .collect::<SqlResult<Vec<Value>>>()?;
                super::functions::evaluate(*function, &values, &self.data_type)
            }
            ScalarKind::Case { whens, otherwise } => {
                for (condition, result) in whens {
                    if condition.eval(row)? == Some(true) {
                        return result.eval(row);
                    }
                }
                otherwise.eval(row)
            }
        }
    }
}

impl Predicate {
    /// TRUE, FALSE or UNKNOWN (`None`).
    pub fn eval(&self, row: &Inputs<'_>) -> SqlResult<Option<bool>> {
        Ok(match self {
            Predicate::Compare {
                op,
                left,
                right,
                collation,
            } => ops::compare(&left.eval(row)?, &right.eval(row)?, *collation)
                .map(|ordering| op.holds(ordering)),
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
        })
    }
}
