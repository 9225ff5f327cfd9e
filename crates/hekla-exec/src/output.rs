//! Running the OUTPUT clauses of INSERT, UPDATE and DELETE (bound by
//! `plan::change::output`). Rows go out as the statement writes them, so
//! a statement that fails half-way has sent some (SQL Server says the
//! same of its OUTPUT).

use super::constraints::{Statement, StatementChecks};
use super::context::Context;
use super::eval::Inputs;
use super::text_size::TextSize;
use crate::eval::Evaluate;
use hekla_plan::plan::change::OutputPlan;
use hekla_plan::result::ResultSink;
use hekla_types::{SqlResult, Value};

/// An OUTPUT clause as its statement runs: the plan and the checks of
/// the OUTPUT INTO table.
pub struct Output<'p> {
    plan: &'p OutputPlan,
    into_checks: Option<StatementChecks>,
}

impl<'p> Output<'p> {
    /// `plan` run in `context`; its client columns sent to `sink`, before
    /// any row. None without a plan.
    pub fn start(
        context: &Context,
        plan: Option<&'p OutputPlan>,
        sink: &mut dyn ResultSink,
    ) -> Option<Output<'p>> {
        let plan = plan?;
        if let Some((columns, _)) = &plan.client {
            sink.columns(columns);
        }
        let into_checks = plan.into.as_ref().map(|into| {
            StatementChecks::new(context.db.planning(), &into.table, Statement::Insert)
        });
        Some(Output { plan, into_checks })
    }

    /// One changed row: `inserted` and `deleted` are the target's row
    /// after and before, `from` the row the statement found.
    pub fn row(
        &self,
        context: &Context,
        sink: &mut dyn ResultSink,
        inserted: Option<&[Value]>,
        deleted: Option<&[Value]>,
        from: &[Value],
    ) -> SqlResult<()> {
        let verb = self.plan.verb;
        let mut row: Vec<Value> = Vec::new();
        if verb.has_inserted() {
            row.extend_from_slice(inserted.unwrap_or_default());
        }
        if verb.has_deleted() {
            row.extend_from_slice(deleted.unwrap_or_default());
        }
        row.extend_from_slice(from);
        let inputs = Inputs::top(context).with_row(&row);
        if let (Some(into), Some(checks)) = (&self.plan.into, &self.into_checks) {
            let mut given: Vec<Option<Value>> = vec![None; into.table.columns.len()];
            for (value, &column) in into.values.iter().zip(&into.columns) {
                given[column] = Some(value.eval(&inputs)?);
            }
            super::insert::write(context, &into.table, checks, given)?;
        }
        if let Some((columns, values)) = &self.plan.client {
            let values = values
                .iter()
                .map(|value| value.eval(&inputs))
                .collect::<SqlResult<Vec<Value>>>()?;
            context.send_row(
                sink,
                &TextSize::new(columns, context.options.text_size).fit(&values),
            )?;
        }
        Ok(())
    }

    /// The statement's writes are done: the OUTPUT INTO table's checks.
    pub fn finish(&self, context: &Context) -> SqlResult<()> {
        match &self.into_checks {
            Some(checks) => checks.finish(context),
            None => Ok(()),
        }
    }
}
