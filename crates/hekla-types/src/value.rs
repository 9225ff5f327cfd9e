//! A single SQL value.

use crate::{Date, DateTime, DateTime2, DateTimeOffset, Decimal, Money, SmallDateTime, Time, Uuid};

/// A SQL value. The column's [`crate::DataType`] says how to read it: the
/// four character types share `String`, the two binary types share `Binary`.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Bit(bool),
    TinyInt(u8),
    SmallInt(i16),
    Int(i32),
    BigInt(i64),
    Decimal(Decimal),
    /// money and smallmoney
    Money(Money),
    Float(f64),
    Real(f32),
    Date(Date),
    Time(Time),
    DateTime(DateTime),
    DateTime2(DateTime2),
    SmallDateTime(SmallDateTime),
    DateTimeOffset(DateTimeOffset),
    UniqueIdentifier(Uuid),
    String(String),
    Binary(Vec<u8>),
}

impl Value {
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }
}

impl Value {
    /// The SQL type name used in messages such as Msg 206. Strings and
    /// binary values report their widest family member.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Null => "NULL",
            Value::Bit(_) => "bit",
            Value::TinyInt(_) => "tinyint",
            Value::SmallInt(_) => "smallint",
            Value::Int(_) => "int",
            Value::BigInt(_) => "bigint",
            Value::Decimal(_) => "numeric",
            Value::Money(_) => "money",
            Value::Float(_) => "float",
            Value::Real(_) => "real",
            Value::Date(_) => "date",
            Value::Time(_) => "time",
            Value::DateTime(_) => "datetime",
            Value::DateTime2(_) => "datetime2",
            Value::SmallDateTime(_) => "smalldatetime",
            Value::DateTimeOffset(_) => "datetimeoffset",
            Value::UniqueIdentifier(_) => "uniqueidentifier",
            Value::String(_) => "nvarchar",
            Value::Binary(_) => "varbinary",
        }
    }

    /// The value of any integer variant, widened.
    pub fn as_i64(&self) -> Option<i64> {
        match *self {
            Value::TinyInt(v) => Some(i64::from(v)),
            Value::SmallInt(v) => Some(i64::from(v)),
            Value::Int(v) => Some(i64::from(v)),
            Value::BigInt(v) => Some(v),
            _ => None,
        }
    }
}

/// The value as SQL Server's tools print it: numbers plainly, money with
/// four decimals, dates and times in ISO form, binary as `0x` + hex.
impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::Null => f.write_str("NULL"),
            Value::Bit(b) => write!(f, "{}", u8::from(*b)),
            Value::TinyInt(v) => write!(f, "{v}"),
            Value::SmallInt(v) => write!(f, "{v}"),
            Value::Int(v) => write!(f, "{v}"),
            Value::BigInt(v) => write!(f, "{v}"),
            Value::Decimal(v) => write!(f, "{v}"),
            Value::Money(v) => write!(f, "{v}"),
            Value::Float(v) => write!(f, "{v}"),
            Value::Real(v) => write!(f, "{v}"),
            Value::Date(v) => write!(f, "{v}"),
            Value::Time(v) => write!(f, "{v}"),
            Value::DateTime(v) => write!(f, "{v}"),
            Value::DateTime2(v) => write!(f, "{v}"),
            Value::SmallDateTime(v) => write!(f, "{v}"),
            Value::DateTimeOffset(v) => write!(f, "{v}"),
            Value::UniqueIdentifier(v) => write!(f, "{v}"),
            Value::String(v) => f.write_str(v),
            Value::Binary(bytes) => {
                f.write_str("0x")?;
                bytes.iter().try_for_each(|b| write!(f, "{b:02X}"))
            }
        }
    }
}

#[cfg(test)]
mod display_tests {
    use super::*;
    use crate::Money;

    #[test]
    fn values_print_as_sql_server_shows_them() {
        assert_eq!(Value::Int(-5).to_string(), "-5");
        assert_eq!(Value::Bit(true).to_string(), "1");
        assert_eq!(Value::Money(Money(123_400)).to_string(), "12.3400");
        assert_eq!(Value::Binary(vec![0, 0xAB]).to_string(), "0x00AB");
        assert_eq!(Value::String("x y".into()).to_string(), "x y");
        assert_eq!(Value::Null.to_string(), "NULL");
    }
}
