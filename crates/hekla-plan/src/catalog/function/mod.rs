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
//!   calls them (`plan::inline_function`).
//!
//! Multi-statement table-valued functions (`RETURNS @t TABLE (...)`) are
//! refused with Msg 10794.
//!
//! WITH SCHEMABINDING binds a function to the tables, views and functions
//! it names, which cannot be dropped or altered while it exists (Msg
//! 3729): an inline function to what its query binds, a scalar function
//! to the two-part names in its text (as procedures are).

pub mod rules;

use super::objects::{schema_object, Objects};
use super::procedure::{self, ParameterKind};
use super::store::{ObjectType, StoredObject};
use super::Catalog;
use crate::error::{not_supported_yet, Refused};
use crate::type_names::{self, TypeContext};
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

pub fn object_type(body: &FunctionBody) -> ObjectType {
    match body {
        FunctionBody::Scalar { .. } => ObjectType::ScalarFunction,
        FunctionBody::Inline(_) => ObjectType::InlineTableFunction,
    }
}

/// The catalog's functions.
pub type Functions = Objects<FunctionMeta>;

/// What a CREATE FUNCTION says, checked.
pub struct Shape {
    pub parameters: Vec<FunctionParameter>,
    pub body: FunctionBody,
    pub schemabinding: bool,
    pub native: bool,
    pub null_on_null_input: bool,
}

impl Shape {
    pub fn of(create: ast::CreateFunction, catalog: &Catalog) -> SqlResult<Shape> {
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
                let returns = type_names::resolve(
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
    pub fn into_meta(self, object: &StoredObject) -> FunctionMeta {
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

/// The function `name` names (schema dbo when it has none).
pub fn find<'c>(catalog: &'c Catalog, name: &ast::ObjectName) -> Option<&'c Arc<FunctionMeta>> {
    let schema_id = catalog.named_schema(name)?;
    catalog.functions.get(schema_id, &name.name().value)
}

/// The CREATE FUNCTION of a stored definition (Msg 3414 if it is not one).
pub fn parse_definition(definition: &str) -> SqlResult<ast::CreateFunction> {
    super::parse_stored(definition, "a function", |kind| match kind {
        StatementKind::CreateFunction(create) => Some(*create),
        _ => None,
    })
}
