//! A small TDS client: connect (plaintext, login-only or full TLS), log in
//! with SQL authentication, run batches and RPCs, send ATTENTION, and read
//! replies into [`Response`]s. Used by the server's tests, `hekla sql -S`
//! and `hekla bench server`.

mod response;
mod trust;

pub use response::{Column, Done, Item, Response, ResultSet, ServerMessage};

use crate::login7::{Login7, TDS_7_4};
use crate::packet::{self, kind, read_message, Limits, ReadError, DEFAULT_PACKET_SIZE};
use crate::prelogin::{Encryption, Prelogin};
use crate::rpc::{encode_call, ClientParameter};
use crate::tls::{PreloginFramed, Transport};
use crate::wire::put_utf16;
use std::io;
use std::sync::Arc;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

type ClientTls = tokio_rustls::client::TlsStream<PreloginFramed<TcpStream>>;

/// What to ask the server for.
#[derive(Clone, Debug)]
pub struct ClientOptions {
    pub user: String,
    pub password: String,
    pub database: String,
    pub app_name: String,
    /// The workstation name the server shows (`HOST_NAME()`).
    pub host_name: String,
    /// NotSupported: plaintext; Off: encrypt the login only; On: encrypt
    /// everything.
    pub encryption: Encryption,
    pub packet_size: u32,
    /// Ask for MARS (hekla refuses it).
    pub mars: bool,
}

impl ClientOptions {
    pub fn new(user: &str, password: &str) -> ClientOptions {
        ClientOptions {
            user: user.to_string(),
            password: password.to_string(),
            database: String::new(),
            app_name: "hekla".to_string(),
            host_name: "localhost".to_string(),
            encryption: Encryption::NotSupported,
            packet_size: DEFAULT_PACKET_SIZE,
            mars: false,
        }
    }
}

#[derive(Debug)]
pub enum ClientError {
    Io(io::Error),
    Protocol(String),
    /// The server refused the login (its ERROR tokens).
    Login(Vec<ServerMessage>),
}

impl std::fmt::Display for ClientError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ClientError::Io(error) => write!(f, "{error}"),
            ClientError::Protocol(error) => write!(f, "protocol error: {error}"),
            ClientError::Login(errors) => {
                let texts: Vec<String> = errors.iter().map(ToString::to_string).collect();
                f.write_str(&texts.join("\n"))
            }
        }
    }
}

impl std::error::Error for ClientError {}

impl From<io::Error> for ClientError {
    fn from(error: io::Error) -> ClientError {
        ClientError::Io(error)
    }
}

impl From<crate::wire::ProtocolError> for ClientError {
    fn from(error: crate::wire::ProtocolError) -> ClientError {
        ClientError::Protocol(error.0)
    }
}

impl From<ReadError> for ClientError {
    fn from(error: ReadError) -> ClientError {
        match error {
            ReadError::Io(error) => ClientError::Io(error),
            other => ClientError::Protocol(other.to_string()),
        }
    }
}

pub struct Client {
    stream: Transport<TcpStream, ClientTls>,
    packet_size: u32,
    /// What the server answered at PRELOGIN.
    pub server_encryption: Encryption,
    /// What the login reply said.
    pub login_reply: Response,
}

impl Client {
    pub async fn connect(address: &str, options: &ClientOptions) -> Result<Client, ClientError> {
        let mut socket = TcpStream::connect(address).await?;
        socket.set_nodelay(true)?;
        let prelogin = Prelogin {
            version: [0, 1, 0, 0, 0, 0],
            encryption: options.encryption,
            mars: options.mars,
        };
        send(
            &mut socket,
            kind::PRELOGIN,
            &prelogin.encode(),
            DEFAULT_PACKET_SIZE,
        )
        .await?;
        let reply = read_message(&mut socket, limits(DEFAULT_PACKET_SIZE)).await?;
        let answer = Prelogin::decode(&reply.payload)?;
        let tls = match (options.encryption, answer.encryption) {
            (_, Encryption::NotSupported) | (Encryption::NotSupported, Encryption::Off) => None,
            (Encryption::NotSupported, _) => {
                return Err(ClientError::Protocol(
                    "the server requires encryption".to_string(),
                ))
            }
            (_, Encryption::Off) => Some(false),
            (_, Encryption::On | Encryption::Required) => Some(true),
        };
        let login = Login7 {
            tds_version: TDS_7_4,
            packet_size: options.packet_size,
            client_pid: std::process::id(),
            integrated_security: false,
            has_feature_extension: false,
            host_name: options.host_name.clone(),
            user_name: options.user.clone(),
            password: options.password.clone(),
            app_name: options.app_name.clone(),
            server_name: address.to_string(),
            library_name: "hekla".to_string(),
            language: String::new(),
            database: options.database.clone(),
        };
        let mut stream = match tls {
            None => Transport::Plain(socket),
            Some(_) => Transport::Tls(Box::new(handshake(socket).await?)),
        };
        send(
            &mut stream,
            kind::LOGIN7,
            &login.encode(),
            DEFAULT_PACKET_SIZE,
        )
        .await?;
        if tls == Some(false) {
            // Login-only encryption: back to plaintext.
            if let Transport::Tls(tls) = stream {
                stream = Transport::Plain(tls.into_inner().0.into_inner());
            }
        }
        let reply = read_message(&mut stream, limits(DEFAULT_PACKET_SIZE)).await?;
        let login_reply = Response::decode(&reply.payload)?;
        let errors: Vec<ServerMessage> = login_reply.errors().into_iter().cloned().collect();
        if !errors.is_empty() {
            return Err(ClientError::Login(errors));
        }
        let packet_size = login_reply
            .items
            .iter()
            .find_map(|item| match item {
                Item::EnvChange { kind, new, .. } if *kind == crate::tokens::env::PACKET_SIZE => {
                    String::from_utf8_lossy(new).parse().ok()
                }
                _ => None,
            })
            .unwrap_or(DEFAULT_PACKET_SIZE);
        Ok(Client {
            stream,
            packet_size,
            server_encryption: answer.encryption,
            login_reply,
        })
    }

    pub fn is_encrypted(&self) -> bool {
        matches!(self.stream, Transport::Tls(_))
    }

    /// The TLS version of a fully encrypted connection.
    pub fn tls_version(&self) -> Option<rustls::ProtocolVersion> {
        match &self.stream {
            Transport::Tls(tls) => tls.get_ref().1.protocol_version(),
            Transport::Plain(_) => None,
        }
    }

    /// Runs a SQL batch and reads its reply.
    pub async fn batch(&mut self, sql: &str) -> Result<Response, ClientError> {
        self.send_batch(sql).await?;
        self.read_response().await
    }

    /// Sends a SQL batch without waiting for the reply.
    pub async fn send_batch(&mut self, sql: &str) -> Result<(), ClientError> {
        let mut payload = all_headers();
        put_utf16(&mut payload, sql);
        self.send(kind::SQL_BATCH, &payload).await
    }

    /// Calls a procedure by name and reads the reply.
    pub async fn rpc(
        &mut self,
        procedure: &str,
        parameters: &[ClientParameter],
    ) -> Result<Response, ClientError> {
        let mut payload = all_headers();
        encode_call(&mut payload, procedure, parameters)
            .map_err(|e| ClientError::Protocol(e.message))?;
        self.send(kind::RPC, &payload).await?;
        self.read_response().await
    }

    /// Asks the server to stop the running request; its reply ends with a
    /// DONE carrying the attention flag.
    pub async fn send_attention(&mut self) -> Result<(), ClientError> {
        self.send(kind::ATTENTION, &[]).await
    }

    /// Cancels the running request: sends ATTENTION and reads replies up
    /// to the one that acknowledges it; returns what came before the
    /// acknowledgement (the cancelled request's partial reply).
    pub async fn cancel(&mut self) -> Result<Vec<Response>, ClientError> {
        self.send_attention().await?;
        let mut discarded = Vec::new();
        loop {
            let reply = self.read_response().await?;
            let acknowledged = reply
                .dones()
                .iter()
                .any(|done| done.status & crate::tokens::done::ATTENTION != 0);
            if acknowledged {
                return Ok(discarded);
            }
            discarded.push(reply);
        }
    }

    /// Sends any message (tests use it for malformed input).
    pub async fn send(&mut self, kind: u8, payload: &[u8]) -> Result<(), ClientError> {
        send(&mut self.stream, kind, payload, self.packet_size).await
    }

    /// Sends raw bytes, packet headers included.
    pub async fn send_raw(&mut self, bytes: &[u8]) -> Result<(), ClientError> {
        self.stream.write_all(bytes).await?;
        Ok(self.stream.flush().await?)
    }

    /// Reads one reply message.
    pub async fn read_response(&mut self) -> Result<Response, ClientError> {
        let message = read_message(&mut self.stream, limits(self.packet_size)).await?;
        Ok(Response::decode(&message.payload)?)
    }
}

/// ALL_HEADERS with the transaction descriptor header (no transaction)
/// that TDS 7.2+ requires.
fn all_headers() -> Vec<u8> {
    let mut out = Vec::with_capacity(22);
    out.extend_from_slice(&22u32.to_le_bytes());
    out.extend_from_slice(&18u32.to_le_bytes());
    out.extend_from_slice(&2u16.to_le_bytes());
    out.extend_from_slice(&0u64.to_le_bytes());
    out.extend_from_slice(&1u32.to_le_bytes());
    out
}

fn limits(packet_size: u32) -> Limits {
    Limits {
        packet_size: packet_size.max(DEFAULT_PACKET_SIZE),
        message_size: 1 << 30,
    }
}

async fn send<W: tokio::io::AsyncWrite + Unpin>(
    stream: &mut W,
    kind: u8,
    payload: &[u8],
    packet_size: u32,
) -> Result<(), ClientError> {
    let wire = packet::packetize(kind, 0, packet_size, payload);
    stream.write_all(&wire).await?;
    Ok(stream.flush().await?)
}

async fn handshake(socket: TcpStream) -> Result<ClientTls, ClientError> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(Arc::clone(&provider))
        .with_safe_default_protocol_versions()
        .map_err(|e| ClientError::Protocol(e.to_string()))?
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(trust::TrustServerCertificate::new(provider)))
        .with_no_client_auth();
    let connector = tokio_rustls::TlsConnector::from(Arc::new(config));
    let name = rustls::pki_types::ServerName::try_from("localhost")
        .map_err(|e| ClientError::Protocol(e.to_string()))?;
    let mut stream = connector.connect(name, PreloginFramed::new(socket)).await?;
    stream.get_mut().0.stop_framing();
    Ok(stream)
}
