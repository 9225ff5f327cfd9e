//! EXEC of a stored procedure: arguments bound to parameters (by position,
//! then by name; defaults; OUTPUT), a frame of its own, the return status,
//! and SQL Server's checks (2812, 201, 8144, 8145, 119, 179, 8162, 217,
//! 266). A natively compiled procedure's body is an atomic block: one
//! transaction, or a savepoint in the caller's (see [`Interpreter::atomic`]).

use super::failure::{Failure, Reach};
use super::{Flow, Frame, Interpreter};
use crate::plan_cache::ProcedurePlan as CachedPlan;
use crate::plan_cache::{PlanKey, PlanKind};
use crate::security::access::Checks;
use crate::statistics::Measurement;
use hekla_parser::ast::{self, ExprKind};
use hekla_plan::catalog::procedure::{ParameterKind, ProcedureMeta};
use hekla_plan::permission::Permission;
use hekla_types::{SqlError, SqlResult, Value};

/// Variables a procedure's frame has room for besides its parameters
/// before it grows: most bodies declare no more.
const EXPECTED_DECLARATIONS: usize = 8;
use std::sync::Arc;

/// How deep procedure calls may nest (SQL Server's limit).
pub const MAX_NESTING: u8 = 32;

/// A value bound to a parameter, and where an OUTPUT value goes back to.
pub(super) struct Bound {
    pub(super) value: Argument,
    /// The caller's variable slot for an OUTPUT argument.
    pub(super) output_to: Option<usize>,
}

pub(super) enum Argument {
    Scalar(Value),
    /// A table variable of the caller, passed READONLY.
    Table(Arc<hekla_plan::catalog::table::TableMeta>),
}

impl Interpreter<'_> {
    /// `EXEC [@status =] procedure [arguments]`.
    pub(super) fn exec(
        &mut self,
        exec: &ast::Exec,
        statement: &ast::Statement,
        frame: &mut Frame,
    ) -> Result<Flow, Failure> {
        if let Some(system) = super::dynamic::system_procedure(&exec.procedure) {
            return self.system_procedure(system, exec, statement, frame);
        }
        let procedure = self
            .procedure(&exec.procedure, frame)
            .map_err(|error| self.failure(error, statement, frame))?;
        let plan = self.procedure_plan(procedure);
        self.run_procedure(
            &plan,
            &exec.args,
            exec.return_status.as_deref(),
            statement,
            frame,
        )
    }

    /// Calls `procedure` (a stored one, or dynamic SQL) with `arguments`
    /// from `frame`; `return_status` names the variable for its status.
    pub(super) fn run_procedure(
        &mut self,
        plan: &Arc<CachedPlan>,
        arguments: &[ast::ExecArg],
        return_status: Option<&str>,
        statement: &ast::Statement,
        frame: &mut Frame,
    ) -> Result<Flow, Failure> {
        let procedure = &plan.module;
        let fail =
            |this: &Self, error: SqlError, frame: &Frame| this.failure(error, statement, frame);
        if frame.level >= MAX_NESTING {
            return Err(fail(self, nesting_exceeded(), frame));
        }
        if let (false, Some(access)) = (procedure.is_dynamic(), self.session.access()) {
            let object = hekla_plan::permission::ObjectRef {
                object_id: procedure.object_id,
                schema_id: procedure.schema_id,
                name: &procedure.name,
            };
            access
                .require_object(&*self.session.db, Permission::Execute, object)
                .map_err(|error| fail(self, error, frame))?;
        }
        let bound = self
            .bind_arguments(procedure, arguments, frame)
            .map_err(|error| fail(self, error, frame))?;
        let trancount = self.session.transaction.count();
        // As SQL Server, only the batch's own EXEC of a stored procedure
        // reports it (its return status), not nested calls or dynamic SQL.
        let reported = self.in_sql_batch && frame.level == 0 && !procedure.is_dynamic();
        if reported {
            self.sink.procedure_started();
        }
        let measurement = self
            .counts_calls(plan)
            .then(|| Measurement::start(self.session.options.statistics_time));
        let called = self.call(plan, bound, frame.level + 1);
        if let Some(measurement) = measurement {
            plan.record_call(&measurement.finish());
        }
        if reported {
            self.sink
                .procedure_ended(called.as_ref().ok().map(|(status, _)| *status));
        }
        let (status, outputs) = called?;
        for (slot, value) in outputs {
            assign_output(frame, slot, &value).map_err(|error| fail(self, error, frame))?;
        }
        if let Some(name) = return_status {
            let slot = frame
                .variables
                .resolve(name)
                .map_err(|error| fail(self, error, frame))?;
            frame.variables.assign(slot, Value::Int(status));
        }
        let after = self.session.transaction.count();
        // A transaction the procedure's statements began implicitly is no
        // missing COMMIT: SQL Server raises no 266 for it.
        let begun_implicitly =
            self.session.options.implicit_transactions && (trancount, after) == (0, 1);
        if after != trancount && !begun_implicitly {
            return Err(fail(self, mismatching_count(trancount, after), frame));
        }
        Ok(Flow::Next)
    }

    /// Whether a call of `plan` counts in `sys.dm_exec_procedure_stats`:
    /// a stored procedure's whose body started, run to its end or not
    /// (nested calls each count, in their callers' time too); a natively
    /// compiled one's only while `sys.sp_xtp_control_proc_exec_stats` has
    /// collection on, as SQL Server counts them.
    fn counts_calls(&self, plan: &CachedPlan) -> bool {
        plan.kind == PlanKind::Proc
            && (!plan.module.native || self.session.db.native_procedure_stats())
    }

    /// A stored procedure's entry in the plan cache (objtype 'Proc'): its
    /// statements are the catalog's, parsed when it was created.
    fn procedure_plan(&self, procedure: Arc<ProcedureMeta>) -> Arc<CachedPlan> {
        let db = &self.session.db;
        let key = PlanKey::procedure(procedure.object_id, &self.session.options);
        let compiled = db
            .plan_cache()
            .get_or_compile(&key, db.schema_version(), || {
                Ok::<_, std::convert::Infallible>(procedure)
            });
        match compiled {
            Ok(plan) => plan,
            Err(never) => match never {},
        }
    }

    /// The machine code `procedure` runs with: a native procedure's, while
    /// native compilation is on.
    fn native_code(
        &self,
        procedure: &ProcedureMeta,
    ) -> Option<Arc<hekla_exec::compiled::ModuleCode>> {
        let db = &*self.session.db;
        if !(procedure.native && db.native_compilation()) {
            return None;
        }
        crate::ddl::native_compile::code_for(db, procedure)
    }

    /// The procedure an EXEC names (Msg 2812 if there is none).
    fn procedure(
        &mut self,
        target: &ast::ExecTarget,
        frame: &Frame,
    ) -> SqlResult<Arc<ProcedureMeta>> {
        let name = match target {
            ast::ExecTarget::Name(name) => name.clone(),
            ast::ExecTarget::Variable(variable) => {
                let slot = frame.variables.resolve(variable)?;
                match frame.variables.values()[slot].clone() {
                    Value::String(text) => parse_name(&text)?,
                    _ => return Err(not_found("")),
                }
            }
        };
        let catalog = self.session.db.catalog();
        hekla_plan::catalog::procedure::find(&catalog, &name)
            .cloned()
            .ok_or_else(|| not_found(&hekla_plan::catalog::sequence::written(&name)))
    }

    /// Each parameter's value: positional arguments first, then named
    /// ones, then defaults.
    pub(super) fn bind_arguments(
        &mut self,
        procedure: &ProcedureMeta,
        arguments: &[ast::ExecArg],
        frame: &Frame,
    ) -> SqlResult<Vec<Bound>> {
        let name = &procedure.name;
        if arguments.len() > procedure.parameters.len() {
            return Err(SqlError::new(
                8144,
                16,
                2,
                format!("Procedure or function {name} has too many arguments specified."),
            ));
        }
        let mut given: Vec<Option<&ast::ExecArg>> = vec![None; procedure.parameters.len()];
        let mut named_from = None;
        for (position, argument) in arguments.iter().enumerate() {
            let index = match &argument.name {
                None if named_from.is_some() => {
                    return Err(SqlError::new(
                        119,
                        15,
                        1,
                        format!("Must pass parameter number {} and subsequent parameters as '@name = value'. After the form '@name = value' has been used, all subsequent parameters must be passed in the form '@name = value'.", position + 1),
                    ))
                }
                None => position,
                Some(parameter) => {
                    named_from.get_or_insert(position);
                    procedure
                        .parameters
                        .iter()
                        .position(|p| p.name.eq_ignore_ascii_case(parameter))
                        .ok_or_else(|| {
                            SqlError::new(
                                8145,
                                16,
                                2,
                                format!("@{parameter} is not a parameter for procedure {name}."),
                            )
                        })?
                }
            };
            if given[index].replace(argument).is_some() {
                return Err(SqlError::new(
                    8143,
                    16,
                    1,
                    format!(
                        "Parameter '@{}' was supplied multiple times.",
                        procedure.parameters[index].name
                    ),
                ));
            }
        }
        procedure
            .parameters
            .iter()
            .zip(given)
            .map(|(parameter, argument)| {
                let explicit = argument.filter(|a| !matches!(a.value.kind, ExprKind::Default));
                let output_to = match argument {
                    Some(argument) if argument.output => {
                        if !parameter.output {
                            return Err(SqlError::new(
                                8162,
                                16,
                                2,
                                format!("The formal parameter \"@{}\" was not declared as an OUTPUT parameter, but the actual parameter passed in requested output.", parameter.name),
                            ));
                        }
                        let ExprKind::Variable(variable) = &argument.value.kind else {
                            return Err(SqlError::new(
                                179,
                                15,
                                1,
                                "Cannot use the OUTPUT option when passing a constant to a stored procedure.",
                            ));
                        };
                        Some(frame.variables.resolve(variable)?)
                    }
                    _ => None,
                };
                let value = match (&parameter.kind, explicit) {
                    (ParameterKind::Table(type_id), Some(argument)) => {
                        let given = match &argument.value.kind {
                            ExprKind::Variable(_) => None,
                            _ => Some(self.type_name(&argument.value, frame)?),
                        };
                        let catalog = self.session.db.catalog();
                        Argument::Table(table_argument(
                            &argument.value,
                            given,
                            *type_id,
                            &catalog,
                            frame,
                        )?)
                    }
                    (ParameterKind::Table(_), None) => {
                        return Err(SqlError::new(
                            206,
                            16,
                            2,
                            format!("Operand type clash: a table-valued parameter '@{}' needs a table variable.", parameter.name),
                        ))
                    }
                    (ParameterKind::Scalar(data_type), Some(argument)) => {
                        let value = self.value(&argument.value, data_type, frame)?;
                        if parameter.not_null && value.is_null() {
                            return Err(SqlError::new(
                                515,
                                16,
                                2,
                                format!("Cannot pass NULL to the parameter '@{}' of procedure {name}, which is declared NOT NULL.", parameter.name),
                            ));
                        }
                        Argument::Scalar(value)
                    }
                    (ParameterKind::Scalar(data_type), None) => match &parameter.default {
                        Some(default) => {
                            Argument::Scalar(self.value(default, data_type, frame)?)
                        }
                        None if procedure.is_dynamic() => {
                            return Err(SqlError::new(
                                8178,
                                16,
                                1,
                                format!("The parameterized query '{name}' expects the parameter '@{}', which was not supplied.", parameter.name),
                            ))
                        }
                        None => {
                            return Err(SqlError::new(
                                201,
                                16,
                                4,
                                format!("Procedure or function '{name}' expects parameter '@{}', which was not supplied.", parameter.name),
                            ))
                        }
                    },
                };
                Ok(Bound { value, output_to })
            })
            .collect()
    }

    /// Runs `procedure` at nesting `level` with its bound arguments: its
    /// return status and the OUTPUT values to copy back.
    fn call(
        &mut self,
        plan: &Arc<CachedPlan>,
        arguments: Vec<Bound>,
        level: u8,
    ) -> Result<(i32, Vec<(usize, Value)>), Failure> {
        let procedure = &plan.module;
        let mut callee = Frame {
            variables: hekla_plan::bind::variables::Variables::with_room(
                self.session.state.spid,
                procedure.parameters.len() + EXPECTED_DECLARATIONS,
            ),
            level,
            procedure: procedure.shown_name(),
            source: &procedure.definition,
            return_status: None,
            native: procedure.native,
            plan: Some(Arc::clone(plan)),
        };
        let mut outputs = Vec::new();
        for (parameter, bound) in procedure.parameters.iter().zip(arguments) {
            match bound.value {
                Argument::Scalar(value) => {
                    let ParameterKind::Scalar(data_type) = &parameter.kind else {
                        unreachable!("scalar arguments bind scalar parameters");
                    };
                    let slot = callee
                        .variables
                        .declare(&parameter.name, *data_type)
                        .expect("parameter names are unique");
                    if parameter.not_null {
                        callee.variables.forbid_null(slot);
                    }
                    callee.variables.assign(slot, value);
                    if let Some(caller_slot) = bound.output_to {
                        outputs.push((caller_slot, slot));
                    }
                }
                Argument::Table(table) => {
                    callee
                        .variables
                        .declare_table_parameter(&parameter.name, table, true)
                        .expect("parameter names are unique");
                    // Its type goes with it, so the procedure can pass
                    // it on to another one taking the same type.
                    if let ParameterKind::Table(type_id) = parameter.kind {
                        callee.variables.set_table_type(&parameter.name, type_id);
                    }
                }
            }
        }
        let outer_options = self.session.options.clone();
        let temp_mark = self.session.db.temp_tables().mark();
        let outer_scope_identity = self.session.state.scope_identity.take();
        let outer_level = std::mem::replace(&mut self.session.state.nest_level, level);
        let code = self.native_code(procedure);
        let outer_native = std::mem::replace(&mut self.session.state.native_code, code);
        // A stored procedure's statements are in its ownership chain;
        // dynamic SQL starts a new one, checked as the caller.
        let outer_chain = std::mem::replace(
            &mut self.session.in_ownership_chain,
            !procedure.is_dynamic(),
        );
        let outcome = match procedure.atomic_block() {
            Some((options, body)) if procedure.native => self.atomic(options, body, &mut callee),
            _ => self.block(&procedure.body, &mut callee),
        };
        self.session.options = outer_options;
        self.session.state.scope_identity = outer_scope_identity;
        self.session.state.nest_level = outer_level;
        self.session.state.native_code = outer_native;
        self.session.in_ownership_chain = outer_chain;
        let values = outputs
            .into_iter()
            .map(|(caller_slot, slot)| (caller_slot, callee.variables.values()[slot].clone()))
            .collect();
        self.end_frame(&mut callee);
        crate::ddl::temp::end_procedure(&*self.session.db, self.session.state.spid, temp_mark);
        match outcome {
            Ok(Flow::Goto(label)) => {
                Err(self.frame_failure(super::undeclared_label(&label), &callee))
            }
            Ok(_) => Ok((callee.return_status.unwrap_or(0), values)),
            // A compile error ended the procedure: the caller goes on, and
            // the status tells of the error's severity, as in SQL Server.
            Err(failure) if failure.reported && failure.reach == Reach::Scope => {
                Ok((10 - i32::from(failure.error().severity), Vec::new()))
            }
            Err(failure) => Err(failure),
        }
    }
}

/// Gives the caller's variable at `slot` an OUTPUT parameter's `value`,
/// converted to the variable's type.
pub(super) fn assign_output(frame: &mut Frame, slot: usize, value: &Value) -> SqlResult<()> {
    let data_type = frame.variables.data_type(slot);
    let value = hekla_types::convert::convert(value, &data_type, None)?;
    frame.variables.assign_checked(slot, value)
}

/// A procedure name held in a variable (`EXEC @name`) or given by an RPC.
pub(super) fn parse_name(text: &str) -> SqlResult<ast::ObjectName> {
    let parts = text
        .split('.')
        .map(|part| {
            let part = part.trim().trim_start_matches('[').trim_end_matches(']');
            (!part.is_empty()).then(|| ast::Ident {
                value: part.to_string(),
                span: hekla_parser::Span::default(),
            })
        })
        .collect::<Vec<_>>();
    if parts.is_empty() || parts.len() > 4 || parts.last().is_some_and(Option::is_none) {
        return Err(not_found(text));
    }
    Ok(ast::ObjectName {
        parts,
        span: hekla_parser::Span::default(),
    })
}

/// The table variable a READONLY parameter of table type `type_id` is
/// passed: one declared with that type (Msg 206 for another, or for a
/// value of type `given`).
fn table_argument(
    expr: &ast::Expr,
    given: Option<String>,
    type_id: i32,
    catalog: &hekla_plan::catalog::Catalog,
    frame: &Frame,
) -> SqlResult<Arc<hekla_plan::catalog::table::TableMeta>> {
    let type_name = |id: Option<i32>| {
        id.and_then(|id| catalog.types.by_id(id))
            .map_or_else(|| "table".to_string(), |t| t.name.clone())
    };
    let clash = |given: String| {
        SqlError::new(
            206,
            16,
            2,
            format!(
                "Operand type clash: {given} is incompatible with {}",
                type_name(Some(type_id))
            ),
        )
    };
    let (ExprKind::Variable(name), None) = (&expr.kind, &given) else {
        return Err(clash(given.unwrap_or_else(|| "table".to_string())));
    };
    let Some(table) = frame.variables.table(name) else {
        return match frame.variables.slot(name) {
            Some(slot) => Err(clash(frame.variables.data_type(slot).sql_name())),
            None => Err(hekla_plan::error::undeclared_variable(name)),
        };
    };
    let declared = frame.variables.table_type(name);
    if declared != Some(type_id) {
        return Err(clash(type_name(declared)));
    }
    Ok(Arc::clone(table))
}

fn not_found(name: &str) -> SqlError {
    SqlError::new(
        2812,
        16,
        62,
        format!("Could not find stored procedure '{name}'."),
    )
}

fn nesting_exceeded() -> SqlError {
    SqlError::new(
        217,
        16,
        1,
        format!("Maximum stored procedure, function, trigger, or view nesting level exceeded (limit {MAX_NESTING})."),
    )
}

fn mismatching_count(before: u32, after: u32) -> SqlError {
    SqlError::new(
        266,
        16,
        2,
        format!("Transaction count after EXECUTE indicates a mismatching number of BEGIN and COMMIT statements. Previous count = {before}, current count = {after}."),
    )
}
