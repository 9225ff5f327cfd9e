//! Which versions a transaction sees (Larson et al., VLDB 2011, section 2.5).
//!
//! A version is visible at time `at` when its begin is at or before `at` and
//! its end after it. Words that hold a transaction id are resolved through the
//! transaction table. A transaction that is *preparing* already has its end
//! timestamp; reading through it is speculative and creates a commit
//! dependency: the reader may commit only if that transaction does.

use crate::txn_table::{TxnState, TxnTable};
use crate::version::VersionPtr;
use crate::word::{Word, FREE, INFINITY};
use std::sync::atomic::Ordering::Acquire;

/// The outcome of a visibility check.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Seen {
    pub visible: bool,
    /// Transactions the outcome assumed would commit.
    pub depends_on: [Option<u64>; 2],
    /// The version's end timestamp, when it is one (garbage detection).
    pub end_ts: Option<u64>,
}

impl Seen {
    fn invisible() -> Seen {
        Seen::default()
    }
}

/// What [`see`] decides for a version whose begin and end words are
/// `begin` and `end` (loaded in that order) when both are timestamps: no
/// transaction is creating or ending it, the common case, decided without
/// the bookkeeping transactions' ids need. None when a word names one.
#[inline]
pub(crate) fn settled(begin: u64, end: u64, at: u64) -> Option<Seen> {
    match (Word::decode(begin), Word::decode(end)) {
        (Word::Timestamp(begin), _) if begin == FREE || begin > at => Some(Seen::invisible()),
        (Word::Timestamp(_), Word::Timestamp(end)) => Some(Seen {
            visible: at < end,
            depends_on: [None; 2],
            end_ts: (end != INFINITY).then_some(end),
        }),
        _ => None,
    }
}

/// Checks `version` for transaction `me` reading as of `at`.
#[inline]
pub fn see(txns: &TxnTable, version: VersionPtr, at: u64, me: u64) -> Seen {
    let begin = version.begin().load(Acquire);
    let end = version.end().load(Acquire);
    settled(begin, end, at).unwrap_or_else(|| see_contended(txns, version, at, me))
}

/// [`see`] when a word of the version names a transaction.
#[inline(never)]
fn see_contended(txns: &TxnTable, version: VersionPtr, at: u64, me: u64) -> Seen {
    let mut rereads = 0u64;
    'reread: loop {
        rereads += 1;
        assert!(
            rereads < 10_000_000,
            "version {version:?} keeps a finished transaction's id: begin {:#x} end {:#x}",
            version.begin().load(Acquire),
            version.end().load(Acquire)
        );
        let mut seen = Seen::invisible();
        match Word::decode(version.begin().load(Acquire)) {
            Word::Timestamp(FREE) => return seen,
            Word::Timestamp(begin) if begin > at => return seen,
            Word::Timestamp(_) => {}
            Word::Txn(creator) if creator == me => {
                let deleted_by_me = version.end().load(Acquire) == Word::txn(me);
                seen.visible = !deleted_by_me;
                return seen;
            }
            Word::Txn(creator) => match txns.lookup(creator) {
                None => continue 'reread,
                Some((TxnState::Preparing, ts)) if ts <= at => seen.depends_on[0] = Some(creator),
                Some((TxnState::Committed, ts)) if ts <= at => {}
                Some(_) => return seen,
            },
        }
        match Word::decode(version.end().load(Acquire)) {
            Word::Timestamp(end) => {
                seen.visible = at < end;
                seen.end_ts = (end != INFINITY).then_some(end);
            }
            Word::Txn(deleter) if deleter == me => {}
            Word::Txn(deleter) => match txns.lookup(deleter) {
                None => continue 'reread,
                Some((TxnState::Active | TxnState::Aborted, _)) => seen.visible = true,
                Some((TxnState::Preparing, ts)) => {
                    seen.visible = ts > at;
                    if !seen.visible {
                        seen.depends_on[1] = Some(deleter);
                    }
                }
                Some((TxnState::Committed, ts)) => seen.visible = ts > at,
            },
        }
        return seen;
    }
}

/// A committed or committing transaction's begin timestamp for `version`'s
/// begin word (used for redo records of deletes).
pub fn begin_timestamp(txns: &TxnTable, version: VersionPtr) -> u64 {
    loop {
        match Word::decode(version.begin().load(Acquire)) {
            Word::Timestamp(ts) => return ts,
            Word::Txn(creator) => {
                if let Some((_, ts)) = txns.lookup(creator) {
                    return ts;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn visible(begin: u64, end: u64, at: u64) -> Option<bool> {
        settled(begin, end, at).map(|seen| seen.visible)
    }

    #[test]
    fn settled_decides_timestamps_only() {
        let at = 100;
        // Created at or before `at`, ended after it (or never): visible.
        assert_eq!(visible(100, INFINITY, at), Some(true));
        assert_eq!(visible(50, 101, at), Some(true));
        // Ended at or before `at`, created after it, or a free slot.
        assert_eq!(visible(50, 100, at), Some(false));
        assert_eq!(visible(101, INFINITY, at), Some(false));
        assert_eq!(visible(FREE, INFINITY, at), Some(false));
        // Created after `at`: invisible whoever is ending it.
        assert_eq!(visible(101, Word::txn(7), at), Some(false));
        // A transaction's id otherwise: `see` decides.
        assert_eq!(visible(Word::txn(7), INFINITY, at), None);
        assert_eq!(visible(50, Word::txn(7), at), None);
        // The end timestamp is reported when there is one.
        assert_eq!(settled(50, 80, at).and_then(|seen| seen.end_ts), Some(80));
        assert_eq!(settled(50, INFINITY, at).and_then(|seen| seen.end_ts), None);
    }
}
