//! What a session reports to its client, in order: result sets, DONE
//! counts, messages and errors, through a [`ResultSink`]. A leaf of the
//! crate (it needs only hekla-types and the syntax error type), so that the
//! interpreter, the executor, the catalog and every sink can name these
//! types without depending on the session.

use hekla_parser::SyntaxError;
use hekla_types::{DataType, SqlError, Value};

/// A column of a result set.
#[derive(Clone, Debug, PartialEq)]
pub struct ResultColumn {
    pub name: String,
    pub data_type: DataType,
    pub nullable: bool,
}

/// An error as a client sees it: SQL Server's number, severity, state and
/// text, with the batch line and the procedure it happened in.
#[derive(Clone, Debug, PartialEq)]
pub struct ErrorEvent {
    pub error: SqlError,
    pub line: u32,
    pub procedure: Option<String>,
}

impl ErrorEvent {
    pub fn from_syntax(error: SyntaxError) -> ErrorEvent {
        ErrorEvent {
            error: SqlError::new(error.number, error.level, error.state, error.message),
            line: error.line,
            procedure: error.procedure,
        }
    }
}

/// The two lines sqlcmd prints for an error.
impl std::fmt::Display for ErrorEvent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let e = &self.error;
        write!(
            f,
            "Msg {}, Level {}, State {}, ",
            e.number, e.severity, e.state
        )?;
        if let Some(procedure) = &self.procedure {
            write!(f, "Procedure {procedure}, ")?;
        }
        write!(f, "Line {}\n{}", self.line, e.message)
    }
}

/// Where a session's results go, in order.
pub trait ResultSink {
    /// A result set starts.
    fn columns(&mut self, columns: &[ResultColumn]);
    fn row(&mut self, values: &[Value]);
    /// A statement finished; `rows` is its row count when it has one
    /// (a query or DML) and `SET NOCOUNT` is off.
    fn done(&mut self, rows: Option<u64>);
    /// [`ResultSink::done`] for a statement of kind `command`: TDS sends
    /// it as the DONE's CurCmd (mssql-jdbc takes a row count only from a
    /// DONE whose CurCmd is DML); other sinks need only the row count.
    fn statement_done(&mut self, command: StatementCommand, rows: Option<u64>) {
        let _ = command;
        self.done(rows);
    }
    /// PRINT and informational messages.
    fn message(&mut self, text: &str);
    /// An informational message SQL Server numbers (TDS INFO `number`,
    /// Level 0, `state`), such as 3621 "The statement has been
    /// terminated."; a sink without numbers shows the text.
    fn numbered_message(&mut self, number: u32, state: u8, text: &str) {
        let _ = (number, state);
        self.message(text);
    }
    fn error(&mut self, error: &ErrorEvent);
    /// `USE` made `database` the session's database. SQL Server sends an
    /// environment change (TDS ENVCHANGE) and the informational message
    /// 5701; a sink without environment changes shows the message only.
    fn database_changed(&mut self, database: &str) {
        self.message(&format!("Changed database context to '{database}'."));
    }
    /// A SQL batch's own `EXEC` of a stored procedure starts running it
    /// (TDS: its statements, and those of procedures it calls, end with
    /// DONEINPROC). Not for an RPC, whose reply is its procedure's.
    fn procedure_started(&mut self) {}
    /// That procedure ended: `status` is its return status (TDS
    /// RETURNSTATUS, then the EXEC's DONEPROC), None if an error ended it.
    fn procedure_ended(&mut self, _status: Option<i32>) {}
    /// An RPC's procedure returned `status` (TDS RETURNSTATUS); it comes
    /// before the OUTPUT parameters' values. A call that failed before its
    /// procedure ran, or whose error ended the batch, sends neither.
    fn return_status(&mut self, _status: i32) {}
    /// The value of an RPC's OUTPUT parameter (TDS RETURNVALUE), in the
    /// order of the call's parameters: `ordinal` is its 0-based position
    /// among them, `name` the name the client gave it (without `@`; empty
    /// for a positional one), `data_type` the type it declared.
    fn output_parameter(
        &mut self,
        _ordinal: usize,
        _name: &str,
        _data_type: &DataType,
        _value: &Value,
    ) {
    }
    /// The session's transaction began, committed or rolled back (TDS
    /// ENVCHANGE 8, 9, 10): the outermost BEGIN, the final COMMIT, a
    /// ROLLBACK of the whole transaction.
    fn transaction_changed(&mut self, _event: TransactionEvent) {}
}

/// The kind of statement a DONE ends, for [`ResultSink::statement_done`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StatementCommand {
    Select,
    Insert,
    Update,
    Delete,
    /// Anything else: DDL, SET, EXEC, transaction statements, ...
    Other,
}

/// What happened to the session's transaction, for
/// [`ResultSink::transaction_changed`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TransactionEvent {
    Begin,
    Commit,
    Rollback,
}
