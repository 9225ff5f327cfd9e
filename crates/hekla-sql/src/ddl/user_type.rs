//! CREATE TYPE (alias and table types) and DROP TYPE. The types' model is
//! `catalog::user_type`.

use crate::ddl::DdlDatabase;
use hekla_parser::ast::{self, StatementKind};
use hekla_plan::catalog::user_type::{bind, defined, named, UserType};
use hekla_plan::catalog::{stored_object, Catalog};
use hekla_plan::error::{not_supported_yet, Refused};
use hekla_types::{SqlError, SqlResult};

/// CREATE TYPE, either form: binds it, stores the definition, adds the
/// type to the catalog. Msg 166 for a database name, 2760 for a missing
/// schema, 219 for a name a type of the schema has.
pub fn create(db: &dyn DdlDatabase, statement: &StatementKind, text: &str) -> SqlResult<()> {
    let Some((name, object_type)) = defined(statement) else {
        return Err(not_supported_yet(Refused::Statement, statement.keywords()));
    };
    if name.written_database().is_some() {
        return Err(SqlError::new(
            166,
            15,
            1,
            "'CREATE TYPE' does not allow specifying the database name as a prefix to the object name.",
        ));
    }
    let mut catalog = db.catalog_mut();
    let schema_id = catalog.schema_of(name)?;
    let type_name = &name.name().value;
    if catalog.types.get(schema_id, type_name).is_some() {
        return Err(SqlError::new(
            219,
            16,
            1,
            format!(
                "The type '{}' already exists, or you do not have permission to create it.",
                hekla_plan::catalog::sequence::written(name)
            ),
        ));
    }
    let id = catalog.allocate_object_id()?;
    let kind = bind(&catalog, statement, id)?;
    let object = stored_object(id, schema_id, type_name, object_type, None, text);
    super::store_object(db, &object)?;
    catalog.types.insert(UserType {
        id,
        schema_id,
        name: type_name.clone(),
        kind,
        created_ms: object.created_ms,
    });
    Ok(())
}

/// DROP TYPE: each name in turn (Msg 218 for a missing one unless IF
/// EXISTS, 3732 for one something uses).
pub fn drop(db: &dyn DdlDatabase, names: &[ast::ObjectName], if_exists: bool) -> SqlResult<()> {
    for name in names {
        let mut catalog = db.catalog_mut();
        let Some(user_type) = named(&catalog, name).cloned() else {
            if if_exists {
                continue;
            }
            return Err(SqlError::new(
                218,
                16,
                1,
                format!(
                    "Could not find the type '{}'. Either it does not exist or you do not have the necessary permission.",
                    hekla_plan::catalog::sequence::written(name)
                ),
            ));
        };
        refuse_drop_if_used(&catalog, &user_type, name)?;
        super::unstore_object(db, user_type.id)?;
        catalog.types.remove(user_type.id);
    }
    Ok(())
}

/// Msg 3732 when something uses `user_type`, which DROP TYPE `written`
/// would remove: a column of a table or table type declared with it, or
/// an object that recorded its use in `Catalog::type_references` (a
/// procedure's parameter).
pub fn refuse_drop_if_used(
    catalog: &Catalog,
    user_type: &UserType,
    written: &ast::ObjectName,
) -> SqlResult<()> {
    match user_of(catalog, user_type.id) {
        Some(user) => Err(SqlError::new(
            3732,
            16,
            1,
            format!(
                "Cannot drop type '{}' because it is being referenced by object '{user}'. There may be other objects that reference this type.",
                hekla_plan::catalog::sequence::written(written)
            ),
        )),
        None => Ok(()),
    }
}

/// The name of the first object that uses the type with `id`, if any.
fn user_of(catalog: &Catalog, id: i32) -> Option<String> {
    let uses = |columns: &[hekla_plan::catalog::table::ColumnMeta]| {
        columns.iter().any(|column| column.user_type_id == Some(id))
    };
    if let Some(table) = catalog.tables().find(|table| uses(&table.columns)) {
        return Some(table.name.clone());
    }
    let typed = catalog
        .types
        .iter()
        .find(|other| other.as_table().is_some_and(|table| uses(&table.columns)));
    if let Some(other) = typed {
        return Some(other.name.clone());
    }
    let referencing = catalog.type_references.first_referencing(id)?;
    Some(catalog.object_name(referencing))
}
