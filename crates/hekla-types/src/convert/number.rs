//! Conversions to bit, the integers, decimal, money, smallmoney, float and
//! real.
//!
//! SQL Server truncates toward zero when decimal, float and real become
//! integers, rounds (half away from zero) when money and datetime become
//! integers, and rounds whenever fractional digits are dropped between
//! decimal, money and float. Which overflow error it raises depends on the
//! source type as much as on the target; each case below says which.

use super::binary;
use super::errors::{self, root_name, string_name};
use crate::decimal::wide::U256;
use crate::decimal::{check_type, div_round, fits, pow10};
use crate::{DataType, DateTime, Decimal, Money, SmallDateTime, SqlError, SqlResult, Value};

/// Ten-thousandths of a unit in money.
const MONEY_UNIT: i128 = 10_000;
/// datetime counts 1/300 s, smalldatetime minutes.
const DATETIME_TICKS_PER_DAY: i128 = DateTime::TICKS_PER_DAY as i128;
const MINUTES_PER_DAY: i128 = SmallDateTime::MINUTES_PER_DAY as i128;

pub(super) fn convert(value: &Value, source: &DataType, target: &DataType) -> SqlResult<Value> {
    use DataType as T;
    Ok(match *target {
        T::Bit => Value::Bit(to_bit(value, source)?),
        T::TinyInt => Value::TinyInt(to_integer(value, source, target)? as u8),
        T::SmallInt => Value::SmallInt(to_integer(value, source, target)? as i16),
        T::Int => Value::Int(to_integer(value, source, target)? as i32),
        T::BigInt => Value::BigInt(to_integer(value, source, target)?),
        T::Decimal { precision, scale } => {
            Value::Decimal(to_decimal(value, source, precision, scale)?)
        }
        T::Money => Value::Money(to_money(value, source, false)?),
        T::SmallMoney => Value::Money(to_money(value, source, true)?),
        T::Float => Value::Float(to_float(value, source)?),
        T::Real => Value::Real(to_real(value, source)?),
        _ => return Err(SqlError::type_clash(value.type_name(), &target.sql_name())),
    })
}

/// The range of an integer type.
fn range(target: &DataType) -> (i64, i64) {
    match target {
        DataType::TinyInt => (0, i64::from(u8::MAX)),
        DataType::SmallInt => (i64::from(i16::MIN), i64::from(i16::MAX)),
        DataType::Int => (i64::from(i32::MIN), i64::from(i32::MAX)),
        _ => (i64::MIN, i64::MAX),
    }
}

fn in_range(v: i128, target: &DataType) -> bool {
    let (lo, hi) = range(target);
    (i128::from(lo)..=i128::from(hi)).contains(&v)
}

/// A datetime or smalldatetime as a count of its units and the units in a
/// day: its value as a number of days is `count / per_day`.
fn day_count(value: &Value) -> Option<(i128, i128)> {
    match value {
        Value::DateTime(d) => Some((
            i128::from(d.days) * DATETIME_TICKS_PER_DAY + i128::from(d.ticks),
            DATETIME_TICKS_PER_DAY,
        )),
        Value::SmallDateTime(d) => Some((
            i128::from(d.days) * MINUTES_PER_DAY + i128::from(d.minutes),
            MINUTES_PER_DAY,
        )),
        _ => None,
    }
}

fn to_bit(value: &Value, source: &DataType) -> SqlResult<bool> {
    Ok(match value {
        Value::Bit(b) => *b,
        Value::Decimal(d) => d.mantissa != 0,
        Value::Money(m) => m.0 != 0,
        Value::Float(v) => *v != 0.0,
        Value::Real(v) => *v != 0.0,
        Value::String(s) => bit_from_text(s, source)?,
        Value::Binary(b) => b.last().is_some_and(|&byte| byte != 0),
        _ => match (value.as_i64(), day_count(value)) {
            (Some(v), _) => v != 0,
            (_, Some((count, _))) => count != 0,
            _ => return Err(SqlError::type_clash(value.type_name(), "bit")),
        },
    })
}

/// `TRUE` and `FALSE` in any case, or an integer of any length (nonzero is
/// 1); blanks alone are 0. Anything else, `1.0` included, is Msg 245.
fn bit_from_text(text: &str, source: &DataType) -> SqlResult<bool> {
    let trimmed = text.trim_matches(' ');
    if trimmed.eq_ignore_ascii_case("true") {
        return Ok(true);
    }
    if trimmed.eq_ignore_ascii_case("false") || trimmed.is_empty() {
        return Ok(false);
    }
    match signed_digits(trimmed) {
        Some((_, digits)) => Ok(digits.bytes().any(|d| d != b'0')),
        None => Err(errors::conversion_failed(string_name(source), text, "bit")),
    }
}

/// An optional sign and at least one digit: (negative, digits).
fn signed_digits(text: &str) -> Option<(bool, &str)> {
    let (negative, digits) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let valid = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
    valid.then_some((negative, digits))
}

fn to_integer(value: &Value, source: &DataType, target: &DataType) -> SqlResult<i64> {
    let name = root_name(target);
    let checked = |v: i128, error: &dyn Fn() -> SqlError| {
        if in_range(v, target) {
            Ok(v as i64)
        } else {
            Err(error())
        }
    };
    let expression = || errors::overflow("expression", name, 2);
    match value {
        Value::Bit(b) => Ok(i64::from(*b)),
        Value::String(s) => integer_from_text(s, source, target),
        Value::Binary(b) => Ok(binary::integer_from_bytes(b, target)),
        // decimal truncates toward zero.
        Value::Decimal(d) => {
            let whole = pow10(u32::from(d.scale)).map_or(0, |p| d.mantissa / p);
            checked(whole, &expression)
        }
        Value::Money(m) => money_to_integer(m.0, source, target),
        Value::Float(v) => float_to_integer(*v, target),
        Value::Real(v) => float_to_integer(f64::from(*v), target),
        _ => {
            if let Some(v) = value.as_i64() {
                // tinyint, smallint and int report the value (Msg 220)
                // when narrowing to tinyint or smallint; bigint does not.
                let narrowing = |state| {
                    if matches!(source, DataType::BigInt) {
                        expression()
                    } else {
                        errors::integer_overflow(name, v, state)
                    }
                };
                return match target {
                    DataType::TinyInt => checked(i128::from(v), &|| narrowing(2)),
                    DataType::SmallInt => checked(i128::from(v), &|| narrowing(1)),
                    _ => checked(i128::from(v), &expression),
                };
            }
            // datetime and smalldatetime round to whole days.
            let (count, per_day) =
                day_count(value).ok_or_else(|| SqlError::type_clash(value.type_name(), name))?;
            checked(div_round(count, per_day), &expression)
        }
    }
}

/// Blanks around an optionally signed run of digits; blanks alone are 0.
/// Not a number: Msg 245 (Msg 8114 for bigint). Too big: Msg 244 for
/// tinyint and smallint, 248 for int, 8115 for bigint.
fn integer_from_text(text: &str, source: &DataType, target: &DataType) -> SqlResult<i64> {
    let from = string_name(source);
    let trimmed = text.trim_matches(' ');
    if trimmed.is_empty() {
        return Ok(0);
    }
    let Some((negative, digits)) = signed_digits(trimmed) else {
        return Err(match target {
            DataType::BigInt => errors::converting(from, "bigint"),
            _ => errors::conversion_failed(from, text, root_name(target)),
        });
    };
    let significant = digits.trim_start_matches('0');
    let magnitude = if significant.is_empty() {
        Some(0)
    } else if significant.len() > 20 {
        None
    } else {
        significant.parse::<i128>().ok()
    };
    match magnitude.map(|m| if negative { -m } else { m }) {
        Some(v) if in_range(v, target) => Ok(v as i64),
        _ => Err(match target {
            DataType::TinyInt => errors::text_overflow_small(from, text, "INT1", 1),
            DataType::SmallInt => errors::text_overflow_small(from, text, "INT2", 2),
            DataType::Int => errors::text_overflow_int(from, text),
            _ => errors::overflow("expression", "bigint", 2),
        }),
    }
}

/// money rounds to a whole number. Its overflow errors depend on target
/// and source: Msg 237 when even int cannot hold the amount, then Msg 220
/// (smallint, showing the amount in ten-thousandths) or Msg 232 (tinyint);
/// smallmoney reports Msg 220 with its whole part for smallint and Msg
/// 8115 for tinyint.
fn money_to_integer(ticks: i64, source: &DataType, target: &DataType) -> SqlResult<i64> {
    let exact = i128::from(ticks);
    let rounded = div_round(exact, MONEY_UNIT);
    if in_range(rounded, target) {
        return Ok(rounded as i64);
    }
    let beyond_int =
        exact < i128::from(i32::MIN) * MONEY_UNIT || exact > i128::from(i32::MAX) * MONEY_UNIT;
    let small = matches!(source, DataType::SmallMoney);
    Err(match target {
        DataType::Int => errors::money_space("int", 1),
        DataType::SmallInt if small => errors::integer_overflow("smallint", exact / MONEY_UNIT, 5),
        DataType::SmallInt if beyond_int => errors::money_space("smallint", 2),
        DataType::SmallInt => errors::integer_overflow("smallint", ticks, 7),
        DataType::TinyInt if small => errors::overflow("expression", "tinyint", 2),
        DataType::TinyInt if beyond_int => errors::money_space("tinyint", 3),
        DataType::TinyInt => {
            errors::float_overflow("tinyint", ticks as f64 / MONEY_UNIT as f64, 11)
        }
        _ => errors::overflow("expression", root_name(target), 2),
    })
}

/// Truncates toward zero; out of range is Msg 232 with the value (Msg 8115
/// for bigint).
fn float_to_integer(v: f64, target: &DataType) -> SqlResult<i64> {
    let whole = v.trunc();
    let (lo, hi) = range(target);
    // hi + 1 is a power of two, exact as a double even for bigint.
    if v.is_finite() && whole >= lo as f64 && whole < hi as f64 + 1.0 {
        return Ok(whole as i64);
    }
    let name = root_name(target);
    Err(match target {
        DataType::TinyInt => errors::float_overflow(name, v, 1),
        DataType::SmallInt => errors::float_overflow(name, v, 2),
        DataType::Int => errors::float_overflow(name, v, 3),
        _ => errors::overflow("expression", name, 2),
    })
}

/// Rounds to `scale` (half away from zero). Too many integral digits is Msg
/// 8115 naming the source: state 8 while the value still has at most 38
/// digits at the new scale, state 6 beyond.
fn rescale(d: Decimal, precision: u8, scale: u8, from: &str) -> SqlResult<Decimal> {
    match d.mantissa_at_scale(scale) {
        Some(mantissa) if fits(mantissa, precision) => Ok(Decimal {
            mantissa,
            precision,
            scale,
        }),
        Some(mantissa) if fits(mantissa, crate::decimal::MAX_PRECISION) => {
            Err(errors::overflow(from, "numeric", 8))
        }
        _ => Err(errors::overflow(from, "numeric", 6)),
    }
}

fn to_decimal(value: &Value, source: &DataType, precision: u8, scale: u8) -> SqlResult<Decimal> {
    check_type(precision, scale)?;
    let scale_factor = pow10(u32::from(scale)).unwrap_or(1);
    let exact = |mantissa: Option<i128>, error: &dyn Fn() -> SqlError| match mantissa {
        Some(mantissa) if fits(mantissa, precision) => Ok(Decimal {
            mantissa,
            precision,
            scale,
        }),
        _ => Err(error()),
    };
    match value {
        Value::Bit(b) => exact(Some(i128::from(*b) * scale_factor), &|| {
            errors::overflow("bit", "numeric", 2)
        }),
        Value::Decimal(d) => rescale(*d, precision, scale, "numeric"),
        Value::Money(m) => rescale(m.to_decimal(), precision, scale, "money"),
        Value::Float(v) => exact(scaled_float(*v, scale), &|| {
            errors::overflow("float", "numeric", 6)
        }),
        Value::Real(v) => exact(scaled_float(f64::from(*v), scale), &|| {
            errors::overflow("real", "numeric", 6)
        }),
        Value::String(s) => {
            let from = string_name(source);
            let parsed: Decimal = s.parse().map_err(|e: SqlError| {
                if e.number == 8114 {
                    errors::converting(from, "numeric")
                } else {
                    errors::overflow(from, "numeric", 6)
                }
            })?;
            // Text within 38 digits that does not fit is state 8 however
            // many digits the rescaled value would need.
            rescale(parsed, precision, scale, from).map_err(|e| SqlError { state: 8, ..e })
        }
        Value::Binary(b) => rescale(binary::decimal_from_bytes(b)?, precision, scale, "numeric"),
        _ => {
            if let Some(v) = value.as_i64() {
                let from = root_name(source);
                return exact(i128::from(v).checked_mul(scale_factor), &|| {
                    errors::overflow(from, "numeric", 2)
                });
            }
            let (count, per_day) = day_count(value)
                .ok_or_else(|| SqlError::type_clash(value.type_name(), "numeric"))?;
            let scaled = count
                .checked_mul(scale_factor)
                .map(|n| div_round(n, per_day));
            exact(scaled, &|| errors::overflow("expression", "numeric", 2))
        }
    }
}

/// `v * 10^scale` rounded half away from zero, computed from the double's
/// exact binary value (as SQL Server does: `CAST(0.1E0 AS decimal(38,30))`
/// shows the binary expansion). None if not finite or 10^38 or more.
pub(super) fn scaled_float(v: f64, scale: u8) -> Option<i128> {
    if !v.is_finite() {
        return None;
    }
    if v == 0.0 {
        return Some(0);
    }
    let bits = v.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i32;
    let fraction = bits & ((1 << 52) - 1);
    let (mantissa, exponent) = if biased == 0 {
        (fraction, -1074)
    } else {
        (fraction | (1 << 52), biased - 1075)
    };
    let numerator =
        U256::from_u128(u128::from(mantissa)).checked_mul(U256::pow10(u32::from(scale))?)?;
    let magnitude = if exponent >= 0 {
        let mut m = numerator;
        for _ in 0..exponent {
            m = m.checked_add(m)?;
        }
        m
    } else {
        // The numerator is below 2^180: past 2^-200 nothing is left.
        let shift = exponent.unsigned_abs();
        if shift > 200 {
            U256::ZERO
        } else {
            numerator.div_round(pow2(shift)?)
        }
    };
    let magnitude = magnitude.to_u128()?;
    if magnitude >= 10u128.pow(38) {
        return None;
    }
    let magnitude = magnitude as i128;
    Some(if v < 0.0 { -magnitude } else { magnitude })
}

fn pow2(n: u32) -> Option<U256> {
    let mut result = U256::from_u128(1);
    let mut left = n;
    while left > 0 {
        let step = left.min(120);
        result = result.checked_mul(U256::from_u128(1u128 << step))?;
        left -= step;
    }
    Some(result)
}

fn to_money(value: &Value, source: &DataType, small: bool) -> SqlResult<Money> {
    let name = if small { "smallmoney" } else { "money" };
    let (lo, hi) = if small {
        (Money::SMALL_MIN.0, Money::SMALL_MAX.0)
    } else {
        (Money::MIN.0, Money::MAX.0)
    };
    let checked = |ticks: Option<i128>, error: &dyn Fn() -> SqlError| match ticks {
        Some(t) if (i128::from(lo)..=i128::from(hi)).contains(&t) => Ok(Money(t as i64)),
        _ => Err(error()),
    };
    let expression = || errors::overflow("expression", name, 2);
    match value {
        Value::Bit(b) => Ok(Money(i64::from(*b) * MONEY_UNIT as i64)),
        Value::Decimal(d) => checked(d.mantissa_at_scale(Money::SCALE), &|| {
            errors::overflow("numeric", name, 4)
        }),
        Value::Money(m) => checked(Some(i128::from(m.0)), &|| {
            errors::money_space("smallmoney", 3)
        }),
        Value::Float(v) => checked(scaled_float(*v, Money::SCALE), &|| {
            errors::float_overflow(name, *v, 2)
        }),
        Value::Real(v) => checked(scaled_float(f64::from(*v), Money::SCALE), &|| {
            errors::float_overflow(name, f64::from(*v), 2)
        }),
        // Blanks alone are 0 (they are not a decimal).
        Value::String(s) if s.trim_matches(' ').is_empty() => Ok(Money(0)),
        Value::String(s) => {
            let parsed: Money = s.parse().map_err(|e: SqlError| match (e.number, small) {
                (235, true) => errors::smallmoney_syntax(),
                (235, false) => errors::money_syntax(),
                _ => expression(),
            })?;
            checked(Some(i128::from(parsed.0)), &expression)
        }
        Value::Binary(b) => Ok(binary::money_from_bytes(b, small)),
        _ => {
            if let Some(v) = value.as_i64() {
                let units = i128::from(v) * MONEY_UNIT;
                return if small && !matches!(source, DataType::BigInt) {
                    checked(Some(units), &|| errors::integer_overflow(name, v, 3))
                } else {
                    checked(Some(units), &expression)
                };
            }
            let (count, per_day) =
                day_count(value).ok_or_else(|| SqlError::type_clash(value.type_name(), name))?;
            checked(Some(div_round(count * MONEY_UNIT, per_day)), &expression)
        }
    }
}

/// A number as it reads in text, correctly rounded to a double.
fn float_of_decimal(d: Decimal) -> f64 {
    d.to_string().parse().unwrap_or(0.0)
}

fn to_float(value: &Value, source: &DataType) -> SqlResult<f64> {
    Ok(match value {
        Value::Bit(b) => f64::from(u8::from(*b)),
        Value::Decimal(d) => float_of_decimal(*d),
        Value::Money(m) => float_of_decimal(m.to_decimal()),
        Value::Float(v) => *v,
        Value::Real(v) => f64::from(*v),
        Value::String(s) => float_from_text(s, source, "float")?,
        _ => {
            if let Some(v) = value.as_i64() {
                return Ok(v as f64);
            }
            let (count, per_day) =
                day_count(value).ok_or_else(|| SqlError::type_clash(value.type_name(), "float"))?;
            let days = count.div_euclid(per_day);
            days as f64 + count.rem_euclid(per_day) as f64 / per_day as f64
        }
    })
}

fn to_real(value: &Value, source: &DataType) -> SqlResult<f32> {
    let narrow = |v: f64, from: &str| {
        let r = v as f32;
        if r.is_infinite() && v.is_finite() {
            Err(errors::overflow(from, "real", 2))
        } else {
            Ok(r)
        }
    };
    match value {
        // Straight from the digits, so that nothing is rounded twice.
        Value::Decimal(d) => Ok(d.to_string().parse().unwrap_or(0.0)),
        Value::Money(m) => Ok(m.to_decimal().to_string().parse().unwrap_or(0.0)),
        Value::Real(v) => Ok(*v),
        Value::Float(v) => narrow(*v, "float"),
        Value::String(s) => {
            let trimmed =
                float_text(s).ok_or_else(|| errors::converting(string_name(source), "real"))?;
            match trimmed.parse::<f32>() {
                Ok(r) if r.is_finite() => Ok(r),
                _ if trimmed.is_empty() => Ok(0.0),
                _ => Err(errors::converting(string_name(source), "real")),
            }
        }
        Value::Int(v) => Ok(*v as f32),
        Value::BigInt(v) => Ok(*v as f32),
        _ => narrow(to_float(value, source)?, root_name(source)),
    }
}

/// The number in `text` if it reads as a float: blanks around it (any
/// whitespace before), an optional sign, digits with at most one point and
/// at least one digit, an optional exponent. Blanks alone read as "".
fn float_text(text: &str) -> Option<&str> {
    let trimmed = text.trim_start().trim_end_matches(' ');
    if trimmed.is_empty() {
        return Some(trimmed);
    }
    let bytes = trimmed.as_bytes();
    let mut i = usize::from(matches!(bytes[0], b'+' | b'-'));
    let digits = |i: &mut usize| {
        let start = *i;
        while bytes.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i - start
    };
    let mut count = digits(&mut i);
    if bytes.get(i) == Some(&b'.') {
        i += 1;
        count += digits(&mut i);
    }
    if count == 0 {
        return None;
    }
    if matches!(bytes.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(bytes.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return None;
        }
    }
    (i == bytes.len()).then_some(trimmed)
}

/// Text to float; Msg 8114 if it is not a number or beyond float's range.
fn float_from_text(text: &str, source: &DataType, target: &str) -> SqlResult<f64> {
    let error = || errors::converting(string_name(source), target);
    let trimmed = float_text(text).ok_or_else(error)?;
    if trimmed.is_empty() {
        return Ok(0.0);
    }
    match trimmed.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        _ => Err(error()),
    }
}
