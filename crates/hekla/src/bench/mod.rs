//! `hekla bench NAME`: benchmark programs. Each prints a readable table and,
//! with `--json`, one JSON object `{"bench": NAME, "results": [...]}`.

mod engine;
mod histogram;
mod report;
mod workload;

use clap::{Args, Subcommand};

#[derive(Args)]
pub struct BenchArgs {
    #[command(subcommand)]
    bench: Bench,
}

#[derive(Subcommand)]
enum Bench {
    /// Embedded YCSB-style point reads, updates and inserts, plus memory per row.
    Engine(engine::EngineArgs),
}

pub fn run(args: BenchArgs) -> Result<(), String> {
    if cfg!(debug_assertions) {
        eprintln!("hekla: note: a debug build; figures worth recording need `cargo run --release`");
    }
    match args.bench {
        Bench::Engine(args) => engine::run(args),
    }
}
