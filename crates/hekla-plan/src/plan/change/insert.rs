//! Planning INSERT (run by `exec::insert`): the target and the columns
//! written, the source's values bound and converted to their columns'
//! types once. The column list is checked here: Msg 264 for a column
//! named twice, 271 for a computed one, 544/545 for the IDENTITY column
//! and IDENTITY_INSERT, 8101 for a value for it without a column list,
//! 109/110 (VALUES) and 120/121 (a query) for a count that does not
//! match. Through a view, the row goes into the one table the view shows
//! (`plan::view_change`), its columns the view does not show taking
//! their defaults.

use super::target::{written, Target};
use super::{InsertPlan, InsertSource, Verb};
use crate::bind::expr::{implicit, Scalar, ScalarKind};
use crate::catalog::table::TableMeta;
use crate::error::{not_supported_yet, Refused};
use crate::permission::Permission;
use crate::plan::query::untyped_null;
use crate::plan::view_change::{Change, Shows, ViewChange};
use crate::plan::Planner;
use crate::session_options::SetOptions;
use hekla_parser::ast::{self, DmlTarget, ExprKind};
use hekla_types::{SqlError, SqlResult, Value};

impl Planner<'_> {
    /// Plans `insert`.
    pub fn insert(&self, insert: &ast::Insert) -> SqlResult<InsertPlan> {
        self.take_hints(&insert.hints)?;
        let target = self.insert_target(insert)?;
        let columns = match &target {
            Target::Table(table) => target_columns(table, &insert.columns, &self.options)?,
            Target::View(view) => view_target_columns(view, &insert.columns, &self.options)?,
        };
        let output = super::output::bind(self, &insert.output, Verb::Insert, &target, &[])?;
        // Without a column list, one value too many is the IDENTITY column's.
        let explicit_identity = |given: usize| {
            if identity_left_out(&target, &insert.columns) && given == columns.len() + 1 {
                return Some(SqlError::new(
                    8101,
                    16,
                    1,
                    format!(
                        "An explicit value for the identity column in table '{}' can only be specified when a column list is used and IDENTITY_INSERT is ON.",
                        written(&insert.target)
                    ),
                ));
            }
            None
        };
        let table = target.table();
        let source = match &insert.source {
            ast::InsertSource::Values(rows) => {
                for row in rows {
                    if row.len() != columns.len() {
                        if let Some(error) = explicit_identity(row.len()) {
                            return Err(error);
                        }
                        return Err(count_mismatch(row.len() > columns.len()));
                    }
                }
                let binder = self.binder(None);
                let row = |row: &Vec<ast::Expr>| {
                    row.iter()
                        .zip(&columns)
                        .map(|(expr, &column)| match expr.kind {
                            ExprKind::Default => Ok(None),
                            _ => {
                                let stored = self.stored_type(&table.columns[column].data_type);
                                implicit(binder.scalar(expr)?, &stored).map(Some)
                            }
                        })
                        .collect::<SqlResult<Vec<_>>>()
                };
                InsertSource::Values(rows.iter().map(row).collect::<SqlResult<_>>()?)
            }
            ast::InsertSource::DefaultValues => InsertSource::DefaultValues,
            ast::InsertSource::Query(query) => {
                let plan = self.insert_source(query)?;
                if plan.columns.len() != columns.len() {
                    if let Some(error) = explicit_identity(plan.columns.len()) {
                        return Err(error);
                    }
                    return Err(select_count_mismatch(plan.columns.len() > columns.len()));
                }
                // Each source column converted to its target column's type;
                // a bare NULL (`SELECT 1, NULL`) goes into any column, as it
                // does from VALUES.
                let converters = plan
                    .columns
                    .iter()
                    .zip(&columns)
                    .enumerate()
                    .map(|(index, (column, &target))| {
                        let read = if untyped_null(&plan.root, index) {
                            Scalar {
                                kind: ScalarKind::Constant(Value::Null),
                                data_type: column.data_type,
                            }
                        } else {
                            Scalar {
                                kind: ScalarKind::Column(index),
                                data_type: column.data_type,
                            }
                        };
                        implicit(read, &self.stored_type(&table.columns[target].data_type))
                    })
                    .collect::<SqlResult<Vec<_>>>()?;
                InsertSource::Query {
                    plan: Box::new(plan),
                    converters,
                }
            }
            ast::InsertSource::Exec(_) | ast::InsertSource::ExecString(_) => {
                return Err(not_supported_yet(Refused::Statement, "INSERT ... EXEC"))
            }
        };
        Ok(InsertPlan {
            target: target.into_plan(self)?,
            columns,
            source,
            output,
        })
    }

    /// The table or view an INSERT writes, its table hints checked.
    fn insert_target(&self, insert: &ast::Insert) -> SqlResult<Target> {
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
                let target = Target::named(self, name, change)?;
                target.authorize(self, Permission::Insert)?;
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
                Ok(target)
            }
            DmlTarget::Variable(name) => Ok(Target::Table(self.variables.writable_table(name)?)),
        }
    }
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
