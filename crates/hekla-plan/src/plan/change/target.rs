//! What an INSERT, UPDATE or DELETE changes, as the planner finds it: a
//! table, or a table through a view (`plan::view_change`); for an
//! UPDATE or DELETE, which of its FROM items that is.

use super::{ChangeTarget, ViewTarget};
use crate::catalog::table::TableMeta;
use crate::error::{not_supported_yet, Refused};
use crate::permission::ObjectRef;
use crate::permission::Permission;
use crate::plan::from::{item_at, ItemPath};
use crate::plan::query::ChangedItem;
use crate::plan::view_change::{self, Change, ViewChange};
use crate::plan::Planner;
use hekla_parser::ast::{self, DmlTarget, TableRefKind};
use hekla_types::{SqlError, SqlResult};
use std::sync::Arc;

/// What a statement changes, while it is planned.
pub enum Target {
    Table(Arc<TableMeta>),
    View(Box<ViewChange>),
}

impl Target {
    /// The view or table `name` names, for a statement that changes
    /// `change` of it.
    pub fn named(planner: &Planner, name: &ast::ObjectName, change: Change) -> SqlResult<Target> {
        if let Some(view) = view_change::resolve(planner.context, name, change)? {
            return Ok(Target::View(Box::new(view)));
        }
        let table = crate::plan::context::resolve_table(planner.context, planner.variables, name)?;
        Ok(Target::Table(table))
    }

    /// The target the FROM item at `path` names, for an UPDATE or DELETE
    /// that changes `change` of it.
    pub fn resolve(
        planner: &Planner,
        items: &[ast::TableRef],
        path: &ItemPath,
        change: Change,
    ) -> SqlResult<Target> {
        let through = || {
            not_supported_yet(
                Refused::Statement,
                "UPDATE or DELETE of a derived table or common table expression",
            )
        };
        match &item_at(items, path).ok_or_else(lost_target)?.kind {
            TableRefKind::Table { name, .. } => {
                if name.parts.len() == 1 && planner.cte(&name.name().value).is_some() {
                    return Err(through());
                }
                Target::named(planner, name, change)
            }
            TableRefKind::Variable { name, .. } => {
                Ok(Target::Table(planner.variables.writable_table(name)?))
            }
            _ => Err(through()),
        }
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

    /// The target as the planner marks it, at `path` among `items`.
    pub(super) fn planned<'t>(
        &'t self,
        items: &[ast::TableRef],
        path: &ItemPath,
    ) -> SqlResult<ChangedItem<'t>> {
        Ok(ChangedItem {
            item: item_at(items, path).ok_or_else(lost_target)?,
            width: self.table().columns.len(),
            view: match self {
                Target::Table(_) => None,
                Target::View(view) => Some(&view.top),
            },
        })
    }

    /// The target as its plan keeps it: a view's CHECK OPTION planned.
    pub(super) fn into_plan(self, planner: &Planner) -> SqlResult<ChangeTarget> {
        match self {
            Target::Table(table) => Ok(ChangeTarget { table, view: None }),
            Target::View(view) => {
                let check = view.check_plan(planner.context)?;
                let shows = view.top.columns.iter().map(|c| c.shows).collect();
                Ok(ChangeTarget {
                    table: Arc::clone(&view.table),
                    view: Some(ViewTarget { shows, check }),
                })
            }
        }
    }
}

/// The statement's FROM items, the target appended when they do not name
/// it (else given the hints written on it: `UPDATE t WITH (SNAPSHOT) ...
/// FROM t JOIN ...`), and where the target is. Msg 8154 when several
/// items could be it.
pub(super) fn from_items(
    target: &DmlTarget,
    from: &[ast::TableRef],
) -> SqlResult<(Vec<ast::TableRef>, ItemPath)> {
    let mut items = from.to_vec();
    let mut found = Vec::new();
    for (index, item) in items.iter().enumerate() {
        find_target(target, item, vec![index], &mut found);
    }
    match found.len() {
        0 => {
            let kind = match target {
                DmlTarget::Table { name, hints } => TableRefKind::Table {
                    name: name.clone(),
                    alias: None,
                    hints: hints.clone(),
                },
                DmlTarget::Variable(name) => TableRefKind::Variable {
                    name: name.clone(),
                    alias: None,
                },
            };
            items.push(ast::TableRef {
                kind,
                span: Default::default(),
            });
            let last = items.len() - 1;
            Ok((items, vec![last]))
        }
        1 => {
            let path = found.remove(0);
            if let DmlTarget::Table { hints, .. } = target {
                add_hints(&mut items, &path, hints);
            }
            Ok((items, path))
        }
        _ => Err(SqlError::new(
            8154,
            16,
            1,
            format!("The table '{}' is ambiguous.", written(target)),
        )),
    }
}

/// The target's name as the statement writes it (`@t` for a table
/// variable), for messages.
pub(super) fn written(target: &DmlTarget) -> String {
    match target {
        DmlTarget::Table { name, .. } => crate::catalog::sequence::written(name),
        DmlTarget::Variable(name) => format!("@{name}"),
    }
}

/// Adds `hints` to those of the table the FROM item at `path` names.
fn add_hints(items: &mut [ast::TableRef], path: &[usize], hints: &[ast::TableHint]) {
    let Some((first, sides)) = path.split_first() else {
        return;
    };
    let Some(mut item) = items.get_mut(*first) else {
        return;
    };
    for &side in sides {
        let TableRefKind::Join { left, right, .. } = &mut item.kind else {
            return;
        };
        item = if side == 0 { left } else { right };
    }
    if let TableRefKind::Table { hints: own, .. } = &mut item.kind {
        own.extend_from_slice(hints);
    }
}

/// Collects the paths of the items of `item`'s join tree that `target`
/// names.
fn find_target(
    target: &DmlTarget,
    item: &ast::TableRef,
    path: ItemPath,
    found: &mut Vec<ItemPath>,
) {
    let same = |a: &str, b: &str| a.eq_ignore_ascii_case(b);
    fn alias_of(alias: &Option<ast::Ident>) -> Option<&str> {
        alias.as_ref().map(|a| a.value.as_str())
    }
    let matches = match (&item.kind, target) {
        (TableRefKind::Join { left, right, .. }, _) => {
            let mut left_path = path.clone();
            left_path.push(0);
            find_target(target, left, left_path, found);
            let mut right_path = path;
            right_path.push(1);
            find_target(target, right, right_path, found);
            return;
        }
        (TableRefKind::Table { name, alias, .. }, DmlTarget::Table { name: written, .. }) => {
            match alias_of(alias) {
                Some(alias) => written.parts.len() == 1 && same(alias, &written.name().value),
                None => {
                    let schema = |n: &ast::ObjectName| {
                        n.schema().map_or("dbo".to_string(), |s| s.value.clone())
                    };
                    same(&name.name().value, &written.name().value)
                        && (written.parts.len() == 1 || same(&schema(name), &schema(written)))
                }
            }
        }
        (TableRefKind::Variable { name, .. }, DmlTarget::Variable(written)) => same(name, written),
        (TableRefKind::Variable { alias, .. }, DmlTarget::Table { name: written, .. }) => {
            written.parts.len() == 1
                && alias_of(alias).is_some_and(|alias| same(alias, &written.name().value))
        }
        (
            TableRefKind::Derived { alias, .. } | TableRefKind::Values { alias, .. },
            DmlTarget::Table { name: written, .. },
        ) => written.parts.len() == 1 && same(&alias.value, &written.name().value),
        _ => false,
    };
    if matches {
        found.push(path);
    }
}

/// The target's FROM item went missing: a bug, reported as an error.
pub(super) fn lost_target() -> SqlError {
    SqlError::new(
        8630,
        16,
        1,
        "Internal Query Processor Error: the table to change is not in the FROM clause.",
    )
}
