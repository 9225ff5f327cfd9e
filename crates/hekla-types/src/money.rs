//! money and smallmoney: integers counting ten-thousandths of a unit.

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Money(pub i64);
