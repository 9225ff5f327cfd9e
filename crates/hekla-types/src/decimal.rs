//! Exact decimal(p, s) arithmetic, following SQL Server's result precision
//! and scale rules. No floating point anywhere.

mod arith;
mod text;
pub(crate) mod wide;

pub use arith::DecimalOp;

use crate::{SqlError, SqlResult};

/// `mantissa * 10^-scale`, with at most `precision` digits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Decimal {
    pub mantissa: i128,
    pub precision: u8,
    pub scale: u8,
}

/// decimal's largest precision.
pub const MAX_PRECISION: u8 = 38;

/// `POW10[n] == 10^n` for every n a decimal can need (10^38 < 2^127).
const POW10: [i128; 39] = {
    let mut table = [1i128; 39];
    let mut i = 1;
    while i < 39 {
        table[i] = table[i - 1] * 10;
        i += 1;
    }
    table
};

/// `10^n`, or None past 10^38.
#[inline]
pub(crate) fn pow10(n: u32) -> Option<i128> {
    POW10.get(n as usize).copied()
}

/// `value / divisor` rounded half away from zero (SQL Server's rounding).
#[inline]
pub(crate) fn div_round(value: i128, divisor: i128) -> i128 {
    let quotient = value / divisor;
    let remainder = value % divisor;
    if remainder.unsigned_abs() * 2 >= divisor.unsigned_abs() {
        if (value < 0) == (divisor < 0) {
            quotient + 1
        } else {
            quotient - 1
        }
    } else {
        quotient
    }
}

/// Whether `mantissa` has at most `precision` digits.
#[inline]
pub(crate) fn fits(mantissa: i128, precision: u8) -> bool {
    match pow10(u32::from(precision)) {
        Some(limit) => mantissa.unsigned_abs() < limit.unsigned_abs(),
        None => true,
    }
}

fn overflow() -> SqlError {
    SqlError::arithmetic_overflow("numeric", "numeric")
}

impl Decimal {
    /// A decimal(precision, scale), checking the type and that the mantissa
    /// fits it.
    pub fn new(mantissa: i128, precision: u8, scale: u8) -> SqlResult<Decimal> {
        check_type(precision, scale)?;
        if !fits(mantissa, precision) {
            return Err(overflow());
        }
        Ok(Decimal {
            mantissa,
            precision,
            scale,
        })
    }

    /// The mantissa at `scale` digits after the point, rounding half away
    /// from zero when digits are dropped; None if it no longer fits in i128.
    pub fn mantissa_at_scale(self, scale: u8) -> Option<i128> {
        if scale >= self.scale {
            self.mantissa
                .checked_mul(pow10(u32::from(scale - self.scale))?)
        } else {
            match pow10(u32::from(self.scale - scale)) {
                Some(divisor) => Some(div_round(self.mantissa, divisor)),
                // Dropping more than 38 digits leaves nothing.
                None => Some(0),
            }
        }
    }

    /// A bigint as decimal(19, 0), the type SQL Server converts it to.
    pub fn from_i64(v: i64) -> Decimal {
        Decimal {
            mantissa: i128::from(v),
            precision: 19,
            scale: 0,
        }
    }

    /// Converts to decimal(precision, scale) as SQL Server does on
    /// assignment: rounding extra fractional digits, Msg 8115 when the
    /// integer part does not fit.
    pub fn convert(self, precision: u8, scale: u8) -> SqlResult<Decimal> {
        check_type(precision, scale)?;
        let mantissa = self.mantissa_at_scale(scale).ok_or_else(overflow)?;
        Decimal::new(mantissa, precision, scale)
    }
}

/// Msg 1001 / 2750 / 2751 for precisions and scales decimal does not have.
pub(crate) fn check_type(precision: u8, scale: u8) -> SqlResult<()> {
    if precision == 0 {
        return Err(SqlError::new(
            1001,
            15,
            1,
            "Line 1: Length or precision specification 0 is invalid.",
        ));
    }
    if precision > MAX_PRECISION {
        return Err(SqlError::new(
            2750,
            16,
            1,
            format!(
                "Column or parameter #0: Specified column precision {precision} is greater than the maximum precision of {MAX_PRECISION}."
            ),
        ));
    }
    if scale > precision {
        return Err(SqlError::new(
            2751,
            16,
            1,
            format!(
                "Column or parameter #0: Specified column scale {scale} is greater than the specified precision of {precision}."
            ),
        ));
    }
    Ok(())
}
