//! Three-valued comparison of two values.

use crate::stored::trim_trailing;
use crate::{Collation, Decimal, Value};
use std::cmp::Ordering;

/// Compares two values of one family (the caller converts both sides to
/// [`super::common_type`] first): None when either is NULL (UNKNOWN).
///
/// Strings compare under `collation` with trailing spaces ignored (`'a '`
/// equals `'a'`), binary values with trailing zero bytes ignored (the
/// shorter is padded with zeros, as the engine's stored forms compare),
/// datetimeoffset by its UTC instant, uniqueidentifier in SQL Server's byte
/// order, float and real numerically (`-0` equals `0`).
///
/// Exact numbers of different families compare by value as a courtesy
/// (integers of any width and bit with each other, with decimal and with
/// money; decimal with money); float with real too. Any other pair of
/// families is None, the caller having skipped the conversion.
pub fn compare(a: &Value, b: &Value, collation: Collation) -> Option<Ordering> {
    use Value as V;
    match (a, b) {
        (V::Null, _) | (_, V::Null) => None,
        (V::String(x), V::String(y)) => Some(collation.cmp(x, y)),
        (V::Binary(x), V::Binary(y)) => Some(trim_trailing(x, 0).cmp(trim_trailing(y, 0))),
        (V::Float(x), V::Float(y)) => x.partial_cmp(y),
        (V::Real(x), V::Real(y)) => x.partial_cmp(y),
        (V::Float(x), V::Real(y)) => x.partial_cmp(&f64::from(*y)),
        (V::Real(x), V::Float(y)) => f64::from(*x).partial_cmp(y),
        (V::Date(x), V::Date(y)) => Some(x.cmp(y)),
        (V::Time(x), V::Time(y)) => Some(x.cmp(y)),
        (V::DateTime(x), V::DateTime(y)) => Some(x.cmp(y)),
        (V::SmallDateTime(x), V::SmallDateTime(y)) => Some(x.cmp(y)),
        (V::DateTime2(x), V::DateTime2(y)) => Some(x.cmp(y)),
        (V::DateTimeOffset(x), V::DateTimeOffset(y)) => Some(x.utc.cmp(&y.utc)),
        (V::UniqueIdentifier(x), V::UniqueIdentifier(y)) => {
            Some(x.sort_bytes().cmp(&y.sort_bytes()))
        }
        (V::Money(x), V::Money(y)) => Some(x.cmp(y)),
        _ => match (exact(a)?, exact(b)?) {
            (Exact::Integer(x), Exact::Integer(y)) => Some(x.cmp(&y)),
            (x, y) => Some(x.to_decimal().compare(&y.to_decimal())),
        },
    }
}

/// An exact number of any family.
#[derive(Clone, Copy)]
enum Exact {
    Integer(i64),
    Decimal(Decimal),
}

impl Exact {
    fn to_decimal(self) -> Decimal {
        match self {
            Exact::Integer(v) => Decimal::from_i64(v),
            Exact::Decimal(d) => d,
        }
    }
}

fn exact(value: &Value) -> Option<Exact> {
    match *value {
        Value::Bit(b) => Some(Exact::Integer(i64::from(b))),
        Value::Decimal(d) => Some(Exact::Decimal(d)),
        Value::Money(m) => Some(Exact::Decimal(m.to_decimal())),
        _ => value.as_i64().map(Exact::Integer),
    }
}
