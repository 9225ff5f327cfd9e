//! hekla's side of `hekla bench server`: a child `hekla serve` process on a
//! loopback port and this process as its clients (hekla's own TDS client
//! on a two-thread runtime), each connection running a statement prepared
//! once with `sp_prepexec` and then `sp_execute`, as drivers do.

use super::{Measured, Statement};
use crate::bench::histogram::Histogram;
use crate::bench::process;
use crate::bench::workload::Rng;
use hekla_tds::client::{Client, ClientOptions, Response};
use hekla_tds::prelogin::Encryption;
use hekla_tds::rpc::{ClientParameter, ClientValue};
use hekla_types::{Collation, DataType, Length, Value};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const PASSWORD: &str = "Bench-Passw0rd!";

pub struct Server {
    child: Child,
    address: String,
    data_dir: PathBuf,
    rows: u32,
    runtime: tokio::runtime::Runtime,
}

impl Server {
    /// Starts `hekla serve` on a fresh data directory.
    pub fn start(rows: u32) -> Result<Server, String> {
        let data_dir =
            std::env::temp_dir().join(format!("hekla-bench-server-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&data_dir);
        let port = super::free_port()?;
        let address = format!("127.0.0.1:{port}");
        let log = std::fs::File::create(
            std::env::temp_dir().join(format!("hekla-bench-server-{}.log", std::process::id())),
        )
        .map_err(|e| e.to_string())?;
        let child = Command::new(std::env::current_exe().map_err(|e| e.to_string())?)
            .args(["serve", "--listen", &address, "--data-dir"])
            .arg(&data_dir)
            .env("HEKLA_SA_PASSWORD", PASSWORD)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .map_err(|e| format!("cannot start hekla serve: {e}"))?;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .map_err(|e| e.to_string())?;
        let server = Server {
            child,
            address,
            data_dir,
            rows,
            runtime,
        };
        server.wait_until_listening()?;
        Ok(server)
    }

    fn wait_until_listening(&self) -> Result<(), String> {
        let deadline = Instant::now() + Duration::from_secs(60);
        while Instant::now() < deadline {
            if std::net::TcpStream::connect(&self.address).is_ok() {
                return Ok(());
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        Err(format!(
            "hekla serve did not listen on {} within 60 s",
            self.address
        ))
    }

    async fn connect(address: &str, tls: bool) -> Result<Client, String> {
        let mut options = ClientOptions::new("sa", PASSWORD);
        if tls {
            options.encryption = Encryption::On;
        }
        Client::connect(address, &options)
            .await
            .map_err(|e| format!("connect: {e}"))
    }

    /// Creates and fills the key-value table (a durable memory-optimized
    /// table with a hash index).
    pub fn load(&self) -> Result<(), String> {
        let rows = self.rows;
        let address = self.address.clone();
        self.runtime.block_on(async move {
            let mut client = Server::connect(&address, false).await?;
            let buckets = (u64::from(rows) * 2).next_power_of_two();
            checked(
                client
                    .batch(&format!(
                        "CREATE TABLE kv (id INT NOT NULL PRIMARY KEY NONCLUSTERED HASH \
                         WITH (BUCKET_COUNT = {buckets}), val INT NOT NULL) \
                         WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_AND_DATA)"
                    ))
                    .await,
            )?;
            let mut next = 1;
            while next <= rows {
                let last = (next + 999).min(rows);
                let values: Vec<String> = (next..=last).map(|id| format!("({id}, 0)")).collect();
                checked(
                    client
                        .batch(&format!("INSERT INTO kv VALUES {}", values.join(",")))
                        .await,
                )?;
                next = last + 1;
            }
            Ok(())
        })
    }

    /// `connections` clients running `statement` for `seconds`.
    pub fn run(
        &self,
        statement: Statement,
        connections: u32,
        tls: bool,
        seconds: u32,
    ) -> Result<Measured, String> {
        let address = self.address.clone();
        let rows = self.rows;
        let pid = self.child.id();
        self.runtime.block_on(async move {
            let mut clients = Vec::new();
            for _ in 0..connections {
                clients.push(Server::connect(&address, tls).await?);
            }
            let cpu_before = process::cpu_seconds(pid);
            let started = Instant::now();
            let deadline = started + Duration::from_secs(u64::from(seconds));
            let tasks: Vec<_> = clients
                .into_iter()
                .enumerate()
                .map(|(n, client)| {
                    tokio::spawn(drive(client, statement, rows, deadline, n as u64 + 1))
                })
                .collect();
            let mut latency = Histogram::default();
            let mut requests = 0;
            for task in tasks {
                let (count, histogram) = task.await.map_err(|e| e.to_string())??;
                requests += count;
                latency.merge(&histogram);
            }
            let elapsed = started.elapsed().as_secs_f64();
            let server_cpu = process::cpu_seconds(pid) - cpu_before;
            Ok(Measured {
                per_second: requests as f64 / elapsed,
                p50_us: latency.percentile(0.50) as f64 / 1000.0,
                p99_us: latency.percentile(0.99) as f64 / 1000.0,
                server_cpu_us_per_request: server_cpu * 1e6 / requests.max(1) as f64,
            })
        })
    }

    /// The server's resident memory per connection that is logged in and
    /// idle: `count` connections opened, then the RSS growth divided.
    pub fn idle_connection_bytes(&self, count: u32) -> Result<f64, String> {
        let address = self.address.clone();
        let pid = self.child.id();
        self.runtime.block_on(async move {
            let before = process::resident_bytes(pid);
            let mut clients = Vec::new();
            for _ in 0..count {
                clients.push(Server::connect(&address, false).await?);
            }
            // Let the server finish the last logins' work.
            tokio::time::sleep(Duration::from_millis(200)).await;
            let after = process::resident_bytes(pid);
            drop(clients);
            Ok(after.saturating_sub(before) as f64 / f64::from(count.max(1)))
        })
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        // SAFETY: kill sends a signal to our own child; no memory is shared.
        unsafe { libc::kill(self.child.id() as libc::pid_t, libc::SIGTERM) };
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.data_dir);
    }
}

/// One connection's loop: prepare once, then execute with random keys
/// until `deadline`. A write-write conflict (41302) between two UPDATEs of
/// the same key is retried, as applications do; any other error stops the
/// benchmark, which must not measure failures.
async fn drive(
    mut client: Client,
    statement: Statement,
    rows: u32,
    deadline: Instant,
    seed: u64,
) -> Result<(u64, Histogram), String> {
    let text = match statement {
        Statement::PointSelect => "SELECT val FROM kv WHERE id = @id",
        Statement::Update => "UPDATE kv SET val = val + 1 WHERE id = @id",
    };
    let mut rng = Rng::new(seed);
    let mut key = || Value::Int(1 + rng.below(u64::from(rows)) as i32);
    let prepared = checked(
        client
            .rpc(
                "sp_prepexec",
                &[
                    ClientParameter {
                        name: "@handle".to_string(),
                        output: true,
                        value: ClientValue::Scalar(DataType::Int, Value::Null),
                    },
                    text_parameter("@params", "@id int"),
                    text_parameter("@stmt", text),
                    int_parameter("@id", key()),
                ],
            )
            .await,
    )?;
    let handle = prepared
        .return_values()
        .into_iter()
        .find_map(|(_, value)| match value {
            Value::Int(handle) => Some(handle),
            _ => None,
        })
        .ok_or("sp_prepexec returned no handle")?;
    let mut latency = Histogram::default();
    let mut count = 0;
    while Instant::now() < deadline {
        let start = Instant::now();
        let response = client
            .rpc(
                "sp_execute",
                &[
                    int_parameter("@handle", Value::Int(handle)),
                    int_parameter("@id", key()),
                ],
            )
            .await
            .map_err(|e| e.to_string())?;
        if let Some(error) = response.errors().first() {
            if error.number == 41302 {
                continue;
            }
            return Err(format!("{statement:?}: {error}"));
        }
        latency.record(start.elapsed().as_nanos() as u64);
        count += 1;
    }
    Ok((count, latency))
}

fn checked(response: Result<Response, hekla_tds::client::ClientError>) -> Result<Response, String> {
    let response = response.map_err(|e| e.to_string())?;
    match response.errors().first() {
        Some(error) => Err(error.to_string()),
        None => Ok(response),
    }
}

fn text_parameter(name: &str, text: &str) -> ClientParameter {
    ClientParameter {
        name: name.to_string(),
        output: false,
        value: ClientValue::Scalar(
            DataType::NVarChar {
                len: Length::Max,
                collation: Collation::default(),
            },
            Value::String(text.to_string()),
        ),
    }
}

fn int_parameter(name: &str, value: Value) -> ClientParameter {
    ClientParameter {
        name: name.to_string(),
        output: false,
        value: ClientValue::Scalar(DataType::Int, value),
    }
}
