//! Calls of user-defined functions: `schema.f(arguments)` in an
//! expression (a scalar function) or in a FROM clause (an inline
//! table-valued function, see `plan::from`). SQL Server resolves a
//! one-part name to a built-in only, so a scalar function is always
//! called by a two-part name (Msg 4121 when it names none).
//!
//! Arguments match parameters by position, one each: Msg 313 for too
//! few, 8144 for too many (parameter defaults do not make arguments
//! optional); `DEFAULT` stands for the parameter's default (313 when it
//! has none). Each converts to its parameter's type as an assignment
//! would.

use super::expr::{implicit, Binder, Scalar, ScalarKind};
use super::variables::Variables;
use crate::catalog::function::{FunctionMeta, FunctionParameter};
use crate::error::{not_supported_yet, Refused};
use hekla_parser::ast::{self, ExprKind};
use hekla_types::{SqlError, SqlResult};
use std::sync::Arc;

/// A call of a scalar function with its arguments, converted to the
/// parameters' types. Equal only to a call of the same function object.
#[derive(Clone, Debug)]
pub struct UserCall {
    pub function: Arc<FunctionMeta>,
    pub args: Vec<Scalar>,
}

impl PartialEq for UserCall {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.function, &other.function) && self.args == other.args
    }
}

impl Binder<'_> {
    /// A call of the scalar function `call` names by a two-part name.
    pub(super) fn user_function(&self, call: &ast::FunctionCall) -> SqlResult<Scalar> {
        // Expressions bound without a planner are computed apart from any
        // statement (defaults, constraints, TOP and OFFSET counts).
        let Some(planner) = self.planner else {
            return Err(not_supported_yet(
                Refused::Expression,
                "a user-defined function in a DEFAULT, CHECK, computed column, TOP or OFFSET",
            ));
        };
        let found = {
            let catalog = planner.context.catalog();
            crate::catalog::function::find(&catalog, &call.name)
                .filter(|function| function.returns().is_some())
                .map(|function| {
                    let schema = catalog.schema_name(function.schema_id).unwrap_or("dbo");
                    (Arc::clone(function), format!("{schema}.{}", function.name))
                })
        };
        let Some((function, qualified)) = found else {
            return Err(not_found(&call.name));
        };
        if let Some(access) = &planner.access {
            let object = crate::permission::ObjectRef {
                object_id: function.object_id,
                schema_id: function.schema_id,
                name: &function.name,
            };
            planner.context.require_object(
                access,
                crate::permission::Permission::Execute,
                object,
            )?;
        }
        planner.state.modules.note_module(
            &call.name,
            function.object_id,
            function.schemabinding,
        )?;
        let args = self.function_arguments(&function.parameters, &call.args, &qualified)?;
        let data_type = function.returns().expect("filtered to scalar functions");
        Ok(Scalar {
            kind: ScalarKind::UserFunction(UserCall { function, args }),
            data_type,
        })
    }

    /// The arguments of a call of the function `name` (`schema.name`, for
    /// messages), one per parameter, converted to its type.
    pub fn function_arguments(
        &self,
        parameters: &[FunctionParameter],
        args: &[ast::Expr],
        name: &str,
    ) -> SqlResult<Vec<Scalar>> {
        if args.len() > parameters.len() {
            return Err(SqlError::new(
                8144,
                16,
                2,
                format!("Procedure or function {name} has too many arguments specified."),
            ));
        }
        let insufficient = || {
            SqlError::new(
                313,
                16,
                2,
                format!("An insufficient number of arguments were supplied for the procedure or function {name}."),
            )
        };
        if args.len() < parameters.len() {
            return Err(insufficient());
        }
        parameters
            .iter()
            .zip(args)
            .map(|(parameter, arg)| {
                let value = match (&arg.kind, &parameter.default) {
                    (ExprKind::Default, Some(default)) => default_value(default)?,
                    (ExprKind::Default, None) => return Err(insufficient()),
                    _ => self.scalar(arg)?,
                };
                implicit(value, &parameter.data_type)
            })
            .collect()
    }
}

/// A parameter's default: a constant (variables and subqueries are not
/// allowed there).
fn default_value(default: &ast::Expr) -> SqlResult<Scalar> {
    let variables = Variables::default();
    Binder::new(&variables).scalar(default)
}

/// Msg 4121 for a qualified function name that names no scalar function.
fn not_found(name: &ast::ObjectName) -> SqlError {
    let qualifier = name
        .parts
        .iter()
        .rev()
        .nth(1)
        .and_then(Option::as_ref)
        .map_or("", |part| part.value.as_str());
    SqlError::new(
        4121,
        16,
        1,
        format!(
            "Cannot find either column \"{qualifier}\" or the user-defined function or aggregate \"{}\", or the name is ambiguous.",
            crate::catalog::sequence::written(name)
        ),
    )
}
