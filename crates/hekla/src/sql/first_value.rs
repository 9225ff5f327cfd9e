//! The first value a batch returns, for tools that ask the database one
//! question at a time (`hekla demo`, `hekla bench checkpoint`).

use super::batches::Runner;
use hekla_sql::result::{ErrorEvent, ResultColumn, ResultSink};
use hekla_types::Value;

/// The first column of the first row `batch` returns (NULL without rows),
/// or its first error.
pub(crate) fn first_value(session: &mut dyn Runner, batch: &str) -> Result<Value, String> {
    let mut sink = FirstValue::default();
    session.execute(batch, &mut sink);
    match sink.error {
        Some(error) => Err(error),
        None => Ok(sink.value.unwrap_or(Value::Null)),
    }
}

#[derive(Default)]
struct FirstValue {
    value: Option<Value>,
    error: Option<String>,
}

impl ResultSink for FirstValue {
    fn columns(&mut self, _: &[ResultColumn]) {}
    fn row(&mut self, values: &[Value]) {
        if self.value.is_none() {
            self.value = values.first().cloned();
        }
    }
    fn done(&mut self, _: Option<u64>) {}
    fn message(&mut self, _: &str) {}
    fn error(&mut self, error: &ErrorEvent) {
        self.error.get_or_insert_with(|| error.to_string());
    }
}
