//! uniqueidentifier: 16 bytes in SQL Server's byte order and sort order.

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Uuid(pub [u8; 16]);

/// SQL Server compares uniqueidentifiers starting from the last six bytes,
/// then bytes 8..10, 6..8, 4..6 and finally 0..4 (each group left to right).
pub(crate) const SORT_ORDER: [usize; 16] = [10, 11, 12, 13, 14, 15, 8, 9, 6, 7, 4, 5, 0, 1, 2, 3];

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
