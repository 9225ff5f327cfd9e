//! Transactions and tables outliving their database or catalog entry.

mod common;

use common::*;
use hekla_engine::{Database, IsolationLevel::Snapshot};

/// A transaction still open when its database is dropped keeps working
/// memory: the database leaks its state rather than free it under it.
#[test]
fn a_transaction_may_outlive_its_database() {
    let db = Database::default();
    let accounts = create_accounts(&db);
    seed(&db, &accounts, &[(1, 10)]);
    let mut tx = db.begin(Snapshot).unwrap();
    drop(db);
    assert_eq!(balance(&mut tx, &accounts, 1), Some(10));
    set_balance(&mut tx, &accounts, 1, 11).unwrap();
    tx.commit().unwrap();
}

/// A dropped table stays usable by the transaction that holds it, and
/// its name is free again at once.
#[test]
fn a_dropped_table_stays_valid_for_its_users() {
    let db = Database::default();
    let accounts = create_accounts(&db);
    seed(&db, &accounts, &[(1, 10)]);
    let mut tx = db.begin(Snapshot).unwrap();
    set_balance(&mut tx, &accounts, 1, 12).unwrap();
    db.drop_table(accounts.id).unwrap();
    assert!(db.table_named("dbo", "accounts").is_none());
    tx.commit().unwrap();
    db.collect_garbage();
    let again = create_accounts(&db);
    assert_ne!(again.id, accounts.id, "ids are never reused");
    assert_eq!(db.drop_table(accounts.id).unwrap_err().number, 208);
}

/// A handle to a row this transaction rolled back is refused, even after
/// garbage collection and new inserts: the slot is not reused meanwhile.
#[test]
fn handles_to_rolled_back_rows_are_refused() {
    let db = Database::default();
    let accounts = create_accounts(&db);
    let mut tx = db.begin(Snapshot).unwrap();
    let savepoint = tx.savepoint();
    let stale = tx
        .insert(
            &accounts,
            &[hekla_types::Value::Int(1), hekla_types::Value::BigInt(10)],
        )
        .unwrap();
    tx.rollback_to(savepoint);
    db.collect_garbage();
    let mut other = db.begin(Snapshot).unwrap();
    other
        .insert(
            &accounts,
            &[hekla_types::Value::Int(2), hekla_types::Value::BigInt(20)],
        )
        .unwrap();
    other.commit().unwrap();
    assert!(tx.row(&accounts, stale).is_err());
    assert!(tx.delete(&accounts, stale).is_err());
    tx.commit().unwrap();
    assert_eq!(committed_balances(&db, &accounts).get(&2), Some(&20));
}

/// Tables and row handles of one database are refused by another.
#[test]
fn another_databases_tables_and_rows_are_refused() {
    let (one, two) = (Database::default(), Database::default());
    let (t1, t2) = (create_accounts(&one), create_accounts(&two));
    assert_eq!(t1.id, t2.id);
    seed(&one, &t1, &[(1, 10)]);
    seed(&two, &t2, &[(1, 10)]);
    let mut x1 = one.begin(Snapshot).unwrap();
    let mut x2 = two.begin(Snapshot).unwrap();
    assert_eq!(x1.id(), x2.id(), "same slot and generation in both");
    let row1 = x1
        .get(&t1, 0, &[hekla_types::Value::Int(1)])
        .unwrap()
        .unwrap();
    assert!(x2.delete(&t2, row1).is_err());
    assert!(x2.get(&t1, 0, &[hekla_types::Value::Int(1)]).is_err());
    assert!(x2
        .insert(
            &t1,
            &[hekla_types::Value::Int(3), hekla_types::Value::BigInt(0)]
        )
        .is_err());
    x2.commit().unwrap();
    x1.commit().unwrap();
    assert_eq!(committed_balances(&two, &t2).len(), 1);
}
