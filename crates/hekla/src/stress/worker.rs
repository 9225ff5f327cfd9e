//! One connection of `hekla stress`: log in, then run the batches
//! `iterations` times, timing each execution and counting its errors.

use super::progress::Progress;
use crate::bench::histogram::Histogram;
use crate::sql::batches::Runner;
use crate::sql::remote::{RemoteSession, Target};
use hekla_sql::result::{ErrorEvent, ResultColumn, ResultSink};
use hekla_sql::session::SqlDatabase;
use hekla_types::Value;
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::sync::{Arc, Barrier};
use std::time::Instant;

/// One batch of the script.
pub struct Batch<'a> {
    pub text: &'a str,
    /// `GO n` runs it n times in a row.
    pub repeat: u32,
}

/// Where connections come from.
pub enum Connector<'a> {
    /// A session of a database opened in this process.
    Embedded(Arc<SqlDatabase>),
    /// A login to a server over TDS.
    Remote(Target<'a>),
}

impl Connector<'_> {
    pub fn connect(&self) -> Result<Box<dyn Runner>, String> {
        match self {
            Connector::Embedded(db) => match db.session() {
                Ok(session) => Ok(Box::new(session)),
                Err(e) => Err(format!("Msg {}: {}", e.number, e.message)),
            },
            Connector::Remote(target) => Ok(Box::new(RemoteSession::connect(target)?)),
        }
    }
}

/// How many times an error number came back, with its first text.
pub struct ErrorCount {
    pub count: u64,
    pub text: String,
}

/// What one connection did.
#[derive(Default)]
pub struct Outcome {
    /// Why it could not log in (it then ran nothing).
    pub connect_error: Option<String>,
    /// Its link to the server broke, which ended it early.
    pub lost: bool,
    pub iterations: u64,
    pub batches: u64,
    pub rows: u64,
    pub latency: Histogram,
    pub errors: BTreeMap<u32, ErrorCount>,
    /// When it started its first batch and finished its last.
    pub ran: Option<(Instant, Instant)>,
    /// Writing its `-o` log failed.
    pub log_error: Option<String>,
}

impl Outcome {
    /// A connection whose thread panicked: reported as one that failed.
    pub fn panicked() -> Outcome {
        Outcome {
            connect_error: Some("the connection's thread panicked".to_string()),
            ..Outcome::default()
        }
    }
}

/// A connection's `-o` log file.
pub struct ConnectionLog {
    file: BufWriter<File>,
}

impl ConnectionLog {
    pub fn create(path: &Path) -> Result<ConnectionLog, String> {
        let file =
            File::create(path).map_err(|e| format!("cannot create {}: {e}", path.display()))?;
        Ok(ConnectionLog {
            file: BufWriter::new(file),
        })
    }
}

/// Connects, waits for every other connection at `ready`, then runs.
pub fn run(
    connector: &Connector,
    batches: &[Batch],
    iterations: u64,
    mut log: Option<ConnectionLog>,
    ready: &Barrier,
    progress: &Progress,
) -> Outcome {
    let connection = connector.connect();
    ready.wait();
    let mut outcome = Outcome::default();
    let mut writes = Ok(());
    match connection {
        Err(error) => {
            if let Some(log) = &mut log {
                writes = writeln!(log.file, "cannot connect: {error}");
            }
            outcome.connect_error = Some(error);
        }
        Ok(mut session) => {
            let start = Instant::now();
            writes = run_iterations(
                &mut *session,
                batches,
                iterations,
                &mut log,
                progress,
                &mut outcome,
            );
            outcome.ran = Some((start, Instant::now()));
        }
    }
    if let Some(mut log) = log {
        writes = writes.and_then(|()| log.file.flush());
    }
    outcome.log_error = writes.err().map(|e| e.to_string());
    outcome
}

fn run_iterations(
    session: &mut dyn Runner,
    batches: &[Batch],
    iterations: u64,
    log: &mut Option<ConnectionLog>,
    progress: &Progress,
    outcome: &mut Outcome,
) -> std::io::Result<()> {
    let mut sink = CountingSink::default();
    // A broken connection is not reconnected: its remaining batches are
    // not run (rather than each failing at once, which would look fast).
    'iterations: for iteration in 1..=iterations {
        for (index, batch) in batches.iter().enumerate() {
            for _ in 0..batch.repeat {
                let start = Instant::now();
                session.execute(batch.text, &mut sink);
                outcome.latency.record(start.elapsed().as_nanos() as u64);
                outcome.batches += 1;
                progress.batch_done(sink.errors.iter().map(|event| event.error.number));
                outcome.lost = session.connection_lost();
                for event in sink.errors.drain(..) {
                    if let Some(log) = log {
                        write_error(&mut log.file, iteration, index + 1, &event)?;
                    }
                    let error = &event.error;
                    outcome
                        .errors
                        .entry(error.number)
                        .or_insert_with(|| ErrorCount {
                            count: 0,
                            text: error.message.clone(),
                        })
                        .count += 1;
                }
                if outcome.lost {
                    break 'iterations;
                }
            }
        }
        outcome.iterations += 1;
    }
    outcome.rows = sink.rows;
    if let Some(log) = log {
        writeln!(
            log.file,
            "{} iterations, {} batches, {} rows, {} errors{}",
            outcome.iterations,
            outcome.batches,
            outcome.rows,
            outcome.errors.values().map(|e| e.count).sum::<u64>(),
            if outcome.lost {
                "; the connection was lost"
            } else {
                ""
            }
        )?;
    }
    Ok(())
}

/// sqlcmd's layout for an error, with where in the run it happened.
fn write_error(
    out: &mut impl Write,
    iteration: u64,
    batch: usize,
    event: &ErrorEvent,
) -> std::io::Result<()> {
    let error = &event.error;
    write!(
        out,
        "iteration {iteration}, batch {batch}: Msg {}, Level {}, State {}, ",
        error.number, error.severity, error.state
    )?;
    if let Some(procedure) = &event.procedure {
        write!(out, "Procedure {procedure}, ")?;
    }
    writeln!(out, "Line {}\n{}", event.line, error.message)
}

/// Takes a batch's results as ostress does by default: rows are read and
/// dropped (counted), errors kept until the batch's execution is tallied.
#[derive(Default)]
struct CountingSink {
    rows: u64,
    errors: Vec<ErrorEvent>,
}

impl ResultSink for CountingSink {
    fn columns(&mut self, _columns: &[ResultColumn]) {}
    fn row(&mut self, _values: &[Value]) {
        self.rows += 1;
    }
    fn done(&mut self, _rows: Option<u64>) {}
    fn message(&mut self, _text: &str) {}
    fn error(&mut self, error: &ErrorEvent) {
        self.errors.push(error.clone());
    }
}
