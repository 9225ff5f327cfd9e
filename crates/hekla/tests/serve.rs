//! `hekla serve` as a real process: first start prints a generated `sa`
//! password once, clients log in over TCP, SIGTERM exits 0 with the log
//! flushed, and a restart keeps the data and the password.

mod common;

use common::{generated_password, start};
use hekla_tds::client::{Client, ClientError, ClientOptions};
use hekla_types::Value;
use std::process::Command;

async fn login(address: &str, password: &str) -> Result<Client, ClientError> {
    Client::connect(address, &ClientOptions::new("sa", password)).await
}

#[test]
fn first_start_restart_and_sigterm() {
    let dir = std::env::temp_dir().join(format!("hekla-serve-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let runtime = tokio::runtime::Runtime::new().unwrap();

    let server = start(&dir);
    let password = generated_password(&server);
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

/// `hekla sql` with `args`: exit status, stdout, stderr.
fn hekla_sql(args: &[&str]) -> (bool, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_hekla"))
        .arg("sql")
        .args(args)
        .output()
        .expect("hekla sql runs");
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn hekla_sql_against_a_server_prints_what_it_prints_locally() {
    let root = std::env::temp_dir().join(format!("hekla-sql-remote-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let server = start(&root.join("served"));
    let password = generated_password(&server);
    let endpoint = server.address.replace(':', ",");
    let remote = ["-S", endpoint.as_str(), "-U", "sa", "-P", password.as_str()];
    let script = "CREATE TABLE t (id int NOT NULL PRIMARY KEY NONCLUSTERED HASH \
                  WITH (BUCKET_COUNT = 64), name nvarchar(20) NULL) WITH (MEMORY_OPTIMIZED = ON);
                  INSERT t VALUES (1, N'\u{e9}t\u{e9}'), (2, NULL);
                  SELECT id, name FROM t ORDER BY id;
                  PRINT 'printed';
                  SELECT 1 / 0 AS boom;
                  EXEC sp_executesql N'SELECT @x + 1 AS next', N'@x int', 41;";
    let local_dir = root.join("local");
    let local = hekla_sql(&["--data-dir", local_dir.to_str().unwrap(), "-Q", script]);
    let mut args = remote.to_vec();
    args.extend(["-Q", script]);
    let over_tds = hekla_sql(&args);
    assert!(local.0 && over_tds.0, "{local:?} {over_tds:?}");
    assert!(
        over_tds.1.contains("printed") && over_tds.1.contains("Msg 8134"),
        "{over_tds:?}"
    );
    assert_eq!(over_tds.1, local.1, "the same output over TDS as embedded");

    // -H names the workstation, as sqlcmd's -H does; -h -1 drops the headers.
    let mut args = remote.to_vec();
    args.extend(["-H", "build-agent-7", "-h", "-1", "-W", "-Q"]);
    args.push("SET NOCOUNT ON SELECT HOST_NAME(), APP_NAME()");
    let (ok, stdout, _) = hekla_sql(&args);
    assert!(ok);
    assert_eq!(stdout.trim(), "build-agent-7 hekla sql");

    // -b: an error makes the exit status 1, as sqlcmd -b does.
    let mut args = remote.to_vec();
    args.extend(["-b", "-Q", "SELECT 1 / 0"]);
    assert!(!hekla_sql(&args).0);

    // A wrong password: the server's 18456 and a failed exit.
    let (ok, _, stderr) =
        hekla_sql(&["-S", &endpoint, "-U", "sa", "-P", "wrong", "-Q", "SELECT 1"]);
    assert!(!ok);
    assert!(
        stderr.contains("Msg 18456") && stderr.contains("Login failed for user 'sa'."),
        "{stderr}"
    );

    // -N encrypts the connection; without -C there is no certificate
    // validation to offer, and hekla sql says so instead of connecting.
    let mut args = remote.to_vec();
    args.extend(["-N", "-C", "-Q", "SELECT 6 * 7 AS answer"]);
    let (ok, stdout, stderr) = hekla_sql(&args);
    assert!(ok && stdout.contains("42"), "{stdout} {stderr}");
    let mut args = remote.to_vec();
    args.extend(["-N", "-Q", "SELECT 1"]);
    let (ok, _, stderr) = hekla_sql(&args);
    assert!(!ok && stderr.contains("pass -C"), "{stderr}");

    let (clean, _) = server.terminate();
    assert!(clean);
    std::fs::remove_dir_all(&root).unwrap();
}
