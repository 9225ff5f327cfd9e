//! Numbers as decimal digits, for STR and FORMAT: exact for integers,
//! decimal and money; float and real first rounded to 15 and 7
//! significant digits, as .NET Framework (which SQL Server's FORMAT runs
//! on) formats them. Rounding is half away from zero.

use hekla_types::{Decimal, Money};

#[derive(Clone, Debug, PartialEq)]
pub struct Digits {
    pub negative: bool,
    /// The integer part's digits without leading zeros (empty for zero).
    pub whole: Vec<u8>,
    /// The fraction's digits, as many as known.
    pub fraction: Vec<u8>,
}

/// Significant digits .NET Framework shows by default.
pub const DOUBLE_DIGITS: usize = 15;
pub const SINGLE_DIGITS: usize = 7;

impl Digits {
    pub fn from_integer(value: i128) -> Digits {
        Digits::from_scaled(value, 0)
    }

    pub fn from_decimal(value: Decimal) -> Digits {
        Digits::from_scaled(value.mantissa, usize::from(value.scale))
    }

    pub fn from_money(value: Money) -> Digits {
        Digits::from_scaled(i128::from(value.0), usize::from(Money::SCALE))
    }

    /// `mantissa * 10^-scale`.
    fn from_scaled(mantissa: i128, scale: usize) -> Digits {
        let text = format!("{:0>width$}", mantissa.unsigned_abs(), width = scale + 1);
        let (whole, fraction) = text.split_at(text.len() - scale);
        let mut digits = Digits {
            negative: mantissa < 0,
            whole: whole.bytes().map(|b| b - b'0').collect(),
            fraction: fraction.bytes().map(|b| b - b'0').collect(),
        };
        digits.trim();
        digits
    }

    /// A float rounded to `significant` digits first. Not for infinities
    /// or NaN (SQL Server has neither).
    pub fn from_float(value: f64, significant: usize) -> Digits {
        let text = format!("{:.*e}", significant - 1, value.abs());
        let (mantissa, exponent) = text.split_once('e').expect("exponent notation");
        let exponent: i64 = exponent.parse().expect("an exponent");
        let all: Vec<u8> = mantissa
            .bytes()
            .filter(u8::is_ascii_digit)
            .map(|b| b - b'0')
            .collect();
        // The point sits after digit `exponent + 1`.
        let point = exponent + 1;
        let mut digits = if point <= 0 {
            let mut fraction = vec![0; point.unsigned_abs() as usize];
            fraction.extend(all);
            Digits {
                negative: false,
                whole: Vec::new(),
                fraction,
            }
        } else if point as usize >= all.len() {
            let mut whole = all;
            whole.resize(point as usize, 0);
            Digits {
                negative: false,
                whole,
                fraction: Vec::new(),
            }
        } else {
            let (whole, fraction) = all.split_at(point as usize);
            Digits {
                negative: false,
                whole: whole.to_vec(),
                fraction: fraction.to_vec(),
            }
        };
        digits.negative = value < 0.0;
        digits.trim();
        digits
    }

    /// Drops leading zeros of the integer part and trailing zeros of the
    /// fraction; a zero is never negative.
    fn trim(&mut self) {
        let leading = self.whole.iter().take_while(|&&d| d == 0).count();
        self.whole.drain(..leading);
        while self.fraction.last() == Some(&0) {
            self.fraction.pop();
        }
        if self.is_zero() {
            self.negative = false;
        }
    }

    pub fn is_zero(&self) -> bool {
        self.whole.iter().chain(&self.fraction).all(|&d| d == 0)
    }

    /// Rounded to `decimals` fraction digits, half away from zero.
    pub fn rounded(&self, decimals: usize) -> Digits {
        let mut rounded = self.clone();
        if rounded.fraction.len() <= decimals {
            return rounded;
        }
        let up = rounded.fraction[decimals] >= 5;
        rounded.fraction.truncate(decimals);
        if up {
            let mut carry = true;
            for digit in rounded
                .fraction
                .iter_mut()
                .rev()
                .chain(rounded.whole.iter_mut().rev())
            {
                if *digit == 9 {
                    *digit = 0;
                } else {
                    *digit += 1;
                    carry = false;
                    break;
                }
            }
            if carry {
                rounded.whole.insert(0, 1);
            }
        }
        rounded.trim();
        rounded
    }

    /// Times 100 (the percent sign in a format).
    pub fn percent(&self) -> Digits {
        let mut scaled = self.clone();
        for _ in 0..2 {
            let next = if scaled.fraction.is_empty() {
                0
            } else {
                scaled.fraction.remove(0)
            };
            scaled.whole.push(next);
        }
        scaled.trim();
        scaled
    }

    /// The fraction padded with zeros to `count` digits (already rounded).
    pub fn fraction_digits(&self, count: usize) -> impl Iterator<Item = char> + '_ {
        (0..count).map(|i| char::from(b'0' + self.fraction.get(i).copied().unwrap_or(0)))
    }

    pub fn whole_text(&self) -> String {
        self.whole.iter().map(|&d| char::from(b'0' + d)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(d: &Digits) -> String {
        let fraction: String = d.fraction_digits(d.fraction.len()).collect();
        format!(
            "{}{}.{}",
            if d.negative { "-" } else { "" },
            d.whole_text(),
            fraction
        )
    }

    #[test]
    fn floats_take_fifteen_digits_first() {
        assert_eq!(text(&Digits::from_float(123.45, DOUBLE_DIGITS)), "123.45");
        assert_eq!(
            text(&Digits::from_float(1.005, DOUBLE_DIGITS).rounded(2)),
            "1.01"
        );
        assert_eq!(
            text(&Digits::from_float(-0.000125, DOUBLE_DIGITS)),
            "-.000125"
        );
        assert_eq!(
            text(&Digits::from_float(1.5e20, DOUBLE_DIGITS)),
            "150000000000000000000."
        );
        assert_eq!(text(&Digits::from_float(0.0, DOUBLE_DIGITS)), ".");
    }

    #[test]
    fn rounding_carries() {
        let d = Digits::from_decimal("9.995".parse().unwrap());
        assert_eq!(text(&d.rounded(2)), "10.");
        assert_eq!(text(&d.rounded(0)), "10.");
        let small = Digits::from_decimal("-0.004".parse().unwrap());
        assert_eq!(text(&small.rounded(2)), ".");
        assert_eq!(text(&Digits::from_money(Money(-12_345))), "-1.2345");
        assert_eq!(text(&Digits::from_integer(-120)), "-120.");
        assert_eq!(
            text(&Digits::from_decimal("0.125".parse().unwrap()).percent()),
            "12.5"
        );
    }
}
