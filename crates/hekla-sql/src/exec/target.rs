//! What an INSERT, UPDATE or DELETE changes: a table, or a table through
//! a view (`catalog::view::change`).

use super::context::Context;
use super::output::{PseudoColumn, Verb};
use crate::catalog::table::TableMeta;
use crate::catalog::view::change::{self, Change, ViewChange};
use crate::plan::Planner;
use crate::security::access::ObjectRef;
use crate::security::permissions::Permission;
use hekla_engine::RowId;
use hekla_parser::ast;
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
        if let Some(view) = change::resolve(planner.context, name, change)? {
            return Ok(Target::View(Box::new(view)));
        }
        let table = crate::catalog::temp::resolve_table(planner.context, planner.variables, name)?;
        Ok(Target::Table(table))
    }

    /// Msg 229 unless the session may use `permission` on what the
    /// statement names: the view, when it changes a table through one
    /// (the tables below it are in the view's ownership chain).
    /// Temporary tables and table variables are the session's own.
    pub fn authorize(&self, planner: &Planner, permission: Permission) -> SqlResult<()> {
        let Some(access) = &planner.access else {
            return Ok(());
        };
        let object = match self {
            Target::Table(table) if table.name.starts_with(['#', '@']) => return Ok(()),
            Target::Table(table) => ObjectRef {
                object_id: table.object_id,
                schema_id: table.schema_id,
                name: &table.name,
            },
            Target::View(change) => {
                let view = change.top.view();
                ObjectRef {
                    object_id: view.object_id,
                    schema_id: view.schema_id,
                    name: &view.name,
                }
            }
        };
        planner.context.require_object(access, permission, object)
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
