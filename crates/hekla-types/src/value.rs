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
