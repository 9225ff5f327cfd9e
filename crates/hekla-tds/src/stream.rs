//! A logged-in connection's byte stream, read and written by the
//! connection's own thread.
//!
//! Plain TCP is read and written with blocking calls on that thread, so a
//! request costs one wake-up: the kernel wakes the thread that reads it,
//! and the same thread runs it and writes the reply. TLS stays on the
//! async stream the login built and is driven from the thread through the
//! runtime (one wake-up more per read, but no second implementation).

use crate::login::{ServerTlsStream, ServerTransport};
use crate::packet::{read_message, Limits, Message, ReadError};
use crate::tls::Transport;
use std::future::Future;
use std::io::{self, BufReader, Read, Write};
use std::net::TcpStream;
use std::pin::{pin, Pin};
use std::task::{Context, Poll, Waker};
use tokio::io::{AsyncRead, AsyncWriteExt, ReadBuf};
use tokio::runtime::Handle;

/// Enough for a typical request and an ATTENTION behind it in one read.
const READ_BUFFER: usize = 8 * 1024;

pub enum ConnectionStream {
    Plain(BufReader<TcpStream>),
    Tls {
        stream: Box<ServerTlsStream>,
        runtime: Handle,
    },
}

impl ConnectionStream {
    /// Takes over the login's transport; must run inside the runtime.
    pub fn new(transport: ServerTransport) -> io::Result<ConnectionStream> {
        Ok(match transport {
            Transport::Plain(socket) => {
                let socket = socket.into_std()?;
                socket.set_nonblocking(false)?;
                ConnectionStream::Plain(BufReader::with_capacity(READ_BUFFER, socket))
            }
            Transport::Tls(stream) => ConnectionStream::Tls {
                stream,
                runtime: Handle::current(),
            },
        })
    }

    /// Blocks until a whole message has arrived.
    pub fn read_message(&mut self, limits: Limits) -> Result<Message, ReadError> {
        match self {
            ConnectionStream::Plain(reader) => {
                poll_once(read_message(&mut AlwaysReady(reader), limits)).unwrap_or_else(|| {
                    Err(ReadError::Io(io::Error::new(
                        io::ErrorKind::WouldBlock,
                        "a blocking read did not complete",
                    )))
                })
            }
            ConnectionStream::Tls { stream, runtime } => {
                runtime.block_on(read_message(stream.as_mut(), limits))
            }
        }
    }

    /// Writes `bytes` and flushes them; false if the client is gone.
    pub fn write_all(&mut self, bytes: &[u8]) -> bool {
        match self {
            ConnectionStream::Plain(reader) => reader.get_mut().write_all(bytes).is_ok(),
            ConnectionStream::Tls { stream, runtime } => runtime.block_on(async {
                stream.write_all(bytes).await.is_ok() && stream.flush().await.is_ok()
            }),
        }
    }

    /// Bytes already read from the socket but not yet consumed: input the
    /// socket's readiness will not announce again. (TLS keeps its own
    /// buffer; an ATTENTION that sits there is seen when the request ends.)
    pub fn has_buffered_input(&self) -> bool {
        match self {
            ConnectionStream::Plain(reader) => !reader.buffer().is_empty(),
            ConnectionStream::Tls { .. } => false,
        }
    }
}

/// A blocking reader seen as an `AsyncRead` that is always ready, so the
/// one message reader serves blocking reads too. Only ever polled by
/// [`poll_once`], never by an executor.
struct AlwaysReady<'a, R>(&'a mut R);

impl<R: Read> AsyncRead for AlwaysReady<'_, R> {
    fn poll_read(
        self: Pin<&mut Self>,
        _: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let reader = &mut self.get_mut().0;
        loop {
            match reader.read(buf.initialize_unfilled()) {
                Ok(n) => {
                    buf.advance(n);
                    return Poll::Ready(Ok(()));
                }
                Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
                Err(error) => return Poll::Ready(Err(error)),
            }
        }
    }
}

/// Polls a future once: one whose reads block completes in that poll.
fn poll_once<F: Future>(future: F) -> Option<F::Output> {
    let mut future = pin!(future);
    match future
        .as_mut()
        .poll(&mut Context::from_waker(Waker::noop()))
    {
        Poll::Ready(output) => Some(output),
        Poll::Pending => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packet::{kind, status, HEADER_LEN};

    fn packet(kind: u8, status: u8, payload: &[u8]) -> Vec<u8> {
        let length = (HEADER_LEN + payload.len()) as u16;
        let mut bytes = vec![kind, status];
        bytes.extend_from_slice(&length.to_be_bytes());
        bytes.extend_from_slice(&[0, 0, 1, 0]);
        bytes.extend_from_slice(payload);
        bytes
    }

    #[test]
    fn blocking_reads_assemble_messages_across_packets_and_see_the_close() {
        let mut wire = packet(kind::SQL_BATCH, 0, b"ab");
        wire.extend(packet(kind::SQL_BATCH, status::END_OF_MESSAGE, b"cd"));
        wire.extend(packet(kind::ATTENTION, status::END_OF_MESSAGE, b""));
        let mut reader = io::Cursor::new(wire);
        let limits = Limits {
            packet_size: 4096,
            message_size: 1024,
        };
        let read = |reader: &mut io::Cursor<Vec<u8>>| {
            poll_once(read_message(&mut AlwaysReady(reader), limits)).expect("never pending")
        };
        let first = read(&mut reader).unwrap();
        assert_eq!(
            (first.kind, first.payload.as_slice()),
            (kind::SQL_BATCH, &b"abcd"[..])
        );
        assert_eq!(read(&mut reader).unwrap().kind, kind::ATTENTION);
        assert!(matches!(read(&mut reader), Err(ReadError::Closed)));
    }
}
