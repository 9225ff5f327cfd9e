//! Dynamic SQL and the system procedures hekla has: `EXEC ('...')`,
//! `sp_executesql @stmt, @params, ...`, `sys.sp_flush_log` and
//! `sp_recompile` (`sp_spaceused` is in [`super::space_used`],
//! `sys.sp_xtp_control_proc_exec_stats` in [`super::xtp_control`], the
//! prepared statement procedures in [`super::prepared`]).
//!
//! Dynamic SQL runs like a procedure without a name: a scope of its own,
//! one level deeper (`@@NESTLEVEL`), seeing none of the caller's
//! variables; `sp_executesql` binds its parameters as a procedure's.

use super::failure::Failure;
use super::{Flow, Frame, Interpreter};
use crate::plan_cache::PlanKey;
use crate::plan_cache::ProcedurePlan as CachedPlan;
use hekla_parser::ast;
use hekla_plan::catalog::procedure::ProcedureMeta;
use hekla_types::{SqlError, SqlResult, Value};
use std::sync::Arc;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SystemProcedure {
    ExecuteSql,
    FlushLog,
    Recompile,
    SpaceUsed,
    ControlProcExecStats,
    Prepared(super::prepared::Prepared),
    /// A server cursor procedure (refused).
    Cursor,
}

/// The server cursor procedures (`sp_cursor*`) a client may call.
const CURSOR_PROCEDURES: &[&str] = &[
    "sp_cursor",
    "sp_cursorclose",
    "sp_cursorexecute",
    "sp_cursorfetch",
    "sp_cursoropen",
    "sp_cursoroption",
    "sp_cursorprepare",
    "sp_cursorprepexec",
    "sp_cursorunprepare",
];

/// The system procedure an EXEC names, if it names one (`sys.` optional).
pub fn system_procedure(target: &ast::ExecTarget) -> Option<SystemProcedure> {
    let ast::ExecTarget::Name(name) = target else {
        return None;
    };
    let in_sys = name
        .schema()
        .is_none_or(|schema| schema.value.eq_ignore_ascii_case("sys"));
    if !in_sys {
        return None;
    }
    use super::prepared::Prepared;
    match name.name().value.to_ascii_lowercase().as_str() {
        "sp_executesql" => Some(SystemProcedure::ExecuteSql),
        "sp_prepare" => Some(SystemProcedure::Prepared(Prepared::Prepare)),
        "sp_prepexec" => Some(SystemProcedure::Prepared(Prepared::PrepExec)),
        "sp_execute" => Some(SystemProcedure::Prepared(Prepared::Execute)),
        "sp_unprepare" => Some(SystemProcedure::Prepared(Prepared::Unprepare)),
        cursor if CURSOR_PROCEDURES.contains(&cursor) => Some(SystemProcedure::Cursor),
        "sp_flush_log" => Some(SystemProcedure::FlushLog),
        "sp_recompile" => Some(SystemProcedure::Recompile),
        "sp_spaceused" => Some(SystemProcedure::SpaceUsed),
        "sp_xtp_control_proc_exec_stats" => Some(SystemProcedure::ControlProcExecStats),
        _ => None,
    }
}

impl Interpreter<'_> {
    pub(super) fn system_procedure(
        &mut self,
        procedure: SystemProcedure,
        exec: &ast::Exec,
        statement: &ast::Statement,
        frame: &mut Frame,
    ) -> Result<Flow, Failure> {
        match procedure {
            SystemProcedure::ExecuteSql => self.execute_sql(exec, statement, frame),
            SystemProcedure::Prepared(prepared) => self.prepared(prepared, exec, statement, frame),
            SystemProcedure::Cursor => {
                let ast::ExecTarget::Name(name) = &exec.procedure else {
                    unreachable!("system procedures are named");
                };
                let error = super::prepared::cursors_not_supported(&name.name().value);
                Err(self.failure(error, statement, frame))
            }
            SystemProcedure::SpaceUsed => self.space_used(exec, statement, frame),
            SystemProcedure::ControlProcExecStats => {
                self.control_proc_exec_stats(exec, statement, frame)
            }
            SystemProcedure::FlushLog => {
                let db = Arc::clone(&self.session.db);
                db.engine()
                    .flush_log()
                    .map_err(|error| self.failure(error, statement, frame))?;
                self.succeeded(exec, statement, frame)
            }
            SystemProcedure::Recompile => {
                let message = self
                    .recompile(&exec.args, frame)
                    .map_err(|error| self.failure(error, statement, frame))?;
                self.sink.message(&message);
                self.succeeded(exec, statement, frame)
            }
        }
    }

    /// A system procedure that ran to its end returns 0.
    pub(super) fn succeeded(
        &mut self,
        exec: &ast::Exec,
        statement: &ast::Statement,
        frame: &mut Frame,
    ) -> Result<Flow, Failure> {
        if let Some(name) = exec.return_status.as_deref() {
            let slot = frame
                .variables
                .resolve(name)
                .map_err(|error| self.failure(error, statement, frame))?;
            frame.variables.assign(slot, Value::Int(0));
        }
        Ok(Flow::Next)
    }

    /// `sp_recompile [@objname =] 'object'`: SQL Server marks the plans
    /// that use a table, view, procedure or function to be compiled anew;
    /// hekla's schema version is one for the whole catalog, so every
    /// cached plan is (see [`crate::plan_cache`]), and a natively compiled
    /// procedure named is compiled again at its next EXEC.
    fn recompile(&mut self, arguments: &[ast::ExecArg], frame: &Frame) -> SqlResult<String> {
        let argument = match arguments {
            [argument]
                if argument
                    .name
                    .as_deref()
                    .is_none_or(|name| name.eq_ignore_ascii_case("objname")) =>
            {
                argument
            }
            _ => {
                return Err(SqlError::new(
                    201,
                    16,
                    4,
                    "Procedure or function 'sp_recompile' expects parameter '@objname', which was not supplied.",
                ))
            }
        };
        let name = match self.plain_value(&argument.value, frame)? {
            Value::String(name) => name,
            _ => return Err(expects_text("@objname")),
        };
        let object_type = self.session.in_context(&frame.variables, |context| {
            hekla_exec::server::object_type(context, &name)
        })?;
        match object_type.as_deref() {
            Some("U" | "V" | "P" | "PC" | "FN" | "IF" | "TF" | "TR") => {
                self.session.db.mark_plans_stale();
                // A natively compiled procedure's code goes too: its next
                // EXEC compiles it anew, as SQL Server recompiles it.
                let procedure = super::call::parse_name(&name).ok().and_then(|name| {
                    let catalog = self.session.db.catalog();
                    hekla_plan::catalog::procedure::find(&catalog, &name)
                        .map(|procedure| procedure.object_id)
                });
                if let Some(object_id) = procedure {
                    self.session.db.native_modules().mark_stale(object_id);
                }
                Ok(format!(
                    "Object '{name}' was successfully marked for recompilation."
                ))
            }
            _ => Err(super::space_used::not_found(&name)),
        }
    }

    /// `EXEC ('text' + @v ...)`: the concatenated text as a batch.
    pub(super) fn exec_string(
        &mut self,
        parts: &[ast::Expr],
        statement: &ast::Statement,
        frame: &mut Frame,
    ) -> Result<Flow, Failure> {
        let text = self
            .dynamic_text(parts, frame)
            .map_err(|error| self.failure(error, statement, frame))?;
        self.run_dynamic(&text, None, &[], None, statement, frame)
    }

    /// `sp_executesql [@stmt =] text [, [@params =] definitions, values]`.
    fn execute_sql(
        &mut self,
        exec: &ast::Exec,
        statement: &ast::Statement,
        frame: &mut Frame,
    ) -> Result<Flow, Failure> {
        let (text, definitions, rest) = self
            .execute_sql_arguments(&exec.args, frame)
            .map_err(|error| self.failure(error, statement, frame))?;
        let Some(text) = text else {
            // A NULL statement runs nothing, as in SQL Server.
            return Ok(Flow::Next);
        };
        self.run_dynamic(
            &text,
            Some(&definitions),
            rest,
            exec.return_status.as_deref(),
            statement,
            frame,
        )
    }

    /// The statement text, the parameter definitions and the arguments
    /// for those parameters.
    fn execute_sql_arguments<'a>(
        &mut self,
        arguments: &'a [ast::ExecArg],
        frame: &Frame,
    ) -> SqlResult<(Option<String>, String, &'a [ast::ExecArg])> {
        let named = |argument: &ast::ExecArg, name: &str| {
            argument
                .name
                .as_deref()
                .is_none_or(|given| given.eq_ignore_ascii_case(name))
        };
        // Documented as @stmt; SQL Server's own messages (and drivers such as
        // tedious) call it @statement, and SQL Server takes both.
        let Some(first) = arguments
            .first()
            .filter(|a| named(a, "stmt") || named(a, "statement"))
        else {
            return Err(SqlError::new(
                201,
                16,
                4,
                "Procedure or function 'sp_executesql' expects parameter '@statement', which was not supplied.",
            ));
        };
        let text = match self.plain_value(&first.value, frame)? {
            Value::String(text) => Some(text),
            Value::Null => None,
            _ => return Err(expects_text("@statement")),
        };
        let Some(second) = arguments.get(1).filter(|a| named(a, "params")) else {
            return Ok((text, String::new(), &arguments[1..]));
        };
        let definitions = match self.plain_value(&second.value, frame)? {
            Value::String(text) => text,
            Value::Null => String::new(),
            _ => return Err(expects_text("@params")),
        };
        Ok((text, definitions, &arguments[2..]))
    }

    /// Runs `text` as a nameless procedure with `definitions` as its
    /// parameters, bound to `arguments`.
    pub(super) fn run_dynamic(
        &mut self,
        text: &str,
        definitions: Option<&str>,
        arguments: &[ast::ExecArg],
        return_status: Option<&str>,
        statement: &ast::Statement,
        frame: &mut Frame,
    ) -> Result<Flow, Failure> {
        let plan = self
            .dynamic_plan(text, definitions)
            .map_err(|error| self.failure(error, statement, frame))?;
        self.run_procedure(&plan, arguments, return_status, statement, frame)
    }

    /// Dynamic SQL's plan, from the plan cache: `EXEC ('...')` text (no
    /// `definitions`) is ad hoc, text with parameter definitions
    /// (`sp_executesql`, `sp_prepare`) prepared. It compiles as a batch:
    /// the batch rules apply to it.
    pub(super) fn dynamic_plan(
        &self,
        text: &str,
        definitions: Option<&str>,
    ) -> SqlResult<Arc<CachedPlan>> {
        let db = &self.session.db;
        let options = &self.session.options;
        let key = match definitions {
            Some(definitions) => PlanKey::prepared(text, definitions, options),
            None => PlanKey::adhoc(text, options),
        };
        db.plan_cache()
            .get_or_compile(&key, db.schema_version(), || {
                let catalog = db.catalog();
                let procedure = ProcedureMeta::dynamic(text, key.parameters, &catalog)?;
                if let Some((error, _)) = super::batch_rules::violation(&procedure.body) {
                    return Err(error);
                }
                Ok(Arc::new(procedure))
            })
    }

    /// The text EXEC's parts add up to (NULL parts count as empty).
    fn dynamic_text(&mut self, parts: &[ast::Expr], frame: &Frame) -> SqlResult<String> {
        let mut text = String::new();
        for part in parts {
            match self.plain_value(part, frame)? {
                Value::String(piece) => text.push_str(&piece),
                Value::Null => {}
                _ => return Err(expects_text("EXECUTE")),
            }
        }
        Ok(text)
    }
}

pub(super) fn expects_text(what: &str) -> SqlError {
    SqlError::new(
        214,
        16,
        2,
        format!("Procedure expects parameter '{what}' of type 'ntext/nchar/nvarchar'."),
    )
}
