//! TYPE_INFO and values on the wire (MS-TDS 2.2.5.4-2.2.5.5), per hekla
//! [`DataType`]: how the server describes and sends each type, and how it
//! reads the types and values clients send (RPC parameters) or servers send
//! (the client module).

use crate::wire::{ProtocolError, Reader, WireResult};
use hekla_types::convert::{cp1252_byte, cp1252_char};
use hekla_types::datetime::{MAX_FRACTION_SCALE, TICKS_PER_DAY};
use hekla_types::{
    Collation, DataType, Date, DateTime, DateTime2, DateTimeOffset, Decimal, Length, Money,
    SmallDateTime, SqlError, SqlResult, Time, Uuid, Value,
};

/// Type bytes (MS-TDS 2.2.5.4.1-3).
pub mod code {
    pub const NULL: u8 = 0x1F;
    pub const INT1: u8 = 0x30;
    pub const BIT: u8 = 0x32;
    pub const INT2: u8 = 0x34;
    pub const INT4: u8 = 0x38;
    pub const DATETIME4: u8 = 0x3A;
    pub const FLOAT4: u8 = 0x3B;
    pub const MONEY: u8 = 0x3C;
    pub const DATETIME: u8 = 0x3D;
    pub const FLOAT8: u8 = 0x3E;
    pub const MONEY4: u8 = 0x7A;
    pub const INT8: u8 = 0x7F;
    pub const GUID: u8 = 0x24;
    pub const INTN: u8 = 0x26;
    pub const DECIMAL: u8 = 0x37;
    pub const NUMERIC: u8 = 0x3F;
    pub const BITN: u8 = 0x68;
    pub const DECIMALN: u8 = 0x6A;
    pub const NUMERICN: u8 = 0x6C;
    pub const FLOATN: u8 = 0x6D;
    pub const MONEYN: u8 = 0x6E;
    pub const DATETIMEN: u8 = 0x6F;
    pub const DATEN: u8 = 0x28;
    pub const TIMEN: u8 = 0x29;
    pub const DATETIME2N: u8 = 0x2A;
    pub const DATETIMEOFFSETN: u8 = 0x2B;
    pub const CHAR: u8 = 0x2F;
    pub const VARCHAR: u8 = 0x27;
    pub const BINARY: u8 = 0x2D;
    pub const VARBINARY: u8 = 0x25;
    pub const BIGVARBINARY: u8 = 0xA5;
    pub const BIGVARCHAR: u8 = 0xA7;
    pub const BIGBINARY: u8 = 0xAD;
    pub const BIGCHAR: u8 = 0xAF;
    pub const NVARCHAR: u8 = 0xE7;
    pub const NCHAR: u8 = 0xEF;
    pub const TEXT: u8 = 0x23;
    pub const IMAGE: u8 = 0x22;
    pub const NTEXT: u8 = 0x63;
    pub const SQL_VARIANT: u8 = 0x62;
    pub const UDT: u8 = 0xF0;
    pub const XML: u8 = 0xF1;
    pub const TVP: u8 = 0xF3;
}

/// How a type's values are framed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Framing {
    /// Exactly this many bytes, never NULL (INT4, FLT8, ...; NULLTYPE is 0).
    Fixed(usize),
    /// One length byte, 0 for NULL.
    ByteLen,
    /// Two length bytes, 0xFFFF for NULL.
    UShortLen,
    /// Four length bytes, 0xFFFFFFFF for NULL (text, ntext, image).
    LongLen,
    /// Partially length-prefixed: the (max) types.
    Plp,
}

/// A decoded TYPE_INFO.
#[derive(Clone, Debug, PartialEq)]
pub struct TypeInfo {
    pub data_type: DataType,
    pub framing: Framing,
    /// The type byte as it was on the wire.
    pub code: u8,
    /// char/varchar text is UTF-8 (a `_UTF8` collation) instead of
    /// Windows-1252.
    pub utf8: bool,
}

/// Collation bytes: LCID and flags (4 bytes) then the SQL sort id.
pub fn collation_bytes(collation: Collation) -> [u8; 5] {
    match collation {
        // LCID 0x0409, ignore case, kana and width; sort id 52.
        Collation::SqlLatin1GeneralCp1CiAs => [0x09, 0x04, 0xD0, 0x00, 0x34],
        Collation::Latin1GeneralCiAs => [0x09, 0x04, 0xD0, 0x00, 0x00],
        // fBinary2.
        Collation::Latin1GeneralBin2 => [0x09, 0x04, 0x00, 0x02, 0x00],
    }
}

const COLLATION_UTF8: u8 = 0x04; // bit 26 of the 4-byte word: byte 3, bit 2
const COLLATION_BINARY2: u8 = 0x02;

/// The hekla collation closest to a client's collation bytes: the binary
/// flag picks BIN2, SQL sort ids pick the SQL collation, anything else the
/// Windows collation; all of them compare case-insensitively otherwise.
fn collation_from_bytes(bytes: &[u8]) -> (Collation, bool) {
    let flags = bytes.get(3).copied().unwrap_or(0);
    let sort_id = bytes.get(4).copied().unwrap_or(0);
    let collation = if flags & COLLATION_BINARY2 != 0 {
        Collation::Latin1GeneralBin2
    } else if sort_id != 0 {
        Collation::SqlLatin1GeneralCp1CiAs
    } else {
        Collation::Latin1GeneralCiAs
    };
    (collation, flags & COLLATION_UTF8 != 0)
}

/// Byte size of a decimal with `precision` digits (sign byte included).
fn decimal_size(precision: u8) -> u8 {
    match precision {
        0..=9 => 5,
        10..=19 => 9,
        20..=28 => 13,
        _ => 17,
    }
}

/// Byte size of a time with `scale` fractional digits.
fn time_size(scale: u8) -> usize {
    match scale {
        0..=2 => 3,
        3..=4 => 4,
        _ => 5,
    }
}

fn max_or(len: Length, bytes_per_unit: u32) -> u16 {
    match len {
        Length::Max => 0xFFFF,
        Length::Bounded(n) => (n * bytes_per_unit).min(8000) as u16,
    }
}

/// Appends the TYPE_INFO the server uses for `data_type` (the nullable
/// forms throughout, as SQL Server does for nullable columns).
pub fn encode_type_info(data_type: &DataType, out: &mut Vec<u8>) {
    use DataType as T;
    match *data_type {
        T::Bit => out.extend_from_slice(&[code::BITN, 1]),
        T::TinyInt => out.extend_from_slice(&[code::INTN, 1]),
        T::SmallInt => out.extend_from_slice(&[code::INTN, 2]),
        T::Int => out.extend_from_slice(&[code::INTN, 4]),
        T::BigInt => out.extend_from_slice(&[code::INTN, 8]),
        T::Decimal { precision, scale } => {
            out.extend_from_slice(&[code::DECIMALN, decimal_size(precision), precision, scale])
        }
        T::Money => out.extend_from_slice(&[code::MONEYN, 8]),
        T::SmallMoney => out.extend_from_slice(&[code::MONEYN, 4]),
        T::Float => out.extend_from_slice(&[code::FLOATN, 8]),
        T::Real => out.extend_from_slice(&[code::FLOATN, 4]),
        T::Date => out.push(code::DATEN),
        T::Time { scale } => out.extend_from_slice(&[code::TIMEN, scale]),
        T::DateTime2 { scale } => out.extend_from_slice(&[code::DATETIME2N, scale]),
        T::DateTimeOffset { scale } => out.extend_from_slice(&[code::DATETIMEOFFSETN, scale]),
        T::DateTime => out.extend_from_slice(&[code::DATETIMEN, 8]),
        T::SmallDateTime => out.extend_from_slice(&[code::DATETIMEN, 4]),
        T::UniqueIdentifier => out.extend_from_slice(&[code::GUID, 16]),
        T::Char { len, collation } => {
            out.push(code::BIGCHAR);
            out.extend_from_slice(&(len.min(8000) as u16).to_le_bytes());
            out.extend_from_slice(&collation_bytes(collation));
        }
        T::VarChar { len, collation } => {
            out.push(code::BIGVARCHAR);
            out.extend_from_slice(&max_or(len, 1).to_le_bytes());
            out.extend_from_slice(&collation_bytes(collation));
        }
        T::NChar { len, collation } => {
            out.push(code::NCHAR);
            out.extend_from_slice(&((len * 2).min(8000) as u16).to_le_bytes());
            out.extend_from_slice(&collation_bytes(collation));
        }
        T::NVarChar { len, collation } => {
            out.push(code::NVARCHAR);
            out.extend_from_slice(&max_or(len, 2).to_le_bytes());
            out.extend_from_slice(&collation_bytes(collation));
        }
        T::Binary { len } => {
            out.push(code::BIGBINARY);
            out.extend_from_slice(&(len.min(8000) as u16).to_le_bytes());
        }
        T::VarBinary { len } => {
            out.push(code::BIGVARBINARY);
            out.extend_from_slice(&max_or(len, 1).to_le_bytes());
        }
    }
}

/// How the server frames values of a type (a subset of [`Framing`]).
enum ServerFraming {
    ByteLen,
    UShortLen,
    Plp,
}

fn server_framing(data_type: &DataType) -> ServerFraming {
    use DataType as T;
    match data_type {
        T::VarChar {
            len: Length::Max, ..
        }
        | T::NVarChar {
            len: Length::Max, ..
        }
        | T::VarBinary { len: Length::Max } => ServerFraming::Plp,
        T::Char { .. }
        | T::VarChar { .. }
        | T::NChar { .. }
        | T::NVarChar { .. }
        | T::Binary { .. }
        | T::VarBinary { .. } => ServerFraming::UShortLen,
        _ => ServerFraming::ByteLen,
    }
}

/// Largest PLP chunk the server writes.
const PLP_CHUNK: usize = 8000;
const PLP_NULL: u64 = u64::MAX;
const PLP_UNKNOWN_LENGTH: u64 = u64::MAX - 1;

/// Appends `value` as a value of `data_type` (in a ROW, NBCROW or
/// RETURNVALUE). A value of another type is converted first (an error if it
/// cannot be).
pub fn encode_value(data_type: &DataType, value: &Value, out: &mut Vec<u8>) -> SqlResult<()> {
    if value.is_null() {
        match server_framing(data_type) {
            ServerFraming::ByteLen => out.push(0),
            ServerFraming::UShortLen => out.extend_from_slice(&0xFFFFu16.to_le_bytes()),
            ServerFraming::Plp => out.extend_from_slice(&PLP_NULL.to_le_bytes()),
        }
        return Ok(());
    }
    // The bytes go straight into `out` after room for their length, which
    // is filled in once known (only PLP, chunked, needs a copy).
    let start = out.len();
    match server_framing(data_type) {
        ServerFraming::ByteLen => {
            out.push(0);
            value_bytes_or_none(data_type, value, out, start)?;
            out[start] = (out.len() - start - 1) as u8;
        }
        ServerFraming::UShortLen => {
            out.extend_from_slice(&[0, 0]);
            value_bytes_or_none(data_type, value, out, start)?;
            let len = u16::try_from(out.len() - start - 2)
                .ok()
                .filter(|&len| len != u16::MAX);
            let Some(len) = len else {
                out.truncate(start);
                return Err(SqlError::truncation());
            };
            out[start..start + 2].copy_from_slice(&len.to_le_bytes());
        }
        ServerFraming::Plp => {
            let mut data = Vec::new();
            value_bytes(data_type, value, &mut data)?;
            put_plp(&data, out);
        }
    }
    Ok(())
}

/// A PLP value: its total length, chunks, then a zero-length terminator.
pub fn put_plp(data: &[u8], out: &mut Vec<u8>) {
    out.extend_from_slice(&(data.len() as u64).to_le_bytes());
    for chunk in data.chunks(PLP_CHUNK) {
        out.extend_from_slice(&(chunk.len() as u32).to_le_bytes());
        out.extend_from_slice(chunk);
    }
    out.extend_from_slice(&0u32.to_le_bytes());
}

/// [`value_bytes`] appended to `out`, which is cut back to `start` if
/// they cannot be made (nothing of a failed value is left behind).
fn value_bytes_or_none(
    data_type: &DataType,
    value: &Value,
    out: &mut Vec<u8>,
    start: usize,
) -> SqlResult<()> {
    value_bytes(data_type, value, out).inspect_err(|_| out.truncate(start))
}

/// The bytes of a non-NULL value, without its length.
fn value_bytes(data_type: &DataType, value: &Value, out: &mut Vec<u8>) -> SqlResult<()> {
    use DataType as T;
    let converted;
    let value = if matches_type(data_type, value) {
        value
    } else {
        converted = hekla_types::convert(value, data_type, None)?;
        &converted
    };
    match (data_type, value) {
        (T::Bit, Value::Bit(b)) => out.push(u8::from(*b)),
        (T::TinyInt, Value::TinyInt(v)) => out.push(*v),
        (T::SmallInt, Value::SmallInt(v)) => out.extend_from_slice(&v.to_le_bytes()),
        (T::Int, Value::Int(v)) => out.extend_from_slice(&v.to_le_bytes()),
        (T::BigInt, Value::BigInt(v)) => out.extend_from_slice(&v.to_le_bytes()),
        (T::Decimal { precision, scale }, Value::Decimal(d)) => {
            let mantissa = d
                .mantissa_at_scale(*scale)
                .ok_or_else(|| SqlError::arithmetic_overflow("numeric", "numeric"))?;
            out.push(u8::from(mantissa >= 0));
            let magnitude = mantissa.unsigned_abs().to_le_bytes();
            out.extend_from_slice(&magnitude[..usize::from(decimal_size(*precision) - 1)]);
        }
        (T::Money, Value::Money(m)) => {
            out.extend_from_slice(&((m.0 >> 32) as i32).to_le_bytes());
            out.extend_from_slice(&(m.0 as u32).to_le_bytes());
        }
        (T::SmallMoney, Value::Money(m)) => out.extend_from_slice(&(m.0 as i32).to_le_bytes()),
        (T::Float, Value::Float(f)) => out.extend_from_slice(&f.to_le_bytes()),
        (T::Real, Value::Real(f)) => out.extend_from_slice(&f.to_le_bytes()),
        (T::Date, Value::Date(d)) => put_date(*d, out),
        (T::Time { scale }, Value::Time(t)) => put_time(*t, *scale, out),
        (T::DateTime2 { scale }, Value::DateTime2(v)) => {
            put_time(v.time, *scale, out);
            put_date(v.date, out);
        }
        (T::DateTimeOffset { scale }, Value::DateTimeOffset(v)) => {
            put_time(v.utc.time, *scale, out);
            put_date(v.utc.date, out);
            out.extend_from_slice(&v.offset_minutes.to_le_bytes());
        }
        (T::DateTime, Value::DateTime(v)) => {
            out.extend_from_slice(&v.days.to_le_bytes());
            out.extend_from_slice(&v.ticks.to_le_bytes());
        }
        (T::SmallDateTime, Value::SmallDateTime(v)) => {
            out.extend_from_slice(&v.days.to_le_bytes());
            out.extend_from_slice(&v.minutes.to_le_bytes());
        }
        (T::UniqueIdentifier, Value::UniqueIdentifier(u)) => out.extend_from_slice(&u.0),
        // ASCII is the same in code page 1252: copied whole.
        (T::Char { .. } | T::VarChar { .. }, Value::String(s)) if s.is_ascii() => {
            out.extend_from_slice(s.as_bytes())
        }
        (T::Char { .. } | T::VarChar { .. }, Value::String(s)) => {
            out.extend(s.chars().map(|c| cp1252_byte(c).unwrap_or(b'?')))
        }
        (T::NChar { .. } | T::NVarChar { .. }, Value::String(s)) => crate::wire::put_utf16(out, s),
        (T::Binary { .. } | T::VarBinary { .. }, Value::Binary(b)) => out.extend_from_slice(b),
        (data_type, value) => {
            return Err(SqlError::type_clash(
                value.type_name(),
                &data_type.sql_name(),
            ))
        }
    }
    Ok(())
}

/// Whether `value` is already of `data_type`'s family.
fn matches_type(data_type: &DataType, value: &Value) -> bool {
    use DataType as T;
    matches!(
        (data_type, value),
        (T::Bit, Value::Bit(_))
            | (T::TinyInt, Value::TinyInt(_))
            | (T::SmallInt, Value::SmallInt(_))
            | (T::Int, Value::Int(_))
            | (T::BigInt, Value::BigInt(_))
            | (T::Decimal { .. }, Value::Decimal(_))
            | (T::Money, Value::Money(_))
            | (T::Float, Value::Float(_))
            | (T::Real, Value::Real(_))
            | (T::Date, Value::Date(_))
            | (T::Time { .. }, Value::Time(_))
            | (T::DateTime2 { .. }, Value::DateTime2(_))
            | (T::DateTimeOffset { .. }, Value::DateTimeOffset(_))
            | (T::DateTime, Value::DateTime(_))
            | (T::SmallDateTime, Value::SmallDateTime(_))
            | (T::UniqueIdentifier, Value::UniqueIdentifier(_))
            | (
                T::Char { .. } | T::VarChar { .. } | T::NChar { .. } | T::NVarChar { .. },
                Value::String(_)
            )
            | (T::Binary { .. } | T::VarBinary { .. }, Value::Binary(_))
    ) || matches!((data_type, value), (T::SmallMoney, Value::Money(m)) if m.fits_smallmoney())
}

fn put_date(date: Date, out: &mut Vec<u8>) {
    out.extend_from_slice(&date.0.to_le_bytes()[..3]);
}

/// The time in units of 10^-scale seconds, in as many bytes as the scale
/// needs.
fn put_time(time: Time, scale: u8, out: &mut Vec<u8>) {
    let scale = scale.min(MAX_FRACTION_SCALE);
    let units = time.0 / 10u64.pow(u32::from(MAX_FRACTION_SCALE - scale));
    out.extend_from_slice(&units.to_le_bytes()[..time_size(scale)]);
}

impl TypeInfo {
    /// Reads a TYPE_INFO (not a TVP's: see [`crate::rpc`]).
    pub fn decode(reader: &mut Reader) -> WireResult<TypeInfo> {
        use DataType as T;
        let type_code = reader.u8()?;
        let fixed = |data_type: DataType, size: usize| TypeInfo {
            data_type,
            framing: Framing::Fixed(size),
            code: type_code,
            utf8: false,
        };
        let byte_len = |data_type: DataType| TypeInfo {
            data_type,
            framing: Framing::ByteLen,
            code: type_code,
            utf8: false,
        };
        let info = match type_code {
            // An untyped NULL: hekla gives it int, the type of a bare NULL
            // literal's column in SELECT INTO.
            code::NULL => fixed(T::Int, 0),
            code::INT1 => fixed(T::TinyInt, 1),
            code::BIT => fixed(T::Bit, 1),
            code::INT2 => fixed(T::SmallInt, 2),
            code::INT4 => fixed(T::Int, 4),
            code::INT8 => fixed(T::BigInt, 8),
            code::DATETIME4 => fixed(T::SmallDateTime, 4),
            code::DATETIME => fixed(T::DateTime, 8),
            code::FLOAT4 => fixed(T::Real, 4),
            code::FLOAT8 => fixed(T::Float, 8),
            code::MONEY4 => fixed(T::SmallMoney, 4),
            code::MONEY => fixed(T::Money, 8),
            code::INTN => byte_len(match reader.u8()? {
                1 => T::TinyInt,
                2 => T::SmallInt,
                4 => T::Int,
                8 => T::BigInt,
                n => return Err(bad_size(type_code, n)),
            }),
            code::BITN => byte_len(match reader.u8()? {
                1 => T::Bit,
                n => return Err(bad_size(type_code, n)),
            }),
            code::FLOATN => byte_len(match reader.u8()? {
                4 => T::Real,
                8 => T::Float,
                n => return Err(bad_size(type_code, n)),
            }),
            code::MONEYN => byte_len(match reader.u8()? {
                4 => T::SmallMoney,
                8 => T::Money,
                n => return Err(bad_size(type_code, n)),
            }),
            code::DATETIMEN => byte_len(match reader.u8()? {
                4 => T::SmallDateTime,
                8 => T::DateTime,
                n => return Err(bad_size(type_code, n)),
            }),
            code::GUID => byte_len(match reader.u8()? {
                16 => T::UniqueIdentifier,
                n => return Err(bad_size(type_code, n)),
            }),
            code::DECIMAL | code::NUMERIC | code::DECIMALN | code::NUMERICN => {
                let _size = reader.u8()?;
                let precision = reader.u8()?;
                let scale = reader.u8()?;
                if !(1..=38).contains(&precision) || scale > precision {
                    return Err(ProtocolError::new(format!(
                        "decimal precision {precision} and scale {scale} out of range"
                    )));
                }
                byte_len(T::Decimal { precision, scale })
            }
            code::DATEN => byte_len(T::Date),
            code::TIMEN | code::DATETIME2N | code::DATETIMEOFFSETN => {
                let scale = reader.u8()?;
                if scale > MAX_FRACTION_SCALE {
                    return Err(ProtocolError::new(format!(
                        "time scale {scale} out of range"
                    )));
                }
                byte_len(match type_code {
                    code::TIMEN => T::Time { scale },
                    code::DATETIME2N => T::DateTime2 { scale },
                    _ => T::DateTimeOffset { scale },
                })
            }
            code::CHAR | code::VARCHAR | code::BINARY | code::VARBINARY => {
                let len = u32::from(reader.u8()?.max(1));
                byte_len(match type_code {
                    code::CHAR => T::Char {
                        len,
                        collation: Collation::default(),
                    },
                    code::VARCHAR => T::VarChar {
                        len: Length::Bounded(len),
                        collation: Collation::default(),
                    },
                    code::BINARY => T::Binary { len },
                    _ => T::VarBinary {
                        len: Length::Bounded(len),
                    },
                })
            }
            code::BIGCHAR | code::BIGVARCHAR | code::NCHAR | code::NVARCHAR => {
                let max = reader.u16()?;
                let (collation, utf8) = collation_from_bytes(reader.take(5)?);
                let unicode = matches!(type_code, code::NCHAR | code::NVARCHAR);
                let len = if max == 0xFFFF {
                    if matches!(type_code, code::BIGCHAR | code::NCHAR) {
                        return Err(bad_size(type_code, 0xFF));
                    }
                    Length::Max
                } else if max > 8000 {
                    return Err(ProtocolError::new(format!(
                        "type 0x{type_code:02X} length {max} out of range"
                    )));
                } else {
                    Length::Bounded(u32::from(if unicode { max / 2 } else { max }).max(1))
                };
                let bounded = match len {
                    Length::Bounded(n) => n,
                    Length::Max => 0,
                };
                let data_type = match type_code {
                    code::BIGCHAR => T::Char {
                        len: bounded,
                        collation,
                    },
                    code::NCHAR => T::NChar {
                        len: bounded,
                        collation,
                    },
                    code::BIGVARCHAR => T::VarChar { len, collation },
                    _ => T::NVarChar { len, collation },
                };
                TypeInfo {
                    framing: if len == Length::Max {
                        Framing::Plp
                    } else {
                        Framing::UShortLen
                    },
                    data_type,
                    code: type_code,
                    utf8,
                }
            }
            code::BIGBINARY | code::BIGVARBINARY => {
                let max = reader.u16()?;
                let (len, framing) = match max {
                    0xFFFF if type_code == code::BIGVARBINARY => (Length::Max, Framing::Plp),
                    0..=8000 => (Length::Bounded(u32::from(max.max(1))), Framing::UShortLen),
                    _ => return Err(bad_size(type_code, 0xFF)),
                };
                let data_type = match (type_code, len) {
                    (code::BIGBINARY, Length::Bounded(len)) => T::Binary { len },
                    _ => T::VarBinary { len },
                };
                TypeInfo {
                    data_type,
                    framing,
                    code: type_code,
                    utf8: false,
                }
            }
            code::TEXT | code::NTEXT | code::IMAGE => {
                let _max = reader.u32()?;
                let (collation, utf8) = if type_code == code::IMAGE {
                    (Collation::default(), false)
                } else {
                    collation_from_bytes(reader.take(5)?)
                };
                let data_type = match type_code {
                    code::TEXT => T::VarChar {
                        len: Length::Max,
                        collation,
                    },
                    code::NTEXT => T::NVarChar {
                        len: Length::Max,
                        collation,
                    },
                    _ => T::VarBinary { len: Length::Max },
                };
                TypeInfo {
                    data_type,
                    framing: Framing::LongLen,
                    code: type_code,
                    utf8,
                }
            }
            code::SQL_VARIANT | code::UDT | code::XML => {
                return Err(ProtocolError::new(format!(
                    "data type 0x{type_code:02X} ({}) is not supported by hekla",
                    match type_code {
                        code::SQL_VARIANT => "sql_variant",
                        code::UDT => "CLR type",
                        _ => "xml",
                    }
                )))
            }
            _ => {
                return Err(ProtocolError::new(format!(
                    "data type 0x{type_code:02X} is unknown"
                )))
            }
        };
        Ok(info)
    }

    /// Reads a value of this type.
    pub fn decode_value(&self, reader: &mut Reader) -> WireResult<Value> {
        let plp;
        let bytes: &[u8] = match self.framing {
            Framing::Fixed(0) => return Ok(Value::Null),
            Framing::Fixed(size) => reader.take(size)?,
            Framing::ByteLen => match reader.u8()? {
                0 => return Ok(Value::Null),
                len => reader.take(usize::from(len))?,
            },
            Framing::UShortLen => match reader.u16()? {
                0xFFFF => return Ok(Value::Null),
                len => reader.take(usize::from(len))?,
            },
            Framing::LongLen => match reader.u32()? {
                0xFFFF_FFFF => return Ok(Value::Null),
                len => reader.take(len as usize)?,
            },
            Framing::Plp => match read_plp(reader)? {
                None => return Ok(Value::Null),
                Some(bytes) => {
                    plp = bytes;
                    &plp
                }
            },
        };
        self.value_from_bytes(bytes)
    }

    fn value_from_bytes(&self, bytes: &[u8]) -> WireResult<Value> {
        use DataType as T;
        let invalid = || {
            ProtocolError::new(format!(
                "invalid {}-byte value for {}",
                bytes.len(),
                self.data_type.sql_name()
            ))
        };
        let exact = |n: usize| -> WireResult<&[u8]> {
            (bytes.len() == n).then_some(bytes).ok_or_else(invalid)
        };
        let le = |slice: &[u8]| -> u64 {
            slice
                .iter()
                .rev()
                .fold(0u64, |acc, &b| (acc << 8) | u64::from(b))
        };
        let value = match self.data_type {
            T::Bit => Value::Bit(exact(1)?[0] != 0),
            T::TinyInt => Value::TinyInt(exact(1)?[0]),
            T::SmallInt => Value::SmallInt(le(exact(2)?) as u16 as i16),
            T::Int => Value::Int(le(exact(4)?) as u32 as i32),
            T::BigInt => Value::BigInt(le(exact(8)?) as i64),
            T::Real => Value::Real(f32::from_bits(le(exact(4)?) as u32)),
            T::Float => Value::Float(f64::from_bits(le(exact(8)?))),
            T::SmallMoney => Value::Money(Money(i64::from(le(exact(4)?) as u32 as i32))),
            T::Money => {
                let b = exact(8)?;
                let high = le(&b[..4]) as u32 as i32;
                let low = le(&b[4..]) as u32;
                Value::Money(Money((i64::from(high) << 32) | i64::from(low)))
            }
            T::Decimal { precision, scale } => {
                let (&sign, magnitude) = bytes.split_first().ok_or_else(invalid)?;
                if magnitude.len() > 16 {
                    return Err(invalid());
                }
                let magnitude = magnitude
                    .iter()
                    .rev()
                    .fold(0u128, |acc, &b| (acc << 8) | u128::from(b));
                let magnitude = i128::try_from(magnitude).map_err(|_| invalid())?;
                let mantissa = if sign == 0 { -magnitude } else { magnitude };
                Value::Decimal(Decimal::new(mantissa, precision, scale).map_err(|_| invalid())?)
            }
            T::Date => {
                let date = Date(le(exact(3)?) as i32);
                date.is_valid()
                    .then_some(Value::Date(date))
                    .ok_or_else(invalid)?
            }
            T::Time { scale } => {
                Value::Time(read_time(exact(time_size(scale))?, scale).ok_or_else(invalid)?)
            }
            T::DateTime2 { scale } => {
                let b = exact(time_size(scale) + 3)?;
                let (time, date) = b.split_at(time_size(scale));
                let value = DateTime2 {
                    date: Date(le(date) as i32),
                    time: read_time(time, scale).ok_or_else(invalid)?,
                };
                value
                    .is_valid()
                    .then_some(Value::DateTime2(value))
                    .ok_or_else(invalid)?
            }
            T::DateTimeOffset { scale } => {
                let b = exact(time_size(scale) + 5)?;
                let (time, rest) = b.split_at(time_size(scale));
                let value = DateTimeOffset {
                    utc: DateTime2 {
                        date: Date(le(&rest[..3]) as i32),
                        time: read_time(time, scale).ok_or_else(invalid)?,
                    },
                    offset_minutes: le(&rest[3..]) as u16 as i16,
                };
                value
                    .is_valid()
                    .then_some(Value::DateTimeOffset(value))
                    .ok_or_else(invalid)?
            }
            T::DateTime => {
                let b = exact(8)?;
                let value = DateTime {
                    days: le(&b[..4]) as u32 as i32,
                    ticks: le(&b[4..]) as u32,
                };
                value
                    .is_valid()
                    .then_some(Value::DateTime(value))
                    .ok_or_else(invalid)?
            }
            T::SmallDateTime => {
                let b = exact(4)?;
                let value = SmallDateTime {
                    days: le(&b[..2]) as u16,
                    minutes: le(&b[2..]) as u16,
                };
                value
                    .is_valid()
                    .then_some(Value::SmallDateTime(value))
                    .ok_or_else(invalid)?
            }
            T::UniqueIdentifier => {
                let mut uuid = [0u8; 16];
                uuid.copy_from_slice(exact(16)?);
                Value::UniqueIdentifier(Uuid(uuid))
            }
            T::Char { .. } | T::VarChar { .. } if self.utf8 => {
                Value::String(String::from_utf8(bytes.to_vec()).map_err(|_| invalid())?)
            }
            T::Char { .. } | T::VarChar { .. } => {
                Value::String(bytes.iter().map(|&b| cp1252_char(b)).collect())
            }
            T::NChar { .. } | T::NVarChar { .. } => {
                Value::String(crate::wire::utf16_to_string(bytes)?)
            }
            T::Binary { .. } | T::VarBinary { .. } => Value::Binary(bytes.to_vec()),
        };
        Ok(value)
    }
}

fn read_time(bytes: &[u8], scale: u8) -> Option<Time> {
    let units = bytes
        .iter()
        .rev()
        .fold(0u64, |acc, &b| (acc << 8) | u64::from(b));
    let ticks = units.checked_mul(10u64.pow(u32::from(MAX_FRACTION_SCALE - scale)))?;
    (ticks < TICKS_PER_DAY).then_some(Time(ticks))
}

/// Reads a PLP value; None for NULL. The chunks are copied out of the
/// message, so the size is bounded by the message's.
pub fn read_plp(reader: &mut Reader) -> WireResult<Option<Vec<u8>>> {
    let total = reader.u64()?;
    if total == PLP_NULL {
        return Ok(None);
    }
    if total != PLP_UNKNOWN_LENGTH && total > reader.remaining() as u64 {
        return Err(ProtocolError::new("PLP length exceeds the message"));
    }
    let mut data = Vec::new();
    loop {
        let chunk = reader.u32()? as usize;
        if chunk == 0 {
            break;
        }
        data.extend_from_slice(reader.take(chunk)?);
    }
    if total != PLP_UNKNOWN_LENGTH && total != data.len() as u64 {
        return Err(ProtocolError::new("PLP chunks do not add up to its length"));
    }
    Ok(Some(data))
}

fn bad_size(type_code: u8, size: u8) -> ProtocolError {
    ProtocolError::new(format!(
        "data type 0x{type_code:02X} has an invalid data length or metadata length ({size})"
    ))
}

#[cfg(test)]
mod tests;
