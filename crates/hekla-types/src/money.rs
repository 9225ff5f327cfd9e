//! money and smallmoney: integers counting ten-thousandths of a unit.
//!
//! Both types share [`Money`]; smallmoney is the i32 sub-range. Arithmetic
//! on two money values yields money (four decimals), as in SQL Server:
//! products round half away from zero, quotients truncate toward zero.

use crate::decimal::div_round;
use crate::{Decimal, SqlError, SqlResult};
use std::fmt;
use std::str::FromStr;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Money(pub i64);

/// Ten-thousandths per unit.
const UNIT: i64 = 10_000;

fn overflow() -> SqlError {
    SqlError::arithmetic_overflow("expression", "money")
}

impl Money {
    /// money has four fractional digits.
    pub const SCALE: u8 = 4;
    pub const MIN: Money = Money(i64::MIN);
    pub const MAX: Money = Money(i64::MAX);
    /// smallmoney: -214,748.3648 to 214,748.3647.
    pub const SMALL_MIN: Money = Money(i32::MIN as i64);
    pub const SMALL_MAX: Money = Money(i32::MAX as i64);

    /// Whole units, e.g. `Money::from_units(12)` is 12.0000.
    pub fn from_units(units: i64) -> SqlResult<Money> {
        units.checked_mul(UNIT).map(Money).ok_or_else(overflow)
    }

    pub fn fits_smallmoney(self) -> bool {
        (Money::SMALL_MIN..=Money::SMALL_MAX).contains(&self)
    }

    pub fn checked_add(self, other: Money) -> SqlResult<Money> {
        self.0.checked_add(other.0).map(Money).ok_or_else(overflow)
    }

    pub fn checked_sub(self, other: Money) -> SqlResult<Money> {
        self.0.checked_sub(other.0).map(Money).ok_or_else(overflow)
    }

    pub fn checked_neg(self) -> SqlResult<Money> {
        self.0.checked_neg().map(Money).ok_or_else(overflow)
    }

    /// money * money is money: the exact product rounded to four decimals.
    pub fn checked_mul(self, other: Money) -> SqlResult<Money> {
        let product = i128::from(self.0) * i128::from(other.0);
        narrow(div_round(product, i128::from(UNIT)))
    }

    /// money / money is money, truncated toward zero at four decimals
    /// (`$2 / $3` is `0.6666`); Msg 8134 on zero.
    pub fn checked_div(self, other: Money) -> SqlResult<Money> {
        if other.0 == 0 {
            return Err(SqlError::divide_by_zero());
        }
        let numerator = i128::from(self.0) * i128::from(UNIT);
        narrow(numerator / i128::from(other.0))
    }

    /// The same amount as decimal(19, 4).
    pub fn to_decimal(self) -> Decimal {
        Decimal {
            mantissa: i128::from(self.0),
            precision: 19,
            scale: Money::SCALE,
        }
    }

    /// A decimal rounded to four decimals; Msg 8115 outside money's range.
    pub fn from_decimal(d: Decimal) -> SqlResult<Money> {
        narrow(d.mantissa_at_scale(Money::SCALE).ok_or_else(overflow)?)
    }
}

fn narrow(v: i128) -> SqlResult<Money> {
    i64::try_from(v).map(Money).map_err(|_| overflow())
}

/// Accepts what `CAST(... AS money)` accepts: an optional sign and currency
/// sign `$`, digits with optional thousands commas, and a fraction that is
/// rounded to four decimals. Msg 235 for anything else.
impl FromStr for Money {
    type Err = SqlError;

    fn from_str(text: &str) -> Result<Money, SqlError> {
        let syntax = || {
            SqlError::new(
                235,
                16,
                0,
                "Cannot convert a char value to money. The char value has incorrect syntax.",
            )
        };
        let text = text.trim();
        let (sign, rest) = match text.as_bytes().first() {
            Some(b'-') => ("-", &text[1..]),
            Some(b'+') => ("", &text[1..]),
            _ => ("", text),
        };
        let rest = rest.strip_prefix('$').unwrap_or(rest);
        let (integral, fraction) = rest
            .split_once('.')
            .map_or((rest, None), |(i, f)| (i, Some(f)));
        if integral.starts_with(',') || integral.ends_with(',') || integral.contains(",,") {
            return Err(syntax());
        }
        let mut plain = format!("{sign}{}", integral.replace(',', ""));
        if let Some(fraction) = fraction {
            plain.push('.');
            plain.push_str(fraction);
        }
        if plain.starts_with("--") || plain.starts_with("-+") || plain.starts_with('+') {
            return Err(syntax());
        }
        let decimal: Decimal = plain.parse().map_err(|e: SqlError| {
            if e.number == 8114 {
                syntax()
            } else {
                SqlError::arithmetic_overflow("varchar", "money")
            }
        })?;
        Money::from_decimal(decimal).map_err(|_| SqlError::arithmetic_overflow("varchar", "money"))
    }
}

/// Four decimals, e.g. `12.3400`, as SQL Server's tools show money.
impl fmt::Display for Money {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.to_decimal(), f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(text: &str) -> Money {
        text.parse().unwrap()
    }

    #[test]
    fn parses_and_displays_four_decimals() {
        assert_eq!(m("12.34"), Money(123_400));
        assert_eq!(m("12.34").to_string(), "12.3400");
        assert_eq!(m("-$1,234.5").to_string(), "-1234.5000");
        assert_eq!(m("$0.00005").to_string(), "0.0001");
        assert_eq!(m("922337203685477.5807"), Money::MAX);
        assert_eq!(m("-922337203685477.5808"), Money::MIN);
        for bad in ["", "abc", "1..2", "1,", ",1", "1e3", "--1", "$"] {
            assert_eq!(bad.parse::<Money>().unwrap_err().number, 235, "{bad:?}");
        }
        let err = "922337203685477.5808".parse::<Money>().unwrap_err();
        assert_eq!(err.number, 8115);
        assert_eq!(
            err.message,
            "Arithmetic overflow error converting varchar to data type money."
        );
    }

    #[test]
    fn arithmetic_keeps_four_decimals() {
        assert_eq!(m("1.2345").checked_mul(m("1.2345")).unwrap(), m("1.5240"));
        assert_eq!(m("-1.2345").checked_mul(m("1.2345")).unwrap(), m("-1.5240"));
        assert_eq!(m("1").checked_div(m("3")).unwrap(), m("0.3333"));
        assert_eq!(m("2").checked_div(m("3")).unwrap(), m("0.6666"));
        assert_eq!(m("-2").checked_div(m("3")).unwrap(), m("-0.6666"));
        assert_eq!(m("1.5").checked_add(m("2.25")).unwrap(), m("3.75"));
        assert_eq!(m("1.5").checked_sub(m("2.25")).unwrap(), m("-0.75"));
        assert_eq!(m("1").checked_div(m("0")).unwrap_err().number, 8134);
    }

    #[test]
    fn overflow_is_msg_8115() {
        let err = Money::MAX.checked_add(Money(1)).unwrap_err();
        assert_eq!(err.number, 8115);
        assert_eq!(
            err.message,
            "Arithmetic overflow error converting expression to data type money."
        );
        assert_eq!(Money::MIN.checked_neg().unwrap_err().number, 8115);
        assert_eq!(Money::MAX.checked_mul(m("2")).unwrap_err().number, 8115);
        assert_eq!(Money::from_units(i64::MAX).unwrap_err().number, 8115);
        assert!(Money::SMALL_MAX.fits_smallmoney());
        assert!(!Money(Money::SMALL_MAX.0 + 1).fits_smallmoney());
        assert_eq!(Money::SMALL_MIN.to_string(), "-214748.3648");
    }

    #[test]
    fn decimal_round_trip() {
        let d: Decimal = "12.34567".parse().unwrap();
        assert_eq!(Money::from_decimal(d).unwrap(), m("12.3457"));
        assert_eq!(m("12.3457").to_decimal().to_string(), "12.3457");
    }
}
