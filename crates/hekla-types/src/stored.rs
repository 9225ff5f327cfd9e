//! Readers for fixed-width stored forms.
//!
//! Stored forms come from [`crate::DataType::encode`], so their lengths are
//! right; these readers still never panic on a short slice (missing bytes
//! read as zero) because a corrupt row must not bring the server down.

#[inline]
pub(crate) fn array<const N: usize>(bytes: &[u8]) -> [u8; N] {
    let mut out = [0u8; N];
    let n = bytes.len().min(N);
    out[..n].copy_from_slice(&bytes[..n]);
    out
}

#[inline]
pub(crate) fn i16_at(bytes: &[u8]) -> i16 {
    i16::from_le_bytes(array(bytes))
}

#[inline]
pub(crate) fn i32_at(bytes: &[u8]) -> i32 {
    i32::from_le_bytes(array(bytes))
}

#[inline]
pub(crate) fn u32_at(bytes: &[u8]) -> u32 {
    u32::from_le_bytes(array(bytes))
}

#[inline]
pub(crate) fn i64_at(bytes: &[u8]) -> i64 {
    i64::from_le_bytes(array(bytes))
}

#[inline]
pub(crate) fn u64_at(bytes: &[u8]) -> u64 {
    u64::from_le_bytes(array(bytes))
}

#[inline]
pub(crate) fn u16_at(bytes: &[u8]) -> u16 {
    u16::from_le_bytes(array(bytes))
}

#[inline]
pub(crate) fn f64_at(bytes: &[u8]) -> f64 {
    f64::from_le_bytes(array(bytes))
}

#[inline]
pub(crate) fn f32_at(bytes: &[u8]) -> f32 {
    f32::from_le_bytes(array(bytes))
}

/// Bytes in a decimal(p, s) stored mantissa: the narrowest two's-complement
/// integer that holds `p` digits.
#[inline]
pub(crate) fn decimal_width(precision: u8) -> usize {
    match precision {
        0..=9 => 4,
        10..=18 => 8,
        _ => 16,
    }
}

/// A decimal mantissa stored in [`decimal_width`] bytes.
#[inline]
pub(crate) fn decimal_at(bytes: &[u8], precision: u8) -> i128 {
    match decimal_width(precision) {
        4 => i128::from(i32_at(bytes)),
        8 => i128::from(i64_at(bytes)),
        _ => i128::from_le_bytes(array(bytes)),
    }
}

#[inline]
pub(crate) fn push_decimal(mantissa: i128, precision: u8, out: &mut Vec<u8>) {
    let bytes = mantissa.to_le_bytes();
    out.extend_from_slice(&bytes[..decimal_width(precision)]);
}

/// Canonical float bits: -0.0 is stored, hashed and compared as 0.0.
#[inline]
pub(crate) fn canonical_f64(v: f64) -> f64 {
    if v == 0.0 {
        0.0
    } else {
        v
    }
}

#[inline]
pub(crate) fn canonical_f32(v: f32) -> f32 {
    if v == 0.0 {
        0.0
    } else {
        v
    }
}

/// The bytes that take part in comparing a string or binary value: strings
/// ignore trailing spaces, binary values trailing zeros (SQL Server pads the
/// shorter operand with them).
#[inline]
pub(crate) fn trim_trailing(bytes: &[u8], pad: u8) -> &[u8] {
    let end = bytes.iter().rposition(|&b| b != pad).map_or(0, |i| i + 1);
    &bytes[..end]
}
