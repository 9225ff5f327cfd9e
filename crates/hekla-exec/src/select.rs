//! SELECT statements: the planned query's rows go to the client as they
//! are made (each once nothing it may depend on is still committing, see
//! `Context::send_row`), long values cut to SET TEXTSIZE.

use super::context::Context;
use super::eval::Inputs;
use super::run::for_each;
use super::text_size::TextSize;
use hekla_plan::plan::QueryPlan;
use hekla_plan::result::ResultSink;
use hekla_types::SqlResult;

/// Sends the result set; its row count.
pub fn run(
    context: &Context,
    plan: &QueryPlan,
    sink: &mut dyn ResultSink,
) -> SqlResult<Option<u64>> {
    sink.columns(&plan.columns);
    let text_size = TextSize::new(&plan.columns, context.options.text_size);
    let mut count = 0;
    for_each(&plan.root, &Inputs::top(context), &mut |row| {
        // Rows a sort or an aggregate hands on come from no scan.
        context.check_cancel()?;
        context.send_row(sink, &text_size.fit(row))?;
        count += 1;
        Ok(())
    })?;
    Ok(Some(count))
}
