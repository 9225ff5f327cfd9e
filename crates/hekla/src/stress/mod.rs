//! `hekla stress`: a load driver in the manner of ostress (RML Utilities).
//! N connections each run a batch (or a script's batches) R times, in
//! parallel, one thread per connection; it reports elapsed time,
//! batches/s, latency percentiles per batch and errors counted by number.
//! An error does not stop a connection: as ostress does, it goes on with
//! the next batch. Result rows are read and discarded (counted).

pub(crate) mod progress;
pub(crate) mod summary;
pub(crate) mod worker;

use crate::sql::remote::ConnectionArgs;
use clap::{ArgGroup, Args};
use hekla_parser::script::split_batches;
use progress::Progress;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::sync::Barrier;
use std::time::{Duration, Instant};
use summary::Summary;
use worker::{Batch, ConnectionLog, Connector, Outcome};

#[derive(Args)]
#[command(
    group(ArgGroup::new("batch").required(true).args(["query", "input"])),
    group(ArgGroup::new("target").required(true).args(["server", "data_dir", "windows_auth"]))
)]
pub struct StressArgs {
    #[command(flatten)]
    connection: ConnectionArgs,
    /// ostress's Windows authentication: not supported (use -U and -P).
    #[arg(short = 'E', long = "trusted-connection")]
    windows_auth: bool,
    /// Run in this process on the database in DIR (created if missing)
    /// instead of connecting to a server.
    #[arg(long, value_name = "DIR", conflicts_with = "server")]
    data_dir: Option<PathBuf>,
    /// The batch to run.
    #[arg(short = 'Q', long = "query", value_name = "SQL")]
    query: Option<String>,
    /// A script file to run instead: its batches, separated by GO lines,
    /// run in order in each iteration (`GO n` runs one n times).
    #[arg(
        short = 'i',
        long = "input",
        value_name = "FILE",
        conflicts_with = "query"
    )]
    input: Option<PathBuf>,
    /// Connections (threads) running at once.
    #[arg(short = 'n', long = "connections", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=10_000))]
    connections: u32,
    /// Iterations: how many times each connection runs the batch or script.
    #[arg(short = 'r', long = "iterations", default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..))]
    iterations: u64,
    /// Quiet: no live progress line on stderr. (Rows are never printed, so
    /// what ostress's -q hides is always hidden.)
    #[arg(short = 'q', long = "quiet")]
    quiet: bool,
    /// Write a log per connection (connection_N.log: its errors with their
    /// texts) and the report (summary.log) into DIR, created if missing.
    #[arg(short = 'o', long = "output", value_name = "DIR")]
    output: Option<PathBuf>,
    /// Print the report as JSON: {"bench": "stress", "results": [{"name", "value", "unit"}]}.
    #[arg(long)]
    json: bool,
}

pub fn run(args: StressArgs) -> Result<(), String> {
    if args.windows_auth {
        return Err("-E (Windows authentication) is not supported: give -U and -P".to_string());
    }
    let script = match (&args.query, &args.input) {
        (Some(query), _) => query.clone(),
        (None, Some(path)) => std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?,
        (None, None) => return Err("give -Q \"batch\" or -i file.sql".to_string()),
    };
    let batches: Vec<Batch> = split_batches(&script)
        .iter()
        .map(|batch| Batch {
            text: batch.text,
            repeat: batch.repeat,
        })
        .collect();
    if batches.is_empty() {
        return Err("no batch to run: the query or script is empty".to_string());
    }
    let (connector, target) = match (args.connection.target("hekla stress", None), &args.data_dir) {
        (Some(target), _) => {
            let described = format!("server {}", target.server);
            (Connector::Remote(target), described)
        }
        (None, Some(dir)) => (
            Connector::Embedded(crate::sql::open_database(dir, None)?),
            format!("embedded {}", dir.display()),
        ),
        (None, None) => return Err("give -S server or --data-dir DIR".to_string()),
    };
    let logs = open_logs(args.output.as_deref(), args.connections)?;
    let per_iteration: u64 = batches.iter().map(|b| u64::from(b.repeat)).sum();
    let plan = Plan {
        program: "hekla stress",
        connections: args.connections,
        iterations: args.iterations,
        batches_per_iteration: per_iteration,
        target,
    };
    let progress = Progress::new(plan.total_batches(), !args.quiet);
    let (outcomes, elapsed) = drive(&connector, &batches, args.iterations, logs, &progress)?;
    let summary = Summary::new(&plan, &outcomes, elapsed);
    let text = summary.text();
    if args.json {
        summary.json();
    } else {
        print!("{text}");
    }
    if let Some(dir) = &args.output {
        let path = dir.join("summary.log");
        std::fs::write(&path, &text)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    if let Some(error) = outcomes.iter().find_map(|o| o.log_error.as_ref()) {
        return Err(format!("cannot write a connection log: {error}"));
    }
    Ok(())
}

/// What the run was asked to do, for the report.
pub struct Plan {
    /// The command the report is of (`hekla stress`, `hekla demo`).
    pub program: &'static str,
    pub connections: u32,
    pub iterations: u64,
    pub batches_per_iteration: u64,
    /// The server or the data directory.
    pub target: String,
}

impl Plan {
    pub fn total_batches(&self) -> u64 {
        u64::from(self.connections) * self.iterations * self.batches_per_iteration
    }
}

/// `-o DIR`: one log file per connection, opened before the run so that
/// a directory that cannot be written is an error up front.
fn open_logs(dir: Option<&Path>, connections: u32) -> Result<Vec<Option<ConnectionLog>>, String> {
    let Some(dir) = dir else {
        return Ok((0..connections).map(|_| None).collect());
    };
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    (1..=connections)
        .map(|number| {
            ConnectionLog::create(&dir.join(format!("connection_{number}.log"))).map(Some)
        })
        .collect()
}

/// Runs the load with its progress line: every connection's outcome and
/// the elapsed time, or an error when no connection could log in.
pub(crate) fn drive(
    connector: &Connector,
    batches: &[Batch],
    iterations: u64,
    logs: Vec<Option<ConnectionLog>>,
    progress: &Progress,
) -> Result<(Vec<Outcome>, Duration), String> {
    let (outcomes, elapsed) = run_connections(connector, batches, iterations, logs, progress);
    progress.finish();
    if outcomes.iter().all(|o| o.connect_error.is_some()) {
        let first = outcomes.iter().find_map(|o| o.connect_error.as_deref());
        return Err(format!(
            "no connection could be made: {}",
            first.unwrap_or_default()
        ));
    }
    Ok((outcomes, elapsed))
}

/// Runs every connection on its own thread. The clock starts once every
/// connection has logged in (or failed to), as the load is what is
/// measured: from the first batch started to the last one finished.
fn run_connections(
    connector: &Connector,
    batches: &[Batch],
    iterations: u64,
    logs: Vec<Option<ConnectionLog>>,
    progress: &Progress,
) -> (Vec<Outcome>, Duration) {
    let connections = logs.len();
    let ready = Barrier::new(connections + 1);
    let (finished, finishes) = mpsc::channel::<()>();
    std::thread::scope(|scope| {
        let handles: Vec<_> = logs
            .into_iter()
            .map(|log| {
                let finished = finished.clone();
                let ready = &ready;
                scope.spawn(move || {
                    let outcome = worker::run(connector, batches, iterations, log, ready, progress);
                    // The receiver only stops listening once every sender is gone.
                    let _ = finished.send(());
                    outcome
                })
            })
            .collect();
        drop(finished);
        ready.wait();
        progress.watch(Instant::now(), &finishes);
        let outcomes: Vec<Outcome> = handles
            .into_iter()
            .map(|handle| handle.join().unwrap_or_else(|_| Outcome::panicked()))
            .collect();
        let first_start = outcomes.iter().filter_map(|o| o.ran.map(|r| r.0)).min();
        let last_end = outcomes.iter().filter_map(|o| o.ran.map(|r| r.1)).max();
        let elapsed = match (first_start, last_end) {
            (Some(start), Some(end)) => end.saturating_duration_since(start),
            _ => Duration::ZERO,
        };
        (outcomes, elapsed)
    })
}
