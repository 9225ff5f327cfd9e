//! The sessions open on each database, for `sys.dm_exec_sessions` and
//! `sys.dm_exec_requests` (and `@@SPID`), for DROP LOGIN (a login with
//! a session may not go) and SINGLE_USER.
//!
//! A [`Session`](crate::session::Session) registers when it opens and
//! keeps the [`SessionHandle`]; dropping the handle unregisters it. While
//! it runs a request it says so, so that the request views show it:
//!
//! ```ignore
//! // SqlDatabase::session():
//! let handle = session_registry::register(self.engine(), login)?; // Msg 17809 past 32,767
//! // Session::execute(), around each statement:
//! handle.begin_request(statement.kind.keywords());
//! ... run it ...
//! handle.end_request(open_transactions);
//! ```
//!
//! Session ids are unique in the process, the smallest free one from 51
//! up (SQL Server keeps ids below 51 for its own tasks). A session belongs
//! to the engine database it opened on (each SQL database has its own).
//! Readers outside the session layer see the registry through their
//! context traits (the system views' `SystemContext::sessions`).
//!
//! Each session's figures sit behind a lock of their own, which only the
//! session and a reader of the views take: a statement's bookkeeping
//! neither waits for other sessions nor searches the registry.

use hekla_engine::{Database, UserAccess};
use hekla_plan::identity::ClientInfo;
use hekla_plan::session_options::SetOptions;
use hekla_types::{SqlError, SqlResult};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

/// The first id of a user session.
pub const FIRST_SESSION_ID: i16 = 51;
/// `command` is nvarchar(32).
const COMMAND_CHARS: usize = 32;

/// A request (statement) a session is running.
#[derive(Clone, Debug)]
pub struct RequestInfo {
    pub command: &'static str,
    pub start_ms: i64,
    pub started: Instant,
}

/// What the views show of a session.
#[derive(Clone, Debug)]
pub struct SessionInfo {
    pub session_id: i16,
    /// Milliseconds since the Unix epoch.
    pub login_ms: i64,
    pub logged_in: Instant,
    pub last_request_start_ms: Option<i64>,
    pub last_request_end_ms: Option<i64>,
    pub request: Option<RequestInfo>,
    /// The session's SET options, as its last statement started.
    pub options: SetOptions,
    /// `@@TRANCOUNT` as its last statement ended.
    pub open_transactions: u32,
    /// The login it connected with; None for the embedded API.
    pub login: Option<String>,
    /// What its client told of itself; None for the embedded API.
    pub client: Option<Arc<ClientInfo>>,
}

struct Entry {
    /// The address of the session's engine database, which the session
    /// keeps alive for as long as it is registered.
    database: usize,
    session_id: i16,
    info: Arc<Mutex<SessionInfo>>,
}

static REGISTRY: Mutex<Vec<Entry>> = Mutex::new(Vec::new());

fn registry() -> MutexGuard<'static, Vec<Entry>> {
    // A panic while holding the lock leaves the list consistent (every
    // change is a single push, remove or field store), so carry on.
    REGISTRY
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A session's figures, locked; consistent after a panic as the registry
/// is (every change is a field store).
fn lock(info: &Mutex<SessionInfo>) -> MutexGuard<'_, SessionInfo> {
    info.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn database_key(engine: &Database) -> usize {
    std::ptr::from_ref(engine) as usize
}

/// A registered session; unregisters when dropped. Keep it in the
/// `Session`, declared before the session's `Arc<SqlDatabase>` so that it
/// is dropped first.
#[derive(Debug)]
pub struct SessionHandle {
    session_id: i16,
    info: Arc<Mutex<SessionInfo>>,
}

/// Registers a new session on `engine`, connected as `login` (None for
/// the embedded API). Msg 924 when the database is in SINGLE_USER
/// mode and has a session; Msg 17809 when every session id is taken (SQL
/// Server's limit of 32,767 connections).
pub fn register(engine: &Database, login: Option<&str>) -> SqlResult<SessionHandle> {
    let mut entries = registry();
    let key = database_key(engine);
    let single_user = engine.options().user_access == UserAccess::Single;
    if single_user && entries.iter().any(|e| e.database == key) {
        return Err(SqlError::new(
            924,
            14,
            1,
            format!(
                "Database '{}' is already open and can only have one user at a time.",
                hekla_plan::names::DATABASE_NAME
            ),
        ));
    }
    let mut taken: Vec<i16> = entries.iter().map(|e| e.session_id).collect();
    taken.sort_unstable();
    let mut session_id = FIRST_SESSION_ID;
    for id in taken {
        if id == session_id {
            session_id = session_id.checked_add(1).ok_or_else(|| {
                SqlError::new(
                    17809,
                    20,
                    1,
                    "Could not connect because the maximum number of '32767' user connections has already been reached.",
                )
            })?;
        } else if id > session_id {
            break;
        }
    }
    let info = Arc::new(Mutex::new(SessionInfo {
        session_id,
        login_ms: hekla_plan::catalog::store::now_ms(),
        logged_in: Instant::now(),
        last_request_start_ms: None,
        last_request_end_ms: None,
        open_transactions: 0,
        request: None,
        options: SetOptions::default(),
        login: login.map(str::to_string),
        client: None,
    }));
    entries.push(Entry {
        database: key,
        session_id,
        info: Arc::clone(&info),
    });
    Ok(SessionHandle { session_id, info })
}

impl SessionHandle {
    /// `@@SPID`.
    pub fn session_id(&self) -> i16 {
        self.session_id
    }

    fn update(&self, change: impl FnOnce(&mut SessionInfo)) {
        change(&mut lock(&self.info));
    }

    /// The session starts running `command` (a statement's keywords, e.g.
    /// `SELECT`; cut to 32 characters).
    pub fn begin_request(&self, command: &'static str) {
        let now = hekla_plan::catalog::store::now_ms();
        let command = command
            .char_indices()
            .nth(COMMAND_CHARS)
            .map_or(command, |(end, _)| &command[..end]);
        self.update(|info| {
            info.last_request_start_ms = Some(now);
            info.request = Some(RequestInfo {
                command,
                start_ms: now,
                started: Instant::now(),
            });
        });
    }

    /// What the session's client told of itself at login.
    pub fn set_client(&self, client: Arc<ClientInfo>) {
        self.update(|info| info.client = Some(client));
    }

    /// The session's SET options, for the views to show.
    pub fn publish(&self, options: &SetOptions) {
        self.update(|info| info.options.clone_from(options));
    }

    /// The running request has finished.
    /// The request ended, leaving `open_transactions` (`@@TRANCOUNT`).
    pub fn end_request(&self, open_transactions: u32) {
        let now = hekla_plan::catalog::store::now_ms();
        self.update(|info| {
            info.last_request_end_ms = Some(now);
            info.request = None;
            info.open_transactions = open_transactions;
        });
    }
}

impl Drop for SessionHandle {
    fn drop(&mut self) {
        registry().retain(|e| e.session_id != self.session_id);
    }
}

/// Runs `change` if `engine` has one session at most (the caller's), holding
/// new sessions back until it is done, so that SINGLE_USER is never set
/// beside a session that slipped in; None if others are open.
pub fn while_alone<T>(engine: &Database, change: impl FnOnce() -> T) -> Option<T> {
    let entries = registry();
    let key = database_key(engine);
    let open = entries.iter().filter(|e| e.database == key).count();
    (open <= 1).then(change)
}

/// The sessions open on `engine`, by session id.
pub fn sessions_of(engine: &Database) -> Vec<SessionInfo> {
    let key = database_key(engine);
    let mut sessions: Vec<SessionInfo> = registry()
        .iter()
        .filter(|e| e.database == key)
        .map(|e| lock(&e.info).clone())
        .collect();
    sessions.sort_by_key(|s| s.session_id);
    sessions
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::SqlDatabase;

    #[test]
    fn ids_are_the_smallest_free_from_51_and_sessions_belong_to_their_database() {
        let db = SqlDatabase::in_memory().unwrap();
        let other = SqlDatabase::in_memory().unwrap();
        let a = register(db.engine(), None).unwrap();
        let b = register(db.engine(), None).unwrap();
        let c = register(other.engine(), None).unwrap();
        assert!(a.session_id() >= FIRST_SESSION_ID);
        assert_ne!(a.session_id(), b.session_id());
        let ids: Vec<i16> = sessions_of(db.engine())
            .iter()
            .map(|s| s.session_id)
            .collect();
        let mut expected = vec![a.session_id(), b.session_id()];
        expected.sort_unstable();
        assert_eq!(ids, expected);
        assert_eq!(sessions_of(other.engine()).len(), 1);
        let freed = a.session_id();
        drop(a);
        assert_eq!(sessions_of(db.engine()).len(), 1);
        // Other tests register concurrently, so the freed id may be taken
        // again by them; it is at least free for a moment.
        assert!(sessions_of(db.engine())
            .iter()
            .all(|s| s.session_id != freed));
        drop((b, c));
        assert!(sessions_of(db.engine()).is_empty());
    }

    #[test]
    fn requests_are_shown_while_they_run() {
        let db = SqlDatabase::in_memory().unwrap();
        let handle = register(db.engine(), None).unwrap();
        handle.begin_request("A VERY LONG COMMAND NAME THAT GOES ON AND ON");
        let info = &sessions_of(db.engine())[0];
        let request = info.request.as_ref().unwrap();
        assert_eq!(request.command.chars().count(), 32);
        assert_eq!(info.last_request_start_ms, Some(request.start_ms));
        handle.end_request(0);
        let info = &sessions_of(db.engine())[0];
        assert!(info.request.is_none());
        assert!(info.last_request_end_ms.is_some());
    }
}
