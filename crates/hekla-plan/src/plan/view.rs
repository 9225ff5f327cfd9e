//! Views named in queries: each is bound again where it is used, as a
//! derived table called by the view's name or alias, in a frame of
//! `catalog::binding` (self-reference, nesting, schema binding), so that it
//! always sees the current tables. The view's model is `catalog::view`.

use crate::bind::expr::ScopeColumn;
use crate::bind::variables::Variables;
use crate::catalog::binding::{Frame, ModuleKind};
use crate::catalog::view::{parse_definition, ViewMeta};
use crate::names::DATABASE_NAME;
use crate::plan::context::PlanContext;
use crate::plan::query::BindState;
use crate::plan::{Planner, QueryPlan};
use crate::result::ResultColumn;
use crate::session_options::SetOptions;
use hekla_parser::ast;
use hekla_types::{SqlError, SqlResult};
use std::rc::Rc;
use std::sync::Arc;

/// The view `name` names, if it names one, bound (within the naming
/// statement's `state`) as a derived table known as `shown`: its plan and
/// the columns it adds to the FROM clause.
pub fn expand(
    db: &dyn PlanContext,
    state: &Rc<BindState>,
    name: &ast::ObjectName,
    shown: &str,
) -> SqlResult<Option<(QueryPlan, Vec<ScopeColumn>)>> {
    let Some((view, schema)) = find(db, name) else {
        return Ok(None);
    };
    let (plan, columns) = state.modules.expand(
        name,
        ModuleKind::View,
        view.object_id,
        &view.name,
        view.schemabinding,
        || bind_stored(db, state, &view, true),
    )?;
    let scope = columns
        .into_iter()
        .map(|column| ScopeColumn {
            table: shown.to_string(),
            schema: schema.clone(),
            name: column.name,
            data_type: column.data_type,
            used: Default::default(),
        })
        .collect();
    Ok(Some((plan, scope)))
}

/// The view `name` names, if it names one, and the name of its schema.
pub fn find(db: &dyn PlanContext, name: &ast::ObjectName) -> Option<(Arc<ViewMeta>, String)> {
    if name.other_database(DATABASE_NAME).is_some() {
        return None;
    }
    let catalog = db.catalog();
    let written = name.schema().map_or("dbo", |s| s.value.as_str());
    let schema_id = catalog.schema_id(written)?;
    let view = catalog.views.get(schema_id, &name.name().value)?;
    let schema = catalog.schema_name(schema_id).unwrap_or(written);
    Some((Arc::clone(view), schema.to_string()))
}

/// Runs `body`, which binds `view`'s query, in the view's frame on
/// `state` (after `Modules::enter` allowed it).
pub fn within<T>(
    state: &BindState,
    view: &ViewMeta,
    body: impl FnOnce() -> SqlResult<T>,
) -> SqlResult<T> {
    let frame = Frame::new(ModuleKind::View, Some(view.object_id), &view.name, false);
    state.modules.in_frame(frame, body).map(|(value, _)| value)
}

/// Binds a catalog view's stored query; `at_use` says a query names it
/// (rather than the catalog binding it after an open).
pub fn bind_stored(
    db: &dyn PlanContext,
    state: &Rc<BindState>,
    view: &ViewMeta,
    at_use: bool,
) -> SqlResult<(QueryPlan, Vec<ResultColumn>)> {
    let create = parse_definition(&view.definition, view.object_id)?;
    let plan = plan_query(db, state, &create.query)?;
    let columns = module_columns(&plan, &view.declared, &view.name, at_use, ModuleKind::View)?;
    Ok((plan, columns))
}

/// Plans a view's query: no variables (Msg 137 for any), no outer query,
/// bound as under the default SET options (ANSI_NULLS ON, as a view
/// created with it keeps it in SQL Server), within `state`.
pub fn plan_query(
    db: &dyn PlanContext,
    state: &Rc<BindState>,
    query: &ast::Query,
) -> SqlResult<QueryPlan> {
    let variables = Variables::default();
    Planner::new(db, &variables, SetOptions::default())
        .sharing(state)
        .derived(query, None)
}

/// A view's or inline function's columns: its query's, named by the
/// column list if there is one (views only). Every one named (4511, an
/// inline function's 4514) and unique (4506); a column list of the wrong
/// length is 8158/8159 at CREATE, 4502 or 8158 when used.
pub fn module_columns(
    plan: &QueryPlan,
    declared: &[String],
    view: &str,
    at_use: bool,
    kind: ModuleKind,
) -> SqlResult<Vec<ResultColumn>> {
    if !declared.is_empty() && declared.len() != plan.columns.len() {
        if declared.len() < plan.columns.len() {
            return Err(SqlError::new(
                8158,
                16,
                1,
                format!("'{view}' has more columns than were specified in the column list."),
            ));
        }
        if at_use {
            return Err(SqlError::new(
                4502,
                16,
                1,
                format!("View or function '{view}' has more column names specified than columns defined."),
            ));
        }
        return Err(SqlError::new(
            8159,
            16,
            1,
            format!("'{view}' has fewer columns than were specified in the column list."),
        ));
    }
    let mut columns: Vec<ResultColumn> = Vec::with_capacity(plan.columns.len());
    for (position, column) in plan.columns.iter().enumerate() {
        let name = declared.get(position).unwrap_or(&column.name);
        if name.is_empty() {
            return Err(match kind {
                ModuleKind::View => SqlError::new(
                    4511,
                    16,
                    1,
                    format!(
                        "Create View or Function failed because no column name was specified for column {}.",
                        position + 1
                    ),
                ),
                ModuleKind::Function => SqlError::new(
                    4514,
                    16,
                    1,
                    format!(
                        "CREATE FUNCTION failed because a column name is not specified for column {}.",
                        position + 1
                    ),
                ),
            });
        }
        if columns.iter().any(|c| c.name.eq_ignore_ascii_case(name)) {
            return Err(SqlError::new(
                4506,
                16,
                1,
                format!("Column names in each view or function must be unique. Column name '{name}' in view or function '{view}' is specified more than once."),
            ));
        }
        columns.push(ResultColumn {
            name: name.clone(),
            data_type: column.data_type,
            nullable: column.nullable,
        });
    }
    Ok(columns)
}
