//! Results wait for commit dependencies: a session that reads a row of a
//! transaction still committing (held in its log append here) sends the
//! row, an OUTPUT clause's row, or an RPC's return status and OUTPUT
//! values only once that transaction has committed; if it aborts, the
//! session gets 41301 and none of them.

use hekla_engine::{CommitLog, CommitRecord, TxnState};
use hekla_sql::session::{ErrorEvent, ResultColumn, ResultSink, Session, SqlDatabase};
use hekla_sql::{RpcParameter, RpcValue};
use hekla_types::{DataType, SqlError, SqlResult, Value};
use std::sync::atomic::{AtomicBool, Ordering::SeqCst};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// Holds the first commit's append until the test lets it go, then
/// accepts or refuses it (the committing transaction stays Preparing
/// meanwhile); accepts every later append.
#[derive(Default)]
struct GatedLog {
    gate: Mutex<Gate>,
    opened: Condvar,
    holding: AtomicBool,
}

#[derive(Default)]
enum Gate {
    #[default]
    Closed,
    /// Accept the held append, or refuse it.
    Released(bool),
    /// The held append has gone.
    Open,
}

impl GatedLog {
    fn release(&self, accept: bool) {
        *self.gate.lock().unwrap() = Gate::Released(accept);
        self.opened.notify_all();
    }

    fn wait_until_holding(&self) {
        while !self.holding.load(SeqCst) {
            std::thread::yield_now();
        }
    }
}

impl CommitLog for GatedLog {
    fn append(&self, _: &CommitRecord<'_>) -> SqlResult<()> {
        let mut gate = self.gate.lock().unwrap();
        if let Gate::Open = *gate {
            return Ok(());
        }
        self.holding.store(true, SeqCst);
        let accept = loop {
            match *gate {
                Gate::Released(accept) => break accept,
                _ => gate = self.opened.wait(gate).unwrap(),
            }
        };
        *gate = Gate::Open;
        if accept {
            Ok(())
        } else {
            Err(SqlError::new(9002, 17, 2, "The transaction log is full."))
        }
    }
}

#[derive(Debug, PartialEq)]
enum Event {
    Row(Vec<Value>),
    Error(String),
    Status(i32),
    Output(String, Value),
}

/// Keeps what a session is sent, checking that nothing of a result
/// reaches it while the writer it read (if any) is still committing.
#[derive(Default)]
struct Reader {
    writer: Option<(Arc<SqlDatabase>, u64)>,
    events: Vec<Event>,
}

impl Reader {
    fn receive(&mut self, event: Event) {
        if let Some((db, writer)) = &self.writer {
            let writer_committing = db
                .engine()
                .active_transactions()
                .iter()
                .any(|t| t.id == *writer && t.state == TxnState::Preparing);
            assert!(
                !writer_committing,
                "{event:?} sent while the writer it read was committing"
            );
        }
        self.events.push(event);
    }
}

impl ResultSink for Reader {
    fn columns(&mut self, _: &[ResultColumn]) {}
    fn row(&mut self, values: &[Value]) {
        self.receive(Event::Row(values.to_vec()));
    }
    fn done(&mut self, _: Option<u64>) {}
    fn message(&mut self, _: &str) {}
    fn error(&mut self, error: &ErrorEvent) {
        self.events.push(Event::Error(error.to_string()));
    }
    fn return_status(&mut self, status: i32) {
        self.receive(Event::Status(status));
    }
    fn output_parameter(&mut self, _: usize, name: &str, _: &DataType, value: &Value) {
        self.receive(Event::Output(name.to_string(), value.clone()));
    }
}

/// Checks a batch sends no error.
struct Quiet;

impl ResultSink for Quiet {
    fn columns(&mut self, _: &[ResultColumn]) {}
    fn row(&mut self, _: &[Value]) {}
    fn done(&mut self, _: Option<u64>) {}
    fn message(&mut self, _: &str) {}
    fn error(&mut self, error: &ErrorEvent) {
        panic!("{error}");
    }
}

const SETUP: &str = "
CREATE TABLE dbo.t (k int NOT NULL PRIMARY KEY NONCLUSTERED, v int NOT NULL)
    WITH (MEMORY_OPTIMIZED = ON);
CREATE TABLE dbo.copies (v int NOT NULL PRIMARY KEY NONCLUSTERED)
    WITH (MEMORY_OPTIMIZED = ON);
INSERT INTO dbo.t VALUES (1, 10);
";

const PROCEDURE: &str = "
CREATE PROCEDURE dbo.read_v @v int OUTPUT AS
BEGIN
    SELECT @v = v FROM dbo.t WITH (SNAPSHOT) WHERE k = 1;
    RETURN 5;
END";

/// Msg 41301 as a client sees it, reported at `line`.
fn msg_41301(line: u32) -> Event {
    Event::Error(format!("Msg 41301, Level 16, State 0, Line {line}\nA previous transaction that the current transaction took a dependency on has aborted, and the current transaction can no longer commit."))
}

/// What the reader does while the writer is held in its commit.
enum Read {
    Batch(&'static str),
    /// `BEGIN TRAN`, then an RPC of `dbo.read_v`.
    RpcInTransaction,
}

/// Runs `read` in one session while another's `UPDATE dbo.t SET v = 11`
/// is held in its commit, lets that commit succeed or fail once the
/// reader has read the update speculatively, and returns what the reader
/// was sent and its session.
fn read_while_writer_commits(read: Read, writer_commits: bool) -> (Vec<Event>, Session) {
    let db = SqlDatabase::in_memory().unwrap();
    let mut setup = db.session().unwrap();
    setup.execute(SETUP, &mut Quiet);
    setup.execute(PROCEDURE, &mut Quiet);
    let log = Arc::new(GatedLog::default());
    db.engine().set_commit_log(log.clone()).unwrap();
    let mut reader_session = db.session().unwrap();
    if let Read::RpcInTransaction = read {
        reader_session.execute("BEGIN TRANSACTION", &mut Quiet);
    }
    std::thread::scope(|s| {
        let writer = s.spawn(|| {
            let mut session = db.session().unwrap();
            let mut sink = Reader::default();
            session.execute("UPDATE dbo.t SET v = 11 WHERE k = 1", &mut sink);
            sink.events
        });
        log.wait_until_holding();
        let preparing = |t: &&hekla_engine::ActiveTransaction| t.state == TxnState::Preparing;
        let writer_id = db
            .engine()
            .active_transactions()
            .iter()
            .find(preparing)
            .unwrap()
            .id;
        let mut sink = Reader {
            writer: Some((db.clone(), writer_id)),
            events: Vec::new(),
        };
        let reader = s.spawn(move || {
            match read {
                Read::Batch(batch) => reader_session.execute(batch, &mut sink),
                Read::RpcInTransaction => {
                    let v = RpcParameter {
                        name: Some("v".to_string()),
                        data_type: DataType::Int,
                        value: RpcValue::Scalar(Value::Null),
                        output: true,
                    };
                    reader_session.call("dbo.read_v", vec![v], &mut sink);
                }
            }
            (sink.events, reader_session)
        });
        // Once the reader depends on the writer, nothing it reads can be
        // sent until the writer's outcome is known.
        while !db
            .engine()
            .active_transactions()
            .iter()
            .any(|t| t.pending_dependencies > 0)
        {
            assert!(
                !reader.is_finished(),
                "the reader never read the writer's row"
            );
            std::thread::yield_now();
        }
        std::thread::sleep(Duration::from_millis(20));
        assert!(
            !reader.is_finished(),
            "the reader finished while the writer was committing"
        );
        log.release(writer_commits);
        let written = writer.join().unwrap();
        assert_eq!(written.is_empty(), writer_commits, "{written:?}");
        reader.join().unwrap()
    })
}

fn value_now(session: &mut Session) -> Vec<Event> {
    let mut sink = Reader::default();
    session.execute(
        "SELECT @@TRANCOUNT; SELECT v FROM dbo.t WHERE k = 1",
        &mut sink,
    );
    sink.events
}

#[test]
fn a_select_sends_a_row_read_speculatively_only_once_its_writer_committed() {
    let (events, mut session) =
        read_while_writer_commits(Read::Batch("SELECT v FROM dbo.t WHERE k = 1"), true);
    assert_eq!(events, [Event::Row(vec![Value::Int(11)])]);
    assert_eq!(
        value_now(&mut session),
        [
            Event::Row(vec![Value::Int(0)]),
            Event::Row(vec![Value::Int(11)])
        ]
    );
}

#[test]
fn a_select_that_read_an_aborted_writer_sends_no_row_but_41301() {
    let (events, mut session) =
        read_while_writer_commits(Read::Batch("SELECT v FROM dbo.t WHERE k = 1"), false);
    assert_eq!(events, [msg_41301(1)]);
    assert_eq!(
        value_now(&mut session),
        [
            Event::Row(vec![Value::Int(0)]),
            Event::Row(vec![Value::Int(10)])
        ]
    );
}

/// In a user transaction the 41301 rolls the transaction back, as at commit.
#[test]
fn in_a_user_transaction_41301_rolls_it_back() {
    let batch =
        "BEGIN TRANSACTION; SELECT v FROM dbo.t WITH (SNAPSHOT) WHERE k = 1; SELECT 'unreached';";
    let (events, mut session) = read_while_writer_commits(Read::Batch(batch), false);
    assert_eq!(events, [msg_41301(1)]);
    assert_eq!(
        value_now(&mut session),
        [
            Event::Row(vec![Value::Int(0)]),
            Event::Row(vec![Value::Int(10)])
        ]
    );
    let batch = "BEGIN TRANSACTION; SELECT v FROM dbo.t WITH (SNAPSHOT) WHERE k = 1; COMMIT;";
    let (events, _) = read_while_writer_commits(Read::Batch(batch), true);
    assert_eq!(events, [Event::Row(vec![Value::Int(11)])]);
}

/// An OUTPUT clause's rows are results too.
#[test]
fn output_clause_rows_wait_for_the_writer_read() {
    let batch = "INSERT INTO dbo.copies OUTPUT inserted.v SELECT v FROM dbo.t WHERE k = 1";
    let (events, mut session) = read_while_writer_commits(Read::Batch(batch), true);
    assert_eq!(events, [Event::Row(vec![Value::Int(11)])]);
    let (events, _) = read_while_writer_commits(Read::Batch(batch), false);
    assert_eq!(events, [msg_41301(1)]);
    assert_eq!(
        value_now(&mut session),
        [
            Event::Row(vec![Value::Int(0)]),
            Event::Row(vec![Value::Int(11)])
        ]
    );
}

/// An RPC's return status and OUTPUT values, read in a user transaction,
/// wait too; if the writer aborted, neither is sent.
#[test]
fn rpc_status_and_output_values_wait_for_the_writer_read() {
    let (events, _) = read_while_writer_commits(Read::RpcInTransaction, true);
    assert_eq!(
        events,
        [
            Event::Status(5),
            Event::Output("v".to_string(), Value::Int(11))
        ]
    );
    let (events, mut session) = read_while_writer_commits(Read::RpcInTransaction, false);
    // Line 0, as for any error of the RPC itself.
    assert_eq!(events, [msg_41301(0)]);
    assert_eq!(
        value_now(&mut session),
        [
            Event::Row(vec![Value::Int(0)]),
            Event::Row(vec![Value::Int(10)])
        ]
    );
}
