//! Temporary tables (`#t`, `##t`) and table variables (`@t`): the tables
//! SQL Server keeps in tempdb. Each is an engine table with
//! `DURABILITY = SCHEMA_ONLY` and no stored definition, so its rows are
//! never logged and a restart drops it (`Catalog::load` drops engine
//! tables nothing describes). They are not in the catalog either: a
//! statement finds them through the database's [`TempTables`] (`#t` of its
//! own session, `##t` of any) or its batch's variables (`@t`), and
//! `sys.tables` does not list them (they would be in `tempdb.sys.tables`).
//!
//! - `#t` is visible to the session that made it only, and dropped with
//!   the session (or by DROP TABLE);
//! - `##t` is visible to every session and dropped when the session that
//!   made it ends;
//! - `@t` lives for the batch that declared it.
//!
//! Engine names cannot collide across sessions: `#t` is stored as SQL
//! Server stores it, the name padded with `_` to 116 characters and a
//! 12-digit hexadecimal suffix; a table variable as `#` and 8 hexadecimal
//! digits. Object ids are negative, as SQL Server's temporary objects'
//! are. SQL Server does not undo writes to a table variable when a
//! transaction rolls back; hekla has no explicit transactions yet, so each
//! statement is all or nothing on table variables as on any table.

use super::table::TableMeta;
use hekla_parser::ast::{self, ConstraintKind, TableElement};
use hekla_types::{SqlError, SqlResult};
use std::collections::HashMap;
use std::sync::atomic::{AtomicI32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// SQL Server's limit on a temporary table's name.
pub const MAX_NAME: usize = 116;

/// The database's temporary tables, by session.
pub struct TempTables {
    entries: Mutex<Vec<TempTable>>,
    /// The last object id handed out (they count down from -1).
    last_id: AtomicI32,
    /// Temporary tables made so far (see [`TempTables::mark`]).
    made: AtomicU64,
    /// Emptied tables of ended table variables and dropped temporary
    /// tables, by definition, for the next DECLARE or CREATE of the same:
    /// a batch that declares a table variable (the seeds' `DECLARE @od
    /// ...` per call), or a procedure that makes a `#temp` table, would
    /// otherwise make and drop an engine table each time (a new table's
    /// first row allocates and zeroes a 2 MiB heap chunk).
    spare: Mutex<HashMap<String, Vec<Arc<TableMeta>>>>,
}

/// Most emptied tables kept per table-variable definition.
const SPARE_PER_DEFINITION: usize = 64;

struct TempTable {
    /// The session that made it.
    owner: i16,
    table: Arc<TableMeta>,
    /// When it was made, as a count of the tables made before it.
    made: u64,
}

impl Default for TempTables {
    fn default() -> Self {
        TempTables {
            entries: Mutex::new(Vec::new()),
            last_id: AtomicI32::new(-(1 << 20)),
            made: AtomicU64::new(0),
            spare: Mutex::new(HashMap::new()),
        }
    }
}

impl TempTables {
    /// An emptied table made from `definition` before, if one is spare.
    pub fn take_spare(&self, definition: &str) -> Option<Arc<TableMeta>> {
        self.spare
            .lock()
            .expect("spare tables")
            .get_mut(definition)?
            .pop()
    }

    /// Keeps the emptied `table` for reuse; false if there are enough.
    pub fn keep_spare(&self, table: Arc<TableMeta>) -> bool {
        let mut spare = self.spare.lock().expect("spare tables");
        let kept = spare.entry(table.definition.clone()).or_default();
        if kept.len() >= SPARE_PER_DEFINITION {
            return false;
        }
        kept.push(table);
        true
    }

    /// A new (negative) object id.
    pub fn allocate_id(&self) -> SqlResult<i32> {
        let id = self.last_id.fetch_sub(1, Ordering::Relaxed);
        if id == i32::MIN {
            return Err(SqlError::new(
                1105,
                17,
                1,
                "The database has run out of object ids for temporary objects.",
            ));
        }
        Ok(id - 1)
    }

    /// `#name` of session `spid`, or `##name` of any session.
    pub fn find(&self, spid: i16, name: &str) -> Option<Arc<TableMeta>> {
        let entries = self.entries.lock().expect("temp tables");
        entries
            .iter()
            .find(|entry| visible(entry, spid, name))
            .map(|entry| Arc::clone(&entry.table))
    }

    /// Removes and returns what `spid` sees as `name`.
    pub fn take(&self, spid: i16, name: &str) -> Option<Arc<TableMeta>> {
        let mut entries = self.entries.lock().expect("temp tables");
        let position = entries
            .iter()
            .position(|entry| visible(entry, spid, name))?;
        Some(entries.remove(position).table)
    }

    /// Registers `table`, which session `spid` made as `name`; false (and
    /// nothing registered) when `spid` already sees a table of that name:
    /// another session may have made the same `##table` meanwhile.
    pub fn add(&self, spid: i16, name: &str, table: &Arc<TableMeta>) -> bool {
        let mut entries = self.entries.lock().expect("temp tables");
        if entries.iter().any(|entry| visible(entry, spid, name)) {
            return false;
        }
        entries.push(TempTable {
            owner: spid,
            table: Arc::clone(table),
            made: self.made.fetch_add(1, Ordering::Relaxed),
        });
        true
    }

    /// A mark to tell the temporary tables made from now on
    /// ([`TempTables::take_local_since`]).
    pub fn mark(&self) -> u64 {
        self.made.load(Ordering::Relaxed)
    }

    /// Removes and returns the local (`#`) tables `spid` made since `mark`.
    pub fn take_local_since(&self, spid: i16, mark: u64) -> Vec<Arc<TableMeta>> {
        let mut entries = self.entries.lock().expect("temp tables");
        let (gone, kept) = std::mem::take(&mut *entries)
            .into_iter()
            .partition(|entry| {
                entry.owner == spid && entry.made >= mark && !is_global(&entry.table.name)
            });
        *entries = kept;
        gone.into_iter().map(|entry| entry.table).collect()
    }

    /// Removes and returns every table `spid` made.
    pub fn take_session(&self, spid: i16) -> Vec<Arc<TableMeta>> {
        let mut entries = self.entries.lock().expect("temp tables");
        let (gone, kept) = std::mem::take(&mut *entries)
            .into_iter()
            .partition(|entry| entry.owner == spid);
        *entries = kept;
        gone.into_iter().map(|entry| entry.table).collect()
    }
}

fn visible(entry: &TempTable, spid: i16, name: &str) -> bool {
    entry.table.name.eq_ignore_ascii_case(name) && (is_global(name) || entry.owner == spid)
}

/// `#t` or `##t`, however qualified (`tempdb..#t`, `dbo.#t`).
pub fn is_temp(name: &ast::ObjectName) -> bool {
    name.name().value.starts_with('#')
}

pub fn is_global(name: &str) -> bool {
    name.starts_with("##")
}

/// Removes FOREIGN KEY constraints (SQL Server skips them on temporary
/// tables); their names, None for unnamed ones.
pub fn strip_foreign_keys(elements: &mut Vec<TableElement>) -> Vec<Option<String>> {
    let mut skipped = Vec::new();
    let mut keep = |constraint: &ast::TableConstraint| {
        if matches!(constraint.kind, ConstraintKind::ForeignKey { .. }) {
            skipped.push(constraint.name.as_ref().map(|n| n.value.clone()));
            false
        } else {
            true
        }
    };
    elements.retain_mut(|element| match element {
        TableElement::Column(column) => {
            column.constraints.retain(&mut keep);
            true
        }
        TableElement::Constraint(constraint) => keep(constraint),
        TableElement::Index(_) => true,
    });
    skipped
}
