//! NEWID, HASHBYTES, CHECKSUM, BINARY_CHECKSUM, ISNUMERIC, ISDATE and
//! DATALENGTH.
//!
//! CHECKSUM's algorithm is SQL Server's own and undocumented; hekla's
//! values differ from SQL Server's. What holds: the same arguments give
//! the same value on every run and machine, values that compare equal
//! under `=` (1 and 1.0, 'abc' and 'ABC ' under the default
//! case-insensitive collation) give the same CHECKSUM, and
//! BINARY_CHECKSUM tells case and trailing spaces apart.

use super::{digest, random, sized, text};
use hekla_plan::bind::functions::MiscFn;
use hekla_types::convert::try_convert_under;
use hekla_types::datetime::DateFormat;
use hekla_types::{DataType, Decimal, Length, SqlError, SqlResult, Value};

/// `date_format` is the session's, which ISDATE reads text in.
pub(super) fn evaluate(
    function: MiscFn,
    args: &[Value],
    result_type: &DataType,
    date_format: DateFormat,
) -> SqlResult<Value> {
    Ok(match function {
        MiscFn::NewId => Value::UniqueIdentifier(random::new_guid()),
        MiscFn::HashBytes => hash_bytes(text(&args[0]), &args[1])?,
        MiscFn::Checksum { binary } => Value::Int(checksum(args, binary)),
        MiscFn::IsNumeric => Value::Int(i32::from(is_numeric(&args[0]))),
        MiscFn::IsDate => Value::Int(i32::from(match &args[0] {
            Value::String(text) => converts(text, &DataType::DateTime, date_format),
            Value::DateTime(_) | Value::SmallDateTime(_) => true,
            _ => false,
        })),
        MiscFn::DataLength(data_type) => sized(data_length(&args[0], &data_type), result_type),
    })
}

/// `HASHBYTES(algorithm, bytes)`: NULL for an algorithm SQL Server does
/// not have; MD2 and MD4 are refused rather than faked.
fn hash_bytes(algorithm: &str, input: &Value) -> SqlResult<Value> {
    let Value::Binary(bytes) = input else {
        unreachable!("the binder converts HASHBYTES input to varbinary");
    };
    let digest = match algorithm.trim_end().to_ascii_uppercase().as_str() {
        "MD5" => digest::md5(bytes),
        "SHA" | "SHA1" => digest::sha1(bytes),
        "SHA2_256" => digest::sha256(bytes),
        "SHA2_512" => digest::sha512(bytes),
        "MD2" | "MD4" => {
            return Err(SqlError::new(
                10794,
                16,
                1,
                format!(
                    "The HASHBYTES algorithm '{}' is not supported by hekla yet.",
                    algorithm.trim_end()
                ),
            ))
        }
        _ => return Ok(Value::Null),
    };
    Ok(Value::Binary(digest))
}

/// Whether `text` converts to `target` (TRY_CONVERT does not say NULL).
fn converts(text: &str, target: &DataType, date_format: DateFormat) -> bool {
    let source = DataType::NVarChar {
        len: Length::Max,
        collation: Default::default(),
    };
    try_convert_under(
        &Value::String(text.to_string()),
        &source,
        target,
        None,
        date_format,
    )
    .is_ok_and(|v| !v.is_null())
}

/// ISNUMERIC: numbers are; text is when it converts to int, float, money
/// or decimal, or is one of the lone signs and currency symbol SQL Server
/// documents as numeric (`+`, `-`, `$`); blank text is not, though CAST
/// makes 0 of it.
fn is_numeric(value: &Value) -> bool {
    match value {
        Value::Bit(_)
        | Value::TinyInt(_)
        | Value::SmallInt(_)
        | Value::Int(_)
        | Value::BigInt(_)
        | Value::Decimal(_)
        | Value::Money(_)
        | Value::Float(_)
        | Value::Real(_) => true,
        Value::String(text) if text.trim().is_empty() => false,
        Value::String(text) => {
            matches!(text.trim(), "+" | "-" | "$")
                || [
                    DataType::Int,
                    DataType::Float,
                    DataType::Money,
                    DataType::Decimal {
                        precision: 38,
                        scale: 10,
                    },
                ]
                .iter()
                .any(|target| converts(text, target, DateFormat::default()))
        }
        _ => false,
    }
}

/// Bytes of a value as SQL Server stores it: strings in Windows-1252 or
/// UTF-16, fixed-size types their storage size.
fn data_length(value: &Value, data_type: &DataType) -> i64 {
    use DataType as T;
    let time_bytes = |scale: u8| match scale {
        0..=2 => 3,
        3..=4 => 4,
        _ => 5,
    };
    match (value, *data_type) {
        (Value::String(text), T::NChar { .. } | T::NVarChar { .. }) => {
            2 * text.encode_utf16().count() as i64
        }
        (Value::String(text), _) => text.chars().count() as i64,
        (Value::Binary(bytes), _) => bytes.len() as i64,
        (_, T::Bit | T::TinyInt) => 1,
        (_, T::SmallInt) => 2,
        (_, T::Int | T::SmallMoney | T::Real | T::SmallDateTime) => 4,
        (_, T::BigInt | T::Money | T::Float | T::DateTime) => 8,
        (_, T::Decimal { precision, .. }) => match precision {
            0..=9 => 5,
            10..=19 => 9,
            20..=28 => 13,
            _ => 17,
        },
        (_, T::Date) => 3,
        (_, T::Time { scale }) => time_bytes(scale),
        (_, T::DateTime2 { scale }) => time_bytes(scale) + 3,
        (_, T::DateTimeOffset { scale }) => time_bytes(scale) + 5,
        (_, T::UniqueIdentifier) => 16,
        (_, other) => unreachable!("DATALENGTH of {other:?} holding {value:?}"),
    }
}

/// Rotates the running value and mixes each argument's hash in, so the
/// order of arguments matters.
fn checksum(args: &[Value], binary: bool) -> i32 {
    let value = args.iter().fold(0u32, |running, arg| {
        running.rotate_left(4) ^ value_hash(arg, binary)
    });
    value as i32
}

/// FNV-1a over a value's canonical bytes: numbers by their exact value
/// (so 1, 1.0 and $1 agree), text folded as the default collation
/// compares it unless `binary`, dates by their instant.
fn value_hash(value: &Value, binary: bool) -> u32 {
    let bytes: Vec<u8> = match value {
        Value::Null => vec![0xFF],
        Value::Bit(b) => number(i128::from(*b), 0),
        Value::TinyInt(_) | Value::SmallInt(_) | Value::Int(_) | Value::BigInt(_) => {
            number(i128::from(value.as_i64().unwrap_or(0)), 0)
        }
        Value::Decimal(Decimal {
            mantissa, scale, ..
        }) => number(*mantissa, *scale),
        Value::Money(m) => number(i128::from(m.0), 4),
        Value::Float(v) => float_bytes(*v),
        Value::Real(v) => float_bytes(f64::from(*v)),
        Value::String(text) if binary => text.as_bytes().to_vec(),
        Value::String(text) => text.trim_end_matches(' ').to_lowercase().into_bytes(),
        Value::Binary(b) => b.clone(),
        Value::UniqueIdentifier(u) => u.0.to_vec(),
        Value::Date(d) => i64::from(d.0).to_le_bytes().to_vec(),
        Value::Time(t) => t.0.to_le_bytes().to_vec(),
        Value::DateTime(d) => d.to_datetime2().to_ticks().to_le_bytes().to_vec(),
        Value::SmallDateTime(d) => d.to_datetime2().to_ticks().to_le_bytes().to_vec(),
        Value::DateTime2(d) => d.to_ticks().to_le_bytes().to_vec(),
        Value::DateTimeOffset(d) => d.utc.to_ticks().to_le_bytes().to_vec(),
    };
    bytes.iter().fold(0x811C_9DC5u32, |hash, &byte| {
        (hash ^ u32::from(byte)).wrapping_mul(0x0100_0193)
    })
}

/// `mantissa * 10^-scale` with trailing zeros stripped, so 1.50 and 1.5
/// agree.
fn number(mut mantissa: i128, mut scale: u8) -> Vec<u8> {
    while scale > 0 && mantissa % 10 == 0 {
        mantissa /= 10;
        scale -= 1;
    }
    let mut bytes = mantissa.to_le_bytes().to_vec();
    bytes.push(scale);
    bytes
}

/// A whole float as the integer it equals; others by their bits.
fn float_bytes(v: f64) -> Vec<u8> {
    if v.fract() == 0.0 && v.abs() < 1e37 {
        number(v as i128, 0)
    } else {
        v.to_bits().to_le_bytes().to_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checksum_agrees_with_equality() {
        let one = checksum(&[Value::Int(1)], false);
        assert_eq!(checksum(&[Value::BigInt(1)], false), one);
        assert_eq!(
            checksum(&[Value::Decimal("1.00".parse().unwrap())], false),
            one
        );
        assert_eq!(checksum(&[Value::Float(1.0)], false), one);
        let text = |s: &str| Value::String(s.to_string());
        assert_eq!(
            checksum(&[text("abc")], false),
            checksum(&[text("ABC  ")], false)
        );
        assert_ne!(
            checksum(&[text("abc")], true),
            checksum(&[text("ABC")], true)
        );
        assert_ne!(
            checksum(&[Value::Int(1), Value::Int(2)], false),
            checksum(&[Value::Int(2), Value::Int(1)], false)
        );
    }
}
