//! `hekla bench server`: requests/s, latency and the server's CPU per
//! request through the wire protocol, for a prepared point SELECT and a
//! single-row UPDATE (fully durable) with 1, 8, 64 and 200 connections,
//! plaintext and TLS; then memory per idle connection. The server is a
//! child `hekla serve` process and the client is this process, so the two
//! share no threads. In the same run, PostgreSQL 15 with pgbench (prepared
//! statements over TCP) does the same, and the ratios are printed.

mod hekla;
mod postgres;

use super::report::Report;
use clap::Args;

#[derive(Args)]
pub struct ServerBenchArgs {
    /// Rows of the key-value table.
    #[arg(long, default_value_t = 100_000)]
    rows: u32,
    /// Seconds each measurement runs for.
    #[arg(long, default_value_t = 10)]
    seconds: u32,
    /// Connection counts, comma-separated.
    #[arg(long, value_delimiter = ',', default_values_t = [1, 8, 64, 200])]
    connections: Vec<u32>,
    /// Idle connections opened to measure memory per connection.
    #[arg(long, default_value_t = 1000)]
    idle_connections: u32,
    /// Skip PostgreSQL (no ratios).
    #[arg(long)]
    no_postgres: bool,
    /// A short run (under five minutes) for smoke tests.
    #[arg(long)]
    quick: bool,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Statement {
    PointSelect,
    Update,
}

impl Statement {
    fn label(self) -> &'static str {
        match self {
            Statement::PointSelect => "point_select",
            Statement::Update => "update",
        }
    }
}

/// One measurement: a statement at a connection count.
#[derive(Clone, Copy, Debug)]
pub struct Measured {
    pub per_second: f64,
    pub p50_us: f64,
    pub p99_us: f64,
    pub server_cpu_us_per_request: f64,
}

const STATEMENTS: [Statement; 2] = [Statement::PointSelect, Statement::Update];
/// The connection count the targets are set at.
const TARGET_CONNECTIONS: u32 = 64;

pub fn run(mut args: ServerBenchArgs) -> Result<(), String> {
    if args.quick {
        args.seconds = args.seconds.min(2);
        args.rows = args.rows.min(10_000);
        args.idle_connections = args.idle_connections.min(200);
    }
    let mut report = Report::new("server", args.json);
    let server = hekla::Server::start(args.rows)?;
    // Idle connections first, on a fresh server: memory the load and the
    // runs freed would otherwise hide what connections take.
    report.section("memory per idle connection (logged in, no request running)");
    let idle = server.idle_connection_bytes(args.idle_connections)?;
    report.add("idle_connection_kib", idle / 1024.0, "KiB");
    server.load()?;
    let mut hekla_figures = Vec::new();
    for tls in [false, true] {
        report.section(if tls {
            "hekla, TLS"
        } else {
            "hekla, plaintext"
        });
        for statement in STATEMENTS {
            for &connections in &args.connections {
                let measured = server.run(statement, connections, tls, args.seconds)?;
                let name = format!(
                    "{}_{connections}c{}",
                    statement.label(),
                    if tls { "_tls" } else { "" }
                );
                add_measured(&mut report, &name, &measured);
                if !tls {
                    hekla_figures.push((statement, connections, measured));
                }
            }
        }
    }
    drop(server);

    if args.no_postgres {
        report.finish();
        return Ok(());
    }
    report.section("PostgreSQL 15 (pgbench -M prepared, TCP), and hekla's ratio");
    let postgres = postgres::Postgres::start(args.rows, free_port()?)?;
    for (statement, connections, ours) in hekla_figures {
        let theirs = postgres.run(statement, connections, args.rows, args.seconds)?;
        let name = format!("{}_{connections}c", statement.label());
        add_measured(&mut report, &format!("postgres_{name}"), &theirs);
        report.add(
            format!("{name}_ratio_vs_postgres"),
            ours.per_second / theirs.per_second,
            "x",
        );
        let cpu_ratio = theirs.server_cpu_us_per_request / ours.server_cpu_us_per_request;
        report.add(
            format!("{name}_server_cpu_ratio_vs_postgres"),
            cpu_ratio,
            "x",
        );
        if connections == TARGET_CONNECTIONS {
            report.record(
                format!("{}_server_cpu_ratio_vs_postgres", statement.label()),
                cpu_ratio,
                "x",
            );
        }
    }
    report.finish();
    Ok(())
}

fn add_measured(report: &mut Report, name: &str, measured: &Measured) {
    report.add(format!("{name}_per_s"), measured.per_second, "req/s");
    report.add(format!("{name}_p50_us"), measured.p50_us, "us");
    report.add(format!("{name}_p99_us"), measured.p99_us, "us");
    report.add(
        format!("{name}_server_cpu_us"),
        measured.server_cpu_us_per_request,
        "us/req",
    );
}

/// A loopback port nobody listens on right now.
fn free_port() -> Result<u16, String> {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .map(|address| address.port())
        .map_err(|e| format!("no free port: {e}"))
}
