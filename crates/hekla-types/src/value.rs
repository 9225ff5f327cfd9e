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
