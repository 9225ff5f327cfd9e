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
use super::dependency;
use super::store::{ObjectType, StoredObject};
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
use hekla_parser::ast::{self, SelectItem, StatementKind, TableRefKind};
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
fn plan_query(
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
fn parse_definition(definition: &str, object_id: i32) -> SqlResult<ast::CreateView> {
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
struct Options {
    schemabinding: bool,
    view_metadata: bool,
}

impl Options {
    fn of(options: &[ast::Ident]) -> SqlResult<Options> {
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

/// CREATE VIEW, ALTER VIEW and CREATE OR ALTER VIEW: binds the query,
/// stores the definition (an altered view keeps its object id and creation
/// date) and puts the view in the catalog.
pub fn create(db: &SqlDatabase, create: &ast::CreateView, text: &str) -> SqlResult<()> {
    let statement = if create.alter {
        "ALTER VIEW"
    } else {
        "CREATE VIEW"
    };
    if create.name.written_database().is_some() {
        return Err(SqlError::new(
            166,
            15,
            1,
            format!("'{statement}' does not allow specifying the database name as a prefix to the object name."),
        ));
    }
    let options = Options::of(&create.options)?;
    if create.check_option {
        change::refuse_check_option(&create.query)?;
    }
    let name = create.name.name().value.clone();
    let (schema_id, existing) = {
        let catalog = db.catalog();
        let schema_id = catalog.schema_of(&create.name)?;
        (schema_id, target(&catalog, create, schema_id)?)
    };
    if options.schemabinding {
        refuse_wildcard(&create.query)?;
    }
    let frame = Frame::new(
        ModuleKind::View,
        existing.as_ref().map(|view| view.object_id),
        &name,
        options.schemabinding,
    );
    let declared: Vec<String> = create.columns.iter().map(|c| c.value.clone()).collect();
    let state = Rc::<BindState>::default();
    let (plan, references) = state
        .modules
        .in_frame(frame, || plan_query(db, &state, &create.query))?;
    let columns = module_columns(&plan, &declared, &name, false, ModuleKind::View)?;

    let mut catalog = db.catalog_mut();
    // The catalog may have changed while the query was bound.
    let existing = target(&catalog, create, schema_id)?;
    if options.schemabinding {
        let gone = references.iter().any(|&id| {
            catalog.table_by_id(id).is_none()
                && catalog.views.by_id(id).is_none()
                && catalog.functions.by_id(id).is_none()
        });
        if gone {
            return Err(SqlError::new(
                208,
                16,
                1,
                format!("An object that view '{name}' references was dropped while the view was being created."),
            ));
        }
    }
    let definition = stored_text(text, create.alter, create.or_alter);
    let name = existing.as_ref().map_or(name, |view| view.name.clone());
    let object = super::store_module(
        db,
        &mut catalog,
        existing
            .as_ref()
            .map(|view| (view.object_id, view.created_ms)),
        schema_id,
        &name,
        ObjectType::View,
        &definition,
    )?;
    let (object_id, created_ms) = (object.object_id, object.created_ms);
    catalog.bindings.set(
        object_id,
        if options.schemabinding {
            references
        } else {
            Vec::new()
        },
    );
    catalog.views.insert(ViewMeta {
        object_id,
        schema_id,
        name,
        declared,
        columns,
        definition,
        created_ms,
        modified_ms: object.modified_ms,
        schemabinding: options.schemabinding,
        view_metadata: options.view_metadata,
    });
    Ok(())
}

/// The view a CREATE / ALTER replaces, if any: Msg 2714 when CREATE finds
/// the name taken, 208 when ALTER finds no view, 3729 when a schema-bound
/// object depends on the view ALTER would change.
fn target(
    catalog: &Catalog,
    create: &ast::CreateView,
    schema_id: SchemaId,
) -> SqlResult<Option<Arc<ViewMeta>>> {
    let name = &create.name.name().value;
    let existing = catalog.views.get(schema_id, name).cloned();
    match &existing {
        Some(view) if create.alter || create.or_alter => {
            if let Some(referencing) = catalog.bindings.first_referencing(view.object_id) {
                return Err(dependency::still_referenced(
                    "ALTER",
                    &super::sequence::written(&create.name),
                    &catalog.object_name(referencing),
                ));
            }
        }
        Some(_) => return Err(object_exists(name)),
        None if create.alter => {
            return Err(crate::error::invalid_object_name(
                &super::sequence::written(&create.name),
                6,
            ))
        }
        None if catalog.object_exists(schema_id, name) => return Err(object_exists(name)),
        None => {}
    }
    Ok(existing)
}

/// Msg 2714 as CREATE VIEW and CREATE FUNCTION report it (state 3;
/// CREATE TABLE's is 6).
pub(super) fn object_exists(name: &str) -> SqlError {
    let mut error = hekla_engine::errors::object_exists(name);
    error.state = 3;
    error
}

/// The definition SQL Server keeps: the statement as written, except that
/// ALTER becomes CREATE and CREATE OR ALTER loses its OR ALTER.
pub fn stored_text(text: &str, alter: bool, or_alter: bool) -> String {
    if !alter && !or_alter {
        return text.to_string();
    }
    let Ok(tokens) = hekla_parser::lexer::tokenize(text) else {
        return text.to_string();
    };
    let range = |index: usize| {
        tokens
            .get(index)
            .map(|t| t.span.start as usize..t.span.end as usize)
    };
    if alter {
        if let Some(first) = range(0) {
            return format!("CREATE{}", &text[first.end..]);
        }
    } else if let (Some(first), Some(or), Some(alter)) = (range(0), range(1), range(2)) {
        return format!(
            "{}{}{}{}",
            &text[..first.end],
            &text[first.end..or.start],
            &text[or.end..alter.start],
            &text[alter.end..]
        );
    }
    text.to_string()
}

/// Msg 1054 for a schema-bound view's or function's query with `*` in a
/// select list.
pub(super) fn refuse_wildcard(query: &ast::Query) -> SqlResult<()> {
    if has_wildcard(query) {
        return Err(SqlError::new(
            1054,
            15,
            1,
            "Syntax '*' is not allowed in schema-bound objects.",
        ));
    }
    Ok(())
}

/// Whether a select list of the query (outside expressions) has `*`.
fn has_wildcard(query: &ast::Query) -> bool {
    fn body(query_body: &ast::QueryBody) -> bool {
        match query_body {
            ast::QueryBody::Select(select) => {
                select
                    .items
                    .iter()
                    .any(|item| matches!(item, SelectItem::Wildcard { .. }))
                    || select.from.iter().any(table)
            }
            ast::QueryBody::SetOp { left, right, .. } => body(left) || body(right),
            ast::QueryBody::Nested(query) => has_wildcard(query),
        }
    }
    fn table(item: &ast::TableRef) -> bool {
        match &item.kind {
            TableRefKind::Derived { query, .. } => has_wildcard(query),
            TableRefKind::Join { left, right, .. } => table(left) || table(right),
            _ => false,
        }
    }
    query.with.iter().any(|cte| has_wildcard(&cte.query)) || body(&query.body)
}

// ---- DROP VIEW and DROP TABLE -----------------------------------------------

/// DROP VIEW: each name in turn (Msg 3701 for a missing one unless IF
/// EXISTS, 3705 for a table, 3729 for one a schema-bound object uses).
pub fn drop(db: &SqlDatabase, names: &[ast::ObjectName], if_exists: bool) -> SqlResult<()> {
    for name in names {
        let mut catalog = db.catalog_mut();
        let schema_id = catalog.named_schema(name);
        let found = schema_id.and_then(|id| catalog.views.get(id, &name.name().value).cloned());
        let Some(view) = found else {
            let is_table =
                schema_id.is_some_and(|id| catalog.table(id, &name.name().value).is_some());
            if is_table && !if_exists {
                return Err(wrong_drop(&name.name().value, "VIEW", "table", "TABLE"));
            }
            if if_exists {
                continue;
            }
            return Err(super::cannot_drop("view", &name.name().value));
        };
        refuse_if_bound(&catalog, view.object_id, "DROP VIEW", name)?;
        super::unstore_object(db, view.object_id)?;
        catalog.views.remove(view.object_id);
        catalog.bindings.remove(view.object_id);
    }
    Ok(())
}

/// Msg 3705: DROP `used` of an object that is a `kind`.
fn wrong_drop(name: &str, used: &str, kind: &str, instead: &str) -> SqlError {
    SqlError::new(
        3705,
        16,
        1,
        format!("Cannot use DROP {used} with '{name}' because '{name}' is a {kind}. Use DROP {instead}."),
    )
}

/// Whether `name` names a view.
pub fn names_view(catalog: &Catalog, name: &ast::ObjectName) -> bool {
    let schema = name.schema().map_or("dbo", |s| s.value.as_str());
    name.other_database(DATABASE_NAME).is_none()
        && catalog
            .schema_id(schema)
            .is_some_and(|id| catalog.views.get(id, &name.name().value).is_some())
}

/// For DROP TABLE of a name that is no table: Msg 3705 if it is a view.
pub fn refuse_drop_table(catalog: &Catalog, name: &ast::ObjectName) -> SqlResult<()> {
    if names_view(catalog, name) {
        return Err(wrong_drop(&name.name().value, "TABLE", "view", "VIEW"));
    }
    Ok(())
}

/// Msg 3729 when an object created WITH SCHEMABINDING references
/// `object_id`, which `action` (`DROP TABLE`, `DROP VIEW`) would remove.
pub fn refuse_if_bound(
    catalog: &Catalog,
    object_id: i32,
    action: &str,
    name: &ast::ObjectName,
) -> SqlResult<()> {
    match catalog.bindings.first_referencing(object_id) {
        Some(referencing) => Err(dependency::still_referenced(
            action,
            &super::sequence::written(name),
            &catalog.object_name(referencing),
        )),
        None => Ok(()),
    }
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

    fn create_view(text: &str) -> ast::CreateView {
        match hekla_parser::parse_batch(text)
            .unwrap()
            .statements
            .into_iter()
            .next()
            .map(|s| s.kind)
        {
            Some(StatementKind::CreateView(create)) => *create,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn alter_is_stored_as_create() {
        let text = "alter /*a*/ VIEW dbo.v AS SELECT 1 AS a";
        assert_eq!(
            {
                let create = create_view(text);
                stored_text(text, create.alter, create.or_alter)
            },
            "CREATE /*a*/ VIEW dbo.v AS SELECT 1 AS a"
        );
        let text = "CrEaTe or/*y*/ALTer VIEW v AS SELECT 1 AS a";
        assert_eq!(
            {
                let create = create_view(text);
                stored_text(text, create.alter, create.or_alter)
            },
            "CrEaTe /*y*/ VIEW v AS SELECT 1 AS a"
        );
        let text = "CREATE VIEW v AS SELECT 1 AS a -- note";
        assert_eq!(
            {
                let create = create_view(text);
                stored_text(text, create.alter, create.or_alter)
            },
            text
        );
    }

    #[test]
    fn wildcards_are_found_in_select_lists_only() {
        let found = |text: &str| has_wildcard(&create_view(text).query);
        assert!(found("CREATE VIEW v AS SELECT * FROM t"));
        assert!(found(
            "CREATE VIEW v AS SELECT a FROM t UNION SELECT t.* FROM t"
        ));
        assert!(found(
            "CREATE VIEW v AS SELECT a FROM (SELECT * FROM t) AS d"
        ));
        assert!(found(
            "CREATE VIEW v AS WITH c AS (SELECT * FROM t) SELECT a FROM c"
        ));
        assert!(!found("CREATE VIEW v AS SELECT COUNT(*) AS n FROM t"));
    }

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
