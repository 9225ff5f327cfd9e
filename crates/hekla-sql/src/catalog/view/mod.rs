//! Views: `CREATE VIEW [schema.]name [(columns)] [WITH SCHEMABINDING] AS
//! query`, `ALTER VIEW`, `CREATE OR ALTER VIEW`, `DROP VIEW [IF EXISTS]`,
//! and views named in queries.
//!
//! A view is its definition: the CREATE text is stored like every object's
//! ([`super::store`]) and its query is bound when the view is created (to
//! validate it and learn its columns) and again each time a query names
//! it, as a derived table called by the view's name or alias, so that it
//! always sees the current tables (as if SQL Server's `sp_refreshview` ran
//! before every use; SQL Server keeps the columns a view had when it was
//! created). A view that no longer binds (a table it reads was dropped)
//! fails where it is used with Msg 4413, the first error behind it
//! appended to the message (SQL Server sends that error as a message of
//! its own before the 4413).
//!
//! INSERT, UPDATE and DELETE can name a view that shows the one table they
//! change ([`change`]); `WITH CHECK OPTION` makes them keep their rows
//! visible through the view.
//!
//! A view's query is bound in a frame of [`super::binding`] (self-reference,
//! nesting, schema binding); a schema-bound view may not use `*` (1054).

pub mod change;

use super::binding::{self, Frame, ModuleKind};
use super::store::StoredObject;
use super::Catalog;
use crate::bind::expr::ScopeColumn;
use crate::bind::variables::Variables;
use crate::catalog::objects::{schema_object, Objects};
use crate::error::{not_supported_yet, Refused};
use crate::plan::context::PlanContext;
use crate::plan::query::BindState;
use crate::plan::{Planner, QueryPlan};
use crate::result::ResultColumn;
use crate::session::SqlDatabase;
use crate::session_options::SetOptions;
use crate::system_views::DATABASE_NAME;
use hekla_engine::SchemaId;
use hekla_parser::ast::{self, StatementKind};
use hekla_types::{SqlError, SqlResult};
use std::rc::Rc;
use std::sync::Arc;

/// A view as the catalog keeps it.
#[derive(Debug)]
pub struct ViewMeta {
    pub object_id: i32,
    pub schema_id: SchemaId,
    pub name: String,
    /// The column list written after the name; empty when there is none
    /// (the query's own column names are the view's).
    pub declared: Vec<String>,
    /// The columns as last bound: at CREATE or ALTER, or when the database
    /// was opened. Empty if the view did not bind at open.
    pub columns: Vec<ResultColumn>,
    /// The CREATE VIEW text as `sys.sql_modules` shows it.
    pub definition: String,
    pub created_ms: i64,
    pub modified_ms: i64,
    /// Created `WITH SCHEMABINDING`.
    pub schemabinding: bool,
    /// Created `WITH VIEW_METADATA` (which changes nothing in hekla, but
    /// `sys.views.has_opaque_metadata` reports it).
    pub view_metadata: bool,
}

impl ViewMeta {
    /// The view a stored definition describes, before its query is bound
    /// (which needs the whole catalog, see [`bind_restored`]).
    pub fn restore(object: &StoredObject) -> SqlResult<ViewMeta> {
        let create = parse_definition(&object.definition, object.object_id)?;
        let options = Options::of(&create.options)?;
        Ok(ViewMeta {
            object_id: object.object_id,
            schema_id: object.schema_id,
            name: object.name.clone(),
            declared: create.columns.iter().map(|c| c.value.clone()).collect(),
            columns: Vec::new(),
            definition: object.definition.clone(),
            created_ms: object.created_ms,
            modified_ms: object.modified_ms,
            schemabinding: options.schemabinding,
            view_metadata: options.view_metadata,
        })
    }
}

/// The catalog's views, by object id.
pub type Views = Objects<ViewMeta>;

schema_object!(ViewMeta, object_id);

// ---- views in queries -------------------------------------------------------

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
    state
        .modules
        .note_module(name, view.object_id, view.schemabinding)?;
    let bound = state
        .modules
        .enter(view.object_id, &view.name)
        .and_then(|()| {
            let frame = Frame::new(ModuleKind::View, Some(view.object_id), &view.name, false);
            state
                .modules
                .in_frame(frame, || bind_stored(db, state, &view, true))
        });
    let ((plan, columns), _) = bound
        .map_err(|error| binding::binding_error(error, &crate::catalog::sequence::written(name)))?;
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
fn find(db: &dyn PlanContext, name: &ast::ObjectName) -> Option<(Arc<ViewMeta>, String)> {
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
fn within<T>(
    state: &BindState,
    view: &ViewMeta,
    body: impl FnOnce() -> SqlResult<T>,
) -> SqlResult<T> {
    let frame = Frame::new(ModuleKind::View, Some(view.object_id), &view.name, false);
    state.modules.in_frame(frame, body).map(|(value, _)| value)
}

/// Binds a catalog view's stored query; `at_use` says a query names it
/// (rather than the catalog binding it after an open).
fn bind_stored(
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
pub(crate) fn module_columns(
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

/// The CREATE VIEW of a stored definition (Msg 3414 if it is not one).
pub fn parse_definition(definition: &str, object_id: i32) -> SqlResult<ast::CreateView> {
    super::parse_stored(
        definition,
        &format!("view {object_id}"),
        |kind| match kind {
            StatementKind::CreateView(create) => Some(*create),
            _ => None,
        },
    )
}

// ---- CREATE / ALTER VIEW ----------------------------------------------------

/// The `WITH` options of a view.
#[derive(Default)]
pub struct Options {
    pub schemabinding: bool,
    pub view_metadata: bool,
}

impl Options {
    pub fn of(options: &[ast::Ident]) -> SqlResult<Options> {
        let mut result = Options::default();
        for option in options {
            match option.value.to_ascii_uppercase().as_str() {
                "SCHEMABINDING" => result.schemabinding = true,
                // Browse-mode metadata for DB-Library and ODBC clients:
                // nothing for hekla to do.
                "VIEW_METADATA" => result.view_metadata = true,
                "ENCRYPTION" => {
                    return Err(not_supported_yet(
                        Refused::Statement,
                        "CREATE VIEW ... WITH ENCRYPTION",
                    ))
                }
                _ => {
                    return Err(SqlError::new(
                        102,
                        15,
                        1,
                        format!("Incorrect syntax near '{}'.", option.value),
                    ))
                }
            }
        }
        Ok(result)
    }
}

/// The procedure SQL Server's messages name for an error of `statement`:
/// the view or function a CREATE or ALTER defines (its body is compiled
/// as that module).
pub fn procedure_of(statement: &StatementKind) -> Option<String> {
    match statement {
        StatementKind::CreateView(create) => Some(create.name.name().value.clone()),
        StatementKind::CreateFunction(create) => Some(create.name.name().value.clone()),
        _ => None,
    }
}

// ---- DROP VIEW and DROP TABLE -----------------------------------------------

/// Whether `name` names a view.
pub fn names_view(catalog: &Catalog, name: &ast::ObjectName) -> bool {
    let schema = name.schema().map_or("dbo", |s| s.value.as_str());
    name.other_database(DATABASE_NAME).is_none()
        && catalog
            .schema_id(schema)
            .is_some_and(|id| catalog.views.get(id, &name.name().value).is_some())
}

// ---- after an open ----------------------------------------------------------

/// Binds every view restored at open, now that the catalog is whole:
/// learns its columns and, for a schema-bound view, what it is bound to.
/// A view that does not bind (a table it reads is gone) keeps no columns
/// and fails where it is used, as it would have before the restart.
pub fn bind_restored(db: &SqlDatabase) {
    let views: Vec<Arc<ViewMeta>> = db.catalog().views.iter().cloned().collect();
    for view in views {
        let frame = Frame::new(
            ModuleKind::View,
            Some(view.object_id),
            &view.name,
            view.schemabinding,
        );
        let state = Rc::<BindState>::default();
        let bound = state
            .modules
            .in_frame(frame, || bind_stored(db, &state, &view, false));
        let Ok(((_, columns), references)) = bound else {
            continue;
        };
        let mut catalog = db.catalog_mut();
        if view.schemabinding {
            catalog.bindings.set(view.object_id, references);
        }
        catalog.views.insert(ViewMeta {
            object_id: view.object_id,
            schema_id: view.schema_id,
            name: view.name.clone(),
            declared: view.declared.clone(),
            columns,
            definition: view.definition.clone(),
            created_ms: view.created_ms,
            modified_ms: view.modified_ms,
            schemabinding: view.schemabinding,
            view_metadata: view.view_metadata,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn views_nest_32_deep() {
        use crate::text_output::{TextOptions, TextSink};
        let db = SqlDatabase::in_memory().unwrap();
        let mut session = db.session().unwrap();
        let mut run = |batch: &str| {
            let mut sink = TextSink::new(Vec::new(), TextOptions::default());
            session.execute(batch, &mut sink);
            String::from_utf8(sink.finish().0).unwrap()
        };
        run("CREATE TABLE dbo.t (a int NOT NULL PRIMARY KEY NONCLUSTERED) WITH (MEMORY_OPTIMIZED = ON)");
        run("SET NOCOUNT ON INSERT INTO dbo.t VALUES (7)");
        assert_eq!(run("CREATE VIEW dbo.v1 AS SELECT a FROM dbo.t"), "");
        for level in 2..=binding::MAX_NESTING {
            let create = format!(
                "CREATE VIEW dbo.v{level} AS SELECT a FROM dbo.v{}",
                level - 1
            );
            assert_eq!(run(&create), "");
        }
        let out = run(&format!("SELECT a FROM dbo.v{}", binding::MAX_NESTING));
        assert!(out.contains("          7"), "{out}");
        let out = run(&format!(
            "CREATE VIEW dbo.too_deep AS SELECT a FROM dbo.v{}",
            binding::MAX_NESTING
        ));
        assert!(
            out.starts_with("Msg 4413,") && out.contains("(Msg 217: Maximum"),
            "{out}"
        );
    }
}
