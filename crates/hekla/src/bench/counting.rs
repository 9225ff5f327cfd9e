//! A result sink for benchmarks: counts the rows a statement returns and
//! the rows it affects, and keeps its first error, so that no benchmark
//! measures failures unseen.

use hekla_sql::result::{ErrorEvent, ResultColumn, ResultSink};
use hekla_sql::session::Session;
use hekla_types::Value;

#[derive(Default)]
pub struct Counting {
    pub rows: u64,
    /// The row counts of the batch's statements, summed.
    pub affected: u64,
    pub error: Option<ErrorEvent>,
}

impl ResultSink for Counting {
    fn columns(&mut self, _: &[ResultColumn]) {}
    fn row(&mut self, _: &[Value]) {
        self.rows += 1;
    }
    fn done(&mut self, rows: Option<u64>) {
        self.affected += rows.unwrap_or(0);
    }
    fn message(&mut self, _: &str) {}
    fn error(&mut self, error: &ErrorEvent) {
        self.error.get_or_insert_with(|| error.clone());
    }
}

/// Runs `batch`: what it returned, or its first error with the batch.
pub fn execute(session: &mut Session, batch: &str) -> Result<Counting, String> {
    let mut sink = Counting::default();
    session.execute(batch, &mut sink);
    match sink.error.take() {
        Some(error) => Err(format!("{error}\nin: {batch}")),
        None => Ok(sink),
    }
}
