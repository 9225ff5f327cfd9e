//! OUTPUT clauses of INSERT, UPDATE and DELETE: `OUTPUT inserted.col,
//! deleted.*, expr AS name` returns one row per changed row to the client,
//! `OUTPUT ... INTO @t|table [(columns)]` inserts it into a table (both
//! may be given, INTO first). `inserted` is the row as written (defaults
//! and IDENTITY values included), `deleted` the row before the change;
//! UPDATE and DELETE may also read the other tables of their FROM clause.
//! Rows go out as the statement writes them, so a statement that fails
//! half-way has sent some (SQL Server says the same of its OUTPUT).
//!
//! The table of OUTPUT INTO takes no part in a FOREIGN KEY (Msg 332) and
//! has no CHECK constraint (333); its IDENTITY column is skipped when no
//! column list is given, as in INSERT.
//!
//! Through a view, `inserted` and `deleted` have the view's columns.
//! `deleted` is the view's row as the statement read it; `inserted` shows
//! the changed table's new values, and an UPDATE's other tables' values as
//! read. What the view computes is not computed again after the change:
//! naming such a column in `inserted` is refused (Msg 10794).

use super::constraints::{Statement, StatementChecks};
use super::context::Context;
use super::eval::Inputs;
use super::text_size::TextSize;
use crate::bind::expr::{implicit, Binder, Scalar, ScalarKind, Scope, ScopeColumn};
use crate::catalog::table::TableMeta;
use crate::catalog::view::change::{Shows, ViewChange};
use crate::error::{not_supported_yet, Refused};
use crate::plan::query::result_column;
use crate::plan::Planner;
use crate::result::{ResultColumn, ResultSink};
use crate::security::permissions::Permission;
use hekla_parser::ast::{self, SelectItem};
use hekla_types::{DataType, SqlError, SqlResult, Value};
use std::sync::Arc;

/// Which statement the clause belongs to: which of `inserted` and
/// `deleted` it may read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verb {
    Insert,
    Update,
    Delete,
}

impl Verb {
    fn has_inserted(self) -> bool {
        self != Verb::Delete
    }

    fn has_deleted(self) -> bool {
        self != Verb::Insert
    }
}

/// A column of `inserted` and `deleted`.
pub struct PseudoColumn {
    name: String,
    data_type: DataType,
    /// Whether `inserted` knows its value.
    after_change: bool,
}

impl PseudoColumn {
    /// The columns of a table changed directly.
    pub fn of_table(table: &TableMeta) -> Vec<PseudoColumn> {
        table
            .columns
            .iter()
            .map(|column| PseudoColumn {
                name: column.name.clone(),
                data_type: column.data_type,
                after_change: true,
            })
            .collect()
    }

    /// The columns of a view a statement (`verb`) changes a table through.
    pub fn of_view(view: &ViewChange, verb: Verb) -> Vec<PseudoColumn> {
        view.top
            .columns
            .iter()
            .map(|column| PseudoColumn {
                name: column.name.clone(),
                data_type: column.data_type,
                after_change: match column.shows {
                    Shows::Column(_) => true,
                    // Other tables keep their rows; an INSERT read none.
                    Shows::Other => verb == Verb::Update,
                    Shows::Derived => false,
                },
            })
            .collect()
    }
}

/// A bound OUTPUT clause (one or both of its forms).
pub struct Output {
    verb: Verb,
    client: Option<(Vec<ResultColumn>, Vec<Scalar>)>,
    into: Option<IntoTable>,
}

/// `OUTPUT ... INTO table`: each expression converted to its column.
struct IntoTable {
    table: Arc<TableMeta>,
    columns: Vec<usize>,
    values: Vec<Scalar>,
    checks: StatementChecks,
}

impl Output {
    /// Binds `clauses` of a statement whose `inserted` and `deleted` have
    /// the columns `shown`; `from` is the scope of an UPDATE's or DELETE's
    /// FROM clause (empty for INSERT), in which the target's own columns
    /// can only be read as `inserted` or `deleted` (their names and table
    /// are blanked). None without clauses.
    pub fn bind(
        planner: &Planner,
        clauses: &[ast::OutputClause],
        verb: Verb,
        shown: &[PseudoColumn],
        from: &[ScopeColumn],
    ) -> SqlResult<Option<Output>> {
        if clauses.is_empty() {
            return Ok(None);
        }
        let pseudo = |table: &str| -> Vec<ScopeColumn> {
            shown
                .iter()
                .map(|column| ScopeColumn {
                    table: table.to_string(),
                    schema: String::new(),
                    name: column.name.clone(),
                    data_type: column.data_type,
                    used: Default::default(),
                })
                .collect()
        };
        let mut columns: Vec<ScopeColumn> = Vec::new();
        if verb.has_inserted() {
            columns.extend(pseudo("inserted"));
        }
        if verb.has_deleted() {
            columns.extend(pseudo("deleted"));
        }
        columns.extend(from.iter().cloned());
        let binder = Binder {
            scope: Scope { columns },
            ..super::variables::binder(planner)
        };
        let mut output = Output {
            verb,
            client: None,
            into: None,
        };
        for clause in clauses {
            let (names, values) = project(&binder, &clause.items)?;
            if verb.has_inserted() {
                refuse_unknown_after(&binder.scope.columns, shown)?;
            }
            match &clause.into {
                None => {
                    let columns = names
                        .into_iter()
                        .zip(&values)
                        .map(|(name, value)| result_column(name, value.data_type))
                        .collect();
                    output.client = Some((columns, values));
                }
                Some((target, names)) => {
                    output.into = Some(IntoTable::bind(planner, target, names, values)?);
                }
            }
        }
        Ok(Some(output))
    }

    /// Sends the client's column metadata, before any row.
    pub fn start(&self, sink: &mut dyn ResultSink) {
        if let Some((columns, _)) = &self.client {
            sink.columns(columns);
        }
    }

    /// One changed row: `inserted` and `deleted` are the target's row
    /// after and before, `from` the FROM clause's row.
    pub fn row(
        &self,
        context: &Context,
        sink: &mut dyn ResultSink,
        inserted: Option<&[Value]>,
        deleted: Option<&[Value]>,
        from: &[Value],
    ) -> SqlResult<()> {
        let mut row: Vec<Value> = Vec::new();
        if self.verb.has_inserted() {
            row.extend_from_slice(inserted.unwrap_or_default());
        }
        if self.verb.has_deleted() {
            row.extend_from_slice(deleted.unwrap_or_default());
        }
        row.extend_from_slice(from);
        let inputs = Inputs::top(context).with_row(&row);
        if let Some(into) = &self.into {
            let mut given: Vec<Option<Value>> = vec![None; into.table.columns.len()];
            for (value, &column) in into.values.iter().zip(&into.columns) {
                given[column] = Some(value.eval(&inputs)?);
            }
            super::insert::write(context, &into.table, &into.checks, given)?;
        }
        if let Some((columns, values)) = &self.client {
            let values = values
                .iter()
                .map(|value| value.eval(&inputs))
                .collect::<SqlResult<Vec<Value>>>()?;
            context.send_row(
                sink,
                &TextSize::new(columns, context.options.text_size).fit(&values),
            )?;
        }
        Ok(())
    }

    /// The statement's writes are done: the OUTPUT INTO table's checks.
    pub fn finish(&self, context: &Context) -> SqlResult<()> {
        match &self.into {
            Some(into) => into.checks.finish(context),
            None => Ok(()),
        }
    }
}

/// Msg 10794 for `inserted` naming a view column whose value after the
/// change is not known (`scope` starts with `inserted`'s columns).
fn refuse_unknown_after(scope: &[ScopeColumn], shown: &[PseudoColumn]) -> SqlResult<()> {
    match scope
        .iter()
        .zip(shown)
        .find(|(column, pseudo)| column.used.get() && !pseudo.after_change)
    {
        Some((column, _)) => Err(not_supported_yet(
            Refused::Statement,
            format!(
                "OUTPUT inserted.{} of a view column that is not a column of the table changed",
                column.name
            ),
        )),
        None => Ok(()),
    }
}

impl IntoTable {
    fn bind(
        planner: &Planner,
        target: &ast::DmlTarget,
        names: &[ast::Ident],
        values: Vec<Scalar>,
    ) -> SqlResult<IntoTable> {
        if let ast::DmlTarget::Table { hints, .. } = target {
            if !hints.is_empty() {
                return Err(not_supported_yet(
                    Refused::Statement,
                    "table hints on OUTPUT INTO",
                ));
            }
        }
        let table =
            crate::catalog::temp::resolve_target(planner.context, planner.variables, target)?;
        // Rows go into the table as an INSERT puts them.
        if let (Some(access), ast::DmlTarget::Table { name, .. }) = (&planner.access, target) {
            planner
                .context
                .require_named(access, Permission::Insert, name)?;
        }
        let written = match target {
            ast::DmlTarget::Table { name, .. } => crate::catalog::sequence::written(name),
            ast::DmlTarget::Variable(name) => format!("@{name}"),
        };
        let referencing = planner.context.catalog().referencing_keys(table.object_id);
        let foreign_key = table
            .foreign_keys
            .first()
            .map(|key| key.name.clone())
            .or_else(|| {
                referencing
                    .first()
                    .map(|(other, position)| other.foreign_keys[*position].name.clone())
            });
        if let Some(key) = foreign_key {
            return Err(SqlError::new(
                332,
                16,
                1,
                format!("The target table '{written}' of the OUTPUT INTO clause cannot be on either side of a (primary key, foreign key) relationship. Found reference constraint '{key}'."),
            ));
        }
        if let Some(check) = table.checks.first() {
            return Err(SqlError::new(
                333,
                16,
                1,
                format!("The target table '{written}' of the OUTPUT INTO clause cannot have any enabled check constraints or any enabled rules. Found check constraint or rule '{}'.", check.name),
            ));
        }
        let columns = super::insert::target_columns(&table, names, &planner.options)?;
        if columns.len() != values.len() {
            return Err(SqlError::new(
                213,
                16,
                1,
                "Column name or number of supplied values does not match table definition.",
            ));
        }
        let values = values
            .into_iter()
            .zip(&columns)
            .map(|(value, &column)| {
                implicit(
                    value,
                    &planner.stored_type(&table.columns[column].data_type),
                )
            })
            .collect::<SqlResult<Vec<_>>>()?;
        let checks = StatementChecks::new(planner.context, &table, Statement::Insert);
        Ok(IntoTable {
            table,
            columns,
            values,
            checks,
        })
    }
}

/// The clause's items: names and expressions; `inserted.*` and
/// `deleted.*` (or a FROM table's `t.*`) stand for their columns.
fn project(binder: &Binder, items: &[SelectItem]) -> SqlResult<(Vec<String>, Vec<Scalar>)> {
    let mut names = Vec::new();
    let mut values = Vec::new();
    for item in items {
        match item {
            SelectItem::Expr { expr, alias, .. } => {
                values.push(binder.scalar(expr)?);
                names.push(match (alias, &expr.kind) {
                    (Some(alias), _) => alias.value.clone(),
                    (None, ast::ExprKind::Column(parts)) => {
                        parts.last().map_or(String::new(), |p| p.value.clone())
                    }
                    _ => String::new(),
                });
            }
            SelectItem::Wildcard {
                qualifier: Some(qualifier),
                ..
            } => {
                let table = &qualifier.name().value;
                let mut matched = false;
                for (index, column) in binder.scope.columns.iter().enumerate() {
                    if column.name.is_empty() || !column.table.eq_ignore_ascii_case(table) {
                        continue;
                    }
                    matched = true;
                    column.used.set(true);
                    names.push(column.name.clone());
                    values.push(Scalar {
                        kind: ScalarKind::Column(index),
                        data_type: column.data_type,
                    });
                }
                if !matched {
                    return Err(SqlError::new(
                        4104,
                        16,
                        1,
                        format!("The multi-part identifier \"{table}\" could not be bound."),
                    ));
                }
            }
            SelectItem::Wildcard { .. } => {
                return Err(SqlError::new(102, 15, 1, "Incorrect syntax near '*'."));
            }
            SelectItem::Assign { .. } => {
                return Err(not_supported_yet(
                    Refused::Statement,
                    "variable assignment in OUTPUT",
                ));
            }
        }
    }
    Ok((names, values))
}
