//! TDS packets: the 8-byte header, reassembling a message from packets
//! (bounded), and cutting an outgoing message into packets.

use crate::wire::ProtocolError;
use std::io;
use tokio::io::{AsyncRead, AsyncReadExt};

pub const HEADER_LEN: usize = 8;
/// Packet sizes a client may negotiate in LOGIN7 (SQL Server's bounds).
pub const MIN_PACKET_SIZE: u32 = 512;
pub const MAX_PACKET_SIZE: u32 = 32_767;
pub const DEFAULT_PACKET_SIZE: u32 = 4_096;

/// The header's type byte.
pub mod kind {
    pub const SQL_BATCH: u8 = 1;
    pub const PRE_TDS7_LOGIN: u8 = 2;
    pub const RPC: u8 = 3;
    pub const TABULAR_RESULT: u8 = 4;
    pub const ATTENTION: u8 = 6;
    pub const BULK_LOAD: u8 = 7;
    pub const FEDERATED_AUTH_TOKEN: u8 = 8;
    pub const TRANSACTION_MANAGER: u8 = 14;
    pub const LOGIN7: u8 = 16;
    pub const SSPI: u8 = 17;
    pub const PRELOGIN: u8 = 18;
}

/// The header's status bits.
pub mod status {
    pub const END_OF_MESSAGE: u8 = 0x01;
    pub const IGNORE: u8 = 0x02;
    pub const RESET_CONNECTION: u8 = 0x08;
    pub const RESET_CONNECTION_SKIP_TRAN: u8 = 0x10;
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    pub kind: u8,
    pub status: u8,
    /// The whole packet's length, header included.
    pub length: u16,
    pub spid: u16,
    pub packet_id: u8,
}

impl Header {
    pub fn parse(bytes: [u8; HEADER_LEN]) -> Result<Header, ProtocolError> {
        let header = Header {
            kind: bytes[0],
            status: bytes[1],
            length: u16::from_be_bytes([bytes[2], bytes[3]]),
            spid: u16::from_be_bytes([bytes[4], bytes[5]]),
            packet_id: bytes[6],
        };
        if usize::from(header.length) < HEADER_LEN {
            return Err(ProtocolError::new("packet shorter than its header"));
        }
        Ok(header)
    }

    pub fn encode(&self) -> [u8; HEADER_LEN] {
        let length = self.length.to_be_bytes();
        let spid = self.spid.to_be_bytes();
        [
            self.kind,
            self.status,
            length[0],
            length[1],
            spid[0],
            spid[1],
            self.packet_id,
            0,
        ]
    }

    pub fn payload_len(&self) -> usize {
        usize::from(self.length) - HEADER_LEN
    }
}

/// A whole request: the packets of one message, concatenated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    pub kind: u8,
    /// The first packet's status (the reset-connection bits live there).
    pub status: u8,
    pub payload: Vec<u8>,
}

/// What a peer may send before its packets are refused.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Largest packet accepted (the negotiated packet size).
    pub packet_size: u32,
    /// Largest message (all its packets together).
    pub message_size: usize,
}

/// Why reading a message stopped.
#[derive(Debug)]
pub enum ReadError {
    /// The peer closed the connection between messages.
    Closed,
    Io(io::Error),
    Protocol(ProtocolError),
}

impl From<io::Error> for ReadError {
    fn from(error: io::Error) -> ReadError {
        if error.kind() == io::ErrorKind::UnexpectedEof {
            ReadError::Protocol(ProtocolError::new("connection closed mid-packet"))
        } else {
            ReadError::Io(error)
        }
    }
}

impl From<ProtocolError> for ReadError {
    fn from(error: ProtocolError) -> ReadError {
        ReadError::Protocol(error)
    }
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Closed => f.write_str("connection closed"),
            ReadError::Io(error) => write!(f, "{error}"),
            ReadError::Protocol(error) => write!(f, "{error}"),
        }
    }
}

/// Reads one packet: its header and payload.
pub async fn read_packet<R: AsyncRead + Unpin>(
    stream: &mut R,
    packet_size: u32,
) -> Result<(Header, Vec<u8>), ReadError> {
    let mut header = [0u8; HEADER_LEN];
    let first = match stream.read(&mut header).await {
        Ok(0) => return Err(ReadError::Closed),
        // TLS reports a peer that closed without close_notify this way.
        Err(error) if error.kind() == io::ErrorKind::UnexpectedEof => {
            return Err(ReadError::Closed)
        }
        other => other?,
    };
    stream.read_exact(&mut header[first..]).await?;
    let header = Header::parse(header)?;
    if u32::from(header.length) > packet_size {
        return Err(ProtocolError::new(format!(
            "packet of {} bytes exceeds the packet size {packet_size}",
            header.length
        ))
        .into());
    }
    // Bounded by the check above (at most 32767 bytes).
    let mut payload = vec![0u8; header.payload_len()];
    stream.read_exact(&mut payload).await?;
    Ok((header, payload))
}

/// Reads packets up to the one marked end-of-message. An ATTENTION packet
/// is a message on its own; a packet of another type in the middle of a
/// message is a protocol error.
pub async fn read_message<R: AsyncRead + Unpin>(
    stream: &mut R,
    limits: Limits,
) -> Result<Message, ReadError> {
    let (header, payload) = read_packet(stream, limits.packet_size).await?;
    let mut message = Message {
        kind: header.kind,
        status: header.status,
        payload,
    };
    let mut last = header;
    while last.status & status::END_OF_MESSAGE == 0 {
        let (header, payload) = match read_packet(stream, limits.packet_size).await {
            Err(ReadError::Closed) => {
                return Err(ProtocolError::new("connection closed mid-message").into())
            }
            other => other?,
        };
        if header.kind != message.kind {
            return Err(ProtocolError::new("packet type changed within a message").into());
        }
        if message.payload.len() + payload.len() > limits.message_size {
            return Err(ProtocolError::new(format!(
                "message exceeds {} bytes",
                limits.message_size
            ))
            .into());
        }
        message.payload.extend_from_slice(&payload);
        last = header;
    }
    if last.status & status::IGNORE != 0 {
        // The client abandoned the message it was sending: SQL Server
        // drops it; an empty message of the same kind stands for that.
        message.payload.clear();
    }
    Ok(message)
}

/// Cuts an outgoing message into packets as its bytes arrive, holding back
/// the tail so that the final packet (marked end-of-message) is never empty.
pub struct PacketWriter {
    kind: u8,
    spid: u16,
    packet_size: usize,
    pending: Vec<u8>,
    next_id: u8,
}

impl PacketWriter {
    pub fn new(kind: u8, spid: u16, packet_size: u32) -> PacketWriter {
        PacketWriter {
            kind,
            spid,
            packet_size: packet_size as usize,
            pending: Vec::new(),
            next_id: 1,
        }
    }

    pub fn set_packet_size(&mut self, packet_size: u32) {
        self.packet_size = packet_size as usize;
    }

    /// Starts a new message (packet ids restart).
    pub fn start(&mut self, kind: u8) {
        self.kind = kind;
        self.pending.clear();
        self.next_id = 1;
    }

    /// Adds message bytes; returns the wire bytes of every packet that is
    /// complete and not the last.
    pub fn push(&mut self, bytes: &[u8], out: &mut Vec<u8>) {
        self.pending.extend_from_slice(bytes);
        let payload = self.packet_size - HEADER_LEN;
        let mut start = 0;
        while self.pending.len() - start > payload {
            self.emit(start, start + payload, 0, out);
            start += payload;
        }
        self.pending.drain(..start);
    }

    /// Ends the message: the remaining bytes as the end-of-message packet.
    pub fn finish(&mut self, out: &mut Vec<u8>) {
        let payload = self.packet_size - HEADER_LEN;
        let mut start = 0;
        while self.pending.len() - start > payload {
            self.emit(start, start + payload, 0, out);
            start += payload;
        }
        self.emit(start, self.pending.len(), status::END_OF_MESSAGE, out);
        self.pending.clear();
        self.next_id = 1;
    }

    fn emit(&mut self, start: usize, end: usize, status: u8, out: &mut Vec<u8>) {
        let header = Header {
            kind: self.kind,
            status,
            length: (end - start + HEADER_LEN) as u16,
            spid: self.spid,
            packet_id: self.next_id,
        };
        self.next_id = self.next_id.wrapping_add(1);
        out.extend_from_slice(&header.encode());
        out.extend_from_slice(&self.pending[start..end]);
    }
}

/// A whole message as packets.
pub fn packetize(kind: u8, spid: u16, packet_size: u32, payload: &[u8]) -> Vec<u8> {
    let mut writer = PacketWriter::new(kind, spid, packet_size);
    let mut out = Vec::with_capacity(payload.len() + HEADER_LEN);
    writer.push(payload, &mut out);
    writer.finish(&mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits() -> Limits {
        Limits {
            packet_size: 512,
            message_size: 4096,
        }
    }

    #[tokio::test]
    async fn a_message_round_trips_through_packets() {
        let payload: Vec<u8> = (0..2000u32).map(|i| i as u8).collect();
        let wire = packetize(kind::SQL_BATCH, 7, 512, &payload);
        // 504 payload bytes per packet: 4 packets for 2000 bytes.
        assert_eq!(wire.len(), 2000 + 4 * HEADER_LEN);
        let message = read_message(&mut wire.as_slice(), limits()).await.unwrap();
        assert_eq!(message.kind, kind::SQL_BATCH);
        assert_eq!(message.payload, payload);
    }

    #[tokio::test]
    async fn an_exact_multiple_of_the_packet_size_ends_with_a_full_packet() {
        let payload = vec![9u8; 504 * 2];
        let wire = packetize(kind::TABULAR_RESULT, 0, 512, &payload);
        assert_eq!(wire.len(), payload.len() + 2 * HEADER_LEN);
        assert_eq!(wire[512 + 1], status::END_OF_MESSAGE);
    }

    #[tokio::test]
    async fn oversized_packets_and_messages_are_refused() {
        let wire = packetize(kind::SQL_BATCH, 0, 4096, &[0u8; 1000]);
        assert!(matches!(
            read_message(&mut wire.as_slice(), limits()).await,
            Err(ReadError::Protocol(_))
        ));
        let wire = packetize(kind::SQL_BATCH, 0, 512, &[0u8; 5000]);
        assert!(matches!(
            read_message(&mut wire.as_slice(), limits()).await,
            Err(ReadError::Protocol(_))
        ));
    }

    #[tokio::test]
    async fn truncated_and_malformed_packets_are_errors() {
        let wire = packetize(kind::SQL_BATCH, 0, 512, &[1, 2, 3]);
        let cut = &wire[..wire.len() - 1];
        assert!(matches!(
            read_message(&mut &cut[..], limits()).await,
            Err(ReadError::Protocol(_))
        ));
        // A header claiming fewer bytes than itself.
        let bad = [1u8, 1, 0, 4, 0, 0, 1, 0];
        assert!(read_message(&mut &bad[..], limits()).await.is_err());
        assert!(matches!(
            read_message(&mut &[][..], limits()).await,
            Err(ReadError::Closed)
        ));
    }
}
