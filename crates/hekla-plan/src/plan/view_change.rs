//! INSERT, UPDATE and DELETE through a view, by SQL Server's rules for
//! updatable views: the statement changes one table, which the view reads
//! in its FROM clause, directly or through views of its own.
//!
//! - The view columns an INSERT or UPDATE writes must show that table's
//!   columns as they are (Msg 4406 for an expression, a constant or an
//!   aggregate) and all come from one table (4405); a DELETE needs a view
//!   of one table (4405).
//! - A view that groups (aggregates, GROUP BY, HAVING) or is DISTINCT
//!   cannot be changed (4403); a view over a set operator has no column to
//!   write (4406) nor rows to delete (4426 for UNION, 4447 for EXCEPT and
//!   INTERSECT). UNION ALL views, which SQL Server may treat as
//!   partitioned views, are not built yet (10794).
//! - `WITH CHECK OPTION` on the view or a view below it: the rows the
//!   statement inserts or updates must show through the highest such view
//!   (Msg 550), which is read again once the statement's writes are done.
//!   TOP in a view of such a chain is Msg 4427; a view that cannot be
//!   changed takes no CHECK OPTION (4510 at CREATE VIEW).
//!
//! The statement becomes one on the table. UPDATE and DELETE read the view
//! as their FROM item, planned so that its rows carry the changed table's
//! row and row id after the view's own columns ([`Level::expand`]): the
//! view's WHERE, joins and TOP choose the rows, and the statement's SET,
//! WHERE and FROM read the view's columns. INSERT writes the table's
//! columns that the view's columns show; the others take their defaults.

use crate::bind::aggregate::is_grouped;
use crate::bind::expr::{Scope, ScopeColumn};
use crate::bind::variables::Variables;
use crate::catalog::binding::binding_error;
use crate::catalog::sequence::written as written_name;
use crate::catalog::table::TableMeta;
use crate::catalog::view::{parse_definition, ViewMeta};
use crate::error::{not_supported_yet, Refused};
use crate::plan::context::PlanContext;
use crate::plan::from::{self, ItemPath};
use crate::plan::query::{wildcard_columns, BindState, ChangedItem};
use crate::plan::view::{bind_stored, find, within};
use crate::plan::{plan_streaming, Planner, QueryPlan};
use crate::result::ResultColumn;
use crate::session_options::SetOptions;
use hekla_parser::ast::{self, ExprKind, QueryBody, SelectItem, SetOperator, TableRefKind};
use hekla_types::{DataType, SqlError, SqlResult};
use std::rc::Rc;
use std::sync::Arc;

/// What a statement changes through a view.
#[derive(Clone, Copy)]
pub enum Change<'c> {
    /// INSERT with a column list, UPDATE: these columns of the view.
    Columns(&'c [String]),
    /// INSERT without a column list: every column of the view.
    AllColumns,
    /// DELETE: whole rows.
    Rows,
}

/// A view as a statement changes it.
pub struct ViewChange {
    /// The table changed.
    pub table: Arc<TableMeta>,
    /// The view the statement names; below it, the views down to the table.
    pub top: Level,
}

/// One view on the way from the view a statement names to the table it
/// changes.
pub struct Level {
    view: Arc<ViewMeta>,
    /// The view's name as written where it is used, for messages.
    written: String,
    schema: String,
    create: ast::CreateView,
    /// The item of the select's FROM clause that leads to the table.
    target: ItemPath,
    /// That item's view, when it is one.
    below: Option<Box<Level>>,
    pub columns: Vec<ViewColumn>,
}

pub struct ViewColumn {
    pub name: String,
    pub data_type: DataType,
    pub shows: Shows,
}

/// What a view column shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shows {
    /// The changed table's column at this position.
    Column(usize),
    /// A column of another table of the view.
    Other,
    /// An expression, a constant or an aggregate.
    Derived,
}

/// The view `name` names, if it names one, as a statement that changes
/// `change` of it sees it; the errors of a view that cannot be changed so.
pub fn resolve(
    db: &dyn PlanContext,
    name: &ast::ObjectName,
    change: Change,
) -> SqlResult<Option<ViewChange>> {
    let Some((view, schema)) = find(db, name) else {
        return Ok(None);
    };
    let state = Rc::<BindState>::default();
    let (top, table) = Level::resolve(db, &state, view, schema, written_name(name), change)?;
    let change = ViewChange { table, top };
    change.refuse_top_with_check_option()?;
    Ok(Some(change))
}

/// Msg 4510 for CREATE VIEW ... WITH CHECK OPTION of a view that cannot be
/// changed (it groups, is DISTINCT or has a set operator).
pub fn refuse_check_option(query: &ast::Query) -> SqlResult<()> {
    match body_of(query) {
        QueryBody::Select(select) if !groups(select) => Ok(()),
        _ => Err(SqlError::new(
            4510,
            16,
            1,
            "Could not perform CREATE VIEW because WITH CHECK OPTION was specified and the view is not updatable.",
        )),
    }
}

impl ViewChange {
    /// With a CHECK OPTION on the view or one below it: the plan of the
    /// highest such view, its rows ending with the changed table's row id,
    /// which the rows the statement inserts or updates must be among once
    /// its writes are done (Msg 550, `exec::target`).
    pub fn check_plan(&self, db: &dyn PlanContext) -> SqlResult<Option<QueryPlan>> {
        let Some(level) = self.checked_level() else {
            return Ok(None);
        };
        let state = Rc::<BindState>::default();
        let mut plan = level.plan_within(db, &state, self.table.columns.len())?;
        plan_streaming(&mut plan.root, false);
        Ok(Some(plan))
    }

    fn levels(&self) -> impl Iterator<Item = &Level> {
        std::iter::successors(Some(&self.top), |level| level.below.as_deref())
    }

    /// The highest view with CHECK OPTION: what it shows includes what the
    /// views below it do.
    fn checked_level(&self) -> Option<&Level> {
        self.levels().find(|level| level.create.check_option)
    }

    /// Msg 4427: CHECK OPTION cannot hold rows to a TOP.
    fn refuse_top_with_check_option(&self) -> SqlResult<()> {
        if self.checked_level().is_none()
            || !self.levels().any(|level| has_top(&level.create.query))
        {
            return Ok(());
        }
        Err(SqlError::new(
            4427,
            16,
            1,
            format!(
                "Cannot update the view \"{}\" because it or a view it references was created with WITH CHECK OPTION and its definition contains the TOP clause.",
                self.top.written
            ),
        ))
    }
}

impl Level {
    /// The view this level changes through.
    pub fn view(&self) -> &Arc<ViewMeta> {
        &self.view
    }

    /// `view` (known as `written` where it is used, in schema `schema`) as
    /// `change` changes it, and the table changed; bound within `state`.
    fn resolve(
        db: &dyn PlanContext,
        state: &Rc<BindState>,
        view: Arc<ViewMeta>,
        schema: String,
        written: String,
        change: Change,
    ) -> SqlResult<(Level, Arc<TableMeta>)> {
        state.modules.enter(view.object_id, &view.name)?;
        within(state, &view, || {
            let (_, columns) = bind_stored(db, state, &view, true)
                .map_err(|error| binding_error(error, &written))?;
            let create = parse_definition(&view.definition, view.object_id)?;
            let route = Route::of(db, state, &create, &written, change, &columns)?;
            let (below, table) = route.resolve_below(db, state, change)?;
            let columns = columns
                .into_iter()
                .zip(&route.origins)
                .map(|(column, origin)| ViewColumn {
                    shows: origin.shows(below.as_deref(), &table),
                    name: column.name,
                    data_type: column.data_type,
                })
                .collect();
            let level = Level {
                view: Arc::clone(&view),
                written,
                schema,
                create,
                target: route.target,
                below,
                columns,
            };
            Ok((level, table))
        })
    }

    /// The changed table's column that view column `index` shows, for the
    /// statement to write: Msg 4405 for another table's column, 4406 for a
    /// derived one.
    pub fn table_column(&self, index: usize) -> SqlResult<usize> {
        match self.columns.get(index).map(|column| column.shows) {
            Some(Shows::Column(position)) => Ok(position),
            Some(Shows::Other) => Err(multiple_tables(&self.written)),
            _ => Err(derived_field(&self.written)),
        }
    }

    /// The view as the FROM item (known as `shown`) of an UPDATE or DELETE
    /// that changes its table (of `width` columns): its plan and columns.
    /// Its rows end with the changed table's row and row id, whose columns
    /// have no names (see `Planner::changed_row`). Bound within the
    /// statement's `state`.
    pub fn expand(
        &self,
        db: &dyn PlanContext,
        state: &Rc<BindState>,
        width: usize,
        shown: &str,
    ) -> SqlResult<(QueryPlan, Vec<ScopeColumn>)> {
        let plan = self.plan_within(db, state, width)?;
        if plan.columns.len() != self.columns.len() + width + 1 {
            return Err(lost_table());
        }
        let scope = plan
            .columns
            .iter()
            .enumerate()
            .map(|(position, column)| {
                let (table, schema, name) = match self.columns.get(position) {
                    Some(own) => (shown, self.schema.as_str(), own.name.as_str()),
                    None => ("", "", ""),
                };
                ScopeColumn {
                    table: table.to_string(),
                    schema: schema.to_string(),
                    name: name.to_string(),
                    data_type: column.data_type,
                    used: Default::default(),
                }
            })
            .collect();
        Ok((plan, scope))
    }

    /// The view's query planned to carry the changed table's row and row
    /// id, inside the view's binding frame on `state`.
    fn plan_within(
        &self,
        db: &dyn PlanContext,
        state: &Rc<BindState>,
        width: usize,
    ) -> SqlResult<QueryPlan> {
        state.modules.enter(self.view.object_id, &self.view.name)?;
        within(state, &self.view, || {
            let variables = Variables::default();
            let target = ChangedItem {
                item: self.target_item()?,
                width,
                view: self.below.as_deref(),
            };
            Planner::new(db, &variables, SetOptions::default())
                .sharing(state)
                .changing(target)
                .derived(&self.create.query, None)
        })
    }

    /// The FROM item that leads to the changed table.
    fn target_item(&self) -> SqlResult<&ast::TableRef> {
        let QueryBody::Select(select) = body_of(&self.create.query) else {
            return Err(lost_table());
        };
        from::item_at(&select.from, &self.target).ok_or_else(lost_table)
    }

    fn column(&self, name: &str) -> Option<&ViewColumn> {
        self.columns
            .iter()
            .find(|column| column.name.eq_ignore_ascii_case(name))
    }
}

/// Where a change to a view goes in the view's select: found by binding
/// its FROM clause.
struct Route {
    /// The FROM item the change goes to.
    target: ItemPath,
    /// Its name (a table or a view).
    name: ast::ObjectName,
    /// Where each view column comes from.
    origins: Vec<Origin>,
    /// The target's columns that the change writes.
    written: Vec<String>,
}

/// Where a view column's value comes from.
enum Origin {
    /// An expression, a constant or an aggregate.
    Expression,
    /// A column (`name`) of a FROM item: the one changed or another.
    Column { of_target: bool, name: String },
}

impl Route {
    /// The change `change` to the view `create` defines (known as
    /// `written`, with `columns`): where it goes, or why it cannot.
    fn of(
        db: &dyn PlanContext,
        state: &Rc<BindState>,
        create: &ast::CreateView,
        written: &str,
        change: Change,
        columns: &[ResultColumn],
    ) -> SqlResult<Route> {
        let select = changed_select(&create.query, written, change)?;
        let variables = Variables::default();
        let planner = Planner::new(db, &variables, SetOptions::default())
            .sharing(state)
            .with_ctes(&create.query.with);
        let mut binder = crate::plan::value_binder(&planner);
        planner.from_clause(&select.from, &mut binder)?;
        let scope = &binder.scope;
        let sources = column_sources(scope, &select.items)?;
        if sources.len() != columns.len() {
            return Err(lost_table());
        }
        let written_columns = written_columns(change, columns)?;
        let target = match &written_columns {
            Some(indexes) => written_item(indexes, &sources, scope, written)?,
            None => only_item(&select.from, written)?,
        };
        if groups(select) {
            return Err(grouped(written));
        }
        let (path, name) = changed_item(&select.from, &target, &create.query)?;
        let origins = sources
            .iter()
            .map(|source| match source {
                None => Origin::Expression,
                Some(index) => Origin::Column {
                    of_target: scope.columns[*index].table.eq_ignore_ascii_case(&target),
                    name: scope.columns[*index].name.clone(),
                },
            })
            .collect();
        let written = written_columns
            .unwrap_or_default()
            .iter()
            .filter_map(|&index| sources[index].map(|source| scope.columns[source].name.clone()))
            .collect();
        Ok(Route {
            target: path,
            name,
            origins,
            written,
        })
    }

    /// The view below (resolved for the same kind of change) or the table
    /// the target names, and the table changed.
    fn resolve_below(
        &self,
        db: &dyn PlanContext,
        state: &Rc<BindState>,
        change: Change,
    ) -> SqlResult<(Option<Box<Level>>, Arc<TableMeta>)> {
        let Some((view, schema)) = find(db, &self.name) else {
            // The FROM clause bound: a name that is no view and no user
            // table is a system view's.
            let table = crate::catalog::resolve_table(&db.catalog(), &self.name).map_err(|_| {
                not_supported_yet(
                    Refused::Statement,
                    "INSERT, UPDATE or DELETE through a view of a system view",
                )
            })?;
            return Ok((None, table));
        };
        let change = match change {
            Change::Rows => Change::Rows,
            Change::Columns(_) | Change::AllColumns => Change::Columns(&self.written),
        };
        let (level, table) =
            Level::resolve(db, state, view, schema, written_name(&self.name), change)?;
        Ok((Some(Box::new(level)), table))
    }
}

impl Origin {
    /// What the view column shows, the target being `below` (a view) or
    /// else `table`.
    fn shows(&self, below: Option<&Level>, table: &TableMeta) -> Shows {
        match self {
            Origin::Expression => Shows::Derived,
            Origin::Column {
                of_target: false, ..
            } => Shows::Other,
            Origin::Column { name, .. } => match below {
                Some(level) => level.column(name).map_or(Shows::Derived, |c| c.shows),
                None => table
                    .column_index(name)
                    .map_or(Shows::Derived, Shows::Column),
            },
        }
    }
}

/// The body of `query` inside any parentheses.
fn body_of(query: &ast::Query) -> &QueryBody {
    match &query.body {
        QueryBody::Nested(inner) => body_of(inner),
        body => body,
    }
}

/// The select of a view that `change` can change: Msg 4406, 4426 or 4447
/// for a set operator.
fn changed_select<'q>(
    query: &'q ast::Query,
    written: &str,
    change: Change,
) -> SqlResult<&'q ast::Select> {
    let (op, all) = match body_of(query) {
        QueryBody::Select(select) => return Ok(select),
        QueryBody::SetOp { op, all, .. } => (*op, *all),
        QueryBody::Nested(_) => return Err(lost_table()),
    };
    Err(match (op, change) {
        (SetOperator::Union, _) if all => {
            not_supported_yet(Refused::Statement, "INSERT, UPDATE or DELETE through a UNION ALL view")
        }
        (_, Change::Columns(_) | Change::AllColumns) => derived_field(written),
        (SetOperator::Union, Change::Rows) => SqlError::new(
            4426,
            16,
            1,
            format!("View '{written}' is not updatable because the definition contains a UNION operator."),
        ),
        (_, Change::Rows) => SqlError::new(
            4447,
            16,
            1,
            format!("View '{written}' is not updatable because the definition contains a set operator."),
        ),
    })
}

/// Whether a select groups its rows or drops repeated ones.
fn groups(select: &ast::Select) -> bool {
    let outputs: Vec<&ast::Expr> = select
        .items
        .iter()
        .filter_map(|item| match item {
            SelectItem::Expr { expr, .. } => Some(expr),
            _ => None,
        })
        .collect();
    select.distinct || select.having.is_some() || is_grouped(&select.group_by, &outputs)
}

/// Whether a view's query has TOP or OFFSET.
fn has_top(query: &ast::Query) -> bool {
    query.offset.is_some()
        || match &query.body {
            QueryBody::Select(select) => select.top.is_some(),
            QueryBody::Nested(inner) => has_top(inner),
            QueryBody::SetOp { .. } => false,
        }
}

/// For each column of the select list, the position in the FROM clause's
/// row of the column it shows; None for any other expression.
fn column_sources(scope: &Scope, items: &[SelectItem]) -> SqlResult<Vec<Option<usize>>> {
    let mut sources = Vec::new();
    for item in items {
        match item {
            SelectItem::Expr { expr, .. } => match &expr.kind {
                ExprKind::Column(parts) => sources.push(Some(scope.resolve(parts)?)),
                _ => sources.push(None),
            },
            SelectItem::Wildcard { qualifier, .. } => {
                sources.extend(wildcard_columns(&scope.columns, qualifier.as_ref()).map(Some));
            }
            SelectItem::Assign { .. } => sources.push(None),
        }
    }
    Ok(sources)
}

/// The view columns `change` writes, by position (Msg 207 for a name the
/// view does not have); None for a DELETE.
fn written_columns(change: Change, columns: &[ResultColumn]) -> SqlResult<Option<Vec<usize>>> {
    match change {
        Change::Rows => Ok(None),
        Change::AllColumns => Ok(Some((0..columns.len()).collect())),
        Change::Columns(names) => names
            .iter()
            .map(|name| {
                columns
                    .iter()
                    .position(|column| column.name.eq_ignore_ascii_case(name))
                    .ok_or_else(|| {
                        SqlError::new(207, 16, 1, format!("Invalid column name '{name}'."))
                    })
            })
            .collect::<SqlResult<Vec<usize>>>()
            .map(Some),
    }
}

/// The name of the FROM item the written view columns (`indexes`) come
/// from: Msg 4406 if one is derived, 4405 if they come from several.
fn written_item(
    indexes: &[usize],
    sources: &[Option<usize>],
    scope: &Scope,
    written: &str,
) -> SqlResult<String> {
    let items = indexes
        .iter()
        .map(|&index| sources[index].map(|source| scope.columns[source].table.as_str()))
        .collect::<Option<Vec<&str>>>()
        .ok_or_else(|| derived_field(written))?;
    let Some((first, rest)) = items.split_first() else {
        return Err(derived_field(written));
    };
    if rest.iter().any(|item| !item.eq_ignore_ascii_case(first)) {
        return Err(multiple_tables(written));
    }
    Ok(first.to_string())
}

/// The name of the one item of a FROM clause a DELETE goes to: Msg 4405
/// when there are several.
fn only_item(items: &[ast::TableRef], written: &str) -> SqlResult<String> {
    match from::leaf_items(items).as_slice() {
        [(_, item)] => from::exposed_name(item).ok_or_else(lost_table),
        [] => Err(not_supported_yet(
            Refused::Statement,
            "DELETE through a view that reads no table",
        )),
        _ => Err(multiple_tables(written)),
    }
}

/// Where the item known as `exposed` is and the table or view it names
/// (Msg 10794 for a derived table, CTE or function, which hekla cannot
/// change through yet).
fn changed_item(
    items: &[ast::TableRef],
    exposed: &str,
    query: &ast::Query,
) -> SqlResult<(ItemPath, ast::ObjectName)> {
    let (path, item) = from::leaf_items(items)
        .into_iter()
        .find(|(_, item)| {
            from::exposed_name(item).is_some_and(|name| name.eq_ignore_ascii_case(exposed))
        })
        .ok_or_else(lost_table)?;
    let is_cte = |name: &ast::ObjectName| {
        name.parts.len() == 1
            && query
                .with
                .iter()
                .any(|cte| cte.name.value.eq_ignore_ascii_case(&name.name().value))
    };
    match &item.kind {
        TableRefKind::Table { name, .. } if !is_cte(name) => Ok((path, name.clone())),
        _ => Err(not_supported_yet(
            Refused::Statement,
            "INSERT, UPDATE or DELETE through a view of a derived table or common table expression",
        )),
    }
}

/// Msg 4406.
fn derived_field(written: &str) -> SqlError {
    SqlError::new(
        4406,
        16,
        1,
        format!("Update or insert of view or function '{written}' failed because it contains a derived or constant field."),
    )
}

/// Msg 4405.
fn multiple_tables(written: &str) -> SqlError {
    SqlError::new(
        4405,
        16,
        1,
        format!("View or function '{written}' is not updatable because the modification affects multiple base tables."),
    )
}

/// Msg 4403.
fn grouped(written: &str) -> SqlError {
    SqlError::new(
        4403,
        16,
        1,
        format!("Cannot update the view or function '{written}' because it contains aggregates, or a DISTINCT or GROUP BY clause, or PIVOT or UNPIVOT operator."),
    )
}

/// The changed table is not where binding the view found it: a bug,
/// reported as an error rather than a panic.
fn lost_table() -> SqlError {
    SqlError::new(
        8630,
        16,
        1,
        "Internal Query Processor Error: the table a view changes is not where its definition had it.",
    )
}
