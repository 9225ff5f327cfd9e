//! `Session::call`: RPC requests as a TDS server makes them, checked event
//! by event (result sets, errors, return status, OUTPUT values).

use hekla_sql::session::{ErrorEvent, ResultColumn, ResultSink, Session, SqlDatabase};
use hekla_sql::{RpcParameter, RpcValue, TransactionEvent};
use hekla_types::{Collation, DataType, Length, Value};

/// What a call sent, in order.
#[derive(Debug, PartialEq)]
enum Event {
    Columns(Vec<String>),
    Row(Vec<Value>),
    Done(Option<u64>),
    Message(String),
    Error(String),
    Status(i32),
    Output(usize, String, Value),
    Transaction(TransactionEvent),
}

#[derive(Default)]
struct Events(Vec<Event>);

impl ResultSink for Events {
    fn columns(&mut self, columns: &[ResultColumn]) {
        self.0.push(Event::Columns(
            columns.iter().map(|c| c.name.clone()).collect(),
        ));
    }
    fn row(&mut self, values: &[Value]) {
        self.0.push(Event::Row(values.to_vec()));
    }
    /// DONE without a count (SET, DECLARE ...) is left out.
    fn done(&mut self, rows: Option<u64>) {
        if rows.is_some() {
            self.0.push(Event::Done(rows));
        }
    }
    fn message(&mut self, text: &str) {
        self.0.push(Event::Message(text.to_string()));
    }
    fn error(&mut self, error: &ErrorEvent) {
        self.0.push(Event::Error(error.to_string()));
    }
    fn return_status(&mut self, status: i32) {
        self.0.push(Event::Status(status));
    }
    fn output_parameter(&mut self, ordinal: usize, name: &str, _: &DataType, value: &Value) {
        self.0
            .push(Event::Output(ordinal, name.to_string(), value.clone()));
    }
    fn transaction_changed(&mut self, event: TransactionEvent) {
        self.0.push(Event::Transaction(event));
    }
}

fn nvarchar(len: u32) -> DataType {
    DataType::NVarChar {
        len: Length::Bounded(len),
        collation: Collation::default(),
    }
}

fn positional(data_type: DataType, value: Value) -> RpcParameter {
    RpcParameter {
        name: None,
        data_type,
        value: RpcValue::Scalar(value),
        output: false,
    }
}

fn named(name: &str, data_type: DataType, value: Value) -> RpcParameter {
    RpcParameter {
        name: Some(name.to_string()),
        ..positional(data_type, value)
    }
}

fn output(name: &str, data_type: DataType, value: Value) -> RpcParameter {
    RpcParameter {
        output: true,
        ..named(name, data_type, value)
    }
}

fn text(value: &str) -> Value {
    Value::String(value.to_string())
}

fn session(setup: &str) -> Session {
    let db = SqlDatabase::in_memory().expect("in-memory database");
    let mut session = db.session().expect("a session");
    let mut sink = Events::default();
    for batch in hekla_parser::script::split_batches(setup) {
        session.execute(batch.text, &mut sink);
    }
    let errors: Vec<_> = sink
        .0
        .iter()
        .filter(|e| matches!(e, Event::Error(_)))
        .collect();
    assert!(errors.is_empty(), "setup failed: {errors:?}");
    session
}

fn call(session: &mut Session, procedure: &str, parameters: Vec<RpcParameter>) -> Vec<Event> {
    let mut sink = Events::default();
    session.call(procedure, parameters, &mut sink);
    sink.0
}

const ADD: &str = "
CREATE PROCEDURE dbo.add_numbers @a int, @b int = 10, @sum int OUTPUT, @label nvarchar(20) = N'none' OUTPUT
AS
BEGIN
    SET NOCOUNT ON;
    SET @sum = @a + @b;
    SET @label = CONCAT(@label, N'!');
    SELECT @a AS a, @b AS b;
    RETURN @sum * 2;
END";

#[test]
fn positional_and_named_arguments_with_outputs_and_status() {
    let mut session = session(ADD);
    let events = call(
        &mut session,
        "dbo.add_numbers",
        vec![
            positional(DataType::Int, Value::Int(3)),
            positional(DataType::Int, Value::Int(4)),
            output("sum", DataType::BigInt, Value::Null),
            output("@label", nvarchar(30), text("x")),
        ],
    );
    assert_eq!(
        events,
        vec![
            Event::Columns(vec!["a".into(), "b".into()]),
            Event::Row(vec![Value::Int(3), Value::Int(4)]),
            Event::Status(14),
            Event::Output(2, "sum".into(), Value::BigInt(7)),
            Event::Output(3, "label".into(), text("x!")),
        ]
    );
}

#[test]
fn named_arguments_in_any_order_and_defaults() {
    let mut session = session(ADD);
    let events = call(
        &mut session,
        "[dbo].[add_numbers]",
        vec![
            output("sum", DataType::Int, Value::Null),
            named("a", DataType::Int, Value::Int(1)),
        ],
    );
    assert_eq!(
        &events[events.len() - 2..],
        &[
            Event::Status(22),
            Event::Output(0, "sum".into(), Value::Int(11)),
        ]
    );
}

#[test]
fn arguments_convert_to_the_parameter_types() {
    let mut session = session(ADD);
    let events = call(
        &mut session,
        "add_numbers",
        vec![
            named("a", nvarchar(10), text("5")),
            output("sum", nvarchar(10), Value::Null),
        ],
    );
    assert_eq!(
        events.last(),
        Some(&Event::Output(1, "sum".into(), text("15")))
    );
    let events = call(
        &mut session,
        "add_numbers",
        vec![
            named("a", nvarchar(10), text("five")),
            output("sum", DataType::Int, Value::Null),
        ],
    );
    assert_eq!(
        events,
        vec![Event::Error(
            "Msg 245, Level 16, State 1, Line 0\nConversion failed when converting the nvarchar value 'five' to data type int.".into()
        )]
    );
}

#[test]
fn exec_rules_apply() {
    let mut session = session(&format!(
        "{ADD}\nGO\nCREATE PROCEDURE dbo.strict @x int NOT NULL AS RETURN @x"
    ));
    let cases: Vec<(&str, Vec<RpcParameter>, &str)> = vec![
        (
            "dbo.add_numbers",
            vec![],
            "Msg 201, Level 16, State 4, Line 0\nProcedure or function 'add_numbers' expects parameter '@a', which was not supplied.",
        ),
        (
            "dbo.add_numbers",
            (0..5).map(|n| positional(DataType::Int, Value::Int(n))).collect(),
            "Msg 8144, Level 16, State 2, Line 0\nProcedure or function add_numbers has too many arguments specified.",
        ),
        (
            "dbo.add_numbers",
            vec![named("c", DataType::Int, Value::Int(1))],
            "Msg 8145, Level 16, State 2, Line 0\n@c is not a parameter for procedure add_numbers.",
        ),
        (
            "dbo.add_numbers",
            vec![output("a", DataType::Int, Value::Int(1))],
            "Msg 8162, Level 16, State 2, Line 0\nThe formal parameter \"@a\" was not declared as an OUTPUT parameter, but the actual parameter passed in requested output.",
        ),
        (
            "dbo.add_numbers",
            vec![named("b", DataType::Int, Value::Int(1)), positional(DataType::Int, Value::Int(1))],
            "Msg 119, Level 15, State 1, Line 0\nMust pass parameter number 2 and subsequent parameters as '@name = value'. After the form '@name = value' has been used, all subsequent parameters must be passed in the form '@name = value'.",
        ),
        (
            "dbo.add_numbers",
            vec![named("a", DataType::Int, Value::Int(1)), named("@a", DataType::Int, Value::Int(2))],
            "Msg 8143, Level 16, State 1, Line 0\nParameter '@a' was supplied multiple times.",
        ),
        (
            "dbo.strict",
            vec![positional(DataType::Int, Value::Null)],
            "Msg 515, Level 16, State 2, Line 0\nCannot pass NULL to the parameter '@x' of procedure strict, which is declared NOT NULL.",
        ),
        (
            "dbo.no_such",
            vec![],
            "Msg 2812, Level 16, State 62, Line 0\nCould not find stored procedure 'dbo.no_such'.",
        ),
    ];
    for (procedure, parameters, expected) in cases {
        let events = call(&mut session, procedure, parameters);
        assert_eq!(events, vec![Event::Error(expected.into())], "{expected}");
    }
    // The session goes on.
    let events = call(
        &mut session,
        "dbo.strict",
        vec![positional(DataType::Int, Value::Int(7))],
    );
    assert_eq!(events, vec![Event::Status(7)]);
}

#[test]
fn an_error_inside_the_procedure_still_returns_its_status() {
    let mut session = session(
        "CREATE PROCEDURE dbo.fails @out int OUTPUT AS BEGIN SET @out = 1 / 0; SET @out = 5; RETURN 3 END",
    );
    let events = call(
        &mut session,
        "dbo.fails",
        vec![output("out", DataType::Int, Value::Int(0))],
    );
    assert_eq!(
        events,
        vec![
            Event::Error("Msg 8134, Level 16, State 1, Procedure fails, Line 1\nDivide by zero error encountered.".into()),
            Event::Status(3),
            Event::Output(0, "out".into(), Value::Int(5)),
        ]
    );
}

#[test]
fn sp_executesql_takes_the_statement_definitions_and_values() {
    let mut session = session("");
    let events = call(
        &mut session,
        "sp_executesql",
        vec![
            positional(nvarchar(100), text("SELECT @x + 1 AS y; SET @z = @x * 2")),
            positional(nvarchar(100), text("@x int, @z int OUTPUT")),
            named("x", DataType::Int, Value::Int(20)),
            output("z", DataType::Int, Value::Null),
        ],
    );
    assert_eq!(
        events,
        vec![
            Event::Columns(vec!["y".into()]),
            Event::Row(vec![Value::Int(21)]),
            Event::Done(Some(1)),
            Event::Status(0),
            Event::Output(3, "z".into(), Value::Int(40)),
        ]
    );
    let events = call(
        &mut session,
        "sp_executesql",
        vec![
            named("stmt", nvarchar(100), text("SELECT @x")),
            named("params", nvarchar(100), text("@x int")),
        ],
    );
    assert_eq!(
        events,
        vec![Event::Error("Msg 8178, Level 16, State 1, Line 0\nThe parameterized query '(@x int)SELECT @x' expects the parameter '@x', which was not supplied.".into())]
    );
}

/// Values already in their declared type's form are taken as they came
/// (nvarchar(max) text, an int as int), keeping text outside code page
/// 1252; others are converted as before: an int declared bigint, and a
/// string declared int (read as the varchar or nvarchar its characters
/// fit, as for any value converted).
#[test]
fn rpc_values_keep_or_convert_to_their_declared_types() {
    let mut session = session("");
    let max = DataType::NVarChar {
        len: Length::Max,
        collation: Collation::default(),
    };
    let events = call(
        &mut session,
        "sp_executesql",
        vec![
            positional(max, text("SELECT N'Ωμέγα' + @s AS s, @k + 1 AS k, @b AS b")),
            positional(max, text("@s nvarchar(max), @k int, @b bigint")),
            named("s", max, text(" ✓")),
            named("k", DataType::Int, Value::Int(41)),
            named("b", DataType::BigInt, Value::Int(7)),
        ],
    );
    assert_eq!(
        events,
        vec![
            Event::Columns(vec!["s".into(), "k".into(), "b".into()]),
            Event::Row(vec![text("Ωμέγα ✓"), Value::Int(42), Value::BigInt(7)]),
            Event::Done(Some(1)),
            Event::Status(0),
        ]
    );
    let events = call(
        &mut session,
        "sp_executesql",
        vec![
            positional(max, text("SELECT @k AS k")),
            positional(max, text("@k int")),
            named("k", DataType::Int, text("x")),
        ],
    );
    assert_eq!(
        events,
        vec![Event::Error(
            "Msg 245, Level 16, State 1, Line 0\nConversion failed when converting the varchar value 'x' to data type int.".into()
        )]
    );
}

const ORDERS: &str = "
CREATE TYPE dbo.OrderLine AS TABLE (product int NOT NULL PRIMARY KEY, quantity smallint NOT NULL CHECK (quantity > 0), note varchar(5) NULL)
GO
CREATE TABLE dbo.lines (product int NOT NULL, quantity smallint NOT NULL, note varchar(5) NULL)
GO
CREATE PROCEDURE dbo.add_lines @lines dbo.OrderLine READONLY, @count int OUTPUT AS
BEGIN
    SET NOCOUNT ON;
    INSERT dbo.lines SELECT product, quantity, note FROM @lines;
    SELECT @count = COUNT(*) FROM @lines;
END";

fn lines(schema: &str, rows: Vec<Vec<Value>>) -> RpcParameter {
    RpcParameter {
        name: Some("lines".into()),
        data_type: DataType::Int,
        value: RpcValue::Table {
            type_schema: schema.into(),
            type_name: "OrderLine".into(),
            rows,
        },
        output: false,
    }
}

#[test]
fn table_valued_parameters() {
    let mut session = session(ORDERS);
    let rows = vec![
        vec![Value::Int(1), Value::Int(2), text("a")],
        vec![Value::BigInt(2), text("3"), Value::Null],
    ];
    let events = call(
        &mut session,
        "dbo.add_lines",
        vec![lines("", rows), output("count", DataType::Int, Value::Null)],
    );
    assert_eq!(
        events,
        vec![
            Event::Status(0),
            Event::Output(1, "count".into(), Value::Int(2))
        ]
    );
    let mut sink = Events::default();
    session.execute(
        "SELECT product, quantity, note FROM dbo.lines ORDER BY product",
        &mut sink,
    );
    assert_eq!(
        sink.0[1..3],
        [
            Event::Row(vec![Value::Int(1), Value::SmallInt(2), text("a")]),
            Event::Row(vec![Value::Int(2), Value::SmallInt(3), Value::Null]),
        ]
    );
}

#[test]
fn table_valued_parameter_errors() {
    let mut session = session(ORDERS);
    let count = || output("count", DataType::Int, Value::Null);
    let cases = vec![
        (
            vec![lines("dbo", vec![vec![Value::Int(1), Value::Int(0), Value::Null]]), count()],
            "Msg 547, Level 16, State 0, Line 0\nThe INSERT statement conflicted with the CHECK constraint",
        ),
        (
            vec![lines("dbo", vec![vec![Value::Int(1), Value::Int(1), Value::Null]; 2]), count()],
            "Msg 2627, Level 14, State 1, Line 0\nViolation of PRIMARY KEY constraint",
        ),
        (
            vec![lines("dbo", vec![vec![Value::Int(1), Value::Int(1)]]), count()],
            "Msg 213, Level 16, State 1, Line 0\nColumn name or number of supplied values does not match table definition.",
        ),
        (
            vec![lines("dbo", vec![vec![Value::Int(1), Value::Int(1), text("toolong")]]), count()],
            "Msg 2628, Level 16, State 1, Line 0\nString or binary data would be truncated",
        ),
        (
            vec![lines("sales", vec![]), count()],
            "Msg 2715, Level 16, State 6, Line 0\nColumn, parameter, or variable #1: Cannot find data type sales.OrderLine.",
        ),
        (
            vec![positional(DataType::Int, Value::Int(1)), count()],
            "Msg 206, Level 16, State 2, Line 0\nOperand type clash: int is incompatible with OrderLine",
        ),
    ];
    for (parameters, expected) in cases {
        let events = call(&mut session, "dbo.add_lines", parameters);
        let [Event::Error(error)] = &events[..] else {
            panic!("{expected}: {events:?}");
        };
        assert!(error.starts_with(expected), "{error}\nexpected {expected}");
    }
    let mut sink = Events::default();
    session.execute("SELECT COUNT(*) FROM dbo.lines", &mut sink);
    assert_eq!(sink.0[1], Event::Row(vec![Value::Int(0)]));
}

fn handle_output() -> RpcParameter {
    RpcParameter {
        name: None,
        data_type: DataType::Int,
        value: RpcValue::Scalar(Value::Null),
        output: true,
    }
}

fn execute(session: &mut Session, batch: &str) -> Vec<Event> {
    let mut sink = Events::default();
    session.execute(batch, &mut sink);
    sink.0
}

#[test]
fn prepared_statements_have_per_session_handles() {
    let db = SqlDatabase::in_memory().expect("in-memory database");
    let mut session = db.session().expect("a session");
    execute(
        &mut session,
        "CREATE TABLE dbo.t (id int NOT NULL, name nvarchar(10) NULL)",
    );
    let events = call(
        &mut session,
        "sp_prepare",
        vec![
            handle_output(),
            positional(nvarchar(100), text("@id int, @name nvarchar(10)")),
            positional(nvarchar(100), text("INSERT dbo.t VALUES (@id, @name)")),
            positional(DataType::Int, Value::Int(1)),
        ],
    );
    assert_eq!(
        events,
        vec![Event::Status(0), Event::Output(0, "".into(), Value::Int(1))]
    );
    for id in 1..=3 {
        let events = call(
            &mut session,
            "sp_execute",
            vec![
                positional(DataType::Int, Value::Int(1)),
                positional(DataType::Int, Value::Int(id)),
                named("name", nvarchar(10), text(&format!("n{id}"))),
            ],
        );
        assert_eq!(events, vec![Event::Done(Some(1)), Event::Status(0)]);
    }
    let events = call(
        &mut session,
        "sp_prepexec",
        vec![
            handle_output(),
            positional(nvarchar(100), text("@id int")),
            positional(nvarchar(100), text("SELECT name FROM dbo.t WHERE id = @id")),
            positional(DataType::Int, Value::Int(2)),
        ],
    );
    assert_eq!(
        events,
        vec![
            Event::Columns(vec!["name".into()]),
            Event::Row(vec![text("n2")]),
            Event::Done(Some(1)),
            Event::Status(0),
            Event::Output(0, "".into(), Value::Int(2)),
        ]
    );
    // Handles belong to their session.
    let mut other = db.session().expect("another session");
    let events = call(
        &mut other,
        "sp_execute",
        vec![positional(DataType::Int, Value::Int(2))],
    );
    assert_eq!(
        events,
        vec![Event::Error(
            "Msg 8179, Level 16, State 1, Line 0\nCould not find prepared statement with handle 2."
                .into()
        )]
    );
    let events = call(
        &mut session,
        "sp_execute",
        vec![positional(DataType::Int, Value::Int(2))],
    );
    assert_eq!(
        events,
        vec![Event::Error("Msg 8178, Level 16, State 1, Line 0\nThe parameterized query '(@id int)SELECT name FROM dbo.t WHERE id = @id' expects the parameter '@id', which was not supplied.".into())]
    );
    let events = call(
        &mut session,
        "sp_unprepare",
        vec![positional(DataType::Int, Value::Int(1))],
    );
    assert_eq!(events, vec![Event::Status(0)]);
    for procedure in ["sp_execute", "sp_unprepare"] {
        let events = call(
            &mut session,
            procedure,
            vec![positional(DataType::Int, Value::Int(1))],
        );
        assert_eq!(
            events,
            vec![Event::Error("Msg 8179, Level 16, State 1, Line 0\nCould not find prepared statement with handle 1.".into())]
        );
    }
    // The same procedures from T-SQL.
    let events = execute(
        &mut session,
        "DECLARE @h int; EXEC sp_prepare @h OUTPUT, N'@x int', N'SELECT @x * 2 AS y'; EXEC sp_execute @h, 21; SELECT @h",
    );
    assert_eq!(
        events,
        vec![
            Event::Columns(vec!["y".into()]),
            Event::Row(vec![Value::Int(42)]),
            Event::Done(Some(1)),
            Event::Columns(vec!["".into()]),
            Event::Row(vec![Value::Int(3)]),
            Event::Done(Some(1)),
        ]
    );
}

#[test]
fn server_cursors_are_refused() {
    let mut session = session("");
    let events = call(
        &mut session,
        "sp_cursoropen",
        vec![handle_output(), positional(nvarchar(20), text("SELECT 1"))],
    );
    assert_eq!(
        events,
        vec![Event::Error("Msg 10794, Level 16, State 1, Line 0\nThe procedure 'sp_cursoropen' (server cursors) is not supported by hekla yet.".into())]
    );
}

#[test]
fn transaction_changes_are_reported() {
    let mut session = session("CREATE TABLE dbo.t (id int NOT NULL PRIMARY KEY)");
    use TransactionEvent::*;
    let transactions = |events: Vec<Event>| {
        events
            .into_iter()
            .filter_map(|event| match event {
                Event::Transaction(event) => Some(event),
                _ => None,
            })
            .collect::<Vec<_>>()
    };
    let events = execute(&mut session, "BEGIN TRAN; BEGIN TRAN; COMMIT; COMMIT");
    assert_eq!(transactions(events), vec![Begin, Commit]);
    let events = execute(
        &mut session,
        "BEGIN TRAN; SAVE TRAN s; ROLLBACK TRAN s; ROLLBACK",
    );
    assert_eq!(transactions(events), vec![Begin, Rollback]);
    // Across batches, and a rollback by an error that ends the batch.
    assert_eq!(
        transactions(execute(&mut session, "BEGIN TRAN")),
        vec![Begin]
    );
    let events = execute(
        &mut session,
        "INSERT dbo.t VALUES (1); SELECT CONVERT(int, 'x')",
    );
    assert_eq!(transactions(events), vec![Rollback]);
    let events = execute(
        &mut session,
        "SET XACT_ABORT ON; BEGIN TRAN; INSERT dbo.t VALUES (1); INSERT dbo.t VALUES (1)",
    );
    assert_eq!(transactions(events), vec![Begin, Rollback]);
    // No autocommit statement tells anything.
    assert_eq!(
        transactions(execute(&mut session, "INSERT dbo.t VALUES (2)")),
        vec![]
    );
}

#[test]
fn reset_rolls_back_drops_temp_tables_and_restores_options() {
    let mut session = session("CREATE TABLE dbo.t (id int NOT NULL)");
    execute(
        &mut session,
        "SET NOCOUNT ON; SET XACT_ABORT ON; CREATE TABLE #mine (i int); BEGIN TRAN; INSERT dbo.t VALUES (1)",
    );
    call(
        &mut session,
        "sp_prepare",
        vec![
            handle_output(),
            positional(nvarchar(10), Value::Null),
            positional(nvarchar(20), text("SELECT 1")),
        ],
    );
    session.reset();
    let events = execute(
        &mut session,
        "SELECT @@TRANCOUNT, (SELECT COUNT(*) FROM dbo.t), @@OPTIONS & 512, XACT_STATE(), OBJECT_ID('tempdb..#mine')",
    );
    assert_eq!(
        events[1],
        Event::Row(vec![
            Value::Int(0),
            Value::Int(0),
            Value::Int(0),
            Value::SmallInt(0),
            Value::Null
        ])
    );
    let events = call(
        &mut session,
        "sp_execute",
        vec![positional(DataType::Int, Value::Int(1))],
    );
    assert!(
        matches!(&events[..], [Event::Error(e)] if e.starts_with("Msg 8179")),
        "{events:?}"
    );
    // The session goes on as new: BEGIN is reported again.
    let events = execute(&mut session, "BEGIN TRAN; ROLLBACK");
    assert!(events.contains(&Event::Transaction(TransactionEvent::Begin)));
}

#[test]
fn implicit_transactions_report_their_begin_and_reset_turns_them_off() {
    let mut session = session("CREATE TABLE dbo.t (id int NOT NULL PRIMARY KEY)");
    let transactions = |events: Vec<Event>| {
        events
            .into_iter()
            .filter_map(|event| match event {
                Event::Transaction(event) => Some(event),
                _ => None,
            })
            .collect::<Vec<_>>()
    };
    use TransactionEvent::*;
    // mssql-jdbc's setAutoCommit(false), then its commit().
    assert_eq!(
        transactions(execute(&mut session, "SET IMPLICIT_TRANSACTIONS ON")),
        vec![]
    );
    assert_eq!(
        transactions(execute(&mut session, "SELECT 1")),
        vec![],
        "a SELECT that reads no table begins nothing"
    );
    assert_eq!(
        transactions(execute(&mut session, "INSERT dbo.t VALUES (1)")),
        vec![Begin]
    );
    assert_eq!(
        transactions(execute(&mut session, "INSERT dbo.t VALUES (2)")),
        vec![]
    );
    assert_eq!(
        transactions(execute(&mut session, "IF @@TRANCOUNT > 0 COMMIT TRAN")),
        vec![Commit]
    );
    assert_eq!(
        transactions(execute(&mut session, "SELECT COUNT(*) FROM dbo.t")),
        vec![Begin]
    );
    session.reset();
    let events = execute(
        &mut session,
        "SELECT @@OPTIONS & 2 AS implicit, (SELECT COUNT(*) FROM dbo.t) AS committed, @@TRANCOUNT",
    );
    assert_eq!(
        events[1],
        Event::Row(vec![Value::Int(0), Value::Int(2), Value::Int(0)])
    );
    assert!(!events.contains(&Event::Transaction(Begin)), "{events:?}");
}
