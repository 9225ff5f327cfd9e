//! Plans of INSERT, UPDATE and DELETE: what the statement changes, the
//! rows it reads and the values it writes, bound and typed once by the
//! planner so that the executor (`exec::insert`, `exec::modify`) runs
//! them without the statement's text or the planner. A plan holds no
//! names and borrows nothing: tables as `Arc<TableMeta>`, expressions as
//! `Scalar`, queries as `QueryPlan`, columns by position.
//!
//! - [`target`] finds what a statement changes: a table, or a table
//!   through a view (`plan::view_change`);
//! - [`modify`] plans UPDATE and DELETE, [`insert`] plans INSERT;
//! - [`output`] binds OUTPUT clauses.
//!
//! SET ROWCOUNT is read when a plan runs (a procedure may change it
//! between two runs of one plan); SET options that decide how values
//! bind (ANSI_WARNINGS, IDENTITY_INSERT) are settled in the plan.

pub mod insert;
pub mod modify;
pub mod output;
pub mod target;
#[cfg(test)]
mod tests;

use super::{QueryPlan, TableRead};
use crate::bind::expr::Scalar;
use crate::catalog::table::TableMeta;
use crate::plan::view_change::Shows;
use crate::result::ResultColumn;
use hekla_types::Value;
use std::ops::Range;
use std::sync::Arc;

/// A planned DELETE.
#[derive(Debug)]
pub struct DeletePlan {
    pub target: ChangeTarget,
    pub rows: RowSource,
    pub output: Option<OutputPlan>,
}

/// A planned UPDATE.
#[derive(Debug)]
pub struct UpdatePlan {
    pub target: ChangeTarget,
    pub rows: RowSource,
    /// The changed table's columns and their new values, read from the
    /// row `rows` finds; each value converted to its column's type.
    pub assignments: Vec<(usize, Scalar)>,
    pub output: Option<OutputPlan>,
}

/// A planned INSERT.
#[derive(Debug)]
pub struct InsertPlan {
    pub target: ChangeTarget,
    /// The changed table's columns the source's values go to, in order.
    pub columns: Vec<usize>,
    pub source: InsertSource,
    pub output: Option<OutputPlan>,
}

/// The rows an INSERT writes.
#[derive(Debug)]
pub enum InsertSource {
    /// `VALUES`: per row, a value per target column converted to its type,
    /// None for `DEFAULT`.
    Values(Vec<Vec<Option<Scalar>>>),
    /// `INSERT ... SELECT`: the query's rows, each column converted by
    /// its converter (which reads the query's row) to its target column.
    Query {
        plan: Box<QueryPlan>,
        converters: Vec<Scalar>,
    },
    /// `DEFAULT VALUES`: one row of defaults.
    DefaultValues,
}

/// What a statement changes: a table, directly or through a view.
#[derive(Debug)]
pub struct ChangeTarget {
    pub table: Arc<TableMeta>,
    pub view: Option<ViewTarget>,
}

/// A view a statement changes its table through.
#[derive(Debug)]
pub struct ViewTarget {
    /// What each of the view's columns shows.
    pub shows: Vec<Shows>,
    /// With a CHECK OPTION: the rows of the highest view that has one,
    /// each ending with the changed table's row id, read once the
    /// statement's writes are done (Msg 550 for a row written that is not
    /// among them).
    pub check: Option<QueryPlan>,
}

impl ChangeTarget {
    /// Whether the rows written must pass a view's CHECK OPTION.
    pub fn checks(&self) -> bool {
        self.view.as_ref().is_some_and(|view| view.check.is_some())
    }

    /// A changed row (`table_row`) as `inserted` or `deleted` shows it:
    /// the table's row, or the view's, whose columns that do not show the
    /// table's take their values from `read`, the view's row as the
    /// statement read it (none for an INSERT).
    pub fn shown(&self, table_row: &[Value], read: Option<&[Value]>) -> Vec<Value> {
        let Some(view) = &self.view else {
            return table_row.to_vec();
        };
        let value = |values: Option<&[Value]>, position: usize| {
            values
                .and_then(|values| values.get(position))
                .cloned()
                .unwrap_or(Value::Null)
        };
        view.shows
            .iter()
            .enumerate()
            .map(|(position, shows)| match shows {
                Shows::Column(table_column) => value(Some(table_row), *table_column),
                Shows::Other | Shows::Derived => value(read, position),
            })
            .collect()
    }
}

/// How an UPDATE or DELETE finds its rows. Each row found is a row of
/// its FROM clause (the target's own row without one).
#[derive(Debug)]
pub struct RowSource {
    pub reading: Reading,
    /// Where the changed table's columns start in a row found.
    pub offset: usize,
    /// Where the columns of the target as the statement names it (the
    /// table's, or the view's) are in a row found.
    pub named: Range<usize>,
    /// `TOP (n)` or `TOP (p) PERCENT`: how many of the rows found change.
    pub top: Option<TopCount>,
}

/// An UPDATE's or DELETE's `TOP (n)` (any n rows that qualify) or `TOP (p)
/// PERCENT` (p% of them, rounded up): the count is a constant, a variable
/// or an expression of them, evaluated when the plan runs (Msg 1060 for a
/// negative or fractional row count, 1061 for a percentage outside 0 to
/// 100).
#[derive(Debug)]
pub struct TopCount {
    /// The count as written; a float for PERCENT.
    pub count: Scalar,
    pub percent: bool,
}

#[derive(Debug)]
pub enum Reading {
    /// The target alone (no FROM clause): its rows along the read's
    /// access path, read into memory before any changes, filtered by the
    /// read's filter.
    Target(TableRead),
    /// The FROM clause's plan; a row's target row id (as the context
    /// registered it) is at `id_column`, NULL for an outer join's row
    /// without a target row.
    Plan { root: super::Node, id_column: usize },
}

/// Which statement an OUTPUT clause belongs to: which of `inserted` and
/// `deleted` it may read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verb {
    Insert,
    Update,
    Delete,
}

impl Verb {
    pub fn has_inserted(self) -> bool {
        self != Verb::Delete
    }

    pub fn has_deleted(self) -> bool {
        self != Verb::Insert
    }
}

/// A bound OUTPUT clause (one or both of its forms). Its expressions read
/// `inserted`'s columns (unless a DELETE's), then `deleted`'s (unless an
/// INSERT's), then an UPDATE's or DELETE's row found.
#[derive(Debug)]
pub struct OutputPlan {
    pub verb: Verb,
    /// The rows returned to the client: their columns and values.
    pub client: Option<(Vec<ResultColumn>, Vec<Scalar>)>,
    pub into: Option<OutputInto>,
}

/// `OUTPUT ... INTO table`: each value converted to its column's type.
#[derive(Debug)]
pub struct OutputInto {
    pub table: Arc<TableMeta>,
    pub columns: Vec<usize>,
    pub values: Vec<Scalar>,
}

impl InsertPlan {
    /// See [`writes_temporary`].
    pub fn writes_temporary(&self) -> bool {
        writes_temporary(&self.target, self.output.as_ref())
    }
}

impl UpdatePlan {
    /// See [`writes_temporary`].
    pub fn writes_temporary(&self) -> bool {
        writes_temporary(&self.target, self.output.as_ref())
    }
}

impl DeletePlan {
    /// See [`writes_temporary`].
    pub fn writes_temporary(&self) -> bool {
        writes_temporary(&self.target, self.output.as_ref())
    }
}

/// Whether a change writes a temporary table or a table variable (their
/// object ids are negative): such a plan names this call's table, so it
/// is not kept for the next.
fn writes_temporary(target: &ChangeTarget, output: Option<&OutputPlan>) -> bool {
    target.table.object_id < 0
        || output
            .and_then(|output| output.into.as_ref())
            .is_some_and(|into| into.table.object_id < 0)
}
