//! hekla's storage engine: memory-optimized tables, optimistic multi-version
//! concurrency control, latch-free hash indexes and garbage collection.
//!
//! The API is typed: tables, column ordinals, [`hekla_types::Value`]s and
//! transactions. There is no SQL here.
//!
//! ```
//! use hekla_engine::*;
//! use hekla_types::{DataType, Value};
//!
//! let db = Database::default();
//! let accounts = db.create_table(TableDef::new(
//!     "accounts",
//!     vec![
//!         ColumnDef::new("id", DataType::Int, false),
//!         ColumnDef::new("balance", DataType::BigInt, false),
//!     ],
//!     vec![IndexDef::hash("pk", &[0], 1024, Uniqueness::PrimaryKey)],
//! ))?;
//! let mut tx = db.begin(IsolationLevel::Snapshot)?;
//! tx.insert(&accounts, &[Value::Int(1), Value::BigInt(100)])?;
//! tx.commit()?;
//!
//! let mut tx = db.begin(IsolationLevel::Snapshot)?;
//! let row = tx.get(&accounts, 0, &[Value::Int(1)])?.expect("row 1");
//! assert_eq!(tx.row(&accounts, row)?.value(1), Value::BigInt(100));
//! tx.update(&accounts, row, &[(1, Value::BigInt(90))])?;
//! tx.commit()?;
//! # Ok::<(), hekla_types::SqlError>(())
//! ```

pub mod btree;
pub mod catalog;
mod database;
pub mod durability;
pub mod errors;
mod gc;
mod hash_index;
mod heap;
mod layout;
pub mod log;
mod memory;
mod range_index;
mod sharding;
pub mod stats;
mod table;
mod transaction;
mod txn_table;
mod version;
mod visibility;
mod word;

pub use catalog::{
    ColumnDef, Durability, IndexDef, IndexKind, SchemaId, TableDef, TableId, Uniqueness,
};
pub use database::{Database, DatabaseConfig};
pub use durability::{
    CheckpointFileInfo, CheckpointReport, CheckpointTrigger, CompletedCheckpoint, DatabaseOptions,
    DelayedDurability, FileState, FileType, LogStats, RecoveryModel, RecoveryReport, StorageConfig,
    UserAccess,
};
pub use hash_index::HashIndexStats;
pub use heap::HeapStats;
pub use layout::FixedPlace;
pub use log::{CommitLog, CommitRecord, RowChange};
pub use memory::default_memory_limit;
pub use range_index::RangeIndexStats;
pub use stats::{AbortReason, DatabaseStats};
pub use table::{IndexStats, Table, TableMemoryStats};
pub use transaction::{
    Dependencies, IsolationLevel, KeyRange, Payloads, Row, RowId, Savepoint, Transaction,
    SCAN_BATCH_ROWS,
};
pub use txn_table::{ActiveTransaction, TxnState, MAX_TRANSACTIONS};
