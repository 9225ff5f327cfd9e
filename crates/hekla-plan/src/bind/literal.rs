//! Literals to typed values, with SQL Server's literal types: `12` is int
//! (bigint and then numeric(p, 0) when larger), `1.50` is numeric(3, 2),
//! `1.5E3` float, `$1.50` money, `'ab'` varchar(2), `N'ab'` nvarchar(2),
//! `0x0A` varbinary(1), and `NULL` int.

use hekla_parser::ast::Literal;
use hekla_types::decimal::MAX_PRECISION;
use hekla_types::{Collation, DataType, Decimal, Length, Money, SqlError, SqlResult, Value};

/// The value and type of a literal, under `collation` for strings.
pub fn literal(literal: &Literal, collation: Collation) -> SqlResult<(Value, DataType)> {
    Ok(match literal {
        Literal::Null => (Value::Null, DataType::Int),
        Literal::Integer(digits) => integer(digits)?,
        Literal::Decimal(text) => {
            let value: Decimal = text.parse()?;
            let (precision, scale) = (value.precision, value.scale);
            (
                Value::Decimal(value),
                DataType::Decimal { precision, scale },
            )
        }
        Literal::Float(text) => {
            let value: f64 = text.parse().map_err(|_| out_of_range(text))?;
            if !value.is_finite() {
                return Err(out_of_range(text));
            }
            (Value::Float(value), DataType::Float)
        }
        Literal::Money(text) => {
            let value: Money = text.parse()?;
            (Value::Money(value), DataType::Money)
        }
        Literal::String { value, national } => {
            let len = string_length(value, *national);
            let data_type = if *national {
                DataType::NVarChar { len, collation }
            } else {
                DataType::VarChar { len, collation }
            };
            (Value::String(value.clone()), data_type)
        }
        Literal::Binary(bytes) => {
            let len = Length::Bounded(u32::try_from(bytes.len().max(1)).unwrap_or(u32::MAX));
            (Value::Binary(bytes.clone()), DataType::VarBinary { len })
        }
    })
}

/// int when it fits, then bigint, then numeric(p, 0) up to 38 digits.
fn integer(digits: &str) -> SqlResult<(Value, DataType)> {
    let significant = digits.trim_start_matches('0');
    if significant.len() > usize::from(MAX_PRECISION) {
        return Err(out_of_range(digits));
    }
    let value: i128 = significant.parse().unwrap_or(0);
    if let Ok(int) = i32::try_from(value) {
        return Ok((Value::Int(int), DataType::Int));
    }
    if let Ok(big) = i64::try_from(value) {
        return Ok((Value::BigInt(big), DataType::BigInt));
    }
    let precision = significant.len() as u8;
    let decimal = Decimal::new(value, precision, 0)?;
    Ok((
        Value::Decimal(decimal),
        DataType::Decimal {
            precision,
            scale: 0,
        },
    ))
}

/// A string literal's length: at least 1; beyond 8000 bytes (4000
/// characters for nvarchar) SQL Server types it as max.
fn string_length(value: &str, national: bool) -> Length {
    let (units, limit) = if national {
        (value.encode_utf16().count(), 4000)
    } else {
        (value.chars().count(), 8000)
    };
    if units > limit {
        return Length::Max;
    }
    Length::Bounded(units.max(1) as u32)
}

/// Msg 1007: a number too large to be a literal of any type.
fn out_of_range(text: &str) -> SqlError {
    SqlError::new(
        1007,
        15,
        1,
        format!("The number '{text}' is out of the range for numeric representation (maximum precision 38)."),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn typed(literal_: Literal) -> (Value, DataType) {
        literal(&literal_, Collation::default()).unwrap()
    }

    #[test]
    fn numbers_take_sql_servers_literal_types() {
        assert_eq!(
            typed(Literal::Integer("42".into())),
            (Value::Int(42), DataType::Int)
        );
        assert_eq!(
            typed(Literal::Integer("2147483648".into())),
            (Value::BigInt(2_147_483_648), DataType::BigInt)
        );
        let (_, big) = typed(Literal::Integer("99999999999999999999".into()));
        assert_eq!(
            big,
            DataType::Decimal {
                precision: 20,
                scale: 0
            }
        );
        assert_eq!(
            typed(Literal::Decimal("1.50".into())).1,
            DataType::Decimal {
                precision: 3,
                scale: 2
            }
        );
        assert_eq!(
            typed(Literal::Float("1.5E3".into())).0,
            Value::Float(1500.0)
        );
        assert_eq!(
            typed(Literal::Money("1.50".into())).0,
            Value::Money(Money(15_000))
        );
        assert_eq!(typed(Literal::Null).1, DataType::Int);
        let error = literal(&Literal::Integer("1".repeat(39)), Collation::default()).unwrap_err();
        assert_eq!(error.number, 1007);
    }

    #[test]
    fn strings_and_binary_take_their_lengths() {
        let collation = Collation::default();
        assert_eq!(
            typed(Literal::String {
                value: "abc".into(),
                national: false
            })
            .1,
            DataType::VarChar {
                len: Length::Bounded(3),
                collation
            }
        );
        assert_eq!(
            typed(Literal::String {
                value: String::new(),
                national: true
            })
            .1,
            DataType::NVarChar {
                len: Length::Bounded(1),
                collation
            }
        );
        assert_eq!(
            typed(Literal::Binary(vec![1, 2])).1,
            DataType::VarBinary {
                len: Length::Bounded(2)
            }
        );
    }
}
