//! Running bound statements.

pub mod access;
pub mod aggregate;
pub mod constraints;
pub mod context;
pub mod dbcc;
pub mod eval;
pub mod functions;
pub mod hash_table;
pub mod insert;
pub mod isolation;
pub mod join;
pub mod modify;
pub mod output;
pub mod run;
pub mod scalar_function;
pub mod select;
pub mod select_into;
pub mod server;
pub mod sort;
pub mod target;
pub mod text_size;
pub mod truncate;
pub mod variables;
pub mod window;

use crate::catalog::table::TableMeta;
use crate::error::{not_supported_yet, Refused};
use crate::plan::context::PlanContext;
use crate::system_views::DATABASE_NAME;
use hekla_parser::ast;
use hekla_types::SqlResult;
use std::sync::Arc;

/// A user table by name (schema defaults to dbo); Msg 208 if there is none.
pub fn resolve_table(db: &dyn PlanContext, name: &ast::ObjectName) -> SqlResult<Arc<TableMeta>> {
    let catalog = db.catalog();
    let schema = name.schema().map_or("dbo", |s| s.value.as_str());
    let found = match name.other_database(DATABASE_NAME) {
        None => catalog
            .schema_id(schema)
            .and_then(|id| catalog.table(id, &name.name().value)),
        Some(_) => None,
    };
    // INSERT, UPDATE and DELETE look for views first
    // (`catalog::view::change`); OUTPUT INTO does not take one.
    if found.is_none() && crate::catalog::view::names_view(&catalog, name) {
        return Err(not_supported_yet(Refused::Statement, "OUTPUT INTO a view"));
    }
    found.cloned().ok_or_else(|| {
        let written: Vec<&str> = name
            .parts
            .iter()
            .map(|p| p.as_ref().map_or("", |i| i.value.as_str()))
            .collect();
        crate::error::invalid_object_name(&written.join("."), 1)
    })
}
