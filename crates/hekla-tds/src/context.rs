//! What every connection of a server shares: the database, TLS, limits
//! and the shutdown signals. Its own module so that the listener
//! ([`crate::server`]), the login and the request loop depend on it and
//! not on each other.

use crate::tls::ServerTls;
use hekla_sql::SqlDatabase;
use std::sync::Arc;
use tokio::sync::watch;

/// What every connection shares.
pub struct ServerContext {
    pub db: Arc<SqlDatabase>,
    pub tls: Option<ServerTls>,
    pub require_encryption: bool,
    pub max_connections: usize,
    pub max_message_size: usize,
    pub server_name: String,
    /// Becomes true when the server stops.
    pub shutdown: watch::Receiver<bool>,
    /// Becomes true when the grace period is over: running requests are
    /// cancelled.
    pub abort: watch::Receiver<bool>,
}
