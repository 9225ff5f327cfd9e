//! The database options `ALTER DATABASE ... SET` changes: kept durably
//! (each change is a log record, each checkpoint root holds them all) and
//! read without a lock on every commit and statement.

use super::codec::{Decoded, Malformed};
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::Mutex;

/// `DELAYED_DURABILITY`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DelayedDurability {
    /// Every commit is fully durable (SQL Server's default).
    #[default]
    Disabled,
    /// A commit is delayed if it asks to be.
    Allowed,
    /// Every commit is delayed.
    Forced,
}

impl DelayedDurability {
    pub(crate) fn code(self) -> u8 {
        match self {
            DelayedDurability::Disabled => 0,
            DelayedDurability::Allowed => 1,
            DelayedDurability::Forced => 2,
        }
    }

    pub(crate) fn from_code(code: u8) -> Decoded<DelayedDurability> {
        Ok(match code {
            0 => DelayedDurability::Disabled,
            1 => DelayedDurability::Allowed,
            2 => DelayedDurability::Forced,
            other => return Err(Malformed(format!("unknown delayed durability {other}"))),
        })
    }

    /// Whether a commit that asked for `requested` delay is delayed.
    pub fn delays(self, requested: bool) -> bool {
        match self {
            DelayedDurability::Disabled => false,
            DelayedDurability::Allowed => requested,
            DelayedDurability::Forced => true,
        }
    }
}

/// Every option a database keeps, as one value: a change logs them all,
/// so replaying the last record (or reading the root) restores them all.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DatabaseOptions {
    pub delayed_durability: DelayedDurability,
    /// `MEMORY_OPTIMIZED_ELEVATE_TO_SNAPSHOT`: reads of memory-optimized
    /// tables under READ COMMITTED in a user transaction are made at
    /// SNAPSHOT instead of failing. The SQL layer acts on it; the engine
    /// only keeps it.
    pub elevate_to_snapshot: bool,
}

/// The options as the database holds them: each in an atomic, so the
/// commit path reads `DELAYED_DURABILITY` without a lock; changes are
/// serialized so that each logs the options it leaves.
#[derive(Default)]
pub(crate) struct OptionsCell {
    delayed_durability: AtomicU8,
    elevate_to_snapshot: AtomicBool,
    changing: Mutex<()>,
}

impl OptionsCell {
    pub fn get(&self) -> DatabaseOptions {
        DatabaseOptions {
            delayed_durability: self.delayed_durability(),
            elevate_to_snapshot: self.elevate_to_snapshot.load(Ordering::Relaxed),
        }
    }

    pub fn delayed_durability(&self) -> DelayedDurability {
        // Only `set` stores, and only valid codes.
        DelayedDurability::from_code(self.delayed_durability.load(Ordering::Relaxed))
            .unwrap_or_default()
    }

    pub fn set(&self, options: DatabaseOptions) {
        self.delayed_durability
            .store(options.delayed_durability.code(), Ordering::Relaxed);
        self.elevate_to_snapshot
            .store(options.elevate_to_snapshot, Ordering::Relaxed);
    }

    /// Applies `change`; `record` (the log) sees the options it leaves
    /// first, and the change is dropped if it fails. One change at a time.
    pub fn change<E>(
        &self,
        change: impl FnOnce(&mut DatabaseOptions),
        record: impl FnOnce(DatabaseOptions) -> Result<(), E>,
    ) -> Result<DatabaseOptions, E> {
        let _one_at_a_time = self.changing.lock().unwrap_or_else(|e| e.into_inner());
        let mut options = self.get();
        change(&mut options);
        record(options)?;
        self.set(options);
        Ok(options)
    }
}
