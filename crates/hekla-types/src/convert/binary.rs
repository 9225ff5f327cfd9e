//! Conversions to binary and varbinary, and binary values read as other
//! types.
//!
//! Strings and binary values are padded (with zeros) or cut on the right;
//! every other type is written in SQL Server's binary form and padded or cut
//! on the left, as integers are (`CAST(123456 AS binary(2))` is `0xE240`).
//! The forms, which SQL Server documents as version-dependent:
//!
//! | type | bytes |
//! |---|---|
//! | bit, tinyint, smallint, int, bigint | two's complement, big-endian, 1/1/2/4/8 |
//! | money, smallmoney | ten-thousandths, big-endian, 8/4 |
//! | float, real | IEEE 754, big-endian, 8/4 |
//! | decimal(p,s) | p, s, 0, sign (1 positive, 0 negative), magnitude little-endian in 4-byte words |
//! | datetime | days since 1900 (4), 1/300 s (4), big-endian |
//! | smalldatetime | days since 1900 (2), minutes (2), big-endian |
//! | date | days since 0001-01-01, 3 bytes little-endian |
//! | time(n) | n, then the time in 10^-n s, little-endian in 3 (n <= 2), 4 (n <= 4) or 5 bytes |
//! | datetime2(n) | time(n)'s form, then date's |
//! | datetimeoffset(n) | datetime2(n)'s form of the UTC time, then the offset in minutes (2, little-endian) |
//! | uniqueidentifier | its 16 bytes in storage order |
//!
//! A decimal cut to a narrower target keeps its leading bytes, and a
//! uniqueidentifier is treated like a string (not confirmed).

use super::errors::{self, root_name};
use super::temporal::{time_of_units, time_units};
use super::text::text_bytes;
use crate::decimal::pow10;
use crate::{
    DataType, Date, DateTime, DateTime2, DateTimeOffset, Decimal, Length, Money, SmallDateTime,
    SqlError, SqlResult, Time, Value,
};

/// Where a value is padded and cut when it does not fill its target.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Left,
    Right,
}

pub(super) fn convert(
    value: &Value,
    source: &DataType,
    target: &DataType,
    style: Option<i32>,
) -> SqlResult<Value> {
    use Side::*;
    let (bytes, side) = match value {
        Value::String(s) => (text_to_bytes(s, source, target, style.unwrap_or(0))?, Right),
        Value::Binary(b) => (b.clone(), Right),
        Value::UniqueIdentifier(u) => (u.0.to_vec(), Right),
        Value::Bit(b) => (vec![u8::from(*b)], Left),
        Value::TinyInt(v) => (vec![*v], Left),
        Value::SmallInt(v) => (v.to_be_bytes().to_vec(), Left),
        Value::Int(v) => (v.to_be_bytes().to_vec(), Left),
        Value::BigInt(v) => (v.to_be_bytes().to_vec(), Left),
        Value::Decimal(d) => {
            // Padded on the left like an integer, but cut on the right.
            let bytes = decimal_bytes(*d);
            let padded = matches!(target, DataType::Binary { len } if *len as usize > bytes.len());
            (bytes, if padded { Left } else { Right })
        }
        Value::Money(m) if matches!(source, DataType::SmallMoney) => {
            ((m.0 as i32).to_be_bytes().to_vec(), Left)
        }
        Value::Money(m) => (m.0.to_be_bytes().to_vec(), Left),
        Value::Float(v) => (v.to_bits().to_be_bytes().to_vec(), Left),
        Value::Real(v) => (v.to_bits().to_be_bytes().to_vec(), Left),
        Value::DateTime(d) => {
            let mut bytes = d.days.to_be_bytes().to_vec();
            bytes.extend_from_slice(&d.ticks.to_be_bytes());
            (bytes, Left)
        }
        Value::SmallDateTime(d) => {
            let mut bytes = d.days.to_be_bytes().to_vec();
            bytes.extend_from_slice(&d.minutes.to_be_bytes());
            (bytes, Left)
        }
        Value::Date(d) => (date_bytes(*d).to_vec(), Left),
        Value::Time(t) => (time_bytes(*t, scale_of(source), true), Left),
        Value::DateTime2(d) => (datetime2_bytes(*d, scale_of(source)), Left),
        Value::DateTimeOffset(d) => {
            let mut bytes = datetime2_bytes(d.utc, scale_of(source));
            bytes.extend_from_slice(&d.offset_minutes.to_le_bytes());
            (bytes, Left)
        }
        Value::Null => return Ok(Value::Null),
    };
    Ok(Value::Binary(fit(bytes, target, side)))
}

fn scale_of(ty: &DataType) -> u8 {
    match *ty {
        DataType::Time { scale }
        | DataType::DateTime2 { scale }
        | DataType::DateTimeOffset { scale } => scale.min(7),
        _ => 7,
    }
}

/// Pads binary(n) to n bytes and cuts anything longer than the target.
fn fit(mut bytes: Vec<u8>, target: &DataType, side: Side) -> Vec<u8> {
    let (limit, pad) = match *target {
        DataType::Binary { len } => (len as usize, true),
        DataType::VarBinary {
            len: Length::Bounded(n),
        } => (n as usize, false),
        _ => return bytes,
    };
    if bytes.len() > limit {
        match side {
            Side::Right => bytes.truncate(limit),
            Side::Left => {
                bytes.drain(..bytes.len() - limit);
            }
        }
    } else if pad && bytes.len() < limit {
        let zeros = limit - bytes.len();
        match side {
            Side::Right => bytes.resize(limit, 0),
            Side::Left => {
                bytes.splice(0..0, std::iter::repeat_n(0, zeros));
            }
        }
    }
    bytes
}

/// Text to bytes. Style 0: the characters as the string type stores them
/// (Windows-1252 or UTF-16LE). Style 1: `0x` and an even number of hex
/// digits; style 2: the digits alone. Bad hex is Msg 8114.
fn text_to_bytes(
    text: &str,
    source: &DataType,
    target: &DataType,
    style: i32,
) -> SqlResult<Vec<u8>> {
    if style == 0 {
        return Ok(text_bytes(text, source));
    }
    let error = || errors::converting(errors::string_name(source), root_name(target));
    let digits = if style == 1 {
        text.strip_prefix("0x")
            .or_else(|| text.strip_prefix("0X"))
            .ok_or_else(error)?
    } else {
        text
    };
    if digits.len() % 2 != 0 {
        return Err(error());
    }
    digits
        .as_bytes()
        .chunks(2)
        .map(|pair| {
            let hex = std::str::from_utf8(pair).map_err(|_| error())?;
            u8::from_str_radix(hex, 16).map_err(|_| error())
        })
        .collect()
}

/// The rightmost `width` bytes as a big-endian number, zeros in front.
fn tail(bytes: &[u8], width: usize) -> u64 {
    let tail = &bytes[bytes.len().saturating_sub(width)..];
    tail.iter().fold(0u64, |v, &b| (v << 8) | u64::from(b))
}

/// The integer a binary value holds: its rightmost bytes, big-endian two's
/// complement. Never an overflow: what does not fit is cut.
pub(super) fn integer_from_bytes(bytes: &[u8], target: &DataType) -> i64 {
    match target {
        DataType::TinyInt => i64::from(tail(bytes, 1) as u8),
        DataType::SmallInt => i64::from(tail(bytes, 2) as u16 as i16),
        DataType::Int => i64::from(tail(bytes, 4) as u32 as i32),
        _ => tail(bytes, 8) as i64,
    }
}

/// money from its rightmost 8 bytes, smallmoney from its rightmost 4.
pub(super) fn money_from_bytes(bytes: &[u8], small: bool) -> Money {
    if small {
        Money(i64::from(tail(bytes, 4) as u32 as i32))
    } else {
        Money(tail(bytes, 8) as i64)
    }
}

/// decimal's binary form: precision, scale, a zero byte, the sign (1 for
/// positive), then the magnitude little-endian in as few 4-byte words as
/// hold it.
fn decimal_bytes(d: Decimal) -> Vec<u8> {
    let magnitude = d.mantissa.unsigned_abs();
    let bits = 128 - magnitude.leading_zeros() as usize;
    let words = bits.div_ceil(32).max(1);
    let mut bytes = vec![d.precision, d.scale, 0, u8::from(d.mantissa >= 0)];
    bytes.extend_from_slice(&magnitude.to_le_bytes()[..4 * words]);
    bytes
}

/// Reads decimal's binary form; anything else is Msg 8114.
pub(super) fn decimal_from_bytes(bytes: &[u8]) -> SqlResult<Decimal> {
    let error = || errors::converting("varbinary", "numeric");
    let [precision, scale, _, sign, magnitude @ ..] = bytes else {
        return Err(error());
    };
    let (precision, scale) = (*precision, *scale);
    if magnitude.is_empty()
        || magnitude.len() > 16
        || precision == 0
        || precision > crate::decimal::MAX_PRECISION
        || scale > precision
    {
        return Err(error());
    }
    let value = magnitude
        .iter()
        .rev()
        .fold(0u128, |v, &b| (v << 8) | u128::from(b));
    let limit = pow10(u32::from(precision)).unwrap_or(i128::MAX) as u128;
    if value >= limit {
        return Err(error());
    }
    let mantissa = match (sign, value) {
        (1, v) => v as i128,
        (0, v) if v != 0 => -(v as i128),
        _ => return Err(error()),
    };
    Ok(Decimal {
        mantissa,
        precision,
        scale,
    })
}

fn date_bytes(d: Date) -> [u8; 3] {
    let [a, b, c, _] = d.0.to_le_bytes();
    [a, b, c]
}

/// Bytes of time(n)'s units: 3, 4 or 5.
fn time_width(scale: u8) -> usize {
    match scale {
        0..=2 => 3,
        3..=4 => 4,
        _ => 5,
    }
}

fn time_bytes(t: Time, scale: u8, with_scale: bool) -> Vec<u8> {
    let units = time_units(t.round_to_scale(scale), scale);
    let mut bytes = Vec::with_capacity(6);
    if with_scale {
        bytes.push(scale);
    }
    bytes.extend_from_slice(&units.to_le_bytes()[..time_width(scale)]);
    bytes
}

fn datetime2_bytes(d: DateTime2, scale: u8) -> Vec<u8> {
    let rounded = d.round_to_scale(scale).unwrap_or(d);
    let mut bytes = time_bytes(rounded.time, scale, true);
    bytes.extend_from_slice(&date_bytes(rounded.date));
    bytes
}

fn little_endian(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .rev()
        .fold(0u64, |v, &b| (v << 8) | u64::from(b))
}

/// A scale byte and a time(n) in units: the time and the bytes that follow.
fn read_time(bytes: &[u8]) -> Option<(Time, &[u8])> {
    let (&scale, rest) = bytes.split_first()?;
    if scale > 7 {
        return None;
    }
    let width = time_width(scale);
    let units = little_endian(rest.get(..width)?);
    Some((time_of_units(units, scale)?, &rest[width..]))
}

fn read_date(bytes: &[u8]) -> Option<Date> {
    let date = Date(little_endian(bytes.get(..3)?) as i32);
    date.is_valid().then_some(date)
}

/// A binary value read in a date or time type's form. datetime and
/// smalldatetime take their rightmost 8 or 4 bytes (Msg 210 if those are
/// no such value); the other types need their exact form (Msg 241).
pub(super) fn temporal_from_bytes(bytes: &[u8], target: &DataType) -> SqlResult<Value> {
    let value = match *target {
        DataType::DateTime => {
            let raw = tail(bytes, 8);
            let value = DateTime {
                days: (raw >> 32) as u32 as i32,
                ticks: raw as u32,
            };
            return if value.is_valid() {
                Ok(Value::DateTime(value))
            } else {
                Err(errors::binary_datetime())
            };
        }
        DataType::SmallDateTime => {
            let raw = tail(bytes, 4);
            let value = SmallDateTime {
                days: (raw >> 16) as u16,
                minutes: raw as u16,
            };
            return if value.is_valid() {
                Ok(Value::SmallDateTime(value))
            } else {
                Err(errors::binary_datetime())
            };
        }
        DataType::Date => matches!(bytes.len(), 3 | 4)
            .then(|| read_date(bytes))
            .flatten()
            .map(Value::Date),
        DataType::Time { scale } => read_time(bytes)
            .filter(|(_, rest)| rest.is_empty())
            .map(|(t, _)| Value::Time(t.round_to_scale(scale))),
        DataType::DateTime2 { scale } => read_time(bytes)
            .filter(|(_, rest)| rest.len() == 3)
            .and_then(|(t, rest)| Some(DateTime2::new(read_date(rest)?, t)))
            .and_then(|d| d.round_to_scale(scale))
            .map(Value::DateTime2),
        DataType::DateTimeOffset { scale } => read_time(bytes)
            .filter(|(_, rest)| rest.len() == 5)
            .and_then(|(t, rest)| {
                let utc = DateTime2::new(read_date(rest)?, t).round_to_scale(scale)?;
                let offset_minutes = i16::from_le_bytes([rest[3], rest[4]]);
                let value = DateTimeOffset {
                    utc,
                    offset_minutes,
                };
                value.is_valid().then_some(value)
            })
            .map(Value::DateTimeOffset),
        _ => None,
    };
    value.ok_or_else(SqlError::date_conversion)
}
