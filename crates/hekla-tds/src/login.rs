//! A connection's first steps: PRELOGIN (encryption negotiation, MARS
//! refused), the TLS handshake if negotiated, and LOGIN7 with SQL
//! authentication. Nothing else is accepted before a login succeeds.

use crate::context::ServerContext;
use crate::login7::{Login7, TDS_7_3_A};
use crate::packet::{self, kind, read_message, Limits, MAX_PACKET_SIZE, MIN_PACKET_SIZE};
use crate::prelogin::{negotiate, Negotiated, Prelogin};
use crate::tls::{PreloginFramed, Transport};
use crate::tokens::{self, env, token, Message};
use crate::types::collation_bytes;
use hekla_sql::identity::ClientInfo;
use hekla_sql::Session;
use hekla_types::{Collation, SqlError};
use std::sync::Arc;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

pub type ServerTlsStream = tokio_rustls::server::TlsStream<PreloginFramed<TcpStream>>;
pub type ServerTransport = Transport<TcpStream, ServerTlsStream>;

/// What the server calls itself in LOGINACK and its version (SQL Server
/// 2022's major version, which drivers check for features).
pub const PROGRAM_NAME: &str = "hekla";
pub const PROGRAM_VERSION: [u8; 4] = [16, 0, 0, 0];
/// PRELOGIN's VERSION: major, minor, build (big-endian), sub-build.
const PRELOGIN_VERSION: [u8; 6] = [16, 0, 0, 0, 0, 0];
/// The one database and the language sessions start in.
pub const DATABASE: &str = "hekla";
const LANGUAGE: &str = "us_english";
/// A login record is a few hundred bytes; this leaves room for long names.
const MAX_LOGIN_MESSAGE: usize = 128 * 1024;
const MAX_PRELOGIN_MESSAGE: usize = 8 * 1024;

/// A logged-in connection.
pub struct LoggedIn {
    pub transport: ServerTransport,
    pub session: Session,
    pub packet_size: u32,
    pub user: String,
}

/// Why a connection ended before its login succeeded.
#[derive(Debug)]
pub struct LoginFailure {
    pub reason: String,
    /// The login name, when the client got as far as sending one.
    pub user: Option<String>,
}

impl LoginFailure {
    fn new(reason: impl Into<String>) -> LoginFailure {
        LoginFailure {
            reason: reason.into(),
            user: None,
        }
    }
}

impl<E: std::fmt::Display> From<E> for LoginFailure {
    fn from(error: E) -> LoginFailure {
        LoginFailure::new(error.to_string())
    }
}

/// Runs PRELOGIN, TLS and LOGIN7. `admitted` is false when the server is
/// at its connection limit: the client is told so (17809) at login.
pub async fn login(
    mut socket: TcpStream,
    context: &Arc<ServerContext>,
    admitted: bool,
) -> Result<LoggedIn, LoginFailure> {
    let limits = Limits {
        packet_size: MAX_PACKET_SIZE,
        message_size: MAX_PRELOGIN_MESSAGE,
    };
    let message = read_message(&mut socket, limits).await?;
    if message.kind != kind::PRELOGIN {
        return Err(LoginFailure::new(format!(
            "expected PRELOGIN, got packet type {}",
            message.kind
        )));
    }
    let prelogin = Prelogin::decode(&message.payload)?;
    let (answer, negotiated) = negotiate(
        prelogin.encryption,
        context.tls.is_some(),
        context.require_encryption,
    );
    let reply = Prelogin {
        version: PRELOGIN_VERSION,
        encryption: answer,
        mars: false,
    };
    write_message(&mut socket, &reply.encode()).await?;
    let mut transport = match (negotiated, &context.tls) {
        (Negotiated::Refuse, _) => {
            return Err(LoginFailure::new(
                "client cannot encrypt and the server requires encryption",
            ))
        }
        (Negotiated::Plaintext, _) | (_, None) => Transport::Plain(socket),
        (Negotiated::LoginOnly | Negotiated::Full, Some(tls)) => {
            let acceptor = tokio_rustls::TlsAcceptor::from(Arc::clone(&tls.config));
            let mut stream = acceptor.accept(PreloginFramed::new(socket)).await?;
            stream.get_mut().0.stop_framing();
            Transport::Tls(Box::new(stream))
        }
    };
    let limits = Limits {
        packet_size: MAX_PACKET_SIZE,
        message_size: MAX_LOGIN_MESSAGE,
    };
    let message = read_message(&mut transport, limits).await?;
    if message.kind != kind::LOGIN7 {
        return Err(LoginFailure::new(format!(
            "expected LOGIN7, got packet type {}",
            message.kind
        )));
    }
    if negotiated == Negotiated::LoginOnly {
        // Only the login record was encrypted.
        if let Transport::Tls(stream) = transport {
            transport = Transport::Plain(stream.into_inner().0.into_inner());
        }
    }
    let record = Login7::decode(&message.payload)?;
    let user = record.user_name.clone();
    match authenticate(&record, context, admitted).await {
        Ok(session) => {
            let packet_size = match record.packet_size {
                0 => packet::DEFAULT_PACKET_SIZE,
                size => size.clamp(MIN_PACKET_SIZE, MAX_PACKET_SIZE),
            };
            let response = login_response(&record, packet_size);
            write_message(&mut transport, &response).await?;
            Ok(LoggedIn {
                transport,
                session,
                packet_size,
                user,
            })
        }
        Err(errors) => {
            let mut response = Vec::new();
            for error in &errors {
                error_token(&mut response, error, &context.server_name);
            }
            tokens::done(
                &mut response,
                token::DONE,
                tokens::done::ERROR,
                tokens::command::NONE,
                0,
            );
            // The client may already be gone; the login failed either way.
            let _ = write_message(&mut transport, &response).await;
            Err(LoginFailure {
                reason: errors
                    .last()
                    .map_or_else(String::new, |e| e.message.clone()),
                user: Some(user),
            })
        }
    }
}

/// Checks the login record and the password; the errors to send if the
/// login fails.
async fn authenticate(
    record: &Login7,
    context: &Arc<ServerContext>,
    admitted: bool,
) -> Result<Session, Vec<SqlError>> {
    let login_failed = || {
        SqlError::new(
            18456,
            14,
            1,
            format!("Login failed for user '{}'.", record.user_name),
        )
    };
    if record.tds_version < TDS_7_3_A {
        return Err(vec![SqlError::new(
            17802,
            20,
            1,
            format!(
                "The Tabular Data Stream (TDS) version 0x{:x} of the client library used to open \
                 the connection is unsupported or unknown. The connection has been closed.",
                record.tds_version
            ),
        )]);
    }
    if !admitted {
        return Err(vec![SqlError::new(
            17809,
            20,
            1,
            format!(
                "Could not connect because the maximum number of '{}' user connections has \
                 already been reached. The system administrator can use sp_configure to increase \
                 the maximum value. The connection has been closed.",
                context.max_connections
            ),
        )]);
    }
    if record.integrated_security {
        return Err(vec![SqlError::new(
            18452,
            14,
            1,
            "Login failed. The login is from an untrusted domain and cannot be used with \
             Integrated authentication.",
        )]);
    }
    if !record.database.is_empty() && !record.database.eq_ignore_ascii_case(DATABASE) {
        return Err(vec![
            SqlError::new(
                4060,
                11,
                1,
                format!(
                    "Cannot open database \"{}\" requested by the login. The login failed.",
                    record.database
                ),
            ),
            login_failed(),
        ]);
    }
    // The password hash is deliberately slow: off the reactor.
    let db = Arc::clone(&context.db);
    let (user, password) = (record.user_name.clone(), record.password.clone());
    let client = ClientInfo {
        host_name: record.host_name.clone(),
        program_name: record.app_name.clone(),
        host_process_id: record.client_pid,
        interface_name: record.library_name.clone(),
    };
    let outcome = tokio::task::spawn_blocking(move || {
        let principal = db.authenticate(&user, &password)?;
        let mut session = db.session_for(&principal)?;
        session.set_client(client);
        Ok(session)
    })
    .await;
    match outcome {
        Ok(Ok(session)) => Ok(session),
        Ok(Err(error)) => Err(vec![error]),
        Err(_) => Err(vec![login_failed()]),
    }
}

/// What SQL Server answers a successful login with.
fn login_response(record: &Login7, packet_size: u32) -> Vec<u8> {
    let mut out = Vec::new();
    tokens::env_change_text(&mut out, env::DATABASE, DATABASE, "master");
    info(
        &mut out,
        5701,
        2,
        &format!("Changed database context to '{DATABASE}'."),
    );
    let collation = collation_bytes(Collation::default());
    tokens::env_change_bytes(&mut out, env::SQL_COLLATION, &collation, &[]);
    tokens::env_change_text(&mut out, env::LANGUAGE, LANGUAGE, "");
    info(
        &mut out,
        5703,
        1,
        &format!("Changed language setting to {LANGUAGE}."),
    );
    let version = record.tds_version.min(crate::login7::TDS_7_4);
    tokens::login_ack(&mut out, version, PROGRAM_NAME, PROGRAM_VERSION);
    tokens::env_change_text(
        &mut out,
        env::PACKET_SIZE,
        &packet_size.to_string(),
        &packet::DEFAULT_PACKET_SIZE.to_string(),
    );
    if record.has_feature_extension && version >= crate::login7::TDS_7_4 {
        tokens::feature_ext_ack(&mut out);
    }
    tokens::done(
        &mut out,
        token::DONE,
        tokens::done::FINAL,
        tokens::command::NONE,
        0,
    );
    out
}

fn info(out: &mut Vec<u8>, number: u32, state: u8, text: &str) {
    Message {
        number,
        state,
        class: 0,
        text,
        server: "",
        procedure: "",
        line: 0,
    }
    .encode(out);
}

fn error_token(out: &mut Vec<u8>, error: &SqlError, server: &str) {
    Message {
        number: error.number,
        state: error.state,
        class: error.severity,
        text: &error.message,
        server,
        procedure: "",
        line: 1,
    }
    .encode(out);
}

/// Sends a whole reply message at the default packet size.
async fn write_message<W: tokio::io::AsyncWrite + Unpin>(
    stream: &mut W,
    payload: &[u8],
) -> std::io::Result<()> {
    let wire = packet::packetize(
        kind::TABULAR_RESULT,
        0,
        packet::DEFAULT_PACKET_SIZE,
        payload,
    );
    stream.write_all(&wire).await?;
    stream.flush().await
}
