//! A session's prepared statements (`sp_prepare`, `sp_prepexec`), kept
//! by integer handle from 1 up, as SQL Server numbers them; the
//! interpreter's `interpret::prepared` runs them.

use crate::plan_cache::ProcedurePlan as CachedPlan;
use std::collections::HashMap;
use std::sync::Arc;

/// A session's prepared statements by handle.
#[derive(Default)]
pub struct PreparedStatements {
    statements: HashMap<i32, Arc<CachedPlan>>,
    last_handle: i32,
}

impl PreparedStatements {
    /// Keeps `statement`; its new handle.
    pub(crate) fn add(&mut self, statement: Arc<CachedPlan>) -> i32 {
        self.last_handle = self.last_handle.wrapping_add(1).max(1);
        self.statements.insert(self.last_handle, statement);
        self.last_handle
    }

    /// The statement of `handle`.
    pub(crate) fn get(&self, handle: i32) -> Option<Arc<CachedPlan>> {
        self.statements.get(&handle).cloned()
    }

    /// Forgets `handle`; false if it names nothing.
    pub(crate) fn remove(&mut self, handle: i32) -> bool {
        self.statements.remove(&handle).is_some()
    }

    /// Forgets every handle (sp_reset_connection).
    pub fn clear(&mut self) {
        self.statements.clear();
    }
}
