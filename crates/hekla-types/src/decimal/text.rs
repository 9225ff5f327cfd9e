//! decimal literals and their display.

use super::{Decimal, MAX_PRECISION};
use crate::SqlError;
use std::fmt;
use std::str::FromStr;

fn syntax_error() -> SqlError {
    SqlError::new(
        8114,
        16,
        5,
        "Error converting data type varchar to numeric.",
    )
}

/// Parses `[+|-]digits[.digits]` (surrounding whitespace allowed, no
/// exponent) into the decimal(p, s) SQL Server gives such a literal: `s`
/// fractional digits and `p` significant digits. Fractional digits beyond
/// 38 significant ones are rounded away; more than 38 integral digits is
/// Msg 8115, anything that is not a number Msg 8114.
impl FromStr for Decimal {
    type Err = SqlError;

    fn from_str(text: &str) -> Result<Decimal, SqlError> {
        let text = text.trim();
        let (negative, unsigned) = match text.as_bytes().first() {
            Some(b'-') => (true, &text[1..]),
            Some(b'+') => (false, &text[1..]),
            _ => (false, text),
        };
        let (integral, fraction) = unsigned.split_once('.').unwrap_or((unsigned, ""));
        let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
        if integral.len() + fraction.len() == 0 || !all_digits(integral) || !all_digits(fraction) {
            return Err(syntax_error());
        }
        let integral = integral.trim_start_matches('0');
        let max = usize::from(MAX_PRECISION);
        if integral.len() > max {
            return Err(SqlError::arithmetic_overflow("varchar", "numeric"));
        }
        let kept = fraction.len().min(max - integral.len());
        let mut mantissa: i128 = 0;
        for digit in integral.bytes().chain(fraction[..kept].bytes()) {
            mantissa = mantissa * 10 + i128::from(digit - b'0');
        }
        if fraction.as_bytes().get(kept).is_some_and(|&d| d >= b'5') {
            mantissa += 1;
        }
        let scale = kept as u8;
        let precision = ((integral.len() + kept) as u8).max(1);
        if !super::fits(mantissa, precision) {
            // Rounding carried into one more integral digit.
            return Err(SqlError::arithmetic_overflow("varchar", "numeric"));
        }
        Ok(Decimal {
            mantissa: if negative { -mantissa } else { mantissa },
            precision,
            scale,
        })
    }
}

/// Always `scale` fractional digits: decimal(5,2) 1 is `1.00`, and a zero
/// integral part is written (`0.50`, `-0.50`).
impl fmt::Display for Decimal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let scale = usize::from(self.scale);
        let digits = self.mantissa.unsigned_abs().to_string();
        let digits = format!("{digits:0>width$}", width = scale + 1);
        let (integral, fraction) = digits.split_at(digits.len() - scale);
        let sign = if self.mantissa < 0 { "-" } else { "" };
        if scale == 0 {
            write!(f, "{sign}{integral}")
        } else {
            write!(f, "{sign}{integral}.{fraction}")
        }
    }
}
