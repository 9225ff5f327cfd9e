//! `hekla`: the command-line entry point.

mod bench;
mod demo;
mod memory_trim;
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
    /// SQL Server's in-memory OLTP demo: load the sales-order sample, insert orders from many connections.
    ///
    /// Loads the sample of samples/inmem-oltp (built in) into a fresh
    /// database in a temporary directory (or --data-dir DIR, or a server
    /// with -S host,port -U login -P password; a sample already there is
    /// reset with Demo.usp_DemoReset), shows the memory and checkpoint-file
    /// views, runs the article's workload batch (20 orders through the
    /// natively compiled Sales.usp_InsertSalesOrder_inmem) on --connections
    /// connections until --orders orders are in, with a live progress line,
    /// and prints elapsed time, orders/s, latency percentiles, errors by
    /// number and the views again. `--orders 10000000 --connections 100`
    /// is the article's run.
    Demo(demo::DemoArgs),
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
        Command::Demo(args) => demo::run(args),
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
