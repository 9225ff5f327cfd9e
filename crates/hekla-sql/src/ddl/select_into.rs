//! `SELECT ... INTO t FROM ...`: one statement that creates `t` from the
//! query's result columns and inserts the query's rows. `t` is a user
//! table (created as CREATE TABLE creates one: its definition is stored
//! as the CREATE TABLE text printed from the columns, so it survives a
//! restart) or a `#temp` table. If filling it fails, the new table is
//! dropped again, as in SQL Server.
//!
//! Columns take the result columns' names (every one must have one, Msg
//! 1038), types and nullability, by SQL Server's rules: a column keeps
//! its source column's nullability, a constant is NOT NULL, `ISNULL(x,
//! y)` is NOT NULL when `y` is, operators over NOT NULL operands are NOT
//! NULL, and everything else (functions, CAST and CONVERT, aggregates,
//! subqueries, variables, columns of the inner side of an outer join) is
//! nullable. (CAST and the conversions the binder adds to an operator's
//! operands look alike once bound: a CAST that is an operand counts as
//! keeping its operand's nullability.) The new table has no index, no constraint and no IDENTITY
//! column (SQL Server copies an IDENTITY property it selects unchanged
//! from a single table; hekla does not yet).
//!
//! It lives with DDL because it creates a table; its rows go in through
//! the executor.

use crate::ddl::DdlDatabase;
use hekla_engine::IsolationLevel;
use hekla_exec::context::Context;
use hekla_exec::eval::Inputs;
use hekla_exec::run::for_each;
use hekla_parser::ast;
use hekla_parser::span::Span;
use hekla_plan::bind::expr::{Predicate, Scalar, ScalarKind};
use hekla_plan::catalog::table::TableMeta;
use hekla_plan::plan::{plan_streaming, JoinKind, Node, Planner, QueryPlan};
use hekla_types::{Collation, DataType, SqlError, SqlResult};

/// Runs `SELECT ... INTO`; the number of rows inserted.
pub fn run(
    db: &dyn DdlDatabase,
    context: &Context,
    planner: &Planner,
    statement: &ast::SelectStatement,
) -> SqlResult<Option<u64>> {
    let Some(name) = statement.into_target().cloned() else {
        unreachable!("called for SELECT ... INTO only");
    };
    let mut query = statement.clone();
    query.query.body.first_select_mut().into = None;
    let mut plan = planner.statement(&query)?;
    // Rows are written while the query runs.
    plan_streaming(&mut plan.root, true);
    let create = definition(&name, &plan)?;
    let spid = planner.variables.session();
    let temporary = hekla_plan::catalog::temp::is_temp(&name);
    let table = if temporary {
        super::temp::create(db, spid, &create)?.0
    } else {
        super::table::create(db, &create, &create.to_string())?
    };
    let filled = fill(context, &plan, &table).and_then(|rows| {
        context.commit()?;
        Ok(rows)
    });
    match filled {
        Ok(rows) => Ok(Some(rows)),
        Err(error) => {
            let _ = if temporary {
                super::temp::drop(db, spid, &name, true)
            } else {
                drop_user_table(db, &table)
            };
            Err(error)
        }
    }
}

/// Inserts the query's rows; how many.
fn fill(context: &Context, plan: &QueryPlan, table: &TableMeta) -> SqlResult<u64> {
    let mut count = 0;
    for_each(&plan.root, &Inputs::top(context), &mut |row| {
        context.transaction()?.insert(&table.engine, row)?;
        count += 1;
        Ok(())
    })?;
    Ok(count)
}

/// Undoes the CREATE of a user table whose filling failed.
fn drop_user_table(db: &dyn DdlDatabase, table: &TableMeta) -> SqlResult<()> {
    let mut catalog = db.catalog_mut();
    let mut tx = db.engine().begin(IsolationLevel::Snapshot)?;
    db.object_store().delete(&mut tx, table.object_id)?;
    tx.commit()?;
    catalog.remove_table(table.object_id);
    db.engine().drop_table(table.engine.id)
}

/// The CREATE TABLE the result columns make; Msg 1038 for a column
/// without a name (a repeated name is CREATE TABLE's Msg 2705).
fn definition(name: &ast::ObjectName, plan: &QueryPlan) -> SqlResult<ast::CreateTable> {
    let nullable = columns_nullable(&plan.root);
    let span = Span::default();
    let ident = |value: &str| ast::Ident {
        value: value.to_string(),
        span,
    };
    let mut elements = Vec::with_capacity(plan.columns.len());
    for (position, column) in plan.columns.iter().enumerate() {
        if column.name.is_empty() {
            return Err(SqlError::new(
                1038,
                15,
                5,
                "An object or column name is missing or empty. For SELECT INTO statements, verify each column has a name. For other statements, look for empty alias names. Aliases defined as \"\" or [] are not allowed. Change the alias to a valid name.",
            ));
        }
        let collation = column
            .data_type
            .collation()
            .filter(|c| *c != Collation::default())
            .map(|c| ident(c.name()));
        let is_nullable = nullable.get(position).copied().unwrap_or(true);
        elements.push(ast::TableElement::Column(Box::new(ast::ColumnDef {
            name: ident(&column.name),
            data_type: Some(type_name(&column.data_type)),
            computed: None,
            collation,
            nullable: Some(is_nullable),
            identity: None,
            default: None,
            with_values: false,
            constraints: Vec::new(),
            index: None,
            span,
        })));
    }
    Ok(ast::CreateTable {
        name: name.clone(),
        elements,
        options: Vec::new(),
        filegroup: None,
    })
}

/// A type as CREATE TABLE writes it.
fn type_name(data_type: &DataType) -> ast::DataType {
    let span = Span::default();
    let text = data_type.sql_name();
    let (base, args) = match text.split_once('(') {
        Some((base, rest)) => (base.to_string(), rest.trim_end_matches(')').to_string()),
        None => (text.clone(), String::new()),
    };
    let args = args
        .split(',')
        .filter(|arg| !arg.is_empty())
        .map(|arg| match arg.trim().parse() {
            Ok(n) => ast::TypeArg::Number(n),
            Err(_) => ast::TypeArg::Max,
        })
        .collect();
    ast::DataType {
        name: ast::ObjectName {
            parts: vec![Some(ast::Ident { value: base, span })],
            span,
        },
        args,
        span,
    }
}

/// Which of `node`'s result columns may be NULL. The last entries are
/// the node's own columns; those of the FROM clause before it (which a
/// table read inside a join also emits) may be missing or only guessed.
fn columns_nullable(node: &Node) -> Vec<bool> {
    match node {
        Node::Single => Vec::new(),
        Node::Values { rows } => {
            let width = rows.first().map_or(0, Vec::len);
            (0..width)
                .map(|column| rows.iter().any(|row| nullable(&row[column], &[])))
                .collect()
        }
        Node::View { view } => vec![true; (view.columns)().len()],
        Node::SystemFunction { function, .. } => vec![true; (function.columns)().len()],
        Node::Table(read) => {
            let mut columns = vec![true; read.offset];
            columns.extend(read.table.columns.iter().map(|c| c.nullable));
            if read.row_ids {
                columns.push(false);
            }
            columns
        }
        Node::Derived { plan, .. } | Node::Function { plan, .. } => columns_nullable(&plan.root),
        // The anchor decides the columns; later steps may add NULLs.
        Node::Recursive { anchor, .. } => vec![true; columns_nullable(anchor).len()],
        Node::Working { .. } => Vec::new(),
        Node::Filter { input, .. }
        | Node::Sort { input, .. }
        | Node::Top { input, .. }
        | Node::Distinct { input, .. } => columns_nullable(input),
        Node::Project { input, exprs } => {
            let input = columns_nullable(input);
            exprs.iter().map(|expr| nullable(expr, &input)).collect()
        }
        Node::Join(join) => {
            let outer = last(columns_nullable(&join.outer), join.outer_width);
            let inner = last(columns_nullable(&join.inner), join.inner_width);
            let outer_nulls = matches!(join.kind, JoinKind::Right | JoinKind::Full);
            let inner_nulls = matches!(join.kind, JoinKind::Left | JoinKind::Full);
            outer
                .into_iter()
                .map(|n| n || outer_nulls)
                .chain(inner.into_iter().map(|n| n || inner_nulls))
                .collect()
        }
        Node::Aggregate {
            input, grouping, ..
        } => {
            let input = columns_nullable(input);
            let rolled_up = !grouping.sets.is_empty();
            let mut columns: Vec<bool> = grouping
                .keys
                .iter()
                .map(|(_, key)| rolled_up || nullable(key, &input))
                .collect();
            columns.extend(grouping.aggregates.iter().map(|_| true));
            if rolled_up {
                columns.extend(grouping.keys.iter().map(|_| true));
            }
            columns
        }
        Node::Window { input, calls } => {
            let mut columns = columns_nullable(input);
            columns.extend(calls.iter().map(|_| true));
            columns
        }
        Node::SetOp { left, right, .. } => columns_nullable(left)
            .into_iter()
            .zip(columns_nullable(right))
            .map(|(l, r)| l || r)
            .collect(),
    }
}

/// The last `width` entries, padded in front with "nullable".
fn last(columns: Vec<bool>, width: usize) -> Vec<bool> {
    if columns.len() >= width {
        columns[columns.len() - width..].to_vec()
    } else {
        let mut padded = vec![true; width - columns.len()];
        padded.extend(columns);
        padded
    }
}

/// Whether `expr`, over a row whose columns may be NULL as `input` says,
/// may be NULL (SQL Server's rules for SELECT INTO, above).
fn nullable(expr: &Scalar, input: &[bool]) -> bool {
    match &expr.kind {
        ScalarKind::Constant(value) => value.is_null(),
        ScalarKind::Column(index) => input.get(*index).copied().unwrap_or(true),
        ScalarKind::Arithmetic { left, right, .. } | ScalarKind::Concat(left, right) => {
            converted_nullable(left, input) || converted_nullable(right, input)
        }
        ScalarKind::Negate(operand) | ScalarKind::BitNot(operand) => {
            converted_nullable(operand, input)
        }
        // ISNULL(x, y) and COALESCE bind to CASE WHEN x IS NOT NULL THEN x
        // ... ELSE y END, whose guarded branches are never NULL.
        ScalarKind::Case { whens, otherwise } => {
            whens.iter().any(|(condition, result)| {
                let guarded = matches!(
                    condition,
                    Predicate::IsNull { operand, negated: true } if operand == result
                );
                !guarded && converted_nullable(result, input)
            }) || converted_nullable(otherwise, input)
        }
        _ => true,
    }
}

/// An operand, which the binder may have converted to the operator's
/// type: such an implicit conversion keeps its operand's nullability (an
/// explicit CAST or CONVERT makes a nullable column, but the two bind
/// alike, so one written as an operand counts as implicit).
fn converted_nullable(expr: &Scalar, input: &[bool]) -> bool {
    match &expr.kind {
        ScalarKind::Convert {
            operand,
            is_try: false,
            ..
        } => converted_nullable(operand, input),
        _ => nullable(expr, input),
    }
}
