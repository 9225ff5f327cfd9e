//! hekla's TDS server: the SQL Server wire protocol (TDS 7.3/7.4) over
//! `hekla-sql` sessions, and a small TDS client.
//!
//! Decoding (every module reading wire data goes through [`wire::Reader`]):
//! [`packet`], [`prelogin`], [`login7`], [`types`], [`rpc`], [`request`].
//! Encoding: [`tokens`], and [`sink`] (a session's results as tokens).
//! Serving: [`tls`], [`login`] (PRELOGIN to LOGINACK), [`connection`]
//! (requests, on the connection's own thread), [`stream`] (its socket),
//! [`live`] (the attention watcher, shutdown), [`server`] (listener,
//! limits), [`context`] (what connections share), [`log`].

pub mod client;
pub mod connection;
pub mod context;
pub mod live;
pub mod log;
pub mod login;
pub mod login7;
pub mod packet;
pub mod prelogin;
pub mod request;
pub mod rpc;
pub mod server;
pub mod sink;
pub mod stream;
pub mod tls;
pub mod tokens;
pub mod types;
pub mod wire;
