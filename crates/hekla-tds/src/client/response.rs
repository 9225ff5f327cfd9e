//! Reading a server's reply message into results: result sets, row counts,
//! errors and messages, return status and OUTPUT values.

use crate::tokens::{done, env, token};
use crate::types::TypeInfo;
use crate::wire::{ProtocolError, Reader, WireResult};
use hekla_types::{DataType, Value};

#[derive(Clone, Debug, PartialEq)]
pub struct Column {
    pub name: String,
    pub data_type: DataType,
    pub nullable: bool,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct ResultSet {
    pub columns: Vec<Column>,
    pub rows: Vec<Vec<Value>>,
}

/// An ERROR or INFO token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerMessage {
    pub number: u32,
    pub state: u8,
    pub class: u8,
    pub text: String,
    pub server: String,
    pub procedure: String,
    pub line: u32,
}

impl std::fmt::Display for ServerMessage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Msg {}, Level {}, State {}, ",
            self.number, self.class, self.state
        )?;
        if !self.procedure.is_empty() {
            write!(f, "Procedure {}, ", self.procedure)?;
        }
        write!(f, "Line {}\n{}", self.line, self.text)
    }
}

/// A DONE, DONEPROC or DONEINPROC.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Done {
    pub token: u8,
    pub status: u16,
    /// CurCmd: the statement it ends.
    pub command: u16,
    pub rows: u64,
}

impl Done {
    pub fn count(&self) -> Option<u64> {
        (self.status & done::COUNT != 0).then_some(self.rows)
    }
}

/// One of a reply's items, in the order they came.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    Results(ResultSet),
    Done(Done),
    Error(ServerMessage),
    Info(ServerMessage),
    EnvChange {
        kind: u8,
        new: Vec<u8>,
        old: Vec<u8>,
    },
    LoginAck {
        tds_version: u32,
        program: String,
    },
    ReturnStatus(i32),
    ReturnValue {
        name: String,
        value: Value,
    },
}

/// A whole reply.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Response {
    pub items: Vec<Item>,
}

impl Response {
    pub fn result_sets(&self) -> Vec<&ResultSet> {
        self.items
            .iter()
            .filter_map(|item| match item {
                Item::Results(results) => Some(results),
                _ => None,
            })
            .collect()
    }

    /// The rows of the first result set (empty if there is none).
    pub fn rows(&self) -> Vec<Vec<Value>> {
        self.result_sets()
            .first()
            .map(|results| results.rows.clone())
            .unwrap_or_default()
    }

    pub fn errors(&self) -> Vec<&ServerMessage> {
        self.items
            .iter()
            .filter_map(|item| match item {
                Item::Error(error) => Some(error),
                _ => None,
            })
            .collect()
    }

    pub fn infos(&self) -> Vec<&ServerMessage> {
        self.items
            .iter()
            .filter_map(|item| match item {
                Item::Info(info) => Some(info),
                _ => None,
            })
            .collect()
    }

    pub fn dones(&self) -> Vec<Done> {
        self.items
            .iter()
            .filter_map(|item| match item {
                Item::Done(done) => Some(*done),
                _ => None,
            })
            .collect()
    }

    pub fn return_status(&self) -> Option<i32> {
        self.items.iter().find_map(|item| match item {
            Item::ReturnStatus(status) => Some(*status),
            _ => None,
        })
    }

    pub fn return_values(&self) -> Vec<(String, Value)> {
        self.items
            .iter()
            .filter_map(|item| match item {
                Item::ReturnValue { name, value } => Some((name.clone(), value.clone())),
                _ => None,
            })
            .collect()
    }

    /// The first error, as a Rust error.
    pub fn into_result(self) -> Result<Response, ServerMessage> {
        match self.errors().first() {
            Some(error) => Err((*error).clone()),
            None => Ok(self),
        }
    }

    /// Decodes a reply message's tokens.
    pub fn decode(payload: &[u8]) -> WireResult<Response> {
        let mut reader = Reader::new(payload);
        let mut response = Response::default();
        // A result set takes its place at its COLMETADATA, so an error
        // after some of its rows comes after them, as the server sent it.
        let mut current: Option<(Vec<TypeInfo>, usize)> = None;
        while let Some(byte) = reader.peek_u8() {
            reader.u8()?;
            match byte {
                token::COLMETADATA => {
                    let (types, results) = col_metadata(&mut reader)?;
                    current = Some((types, response.items.len()));
                    response.items.push(Item::Results(results));
                }
                token::ROW | token::NBC_ROW => {
                    let (types, index) = current
                        .as_ref()
                        .ok_or_else(|| ProtocolError::new("row without column metadata"))?;
                    let row = read_row(&mut reader, types, byte == token::NBC_ROW)?;
                    if let Some(Item::Results(results)) = response.items.get_mut(*index) {
                        results.rows.push(row);
                    }
                }
                token::DONE | token::DONE_PROC | token::DONE_IN_PROC => {
                    current = None;
                    let status = reader.u16()?;
                    let command = reader.u16()?;
                    let rows = reader.u64()?;
                    response.items.push(Item::Done(Done {
                        token: byte,
                        status,
                        command,
                        rows,
                    }));
                }
                token::ERROR | token::INFO => {
                    let body = length_prefixed(&mut reader)?;
                    let message = server_message(body)?;
                    response.items.push(if byte == token::ERROR {
                        Item::Error(message)
                    } else {
                        Item::Info(message)
                    });
                }
                token::ENV_CHANGE => {
                    let mut body = Reader::new(length_prefixed(&mut reader)?);
                    let kind = body.u8()?;
                    let (new, old) = match kind {
                        env::SQL_COLLATION
                        | env::BEGIN_TRANSACTION
                        | env::COMMIT_TRANSACTION
                        | env::ROLLBACK_TRANSACTION
                        | env::RESET_CONNECTION_ACK => {
                            (body.b_varbyte()?.to_vec(), body.b_varbyte()?.to_vec())
                        }
                        _ => (utf16_bytes(&mut body)?, utf16_bytes(&mut body)?),
                    };
                    response.items.push(Item::EnvChange { kind, new, old });
                }
                token::LOGIN_ACK => {
                    let mut body = Reader::new(length_prefixed(&mut reader)?);
                    let _interface = body.u8()?;
                    let tds_version = body.u32_be()?;
                    let program = body.b_varchar()?;
                    response.items.push(Item::LoginAck {
                        tds_version,
                        program,
                    });
                }
                token::FEATURE_EXT_ACK => loop {
                    if reader.u8()? == 0xFF {
                        break;
                    }
                    let len = reader.u32()? as usize;
                    reader.take(len)?;
                },
                token::ORDER => {
                    length_prefixed(&mut reader)?;
                }
                token::RETURN_STATUS => response.items.push(Item::ReturnStatus(reader.i32()?)),
                token::RETURN_VALUE => {
                    let _ordinal = reader.u16()?;
                    let name = reader.b_varchar()?;
                    let _status = reader.u8()?;
                    let _user_type = reader.u32()?;
                    let _flags = reader.u16()?;
                    let info = TypeInfo::decode(&mut reader)?;
                    let value = info.decode_value(&mut reader)?;
                    response.items.push(Item::ReturnValue { name, value });
                }
                other => return Err(ProtocolError::new(format!("unknown token 0x{other:02X}"))),
            }
        }
        Ok(response)
    }
}

/// A B_VARCHAR's raw UTF-16 bytes, decoded as text.
fn utf16_bytes(reader: &mut Reader) -> WireResult<Vec<u8>> {
    Ok(reader.b_varchar()?.into_bytes())
}

fn length_prefixed<'a>(reader: &mut Reader<'a>) -> WireResult<&'a [u8]> {
    let len = reader.u16()?;
    reader.take(usize::from(len))
}

fn col_metadata(reader: &mut Reader) -> WireResult<(Vec<TypeInfo>, ResultSet)> {
    let count = reader.u16()?;
    let mut types = Vec::new();
    let mut results = ResultSet::default();
    if count == 0xFFFF {
        return Ok((types, results));
    }
    for _ in 0..count {
        let _user_type = reader.u32()?;
        let flags = reader.u16()?;
        let info = TypeInfo::decode(reader)?;
        let name = reader.b_varchar()?;
        results.columns.push(Column {
            name,
            data_type: info.data_type,
            nullable: flags & 1 != 0,
        });
        types.push(info);
    }
    Ok((types, results))
}

fn read_row(reader: &mut Reader, types: &[TypeInfo], null_bitmap: bool) -> WireResult<Vec<Value>> {
    let bitmap = if null_bitmap {
        reader.take(types.len().div_ceil(8))?
    } else {
        &[]
    };
    let mut row = Vec::with_capacity(types.len());
    for (i, info) in types.iter().enumerate() {
        let is_null = bitmap.get(i / 8).is_some_and(|b| b & (1 << (i % 8)) != 0);
        row.push(if is_null {
            Value::Null
        } else {
            info.decode_value(reader)?
        });
    }
    Ok(row)
}

fn server_message(body: &[u8]) -> WireResult<ServerMessage> {
    let mut body = Reader::new(body);
    Ok(ServerMessage {
        number: body.u32()?,
        state: body.u8()?,
        class: body.u8()?,
        text: body.us_varchar()?,
        server: body.b_varchar()?,
        procedure: body.b_varchar()?,
        line: body.u32()?,
    })
}
