//! LOGIN7: the client's login record (MS-TDS 2.2.6.4). A fixed part with
//! offsets and lengths, then the UTF-16 strings they point at; the password
//! is "scrambled" (nibbles swapped, XOR 0xA5), which hides nothing: only TLS
//! protects it.

use crate::wire::{put_utf16, utf16_to_string, ProtocolError, Reader, WireResult};

/// TDS versions as LOGIN7 carries them (a little-endian DWORD).
pub const TDS_7_3_A: u32 = 0x730A_0003;
pub const TDS_7_3_B: u32 = 0x730B_0003;
pub const TDS_7_4: u32 = 0x7400_0004;

const FIXED_LEN: usize = 94;
/// OptionFlags2: the client wants Windows (SSPI) authentication.
const INTEGRATED_SECURITY: u8 = 0x80;
/// OptionFlags3: the record has a FeatureExt block.
const EXTENSION: u8 = 0x10;

#[derive(Clone, PartialEq, Eq)]
pub struct Login7 {
    pub tds_version: u32,
    pub packet_size: u32,
    pub client_pid: u32,
    pub integrated_security: bool,
    pub has_feature_extension: bool,
    pub host_name: String,
    pub user_name: String,
    pub password: String,
    pub app_name: String,
    pub server_name: String,
    pub library_name: String,
    pub language: String,
    pub database: String,
}

/// Never shows the password.
impl std::fmt::Debug for Login7 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Login7")
            .field("tds_version", &format_args!("{:#x}", self.tds_version))
            .field("packet_size", &self.packet_size)
            .field("user_name", &self.user_name)
            .field("app_name", &self.app_name)
            .field("database", &self.database)
            .finish_non_exhaustive()
    }
}

/// The order of the (offset, length) pairs after the fixed fields.
const HOST_NAME: usize = 0;
const USER_NAME: usize = 1;
const PASSWORD: usize = 2;
const APP_NAME: usize = 3;
const SERVER_NAME: usize = 4;
const LIBRARY_NAME: usize = 6;
const LANGUAGE: usize = 7;
const DATABASE: usize = 8;
const STRING_SLOTS: usize = 9;

impl Login7 {
    pub fn decode(bytes: &[u8]) -> WireResult<Login7> {
        let mut fixed = Reader::new(bytes);
        let length = fixed.u32()? as usize;
        if length > bytes.len() || length < FIXED_LEN {
            return Err(ProtocolError::new(
                "LOGIN7 length does not match the message",
            ));
        }
        let record = &bytes[..length];
        let tds_version = fixed.u32()?;
        let packet_size = fixed.u32()?;
        let _client_program_version = fixed.u32()?;
        let client_pid = fixed.u32()?;
        let _connection_id = fixed.u32()?;
        let _option_flags1 = fixed.u8()?;
        let option_flags2 = fixed.u8()?;
        let _type_flags = fixed.u8()?;
        let option_flags3 = fixed.u8()?;
        let _time_zone = fixed.i32()?;
        let _lcid = fixed.u32()?;
        let mut slots = [(0usize, 0usize); STRING_SLOTS];
        for slot in &mut slots {
            *slot = (usize::from(fixed.u16()?), usize::from(fixed.u16()?));
        }
        let string = |slot: usize| -> WireResult<String> {
            let (offset, chars) = slots[slot];
            let bytes = record
                .get(offset..offset + chars * 2)
                .ok_or_else(|| ProtocolError::new("LOGIN7 string outside the record"))?;
            utf16_to_string(bytes)
        };
        let (offset, chars) = slots[PASSWORD];
        let scrambled = record
            .get(offset..offset + chars * 2)
            .ok_or_else(|| ProtocolError::new("LOGIN7 password outside the record"))?;
        let password =
            utf16_to_string(&scrambled.iter().map(|&b| unscramble(b)).collect::<Vec<_>>())?;
        Ok(Login7 {
            tds_version,
            packet_size,
            client_pid,
            integrated_security: option_flags2 & INTEGRATED_SECURITY != 0,
            has_feature_extension: option_flags3 & EXTENSION != 0,
            host_name: string(HOST_NAME)?,
            user_name: string(USER_NAME)?,
            password,
            app_name: string(APP_NAME)?,
            server_name: string(SERVER_NAME)?,
            library_name: string(LIBRARY_NAME)?,
            language: string(LANGUAGE)?,
            database: string(DATABASE)?,
        })
    }

    /// The record as a client sends it (used by [`crate::client`]).
    pub fn encode(&self) -> Vec<u8> {
        let mut strings: [Vec<u8>; STRING_SLOTS] = Default::default();
        put_utf16(&mut strings[HOST_NAME], &self.host_name);
        put_utf16(&mut strings[USER_NAME], &self.user_name);
        put_utf16(&mut strings[PASSWORD], &self.password);
        for byte in &mut strings[PASSWORD] {
            *byte = scramble(*byte);
        }
        put_utf16(&mut strings[APP_NAME], &self.app_name);
        put_utf16(&mut strings[SERVER_NAME], &self.server_name);
        put_utf16(&mut strings[LIBRARY_NAME], &self.library_name);
        put_utf16(&mut strings[LANGUAGE], &self.language);
        put_utf16(&mut strings[DATABASE], &self.database);
        let mut out = Vec::new();
        out.extend_from_slice(&0u32.to_le_bytes()); // length, patched below
        out.extend_from_slice(&self.tds_version.to_le_bytes());
        out.extend_from_slice(&self.packet_size.to_le_bytes());
        out.extend_from_slice(&0u32.to_le_bytes()); // client program version
        out.extend_from_slice(&self.client_pid.to_le_bytes());
        out.extend_from_slice(&0u32.to_le_bytes()); // connection id
        out.push(0xE0); // OptionFlags1: USE DB and SET LANG warnings, init DB fatal
        out.push(0x03); // OptionFlags2: init lang fatal, ODBC
        out.push(0); // TypeFlags
        out.push(0); // OptionFlags3
        out.extend_from_slice(&0i32.to_le_bytes()); // time zone
        out.extend_from_slice(&0x0409u32.to_le_bytes()); // LCID
                                                         // Strings start after the fixed part, the slot table, the 6-byte
                                                         // client id and the SSPI, attach-file, change-password and SSPI-long
                                                         // fields.
        let mut offset = FIXED_LEN;
        for string in &strings {
            out.extend_from_slice(&(offset as u16).to_le_bytes());
            out.extend_from_slice(&((string.len() / 2) as u16).to_le_bytes());
            offset += string.len();
        }
        out.extend_from_slice(&[0u8; 6]); // client id
        for _ in 0..3 {
            // SSPI, attach-DB file, change password: empty
            out.extend_from_slice(&(offset as u16).to_le_bytes());
            out.extend_from_slice(&0u16.to_le_bytes());
        }
        out.extend_from_slice(&0u32.to_le_bytes()); // SSPI long
        debug_assert_eq!(out.len(), FIXED_LEN);
        for string in &strings {
            out.extend_from_slice(string);
        }
        let length = out.len() as u32;
        out[..4].copy_from_slice(&length.to_le_bytes());
        out
    }
}

fn scramble(byte: u8) -> u8 {
    byte.rotate_left(4) ^ 0xA5
}

fn unscramble(byte: u8) -> u8 {
    (byte ^ 0xA5).rotate_left(4)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Login7 {
        Login7 {
            tds_version: TDS_7_4,
            packet_size: 4096,
            client_pid: 42,
            integrated_security: false,
            has_feature_extension: false,
            host_name: "host".into(),
            user_name: "sa".into(),
            password: "pässwörd!".into(),
            app_name: "test".into(),
            server_name: "localhost".into(),
            library_name: "hekla".into(),
            language: String::new(),
            database: "hekla".into(),
        }
    }

    #[test]
    fn encode_then_decode_unscrambles_the_password() {
        let encoded = sample().encode();
        assert_eq!(Login7::decode(&encoded).unwrap(), sample());
        // The password is not in the clear.
        let clear: Vec<u8> = "pässwörd!"
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        assert!(!encoded.windows(clear.len()).any(|w| w == clear));
    }

    #[test]
    fn known_scrambling() {
        // MS-TDS: 'a' (0x61 0x00) scrambles to 0xB3 0xA5.
        assert_eq!(scramble(0x61), 0xB3);
        assert_eq!(scramble(0x00), 0xA5);
        assert_eq!(unscramble(0xB3), 0x61);
    }

    #[test]
    fn bad_offsets_and_lengths_are_errors() {
        let mut encoded = sample().encode();
        // The user name's length far past the end.
        encoded[42] = 0xFF;
        assert!(Login7::decode(&encoded).is_err());
        let encoded = sample().encode();
        assert!(Login7::decode(&encoded[..50]).is_err());
        let mut short = sample().encode();
        short[..4].copy_from_slice(&10u32.to_le_bytes());
        assert!(Login7::decode(&short).is_err());
    }
}
