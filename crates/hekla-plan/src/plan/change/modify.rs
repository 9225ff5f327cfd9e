//! Planning UPDATE and DELETE (run by `exec::modify`).
//!
//! Without a FROM clause the target's rows come from its index or a scan
//! along the access path its WHERE clause allows; with one, the FROM
//! clause and WHERE are planned like a query's, the target's rows
//! carrying their row ids (`TableRead::row_ids`). The target is the FROM
//! item it names (its alias, or its name when it has none); a target the
//! FROM clause does not name is joined to it, as SQL Server does.
//!
//! A target that names a view changes the one table the view shows
//! (`plan::view_change`): the view is the target's FROM item, its rows
//! carrying the table's row and row id after its own columns, and SET
//! names the view's columns.

use super::target::{from_items, lost_target, Target};
use super::{DeletePlan, Reading, RowSource, TopCount, UpdatePlan, Verb};
use crate::bind::expr::{implicit, Binder, Predicate, Scalar, ScalarKind, Scope};
use crate::error::{not_supported_yet, Refused};
use crate::permission::Permission;
use crate::plan::access::AccessPath;
use crate::plan::view_change::Change;
use crate::plan::{from, plan_streaming, Node, Planner, TableRead};
use hekla_parser::ast::{self, Assignment, DmlTarget};
use hekla_types::{DataType, SqlError, SqlResult};
use std::ops::Range;

impl Planner<'_> {
    /// Plans `delete`.
    pub fn delete(&self, delete: &ast::Delete) -> SqlResult<DeletePlan> {
        self.take_hints(&delete.hints)?;
        let (items, path) = from_items(&delete.target, &delete.from)?;
        let planner = self.with_ctes(&delete.with);
        let target = Target::resolve(&planner, &items, &path, Change::Rows)?;
        target.authorize(&planner, Permission::Delete)?;
        if delete.where_clause.is_some() {
            target.authorize(&planner, Permission::Select)?;
        }
        let (rows, output) = {
            let planner = planner.changing(target.planned(&items, &path)?);
            let found = Found::bind(
                &planner,
                &target,
                &delete.target,
                &items,
                delete.from.is_empty(),
                delete.where_clause.as_ref(),
            )?;
            let output = found.output(&planner, &delete.output, Verb::Delete)?;
            let top = top_count(&planner, delete.top.as_ref())?;
            (found.finish(output.is_some(), top)?, output)
        };
        Ok(DeletePlan {
            target: target.into_plan(self)?,
            rows,
            output,
        })
    }

    /// Plans `update`.
    pub fn update(&self, update: &ast::Update) -> SqlResult<UpdatePlan> {
        self.take_hints(&update.hints)?;
        let (items, path) = from_items(&update.target, &update.from)?;
        let planner = self.with_ctes(&update.with);
        let set = assigned_columns(update);
        let target = Target::resolve(&planner, &items, &path, Change::Columns(&set))?;
        target.authorize(&planner, Permission::Update)?;
        if update.where_clause.is_some() || update.assignments.iter().any(reads_target) {
            target.authorize(&planner, Permission::Select)?;
        }
        let (rows, assignments, output) = {
            let planner = planner.changing(target.planned(&items, &path)?);
            let found = Found::bind(
                &planner,
                &target,
                &update.target,
                &items,
                update.from.is_empty(),
                update.where_clause.as_ref(),
            )?;
            let assignments = found.assignments(&planner, &update.assignments)?;
            let output = found.output(&planner, &update.output, Verb::Update)?;
            let top = top_count(&planner, update.top.as_ref())?;
            (found.finish(output.is_some(), top)?, assignments, output)
        };
        Ok(UpdatePlan {
            target: target.into_plan(self)?,
            rows,
            assignments,
            output,
        })
    }
}

/// An UPDATE's or DELETE's TOP, its count bound over the batch's
/// variables. SQL Server has no WITH TIES here: the rows changed are in no
/// order.
fn top_count(planner: &Planner, top: Option<&ast::Top>) -> SqlResult<Option<TopCount>> {
    let Some(top) = top else {
        return Ok(None);
    };
    if top.with_ties {
        return Err(not_supported_yet(
            Refused::Statement,
            "UPDATE or DELETE TOP ... WITH TIES",
        ));
    }
    let count = Binder::new(planner.variables).scalar(&top.count)?;
    let count = match top.percent {
        true => implicit(count, &DataType::Float)?,
        false => count,
    };
    Ok(Some(TopCount {
        count,
        percent: top.percent,
    }))
}

/// The columns an UPDATE's SET names.
fn assigned_columns(update: &ast::Update) -> Vec<String> {
    update
        .assignments
        .iter()
        .filter_map(|assignment| match assignment {
            Assignment::Column { column, .. } => column.last().map(|c| c.value.clone()),
            Assignment::Variable { .. } => None,
        })
        .collect()
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

/// How the rows are found, before the FROM clause's plan is finished.
enum Rows {
    /// The target alone, at the isolation level its table hint asks for.
    Target { hint: Option<ast::IsolationLevel> },
    /// The FROM clause; each row's target row id is at `id_column`.
    Tree {
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
        let mut binder = planner.binder(None);
        let (offset, rows) = match target {
            Target::Table(table) if alone => {
                let hint = match written {
                    DmlTarget::Table { hints, .. } => {
                        crate::plan::table_hints::isolation_hint(hints, table)?
                    }
                    DmlTarget::Variable(_) => None,
                };
                binder.scope.columns =
                    crate::plan::from::table_scope(planner.context, table, &table.name);
                (0, Rows::Target { hint })
            }
            // A view is always read through the FROM clause it makes.
            _ => {
                let tree = planner.from_clause(items, &mut binder)?;
                let changed = planner
                    .changed_row(&binder.scope.columns)
                    .ok_or_else(lost_target)?;
                let id_column = changed.end - 1;
                (changed.start, Rows::Tree { tree, id_column })
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
    fn named_columns(&self) -> Range<usize> {
        match self.target {
            Target::Table(table) => self.offset..self.offset + table.columns.len(),
            Target::View(view) => self.offset - view.top.columns.len()..self.offset,
        }
    }

    /// SET's columns and new values: Msg 8102 for the IDENTITY column, 271
    /// for a computed one, 264 for one set twice.
    fn assignments(
        &self,
        planner: &Planner,
        assignments: &[Assignment],
    ) -> SqlResult<Vec<(usize, Scalar)>> {
        let table = self.target.table();
        let mut changes: Vec<(usize, Scalar)> = Vec::with_capacity(assignments.len());
        for assignment in assignments {
            let Assignment::Column {
                column, op, value, ..
            } = assignment
            else {
                return Err(not_supported_yet(
                    Refused::Statement,
                    "variable assignment in UPDATE",
                ));
            };
            let (position, name) = self.target_column(column)?;
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
            super::insert::computed_written(table, position)?;
            if changes.iter().any(|(c, _)| *c == position) {
                return Err(super::insert::assigned_twice(&name));
            }
            let current = Scalar {
                kind: ScalarKind::Column(self.offset + position),
                data_type: table.columns[position].data_type,
            };
            let stored = planner.stored_type(&current.data_type);
            changes.push((
                position,
                self.binder.assignment(current, *op, value, &stored)?,
            ));
        }
        Ok(changes)
    }

    /// The changed table's column a SET names, and its name as the target
    /// shows it: unqualified, a column of the target (whatever the other
    /// tables have); qualified, by the target's name (Msg 4104 for another
    /// table's).
    fn target_column(&self, parts: &[ast::Ident]) -> SqlResult<(usize, String)> {
        let own = &self.binder.scope.columns[self.named_columns()];
        let index = match parts {
            [column] => own
                .iter()
                .position(|c| c.name.eq_ignore_ascii_case(&column.value))
                .ok_or_else(|| super::insert::invalid_column(&column.value))?,
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

    /// OUTPUT, which reads the target only as `inserted` and `deleted`.
    fn output(
        &self,
        planner: &Planner,
        clauses: &[ast::OutputClause],
        verb: Verb,
    ) -> SqlResult<Option<super::OutputPlan>> {
        if clauses.is_empty() {
            return Ok(None);
        }
        let mut from = self.binder.scope.columns.clone();
        let end = match self.rows {
            Rows::Target { .. } => from.len(),
            // The row id column goes too.
            Rows::Tree { id_column, .. } => id_column + 1,
        };
        for column in &mut from[self.named_columns().start..end] {
            column.name.clear();
            column.table.clear();
        }
        super::output::bind(planner, clauses, verb, self.target, &from)
    }

    /// How the rows are read; `all_columns` reads every column (OUTPUT may
    /// show any); at most `top` of them change.
    fn finish(self, all_columns: bool, top: Option<TopCount>) -> SqlResult<RowSource> {
        let named = self.named_columns();
        let table = self.target.table();
        let (tree, id_column) = match self.rows {
            Rows::Target { hint } => {
                let read = TableRead {
                    table: std::sync::Arc::clone(table),
                    shown: table.name.clone(),
                    path: AccessPath::choose(table, 0, self.filter.as_ref()),
                    filter: self.filter,
                    offset: 0,
                    needed: vec![true; table.columns.len()],
                    stream: false,
                    row_ids: false,
                    hint,
                };
                return Ok(RowSource {
                    reading: Reading::Target(read),
                    offset: self.offset,
                    named,
                    top,
                });
            }
            Rows::Tree { tree, id_column } => (tree, id_column),
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
        for condition in self.filter.map(Predicate::conjuncts).unwrap_or_default() {
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
        Ok(RowSource {
            reading: Reading::Plan { root, id_column },
            offset: self.offset,
            named,
            top,
        })
    }
}
