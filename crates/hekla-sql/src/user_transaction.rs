//! A session's user transaction: BEGIN / COMMIT / ROLLBACK / SAVE
//! TRANSACTION, `@@TRANCOUNT` and `XACT_STATE()`, with SQL Server's rules.
//!
//! Nested BEGINs only count: the outermost COMMIT commits, any ROLLBACK
//! (but one to a savepoint) rolls everything back. The engine transaction
//! is begun by the first statement that touches a table, so a transaction
//! reads the database as of its first access, as memory-optimized tables
//! do in SQL Server. An error can doom the transaction: then it can only
//! be rolled back (`XACT_STATE()` is -1).

use hekla_engine::{Database, IsolationLevel, Savepoint, Transaction};
use hekla_types::{SqlError, SqlResult};

#[derive(Default)]
pub struct UserTransaction {
    /// The engine transaction, once a statement has used it.
    engine: Option<Transaction>,
    /// `@@TRANCOUNT`: 0 means autocommit.
    count: u32,
    /// An error doomed it: only a full ROLLBACK is allowed.
    doomed: bool,
    /// `SAVE TRANSACTION name` points, oldest first.
    savepoints: Vec<(String, Savepoint)>,
    /// What undoes changes the engine does not roll back (a TRUNCATE's
    /// IDENTITY restart), each with the number of savepoints there were
    /// when it was made, oldest first.
    undo: Vec<(usize, Undo)>,
    /// How the last transaction ended: committed, or rolled back.
    committed: bool,
}

/// Puts back something a statement of the transaction changed outside
/// the engine.
pub type Undo = Box<dyn FnOnce() + Send>;

/// Longest transaction and savepoint name SQL Server accepts.
const MAX_NAME: usize = 32;

impl UserTransaction {
    /// `@@TRANCOUNT`.
    pub fn count(&self) -> u32 {
        self.count
    }

    /// `XACT_STATE()`: 0 outside a transaction, -1 when doomed, else 1.
    pub fn state(&self) -> i16 {
        match (self.count, self.doomed) {
            (0, _) => 0,
            (_, true) => -1,
            _ => 1,
        }
    }

    pub fn is_open(&self) -> bool {
        self.count > 0
    }

    /// Whether the last transaction to end was committed (not rolled
    /// back).
    pub fn committed(&self) -> bool {
        self.committed
    }

    pub fn is_doomed(&self) -> bool {
        self.count > 0 && self.doomed
    }

    /// The engine transaction for a statement to run in (None: the
    /// statement begins it). Give it back with [`UserTransaction::give_back`].
    pub fn lend(&mut self) -> Option<Transaction> {
        self.engine.take()
    }

    /// The engine transaction a statement ran in. If the engine aborted it
    /// (a write conflict, a failed validation), the user transaction is
    /// doomed.
    pub fn give_back(&mut self, engine: Option<Transaction>) {
        if let Some(tx) = &engine {
            if !tx.is_active() {
                self.doomed = true;
            }
        }
        self.engine = engine;
    }

    /// Waits for the commit dependencies of what the transaction read (see
    /// `Transaction::settle_dependencies`): 41301 if it can no longer commit.
    pub fn settle_dependencies(&self) -> SqlResult<()> {
        self.engine
            .as_ref()
            .map_or(Ok(()), Transaction::settle_dependencies)
    }

    /// Runs `undo` if the transaction, or a savepoint set before now, is
    /// rolled back.
    pub fn on_rollback(&mut self, undo: Undo) {
        self.undo.push((self.savepoints.len(), undo));
    }

    /// Runs, newest first, the undo actions made once there were at least
    /// `savepoints` savepoints (0: all of them).
    fn run_undo(&mut self, savepoints: usize) {
        let keep = self
            .undo
            .iter()
            .position(|(made_after, _)| *made_after >= savepoints)
            .unwrap_or(self.undo.len());
        for (_, undo) in self.undo.drain(keep..).rev() {
            undo();
        }
    }

    /// Dooms it: an error inside TRY that SQL Server lets only roll back.
    pub fn doom(&mut self) {
        if self.count > 0 {
            self.doomed = true;
        }
    }

    /// `BEGIN TRANSACTION [name]`.
    pub fn begin(&mut self, name: Option<&str>) -> SqlResult<()> {
        if let Some(name) = name {
            check_name(name)?;
        }
        self.count += 1;
        Ok(())
    }

    /// `COMMIT [TRANSACTION]`; `delayed` is `WITH (DELAYED_DURABILITY = ON)`.
    pub fn commit(&mut self, delayed: bool) -> SqlResult<()> {
        match self.count {
            0 => Err(SqlError::new(
                3902,
                16,
                1,
                "The COMMIT TRANSACTION request has no corresponding BEGIN TRANSACTION.",
            )),
            1 if self.doomed => Err(hekla_engine::errors::transaction_doomed()),
            1 => {
                let engine = self.end();
                let outcome = match engine {
                    Some(mut tx) => {
                        tx.set_delayed_durability(delayed);
                        tx.commit().map(|_| ())
                    }
                    None => Ok(()),
                };
                self.committed = outcome.is_ok();
                outcome
            }
            _ => {
                self.count -= 1;
                Ok(())
            }
        }
    }

    /// `ROLLBACK [TRANSACTION [name]]`: all of it, or back to savepoint
    /// `name` (the latest of that name), which leaves it open.
    pub fn rollback(&mut self, name: Option<&str>) -> SqlResult<()> {
        if self.count == 0 {
            return Err(SqlError::new(
                3903,
                16,
                1,
                "The ROLLBACK TRANSACTION request has no corresponding BEGIN TRANSACTION.",
            ));
        }
        let Some(name) = name else {
            self.roll_back_all();
            return Ok(());
        };
        check_name(name)?;
        let position = self
            .savepoints
            .iter()
            .rposition(|(saved, _)| saved.eq_ignore_ascii_case(name));
        match position {
            Some(_) if self.doomed => Err(SqlError::new(
                3931,
                16,
                1,
                "The current transaction cannot be committed and cannot be rolled back to a savepoint. Roll back the entire transaction.",
            )),
            Some(position) => {
                let (_, savepoint) = self.savepoints[position];
                self.savepoints.truncate(position + 1);
                self.run_undo(position + 1);
                if let Some(tx) = &mut self.engine {
                    tx.rollback_to(savepoint);
                }
                Ok(())
            }
            // A name that is no savepoint names the transaction itself,
            // which SQL Server checks only against the outermost BEGIN's
            // name; hekla does not keep that name and rolls back all.
            None => {
                self.roll_back_all();
                Ok(())
            }
        }
    }

    /// `SAVE TRANSACTION name`; begins the engine transaction, so the
    /// savepoint has a place in it.
    pub fn save(&mut self, name: &str, db: &Database, isolation: IsolationLevel) -> SqlResult<()> {
        if self.count == 0 {
            return Err(SqlError::new(
                628,
                16,
                0,
                "Cannot issue SAVE TRANSACTION when there is no active transaction.",
            ));
        }
        if self.doomed {
            return Err(hekla_engine::errors::transaction_doomed());
        }
        check_name(name)?;
        let savepoint = self.mark(db, isolation)?;
        self.savepoints.push((name.to_string(), savepoint));
        Ok(())
    }

    /// A savepoint for an atomic block inside this transaction; begins
    /// the engine transaction, so the savepoint has a place in it.
    pub fn mark(&mut self, db: &Database, isolation: IsolationLevel) -> SqlResult<Savepoint> {
        if self.doomed {
            return Err(hekla_engine::errors::transaction_doomed());
        }
        if self.engine.is_none() {
            self.engine = Some(db.begin(isolation)?);
        }
        Ok(self.engine.as_ref().expect("begun above").savepoint())
    }

    /// Undoes what was written since `savepoint`, unless the transaction
    /// is doomed (then only a full rollback helps).
    pub fn undo_to(&mut self, savepoint: Savepoint) {
        if let Some(tx) = self.engine.as_mut().filter(|tx| tx.is_active()) {
            tx.rollback_to(savepoint);
        }
    }

    /// Rolls back whatever is open (the end of a batch with a doomed
    /// transaction, an error that aborts the transaction, a closed session).
    pub fn roll_back_all(&mut self) {
        self.committed = false;
        self.run_undo(0);
        if let Some(tx) = self.end() {
            tx.rollback();
        }
    }

    /// Back to autocommit; the engine transaction, if one was begun.
    fn end(&mut self) -> Option<Transaction> {
        self.count = 0;
        self.doomed = false;
        self.savepoints.clear();
        self.undo.clear();
        self.engine.take()
    }
}

/// Msg 103-style limit on transaction and savepoint names.
fn check_name(name: &str) -> SqlResult<()> {
    if name.chars().count() > MAX_NAME {
        return Err(SqlError::new(
            103,
            15,
            4,
            format!(
                "The identifier that starts with '{}' is too long. Maximum length is {MAX_NAME}.",
                name.chars().take(MAX_NAME).collect::<String>()
            ),
        ));
    }
    Ok(())
}
