//! `hekla demo`: SQL Server's in-memory OLTP demo in one command. It
//! loads the sales-order sample (`samples/inmem-oltp/`, built into the
//! binary) into a fresh database or a server, shows the memory and
//! checkpoint-file views, inserts orders from many connections at once
//! with the article's workload batch (as ostress does it there), and
//! shows the views again, with orders/s, latency and errors by number.

use crate::sql::batches::Runner;
use crate::sql::first_value::first_value;
use crate::sql::remote::ConnectionArgs;
use crate::stress::progress::Progress;
use crate::stress::summary::Summary;
use crate::stress::worker::{Batch, Connector};
use crate::stress::{drive, Plan};
use clap::Args;
use hekla_parser::script::split_batches;
use hekla_sql::text_output::{TextOptions, TextSink};
use hekla_types::Value;
use std::path::PathBuf;
use std::time::Instant;

/// The sample's scripts, in the order they run.
const SAMPLE: [(&str, &str); 4] = [
    (
        "01_schema.sql",
        include_str!("../../../samples/inmem-oltp/01_schema.sql"),
    ),
    (
        "02_procedures.sql",
        include_str!("../../../samples/inmem-oltp/02_procedures.sql"),
    ),
    (
        "03_ondisk.sql",
        include_str!("../../../samples/inmem-oltp/03_ondisk.sql"),
    ),
    (
        "04_data.sql",
        include_str!("../../../samples/inmem-oltp/04_data.sql"),
    ),
];
const WORKLOAD: &str = include_str!("../../../samples/inmem-oltp/workload_inmem.sql");
const USAGE_QUERIES: &str = include_str!("../../../samples/inmem-oltp/memory_and_disk_usage.sql");
/// Orders one run of the workload batch inserts (its `WHILE (@i < 20)`).
const ORDERS_PER_BATCH: u64 = 20;

#[derive(Args)]
pub struct DemoArgs {
    /// Orders to insert (the article inserts 10,000,000).
    #[arg(long, default_value_t = 1_000_000,
          value_parser = clap::value_parser!(u64).range(1..))]
    orders: u64,
    /// Connections inserting at once (the article runs 100).
    #[arg(long, default_value_t = 100,
          value_parser = clap::value_parser!(u32).range(1..=10_000))]
    connections: u32,
    #[command(flatten)]
    connection: ConnectionArgs,
    /// A database directory (created if missing) instead of a temporary
    /// one, which is removed at the end.
    #[arg(long, value_name = "DIR", conflicts_with = "server")]
    data_dir: Option<PathBuf>,
    /// No live progress line.
    #[arg(short = 'q', long = "quiet")]
    quiet: bool,
}

pub fn run(args: DemoArgs) -> Result<(), String> {
    let temporary = args.connection.login.server.is_none() && args.data_dir.is_none();
    let dir = args
        .data_dir
        .clone()
        .unwrap_or_else(|| std::env::temp_dir().join(format!("hekla-demo-{}", std::process::id())));
    let (connector, target) = match args.connection.target("hekla demo", None) {
        Some(target) => {
            let described = format!("server {}", target.server);
            (Connector::Remote(target), described)
        }
        None => (
            Connector::Embedded(crate::sql::open_database(&dir, None)?),
            format!("embedded, durable, in {}", dir.display()),
        ),
    };
    let result = demonstrate(&args, &connector, target);
    drop(connector);
    if temporary {
        // The database's files go with the demo; a failure to remove
        // them is worth a note, not an error.
        if let Err(e) = std::fs::remove_dir_all(&dir) {
            eprintln!("hekla demo: could not remove {}: {e}", dir.display());
        }
    }
    result
}

fn demonstrate(args: &DemoArgs, connector: &Connector, target: String) -> Result<(), String> {
    let mut session = connector.connect()?;
    println!("hekla demo: the in-memory OLTP sales-order sample ({target})");
    load_sample(&mut *session)?;
    let orders_before = order_count(&mut *session)?;

    println!("\n## Memory and checkpoint files before the workload\n");
    print_queries(&mut *session, USAGE_QUERIES);

    let per_round = ORDERS_PER_BATCH * u64::from(args.connections);
    let iterations = args.orders.div_ceil(per_round);
    println!(
        "\n## The workload: {} connections x {} runs of the article's batch x {ORDERS_PER_BATCH} orders = {} orders\n",
        args.connections,
        iterations,
        per_round * iterations
    );
    let batches: Vec<Batch> = split_batches(WORKLOAD)
        .iter()
        .map(|batch| Batch {
            text: batch.text,
            repeat: batch.repeat,
        })
        .collect();
    let plan = Plan {
        program: "hekla demo",
        connections: args.connections,
        iterations,
        batches_per_iteration: 1,
        target,
    };
    let progress =
        Progress::new(plan.total_batches(), !args.quiet).counting("orders", ORDERS_PER_BATCH);
    let logs = (0..args.connections).map(|_| None).collect();
    let (outcomes, elapsed) = drive(connector, &batches, iterations, logs, &progress)?;
    let summary = Summary::new(&plan, &outcomes, elapsed);
    print!("{}", summary.text());
    let inserted = order_count(&mut *session)? - orders_before;
    let seconds = elapsed.as_secs_f64().max(f64::MIN_POSITIVE);
    println!(
        "orders inserted      {} ({} in Sales.SalesOrderHeader_inmem now)",
        inserted,
        orders_before + inserted
    );
    println!("orders/s             {:.0}", inserted as f64 / seconds);
    println!("(latency is per batch of {ORDERS_PER_BATCH} orders)");

    println!("\n## Memory and checkpoint files after the workload\n");
    print_queries(&mut *session, USAGE_QUERIES);
    Ok(())
}

/// Loads the sample, or resets it (`Demo.usp_DemoReset`) where it is
/// already there, as the article resets between runs.
fn load_sample(session: &mut dyn Runner) -> Result<(), String> {
    let present = first_value(session, "SELECT OBJECT_ID('Demo.usp_DemoReset')")?;
    let start = Instant::now();
    if present != Value::Null {
        run_checked(session, "EXEC Demo.usp_DemoReset")?;
        println!(
            "the sample was there: reset with Demo.usp_DemoReset in {:.1} s",
            start.elapsed().as_secs_f64()
        );
        return Ok(());
    }
    for (name, script) in SAMPLE {
        for batch in split_batches(script) {
            for _ in 0..batch.repeat {
                run_checked(session, batch.text).map_err(|e| format!("{name}: {e}"))?;
            }
        }
    }
    println!(
        "loaded the sample (504 products, 16 special offers, 31,465 orders with 121,140 lines) in {:.1} s",
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

fn order_count(session: &mut dyn Runner) -> Result<u64, String> {
    match first_value(
        session,
        "SELECT COUNT_BIG(*) FROM Sales.SalesOrderHeader_inmem",
    )? {
        Value::BigInt(n) => Ok(n.max(0) as u64),
        other => Err(format!("COUNT_BIG(*) returned {other:?}")),
    }
}

/// Runs `batch`; its first error fails the demo.
fn run_checked(session: &mut dyn Runner, batch: &str) -> Result<(), String> {
    first_value(session, batch).map(|_| ())
}

/// Prints what the queries return, as `hekla sql` prints it.
fn print_queries(session: &mut dyn Runner, script: &str) {
    let mut sink = TextSink::new(std::io::stdout(), TextOptions::default());
    for batch in split_batches(script) {
        session.execute(batch.text, &mut sink);
    }
    // Output to a closed stdout is not worth failing the demo for.
    let _ = sink.finish();
}
