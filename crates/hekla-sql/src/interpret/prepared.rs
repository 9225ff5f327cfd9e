//! Prepared statements: `sp_prepare`, `sp_prepexec`, `sp_execute` and
//! `sp_unprepare`, with integer handles kept per session (from 1 up, as
//! SQL Server numbers them). A prepared statement is parsed once and runs
//! as `sp_executesql` runs its text: a nameless procedure whose parameters
//! are the definitions it was prepared with.
//!
//! The server cursor procedures (`sp_cursoropen`, `sp_cursorfetch`, ...)
//! are refused with Msg 10794, the number hekla gives every feature it
//! does not have.

use super::failure::Failure;
use super::{Flow, Frame, Interpreter};
use crate::plan_cache::ProcedurePlan as CachedPlan;
use hekla_parser::ast::{self, ExprKind};
use hekla_types::{SqlError, SqlResult, Value};
use std::sync::Arc;

/// Which of the procedures an EXEC (or RPC) names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prepared {
    Prepare,
    PrepExec,
    Execute,
    Unprepare,
}

impl Interpreter<'_> {
    pub(super) fn prepared(
        &mut self,
        procedure: Prepared,
        exec: &ast::Exec,
        statement: &ast::Statement,
        frame: &mut Frame,
    ) -> Result<Flow, Failure> {
        let fail = |this: &Self, error, frame: &Frame| this.failure(error, statement, frame);
        match procedure {
            Prepared::Prepare | Prepared::PrepExec => {
                let name = match procedure {
                    Prepared::Prepare => "sp_prepare",
                    _ => "sp_prepexec",
                };
                let (prepared, rest) = self
                    .prepare(name, &exec.args, frame)
                    .map_err(|error| fail(self, error, frame))?;
                if procedure == Prepared::Prepare {
                    // @options is the only argument after the statement.
                    if rest.len() > 1 {
                        return Err(fail(self, too_many(name), frame));
                    }
                    return self.succeeded(exec, statement, frame);
                }
                self.run_procedure(
                    &prepared,
                    rest,
                    exec.return_status.as_deref(),
                    statement,
                    frame,
                )
            }
            Prepared::Execute => {
                let (prepared, rest) = self
                    .find_prepared(&exec.args, "sp_execute", frame)
                    .map_err(|error| fail(self, error, frame))?;
                self.run_procedure(
                    &prepared,
                    rest,
                    exec.return_status.as_deref(),
                    statement,
                    frame,
                )
            }
            Prepared::Unprepare => {
                let handle = match &exec.args[..] {
                    [argument] => self.handle(argument, "sp_unprepare", frame),
                    [] => Err(not_supplied("sp_unprepare", "handle")),
                    _ => Err(too_many("sp_unprepare")),
                };
                handle
                    .and_then(|handle| match self.session.prepared.remove(handle) {
                        true => Ok(()),
                        false => Err(unknown_handle(handle)),
                    })
                    .map_err(|error| fail(self, error, frame))?;
                self.succeeded(exec, statement, frame)
            }
        }
    }

    /// `@handle OUTPUT, @params, @stmt`: prepares the statement, sets the
    /// handle variable; the statement and the arguments after `@stmt`.
    fn prepare<'a>(
        &mut self,
        procedure: &str,
        arguments: &'a [ast::ExecArg],
        frame: &mut Frame,
    ) -> SqlResult<(Arc<CachedPlan>, &'a [ast::ExecArg])> {
        let named = |index: usize, name: &str| {
            arguments.get(index).filter(|argument| {
                argument
                    .name
                    .as_deref()
                    .is_none_or(|given| given.eq_ignore_ascii_case(name))
            })
        };
        let (handle, definitions, text) =
            (named(0, "handle"), named(1, "params"), named(2, "stmt"));
        let (Some(handle), Some(text)) = (handle, text) else {
            let missing = if handle.is_none() { "handle" } else { "stmt" };
            return Err(not_supplied(procedure, missing));
        };
        let definitions = match definitions.map(|a| self.plain_value(&a.value, frame)) {
            Some(Ok(Value::String(text))) => text,
            None | Some(Ok(Value::Null)) => String::new(),
            Some(Ok(_)) => return Err(super::dynamic::expects_text("@params")),
            Some(Err(error)) => return Err(error),
        };
        let text = match self.plain_value(&text.value, frame)? {
            Value::String(text) => text,
            _ => return Err(super::dynamic::expects_text("@stmt")),
        };
        let prepared = self.dynamic_plan(&text, Some(&definitions))?;
        let number = self.session.prepared.add(Arc::clone(&prepared));
        if let (ExprKind::Variable(variable), true) = (&handle.value.kind, handle.output) {
            let slot = frame.variables.resolve(variable)?;
            let data_type = frame.variables.data_type(slot);
            let value = hekla_types::convert::convert(&Value::Int(number), &data_type, None)?;
            frame.variables.assign_checked(slot, value)?;
        }
        Ok((prepared, &arguments[3.min(arguments.len())..]))
    }

    /// The statement `@handle` (the first argument) names, and the
    /// arguments for it. It runs from the plan cache, compiled again if
    /// the schema changed since (or the cache let it go).
    fn find_prepared<'a>(
        &mut self,
        arguments: &'a [ast::ExecArg],
        procedure: &str,
        frame: &Frame,
    ) -> SqlResult<(Arc<CachedPlan>, &'a [ast::ExecArg])> {
        let Some(first) = arguments.first() else {
            return Err(not_supplied(procedure, "handle"));
        };
        let handle = self.handle(first, procedure, frame)?;
        let prepared = self
            .session
            .prepared
            .get(handle)
            .ok_or_else(|| unknown_handle(handle))?;
        let plan = self.dynamic_plan(&prepared.module.definition, Some(&prepared.parameters))?;
        Ok((plan, &arguments[1..]))
    }

    /// A handle argument's value (NULL is handle 0, which none has).
    fn handle(
        &mut self,
        argument: &ast::ExecArg,
        procedure: &str,
        frame: &Frame,
    ) -> SqlResult<i32> {
        if argument
            .name
            .as_deref()
            .is_some_and(|name| !name.eq_ignore_ascii_case("handle"))
        {
            return Err(not_supplied(procedure, "handle"));
        }
        let value = self.plain_value(&argument.value, frame)?;
        let value = hekla_types::convert::convert(&value, &hekla_types::DataType::Int, None)?;
        Ok(value.as_i64().map_or(0, |v| v as i32))
    }
}

/// Msg 10794 for a server cursor procedure.
pub fn cursors_not_supported(procedure: &str) -> SqlError {
    SqlError::new(
        10794,
        16,
        1,
        format!("The procedure '{procedure}' (server cursors) is not supported by hekla yet."),
    )
}

fn unknown_handle(handle: i32) -> SqlError {
    SqlError::new(
        8179,
        16,
        1,
        format!("Could not find prepared statement with handle {handle}."),
    )
}

fn not_supplied(procedure: &str, parameter: &str) -> SqlError {
    SqlError::new(
        201,
        16,
        4,
        format!("Procedure or function '{procedure}' expects parameter '@{parameter}', which was not supplied."),
    )
}

fn too_many(procedure: &str) -> SqlError {
    SqlError::new(
        8144,
        16,
        2,
        format!("Procedure or function {procedure} has too many arguments specified."),
    )
}
