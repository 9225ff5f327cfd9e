//! User-defined functions: `CREATE [OR ALTER] FUNCTION`, `ALTER
//! FUNCTION`, `DROP FUNCTION [IF EXISTS]`.
//!
//! A function is its definition, stored like every object's
//! ([`super::store`]) and parsed again at open. Two kinds run:
//! - scalar functions, `RETURNS type [WITH ...] AS BEGIN ... RETURN value
//!   END`, whose body must have no side effects, return no rows and end
//!   with RETURN ([`rules`], checked at CREATE). Their statements are
//!   bound when a statement first calls the function, as SQL Server's
//!   deferred name resolution does, and run by `exec::scalar_function`;
//! - inline table-valued functions, `RETURNS TABLE AS RETURN (query)`:
//!   parameterised views, bound at CREATE and wherever a FROM clause
//!   calls them ([`inline`]).
//!
//! Multi-statement table-valued functions (`RETURNS @t TABLE (...)`) are
//! refused with Msg 10794.
//!
//! WITH SCHEMABINDING binds a function to the tables, views and functions
//! it names, which cannot be dropped or altered while it exists (Msg
//! 3729): an inline function to what its query binds, a scalar function
//! to the two-part names in its text (as procedures are).

mod inline;
mod rules;

pub use inline::{expand, Expanded};

use super::objects::{schema_object, Objects};
use super::procedure::{self, ParameterKind};
use super::store::{ObjectType, StoredObject};
use super::{dependency, Catalog};
use crate::bind::types::{self, TypeContext};
use crate::error::{not_supported_yet, Refused};
use crate::session::SqlDatabase;
use hekla_engine::SchemaId;
use hekla_parser::ast::{self, FunctionReturns, ModuleOption, StatementKind};
use hekla_types::{Collation, DataType, SqlError, SqlResult};
use std::sync::Arc;

#[derive(Debug)]
pub struct FunctionMeta {
    pub object_id: i32,
    pub schema_id: SchemaId,
    pub name: String,
    pub parameters: Vec<FunctionParameter>,
    pub body: FunctionBody,
    /// The CREATE FUNCTION text as `sys.sql_modules` shows it; the body's
    /// spans point into it.
    pub definition: String,
    pub schemabinding: bool,
    pub native: bool,
    /// `RETURNS NULL ON NULL INPUT`: a NULL argument makes the result NULL
    /// without running the body.
    pub null_on_null_input: bool,
    /// Whether calling it may read tables, so that the statement calling
    /// it must not hold its transaction meanwhile (see
    /// `plan::plan_streaming`); read from a scalar function's body,
    /// conservatively (an inline function reads tables).
    pub reads_data: bool,
    pub created_ms: i64,
    pub modified_ms: i64,
}

#[derive(Debug)]
pub struct FunctionParameter {
    /// Without the `@`.
    pub name: String,
    pub data_type: DataType,
    /// What the argument `DEFAULT` stands for.
    pub default: Option<ast::Expr>,
}

#[derive(Debug)]
pub enum FunctionBody {
    Scalar {
        returns: DataType,
        /// Its statements (a natively compiled function's: its atomic
        /// block's).
        statements: Vec<ast::Statement>,
    },
    Inline(Box<ast::Query>),
}

impl FunctionMeta {
    /// The function a stored definition describes.
    pub fn restore(object: &StoredObject, catalog: &Catalog) -> SqlResult<FunctionMeta> {
        Ok(Shape::of(parse_definition(&object.definition)?, catalog)?.into_meta(object))
    }

    /// The type a scalar function returns; None for a table-valued one.
    pub fn returns(&self) -> Option<DataType> {
        match &self.body {
            FunctionBody::Scalar { returns, .. } => Some(*returns),
            FunctionBody::Inline(_) => None,
        }
    }

    pub fn object_type(&self) -> ObjectType {
        object_type(&self.body)
    }
}

schema_object!(FunctionMeta, object_id);

fn object_type(body: &FunctionBody) -> ObjectType {
    match body {
        FunctionBody::Scalar { .. } => ObjectType::ScalarFunction,
        FunctionBody::Inline(_) => ObjectType::InlineTableFunction,
    }
}

/// The catalog's functions.
pub type Functions = Objects<FunctionMeta>;

/// What a CREATE FUNCTION says, checked.
struct Shape {
    parameters: Vec<FunctionParameter>,
    body: FunctionBody,
    schemabinding: bool,
    native: bool,
    null_on_null_input: bool,
}

impl Shape {
    fn of(create: ast::CreateFunction, catalog: &Catalog) -> SqlResult<Shape> {
        let has = |option: ModuleOption| create.options.contains(&option);
        let schemabinding = has(ModuleOption::SchemaBinding);
        let native = has(ModuleOption::NativeCompilation);
        if has(ModuleOption::Encryption) {
            return Err(not_supported_yet(
                Refused::Statement,
                "CREATE FUNCTION ... WITH ENCRYPTION",
            ));
        }
        let parameters = parameters(&create.params, catalog)?;
        let body = match create.returns {
            FunctionReturns::Scalar { data_type, body } => {
                if has(ModuleOption::Recompile) {
                    return Err(invalid_option());
                }
                let returns = types::resolve(
                    &data_type,
                    Collation::default(),
                    TypeContext::Declaration {
                        ordinal: parameters.len() + 1,
                    },
                )?;
                FunctionBody::Scalar {
                    returns,
                    statements: scalar_statements(body, native, schemabinding)?,
                }
            }
            FunctionReturns::InlineTable(query) => {
                let scalar_only = create.options.iter().any(|option| {
                    matches!(
                        option,
                        ModuleOption::ReturnsNullOnNullInput
                            | ModuleOption::CalledOnNullInput
                            | ModuleOption::Recompile
                            | ModuleOption::ExecuteAs(_)
                    )
                });
                if scalar_only {
                    return Err(invalid_option());
                }
                FunctionBody::Inline(query)
            }
            FunctionReturns::MultiStatementTable { .. } => return Err(not_supported_yet(
                Refused::Statement,
                "CREATE FUNCTION ... RETURNS @table TABLE (multi-statement table-valued functions)",
            )),
        };
        Ok(Shape {
            parameters,
            body,
            schemabinding,
            native,
            null_on_null_input: has(ModuleOption::ReturnsNullOnNullInput),
        })
    }

    /// The function, under the identity and text of `object`.
    fn into_meta(self, object: &StoredObject) -> FunctionMeta {
        let reads_data = match &self.body {
            FunctionBody::Scalar { statements, .. } => {
                rules::reads_data(statements, &object.definition)
            }
            FunctionBody::Inline(_) => true,
        };
        FunctionMeta {
            object_id: object.object_id,
            schema_id: object.schema_id,
            name: object.name.clone(),
            parameters: self.parameters,
            body: self.body,
            definition: object.definition.clone(),
            schemabinding: self.schemabinding,
            native: self.native,
            null_on_null_input: self.null_on_null_input,
            reads_data,
            created_ms: object.created_ms,
            modified_ms: object.modified_ms,
        }
    }
}

/// A function's parameters: no OUTPUT (Msg 181), no table-valued ones
/// yet.
fn parameters(params: &[ast::Parameter], catalog: &Catalog) -> SqlResult<Vec<FunctionParameter>> {
    if params.iter().any(|param| param.output) {
        return Err(SqlError::new(
            181,
            15,
            1,
            "Cannot use the OUTPUT option in a DECLARE, CREATE AGGREGATE or CREATE FUNCTION statement.",
        ));
    }
    procedure::parameters(params, "CREATE FUNCTION", catalog)?
        .into_iter()
        .map(|parameter| match parameter.kind {
            ParameterKind::Scalar(data_type) => Ok(FunctionParameter {
                name: parameter.name,
                data_type,
                default: parameter.default,
            }),
            ParameterKind::Table(_) => Err(not_supported_yet(
                Refused::Statement,
                "CREATE FUNCTION with a table-valued parameter",
            )),
        })
        .collect()
}

/// The statements a scalar function runs: a natively compiled one's body
/// is one atomic block (and it is schema-bound), an interpreted one has
/// none.
fn scalar_statements(
    body: Vec<ast::Statement>,
    native: bool,
    schemabinding: bool,
) -> SqlResult<Vec<ast::Statement>> {
    if native && !schemabinding {
        return Err(not_supported_yet(
            Refused::Statement,
            "NATIVE_COMPILATION without SCHEMABINDING",
        ));
    }
    let mut body = body;
    match body.as_mut_slice() {
        [ast::Statement {
            kind: StatementKind::AtomicBlock { body: inner, .. },
            ..
        }] if native => Ok(std::mem::take(inner)),
        _ if native => Err(not_supported_yet(Refused::Statement,
            "a natively compiled function whose body is not BEGIN ATOMIC ... END",
        )),
        statements
            if statements
                .iter()
                .any(|s| matches!(s.kind, StatementKind::AtomicBlock { .. })) =>
        {
            Err(SqlError::new(
                10794,
                16,
                1,
                "The statement 'BEGIN ATOMIC' is supported only as the body of a natively compiled module.",
            ))
        }
        _ => Ok(body),
    }
}

/// Msg 487.
fn invalid_option() -> SqlError {
    SqlError::new(
        487,
        16,
        1,
        "An invalid option was specified for the statement \"CREATE/ALTER FUNCTION\".",
    )
}

/// CREATE, ALTER and CREATE OR ALTER FUNCTION: checks the definition
/// (binding an inline function's query), stores it (an altered function
/// keeps its object id and creation date) and puts the function in the
/// catalog.
pub fn create(db: &SqlDatabase, create: &ast::CreateFunction, text: &str) -> SqlResult<()> {
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
            rules::check_scalar_body(statements, &definition)?
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
            db,
            existing.as_ref().map(|function| function.object_id),
            &name,
            &shape.parameters,
            query,
            shape.schemabinding,
        )?,
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
    let written = super::sequence::written(&create.name);
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
        None if create.alter => return Err(crate::error::invalid_object_name(&written, 6)),
        None => {}
    }
    Ok(existing)
}

/// DROP FUNCTION: each name in turn (Msg 3701 for a missing one unless
/// IF EXISTS, 3729 for one a schema-bound object uses).
pub fn drop(db: &SqlDatabase, names: &[ast::ObjectName], if_exists: bool) -> SqlResult<()> {
    for name in names {
        let mut catalog = db.catalog_mut();
        let Some(function) = find(&catalog, name).cloned() else {
            if if_exists {
                continue;
            }
            return Err(super::cannot_drop(
                "function",
                &super::sequence::written(name),
            ));
        };
        super::view::refuse_if_bound(&catalog, function.object_id, "DROP FUNCTION", name)?;
        super::unstore_object(db, function.object_id)?;
        catalog.functions.remove(function.object_id);
        catalog.bindings.remove(function.object_id);
    }
    Ok(())
}

/// The function `name` names (schema dbo when it has none).
pub fn find<'c>(catalog: &'c Catalog, name: &ast::ObjectName) -> Option<&'c Arc<FunctionMeta>> {
    let schema_id = catalog.named_schema(name)?;
    catalog.functions.get(schema_id, &name.name().value)
}

/// Records again, after an open, what each schema-bound function is bound
/// to (bindings are not stored). An inline function that no longer binds
/// keeps no bindings and fails where it is used.
pub fn bind_restored(db: &SqlDatabase) {
    let bound: Vec<Arc<FunctionMeta>> = db
        .catalog()
        .functions
        .iter()
        .filter(|function| function.schemabinding)
        .cloned()
        .collect();
    for function in bound {
        let references = match &function.body {
            FunctionBody::Inline(_) => inline::references(db, &function),
            FunctionBody::Scalar { .. } => Some(procedure::bound_objects(
                &db.catalog(),
                &function.definition,
            )),
        };
        if let Some(references) = references {
            db.catalog_mut()
                .bindings
                .set(function.object_id, references);
        }
    }
}

/// The CREATE FUNCTION of a stored definition (Msg 3414 if it is not one).
fn parse_definition(definition: &str) -> SqlResult<ast::CreateFunction> {
    super::parse_stored(definition, "a function", |kind| match kind {
        StatementKind::CreateFunction(create) => Some(*create),
        _ => None,
    })
}
