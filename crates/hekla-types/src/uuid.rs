//! uniqueidentifier: 16 bytes in SQL Server's byte order and sort order.
//!
//! SQL Server stores the first three groups of the text form little-endian
//! (as .NET's `Guid.ToByteArray` does) and the last two as written.

use crate::SqlError;
use std::fmt;
use std::str::FromStr;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Uuid(pub [u8; 16]);

/// SQL Server compares uniqueidentifiers starting from the last six bytes,
/// then bytes 8..10, 6..8, 4..6 and finally 0..4 (each group left to right).
pub(crate) const SORT_ORDER: [usize; 16] = [10, 11, 12, 13, 14, 15, 8, 9, 6, 7, 4, 5, 0, 1, 2, 3];

/// `TEXT_ORDER[i]` is the stored position of the i-th byte of the text form.
const TEXT_ORDER: [usize; 16] = [3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15];
/// Where the text form has hyphens.
const HYPHENS: [usize; 4] = [8, 13, 18, 23];

impl Uuid {
    /// The bytes rearranged so that comparing them bytewise is SQL Server's
    /// uniqueidentifier order.
    pub fn sort_bytes(&self) -> [u8; 16] {
        SORT_ORDER.map(|i| self.0[i])
    }
}

impl PartialOrd for Uuid {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// SQL Server's uniqueidentifier order, not the bytes' order.
impl Ord for Uuid {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.sort_bytes().cmp(&other.sort_bytes())
    }
}

/// `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`, optionally in braces, any case;
/// Msg 8169 otherwise.
impl FromStr for Uuid {
    type Err = SqlError;

    fn from_str(text: &str) -> Result<Uuid, SqlError> {
        let invalid = || {
            SqlError::new(
                8169,
                16,
                2,
                "Conversion failed when converting from a character string to uniqueidentifier.",
            )
        };
        let text = text.trim();
        let text = text
            .strip_prefix('{')
            .and_then(|t| t.strip_suffix('}'))
            .unwrap_or(text)
            .as_bytes();
        if text.len() != 36 || HYPHENS.iter().any(|&i| text[i] != b'-') {
            return Err(invalid());
        }
        let mut nibbles = text
            .iter()
            .enumerate()
            .filter(|(i, _)| !HYPHENS.contains(i))
            .map(|(_, &c)| (c as char).to_digit(16).map(|d| d as u8));
        let mut bytes = [0u8; 16];
        for &position in &TEXT_ORDER {
            let high = nibbles.next().flatten().ok_or_else(invalid)?;
            let low = nibbles.next().flatten().ok_or_else(invalid)?;
            bytes[position] = (high << 4) | low;
        }
        Ok(Uuid(bytes))
    }
}

/// Uppercase, as SQL Server shows uniqueidentifiers.
impl fmt::Display for Uuid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, &position) in TEXT_ORDER.iter().enumerate() {
            if matches!(i, 4 | 6 | 8 | 10) {
                f.write_str("-")?;
            }
            write!(f, "{:02X}", self.0[position])?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "00112233-4455-6677-8899-AABBCCDDEEFF";

    #[test]
    fn text_round_trips_through_sql_server_layout() {
        let u: Uuid = TEXT.parse().unwrap();
        assert_eq!(
            u.0,
            [
                0x33, 0x22, 0x11, 0x00, 0x55, 0x44, 0x77, 0x66, 0x88, 0x99, 0xAA, 0xBB, 0xCC, 0xDD,
                0xEE, 0xFF
            ]
        );
        assert_eq!(u.to_string(), TEXT);
        assert_eq!(
            format!("{{{}}}", TEXT.to_lowercase())
                .parse::<Uuid>()
                .unwrap(),
            u
        );
    }

    #[test]
    fn malformed_text_is_msg_8169() {
        for bad in [
            "",
            "00112233445566778899AABBCCDDEEFF",
            "00112233-4455-6677-8899-AABBCCDDEEFG",
            "{00112233-4455-6677-8899-AABBCCDDEEFF",
        ] {
            assert_eq!(bad.parse::<Uuid>().unwrap_err().number, 8169, "{bad:?}");
        }
    }

    #[test]
    fn order_starts_with_the_last_group() {
        let u = |s: &str| s.parse::<Uuid>().unwrap();
        assert!(
            u("FFFFFFFF-FFFF-FFFF-FFFF-000000000000") < u("00000000-0000-0000-0000-000000000001")
        );
        assert!(
            u("FFFFFFFF-FFFF-FFFF-0000-000000000000") < u("00000000-0000-0000-0001-000000000000")
        );
        assert!(
            u("FFFFFFFF-FFFF-0000-0000-000000000000") < u("00000000-0000-0001-0000-000000000000")
        );
        assert!(
            u("FFFFFFFF-0000-0000-0000-000000000000") < u("00000000-0001-0000-0000-000000000000")
        );
        assert!(
            u("00000000-0000-0000-0000-000000000000") < u("00000001-0000-0000-0000-000000000000")
        );
    }
}
