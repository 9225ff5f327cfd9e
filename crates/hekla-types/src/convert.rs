//! Data type conversion as SQL Server does it: `CAST`, `CONVERT` with its
//! styles, `TRY_CAST` / `TRY_CONVERT`, and the implicit conversions the
//! executor inserts.
//!
//! [`conversion`] is SQL Server's conversion chart (which pairs convert
//! implicitly, which only with CAST or CONVERT, which never); [`convert`]
//! and [`convert_from`] perform one conversion with CAST semantics and
//! SQL Server's errors (number, severity, state and text).
//!
//! What CAST does that assignment does not: strings and binary values too
//! long for the target are cut silently. Assignment (INSERT, UPDATE, SET)
//! raises Msg 2628 instead: convert strings and binary values to the
//! unbounded type of the target's family (`varchar(max)`, `varbinary(max)`)
//! and let [`DataType::encode`] check the length. Other values can convert
//! straight to the column's type: a number too wide for a character target
//! is `*` or an error either way, as SQL Server documents.
//!
//! Implicit conversions: [`check_implicit`] gives the error for a pair the
//! chart does not convert implicitly (Msg 257 or 206), then
//! [`convert_from`] converts.
//!
//! Reading a value's type: `Value` does not say whether a string is varchar
//! or nvarchar, nor a time's scale; [`convert`] assumes the
//! [`natural_type`] of the value, and the executor, which knows the static
//! type of every expression, should call [`convert_from`].
//!
//! The session's SET DATEFORMAT decides how text without a CONVERT style
//! reads as a date ([`convert_under`]; [`convert_from`] reads month, day,
//! year as `us_english` does). Not modelled: LANGUAGE (month names are
//! English, as under `us_english`), Hijri styles 130 and 131, float styles 128 and 129, and the types hekla
//! does not have (text, ntext, image, xml, sql_variant, timestamp, CLR
//! types).

mod binary;
mod errors;
mod number;
mod temporal;
mod text;

#[cfg(test)]
mod tests;

/// Windows-1252, the code page of every char/varchar collation hekla has
/// (the TDS server sends char and varchar in it).
pub use text::{cp1252_byte, cp1252_char};

use crate::datetime::DateFormat;
use crate::{Collation, DataType, Length, SqlError, SqlResult, Value};

/// How SQL Server allows converting one type to another (its conversion
/// chart).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Conversion {
    /// Happens without CAST or CONVERT (assignment, comparison, arithmetic).
    Implicit,
    /// Needs CAST or CONVERT; implicitly it is Msg 257.
    Explicit,
    /// Never: Msg 529 for CAST and CONVERT, Msg 206 implicitly.
    NotAllowed,
}

/// The broad groups the chart is drawn in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Group {
    Binary,
    String,
    /// datetime and smalldatetime, which numbers convert to and from.
    LegacyDate,
    Date,
    Time,
    /// datetime2 and datetimeoffset.
    DateTime,
    /// float and real.
    Approximate,
    /// bit, the integers, decimal, money and smallmoney.
    Exact,
    UniqueIdentifier,
}

fn group(ty: &DataType) -> Group {
    use DataType as T;
    match ty {
        T::Binary { .. } | T::VarBinary { .. } => Group::Binary,
        T::Char { .. } | T::VarChar { .. } | T::NChar { .. } | T::NVarChar { .. } => Group::String,
        T::DateTime | T::SmallDateTime => Group::LegacyDate,
        T::Date => Group::Date,
        T::Time { .. } => Group::Time,
        T::DateTime2 { .. } | T::DateTimeOffset { .. } => Group::DateTime,
        T::Float | T::Real => Group::Approximate,
        T::Bit
        | T::TinyInt
        | T::SmallInt
        | T::Int
        | T::BigInt
        | T::Decimal { .. }
        | T::Money
        | T::SmallMoney => Group::Exact,
        T::UniqueIdentifier => Group::UniqueIdentifier,
    }
}

/// SQL Server's conversion chart for the types hekla has.
///
/// Explicit only: strings to binary, datetime and smalldatetime to numbers,
/// and (not confirmed against SQL Server) binary to and from date, time,
/// datetime2 and datetimeoffset. Not allowed: binary to float and real;
/// numbers to and from date, time, datetime2 and datetimeoffset; date to
/// time and back; uniqueidentifier to and from numbers and dates.
/// Everything else, including every pair within a group, is implicit.
pub fn conversion(from: &DataType, to: &DataType) -> Conversion {
    use Conversion::*;
    use Group as G;
    let modern = |g: Group| matches!(g, G::Date | G::Time | G::DateTime);
    let number = |g: Group| matches!(g, G::Exact | G::Approximate);
    match (group(from), group(to)) {
        (a, b) if a == b => Implicit,
        (G::Binary, G::Approximate) => NotAllowed,
        (G::String, G::Binary) => Explicit,
        (G::Binary, g) | (g, G::Binary) if modern(g) => Explicit,
        (G::Date, G::Time) | (G::Time, G::Date) => NotAllowed,
        (a, b) if (modern(a) && number(b)) || (number(a) && modern(b)) => NotAllowed,
        (G::LegacyDate, b) if number(b) => Explicit,
        (G::UniqueIdentifier, G::Binary | G::String)
        | (G::Binary | G::String, G::UniqueIdentifier) => Implicit,
        (G::UniqueIdentifier, _) | (_, G::UniqueIdentifier) => NotAllowed,
        _ => Implicit,
    }
}

/// What an implicit conversion (assignment, comparison, arithmetic) must
/// check first: Msg 257 for a pair that converts only with CAST or CONVERT,
/// Msg 206 for a pair that never converts.
pub fn check_implicit(from: &DataType, to: &DataType) -> SqlResult<()> {
    match conversion(from, to) {
        Conversion::Implicit => Ok(()),
        Conversion::Explicit => Err(errors::implicit_not_allowed(from, to)),
        Conversion::NotAllowed => Err(SqlError::type_clash(
            errors::root_name(from),
            errors::root_name(to),
        )),
    }
}

/// `CAST(value AS target)` or `CONVERT(target, value, style)`, reading the
/// value as its [`natural_type`]. NULL converts to NULL.
pub fn convert(value: &Value, target: &DataType, style: Option<i32>) -> SqlResult<Value> {
    match natural_type(value) {
        Some(source) => convert_from(value, &source, target, style),
        None => Ok(Value::Null),
    }
}

/// `CAST(value AS target)` or `CONVERT(target, value, style)` for a value
/// of type `source`: SQL Server's result, or its error, under SET
/// DATEFORMAT mdy.
///
/// Errors that depend only on the types (Msg 529 for a pair the chart
/// refuses, Msg 281 and 9809 for a style the pair does not take) are raised
/// for NULL too, as SQL Server raises them when it compiles the statement.
pub fn convert_from(
    value: &Value,
    source: &DataType,
    target: &DataType,
    style: Option<i32>,
) -> SqlResult<Value> {
    convert_under(value, source, target, style, DateFormat::default())
}

/// [`convert_from`] in a session whose SET DATEFORMAT is `date_format`.
pub fn convert_under(
    value: &Value,
    source: &DataType,
    target: &DataType,
    style: Option<i32>,
    date_format: DateFormat,
) -> SqlResult<Value> {
    if conversion(source, target) == Conversion::NotAllowed {
        return Err(errors::not_allowed(source, target));
    }
    check_style(source, target, style)?;
    if value.is_null() {
        return Ok(Value::Null);
    }
    check_value(value, source)?;
    use DataType as T;
    match target {
        T::Bit
        | T::TinyInt
        | T::SmallInt
        | T::Int
        | T::BigInt
        | T::Decimal { .. }
        | T::Money
        | T::SmallMoney
        | T::Float
        | T::Real => number::convert(value, source, target),
        T::Date
        | T::Time { .. }
        | T::DateTime
        | T::DateTime2 { .. }
        | T::SmallDateTime
        | T::DateTimeOffset { .. } => temporal::convert(value, source, target, style, date_format),
        T::UniqueIdentifier => to_uniqueidentifier(value),
        T::Char { .. } | T::VarChar { .. } | T::NChar { .. } | T::NVarChar { .. } => {
            text::convert(value, source, target, style)
        }
        T::Binary { .. } | T::VarBinary { .. } => binary::convert(value, source, target, style),
    }
}

/// The implicit conversion of a constant when no session setting can
/// change it, so that it can be made once, when a statement is bound:
/// None if it fails, or if some SET DATEFORMAT reads the text differently.
pub fn convert_settled(value: &Value, source: &DataType, target: &DataType) -> Option<Value> {
    let converted = convert_from(value, source, target, None).ok()?;
    let reads_a_date = matches!(value, Value::String(_))
        && matches!(
            group(target),
            Group::LegacyDate | Group::Date | Group::Time | Group::DateTime
        );
    let settled = !reads_a_date
        || DateFormat::ALL.into_iter().all(|format| {
            convert_under(value, source, target, None, format).is_ok_and(|v| v == converted)
        });
    settled.then_some(converted)
}

/// Errors `TRY_CAST` and `TRY_CONVERT` turn into NULL: a value that does not
/// convert. A conversion the chart refuses (Msg 529) or a bad style is
/// still an error.
const CONVERSION_FAILURES: [u32; 21] = [
    210, 220, 232, 234, 235, 236, 237, 241, 242, 244, 245, 248, 292, 293, 294, 295, 8114, 8115,
    8169, 8170, 9807,
];

/// `TRY_CAST(value AS target)` / `TRY_CONVERT(target, value, style)`: NULL
/// where CAST would fail on the value, the error where it fails on the
/// types.
pub fn try_convert(
    value: &Value,
    source: &DataType,
    target: &DataType,
    style: Option<i32>,
) -> SqlResult<Value> {
    try_convert_under(value, source, target, style, DateFormat::default())
}

/// [`try_convert`] in a session whose SET DATEFORMAT is `date_format`.
pub fn try_convert_under(
    value: &Value,
    source: &DataType,
    target: &DataType,
    style: Option<i32>,
    date_format: DateFormat,
) -> SqlResult<Value> {
    match convert_under(value, source, target, style, date_format) {
        Err(e) if CONVERSION_FAILURES.contains(&e.number) => Ok(Value::Null),
        result => result,
    }
}

/// A value as text, as `CAST(value AS nvarchar(max))` writes it (what
/// string concatenation, CONCAT and PRINT show); None for NULL. Unlike the
/// value's `Display` (the form client tools show), money has two decimals,
/// float six significant digits and datetime style 0 (`Jan  1 2020
/// 12:00AM`).
pub fn to_text(value: &Value, source: &DataType) -> SqlResult<Option<String>> {
    let target = DataType::NVarChar {
        len: Length::Max,
        collation: source.collation().unwrap_or_default(),
    };
    match convert_from(value, source, &target, None)? {
        Value::String(text) => Ok(Some(text)),
        _ => Ok(None),
    }
}

/// The type a value has when nothing else is known: `decimal(p, s)` from
/// the value, time, datetime2 and datetimeoffset at scale 7, strings as
/// `varchar(max)` (`nvarchar(max)` if a character has no Windows-1252
/// code), binary as `varbinary(max)`. None for NULL.
pub fn natural_type(value: &Value) -> Option<DataType> {
    use DataType as T;
    let collation = Collation::default();
    Some(match value {
        Value::Null => return None,
        Value::Bit(_) => T::Bit,
        Value::TinyInt(_) => T::TinyInt,
        Value::SmallInt(_) => T::SmallInt,
        Value::Int(_) => T::Int,
        Value::BigInt(_) => T::BigInt,
        Value::Decimal(d) => T::Decimal {
            precision: d.precision,
            scale: d.scale,
        },
        Value::Money(_) => T::Money,
        Value::Float(_) => T::Float,
        Value::Real(_) => T::Real,
        Value::Date(_) => T::Date,
        Value::Time(_) => T::Time { scale: 7 },
        Value::DateTime(_) => T::DateTime,
        Value::DateTime2(_) => T::DateTime2 { scale: 7 },
        Value::SmallDateTime(_) => T::SmallDateTime,
        Value::DateTimeOffset(_) => T::DateTimeOffset { scale: 7 },
        Value::UniqueIdentifier(_) => T::UniqueIdentifier,
        Value::String(s) if s.chars().all(|c| text::cp1252_byte(c).is_some()) => T::VarChar {
            len: Length::Max,
            collation,
        },
        Value::String(_) => T::NVarChar {
            len: Length::Max,
            collation,
        },
        Value::Binary(_) => T::VarBinary { len: Length::Max },
    })
}

/// Styles are checked from the types alone: date and time values to
/// strings take the styles in SQL Server's table (Msg 281 otherwise),
/// binary to strings and back 0, 1 and 2, and a date or time value to
/// datetimeoffset only 0 and 1 (Msg 9809). Other pairs ignore the style.
fn check_style(source: &DataType, target: &DataType, style: Option<i32>) -> SqlResult<()> {
    let Some(style) = style else {
        return Ok(());
    };
    let (from, to) = (group(source), group(target));
    let dated = |g: Group| {
        matches!(
            g,
            Group::LegacyDate | Group::Date | Group::Time | Group::DateTime
        )
    };
    match (from, to) {
        (f, Group::String) if dated(f) => temporal::check_output_style(source, style),
        (Group::Binary, Group::String) | (Group::String, Group::Binary) => {
            let from = match from {
                Group::String => errors::string_name(source),
                _ => errors::root_name(source),
            };
            if (0..=2).contains(&style) {
                Ok(())
            } else {
                Err(errors::bad_style(style, from))
            }
        }
        (f, Group::DateTime) if dated(f) && matches!(target, DataType::DateTimeOffset { .. }) => {
            if matches!(style, 0 | 1) {
                Ok(())
            } else {
                Err(errors::style_not_supported(
                    style,
                    errors::root_name(source),
                    errors::root_name(target),
                ))
            }
        }
        _ => Ok(()),
    }
}

/// A value of another family than its declared type is the caller's bug;
/// it is reported as SQL Server's type clash rather than misread.
fn check_value(value: &Value, source: &DataType) -> SqlResult<()> {
    use DataType as T;
    let fits = match source {
        T::Bit => matches!(value, Value::Bit(_)),
        T::TinyInt | T::SmallInt | T::Int | T::BigInt => value.as_i64().is_some(),
        T::Decimal { .. } => matches!(value, Value::Decimal(_)),
        T::Money | T::SmallMoney => matches!(value, Value::Money(_)),
        T::Float | T::Real => matches!(value, Value::Float(_) | Value::Real(_)),
        T::Date => matches!(value, Value::Date(_)),
        T::Time { .. } => matches!(value, Value::Time(_)),
        T::DateTime => matches!(value, Value::DateTime(_)),
        T::DateTime2 { .. } => matches!(value, Value::DateTime2(_)),
        T::SmallDateTime => matches!(value, Value::SmallDateTime(_)),
        T::DateTimeOffset { .. } => matches!(value, Value::DateTimeOffset(_)),
        T::UniqueIdentifier => matches!(value, Value::UniqueIdentifier(_)),
        T::Char { .. } | T::VarChar { .. } | T::NChar { .. } | T::NVarChar { .. } => {
            matches!(value, Value::String(_))
        }
        T::Binary { .. } | T::VarBinary { .. } => matches!(value, Value::Binary(_)),
    };
    if fits {
        Ok(())
    } else {
        Err(SqlError::type_clash(value.type_name(), &source.sql_name()))
    }
}

/// uniqueidentifier from text (the first 36 characters, 38 with braces;
/// what follows is ignored, as in SQL Server), from binary (the first 16
/// bytes in storage order, zero-padded) or from itself.
fn to_uniqueidentifier(value: &Value) -> SqlResult<Value> {
    let uuid = match value {
        Value::UniqueIdentifier(u) => *u,
        Value::String(s) => {
            let width = if s.starts_with('{') { 38 } else { 36 };
            let head = s
                .char_indices()
                .nth(width)
                .map_or(s.as_str(), |(end, _)| &s[..end]);
            if head.starts_with(char::is_whitespace) {
                return Err(errors::uniqueidentifier_text());
            }
            head.parse()?
        }
        Value::Binary(bytes) => {
            let mut out = [0u8; 16];
            let n = bytes.len().min(16);
            out[..n].copy_from_slice(&bytes[..n]);
            crate::Uuid(out)
        }
        _ => return Err(errors::uniqueidentifier_text()),
    };
    Ok(Value::UniqueIdentifier(uuid))
}
