//! A logged-in connection: requests in, token streams out.
//!
//! A reader task turns the socket into messages (bounded by the packet and
//! message limits) so that an ATTENTION is seen while a request runs. Each
//! request runs on a blocking thread with the session moved into it; its
//! tokens come back in chunks over a bounded channel and go out as packets.
//! When the connection ends, however it ends, the session is dropped, which
//! rolls back its open transaction.

use crate::context::ServerContext;
use crate::login::ServerTransport;
use crate::packet::{kind, read_message, status, Limits, Message, PacketWriter, ReadError};
use crate::sink::{ConnectionState, RequestKind, TokenSink};
use crate::tokens::{self, command, done, token};
use crate::wire::{ProtocolError, Reader};
use crate::{log, request, rpc};
use hekla_sql::Session;
use hekla_types::SqlError;
use std::sync::Arc;
use tokio::io::{AsyncWrite, AsyncWriteExt, ReadHalf, WriteHalf};
use tokio::sync::mpsc;

/// Chunks of tokens in flight between a request and the socket.
const OUTPUT_CHUNKS: usize = 4;

pub struct Connection {
    context: Arc<ServerContext>,
    writer: WriteHalf<ServerTransport>,
    packets: PacketWriter,
    incoming: mpsc::Receiver<Result<Message, ReadError>>,
    state: ConnectionState,
    peer: String,
}

/// How a request ended for the connection.
enum Next {
    Continue,
    Close,
}

impl Connection {
    /// Serves requests until the client leaves, breaks the protocol or the
    /// server shuts down.
    pub async fn serve(
        transport: ServerTransport,
        session: Session,
        packet_size: u32,
        context: Arc<ServerContext>,
        peer: String,
    ) {
        let (reader, writer) = tokio::io::split(transport);
        let limits = Limits {
            packet_size,
            message_size: context.max_message_size,
        };
        let (incoming_sender, incoming) = mpsc::channel(1);
        let reader_task = tokio::spawn(read_messages(reader, limits, incoming_sender));
        let spid = u16::try_from(session.session_id()).unwrap_or(0);
        let mut connection = Connection {
            state: ConnectionState::new(&context.server_name, crate::login::DATABASE),
            context,
            writer,
            packets: PacketWriter::new(kind::TABULAR_RESULT, spid, packet_size),
            incoming,
            peer,
        };
        let session = connection.requests(session).await;
        reader_task.abort();
        let _ = connection.writer.shutdown().await;
        // Dropping a session rolls back its transaction: engine work, so
        // not on the reactor.
        if let Some(session) = session {
            let _ = tokio::task::spawn_blocking(move || drop(session)).await;
        }
    }

    /// The request loop; gives the session back to be dropped (None if it
    /// was lost with a failed request thread).
    async fn requests(&mut self, mut session: Session) -> Option<Session> {
        let mut shutdown = self.context.shutdown.clone();
        loop {
            let message = tokio::select! {
                message = self.incoming.recv() => message,
                _ = shutdown.wait_for(|&stop| stop) => return Some(session),
            };
            let message = match message {
                Some(Ok(message)) => message,
                Some(Err(ReadError::Closed)) | None => return Some(session),
                Some(Err(error)) => {
                    log::warn(
                        "connection dropped",
                        &[("peer", &self.peer), ("reason", &error)],
                    );
                    return Some(session);
                }
            };
            let next = match message.kind {
                kind::ATTENTION => {
                    // Nothing is running: acknowledge at once.
                    session.cancel_handle().clear();
                    self.send_attention_ack().await
                }
                kind::SQL_BATCH | kind::RPC | kind::TRANSACTION_MANAGER => {
                    let (returned, next) = self.run_request(session, message).await;
                    match returned {
                        Some(returned) => session = returned,
                        None => return None,
                    }
                    next
                }
                other => {
                    let error = SqlError::new(
                        10794,
                        16,
                        1,
                        format!("TDS requests of type {other} are not supported by hekla."),
                    );
                    self.send_error_reply(&error).await
                }
            };
            if let Next::Close = next {
                return Some(session);
            }
        }
    }

    /// Runs one request on a blocking thread, forwarding its tokens and
    /// watching for an ATTENTION meanwhile.
    async fn run_request(
        &mut self,
        mut session: Session,
        message: Message,
    ) -> (Option<Session>, Next) {
        self.packets.start(kind::TABULAR_RESULT);
        let (sender, mut chunks) = mpsc::channel::<Vec<u8>>(OUTPUT_CHUNKS);
        let cancel = session.cancel_handle();
        let state = self.state.clone();
        let job = tokio::task::spawn_blocking(move || {
            let kind = if message.kind == kind::RPC {
                RequestKind::Rpc
            } else {
                RequestKind::Batch
            };
            let mut sink = TokenSink::new(kind, sender, state);
            let last = execute(&mut session, &message, &mut sink);
            (session, sink.state.clone(), last)
        });
        let mut attention = false;
        let mut client_gone = false;
        let mut broke_protocol = false;
        let mut aborted = false;
        let mut abort = self.context.abort.clone();
        let mut wire = Vec::new();
        loop {
            tokio::select! {
                // The server's shutdown grace period is over.
                // (The watch's guard is not Send: drop it inside.)
                _ = async { abort.wait_for(|&abort| abort).await.is_ok() }, if !aborted => {
                    aborted = true;
                    cancel.cancel();
                }
                chunk = chunks.recv() => match chunk {
                    Some(bytes) if !attention && !client_gone => {
                        wire.clear();
                        self.packets.push(&bytes, &mut wire);
                        if self.writer.write_all(&wire).await.is_err() {
                            client_gone = true;
                            cancel.cancel();
                        }
                    }
                    Some(_) => {}
                    None => break,
                },
                incoming = self.incoming.recv(), if !attention && !client_gone => match incoming {
                    Some(Ok(message)) if message.kind == kind::ATTENTION => {
                        attention = true;
                        cancel.cancel();
                    }
                    Some(Ok(message)) => {
                        // One request at a time (MARS is refused at PRELOGIN).
                        log::warn("request while another runs", &[("peer", &self.peer), ("type", &message.kind)]);
                        broke_protocol = true;
                        client_gone = true;
                        cancel.cancel();
                    }
                    Some(Err(_)) | None => {
                        client_gone = true;
                        cancel.cancel();
                    }
                },
            }
        }
        let (session, state, last) = match job.await {
            Ok(outcome) => outcome,
            Err(error) => {
                log::error(
                    "request thread failed",
                    &[("peer", &self.peer), ("error", &error)],
                );
                return (None, Next::Close);
            }
        };
        self.state = state;
        if client_gone || broke_protocol || aborted {
            return (Some(session), Next::Close);
        }
        if !attention {
            let next = self.finish_message(&last).await;
            return (Some(session), next);
        }
        // The cancelled request's reply ends (what it had sent, then a
        // plain final DONE), and the acknowledgement follows as a message
        // of its own: drivers such as tedious read the message that was
        // under way as the reply and only the next one as the
        // acknowledgement; the others read on until they see it.
        cancel.clear();
        let mut end = Vec::new();
        tokens::done(&mut end, token::DONE, done::FINAL, command::NONE, 0);
        if let Next::Close = self.finish_message(&end).await {
            return (Some(session), Next::Close);
        }
        let next = self.send_attention_ack().await;
        (Some(session), next)
    }

    /// Ends the current response message with `tail`.
    async fn finish_message(&mut self, tail: &[u8]) -> Next {
        let mut wire = Vec::new();
        self.packets.push(tail, &mut wire);
        self.packets.finish(&mut wire);
        if write_flushed(&mut self.writer, &wire).await {
            Next::Continue
        } else {
            Next::Close
        }
    }

    async fn send_attention_ack(&mut self) -> Next {
        self.packets.start(kind::TABULAR_RESULT);
        self.finish_message(&attention_ack()).await
    }

    async fn send_error_reply(&mut self, error: &SqlError) -> Next {
        let mut reply = Vec::new();
        tokens::Message {
            number: error.number,
            state: error.state,
            class: error.severity,
            text: &error.message,
            server: &self.state.server_name,
            procedure: "",
            line: 1,
        }
        .encode(&mut reply);
        tokens::done(&mut reply, token::DONE, done::ERROR, command::NONE, 0);
        self.packets.start(kind::TABULAR_RESULT);
        self.finish_message(&reply).await
    }
}

async fn write_flushed<W: AsyncWrite + Unpin>(writer: &mut W, bytes: &[u8]) -> bool {
    writer.write_all(bytes).await.is_ok() && writer.flush().await.is_ok()
}

fn attention_ack() -> Vec<u8> {
    let mut out = Vec::new();
    tokens::done(&mut out, token::DONE, done::ATTENTION, command::NONE, 0);
    out
}

/// Reads messages into the channel until the socket fails or closes.
async fn read_messages(
    mut reader: ReadHalf<ServerTransport>,
    limits: Limits,
    sender: mpsc::Sender<Result<Message, ReadError>>,
) {
    loop {
        let message = read_message(&mut reader, limits).await;
        if let Ok(message) = &message {
            log::debug(
                "message",
                &[
                    ("type", &message.kind),
                    ("status", &message.status),
                    ("bytes", &message.payload.len()),
                ],
            );
        }
        let stop = message.is_err();
        if sender.send(message).await.is_err() || stop {
            return;
        }
    }
}

/// Runs a request's message on the session; returns its final DONE or
/// DONEPROC, which the connection writes unless the request was cancelled.
fn execute(session: &mut Session, message: &Message, sink: &mut TokenSink) -> Vec<u8> {
    let reset = status::RESET_CONNECTION | status::RESET_CONNECTION_SKIP_TRAN;
    if message.status & reset != 0 && !reset_connection(session, message, sink) {
        return sink.finish_batch();
    }
    match message.kind {
        kind::RPC => {
            let mut reader = Reader::new(&message.payload);
            let calls =
                request::skip_all_headers(&mut reader).and_then(|()| rpc::decode(&mut reader));
            match calls {
                Ok(calls) => {
                    let count = calls.len();
                    let mut last = Vec::new();
                    for (index, call) in calls.into_iter().enumerate() {
                        sink.start_rpc();
                        session.call(&call.procedure, call.parameters, sink);
                        last = sink.finish_rpc(index + 1 == count);
                    }
                    last
                }
                Err(error) => {
                    let head: String = message
                        .payload
                        .iter()
                        .take(4096)
                        .map(|b| format!("{b:02x}"))
                        .collect();
                    log::debug("malformed RPC", &[("error", &error), ("payload", &head)]);
                    sink.server_error(&rpc_stream_error(&error));
                    sink.finish_batch()
                }
            }
        }
        kind::TRANSACTION_MANAGER => {
            match request::transaction_statement(&message.payload) {
                Ok(statement) => {
                    log::debug("transaction request", &[("statement", &statement)]);
                    session.execute(&statement, sink)
                }
                Err(error) => sink.server_error(&stream_error(&error)),
            }
            sink.finish_batch()
        }
        _ => {
            match request::batch_text(&message.payload) {
                Ok(text) => session.execute(&text, sink),
                Err(error) => sink.server_error(&stream_error(&error)),
            }
            sink.finish_batch()
        }
    }
}

/// The reset-connection flag (a connection pool handing the connection to
/// its next user): the session starts afresh and the reply says so first.
/// Keeping the transaction across the reset (the skip-transaction flag,
/// used with distributed transactions) is not supported.
fn reset_connection(session: &mut Session, message: &Message, sink: &mut TokenSink) -> bool {
    if message.status & status::RESET_CONNECTION_SKIP_TRAN != 0 {
        let error = SqlError::new(
            10794,
            16,
            1,
            "Resetting a connection while keeping its transaction (the TDS \
             reset-connection-skip-transaction flag) is not supported by hekla.",
        );
        sink.server_error(&error);
        return false;
    }
    session.reset();
    sink.reset_acknowledged();
    true
}

fn stream_error(error: &ProtocolError) -> SqlError {
    SqlError::new(
        4002,
        16,
        1,
        format!("The incoming tabular data stream (TDS) protocol stream is incorrect. {error}."),
    )
}

fn rpc_stream_error(error: &ProtocolError) -> SqlError {
    SqlError::new(
        8016,
        16,
        1,
        format!(
            "The incoming tabular data stream (TDS) remote procedure call (RPC) protocol stream \
             is incorrect. {error}."
        ),
    )
}
