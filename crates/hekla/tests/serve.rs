//! `hekla serve` as a real process: first start prints a generated `sa`
//! password once, clients log in over TCP, SIGTERM exits 0 with the log
//! flushed, and a restart keeps the data and the password.

use hekla_tds::client::{Client, ClientError, ClientOptions};
use hekla_types::Value;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

struct Server {
    child: Child,
    address: String,
    stdout: mpsc::Receiver<String>,
    stderr: mpsc::Receiver<String>,
}

/// Forwards a pipe's lines to a channel.
fn lines(pipe: impl Read + Send + 'static) -> mpsc::Receiver<String> {
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(pipe).lines().map_while(Result::ok) {
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    receiver
}

fn start(dir: &Path) -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hekla"))
        .args(["serve", "--data-dir"])
        .arg(dir)
        .args(["--listen", "127.0.0.1:0"])
        .env_remove("HEKLA_SA_PASSWORD")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("hekla serve starts");
    let stdout = lines(child.stdout.take().unwrap());
    let stderr = lines(child.stderr.take().unwrap());
    let address = loop {
        let line = stderr
            .recv_timeout(Duration::from_secs(60))
            .expect("a listening line");
        if let Some(rest) = line.split(" listening addr=").nth(1) {
            break rest.split(' ').next().unwrap().to_string();
        }
    };
    Server {
        child,
        address,
        stdout,
        stderr,
    }
}

impl Server {
    /// SIGTERM, then the exit status and the rest of stderr.
    fn terminate(mut self) -> (bool, Vec<String>) {
        // SAFETY: kill(2) on our own child's pid has no memory effects.
        unsafe { libc::kill(self.child.id() as i32, libc::SIGTERM) };
        let status = self.child.wait().unwrap();
        let rest: Vec<String> = self.stderr.try_iter().collect();
        (status.success(), rest)
    }
}

async fn login(address: &str, password: &str) -> Result<Client, ClientError> {
    Client::connect(address, &ClientOptions::new("sa", password)).await
}

#[test]
fn first_start_restart_and_sigterm() {
    let dir = std::env::temp_dir().join(format!("hekla-serve-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let runtime = tokio::runtime::Runtime::new().unwrap();

    let server = start(&dir);
    let line = server
        .stdout
        .recv_timeout(Duration::from_secs(10))
        .expect("the generated password is printed");
    let password = line
        .strip_prefix("hekla: the sa login's password is ")
        .expect("password line")
        .to_string();
    assert_eq!(password.len(), 20);
    runtime.block_on(async {
        let mut client = login(&server.address, &password).await.unwrap();
        client
            .batch(
                "CREATE TABLE dbo.kept (id int NOT NULL PRIMARY KEY NONCLUSTERED) \
                 WITH (MEMORY_OPTIMIZED = ON); INSERT INTO dbo.kept VALUES (7)",
            )
            .await
            .unwrap()
            .into_result()
            .unwrap();
        assert!(matches!(
            login(&server.address, "not it").await,
            Err(ClientError::Login(_))
        ));
    });
    let (clean, log) = server.terminate();
    assert!(clean, "exit 0 after SIGTERM");
    assert!(
        log.iter().any(|l| l.contains(" INFO  signal name=SIGTERM")),
        "{log:?}"
    );
    assert_eq!(
        log.last().map(|l| l.contains(" INFO  stopped")),
        Some(true),
        "{log:?}"
    );
    assert!(
        log.iter().all(|l| !l.contains(&password)),
        "no password in the log"
    );

    let server = start(&dir);
    runtime.block_on(async {
        let mut client = login(&server.address, &password).await.unwrap();
        let reply = client.batch("SELECT id FROM dbo.kept").await.unwrap();
        assert_eq!(reply.rows(), [[Value::Int(7)]]);
    });
    assert!(
        server.stdout.try_recv().is_err(),
        "the password is printed at the first start only"
    );
    let (clean, _) = server.terminate();
    assert!(clean);
    std::fs::remove_dir_all(&dir).unwrap();
}
