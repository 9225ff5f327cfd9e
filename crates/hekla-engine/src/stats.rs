//! Database-wide counters, striped per thread so that counting a commit
//! never makes two cores fight over one cache line.

use crate::sharding::Padded;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Why a transaction ended without committing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AbortReason {
    /// 41302
    WriteConflict,
    /// 41305
    RepeatableReadValidation,
    /// 41325
    SerializableValidation,
    /// 41301
    CommitDependency,
    /// The redo log refused the commit.
    LogFailure,
    /// ROLLBACK, a dropped transaction, or an error the caller gave up on.
    Rollback,
}

impl AbortReason {
    pub const ALL: [AbortReason; 6] = [
        AbortReason::WriteConflict,
        AbortReason::RepeatableReadValidation,
        AbortReason::SerializableValidation,
        AbortReason::CommitDependency,
        AbortReason::LogFailure,
        AbortReason::Rollback,
    ];
}

const COMMITS: usize = 0;
const COUNTERS: usize = 1 + AbortReason::ALL.len();
const STRIPES: usize = 8;

type Stripe = Padded<[AtomicU64; COUNTERS]>;

#[derive(Default)]
pub struct Counters {
    stripes: [Stripe; STRIPES],
}

/// A snapshot of the counters.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DatabaseStats {
    pub commits: u64,
    pub aborts: Vec<(AbortReason, u64)>,
}

impl DatabaseStats {
    pub fn aborts_for(&self, reason: AbortReason) -> u64 {
        self.aborts
            .iter()
            .find(|(r, _)| *r == reason)
            .map_or(0, |(_, n)| *n)
    }

    pub fn total_aborts(&self) -> u64 {
        self.aborts.iter().map(|(_, n)| n).sum()
    }
}

impl Counters {
    fn bump(&self, counter: usize) {
        let stripe = crate::sharding::shard_of(STRIPES);
        self.stripes[stripe].0[counter].fetch_add(1, Relaxed);
    }

    pub fn commit(&self) {
        self.bump(COMMITS);
    }

    pub fn abort(&self, reason: AbortReason) {
        self.bump(1 + reason as usize);
    }

    fn total(&self, counter: usize) -> u64 {
        self.stripes
            .iter()
            .map(|s| s.0[counter].load(Relaxed))
            .sum()
    }

    pub fn snapshot(&self) -> DatabaseStats {
        DatabaseStats {
            commits: self.total(COMMITS),
            aborts: AbortReason::ALL
                .iter()
                .map(|&r| (r, self.total(1 + r as usize)))
                .collect(),
        }
    }
}
