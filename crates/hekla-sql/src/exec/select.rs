//! SELECT, first slice: constant rows without FROM, and one table read
//! through an index seek or a full scan with WHERE, TOP and a projection.
//! Joins, grouping and ordering come with the planner; until then those
//! clauses are refused with Msg 10794.

use super::access::{for_each_row, AccessPath};
use super::aggregate::Groups;
use super::eval::Inputs;
use super::{not_yet, resolve_table};
use crate::ast::{self, QueryBody, SelectItem};
use crate::bind::aggregate::{is_grouped, Grouping};
use crate::bind::expr::{Binder, Predicate, Scalar, ScalarKind, Scope, ScopeColumn};
use crate::bind::variables::Variables;
use crate::catalog::table::TableMeta;
use crate::session::{ResultColumn, ResultSink, SqlDatabase};
use hekla_engine::IsolationLevel;
use hekla_types::{DataType, SqlError, SqlResult, Value};
use std::ops::ControlFlow;
use std::sync::Arc;

/// A bound SELECT, ready to run or to show.
pub struct SelectPlan {
    pub columns: Vec<ResultColumn>,
    projection: Vec<Scalar>,
    /// The FROM table; None for a SELECT of constants.
    table: Option<Arc<TableMeta>>,
    filter: Option<Predicate>,
    /// The WHERE clause as written (printed), for SHOWPLAN.
    filter_text: Option<String>,
    /// GROUP BY / aggregates: the projection then reads grouped rows.
    grouping: Option<GroupPlan>,
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
    let unsupported = !query.with.is_empty()
        || !query.order_by.is_empty()
        || query.offset.is_some()
        || !statement.hints.is_empty()
        || select.into.is_some()
        || select.distinct
        || select.from.len() > 1;
    if unsupported {
        return Err(not_yet(
            "SELECT with joins, ORDER BY, DISTINCT, INTO or OPTION",
        ));
    }
    let mut binder = Binder::new(variables);
    let table = match select.from.first() {
        Some(from) => Some(table_source(db, from, &mut binder)?),
        None => None,
    };
    let limit = match &select.top {
        Some(top) => Some(top_count(&binder, top)?),
        None => None,
    };
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
    let (columns, projection, grouping) = if is_grouped(&select.group_by, &outputs) {
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
        (columns, projection, Some(GroupPlan { grouping, having }))
    } else {
        let (columns, projection) = project(&binder, &select.items)?;
        (columns, projection, None)
    };
    if table.is_none() && (filter.is_some() || limit.is_some()) {
        return Err(not_yet("WHERE and TOP without FROM"));
    }
    Ok(SelectPlan {
        columns,
        projection,
        table,
        filter,
        filter_text: select.where_clause.as_ref().map(ToString::to_string),
        grouping,
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
    let Some(table) = &plan.table else {
        if let Some(group) = &plan.grouping {
            // Aggregates without FROM run over one empty row.
            let mut groups = Groups::new(&group.grouping);
            groups.add(&Inputs {
                row: &[],
                variables,
            })?;
            sink.columns(&plan.columns);
            return emit_groups(plan, group, groups, variables, sink);
        }
        let row = evaluate(
            &plan.projection,
            &Inputs {
                row: &[],
                variables,
            },
        )?;
        sink.columns(&plan.columns);
        sink.row(&row);
        return Ok(Some(1));
    };
    sink.columns(&plan.columns);
    let mut tx = db.engine().begin(IsolationLevel::Snapshot)?;
    let mut sent = 0u64;
    if let Some(group) = &plan.grouping {
        let mut groups = Groups::new(&group.grouping);
        for_each_row(
            &mut tx,
            table,
            plan.filter.as_ref(),
            variables,
            |_, values| {
                groups.add(&Inputs {
                    row: &values,
                    variables,
                })?;
                Ok(ControlFlow::Continue(()))
            },
        )?;
        tx.commit()?;
        return emit_groups(plan, group, groups, variables, sink);
    }
    if plan.limit != Some(0) {
        for_each_row(
            &mut tx,
            table,
            plan.filter.as_ref(),
            variables,
            |_, values| {
                sink.row(&evaluate(
                    &plan.projection,
                    &Inputs {
                        row: &values,
                        variables,
                    },
                )?);
                sent += 1;
                Ok(if plan.limit.is_some_and(|limit| sent >= limit) {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                })
            },
        )?;
    }
    tx.commit()?;
    Ok(Some(sent))
}

/// The grouped rows through HAVING, TOP and the projection.
fn emit_groups(
    plan: &SelectPlan,
    group: &GroupPlan,
    groups: Groups<'_>,
    variables: &[Value],
    sink: &mut dyn ResultSink,
) -> SqlResult<Option<u64>> {
    let mut sent = 0u64;
    for row in groups.finish()? {
        if plan.limit.is_some_and(|limit| sent >= limit) {
            break;
        }
        let inputs = Inputs {
            row: &row,
            variables,
        };
        if let Some(having) = &group.having {
            if having.eval(&inputs)? != Some(true) {
                continue;
            }
        }
        sink.row(&evaluate(&plan.projection, &inputs)?);
        sent += 1;
    }
    Ok(Some(sent))
}

/// The plan as `SET SHOWPLAN_TEXT ON` shows it, one operator per line.
pub fn explain(db: &SqlDatabase, plan: &SelectPlan) -> Vec<String> {
    let mut lines = Vec::new();
    let mut depth = 0;
    if let Some(limit) = plan.limit {
        lines.push(operator(depth, &format!("Top(TOP EXPRESSION:(({limit})))")));
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
    match &plan.table {
        Some(table) => {
            let path = AccessPath::choose(table, plan.filter.as_ref());
            let described = path.describe(db, table, plan.filter_text.as_deref());
            lines.push(operator(depth, &described));
        }
        None => lines.push(operator(depth, "Constant Scan")),
    }
    lines
}

/// `  |--Name(...)`, indented as SQL Server nests operators.
pub fn operator(depth: usize, text: &str) -> String {
    format!("  {}|--{text}", " ".repeat(5 * depth))
}

/// Binds the FROM table into the binder's scope; the engine table.
fn table_source(
    db: &SqlDatabase,
    from: &ast::TableRef,
    binder: &mut Binder,
) -> SqlResult<Arc<TableMeta>> {
    let ast::TableRefKind::Table { name, alias, hints } = &from.kind else {
        return Err(not_yet("joins, derived tables and table-valued sources"));
    };
    if !hints.is_empty() {
        return Err(not_yet("table hints"));
    }
    let table = resolve_table(db, name)?;
    let catalog = db.catalog();
    let schema = catalog
        .schema_name(table.schema_id)
        .unwrap_or("dbo")
        .to_string();
    let shown = alias.as_ref().map_or(&table.name, |alias| &alias.value);
    binder.scope = Scope {
        columns: table
            .columns
            .iter()
            .map(|column| ScopeColumn {
                table: shown.clone(),
                schema: schema.clone(),
                name: column.name.clone(),
                data_type: column.data_type,
            })
            .collect(),
    };
    Ok(table)
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

/// `TOP (n)` with a constant count; PERCENT and WITH TIES come later.
fn top_count(binder: &Binder, top: &ast::Top) -> SqlResult<u64> {
    if top.percent || top.with_ties {
        return Err(not_yet("TOP ... PERCENT and WITH TIES"));
    }
    let count = binder.scalar(&top.count)?.eval(&Inputs {
        row: &[],
        variables: binder.variables.values(),
    })?;
    match count.as_i64() {
        Some(n) if n >= 0 => Ok(n as u64),
        _ => Err(SqlError::new(
            1060,
            16,
            1,
            "The number of rows in the TOP clause must be an integer.",
        )),
    }
}
