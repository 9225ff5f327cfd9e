//! What `SET SHOWPLAN_TEXT ON` shows for an INSERT, UPDATE or DELETE,
//! which it does not run. Changes have no plans of their own yet, so the
//! plan is the change operator on the target table (`Table Insert`,
//! `Table Update`, `Table Delete`) over the plan of the rows the statement
//! reads: an INSERT's query or VALUES, the rows an UPDATE or DELETE finds
//! (planned as `SELECT *, new values FROM` its FROM items and target
//! `WHERE` its condition). The target, the columns named and the source
//! are bound as running the statement would bind them, so most statements
//! that would fail to compile fail here too (an INSERT's VALUES are not
//! bound); nothing is read or written and no IDENTITY or sequence value is
//! used.

use super::insert::{insert_target, invalid_column, target_columns};
use super::modify::{assigned_columns, from_items};
use super::target::Target;
use crate::catalog::view::change::Change;
use crate::error::{not_supported_yet, Refused};
use crate::plan::explain::{explain_change, ChangeOperator, ChangeSource};
use crate::plan::Planner;
use hekla_parser::ast::{self, InsertSource, Query, QueryBody, Select, SelectItem};
use hekla_parser::span::Span;
use hekla_types::SqlResult;

/// The SHOWPLAN_TEXT lines of `insert`.
pub fn insert(planner: &Planner, insert: &ast::Insert) -> SqlResult<Vec<String>> {
    planner.take_hints(&insert.hints)?;
    let (_, target) = insert_target(planner, insert)?;
    if let Target::Table(table) = &target {
        target_columns(table, &insert.columns, &planner.options)?;
    }
    let explain = |source| {
        explain_change(
            planner.context,
            ChangeOperator::Insert,
            target.table(),
            source,
            planner.variables,
        )
    };
    Ok(match &insert.source {
        InsertSource::Query(query) => explain(ChangeSource::Plan(&planner.insert_source(query)?)),
        InsertSource::Values(rows) => explain(ChangeSource::Values(rows.len())),
        InsertSource::Exec(_) | InsertSource::ExecString(_) | InsertSource::DefaultValues => {
            explain(ChangeSource::Unshown)
        }
    })
}

/// The SHOWPLAN_TEXT lines of `update`.
pub fn update(planner: &Planner, update: &ast::Update) -> SqlResult<Vec<String>> {
    if update.top.is_some() {
        return Err(not_supported_yet(Refused::Statement, "UPDATE with TOP"));
    }
    planner.take_hints(&update.hints)?;
    let values = update
        .assignments
        .iter()
        .map(|assignment| match assignment {
            ast::Assignment::Column { value, .. } => Ok(value.clone()),
            ast::Assignment::Variable { .. } => Err(not_supported_yet(
                Refused::Statement,
                "variable assignment in UPDATE",
            )),
        })
        .collect::<SqlResult<Vec<_>>>()?;
    let set = assigned_columns(update);
    let found = Found {
        target: &update.target,
        with: &update.with,
        from: &update.from,
        where_clause: update.where_clause.as_ref(),
        values,
    };
    found.explain(planner, ChangeOperator::Update, Change::Columns(&set))
}

/// The SHOWPLAN_TEXT lines of `delete`.
pub fn delete(planner: &Planner, delete: &ast::Delete) -> SqlResult<Vec<String>> {
    if delete.top.is_some() {
        return Err(not_supported_yet(Refused::Statement, "DELETE with TOP"));
    }
    planner.take_hints(&delete.hints)?;
    let found = Found {
        target: &delete.target,
        with: &delete.with,
        from: &delete.from,
        where_clause: delete.where_clause.as_ref(),
        values: Vec::new(),
    };
    found.explain(planner, ChangeOperator::Delete, Change::Rows)
}

/// How an UPDATE or DELETE finds its rows, and an UPDATE's new values.
struct Found<'s> {
    target: &'s ast::DmlTarget,
    with: &'s [ast::Cte],
    from: &'s [ast::TableRef],
    where_clause: Option<&'s ast::Expr>,
    values: Vec<ast::Expr>,
}

impl Found<'_> {
    fn explain(
        &self,
        planner: &Planner,
        operator: ChangeOperator,
        change: Change,
    ) -> SqlResult<Vec<String>> {
        let (items, path) = from_items(self.target, self.from)?;
        let target = Target::resolve(&planner.with_ctes(self.with), &items, &path, change)?;
        if let (Target::Table(table), Change::Columns(set)) = (&target, change) {
            let unknown = set.iter().find(|name| {
                !table
                    .columns
                    .iter()
                    .any(|c| c.name.eq_ignore_ascii_case(name))
            });
            if let Some(name) = unknown {
                return Err(invalid_column(name));
            }
        }
        let span = Span::default();
        let star = SelectItem::Wildcard {
            qualifier: None,
            span,
        };
        let new_values = self.values.iter().map(|value| SelectItem::Expr {
            expr: value.clone(),
            alias: None,
            span,
        });
        let rows = ast::SelectStatement {
            query: Box::new(Query {
                with: self.with.to_vec(),
                body: QueryBody::Select(Box::new(Select {
                    distinct: false,
                    top: None,
                    items: std::iter::once(star).chain(new_values).collect(),
                    into: None,
                    from: items,
                    where_clause: self.where_clause.cloned(),
                    group_by: Vec::new(),
                    having: None,
                    span,
                })),
                order_by: Vec::new(),
                offset: None,
                span,
            }),
            hints: Vec::new(),
        };
        let plan = planner.statement(&rows)?;
        Ok(explain_change(
            planner.context,
            operator,
            target.table(),
            ChangeSource::Plan(&plan),
            planner.variables,
        ))
    }
}
