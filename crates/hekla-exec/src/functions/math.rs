//! Mathematical functions. Exact types round exactly (half away from
//! zero, as SQL Server does); float results that are not finite are Msg
//! 3623.

use super::{float, integer, random};
use hekla_plan::bind::functions::MathFn;
use hekla_types::convert::convert_from;
use hekla_types::{ops, DataType, Decimal, Money, SqlError, SqlResult, Value};

pub(super) fn evaluate(
    function: MathFn,
    args: &[Value],
    result_type: &DataType,
) -> SqlResult<Value> {
    match function {
        MathFn::Abs => absolute(&args[0], result_type),
        MathFn::Round => {
            let truncate = args.get(2).is_some_and(|f| integer(f) != 0);
            round(&args[0], integer(&args[1]), truncate, result_type)
        }
        MathFn::Floor => whole(&args[0], f64::floor, i128::div_euclid),
        MathFn::Ceiling => whole(&args[0], f64::ceil, |m, unit| -(-m).div_euclid(unit)),
        MathFn::Sign => sign(&args[0], result_type),
        MathFn::Power => {
            let power = finite(float(&args[0]).powf(float(&args[1])))?;
            convert_from(&Value::Float(power), &DataType::Float, result_type, None)
        }
        MathFn::Sqrt => real(float(&args[0]).sqrt()),
        MathFn::Square => real(float(&args[0]).powi(2)),
        MathFn::Exp => real(float(&args[0]).exp()),
        MathFn::Log => {
            let value = float(&args[0]);
            let natural = logarithm(value)?;
            match args.get(1) {
                Some(base) => {
                    let base = logarithm(float(base))?;
                    real(if base == 0.0 {
                        f64::NAN
                    } else {
                        natural / base
                    })
                }
                None => Ok(Value::Float(natural)),
            }
        }
        MathFn::Log10 => {
            logarithm(float(&args[0]))?;
            real(float(&args[0]).log10())
        }
        MathFn::Pi => Ok(Value::Float(std::f64::consts::PI)),
        MathFn::Rand => Ok(Value::Float(match args.first() {
            Some(seed) if !seed.is_null() => random::seeded_rand(integer(seed)),
            _ => random::rand(),
        })),
    }
}

fn absolute(value: &Value, data_type: &DataType) -> SqlResult<Value> {
    let negative = match value {
        Value::SmallInt(v) => *v < 0,
        Value::Int(v) => *v < 0,
        Value::BigInt(v) => *v < 0,
        Value::Decimal(v) => v.mantissa < 0,
        Value::Money(v) => v.0 < 0,
        Value::Float(v) => *v < 0.0,
        Value::Real(v) => *v < 0.0,
        _ => false,
    };
    if negative {
        ops::negate(value, data_type)
    } else {
        Ok(value.clone())
    }
}

/// `ROUND(value, length [, truncate])`: to `length` places after the
/// point, or before it when negative.
fn round(value: &Value, length: i64, truncate: bool, result_type: &DataType) -> SqlResult<Value> {
    let exact = |mantissa: i128, scale: i64| -> Option<i128> {
        let dropped = scale - length;
        if dropped <= 0 {
            return Some(mantissa);
        }
        let Some(unit) = u32::try_from(dropped)
            .ok()
            .and_then(|d| 10i128.checked_pow(d))
        else {
            return Some(0);
        };
        let mut kept = mantissa / unit;
        if !truncate && (mantissa % unit).unsigned_abs() * 2 >= unit.unsigned_abs() {
            kept += mantissa.signum();
        }
        kept.checked_mul(unit)
    };
    let overflow = || SqlError::arithmetic_overflow("expression", &overflow_name(result_type));
    Ok(match value {
        Value::Int(v) => Value::Int(
            exact(i128::from(*v), 0)
                .and_then(|r| i32::try_from(r).ok())
                .ok_or_else(overflow)?,
        ),
        Value::BigInt(v) => Value::BigInt(
            exact(i128::from(*v), 0)
                .and_then(|r| i64::try_from(r).ok())
                .ok_or_else(overflow)?,
        ),
        Value::Decimal(d) => {
            let mantissa = exact(d.mantissa, i64::from(d.scale)).ok_or_else(overflow)?;
            Value::Decimal(Decimal::new(mantissa, d.precision, d.scale).map_err(|_| overflow())?)
        }
        Value::Money(m) => Value::Money(Money(
            exact(i128::from(m.0), i64::from(Money::SCALE))
                .and_then(|r| i64::try_from(r).ok())
                .ok_or_else(overflow)?,
        )),
        Value::Float(v) => Value::Float(round_float(*v, length, truncate)),
        other => unreachable!("the binder converts ROUND's argument, not {other:?}"),
    })
}

fn round_float(value: f64, length: i64, truncate: bool) -> f64 {
    let cut = |v: f64| if truncate { v.trunc() } else { v.round() };
    let Ok(places) = i32::try_from(length.clamp(-400, 400)) else {
        return value;
    };
    let unit = 10f64.powi(places.abs());
    let rounded = if places >= 0 {
        cut(value * unit) / unit
    } else {
        cut(value / unit) * unit
    };
    if rounded.is_finite() {
        rounded
    } else {
        value
    }
}

/// FLOOR and CEILING: `float_op` for float and real, `integer_op`
/// (`mantissa, 10^scale` to the whole part) for decimal and money.
fn whole(
    value: &Value,
    float_op: fn(f64) -> f64,
    integer_op: fn(i128, i128) -> i128,
) -> SqlResult<Value> {
    Ok(match value {
        Value::TinyInt(_) | Value::SmallInt(_) | Value::Int(_) | Value::BigInt(_) => value.clone(),
        Value::Decimal(d) => {
            let unit = 10i128.pow(u32::from(d.scale));
            Value::Decimal(Decimal::new(integer_op(d.mantissa, unit), d.precision, 0)?)
        }
        Value::Money(m) => {
            let unit = 10i128.pow(u32::from(Money::SCALE));
            let units = integer_op(i128::from(m.0), unit) * unit;
            Value::Money(Money(
                i64::try_from(units)
                    .map_err(|_| SqlError::arithmetic_overflow("expression", "money"))?,
            ))
        }
        Value::Float(v) => Value::Float(float_op(*v)),
        Value::Real(v) => Value::Real(float_op(f64::from(*v)) as f32),
        other => unreachable!("the binder takes numbers only, not {other:?}"),
    })
}

/// -1, 0 or 1 in the value's own (widened) type.
fn sign(value: &Value, result_type: &DataType) -> SqlResult<Value> {
    Ok(match value {
        Value::Int(v) => Value::Int(v.signum()),
        Value::BigInt(v) => Value::BigInt(v.signum()),
        Value::Decimal(d) => {
            let DataType::Decimal { precision, scale } = *result_type else {
                unreachable!("SIGN of a decimal is a decimal");
            };
            let one = 10i128.pow(u32::from(scale));
            Value::Decimal(Decimal::new(d.mantissa.signum() * one, precision, scale)?)
        }
        Value::Money(m) => Value::Money(Money(m.0.signum() * 10_000)),
        Value::Float(v) if *v == 0.0 => Value::Float(0.0),
        Value::Float(v) => Value::Float(v.signum()),
        other => unreachable!("the binder converts SIGN's argument, not {other:?}"),
    })
}

/// The natural logarithm, Msg 3623 for zero and negative numbers.
fn logarithm(value: f64) -> SqlResult<f64> {
    if value > 0.0 {
        Ok(value.ln())
    } else {
        Err(invalid_operation())
    }
}

fn real(value: f64) -> SqlResult<Value> {
    finite(value).map(Value::Float)
}

fn finite(value: f64) -> SqlResult<f64> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(invalid_operation())
    }
}

/// Msg 3623.
fn invalid_operation() -> SqlError {
    SqlError::new(3623, 16, 1, "An invalid floating point operation occurred.")
}

/// The result type as Msg 8115 names it.
fn overflow_name(t: &DataType) -> String {
    match t {
        DataType::Decimal { .. } => "numeric".to_string(),
        other => other.sql_name(),
    }
}
