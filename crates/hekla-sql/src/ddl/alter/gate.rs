//! Schema stability and schema modification, as SQL Server's Sch-S and
//! Sch-M locks, for the whole database at once.
//!
//! Every statement runs holding the lock shared, from before it resolves a
//! name until its transaction has committed or rolled back (hekla has no
//! multi-statement transactions yet, so a statement's end is its
//! transaction's end). A table rebuild (ALTER TABLE, CREATE INDEX, DROP
//! INDEX) holds it exclusively: it waits for the statements already
//! running, and statements that start meanwhile wait for it, then resolve
//! their tables afresh. So no statement ever writes to a table whose rows
//! a rebuild has already copied, and none reads a table the rebuild
//! dropped.
//!
//! A statement run inside another one (a procedure's, under its EXEC)
//! does not take the lock again: the session holds it already (the
//! interpreter knows, see `Session::holds_schema_stability`), so a waiting
//! rebuild cannot deadlock it; asking for it exclusively while holding it
//! shared is an error instead of a deadlock.

use hekla_types::{SqlError, SqlResult};
use std::sync::{RwLock, RwLockReadGuard, RwLockWriteGuard};

#[derive(Default)]
pub struct SchemaLock {
    lock: RwLock<()>,
}

/// A statement's shared hold; released when dropped.
pub struct Stability<'a> {
    _guard: RwLockReadGuard<'a, ()>,
}

/// A rebuild's exclusive hold.
pub struct Modification<'a> {
    _guard: RwLockWriteGuard<'a, ()>,
}

impl SchemaLock {
    /// Waits while a rebuild runs, then holds the lock shared (for a
    /// statement not inside another: one inside holds it already).
    pub fn stability(&self) -> Stability<'_> {
        // A panic elsewhere cannot leave the unit value inconsistent.
        let guard = self
            .lock
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        Stability { _guard: guard }
    }

    /// Waits for every running statement, then holds the lock alone;
    /// refused when the caller `holds_stability` (a rebuild inside another
    /// statement), which would wait for itself.
    pub fn modification(&self, holds_stability: bool) -> SqlResult<Modification<'_>> {
        if holds_stability {
            return Err(SqlError::new(
                10794,
                16,
                1,
                "The statement 'ALTER TABLE' is not supported by hekla inside another statement.",
            ));
        }
        let guard = self
            .lock
            .write()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        Ok(Modification { _guard: guard })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    use std::time::Duration;

    #[test]
    fn a_modification_waits_for_statements_and_statements_wait_for_it() {
        let lock = Arc::new(SchemaLock::default());
        let statement = lock.stability();
        let done = Arc::new(AtomicBool::new(false));
        let rebuild = {
            let (lock, done) = (Arc::clone(&lock), Arc::clone(&done));
            std::thread::spawn(move || {
                let _held = lock.modification(false).unwrap();
                done.store(true, Ordering::SeqCst);
                std::thread::sleep(Duration::from_millis(50));
            })
        };
        std::thread::sleep(Duration::from_millis(50));
        assert!(!done.load(Ordering::SeqCst), "waits for the statement");
        drop(statement);
        while !done.load(Ordering::SeqCst) {
            std::thread::yield_now();
        }
        // Held now: a new statement waits until the rebuild ends.
        let _next = lock.stability();
        rebuild.join().unwrap();
    }

    #[test]
    fn a_modification_inside_a_statement_is_refused_not_deadlocked() {
        let lock = SchemaLock::default();
        let statement = lock.stability();
        assert_eq!(lock.modification(true).err().map(|e| e.number), Some(10794));
        drop(statement);
        assert!(lock.modification(false).is_ok());
    }
}
