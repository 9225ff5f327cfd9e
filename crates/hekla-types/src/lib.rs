//! SQL Server data types as engine values.
//!
//! Every layer of hekla agrees on these: the engine stores values in their
//! *stored form* ([`DataType::encode`]), hashes and compares that form under
//! the column's collation, and orders index keys by [`key`] encoding.

pub mod collation;
pub mod convert;
pub mod datatype;
pub mod datetime;
pub mod decimal;
pub mod error;
pub mod hash;
pub mod key;
pub mod money;
pub mod ops;
pub mod uuid;
pub mod value;

mod stored;

pub use collation::Collation;
pub use convert::{conversion, convert, Conversion};
pub use datatype::{DataType, Length, Storage};
pub use datetime::{Date, DateTime, DateTime2, DateTimeOffset, SmallDateTime, Time};
pub use decimal::{Decimal, DecimalOp};
pub use error::{SqlError, SqlResult};
pub use hash::KeyHasher;
pub use key::{encode_key, encode_key_from_stored, encode_key_prefix, prefix_successor, SortOrder};
pub use money::Money;
pub use uuid::Uuid;
pub use value::Value;
