//! `sys.dm_exec_sessions` and `sys.dm_exec_requests`, from the sessions
//! registered on the database (see [`crate::session_registry`]).

use super::context::SystemContext;
use super::shared::{
    bit, datetime_ms, int, int_count, not_null, nullable, nvarchar, or_null, smallint, text,
};
use super::{Scope, SystemView, ViewColumn};
use hekla_plan::names::DATABASE_ID;
use hekla_plan::session_options::LANGUAGE;
use hekla_types::{DataType, SqlResult, Value};
use std::time::Instant;

fn database_id() -> Value {
    smallint(i16::try_from(DATABASE_ID).unwrap_or(i16::MAX))
}

fn elapsed_ms(since: Instant) -> Value {
    int_count(u64::try_from(since.elapsed().as_millis()).unwrap_or(u64::MAX))
}

// ---- sys.dm_exec_sessions -------------------------------------------------

pub const SESSIONS: SystemView = SystemView {
    schema: "sys",
    name: "dm_exec_sessions",
    scope: Scope::Server,
    columns: sessions_columns,
    rows: sessions_rows,
};

/// The columns hekla can fill: CPU, memory, I/O and row counters are left
/// out. The SET options are the session's as its last statement started.
fn sessions_columns() -> Vec<ViewColumn> {
    vec![
        not_null("session_id", DataType::SmallInt),
        not_null("login_time", DataType::DateTime),
        nullable("host_name", nvarchar(128)),
        nullable("program_name", nvarchar(128)),
        nullable("host_process_id", DataType::Int),
        nullable("client_interface_name", nvarchar(32)),
        nullable("login_name", nvarchar(128)),
        not_null("status", nvarchar(30)),
        not_null("total_elapsed_time", DataType::Int),
        not_null("last_request_start_time", DataType::DateTime),
        nullable("last_request_end_time", DataType::DateTime),
        not_null("is_user_process", DataType::Bit),
        not_null("text_size", DataType::Int),
        not_null("language", nvarchar(128)),
        not_null("date_format", nvarchar(3)),
        not_null("date_first", DataType::SmallInt),
        not_null("quoted_identifier", DataType::Bit),
        not_null("arithabort", DataType::Bit),
        not_null("ansi_null_dflt_on", DataType::Bit),
        not_null("ansi_defaults", DataType::Bit),
        not_null("ansi_warnings", DataType::Bit),
        not_null("ansi_padding", DataType::Bit),
        not_null("ansi_nulls", DataType::Bit),
        not_null("concat_null_yields_null", DataType::Bit),
        not_null("transaction_isolation_level", DataType::SmallInt),
        not_null("lock_timeout", DataType::Int),
        not_null("deadlock_priority", DataType::Int),
        nullable("database_id", DataType::SmallInt),
        nullable("open_transaction_count", DataType::Int),
    ]
}

/// One row per session open on this database. The client's host,
/// program, process id and driver are what it sent at login; the
/// embedded API has no client, so they are NULL for its sessions, and so
/// is their login. A session that has run
/// nothing yet shows its login time as its last request's start, as SQL
/// Server does.
fn sessions_rows(db: &dyn SystemContext) -> SqlResult<Vec<Vec<Value>>> {
    Ok(db
        .sessions()
        .into_iter()
        .map(|session| {
            let status = if session.request.is_some() {
                "running"
            } else {
                "sleeping"
            };
            let options = &session.options;
            let client = session.client.as_deref();
            vec![
                smallint(session.session_id),
                datetime_ms(session.login_ms),
                or_null(client.map(|c| c.host_name.clone()), text),
                or_null(client.map(|c| c.program_name.clone()), text),
                or_null(client.map(|c| c.host_process_id), |pid| {
                    // A process id is an int in the view; Linux's are far
                    // below its limit.
                    Value::Int(i32::try_from(pid).unwrap_or(i32::MAX))
                }),
                or_null(client.map(|c| c.interface_name.clone()), text),
                or_null(session.login.clone(), text),
                text(status),
                elapsed_ms(session.logged_in),
                datetime_ms(session.last_request_start_ms.unwrap_or(session.login_ms)),
                or_null(session.last_request_end_ms, datetime_ms),
                bit(true),
                int(options.text_size),
                text(LANGUAGE),
                text(options.date_format.name()),
                smallint(i16::from(options.date_first)),
                // hekla always runs with QUOTED_IDENTIFIER, ANSI_NULL_DFLT_ON
                // and ANSI_PADDING on.
                bit(true),
                bit(options.arithabort),
                bit(true),
                bit(options.ansi_defaults()),
                bit(options.ansi_warnings),
                bit(true),
                bit(options.ansi_nulls),
                bit(options.concat_null_yields_null),
                smallint(options.isolation_code()),
                int(options.lock_timeout),
                int(options.deadlock_priority),
                database_id(),
                int(i32::try_from(session.open_transactions).unwrap_or(i32::MAX)),
            ]
        })
        .collect())
}

// ---- sys.dm_exec_requests -------------------------------------------------

pub const REQUESTS: SystemView = SystemView {
    schema: "sys",
    name: "dm_exec_requests",
    scope: Scope::Server,
    columns: requests_columns,
    rows: requests_rows,
};

fn requests_columns() -> Vec<ViewColumn> {
    vec![
        not_null("session_id", DataType::SmallInt),
        not_null("request_id", DataType::Int),
        not_null("start_time", DataType::DateTime),
        not_null("status", nvarchar(30)),
        not_null("command", nvarchar(32)),
        not_null("database_id", DataType::SmallInt),
        nullable("blocking_session_id", DataType::SmallInt),
        nullable("wait_type", nvarchar(60)),
        not_null("wait_time", DataType::Int),
        not_null("total_elapsed_time", DataType::Int),
        not_null("transaction_isolation_level", DataType::SmallInt),
        nullable("scheduler_id", DataType::Int),
    ]
}

/// One row per session running a statement now (the one reading this
/// view included). A session runs one request at a time (request_id 0).
/// hekla takes no locks, so nothing is blocked or waiting.
fn requests_rows(db: &dyn SystemContext) -> SqlResult<Vec<Vec<Value>>> {
    Ok(db
        .sessions()
        .into_iter()
        .filter_map(|session| {
            let request = session.request?;
            Some(vec![
                smallint(session.session_id),
                int(0),
                datetime_ms(request.start_ms),
                text("running"),
                text(request.command),
                database_id(),
                smallint(0),
                Value::Null,
                int(0),
                elapsed_ms(request.started),
                smallint(session.options.isolation_code()),
                // hekla runs each session's requests on its own thread,
                // with no SQLOS scheduler to name.
                Value::Null,
            ])
        })
        .collect())
}
