//! The database options `ALTER DATABASE ... SET` changes: kept durably
//! (each change is a log record, each checkpoint root holds them all) and
//! read without a lock on every commit and statement.

use super::codec::{Decoded, Decoder, Encoder, Malformed};
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

/// `RECOVERY`: what the log keeps for backups. hekla takes no backups, so
/// the log is truncated at every checkpoint whichever is set, as SQL
/// Server truncates a FULL or BULK_LOGGED database's log until its first
/// full backup. The engine keeps the setting for the SQL layer to report.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RecoveryModel {
    Full,
    BulkLogged,
    /// What hekla does, and so its default.
    #[default]
    Simple,
}

impl RecoveryModel {
    /// SQL Server's `recovery_model` code (1, 2, 3), also its log code.
    pub fn code(self) -> u8 {
        match self {
            RecoveryModel::Full => 1,
            RecoveryModel::BulkLogged => 2,
            RecoveryModel::Simple => 3,
        }
    }

    pub(crate) fn from_code(code: u8) -> Decoded<RecoveryModel> {
        Ok(match code {
            1 => RecoveryModel::Full,
            2 => RecoveryModel::BulkLogged,
            3 => RecoveryModel::Simple,
            other => return Err(Malformed(format!("unknown recovery model {other}"))),
        })
    }
}

/// `SINGLE_USER | RESTRICTED_USER | MULTI_USER`: who may open sessions.
/// The SQL layer enforces it; the engine keeps it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum UserAccess {
    #[default]
    Multi,
    Single,
    Restricted,
}

impl UserAccess {
    /// SQL Server's `user_access` code (0, 1, 2), also its log code.
    pub fn code(self) -> u8 {
        match self {
            UserAccess::Multi => 0,
            UserAccess::Single => 1,
            UserAccess::Restricted => 2,
        }
    }

    pub(crate) fn from_code(code: u8) -> Decoded<UserAccess> {
        Ok(match code {
            0 => UserAccess::Multi,
            1 => UserAccess::Single,
            2 => UserAccess::Restricted,
            other => return Err(Malformed(format!("unknown user access {other}"))),
        })
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
    pub recovery: RecoveryModel,
    pub user_access: UserAccess,
}

impl DatabaseOptions {
    /// The two options logs and roots written before they were kept lack:
    /// their defaults.
    pub(crate) fn with_defaults_after_elevate(
        delayed_durability: DelayedDurability,
        elevate_to_snapshot: bool,
    ) -> DatabaseOptions {
        DatabaseOptions {
            delayed_durability,
            elevate_to_snapshot,
            ..DatabaseOptions::default()
        }
    }

    pub(crate) fn encode(&self, e: &mut Encoder) {
        e.u8(self.delayed_durability.code());
        e.bool(self.elevate_to_snapshot);
        e.u8(self.recovery.code());
        e.u8(self.user_access.code());
    }

    pub(crate) fn decode(d: &mut Decoder) -> Decoded<DatabaseOptions> {
        Ok(DatabaseOptions {
            delayed_durability: DelayedDurability::from_code(d.u8()?)?,
            elevate_to_snapshot: d.bool()?,
            recovery: RecoveryModel::from_code(d.u8()?)?,
            user_access: UserAccess::from_code(d.u8()?)?,
        })
    }
}

/// The options as the database holds them: each in an atomic, so the
/// commit path reads `DELAYED_DURABILITY` without a lock; changes are
/// serialized so that each logs the options it leaves.
#[derive(Default)]
pub(crate) struct OptionsCell {
    delayed_durability: AtomicU8,
    elevate_to_snapshot: AtomicBool,
    /// RECOVERY and user access: no hot path reads them, so a plain lock.
    rarely_read: Mutex<(RecoveryModel, UserAccess)>,
    changing: Mutex<()>,
}

impl OptionsCell {
    pub fn get(&self) -> DatabaseOptions {
        let (recovery, user_access) = *self.rarely_read.lock().unwrap_or_else(|e| e.into_inner());
        DatabaseOptions {
            delayed_durability: self.delayed_durability(),
            elevate_to_snapshot: self.elevate_to_snapshot.load(Ordering::Relaxed),
            recovery,
            user_access,
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
        *self.rarely_read.lock().unwrap_or_else(|e| e.into_inner()) =
            (options.recovery, options.user_access);
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
