//! Encoding the server's tokens (MS-TDS 2.2.7): LOGINACK, ENVCHANGE,
//! INFO/ERROR, COLMETADATA, ROW/NBCROW, DONE*, RETURNSTATUS, RETURNVALUE.

use crate::types::{encode_type_info, encode_value};
use crate::wire::{put_b_varbyte, put_b_varchar, put_us_varchar};
use hekla_sql::result::ResultColumn;
use hekla_types::{DataType, SqlResult, Value};

/// Token bytes.
pub mod token {
    pub const RETURN_STATUS: u8 = 0x79;
    pub const COLMETADATA: u8 = 0x81;
    pub const ORDER: u8 = 0xA9;
    pub const ERROR: u8 = 0xAA;
    pub const INFO: u8 = 0xAB;
    pub const RETURN_VALUE: u8 = 0xAC;
    pub const LOGIN_ACK: u8 = 0xAD;
    pub const FEATURE_EXT_ACK: u8 = 0xAE;
    pub const ROW: u8 = 0xD1;
    pub const NBC_ROW: u8 = 0xD2;
    pub const ENV_CHANGE: u8 = 0xE3;
    pub const DONE: u8 = 0xFD;
    pub const DONE_PROC: u8 = 0xFE;
    pub const DONE_IN_PROC: u8 = 0xFF;
}

/// DONE status bits.
pub mod done {
    pub const FINAL: u16 = 0x00;
    pub const MORE: u16 = 0x01;
    pub const ERROR: u16 = 0x02;
    pub const IN_TRANSACTION: u16 = 0x04;
    pub const COUNT: u16 = 0x10;
    pub const ATTENTION: u16 = 0x20;
    pub const SERVER_ERROR: u16 = 0x100;
}

/// ENVCHANGE types.
pub mod env {
    pub const DATABASE: u8 = 1;
    pub const LANGUAGE: u8 = 2;
    pub const PACKET_SIZE: u8 = 4;
    pub const SQL_COLLATION: u8 = 7;
    pub const BEGIN_TRANSACTION: u8 = 8;
    pub const COMMIT_TRANSACTION: u8 = 9;
    pub const ROLLBACK_TRANSACTION: u8 = 10;
    pub const RESET_CONNECTION_ACK: u8 = 18;
}

/// Appends a token whose body starts with a two-byte length.
fn with_u16_length(out: &mut Vec<u8>, token: u8, body: impl FnOnce(&mut Vec<u8>)) {
    out.push(token);
    let at = out.len();
    out.extend_from_slice(&[0, 0]);
    body(out);
    let len = (out.len() - at - 2).min(usize::from(u16::MAX)) as u16;
    out[at..at + 2].copy_from_slice(&len.to_le_bytes());
}

/// LOGINACK: the interface (T-SQL), the TDS version in network byte
/// order, the program name and its version.
pub fn login_ack(out: &mut Vec<u8>, tds_version: u32, program: &str, version: [u8; 4]) {
    with_u16_length(out, token::LOGIN_ACK, |out| {
        out.push(1);
        out.extend_from_slice(&tds_version.to_be_bytes());
        put_b_varchar(out, program);
        out.extend_from_slice(&version);
    });
}

/// An empty FEATUREEXTACK: hekla acknowledges none of the optional
/// features a client offered.
pub fn feature_ext_ack(out: &mut Vec<u8>) {
    out.extend_from_slice(&[token::FEATURE_EXT_ACK, 0xFF]);
}

pub fn env_change_text(out: &mut Vec<u8>, kind: u8, new: &str, old: &str) {
    with_u16_length(out, token::ENV_CHANGE, |out| {
        out.push(kind);
        put_b_varchar(out, new);
        put_b_varchar(out, old);
    });
}

pub fn env_change_bytes(out: &mut Vec<u8>, kind: u8, new: &[u8], old: &[u8]) {
    with_u16_length(out, token::ENV_CHANGE, |out| {
        out.push(kind);
        put_b_varbyte(out, new);
        put_b_varbyte(out, old);
    });
}

/// An ERROR or INFO token.
pub struct Message<'a> {
    pub number: u32,
    pub state: u8,
    pub class: u8,
    pub text: &'a str,
    pub server: &'a str,
    pub procedure: &'a str,
    pub line: u32,
}

impl Message<'_> {
    /// ERROR for class 11 and above, INFO below.
    pub fn encode(&self, out: &mut Vec<u8>) {
        let token = if self.class > 10 {
            token::ERROR
        } else {
            token::INFO
        };
        with_u16_length(out, token, |out| {
            out.extend_from_slice(&self.number.to_le_bytes());
            out.push(self.state);
            out.push(self.class);
            put_us_varchar(out, self.text);
            put_b_varchar(out, self.server);
            put_b_varchar(out, self.procedure);
            out.extend_from_slice(&self.line.to_le_bytes());
        });
    }
}

/// A DONE's CurCmd: the statement it ends, in SQL Server's numbering.
pub mod command {
    pub const NONE: u16 = 0;
    pub const SELECT: u16 = 0xC1;
    pub const INSERT: u16 = 0xC3;
    pub const DELETE: u16 = 0xC4;
    pub const UPDATE: u16 = 0xC5;
    /// EXEC of a procedure (its DONEPROC).
    pub const EXECUTE: u16 = 0xE0;
}

pub fn done(out: &mut Vec<u8>, token: u8, status: u16, command: u16, row_count: u64) {
    out.push(token);
    out.extend_from_slice(&status.to_le_bytes());
    out.extend_from_slice(&command.to_le_bytes());
    out.extend_from_slice(&row_count.to_le_bytes());
}

/// Column flags: nullable, and updatability "unknown".
fn column_flags(nullable: bool) -> u16 {
    u16::from(nullable) | 0x0008
}

pub fn col_metadata(out: &mut Vec<u8>, columns: &[ResultColumn]) {
    out.push(token::COLMETADATA);
    out.extend_from_slice(&(columns.len().min(usize::from(u16::MAX) - 1) as u16).to_le_bytes());
    for column in columns.iter().take(usize::from(u16::MAX) - 1) {
        out.extend_from_slice(&0u32.to_le_bytes()); // UserType
        out.extend_from_slice(&column_flags(column.nullable).to_le_bytes());
        encode_type_info(&column.data_type, out);
        put_b_varchar(out, &column.name);
    }
}

/// A ROW, or an NBCROW (a null bitmap, then the non-NULL values) when a
/// value is NULL. Encoded whole or not at all.
pub fn row(out: &mut Vec<u8>, columns: &[ResultColumn], values: &[Value]) -> SqlResult<()> {
    let mut encoded = Vec::new();
    if values.iter().any(Value::is_null) {
        encoded.push(token::NBC_ROW);
        let mut bitmap = vec![0u8; columns.len().div_ceil(8)];
        for (i, value) in values.iter().enumerate() {
            if value.is_null() {
                bitmap[i / 8] |= 1 << (i % 8);
            }
        }
        encoded.extend_from_slice(&bitmap);
        for (column, value) in columns.iter().zip(values) {
            if !value.is_null() {
                encode_value(&column.data_type, value, &mut encoded)?;
            }
        }
    } else {
        encoded.push(token::ROW);
        for (column, value) in columns.iter().zip(values) {
            encode_value(&column.data_type, value, &mut encoded)?;
        }
    }
    out.extend_from_slice(&encoded);
    Ok(())
}

pub fn return_status(out: &mut Vec<u8>, status: i32) {
    out.push(token::RETURN_STATUS);
    out.extend_from_slice(&status.to_le_bytes());
}

/// RETURNVALUE of an OUTPUT parameter (`name` with its '@').
pub fn return_value(
    out: &mut Vec<u8>,
    ordinal: u16,
    name: &str,
    data_type: &DataType,
    value: &Value,
) -> SqlResult<()> {
    let mut encoded = vec![token::RETURN_VALUE];
    encoded.extend_from_slice(&ordinal.to_le_bytes());
    put_b_varchar(&mut encoded, name);
    encoded.push(0x01); // an output parameter's value
    encoded.extend_from_slice(&0u32.to_le_bytes()); // UserType
    encoded.extend_from_slice(&column_flags(true).to_le_bytes());
    encode_type_info(data_type, &mut encoded);
    encode_value(data_type, value, &mut encoded)?;
    out.extend_from_slice(&encoded);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn done_layout() {
        let mut out = Vec::new();
        done(
            &mut out,
            token::DONE,
            done::COUNT | done::MORE,
            command::UPDATE,
            3,
        );
        assert_eq!(out, [0xFD, 0x11, 0, 0xC5, 0, 3, 0, 0, 0, 0, 0, 0, 0]);
    }

    #[test]
    fn error_token_layout() {
        let mut out = Vec::new();
        Message {
            number: 208,
            state: 1,
            class: 16,
            text: "x",
            server: "s",
            procedure: "",
            line: 2,
        }
        .encode(&mut out);
        assert_eq!(
            out,
            [0xAA, 18, 0, 208, 0, 0, 0, 1, 16, 1, 0, b'x', 0, 1, b's', 0, 0, 2, 0, 0, 0]
        );
    }

    #[test]
    fn nbcrow_marks_nulls_in_a_bitmap() {
        let columns: Vec<ResultColumn> = (0..9)
            .map(|i| ResultColumn {
                name: format!("c{i}"),
                data_type: DataType::Int,
                nullable: true,
            })
            .collect();
        let mut values = vec![Value::Int(1); 9];
        values[8] = Value::Null;
        let mut out = Vec::new();
        row(&mut out, &columns, &values).unwrap();
        assert_eq!(out[0], token::NBC_ROW);
        assert_eq!(&out[1..3], [0, 1]);
        assert_eq!(out.len(), 3 + 8 * 5);
    }

    #[test]
    fn login_ack_carries_the_version_big_endian() {
        let mut out = Vec::new();
        login_ack(&mut out, 0x7400_0004, "hekla", [16, 0, 0, 0]);
        assert_eq!(&out[..8], [0xAD, 20, 0, 1, 0x74, 0, 0, 4]);
    }
}
