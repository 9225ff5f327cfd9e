//! Equality, ordering and hashing of stored forms: the engine's hot path.
//!
//! Canonical fixed-width forms compare equal exactly when their bytes do, so
//! equality is a slice compare and hashing a single hasher round.

use super::DataType;
use crate::stored::{self, canonical_f32, canonical_f64, trim_trailing};
use crate::uuid::SORT_ORDER;
use crate::{Collation, KeyHasher};
use std::borrow::Cow;
use std::cmp::Ordering;

/// Stored strings are UTF-8 written by `encode`; a damaged one is compared
/// through its lossy decoding rather than panicking.
#[inline]
fn text(bytes: &[u8]) -> Cow<'_, str> {
    // The common case, ASCII, needs only the cheapest check; validation is
    // the next fastest; only damaged bytes take the lossy decoder.
    if bytes.is_ascii() {
        // SAFETY: ASCII bytes are valid UTF-8.
        return Cow::Borrowed(unsafe { std::str::from_utf8_unchecked(bytes) });
    }
    match std::str::from_utf8(bytes) {
        Ok(text) => Cow::Borrowed(text),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}

/// datetimeoffset compares the UTC instant only, not the offset.
#[inline]
fn instant(bytes: &[u8]) -> &[u8] {
    bytes.get(..8).unwrap_or(bytes)
}

pub(super) fn eq(ty: &DataType, a: &[u8], b: &[u8]) -> bool {
    use DataType as T;
    match *ty {
        T::Float => stored::f64_at(a) == stored::f64_at(b),
        T::Real => stored::f32_at(a) == stored::f32_at(b),
        T::DateTimeOffset { .. } => instant(a) == instant(b),
        T::Char { collation, .. }
        | T::VarChar { collation, .. }
        | T::NChar { collation, .. }
        | T::NVarChar { collation, .. } => string_eq(collation, a, b),
        T::Binary { .. } | T::VarBinary { .. } => trim_trailing(a, 0) == trim_trailing(b, 0),
        _ => a == b,
    }
}

#[inline]
fn string_eq(collation: Collation, a: &[u8], b: &[u8]) -> bool {
    if a == b {
        return true;
    }
    collation.eq(&text(a), &text(b))
}

pub(super) fn cmp(ty: &DataType, a: &[u8], b: &[u8]) -> Ordering {
    use DataType as T;
    match *ty {
        T::Bit | T::TinyInt => a.first().cmp(&b.first()),
        T::SmallInt => stored::i16_at(a).cmp(&stored::i16_at(b)),
        T::Int | T::SmallMoney | T::Date => stored::i32_at(a).cmp(&stored::i32_at(b)),
        T::BigInt | T::Money | T::DateTime2 { .. } | T::DateTimeOffset { .. } => {
            stored::i64_at(a).cmp(&stored::i64_at(b))
        }
        T::Decimal { precision, .. } => {
            stored::decimal_at(a, precision).cmp(&stored::decimal_at(b, precision))
        }
        T::Float => canonical_f64(stored::f64_at(a)).total_cmp(&canonical_f64(stored::f64_at(b))),
        T::Real => canonical_f32(stored::f32_at(a)).total_cmp(&canonical_f32(stored::f32_at(b))),
        T::Time { .. } => stored::u64_at(a).cmp(&stored::u64_at(b)),
        T::DateTime => datetime_parts(a).cmp(&datetime_parts(b)),
        T::SmallDateTime => smalldatetime_parts(a).cmp(&smalldatetime_parts(b)),
        T::UniqueIdentifier => {
            let (a, b) = (stored::array::<16>(a), stored::array::<16>(b));
            SORT_ORDER
                .iter()
                .map(|&i| a[i])
                .cmp(SORT_ORDER.iter().map(|&i| b[i]))
        }
        T::Char { collation, .. }
        | T::VarChar { collation, .. }
        | T::NChar { collation, .. }
        | T::NVarChar { collation, .. } => collation.cmp(&text(a), &text(b)),
        T::Binary { .. } | T::VarBinary { .. } => trim_trailing(a, 0).cmp(trim_trailing(b, 0)),
    }
}

#[inline]
pub(crate) fn datetime_parts(bytes: &[u8]) -> (i32, u32) {
    (
        stored::i32_at(bytes),
        stored::u32_at(bytes.get(4..).unwrap_or_default()),
    )
}

#[inline]
pub(crate) fn smalldatetime_parts(bytes: &[u8]) -> (u16, u16) {
    (
        stored::u16_at(bytes),
        stored::u16_at(bytes.get(2..).unwrap_or_default()),
    )
}

pub(super) fn hash(ty: &DataType, bytes: &[u8], h: &mut KeyHasher) {
    use DataType as T;
    match *ty {
        T::Float => h.write_u64(canonical_f64(stored::f64_at(bytes)).to_bits()),
        T::Real => h.write_u64(u64::from(canonical_f32(stored::f32_at(bytes)).to_bits())),
        T::DateTimeOffset { .. } => h.write_u64(stored::u64_at(bytes)),
        T::Char { collation, .. }
        | T::VarChar { collation, .. }
        | T::NChar { collation, .. }
        | T::NVarChar { collation, .. } => collation.hash(&text(bytes), h),
        T::Binary { .. } | T::VarBinary { .. } => h.write(trim_trailing(bytes, 0)),
        _ if bytes.len() <= 8 => h.write_u64(stored::u64_at(bytes)),
        _ => h.write(bytes),
    }
}
