//! Mathematical functions. ABS, FLOOR and CEILING keep their argument's
//! type (FLOOR and CEILING drop a decimal's scale); ROUND and SIGN widen
//! small integers to int, smallmoney to money and real to float; POWER
//! answers in its first argument's type; the rest are float. Strings
//! convert to float; bit, dates and the rest are Msg 8116.

use super::{call, convert, invalid_argument, is_text, Builtin};
use crate::bind::expr::{Binder, Scalar};
use hekla_parser::ast;
use hekla_types::decimal::MAX_PRECISION;
use hekla_types::{ops, DataType, SqlResult};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MathFn {
    Abs,
    Round,
    Floor,
    Ceiling,
    Sign,
    Power,
    Sqrt,
    Square,
    Exp,
    Log,
    Log10,
    Pi,
    Rand,
}

impl MathFn {
    /// The function's name, lowercase.
    pub fn name(self) -> &'static str {
        match self {
            MathFn::Abs => "abs",
            MathFn::Round => "round",
            MathFn::Floor => "floor",
            MathFn::Ceiling => "ceiling",
            MathFn::Sign => "sign",
            MathFn::Power => "power",
            MathFn::Sqrt => "sqrt",
            MathFn::Square => "square",
            MathFn::Exp => "exp",
            MathFn::Log => "log",
            MathFn::Log10 => "log10",
            MathFn::Pi => "pi",
            MathFn::Rand => "rand",
        }
    }
}

impl Binder<'_> {
    pub(super) fn math_function(
        &self,
        name: &str,
        args: &[ast::Expr],
    ) -> Option<SqlResult<Scalar>> {
        let (function, min, max) = match name {
            "ABS" => (MathFn::Abs, 1, 1),
            "ROUND" => (MathFn::Round, 2, 3),
            "FLOOR" => (MathFn::Floor, 1, 1),
            "CEILING" => (MathFn::Ceiling, 1, 1),
            "SIGN" => (MathFn::Sign, 1, 1),
            "POWER" => (MathFn::Power, 2, 2),
            "SQRT" => (MathFn::Sqrt, 1, 1),
            "SQUARE" => (MathFn::Square, 1, 1),
            "EXP" => (MathFn::Exp, 1, 1),
            "LOG" => (MathFn::Log, 1, 2),
            "LOG10" => (MathFn::Log10, 1, 1),
            "PI" => (MathFn::Pi, 0, 0),
            "RAND" => (MathFn::Rand, 0, 1),
            _ => return None,
        };
        Some(
            self.arguments_between(name, args, min, max)
                .and_then(|bound| bind_math(function, &name.to_ascii_lowercase(), bound)),
        )
    }
}

fn bind_math(function: MathFn, name: &str, args: Vec<Scalar>) -> SqlResult<Scalar> {
    use DataType as T;
    let mut args = args.into_iter();
    let mut converted = Vec::new();
    let data_type = match function {
        MathFn::Abs => {
            let value = args.next().expect("one argument");
            let data_type = value.data_type;
            if is_text(&data_type) || ops::negate_type(&data_type).is_err() {
                return Err(invalid_argument(&data_type, 1, name));
            }
            converted.push(value);
            data_type
        }
        MathFn::Round | MathFn::Sign => {
            let value = args.next().expect("the value");
            let data_type = match numeric(&value.data_type, 1, name)? {
                T::TinyInt | T::SmallInt => T::Int,
                T::SmallMoney => T::Money,
                T::Real => T::Float,
                T::Decimal { precision, scale } if function == MathFn::Sign => T::Decimal {
                    // Room for the 1 a decimal(p, p) cannot hold.
                    precision: precision.max(scale + 1).min(MAX_PRECISION),
                    scale,
                },
                other => other,
            };
            converted.push(convert(value, &data_type)?);
            for (position, length) in (2..).zip(args) {
                if !matches!(
                    length.data_type,
                    T::TinyInt | T::SmallInt | T::Int | T::BigInt
                ) {
                    return Err(invalid_argument(&length.data_type, position, name));
                }
                converted.push(convert(length, &T::Int)?);
            }
            data_type
        }
        MathFn::Floor | MathFn::Ceiling => {
            let value = args.next().expect("one argument");
            let operand_type = numeric(&value.data_type, 1, name)?;
            converted.push(convert(value, &operand_type)?);
            match operand_type {
                T::Decimal { precision, .. } => T::Decimal {
                    precision,
                    scale: 0,
                },
                other => other,
            }
        }
        MathFn::Power => {
            let base = args.next().expect("the base");
            let base_type = match base.data_type {
                T::Bit => T::Float,
                _ => numeric(&base.data_type, 1, name)?,
            };
            let data_type = match base_type {
                T::TinyInt | T::SmallInt | T::Int => T::Int,
                T::SmallMoney | T::Money => T::Money,
                T::Decimal { scale, .. } => T::Decimal {
                    precision: MAX_PRECISION,
                    scale,
                },
                T::BigInt => T::BigInt,
                _ => T::Float,
            };
            converted.push(convert(base, &T::Float)?);
            let exponent = args.next().expect("the exponent");
            numeric(&exponent.data_type, 2, name)?;
            converted.push(convert(exponent, &T::Float)?);
            data_type
        }
        _ => {
            for (position, value) in (1..).zip(args) {
                if function == MathFn::Rand {
                    converted.push(convert(value, &T::Int)?);
                } else {
                    numeric(&value.data_type, position, name)?;
                    converted.push(convert(value, &T::Float)?);
                }
            }
            T::Float
        }
    };
    Ok(call(Builtin::Math(function), converted, data_type))
}

/// The numeric type a math function reads: numbers as they are, strings
/// as float; Msg 8116 for bit and non-numbers.
fn numeric(t: &DataType, position: usize, function: &str) -> SqlResult<DataType> {
    use DataType as T;
    match t {
        T::TinyInt
        | T::SmallInt
        | T::Int
        | T::BigInt
        | T::Decimal { .. }
        | T::Money
        | T::SmallMoney
        | T::Float
        | T::Real => Ok(*t),
        _ if is_text(t) => Ok(T::Float),
        _ => Err(invalid_argument(t, position, function)),
    }
}
