//! Self-delimiting byte strings for variable-length key columns.
//!
//! A zero byte is written as `00 FF` and the string ends with `00 01`, so the
//! terminator sorts below every continuation: a string that is a prefix of
//! another sorts first, and the next column's bytes can never be mistaken
//! for part of this one.

#[inline]
pub(crate) fn append(bytes: &[u8], out: &mut Vec<u8>) {
    if !bytes.contains(&0) {
        out.extend_from_slice(bytes);
        return;
    }
    for &byte in bytes {
        out.push(byte);
        if byte == 0 {
            out.push(0xFF);
        }
    }
}

#[inline]
pub(crate) fn terminate(out: &mut Vec<u8>) {
    out.extend_from_slice(&[0, 1]);
}
