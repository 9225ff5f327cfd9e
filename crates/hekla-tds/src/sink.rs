//! The [`ResultSink`] that turns what a session reports into TDS tokens.
//!
//! It runs on the connection's thread and hands complete tokens to a
//! [`TokenOutput`] in chunks (so a large result never sits whole in memory
//! and a slow client slows the request down). The last DONE of a request
//! is held back: only at the end is it known to be the final one, and
//! after an ATTENTION the connection replaces it.

use crate::tokens::{self, command, done, env, token, Message};
use hekla_sql::result::{ErrorEvent, ResultColumn, ResultSink, StatementCommand, TransactionEvent};
use hekla_types::{DataType, SqlError, Value};

/// Tokens are handed over once this many bytes have collected.
const CHUNK: usize = 32 * 1024;

/// Where a request's tokens go as they collect: the connection's socket.
pub trait TokenOutput {
    /// Sends a chunk of complete tokens; false once the client is gone.
    fn send(&mut self, tokens: &[u8]) -> bool;
}

/// What DONE tokens a request's statements end with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RequestKind {
    /// A SQL batch: DONE per statement.
    Batch,
    /// An RPC: DONEINPROC per statement, DONEPROC at the end.
    Rpc,
}

/// A connection's state the sink needs and updates.
#[derive(Clone, Debug)]
pub struct ConnectionState {
    pub server_name: String,
    pub database: String,
    /// The descriptor of the open transaction (ENVCHANGE 8), 0 if none.
    pub transaction: u64,
    next_transaction: u64,
}

impl ConnectionState {
    pub fn new(server_name: &str, database: &str) -> ConnectionState {
        ConnectionState {
            server_name: server_name.to_string(),
            database: database.to_string(),
            transaction: 0,
            next_transaction: 1,
        }
    }
}

/// A DONE (DONEINPROC, DONEPROC): token, status, CurCmd and row count.
#[derive(Clone, Copy, Debug)]
struct PendingDone {
    token: u8,
    status: u16,
    command: u16,
    rows: u64,
}

pub struct TokenSink<'a> {
    kind: RequestKind,
    /// Tokens not yet handed over (the connection's buffer, reused from
    /// request to request).
    out: &'a mut Vec<u8>,
    output: &'a mut dyn TokenOutput,
    /// The client has gone: output is dropped.
    disconnected: bool,
    columns: Vec<ResultColumn>,
    /// A result set was started since the last DONE.
    result_open: bool,
    /// The last statement's DONE, not yet written.
    pending_done: Option<PendingDone>,
    /// An error since the last DONE.
    error_since_done: bool,
    /// An error anywhere in the request.
    any_error: bool,
    pub state: &'a mut ConnectionState,
    /// A batch's EXEC is running its procedure: statements end with
    /// DONEINPROC, and an error among them marks its DONEPROC.
    in_procedure: bool,
    procedure_error: bool,
    /// An RPC's return status and OUTPUT values, written before DONEPROC.
    return_status: Option<i32>,
    return_values: Vec<u8>,
}

impl<'a> TokenSink<'a> {
    /// A sink collecting into `buffer` (emptied first).
    pub fn new(
        kind: RequestKind,
        buffer: &'a mut Vec<u8>,
        output: &'a mut dyn TokenOutput,
        state: &'a mut ConnectionState,
    ) -> TokenSink<'a> {
        buffer.clear();
        TokenSink {
            kind,
            out: buffer,
            output,
            disconnected: false,
            columns: Vec::new(),
            result_open: false,
            pending_done: None,
            error_since_done: false,
            any_error: false,
            state,
            in_procedure: false,
            procedure_error: false,
            return_status: None,
            return_values: Vec::new(),
        }
    }

    /// Starts the next RPC of a request that holds several.
    pub fn start_rpc(&mut self) {
        self.any_error = false;
        self.return_status = None;
        self.return_values.clear();
    }

    /// A statement that failed gets no `done` call: after its error (and
    /// any messages that follow it, such as 3621), a DONE with the error
    /// bit stands for it.
    fn settle_error(&mut self) {
        if std::mem::take(&mut self.error_since_done) {
            self.flush_pending_done();
            self.pending_done = Some(PendingDone {
                token: self.statement_token(),
                status: done::ERROR,
                command: command::NONE,
                rows: 0,
            });
        }
    }

    /// Writes the held-back DONE as a non-final one.
    fn flush_pending_done(&mut self) {
        if let Some(pending) = self.pending_done.take() {
            let status = pending.status | done::MORE;
            tokens::done(
                self.out,
                pending.token,
                status,
                pending.command,
                pending.rows,
            );
        }
    }

    /// The token a statement's DONE is: DONEINPROC inside a procedure.
    fn statement_token(&self) -> u8 {
        if self.kind == RequestKind::Rpc || self.in_procedure {
            token::DONE_IN_PROC
        } else {
            token::DONE
        }
    }

    /// Hands the collected tokens over once there are enough.
    fn maybe_send(&mut self) {
        if self.out.len() >= CHUNK {
            self.send();
        }
    }

    fn send(&mut self) {
        if self.out.is_empty() {
            return;
        }
        if !self.disconnected && !self.output.send(self.out) {
            self.disconnected = true;
        }
        self.out.clear();
    }

    /// Whether the connection went away (the request may as well stop).
    pub fn is_disconnected(&self) -> bool {
        self.disconnected
    }

    /// Ends an RPC: its held-back DONEINPROC, RETURNSTATUS, RETURNVALUEs
    /// and its DONEPROC. Everything but the DONEPROC of the request's last
    /// call is handed over; that one is returned, for the connection to
    /// write unless the request was cancelled.
    pub fn finish_rpc(&mut self, last: bool) -> Vec<u8> {
        self.settle_error();
        self.flush_pending_done();
        if let Some(status) = self.return_status {
            tokens::return_status(self.out, status);
        }
        self.out.append(&mut self.return_values);
        let mut status = if last { done::FINAL } else { done::MORE };
        if self.any_error {
            status |= done::ERROR;
        }
        let mut done_proc = Vec::new();
        tokens::done(&mut done_proc, token::DONE_PROC, status, command::NONE, 0);
        if !last {
            self.out.append(&mut done_proc);
        }
        self.send();
        done_proc
    }

    /// Ends a batch: the final DONE (the last statement's, or an empty one)
    /// is returned rather than sent, for the connection to write unless the
    /// request was cancelled.
    pub fn finish_batch(&mut self) -> Vec<u8> {
        self.settle_error();
        self.send();
        let last_done = self.pending_done.take().unwrap_or(PendingDone {
            token: token::DONE,
            status: done::FINAL,
            command: command::NONE,
            rows: 0,
        });
        let mut last = Vec::new();
        tokens::done(
            &mut last,
            last_done.token,
            last_done.status,
            last_done.command,
            last_done.rows,
        );
        last
    }

    /// The session was reset (its transaction, if any, rolled back).
    pub fn reset_acknowledged(&mut self) {
        self.state.transaction = 0;
        tokens::env_change_bytes(self.out, env::RESET_CONNECTION_ACK, &[], &[]);
    }

    /// An error the server itself raises (not from the session).
    pub fn server_error(&mut self, error: &SqlError) {
        self.error(&ErrorEvent {
            error: error.clone(),
            line: 1,
            procedure: None,
        });
    }

    fn info(&mut self, number: u32, state: u8, text: &str) {
        Message {
            number,
            state,
            class: 0,
            text,
            server: &self.state.server_name,
            procedure: "",
            line: 1,
        }
        .encode(self.out);
    }
}

impl ResultSink for TokenSink<'_> {
    fn columns(&mut self, columns: &[ResultColumn]) {
        self.settle_error();
        self.flush_pending_done();
        self.columns = columns.to_vec();
        self.result_open = true;
        tokens::col_metadata(self.out, columns);
        self.maybe_send();
    }

    fn row(&mut self, values: &[Value]) {
        if let Err(error) = tokens::row(self.out, &self.columns, values) {
            self.server_error(&error);
        }
        self.maybe_send();
    }

    /// As SQL Server, a DONE ends a result set or carries a row count:
    /// statements with neither (SET, DECLARE, IF, a DML statement under
    /// SET NOCOUNT ON) send none, so a loop of them sends nothing at all.
    fn done(&mut self, rows: Option<u64>) {
        self.statement_done(StatementCommand::Other, rows);
    }

    /// CurCmd names the statement as SQL Server does: mssql-jdbc's
    /// `executeUpdate` takes a row count only from a DML command's DONE.
    fn statement_done(&mut self, statement: StatementCommand, rows: Option<u64>) {
        let ends_result = std::mem::take(&mut self.result_open);
        if rows.is_none() && !ends_result && !self.error_since_done {
            return;
        }
        self.flush_pending_done();
        let mut status = match rows {
            Some(_) => done::COUNT,
            None => done::FINAL,
        };
        if std::mem::take(&mut self.error_since_done) {
            status |= done::ERROR;
        }
        self.pending_done = Some(PendingDone {
            token: self.statement_token(),
            status,
            command: cur_cmd(statement),
            rows: rows.unwrap_or(0),
        });
        self.maybe_send();
    }

    /// PRINT is message 0, state 1, as SQL Server sends it.
    fn message(&mut self, text: &str) {
        self.numbered_message(0, 1, text);
    }

    fn numbered_message(&mut self, number: u32, state: u8, text: &str) {
        self.flush_pending_done();
        self.info(number, state, text);
        self.maybe_send();
    }

    fn error(&mut self, error: &ErrorEvent) {
        self.flush_pending_done();
        let e = &error.error;
        Message {
            number: e.number,
            state: e.state,
            class: e.severity,
            text: &e.message,
            server: &self.state.server_name,
            procedure: error.procedure.as_deref().unwrap_or(""),
            line: error.line,
        }
        .encode(self.out);
        if e.severity > 10 {
            self.error_since_done = true;
            self.any_error = true;
            self.procedure_error |= self.in_procedure;
        }
        self.maybe_send();
    }

    fn database_changed(&mut self, database: &str) {
        self.flush_pending_done();
        let old = std::mem::replace(&mut self.state.database, database.to_string());
        tokens::env_change_text(self.out, env::DATABASE, database, &old);
        self.info(
            5701,
            1,
            &format!("Changed database context to '{database}'."),
        );
    }

    /// Only a batch's EXEC: an RPC's reply is its procedure's already.
    fn procedure_started(&mut self) {
        if self.kind == RequestKind::Batch {
            self.settle_error();
            self.flush_pending_done();
            self.in_procedure = true;
            self.procedure_error = false;
        }
    }

    /// RETURNSTATUS, then the EXEC's DONEPROC (held back: it may be the
    /// request's last), as SQL Server ends `EXEC p` in a batch.
    fn procedure_ended(&mut self, status: Option<i32>) {
        if !self.in_procedure {
            return;
        }
        self.settle_error();
        self.flush_pending_done();
        self.in_procedure = false;
        if let Some(status) = status {
            tokens::return_status(self.out, status);
        }
        let error = if std::mem::take(&mut self.procedure_error) {
            done::ERROR
        } else {
            0
        };
        self.pending_done = Some(PendingDone {
            token: token::DONE_PROC,
            status: done::FINAL | error,
            command: command::EXECUTE,
            rows: 0,
        });
        self.maybe_send();
    }

    fn return_status(&mut self, status: i32) {
        self.return_status = Some(status);
    }

    fn output_parameter(
        &mut self,
        ordinal: usize,
        name: &str,
        data_type: &DataType,
        value: &Value,
    ) {
        let name = if name.is_empty() {
            String::new()
        } else {
            format!("@{name}")
        };
        let ordinal = u16::try_from(ordinal).unwrap_or(u16::MAX);
        let mut encoded = Vec::new();
        match tokens::return_value(&mut encoded, ordinal, &name, data_type, value) {
            Ok(()) => self.return_values.append(&mut encoded),
            Err(error) => self.server_error(&error),
        }
    }

    fn transaction_changed(&mut self, event: TransactionEvent) {
        self.flush_pending_done();
        let state = &mut self.state;
        match event {
            TransactionEvent::Begin => {
                state.transaction = state.next_transaction;
                state.next_transaction += 1;
                let descriptor = state.transaction.to_le_bytes();
                tokens::env_change_bytes(self.out, env::BEGIN_TRANSACTION, &descriptor, &[]);
            }
            TransactionEvent::Commit | TransactionEvent::Rollback => {
                let kind = if event == TransactionEvent::Commit {
                    env::COMMIT_TRANSACTION
                } else {
                    env::ROLLBACK_TRANSACTION
                };
                let descriptor = std::mem::take(&mut state.transaction).to_le_bytes();
                tokens::env_change_bytes(self.out, kind, &[], &descriptor);
            }
        }
    }
}

fn cur_cmd(statement: StatementCommand) -> u16 {
    match statement {
        StatementCommand::Select => command::SELECT,
        StatementCommand::Insert => command::INSERT,
        StatementCommand::Update => command::UPDATE,
        StatementCommand::Delete => command::DELETE,
        StatementCommand::Other => command::NONE,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::{Item, Response};
    use hekla_types::SqlError;

    /// Runs `report` against a batch sink and decodes everything it sent.
    fn tokens(report: impl FnOnce(&mut TokenSink)) -> Response {
        let mut all = Collected(Vec::new());
        let mut state = ConnectionState::new("s", "hekla");
        let mut buffer = Vec::new();
        let mut sink = TokenSink::new(RequestKind::Batch, &mut buffer, &mut all, &mut state);
        report(&mut sink);
        let last = sink.finish_batch();
        drop(sink);
        let mut all = all.0;
        all.extend_from_slice(&last);
        Response::decode(&all).unwrap()
    }

    struct Collected(Vec<u8>);

    impl TokenOutput for Collected {
        fn send(&mut self, tokens: &[u8]) -> bool {
            self.0.extend_from_slice(tokens);
            true
        }
    }

    fn int_column() -> Vec<ResultColumn> {
        vec![ResultColumn {
            name: "x".into(),
            data_type: DataType::Int,
            nullable: false,
        }]
    }

    #[test]
    fn statements_without_results_or_counts_send_no_done() {
        let reply = tokens(|sink| {
            for _ in 0..10_000 {
                sink.done(None);
            }
        });
        assert_eq!(reply.items.len(), 1, "only the final DONE");
    }

    #[test]
    fn a_result_under_nocount_ends_with_a_done_without_count() {
        let reply = tokens(|sink| {
            sink.columns(&int_column());
            sink.row(&[Value::Int(1)]);
            sink.done(None);
            sink.done(Some(3));
        });
        let dones = reply.dones();
        assert_eq!(dones[0].status, done::MORE);
        assert_eq!(dones[1].status, done::COUNT);
        assert_eq!(dones[1].rows, 3);
    }

    #[test]
    fn a_failed_statement_gets_a_done_with_the_error_bit() {
        let reply = tokens(|sink| {
            sink.error(&ErrorEvent {
                error: SqlError::new(2627, 14, 1, "dup"),
                line: 1,
                procedure: None,
            });
            sink.numbered_message(3621, 0, "The statement has been terminated.");
            sink.columns(&int_column());
            sink.done(Some(0));
        });
        let kinds: Vec<&str> = reply
            .items
            .iter()
            .map(|item| match item {
                Item::Error(_) => "error",
                Item::Info(_) => "info",
                Item::Done(d) if d.status & done::ERROR != 0 => "done-error",
                Item::Done(_) => "done",
                Item::Results(_) => "results",
                _ => "other",
            })
            .collect();
        assert_eq!(kinds, ["error", "info", "done-error", "results", "done"]);
        assert_eq!(reply.infos()[0].number, 3621);
    }
}
