//! The session's entry points: a batch of T-SQL text, and an RPC call.
//! Each runs in an [`Interpreter`] over the session.

use super::{compile_batch, Interpreter};
use crate::plan_cache::PlanKey;
use crate::session::Session;
use hekla_plan::result::ResultSink;

impl Session {
    /// Runs one batch (text between `GO` lines). A syntax error stops the
    /// batch before anything runs; otherwise its statements run with SQL
    /// Server's control flow and error rules (see the `interpret` module).
    /// The batch's compiled form comes from the plan cache when the same
    /// text ran before under the same SET options.
    pub fn execute(&mut self, batch: &str, sink: &mut dyn ResultSink) {
        let stopwatch = self
            .options
            .statistics_time
            .then(crate::statistics::Stopwatch::start);
        let key = PlanKey::adhoc(batch, &self.options);
        let compiled = self
            .db
            .plan_cache()
            .get_or_compile(&key, self.db.schema_version(), || compile_batch(batch));
        if let Some(stopwatch) = stopwatch {
            sink.message(&stopwatch.compile_message());
        }
        match compiled {
            Ok(plan) => Interpreter::new(self, sink).run_batch(plan),
            Err(error) => sink.error(&error),
        }
    }

    /// An RPC request: `procedure` is a stored procedure's name (possibly
    /// schema-qualified) or a system procedure (`sp_executesql`,
    /// `sp_prepare`, ...), called with `parameters` as EXEC would call it
    /// with variables holding their values, under the same rules (201,
    /// 8144, 8145, 8162, 515, ...). Reports to `sink` as
    /// [`Session::execute`] does, then the return status and the OUTPUT
    /// parameters' values.
    pub fn call(
        &mut self,
        procedure: &str,
        parameters: Vec<crate::rpc::RpcParameter>,
        sink: &mut dyn ResultSink,
    ) {
        Interpreter::new(self, sink).run_rpc(procedure, parameters);
    }
}
