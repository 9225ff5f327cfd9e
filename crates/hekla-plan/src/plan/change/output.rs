//! Binding OUTPUT clauses of INSERT, UPDATE and DELETE (run by
//! `exec::output`): `OUTPUT inserted.col, deleted.*, expr AS name`
//! returns one row per changed row to the client, `OUTPUT ... INTO
//! @t|table [(columns)]` inserts it into a table (both may be given, INTO
//! first). `inserted` is the row as written (defaults and IDENTITY values
//! included), `deleted` the row before the change; UPDATE and DELETE may
//! also read the other tables of their FROM clause.
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

use super::target::{written, Target};
use super::{OutputInto, OutputPlan, Verb};
use crate::bind::expr::{implicit, Binder, Scalar, ScalarKind, Scope, ScopeColumn};
use crate::error::{not_supported_yet, Refused};
use crate::permission::Permission;
use crate::plan::query::result_column;
use crate::plan::view_change::Shows;
use crate::plan::Planner;
use hekla_parser::ast::{self, SelectItem};
use hekla_types::{DataType, SqlError, SqlResult};

/// A column of `inserted` and `deleted`.
struct PseudoColumn {
    name: String,
    data_type: DataType,
    /// Whether `inserted` knows its value.
    after_change: bool,
}

impl Target {
    /// The columns of `inserted` and `deleted` in a statement `verb`.
    fn pseudo_columns(&self, verb: Verb) -> Vec<PseudoColumn> {
        match self {
            Target::Table(table) => table
                .columns
                .iter()
                .map(|column| PseudoColumn {
                    name: column.name.clone(),
                    data_type: column.data_type,
                    after_change: true,
                })
                .collect(),
            Target::View(view) => view
                .top
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
                .collect(),
        }
    }
}

/// Binds `clauses` of a statement `verb` that changes `target`; `from`
/// is the scope of an UPDATE's or DELETE's row found (empty for INSERT),
/// in which the target's own columns can only be read as `inserted` or
/// `deleted` (their names and table are blanked). None without clauses.
pub(super) fn bind(
    planner: &Planner,
    clauses: &[ast::OutputClause],
    verb: Verb,
    target: &Target,
    from: &[ScopeColumn],
) -> SqlResult<Option<OutputPlan>> {
    if clauses.is_empty() {
        return Ok(None);
    }
    let shown = target.pseudo_columns(verb);
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
        ..planner.binder(None)
    };
    let mut output = OutputPlan {
        verb,
        client: None,
        into: None,
    };
    for clause in clauses {
        let (names, values) = project(&binder, &clause.items)?;
        if verb.has_inserted() {
            refuse_unknown_after(&binder.scope.columns, &shown)?;
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
                output.into = Some(bind_into(planner, target, names, values)?);
            }
        }
    }
    Ok(Some(output))
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

/// `OUTPUT ... INTO target (names)` of `values`.
fn bind_into(
    planner: &Planner,
    target: &ast::DmlTarget,
    names: &[ast::Ident],
    values: Vec<Scalar>,
) -> SqlResult<OutputInto> {
    if let ast::DmlTarget::Table { hints, .. } = target {
        if !hints.is_empty() {
            return Err(not_supported_yet(
                Refused::Statement,
                "table hints on OUTPUT INTO",
            ));
        }
    }
    let table = crate::plan::context::resolve_target(planner.context, planner.variables, target)?;
    // Rows go into the table as an INSERT puts them.
    if let (Some(access), ast::DmlTarget::Table { name, .. }) = (&planner.access, target) {
        planner
            .context
            .require_named(access, Permission::Insert, name)?;
    }
    let written = written(target);
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
    Ok(OutputInto {
        table,
        columns,
        values,
    })
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
