//! What a running statement reads besides its rows: the database, the
//! batch's variables and the statement's transaction. Subqueries inside
//! expressions reach the same transaction through it, so a statement sees
//! one snapshot however deeply its queries nest.

use crate::session::SqlDatabase;
use hekla_engine::{IsolationLevel, Transaction};
use hekla_types::{SqlError, SqlResult, Value};
use std::cell::{RefCell, RefMut};
use std::collections::HashMap;
use std::rc::Rc;

pub struct Context<'a> {
    pub db: &'a SqlDatabase,
    /// The batch's variable values; an assignment SELECT changes them row
    /// by row while the statement runs.
    variables: RefCell<Vec<Value>>,
    /// Begun when the statement first reads or writes a table.
    transaction: RefCell<Option<Transaction>>,
    /// Results of subqueries that do not depend on the outer row, computed
    /// once per statement; keyed by the subquery's address in the plan.
    cached: RefCell<HashMap<usize, Rc<Vec<Vec<Value>>>>>,
}

impl<'a> Context<'a> {
    pub fn new(db: &'a SqlDatabase, variables: &[Value]) -> Self {
        Context {
            db,
            variables: RefCell::new(variables.to_vec()),
            transaction: RefCell::new(None),
            cached: RefCell::new(HashMap::new()),
        }
    }

    pub fn variable(&self, slot: usize) -> Value {
        self.variables.borrow()[slot].clone()
    }

    pub fn assign(&self, slot: usize, value: Value) {
        self.variables.borrow_mut()[slot] = value;
    }

    /// The variable values as the statement left them.
    pub fn into_variables(self) -> Vec<Value> {
        self.variables.into_inner()
    }

    /// The statement's transaction, begun on first use. Operators that
    /// stream rows out of a table hold it while they do, so the planner
    /// makes any operator that reads tables while such a stream is open
    /// read into memory first (see `plan::streaming`); meeting a held
    /// transaction here is therefore a planner bug, reported as an error.
    pub fn transaction(&self) -> SqlResult<RefMut<'_, Transaction>> {
        let mut slot = self.transaction.try_borrow_mut().map_err(|_| {
            SqlError::new(
                8630,
                16,
                1,
                "Internal Query Processor Error: the statement's transaction is already in use.",
            )
        })?;
        if slot.is_none() {
            *slot = Some(self.db.engine().begin(IsolationLevel::Snapshot)?);
        }
        Ok(RefMut::map(slot, |tx| tx.as_mut().expect("just begun")))
    }

    /// Commits what the statement did, if it touched a table.
    pub fn commit(&self) -> SqlResult<()> {
        match self.transaction.borrow_mut().take() {
            Some(tx) => tx.commit().map(|_| ()),
            None => Ok(()),
        }
    }

    /// The rows of an uncorrelated subquery, computed on first use.
    pub fn cached_rows(
        &self,
        key: usize,
        compute: impl FnOnce() -> SqlResult<Vec<Vec<Value>>>,
    ) -> SqlResult<Rc<Vec<Vec<Value>>>> {
        if let Some(rows) = self.cached.borrow().get(&key) {
            return Ok(Rc::clone(rows));
        }
        let rows = Rc::new(compute()?);
        self.cached.borrow_mut().insert(key, Rc::clone(&rows));
        Ok(rows)
    }
}
