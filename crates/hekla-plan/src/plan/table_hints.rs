//! Table hints (`FROM t WITH (SNAPSHOT)`, `UPDATE t WITH (SERIALIZABLE)`)
//! as SQL Server takes them: an isolation level hint sets the isolation
//! of that table reference's reads (`exec::isolation` applies it); the
//! locking hints mean nothing to memory-optimized tables, which SQL Server
//! refuses them for (Msg 10794) but for NOLOCK, which it takes and
//! ignores. hekla takes no locks: on other tables TABLOCK is accepted and
//! HOLDLOCK is SERIALIZABLE.
//!
//! A hint on a view reaches the tables the view reads, as SQL Server
//! propagates lock hints into views ([`ViewHints::through_view`]).

use crate::catalog::table::TableMeta;
use crate::error::{not_supported_yet, Refused};
use hekla_parser::ast::{self, IsolationLevel};
use hekla_types::{SqlError, SqlResult};
use std::cell::RefCell;

/// The isolation level `hints` ask for `table`'s reads, if any; SQL
/// Server's error for a hint the table does not take. For a reference in
/// a view's query, [`ViewHints::isolation_hint`] adds the view's hints.
pub fn isolation_hint(
    hints: &[ast::TableHint],
    table: &TableMeta,
) -> SqlResult<Option<IsolationLevel>> {
    level_of(hints, table)
}

/// The isolation level one reference's `hints` ask for; Msg 1047 when
/// they ask for two.
fn level_of(hints: &[ast::TableHint], table: &TableMeta) -> SqlResult<Option<IsolationLevel>> {
    let mut level = None;
    let mut nolock = false;
    for hint in hints {
        let name = hint.name.value.to_ascii_uppercase();
        let asked = match name.as_str() {
            "SNAPSHOT" => IsolationLevel::Snapshot,
            "REPEATABLEREAD" => IsolationLevel::RepeatableRead,
            "SERIALIZABLE" => IsolationLevel::Serializable,
            "HOLDLOCK" if !table.memory_optimized => IsolationLevel::Serializable,
            "TABLOCK" if !table.memory_optimized => continue,
            "NOLOCK" if table.memory_optimized => {
                nolock = true;
                continue;
            }
            _ if table.memory_optimized && is_locking_hint(&name) => {
                return Err(not_with_memory_optimized(&name))
            }
            _ => {
                return Err(not_supported_yet(
                    Refused::Statement,
                    format!("the table hint {name}"),
                ))
            }
        };
        if level.is_some_and(|earlier| earlier != asked) {
            return Err(conflicting_hints());
        }
        level = Some(asked);
    }
    if nolock && level.is_some() {
        return Err(conflicting_hints());
    }
    Ok(level)
}

/// The hints on the references of the views being bound, outermost
/// first: one stack per statement being planned, shared by the planners
/// of the views it expands.
#[derive(Default)]
pub struct ViewHints {
    stack: RefCell<Vec<Vec<ast::TableHint>>>,
}

/// Pops the hints it was made for, even on an early return.
struct Pushed<'a>(&'a ViewHints);

impl Drop for Pushed<'_> {
    fn drop(&mut self) {
        self.0.stack.borrow_mut().pop();
    }
}

impl ViewHints {
    /// Runs `bind` (which binds a view's query) with `hints`, the hints on
    /// the view's reference, applying to every table the view reads.
    pub fn through_view<T>(&self, hints: &[ast::TableHint], bind: impl FnOnce() -> T) -> T {
        self.stack.borrow_mut().push(hints.to_vec());
        let _pushed = Pushed(self);
        bind()
    }

    /// The isolation level `hints` ask for `table`'s reads, if any, else
    /// the level a view around it asks for, the innermost first.
    pub fn isolation_hint(
        &self,
        hints: &[ast::TableHint],
        table: &TableMeta,
    ) -> SqlResult<Option<IsolationLevel>> {
        let own = level_of(hints, table)?;
        let mut from_views = None;
        for view_hints in self.stack.borrow().iter().rev() {
            let level = level_of(view_hints, table)?;
            from_views = from_views.or(level);
        }
        Ok(own.or(from_views))
    }
}

/// The hints SQL Server refuses on memory-optimized tables in interpreted
/// T-SQL (its "Accessing Memory-Optimized Tables Using Interpreted
/// Transact-SQL" list).
fn is_locking_hint(name: &str) -> bool {
    matches!(
        name,
        "HOLDLOCK"
            | "IGNORE_CONSTRAINTS"
            | "IGNORE_TRIGGERS"
            | "NOWAIT"
            | "PAGLOCK"
            | "READCOMMITTED"
            | "READCOMMITTEDLOCK"
            | "READPAST"
            | "READUNCOMMITTED"
            | "ROWLOCK"
            | "SPATIAL_WINDOW_MAX_CELLS"
            | "TABLOCK"
            | "TABLOCKX"
            | "UPDLOCK"
            | "XLOCK"
    )
}

/// Msg 10794 for a table hint on a memory-optimized table.
fn not_with_memory_optimized(hint: &str) -> SqlError {
    SqlError::new(
        10794,
        16,
        1,
        format!(
            "The table option '{}' is not supported with memory optimized tables.",
            hint.to_ascii_lowercase()
        ),
    )
}

/// Msg 1047: two isolation level hints on one table, or one with NOLOCK.
fn conflicting_hints() -> SqlError {
    SqlError::new(1047, 15, 1, "Conflicting locking hints specified.")
}
