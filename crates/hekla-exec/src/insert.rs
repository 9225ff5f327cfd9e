//! Running INSERT plans (`plan::change::insert`): rows from VALUES, a
//! query or DEFAULT VALUES into one table, in the statement's transaction
//! so the statement is all or nothing. Values convert to their columns as
//! an assignment does: the engine raises 515 for NULL into NOT NULL, 2628
//! for a value longer than its column, 2627/2601 for a duplicate key. An
//! IDENTITY column takes its next value in every row; CHECK and FOREIGN
//! KEY constraints are checked per row and at the end (see
//! `constraints`). Through a view, the row goes into the one table the
//! view shows, its columns the view does not show taking their defaults.

use super::constraints::{Statement, StatementChecks};
use super::context::Context;
use super::eval::Inputs;
use super::output::Output;
use super::run::for_each;
use crate::eval::Evaluate;
use hekla_engine::RowId;
use hekla_plan::catalog::table::TableMeta;
use hekla_plan::plan::change::{ChangeTarget, InsertPlan, InsertSource};
use hekla_plan::result::ResultSink;
use hekla_types::{SqlError, SqlResult, Value};

pub fn run(
    context: &Context,
    plan: &InsertPlan,
    sink: &mut dyn ResultSink,
) -> SqlResult<Option<u64>> {
    let table = &plan.target.table;
    context.check_access(table)?;
    let mut writer = Writer {
        target: &plan.target,
        checks: StatementChecks::new(context.db.planning(), table, Statement::Insert),
        output: Output::start(context, plan.output.as_ref(), sink),
        written: Vec::new(),
    };
    let inputs = Inputs::top(context);
    let rows = match &plan.source {
        InsertSource::Values(rows) => {
            // SET ROWCOUNT stops a VALUES list too.
            let limit = match context.options.row_count {
                0 => rows.len(),
                limit => usize::try_from(limit).unwrap_or(usize::MAX).min(rows.len()),
            };
            for row in &rows[..limit] {
                let mut given: Vec<Option<Value>> = vec![None; table.columns.len()];
                for (value, &column) in row.iter().zip(&plan.columns) {
                    if let Some(value) = value {
                        given[column] = Some(value.eval(&inputs)?);
                    }
                }
                writer.row(context, sink, given)?;
            }
            limit as u64
        }
        InsertSource::DefaultValues => {
            writer.row(context, sink, vec![None; table.columns.len()])?;
            1
        }
        InsertSource::Query {
            plan: query,
            converters,
        } => {
            let mut count = 0;
            for_each(&query.root, &inputs, &mut |row| {
                context.check_cancel()?;
                let mut given: Vec<Option<Value>> = vec![None; table.columns.len()];
                let row_inputs = inputs.with_row(row);
                for (converter, &column) in converters.iter().zip(&plan.columns) {
                    given[column] = Some(converter.eval(&row_inputs)?);
                }
                writer.row(context, sink, given)?;
                count += 1;
                Ok(())
            })?;
            count
        }
    };
    writer.finish(context)?;
    Ok(Some(rows))
}

/// Inserts `rows` of values for every column of `table` (a client's
/// table-valued parameter), each converted to its column's type as an
/// INSERT converts it, with the table's constraints checked. The values
/// given for an IDENTITY or computed column are not read: the column gets
/// its own. Msg 213 for a row of another width.
pub fn insert_values(
    context: &Context,
    table: &std::sync::Arc<TableMeta>,
    rows: Vec<Vec<Value>>,
) -> SqlResult<()> {
    let checks = StatementChecks::new(context.db.planning(), table, Statement::Insert);
    let identity = table.identity.as_ref().map(|identity| identity.column);
    for row in rows {
        context.check_cancel()?;
        if row.len() != table.columns.len() {
            return Err(SqlError::new(
                213,
                16,
                1,
                "Column name or number of supplied values does not match table definition.",
            ));
        }
        let given = row
            .into_iter()
            .zip(&table.columns)
            .enumerate()
            .map(|(position, (value, column))| {
                if identity == Some(position) || column.computed.is_some() {
                    return Ok(None);
                }
                // Too long for the column is Msg 2628 (ANSI_WARNINGS ON),
                // as when an INSERT writes it.
                let stored = match context.options.ansi_warnings {
                    true => hekla_plan::bind::expr::assignment_type(&column.data_type),
                    false => column.data_type,
                };
                hekla_types::convert::convert(&value, &stored, None).map(Some)
            })
            .collect::<SqlResult<Vec<_>>>()?;
        write(context, table, &checks, given)?;
    }
    checks.finish(context)
}

/// Writes an INSERT's rows, each with its checks and OUTPUT.
struct Writer<'p> {
    target: &'p ChangeTarget,
    checks: StatementChecks,
    output: Option<Output<'p>>,
    /// The ids of the rows written, for a view's CHECK OPTION.
    written: Vec<RowId>,
}

impl Writer<'_> {
    /// Writes one row (see [`write`]) and shows it in OUTPUT.
    fn row(
        &mut self,
        context: &Context,
        sink: &mut dyn ResultSink,
        given: Vec<Option<Value>>,
    ) -> SqlResult<()> {
        let (id, row) = write(context, &self.target.table, &self.checks, given)?;
        if self.target.checks() {
            self.written.push(id);
        }
        match &self.output {
            Some(output) => {
                let inserted = self.target.shown(&row, None);
                output.row(context, sink, Some(&inserted), None, &[])
            }
            None => Ok(()),
        }
    }

    /// The statement's rows are written: the checks that wait for all of
    /// them.
    fn finish(&self, context: &Context) -> SqlResult<()> {
        self.checks.finish(context)?;
        super::target::check_option(context, self.target, &self.written)?;
        match &self.output {
            Some(output) => output.finish(context),
            None => Ok(()),
        }
    }
}

/// Inserts one row; columns not given (or given DEFAULT) take their
/// default or NULL, the IDENTITY column its next value. The row written
/// and its id.
pub(super) fn write(
    context: &Context,
    table: &TableMeta,
    checks: &StatementChecks,
    given: Vec<Option<Value>>,
) -> SqlResult<(RowId, Vec<Value>)> {
    let inputs = Inputs::top(context);
    let identity = table.identity.as_ref().map(|identity| identity.column);
    let values = given
        .into_iter()
        .zip(&table.columns)
        .enumerate()
        .map(
            |(position, (value, column))| match (value, &column.default) {
                (Some(value), _) if identity == Some(position) => {
                    // Only with IDENTITY_INSERT ON (checked_targets).
                    let identity = table.identity.as_ref().expect("the table has one");
                    identity.given(context.engine(), &value)?;
                    Ok(value)
                }
                (Some(value), _) => Ok(value),
                (None, _) if identity == Some(position) => {
                    let identity = table.identity.as_ref().expect("the table has one");
                    let value = identity.next(context.engine())?;
                    context.last_identity.set(Some(value.clone()));
                    Ok(value)
                }
                (None, Some(default)) => default.eval(&inputs),
                (None, None) => Ok(Value::Null),
            },
        )
        .collect::<SqlResult<Vec<Value>>>()?;
    let values = with_computed(context, table, values)?;
    let id = context.transaction()?.insert(&table.engine, &values)?;
    checks.inserted(context, &values)?;
    Ok((id, values))
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
