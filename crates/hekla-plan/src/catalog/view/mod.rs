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
//! change (`plan::view_change`); `WITH CHECK OPTION` makes them keep their rows
//! visible through the view.
//!
//! A view's query is bound in a frame of [`super::binding`] (self-reference,
//! nesting, schema binding); a schema-bound view may not use `*` (1054).

use super::store::StoredObject;
use super::Catalog;
use crate::catalog::objects::{schema_object, Objects};
use crate::error::{not_supported_yet, Refused};
use crate::names::DATABASE_NAME;
use crate::result::ResultColumn;
use hekla_engine::SchemaId;
use hekla_parser::ast::{self, StatementKind};
use hekla_types::{SqlError, SqlResult};

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
    /// (which needs the whole catalog, see `ddl::load::bind_views`).
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
/// the view, function or procedure a CREATE or ALTER defines (its body is
/// compiled as that module).
pub fn procedure_of(statement: &StatementKind) -> Option<String> {
    match statement {
        StatementKind::CreateView(create) => Some(create.name.name().value.clone()),
        StatementKind::CreateFunction(create) => Some(create.name.name().value.clone()),
        StatementKind::CreateProcedure(create) => Some(create.name.name().value.clone()),
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
