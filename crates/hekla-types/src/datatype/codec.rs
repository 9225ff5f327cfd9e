//! Encoding values into stored forms and decoding them back.

use super::{DataType, Length};
use crate::datetime::TICKS_PER_DAY;
use crate::stored::{self, canonical_f32, canonical_f64};
use crate::{
    Date, DateTime, DateTime2, DateTimeOffset, Decimal, Money, SmallDateTime, SqlError, SqlResult,
    Time, Uuid, Value,
};

pub(super) fn encode(ty: &DataType, value: &Value, out: &mut Vec<u8>) -> SqlResult<()> {
    use DataType as T;
    let clash = || SqlError::type_clash(value.type_name(), &ty.sql_name());
    match (*ty, value) {
        (_, Value::Null) => {
            return Err(SqlError::new(
                515,
                16,
                2,
                "Cannot insert the value NULL into column; column does not allow nulls.",
            ))
        }
        (T::Bit, Value::Bit(b)) => out.push(u8::from(*b)),
        (T::TinyInt | T::SmallInt | T::Int | T::BigInt, v) => {
            encode_integer(ty, v.as_i64().ok_or_else(clash)?, out)?
        }
        (T::Decimal { precision, scale }, Value::Decimal(d)) => {
            let fitted = d.convert(precision, scale)?;
            stored::push_decimal(fitted.mantissa, precision, out);
        }
        (T::Money, Value::Money(m)) => out.extend_from_slice(&m.0.to_le_bytes()),
        (T::SmallMoney, Value::Money(m)) => {
            let small = i32::try_from(m.0)
                .map_err(|_| SqlError::arithmetic_overflow("expression", "smallmoney"))?;
            out.extend_from_slice(&small.to_le_bytes());
        }
        (T::Float, Value::Float(v)) => encode_f64(*v, out)?,
        (T::Float, Value::Real(v)) => encode_f64(f64::from(*v), out)?,
        (T::Real, Value::Real(v)) => encode_f32(*v, out)?,
        (T::Real, Value::Float(v)) => {
            if v.is_finite() && (*v as f32).is_infinite() {
                return Err(SqlError::arithmetic_overflow("float", "real"));
            }
            encode_f32(*v as f32, out)?
        }
        (T::Date, Value::Date(d)) => {
            if !d.is_valid() {
                return Err(out_of_range(value, ty));
            }
            out.extend_from_slice(&d.0.to_le_bytes());
        }
        (T::Time { scale }, Value::Time(t)) => {
            if !t.is_valid() {
                return Err(out_of_range(value, ty));
            }
            out.extend_from_slice(&t.round_to_scale(scale).0.to_le_bytes());
        }
        (T::DateTime, Value::DateTime(d)) => {
            if !d.is_valid() {
                return Err(out_of_range(value, ty));
            }
            out.extend_from_slice(&d.days.to_le_bytes());
            out.extend_from_slice(&d.ticks.to_le_bytes());
        }
        (T::DateTime2 { scale }, Value::DateTime2(d)) => {
            let rounded = fit_datetime2(*d, scale).ok_or_else(|| out_of_range(value, ty))?;
            out.extend_from_slice(&rounded.to_ticks().to_le_bytes());
        }
        (T::SmallDateTime, Value::SmallDateTime(d)) => {
            if !d.is_valid() {
                return Err(out_of_range(value, ty));
            }
            out.extend_from_slice(&d.days.to_le_bytes());
            out.extend_from_slice(&d.minutes.to_le_bytes());
        }
        (T::DateTimeOffset { scale }, Value::DateTimeOffset(d)) => {
            let utc = fit_datetime2(d.utc, scale)
                .filter(|_| d.is_valid())
                .ok_or_else(|| out_of_range(value, ty))?;
            out.extend_from_slice(&utc.to_ticks().to_le_bytes());
            out.extend_from_slice(&d.offset_minutes.to_le_bytes());
        }
        (T::UniqueIdentifier, Value::UniqueIdentifier(u)) => out.extend_from_slice(&u.0),
        (T::Char { len, .. }, Value::String(s)) => {
            encode_string(s, Some(len), count_chars, true, out)?
        }
        (T::VarChar { len, .. }, Value::String(s)) => {
            encode_string(s, bound(len), count_chars, false, out)?
        }
        (T::NChar { len, .. }, Value::String(s)) => {
            encode_string(s, Some(len), count_utf16, true, out)?
        }
        (T::NVarChar { len, .. }, Value::String(s)) => {
            encode_string(s, bound(len), count_utf16, false, out)?
        }
        (T::Binary { len }, Value::Binary(b)) => {
            if b.len() > len as usize {
                return Err(SqlError::truncation());
            }
            out.extend_from_slice(b);
            out.resize(out.len() + (len as usize - b.len()), 0);
        }
        (T::VarBinary { len }, Value::Binary(b)) => {
            if bound(len).is_some_and(|n| b.len() > n as usize) {
                return Err(SqlError::truncation());
            }
            out.extend_from_slice(b);
        }
        _ => return Err(clash()),
    }
    Ok(())
}

fn bound(len: Length) -> Option<u32> {
    match len {
        Length::Bounded(n) => Some(n),
        Length::Max => None,
    }
}

fn out_of_range(value: &Value, ty: &DataType) -> SqlError {
    let target = ty.sql_name();
    let family = target.split('(').next().unwrap_or_default();
    SqlError::date_out_of_range(value.type_name(), family)
}

fn fit_datetime2(d: DateTime2, scale: u8) -> Option<DateTime2> {
    if d.is_valid() {
        d.round_to_scale(scale)
    } else {
        None
    }
}

/// tinyint and smallint report the value (Msg 220), int does not (Msg 8115).
fn encode_integer(ty: &DataType, v: i64, out: &mut Vec<u8>) -> SqlResult<()> {
    match ty {
        DataType::TinyInt => {
            let b = u8::try_from(v).map_err(|_| SqlError::integer_overflow("tinyint", v))?;
            out.push(b);
        }
        DataType::SmallInt => {
            let s = i16::try_from(v).map_err(|_| SqlError::integer_overflow("smallint", v))?;
            out.extend_from_slice(&s.to_le_bytes());
        }
        DataType::Int => {
            let i =
                i32::try_from(v).map_err(|_| SqlError::arithmetic_overflow("expression", "int"))?;
            out.extend_from_slice(&i.to_le_bytes());
        }
        _ => out.extend_from_slice(&v.to_le_bytes()),
    }
    Ok(())
}

/// SQL Server has no NaN or infinity; arithmetic that would make one fails.
fn encode_f64(v: f64, out: &mut Vec<u8>) -> SqlResult<()> {
    if !v.is_finite() {
        return Err(SqlError::arithmetic_overflow("expression", "float"));
    }
    out.extend_from_slice(&canonical_f64(v).to_le_bytes());
    Ok(())
}

fn encode_f32(v: f32, out: &mut Vec<u8>) -> SqlResult<()> {
    if !v.is_finite() {
        return Err(SqlError::arithmetic_overflow("expression", "real"));
    }
    out.extend_from_slice(&canonical_f32(v).to_le_bytes());
    Ok(())
}

/// varchar lengths count characters (one byte each in Windows-1252).
fn count_chars(s: &str) -> usize {
    if s.is_ascii() {
        s.len()
    } else {
        s.chars().count()
    }
}

/// nvarchar lengths count UTF-16 code units.
fn count_utf16(s: &str) -> usize {
    if s.is_ascii() {
        s.len()
    } else {
        s.chars().map(char::len_utf16).sum()
    }
}

/// Stores `s`, checking it against `limit` units. As in SQL Server, excess
/// trailing spaces are cut silently and anything else excess is Msg 2628;
/// fixed-length types are padded with spaces to `limit`.
fn encode_string(
    s: &str,
    limit: Option<u32>,
    count: fn(&str) -> usize,
    pad: bool,
    out: &mut Vec<u8>,
) -> SqlResult<()> {
    let Some(limit) = limit.map(|n| n as usize) else {
        out.extend_from_slice(s.as_bytes());
        return Ok(());
    };
    let units = count(s);
    if units <= limit {
        out.extend_from_slice(s.as_bytes());
        if pad {
            out.resize(out.len() + (limit - units), b' ');
        }
        return Ok(());
    }
    let trimmed = s.trim_end_matches(' ');
    let kept = count(trimmed);
    if kept > limit {
        return Err(SqlError::truncation());
    }
    // Spaces are one unit each, so exactly `limit` units remain.
    out.extend_from_slice(trimmed.as_bytes());
    out.resize(out.len() + (limit - kept), b' ');
    Ok(())
}

pub(super) fn decode(ty: &DataType, bytes: &[u8]) -> Value {
    use DataType as T;
    match *ty {
        T::Bit => Value::Bit(bytes.first().is_some_and(|&b| b != 0)),
        T::TinyInt => Value::TinyInt(bytes.first().copied().unwrap_or(0)),
        T::SmallInt => Value::SmallInt(stored::i16_at(bytes)),
        T::Int => Value::Int(stored::i32_at(bytes)),
        T::BigInt => Value::BigInt(stored::i64_at(bytes)),
        T::Decimal { precision, scale } => Value::Decimal(Decimal {
            mantissa: stored::decimal_at(bytes, precision),
            precision,
            scale,
        }),
        T::Money => Value::Money(Money(stored::i64_at(bytes))),
        T::SmallMoney => Value::Money(Money(i64::from(stored::i32_at(bytes)))),
        T::Float => Value::Float(stored::f64_at(bytes)),
        T::Real => Value::Real(stored::f32_at(bytes)),
        T::Date => Value::Date(Date(stored::i32_at(bytes))),
        T::Time { .. } => Value::Time(Time(stored::u64_at(bytes) % TICKS_PER_DAY)),
        T::DateTime => Value::DateTime(DateTime {
            days: stored::i32_at(bytes),
            ticks: stored::u32_at(bytes.get(4..).unwrap_or_default()),
        }),
        T::DateTime2 { .. } => Value::DateTime2(DateTime2::from_ticks(stored::i64_at(bytes))),
        T::SmallDateTime => Value::SmallDateTime(SmallDateTime {
            days: stored::u16_at(bytes),
            minutes: stored::u16_at(bytes.get(2..).unwrap_or_default()),
        }),
        T::DateTimeOffset { .. } => Value::DateTimeOffset(DateTimeOffset {
            utc: DateTime2::from_ticks(stored::i64_at(bytes)),
            offset_minutes: stored::i16_at(bytes.get(8..).unwrap_or_default()),
        }),
        T::UniqueIdentifier => Value::UniqueIdentifier(Uuid(stored::array(bytes))),
        T::Char { .. } | T::VarChar { .. } | T::NChar { .. } | T::NVarChar { .. } => {
            Value::String(String::from_utf8_lossy(bytes).into_owned())
        }
        T::Binary { .. } | T::VarBinary { .. } => Value::Binary(bytes.to_vec()),
    }
}
