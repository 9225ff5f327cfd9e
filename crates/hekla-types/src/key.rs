//! Order-preserving byte encoding of index key tuples: for keys `a` and `b`,
//! `encode(a) < encode(b)` (bytewise) exactly when `a` sorts before `b`.
//!
//! Each column contributes a marker byte (0 for NULL, so NULL sorts first,
//! 1 otherwise) and, when not NULL, an encoding of its value that is
//! self-delimiting: fixed-width types use big-endian bytes with the sign bit
//! flipped, strings their collation sort key, binary values escaped bytes
//! with a terminator (see the `escape` module). No column encoding is a proper prefix
//! of another, so concatenating columns compares column by column, and the
//! encoding of the leading columns is a byte prefix of every full key that
//! starts with them. Descending columns invert every byte of their part.
//!
//! Encodings are for ordering and equality only; they cannot be decoded
//! (collation sort keys drop case, datetimeoffset drops the offset).

pub(crate) mod escape;

use crate::datatype::compare::{datetime_parts, smalldatetime_parts};
use crate::stored::{self, canonical_f32, canonical_f64, trim_trailing};
use crate::uuid::SORT_ORDER;
use crate::{DataType, SqlError, SqlResult, Value};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum SortOrder {
    #[default]
    Ascending,
    Descending,
}

const NULL_MARKER: u8 = 0;
const VALUE_MARKER: u8 = 1;

/// Encodes a full key: `values` must have one value per column.
pub fn encode_key(
    columns: &[(DataType, SortOrder)],
    values: &[Value],
    out: &mut Vec<u8>,
) -> SqlResult<()> {
    if values.len() != columns.len() {
        return Err(column_count_mismatch());
    }
    encode_key_prefix(columns, values, out)
}

/// Encodes the leading `values.len()` columns of a key, for seeks on a
/// prefix: every full key whose leading columns equal `values` starts with
/// these bytes (and [`prefix_successor`] bounds them from above).
pub fn encode_key_prefix(
    columns: &[(DataType, SortOrder)],
    values: &[Value],
    out: &mut Vec<u8>,
) -> SqlResult<()> {
    if values.len() > columns.len() {
        return Err(column_count_mismatch());
    }
    let start = out.len();
    // One scratch buffer per thread: keys are encoded per row in joins,
    // grouping and DISTINCT, and a fresh buffer each time showed up as
    // allocator traffic.
    let mut scratch = SCRATCH.with(|cell| cell.take());
    let mut outcome = Ok(());
    for ((ty, order), value) in columns.iter().zip(values) {
        if value.is_null() {
            append_column(ty, *order, None, out);
            continue;
        }
        scratch.clear();
        if let Err(e) = ty.encode(value, &mut scratch) {
            out.truncate(start);
            outcome = Err(e);
            break;
        }
        append_column(ty, *order, Some(&scratch), out);
    }
    SCRATCH.with(|cell| cell.set(scratch));
    outcome
}

thread_local! {
    static SCRATCH: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
}

/// Encodes a key from stored forms ([`DataType::encode`]'s output, None for
/// NULL), producing the same bytes as [`encode_key`] for the same values.
/// With fewer stored forms than columns it encodes a prefix, like
/// [`encode_key_prefix`]; extra stored forms are ignored. Takes any
/// iterator, so a caller reading columns out of a row allocates nothing.
pub fn encode_key_from_stored<'a>(
    columns: &[(DataType, SortOrder)],
    stored: impl IntoIterator<Item = Option<&'a [u8]>>,
    out: &mut Vec<u8>,
) {
    for ((ty, order), value) in columns.iter().zip(stored) {
        append_column(ty, *order, value, out);
    }
}

/// The smallest byte string greater than every string that starts with
/// `prefix` (an exclusive upper bound for a prefix seek); None if there is
/// none, i.e. `prefix` is empty or all 0xFF.
pub fn prefix_successor(prefix: &[u8]) -> Option<Vec<u8>> {
    let last = prefix.iter().rposition(|&b| b != 0xFF)?;
    let mut bound = prefix[..=last].to_vec();
    bound[last] += 1;
    Some(bound)
}

fn column_count_mismatch() -> SqlError {
    SqlError::new(
        213,
        16,
        1,
        "Column name or number of supplied values does not match table definition.",
    )
}

fn append_column(ty: &DataType, order: SortOrder, stored: Option<&[u8]>, out: &mut Vec<u8>) {
    let start = out.len();
    match stored {
        None => out.push(NULL_MARKER),
        Some(bytes) => {
            out.push(VALUE_MARKER);
            append_value(ty, bytes, out);
        }
    }
    if order == SortOrder::Descending {
        for byte in &mut out[start..] {
            *byte = !*byte;
        }
    }
}

/// Signed integers as unsigned big-endian with the sign bit flipped.
macro_rules! signed_be {
    ($v:expr, $u:ty) => {
        (($v as $u) ^ (1 << (<$u>::BITS - 1))).to_be_bytes()
    };
}

fn append_value(ty: &DataType, bytes: &[u8], out: &mut Vec<u8>) {
    use DataType as T;
    match *ty {
        T::Bit | T::TinyInt => out.push(bytes.first().copied().unwrap_or(0)),
        T::SmallInt => out.extend_from_slice(&signed_be!(stored::i16_at(bytes), u16)),
        T::Int | T::SmallMoney | T::Date => {
            out.extend_from_slice(&signed_be!(stored::i32_at(bytes), u32))
        }
        T::BigInt | T::Money | T::DateTime2 { .. } | T::DateTimeOffset { .. } => {
            out.extend_from_slice(&signed_be!(stored::i64_at(bytes), u64))
        }
        T::Decimal { precision, .. } => {
            let mantissa = stored::decimal_at(bytes, precision);
            match stored::decimal_width(precision) {
                4 => out.extend_from_slice(&signed_be!(mantissa as i32, u32)),
                8 => out.extend_from_slice(&signed_be!(mantissa as i64, u64)),
                _ => out.extend_from_slice(&signed_be!(mantissa, u128)),
            }
        }
        T::Float => {
            let bits = canonical_f64(stored::f64_at(bytes)).to_bits();
            out.extend_from_slice(&float_order(bits, 64).to_be_bytes());
        }
        T::Real => {
            let bits = u64::from(canonical_f32(stored::f32_at(bytes)).to_bits());
            out.extend_from_slice(&(float_order(bits, 32) as u32).to_be_bytes());
        }
        T::Time { .. } => out.extend_from_slice(&stored::u64_at(bytes).to_be_bytes()),
        T::DateTime => {
            let (days, ticks) = datetime_parts(bytes);
            out.extend_from_slice(&signed_be!(days, u32));
            out.extend_from_slice(&ticks.to_be_bytes());
        }
        T::SmallDateTime => {
            let (days, minutes) = smalldatetime_parts(bytes);
            out.extend_from_slice(&days.to_be_bytes());
            out.extend_from_slice(&minutes.to_be_bytes());
        }
        T::UniqueIdentifier => {
            let raw = stored::array::<16>(bytes);
            out.extend(SORT_ORDER.iter().map(|&i| raw[i]));
        }
        T::Char { collation, .. }
        | T::VarChar { collation, .. }
        | T::NChar { collation, .. }
        | T::NVarChar { collation, .. } => {
            collation.append_sort_key(&String::from_utf8_lossy(bytes), out)
        }
        T::Binary { .. } | T::VarBinary { .. } => {
            escape::append(trim_trailing(bytes, 0), out);
            escape::terminate(out);
        }
    }
}

/// IEEE bits (`width` of them) mapped so that unsigned order is numeric
/// order: negatives have all bits inverted, non-negatives the sign set.
fn float_order(bits: u64, width: u32) -> u64 {
    let sign = 1u64 << (width - 1);
    let mask = if width == 64 {
        u64::MAX
    } else {
        (1 << width) - 1
    };
    if bits & sign != 0 {
        !bits & mask
    } else {
        bits | sign
    }
}

#[cfg(test)]
mod tests;
