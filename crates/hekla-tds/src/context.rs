//! What every connection of a server shares: the database, TLS, limits
//! and the live connections. Its own module so that the listener
//! ([`crate::server`]), the login and the request loop depend on it and
//! not on each other.

use crate::live::LiveConnections;
use crate::tls::ServerTls;
use hekla_sql::SqlDatabase;
use std::sync::Arc;

/// What every connection shares.
pub struct ServerContext {
    pub db: Arc<SqlDatabase>,
    pub tls: Option<ServerTls>,
    pub require_encryption: bool,
    pub max_connections: usize,
    pub max_message_size: usize,
    pub server_name: String,
    /// For the attention watcher and for shutdown.
    pub live: LiveConnections,
}
