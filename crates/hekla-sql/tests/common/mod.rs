//! What the integration tests share: a sink that keeps what a batch sent,
//! and a runner that returns what sqlcmd would print. Each test crate uses
//! some of it.
#![allow(dead_code)]

use hekla_sql::session::{ErrorEvent, ResultColumn, ResultSink, Session};
use hekla_sql::text_output::{TextOptions, TextSink};
use hekla_types::Value;

/// Keeps the rows and errors (as sqlcmd prints them) it is sent.
#[derive(Default)]
pub struct Collect {
    pub errors: Vec<String>,
    pub rows: Vec<Vec<Value>>,
}

impl ResultSink for Collect {
    fn columns(&mut self, _: &[ResultColumn]) {}
    fn row(&mut self, values: &[Value]) {
        self.rows.push(values.to_vec());
    }
    fn done(&mut self, _: Option<u64>) {}
    fn message(&mut self, _: &str) {}
    fn error(&mut self, error: &ErrorEvent) {
        self.errors.push(error.to_string());
    }
}

/// Runs a script (batches split on GO lines); what it sent.
pub fn collect(session: &mut Session, script: &str) -> Collect {
    let mut sink = Collect::default();
    for batch in hekla_parser::script::split_batches(script) {
        session.execute(batch.text, &mut sink);
    }
    sink
}

/// Runs a script (batches split on GO lines, `GO n` running its batch n
/// times); what sqlcmd would print.
pub fn printed(session: &mut Session, script: &str) -> String {
    let mut sink = TextSink::new(Vec::new(), TextOptions::default());
    for batch in hekla_parser::script::split_batches(script) {
        for _ in 0..batch.repeat {
            session.execute(batch.text, &mut sink);
        }
    }
    let (out, failed) = sink.finish();
    assert!(failed.is_none(), "writing to memory cannot fail");
    String::from_utf8(out).expect("output is UTF-8")
}
