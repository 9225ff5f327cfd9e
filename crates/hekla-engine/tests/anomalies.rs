//! Golden tests of the isolation anomalies, one per anomaly and isolation
//! level. Each interleaves two transactions deterministically on one thread
//! (both alive at once) and states the outcome SQL Server's In-Memory OLTP
//! gives at SNAPSHOT, REPEATABLE READ and SERIALIZABLE:
//!
//! * reads always come from the transaction's snapshot (its read timestamp),
//!   at every level: no dirty, fuzzy or skewed read is ever *observed*;
//! * writes are first-writer-wins: a second writer of a row gets 41302 at
//!   once and its transaction is aborted;
//! * REPEATABLE READ validates at commit that every row read is unchanged
//!   (41305); SERIALIZABLE also that no scan would find a new row (41325).
//!
//! The level under test is the one of the transaction(s) the anomaly is
//! about; a merely concurrent writer runs at SNAPSHOT. Every scenario runs
//! twice: with `accounts`' primary key as a hash index and as a range
//! index, whose lookups, unique checks and phantom checks differ.

mod common;

use common::*;
use hekla_engine::{
    AbortReason, ColumnDef, Database, IndexDef, IsolationLevel, KeyRange, Table, TableDef,
    Transaction, Uniqueness,
};
use hekla_types::{DataType, Value};
use std::collections::BTreeMap;
use std::ops::{Bound, ControlFlow};
use std::sync::Arc;

use IsolationLevel::{RepeatableRead, Serializable, Snapshot};

/// One `#[test]` per isolation level and primary-key kind for each
/// scenario `fn name(IsolationLevel)`.
macro_rules! per_level {
    ($($scenario:ident),* $(,)?) => {$(
        mod $scenario {
            use super::IsolationLevel::*;
            use super::PkKind::{Hash, Range};
            #[test]
            fn snapshot() {
                super::run(Hash, || super::$scenario(Snapshot))
            }
            #[test]
            fn repeatable_read() {
                super::run(Hash, || super::$scenario(RepeatableRead))
            }
            #[test]
            fn serializable() {
                super::run(Hash, || super::$scenario(Serializable))
            }
            #[test]
            fn snapshot_range_pk() {
                super::run(Range, || super::$scenario(Snapshot))
            }
            #[test]
            fn repeatable_read_range_pk() {
                super::run(Range, || super::$scenario(RepeatableRead))
            }
            #[test]
            fn serializable_range_pk() {
                super::run(Range, || super::$scenario(Serializable))
            }
        }
    )*};
}

#[derive(Clone, Copy)]
enum PkKind {
    Hash,
    Range,
}

thread_local! {
    /// The kind of primary key `bank` gives `accounts` in this test's thread.
    static PK_KIND: std::cell::Cell<PkKind> = const { std::cell::Cell::new(PkKind::Hash) };
}

fn run(kind: PkKind, scenario: impl FnOnce()) {
    PK_KIND.with(|k| k.set(kind));
    scenario();
}

per_level!(
    dirty_write,
    dirty_write_by_insert,
    dirty_read,
    lost_update,
    fuzzy_read,
    read_skew,
    write_skew,
    write_skew_by_insert,
    phantom_by_key,
    phantom_by_scan,
    delete_conflicts,
    read_then_write_own_row,
    phantom_by_range_scan,
    no_phantom_outside_the_range,
    phantom_only_where_a_limited_scan_read,
    range_scan_row_deleted,
);

/// The ids `tx` sees between `low` and `high` (inclusive) through the
/// range primary key, at most `limit` of them, in key order.
fn ids_in_range(
    tx: &mut Transaction,
    table: &Arc<Table>,
    low: i32,
    high: i32,
    limit: usize,
) -> Vec<i32> {
    let range = KeyRange::new(
        Bound::Included(vec![Value::Int(low)]),
        Bound::Included(vec![Value::Int(high)]),
    );
    let mut ids = Vec::new();
    tx.scan_range(table, 0, &range, |row| {
        ids.push(int(&row.value(0)));
        if ids.len() == limit {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    })
    .unwrap();
    ids
}

/// The range-scan scenarios run on a range primary key whatever the kind.
fn range_bank(rows: &[(i32, i64)]) -> (Database, Arc<Table>) {
    PK_KIND.with(|k| k.set(PkKind::Range));
    bank(rows)
}

/// Commits `tx` (which also wrote, so it is not read-only) and expects
/// success, or 41325 at SERIALIZABLE when `phantom`.
fn commit_expecting_phantom(
    mut tx: Transaction,
    table: &Arc<Table>,
    level: IsolationLevel,
    phantom: bool,
) {
    tx.insert(table, &[Value::Int(1000), Value::BigInt(0)])
        .unwrap();
    if phantom && level == Serializable {
        expect_msg(tx.commit(), SERIALIZABLE_FAILURE, MSG_41325);
    } else {
        tx.commit().unwrap();
    }
}

// Phantom (P3) by range scan. T1 scans ids 10..=20 ({10, 20}); T2 inserts
// 15 and commits; T1's re-scan still shows {10, 20}. SNAPSHOT and
// REPEATABLE READ commit; SERIALIZABLE fails with 41325.
fn phantom_by_range_scan(level: IsolationLevel) {
    let (db, accounts) = range_bank(&[(5, 0), (10, 0), (20, 0), (25, 0)]);
    let mut t1 = db.begin(level).unwrap();
    assert_eq!(
        ids_in_range(&mut t1, &accounts, 10, 20, usize::MAX),
        [10, 20]
    );
    let mut t2 = db.begin(Snapshot).unwrap();
    t2.insert(&accounts, &[Value::Int(15), Value::BigInt(0)])
        .unwrap();
    t2.commit().unwrap();
    assert_eq!(
        ids_in_range(&mut t1, &accounts, 10, 20, usize::MAX),
        [10, 20]
    );
    commit_expecting_phantom(t1, &accounts, level, true);
}

// Inserts just outside a scanned range (9 and 21, next to its bounds) are
// not phantoms: T1 commits at every level.
fn no_phantom_outside_the_range(level: IsolationLevel) {
    let (db, accounts) = range_bank(&[(5, 0), (10, 0), (20, 0), (25, 0)]);
    let mut t1 = db.begin(level).unwrap();
    assert_eq!(
        ids_in_range(&mut t1, &accounts, 10, 20, usize::MAX),
        [10, 20]
    );
    let mut t2 = db.begin(Snapshot).unwrap();
    t2.insert(&accounts, &[Value::Int(9), Value::BigInt(0)])
        .unwrap();
    t2.insert(&accounts, &[Value::Int(21), Value::BigInt(0)])
        .unwrap();
    t2.commit().unwrap();
    commit_expecting_phantom(t1, &accounts, level, false);
}

// A scan that stops early (TOP 2) read only up to where it stopped: an
// insert past that point is no phantom, one before it is.
fn phantom_only_where_a_limited_scan_read(level: IsolationLevel) {
    for (insert, phantom) in [(35, false), (15, true)] {
        let (db, accounts) = range_bank(&[(10, 0), (20, 0), (30, 0), (40, 0)]);
        let mut t1 = db.begin(level).unwrap();
        assert_eq!(ids_in_range(&mut t1, &accounts, 0, 100, 2), [10, 20]);
        let mut t2 = db.begin(Snapshot).unwrap();
        t2.insert(&accounts, &[Value::Int(insert), Value::BigInt(0)])
            .unwrap();
        t2.commit().unwrap();
        commit_expecting_phantom(t1, &accounts, level, phantom);
    }
}

// A row deleted from a scanned range: the scan read it, so REPEATABLE READ
// and SERIALIZABLE fail read validation (41305); SNAPSHOT commits.
fn range_scan_row_deleted(level: IsolationLevel) {
    let (db, accounts) = range_bank(&[(10, 0), (20, 0)]);
    let mut t1 = db.begin(level).unwrap();
    assert_eq!(
        ids_in_range(&mut t1, &accounts, 10, 20, usize::MAX),
        [10, 20]
    );
    let mut t2 = db.begin(Snapshot).unwrap();
    delete_account(&mut t2, &accounts, 20).unwrap();
    t2.commit().unwrap();
    assert_eq!(
        ids_in_range(&mut t1, &accounts, 10, 20, usize::MAX),
        [10, 20]
    );
    t1.insert(&accounts, &[Value::Int(1000), Value::BigInt(0)])
        .unwrap();
    match level {
        Snapshot => {
            t1.commit().unwrap();
        }
        RepeatableRead | Serializable => {
            expect_msg(t1.commit(), REPEATABLE_READ_FAILURE, MSG_41305);
        }
    }
}

/// A database with `accounts` holding `rows`.
fn bank(rows: &[(i32, i64)]) -> (Database, Arc<Table>) {
    let db = Database::default();
    let def = match PK_KIND.with(|k| k.get()) {
        PkKind::Hash => accounts_def(1024),
        PkKind::Range => accounts_range_def(),
    };
    let table = db.create_table(def).unwrap();
    seed(&db, &table, rows);
    (db, table)
}

/// After an engine abort (41302) every further operation fails with 3930,
/// and so does commit.
fn assert_doomed(mut tx: Transaction, table: &Arc<Table>) {
    assert!(!tx.is_active());
    expect_msg(tx.get(table, 0, &[Value::Int(1)]), DOOMED, MSG_3930);
    expect_err(scan_rows(&mut tx, table), DOOMED);
    expect_err(
        tx.insert(table, &[Value::Int(1000), Value::BigInt(0)]),
        DOOMED,
    );
    expect_msg(tx.commit(), DOOMED, MSG_3930);
}

// Dirty write (P0). T1 updates x and has not committed; T2 then writes x.
// Expected at every level: T2's update fails at once with 41302 and T2 is
// aborted (3930 afterwards); T1 commits and its value stands.
fn dirty_write(level: IsolationLevel) {
    let (db, accounts) = bank(&[(1, 100)]);
    let mut t1 = db.begin(level).unwrap();
    let mut t2 = db.begin(level).unwrap();
    set_balance(&mut t1, &accounts, 1, 110).unwrap();

    // T2 still sees the committed row, but cannot claim it.
    let row = t2.get(&accounts, 0, &[Value::Int(1)]).unwrap().expect("x");
    assert_eq!(t2.row(&accounts, row).unwrap().value(1), Value::BigInt(100));
    expect_msg(
        t2.update(&accounts, row, &[(1, Value::BigInt(120))]),
        WRITE_CONFLICT,
        MSG_41302,
    );
    assert_doomed(t2, &accounts);

    t1.commit().expect("the first writer commits");
    assert_eq!(
        committed_balances(&db, &accounts),
        BTreeMap::from([(1, 110)])
    );
}

// Dirty write on a key (P0 by insert). T1 inserts key 5 and has not
// committed; T2 inserts key 5 too. Expected at every level: the later
// inserter gets 41302 immediately (not 2627: the key is not committed) and
// is aborted; T1 commits.
fn dirty_write_by_insert(level: IsolationLevel) {
    let (db, accounts) = bank(&[(1, 100)]);
    let mut t1 = db.begin(level).unwrap();
    let mut t2 = db.begin(level).unwrap();
    t1.insert(&accounts, &[Value::Int(5), Value::BigInt(50)])
        .unwrap();
    expect_msg(
        t2.insert(&accounts, &[Value::Int(5), Value::BigInt(60)]),
        WRITE_CONFLICT,
        MSG_41302,
    );
    assert_doomed(t2, &accounts);
    t1.commit().unwrap();
    assert_eq!(
        committed_balances(&db, &accounts),
        BTreeMap::from([(1, 100), (5, 50)])
    );
}

// Dirty read (P1). T1 updates x and inserts y without committing; T2 reads.
// Expected at every level: T2 sees neither the new x nor y, through the
// index or a scan, whether it began before or after T1's writes; T2 commits
// (nothing it read was committed over). Once T1 commits, a new transaction
// sees both.
fn dirty_read(level: IsolationLevel) {
    let (db, accounts) = bank(&[(1, 100)]);
    let mut early = db.begin(level).unwrap();
    let mut t1 = db.begin(Snapshot).unwrap();
    set_balance(&mut t1, &accounts, 1, 999).unwrap();
    t1.insert(&accounts, &[Value::Int(2), Value::BigInt(7)])
        .unwrap();
    let mut late = db.begin(level).unwrap();
    for t2 in [&mut early, &mut late] {
        assert_eq!(balance(t2, &accounts, 1), Some(100));
        assert_eq!(balance(t2, &accounts, 2), None);
        assert_eq!(balances(t2, &accounts).unwrap(), BTreeMap::from([(1, 100)]));
    }
    early.commit().expect("reader that began before the writes");
    late.commit().expect("reader that began after the writes");
    t1.commit().unwrap();
    assert_eq!(
        committed_balances(&db, &accounts),
        BTreeMap::from([(1, 999), (2, 7)])
    );
}

// Lost update (P4). T1 and T2 both read x = 100; T1 writes x = 110 and
// commits; T2 then writes x = 120 from its stale read. Expected at every
// level: T2's update fails with 41302 (first writer wins), so T1's update
// is not lost.
fn lost_update(level: IsolationLevel) {
    let (db, accounts) = bank(&[(1, 100)]);
    let mut t1 = db.begin(level).unwrap();
    let mut t2 = db.begin(level).unwrap();
    assert_eq!(balance(&mut t1, &accounts, 1), Some(100));
    assert_eq!(balance(&mut t2, &accounts, 1), Some(100));
    add_balance(&mut t1, &accounts, 1, 10).unwrap();
    t1.commit().unwrap();
    expect_msg(
        add_balance(&mut t2, &accounts, 1, 20),
        WRITE_CONFLICT,
        MSG_41302,
    );
    assert_doomed(t2, &accounts);
    assert_eq!(
        committed_balances(&db, &accounts),
        BTreeMap::from([(1, 110)])
    );
}

// Fuzzy (non-repeatable) read (P2). T1 reads x = 100; T2 updates x to 200
// and commits; T1 reads x again. Expected: the re-read still shows 100 at
// every level. SNAPSHOT: T1 commits. REPEATABLE READ and SERIALIZABLE: T1's
// commit fails with 41305 because a row it read has changed.
fn fuzzy_read(level: IsolationLevel) {
    let (db, accounts) = bank(&[(1, 100)]);
    let mut t1 = db.begin(level).unwrap();
    assert_eq!(balance(&mut t1, &accounts, 1), Some(100));
    let mut t2 = db.begin(Snapshot).unwrap();
    set_balance(&mut t2, &accounts, 1, 200).unwrap();
    t2.commit().unwrap();
    assert_eq!(balance(&mut t1, &accounts, 1), Some(100));
    match level {
        Snapshot => {
            t1.commit().expect("SNAPSHOT does not validate reads");
        }
        RepeatableRead | Serializable => {
            expect_msg(t1.commit(), REPEATABLE_READ_FAILURE, MSG_41305);
        }
    }
    assert_eq!(
        committed_balances(&db, &accounts),
        BTreeMap::from([(1, 200)])
    );
}

// Read skew (A5A). x = 50, y = 50 (x + y = 100). T1 reads x; T2 moves 30
// from x to y and commits; T1 reads y. Expected at every level: T1 sees the
// consistent pair (50, 50), by lookups and by a scan, never (50, 80).
// SNAPSHOT: T1 commits. REPEATABLE READ and SERIALIZABLE: 41305 at commit.
fn read_skew(level: IsolationLevel) {
    let (db, accounts) = bank(&[(1, 50), (2, 50)]);
    let mut t1 = db.begin(level).unwrap();
    assert_eq!(balance(&mut t1, &accounts, 1), Some(50));
    let mut t2 = db.begin(Snapshot).unwrap();
    add_balance(&mut t2, &accounts, 1, -30).unwrap();
    add_balance(&mut t2, &accounts, 2, 30).unwrap();
    t2.commit().unwrap();
    assert_eq!(balance(&mut t1, &accounts, 2), Some(50));
    assert_eq!(
        balances(&mut t1, &accounts).unwrap(),
        BTreeMap::from([(1, 50), (2, 50)])
    );
    match level {
        Snapshot => {
            t1.commit().unwrap();
        }
        RepeatableRead | Serializable => {
            expect_msg(t1.commit(), REPEATABLE_READ_FAILURE, MSG_41305);
        }
    }
    assert_eq!(
        committed_balances(&db, &accounts),
        BTreeMap::from([(1, 20), (2, 80)])
    );
}

// Write skew (A5B) on existing rows. Constraint: x + y >= 0; x = y = 50.
// T1 and T2 each read x and y (sum 100), then T1 withdraws 100 from x and
// T2 withdraws 100 from y. They write different rows, so there is no write
// conflict. The first committer (T1) succeeds at every level.
// SNAPSHOT: T2 commits too: the anomaly happens, x + y = -100.
// REPEATABLE READ and SERIALIZABLE: T2 read x, which T1 changed, so T2's
// read validation fails with 41305 and the constraint holds. (As in SQL
// Server, REPEATABLE READ validates every row read, and that alone stops
// write skew on rows both transactions read; `write_skew_by_insert` shows
// the write skew REPEATABLE READ does allow.)
fn write_skew(level: IsolationLevel) {
    let (db, accounts) = bank(&[(1, 50), (2, 50)]);
    let mut t1 = db.begin(level).unwrap();
    let mut t2 = db.begin(level).unwrap();
    for (tx, from) in [(&mut t1, 1), (&mut t2, 2)] {
        let total = balance(tx, &accounts, 1).unwrap() + balance(tx, &accounts, 2).unwrap();
        // The application's check: the withdrawal keeps x + y >= 0.
        assert_eq!(total, 100);
        add_balance(tx, &accounts, from, -100).unwrap();
    }
    t1.commit().expect("the first committer succeeds");
    match level {
        Snapshot => {
            t2.commit().expect("SNAPSHOT allows write skew");
            let committed = committed_balances(&db, &accounts);
            assert_eq!(committed, BTreeMap::from([(1, -50), (2, -50)]));
            assert!(committed.values().sum::<i64>() < 0, "the anomaly happened");
        }
        RepeatableRead | Serializable => {
            expect_msg(t2.commit(), REPEATABLE_READ_FAILURE, MSG_41305);
            let committed = committed_balances(&db, &accounts);
            assert_eq!(committed, BTreeMap::from([(1, -50), (2, 50)]));
            assert!(committed.values().sum::<i64>() >= 0);
        }
    }
}

// Write skew through a predicate (A5B by inserts). A ledger's balance is
// the sum of its rows and must stay >= 0; it holds one deposit of 100. T1
// and T2 each scan the ledger (sum 100) and record a withdrawal of 100 as a
// *new* row, under different ids. No row either read ever changes. The
// first committer succeeds at every level.
// SNAPSHOT and REPEATABLE READ: T2 commits too; the anomaly happens (sum
// -100): REPEATABLE READ protects the rows read, not the predicate.
// SERIALIZABLE: T1's row is a phantom in T2's scan: T2 fails with 41325.
fn write_skew_by_insert(level: IsolationLevel) {
    let (db, ledger) = bank(&[(1, 100)]);
    let mut t1 = db.begin(level).unwrap();
    let mut t2 = db.begin(level).unwrap();
    for (tx, id) in [(&mut t1, 2), (&mut t2, 3)] {
        let sum: i64 = balances(tx, &ledger).unwrap().values().sum();
        assert_eq!(sum, 100);
        tx.insert(&ledger, &[Value::Int(id), Value::BigInt(-100)])
            .unwrap();
    }
    t1.commit().expect("the first committer succeeds");
    match level {
        Snapshot | RepeatableRead => {
            t2.commit()
                .expect("only SERIALIZABLE prevents predicate write skew");
            let sum: i64 = committed_balances(&db, &ledger).values().sum();
            assert_eq!(sum, -100, "the anomaly happened");
        }
        Serializable => {
            expect_msg(t2.commit(), SERIALIZABLE_FAILURE, MSG_41325);
            let sum: i64 = committed_balances(&db, &ledger).values().sum();
            assert_eq!(sum, 0);
        }
    }
}

// Phantom (P3) by key. T1 looks up key 7 and finds nothing; T2 inserts key
// 7 and commits; T1 looks again. Expected at every level: T1's re-read
// still finds nothing. SNAPSHOT and REPEATABLE READ: T1 commits.
// SERIALIZABLE: T1's commit fails with 41325.
fn phantom_by_key(level: IsolationLevel) {
    let (db, accounts) = bank(&[(1, 100)]);
    let mut t1 = db.begin(level).unwrap();
    assert_eq!(balance(&mut t1, &accounts, 7), None);
    let mut t2 = db.begin(Snapshot).unwrap();
    t2.insert(&accounts, &[Value::Int(7), Value::BigInt(70)])
        .unwrap();
    t2.commit().unwrap();
    assert_eq!(balance(&mut t1, &accounts, 7), None);
    // T1 also writes (an unrelated row), so it is not read-only.
    t1.insert(&accounts, &[Value::Int(2), Value::BigInt(2)])
        .unwrap();
    match level {
        Snapshot | RepeatableRead => {
            t1.commit().unwrap();
        }
        Serializable => {
            expect_msg(t1.commit(), SERIALIZABLE_FAILURE, MSG_41325);
        }
    }
}

// Phantom (P3) by scan. T1 scans the table ({1, 2}); T2 inserts 3 and
// commits; T1 scans again. Expected at every level: the re-scan shows the
// same two rows. SNAPSHOT and REPEATABLE READ: T1 commits (the rows it read
// are unchanged). SERIALIZABLE: 41325.
fn phantom_by_scan(level: IsolationLevel) {
    let (db, accounts) = bank(&[(1, 10), (2, 20)]);
    let mut t1 = db.begin(level).unwrap();
    let before = balances(&mut t1, &accounts).unwrap();
    assert_eq!(before, BTreeMap::from([(1, 10), (2, 20)]));
    let mut t2 = db.begin(Snapshot).unwrap();
    t2.insert(&accounts, &[Value::Int(3), Value::BigInt(30)])
        .unwrap();
    t2.commit().unwrap();
    assert_eq!(balances(&mut t1, &accounts).unwrap(), before);
    match level {
        Snapshot | RepeatableRead => {
            t1.commit().unwrap();
        }
        Serializable => {
            expect_msg(t1.commit(), SERIALIZABLE_FAILURE, MSG_41325);
        }
    }
}

// Delete conflicts: a delete is a write like an update.
// Expected at every level: an uncommitted delete makes a second updater,
// deleter or inserter of the key fail with 41302; so does an uncommitted
// update for a second deleter; after a committed delete, a transaction
// that began before it still sees the row but fails with 41302 when writing
// it, while one that began after it may insert the key again.
fn delete_conflicts(level: IsolationLevel) {
    let (db, accounts) = bank(&[(1, 100), (2, 200), (3, 300), (4, 400)]);

    // Uncommitted delete of 1, then update / delete / insert of 1 by others.
    let mut t1 = db.begin(level).unwrap();
    delete_account(&mut t1, &accounts, 1).unwrap();
    assert_eq!(
        balance(&mut t1, &accounts, 1),
        None,
        "own delete is visible"
    );
    let mut t2 = db.begin(level).unwrap();
    assert_eq!(balance(&mut t2, &accounts, 1), Some(100));
    expect_msg(
        set_balance(&mut t2, &accounts, 1, 1),
        WRITE_CONFLICT,
        MSG_41302,
    );
    let mut t3 = db.begin(level).unwrap();
    expect_msg(
        delete_account(&mut t3, &accounts, 1),
        WRITE_CONFLICT,
        MSG_41302,
    );
    let mut t4 = db.begin(level).unwrap();
    expect_msg(
        t4.insert(&accounts, &[Value::Int(1), Value::BigInt(1)]),
        WRITE_CONFLICT,
        MSG_41302,
    );
    for tx in [t2, t3, t4] {
        assert_doomed(tx, &accounts);
    }
    t1.commit().unwrap();

    // Uncommitted update of 2, then a delete of 2.
    let mut t1 = db.begin(level).unwrap();
    set_balance(&mut t1, &accounts, 2, 201).unwrap();
    let mut t2 = db.begin(level).unwrap();
    expect_msg(
        delete_account(&mut t2, &accounts, 2),
        WRITE_CONFLICT,
        MSG_41302,
    );
    t1.commit().unwrap();

    // Committed delete of 3.
    let mut old = db.begin(level).unwrap();
    assert_eq!(balance(&mut old, &accounts, 3), Some(300));
    let mut t1 = db.begin(level).unwrap();
    delete_account(&mut t1, &accounts, 3).unwrap();
    t1.commit().unwrap();
    assert_eq!(balance(&mut old, &accounts, 3), Some(300));
    expect_msg(
        set_balance(&mut old, &accounts, 3, 0),
        WRITE_CONFLICT,
        MSG_41302,
    );
    let mut new = db.begin(level).unwrap();
    assert_eq!(balance(&mut new, &accounts, 3), None);
    new.insert(&accounts, &[Value::Int(3), Value::BigInt(3)])
        .unwrap();
    new.commit().unwrap();

    // Delete and re-insert of 4 in one transaction.
    let mut t1 = db.begin(level).unwrap();
    delete_account(&mut t1, &accounts, 4).unwrap();
    t1.insert(&accounts, &[Value::Int(4), Value::BigInt(4)])
        .unwrap();
    t1.commit().unwrap();

    assert_eq!(
        committed_balances(&db, &accounts),
        BTreeMap::from([(2, 201), (3, 3), (4, 4)])
    );
}

// Not an anomaly: the ordinary read-modify-write of one's own rows. With no
// concurrent writer it must commit at every level: a version that the
// transaction read and then replaced itself has not been "changed by
// another transaction".
fn read_then_write_own_row(level: IsolationLevel) {
    let (db, accounts) = bank(&[(1, 100), (2, 0)]);
    let mut tx = db.begin(level).unwrap();
    assert_eq!(balance(&mut tx, &accounts, 1), Some(100));
    add_balance(&mut tx, &accounts, 1, -40).unwrap();
    add_balance(&mut tx, &accounts, 2, 40).unwrap();
    assert_eq!(
        balances(&mut tx, &accounts).unwrap(),
        BTreeMap::from([(1, 60), (2, 40)])
    );
    tx.commit().expect("a lone read-modify-write commits");
    assert_eq!(
        committed_balances(&db, &accounts),
        BTreeMap::from([(1, 60), (2, 40)])
    );
}

// A read-only SNAPSHOT transaction is never validated: concurrent updates,
// inserts and deletes, committed or not, do not disturb its reads, and it
// commits at its read timestamp.
#[test]
fn read_only_snapshot_commits_despite_concurrent_writers() {
    let (db, accounts) = bank(&[(1, 10), (2, 20)]);
    let mut reader = db.begin(Snapshot).unwrap();
    let before = balances(&mut reader, &accounts).unwrap();
    for step in 0..3 {
        let mut writer = db.begin(Snapshot).unwrap();
        match step {
            0 => set_balance(&mut writer, &accounts, 1, 11).unwrap(),
            1 => delete_account(&mut writer, &accounts, 2).unwrap(),
            _ => {
                writer
                    .insert(&accounts, &[Value::Int(3), Value::BigInt(30)])
                    .unwrap();
            }
        }
        assert_eq!(balances(&mut reader, &accounts).unwrap(), before);
        writer.commit().unwrap();
        assert_eq!(balances(&mut reader, &accounts).unwrap(), before);
    }
    assert_eq!(balance(&mut reader, &accounts, 1), Some(10));
    assert_eq!(balance(&mut reader, &accounts, 2), Some(20));
    assert_eq!(balance(&mut reader, &accounts, 3), None);
    let read_ts = reader.read_timestamp();
    assert_eq!(reader.commit(), Ok(read_ts));
    assert_eq!(
        committed_balances(&db, &accounts),
        BTreeMap::from([(1, 11), (3, 30)])
    );
}

// SERIALIZABLE validates a key lookup by key, not by hash bucket: with one
// bucket every key collides, yet a committed insert of another key is no
// phantom, and neither is a rolled-back insert of the key itself.
#[test]
fn serializable_lookup_ignores_other_keys_and_rolled_back_inserts() {
    let db = Database::default();
    let accounts = db.create_table(accounts_def(1)).unwrap();
    seed(&db, &accounts, &[(1, 100)]);
    let mut t1 = db.begin(Serializable).unwrap();
    assert_eq!(balance(&mut t1, &accounts, 7), None);
    let mut t2 = db.begin(Snapshot).unwrap();
    t2.insert(&accounts, &[Value::Int(8), Value::BigInt(80)])
        .unwrap();
    t2.commit().unwrap();
    let mut t3 = db.begin(Snapshot).unwrap();
    t3.insert(&accounts, &[Value::Int(7), Value::BigInt(70)])
        .unwrap();
    t3.rollback();
    t1.insert(&accounts, &[Value::Int(2), Value::BigInt(2)])
        .unwrap();
    t1.commit().expect("no phantom for key 7");
}

/// `users(id int PRIMARY KEY, email varchar(40))` with a unique `ix_email`.
fn users(db: &Database, email_index: Uniqueness) -> Arc<Table> {
    db.create_table(TableDef::new(
        "users",
        vec![
            ColumnDef::new("id", DataType::Int, false),
            ColumnDef::new("email", varchar(40), false),
        ],
        vec![
            IndexDef::hash("pk_users", &[0], 64, Uniqueness::PrimaryKey),
            IndexDef::hash("ix_email", &[1], 64, email_index),
        ],
    ))
    .unwrap()
}

fn user(id: i32, email: &str) -> [Value; 2] {
    [Value::Int(id), Value::String(email.to_string())]
}

// Duplicate of a committed primary key: statement-level 2627 with SQL
// Server's message, at every level. The transaction stays usable: it
// inserts another key and commits; the original row is untouched.
#[test]
fn duplicate_primary_key_is_a_statement_error() {
    let (db, accounts) = bank(&[(1, 100)]);
    for (n, level) in [Snapshot, RepeatableRead, Serializable]
        .into_iter()
        .enumerate()
    {
        let mut tx = db.begin(level).unwrap();
        let error = expect_err(
            tx.insert(&accounts, &[Value::Int(1), Value::BigInt(5)]),
            DUPLICATE_CONSTRAINT,
        );
        assert_eq!(
            error.message,
            "Violation of PRIMARY KEY constraint 'pk'. Cannot insert duplicate key in object 'dbo.accounts'. The duplicate key value is (1)."
        );
        assert_eq!((error.severity, error.state), (14, 1));
        assert!(tx.is_active(), "2627 does not abort the transaction");
        assert_eq!(balance(&mut tx, &accounts, 1), Some(100));
        tx.insert(&accounts, &[Value::Int(2 + n as i32), Value::BigInt(5)])
            .unwrap();
        tx.commit().expect("the transaction survives a 2627");
    }
    assert_eq!(
        committed_balances(&db, &accounts),
        BTreeMap::from([(1, 100), (2, 5), (3, 5), (4, 5)])
    );
}

// A committed key outranks a concurrent failed attempt at it. T2's insert
// of committed key 1 fails with 2627 and T2 stays open; T3 then inserts key
// 1 too. Expected (SQL Server): 2627 for T3 as well, not 41302: the key
// is held by a committed row, whatever else is in flight on it.
#[test]
fn a_committed_duplicate_is_2627_even_beside_another_failed_insert() {
    let (db, accounts) = bank(&[(1, 100)]);
    let mut t2 = db.begin(Snapshot).unwrap();
    expect_err(
        t2.insert(&accounts, &[Value::Int(1), Value::BigInt(5)]),
        DUPLICATE_CONSTRAINT,
    );
    let mut t3 = db.begin(Snapshot).unwrap();
    expect_err(
        t3.insert(&accounts, &[Value::Int(1), Value::BigInt(6)]),
        DUPLICATE_CONSTRAINT,
    );
    assert!(t3.is_active(), "2627 does not abort the transaction");
    t3.commit().unwrap();
    t2.commit().unwrap();
    assert_eq!(
        committed_balances(&db, &accounts),
        BTreeMap::from([(1, 100)])
    );
}

// The same, racing: threads insert committed key 1 over and over, each in
// its own transaction, so their failing versions pass through the key's
// chain while the others check it. Every attempt is 2627; none is 41302
// for having met another thread's version on its way out.
#[test]
fn racing_inserts_of_a_committed_key_are_all_2627() {
    let (db, accounts) = bank(&[(1, 100)]);
    std::thread::scope(|scope| {
        for thread in 0..4 {
            let (db, accounts) = (&db, &accounts);
            scope.spawn(move || {
                for attempt in 0..3_000 {
                    let mut tx = db.begin(Snapshot).unwrap();
                    let result = tx.insert(accounts, &[Value::Int(1), Value::BigInt(attempt)]);
                    let error = result.expect_err("key 1 is committed");
                    assert_eq!(
                        error.number, 2627,
                        "thread {thread} attempt {attempt}: {error:?}"
                    );
                    tx.rollback();
                }
            });
        }
    });
    assert_eq!(
        committed_balances(&db, &accounts),
        BTreeMap::from([(1, 100)])
    );
}

// A key inserted twice by one transaction, and an update that moves a row
// onto an existing key: both 2627, both leave the transaction usable with
// the statement undone.
#[test]
fn duplicate_key_within_a_transaction_and_by_update() {
    let (db, accounts) = bank(&[(1, 100), (2, 200)]);
    let mut tx = db.begin(Snapshot).unwrap();
    tx.insert(&accounts, &[Value::Int(3), Value::BigInt(300)])
        .unwrap();
    let error = expect_err(
        tx.insert(&accounts, &[Value::Int(3), Value::BigInt(301)]),
        DUPLICATE_CONSTRAINT,
    );
    assert!(error.message.ends_with("The duplicate key value is (3)."));
    let row = tx.get(&accounts, 0, &[Value::Int(2)]).unwrap().unwrap();
    let error = expect_err(
        tx.update(&accounts, row, &[(0, Value::Int(1))]),
        DUPLICATE_CONSTRAINT,
    );
    assert!(error.message.ends_with("The duplicate key value is (1)."));
    assert!(tx.is_active());
    // The failed update is undone: row 2 is still there and writable.
    assert_eq!(
        balances(&mut tx, &accounts).unwrap(),
        BTreeMap::from([(1, 100), (2, 200), (3, 300)])
    );
    set_balance(&mut tx, &accounts, 2, 222).unwrap();
    // Moving a row to a free key works.
    let row = tx.get(&accounts, 0, &[Value::Int(3)]).unwrap().unwrap();
    tx.update(&accounts, row, &[(0, Value::Int(4))]).unwrap();
    tx.commit().unwrap();
    assert_eq!(
        committed_balances(&db, &accounts),
        BTreeMap::from([(1, 100), (2, 222), (4, 300)])
    );
}

// A unique index (CREATE UNIQUE INDEX) reports 2601, a UNIQUE constraint
// 2627 naming UNIQUE KEY. The default collation is case-insensitive and
// ignores trailing spaces, so such keys are duplicates; the message shows
// the value being inserted.
#[test]
fn duplicate_in_unique_index_and_unique_constraint() {
    let db = Database::default();
    let ix = users(&db, Uniqueness::UniqueIndex);
    let mut tx = db.begin(Snapshot).unwrap();
    tx.insert(&ix, &user(1, "alice@example.com")).unwrap();
    tx.commit().unwrap();
    let mut tx = db.begin(Snapshot).unwrap();
    let error = expect_err(
        tx.insert(&ix, &user(2, "ALICE@example.com")),
        DUPLICATE_INDEX,
    );
    assert_eq!(
        error.message,
        "Cannot insert duplicate key row in object 'dbo.users' with unique index 'ix_email'. The duplicate key value is (ALICE@example.com)."
    );
    expect_err(
        tx.insert(&ix, &user(3, "alice@example.com  ")),
        DUPLICATE_INDEX,
    );
    tx.insert(&ix, &user(4, "bob@example.com")).unwrap();
    tx.commit().unwrap();

    let db = Database::default();
    let uq = users(&db, Uniqueness::UniqueConstraint);
    let mut tx = db.begin(Snapshot).unwrap();
    tx.insert(&uq, &user(1, "carol@example.com")).unwrap();
    let error = expect_err(
        tx.insert(&uq, &user(2, "carol@example.com")),
        DUPLICATE_CONSTRAINT,
    );
    assert_eq!(
        error.message,
        "Violation of UNIQUE KEY constraint 'ix_email'. Cannot insert duplicate key in object 'dbo.users'. The duplicate key value is (carol@example.com)."
    );
    tx.commit().unwrap();
}

// Concurrent uncommitted duplicate in a unique index: the later inserter
// gets 41302 at once (the key is not committed, so it is not 2601) and is
// aborted. If the first inserter rolls back, the key is free again.
#[test]
fn concurrent_duplicate_in_unique_index_is_a_write_conflict() {
    let db = Database::default();
    let users = users(&db, Uniqueness::UniqueIndex);
    let mut t1 = db.begin(Snapshot).unwrap();
    let mut t2 = db.begin(Snapshot).unwrap();
    t1.insert(&users, &user(1, "dave@example.com")).unwrap();
    expect_msg(
        t2.insert(&users, &user(2, "Dave@example.com")),
        WRITE_CONFLICT,
        MSG_41302,
    );
    assert!(!t2.is_active());
    expect_err(t2.insert(&users, &user(3, "erin@example.com")), DOOMED);
    expect_err(t2.commit(), DOOMED);
    t1.rollback();
    let mut t3 = db.begin(Snapshot).unwrap();
    t3.insert(&users, &user(2, "Dave@example.com")).unwrap();
    t3.commit().unwrap();
    let mut tx = db.begin(Snapshot).unwrap();
    let found = tx
        .lookup(
            &users,
            1,
            &[Value::String("DAVE@EXAMPLE.COM".into())],
            |row| ControlFlow::Break(row.values()),
        )
        .unwrap();
    assert_eq!(found, Some(user(2, "Dave@example.com").to_vec()));
}

// Savepoints give statement atomicity: rollback_to undoes the inserts,
// updates and deletes made after the savepoint, and the keys and rows they
// touched are usable again in the same transaction.
#[test]
fn rollback_to_savepoint_undoes_later_writes() {
    let (db, accounts) = bank(&[(1, 100), (2, 200)]);
    let mut tx = db.begin(Snapshot).unwrap();
    set_balance(&mut tx, &accounts, 1, 101).unwrap();
    let savepoint = tx.savepoint();
    tx.insert(&accounts, &[Value::Int(3), Value::BigInt(300)])
        .unwrap();
    set_balance(&mut tx, &accounts, 1, 102).unwrap();
    delete_account(&mut tx, &accounts, 2).unwrap();
    tx.rollback_to(savepoint);
    assert_eq!(
        balances(&mut tx, &accounts).unwrap(),
        BTreeMap::from([(1, 101), (2, 200)])
    );
    tx.insert(&accounts, &[Value::Int(3), Value::BigInt(303)])
        .unwrap();
    set_balance(&mut tx, &accounts, 2, 202).unwrap();
    tx.commit().unwrap();
    assert_eq!(
        committed_balances(&db, &accounts),
        BTreeMap::from([(1, 101), (2, 202), (3, 303)])
    );
}

// The abort counters tell 41302, 41305, 41325 and rollbacks apart and count
// each aborted transaction once; commits include read-only ones.
#[test]
fn stats_count_aborts_by_reason() {
    let (db, accounts) = bank(&[(1, 100)]);
    let base = db.stats();
    assert_eq!(base.commits, 1);
    assert_eq!(base.total_aborts(), 0);

    // 41302, then more failing calls and a rollback of the doomed transaction.
    let mut t1 = db.begin(Snapshot).unwrap();
    let mut t2 = db.begin(Snapshot).unwrap();
    set_balance(&mut t1, &accounts, 1, 1).unwrap();
    expect_err(set_balance(&mut t2, &accounts, 1, 2), WRITE_CONFLICT);
    expect_err(balances(&mut t2, &accounts), DOOMED);
    t2.rollback();
    t1.commit().unwrap();

    // 41305, and a transaction dropped without commit (a rollback).
    let mut t1 = db.begin(RepeatableRead).unwrap();
    balance(&mut t1, &accounts, 1);
    drop(db.begin(Snapshot).unwrap());
    let mut t2 = db.begin(Snapshot).unwrap();
    set_balance(&mut t2, &accounts, 1, 4).unwrap();
    t2.commit().unwrap();
    expect_err(t1.commit(), REPEATABLE_READ_FAILURE);

    // 41325.
    let mut t1 = db.begin(Serializable).unwrap();
    balance(&mut t1, &accounts, 9);
    let mut t2 = db.begin(Snapshot).unwrap();
    t2.insert(&accounts, &[Value::Int(9), Value::BigInt(9)])
        .unwrap();
    t2.commit().unwrap();
    expect_err(t1.commit(), SERIALIZABLE_FAILURE);

    // An explicit rollback, and a read-only commit.
    db.begin(Serializable).unwrap().rollback();
    let mut reader = db.begin(Snapshot).unwrap();
    balance(&mut reader, &accounts, 1);
    reader.commit().unwrap();

    let stats = db.stats();
    assert_eq!(stats.commits, base.commits + 4);
    assert_eq!(stats.aborts_for(AbortReason::WriteConflict), 1);
    assert_eq!(stats.aborts_for(AbortReason::RepeatableReadValidation), 1);
    assert_eq!(stats.aborts_for(AbortReason::SerializableValidation), 1);
    assert_eq!(stats.aborts_for(AbortReason::Rollback), 2);
    assert_eq!(stats.aborts_for(AbortReason::CommitDependency), 0);
    assert_eq!(stats.aborts_for(AbortReason::LogFailure), 0);
    assert_eq!(stats.total_aborts(), 5);
}

/// `accounts` and `ledger` (the same columns) holding `rows` each: two
/// tables one transaction can read at different levels.
fn two_tables(rows: &[(i32, i64)]) -> (Database, Arc<Table>, Arc<Table>) {
    let (db, accounts) = bank(rows);
    let mut def = accounts_def(1024);
    def.name = "ledger".to_string();
    let ledger = db.create_table(def).unwrap();
    seed(&db, &ledger, rows);
    (db, accounts, ledger)
}

// Per-read isolation (SQL Server's table hints): T1 reads accounts at
// REPEATABLE READ and ledger at SNAPSHOT. A committed update of the
// ledger row it read does not fail its commit; one of the accounts row
// does (41305).
#[test]
fn mixed_levels_validate_only_the_repeatable_read_rows() {
    for (changed_account, fails) in [(false, false), (true, true)] {
        let (db, accounts, ledger) = two_tables(&[(1, 10)]);
        let mut t1 = db.begin(Snapshot).unwrap();
        t1.set_read_isolation(RepeatableRead);
        assert_eq!(balance(&mut t1, &accounts, 1), Some(10));
        t1.set_read_isolation(Snapshot);
        assert_eq!(balance(&mut t1, &ledger, 1), Some(10));
        let mut t2 = db.begin(Snapshot).unwrap();
        set_balance(&mut t2, &ledger, 1, 11).unwrap();
        if changed_account {
            set_balance(&mut t2, &accounts, 1, 11).unwrap();
        }
        t2.commit().unwrap();
        if fails {
            expect_msg(t1.commit(), REPEATABLE_READ_FAILURE, MSG_41305);
        } else {
            let read_ts = t1.read_timestamp();
            assert!(t1.commit().unwrap() > read_ts, "validated at its own end");
        }
    }
}

// T1 scans accounts at SERIALIZABLE and ledger at SNAPSHOT: an insert into
// ledger is no phantom, one into accounts is (41325). The level in force
// at commit does not matter, only the level each read was made at.
#[test]
fn mixed_levels_validate_only_the_serializable_scans() {
    for (into_accounts, fails) in [(false, false), (true, true)] {
        let (db, accounts, ledger) = two_tables(&[(1, 10)]);
        let mut t1 = db.begin(Snapshot).unwrap();
        t1.set_read_isolation(Serializable);
        assert_eq!(scan_rows(&mut t1, &accounts).unwrap().len(), 1);
        t1.set_read_isolation(Snapshot);
        assert_eq!(scan_rows(&mut t1, &ledger).unwrap().len(), 1);
        let mut t2 = db.begin(Snapshot).unwrap();
        let table = if into_accounts { &accounts } else { &ledger };
        t2.insert(table, &[Value::Int(2), Value::BigInt(20)])
            .unwrap();
        t2.commit().unwrap();
        if fails {
            expect_msg(t1.commit(), SERIALIZABLE_FAILURE, MSG_41325);
        } else {
            t1.commit().unwrap();
        }
    }
}

// A transaction begun at SERIALIZABLE whose reads are all made at
// SNAPSHOT validates nothing: it commits at its read timestamp.
#[test]
fn reads_lowered_to_snapshot_need_no_validation() {
    let (db, accounts, _) = two_tables(&[(1, 10)]);
    let mut t1 = db.begin(Serializable).unwrap();
    assert_eq!(t1.isolation(), Serializable);
    t1.set_read_isolation(Snapshot);
    assert_eq!(t1.isolation(), Snapshot);
    assert_eq!(balance(&mut t1, &accounts, 1), Some(10));
    let mut t2 = db.begin(Snapshot).unwrap();
    set_balance(&mut t2, &accounts, 1, 11).unwrap();
    t2.insert(&accounts, &[Value::Int(2), Value::BigInt(20)])
        .unwrap();
    t2.commit().unwrap();
    let read_ts = t1.read_timestamp();
    assert_eq!(t1.commit(), Ok(read_ts));
}
