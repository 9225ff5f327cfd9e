//! Cancelling a running request from another thread (TDS ATTENTION): it
//! stops promptly, reports nothing more, undoes its running statement and
//! leaves the session usable.

mod common;

use common::{collect, Collect};
use hekla_sql::session::{Session, SqlDatabase};
use hekla_types::Value;
use std::time::{Duration, Instant};

/// How long a cancelled request may take to stop.
const PROMPT: Duration = Duration::from_secs(2);

fn session() -> Session {
    SqlDatabase::in_memory()
        .expect("in-memory database")
        .session()
        .expect("a session")
}

/// Runs `batch`, cancelling it after `after`; what it sent and how long
/// it ran past the cancel.
fn cancelled(session: &mut Session, batch: &str, after: Duration) -> (Collect, Duration) {
    let handle = session.cancel_handle();
    let canceller = std::thread::spawn(move || {
        std::thread::sleep(after);
        handle.cancel();
        Instant::now()
    });
    let mut sink = Collect::default();
    session.execute(batch, &mut sink);
    let stopped = Instant::now();
    let cancelled_at = canceller.join().expect("the canceller ran");
    session.cancel_handle().clear();
    (sink, stopped.saturating_duration_since(cancelled_at))
}

fn value(session: &mut Session, query: &str) -> Value {
    let sink = collect(session, query);
    assert!(sink.errors.is_empty(), "{:?}", sink.errors);
    sink.rows[0][0].clone()
}

#[test]
fn an_endless_loop_stops() {
    let mut session = session();
    let (sink, late) = cancelled(
        &mut session,
        "DECLARE @i int = 0; WHILE 1 = 1 SET @i += 1; SELECT 'never'",
        Duration::from_millis(200),
    );
    assert!(late < PROMPT, "stopped {late:?} after the cancel");
    assert!(
        sink.errors.is_empty() && sink.rows.is_empty(),
        "{:?}",
        sink.errors
    );
    let (sink, late) = cancelled(
        &mut session,
        "WHILE 1 = 1 BEGIN BEGIN TRY WHILE 1 = 1 BEGIN END END TRY BEGIN CATCH SELECT 'caught' END CATCH END",
        Duration::from_millis(100),
    );
    assert!(late < PROMPT, "stopped {late:?} after the cancel");
    assert!(
        sink.errors.is_empty() && sink.rows.is_empty(),
        "no CATCH sees a cancel"
    );
    assert_eq!(value(&mut session, "SELECT 1"), Value::Int(1));
}

#[test]
fn a_big_cross_join_stops_and_its_statement_is_undone() {
    let mut session = session();
    let setup = collect(
        &mut session,
        "CREATE TABLE dbo.n (i int NOT NULL PRIMARY KEY NONCLUSTERED) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_ONLY);
         CREATE TABLE dbo.out (i bigint NOT NULL);
         INSERT dbo.n SELECT a.i * 100 + b.i * 10 + c.i
         FROM (VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9)) a (i)
         CROSS JOIN (VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9)) b (i)
         CROSS JOIN (VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9)) c (i);",
    );
    assert!(setup.errors.is_empty(), "{:?}", setup.errors);
    // A billion rows: minutes if it were not stopped.
    let (sink, late) = cancelled(
        &mut session,
        "SELECT COUNT_BIG(*) FROM dbo.n a CROSS JOIN dbo.n b CROSS JOIN dbo.n c",
        Duration::from_millis(300),
    );
    assert!(late < PROMPT, "stopped {late:?} after the cancel");
    assert!(sink.errors.is_empty() && sink.rows.is_empty());
    // In an open transaction: the statement is undone, the transaction
    // stays open (XACT_ABORT OFF).
    collect(&mut session, "BEGIN TRAN; INSERT dbo.out VALUES (-1)");
    let (_, late) = cancelled(
        &mut session,
        "INSERT dbo.out SELECT a.i * 1000000 + b.i * 1000 + c.i FROM dbo.n a CROSS JOIN dbo.n b CROSS JOIN dbo.n c",
        Duration::from_millis(300),
    );
    assert!(late < PROMPT, "stopped {late:?} after the cancel");
    assert_eq!(value(&mut session, "SELECT @@TRANCOUNT"), Value::Int(1));
    assert_eq!(
        value(&mut session, "SELECT COUNT(*) FROM dbo.out"),
        Value::Int(1)
    );
    collect(&mut session, "COMMIT");
    assert_eq!(
        value(&mut session, "SELECT COUNT(*) FROM dbo.out"),
        Value::Int(1)
    );
}

#[test]
fn with_xact_abort_on_a_cancel_rolls_the_transaction_back() {
    let mut session = session();
    collect(
        &mut session,
        "CREATE TABLE dbo.t (i int NOT NULL); SET XACT_ABORT ON; BEGIN TRAN; INSERT dbo.t VALUES (1)",
    );
    let (_, late) = cancelled(
        &mut session,
        "WHILE 1 = 1 BEGIN END",
        Duration::from_millis(100),
    );
    assert!(late < PROMPT);
    assert_eq!(value(&mut session, "SELECT @@TRANCOUNT"), Value::Int(0));
    assert_eq!(
        value(&mut session, "SELECT COUNT(*) FROM dbo.t"),
        Value::Int(0)
    );
}

#[test]
fn waitfor_and_a_cancel_before_the_request() {
    let mut session = session();
    let (sink, late) = cancelled(
        &mut session,
        "WAITFOR DELAY '00:01:00'; SELECT 1",
        Duration::from_millis(100),
    );
    assert!(late < PROMPT);
    assert!(sink.rows.is_empty());
    // A cancel that comes before the request starts still stops it.
    session.cancel_handle().cancel();
    let sink = collect(&mut session, "SELECT 1");
    assert!(sink.rows.is_empty() && sink.errors.is_empty());
    session.cancel_handle().clear();
    assert_eq!(value(&mut session, "SELECT 2"), Value::Int(2));
}

#[test]
fn a_cancelled_rpc_sends_no_status() {
    use hekla_sql::{RpcParameter, RpcValue};
    let mut session = session();
    let setup = collect(
        &mut session,
        "CREATE PROCEDURE dbo.spin @n int OUTPUT AS BEGIN SET @n = 0; WHILE 1 = 1 SET @n += 1; RETURN 5 END",
    );
    assert!(setup.errors.is_empty(), "{:?}", setup.errors);
    let handle = session.cancel_handle();
    let canceller = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(100));
        handle.cancel();
    });
    let mut sink = StatusSink::default();
    session.call(
        "dbo.spin",
        vec![RpcParameter {
            name: Some("n".into()),
            data_type: hekla_types::DataType::Int,
            value: RpcValue::Scalar(Value::Null),
            output: true,
        }],
        &mut sink,
    );
    canceller.join().expect("the canceller ran");
    assert_eq!(
        sink.0, 0,
        "no return status nor OUTPUT value after a cancel"
    );
    session.cancel_handle().clear();
    assert_eq!(value(&mut session, "SELECT 1"), Value::Int(1));
}

/// Counts the errors, return statuses and OUTPUT values it is sent.
#[derive(Default)]
struct StatusSink(usize);

impl hekla_sql::ResultSink for StatusSink {
    fn columns(&mut self, _: &[hekla_sql::session::ResultColumn]) {}
    fn row(&mut self, _: &[Value]) {}
    fn done(&mut self, _: Option<u64>) {}
    fn message(&mut self, _: &str) {}
    fn error(&mut self, _: &hekla_sql::session::ErrorEvent) {
        self.0 += 1;
    }
    fn return_status(&mut self, _: i32) {
        self.0 += 1;
    }
    fn output_parameter(&mut self, _: usize, _: &str, _: &hekla_types::DataType, _: &Value) {
        self.0 += 1;
    }
}
