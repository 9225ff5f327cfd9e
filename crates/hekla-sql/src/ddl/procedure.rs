//! CREATE, ALTER and CREATE OR ALTER PROCEDURE, and DROP PROCEDURE. The
//! procedure's model is `catalog::procedure`.

use crate::ddl::DdlDatabase;
use hekla_engine::catalog::SchemaId;
use hekla_parser::ast::{self, ModuleOption, StatementKind};
use hekla_plan::catalog::procedure::{
    bound_objects, find, has_option, is_native, is_option, parameters, parse_definition,
    ProcedureMeta,
};
use hekla_plan::catalog::store::ObjectType;
use hekla_plan::error::{not_supported_yet, Refused};
use hekla_types::{SqlError, SqlResult};

/// CREATE, ALTER and CREATE OR ALTER PROCEDURE.
pub fn create(db: &dyn DdlDatabase, create: &ast::CreateProcedure, text: &str) -> SqlResult<()> {
    if create.name.written_database().is_some() {
        return Err(SqlError::new(
            166,
            15,
            1,
            "'CREATE/ALTER PROCEDURE' does not allow specifying the database name as a prefix to the object name.",
        ));
    }
    let native = is_native(create);
    if native {
        check_native(create)?;
    }
    let name = create.name.name().value.clone();
    let parameters = parameters(&create.params, "CREATE PROCEDURE", &db.catalog())?;
    let definition = super::view::stored_text(text, create.alter, create.or_alter);
    // The body's spans point into the stored text, whose first line is
    // the CREATE's: the lines its errors are placed on count from there.
    let body = parse_definition(&definition)?.body;
    let names = || create.params.iter().map(|p| p.name.as_str());
    let misused = hekla_plan::bind::variables::first_redeclaration(names(), &body)
        .or_else(|| hekla_plan::bind::undeclared::first_undeclared(names(), &body, &definition));
    if let Some((error, line)) = misused {
        return Err(error.at_line(line));
    }
    let compiled = if native {
        // Checked first, so that a name in use is that error, not the
        // body's; checked again below, under the catalog's write lock
        // (compiling reads the catalog, so it cannot hold that lock).
        existing(&db.catalog(), create, &name)?;
        let started = std::time::Instant::now();
        Some((
            crate::ddl::native_compile::compile(db, &parameters, &body)?,
            started,
        ))
    } else {
        None
    };
    let mut catalog = db.catalog_mut();
    let (schema_id, existing) = existing(&catalog, create, &name)?;
    let schemabinding = has_option(create, ModuleOption::SchemaBinding);
    let references = if schemabinding {
        bound_objects(&catalog, text)
    } else {
        Vec::new()
    };
    let name = existing.as_ref().map_or(name, |p| p.name.clone());
    let object = super::store_module(
        db,
        &mut catalog,
        existing
            .as_ref()
            .map(|procedure| (procedure.object_id, procedure.created_ms)),
        schema_id,
        &name,
        ObjectType::Procedure,
        &definition,
    )?;
    let (object_id, created_ms) = (object.object_id, object.created_ms);
    catalog.bindings.set(object_id, references);
    let procedure = ProcedureMeta {
        object_id,
        schema_id,
        name,
        parameters,
        body,
        definition,
        native,
        schemabinding,
        created_ms,
        modified_ms: object.modified_ms,
    };
    catalog
        .type_references
        .set(object_id, procedure.table_types());
    catalog.procedures.insert(procedure);
    match compiled {
        Some((compilation, started)) => {
            db.native_modules()
                .keep(object_id, compilation, started.elapsed());
        }
        None => db.native_modules().remove(object_id),
    }
    Ok(())
}

/// The schema a procedure named `name` goes in and the procedure it
/// replaces (ALTER, CREATE OR ALTER); Msg 2714 if the name is another
/// object's or, for CREATE, a procedure's, and 208 for ALTER of none.
fn existing(
    catalog: &hekla_plan::catalog::Catalog,
    create: &ast::CreateProcedure,
    name: &str,
) -> SqlResult<(SchemaId, Option<std::sync::Arc<ProcedureMeta>>)> {
    let schema_id = catalog.schema_of(&create.name)?;
    let existing = catalog.procedures.get(schema_id, name).cloned();
    match &existing {
        Some(_) if create.alter || create.or_alter => {}
        Some(_) => return Err(hekla_engine::errors::object_exists(name)),
        None if create.alter => {
            return Err(hekla_plan::error::invalid_object_name(
                &hekla_plan::catalog::sequence::written(&create.name),
                3,
            ))
        }
        None if catalog.object_exists(schema_id, name) => {
            return Err(hekla_engine::errors::object_exists(name))
        }
        None => {}
    }
    Ok((schema_id, existing))
}

/// DROP PROCEDURE: each name in turn (Msg 3701 for a missing one unless IF
/// EXISTS, 3729 for one a schema-bound module calls).
pub fn drop(db: &dyn DdlDatabase, names: &[ast::ObjectName], if_exists: bool) -> SqlResult<()> {
    for name in names {
        let mut catalog = db.catalog_mut();
        let found = find(&catalog, name).cloned();
        let Some(procedure) = found else {
            if if_exists {
                continue;
            }
            return Err(hekla_plan::catalog::cannot_drop(
                "procedure",
                &hekla_plan::catalog::sequence::written(name),
            ));
        };
        super::view::refuse_if_bound(&catalog, procedure.object_id, "DROP PROCEDURE", name)?;
        super::unstore_object(db, procedure.object_id)?;
        catalog.procedures.remove(procedure.object_id);
        catalog.bindings.remove(procedure.object_id);
        catalog.type_references.remove(procedure.object_id);
        db.native_modules().remove(procedure.object_id);
        db.plan_cache().remove_object(procedure.object_id);
    }
    Ok(())
}

/// What SQL Server requires of a natively compiled procedure.
fn check_native(create: &ast::CreateProcedure) -> SqlResult<()> {
    if !has_option(create, ModuleOption::SchemaBinding) {
        return Err(not_supported_yet(
            Refused::Statement,
            "NATIVE_COMPILATION without SCHEMABINDING",
        ));
    }
    let [ast::Statement {
        kind: StatementKind::AtomicBlock { options, .. },
        ..
    }] = create.body.as_slice()
    else {
        return Err(SqlError::new(
            17083,
            16,
            1,
            "The body of a natively compiled stored procedure must be an ATOMIC block.",
        ));
    };
    for required in ["TRANSACTION ISOLATION LEVEL", "LANGUAGE"] {
        if !options.iter().any(|o| is_option(o, required)) {
            return Err(SqlError::new(
                17084,
                16,
                1,
                format!("The WITH clause of BEGIN ATOMIC statement must specify a value for the option '{required}'."),
            ));
        }
    }
    Ok(())
}
