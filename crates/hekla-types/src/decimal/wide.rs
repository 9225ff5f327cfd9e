//! Unsigned 256-bit integers: just enough for exact decimal products and
//! quotients, whose intermediate values (up to 10^76 and beyond) overflow
//! i128 even when the rounded result fits.

use std::cmp::Ordering;

/// Little-endian 64-bit limbs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct U256([u64; 4]);

impl U256 {
    pub const ZERO: U256 = U256([0; 4]);

    pub fn from_u128(v: u128) -> U256 {
        U256([v as u64, (v >> 64) as u64, 0, 0])
    }

    pub fn to_u128(self) -> Option<u128> {
        let [a, b, c, d] = self.0;
        (c == 0 && d == 0).then_some(u128::from(a) | (u128::from(b) << 64))
    }

    /// `10^n`, None past 10^77.
    pub fn pow10(n: u32) -> Option<U256> {
        let mut result = U256::from_u128(1);
        let mut left = n;
        while left > 0 {
            let step = left.min(38);
            result = result.checked_mul(U256::from_u128(10u128.pow(step)))?;
            left -= step;
        }
        Some(result)
    }

    pub fn is_zero(self) -> bool {
        self == U256::ZERO
    }

    pub fn checked_add(self, other: U256) -> Option<U256> {
        let mut out = [0u64; 4];
        let mut carry = 0u128;
        for (i, limb) in out.iter_mut().enumerate() {
            let sum = u128::from(self.0[i]) + u128::from(other.0[i]) + carry;
            *limb = sum as u64;
            carry = sum >> 64;
        }
        (carry == 0).then_some(U256(out))
    }

    /// `self - other`; callers ensure `self >= other`.
    pub fn sub(self, other: U256) -> U256 {
        let mut out = [0u64; 4];
        let mut borrow = false;
        for (i, limb) in out.iter_mut().enumerate() {
            let (d, b1) = self.0[i].overflowing_sub(other.0[i]);
            let (d, b2) = d.overflowing_sub(u64::from(borrow));
            *limb = d;
            borrow = b1 || b2;
        }
        U256(out)
    }

    pub fn checked_mul(self, other: U256) -> Option<U256> {
        let mut out = [0u64; 8];
        for i in 0..4 {
            let mut carry = 0u128;
            for j in 0..4 {
                let t =
                    u128::from(self.0[i]) * u128::from(other.0[j]) + u128::from(out[i + j]) + carry;
                out[i + j] = t as u64;
                carry = t >> 64;
            }
            out[i + 4] = carry as u64;
        }
        out[4..]
            .iter()
            .all(|&l| l == 0)
            .then(|| U256([out[0], out[1], out[2], out[3]]))
    }

    fn bit(self, i: u32) -> bool {
        (self.0[(i / 64) as usize] >> (i % 64)) & 1 == 1
    }

    fn set_bit(&mut self, i: u32) {
        self.0[(i / 64) as usize] |= 1 << (i % 64);
    }

    fn shl1(self) -> U256 {
        let [a, b, c, d] = self.0;
        U256([
            a << 1,
            (b << 1) | (a >> 63),
            (c << 1) | (b >> 63),
            (d << 1) | (c >> 63),
        ])
    }

    fn bits(self) -> u32 {
        (0..4)
            .rev()
            .find(|&i| self.0[i] != 0)
            .map_or(0, |i| i as u32 * 64 + (64 - self.0[i].leading_zeros()))
    }

    /// Quotient and remainder; `divisor` must not be zero.
    pub fn div_rem(self, divisor: U256) -> (U256, U256) {
        if let (Some(n), Some(d)) = (self.to_u128(), divisor.to_u128()) {
            return (U256::from_u128(n / d), U256::from_u128(n % d));
        }
        let mut quotient = U256::ZERO;
        let mut remainder = U256::ZERO;
        for i in (0..self.bits()).rev() {
            // The remainder stays below the divisor, so shifting it left is
            // safe unless the divisor uses the top bit; handle that by
            // subtracting before the bit is lost.
            let carry = remainder.bit(255);
            remainder = remainder.shl1();
            if self.bit(i) {
                remainder.0[0] |= 1;
            }
            if carry || remainder >= divisor {
                remainder = remainder.sub(divisor);
                quotient.set_bit(i);
            }
        }
        (quotient, remainder)
    }

    /// `self / divisor` rounded half up (magnitudes: the caller applies the
    /// sign, which makes it half away from zero).
    pub fn div_round(self, divisor: U256) -> U256 {
        let (quotient, remainder) = self.div_rem(divisor);
        if remainder >= divisor.sub(remainder) {
            quotient.checked_add(U256::from_u128(1)).unwrap_or(quotient)
        } else {
            quotient
        }
    }
}

impl PartialOrd for U256 {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for U256 {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.iter().rev().cmp(other.0.iter().rev())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn powers_of_ten_up_to_77() {
        assert_eq!(U256::pow10(38).unwrap().to_u128(), Some(10u128.pow(38)));
        assert!(U256::pow10(77).is_some());
        assert!(U256::pow10(78).is_none());
    }

    #[test]
    fn division_inverts_multiplication() {
        let a = U256::pow10(40)
            .unwrap()
            .checked_add(U256::from_u128(12_345))
            .unwrap();
        let b = U256::from_u128(u128::MAX >> 10);
        let product = a.checked_mul(b).unwrap();
        let (q, r) = product.checked_add(U256::from_u128(7)).unwrap().div_rem(b);
        assert_eq!((q, r), (a, U256::from_u128(7)));
        let (q, r) = product.div_rem(a);
        assert_eq!((q, r), (b, U256::ZERO));
    }

    #[test]
    fn rounding_is_half_up() {
        let ten = U256::from_u128(10);
        assert_eq!(U256::from_u128(15).div_round(ten), U256::from_u128(2));
        assert_eq!(U256::from_u128(14).div_round(ten), U256::from_u128(1));
        let huge = U256([0, 0, 0, 1 << 63]);
        assert_eq!(huge.div_round(huge), U256::from_u128(1));
    }
}
