//! Column data types and their stored form.
//!
//! Stored forms (what [`DataType::encode`] appends):
//!
//! | type | bytes |
//! |---|---|
//! | bit, tinyint | 1 |
//! | smallint | 2, i16 LE |
//! | int / bigint | 4 / 8, LE |
//! | decimal(p,s) | p<=9: 4, p<=18: 8, else 16; the mantissa at scale `s`, two's complement LE |
//! | money / smallmoney | 8 / 4, ten-thousandths LE |
//! | float / real | 8 / 4, IEEE LE, -0.0 stored as 0.0 |
//! | date | 4, i32 days since 0001-01-01 |
//! | time(n) | 8, u64 100 ns ticks, rounded to n digits |
//! | datetime | 8, i32 days since 1900-01-01 + u32 1/300 s ticks |
//! | datetime2(n) | 8, i64 100 ns ticks since 0001-01-01, rounded to n digits |
//! | smalldatetime | 4, u16 days since 1900-01-01 + u16 minutes |
//! | datetimeoffset(n) | 10, UTC datetime2 ticks + i16 offset minutes |
//! | uniqueidentifier | 16, SQL Server's byte layout |
//! | char, varchar, nchar, nvarchar | UTF-8; char(n)/nchar(n) space-padded to n |
//! | binary, varbinary | the bytes; binary(n) zero-padded to n |
//!
//! Every fixed-width form is canonical (equal values have equal bytes), except
//! datetimeoffset, whose offset does not take part in comparisons.

mod codec;
pub(crate) mod compare;

use crate::decimal::check_type;
use crate::stored::decimal_width;
use crate::{Collation, KeyHasher, SqlError, SqlResult, Value};
use std::cmp::Ordering;

/// `n` in `varchar(n)` or `max`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Length {
    Bounded(u32),
    Max,
}

/// How a type's stored form is laid out in a row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Storage {
    /// Always exactly this many bytes.
    Fixed(usize),
    /// A byte string of varying length, at most `max_bytes` (None: `max` types).
    Variable { max_bytes: Option<u32> },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DataType {
    Bit,
    TinyInt,
    SmallInt,
    Int,
    BigInt,
    /// decimal(p, s) and numeric(p, s): 1 <= p <= 38, 0 <= s <= p.
    Decimal {
        precision: u8,
        scale: u8,
    },
    Money,
    SmallMoney,
    Float,
    Real,
    Date,
    /// time(n), 0 <= n <= 7 fractional-second digits.
    Time {
        scale: u8,
    },
    DateTime,
    DateTime2 {
        scale: u8,
    },
    SmallDateTime,
    DateTimeOffset {
        scale: u8,
    },
    UniqueIdentifier,
    Char {
        len: u32,
        collation: Collation,
    },
    VarChar {
        len: Length,
        collation: Collation,
    },
    NChar {
        len: u32,
        collation: Collation,
    },
    NVarChar {
        len: Length,
        collation: Collation,
    },
    Binary {
        len: u32,
    },
    VarBinary {
        len: Length,
    },
}

/// Longest char/varchar/binary/varbinary (bytes) and nchar/nvarchar
/// (characters) that is not `max`.
pub const MAX_BYTE_LENGTH: u32 = 8000;
pub const MAX_NCHAR_LENGTH: u32 = 4000;

/// UTF-8 bytes per counted unit: a varchar character (counted as one byte in
/// Windows-1252) can take up to 4 UTF-8 bytes; an nvarchar UTF-16 code unit
/// at most 3 (a surrogate pair, two units, takes 4).
const UTF8_PER_CHAR: u32 = 4;
const UTF8_PER_UTF16_UNIT: u32 = 3;

impl DataType {
    pub fn storage(&self) -> Storage {
        use DataType::*;
        let variable = |max_bytes| Storage::Variable { max_bytes };
        let bounded = |len: Length, per_unit: u32| match len {
            Length::Bounded(n) => variable(Some(n.saturating_mul(per_unit))),
            Length::Max => variable(None),
        };
        match *self {
            Bit | TinyInt => Storage::Fixed(1),
            SmallInt => Storage::Fixed(2),
            Int | SmallMoney | Real | Date | SmallDateTime => Storage::Fixed(4),
            BigInt | Money | Float | Time { .. } | DateTime | DateTime2 { .. } => Storage::Fixed(8),
            Decimal { precision, .. } => Storage::Fixed(decimal_width(precision)),
            DateTimeOffset { .. } => Storage::Fixed(10),
            UniqueIdentifier => Storage::Fixed(16),
            Char { len, .. } => bounded(Length::Bounded(len), UTF8_PER_CHAR),
            VarChar { len, .. } => bounded(len, UTF8_PER_CHAR),
            NChar { len, .. } => bounded(Length::Bounded(len), UTF8_PER_UTF16_UNIT),
            NVarChar { len, .. } => bounded(len, UTF8_PER_UTF16_UNIT),
            Binary { len } => bounded(Length::Bounded(len), 1),
            VarBinary { len } => bounded(len, 1),
        }
    }

    /// SQL Server's spelling, e.g. `nvarchar(25)`, `decimal(18,2)`, `varbinary(max)`.
    pub fn sql_name(&self) -> String {
        use DataType::*;
        let len = |l: Length| match l {
            Length::Bounded(n) => n.to_string(),
            Length::Max => "max".to_string(),
        };
        match *self {
            Bit => "bit".into(),
            TinyInt => "tinyint".into(),
            SmallInt => "smallint".into(),
            Int => "int".into(),
            BigInt => "bigint".into(),
            Decimal { precision, scale } => format!("decimal({precision},{scale})"),
            Money => "money".into(),
            SmallMoney => "smallmoney".into(),
            Float => "float".into(),
            Real => "real".into(),
            Date => "date".into(),
            Time { scale } => format!("time({scale})"),
            DateTime => "datetime".into(),
            DateTime2 { scale } => format!("datetime2({scale})"),
            SmallDateTime => "smalldatetime".into(),
            DateTimeOffset { scale } => format!("datetimeoffset({scale})"),
            UniqueIdentifier => "uniqueidentifier".into(),
            Char { len: n, .. } => format!("char({n})"),
            VarChar { len: l, .. } => format!("varchar({})", len(l)),
            NChar { len: n, .. } => format!("nchar({n})"),
            NVarChar { len: l, .. } => format!("nvarchar({})", len(l)),
            Binary { len: n } => format!("binary({n})"),
            VarBinary { len: l } => format!("varbinary({})", len(l)),
        }
    }

    /// The collation of a character type.
    pub fn collation(&self) -> Option<Collation> {
        match *self {
            DataType::Char { collation, .. }
            | DataType::VarChar { collation, .. }
            | DataType::NChar { collation, .. }
            | DataType::NVarChar { collation, .. } => Some(collation),
            _ => None,
        }
    }

    /// Checks the type's parameters as `CREATE TABLE` would: decimal
    /// precision and scale (Msg 2750/2751), fractional-second scale
    /// (Msg 1002), lengths (Msg 1001 for 0, Msg 131 above the maximum).
    pub fn validate(&self) -> SqlResult<()> {
        use DataType::*;
        match *self {
            Decimal { precision, scale } => check_type(precision, scale),
            Time { scale } | DateTime2 { scale } | DateTimeOffset { scale } => {
                if scale > crate::datetime::MAX_FRACTION_SCALE {
                    Err(SqlError::new(
                        1002,
                        15,
                        1,
                        format!("Line 1: Specified scale {scale} is invalid."),
                    ))
                } else {
                    Ok(())
                }
            }
            Char { len, .. } | Binary { len } => check_length(self, len, MAX_BYTE_LENGTH),
            VarChar {
                len: Length::Bounded(len),
                ..
            }
            | VarBinary {
                len: Length::Bounded(len),
            } => check_length(self, len, MAX_BYTE_LENGTH),
            NChar { len, .. }
            | NVarChar {
                len: Length::Bounded(len),
                ..
            } => check_length(self, len, MAX_NCHAR_LENGTH),
            _ => Ok(()),
        }
    }

    /// Appends the stored form of non-null `value` to `out`. The value must
    /// already be of this type's family (conversions are the SQL layer's job);
    /// lengths, precisions and ranges are checked here.
    ///
    /// Within a family, values are fitted to the column the way assignment
    /// does: any integer variant goes into any integer type (range-checked),
    /// float and real into either, decimals and times are rounded to the
    /// column's scale, and strings whose excess characters are all spaces are
    /// cut without error. On error nothing is appended.
    pub fn encode(&self, value: &Value, out: &mut Vec<u8>) -> SqlResult<()> {
        let start = out.len();
        let result = codec::encode(self, value, out);
        if result.is_err() {
            out.truncate(start);
        }
        result
    }

    /// The value whose stored form is `bytes` (which `encode` produced).
    pub fn decode(&self, bytes: &[u8]) -> Value {
        codec::decode(self, bytes)
    }

    /// Equality of two stored forms under this type's comparison rules.
    pub fn stored_eq(&self, a: &[u8], b: &[u8]) -> bool {
        compare::eq(self, a, b)
    }

    pub fn stored_cmp(&self, a: &[u8], b: &[u8]) -> Ordering {
        compare::cmp(self, a, b)
    }

    /// Hashes a stored form; `stored_eq(a, b)` implies equal hashes.
    pub fn stored_hash(&self, bytes: &[u8], h: &mut KeyHasher) {
        compare::hash(self, bytes, h)
    }
}

fn check_length(ty: &DataType, len: u32, max: u32) -> SqlResult<()> {
    if len == 0 {
        return Err(SqlError::new(
            1001,
            15,
            1,
            "Line 1: Length or precision specification 0 is invalid.",
        ));
    }
    if len > max {
        let name = ty.sql_name();
        let family = name.split('(').next().unwrap_or_default();
        return Err(SqlError::new(
            131,
            15,
            2,
            format!(
                "The size ({len}) given to the type '{family}' exceeds the maximum allowed for any data type ({max})."
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests;
