//! The server over real sockets, driven by hekla's own TDS client.

mod common;

use common::{TestServer, PASSWORD};
use hekla_tds::client::{ClientError, ClientOptions, Item};
use hekla_tds::packet::{kind, status};
use hekla_tds::prelogin::Encryption;
use hekla_tds::rpc::{ClientParameter, ClientValue};
use hekla_tds::server::ServerOptions;
use hekla_tds::tokens::{done, env, token};
use hekla_types::{Collation, DataType, Date, Decimal, Length, Money, Value};
use std::time::Duration;

fn nvarchar(len: Length) -> DataType {
    DataType::NVarChar {
        len,
        collation: Collation::default(),
    }
}

#[tokio::test]
async fn login_then_a_batch_with_several_result_sets() {
    let server = TestServer::start(ServerOptions::default()).await;
    let mut client = server.connect().await;
    assert!(!client.is_encrypted());
    // The login reply: database, collation, language, LOGINACK, packet size.
    let kinds: Vec<u8> = client
        .login_reply
        .items
        .iter()
        .filter_map(|item| match item {
            Item::EnvChange { kind, .. } => Some(*kind),
            _ => None,
        })
        .collect();
    assert_eq!(
        kinds,
        [
            env::DATABASE,
            env::SQL_COLLATION,
            env::LANGUAGE,
            env::PACKET_SIZE
        ]
    );
    let infos: Vec<u32> = client
        .login_reply
        .infos()
        .iter()
        .map(|i| i.number)
        .collect();
    assert_eq!(infos, [5701, 5703]);
    assert!(client.login_reply.items.iter().any(|item| matches!(
        item,
        Item::LoginAck {
            tds_version: 0x7400_0004,
            ..
        }
    )));

    let reply = client
        .batch("SELECT 1 AS a, N'x' AS b; SELECT DB_NAME() AS db; PRINT 'hello'")
        .await
        .unwrap();
    let sets = reply.result_sets();
    assert_eq!(sets.len(), 2);
    assert_eq!(sets[0].columns[0].name, "a");
    assert_eq!(sets[0].rows, [[Value::Int(1), Value::String("x".into())]]);
    assert_eq!(sets[1].rows, [[Value::String("hekla".into())]]);
    assert_eq!(reply.infos()[0].text, "hello");
    let dones = reply.dones();
    assert_eq!(dones.len(), 3);
    assert_eq!(dones[0].status, done::MORE | done::COUNT);
    assert_eq!(dones[0].count(), Some(1));
    assert_eq!(dones[2].status & done::MORE, 0, "the last DONE is final");
    server.stop().await;
}

#[tokio::test]
async fn every_data_type_round_trips_exactly() {
    let server = TestServer::start(ServerOptions::default()).await;
    let mut client = server.connect().await;
    let reply = client
        .batch(
            "SELECT CAST(1 AS bit), CAST(255 AS tinyint), CAST(-32768 AS smallint), \
             CAST(-2147483648 AS int), CAST(-9223372036854775808 AS bigint), \
             CAST('-99999999999999999999999999999999999999' AS decimal(38,0)), \
             CAST('12345.6789' AS numeric(9,4)), CAST(-922337203685477.5808 AS money), \
             CAST(-214748.3648 AS smallmoney), CAST(1.5e300 AS float), CAST(2.5 AS real), \
             CAST('9999-12-31' AS date), CAST('23:59:59.9999999' AS time(7)), \
             CAST('12:00:01' AS time(0)), CAST('0001-01-01 00:00:00' AS datetime2(3)), \
             CAST('9999-12-31 23:59:59.997' AS datetime), \
             CAST('2079-06-06 23:59' AS smalldatetime), \
             CAST('2026-11-27 10:00:00.12 -08:00' AS datetimeoffset(2)), \
             CAST('6F9619FF-8B86-D011-B42D-00C04FC964FF' AS uniqueidentifier), \
             CAST('ab' AS char(3)), CAST('é€' AS varchar(10)), CAST(N'𝄞' AS nchar(2)), \
             CAST(N'ü' AS nvarchar(5)), CAST(0x0102 AS binary(3)), CAST(0x AS varbinary(4)), \
             REPLICATE(CAST('y' AS varchar(max)), 9000), CAST(N'' AS nvarchar(max)), \
             CAST(NULL AS varbinary(max)), CAST(NULL AS int), CAST(NULL AS nvarchar(3))",
        )
        .await
        .unwrap();
    let rows = reply.rows();
    let row = &rows[0];
    let expected_text = ["1", "255", "-32768", "-2147483648", "-9223372036854775808"];
    for (value, text) in row.iter().zip(expected_text) {
        assert_eq!(format!("{}", int_text(value)), text);
    }
    assert_eq!(
        row[5],
        Value::Decimal(Decimal::new(-(10i128.pow(38) - 1), 38, 0).unwrap())
    );
    assert_eq!(
        row[6],
        Value::Decimal(Decimal::new(123_456_789, 9, 4).unwrap())
    );
    assert_eq!(row[7], Value::Money(Money::MIN));
    assert_eq!(row[8], Value::Money(Money::SMALL_MIN));
    assert_eq!(row[9], Value::Float(1.5e300));
    assert_eq!(row[10], Value::Real(2.5));
    assert_eq!(row[11], Value::Date(Date::MAX));
    let columns = &reply.result_sets()[0].columns;
    assert_eq!(columns[12].data_type, DataType::Time { scale: 7 });
    assert_eq!(columns[13].data_type, DataType::Time { scale: 0 });
    assert_eq!(columns[17].data_type, DataType::DateTimeOffset { scale: 2 });
    assert_eq!(
        text_of(
            &mut client,
            "SELECT CONVERT(varchar(40), CAST('23:59:59.9999999' AS time(7)), 121)"
        )
        .await,
        "23:59:59.9999999"
    );
    match &row[17] {
        Value::DateTimeOffset(v) => assert_eq!(v.offset_minutes, -480),
        other => panic!("{other:?}"),
    }
    match &row[18] {
        Value::UniqueIdentifier(u) => {
            assert_eq!(
                u.to_string().to_uppercase(),
                "6F9619FF-8B86-D011-B42D-00C04FC964FF"
            )
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(row[19], Value::String("ab ".into()));
    assert_eq!(row[20], Value::String("é€".into()));
    assert_eq!(row[21], Value::String("𝄞".into()));
    assert_eq!(row[22], Value::String("ü".into()));
    assert_eq!(row[23], Value::Binary(vec![1, 2, 0]));
    assert_eq!(row[24], Value::Binary(vec![]));
    assert!(
        row[25] == Value::String("y".repeat(9000)),
        "varchar(max) of 9000"
    );
    assert_eq!(row[26], Value::String(String::new()));
    assert_eq!(&row[27..], [Value::Null, Value::Null, Value::Null]);
    assert_eq!(columns[25].data_type.sql_name(), "varchar(max)");
    server.stop().await;
}

fn int_text(value: &Value) -> String {
    match value {
        Value::Bit(b) => u8::from(*b).to_string(),
        Value::TinyInt(v) => v.to_string(),
        Value::SmallInt(v) => v.to_string(),
        Value::Int(v) => v.to_string(),
        Value::BigInt(v) => v.to_string(),
        other => format!("{other:?}"),
    }
}

async fn text_of(client: &mut hekla_tds::client::Client, sql: &str) -> String {
    match &client.batch(sql).await.unwrap().rows()[0][0] {
        Value::String(s) => s.clone(),
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn errors_carry_number_state_class_procedure_and_line() {
    let server = TestServer::start(ServerOptions::default()).await;
    let mut client = server.connect().await;
    common::run_ok(
        &mut client,
        "CREATE PROCEDURE dbo.fails AS BEGIN SELECT 1; SELECT 1/0; END",
    )
    .await;
    let reply = client
        .batch("SELECT 1\nEXEC dbo.fails\nSELECT 2")
        .await
        .unwrap();
    let error = reply.errors()[0].clone();
    assert_eq!((error.number, error.class, error.state), (8134, 16, 1));
    assert_eq!(error.procedure, "fails");
    assert_eq!(error.line, 1);
    assert_eq!(error.server, "hekla");
    // The batch goes on after the error (the failing SELECT had sent its
    // columns) and its DONE has the error bit.
    assert_eq!(reply.result_sets().len(), 4);
    assert!(reply.dones().iter().any(|d| d.status & done::ERROR != 0));
    // A statement that fails is followed by INFO 3621, as SQL Server sends.
    let reply = client
        .batch(
            "CREATE TABLE dbo.u (id int NOT NULL PRIMARY KEY NONCLUSTERED) \
             WITH (MEMORY_OPTIMIZED = ON); INSERT INTO dbo.u VALUES (1), (1)",
        )
        .await
        .unwrap();
    assert_eq!(reply.errors()[0].number, 2627);
    let terminated = reply.infos()[0];
    assert_eq!((terminated.number, terminated.class), (3621, 0));
    assert_eq!(terminated.text, "The statement has been terminated.");
    let syntax = client.batch("SELECT 1 +").await.unwrap();
    assert_eq!(syntax.errors()[0].number, 102);
    let last = *syntax.dones().last().unwrap();
    assert_eq!(last.status, done::ERROR);
    server.stop().await;
}

#[tokio::test]
async fn a_wrong_password_is_18456_and_the_connection_closes() {
    let server = TestServer::start(ServerOptions::default()).await;
    for (user, password) in [("sa", "wrong"), ("nobody", PASSWORD)] {
        match server.connect_as(&ClientOptions::new(user, password)).await {
            Err(ClientError::Login(errors)) => {
                assert_eq!(errors[0].number, 18456);
                assert_eq!(errors[0].class, 14);
                assert_eq!(errors[0].text, format!("Login failed for user '{user}'."));
            }
            Err(other) => panic!("{other}"),
            Ok(_) => panic!("logged in with a wrong password"),
        }
    }
    let mut options = ClientOptions::new("sa", PASSWORD);
    options.database = "master".into();
    match server.connect_as(&options).await {
        Err(ClientError::Login(errors)) => {
            assert_eq!(errors[0].number, 4060);
            assert_eq!(errors[1].number, 18456);
        }
        other => panic!("{:?}", other.map(|_| ())),
    }
    server.stop().await;
}

#[tokio::test]
async fn nothing_but_prelogin_and_login_before_a_login() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let server = TestServer::start(ServerOptions::default()).await;
    let mut batch = vec![0u8; 22];
    batch[0] = 22;
    batch[4] = 18;
    batch[8] = 2;
    hekla_tds::wire::put_utf16(&mut batch, "SELECT 1");
    let wire = hekla_tds::packet::packetize(kind::SQL_BATCH, 0, 4096, &batch);
    let mut socket = tokio::net::TcpStream::connect(&server.address)
        .await
        .unwrap();
    socket.write_all(&wire).await.unwrap();
    let mut reply = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(5), socket.read_to_end(&mut reply)).await;
    assert!(matches!(read, Ok(Ok(0))), "closed without an answer");
    server.stop().await;
}

#[tokio::test]
async fn tls_for_the_login_only_and_for_everything() {
    let server = TestServer::start_with(ServerOptions::default(), true).await;
    for (asked, answered, encrypted) in [
        (Encryption::Off, Encryption::Off, false),
        (Encryption::On, Encryption::On, true),
        (Encryption::NotSupported, Encryption::NotSupported, false),
    ] {
        let mut options = ClientOptions::new("sa", PASSWORD);
        options.encryption = asked;
        let mut client = server.connect_as(&options).await.unwrap();
        assert_eq!(client.server_encryption, answered);
        assert_eq!(client.is_encrypted(), encrypted);
        if encrypted {
            // TLS 1.2 as SQL Server uses inside TDS 7.x: with 1.3, FreeTDS's
            // first encrypted record overtakes its wrapped Finished.
            assert_eq!(client.tls_version(), Some(rustls::ProtocolVersion::TLSv1_2));
        }
        let reply = client.batch("SELECT REPLICATE(N'z', 3000)").await.unwrap();
        assert_eq!(reply.rows()[0][0], Value::String("z".repeat(3000)));
    }
    server.stop().await;
}

#[tokio::test]
async fn required_encryption_refuses_plaintext_clients() {
    let options = ServerOptions {
        require_encryption: true,
        ..ServerOptions::default()
    };
    let server = TestServer::start_with(options, true).await;
    let plaintext = server.connect_as(&ClientOptions::new("sa", PASSWORD)).await;
    assert!(plaintext.is_err());
    let mut options = ClientOptions::new("sa", PASSWORD);
    options.encryption = Encryption::Off;
    let mut client = server.connect_as(&options).await.unwrap();
    assert_eq!(client.server_encryption, Encryption::Required);
    assert!(client.is_encrypted(), "REQ encrypts the whole connection");
    common::run_ok(&mut client, "SELECT 1").await;
    server.stop().await;
}

#[tokio::test]
async fn mars_is_refused_at_prelogin() {
    let server = TestServer::start(ServerOptions::default()).await;
    let mut options = ClientOptions::new("sa", PASSWORD);
    options.mars = true;
    // The server answers MARS=0 and the login goes on without it.
    let mut client = server.connect_as(&options).await.unwrap();
    common::run_ok(&mut client, "SELECT 1").await;
    server.stop().await;
}

#[tokio::test]
async fn rpc_with_output_parameters_return_status_and_a_table() {
    let server = TestServer::start(ServerOptions::default()).await;
    let mut client = server.connect().await;
    common::run_ok(
        &mut client,
        "CREATE TYPE dbo.Lines AS TABLE (n int NOT NULL, label nvarchar(10) NULL, \
             INDEX ix NONCLUSTERED (n)) WITH (MEMORY_OPTIMIZED = ON)",
    )
    .await;
    common::run_ok(&mut client, "CREATE PROCEDURE dbo.total @lines dbo.Lines READONLY, @sum int OUTPUT AS \
             BEGIN SELECT @sum = SUM(n) FROM @lines; SELECT COUNT(*) AS c FROM @lines; RETURN 42 END").await;
    let lines = ClientParameter {
        name: "@lines".into(),
        output: false,
        value: ClientValue::Table {
            type_schema: "dbo".into(),
            type_name: "Lines".into(),
            columns: vec![DataType::Int, nvarchar(Length::Bounded(10))],
            rows: vec![
                vec![Value::Int(5), Value::String("a".into())],
                vec![Value::Int(7), Value::Null],
            ],
        },
    };
    let sum = ClientParameter {
        name: "@sum".into(),
        output: true,
        value: ClientValue::Scalar(DataType::Int, Value::Null),
    };
    let reply = client.rpc("dbo.total", &[lines, sum]).await.unwrap();
    assert!(reply.errors().is_empty(), "{:?}", reply.errors());
    assert_eq!(reply.rows(), [[Value::Int(2)]]);
    assert_eq!(reply.return_status(), Some(42));
    assert_eq!(
        reply.return_values(),
        [("@sum".to_string(), Value::Int(12))]
    );
    // RETURNSTATUS and RETURNVALUE come before the final DONEPROC.
    let tokens: Vec<&Item> = reply.items.iter().rev().take(3).collect();
    assert!(
        matches!(tokens[0], Item::Done(d) if d.token == token::DONE_PROC && d.status == done::FINAL)
    );
    assert!(matches!(tokens[1], Item::ReturnValue { .. }));
    assert!(matches!(tokens[2], Item::ReturnStatus(42)));

    // sp_executesql with a typed, named parameter.
    let statement = ClientParameter {
        name: String::new(),
        output: false,
        value: ClientValue::Scalar(nvarchar(Length::Max), Value::String("SELECT @x * 2".into())),
    };
    let definition = ClientParameter {
        name: String::new(),
        output: false,
        value: ClientValue::Scalar(
            nvarchar(Length::Bounded(100)),
            Value::String("@x bigint".into()),
        ),
    };
    let x = ClientParameter {
        name: "@x".into(),
        output: false,
        value: ClientValue::Scalar(DataType::BigInt, Value::BigInt(21)),
    };
    let reply = client
        .rpc("sp_executesql", &[statement, definition, x])
        .await
        .unwrap();
    assert_eq!(reply.rows(), [[Value::BigInt(42)]]);
    assert!(reply
        .dones()
        .iter()
        .any(|d| d.token == token::DONE_IN_PROC && d.count() == Some(1)));
    // A cursor procedure is refused clearly.
    let reply = client.rpc("sp_cursoropen", &[]).await.unwrap();
    assert_eq!(reply.errors()[0].number, 10794);
    server.stop().await;
}

#[tokio::test]
async fn malformed_rpc_is_an_error_and_the_connection_goes_on() {
    let server = TestServer::start(ServerOptions::default()).await;
    let mut client = server.connect().await;
    let mut payload = vec![
        22, 0, 0, 0, 18, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0,
    ];
    // "p", no flags, a parameter of type 0x26 with an impossible size.
    payload.extend_from_slice(&[1, 0, b'p', 0, 0, 0, 0, 0, 0x26, 3, 1, 1]);
    client.send(kind::RPC, &payload).await.unwrap();
    let reply = client.read_response().await.unwrap();
    assert_eq!(reply.errors()[0].number, 8016);
    common::run_ok(&mut client, "SELECT 1").await;
    server.stop().await;
}

#[tokio::test]
async fn transactions_report_begin_commit_and_rollback() {
    let server = TestServer::start(ServerOptions::default()).await;
    let mut client = server.connect().await;
    let env_kinds = |reply: &hekla_tds::client::Response| -> Vec<u8> {
        reply
            .items
            .iter()
            .filter_map(|item| match item {
                Item::EnvChange { kind, .. } => Some(*kind),
                _ => None,
            })
            .collect()
    };
    let reply = client.batch("BEGIN TRANSACTION").await.unwrap();
    assert_eq!(env_kinds(&reply), [env::BEGIN_TRANSACTION]);
    let reply = client.batch("COMMIT").await.unwrap();
    assert_eq!(env_kinds(&reply), [env::COMMIT_TRANSACTION]);
    let reply = client.batch("BEGIN TRAN; ROLLBACK").await.unwrap();
    assert_eq!(
        env_kinds(&reply),
        [env::BEGIN_TRANSACTION, env::ROLLBACK_TRANSACTION]
    );
    server.stop().await;
}

#[tokio::test]
async fn transaction_manager_requests() {
    let server = TestServer::start(ServerOptions::default()).await;
    let mut client = server.connect().await;
    common::run_ok(
        &mut client,
        "CREATE TABLE dbo.t (id int NOT NULL PRIMARY KEY NONCLUSTERED) \
             WITH (MEMORY_OPTIMIZED = ON)",
    )
    .await;
    let tm = |request: u16, tail: &[u8]| {
        let mut payload = vec![
            22, 0, 0, 0, 18, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0,
        ];
        payload.extend_from_slice(&request.to_le_bytes());
        payload.extend_from_slice(tail);
        payload
    };
    // BEGIN (isolation: read committed), insert, ROLLBACK: nothing stays.
    client
        .send(kind::TRANSACTION_MANAGER, &tm(5, &[2, 0]))
        .await
        .unwrap();
    let reply = client.read_response().await.unwrap().into_result().unwrap();
    assert!(reply.items.iter().any(|i| matches!(
        i,
        Item::EnvChange {
            kind: env::BEGIN_TRANSACTION,
            ..
        }
    )));
    common::run_ok(&mut client, "INSERT INTO dbo.t WITH (SNAPSHOT) VALUES (1)").await;
    client
        .send(kind::TRANSACTION_MANAGER, &tm(8, &[0, 0]))
        .await
        .unwrap();
    client.read_response().await.unwrap().into_result().unwrap();
    let count = client.batch("SELECT COUNT(*) FROM dbo.t").await.unwrap();
    assert_eq!(count.rows(), [[Value::Int(0)]], "{:?}", count.errors());
    // BEGIN, insert, COMMIT: it stays.
    client
        .send(kind::TRANSACTION_MANAGER, &tm(5, &[0, 0]))
        .await
        .unwrap();
    client.read_response().await.unwrap().into_result().unwrap();
    common::run_ok(&mut client, "INSERT INTO dbo.t WITH (SNAPSHOT) VALUES (2)").await;
    client
        .send(kind::TRANSACTION_MANAGER, &tm(7, &[0, 0]))
        .await
        .unwrap();
    client.read_response().await.unwrap().into_result().unwrap();
    let count = client.batch("SELECT COUNT(*) FROM dbo.t").await.unwrap();
    assert_eq!(count.rows(), [[Value::Int(1)]]);
    server.stop().await;
}

#[tokio::test]
async fn attention_stops_a_running_loop() {
    // Plaintext after the login, and TLS throughout: the attention
    // watcher sees input on the socket either way.
    let server = TestServer::start_with(ServerOptions::default(), true).await;
    for encryption in [Encryption::Off, Encryption::On] {
        let mut options = ClientOptions::new("sa", PASSWORD);
        options.encryption = encryption;
        let mut client = server.connect_as(&options).await.unwrap();
        client
            .send_batch("DECLARE @i int = 0; WHILE 1 = 1 SET @i += 1;")
            .await
            .unwrap();
        tokio::time::sleep(Duration::from_millis(200)).await;
        client.send_attention().await.unwrap();
        // The cancelled batch's reply ends, then the acknowledgement comes
        // as a message of its own (tedious relies on that).
        let reply = tokio::time::timeout(Duration::from_secs(10), client.read_response())
            .await
            .expect("the loop stopped")
            .unwrap();
        assert_eq!(reply.dones().last().unwrap().status, done::FINAL);
        let ack = client.read_response().await.unwrap();
        assert_eq!(ack.dones().len(), 1);
        assert_eq!(ack.dones()[0].status, done::ATTENTION);
        // The connection still works, and the next request is not
        // cancelled.
        let reply = client.batch("SELECT 5").await.unwrap();
        assert_eq!(reply.rows(), [[Value::Int(5)]]);
        // An attention while idle is acknowledged too.
        client.send_attention().await.unwrap();
        let reply = client.read_response().await.unwrap();
        assert_eq!(reply.dones()[0].status, done::ATTENTION);
    }
    server.stop().await;
}

#[tokio::test]
async fn a_client_that_leaves_mid_request_stops_it() {
    let server = TestServer::start(ServerOptions::default()).await;
    let mut client = server.connect().await;
    client
        .send_batch("DECLARE @i int = 0; WHILE 1 = 1 SET @i += 1;")
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
    drop(client);
    // The loop's session ends: only the watcher's own session is left.
    let mut watcher = server.connect().await;
    let mut sessions = Value::Int(-1);
    for _ in 0..100 {
        let reply = watcher
            .batch("SELECT COUNT(*) FROM sys.dm_exec_sessions WHERE is_user_process = 1")
            .await
            .unwrap();
        sessions = reply.rows()[0][0].clone();
        if sessions == Value::Int(1) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(sessions, Value::Int(1), "the abandoned loop was cancelled");
    server.stop().await;
}

#[tokio::test]
async fn reset_connection_flag_starts_the_session_afresh() {
    let server = TestServer::start(ServerOptions::default()).await;
    let mut client = server.connect().await;
    common::run_ok(&mut client, "CREATE TABLE #t (x int); SET NOCOUNT ON").await;
    let mut payload = vec![
        22, 0, 0, 0, 18, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0,
    ];
    hekla_tds::wire::put_utf16(&mut payload, "SELECT OBJECT_ID('tempdb..#t') AS t");
    let mut wire = hekla_tds::packet::packetize(kind::SQL_BATCH, 0, 4096, &payload);
    wire[1] |= status::RESET_CONNECTION;
    client.send_raw(&wire).await.unwrap();
    let reply = client.read_response().await.unwrap();
    assert!(matches!(
        reply.items[0],
        Item::EnvChange {
            kind: env::RESET_CONNECTION_ACK,
            ..
        }
    ));
    assert_eq!(reply.rows(), [[Value::Null]]);
    // NOCOUNT is off again: the DONE has a count.
    assert_eq!(reply.dones().last().unwrap().count(), Some(1));
    server.stop().await;
}

#[tokio::test]
async fn connection_limit_refuses_with_17809() {
    let options = ServerOptions {
        max_connections: 2,
        ..ServerOptions::default()
    };
    let server = TestServer::start(options).await;
    let _first = server.connect().await;
    let _second = server.connect().await;
    match server.connect_as(&ClientOptions::new("sa", PASSWORD)).await {
        Err(ClientError::Login(errors)) => assert_eq!(errors[0].number, 17809),
        other => panic!("{:?}", other.map(|_| ())),
    }
    drop(_first);
    // The slot frees once the server has seen the first client leave.
    let mut again = None;
    for _ in 0..50 {
        tokio::time::sleep(Duration::from_millis(20)).await;
        if let Ok(client) = server.connect_as(&ClientOptions::new("sa", PASSWORD)).await {
            again = Some(client);
            break;
        }
    }
    assert!(again.is_some());
    server.stop().await;
}

#[tokio::test]
async fn garbage_and_disconnects_affect_no_other_client() {
    let server = TestServer::start(ServerOptions::default()).await;
    let mut steady = server.connect().await;
    common::run_ok(
        &mut steady,
        "CREATE TABLE dbo.k (id int NOT NULL PRIMARY KEY NONCLUSTERED) \
             WITH (MEMORY_OPTIMIZED = ON)",
    )
    .await;
    // A client that leaves with an open transaction: it is rolled back.
    let mut leaving = server.connect().await;
    common::run_ok(
        &mut leaving,
        "BEGIN TRAN; INSERT INTO dbo.k WITH (SNAPSHOT) VALUES (1)",
    )
    .await;
    drop(leaving);
    // A client sending garbage after its login.
    let mut garbage = server.connect().await;
    garbage.send_raw(&[0xFF; 64]).await.unwrap();
    assert!(garbage.read_response().await.is_err());
    // A client claiming a huge packet, then stalling mid-packet.
    let mut stalled = server.connect().await;
    stalled
        .send_raw(&[1, 0, 0x7F, 0xFF, 0, 0, 1, 0, 1, 2])
        .await
        .unwrap();
    // The steady client is unaffected, and the row never committed (the
    // insert would conflict with a live transaction if it still held it).
    let mut inserted = None;
    for _ in 0..50 {
        let reply = steady.batch("INSERT INTO dbo.k VALUES (1)").await.unwrap();
        if reply.errors().is_empty() {
            inserted = Some(reply);
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(inserted.is_some());
    let count = steady.batch("SELECT COUNT(*) FROM dbo.k").await.unwrap();
    assert_eq!(count.rows(), [[Value::Int(1)]]);
    drop(stalled);
    server.stop().await;
}

#[tokio::test]
async fn a_login_that_stalls_is_dropped_at_the_timeout() {
    use tokio::io::AsyncReadExt;
    let options = ServerOptions {
        login_timeout: Duration::from_millis(300),
        ..ServerOptions::default()
    };
    let server = TestServer::start(options).await;
    let mut socket = tokio::net::TcpStream::connect(&server.address)
        .await
        .unwrap();
    let mut buffer = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(5), socket.read_to_end(&mut buffer)).await;
    assert!(matches!(read, Ok(Ok(0))));
    server.stop().await;
}

#[tokio::test]
async fn shutdown_lets_the_running_request_finish() {
    let server = TestServer::start(ServerOptions::default()).await;
    let mut client = server.connect().await;
    client
        .send_batch("WAITFOR DELAY '00:00:00.300'; SELECT 9")
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(50)).await;
    let stopping = tokio::spawn(server.stop());
    let reply = client.read_response().await.unwrap();
    assert_eq!(reply.rows(), [[Value::Int(9)]]);
    stopping.await.unwrap();
}

#[tokio::test]
async fn many_clients_at_once() {
    let server = TestServer::start(ServerOptions::default()).await;
    let mut tasks = Vec::new();
    for i in 0..40 {
        let address = server.address.clone();
        tasks.push(tokio::spawn(async move {
            let mut client =
                hekla_tds::client::Client::connect(&address, &ClientOptions::new("sa", PASSWORD))
                    .await
                    .unwrap();
            for _ in 0..5 {
                let reply = client.batch(&format!("SELECT {i}")).await.unwrap();
                assert_eq!(reply.rows(), [[Value::Int(i)]]);
            }
        }));
    }
    for task in tasks {
        task.await.unwrap();
    }
    server.stop().await;
}

#[tokio::test]
async fn shutdown_cancels_what_outlasts_the_grace_period() {
    let options = ServerOptions {
        shutdown_grace: Duration::from_millis(200),
        ..ServerOptions::default()
    };
    let server = TestServer::start(options).await;
    let mut client = server.connect().await;
    client
        .send_batch("DECLARE @i int = 0; WHILE 1 = 1 SET @i += 1;")
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
    let stopped = tokio::time::timeout(Duration::from_secs(10), server.stop()).await;
    assert!(stopped.is_ok(), "the endless loop was cancelled");
    // The connection is closed without a reply.
    assert!(client.read_response().await.is_err());
}

#[tokio::test]
async fn statements_without_results_send_nothing() {
    let server = TestServer::start(ServerOptions::default()).await;
    let mut client = server.connect().await;
    let reply = client
        .batch("DECLARE @i int = 0; WHILE @i < 100000 SET @i += 1; SELECT @i AS i")
        .await
        .unwrap();
    // The result set and its DONE, nothing for the 100,000 SETs.
    assert_eq!(reply.items.len(), 2, "{:?}", reply.dones().len());
    assert_eq!(reply.rows(), [[Value::Int(100_000)]]);
    server.stop().await;
}

#[tokio::test]
async fn attention_stops_a_running_rpc() {
    let server = TestServer::start(ServerOptions::default()).await;
    let mut client = server.connect().await;
    let statement = ClientParameter {
        name: "@statement".into(),
        output: false,
        value: ClientValue::Scalar(
            nvarchar(Length::Max),
            Value::String("DECLARE @i INT = 0; WHILE 1 = 1 SET @i = @i + 1;".into()),
        ),
    };
    let mut payload = vec![
        22, 0, 0, 0, 18, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0,
    ];
    hekla_tds::rpc::encode_call(&mut payload, "sp_executesql", &[statement]).unwrap();
    client.send(kind::RPC, &payload).await.unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
    let discarded = tokio::time::timeout(Duration::from_secs(10), client.cancel())
        .await
        .expect("the loop stopped")
        .unwrap();
    assert_eq!(
        discarded.len(),
        1,
        "the cancelled reply, then the acknowledgement"
    );
    let reply = client.batch("SELECT 5").await.unwrap();
    assert_eq!(reply.rows(), [[Value::Int(5)]]);
    server.stop().await;
}

#[tokio::test]
async fn an_untyped_null_parameter_converts_to_the_parameter_type() {
    let server = TestServer::start(ServerOptions::default()).await;
    let mut client = server.connect().await;
    common::run_ok(
        &mut client,
        "CREATE PROCEDURE dbo.takes_date @d date AS SELECT @d AS d",
    )
    .await;
    // dbo.takes_date @d = <NULLTYPE>: go-mssqldb and tiberius send nil so.
    let mut payload = vec![
        22, 0, 0, 0, 18, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0,
    ];
    hekla_tds::rpc::encode_call(&mut payload, "dbo.takes_date", &[]).unwrap();
    payload.extend_from_slice(&[2, b'@', 0, b'd', 0, 0, hekla_tds::types::code::NULL]);
    client.send(kind::RPC, &payload).await.unwrap();
    let reply = client.read_response().await.unwrap();
    assert!(reply.errors().is_empty(), "{:?}", reply.errors());
    assert_eq!(reply.rows(), [[Value::Null]]);
    assert_eq!(reply.result_sets()[0].columns[0].data_type, DataType::Date);
    server.stop().await;
}

#[tokio::test]
async fn done_names_the_statement_in_cur_cmd() {
    use hekla_tds::tokens::command;
    let server = TestServer::start(ServerOptions::default()).await;
    let mut client = server.connect().await;
    client
        .batch("CREATE TABLE dbo.cmd (id int NOT NULL PRIMARY KEY NONCLUSTERED) WITH (MEMORY_OPTIMIZED = ON)")
        .await
        .unwrap();
    let reply = client
        .batch(
            "INSERT dbo.cmd VALUES (1), (2); UPDATE dbo.cmd SET id += 10; \
             SELECT id FROM dbo.cmd; DELETE dbo.cmd; SET NOCOUNT ON; PRINT 'x'",
        )
        .await
        .unwrap();
    let dones: Vec<(u16, Option<u64>)> = reply
        .dones()
        .iter()
        .map(|d| (d.command, d.count()))
        .collect();
    assert_eq!(
        dones,
        [
            (command::INSERT, Some(2)),
            (command::UPDATE, Some(2)),
            (command::SELECT, Some(2)),
            (command::DELETE, Some(2)),
            (command::NONE, None),
        ]
    );
    server.stop().await;
}

/// The reply's tokens in short: "rows", "RETURNSTATUS n", "DONEINPROC
/// cmd rows", "DONEPROC", "DONE" (rows only with DONE_COUNT, "more" with
/// DONE_MORE, "error" with DONE_ERROR), "error N".
fn token_outline(reply: &hekla_tds::client::Response) -> Vec<String> {
    reply
        .items
        .iter()
        .filter_map(|item| match item {
            Item::Results(_) => Some("rows".to_string()),
            Item::ReturnStatus(status) => Some(format!("RETURNSTATUS {status}")),
            Item::Error(error) => Some(format!("error {}", error.number)),
            Item::Done(d) => {
                let name = match d.token {
                    token::DONE => "DONE",
                    token::DONE_PROC => "DONEPROC",
                    _ => "DONEINPROC",
                };
                let mut text = format!("{name} {:#x}", d.command);
                if let Some(rows) = d.count() {
                    text += &format!(" {rows}");
                }
                if d.status & done::MORE != 0 {
                    text += " more";
                }
                if d.status & done::ERROR != 0 {
                    text += " error";
                }
                Some(text)
            }
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn exec_in_a_batch_ends_with_returnstatus_and_doneproc() {
    let server = TestServer::start(ServerOptions::default()).await;
    let mut client = server.connect().await;
    for sql in [
        "CREATE TABLE dbo.log (id int NOT NULL PRIMARY KEY NONCLUSTERED) WITH (MEMORY_OPTIMIZED = ON)",
        "CREATE PROCEDURE dbo.inner_p AS BEGIN INSERT dbo.log VALUES (2); RETURN 5 END",
        "CREATE PROCEDURE dbo.p @id int AS BEGIN SELECT @id AS id; INSERT dbo.log VALUES (@id); \
         EXEC dbo.inner_p; RETURN 7 END",
        "CREATE PROCEDURE dbo.fails AS BEGIN INSERT dbo.log VALUES (1); SELECT 1 AS after END",
    ] {
        common::run_ok(&mut client, sql).await;
    }
    // Statements of the procedure and of the one it calls end with
    // DONEINPROC; only the batch's EXEC sends RETURNSTATUS and DONEPROC.
    let reply = client.batch("EXEC dbo.p 1; SELECT 2 AS two").await.unwrap();
    assert_eq!(
        token_outline(&reply),
        [
            "rows",
            "DONEINPROC 0xc1 1 more",
            "DONEINPROC 0xc3 1 more",
            "DONEINPROC 0xc3 1 more",
            "RETURNSTATUS 7",
            "DONEPROC 0xe0 more",
            "rows",
            "DONE 0xc1 1",
        ]
    );
    // An EXEC that ends the batch ends it with its DONEPROC; a statement
    // failing inside the procedure marks the DONEINPROC and DONEPROC.
    let reply = client.batch("EXEC dbo.fails").await.unwrap();
    assert_eq!(
        token_outline(&reply),
        [
            "error 2627",
            "DONEINPROC 0x0 more error",
            "rows",
            "DONEINPROC 0xc1 1 more",
            "RETURNSTATUS 0",
            "DONEPROC 0xe0 error",
        ]
    );
    server.stop().await;
}

#[tokio::test]
async fn the_client_named_at_login_shows_in_app_name_host_name_and_the_sessions_view() {
    let server = TestServer::start(ServerOptions::default()).await;
    let mut options = ClientOptions::new("sa", PASSWORD);
    options.app_name = "ledger-service".to_string();
    let mut client = server.connect_as(&options).await.unwrap();
    let reply = client
        .batch(
            "SELECT APP_NAME() AS app, HOST_NAME() AS host;
             SELECT program_name, host_name, host_process_id, client_interface_name
             FROM sys.dm_exec_sessions WHERE session_id = @@SPID",
        )
        .await
        .unwrap();
    let sets = reply.result_sets();
    let text = |s: &str| Value::String(s.to_string());
    assert_eq!(sets[0].rows, [[text("ledger-service"), text("localhost")]]);
    assert_eq!(
        sets[1].rows,
        [[
            text("ledger-service"),
            text("localhost"),
            Value::Int(std::process::id() as i32),
            text("hekla"),
        ]]
    );
    server.stop().await;
}
