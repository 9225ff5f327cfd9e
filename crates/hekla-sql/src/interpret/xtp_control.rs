//! `sys.sp_xtp_control_proc_exec_stats [[@new_collection_value =] bit]
//! [, [@old_collection_value =] @v OUTPUT]`: turns the counting of
//! natively compiled procedures' calls in `sys.dm_exec_procedure_stats`
//! on (1) or off (0) for the server, and reads whether it was on. It is
//! off at startup, as in SQL Server; interpreted procedures are always
//! counted (see [`super::call`]). Members of `sysadmin` only.
//!
//! Its arguments are bound as any procedure's, against the parameters
//! SQL Server declares for it, so the EXEC errors (8144, 8145, 8162, 179,
//! conversions) are the usual ones. A NULL or missing new value changes
//! nothing; the old value is the one before the call's change.

use super::call::{assign_output, Argument};
use super::failure::Failure;
use super::{Flow, Frame, Interpreter};
use hekla_parser::ast;
use hekla_plan::catalog::procedure::ProcedureMeta;
use hekla_types::{SqlResult, Value};

const NAME: &str = "sp_xtp_control_proc_exec_stats";

const PARAMETERS: &str =
    "@new_collection_value bit = NULL, @old_collection_value bit = NULL OUTPUT";

impl Interpreter<'_> {
    pub(super) fn control_proc_exec_stats(
        &mut self,
        exec: &ast::Exec,
        statement: &ast::Statement,
        frame: &mut Frame,
    ) -> Result<Flow, Failure> {
        self.set_proc_exec_stats(&exec.args, frame)
            .map_err(|error| self.failure(error, statement, frame))?;
        self.succeeded(exec, statement, frame)
    }

    fn set_proc_exec_stats(
        &mut self,
        arguments: &[ast::ExecArg],
        frame: &mut Frame,
    ) -> SqlResult<()> {
        let mut procedure =
            ProcedureMeta::dynamic("RETURN", PARAMETERS, &self.session.db.catalog())?;
        procedure.name = NAME.to_string();
        let bound = self.bind_arguments(&procedure, arguments, frame)?;
        if !self.session.state.principal.login.is_sysadmin {
            return Err(crate::security::messages::no_permission());
        }
        let db = &self.session.db;
        let was_on = match bound.first().map(|b| &b.value) {
            Some(Argument::Scalar(Value::Bit(on))) => db.set_native_procedure_stats(*on),
            _ => db.native_procedure_stats(),
        };
        match bound.get(1).and_then(|b| b.output_to) {
            Some(slot) => assign_output(frame, slot, &Value::Bit(was_on)),
            None => Ok(()),
        }
    }
}
