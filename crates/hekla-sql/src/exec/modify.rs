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

use super::access::for_each_row;
use super::constraints::{Statement, StatementChecks};
use super::context::Context;
use super::eval::Inputs;
use super::output::{Output, Verb};
use super::run::run;
use super::{not_yet, table_scope};
use crate::ast::{self, Assignment, DmlTarget, TableRefKind};
use crate::bind::expr::{Binder, Predicate, Scalar, ScalarKind, Scope};
use crate::catalog::table::TableMeta;
use crate::plan::{from, plan_streaming, Node, Planner};
use crate::session::ResultSink;
use hekla_engine::RowId;
use hekla_types::{SqlError, SqlResult, Value};
use std::collections::HashSet;
use std::ops::ControlFlow;
use std::sync::Arc;

pub fn update(
    context: &Context,
    planner: &Planner,
    update: &ast::Update,
    sink: &mut dyn ResultSink,
) -> SqlResult<Option<u64>> {
    if update.top.is_some() || !update.hints.is_empty() {
        return Err(not_yet("UPDATE with TOP or OPTION"));
    }
    let (items, path) = from_items(&update.target, &update.from)?;
    let planner = planner.dml(&update.with, target_of(&items, &path));
    let mut found = Found::bind(
        &planner,
        &update.target,
        &items,
        &path,
        update.from.is_empty(),
        update.where_clause.as_ref(),
    )?;
    let table = Arc::clone(&found.table);
    let mut changes = Vec::with_capacity(update.assignments.len());
    for assignment in &update.assignments {
        let Assignment::Column {
            column, op, value, ..
        } = assignment
        else {
            return Err(not_yet("variable assignment in UPDATE"));
        };
        let position = found.target_column(column)?;
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
            return Err(SqlError::new(
                264,
                16,
                1,
                format!(
                    "The column name '{}' is specified more than once in the SET clause or column list of an INSERT. A column cannot be assigned more than one value in the same clause. Modify the clause to make sure that a column is updated only once. If this statement updates or inserts columns into a view, column aliasing can conceal the duplication in your code.",
                    table.columns[position].name
                ),
            ));
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
    for ((id, row), new) in rows.iter().zip(&new_values) {
        context.transaction()?.update(&table.engine, *id, new)?;
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
            output.row(context, sink, Some(&new_row), Some(old), row)?;
        }
    }
    checks.finish(context)?;
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
    if delete.top.is_some() || !delete.hints.is_empty() {
        return Err(not_yet("DELETE with TOP or OPTION"));
    }
    let (items, path) = from_items(&delete.target, &delete.from)?;
    let planner = planner.dml(&delete.with, target_of(&items, &path));
    let mut found = Found::bind(
        &planner,
        &delete.target,
        &items,
        &path,
        delete.from.is_empty(),
        delete.where_clause.as_ref(),
    )?;
    let table = Arc::clone(&found.table);
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
            output.row(context, sink, None, Some(old), row)?;
        }
    }
    checks.finish(context)?;
    if let Some(output) = &output {
        output.finish(context)?;
    }
    Ok(Some(rows.len() as u64))
}

/// Where the target is in the FROM items: indexes down the tree of joins
/// (first the item, then left 0 / right 1 at each join).
type ItemPath = Vec<usize>;

/// The statement's FROM items, the target appended when they do not name
/// it, and where the target is. Msg 8154 when several items could be it.
fn from_items(
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
        1 => Ok((items, found.remove(0))),
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

/// The item at `path`.
fn target_of<'i>(items: &'i [ast::TableRef], path: &ItemPath) -> &'i ast::TableRef {
    let mut item = &items[path[0]];
    for &side in &path[1..] {
        let TableRefKind::Join { left, right, .. } = &item.kind else {
            unreachable!("paths go down joins");
        };
        item = if side == 0 { left } else { right };
    }
    item
}

/// The bound FROM clause (or target) and WHERE of an UPDATE or DELETE.
struct Found<'p> {
    table: Arc<TableMeta>,
    /// Binds over the FROM clause's row (the target's alone without FROM).
    binder: Binder<'p>,
    filter: Option<Predicate>,
    /// Where the target's columns start in that row.
    offset: usize,
    rows: Rows,
}

/// How the rows are found.
enum Rows {
    /// The target alone: its index or a scan, with the filter.
    Target,
    /// The FROM clause's plan; each row's target row id is at `id_column`.
    Plan {
        tree: Option<from::FromTree>,
        id_column: usize,
    },
}

impl<'p> Found<'p> {
    /// Binds the FROM items (`items`, the target at `path`) and WHERE;
    /// `alone` when the statement has no FROM clause.
    fn bind(
        planner: &'p Planner<'p>,
        target: &DmlTarget,
        items: &[ast::TableRef],
        path: &ItemPath,
        alone: bool,
        where_clause: Option<&ast::Expr>,
    ) -> SqlResult<Self> {
        let item = target_of(items, path);
        let through =
            || not_yet("UPDATE or DELETE of a view, derived table or common table expression");
        let table = match &item.kind {
            TableRefKind::Table { name, .. } => {
                if name.parts.len() == 1 && planner.cte(&name.name().value).is_some() {
                    return Err(through());
                }
                crate::catalog::temp::resolve_table(planner.db, planner.variables, name)?
            }
            TableRefKind::Variable { name, .. } => {
                crate::catalog::temp::resolve_variable(planner.variables, name)?
            }
            _ => return Err(through()),
        };
        let mut binder = Binder {
            planner: Some(planner),
            ..Binder::new(planner.variables)
        };
        let (offset, rows) = if alone {
            if let DmlTarget::Table { hints, .. } = target {
                if !hints.is_empty() {
                    return Err(not_yet("table hints"));
                }
            }
            binder.scope.columns = table_scope(planner.db, &table, &table.name);
            (0, Rows::Target)
        } else {
            let tree = planner.from_clause(items, &mut binder)?;
            // The row id column is the only one without a name.
            let id_column = binder
                .scope
                .columns
                .iter()
                .position(|c| c.name.is_empty())
                .ok_or_else(through)?;
            let offset = id_column - table.columns.len();
            (offset, Rows::Plan { tree, id_column })
        };
        let filter = where_clause.map(|c| binder.predicate(c)).transpose()?;
        Ok(Found {
            table,
            binder,
            filter,
            offset,
            rows,
        })
    }

    /// The target column a SET names: unqualified, a column of the target
    /// (whatever the other tables have); qualified, by the target's name
    /// (Msg 4104 for another table's).
    fn target_column(&self, parts: &[ast::Ident]) -> SqlResult<usize> {
        let width = self.table.columns.len();
        let own = &self.binder.scope.columns[self.offset..self.offset + width];
        if let [column] = parts {
            return self.table.column_index(&column.value).ok_or_else(|| {
                SqlError::new(
                    207,
                    16,
                    1,
                    format!("Invalid column name '{}'.", column.value),
                )
            });
        }
        let scope = Scope {
            columns: own.to_vec(),
        };
        scope.resolve(parts)
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
            Rows::Target => from.len(),
            // The row id column goes too.
            Rows::Plan { id_column, .. } => id_column + 1,
        };
        for column in &mut from[self.offset..end] {
            column.name.clear();
            column.table.clear();
        }
        Output::bind(planner, clauses, verb, &self.table, &from)
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
            Rows::Target => {
                for_each_row(&self.table, self.filter.as_ref(), &inputs, |id, values| {
                    rows.push((id, values));
                    Ok(more_below(rows.len(), limit))
                })?;
                return Ok(rows);
            }
            Rows::Plan { tree, id_column } => (tree.take(), *id_column),
        };
        let width = self.table.columns.len();
        let used: Vec<bool> = self
            .binder
            .scope
            .columns
            .iter()
            .enumerate()
            .map(|(index, column)| {
                all_columns
                    || column.used.get()
                    || (self.offset..self.offset + width).contains(&index)
            })
            .collect();
        let Some(mut tree) = tree else {
            unreachable!("the target is in the FROM clause");
        };
        let mut above = Vec::new();
        for condition in self
            .filter
            .take()
            .map(Predicate::conjuncts)
            .unwrap_or_default()
        {
            above.extend(tree.place(condition));
        }
        let mut root = from::finish(tree, &used);
        if let Some(predicate) = Predicate::all(above) {
            root = Node::Filter {
                input: root.boxed(),
                predicate,
            };
        }
        plan_streaming(&mut root, false);
        let mut seen: HashSet<RowId> = HashSet::new();
        run(&root, &inputs, &mut |row| {
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
