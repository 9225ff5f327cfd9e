//! Column data types and their stored form.

use crate::{Collation, KeyHasher, SqlResult, Value};
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
    Decimal { precision: u8, scale: u8 },
    Money,
    SmallMoney,
    Float,
    Real,
    Date,
    /// time(n), 0 <= n <= 7 fractional-second digits.
    Time { scale: u8 },
    DateTime,
    DateTime2 { scale: u8 },
    SmallDateTime,
    DateTimeOffset { scale: u8 },
    UniqueIdentifier,
    Char { len: u32, collation: Collation },
    VarChar { len: Length, collation: Collation },
    NChar { len: u32, collation: Collation },
    NVarChar { len: Length, collation: Collation },
    Binary { len: u32 },
    VarBinary { len: Length },
}

impl DataType {
    pub fn storage(&self) -> Storage {
        todo!()
    }

    /// SQL Server's spelling, e.g. `nvarchar(25)`, `decimal(18,2)`, `varbinary(max)`.
    pub fn sql_name(&self) -> String {
        todo!()
    }

    /// Appends the stored form of non-null `value` to `out`. The value must
    /// already be of this type's family (conversions are the SQL layer's job);
    /// lengths, precisions and ranges are checked here.
    pub fn encode(&self, value: &Value, out: &mut Vec<u8>) -> SqlResult<()> {
        todo!()
    }

    /// The value whose stored form is `bytes` (which `encode` produced).
    pub fn decode(&self, bytes: &[u8]) -> Value {
        todo!()
    }

    /// Equality of two stored forms under this type's comparison rules.
    pub fn stored_eq(&self, a: &[u8], b: &[u8]) -> bool {
        todo!()
    }

    pub fn stored_cmp(&self, a: &[u8], b: &[u8]) -> Ordering {
        todo!()
    }

    /// Hashes a stored form; `stored_eq(a, b)` implies equal hashes.
    pub fn stored_hash(&self, bytes: &[u8], h: &mut KeyHasher) {
        todo!()
    }
}
