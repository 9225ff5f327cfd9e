//! A logged-in connection: requests in, token streams out, all on the
//! connection's own thread.
//!
//! The thread blocks reading its socket, runs each request as it arrives
//! and writes the reply itself, so a request costs one wake-up. While a
//! request runs, the server's attention watcher ([`crate::live`]) cancels
//! it if input arrives; afterwards the thread reads that input to see
//! whether it was an ATTENTION. When the connection ends, however it ends,
//! the session is dropped, which rolls back its open transaction.

use crate::context::ServerContext;
use crate::live::ConnectionControl;
use crate::packet::{kind, status, Limits, Message, PacketWriter, ReadError};
use crate::sink::{ConnectionState, RequestKind, TokenOutput, TokenSink};
use crate::stream::ConnectionStream;
use crate::tokens::{self, command, done, token};
use crate::wire::{ProtocolError, Reader};
use crate::{log, request, rpc};
use hekla_sql::Session;
use hekla_types::SqlError;
use std::sync::Arc;

pub struct Connection {
    stream: ConnectionStream,
    packets: PacketWriter,
    /// A request's tokens and their packets on the way out: kept from
    /// request to request so that a reply costs no allocation.
    tokens: Vec<u8>,
    wire: Vec<u8>,
    limits: Limits,
    state: ConnectionState,
    control: Arc<ConnectionControl>,
    peer: String,
}

/// How a request ended for the connection.
enum Next {
    Continue,
    Close,
}

impl Connection {
    /// Serves requests until the client leaves, breaks the protocol or the
    /// server shuts down. Blocks: runs on the connection's thread.
    pub fn serve(
        stream: ConnectionStream,
        mut session: Session,
        packet_size: u32,
        context: &ServerContext,
        control: Arc<ConnectionControl>,
        peer: String,
    ) {
        let spid = u16::try_from(session.session_id()).unwrap_or(0);
        let mut connection = Connection {
            stream,
            packets: PacketWriter::new(kind::TABULAR_RESULT, spid, packet_size),
            tokens: Vec::new(),
            wire: Vec::new(),
            limits: Limits {
                packet_size,
                message_size: context.max_message_size,
            },
            state: ConnectionState::new(&context.server_name, crate::login::DATABASE),
            control,
            peer,
        };
        connection.requests(&mut session);
    }

    /// The request loop.
    fn requests(&mut self, session: &mut Session) {
        loop {
            let message = match self.stream.read_message(self.limits) {
                Ok(message) => message,
                Err(ReadError::Closed) => return,
                Err(error) => {
                    log::warn(
                        "connection dropped",
                        &[("peer", &self.peer), ("reason", &error)],
                    );
                    return;
                }
            };
            log::debug(
                "message",
                &[
                    ("type", &message.kind),
                    ("status", &message.status),
                    ("bytes", &message.payload.len()),
                ],
            );
            let next = match message.kind {
                kind::ATTENTION => {
                    // Nothing is running: acknowledge at once.
                    session.cancel_handle().clear();
                    self.send_attention_ack()
                }
                kind::SQL_BATCH | kind::RPC | kind::TRANSACTION_MANAGER => {
                    self.run_request(session, &message)
                }
                other => {
                    let error = SqlError::new(
                        10794,
                        16,
                        1,
                        format!("TDS requests of type {other} are not supported by hekla."),
                    );
                    self.send_error_reply(&error)
                }
            };
            if let Next::Close = next {
                return;
            }
        }
    }

    /// Runs one request, its tokens going out as they collect.
    fn run_request(&mut self, session: &mut Session, message: &Message) -> Next {
        self.packets.start(kind::TABULAR_RESULT);
        let kind = if message.kind == kind::RPC {
            RequestKind::Rpc
        } else {
            RequestKind::Batch
        };
        self.control.start_request(self.stream.has_buffered_input());
        let mut output = SocketOutput {
            stream: &mut self.stream,
            packets: &mut self.packets,
            wire: &mut self.wire,
        };
        let mut sink = TokenSink::new(kind, &mut self.tokens, &mut output, &mut self.state);
        let last = execute(session, message, &mut sink);
        let client_gone = sink.is_disconnected();
        let input = self.control.end_request();
        if client_gone || self.control.aborted() {
            return Next::Close;
        }
        if !input {
            return self.finish_message(&last);
        }
        // Input stopped the request. Its reply ends (what it had sent,
        // then a plain final DONE); if the input was an ATTENTION, the
        // acknowledgement follows as a message of its own: drivers such as
        // tedious read the message that was under way as the reply and
        // only the next one as the acknowledgement; the others read on
        // until they see it.
        let mut end = Vec::new();
        tokens::done(&mut end, token::DONE, done::FINAL, command::NONE, 0);
        if let Next::Close = self.finish_message(&end) {
            return Next::Close;
        }
        match self.stream.read_message(self.limits) {
            Ok(input) if input.kind == kind::ATTENTION => {
                session.cancel_handle().clear();
                self.send_attention_ack()
            }
            Ok(input) => {
                // One request at a time (MARS is refused at PRELOGIN).
                log::warn(
                    "request while another runs",
                    &[("peer", &self.peer), ("type", &input.kind)],
                );
                Next::Close
            }
            Err(_) => Next::Close,
        }
    }

    /// Ends the current response message with `tail`.
    fn finish_message(&mut self, tail: &[u8]) -> Next {
        self.wire.clear();
        self.packets.push(tail, &mut self.wire);
        self.packets.finish(&mut self.wire);
        if self.stream.write_all(&self.wire) {
            Next::Continue
        } else {
            Next::Close
        }
    }

    fn send_attention_ack(&mut self) -> Next {
        self.packets.start(kind::TABULAR_RESULT);
        self.finish_message(&attention_ack())
    }

    fn send_error_reply(&mut self, error: &SqlError) -> Next {
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
        self.finish_message(&reply)
    }
}

/// A request's tokens, cut into packets and written to the socket.
struct SocketOutput<'a> {
    stream: &'a mut ConnectionStream,
    packets: &'a mut PacketWriter,
    wire: &'a mut Vec<u8>,
}

impl TokenOutput for SocketOutput<'_> {
    fn send(&mut self, tokens: &[u8]) -> bool {
        self.wire.clear();
        self.packets.push(tokens, self.wire);
        self.wire.is_empty() || self.stream.write_all(self.wire)
    }
}

fn attention_ack() -> Vec<u8> {
    let mut out = Vec::new();
    tokens::done(&mut out, token::DONE, done::ATTENTION, command::NONE, 0);
    out
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
