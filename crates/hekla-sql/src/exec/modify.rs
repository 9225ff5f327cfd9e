//! UPDATE and DELETE, in one engine transaction so the statement is all or
//! nothing. Write-write conflicts surface as the engine's 41302. CHECK
//! and FOREIGN KEY constraints are checked as rows change and when the
//! statement's writes are done (see `constraints`); an IDENTITY column
//! cannot be set (Msg 8102).
//!
//! The rows to change are read first, then their new values computed,
//! then they are changed (so an UPDATE never meets a row it moved, and a
//! subquery in SET sees the table as the statement found it). Without a
//! FROM clause the target's rows come from its index or a scan; with one,
//! the FROM clause and WHERE are planned like a query's, the target's rows
//! carrying their row ids (`TableRead::row_ids`). The target is the FROM
//! item it names (its alias, or its name when it has none); a target the
//! FROM clause does not name is joined to it, as SQL Server does. A target
//! row that joins several rows of the other tables changes once: UPDATE
//! takes the values of the first match (SQL Server leaves which one
//! undefined).
//!
//! A target that names a view changes the one table the view shows
//! (`catalog::view::change`): the view is the target's FROM item, its rows
//! carrying the table's row and row id after its own columns, and SET
//! names the view's columns.

use super::access::for_each_row;
use super::constraints::{Statement, StatementChecks};
use super::context::Context;
use super::eval::Inputs;
use super::output::{Output, Verb};
use super::run::run;
use super::table_scope;
use super::target::Target;
use crate::bind::expr::{Binder, Predicate, Scalar, ScalarKind, Scope};
use crate::catalog::view::change::Change;
use crate::error::{not_supported_yet, Refused};
use crate::plan::from::{item_at, ItemPath};
use crate::plan::query::ChangedItem;
use crate::plan::{from, plan_streaming, Node, Planner};
use crate::result::ResultSink;
use crate::security::permissions::Permission;
use hekla_engine::RowId;
use hekla_parser::ast::{self, Assignment, DmlTarget, TableRefKind};
use hekla_types::{SqlError, SqlResult, Value};
use std::collections::HashSet;
use std::ops::{ControlFlow, Range};
use std::sync::Arc;

pub fn update(
    context: &Context,
    planner: &Planner,
    update: &ast::Update,
    sink: &mut dyn ResultSink,
) -> SqlResult<Option<u64>> {
    if update.top.is_some() {
        return Err(not_supported_yet(Refused::Statement, "UPDATE with TOP"));
    }
    planner.take_hints(&update.hints)?;
    let (items, path) = from_items(&update.target, &update.from)?;
    let planner = planner.with_ctes(&update.with);
    let set = assigned_columns(update);
    let target = Target::resolve(&planner, &items, &path, Change::Columns(&set))?;
    target.authorize(&planner, Permission::Update)?;
    if update.where_clause.is_some() || update.assignments.iter().any(reads_target) {
        target.authorize(&planner, Permission::Select)?;
    }
    let planner = planner.changing(target.planned(&items, &path)?);
    let mut found = Found::bind(
        &planner,
        &target,
        &update.target,
        &items,
        update.from.is_empty(),
        update.where_clause.as_ref(),
    )?;
    let table = Arc::clone(target.table());
    let mut changes = Vec::with_capacity(update.assignments.len());
    for assignment in &update.assignments {
        let Assignment::Column {
            column, op, value, ..
        } = assignment
        else {
            return Err(not_supported_yet(
                Refused::Statement,
                "variable assignment in UPDATE",
            ));
        };
        let (position, name) = found.target_column(column)?;
        if table.identity.as_ref().map(|i| i.column) == Some(position) {
            return Err(SqlError::new(
                8102,
                16,
                1,
                format!(
                    "Cannot update identity column '{}'.",
                    table.columns[position].name
                ),
            ));
        }
        super::insert::computed_written(&table, position)?;
        if changes.iter().any(|(c, _)| *c == position) {
            return Err(super::insert::assigned_twice(&name));
        }
        let current = Scalar {
            kind: ScalarKind::Column(found.offset + position),
            data_type: table.columns[position].data_type,
        };
        let stored = planner.stored_type(&current.data_type);
        changes.push((
            position,
            found.binder.assignment(current, *op, value, &stored)?,
        ));
    }
    let output = found.output(&planner, &update.output, Verb::Update)?;
    if let Some(output) = &output {
        output.start(sink);
    }
    let rows = found.rows(context, output.is_some(), planner.row_limit())?;
    // Every new value before any change.
    let mut new_values = Vec::with_capacity(rows.len());
    let computes = table.columns.iter().any(|c| c.computed.is_some());
    for (_, row) in &rows {
        let inputs = Inputs::top(context).with_row(row);
        let mut values = changes
            .iter()
            .map(|(column, value)| Ok((*column, value.eval(&inputs)?)))
            .collect::<SqlResult<Vec<(usize, Value)>>>()?;
        if computes {
            // Computed columns follow the columns they read.
            let mut new_row = row[found.offset..found.offset + table.columns.len()].to_vec();
            for (column, value) in &values {
                new_row[*column] = value.clone();
            }
            let new_row = super::insert::with_computed(context, &table, new_row)?;
            for (position, column) in table.columns.iter().enumerate() {
                if column.computed.is_some() {
                    values.push((position, new_row[position].clone()));
                }
            }
        }
        new_values.push(values);
    }
    let checks = StatementChecks::new(context.db, &table, Statement::Update);
    let changed: Vec<usize> = changes.iter().map(|(column, _)| *column).collect();
    let old_values = found.offset..found.offset + table.columns.len();
    let mut updated = Vec::new();
    for ((id, row), new) in rows.iter().zip(&new_values) {
        let new_id = context.transaction()?.update(&table.engine, *id, new)?;
        if target.checks() {
            updated.push(new_id);
        }
        if checks.is_empty() && output.is_none() {
            continue;
        }
        let old = &row[old_values.clone()];
        let mut new_row = old.to_vec();
        for (column, value) in new {
            new_row[*column] = value.clone();
        }
        if !checks.is_empty() {
            checks.updated(context, old, &new_row, &changed)?;
        }
        if let Some(output) = &output {
            let inserted = found.shown(&new_row, row);
            let deleted = found.shown(old, row);
            output.row(context, sink, Some(&inserted), Some(&deleted), row)?;
        }
    }
    checks.finish(context)?;
    target.check(context, &updated)?;
    if let Some(output) = &output {
        output.finish(context)?;
    }
    Ok(Some(rows.len() as u64))
}

pub fn delete(
    context: &Context,
    planner: &Planner,
    delete: &ast::Delete,
    sink: &mut dyn ResultSink,
) -> SqlResult<Option<u64>> {
    if delete.top.is_some() {
        return Err(not_supported_yet(Refused::Statement, "DELETE with TOP"));
    }
    planner.take_hints(&delete.hints)?;
    let (items, path) = from_items(&delete.target, &delete.from)?;
    let planner = planner.with_ctes(&delete.with);
    let target = Target::resolve(&planner, &items, &path, Change::Rows)?;
    target.authorize(&planner, Permission::Delete)?;
    if delete.where_clause.is_some() {
        target.authorize(&planner, Permission::Select)?;
    }
    let planner = planner.changing(target.planned(&items, &path)?);
    let mut found = Found::bind(
        &planner,
        &target,
        &delete.target,
        &items,
        delete.from.is_empty(),
        delete.where_clause.as_ref(),
    )?;
    let table = Arc::clone(target.table());
    let output = found.output(&planner, &delete.output, Verb::Delete)?;
    if let Some(output) = &output {
        output.start(sink);
    }
    let rows = found.rows(context, output.is_some(), planner.row_limit())?;
    let checks = StatementChecks::new(context.db, &table, Statement::Delete);
    let old_values = found.offset..found.offset + table.columns.len();
    for (id, row) in &rows {
        context.transaction()?.delete(&table.engine, *id)?;
        let old = &row[old_values.clone()];
        checks.deleted(old);
        if let Some(output) = &output {
            output.row(context, sink, None, Some(&found.shown(old, row)), row)?;
        }
    }
    checks.finish(context)?;
    if let Some(output) = &output {
        output.finish(context)?;
    }
    Ok(Some(rows.len() as u64))
}

/// The columns an UPDATE's SET names.
pub(super) fn assigned_columns(update: &ast::Update) -> Vec<String> {
    update
        .assignments
        .iter()
        .filter_map(|assignment| match assignment {
            Assignment::Column { column, .. } => column.last().map(|c| c.value.clone()),
            Assignment::Variable { .. } => None,
        })
        .collect()
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
        _ => {
            let name = match target {
                DmlTarget::Table { name, .. } => crate::catalog::sequence::written(name),
                DmlTarget::Variable(name) => format!("@{name}"),
            };
            Err(SqlError::new(
                8154,
                16,
                1,
                format!("The table '{name}' is ambiguous."),
            ))
        }
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

/// An UPDATE's or DELETE's target among its FROM items.
impl Target {
    /// The target the FROM item at `path` names, for an UPDATE or DELETE
    /// that changes `change` of it.
    pub(super) fn resolve(
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
            TableRefKind::Variable { name, .. } => Ok(Target::Table(
                crate::catalog::temp::writable_variable(planner.variables, name)?,
            )),
            _ => Err(through()),
        }
    }

    /// The target as the planner marks it, at `path` among `items`.
    fn planned<'t>(
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
}

/// The target's FROM item went missing: a bug, reported as an error.
fn lost_target() -> SqlError {
    SqlError::new(
        8630,
        16,
        1,
        "Internal Query Processor Error: the table to change is not in the FROM clause.",
    )
}

/// The bound FROM clause (or target) and WHERE of an UPDATE or DELETE.
struct Found<'p> {
    target: &'p Target,
    /// Binds over the FROM clause's row (the target's alone without FROM).
    binder: Binder<'p>,
    filter: Option<Predicate>,
    /// Where the changed table's columns start in that row.
    offset: usize,
    rows: Rows,
}

/// How the rows are found.
enum Rows {
    /// The target alone: its index or a scan, with the filter, at the
    /// isolation level its table hint asks for.
    Target { hint: Option<ast::IsolationLevel> },
    /// The FROM clause's plan; each row's target row id is at `id_column`.
    Plan {
        tree: Option<from::FromTree>,
        id_column: usize,
    },
}

impl<'p> Found<'p> {
    /// Binds the FROM items (`items`, the target among them) and WHERE;
    /// `alone` when the statement has no FROM clause. `written` is the
    /// target as the statement names it.
    fn bind(
        planner: &'p Planner<'p>,
        target: &'p Target,
        written: &DmlTarget,
        items: &[ast::TableRef],
        alone: bool,
        where_clause: Option<&ast::Expr>,
    ) -> SqlResult<Self> {
        let mut binder = Binder {
            planner: Some(planner),
            ..Binder::new(planner.variables)
        };
        let (offset, rows) = match target {
            Target::Table(table) if alone => {
                let hint = match written {
                    DmlTarget::Table { hints, .. } => {
                        crate::plan::table_hints::isolation_hint(hints, table)?
                    }
                    DmlTarget::Variable(_) => None,
                };
                binder.scope.columns = table_scope(planner.context, table, &table.name);
                (0, Rows::Target { hint })
            }
            // A view is always read through the FROM clause it makes.
            _ => {
                let tree = planner.from_clause(items, &mut binder)?;
                let changed = planner
                    .changed_row(&binder.scope.columns)
                    .ok_or_else(lost_target)?;
                let id_column = changed.end - 1;
                (changed.start, Rows::Plan { tree, id_column })
            }
        };
        let filter = where_clause.map(|c| binder.predicate(c)).transpose()?;
        Ok(Found {
            target,
            binder,
            filter,
            offset,
            rows,
        })
    }

    /// Where the columns of the target as the statement names it are in
    /// the FROM clause's row: the table's, or the view's (before the
    /// table's row it passes on).
    fn own_columns(&self) -> Range<usize> {
        match self.target {
            Target::Table(table) => self.offset..self.offset + table.columns.len(),
            Target::View(view) => self.offset - view.top.columns.len()..self.offset,
        }
    }

    /// The changed table's column a SET names, and its name as the target
    /// shows it: unqualified, a column of the target (whatever the other
    /// tables have); qualified, by the target's name (Msg 4104 for another
    /// table's).
    fn target_column(&self, parts: &[ast::Ident]) -> SqlResult<(usize, String)> {
        let own = &self.binder.scope.columns[self.own_columns()];
        let index = match parts {
            [column] => own
                .iter()
                .position(|c| c.name.eq_ignore_ascii_case(&column.value))
                .ok_or_else(|| {
                    SqlError::new(
                        207,
                        16,
                        1,
                        format!("Invalid column name '{}'.", column.value),
                    )
                })?,
            _ => Scope {
                columns: own.to_vec(),
            }
            .resolve(parts)?,
        };
        let position = match self.target {
            Target::Table(_) => index,
            Target::View(view) => view.top.table_column(index)?,
        };
        Ok((position, own[index].name.clone()))
    }

    /// A changed row (`table_row`) as `inserted` or `deleted` shows it;
    /// `row` is the FROM clause's.
    fn shown(&self, table_row: &[Value], row: &[Value]) -> Vec<Value> {
        self.target.shown(table_row, row.get(self.own_columns()))
    }

    /// OUTPUT, which reads the target only as `inserted` and `deleted`.
    fn output(
        &self,
        planner: &Planner,
        clauses: &[ast::OutputClause],
        verb: Verb,
    ) -> SqlResult<Option<Output>> {
        if clauses.is_empty() {
            return Ok(None);
        }
        let mut from = self.binder.scope.columns.clone();
        let end = match self.rows {
            Rows::Target { .. } => from.len(),
            // The row id column goes too.
            Rows::Plan { id_column, .. } => id_column + 1,
        };
        for column in &mut from[self.own_columns().start..end] {
            column.name.clear();
            column.table.clear();
        }
        let pseudo = self.target.pseudo_columns(verb);
        Output::bind(planner, clauses, verb, &pseudo, &from)
    }

    /// The target rows to change, each once, with their ids and the FROM
    /// clause's row (the target's own without FROM); `all_columns` reads
    /// every column (OUTPUT may show any); at most `limit` (SET ROWCOUNT).
    fn rows(
        &mut self,
        context: &Context,
        all_columns: bool,
        limit: Option<u64>,
    ) -> SqlResult<Vec<(RowId, Vec<Value>)>> {
        let limit = limit.map_or(usize::MAX, |n| usize::try_from(n).unwrap_or(usize::MAX));
        let mut rows = Vec::new();
        let inputs = Inputs::top(context);
        let (tree, id_column) = match &mut self.rows {
            Rows::Target { hint } => {
                let table = self.target.table();
                for_each_row(table, *hint, self.filter.as_ref(), &inputs, |id, values| {
                    rows.push((id, values));
                    Ok(more_below(rows.len(), limit))
                })?;
                return Ok(rows);
            }
            Rows::Plan { tree, id_column } => (tree.take(), *id_column),
        };
        // The planner marked the changed table's columns used.
        let used: Vec<bool> = self
            .binder
            .scope
            .columns
            .iter()
            .map(|column| all_columns || column.used.get())
            .collect();
        let mut tree = tree.ok_or_else(lost_target)?;
        let mut above = Vec::new();
        for condition in self
            .filter
            .take()
            .map(Predicate::conjuncts)
            .unwrap_or_default()
        {
            above.extend(tree.place(condition));
        }
        let mut root = from::finish(tree, &used)?;
        if let Some(predicate) = Predicate::all(above) {
            root = Node::Filter {
                input: root.boxed(),
                predicate,
            };
        }
        plan_streaming(&mut root, false);
        let mut seen: HashSet<RowId> = HashSet::new();
        run(&root, &inputs, &mut |row| {
            // An outer join's row without a target row changes nothing.
            if row[id_column].is_null() {
                return Ok(ControlFlow::Continue(()));
            }
            let id = row[id_column]
                .as_i64()
                .and_then(|number| context.row_id(number))
                .ok_or_else(|| {
                    SqlError::new(
                        8630,
                        16,
                        1,
                        "Internal Query Processor Error: a row to change has no row id.",
                    )
                })?;
            if seen.insert(id) {
                rows.push((id, row.to_vec()));
            }
            Ok(more_below(rows.len(), limit))
        })
        .map(|_| ())?;
        Ok(rows)
    }
}

/// Whether to read on, with `count` rows of at most `limit` read.
fn more_below(count: usize, limit: usize) -> ControlFlow<()> {
    if count < limit {
        ControlFlow::Continue(())
    } else {
        ControlFlow::Break(())
    }
}

/// Whether an UPDATE's SET item reads column values, which needs SELECT
/// on the table as well as UPDATE (as does a WHERE clause): a compound
/// assignment (`c += 1`), a variable set from the row, or a value naming
/// a column.
fn reads_target(assignment: &ast::Assignment) -> bool {
    fn names_column(expr: &ast::Expr) -> bool {
        matches!(expr.kind, ast::ExprKind::Column(_))
            || crate::bind::aggregate::children(expr)
                .into_iter()
                .any(names_column)
    }
    match assignment {
        ast::Assignment::Column { op, value, .. } => {
            *op != ast::AssignOp::Assign || names_column(value)
        }
        ast::Assignment::Variable { .. } => true,
    }
}
