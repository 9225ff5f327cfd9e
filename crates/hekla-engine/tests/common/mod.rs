//! Helpers shared by the integration tests: the `accounts` table, balance
//! reads and writes, error assertions and a tiny deterministic RNG.
//!
//! Each test binary uses a different subset, hence the `dead_code` allowance.
#![allow(dead_code)]

use hekla_engine::{
    ColumnDef, Database, IndexDef, IsolationLevel, Table, TableDef, Transaction, Uniqueness,
};
use hekla_types::{Collation, DataType, Length, SortOrder, SqlError, SqlResult, Value};
use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub const WRITE_CONFLICT: u32 = 41302;
pub const REPEATABLE_READ_FAILURE: u32 = 41305;
pub const SERIALIZABLE_FAILURE: u32 = 41325;
pub const DEPENDENCY_FAILURE: u32 = 41301;
pub const DUPLICATE_CONSTRAINT: u32 = 2627;
pub const DUPLICATE_INDEX: u32 = 2601;
pub const DOOMED: u32 = 3930;

// SQL Server's texts, spelled out here rather than taken from the engine so
// that a change to them fails a test.
pub const MSG_41302: &str = "The current transaction attempted to update a record that has been updated since this transaction started. The transaction was aborted.";
pub const MSG_41305: &str =
    "The current transaction failed to commit due to a repeatable read validation failure.";
pub const MSG_41325: &str =
    "The current transaction failed to commit due to a serializable validation failure.";
pub const MSG_3930: &str = "The current transaction cannot be committed and cannot support operations that write to the log file. Roll back the transaction.";

pub fn varchar(len: u32) -> DataType {
    DataType::VarChar {
        len: Length::Bounded(len),
        collation: Collation::default(),
    }
}

/// `accounts(id int PRIMARY KEY NONCLUSTERED HASH (pk), balance bigint)`.
pub fn accounts_def(bucket_count: u64) -> TableDef {
    TableDef::new(
        "accounts",
        vec![
            ColumnDef::new("id", DataType::Int, false),
            ColumnDef::new("balance", DataType::BigInt, false),
        ],
        vec![IndexDef::hash(
            "pk",
            &[0],
            bucket_count,
            Uniqueness::PrimaryKey,
        )],
    )
}

/// `accounts` with its primary key as a range (NONCLUSTERED) index.
pub fn accounts_range_def() -> TableDef {
    let mut def = accounts_def(1);
    def.indexes = vec![IndexDef::range(
        "pk",
        &[(0, SortOrder::Ascending)],
        Uniqueness::PrimaryKey,
    )];
    def
}

pub fn create_accounts(db: &Database) -> Arc<Table> {
    db.create_table(accounts_def(1024))
        .expect("create accounts")
}

/// Inserts `(id, balance)` rows in one committed transaction.
pub fn seed(db: &Database, table: &Arc<Table>, rows: &[(i32, i64)]) {
    let mut tx = db.begin(IsolationLevel::Snapshot).expect("begin");
    for &(id, balance) in rows {
        tx.insert(table, &[Value::Int(id), Value::BigInt(balance)])
            .expect("seed insert");
    }
    tx.commit().expect("seed commit");
}

pub fn int(value: &Value) -> i32 {
    match value {
        Value::Int(v) => *v,
        other => panic!("expected an int, got {other:?}"),
    }
}

pub fn bigint(value: &Value) -> i64 {
    match value {
        Value::BigInt(v) => *v,
        other => panic!("expected a bigint, got {other:?}"),
    }
}

/// Account `id`'s balance as `tx` sees it, through the primary key.
pub fn try_balance(tx: &mut Transaction, table: &Arc<Table>, id: i32) -> SqlResult<Option<i64>> {
    tx.lookup(table, 0, &[Value::Int(id)], |row| {
        ControlFlow::Break(bigint(&row.value(1)))
    })
}

pub fn balance(tx: &mut Transaction, table: &Arc<Table>, id: i32) -> Option<i64> {
    try_balance(tx, table, id).expect("balance lookup")
}

/// Sets account `id`'s balance; the account must be visible to `tx`.
pub fn set_balance(
    tx: &mut Transaction,
    table: &Arc<Table>,
    id: i32,
    balance: i64,
) -> SqlResult<()> {
    let row = tx
        .get(table, 0, &[Value::Int(id)])?
        .unwrap_or_else(|| panic!("account {id} is not visible"));
    tx.update(table, row, &[(1, Value::BigInt(balance))])
        .map(|_| ())
}

/// Adds `delta` to account `id`'s balance; returns the new balance.
pub fn add_balance(
    tx: &mut Transaction,
    table: &Arc<Table>,
    id: i32,
    delta: i64,
) -> SqlResult<i64> {
    let row = tx
        .get(table, 0, &[Value::Int(id)])?
        .unwrap_or_else(|| panic!("account {id} is not visible"));
    let new = bigint(&tx.row(table, row)?.value(1)) + delta;
    tx.update(table, row, &[(1, Value::BigInt(new))])?;
    Ok(new)
}

pub fn delete_account(tx: &mut Transaction, table: &Arc<Table>, id: i32) -> SqlResult<()> {
    let row = tx
        .get(table, 0, &[Value::Int(id)])?
        .unwrap_or_else(|| panic!("account {id} is not visible"));
    tx.delete(table, row)
}

/// Every visible row's values, by a full scan.
pub fn scan_rows(tx: &mut Transaction, table: &Arc<Table>) -> SqlResult<Vec<Vec<Value>>> {
    let mut rows = Vec::new();
    tx.scan::<()>(table, |row| {
        rows.push(row.values());
        ControlFlow::Continue(())
    })?;
    Ok(rows)
}

/// All visible accounts by a full scan; panics if an id shows up twice.
pub fn balances(tx: &mut Transaction, table: &Arc<Table>) -> SqlResult<BTreeMap<i32, i64>> {
    Ok(balances_of(scan_rows(tx, table)?))
}

/// Accounts from scanned rows; panics if an id shows up twice. Call it on
/// rows of a transaction that committed: a speculative read of a writer
/// that then aborts may show both versions of a row, and dooms the reader.
pub fn balances_of(rows: Vec<Vec<Value>>) -> BTreeMap<i32, i64> {
    let mut map = BTreeMap::new();
    for row in rows {
        let id = int(&row[0]);
        let previous = map.insert(id, bigint(&row[1]));
        assert!(previous.is_none(), "account {id} seen twice in one scan");
    }
    map
}

/// The committed accounts, read by a fresh SNAPSHOT transaction.
pub fn committed_balances(db: &Database, table: &Arc<Table>) -> BTreeMap<i32, i64> {
    let mut tx = db.begin(IsolationLevel::Snapshot).expect("begin");
    let map = balances(&mut tx, table).expect("scan");
    tx.commit().expect("read-only commit");
    map
}

/// Asserts that `result` failed with error `number`; returns the error.
#[track_caller]
pub fn expect_err<T: std::fmt::Debug>(result: SqlResult<T>, number: u32) -> SqlError {
    match result {
        Err(error) if error.number == number => error,
        other => panic!("expected error {number}, got {other:?}"),
    }
}

/// Asserts error `number` with exactly SQL Server's `message`.
#[track_caller]
pub fn expect_msg<T: std::fmt::Debug>(result: SqlResult<T>, number: u32, message: &str) {
    let error = expect_err(result, number);
    assert_eq!(error.message, message, "message of error {number}");
}

/// Errors after which a client retries the whole transaction.
pub fn is_retryable(error: &SqlError) -> bool {
    matches!(
        error.number,
        WRITE_CONFLICT | REPEATABLE_READ_FAILURE | SERIALIZABLE_FAILURE | DEPENDENCY_FAILURE
    )
}

/// xorshift64*: deterministic per seed, good enough to pick rows.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
}

/// A scratch directory under the system temp directory, removed when
/// dropped unless the test is failing: then it is kept (and named) for a
/// post-mortem.
pub struct Scratch(pub PathBuf);

impl Scratch {
    pub fn new(name: &str) -> Scratch {
        let path = unique_path(&format!("hekla-{name}"));
        std::fs::create_dir_all(&path).expect("create scratch directory");
        Scratch(path)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("test failed; its files are kept in {}", self.0.display());
        } else {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// A path under the system temp directory no other test uses.
pub fn unique_path(prefix: &str) -> PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("clock after 1970")
        .as_nanos();
    std::env::temp_dir().join(format!("{prefix}-{}-{nanos}", std::process::id()))
}

/// Replaces `to` with a copy of the directory tree `from`.
pub fn copy_dir(from: &Path, to: &Path) {
    let _ = std::fs::remove_dir_all(to);
    std::fs::create_dir_all(to).expect("create copy");
    for entry in std::fs::read_dir(from).expect("list directory") {
        let entry = entry.expect("directory entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("file type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy file");
        }
    }
}
