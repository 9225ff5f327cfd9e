//! The objects permissions can be granted on, found by name (GRANT ... ON
//! name) or by id (sys.database_permissions, messages).

use hekla_engine::SchemaId;
use hekla_plan::catalog::Catalog;
use std::sync::Arc;

/// What kind of object a securable is: it decides which permissions
/// apply and what ALL means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ObjectKind {
    Table,
    View,
    Procedure,
    ScalarFunction,
    TableFunction,
    Sequence,
}

/// An object permissions can be granted on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SecuredObject {
    pub object_id: i32,
    pub schema_id: SchemaId,
    pub name: String,
    pub kind: ObjectKind,
}

/// The object `name` in schema `schema_id`.
pub fn find(catalog: &Catalog, schema_id: SchemaId, name: &str) -> Option<SecuredObject> {
    let secured = |object_id, name: &str, kind| SecuredObject {
        object_id,
        schema_id,
        name: name.to_string(),
        kind,
    };
    if let Some(table) = catalog.table(schema_id, name) {
        return Some(secured(table.object_id, &table.name, ObjectKind::Table));
    }
    if let Some(view) = catalog.views.get(schema_id, name) {
        return Some(secured(view.object_id, &view.name, ObjectKind::View));
    }
    if let Some(procedure) = catalog.procedures.get(schema_id, name) {
        return Some(secured(
            procedure.object_id,
            &procedure.name,
            ObjectKind::Procedure,
        ));
    }
    if let Some(function) = catalog.functions.get(schema_id, name) {
        return Some(secured(
            function.object_id,
            &function.name,
            function_kind(function),
        ));
    }
    catalog
        .sequence(schema_id, name)
        .map(|sequence| secured(sequence.object_id, &sequence.name, ObjectKind::Sequence))
}

/// The object with `object_id`, if it still exists.
pub fn by_id(catalog: &Catalog, object_id: i32) -> Option<SecuredObject> {
    let secured = |schema_id, name: &str, kind| SecuredObject {
        object_id,
        schema_id,
        name: name.to_string(),
        kind,
    };
    if let Some(table) = catalog.table_by_id(object_id) {
        return Some(secured(table.schema_id, &table.name, ObjectKind::Table));
    }
    if let Some(view) = catalog.views.by_id(object_id) {
        return Some(secured(view.schema_id, &view.name, ObjectKind::View));
    }
    if let Some(procedure) = catalog.procedures.by_id(object_id) {
        return Some(secured(
            procedure.schema_id,
            &procedure.name,
            ObjectKind::Procedure,
        ));
    }
    if let Some(function) = catalog.functions.by_id(object_id) {
        return Some(secured(
            function.schema_id,
            &function.name,
            function_kind(function),
        ));
    }
    catalog
        .sequences()
        .find(|sequence| sequence.object_id == object_id)
        .map(|sequence| secured(sequence.schema_id, &sequence.name, ObjectKind::Sequence))
}

fn function_kind(function: &Arc<hekla_plan::catalog::function::FunctionMeta>) -> ObjectKind {
    if function.returns().is_some() {
        ObjectKind::ScalarFunction
    } else {
        ObjectKind::TableFunction
    }
}
