//! What CHECK and FOREIGN KEY constraints do to INSERT, UPDATE and DELETE
//! (their binding is `catalog::constraint`), and DROP TABLE's Msg 3726.
//!
//! A DML statement resolves a [`StatementChecks`] for its target table
//! once, reports each row it writes, and calls
//! [`StatementChecks::finish`] before it returns. Any violation is Msg 547
//! and fails the statement, whose transaction then rolls back: nothing it
//! did remains.
//!
//! - CHECK: tested on each inserted row and each updated row whose update
//!   sets a column the condition reads. FALSE fails; UNKNOWN (a NULL
//!   operand) passes, as in SQL Server.
//! - FOREIGN KEY, referencing side: an inserted row, or an updated row
//!   whose update sets a referencing column, must find its key (unless a
//!   part of it is NULL) in the referenced table's PRIMARY KEY or UNIQUE
//!   index: one index lookup per row. A key referencing the table itself
//!   is checked when the statement's writes are done, so that a statement
//!   can insert a parent and its children together, as SQL Server allows.
//! - FOREIGN KEY, referenced side: the keys a DELETE removes, or an
//!   UPDATE changes, are collected and checked when the statement's
//!   writes are done (statement-level, so a row deleted with its children
//!   is no conflict). A key still present afterwards (another row took
//!   it) is fine; otherwise a referencing row must not exist. The
//!   referencing rows are found through an index of the referencing
//!   table whose key is the foreign key's columns (a hash index on exactly
//!   them, or a range index that starts with them) when there is one,
//!   and otherwise by one scan of the referencing table per statement and
//!   foreign key.
//!
//! Isolation: the checks read through the statement's transaction, which
//! runs under SNAPSHOT isolation, and the engine validates nothing the
//! checks read at commit. So two concurrent transactions can together
//! break a foreign key: one inserts a child of a parent row while the
//! other deletes that parent, each seeing its own snapshot, and both
//! commit. SQL Server's memory-optimized tables close that gap by
//! validating, at commit, the parent rows the child inserts read (a
//! SERIALIZABLE-like read check on the referenced key) and the absence of
//! children the delete relied on. hekla does not yet; within one session,
//! or with the statements serialized, the constraints always hold.

use super::context::Context;
use super::eval::Inputs;
use crate::eval::Evaluate;
use hekla_engine::{IndexKind, KeyRange};
use hekla_plan::catalog::constraint::{CheckConstraint, ForeignKey};
use hekla_plan::catalog::table::TableMeta;
use hekla_plan::plan::context::PlanContext;
use hekla_types::{SortOrder, SqlError, SqlResult, Value};
use std::cell::RefCell;
use std::collections::HashSet;
use std::ops::ControlFlow;
use std::sync::Arc;

/// The statement a conflict is reported for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Statement {
    Insert,
    Update,
    Delete,
    /// ALTER TABLE copying rows into a rebuilt table (as INSERT checks).
    AlterTable,
}

impl Statement {
    fn keyword(self) -> &'static str {
        match self {
            Statement::Insert => "INSERT",
            Statement::Update => "UPDATE",
            Statement::Delete => "DELETE",
            Statement::AlterTable => "ALTER TABLE",
        }
    }
}

/// A foreign key of the target table, with the table it references.
struct Parent {
    key: usize,
    table: Arc<TableMeta>,
    /// `schema.table` of the referenced table, for messages.
    shown: String,
}

/// A foreign key (of the target table or another) that references the
/// target table.
struct Child {
    table: Arc<TableMeta>,
    key: usize,
    shown: String,
}

impl Child {
    fn key(&self) -> &ForeignKey {
        &self.table.foreign_keys[self.key]
    }
}

/// One DML statement's constraint work on its target table.
pub struct StatementChecks {
    statement: Statement,
    table: Arc<TableMeta>,
    /// `schema.table` of the target table.
    shown: String,
    parents: Vec<Parent>,
    children: Vec<Child>,
    /// Self-referencing keys to look up at the end: (parent, key values
    /// in foreign key column order).
    deferred: RefCell<Vec<(usize, Vec<Value>)>>,
    /// Per child: referenced keys the statement removed or changed.
    removed: RefCell<Vec<Vec<Vec<Value>>>>,
}

impl StatementChecks {
    /// Resolves what `statement` on `table` must check.
    pub fn new(
        db: &dyn PlanContext,
        table: &Arc<TableMeta>,
        statement: Statement,
    ) -> StatementChecks {
        let catalog = db.catalog();
        // Every INSERT, UPDATE and DELETE names its table here: joined, not
        // formatted, which costs several times as much.
        let shown = |t: &TableMeta| {
            [
                catalog.schema_name(t.schema_id).unwrap_or("dbo"),
                t.name.as_str(),
            ]
            .join(".")
        };
        let parents = if statement == Statement::Delete {
            Vec::new()
        } else {
            table
                .foreign_keys
                .iter()
                .enumerate()
                .filter_map(|(key, fk)| {
                    let parent = if fk.referenced_table == table.object_id {
                        Arc::clone(table)
                    } else {
                        Arc::clone(catalog.table_by_id(fk.referenced_table)?)
                    };
                    let shown = shown(&parent);
                    Some(Parent {
                        key,
                        table: parent,
                        shown,
                    })
                })
                .collect()
        };
        let children: Vec<Child> = if matches!(statement, Statement::Insert | Statement::AlterTable)
        {
            Vec::new()
        } else {
            catalog
                .referencing_keys(table.object_id)
                .into_iter()
                .map(|(child, key)| {
                    // The target table itself: use the Arc the statement
                    // writes through, whose indexes are the same.
                    let child = if child.object_id == table.object_id {
                        Arc::clone(table)
                    } else {
                        child
                    };
                    let shown = shown(&child);
                    Child {
                        table: child,
                        key,
                        shown,
                    }
                })
                .collect()
        };
        let removed = RefCell::new(vec![Vec::new(); children.len()]);
        StatementChecks {
            statement,
            shown: shown(table),
            table: Arc::clone(table),
            parents,
            children,
            deferred: RefCell::new(Vec::new()),
            removed,
        }
    }

    /// Whether there is nothing to check (no CHECK constraint, no foreign
    /// key either way).
    pub fn is_empty(&self) -> bool {
        self.table.checks.is_empty() && self.parents.is_empty() && self.children.is_empty()
    }

    /// After `row` was inserted.
    pub fn inserted(&self, context: &Context, row: &[Value]) -> SqlResult<()> {
        for check in &self.table.checks {
            self.check(context, check, row)?;
        }
        for (position, parent) in self.parents.iter().enumerate() {
            self.reference(context, position, parent, row)?;
        }
        Ok(())
    }

    /// After `old` became `new`, the update having set `changed` columns.
    pub fn updated(
        &self,
        context: &Context,
        old: &[Value],
        new: &[Value],
        changed: &[usize],
    ) -> SqlResult<()> {
        let touches = |columns: &[usize]| columns.iter().any(|c| changed.contains(c));
        for check in &self.table.checks {
            if touches(&check.reads) {
                self.check(context, check, new)?;
            }
        }
        for (position, parent) in self.parents.iter().enumerate() {
            if touches(&self.table.foreign_keys[parent.key].columns) {
                self.reference(context, position, parent, new)?;
            }
        }
        let mut removed = self.removed.borrow_mut();
        for (child, keys) in self.children.iter().zip(removed.iter_mut()) {
            let fk = child.key();
            if touches(&fk.referenced_columns) {
                if let Some(key) = fk.referenced_key_of(old) {
                    if fk.referenced_key_of(new).as_ref() != Some(&key) {
                        keys.push(key);
                    }
                }
            }
        }
        Ok(())
    }

    /// After `old` was deleted.
    pub fn deleted(&self, old: &[Value]) {
        let mut removed = self.removed.borrow_mut();
        for (child, keys) in self.children.iter().zip(removed.iter_mut()) {
            if let Some(key) = child.key().referenced_key_of(old) {
                keys.push(key);
            }
        }
    }

    /// The checks that wait for the statement's writes to be done.
    pub fn finish(&self, context: &Context) -> SqlResult<()> {
        for (position, key) in self.deferred.borrow().iter() {
            let parent = &self.parents[*position];
            if !self.parent_exists(context, parent, key)? {
                return Err(self.missing_parent(parent));
            }
        }
        let removed = self.removed.borrow();
        for (child, keys) in self.children.iter().zip(removed.iter()) {
            if !keys.is_empty() {
                self.check_children(context, child, keys)?;
            }
        }
        Ok(())
    }

    fn check(&self, context: &Context, check: &CheckConstraint, row: &[Value]) -> SqlResult<()> {
        let inputs = Inputs::top(context).with_row(row);
        if check.condition.eval(&inputs)? == Some(false) {
            let column = check
                .message_column()
                .map(|c| self.table.columns[c].name.as_str());
            return Err(conflict(
                self.statement,
                "CHECK",
                &check.name,
                &self.shown,
                column,
            ));
        }
        Ok(())
    }

    /// `row` of the target table must find its key in `parent`.
    fn reference(
        &self,
        context: &Context,
        position: usize,
        parent: &Parent,
        row: &[Value],
    ) -> SqlResult<()> {
        let fk = &self.table.foreign_keys[parent.key];
        let Some(key) = fk.key_of(row) else {
            return Ok(());
        };
        if fk.referenced_table == self.table.object_id {
            self.deferred.borrow_mut().push((position, key));
            return Ok(());
        }
        if self.parent_exists(context, parent, &key)? {
            Ok(())
        } else {
            Err(self.missing_parent(parent))
        }
    }

    fn parent_exists(&self, context: &Context, parent: &Parent, key: &[Value]) -> SqlResult<bool> {
        let fk = &self.table.foreign_keys[parent.key];
        let index_key = fk.index_key(key);
        // A value that cannot be a key of the index (too long for its
        // column, say) matches no row.
        if !fits(&parent.table, fk.referenced_index, &index_key) {
            return Ok(false);
        }
        let mut tx = context.transaction()?;
        Ok(tx
            .get(&parent.table.engine, fk.referenced_index, &index_key)?
            .is_some())
    }

    fn missing_parent(&self, parent: &Parent) -> SqlError {
        let fk = &self.table.foreign_keys[parent.key];
        let kind = if fk.referenced_table == self.table.object_id {
            "FOREIGN KEY SAME TABLE"
        } else {
            "FOREIGN KEY"
        };
        let column = match fk.referenced_columns.as_slice() {
            [only] => Some(parent.table.columns[*only].name.as_str()),
            _ => None,
        };
        conflict(self.statement, kind, &fk.name, &parent.shown, column)
    }

    /// None of `keys` (referenced keys the statement removed) may still be
    /// referenced by a row of `child`, unless the key is back in the
    /// target table.
    fn check_children(
        &self,
        context: &Context,
        child: &Child,
        keys: &[Vec<Value>],
    ) -> SqlResult<()> {
        let fk = child.key();
        let mut gone = Vec::new();
        let mut seen = HashSet::new();
        for key in keys {
            let encoded = encode(&self.table, &fk.referenced_columns, key);
            if !seen.insert(encoded) {
                continue;
            }
            let index_key = fk.index_key(key);
            let present = {
                let mut tx = context.transaction()?;
                tx.get(&self.table.engine, fk.referenced_index, &index_key)?
                    .is_some()
            };
            if !present {
                gone.push(key.clone());
            }
        }
        if gone.is_empty() {
            return Ok(());
        }
        let referenced = match find_index(&child.table, &fk.columns) {
            Some((index, order, hash)) => {
                let mut found = false;
                for key in &gone {
                    let values: Vec<Value> = order.iter().map(|&p| key[p].clone()).collect();
                    if !fits(&child.table, index, &values) {
                        continue;
                    }
                    let mut tx = context.transaction()?;
                    let hit = if hash {
                        tx.lookup(&child.table.engine, index, &values, |_| {
                            ControlFlow::Break(())
                        })?
                    } else {
                        tx.scan_range(
                            &child.table.engine,
                            index,
                            &KeyRange::prefix(values),
                            |_| ControlFlow::Break(()),
                        )?
                    };
                    if hit.is_some() {
                        found = true;
                        break;
                    }
                }
                found
            }
            None => {
                // No index leads with the foreign key's columns: one scan
                // of the referencing table, matching each row's key (by
                // its collation-aware encoding) against the removed ones.
                let wanted: HashSet<Vec<u8>> = gone
                    .iter()
                    .map(|key| encode(&self.table, &fk.referenced_columns, key))
                    .collect();
                let mut tx = context.transaction()?;
                let hit = tx.scan(&child.table.engine, |row| {
                    let values: Vec<Value> = fk.columns.iter().map(|&c| row.value(c)).collect();
                    if values.iter().any(Value::is_null) {
                        return ControlFlow::Continue(());
                    }
                    if wanted.contains(&encode(&child.table, &fk.columns, &values)) {
                        ControlFlow::Break(())
                    } else {
                        ControlFlow::Continue(())
                    }
                })?;
                hit.is_some()
            }
        };
        if !referenced {
            return Ok(());
        }
        let kind = if child.table.object_id == self.table.object_id {
            "SAME TABLE REFERENCE"
        } else {
            "REFERENCE"
        };
        let column = match fk.columns.as_slice() {
            [only] => Some(child.table.columns[*only].name.as_str()),
            _ => None,
        };
        Err(conflict(
            self.statement,
            kind,
            &fk.name,
            &child.shown,
            column,
        ))
    }
}

/// An index of `table` whose key is `columns`: a hash index on exactly
/// them, or a range index whose leading key columns are them. Returns the
/// index, for each of its (leading) key columns the position in
/// `columns`, and whether it is a hash index.
fn find_index(table: &TableMeta, columns: &[usize]) -> Option<(usize, Vec<usize>, bool)> {
    table
        .indexes
        .iter()
        .enumerate()
        .find_map(|(ordinal, index)| {
            let hash = matches!(index.kind, IndexKind::Hash { .. });
            let leading = if hash {
                if index.columns.len() != columns.len() {
                    return None;
                }
                &index.columns[..]
            } else {
                index.columns.get(..columns.len())?
            };
            let order: Option<Vec<usize>> = leading
                .iter()
                .map(|&(column, _)| columns.iter().position(|&c| c == column))
                .collect();
            let order = order?;
            let mut distinct = order.clone();
            distinct.sort_unstable();
            distinct.dedup();
            (distinct.len() == columns.len()).then_some((ordinal, order, hash))
        })
}

/// Whether `values` can be a key of index `index` of `table` (each value
/// encodes as its column's type).
fn fits(table: &TableMeta, index: usize, values: &[Value]) -> bool {
    let mut scratch = Vec::new();
    table.indexes[index]
        .columns
        .iter()
        .zip(values)
        .all(|(&(column, _), value)| {
            scratch.clear();
            table.columns[column]
                .data_type
                .encode(value, &mut scratch)
                .is_ok()
        })
}

/// The collation-aware key encoding of `values` as `columns` of `table`
/// hold them: equal encodings are equal keys.
fn encode(table: &TableMeta, columns: &[usize], values: &[Value]) -> Vec<u8> {
    let types: Vec<_> = columns
        .iter()
        .map(|&c| (table.columns[c].data_type, SortOrder::Ascending))
        .collect();
    let mut out = Vec::new();
    if hekla_types::encode_key(&types, values, &mut out).is_err() {
        // Not a value of the column: it cannot equal any stored key.
        out.clear();
        out.push(0xFF);
        out.extend(format!("{values:?}").bytes());
    }
    out
}

/// Msg 547.
fn conflict(
    statement: Statement,
    kind: &str,
    constraint: &str,
    table: &str,
    column: Option<&str>,
) -> SqlError {
    let column = column.map_or(String::new(), |c| format!(", column '{c}'"));
    SqlError::new(
        547,
        16,
        0,
        format!(
            "The {} statement conflicted with the {kind} constraint \"{constraint}\". The conflict occurred in database \"{}\", table \"{table}\"{column}.",
            statement.keyword(),
            hekla_plan::names::DATABASE_NAME
        ),
    )
}

/// DROP TABLE of `table`: Msg 3726 while another table's foreign key
/// references it (its own do not count). `name` is the name as written.
/// When the drop may go ahead, the table's IDENTITY counter stops
/// recording.
pub fn prepare_drop(
    catalog: &hekla_plan::catalog::Catalog,
    table: &TableMeta,
    name: &hekla_parser::ast::ObjectName,
) -> SqlResult<()> {
    let referenced = catalog
        .referencing_keys(table.object_id)
        .iter()
        .any(|(child, _)| child.object_id != table.object_id);
    if referenced {
        return Err(SqlError::new(
            3726,
            16,
            1,
            format!(
                "Could not drop object '{}' because it is referenced by a FOREIGN KEY constraint.",
                hekla_plan::catalog::sequence::written(name)
            ),
        ));
    }
    if let Some(identity) = &table.identity {
        identity.counter.retire();
    }
    Ok(())
}
