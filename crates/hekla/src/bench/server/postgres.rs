//! The peer in the same run: a PostgreSQL 15 server started in a temporary
//! directory on a loopback TCP port (fsync and synchronous_commit on, its
//! defaults), driven by pgbench with prepared statements over TCP — as thin
//! a client as hekla's. Its CPU per request is the postmaster's and its
//! backends' CPU time, read from `/proc`.

use super::{Measured, Statement};
use crate::bench::histogram::Histogram;
use crate::bench::process;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

pub struct Postgres {
    bin: PathBuf,
    work: PathBuf,
    port: u16,
}

impl Postgres {
    /// Initialises and starts a server with a `kv(id int primary key, val
    /// int)` table of `rows` rows.
    pub fn start(rows: u32, port: u16) -> Result<Postgres, String> {
        let bin = newest_bin()?;
        let work = std::env::temp_dir().join(format!("hekla-bench-pg-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&work);
        std::fs::create_dir_all(&work).map_err(|e| format!("{}: {e}", work.display()))?;
        // The server runs as `postgres` when this runs as root.
        make_world_writable(&work)?;
        let postgres = Postgres { bin, work, port };
        let data = postgres.work.join("data");
        postgres.run_tool(
            "initdb",
            &["-D", path(&data), "-A", "trust", "-U", "postgres"],
        )?;
        let options = format!(
            "-p {port} -c listen_addresses=127.0.0.1 -k {} -c max_connections=250 \
             -c shared_buffers=1GB -c max_wal_size=8GB -c checkpoint_timeout=1h",
            path(&postgres.work)
        );
        let log = postgres.work.join("log");
        postgres.run_tool(
            "pg_ctl",
            &[
                "-D",
                path(&data),
                "-l",
                path(&log),
                "-w",
                "-o",
                &options,
                "start",
            ],
        )?;
        postgres.psql(&format!(
            "CREATE TABLE kv (id int PRIMARY KEY, val int NOT NULL); \
             INSERT INTO kv SELECT g, 0 FROM generate_series(1, {rows}) g;"
        ))?;
        // VACUUM cannot share psql's one -c transaction.
        postgres.psql("VACUUM ANALYZE kv")?;
        Ok(postgres)
    }

    /// The postmaster's process id.
    fn postmaster(&self) -> Result<u32, String> {
        let pid_file = self.work.join("data/postmaster.pid");
        std::fs::read_to_string(&pid_file)
            .ok()
            .and_then(|text| text.lines().next()?.trim().parse().ok())
            .ok_or_else(|| format!("no pid in {}", pid_file.display()))
    }

    /// pgbench with `clients` connections running `statement` for
    /// `seconds`: throughput, latency percentiles (from a 10% sample of
    /// pgbench's per-transaction log) and the server's CPU per request.
    pub fn run(
        &self,
        statement: Statement,
        clients: u32,
        rows: u32,
        seconds: u32,
    ) -> Result<Measured, String> {
        let script = self.work.join("script.sql");
        let body = match statement {
            Statement::PointSelect => "SELECT val FROM kv WHERE id = :id;",
            Statement::Update => "UPDATE kv SET val = val + 1 WHERE id = :id;",
        };
        std::fs::write(&script, format!("\\set id random(1, {rows})\n{body}\n"))
            .map_err(|e| e.to_string())?;
        make_world_writable(&script)?;
        let logs = self.work.join(format!("latency-{statement:?}-{clients}"));
        let _ = std::fs::remove_dir_all(&logs);
        std::fs::create_dir_all(&logs).map_err(|e| e.to_string())?;
        make_world_writable(&logs)?;
        let postmaster = self.postmaster()?;
        let cpu_before = process::tree_cpu_seconds(postmaster);
        let jobs = clients.min(4).to_string();
        let output = self.tool_output(
            "pgbench",
            &[
                "-h",
                "127.0.0.1",
                "-p",
                &self.port.to_string(),
                "-U",
                "postgres",
                "-n",
                "-M",
                "prepared",
                "-c",
                &clients.to_string(),
                "-j",
                &jobs,
                "-T",
                &seconds.to_string(),
                "-f",
                path(&script),
                "-l",
                "--sampling-rate=0.1",
                &format!("--log-prefix={}", path(&logs.join("pgbench"))),
                "postgres",
            ],
        )?;
        // Backends exit when pgbench disconnects; the postmaster reaps them
        // (and so accounts their CPU) a moment later.
        std::thread::sleep(Duration::from_millis(300));
        let server_cpu = process::tree_cpu_seconds(postmaster) - cpu_before;
        let transactions = output
            .lines()
            .find_map(|line| line.strip_prefix("number of transactions actually processed: "))
            .and_then(|rest| rest.split('/').next()?.trim().parse::<u64>().ok())
            .ok_or_else(|| format!("pgbench printed no transaction count:\n{output}"))?;
        let per_second = output
            .lines()
            .find(|line| line.starts_with("tps = "))
            .and_then(|line| line.split_whitespace().nth(2)?.parse::<f64>().ok())
            .ok_or_else(|| format!("pgbench printed no tps:\n{output}"))?;
        let latency = sampled_latency(&logs)?;
        Ok(Measured {
            per_second,
            p50_us: latency.percentile(0.50) as f64 / 1000.0,
            p99_us: latency.percentile(0.99) as f64 / 1000.0,
            server_cpu_us_per_request: server_cpu * 1e6 / transactions.max(1) as f64,
        })
    }

    fn psql(&self, sql: &str) -> Result<(), String> {
        let port = self.port.to_string();
        self.tool_output(
            "psql",
            &[
                "-q",
                "-h",
                "127.0.0.1",
                "-p",
                &port,
                "-U",
                "postgres",
                "-d",
                "postgres",
                "-v",
                "ON_ERROR_STOP=1",
                "-c",
                sql,
            ],
        )
        .map(drop)
    }

    fn run_tool(&self, tool: &str, args: &[&str]) -> Result<(), String> {
        self.tool_output(tool, args).map(drop)
    }

    /// Runs a PostgreSQL program as the `postgres` user when this process
    /// is root (the server refuses to run as root).
    fn tool_output(&self, tool: &str, args: &[&str]) -> Result<String, String> {
        let program = self.bin.join(tool);
        // SAFETY: geteuid has no preconditions and touches no memory.
        let root = unsafe { libc::geteuid() } == 0;
        let mut command = if root {
            let mut command = Command::new("runuser");
            command.args(["-u", "postgres", "--"]).arg(&program);
            command
        } else {
            Command::new(&program)
        };
        let output = command
            .args(args)
            .current_dir(&self.work)
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("{}: {e}", program.display()))?;
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        if !output.status.success() {
            return Err(format!(
                "{tool} failed ({}): {stdout}{}",
                output.status,
                String::from_utf8_lossy(&output.stderr)
            ));
        }
        Ok(stdout)
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        let data = self.work.join("data");
        let _ = self.run_tool("pg_ctl", &["-D", path(&data), "-m", "immediate", "stop"]);
        let _ = std::fs::remove_dir_all(&self.work);
    }
}

/// The per-transaction latencies pgbench logged (microseconds, third
/// field of each line), as a histogram in nanoseconds.
fn sampled_latency(logs: &Path) -> Result<Histogram, String> {
    let mut histogram = Histogram::default();
    for entry in std::fs::read_dir(logs).map_err(|e| e.to_string())? {
        let text = std::fs::read_to_string(entry.map_err(|e| e.to_string())?.path())
            .map_err(|e| e.to_string())?;
        for micros in text
            .lines()
            .filter_map(|line| line.split_whitespace().nth(2)?.parse::<u64>().ok())
        {
            histogram.record(micros * 1000);
        }
    }
    Ok(histogram)
}

fn newest_bin() -> Result<PathBuf, String> {
    let mut versions: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .map_err(|_| "PostgreSQL is not installed (/usr/lib/postgresql)".to_string())?
        .filter_map(|entry| Some(entry.ok()?.path().join("bin")))
        .filter(|bin| bin.join("pgbench").exists())
        .collect();
    versions.sort();
    versions
        .pop()
        .ok_or_else(|| "no PostgreSQL with pgbench under /usr/lib/postgresql".to_string())
}

fn make_world_writable(path: &Path) -> Result<(), String> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o777))
        .map_err(|e| format!("{}: {e}", path.display()))
}

fn path(path: &Path) -> &str {
    path.to_str().unwrap_or_default()
}
