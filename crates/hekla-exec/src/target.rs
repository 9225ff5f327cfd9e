//! A view's CHECK OPTION, once an INSERT's or UPDATE's writes are done.

use super::context::Context;
use super::eval::Inputs;
use super::run::for_each;
use hekla_engine::RowId;
use hekla_plan::plan::change::ChangeTarget;
use hekla_types::{SqlError, SqlResult, Value};
use std::collections::HashSet;

/// Msg 550 unless every row of `written` (the ids the statement's inserts
/// and updates gave) shows through the highest view of `target` with
/// CHECK OPTION.
pub fn check_option(context: &Context, target: &ChangeTarget, written: &[RowId]) -> SqlResult<()> {
    let Some(plan) = target.view.as_ref().and_then(|view| view.check.as_ref()) else {
        return Ok(());
    };
    if written.is_empty() {
        return Ok(());
    }
    let mut visible = HashSet::new();
    for_each(&plan.root, &Inputs::top(context), &mut |row| {
        let id = row.last().and_then(Value::as_i64);
        visible.extend(id.and_then(|number| context.row_id(number)));
        Ok(())
    })?;
    if written.iter().all(|id| visible.contains(id)) {
        return Ok(());
    }
    Err(SqlError::new(
        550,
        16,
        1,
        "The attempted insert or update failed because the target view either specifies WITH CHECK OPTION or spans a view that specifies WITH CHECK OPTION and one or more rows resulting from the operation did not qualify under the CHECK OPTION constraint.",
    ))
}
