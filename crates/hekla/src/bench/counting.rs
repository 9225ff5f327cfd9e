//! A result sink for benchmarks: counts the rows a statement returns and
//! keeps its first error, so that no benchmark measures failures unseen.

use hekla_sql::result::{ErrorEvent, ResultColumn, ResultSink};
use hekla_types::Value;

#[derive(Default)]
pub struct Counting {
    pub rows: u64,
    pub error: Option<ErrorEvent>,
}

impl ResultSink for Counting {
    fn columns(&mut self, _: &[ResultColumn]) {}
    fn row(&mut self, _: &[Value]) {
        self.rows += 1;
    }
    fn done(&mut self, _: Option<u64>) {}
    fn message(&mut self, _: &str) {}
    fn error(&mut self, error: &ErrorEvent) {
        self.error.get_or_insert_with(|| error.clone());
    }
}
