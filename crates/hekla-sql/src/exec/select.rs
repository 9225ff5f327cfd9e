//! SELECT statements: the planned query's rows go to the client as they
//! are made.

use super::context::Context;
use super::eval::Inputs;
use super::run::for_each;
use crate::plan::QueryPlan;
use crate::session::ResultSink;
use hekla_types::SqlResult;

/// Sends the result set; its row count.
pub fn run(
    context: &Context,
    plan: &QueryPlan,
    sink: &mut dyn ResultSink,
) -> SqlResult<Option<u64>> {
    sink.columns(&plan.columns);
    let mut count = 0;
    for_each(&plan.root, &Inputs::top(context), &mut |row| {
        sink.row(row);
        count += 1;
        Ok(())
    })?;
    Ok(Some(count))
}
