//! Exact decimal(p, s) arithmetic, following SQL Server's result precision
//! and scale rules. No floating point anywhere.

/// `mantissa * 10^-scale`, with at most `precision` digits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Decimal {
    pub mantissa: i128,
    pub precision: u8,
    pub scale: u8,
}
