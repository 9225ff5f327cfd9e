//! INSERT: rows from VALUES, a query or DEFAULT VALUES into one table, in
//! the statement's transaction so the statement is all or nothing. Values
//! convert to their columns as an assignment does: the engine raises 515
//! for NULL into NOT NULL, 2628 for a value longer than its column,
//! 2627/2601 for a duplicate key. An IDENTITY column takes its next value
//! in every row (giving it a value is Msg 544, or 8101 without a column
//! list); CHECK and FOREIGN KEY constraints are checked per row and at the
//! end (see `constraints`). Through a view, the row goes into the one
//! table the view shows (`catalog::view::change`), its columns the view
//! does not show taking their defaults.

use super::constraints::{Statement, StatementChecks};
use super::context::Context;
use super::eval::Inputs;
use super::output::{Output, Verb};
use super::run::for_each;
use super::target::Target;
use crate::bind::expr::{implicit, Scalar, ScalarKind};
use crate::catalog::table::TableMeta;
use crate::catalog::view::change::{Change, Shows, ViewChange};
use crate::error::{not_supported_yet, Refused};
use crate::plan::Planner;
use crate::result::ResultSink;
use crate::security::permissions::Permission;
use crate::session_options::SetOptions;
use hekla_engine::RowId;
use hekla_parser::ast::{self, DmlTarget, ExprKind, InsertSource};
use hekla_types::{SqlError, SqlResult, Value};

pub fn run(
    context: &Context,
    planner: &Planner,
    insert: &ast::Insert,
    sink: &mut dyn ResultSink,
) -> SqlResult<Option<u64>> {
    planner.take_hints(&insert.hints)?;
    let (name, target) = insert_target(planner, insert)?;
    let table = target.table();
    context.check_access(table)?;
    let targets = match &target {
        Target::Table(table) => target_columns(table, &insert.columns, &context.options)?,
        Target::View(view) => view_target_columns(view, &insert.columns, &context.options)?,
    };
    let pseudo = target.pseudo_columns(Verb::Insert);
    let output = Output::bind(planner, &insert.output, Verb::Insert, &pseudo, &[])?;
    // Without a column list, one value too many is the IDENTITY column's.
    let explicit_identity = |given: usize| {
        if identity_left_out(&target, &insert.columns) && given == targets.len() + 1 {
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
    let mut writer = Writer {
        target: &target,
        checks: StatementChecks::new(context.db, table, Statement::Insert),
        output,
        written: Vec::new(),
    };
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
            writer.start(sink);
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
                writer.row(context, sink, given)?;
            }
            limit as u64
        }
        InsertSource::DefaultValues => {
            writer.start(sink);
            writer.row(context, sink, vec![None; table.columns.len()])?;
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
            writer.start(sink);
            let mut count = 0;
            for_each(&plan.root, &inputs, &mut |row| {
                context.check_cancel()?;
                let mut given: Vec<Option<Value>> = vec![None; table.columns.len()];
                let row_inputs = inputs.with_row(row);
                for (converter, &column) in converters.iter().zip(&targets) {
                    given[column] = Some(converter.eval(&row_inputs)?);
                }
                writer.row(context, sink, given)?;
                count += 1;
                Ok(())
            })?;
            count
        }
        InsertSource::Exec(_) | InsertSource::ExecString(_) => {
            return Err(not_supported_yet(Refused::Statement, "INSERT ... EXEC"))
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
    let checks = StatementChecks::new(context.db, table, Statement::Insert);
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
                    true => crate::bind::expr::assignment_type(&column.data_type),
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
struct Writer<'t> {
    target: &'t Target,
    checks: StatementChecks,
    output: Option<Output>,
    /// The ids of the rows written, for a view's CHECK OPTION.
    written: Vec<RowId>,
}

impl Writer<'_> {
    /// OUTPUT's column metadata, once the statement is known to run.
    fn start(&self, sink: &mut dyn ResultSink) {
        if let Some(output) = &self.output {
            output.start(sink);
        }
    }

    /// Writes one row (see [`write`]) and shows it in OUTPUT.
    fn row(
        &mut self,
        context: &Context,
        sink: &mut dyn ResultSink,
        given: Vec<Option<Value>>,
    ) -> SqlResult<()> {
        let (id, row) = write(context, self.target.table(), &self.checks, given)?;
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
        self.target.check(context, &self.written)?;
        match &self.output {
            Some(output) => output.finish(context),
            None => Ok(()),
        }
    }
}

/// The table or view an INSERT writes, with its name as written (`@t`
/// for a table variable); its table hints checked.
pub(super) fn insert_target(
    planner: &Planner,
    insert: &ast::Insert,
) -> SqlResult<(String, Target)> {
    if !insert.with.is_empty() || insert.top.is_some() {
        return Err(not_supported_yet(
            Refused::Statement,
            "INSERT with WITH or TOP",
        ));
    }
    let named: Vec<String> = insert.columns.iter().map(|c| c.value.clone()).collect();
    let change = if named.is_empty() {
        Change::AllColumns
    } else {
        Change::Columns(&named)
    };
    match &insert.target {
        DmlTarget::Table { name, hints } => {
            let written = crate::catalog::sequence::written(name);
            let target = Target::named(planner, name, change)?;
            target.authorize(planner, Permission::Insert)?;
            // The hints are checked; an INSERT reads nothing to isolate.
            match &target {
                Target::Table(table) => {
                    crate::plan::table_hints::isolation_hint(hints, table)?;
                }
                Target::View(_) if !hints.is_empty() => {
                    return Err(not_supported_yet(
                        Refused::Statement,
                        "table hints on INSERT through a view",
                    ));
                }
                Target::View(_) => {}
            }
            Ok((written, target))
        }
        DmlTarget::Variable(name) => {
            let table = crate::catalog::temp::writable_variable(planner.variables, name)?;
            Ok((format!("@{name}"), Target::Table(table)))
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
                    identity.given(context.db.engine(), &value)?;
                    Ok(value)
                }
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
/// the IDENTITY and computed columns. Naming the IDENTITY column is Msg
/// 544 unless `SET IDENTITY_INSERT` is ON for the table, which then
/// requires it (Msg 545).
pub(super) fn target_columns(
    table: &TableMeta,
    named: &[ast::Ident],
    options: &SetOptions,
) -> SqlResult<Vec<usize>> {
    if named.is_empty() {
        return Ok((0..table.columns.len())
            .filter(|&position| written_by_default(table, position))
            .collect());
    }
    checked_targets(
        table,
        options,
        named.iter().map(|ident| {
            let position = table
                .columns
                .iter()
                .position(|c| c.name.eq_ignore_ascii_case(&ident.value))
                .ok_or_else(|| invalid_column(&ident.value))?;
            Ok((position, ident.value.as_str()))
        }),
    )
}

/// The changed table's column positions in VALUES order for an INSERT
/// through a view: those the view columns named show, or without a list
/// those every view column shows but the IDENTITY and computed columns.
fn view_target_columns(
    view: &ViewChange,
    named: &[ast::Ident],
    options: &SetOptions,
) -> SqlResult<Vec<usize>> {
    let columns = &view.top.columns;
    if named.is_empty() {
        return Ok(columns
            .iter()
            .filter_map(|column| match column.shows {
                Shows::Column(position) if written_by_default(&view.table, position) => {
                    Some(position)
                }
                _ => None,
            })
            .collect());
    }
    checked_targets(
        &view.table,
        options,
        named.iter().map(|ident| {
            let index = columns
                .iter()
                .position(|c| c.name.eq_ignore_ascii_case(&ident.value))
                .ok_or_else(|| invalid_column(&ident.value))?;
            Ok((view.top.table_column(index)?, ident.value.as_str()))
        }),
    )
}

/// Whether an INSERT without a column list writes the column at
/// `position`: not the IDENTITY column, nor a computed one.
fn written_by_default(table: &TableMeta, position: usize) -> bool {
    let identity = table.identity.as_ref().map(|identity| identity.column);
    Some(position) != identity && table.columns[position].computed.is_none()
}

/// Whether an INSERT without a column list leaves out an IDENTITY column
/// its target shows (a value too many is then for it, Msg 8101).
fn identity_left_out(target: &Target, named: &[ast::Ident]) -> bool {
    let Some(identity) = target.table().identity.as_ref().map(|i| i.column) else {
        return false;
    };
    named.is_empty()
        && match target {
            Target::Table(_) => true,
            Target::View(view) => view
                .top
                .columns
                .iter()
                .any(|column| column.shows == Shows::Column(identity)),
        }
}

/// The positions of `columns` (each with the name the statement gave it),
/// checked in turn: Msg 264 for one given twice, 271 for a computed one;
/// then 544 if the IDENTITY column is among them without IDENTITY_INSERT,
/// 545 if it is not among them with it.
fn checked_targets<'n>(
    table: &TableMeta,
    options: &SetOptions,
    columns: impl Iterator<Item = SqlResult<(usize, &'n str)>>,
) -> SqlResult<Vec<usize>> {
    let mut targets: Vec<usize> = Vec::new();
    for column in columns {
        let (position, name) = column?;
        if targets.contains(&position) {
            return Err(assigned_twice(name));
        }
        computed_written(table, position)?;
        targets.push(position);
    }
    let identity = table.identity.as_ref().map(|identity| identity.column);
    let given = identity.is_some_and(|c| targets.contains(&c));
    let allowed = options.identity_insert == Some(table.object_id);
    if allowed && !given {
        return Err(SqlError::new(
            545,
            16,
            1,
            format!(
                "Explicit value must be specified for identity column in table '{}' either when IDENTITY_INSERT is set to ON or when a replication user is inserting into a NOT FOR REPLICATION identity column.",
                table.name
            ),
        ));
    }
    if given && !allowed {
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

/// Msg 264: `name` is given a value twice in one SET clause or column
/// list.
pub(super) fn assigned_twice(name: &str) -> SqlError {
    SqlError::new(
        264,
        16,
        1,
        format!(
            "The column name '{name}' is specified more than once in the SET clause or column list of an INSERT. A column cannot be assigned more than one value in the same clause. Modify the clause to make sure that a column is updated only once. If this statement updates or inserts columns into a view, column aliasing can conceal the duplication in your code."
        ),
    )
}

/// Msg 207.
pub(super) fn invalid_column(name: &str) -> SqlError {
    SqlError::new(207, 16, 1, format!("Invalid column name '{name}'."))
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
