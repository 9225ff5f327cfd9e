//! What an INSERT, UPDATE or DELETE changes: a table, or a table through
//! a view (`catalog::view::change`).

use super::context::Context;
use super::output::{PseudoColumn, Verb};
use crate::ast;
use crate::catalog::table::TableMeta;
use crate::catalog::view::change::{self, Change, ViewChange};
use crate::plan::Planner;
use hekla_engine::RowId;
use hekla_types::{SqlResult, Value};
use std::sync::Arc;

/// What an INSERT, UPDATE or DELETE changes: a table, or a table through
/// a view.
pub enum Target {
    Table(Arc<TableMeta>),
    View(Box<ViewChange>),
}

impl Target {
    /// The view or table `name` names, for a statement that changes
    /// `change` of it.
    pub fn named(planner: &Planner, name: &ast::ObjectName, change: Change) -> SqlResult<Target> {
        if let Some(view) = change::resolve(planner.db, name, change)? {
            return Ok(Target::View(Box::new(view)));
        }
        let table = crate::catalog::temp::resolve_table(planner.db, planner.variables, name)?;
        Ok(Target::Table(table))
    }

    /// The table changed.
    pub fn table(&self) -> &Arc<TableMeta> {
        match self {
            Target::Table(table) => table,
            Target::View(view) => &view.table,
        }
    }

    /// The columns of `inserted` and `deleted` in a statement `verb`.
    pub fn pseudo_columns(&self, verb: Verb) -> Vec<PseudoColumn> {
        match self {
            Target::Table(table) => PseudoColumn::of_table(table),
            Target::View(view) => PseudoColumn::of_view(view, verb),
        }
    }

    /// A changed row (`table_row`) as `inserted` or `deleted` shows it;
    /// `read` is a view's row as the statement read it.
    pub fn shown(&self, table_row: &[Value], read: Option<&[Value]>) -> Vec<Value> {
        match self {
            Target::Table(_) => table_row.to_vec(),
            Target::View(view) => view.shown(table_row, read),
        }
    }

    /// Whether the rows written must pass a view's CHECK OPTION.
    pub fn checks(&self) -> bool {
        matches!(self, Target::View(view) if view.checks())
    }

    /// A view's CHECK OPTION on the rows the statement wrote (`written`).
    pub fn check(&self, context: &Context, written: &[RowId]) -> SqlResult<()> {
        match self {
            Target::Table(_) => Ok(()),
            Target::View(view) => view.check(context, written),
        }
    }
}
