//! RPC requests (MS-TDS 2.2.6.6): one or more procedure calls, each a
//! procedure name or well-known id, option flags and parameters with their
//! TYPE_INFO and values, table-valued parameters included.

use crate::types::{code, TypeInfo};
use crate::types::{encode_type_info, encode_value};
use crate::wire::put_b_varchar;
use crate::wire::{ProtocolError, Reader, WireResult};
use hekla_sql::{RpcParameter, RpcValue};
use hekla_types::{Collation, DataType, Length, SqlResult, Value};

/// One procedure call of an RPC request.
#[derive(Clone, Debug, PartialEq)]
pub struct RpcCall {
    pub procedure: String,
    pub parameters: Vec<RpcParameter>,
}

/// The procedures clients call by id (ProcIDs 1-15).
fn procedure_by_id(id: u16) -> WireResult<&'static str> {
    Ok(match id {
        1 => "sp_cursor",
        2 => "sp_cursoropen",
        3 => "sp_cursorprepare",
        4 => "sp_cursorexecute",
        5 => "sp_cursorprepexec",
        6 => "sp_cursorunprepare",
        7 => "sp_cursorfetch",
        8 => "sp_cursoroption",
        9 => "sp_cursorclose",
        10 => "sp_executesql",
        11 => "sp_prepare",
        12 => "sp_execute",
        13 => "sp_prepexec",
        14 => "sp_prepexecrpc",
        15 => "sp_unprepare",
        _ => return Err(ProtocolError::new(format!("unknown procedure id {id}"))),
    })
}

/// Parameter status flags.
const BY_REF_VALUE: u8 = 0x01;
const DEFAULT_VALUE: u8 = 0x02;
const ENCRYPTED: u8 = 0x08;
/// Separators between the calls of one request.
const BATCH_FLAG: u8 = 0xFF;
const NO_EXEC_FLAG: u8 = 0xFE;
const BATCH_FLAG_7_1: u8 = 0x80;

/// TVP tokens and limits.
const TVP_NULL_COLUMNS: u16 = 0xFFFF;
const TVP_ORDER_UNIQUE: u8 = 0x10;
const TVP_COLUMN_ORDERING: u8 = 0x11;
const TVP_END: u8 = 0x00;
const TVP_ROW: u8 = 0x01;
const TVP_DEFAULT_COLUMN: u16 = 0x0200;
/// SQL Server's limit on a table's columns.
const MAX_TVP_COLUMNS: u16 = 1024;
/// Most values one request may carry. Every value takes at least a byte of
/// the message but a decoded value takes tens, so this bounds what a
/// request's decoding allocates independently of the message size.
pub const MAX_VALUES: usize = 2_000_000;

/// Decodes the calls after ALL_HEADERS.
pub fn decode(reader: &mut Reader) -> WireResult<Vec<RpcCall>> {
    let mut calls = Vec::new();
    let mut budget = MAX_VALUES;
    loop {
        calls.push(decode_call(reader, &mut budget)?);
        match reader.peek_u8() {
            None => return Ok(calls),
            Some(BATCH_FLAG | BATCH_FLAG_7_1) => {
                reader.u8()?;
                if reader.is_empty() {
                    return Ok(calls);
                }
            }
            Some(NO_EXEC_FLAG) => {
                return Err(ProtocolError::new(
                    "RPC calls marked not to be executed (NoExecFlag) are not supported",
                ))
            }
            Some(other) => {
                return Err(ProtocolError::new(format!(
                    "unexpected byte 0x{other:02X} after an RPC's parameters"
                )))
            }
        }
    }
}

fn decode_call(reader: &mut Reader, budget: &mut usize) -> WireResult<RpcCall> {
    let name_length = reader.u16()?;
    let procedure = if name_length == 0xFFFF {
        procedure_by_id(reader.u16()?)?.to_string()
    } else {
        reader.utf16(usize::from(name_length))?
    };
    let _option_flags = reader.u16()?;
    let mut parameters = Vec::new();
    while let Some(next) = reader.peek_u8() {
        if matches!(next, BATCH_FLAG | NO_EXEC_FLAG | BATCH_FLAG_7_1) {
            break;
        }
        if reader.rest().iter().all(|&b| b == 0) {
            // go-mssqldb writes 16 zero bytes after a NULL uniqueidentifier
            // (length 0); nothing valid is all zeros (type 0 does not
            // exist), and SQL Server ignores them.
            reader.take(reader.remaining())?;
            break;
        }
        parameters.push(
            decode_parameter(reader, budget).map_err(|e| {
                ProtocolError::new(format!("parameter {}: {e}", parameters.len() + 1))
            })?,
        );
    }
    Ok(RpcCall {
        procedure,
        parameters,
    })
}

/// Takes `n` values from the request's budget.
fn spend(budget: &mut usize, n: usize) -> WireResult<()> {
    *budget = budget.checked_sub(n).ok_or_else(|| {
        ProtocolError::new(format!("more than {MAX_VALUES} values in one request"))
    })?;
    Ok(())
}

fn decode_parameter(reader: &mut Reader, budget: &mut usize) -> WireResult<RpcParameter> {
    let name = reader.b_varchar()?;
    let status = reader.u8()?;
    if status & ENCRYPTED != 0 {
        return Err(ProtocolError::new(
            "encrypted parameters (Always Encrypted) are not supported",
        ));
    }
    if status & DEFAULT_VALUE != 0 {
        return Err(ProtocolError::new(
            "parameters passed as DEFAULT (fDefaultValue) are not supported",
        ));
    }
    let (data_type, value) = if reader.peek_u8() == Some(code::TVP) {
        reader.u8()?;
        decode_table(reader, budget)?
    } else {
        spend(budget, 1)?;
        let info = TypeInfo::decode(reader)?;
        let value = info.decode_value(reader)?;
        if info.code == code::NULL {
            (info.data_type, RpcValue::UntypedNull)
        } else {
            (info.data_type, RpcValue::Scalar(value))
        }
    };
    Ok(RpcParameter {
        name: (!name.is_empty()).then_some(name),
        data_type,
        value,
        output: status & BY_REF_VALUE != 0,
    })
}

/// A table-valued parameter: its type's name, columns and rows.
fn decode_table(reader: &mut Reader, budget: &mut usize) -> WireResult<(DataType, RpcValue)> {
    let database = reader.b_varchar()?;
    if !database.is_empty() {
        return Err(ProtocolError::new(
            "a table type's name may not name a database",
        ));
    }
    let type_schema = reader.b_varchar()?;
    let type_name = reader.b_varchar()?;
    let count = reader.u16()?;
    let mut columns = Vec::new();
    if count != TVP_NULL_COLUMNS {
        if count > MAX_TVP_COLUMNS {
            return Err(ProtocolError::new(format!("{count} table columns")));
        }
        for _ in 0..count {
            let _user_type = reader.u32()?;
            let flags = reader.u16()?;
            let info = TypeInfo::decode(reader)?;
            let _name = reader.b_varchar()?;
            if info.code == code::NULL {
                return Err(ProtocolError::new("a table column of type NULL"));
            }
            if flags & TVP_DEFAULT_COLUMN != 0 {
                return Err(ProtocolError::new(
                    "table-valued parameter columns sent as DEFAULT are not supported",
                ));
            }
            columns.push(info);
        }
    }
    skip_optional_metadata(reader)?;
    if reader.u8()? != TVP_END {
        return Err(ProtocolError::new(
            "TVP column metadata without its end token",
        ));
    }
    let mut rows = Vec::new();
    loop {
        match reader.u8()? {
            TVP_END => break,
            TVP_ROW => {
                spend(budget, columns.len().max(1))?;
                let mut row = Vec::with_capacity(columns.len());
                for info in &columns {
                    row.push(info.decode_value(reader)?);
                }
                rows.push(row);
            }
            other => {
                return Err(ProtocolError::new(format!(
                    "unexpected TVP token 0x{other:02X}"
                )))
            }
        }
    }
    // The parameter's declared type is not read for a table (the table
    // type's name says it all); nvarchar stands in.
    let data_type = DataType::NVarChar {
        len: Length::Max,
        collation: Collation::default(),
    };
    Ok((
        data_type,
        RpcValue::Table {
            type_schema,
            type_name,
            rows,
        },
    ))
}

/// TVP_ORDER_UNIQUE and TVP_COLUMN_ORDERING describe ordering hints that
/// hekla does not use; they are checked for length and skipped.
fn skip_optional_metadata(reader: &mut Reader) -> WireResult<()> {
    loop {
        match reader.peek_u8() {
            Some(TVP_ORDER_UNIQUE) => {
                reader.u8()?;
                let count = usize::from(reader.u16()?);
                reader.take(count * 3)?;
            }
            Some(TVP_COLUMN_ORDERING) => {
                reader.u8()?;
                let count = usize::from(reader.u16()?);
                reader.take(count * 2)?;
            }
            _ => return Ok(()),
        }
    }
}

/// A parameter as a client sends it.
#[derive(Clone, Debug, PartialEq)]
pub struct ClientParameter {
    /// With its '@', or empty for a positional parameter.
    pub name: String,
    pub output: bool,
    pub value: ClientValue,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ClientValue {
    Scalar(DataType, Value),
    Table {
        type_schema: String,
        type_name: String,
        columns: Vec<DataType>,
        rows: Vec<Vec<Value>>,
    },
}

/// Appends one call (without ALL_HEADERS), naming the procedure.
pub fn encode_call(
    out: &mut Vec<u8>,
    procedure: &str,
    parameters: &[ClientParameter],
) -> SqlResult<()> {
    out.extend_from_slice(&(procedure.encode_utf16().count() as u16).to_le_bytes());
    crate::wire::put_utf16(out, procedure);
    out.extend_from_slice(&0u16.to_le_bytes()); // option flags
    for parameter in parameters {
        put_b_varchar(out, &parameter.name);
        out.push(if parameter.output { BY_REF_VALUE } else { 0 });
        match &parameter.value {
            ClientValue::Scalar(data_type, value) => {
                encode_type_info(data_type, out);
                encode_value(data_type, value, out)?;
            }
            ClientValue::Table {
                type_schema,
                type_name,
                columns,
                rows,
            } => {
                out.push(code::TVP);
                put_b_varchar(out, "");
                put_b_varchar(out, type_schema);
                put_b_varchar(out, type_name);
                out.extend_from_slice(&(columns.len() as u16).to_le_bytes());
                for column in columns {
                    out.extend_from_slice(&0u32.to_le_bytes()); // UserType
                    out.extend_from_slice(&1u16.to_le_bytes()); // nullable
                    encode_type_info(column, out);
                    put_b_varchar(out, "");
                }
                out.push(TVP_END);
                for row in rows {
                    out.push(TVP_ROW);
                    for (column, value) in columns.iter().zip(row) {
                        encode_value(column, value, out)?;
                    }
                }
                out.push(TVP_END);
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
