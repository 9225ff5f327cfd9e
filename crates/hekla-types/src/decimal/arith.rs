//! decimal arithmetic with SQL Server's result types.
//!
//! Results are computed exactly in 256 bits, then rounded (half away from
//! zero) to the result scale, except quotients, which SQL Server truncates
//! toward zero; a result that does not fit the result precision is Msg 8115.

use super::wide::U256;
use super::{Decimal, MAX_PRECISION};
use crate::{SqlError, SqlResult};
use std::cmp::Ordering;

/// A decimal arithmetic operator, for [`Decimal::result_type`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecimalOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

/// Below this many fractional digits SQL Server does not cut the scale of a
/// result whose precision exceeds 38.
const MIN_REDUCED_SCALE: i32 = 6;

fn overflow() -> SqlError {
    SqlError::arithmetic_overflow("expression", "numeric")
}

/// A sign and a 256-bit magnitude.
#[derive(Clone, Copy, Debug)]
struct Wide {
    negative: bool,
    magnitude: U256,
}

impl Wide {
    fn of(d: Decimal) -> Wide {
        Wide {
            negative: d.mantissa < 0,
            magnitude: U256::from_u128(d.mantissa.unsigned_abs()),
        }
    }

    /// The value at `scale` (>= its own), exactly.
    fn at_scale(d: Decimal, scale: u8) -> Option<Wide> {
        let factor = U256::pow10(u32::from(scale - d.scale))?;
        let wide = Wide::of(d);
        Some(Wide {
            negative: wide.negative,
            magnitude: wide.magnitude.checked_mul(factor)?,
        })
    }

    fn add(self, other: Wide) -> Option<Wide> {
        if self.negative == other.negative {
            return Some(Wide {
                negative: self.negative,
                magnitude: self.magnitude.checked_add(other.magnitude)?,
            });
        }
        let (larger, smaller) = if self.magnitude >= other.magnitude {
            (self, other)
        } else {
            (other, self)
        };
        Some(Wide {
            negative: larger.negative,
            magnitude: larger.magnitude.sub(smaller.magnitude),
        })
    }

    fn cmp(self, other: Wide) -> Ordering {
        let zero = |w: Wide| w.magnitude.is_zero();
        match (self.negative && !zero(self), other.negative && !zero(other)) {
            (false, true) => Ordering::Greater,
            (true, false) => Ordering::Less,
            (false, false) => self.magnitude.cmp(&other.magnitude),
            (true, true) => other.magnitude.cmp(&self.magnitude),
        }
    }

    /// Rounds from `exact_scale` to `scale` and checks `precision`.
    fn finish(self, exact_scale: u32, precision: u8, scale: u8) -> SqlResult<Decimal> {
        let scale_u32 = u32::from(scale);
        let magnitude = if exact_scale > scale_u32 {
            match U256::pow10(exact_scale - scale_u32) {
                Some(divisor) => self.magnitude.div_round(divisor),
                None => U256::ZERO,
            }
        } else {
            let factor = U256::pow10(scale_u32 - exact_scale).ok_or_else(overflow)?;
            self.magnitude.checked_mul(factor).ok_or_else(overflow)?
        };
        let magnitude = magnitude
            .to_u128()
            .and_then(|m| i128::try_from(m).ok())
            .ok_or_else(overflow)?;
        let mantissa = if self.negative { -magnitude } else { magnitude };
        if !super::fits(mantissa, precision) {
            return Err(overflow());
        }
        Ok(Decimal {
            mantissa,
            precision,
            scale,
        })
    }
}

/// SQL Server's reduction of a product's or quotient's precision above 38:
/// keep the integral digits and cut the scale, but not below 6 (or below the
/// scale itself if it is already smaller).
fn reduce(precision: i32, scale: i32) -> (u8, u8) {
    let max = i32::from(MAX_PRECISION);
    if precision <= max {
        return (precision.max(1) as u8, scale as u8);
    }
    let integral = precision - scale;
    let scale = scale.min((max - integral).max(MIN_REDUCED_SCALE));
    (MAX_PRECISION, scale as u8)
}

/// The same for a sum or difference, which SQL Server documents differently:
/// the integral part keeps `integral` digits (the operands' widest, without
/// the carry digit) and the scale takes what is left, with no floor of 6.
fn reduce_sum(precision: i32, scale: i32, integral: i32) -> (u8, u8) {
    let max = i32::from(MAX_PRECISION);
    if precision <= max {
        return (precision as u8, scale as u8);
    }
    (MAX_PRECISION, scale.min(max - integral).max(0) as u8)
}

impl Decimal {
    /// The precision and scale of `lhs op rhs` for operands of types
    /// decimal(p1, s1) and decimal(p2, s2), as SQL Server documents them.
    pub fn result_type(op: DecimalOp, lhs: (u8, u8), rhs: (u8, u8)) -> (u8, u8) {
        let (p1, s1) = (i32::from(lhs.0), i32::from(lhs.1));
        let (p2, s2) = (i32::from(rhs.0), i32::from(rhs.1));
        match op {
            DecimalOp::Add | DecimalOp::Sub => {
                let scale = s1.max(s2);
                let integral = (p1 - s1).max(p2 - s2);
                reduce_sum(scale + integral + 1, scale, integral)
            }
            DecimalOp::Mul => reduce(p1 + p2 + 1, s1 + s2),
            DecimalOp::Div => {
                let scale = MIN_REDUCED_SCALE.max(s1 + p2 + 1);
                reduce(p1 - s1 + s2 + scale, scale)
            }
            DecimalOp::Rem => {
                let scale = s1.max(s2);
                reduce((p1 - s1).min(p2 - s2) + scale, scale)
            }
        }
    }

    fn result_type_with(self, op: DecimalOp, other: Decimal) -> (u8, u8) {
        Decimal::result_type(
            op,
            (self.precision, self.scale),
            (other.precision, other.scale),
        )
    }

    /// `self op other` in the type SQL Server gives it ([`Decimal::result_type`]).
    fn checked_natural(self, op: DecimalOp, other: Decimal) -> SqlResult<Decimal> {
        let (precision, scale) = self.result_type_with(op, other);
        self.checked_op(op, other, precision, scale)
    }

    /// `self op other` computed exactly and fitted to decimal(precision,
    /// scale), whatever the operands' own types: division truncates toward
    /// zero at `scale`, every other operator rounds half away from zero.
    /// Msg 8115 if the result does not fit, Msg 8134 for `/` or `%` by zero.
    pub fn checked_op(
        self,
        op: DecimalOp,
        other: Decimal,
        precision: u8,
        scale: u8,
    ) -> SqlResult<Decimal> {
        super::check_type(precision, scale)?;
        match op {
            DecimalOp::Add => self.sum(other, precision, scale),
            DecimalOp::Sub => self.sum(-other, precision, scale),
            DecimalOp::Mul => self.product(other, precision, scale),
            DecimalOp::Div => self.quotient(other, precision, scale),
            DecimalOp::Rem => self.remainder(other, precision, scale),
        }
    }

    pub fn checked_add(self, other: Decimal) -> SqlResult<Decimal> {
        self.checked_natural(DecimalOp::Add, other)
    }

    pub fn checked_sub(self, other: Decimal) -> SqlResult<Decimal> {
        self.checked_natural(DecimalOp::Sub, other)
    }

    fn sum(self, other: Decimal, precision: u8, scale: u8) -> SqlResult<Decimal> {
        let exact = self.scale.max(other.scale);
        let a = Wide::at_scale(self, exact).ok_or_else(overflow)?;
        let b = Wide::at_scale(other, exact).ok_or_else(overflow)?;
        a.add(b)
            .ok_or_else(overflow)?
            .finish(u32::from(exact), precision, scale)
    }

    pub fn checked_mul(self, other: Decimal) -> SqlResult<Decimal> {
        self.checked_natural(DecimalOp::Mul, other)
    }

    fn product(self, other: Decimal, precision: u8, scale: u8) -> SqlResult<Decimal> {
        let (a, b) = (Wide::of(self), Wide::of(other));
        let product = Wide {
            negative: a.negative != b.negative,
            magnitude: a.magnitude.checked_mul(b.magnitude).ok_or_else(overflow)?,
        };
        product.finish(
            u32::from(self.scale) + u32::from(other.scale),
            precision,
            scale,
        )
    }

    /// Msg 8134 when `other` is zero. The quotient is truncated toward zero
    /// at the result scale, as SQL Server does (`2.0 / 3` is `0.666666`).
    pub fn checked_div(self, other: Decimal) -> SqlResult<Decimal> {
        self.checked_natural(DecimalOp::Div, other)
    }

    fn quotient(self, other: Decimal, precision: u8, scale: u8) -> SqlResult<Decimal> {
        if other.mantissa == 0 {
            return Err(SqlError::divide_by_zero());
        }
        // quotient * 10^scale = (m1 / 10^s1) / (m2 / 10^s2) * 10^scale
        let exponent = i32::from(scale) + i32::from(other.scale) - i32::from(self.scale);
        let (a, b) = (Wide::of(self), Wide::of(other));
        let up = |w: Wide, e: i32| -> SqlResult<U256> {
            let factor = U256::pow10(e.max(0) as u32).ok_or_else(overflow)?;
            w.magnitude.checked_mul(factor).ok_or_else(overflow)
        };
        let numerator = up(a, exponent)?;
        let denominator = up(b, -exponent)?;
        let quotient = Wide {
            negative: a.negative != b.negative,
            magnitude: numerator.div_rem(denominator).0,
        };
        quotient.finish(u32::from(scale), precision, scale)
    }

    /// `%`: the remainder takes the dividend's sign, as in SQL Server.
    pub fn checked_rem(self, other: Decimal) -> SqlResult<Decimal> {
        self.checked_natural(DecimalOp::Rem, other)
    }

    fn remainder(self, other: Decimal, precision: u8, scale: u8) -> SqlResult<Decimal> {
        if other.mantissa == 0 {
            return Err(SqlError::divide_by_zero());
        }
        let exact = self.scale.max(other.scale);
        let a = Wide::at_scale(self, exact).ok_or_else(overflow)?;
        let b = Wide::at_scale(other, exact).ok_or_else(overflow)?;
        let remainder = Wide {
            negative: a.negative,
            magnitude: a.magnitude.div_rem(b.magnitude).1,
        };
        remainder.finish(u32::from(exact), precision, scale)
    }

    /// Numeric comparison, whatever the two scales (`1.0` equals `1.00`).
    pub fn compare(&self, other: &Decimal) -> Ordering {
        let scale = self.scale.max(other.scale);
        match (Wide::at_scale(*self, scale), Wide::at_scale(*other, scale)) {
            (Some(a), Some(b)) => a.cmp(b),
            // Unreachable for valid scales (<= 38): 10^76 fits in 256 bits.
            _ => self.mantissa.signum().cmp(&other.mantissa.signum()),
        }
    }
}

/// Negation never overflows: |mantissa| < 10^38 either way.
impl std::ops::Neg for Decimal {
    type Output = Decimal;

    fn neg(self) -> Decimal {
        Decimal {
            mantissa: -self.mantissa,
            ..self
        }
    }
}

#[cfg(test)]
mod tests;
