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
//! A thread that already holds the lock shared (a statement run inside
//! another one) does not take it again, so a waiting rebuild cannot
//! deadlock it; asking for it exclusively while holding it shared is an
//! error instead of a deadlock.

use hekla_types::{SqlError, SqlResult};
use std::cell::Cell;
use std::sync::{RwLock, RwLockReadGuard, RwLockWriteGuard};

#[derive(Default)]
pub struct SchemaLock {
    lock: RwLock<()>,
}

thread_local! {
    /// How many shared holds this thread has (nested statements).
    static SHARED_DEPTH: Cell<usize> = const { Cell::new(0) };
}

/// A statement's shared hold; released when dropped.
pub struct Stability<'a> {
    _guard: Option<RwLockReadGuard<'a, ()>>,
}

impl Drop for Stability<'_> {
    fn drop(&mut self) {
        SHARED_DEPTH.with(|depth| depth.set(depth.get().saturating_sub(1)));
    }
}

/// A rebuild's exclusive hold.
pub struct Modification<'a> {
    _guard: RwLockWriteGuard<'a, ()>,
}

impl SchemaLock {
    /// Waits while a rebuild runs, then holds the lock shared.
    pub fn stability(&self) -> Stability<'_> {
        let nested = SHARED_DEPTH.with(|depth| {
            depth.set(depth.get() + 1);
            depth.get() > 1
        });
        let guard = if nested {
            None
        } else {
            // A panic elsewhere cannot leave the unit value inconsistent.
            Some(
                self.lock
                    .read()
                    .unwrap_or_else(|poisoned| poisoned.into_inner()),
            )
        };
        Stability { _guard: guard }
    }

    /// Waits for every running statement, then holds the lock alone.
    pub fn modification(&self) -> SqlResult<Modification<'_>> {
        if SHARED_DEPTH.with(Cell::get) > 0 {
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
                let _held = lock.modification().unwrap();
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
    fn nested_statements_do_not_take_it_twice() {
        let lock = SchemaLock::default();
        let outer = lock.stability();
        let inner = lock.stability();
        assert_eq!(lock.modification().err().map(|e| e.number), Some(10794));
        drop(inner);
        drop(outer);
        assert!(lock.modification().is_ok());
    }
}
