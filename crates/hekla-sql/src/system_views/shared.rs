//! What several views share: column and value builders, and the ids hekla
//! gives things SQL Server numbers (index ids, the memory-optimized
//! filegroup).

use super::ViewColumn;
use hekla_types::{Collation, DataType, DateTime, DateTime2, Length, Value};

// ---- columns --------------------------------------------------------------

pub fn not_null(name: &'static str, data_type: DataType) -> ViewColumn {
    ViewColumn {
        name,
        data_type,
        nullable: false,
    }
}

pub fn nullable(name: &'static str, data_type: DataType) -> ViewColumn {
    ViewColumn {
        name,
        data_type,
        nullable: true,
    }
}

pub fn nvarchar(len: u32) -> DataType {
    DataType::NVarChar {
        len: Length::Bounded(len),
        collation: Collation::default(),
    }
}

pub fn nvarchar_max() -> DataType {
    DataType::NVarChar {
        len: Length::Max,
        collation: Collation::default(),
    }
}

/// `sysname`: nvarchar(128).
pub fn sysname() -> DataType {
    nvarchar(128)
}

pub fn varbinary(len: u32) -> DataType {
    DataType::VarBinary {
        len: Length::Bounded(len),
    }
}

pub fn varchar(len: u32) -> DataType {
    DataType::VarChar {
        len: Length::Bounded(len),
        collation: Collation::default(),
    }
}

pub fn char(len: u32) -> DataType {
    DataType::Char {
        len,
        collation: Collation::default(),
    }
}

pub fn nchar(len: u32) -> DataType {
    DataType::NChar {
        len,
        collation: Collation::default(),
    }
}

// ---- values ---------------------------------------------------------------

pub fn text(s: impl Into<String>) -> Value {
    Value::String(s.into())
}

/// A char(n) / nchar(n) value, space-padded to `n` as SQL Server stores it.
pub fn padded(s: &str, n: usize) -> Value {
    Value::String(format!("{s:<n$}"))
}

pub fn bit(b: bool) -> Value {
    Value::Bit(b)
}

pub fn int(n: i32) -> Value {
    Value::Int(n)
}

pub fn smallint(n: i16) -> Value {
    Value::SmallInt(n)
}

pub fn tinyint(n: u8) -> Value {
    Value::TinyInt(n)
}

/// A count or size as bigint (saturating: no hekla figure comes near 2^63).
pub fn bigint(n: u64) -> Value {
    Value::BigInt(i64::try_from(n).unwrap_or(i64::MAX))
}

/// An int count (saturating, as SQL Server's int counters do not wrap
/// into negatives either).
pub fn int_count(n: u64) -> Value {
    Value::Int(i32::try_from(n).unwrap_or(i32::MAX))
}

/// Bytes in whole kilobytes, as the `*_kb` columns count them.
pub fn kb(bytes: u64) -> Value {
    bigint(bytes / 1024)
}

pub fn or_null<T>(value: Option<T>, make: impl FnOnce(T) -> Value) -> Value {
    value.map_or(Value::Null, make)
}

/// 100 ns ticks from 0001-01-01 to the Unix epoch.
const UNIX_EPOCH_TICKS: i64 = 621_355_968_000_000_000;

/// A `datetime` from milliseconds since the Unix epoch (the catalog's
/// clock), rounded to datetime's 1/300 s.
pub fn datetime_ms(ms: i64) -> Value {
    let ticks = UNIX_EPOCH_TICKS.saturating_add(ms.saturating_mul(10_000));
    DateTime::from_datetime2(DateTime2::from_ticks(ticks)).map_or(Value::Null, Value::DateTime)
}

/// A `datetime` from a point in time.
pub fn datetime_at(time: std::time::SystemTime) -> Value {
    let since_epoch = time
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    datetime_ms(i64::try_from(since_epoch.as_millis()).unwrap_or(i64::MAX))
}

// ---- ids ------------------------------------------------------------------

/// `index_id` of a table's row heap: SQL Server's heap id. Every hekla
/// table keeps its rows in a heap the indexes point into.
pub const HEAP_INDEX_ID: i32 = 0;

/// `index_id` of the table's index at engine ordinal `ordinal`. Ids 0 and
/// 1 are the heap and a clustered index; memory-optimized tables have no
/// clustered index, so their indexes start at 2, as in SQL Server.
pub fn index_id(ordinal: usize) -> i32 {
    i32::try_from(ordinal).map_or(i32::MAX, |n| n.saturating_add(2))
}

/// `data_space_id` of the memory-optimized data filegroup, the only data
/// space a hekla database has (every table lives in it).
pub const MEMORY_OPTIMIZED_DATA_SPACE: i32 = 1;
pub const MEMORY_OPTIMIZED_FILEGROUP: &str = "hekla_mod";
/// `file_id` of the filegroup's container (SQL Server numbers FILESTREAM
/// containers, which memory-optimized data lives in, from 65537).
pub const CONTAINER_FILE_ID: i32 = 65_537;
/// `file_id` of the log (SQL Server's usual id for the first log file).
pub const LOG_FILE_ID: i32 = 2;
