//! `hekla`: the command-line entry point.

mod bench;
mod serve;
mod sql;

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
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Bench(args) => bench::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Sql(args) => sql::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("hekla: {error}");
            ExitCode::FAILURE
        }
    }
}
