//! Bounds-checked reading and little helpers for writing TDS's primitive
//! encodings (little-endian integers, B_VARCHAR / US_VARCHAR UTF-16 strings).
//!
//! Every decoder in this crate reads wire data through [`Reader`], so a
//! length a client claims is always checked against the bytes it really sent
//! before anything is sliced or allocated.

use std::fmt;

/// Malformed input from the peer: the connection answers with an error or
/// closes, it never panics.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProtocolError(pub String);

impl ProtocolError {
    pub fn new(message: impl Into<String>) -> ProtocolError {
        ProtocolError(message.into())
    }
}

impl fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ProtocolError {}

pub type WireResult<T> = Result<T, ProtocolError>;

/// A cursor over a received message.
#[derive(Clone)]
pub struct Reader<'a> {
    bytes: &'a [u8],
    position: usize,
}

impl<'a> Reader<'a> {
    pub fn new(bytes: &'a [u8]) -> Reader<'a> {
        Reader { bytes, position: 0 }
    }

    pub fn position(&self) -> usize {
        self.position
    }

    pub fn remaining(&self) -> usize {
        self.bytes.len() - self.position
    }

    /// The bytes not read yet.
    pub fn rest(&self) -> &'a [u8] {
        &self.bytes[self.position..]
    }

    pub fn is_empty(&self) -> bool {
        self.remaining() == 0
    }

    /// The next `n` bytes, or an error if fewer are left.
    pub fn take(&mut self, n: usize) -> WireResult<&'a [u8]> {
        let end = self
            .position
            .checked_add(n)
            .filter(|&end| end <= self.bytes.len())
            .ok_or_else(|| ProtocolError::new("message ends early"))?;
        let slice = &self.bytes[self.position..end];
        self.position = end;
        Ok(slice)
    }

    fn array<const N: usize>(&mut self) -> WireResult<[u8; N]> {
        let mut out = [0u8; N];
        out.copy_from_slice(self.take(N)?);
        Ok(out)
    }

    pub fn u8(&mut self) -> WireResult<u8> {
        Ok(self.array::<1>()?[0])
    }

    pub fn peek_u8(&self) -> Option<u8> {
        self.bytes.get(self.position).copied()
    }

    pub fn u16(&mut self) -> WireResult<u16> {
        self.array().map(u16::from_le_bytes)
    }

    pub fn u16_be(&mut self) -> WireResult<u16> {
        self.array().map(u16::from_be_bytes)
    }

    pub fn u32(&mut self) -> WireResult<u32> {
        self.array().map(u32::from_le_bytes)
    }

    pub fn u32_be(&mut self) -> WireResult<u32> {
        self.array().map(u32::from_be_bytes)
    }

    pub fn i32(&mut self) -> WireResult<i32> {
        self.array().map(i32::from_le_bytes)
    }

    pub fn u64(&mut self) -> WireResult<u64> {
        self.array().map(u64::from_le_bytes)
    }

    /// `chars` UTF-16LE code units as a string.
    pub fn utf16(&mut self, chars: usize) -> WireResult<String> {
        let bytes = self.take(chars.checked_mul(2).ok_or_else(too_long)?)?;
        utf16_to_string(bytes)
    }

    /// B_VARCHAR: a one-byte character count, then UTF-16LE.
    pub fn b_varchar(&mut self) -> WireResult<String> {
        let chars = self.u8()?;
        self.utf16(usize::from(chars))
    }

    /// US_VARCHAR: a two-byte character count, then UTF-16LE.
    pub fn us_varchar(&mut self) -> WireResult<String> {
        let chars = self.u16()?;
        self.utf16(usize::from(chars))
    }

    /// B_VARBYTE: a one-byte length, then the bytes.
    pub fn b_varbyte(&mut self) -> WireResult<&'a [u8]> {
        let len = self.u8()?;
        self.take(usize::from(len))
    }
}

fn too_long() -> ProtocolError {
    ProtocolError::new("length out of range")
}

/// Decodes UTF-16LE; an odd length or an unpaired surrogate is an error.
pub fn utf16_to_string(bytes: &[u8]) -> WireResult<String> {
    if !bytes.len().is_multiple_of(2) {
        return Err(ProtocolError::new("odd UTF-16 byte count"));
    }
    let units = bytes
        .chunks_exact(2)
        .map(|pair| u16::from_le_bytes([pair[0], pair[1]]));
    char::decode_utf16(units)
        .collect::<Result<String, _>>()
        .map_err(|_| ProtocolError::new("invalid UTF-16"))
}

/// Appends `text` as UTF-16LE.
pub fn put_utf16(out: &mut Vec<u8>, text: &str) {
    for unit in text.encode_utf16() {
        out.extend_from_slice(&unit.to_le_bytes());
    }
}

/// Appends a B_VARCHAR; text beyond 255 UTF-16 units is cut (names are
/// limited to 128 characters, so only messages could be that long).
pub fn put_b_varchar(out: &mut Vec<u8>, text: &str) {
    let units: Vec<u16> = text.encode_utf16().take(255).collect();
    out.push(units.len() as u8);
    for unit in units {
        out.extend_from_slice(&unit.to_le_bytes());
    }
}

/// Appends a US_VARCHAR, cut at 65535 UTF-16 units.
pub fn put_us_varchar(out: &mut Vec<u8>, text: &str) {
    let units: Vec<u16> = text.encode_utf16().take(usize::from(u16::MAX)).collect();
    out.extend_from_slice(&(units.len() as u16).to_le_bytes());
    for unit in units {
        out.extend_from_slice(&unit.to_le_bytes());
    }
}

/// Appends a B_VARBYTE (at most 255 bytes).
pub fn put_b_varbyte(out: &mut Vec<u8>, bytes: &[u8]) {
    let bytes = &bytes[..bytes.len().min(255)];
    out.push(bytes.len() as u8);
    out.extend_from_slice(bytes);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reader_checks_every_length() {
        let mut reader = Reader::new(&[1, 2, 3]);
        assert_eq!(reader.u16().unwrap(), 0x0201);
        assert!(reader.u16().is_err());
        assert_eq!(reader.u8().unwrap(), 3);
        assert!(reader.u8().is_err());
        let mut huge = Reader::new(&[0xFF]);
        assert!(huge.take(usize::MAX).is_err());
    }

    #[test]
    fn b_varchar_round_trips_and_rejects_bad_utf16() {
        let mut out = Vec::new();
        put_b_varchar(&mut out, "hé𝄞");
        let mut reader = Reader::new(&out);
        assert_eq!(reader.b_varchar().unwrap(), "hé𝄞");
        assert!(reader.is_empty());
        // A lone high surrogate.
        assert!(utf16_to_string(&[0x00, 0xD8]).is_err());
        assert!(utf16_to_string(&[0x41]).is_err());
        // A count larger than the data.
        assert!(Reader::new(&[5, b'a', 0]).b_varchar().is_err());
    }
}
