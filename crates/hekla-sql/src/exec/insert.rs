//! INSERT: rows from VALUES, a query or DEFAULT VALUES into one table, in
//! the statement's transaction so the statement is all or nothing. Values
//! convert to their columns as an assignment does: the engine raises 515
//! for NULL into NOT NULL, 2628 for a value longer than its column,
//! 2627/2601 for a duplicate key. An IDENTITY column takes its next value
//! in every row (giving it a value is Msg 544, or 8101 without a column
//! list); CHECK and FOREIGN KEY constraints are checked per row and at the
//! end (see `constraints`).

use super::constraints::{Statement, StatementChecks};
use super::context::Context;
use super::eval::Inputs;
use super::not_yet;
use super::output::{Output, Verb};
use super::run::for_each;
use crate::ast::{self, DmlTarget, ExprKind, InsertSource};
use crate::bind::expr::{implicit, Scalar, ScalarKind};
use crate::catalog::table::TableMeta;
use crate::plan::Planner;
use crate::session::ResultSink;
use hekla_types::{SqlError, SqlResult, Value};

pub fn run(
    context: &Context,
    planner: &Planner,
    insert: &ast::Insert,
    sink: &mut dyn ResultSink,
) -> SqlResult<Option<u64>> {
    if !insert.with.is_empty() || insert.top.is_some() {
        return Err(not_yet("INSERT with WITH or TOP"));
    }
    let name = match &insert.target {
        DmlTarget::Table { name, hints } => {
            if hints
                .iter()
                .any(|hint| !hint.name.value.eq_ignore_ascii_case("TABLOCK"))
            {
                return Err(not_yet("table hints other than TABLOCK on INSERT"));
            }
            crate::catalog::sequence::written(name)
        }
        DmlTarget::Variable(name) => format!("@{name}"),
    };
    let table =
        crate::catalog::temp::resolve_target(planner.db, planner.variables, &insert.target)?;
    let targets = target_columns(&table, &insert.columns)?;
    let output = Output::bind(planner, &insert.output, Verb::Insert, &table, &[])?;
    // Without a column list, one value too many is the IDENTITY column's.
    let explicit_identity = |given: usize| {
        if table.identity.is_some() && insert.columns.is_empty() && given == targets.len() + 1 {
            return Some(SqlError::new(
                8101,
                16,
                1,
                format!(
                    "An explicit value for the identity column in table '{name}' can only be specified when a column list is used and IDENTITY_INSERT is ON.",
                ),
            ));
        }
        None
    };
    let checks = StatementChecks::new(context.db, &table, Statement::Insert);
    let inputs = Inputs::top(context);
    let binder = crate::exec::variables::binder(planner);
    let rows = match &insert.source {
        InsertSource::Values(rows) => {
            for row in rows {
                if row.len() != targets.len() {
                    if let Some(error) = explicit_identity(row.len()) {
                        return Err(error);
                    }
                    return Err(count_mismatch(row.len() > targets.len()));
                }
            }
            start(&output, sink);
            // SET ROWCOUNT stops a VALUES list too.
            let limit = planner.row_limit().map_or(rows.len(), |limit| {
                usize::try_from(limit).unwrap_or(usize::MAX).min(rows.len())
            });
            for row in &rows[..limit] {
                let mut given: Vec<Option<Value>> = vec![None; table.columns.len()];
                for (expr, &column) in row.iter().zip(&targets) {
                    if matches!(expr.kind, ExprKind::Default) {
                        continue;
                    }
                    let scalar = binder.scalar(expr)?;
                    let target = planner.stored_type(&table.columns[column].data_type);
                    given[column] = Some(implicit(scalar, &target)?.eval(&inputs)?);
                }
                shown(
                    &output,
                    context,
                    sink,
                    write(context, &table, &checks, given)?,
                )?;
            }
            limit as u64
        }
        InsertSource::DefaultValues => {
            start(&output, sink);
            shown(
                &output,
                context,
                sink,
                write(context, &table, &checks, vec![None; table.columns.len()])?,
            )?;
            1
        }
        InsertSource::Query(query) => {
            let plan = planner.insert_source(query)?;
            if plan.columns.len() != targets.len() {
                if let Some(error) = explicit_identity(plan.columns.len()) {
                    return Err(error);
                }
                return Err(select_count_mismatch(plan.columns.len() > targets.len()));
            }
            // Each source column converted to its target column's type.
            let converters = plan
                .columns
                .iter()
                .zip(&targets)
                .enumerate()
                .map(|(index, (column, &target))| {
                    let read = Scalar {
                        kind: ScalarKind::Column(index),
                        data_type: column.data_type,
                    };
                    implicit(read, &planner.stored_type(&table.columns[target].data_type))
                })
                .collect::<SqlResult<Vec<_>>>()?;
            start(&output, sink);
            let mut count = 0;
            for_each(&plan.root, &inputs, &mut |row| {
                let mut given: Vec<Option<Value>> = vec![None; table.columns.len()];
                let row_inputs = inputs.with_row(row);
                for (converter, &column) in converters.iter().zip(&targets) {
                    given[column] = Some(converter.eval(&row_inputs)?);
                }
                shown(
                    &output,
                    context,
                    sink,
                    write(context, &table, &checks, given)?,
                )?;
                count += 1;
                Ok(())
            })?;
            count
        }
        InsertSource::Exec(_) | InsertSource::ExecString(_) => {
            return Err(not_yet("INSERT ... EXEC"))
        }
    };
    checks.finish(context)?;
    if let Some(output) = &output {
        output.finish(context)?;
    }
    Ok(Some(rows))
}

/// A row written, for OUTPUT.
fn shown(
    output: &Option<Output>,
    context: &Context,
    sink: &mut dyn ResultSink,
    row: Vec<Value>,
) -> SqlResult<()> {
    match output {
        Some(output) => output.row(context, sink, Some(&row), None, &[]),
        None => Ok(()),
    }
}

/// OUTPUT's column metadata, once the statement is known to run.
fn start(output: &Option<Output>, sink: &mut dyn ResultSink) {
    if let Some(output) = output {
        output.start(sink);
    }
}

/// Inserts one row; columns not given (or given DEFAULT) take their
/// default or NULL, the IDENTITY column its next value. The row written.
pub(super) fn write(
    context: &Context,
    table: &TableMeta,
    checks: &StatementChecks,
    given: Vec<Option<Value>>,
) -> SqlResult<Vec<Value>> {
    let inputs = Inputs::top(context);
    let identity = table.identity.as_ref().map(|identity| identity.column);
    let values = given
        .into_iter()
        .zip(&table.columns)
        .enumerate()
        .map(
            |(position, (value, column))| match (value, &column.default) {
                (Some(value), _) => Ok(value),
                (None, _) if identity == Some(position) => {
                    let identity = table.identity.as_ref().expect("the table has one");
                    let value = identity.next(context.db.engine())?;
                    context.last_identity.set(Some(value.clone()));
                    Ok(value)
                }
                (None, Some(default)) => default.eval(&inputs),
                (None, None) => Ok(Value::Null),
            },
        )
        .collect::<SqlResult<Vec<Value>>>()?;
    let values = with_computed(context, table, values)?;
    context.transaction()?.insert(&table.engine, &values)?;
    checks.inserted(context, &values)?;
    Ok(values)
}

/// `values` with the table's computed columns computed from the others.
pub(super) fn with_computed(
    context: &Context,
    table: &TableMeta,
    mut values: Vec<Value>,
) -> SqlResult<Vec<Value>> {
    for (position, column) in table.columns.iter().enumerate() {
        if let Some(expr) = &column.computed {
            let value = expr.eval(&Inputs::top(context).with_row(&values))?;
            values[position] = value;
        }
    }
    Ok(values)
}

/// Msg 271: a computed column cannot be written.
pub(super) fn computed_written(table: &TableMeta, position: usize) -> SqlResult<()> {
    match &table.columns[position].computed {
        Some(_) => Err(SqlError::new(
            271,
            16,
            1,
            format!(
                "The column \"{}\" cannot be modified because it is either a computed column or is the result of a UNION operator.",
                table.columns[position].name
            ),
        )),
        None => Ok(()),
    }
}

/// Msg 121 (the select list has more items than the column list) or 120.
fn select_count_mismatch(more_values: bool) -> SqlError {
    if more_values {
        SqlError::new(
            121,
            15,
            1,
            "The select list for the INSERT statement contains more items than the insert list. The number of SELECT values must match the number of INSERT columns.",
        )
    } else {
        SqlError::new(
            120,
            15,
            1,
            "The select list for the INSERT statement contains fewer items than the insert list. The number of SELECT values must match the number of INSERT columns.",
        )
    }
}

/// Column positions in VALUES order: the list given, or every column but
/// the IDENTITY column. Naming the IDENTITY column is Msg 544 (hekla has
/// no SET IDENTITY_INSERT).
pub(super) fn target_columns(table: &TableMeta, named: &[ast::Ident]) -> SqlResult<Vec<usize>> {
    let columns = &table.columns;
    let identity = table.identity.as_ref().map(|identity| identity.column);
    if named.is_empty() {
        return Ok((0..columns.len())
            .filter(|&c| Some(c) != identity && columns[c].computed.is_none())
            .collect());
    }
    let mut targets: Vec<usize> = Vec::with_capacity(named.len());
    for ident in named {
        let position = columns
            .iter()
            .position(|c| c.name.eq_ignore_ascii_case(&ident.value))
            .ok_or_else(|| {
                SqlError::new(
                    207,
                    16,
                    1,
                    format!("Invalid column name '{}'.", ident.value),
                )
            })?;
        if targets.contains(&position) {
            return Err(SqlError::new(
                264,
                16,
                1,
                format!(
                    "The column name '{}' is specified more than once in the SET clause or column list of an INSERT. A column cannot be assigned more than one value in the same clause. Modify the clause to make sure that a column is updated only once. If this statement updates or inserts columns into a view, column aliasing can conceal the duplication in your code.",
                    ident.value
                ),
            ));
        }
        computed_written(table, position)?;
        targets.push(position);
    }
    if identity.is_some_and(|c| targets.contains(&c)) {
        return Err(SqlError::new(
            544,
            16,
            1,
            format!(
                "Cannot insert explicit value for identity column in table '{}' when IDENTITY_INSERT is set to OFF.",
                table.name
            ),
        ));
    }
    Ok(targets)
}

/// Msg 110 (more values than columns) or 109 (fewer).
fn count_mismatch(more_values: bool) -> SqlError {
    if more_values {
        SqlError::new(
            110,
            15,
            1,
            "There are fewer columns in the INSERT statement than values specified in the VALUES clause. The number of values in the VALUES clause must match the number of columns specified in the INSERT statement.",
        )
    } else {
        SqlError::new(
            109,
            15,
            1,
            "There are more columns in the INSERT statement than values specified in the VALUES clause. The number of values in the VALUES clause must match the number of columns specified in the INSERT statement.",
        )
    }
}
