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
