//! Evaluation: operators applied to values the caller has already converted
//! to the result type's family.

use super::typing::{bit_not_type, negate_type};
use super::{invalid_operand, message_name, overflow, ArithOp};
use crate::{
    DataType, DateTime, Decimal, Length, Money, SmallDateTime, SqlError, SqlResult, Value,
};

/// Evaluates `left op right` in `result_type` (from [`super::arithmetic_type`]),
/// both operands already converted to that type's family. NULL in, NULL out.
///
/// Integer results are computed exactly and must fit the result type (Msg
/// 8115 "Arithmetic overflow error converting expression to data type int.",
/// also for `MIN / -1` and `MIN % -1`); `/` truncates toward zero, `%` takes
/// the dividend's sign, and both raise Msg 8134 "Divide by zero error
/// encountered." on a zero divisor. decimal results are fitted to the
/// result's precision and scale (quotients truncated, the rest rounded half
/// away from zero), money results to four decimals the same way. float and
/// real are IEEE arithmetic, real rounded from the double result; an
/// infinite result is Msg 8115. datetime and smalldatetime add and subtract
/// as days and fractions of days since 1900-01-01 (Msg 517 "Adding a value
/// to a 'datetime' column caused an overflow." outside their range). String
/// and binary `+` concatenate and are cut silently to the result length.
///
/// Operands are accepted a little more widely than the family: any integer
/// variant or bit where an integer, decimal, money, float or datetime is
/// expected (a number of days for datetime), money where a decimal is. A
/// value outside that is a caller's error, reported as Msg 206.
pub fn arithmetic(
    op: ArithOp,
    left: &Value,
    right: &Value,
    result_type: &DataType,
) -> SqlResult<Value> {
    use DataType as T;
    if left.is_null() || right.is_null() {
        return Ok(Value::Null);
    }
    let ty = result_type;
    match *ty {
        T::Bit if !op.is_bitwise() => Err(invalid_operand(ty, op.name())),
        T::Bit | T::TinyInt | T::SmallInt | T::Int | T::BigInt => integer(
            op,
            integer_operand(left, ty)?,
            integer_operand(right, ty)?,
            ty,
        ),
        T::Decimal { precision, scale } => {
            let decimal_op = op
                .decimal_op()
                .ok_or_else(|| invalid_operand(ty, op.name()))?;
            let (a, b) = (decimal_operand(left, ty)?, decimal_operand(right, ty)?);
            a.checked_op(decimal_op, b, precision, scale)
                .map(Value::Decimal)
        }
        T::Money | T::SmallMoney => {
            money(op, money_operand(left, ty)?, money_operand(right, ty)?, ty)
        }
        T::Float | T::Real => approx(op, float_operand(left, ty)?, float_operand(right, ty)?, ty),
        T::DateTime | T::SmallDateTime => legacy_date(op, left, right, ty),
        T::Char { .. }
        | T::VarChar { .. }
        | T::NChar { .. }
        | T::NVarChar { .. }
        | T::Binary { .. }
        | T::VarBinary { .. }
            if op == ArithOp::Add =>
        {
            concatenation(left, right, ty)
        }
        _ => Err(invalid_operand(ty, op.name())),
    }
}

/// A value the caller should have converted first.
fn mismatch(value: &Value, ty: &DataType) -> SqlError {
    SqlError::type_clash(value.type_name(), &message_name(ty))
}

fn integer_operand(value: &Value, ty: &DataType) -> SqlResult<i64> {
    match *value {
        Value::Bit(b) => Ok(i64::from(b)),
        _ => value.as_i64().ok_or_else(|| mismatch(value, ty)),
    }
}

fn integer(op: ArithOp, a: i64, b: i64, ty: &DataType) -> SqlResult<Value> {
    let (a, b) = (i128::from(a), i128::from(b));
    let exact = match op {
        ArithOp::Add => a + b,
        ArithOp::Subtract => a - b,
        ArithOp::Multiply => a * b,
        ArithOp::Divide | ArithOp::Modulo => {
            if b == 0 {
                return Err(SqlError::divide_by_zero());
            }
            // SQL Server forms the quotient for % too, so MIN % -1
            // overflows although the remainder would be 0.
            let quotient = integer_value(a / b, ty)?;
            if op == ArithOp::Divide {
                return Ok(quotient);
            }
            a % b
        }
        ArithOp::BitAnd => a & b,
        ArithOp::BitOr => a | b,
        ArithOp::BitXor => a ^ b,
    };
    integer_value(exact, ty)
}

fn integer_value(v: i128, ty: &DataType) -> SqlResult<Value> {
    let value = match ty {
        DataType::Bit => u8::try_from(v)
            .ok()
            .filter(|&b| b <= 1)
            .map(|b| Value::Bit(b == 1)),
        DataType::TinyInt => u8::try_from(v).ok().map(Value::TinyInt),
        DataType::SmallInt => i16::try_from(v).ok().map(Value::SmallInt),
        DataType::Int => i32::try_from(v).ok().map(Value::Int),
        _ => i64::try_from(v).ok().map(Value::BigInt),
    };
    value.ok_or_else(|| overflow(ty))
}

fn decimal_operand(value: &Value, ty: &DataType) -> SqlResult<Decimal> {
    let integral = |v: i64, precision: u8| Decimal {
        mantissa: i128::from(v),
        precision,
        scale: 0,
    };
    Ok(match *value {
        Value::Decimal(d) => d,
        Value::Money(m) => m.to_decimal(),
        Value::Bit(b) => integral(i64::from(b), 1),
        Value::TinyInt(v) => integral(i64::from(v), 3),
        Value::SmallInt(v) => integral(i64::from(v), 5),
        Value::Int(v) => integral(i64::from(v), 10),
        Value::BigInt(v) => integral(v, 19),
        _ => return Err(mismatch(value, ty)),
    })
}

fn money_operand(value: &Value, ty: &DataType) -> SqlResult<Money> {
    match *value {
        Value::Money(m) => Ok(m),
        _ => {
            let units = integer_operand(value, ty)?;
            Money::from_units(units).map_err(|_| overflow(ty))
        }
    }
}

fn money(op: ArithOp, a: Money, b: Money, ty: &DataType) -> SqlResult<Value> {
    let result = match op {
        ArithOp::Add => a.checked_add(b),
        ArithOp::Subtract => a.checked_sub(b),
        ArithOp::Multiply => a.checked_mul(b),
        ArithOp::Divide => a.checked_div(b),
        // The quotient is formed first, as for integers.
        ArithOp::Modulo => a
            .checked_div(b)
            .and_then(|_| a.0.checked_rem(b.0).map(Money).ok_or_else(|| overflow(ty))),
        _ => return Err(invalid_operand(ty, op.name())),
    };
    // Money's own overflow names money; smallmoney results name smallmoney.
    let result = result.map_err(|e| if e.number == 8115 { overflow(ty) } else { e })?;
    if *ty == DataType::SmallMoney && !result.fits_smallmoney() {
        return Err(overflow(ty));
    }
    Ok(Value::Money(result))
}

fn float_operand(value: &Value, ty: &DataType) -> SqlResult<f64> {
    match *value {
        Value::Float(v) => Ok(v),
        Value::Real(v) => Ok(f64::from(v)),
        _ => integer_operand(value, ty).map(|v| v as f64),
    }
}

/// real is computed in double and rounded once, which is real's own
/// answer for + - * / of two singles.
fn approx(op: ArithOp, a: f64, b: f64, ty: &DataType) -> SqlResult<Value> {
    let v = match op {
        ArithOp::Add => a + b,
        ArithOp::Subtract => a - b,
        ArithOp::Multiply => a * b,
        ArithOp::Divide if b == 0.0 => return Err(SqlError::divide_by_zero()),
        ArithOp::Divide => a / b,
        _ => return Err(invalid_operand(ty, op.name())),
    };
    if *ty == DataType::Real {
        let single = v as f32;
        return if single.is_finite() {
            Ok(Value::Real(single))
        } else {
            Err(overflow(ty))
        };
    }
    if v.is_finite() {
        Ok(Value::Float(v))
    } else {
        Err(overflow(ty))
    }
}

/// Msg 517.
fn date_overflow(ty: &DataType) -> SqlError {
    SqlError::new(
        517,
        16,
        1,
        format!(
            "Adding a value to a '{}' column caused an overflow.",
            ty.sql_name()
        ),
    )
}

const MINUTES_PER_DAY: i128 = SmallDateTime::MINUTES_PER_DAY as i128;

/// datetime and smalldatetime values are days (and fractions) since
/// 1900-01-01: 1/300 s ticks for datetime, minutes for smalldatetime.
fn legacy_date(op: ArithOp, left: &Value, right: &Value, ty: &DataType) -> SqlResult<Value> {
    let datetime = *ty == DataType::DateTime;
    let per_day = if datetime {
        i128::from(DateTime::TICKS_PER_DAY)
    } else {
        MINUTES_PER_DAY
    };
    let units = |value: &Value| -> SqlResult<i128> {
        match *value {
            Value::DateTime(v) if datetime => {
                Ok(i128::from(v.days) * per_day + i128::from(v.ticks))
            }
            Value::SmallDateTime(v) => {
                let minutes = i128::from(v.days) * MINUTES_PER_DAY + i128::from(v.minutes);
                Ok(if datetime {
                    minutes * 60 * i128::from(DateTime::TICKS_PER_SECOND)
                } else {
                    minutes
                })
            }
            _ => Ok(i128::from(integer_operand(value, ty)?) * per_day),
        }
    };
    let (a, b) = (units(left)?, units(right)?);
    let total = match op {
        ArithOp::Add => a + b,
        ArithOp::Subtract => a - b,
        _ => return Err(invalid_operand(ty, op.name())),
    };
    let days = total.div_euclid(per_day);
    let rest = total.rem_euclid(per_day);
    if datetime {
        let value = DateTime {
            days: i32::try_from(days).map_err(|_| date_overflow(ty))?,
            ticks: rest as u32,
        };
        if !value.is_valid() {
            return Err(date_overflow(ty));
        }
        Ok(Value::DateTime(value))
    } else {
        Ok(Value::SmallDateTime(SmallDateTime {
            days: u16::try_from(days).map_err(|_| date_overflow(ty))?,
            minutes: rest as u16,
        }))
    }
}

/// How much of a concatenation a string or binary type keeps: characters
/// for char and varchar, UTF-16 code units for nchar and nvarchar, bytes
/// for binary; None for `max`.
fn limit(ty: &DataType) -> Option<(u32, bool)> {
    use DataType as T;
    let bounded = |len: Length| match len {
        Length::Bounded(n) => Some(n),
        Length::Max => None,
    };
    match *ty {
        T::Char { len, .. } | T::Binary { len } => Some((len, false)),
        T::NChar { len, .. } => Some((len, true)),
        T::VarChar { len, .. } | T::VarBinary { len } => bounded(len).map(|n| (n, false)),
        T::NVarChar { len, .. } => bounded(len).map(|n| (n, true)),
        _ => None,
    }
}

fn concatenation(left: &Value, right: &Value, ty: &DataType) -> SqlResult<Value> {
    let limit = limit(ty);
    match (left, right) {
        (Value::String(a), Value::String(b)) => {
            let mut text = String::with_capacity(a.len() + b.len());
            text.push_str(a);
            text.push_str(b);
            if let Some((max, utf16)) = limit {
                let mut used = 0u32;
                let cut = text.char_indices().find_map(|(at, c)| {
                    used += if utf16 { c.len_utf16() as u32 } else { 1 };
                    (used > max).then_some(at)
                });
                if let Some(at) = cut {
                    text.truncate(at);
                }
            }
            Ok(Value::String(text))
        }
        (Value::Binary(a), Value::Binary(b)) => {
            let mut bytes = Vec::with_capacity(a.len() + b.len());
            bytes.extend_from_slice(a);
            bytes.extend_from_slice(b);
            if let Some((max, _)) = limit {
                bytes.truncate(max as usize);
            }
            Ok(Value::Binary(bytes))
        }
        (Value::String(_) | Value::Binary(_), other) | (other, _) => Err(mismatch(other, ty)),
    }
}

/// String or binary concatenation `a + b` with SQL Server's default
/// CONCAT_NULL_YIELDS_NULL: NULL if either is NULL. The result is not cut
/// to a type's length ([`arithmetic`] with [`super::concat_type`]'s type
/// does that). The caller converts mixed operands first; any other pair is
/// joined as the two values display.
pub fn concat(a: &Value, b: &Value) -> Value {
    match (a, b) {
        (Value::Null, _) | (_, Value::Null) => Value::Null,
        (Value::Binary(x), Value::Binary(y)) => {
            let mut bytes = x.clone();
            bytes.extend_from_slice(y);
            Value::Binary(bytes)
        }
        (Value::String(x), Value::String(y)) => Value::String(format!("{x}{y}")),
        _ => Value::String(format!("{a}{b}")),
    }
}

/// Unary minus of `value`, an expression of type `t`; the result has
/// [`negate_type`]`(t)` (tinyint becomes smallint). Msg 8115 for the
/// smallest value of smallint, int, bigint, money and smallmoney; float
/// and real keep the sign of zero (`-0e0` is `-0`).
pub fn negate(value: &Value, t: &DataType) -> SqlResult<Value> {
    negate_type(t)?;
    let over = || overflow(t);
    Ok(match *value {
        Value::Null => Value::Null,
        Value::TinyInt(v) => Value::SmallInt(-i16::from(v)),
        Value::SmallInt(v) => Value::SmallInt(v.checked_neg().ok_or_else(over)?),
        Value::Int(v) => Value::Int(v.checked_neg().ok_or_else(over)?),
        Value::BigInt(v) => Value::BigInt(v.checked_neg().ok_or_else(over)?),
        Value::Decimal(d) => Value::Decimal(-d),
        Value::Money(m) => {
            let negated = m.checked_neg().map_err(|_| over())?;
            if *t == DataType::SmallMoney && !negated.fits_smallmoney() {
                return Err(over());
            }
            Value::Money(negated)
        }
        Value::Float(v) => Value::Float(-v),
        Value::Real(v) => Value::Real(-v),
        _ => return Err(mismatch(value, t)),
    })
}

/// `~value` for an integer or bit expression of type `t`: every bit of the
/// type's width flipped (`~CAST(0 AS tinyint)` is 255, `~1` is -2).
pub fn bit_not(value: &Value, t: &DataType) -> SqlResult<Value> {
    bit_not_type(t)?;
    Ok(match *value {
        Value::Null => Value::Null,
        Value::Bit(b) => Value::Bit(!b),
        Value::TinyInt(v) => Value::TinyInt(!v),
        Value::SmallInt(v) => Value::SmallInt(!v),
        Value::Int(v) => Value::Int(!v),
        Value::BigInt(v) => Value::BigInt(!v),
        _ => return Err(mismatch(value, t)),
    })
}

#[cfg(test)]
mod tests;
