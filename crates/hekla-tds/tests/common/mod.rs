//! A server on a loopback port for the tests, and clients for it.

#![allow(dead_code)] // each test file uses part of it

use hekla_sql::SqlDatabase;
use hekla_tds::client::{Client, ClientOptions, Response};
use hekla_tds::server::{serve, ServerOptions};
use hekla_tds::tls::ServerTls;
use std::sync::Arc;
use tokio::sync::oneshot;

pub const PASSWORD: &str = "Test-Pa55word!";

pub struct TestServer {
    pub address: String,
    pub db: Arc<SqlDatabase>,
    stop: Option<oneshot::Sender<()>>,
    task: Option<tokio::task::JoinHandle<()>>,
    pub dir: std::path::PathBuf,
}

impl TestServer {
    pub async fn start(options: ServerOptions) -> TestServer {
        TestServer::start_with(options, false).await
    }

    /// With `tls`, the server has a generated certificate.
    pub async fn start_with(mut options: ServerOptions, tls: bool) -> TestServer {
        static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "hekla-tds-test-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, std::sync::atomic::Ordering::SeqCst)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        if tls {
            options.tls = Some(ServerTls::generated(&dir).expect("certificate"));
        }
        let db = SqlDatabase::in_memory().expect("database");
        db.ensure_sa_login(PASSWORD).expect("sa login");
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap().to_string();
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(serve(Arc::clone(&db), listener, options, async {
            let _ = stopped.await;
        }));
        TestServer {
            address,
            db,
            stop: Some(stop),
            task: Some(task),
            dir,
        }
    }

    pub async fn connect(&self) -> Client {
        self.connect_as(&ClientOptions::new("sa", PASSWORD))
            .await
            .expect("login")
    }

    pub async fn connect_as(
        &self,
        options: &ClientOptions,
    ) -> Result<Client, hekla_tds::client::ClientError> {
        Client::connect(&self.address, options).await
    }

    /// Stops the server and waits for it.
    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(task) = self.task.take() {
            task.await.unwrap();
        }
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Runs `sql` on `client`, failing the test on any error; the reply.
pub async fn run_ok(client: &mut Client, sql: &str) -> Response {
    client
        .batch(sql)
        .await
        .expect("a reply")
        .into_result()
        .unwrap_or_else(|error| panic!("{sql}: {error}"))
}
