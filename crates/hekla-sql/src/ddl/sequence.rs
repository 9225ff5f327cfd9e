//! CREATE SEQUENCE and DROP SEQUENCE. The sequence's model is
//! `catalog::sequence`.

use crate::ddl::DdlDatabase;
use hekla_parser::ast;
use hekla_plan::catalog::sequence::{written, Sequence};
use hekla_plan::catalog::store::ObjectType;
use hekla_plan::catalog::stored_object;
use hekla_plan::error::{not_supported_yet, Refused};
use hekla_plan::names::DATABASE_NAME;
use hekla_types::{SqlError, SqlResult};

/// CREATE SEQUENCE: binds it, stores the definition, adds it to the
/// catalog.
pub fn create(db: &dyn DdlDatabase, create: &ast::CreateSequence, text: &str) -> SqlResult<()> {
    if create.name.other_database(DATABASE_NAME).is_some() {
        return Err(not_supported_yet(
            Refused::Statement,
            "CREATE SEQUENCE with a database name",
        ));
    }
    let mut catalog = db.catalog_mut();
    let schema_id = catalog.schema_of(&create.name)?;
    let name = &create.name.name().value;
    if catalog.object_exists(schema_id, name) {
        return Err(hekla_engine::errors::object_exists(name));
    }
    let object_id = catalog.allocate_object_id()?;
    let sequence = Sequence::bind(
        create,
        schema_id,
        object_id,
        text,
        catalog.counter_table().clone(),
    )?;
    let object = stored_object(
        object_id,
        schema_id,
        &sequence.name,
        ObjectType::Sequence,
        None,
        text,
    );
    super::store_object(db, &object)?;
    catalog.add_sequence(sequence);
    Ok(())
}

/// DROP SEQUENCE: each name in turn (a missing one is Msg 3701 unless IF
/// EXISTS; one a DEFAULT uses is Msg 3729).
pub fn drop(db: &dyn DdlDatabase, names: &[ast::ObjectName], if_exists: bool) -> SqlResult<()> {
    for name in names {
        let mut catalog = db.catalog_mut();
        let found = catalog
            .named_schema(name)
            .and_then(|schema| catalog.sequence(schema, &name.name().value))
            .cloned();
        let Some(sequence) = found else {
            if if_exists {
                continue;
            }
            return Err(hekla_plan::catalog::cannot_drop(
                "sequence",
                &name.name().value,
            ));
        };
        if let Some(user) = catalog.sequence_user(sequence.object_id) {
            return Err(SqlError::new(
                3729,
                16,
                1,
                format!(
                    "Cannot DROP SEQUENCE '{}' because it is being referenced by object '{user}'.",
                    written(name)
                ),
            ));
        }
        sequence.counter.retire();
        super::unstore_object(db, sequence.object_id)?;
        catalog.remove_sequence(sequence.object_id);
    }
    Ok(())
}
