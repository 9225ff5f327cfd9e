//! Planning a query: the clauses of a SELECT in SQL's logical order (FROM,
//! WHERE, GROUP BY, HAVING, windows, the select list, DISTINCT, ORDER BY,
//! TOP/OFFSET), set operators over whole queries, and the CTEs a WITH
//! clause names.

use super::context::PlanContext;
use super::from::{self, FromTree};
use super::query_hints::QueryHints;
use super::table_hints::ViewHints;
use super::window::WindowSet;
use super::{order, AggregateMethod, Limit, Node, QueryPlan, SetOperation, SortKey, TopN};
use crate::bind::aggregate::{is_grouped, Grouping};
use crate::bind::expr::{
    assignment_type, implicit, is_untyped_null, Binder, Predicate, Scalar, ScalarKind, Scope,
    ScopeColumn,
};
use crate::bind::variables::Variables;
use crate::catalog::binding::Modules;
use crate::error::{not_supported_yet, Refused};
use crate::plan::view_change::Level;
use crate::result::ResultColumn;
use crate::session_options::SetOptions;
use hekla_parser::ast::{self, QueryBody, SelectItem};
use hekla_types::{ops, DataType, SqlError, SqlResult};
use std::ops::Range;
use std::rc::Rc;

/// Plans the queries of one statement.
#[derive(Clone)]
pub struct Planner<'a> {
    /// What the planner asks of the database it plans for.
    pub context: &'a dyn PlanContext,
    pub variables: &'a Variables,
    /// The common table expressions in scope, innermost last.
    ctes: Vec<&'a ast::Cte>,
    /// The FROM item an UPDATE or DELETE changes (see `Planner::changing`).
    pub(crate) dml_target: Option<ChangedItem<'a>>,
    /// Inside a recursive CTE's recursive member: the CTE's own name
    /// reads the rows of the previous step (see `recursive_cte`).
    working: Option<Working>,
    /// `OPTION (MAXRECURSION n)`: recursion steps a recursive CTE may take
    /// (0: no limit).
    max_recursion: std::cell::Cell<u32>,
    /// The statement's `OPTION (...)` join hints and NO_PERFORMANCE_SPOOL.
    pub(crate) hints: std::cell::Cell<QueryHints>,
    /// The session's SET options as the statement starts.
    pub options: SetOptions,
    /// The permission checks of the statement's session; None for `dbo`
    /// and inside modules (see `hekla_sql::security::access`).
    pub access: Option<crate::permission::Access>,
    /// What binding the statement carries into the views and functions it
    /// expands (whose queries get planners of their own).
    pub state: Rc<BindState>,
}

/// The state of binding one statement that the planners of the views and
/// inline functions it expands share with its own.
#[derive(Default)]
pub struct BindState {
    /// The modules being bound, for self-reference, nesting and schema
    /// binding.
    pub modules: Modules,
    /// The hints on the references of the views being bound.
    pub view_hints: ViewHints,
    /// Set when the plan depends on more than the schema, the SET options
    /// and the variables' layout (a TOP or OFFSET count computed from a
    /// variable, a temporary table): it must not be reused.
    pub not_reusable: std::cell::Cell<bool>,
}

/// The FROM item an UPDATE or DELETE changes. A table's rows then end
/// with their row ids; a view's with the row and row id of the table it
/// changes, after its own columns (see `Planner::changed_row`).
#[derive(Clone, Copy)]
pub(crate) struct ChangedItem<'a> {
    /// Compared by address, so that another reference to the same table
    /// is another instance.
    pub item: *const ast::TableRef,
    /// How many columns the changed table has.
    pub width: usize,
    /// When the item names a view: the view as the statement changes it.
    pub view: Option<&'a Level>,
}

/// A recursive CTE as its recursive member sees itself.
#[derive(Clone)]
struct Working {
    name: String,
    id: usize,
    columns: Vec<ResultColumn>,
}

/// SQL Server's default MAXRECURSION.
const DEFAULT_MAX_RECURSION: u32 = 100;

/// The select list of an assignment SELECT (`SELECT @v = expr`): the
/// variable slot each result column is stored into.
pub type Assignments = Vec<usize>;

impl<'a> Planner<'a> {
    pub fn new(
        context: &'a dyn PlanContext,
        variables: &'a Variables,
        options: SetOptions,
    ) -> Self {
        Planner {
            context,
            variables,
            ctes: Vec::new(),
            dml_target: None,
            working: None,
            max_recursion: std::cell::Cell::new(DEFAULT_MAX_RECURSION),
            hints: std::cell::Cell::new(QueryHints::default()),
            options,
            access: None,
            state: Rc::default(),
        }
    }

    /// The planner binding its queries within `state`: a view's or inline
    /// function's query bound inside the statement that names it.
    pub fn sharing(self, state: &Rc<BindState>) -> Self {
        Planner {
            state: Rc::clone(state),
            ..self
        }
    }

    /// The planner checking what its statement uses with `access`.
    pub fn with_access(self, access: Option<crate::permission::Access>) -> Self {
        Planner { access, ..self }
    }

    /// A planner that also sees the CTEs of `with` (an UPDATE's or
    /// DELETE's own WITH clause).
    pub fn with_ctes<'b>(&self, with: &'b [ast::Cte]) -> Planner<'b>
    where
        'a: 'b,
    {
        let mut ctes: Vec<&'b ast::Cte> = self.ctes.clone();
        ctes.extend(with);
        Planner {
            ctes,
            ..self.clone()
        }
    }

    /// A planner for the FROM clause of an UPDATE or DELETE that changes
    /// `target`.
    pub(crate) fn changing<'b>(&self, target: ChangedItem<'b>) -> Planner<'b>
    where
        'a: 'b,
    {
        Planner {
            dml_target: Some(target),
            ..self.clone()
        }
    }

    /// Where a FROM clause's row (its `scope`) holds the row and row id of
    /// the table an UPDATE or DELETE changes: the row id is the row's last
    /// column without a name, the table's columns are just before it.
    pub(crate) fn changed_row(&self, scope: &[ScopeColumn]) -> Option<Range<usize>> {
        let width = self.dml_target?.width;
        let id = scope.iter().rposition(|column| column.name.is_empty())?;
        Some(id.checked_sub(width)?..id + 1)
    }

    /// Plans a statement's query.
    pub fn statement(&self, statement: &ast::SelectStatement) -> SqlResult<QueryPlan> {
        self.take_hints(&statement.hints)?;
        let (mut plan, _) = self.query(&statement.query, None)?;
        self.limit_rows(&mut plan);
        super::plan_streaming(&mut plan.root, false);
        Ok(plan)
    }

    /// The statement's `OPTION (...)`, for the whole of its planning.
    pub(crate) fn take_hints(&self, hints: &[ast::QueryHint]) -> SqlResult<()> {
        let hints = super::query_hints::read(hints)?;
        if let Some(limit) = hints.max_recursion {
            self.max_recursion.set(limit);
        }
        if hints.recompile {
            self.state.not_reusable.set(true);
        }
        self.hints.set(hints);
        Ok(())
    }

    /// `SET ROWCOUNT n`: the most rows a statement reads, writes or
    /// returns.
    pub fn row_limit(&self) -> Option<u64> {
        Some(self.options.row_count).filter(|&rows| rows > 0)
    }

    /// Stops the statement's query after [`Planner::row_limit`] rows.
    fn limit_rows(&self, plan: &mut QueryPlan) {
        if let Some(rows) = self.row_limit() {
            let root = std::mem::replace(&mut plan.root, Node::Single);
            plan.root = with_top(root, 0, Some(Limit::Rows(rows)), Vec::new());
        }
    }

    /// The type a value converts to before it is stored in a column of
    /// type `column`: with ANSI_WARNINGS ON, [`assignment_type`] (a value
    /// too long is Msg 2628); OFF, the column's own, which cuts it as
    /// SQL Server then does.
    pub fn stored_type(&self, column: &DataType) -> DataType {
        if self.options.ansi_warnings {
            assignment_type(column)
        } else {
            *column
        }
    }

    /// Plans `SELECT @v = expr ...`; the plan's columns are the values to
    /// store, in the slots returned.
    pub fn assignment(
        &self,
        statement: &ast::SelectStatement,
    ) -> SqlResult<(QueryPlan, Assignments)> {
        self.take_hints(&statement.hints)?;
        let (mut plan, assignments) = self.query(&statement.query, None)?;
        self.limit_rows(&mut plan);
        super::plan_streaming(&mut plan.root, false);
        Ok((plan, assignments))
    }

    /// The query of `INSERT ... SELECT`: its rows are written while it
    /// runs, so no table read streams under it.
    pub fn insert_source(&self, query: &ast::Query) -> SqlResult<QueryPlan> {
        let mut plan = self.derived_unchecked(query, None)?;
        self.limit_rows(&mut plan);
        super::plan_streaming(&mut plan.root, true);
        Ok(plan)
    }

    /// A derived table's, CTE's or subquery's query: ORDER BY only with
    /// TOP or OFFSET (Msg 1033).
    pub fn derived(&self, query: &ast::Query, outer: Option<&Binder>) -> SqlResult<QueryPlan> {
        let has_top = matches!(&query.body, QueryBody::Select(s) if s.top.is_some());
        if !query.order_by.is_empty() && !has_top && query.offset.is_none() {
            return Err(SqlError::new(
                1033,
                15,
                1,
                "The ORDER BY clause is invalid in views, inline functions, derived tables, subqueries, and common table expressions, unless TOP, OFFSET or FOR XML is also specified.",
            ));
        }
        self.derived_unchecked(query, outer)
    }

    /// A query that yields rows (no variable assignment, Msg 141).
    fn derived_unchecked(
        &self,
        query: &ast::Query,
        outer: Option<&Binder>,
    ) -> SqlResult<QueryPlan> {
        let (plan, assignments) = self.query(query, outer)?;
        if !assignments.is_empty() {
            return Err(SqlError::new(
                141,
                15,
                1,
                "A SELECT statement that assigns a value to a variable must not be combined with data-retrieval operations.",
            ));
        }
        Ok(plan)
    }

    /// A subquery of the query `outer` binds. It runs while nothing holds
    /// the transaction (see `plan_streaming`), so its own reads may stream.
    pub fn subquery(&self, query: &ast::Query, outer: &Binder) -> SqlResult<QueryPlan> {
        let mut plan = self.derived(query, Some(outer))?;
        super::plan_streaming(&mut plan.root, false);
        Ok(plan)
    }

    /// The CTE called `name`, if one is in scope.
    pub fn cte(&self, name: &str) -> Option<&'a ast::Cte> {
        self.ctes
            .iter()
            .rev()
            .find(|cte| cte.name.value.eq_ignore_ascii_case(name))
            .copied()
    }

    /// A CTE's query, which sees the CTEs defined before it (a CTE that
    /// names itself would be recursive, which hekla does not run yet).
    pub fn cte_plan(&self, cte: &ast::Cte, outer: Option<&Binder>) -> SqlResult<QueryPlan> {
        let position = self
            .ctes
            .iter()
            .position(|c| std::ptr::eq(*c, cte))
            .expect("the CTE is in scope");
        let before = Planner {
            context: self.context,
            variables: self.variables,
            ctes: self.ctes[..position].to_vec(),
            dml_target: self.dml_target,
            working: None,
            max_recursion: self.max_recursion.clone(),
            hints: self.hints.clone(),
            options: self.options.clone(),
            access: self.access.clone(),
            state: Rc::clone(&self.state),
        };
        if names_table(&cte.query.body, &cte.name.value) {
            return before.recursive_cte(cte, outer);
        }
        before.derived(&cte.query, outer)
    }

    /// `WITH r AS (anchor UNION ALL recursive ...)`: the anchor members run
    /// once; each recursive member then runs on the rows the previous step
    /// made, until a step makes none (or MAXRECURSION steps, Msg 530).
    fn recursive_cte(&self, cte: &ast::Cte, outer: Option<&Binder>) -> SqlResult<QueryPlan> {
        let name = &cte.name.value;
        let mut members = Vec::new();
        union_all_members(&cte.query.body, &mut members);
        if members.len() < 2 {
            return Err(SqlError::new(
                252,
                16,
                1,
                format!("Recursive common table expression '{name}' does not contain a top-level UNION ALL operator."),
            ));
        }
        let (recursive, anchors): (Vec<&QueryBody>, Vec<&QueryBody>) =
            members.into_iter().partition(|m| names_table(m, name));
        if anchors.is_empty() {
            return Err(SqlError::new(
                246,
                16,
                1,
                format!("No anchor member was specified for recursive query \"{name}\"."),
            ));
        }
        let anchor = self.union_all(&anchors, outer)?;
        let columns: Vec<ResultColumn> = match cte.columns.as_slice() {
            [] => anchor.columns.clone(),
            names if names.len() == anchor.columns.len() => names
                .iter()
                .zip(&anchor.columns)
                .map(|(n, c)| result_column(n.value.clone(), c.data_type))
                .collect(),
            names => {
                return Err(SqlError::new(
                    8158 + u32::from(names.len() > anchor.columns.len()),
                    16,
                    1,
                    format!(
                        "'{name}' has {} columns than were specified in the column list.",
                        if names.len() > anchor.columns.len() {
                            "fewer"
                        } else {
                            "more"
                        }
                    ),
                ))
            }
        };
        let id = cte as *const ast::Cte as usize;
        let working = Planner {
            working: Some(Working {
                name: name.clone(),
                id,
                columns: columns.clone(),
            }),
            ..self.clone()
        };
        let step = working.union_all(&recursive, outer)?;
        for (position, (anchor_column, step_column)) in
            columns.iter().zip(&step.columns).enumerate()
        {
            if anchor_column.data_type != step_column.data_type {
                let column = &columns[position].name;
                return Err(SqlError::new(
                    240,
                    16,
                    1,
                    format!("Types don't match between the anchor and the recursive part in column \"{column}\" of recursive query \"{name}\"."),
                ));
            }
        }
        if step.columns.len() != columns.len() {
            return Err(SqlError::new(
                205,
                16,
                1,
                "All queries combined using a UNION, INTERSECT or EXCEPT operator must have an equal number of expressions in their target lists.",
            ));
        }
        Ok(QueryPlan {
            columns,
            root: Node::Recursive {
                anchor: anchor.root.boxed(),
                step: step.root.boxed(),
                id,
                max_recursion: self.max_recursion.get(),
            },
        })
    }

    /// The UNION ALL of `members` (at least one).
    fn union_all(&self, members: &[&QueryBody], outer: Option<&Binder>) -> SqlResult<QueryPlan> {
        let mut plans = members
            .iter()
            .map(|member| self.set_body(member, outer))
            .collect::<SqlResult<Vec<_>>>()?;
        let first = plans.remove(0);
        plans.into_iter().try_fold(first, |left, right| {
            set_operation(SetOperation::UnionAll, left, right)
        })
    }

    /// The working table a recursive member's own CTE name reads, if
    /// `name` is that CTE.
    pub fn working_table(&self, name: &str) -> Option<(usize, &[ResultColumn])> {
        self.working
            .as_ref()
            .filter(|w| w.name.eq_ignore_ascii_case(name))
            .map(|w| (w.id, w.columns.as_slice()))
    }

    fn query<'q>(
        &'q self,
        query: &'q ast::Query,
        outer: Option<&Binder>,
    ) -> SqlResult<(QueryPlan, Assignments)> {
        if query.with.is_empty() {
            return self.query_body(query, outer);
        }
        let mut ctes: Vec<&'q ast::Cte> = self.ctes.clone();
        ctes.extend(&query.with);
        let inner = Planner {
            context: self.context,
            variables: self.variables,
            ctes,
            dml_target: self.dml_target,
            working: self.working.clone(),
            max_recursion: self.max_recursion.clone(),
            hints: self.hints.clone(),
            options: self.options.clone(),
            access: self.access.clone(),
            state: Rc::clone(&self.state),
        };
        inner.query_body(query, outer)
    }

    fn query_body(
        &self,
        query: &ast::Query,
        outer: Option<&Binder>,
    ) -> SqlResult<(QueryPlan, Assignments)> {
        match &query.body {
            QueryBody::Select(select) => {
                self.select(select, &query.order_by, query.offset.as_ref(), outer)
            }
            body => {
                let plan = self.set_body(body, outer)?;
                let plan = self.order_result(plan, &query.order_by, query.offset.as_ref())?;
                Ok((plan, Vec::new()))
            }
        }
    }

    /// One side of a set operator (or the whole of one).
    fn set_body(&self, body: &QueryBody, outer: Option<&Binder>) -> SqlResult<QueryPlan> {
        match body {
            QueryBody::Select(select) => Ok(self.select(select, &[], None, outer)?.0),
            QueryBody::Nested(query) => Ok(self.query(query, outer)?.0),
            QueryBody::SetOp {
                op,
                all,
                left,
                right,
            } => {
                let op = match (op, all) {
                    (ast::SetOperator::Union, true) => SetOperation::UnionAll,
                    (ast::SetOperator::Union, false) => SetOperation::Union,
                    (ast::SetOperator::Except, _) => SetOperation::Except,
                    (ast::SetOperator::Intersect, _) => SetOperation::Intersect,
                };
                set_operation(
                    op,
                    self.set_body(left, outer)?,
                    self.set_body(right, outer)?,
                )
            }
        }
    }

    /// ORDER BY and OFFSET over a set operator's result: by position or
    /// result column name only (Msg 104 otherwise).
    fn order_result(
        &self,
        plan: QueryPlan,
        order_by: &[ast::OrderItem],
        offset: Option<&ast::OffsetFetch>,
    ) -> SqlResult<QueryPlan> {
        if order_by.is_empty() && offset.is_none() {
            return Ok(plan);
        }
        let binder = Binder {
            scope: Scope {
                columns: plan
                    .columns
                    .iter()
                    .map(|c| ScopeColumn {
                        table: String::new(),
                        schema: String::new(),
                        name: c.name.clone(),
                        data_type: c.data_type,
                        used: Default::default(),
                    })
                    .collect(),
            },
            ..self.binder(None)
        };
        let projection: Vec<Scalar> = plan
            .columns
            .iter()
            .enumerate()
            .map(|(index, c)| Scalar {
                kind: ScalarKind::Column(index),
                data_type: c.data_type,
            })
            .collect();
        let keys = bind_order(&binder, order_by, &plan.columns, &projection).map_err(|e| {
            if e.number == 207 || e.number == 4104 {
                SqlError::new(
                    104,
                    16,
                    1,
                    "ORDER BY items must appear in the select list if the statement contains a UNION, INTERSECT or EXCEPT operator.",
                )
            } else {
                e
            }
        })?;
        let mut root = Node::Sort {
            input: plan.root.boxed(),
            keys,
            top: None,
        };
        if let Some(offset) = offset {
            let (skip, limit) = offset_fetch(&binder, offset)?;
            root = with_top(root, skip, limit.map(Limit::Rows), Vec::new());
        }
        Ok(QueryPlan {
            columns: plan.columns,
            root,
        })
    }

    /// A binder for this planner's queries.
    pub(crate) fn binder<'b>(&'b self, outer: Option<&'b Binder<'b>>) -> Binder<'b> {
        Binder {
            outer,
            planner: Some(self),
            ..Binder::new(self.variables)
        }
    }

    fn select(
        &self,
        select: &ast::Select,
        order_by: &[ast::OrderItem],
        offset: Option<&ast::OffsetFetch>,
        outer: Option<&Binder>,
    ) -> SqlResult<(QueryPlan, Assignments)> {
        if select.into.is_some() {
            return Err(not_supported_yet(Refused::Statement, "SELECT ... INTO"));
        }
        let mut binder = self.binder(outer);
        let tree = self.from_clause(&select.from, &mut binder)?;
        let mut limit = match &select.top {
            Some(top) => Some(top_count(&binder, top)?),
            None => None,
        };
        let with_ties = select.top.as_ref().is_some_and(|top| top.with_ties);
        if with_ties && order_by.is_empty() {
            return Err(SqlError::new(
                1062,
                16,
                1,
                "The TOP N WITH TIES clause is not allowed without a corresponding ORDER BY clause.",
            ));
        }
        let mut skip = 0;
        if let Some(offset) = offset {
            if select.top.is_some() {
                return Err(SqlError::new(
                    10741,
                    15,
                    1,
                    "A TOP can not be used in the same query or sub-query as a OFFSET.",
                ));
            }
            let (offset_skip, fetch) = offset_fetch(&binder, offset)?;
            skip = offset_skip;
            limit = fetch.map(Limit::Rows);
        }
        let filter = match &select.where_clause {
            Some(condition) => Some(binder.predicate(condition)?),
            None => None,
        };
        let assigning = select
            .items
            .iter()
            .any(|item| matches!(item, SelectItem::Assign { .. }));
        if assigning
            && select
                .items
                .iter()
                .any(|item| !matches!(item, SelectItem::Assign { .. }))
        {
            return Err(SqlError::new(
                141,
                15,
                1,
                "A SELECT statement that assigns a value to a variable must not be combined with data-retrieval operations.",
            ));
        }
        let mut outputs: Vec<&ast::Expr> = select
            .items
            .iter()
            .filter_map(|item| match item {
                SelectItem::Expr { expr, .. } => Some(expr),
                SelectItem::Assign { value, .. } => Some(value),
                SelectItem::Wildcard { .. } => None,
            })
            .collect();
        let window_inputs: Vec<&ast::Expr> = outputs
            .iter()
            .copied()
            .chain(order_by.iter().map(|item| &item.expr))
            .collect();
        outputs.extend(select.having.as_ref());
        outputs.extend(order_by.iter().map(|item| &item.expr));
        // HAVING without GROUP BY makes the whole input one group.
        let grouping = if is_grouped(&select.group_by, &outputs) || select.having.is_some() {
            Some(Grouping::bind(&binder, &select.group_by, &outputs)?)
        } else {
            None
        };
        let grouped = grouping.as_ref().map(|grouping| Binder {
            scope: Scope {
                columns: binder.scope.columns.clone(),
            },
            grouping: Some(grouping),
            ..self.binder(outer)
        });
        let pre_window = grouped.as_ref().unwrap_or(&binder);
        let width = match &grouping {
            Some(grouping) => grouping.width(),
            None => binder.scope.columns.len(),
        };
        let having = match &select.having {
            Some(having) => Some(pre_window.predicate(having)?),
            None => None,
        };
        let windows = WindowSet::bind(pre_window, &window_inputs, width)?;
        // The output binder takes the scope over rather than copying it;
        // without grouping, the columns it reads are marked there.
        let output_columns = match grouped {
            Some(mut grouped) => std::mem::take(&mut grouped.scope.columns),
            None => std::mem::take(&mut binder.scope.columns),
        };
        let output = Binder {
            scope: Scope {
                columns: output_columns,
            },
            grouping: grouping.as_ref(),
            windows: Some(&windows),
            ..self.binder(outer)
        };
        let (mut columns, mut projection, assignments) = project(&output, &select.items)?;
        let keys = bind_order(&output, order_by, &columns, &projection)?;
        if select.distinct && keys.iter().any(|k| !projection.contains(&k.expr)) {
            {
                return Err(SqlError::new(
                    145,
                    15,
                    1,
                    "ORDER BY items must appear in the select list if SELECT DISTINCT is specified.",
                ));
            }
        }
        // Grouped and DISTINCT views cannot be changed (Msg 4403).
        if grouping.is_none() && !select.distinct {
            self.pass_changed_row(&output.scope.columns, &mut columns, &mut projection);
        }
        let from_scope = match grouping {
            Some(_) => &binder.scope.columns,
            None => &output.scope.columns,
        };
        let used: Vec<bool> = from_scope.iter().map(|c| c.used.get()).collect();
        let mut root = from_node(tree, filter, &used)?;
        if let Some(grouping) = grouping {
            root = aggregate(root, grouping);
        }
        if let Some(predicate) = having {
            root = Node::Filter {
                input: root.boxed(),
                predicate,
            };
        }
        if !windows.calls.is_empty() {
            root = Node::Window {
                input: root.boxed(),
                calls: windows.calls.into_iter().map(|(_, call)| call).collect(),
            };
        }
        root = if select.distinct {
            // DISTINCT compares result rows, and ORDER BY may only name
            // result columns (checked above): sort after projecting.
            let types: Vec<DataType> = projection.iter().map(|e| e.data_type).collect();
            let keys: Vec<SortKey> = keys
                .into_iter()
                .map(|key| SortKey {
                    expr: Scalar {
                        kind: ScalarKind::Column(
                            projection.iter().position(|e| *e == key.expr).unwrap_or(0),
                        ),
                        data_type: key.expr.data_type,
                    },
                    descending: key.descending,
                })
                .collect();
            let projected = Node::Project {
                input: root.boxed(),
                exprs: projection,
            };
            let distinct = Node::Distinct {
                input: projected.boxed(),
                types,
            };
            let ties = if with_ties { keys.clone() } else { Vec::new() };
            with_top(sorted(distinct, keys), skip, limit, ties)
        } else {
            // Sort and TOP before projecting, so ORDER BY may name any
            // column and an assignment SELECT assigns in sorted order.
            let ties = if with_ties { keys.clone() } else { Vec::new() };
            Node::Project {
                input: with_top(sorted(root, keys), skip, limit, ties).boxed(),
                exprs: projection,
            }
        };
        Ok((QueryPlan { columns, root }, assignments))
    }

    /// In the query of a view an UPDATE or DELETE changes, the changed
    /// table's row and row id go out after the view's columns, without
    /// names, for the statement to change and to show in OUTPUT.
    fn pass_changed_row(
        &self,
        scope: &[ScopeColumn],
        columns: &mut Vec<ResultColumn>,
        projection: &mut Vec<Scalar>,
    ) {
        let Some(range) = self.changed_row(scope) else {
            return;
        };
        for index in range {
            let data_type = scope[index].data_type;
            columns.push(result_column(String::new(), data_type));
            projection.push(Scalar {
                kind: ScalarKind::Column(index),
                data_type,
            });
        }
    }
}

/// Groups `input`'s rows: as a stream when they come grouped on the keys
/// or can be read so (a range index leading with the key columns), else
/// in a hash table. Only a plain GROUP BY of columns streams.
fn aggregate(mut input: Node, grouping: Grouping) -> Node {
    let columns: Option<Vec<usize>> = grouping
        .keys
        .iter()
        .map(|(_, key)| order::column_of(key))
        .collect();
    let streams = match columns {
        Some(columns) if grouping.sets.is_empty() => {
            order::grouped_on(&input, &columns) || order::read_grouped(&mut input, &columns)
        }
        _ => false,
    };
    Node::Aggregate {
        input: input.boxed(),
        grouping,
        method: if streams {
            AggregateMethod::Stream
        } else {
            AggregateMethod::Hash
        },
    }
}

/// `input` sorted on `keys`, unless its rows already come in that order.
fn sorted(input: Node, keys: Vec<SortKey>) -> Node {
    if keys.is_empty() || order::satisfies(&input, &keys) {
        return input;
    }
    Node::Sort {
        input: input.boxed(),
        keys,
        top: None,
    }
}

/// `input` with OFFSET `skip` rows and TOP or FETCH `limit` (`ties`: WITH
/// TIES). A sort under a row count becomes a Top N Sort of the rows the
/// limit can reach (SQL Server's `Sort(TOP n, ...)`), which alone is the
/// whole TOP when nothing is skipped and nothing ties.
fn with_top(input: Node, skip: u64, limit: Option<Limit>, ties: Vec<SortKey>) -> Node {
    if limit.is_none() && skip == 0 {
        return input;
    }
    let input = match (input, limit) {
        (
            Node::Sort {
                input,
                keys,
                top: None,
            },
            Some(Limit::Rows(rows)),
        ) => {
            let top = TopN {
                rows: skip.saturating_add(rows),
                with_ties: !ties.is_empty(),
            };
            let sort = Node::Sort {
                input,
                keys,
                top: Some(top),
            };
            if skip == 0 && ties.is_empty() {
                return sort;
            }
            sort
        }
        (input, _) => input,
    };
    Node::Top {
        input: input.boxed(),
        skip,
        limit,
        ties,
    }
}

/// The FROM clause's operators with the WHERE clause placed; a single
/// empty row without FROM.
fn from_node(tree: Option<FromTree>, filter: Option<Predicate>, used: &[bool]) -> SqlResult<Node> {
    let conditions = filter.map(Predicate::conjuncts).unwrap_or_default();
    let Some(mut tree) = tree else {
        return Ok(with_filter(Node::Single, conditions));
    };
    let mut above = Vec::new();
    for condition in conditions {
        above.extend(tree.place(condition));
    }
    Ok(with_filter(from::finish(tree, used)?, above))
}

fn with_filter(node: Node, conditions: Vec<Predicate>) -> Node {
    match Predicate::all(conditions) {
        Some(predicate) => Node::Filter {
            input: node.boxed(),
            predicate,
        },
        None => node,
    }
}

/// `left op right`: equal column counts (205), each column of the type
/// both sides convert to (a bare NULL takes the other side's), named as
/// on the left.
fn set_operation(op: SetOperation, left: QueryPlan, right: QueryPlan) -> SqlResult<QueryPlan> {
    if left.columns.len() != right.columns.len() {
        return Err(SqlError::new(
            205,
            16,
            1,
            "All queries combined using a UNION, INTERSECT or EXCEPT operator must have an equal number of expressions in their target lists.",
        ));
    }
    let types = (0..left.columns.len())
        .map(|i| {
            let (l, r) = (&left.columns[i].data_type, &right.columns[i].data_type);
            match (untyped_null(&left.root, i), untyped_null(&right.root, i)) {
                (true, false) => Ok(*r),
                (false, true) => Ok(*l),
                _ => ops::common_type(l, r),
            }
        })
        .collect::<SqlResult<Vec<DataType>>>()?;
    let columns = left
        .columns
        .iter()
        .zip(&types)
        .map(|(column, data_type)| result_column(column.name.clone(), *data_type))
        .collect();
    Ok(QueryPlan {
        columns,
        root: Node::SetOp {
            op,
            left: converted(left, &types)?.boxed(),
            right: converted(right, &types)?.boxed(),
            types,
        },
    })
}

/// True if column `index` of `node`'s rows is a bare NULL literal (seen
/// through the operators that pass their input's columns on unchanged).
pub(crate) fn untyped_null(node: &Node, index: usize) -> bool {
    match node {
        Node::Project { exprs, .. } => exprs.get(index).is_some_and(is_untyped_null),
        Node::SetOp { left, right, .. } => untyped_null(left, index) && untyped_null(right, index),
        Node::Filter { input, .. } | Node::Sort { input, .. } | Node::Top { input, .. } => {
            untyped_null(input, index)
        }
        _ => false,
    }
}

/// A set operator's side with its columns converted to `types`.
fn converted(plan: QueryPlan, types: &[DataType]) -> SqlResult<Node> {
    let same = plan
        .columns
        .iter()
        .zip(types)
        .all(|(c, t)| c.data_type == *t);
    if same {
        return Ok(plan.root);
    }
    let exprs = plan
        .columns
        .iter()
        .zip(types)
        .enumerate()
        .map(|(index, (column, target))| {
            let read = Scalar {
                kind: ScalarKind::Column(index),
                data_type: column.data_type,
            };
            implicit(read, target)
        })
        .collect::<SqlResult<Vec<_>>>()?;
    Ok(Node::Project {
        input: plan.root.boxed(),
        exprs,
    })
}

/// The result columns, the expressions that compute them and, for an
/// assignment SELECT, the variable slots they go to.
fn project(
    binder: &Binder,
    items: &[SelectItem],
) -> SqlResult<(Vec<ResultColumn>, Vec<Scalar>, Assignments)> {
    let mut columns = Vec::new();
    let mut scalars = Vec::new();
    let mut assignments = Vec::new();
    for item in items {
        match item {
            SelectItem::Expr { expr, alias, .. } => {
                let scalar = binder.scalar(expr)?;
                let name = match (alias, &expr.kind) {
                    (Some(alias), _) => alias.value.clone(),
                    (None, ast::ExprKind::Column(parts)) => {
                        parts.last().map_or(String::new(), |p| p.value.clone())
                    }
                    _ => String::new(),
                };
                columns.push(result_column(name, scalar.data_type));
                scalars.push(scalar);
            }
            SelectItem::Assign {
                variable,
                op,
                value,
                ..
            } => {
                let slot = binder.variables.resolve(variable)?;
                let data_type = binder.variables.data_type(slot);
                let current = Scalar {
                    kind: ScalarKind::Variable(slot),
                    data_type,
                };
                let scalar = binder.assignment(current, *op, value, &data_type)?;
                columns.push(result_column(format!("@{variable}"), data_type));
                scalars.push(scalar);
                assignments.push(slot);
            }
            SelectItem::Wildcard { qualifier, .. } => {
                if binder.scope.columns.is_empty() || binder.grouping.is_some() {
                    return Err(SqlError::new(
                        263,
                        16,
                        1,
                        "Must specify table to select from.",
                    ));
                }
                let mut matched = false;
                for index in wildcard_columns(&binder.scope.columns, qualifier.as_ref()) {
                    let column = &binder.scope.columns[index];
                    matched = true;
                    column.used.set(true);
                    columns.push(result_column(column.name.clone(), column.data_type));
                    scalars.push(Scalar {
                        kind: ScalarKind::Column(index),
                        data_type: column.data_type,
                    });
                }
                if !matched {
                    let table = qualifier.as_ref().map_or("", |q| q.name().value.as_str());
                    return Err(SqlError::new(
                        4104,
                        16,
                        1,
                        format!("The multi-part identifier \"{table}\" could not be bound."),
                    ));
                }
            }
        }
    }
    Ok((columns, scalars, assignments))
}

/// The columns `*` or `qualifier.*` stands for: their positions in
/// `scope` (not those of the row a changed view passes on, which have no
/// names).
pub(crate) fn wildcard_columns<'s>(
    scope: &'s [ScopeColumn],
    qualifier: Option<&'s ast::ObjectName>,
) -> impl Iterator<Item = usize> + 's {
    scope
        .iter()
        .enumerate()
        .filter(move |(_, column)| {
            !column.name.is_empty()
                && qualifier.is_none_or(|q| column.table.eq_ignore_ascii_case(&q.name().value))
        })
        .map(|(index, _)| index)
}

pub fn result_column(name: String, data_type: DataType) -> ResultColumn {
    ResultColumn {
        name,
        data_type,
        nullable: true,
    }
}

/// ORDER BY items: a position in the select list (`ORDER BY 2`), a select
/// list alias, or an expression bound like the select list.
fn bind_order(
    binder: &Binder,
    items: &[ast::OrderItem],
    columns: &[ResultColumn],
    projection: &[Scalar],
) -> SqlResult<Vec<SortKey>> {
    items
        .iter()
        .map(|item| {
            let expr = match &item.expr.kind {
                ast::ExprKind::Literal(ast::Literal::Integer(digits)) => {
                    let position: usize = digits.parse().unwrap_or(0);
                    if position == 0 || position > projection.len() {
                        return Err(SqlError::new(
                            108,
                            16,
                            1,
                            format!("The ORDER BY position number {digits} is out of range of the number of items in the select list."),
                        ));
                    }
                    projection[position - 1].clone()
                }
                ast::ExprKind::Column(parts) if parts.len() == 1 => {
                    let alias = columns
                        .iter()
                        .position(|c| c.name.eq_ignore_ascii_case(&parts[0].value));
                    match alias {
                        Some(index) if binder.scope.resolve(parts).is_err() => {
                            projection[index].clone()
                        }
                        _ => binder.scalar(&item.expr)?,
                    }
                }
                _ => binder.scalar(&item.expr)?,
            };
            Ok(SortKey {
                expr,
                descending: item.descending,
            })
        })
        .collect()
}

/// OFFSET's rows to skip and FETCH's rows to return.
fn offset_fetch(binder: &Binder, offset: &ast::OffsetFetch) -> SqlResult<(u64, Option<u64>)> {
    let skip = row_count(binder, &offset.offset, 0, negative_offset)?;
    let limit = match &offset.fetch {
        Some(fetch) => Some(row_count(binder, fetch, 1, empty_fetch)?),
        None => None,
    };
    Ok((skip, limit))
}

/// A TOP, OFFSET or FETCH count, computed when the statement starts: an
/// integer of at least `minimum`, or `invalid` (SQL Server's message
/// differs by clause).
fn row_count(
    binder: &Binder,
    expr: &ast::Expr,
    minimum: i64,
    invalid: fn() -> SqlError,
) -> SqlResult<u64> {
    let scalar = Binder::new(binder.variables).scalar(expr)?;
    match statement_start_value(binder, &scalar)?.as_i64() {
        Some(n) if n >= minimum => Ok(n as u64),
        _ => Err(invalid()),
    }
}

/// A count's value as the statement starts (constants and variables).
fn statement_start_value(binder: &Binder, scalar: &Scalar) -> SqlResult<hekla_types::Value> {
    let Some(planner) = binder.planner else {
        unreachable!("query binders have a planner");
    };
    if !matches!(scalar.kind, ScalarKind::Constant(_)) {
        planner.state.not_reusable.set(true);
    }
    planner
        .context
        .start_value(scalar, binder.variables.values(), &planner.options)
}

/// `TOP (n)` or `TOP (p) PERCENT` (p from 0 to 100, Msg 1061 otherwise).
fn top_count(binder: &Binder, top: &ast::Top) -> SqlResult<Limit> {
    if !top.percent {
        let rows = row_count(binder, &top.count, 0, crate::error::top_rows_not_integer)?;
        return Ok(Limit::Rows(rows));
    }
    let scalar = implicit(
        Binder::new(binder.variables).scalar(&top.count)?,
        &DataType::Float,
    )?;
    match statement_start_value(binder, &scalar)? {
        hekla_types::Value::Float(p) if (0.0..=100.0).contains(&p) => Ok(Limit::Percent(p)),
        _ => Err(crate::error::top_percent_invalid()),
    }
}

/// Msg 10744 for a FETCH of no rows.
fn empty_fetch() -> SqlError {
    SqlError::new(
        10744,
        15,
        1,
        "The number of rows provided for a FETCH clause must be greater then zero.",
    )
}

/// Msg 10742 for a negative OFFSET.
fn negative_offset() -> SqlError {
    SqlError::new(
        10742,
        15,
        1,
        "The offset specified in a OFFSET clause may not be negative.",
    )
}

/// The members of a chain of UNION ALLs, left to right (the body itself
/// when it is not one).
fn union_all_members<'b>(body: &'b QueryBody, out: &mut Vec<&'b QueryBody>) {
    match body {
        QueryBody::SetOp {
            op: ast::SetOperator::Union,
            all: true,
            left,
            right,
        } => {
            union_all_members(left, out);
            union_all_members(right, out);
        }
        other => out.push(other),
    }
}

/// True if `body` reads a table called `name` (one-part) in a FROM clause.
fn names_table(body: &QueryBody, name: &str) -> bool {
    match body {
        QueryBody::Select(select) => select.from.iter().any(|item| ref_names(item, name)),
        QueryBody::SetOp { left, right, .. } => names_table(left, name) || names_table(right, name),
        QueryBody::Nested(query) => names_table(&query.body, name),
    }
}

fn ref_names(item: &ast::TableRef, name: &str) -> bool {
    match &item.kind {
        ast::TableRefKind::Table { name: table, .. } => {
            table.parts.len() == 1 && table.name().value.eq_ignore_ascii_case(name)
        }
        ast::TableRefKind::Join { left, right, .. } => {
            ref_names(left, name) || ref_names(right, name)
        }
        ast::TableRefKind::Derived { query, .. } => names_table(&query.body, name),
        _ => false,
    }
}
