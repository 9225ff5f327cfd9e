//! PRELOGIN: the first message of a connection. The client announces its
//! version and what it wants of encryption and MARS; the server answers with
//! what the connection will use.

use crate::wire::{ProtocolError, Reader, WireResult};

/// Option tokens.
const VERSION: u8 = 0;
const ENCRYPTION: u8 = 1;
const INSTANCE: u8 = 2;
const THREAD_ID: u8 = 3;
const MARS: u8 = 4;
const TERMINATOR: u8 = 0xFF;

/// The ENCRYPTION option's values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encryption {
    /// Encrypt the login packet only.
    Off,
    /// Encrypt everything.
    On,
    /// The sender cannot encrypt.
    NotSupported,
    /// The server requires encryption of everything.
    Required,
}

impl Encryption {
    fn from_byte(byte: u8) -> Encryption {
        // 0x80 is "client certificate" combined with the other values; hekla
        // does not authenticate clients by certificate, so the low bits decide.
        match byte & 0x0F {
            0 => Encryption::Off,
            1 => Encryption::On,
            3 => Encryption::Required,
            _ => Encryption::NotSupported,
        }
    }

    pub fn to_byte(self) -> u8 {
        match self {
            Encryption::Off => 0,
            Encryption::On => 1,
            Encryption::NotSupported => 2,
            Encryption::Required => 3,
        }
    }
}

/// What a PRELOGIN message says (the options hekla looks at).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prelogin {
    pub version: [u8; 6],
    pub encryption: Encryption,
    /// MARS requested (1) or not (0).
    pub mars: bool,
}

impl Prelogin {
    pub fn decode(bytes: &[u8]) -> WireResult<Prelogin> {
        let mut table = Reader::new(bytes);
        let mut prelogin = Prelogin {
            version: [0; 6],
            encryption: Encryption::NotSupported,
            mars: false,
        };
        let mut seen_version = false;
        loop {
            let token = table.u8()?;
            if token == TERMINATOR {
                break;
            }
            let offset = usize::from(table.u16_be()?);
            let length = usize::from(table.u16_be()?);
            let data = bytes
                .get(offset..offset.saturating_add(length))
                .ok_or_else(|| ProtocolError::new("PRELOGIN option outside the message"))?;
            match token {
                VERSION if length >= 6 => {
                    prelogin.version.copy_from_slice(&data[..6]);
                    seen_version = true;
                }
                ENCRYPTION if length >= 1 => prelogin.encryption = Encryption::from_byte(data[0]),
                MARS if length >= 1 => prelogin.mars = data[0] != 0,
                _ => {}
            }
        }
        if !seen_version {
            return Err(ProtocolError::new("PRELOGIN without VERSION"));
        }
        Ok(prelogin)
    }

    /// The message with the options in token order, each pointing at its
    /// data after the option table.
    pub fn encode(&self) -> Vec<u8> {
        let options: [(u8, Vec<u8>); 5] = [
            (VERSION, self.version.to_vec()),
            (ENCRYPTION, vec![self.encryption.to_byte()]),
            (INSTANCE, vec![0]),
            (THREAD_ID, Vec::new()),
            (MARS, vec![u8::from(self.mars)]),
        ];
        let table_len = options.len() * 5 + 1;
        let mut table = Vec::new();
        let mut data = Vec::new();
        for (token, value) in &options {
            table.push(*token);
            table.extend_from_slice(&((table_len + data.len()) as u16).to_be_bytes());
            table.extend_from_slice(&(value.len() as u16).to_be_bytes());
            data.extend_from_slice(value);
        }
        table.push(TERMINATOR);
        table.extend_from_slice(&data);
        table
    }
}

/// What the connection does about encryption after PRELOGIN.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Negotiated {
    /// No TLS at all.
    Plaintext,
    /// TLS for the LOGIN7 message, plaintext afterwards.
    LoginOnly,
    /// TLS for the whole connection.
    Full,
    /// The client cannot encrypt but the server requires it: answer and close.
    Refuse,
}

/// The server's answer to the client's ENCRYPTION option, following the
/// table in MS-TDS 2.2.6.5, and what it means for the connection.
pub fn negotiate(
    client: Encryption,
    server_has_tls: bool,
    require_encryption: bool,
) -> (Encryption, Negotiated) {
    if !server_has_tls {
        return (Encryption::NotSupported, Negotiated::Plaintext);
    }
    match (client, require_encryption) {
        (Encryption::NotSupported, false) => (Encryption::NotSupported, Negotiated::Plaintext),
        (Encryption::NotSupported, true) => (Encryption::Required, Negotiated::Refuse),
        (Encryption::Off, false) => (Encryption::Off, Negotiated::LoginOnly),
        (Encryption::Off, true) => (Encryption::Required, Negotiated::Full),
        (Encryption::On | Encryption::Required, _) => (Encryption::On, Negotiated::Full),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encode_then_decode() {
        let prelogin = Prelogin {
            version: [16, 0, 0x10, 0x7F, 0, 0],
            encryption: Encryption::Off,
            mars: true,
        };
        assert_eq!(Prelogin::decode(&prelogin.encode()).unwrap(), prelogin);
    }

    #[test]
    fn options_pointing_outside_the_message_are_errors() {
        let mut bytes = Prelogin {
            version: [0; 6],
            encryption: Encryption::On,
            mars: false,
        }
        .encode();
        bytes[2] = 0xFF; // VERSION's offset far past the end
        assert!(Prelogin::decode(&bytes).is_err());
        assert!(Prelogin::decode(&[]).is_err());
        assert!(Prelogin::decode(&[0xFF]).is_err());
    }

    #[test]
    fn negotiation_follows_the_specification() {
        use Encryption::*;
        assert_eq!(negotiate(On, false, false).0, NotSupported);
        assert_eq!(
            negotiate(NotSupported, true, false).1,
            Negotiated::Plaintext
        );
        assert_eq!(
            negotiate(NotSupported, true, true),
            (Required, Negotiated::Refuse)
        );
        assert_eq!(negotiate(Off, true, false), (Off, Negotiated::LoginOnly));
        assert_eq!(negotiate(Off, true, true), (Required, Negotiated::Full));
        assert_eq!(negotiate(On, true, false), (On, Negotiated::Full));
    }
}
