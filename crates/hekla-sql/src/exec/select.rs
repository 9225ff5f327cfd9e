//! SELECT, first slice: constant rows without FROM, and one table read
//! through an index seek or a full scan with WHERE, TOP and a projection.
//! Joins, grouping and ordering come with the planner; until then those
//! clauses are refused with Msg 10794.

use super::access::{for_each_row, AccessPath};
use super::aggregate::Groups;
use super::eval::Inputs;
use super::{not_yet, resolve_table, table_scope};
use crate::ast::{self, QueryBody, SelectItem};
use crate::bind::aggregate::{is_grouped, Grouping};
use crate::bind::expr::{Binder, Predicate, Scalar, ScalarKind, Scope};
use crate::bind::variables::Variables;
use crate::catalog::table::TableMeta;
use crate::session::{ResultColumn, ResultSink, SqlDatabase};
use hekla_engine::{IsolationLevel, Transaction};
use hekla_types::{encode_key, ops, SortOrder};
use hekla_types::{DataType, SqlError, SqlResult, Value};
use std::cmp::Ordering;
use std::collections::HashSet;
use std::ops::ControlFlow;
use std::sync::Arc;

/// A bound SELECT, ready to run or to show.
pub struct SelectPlan {
    pub columns: Vec<ResultColumn>,
    projection: Vec<Scalar>,
    /// The FROM table; None for a SELECT of constants.
    /// The FROM tables in join order (empty for a SELECT of constants);
    /// with one table, rows stream; with several, they join by nested
    /// loops.
    sources: Vec<Source>,
    filter: Option<Predicate>,
    /// The WHERE clause as written (printed), for SHOWPLAN.
    filter_text: Option<String>,
    /// GROUP BY / aggregates: the projection then reads grouped rows.
    grouping: Option<GroupPlan>,
    order_by: Vec<SortKey>,
    /// SELECT DISTINCT: repeated result rows are dropped.
    distinct: bool,
    /// OFFSET: rows passed over after sorting.
    skip: u64,
    limit: Option<u64>,
}

struct GroupPlan {
    grouping: Grouping,
    having: Option<Predicate>,
}

/// Binds a SELECT statement.
pub fn plan(
    db: &SqlDatabase,
    statement: &ast::SelectStatement,
    variables: &Variables,
) -> SqlResult<SelectPlan> {
    let query = &statement.query;
    let QueryBody::Select(select) = &query.body else {
        return Err(not_yet("UNION, EXCEPT and INTERSECT"));
    };
    let unsupported =
        !query.with.is_empty() || !statement.hints.is_empty() || select.into.is_some();
    if unsupported {
        return Err(not_yet("SELECT with INTO or OPTION"));
    }
    let mut binder = Binder::new(variables);
    let mut sources = Vec::new();
    for from in &select.from {
        add_sources(db, from, JoinType::Cross, &mut binder, &mut sources)?;
    }
    let mut limit = match &select.top {
        Some(top) => Some(top_count(&binder, top)?),
        None => None,
    };
    let mut skip = 0;
    if let Some(offset) = &query.offset {
        if query.order_by.is_empty() {
            // OFFSET belongs to ORDER BY in the grammar.
            return Err(SqlError::new(102, 15, 1, "Incorrect syntax near 'OFFSET'."));
        }
        if select.top.is_some() {
            return Err(SqlError::new(
                10741,
                15,
                1,
                "A TOP can not be used in the same query or sub-query as a OFFSET.",
            ));
        }
        skip = row_count(&binder, &offset.offset, 0, negative_offset)?;
        limit = match &offset.fetch {
            Some(fetch) => Some(row_count(&binder, fetch, 1, empty_fetch)?),
            None => None,
        };
    }
    let filter = match &select.where_clause {
        Some(condition) => Some(binder.predicate(condition)?),
        None => None,
    };
    let mut outputs: Vec<&ast::Expr> = select
        .items
        .iter()
        .filter_map(|item| match item {
            SelectItem::Expr { expr, .. } => Some(expr),
            _ => None,
        })
        .collect();
    outputs.extend(select.having.as_ref());
    let (columns, projection, order_by, grouping) = if is_grouped(&select.group_by, &outputs) {
        let grouping = Grouping::bind(&binder, &select.group_by, &outputs)?;
        let output = Binder {
            scope: Scope::default(),
            grouping: Some(&grouping),
            ..Binder::new(variables)
        };
        let (columns, projection) = project(&output, &select.items)?;
        let having = select
            .having
            .as_ref()
            .map(|h| output.predicate(h))
            .transpose()?;
        let order_by = bind_order(&output, &query.order_by, &columns, &projection)?;
        (
            columns,
            projection,
            order_by,
            Some(GroupPlan { grouping, having }),
        )
    } else {
        let (columns, projection) = project(&binder, &select.items)?;
        let order_by = bind_order(&binder, &query.order_by, &columns, &projection)?;
        (columns, projection, order_by, None)
    };
    if sources.is_empty() && (filter.is_some() || limit.is_some()) {
        return Err(not_yet("WHERE and TOP without FROM"));
    }
    Ok(SelectPlan {
        columns,
        projection,
        sources,
        filter,
        filter_text: select.where_clause.as_ref().map(ToString::to_string),
        grouping,
        order_by,
        distinct: select.distinct,
        skip,
        limit,
    })
}

/// Runs a bound SELECT; its row count.
pub fn run(
    db: &SqlDatabase,
    plan: &SelectPlan,
    variables: &Variables,
    sink: &mut dyn ResultSink,
) -> SqlResult<Option<u64>> {
    let variables = variables.values();
    sink.columns(&plan.columns);
    let mut output = Output::new(plan, sink);
    let mut groups = plan
        .grouping
        .as_ref()
        .map(|group| Groups::new(&group.grouping));
    // Every row that passes WHERE goes to the groups or to the output.
    let mut accept = |row: &[Value]| -> SqlResult<ControlFlow<()>> {
        let inputs = Inputs { row, variables };
        match &mut groups {
            Some(groups) => groups.add(&inputs)?,
            None => output.push(&inputs)?,
        }
        Ok(if output.is_full() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        })
    };
    match plan.sources.as_slice() {
        // Without FROM there is one empty row.
        [] => {
            let _ = accept(&[])?;
        }
        // One table: rows stream from the access path, WHERE applied there.
        [source] => {
            let mut tx = db.engine().begin(IsolationLevel::Snapshot)?;
            for_each_row(
                &mut tx,
                &source.table,
                plan.filter.as_ref(),
                variables,
                |_, values| accept(&values),
            )?;
            tx.commit()?;
        }
        // Joins: WHERE applies to each joined row.
        _ => {
            let mut tx = db.engine().begin(IsolationLevel::Snapshot)?;
            let mut filtered = |row: &[Value]| -> SqlResult<ControlFlow<()>> {
                if let Some(filter) = &plan.filter {
                    if filter.eval(&Inputs { row, variables })? != Some(true) {
                        return Ok(ControlFlow::Continue(()));
                    }
                }
                accept(row)
            };
            // A Break only means TOP has its rows.
            let _ = nested_loops(&mut tx, plan, 0, Vec::new(), variables, &mut filtered)?;
            tx.commit()?;
        }
    }
    if let (Some(group), Some(groups)) = (&plan.grouping, groups) {
        output.groups(group, groups, variables)?;
    }
    Ok(Some(output.finish()?))
}

/// Where result rows go: straight to the sink, or, with ORDER BY, into a
/// buffer sorted at the end. TOP counts either way.
struct Output<'a> {
    plan: &'a SelectPlan,
    sink: &'a mut dyn ResultSink,
    buffer: Vec<(Vec<Value>, Vec<Value>)>,
    sent: u64,
    /// DISTINCT: encodings of the rows already produced.
    seen: HashSet<Vec<u8>>,
}

impl<'a> Output<'a> {
    fn new(plan: &'a SelectPlan, sink: &'a mut dyn ResultSink) -> Self {
        Output {
            plan,
            sink,
            buffer: Vec::new(),
            sent: 0,
            seen: HashSet::new(),
        }
    }

    /// True once streaming has sent TOP's rows (sorting must see them all).
    fn is_full(&self) -> bool {
        self.plan.order_by.is_empty() && self.plan.limit.is_some_and(|limit| self.sent >= limit)
    }

    fn push(&mut self, inputs: &Inputs<'_>) -> SqlResult<()> {
        let row = evaluate(&self.plan.projection, inputs)?;
        if self.plan.distinct {
            let types: Vec<(DataType, SortOrder)> = self
                .plan
                .columns
                .iter()
                .map(|c| (c.data_type, SortOrder::Ascending))
                .collect();
            let mut encoded = Vec::new();
            encode_key(&types, &row, &mut encoded)?;
            if !self.seen.insert(encoded) {
                return Ok(());
            }
        }
        if self.plan.order_by.is_empty() {
            if !self.is_full() {
                self.sink.row(&row);
                self.sent += 1;
            }
            return Ok(());
        }
        let keys = self
            .plan
            .order_by
            .iter()
            .map(|key| key.expr.eval(inputs))
            .collect::<SqlResult<Vec<Value>>>()?;
        self.buffer.push((keys, row));
        Ok(())
    }

    /// The grouped rows through HAVING.
    fn groups(
        &mut self,
        group: &GroupPlan,
        groups: Groups<'_>,
        variables: &[Value],
    ) -> SqlResult<()> {
        for row in groups.finish()? {
            let inputs = Inputs {
                row: &row,
                variables,
            };
            if let Some(having) = &group.having {
                if having.eval(&inputs)? != Some(true) {
                    continue;
                }
            }
            self.push(&inputs)?;
        }
        Ok(())
    }

    /// Sorts and sends what ORDER BY held back; the row count.
    fn finish(mut self) -> SqlResult<u64> {
        let order = &self.plan.order_by;
        self.buffer.sort_by(|(a, _), (b, _)| {
            order
                .iter()
                .zip(a.iter().zip(b))
                .map(|(key, (a, b))| key.compare(a, b))
                .find(|ordering| ordering.is_ne())
                .unwrap_or(Ordering::Equal)
        });
        let limit = usize::try_from(self.plan.limit.unwrap_or(u64::MAX)).unwrap_or(usize::MAX);
        let skip = usize::try_from(self.plan.skip).unwrap_or(usize::MAX);
        for (_, row) in self.buffer.iter().skip(skip).take(limit) {
            self.sink.row(row);
            self.sent += 1;
        }
        Ok(self.sent)
    }
}

/// One ORDER BY key.
struct SortKey {
    expr: Scalar,
    descending: bool,
}

impl SortKey {
    /// SQL Server's order: NULL first ascending, strings by collation.
    fn compare(&self, a: &Value, b: &Value) -> Ordering {
        let collation = self.expr.data_type.collation().unwrap_or_default();
        let ordering = match (a.is_null(), b.is_null()) {
            (true, true) => Ordering::Equal,
            (true, false) => Ordering::Less,
            (false, true) => Ordering::Greater,
            (false, false) => ops::compare(a, b, collation).unwrap_or(Ordering::Equal),
        };
        if self.descending {
            ordering.reverse()
        } else {
            ordering
        }
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

/// The plan as `SET SHOWPLAN_TEXT ON` shows it, one operator per line.
pub fn explain(db: &SqlDatabase, plan: &SelectPlan) -> Vec<String> {
    let mut lines = Vec::new();
    let mut depth = 0;
    if let Some(limit) = plan.limit {
        lines.push(operator(depth, &format!("Top(TOP EXPRESSION:(({limit})))")));
        depth += 1;
    }
    if !plan.order_by.is_empty() {
        lines.push(operator(depth, "Sort"));
        depth += 1;
    }
    if let Some(group) = &plan.grouping {
        let keys: Vec<&str> = group
            .grouping
            .keys
            .iter()
            .map(|(text, _)| text.as_str())
            .collect();
        let aggregates: Vec<&str> = group
            .grouping
            .aggregates
            .iter()
            .map(|(text, _)| text.as_str())
            .collect();
        lines.push(operator(
            depth,
            &format!(
                "Hash Match(Aggregate, HASH:({}), DEFINE:({}))",
                keys.join(", "),
                aggregates.join(", ")
            ),
        ));
        depth += 1;
    }
    match plan.sources.as_slice() {
        [] => lines.push(operator(depth, "Constant Scan")),
        [source] => {
            let path = AccessPath::choose(&source.table, 0, plan.filter.as_ref());
            let described = path.describe(db, &source.table, plan.filter_text.as_deref());
            lines.push(operator(depth, &described));
        }
        sources => {
            if let Some(filter) = &plan.filter_text {
                lines.push(operator(depth, &format!("Filter(WHERE:({filter}))")));
                depth += 1;
            }
            explain_joins(db, plan, sources, depth, &mut lines);
        }
    }
    lines
}

/// Left-deep nested loops: each join above its outer input and, below it,
/// the inner table's access path.
fn explain_joins(
    db: &SqlDatabase,
    plan: &SelectPlan,
    sources: &[Source],
    depth: usize,
    lines: &mut Vec<String>,
) {
    let (last, rest) = sources.split_last().expect("at least two sources");
    let kind = match last.join {
        JoinType::Left => "Left Outer Join",
        JoinType::Inner => "Inner Join",
        JoinType::Cross => "Inner Join",
    };
    lines.push(operator(depth, &format!("Nested Loops({kind})")));
    if let [first] = rest {
        let path = AccessPath::choose(&first.table, 0, plan.filter.as_ref());
        lines.push(operator(depth + 1, &path.describe(db, &first.table, None)));
    } else {
        explain_joins(db, plan, rest, depth + 1, lines);
    }
    let path = AccessPath::choose(&last.table, last.offset, last.on.as_ref());
    lines.push(operator(
        depth + 1,
        &path.describe(db, &last.table, last.on_text.as_deref()),
    ));
}

/// `  |--Name(...)`, indented as SQL Server nests operators.
pub fn operator(depth: usize, text: &str) -> String {
    format!("  {}|--{text}", " ".repeat(5 * depth))
}

/// How a table joins the ones before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum JoinType {
    /// A comma or CROSS JOIN (also the first table).
    Cross,
    Inner,
    Left,
}

/// A FROM table and where its columns start in the joined row.
struct Source {
    table: Arc<TableMeta>,
    offset: usize,
    join: JoinType,
    /// The ON condition, bound over this table and the ones before it.
    on: Option<Predicate>,
    on_text: Option<String>,
}

/// Adds the tables of one FROM item, left to right, widening the binder's
/// scope; join conditions are bound as their right table arrives.
fn add_sources(
    db: &SqlDatabase,
    from: &ast::TableRef,
    join: JoinType,
    binder: &mut Binder,
    sources: &mut Vec<Source>,
) -> SqlResult<()> {
    match &from.kind {
        ast::TableRefKind::Table { name, alias, hints } => {
            if !hints.is_empty() {
                return Err(not_yet("table hints"));
            }
            let table = resolve_table(db, name)?;
            let shown = alias
                .as_ref()
                .map_or(&table.name, |alias| &alias.value)
                .clone();
            if binder
                .scope
                .columns
                .iter()
                .any(|c| c.table.eq_ignore_ascii_case(&shown))
            {
                return Err(SqlError::new(
                    1013,
                    16,
                    1,
                    format!("The objects \"{shown}\" and \"{shown}\" in the FROM clause have the same exposed names. Use correlation names to distinguish them."),
                ));
            }
            let offset = binder.scope.columns.len();
            binder.scope.columns.extend(table_scope(db, &table, &shown));
            sources.push(Source {
                table,
                offset,
                join,
                on: None,
                on_text: None,
            });
            Ok(())
        }
        ast::TableRefKind::Join {
            left,
            right,
            kind,
            hint,
            on,
        } => {
            if hint.is_some_and(|hint| hint != ast::JoinHint::Loop) {
                return Err(not_yet("HASH, MERGE and REMOTE join hints"));
            }
            let join = match kind {
                ast::JoinKind::Inner => JoinType::Inner,
                ast::JoinKind::Left => JoinType::Left,
                ast::JoinKind::Cross => JoinType::Cross,
                _ => return Err(not_yet("RIGHT and FULL joins and APPLY")),
            };
            add_sources(db, left, JoinType::Cross, binder, sources)?;
            if !matches!(right.kind, ast::TableRefKind::Table { .. }) {
                return Err(not_yet("joins whose right side is itself a join"));
            }
            add_sources(db, right, join, binder, sources)?;
            let source = sources.last_mut().expect("the right table was just added");
            if let Some(on) = on {
                source.on = Some(binder.predicate(on)?);
                source.on_text = Some(on.to_string());
            }
            Ok(())
        }
        _ => Err(not_yet("derived tables and table-valued sources")),
    }
}

/// Joins `plan.sources[level..]` onto `row` (the columns of the tables
/// before), handing each complete row to `emit`. Inner rows are read into
/// memory per outer row, through an index when the ON clause fixes one.
fn nested_loops(
    tx: &mut Transaction,
    plan: &SelectPlan,
    level: usize,
    row: Vec<Value>,
    variables: &[Value],
    emit: &mut dyn FnMut(&[Value]) -> SqlResult<ControlFlow<()>>,
) -> SqlResult<ControlFlow<()>> {
    let Some(source) = plan.sources.get(level) else {
        return emit(&row);
    };
    let condition = if level == 0 {
        plan.filter.as_ref()
    } else {
        source.on.as_ref()
    };
    let path = AccessPath::choose(&source.table, source.offset, condition);
    let mut inner = Vec::new();
    path.read(
        tx,
        &source.table,
        &Inputs {
            row: &row,
            variables,
        },
        |_, values| {
            inner.push(values);
            ControlFlow::Continue(())
        },
    )?;
    let mut matched = false;
    for values in inner {
        let mut joined = row.clone();
        joined.extend(values);
        if let Some(on) = &source.on {
            if on.eval(&Inputs {
                row: &joined,
                variables,
            })? != Some(true)
            {
                continue;
            }
        }
        matched = true;
        if nested_loops(tx, plan, level + 1, joined, variables, emit)?.is_break() {
            return Ok(ControlFlow::Break(()));
        }
    }
    if !matched && source.join == JoinType::Left {
        let mut joined = row;
        joined.extend(std::iter::repeat_n(Value::Null, source.table.columns.len()));
        return nested_loops(tx, plan, level + 1, joined, variables, emit);
    }
    Ok(ControlFlow::Continue(()))
}

/// The result columns and the expressions that compute them.
fn project(binder: &Binder, items: &[SelectItem]) -> SqlResult<(Vec<ResultColumn>, Vec<Scalar>)> {
    let mut columns = Vec::new();
    let mut scalars = Vec::new();
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
            SelectItem::Wildcard { qualifier, .. } => {
                if binder.scope.columns.is_empty() {
                    return Err(SqlError::new(
                        263,
                        16,
                        1,
                        "Must specify table to select from.",
                    ));
                }
                for (index, column) in binder.scope.columns.iter().enumerate() {
                    if let Some(qualifier) = qualifier {
                        let table = &qualifier.name().value;
                        if !column.table.eq_ignore_ascii_case(table) {
                            return Err(SqlError::new(
                                4104,
                                16,
                                1,
                                format!(
                                    "The multi-part identifier \"{table}\" could not be bound."
                                ),
                            ));
                        }
                    }
                    columns.push(result_column(column.name.clone(), column.data_type));
                    scalars.push(Scalar {
                        kind: ScalarKind::Column(index),
                        data_type: column.data_type,
                    });
                }
            }
            SelectItem::Assign { .. } => return Err(not_yet("variable assignment in SELECT")),
        }
    }
    Ok((columns, scalars))
}

fn result_column(name: String, data_type: DataType) -> ResultColumn {
    ResultColumn {
        name,
        data_type,
        nullable: true,
    }
}

fn evaluate(projection: &[Scalar], row: &Inputs<'_>) -> SqlResult<Vec<Value>> {
    projection.iter().map(|scalar| scalar.eval(row)).collect()
}

/// A constant TOP, OFFSET or FETCH count: an integer of at least
/// `minimum`, or `invalid` (SQL Server's message differs by clause).
fn row_count(
    binder: &Binder,
    expr: &ast::Expr,
    minimum: i64,
    invalid: fn() -> SqlError,
) -> SqlResult<u64> {
    let value = binder.scalar(expr)?.eval(&Inputs {
        row: &[],
        variables: binder.variables.values(),
    })?;
    match value.as_i64() {
        Some(n) if n >= minimum => Ok(n as u64),
        _ => Err(invalid()),
    }
}

/// `TOP (n)` with a constant count; PERCENT and WITH TIES come later.
fn top_count(binder: &Binder, top: &ast::Top) -> SqlResult<u64> {
    if top.percent || top.with_ties {
        return Err(not_yet("TOP ... PERCENT and WITH TIES"));
    }
    row_count(binder, &top.count, 0, || {
        SqlError::new(
            1060,
            16,
            1,
            "The number of rows in the TOP clause must be an integer.",
        )
    })
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
