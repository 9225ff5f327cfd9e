//! CREATE, ALTER and CREATE OR ALTER FUNCTION, and DROP FUNCTION. The
//! function's model is `catalog::function`.

use crate::ddl::DdlDatabase;
use hekla_engine::SchemaId;
use hekla_parser::ast::{self};
use hekla_plan::catalog::function::{
    find, object_type, parse_definition, rules, FunctionBody, FunctionMeta, Shape,
};
use hekla_plan::catalog::procedure;
use hekla_plan::catalog::{dependency, Catalog};
use hekla_plan::plan::inline_function as inline;
use hekla_types::{SqlError, SqlResult};
use std::sync::Arc;

/// CREATE, ALTER and CREATE OR ALTER FUNCTION: checks the definition
/// (binding an inline function's query), stores it (an altered function
/// keeps its object id and creation date) and puts the function in the
/// catalog.
pub fn create(db: &dyn DdlDatabase, create: &ast::CreateFunction, text: &str) -> SqlResult<()> {
    if create.name.written_database().is_some() {
        return Err(SqlError::new(
            166,
            15,
            1,
            "'CREATE/ALTER FUNCTION' does not allow specifying the database name as a prefix to the object name.",
        ));
    }
    // Parsed again from the stored text, so the body's spans point into it.
    let definition = super::view::stored_text(text, create.alter, create.or_alter);
    let shape = Shape::of(parse_definition(&definition)?, &db.catalog())?;
    match &shape.body {
        FunctionBody::Scalar { statements, .. } => {
            rules::check_scalar_body(statements, &definition)?;
            let parameters = shape.parameters.iter().map(|p| p.name.as_str());
            let undeclared =
                hekla_plan::bind::undeclared::first_undeclared(parameters, statements, &definition);
            if let Some((error, line)) = undeclared {
                return Err(error.at_line(line));
            }
        }
        FunctionBody::Inline(query) if shape.schemabinding => super::view::refuse_wildcard(query)?,
        FunctionBody::Inline(_) => {}
    }
    let name = create.name.name().value.clone();
    let (schema_id, existing) = {
        let catalog = db.catalog();
        let schema_id = catalog.schema_of(&create.name)?;
        (schema_id, target(&catalog, create, schema_id, &shape.body)?)
    };
    let inline_references = match &shape.body {
        FunctionBody::Inline(query) => inline::bind_definition(
            db.planning(),
            existing.as_ref().map(|function| function.object_id),
            &name,
            &shape.parameters,
            query,
            shape.schemabinding,
        )?,
        FunctionBody::Scalar { .. } if shape.native => {
            hekla_exec::scalar_function::check_native_body(
                db.planning(),
                &shape.parameters,
                &shape.body,
            )?;
            Vec::new()
        }
        FunctionBody::Scalar { .. } => Vec::new(),
    };
    let mut catalog = db.catalog_mut();
    // The catalog may have changed while the query was bound.
    let existing = target(&catalog, create, schema_id, &shape.body)?;
    let references = match &shape.body {
        _ if !shape.schemabinding => Vec::new(),
        FunctionBody::Inline(_) => inline_references,
        FunctionBody::Scalar { .. } => procedure::bound_objects(&catalog, &definition),
    };
    let name = existing
        .as_ref()
        .map_or(name, |function| function.name.clone());
    let object = super::store_module(
        db,
        &mut catalog,
        existing
            .as_ref()
            .map(|function| (function.object_id, function.created_ms)),
        schema_id,
        &name,
        object_type(&shape.body),
        &definition,
    )?;
    catalog.bindings.set(object.object_id, references);
    catalog.functions.insert(shape.into_meta(&object));
    Ok(())
}

/// The function a CREATE / ALTER replaces, if any: Msg 2714 when CREATE
/// finds the name taken, 208 when ALTER finds nothing, 2010 when ALTER
/// finds another kind of object (a scalar function alters only to a
/// scalar function), 3729 when a schema-bound object depends on it.
fn target(
    catalog: &Catalog,
    create: &ast::CreateFunction,
    schema_id: SchemaId,
    body: &FunctionBody,
) -> SqlResult<Option<Arc<FunctionMeta>>> {
    let name = &create.name.name().value;
    let written = hekla_plan::catalog::sequence::written(&create.name);
    let replaces = create.alter || create.or_alter;
    let incompatible = || {
        SqlError::new(
            2010,
            16,
            1,
            format!(
                "Cannot perform alter on '{written}' because it is an incompatible object type."
            ),
        )
    };
    let existing = catalog.functions.get(schema_id, name).cloned();
    match &existing {
        Some(function) if replaces => {
            let scalar = |body: &FunctionBody| matches!(body, FunctionBody::Scalar { .. });
            if scalar(&function.body) != scalar(body) {
                return Err(incompatible());
            }
            if let Some(referencing) = catalog.bindings.first_referencing(function.object_id) {
                return Err(dependency::still_referenced(
                    "ALTER",
                    &written,
                    &catalog.object_name(referencing),
                ));
            }
        }
        Some(_) => return Err(super::view::object_exists(name)),
        None if catalog.object_exists(schema_id, name) => {
            return Err(if replaces {
                incompatible()
            } else {
                super::view::object_exists(name)
            })
        }
        None if create.alter => return Err(hekla_plan::error::invalid_object_name(&written, 6)),
        None => {}
    }
    Ok(existing)
}

/// DROP FUNCTION: each name in turn (Msg 3701 for a missing one unless
/// IF EXISTS, 3729 for one a schema-bound object uses).
pub fn drop(db: &dyn DdlDatabase, names: &[ast::ObjectName], if_exists: bool) -> SqlResult<()> {
    for name in names {
        let mut catalog = db.catalog_mut();
        let Some(function) = find(&catalog, name).cloned() else {
            if if_exists {
                continue;
            }
            return Err(hekla_plan::catalog::cannot_drop(
                "function",
                &hekla_plan::catalog::sequence::written(name),
            ));
        };
        super::view::refuse_if_bound(&catalog, function.object_id, "DROP FUNCTION", name)?;
        super::unstore_object(db, function.object_id)?;
        catalog.functions.remove(function.object_id);
        catalog.bindings.remove(function.object_id);
    }
    Ok(())
}
