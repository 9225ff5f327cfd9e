//! The begin/end words of a row version.
//!
//! Each word holds either a commit timestamp or, with [`TXN_FLAG`] set, the id
//! of the transaction that is creating (begin) or deleting (end) the version.

/// Set in a begin/end word that holds a transaction id instead of a timestamp.
pub const TXN_FLAG: u64 = 1 << 63;
/// The largest timestamp: an `end` of INFINITY means "not deleted".
pub const INFINITY: u64 = TXN_FLAG - 1;
/// A `begin` of 0 marks a free heap slot (no version lives there).
pub const FREE: u64 = 0;
/// The first timestamp the clock hands out.
pub const FIRST_TIMESTAMP: u64 = 1;

/// A decoded begin/end word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Word {
    Timestamp(u64),
    Txn(u64),
}

impl Word {
    #[inline]
    pub fn decode(raw: u64) -> Word {
        if raw & TXN_FLAG != 0 {
            Word::Txn(raw & !TXN_FLAG)
        } else {
            Word::Timestamp(raw)
        }
    }

    #[inline]
    pub fn txn(id: u64) -> u64 {
        debug_assert!(id & TXN_FLAG == 0);
        id | TXN_FLAG
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_round_trip() {
        assert_eq!(Word::decode(42), Word::Timestamp(42));
        assert_eq!(Word::decode(INFINITY), Word::Timestamp(INFINITY));
        assert_eq!(Word::decode(Word::txn(7)), Word::Txn(7));
    }
}
