//! The errors conversions raise, with SQL Server's numbers and texts (from
//! its message table). States follow what SQL Server reports where that is
//! known; where it is not, they are a plausible 1 or 2.

use crate::{DataType, Length, SqlError};

/// The name SQL Server gives a type in conversion messages: no length or
/// precision, decimal as `numeric`.
pub(super) fn root_name(ty: &DataType) -> &'static str {
    use DataType as T;
    match ty {
        T::Bit => "bit",
        T::TinyInt => "tinyint",
        T::SmallInt => "smallint",
        T::Int => "int",
        T::BigInt => "bigint",
        T::Decimal { .. } => "numeric",
        T::Money => "money",
        T::SmallMoney => "smallmoney",
        T::Float => "float",
        T::Real => "real",
        T::Date => "date",
        T::Time { .. } => "time",
        T::DateTime => "datetime",
        T::DateTime2 { .. } => "datetime2",
        T::SmallDateTime => "smalldatetime",
        T::DateTimeOffset { .. } => "datetimeoffset",
        T::UniqueIdentifier => "uniqueidentifier",
        T::Char { .. } => "char",
        T::VarChar { .. } => "varchar",
        T::NChar { .. } => "nchar",
        T::NVarChar { .. } => "nvarchar",
        T::Binary { .. } => "binary",
        T::VarBinary { .. } => "varbinary",
    }
}

/// How a character type is named in conversion messages: char as
/// `varchar`, nchar as `nvarchar`.
pub(super) fn string_name(ty: &DataType) -> &'static str {
    match ty {
        DataType::NChar { .. } | DataType::NVarChar { .. } => "nvarchar",
        _ => "varchar",
    }
}

/// A type's name in Msg 529 and 257: bare, except that a `max` type says
/// so.
fn chart_name(ty: &DataType) -> String {
    match ty {
        DataType::VarChar {
            len: Length::Max, ..
        }
        | DataType::NVarChar {
            len: Length::Max, ..
        }
        | DataType::VarBinary { len: Length::Max } => format!("{}(max)", root_name(ty)),
        _ => root_name(ty).to_string(),
    }
}

/// Msg 529: CAST or CONVERT between types that never convert.
pub(super) fn not_allowed(from: &DataType, to: &DataType) -> SqlError {
    SqlError::new(
        529,
        16,
        1,
        format!(
            "Explicit conversion from data type {} to {} is not allowed.",
            chart_name(from),
            chart_name(to)
        ),
    )
}

/// Msg 257: an implicit conversion between types that convert only
/// explicitly.
pub(super) fn implicit_not_allowed(from: &DataType, to: &DataType) -> SqlError {
    SqlError::new(
        257,
        16,
        3,
        format!(
            "Implicit conversion from data type {} to {} is not allowed. Use the CONVERT function to run this query.",
            chart_name(from),
            chart_name(to)
        ),
    )
}

/// Msg 8115.
pub(super) fn overflow(from: &str, to: &str, state: u8) -> SqlError {
    SqlError {
        state,
        ..SqlError::arithmetic_overflow(from, to)
    }
}

/// Msg 220: an integer too big for tinyint, smallint or smallmoney.
pub(super) fn integer_overflow(to: &str, value: impl std::fmt::Display, state: u8) -> SqlError {
    SqlError {
        state,
        ..SqlError::integer_overflow(to, value)
    }
}

/// Msg 232: a float (or money) too big for the target, the value shown as
/// C's `%f` shows it (six decimals; past 17 significant digits, zeros).
pub(super) fn float_overflow(to: &str, value: f64, state: u8) -> SqlError {
    let shown = if value.abs() < 1e17 {
        format!("{value:.6}")
    } else {
        let scientific = format!("{value:.16e}");
        let (mantissa, exponent) = scientific.split_once('e').unwrap_or((&scientific, "0"));
        let exponent: usize = exponent.parse().unwrap_or(0);
        let (sign, mantissa) = match mantissa.strip_prefix('-') {
            Some(m) => ("-", m),
            None => ("", mantissa),
        };
        let digits = mantissa.replace('.', "");
        let zeros = "0".repeat((exponent + 1).saturating_sub(digits.len()));
        format!("{sign}{digits}{zeros}.000000")
    };
    SqlError::new(
        232,
        16,
        state,
        format!("Arithmetic overflow error for type {to}, value = {shown}."),
    )
}

/// Msg 234: a money value too wide for a character target.
pub(super) fn money_text_space(to: &str) -> SqlError {
    SqlError::new(
        234,
        16,
        1,
        format!("There is insufficient result space to convert a money value to {to}."),
    )
}

/// Msg 237: a money value too big for an integer or smallmoney.
pub(super) fn money_space(to: &str, state: u8) -> SqlError {
    SqlError::new(
        237,
        16,
        state,
        format!("There is insufficient result space to convert a money value to {to}."),
    )
}

/// Msg 245: text that is not a number of an integer type or bit.
pub(super) fn conversion_failed(source: &str, text: &str, to: &str) -> SqlError {
    SqlError::new(
        245,
        16,
        1,
        format!("Conversion failed when converting the {source} value '{text}' to data type {to}."),
    )
}

/// Msg 244: text whose number is too big for tinyint (INT1) or smallint
/// (INT2).
pub(super) fn text_overflow_small(source: &str, text: &str, column: &str, state: u8) -> SqlError {
    SqlError::new(
        244,
        16,
        state,
        format!(
            "The conversion of the {source} value '{text}' overflowed an {column} column. Use a larger integer column."
        ),
    )
}

/// Msg 248: text whose number is too big for int.
pub(super) fn text_overflow_int(source: &str, text: &str) -> SqlError {
    SqlError::new(
        248,
        16,
        1,
        format!("The conversion of the {source} value '{text}' overflowed an int column."),
    )
}

/// Msg 8114.
pub(super) fn converting(from: &str, to: &str) -> SqlError {
    SqlError::new(
        8114,
        16,
        5,
        format!("Error converting data type {from} to {to}."),
    )
}

/// Msg 235: text that is not a money amount.
pub(super) fn money_syntax() -> SqlError {
    SqlError::new(
        235,
        16,
        0,
        "Cannot convert a char value to money. The char value has incorrect syntax.",
    )
}

/// Msg 293: text that is not a smallmoney amount.
pub(super) fn smallmoney_syntax() -> SqlError {
    SqlError::new(
        293,
        16,
        1,
        "Cannot convert char value to smallmoney. The char value has incorrect syntax.",
    )
}

/// Msg 281: a style the conversion to a character string does not have.
pub(super) fn bad_style(style: i32, from: &str) -> SqlError {
    SqlError::new(
        281,
        16,
        1,
        format!("{style} is not a valid style number when converting from {from} to a character string."),
    )
}

/// Msg 9809.
pub(super) fn style_not_supported(style: i32, from: &str, to: &str) -> SqlError {
    SqlError::new(
        9809,
        16,
        1,
        format!("The style {style} is not supported for conversions from {from} to {to}."),
    )
}

/// Msg 8169.
pub(super) fn uniqueidentifier_text() -> SqlError {
    SqlError::new(
        8169,
        16,
        2,
        "Conversion failed when converting from a character string to uniqueidentifier.",
    )
}

/// Msg 8170: a uniqueidentifier into fewer than 36 characters.
pub(super) fn uniqueidentifier_space() -> SqlError {
    SqlError::new(
        8170,
        16,
        2,
        "Insufficient result space to convert uniqueidentifier value to char.",
    )
}

/// Msg 210: bytes that are no datetime or smalldatetime.
pub(super) fn binary_datetime() -> SqlError {
    SqlError::new(
        210,
        16,
        1,
        "Conversion failed when converting datetime from binary/varbinary string.",
    )
}

/// Msg 10794, hekla's refusal of what SQL Server has and hekla does not.
pub(super) fn not_supported(feature: &str) -> SqlError {
    SqlError::new(
        10794,
        16,
        1,
        format!("The feature '{feature}' is not supported by hekla."),
    )
}
