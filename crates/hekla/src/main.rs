//! `hekla`: the command-line entry point.

mod bench;
mod serve;
mod sql;
mod stress;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "hekla",
    version,
    about = "hekla: an in-memory OLTP database engine"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run a benchmark and print its figures.
    Bench(bench::BenchArgs),
    /// Serve a data directory to SQL Server clients over TDS.
    Serve(serve::ServeArgs),
    /// Run T-SQL against a local data directory, like sqlcmd (no server).
    Sql(sql::SqlArgs),
    /// Run a batch on many connections at once, like ostress (RML Utilities).
    ///
    /// N connections (-n) each run the batch (-Q) or the script's batches (-i)
    /// R times (-r), in parallel, one thread each. An error does not stop a
    /// connection: it is counted by its number and the connection goes on.
    /// Result rows are read and discarded (counted). At the end it prints the
    /// elapsed time (from when every connection has logged in), batches/s,
    /// latency percentiles per batch execution and the errors by number.
    ///
    /// Against a server: -S host,port -U login -P password [-d db]. In this
    /// process, with no server: --data-dir DIR (one session per connection).
    /// The exit status is 1 when no connection could log in, 2 when the
    /// arguments are wrong, 0 otherwise (failed batches are reported, not
    /// fatal).
    Stress(stress::StressArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Bench(args) => bench::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Sql(args) => sql::run(args),
        Command::Stress(args) => stress::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("hekla: {error}");
            ExitCode::FAILURE
        }
    }
}
