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

/// A dropped table's memory is given back once nothing can reach it: not
/// while a transaction that wrote to it is open or its garbage is queued,
/// not while a counted handle to it is held, and then within two passes of
/// the collector (the first notes that only the drop list holds it).
#[test]
fn a_dropped_table_is_freed_once_nothing_reaches_it() {
    let db = Database::default();
    let accounts = create_accounts(&db);
    seed(&db, &accounts, &[(1, 10), (2, 20)]);
    let mut writer = db.begin(Snapshot).unwrap();
    set_balance(&mut writer, &accounts, 1, 11).unwrap();
    let id = accounts.id;
    db.drop_table(id).unwrap();
    // The handle is still counted: kept.
    db.collect_garbage();
    db.collect_garbage();
    assert_eq!(db.dropped_tables_pending(), 1);
    drop(accounts);
    // Only the writer's uncounted reference is left: kept while it is open.
    for _ in 0..3 {
        db.collect_garbage();
    }
    assert_eq!(db.dropped_tables_pending(), 1);
    // Its update's old version is garbage of the dropped table; the commit
    // still works on the table's memory.
    writer.commit().unwrap();
    for _ in 0..3 {
        db.collect_garbage();
    }
    assert_eq!(db.dropped_tables_pending(), 0);
}

/// Freeing a dropped table does not wait for the epoch to move on: a thread
/// pinned elsewhere in the process (another database's reader, another
/// test) holds back only the release of the table's row slots.
#[test]
fn a_dropped_table_is_freed_while_another_thread_holds_the_epoch() {
    let (pinned_tx, pinned_rx) = std::sync::mpsc::channel();
    let (release_tx, release_rx) = std::sync::mpsc::channel::<()>();
    let reader = std::thread::spawn(move || {
        let _guard = crossbeam_epoch::pin();
        pinned_tx.send(()).unwrap();
        let _ = release_rx.recv();
    });
    pinned_rx.recv().unwrap();
    let db = Database::default();
    let accounts = create_accounts(&db);
    seed(&db, &accounts, &[(1, 10)]);
    let mut writer = db.begin(Snapshot).unwrap();
    set_balance(&mut writer, &accounts, 1, 11).unwrap();
    db.drop_table(accounts.id).unwrap();
    drop(accounts);
    writer.commit().unwrap();
    db.collect_garbage();
    db.collect_garbage();
    let pending = db.dropped_tables_pending();
    release_tx.send(()).unwrap();
    reader.join().unwrap();
    assert_eq!(pending, 0, "the pinned thread kept the dropped table");
}

/// Tables made and dropped again and again under concurrent writers do not
/// pile up, and nothing reached after its table went (the collector's
/// assertions and the allocator would catch a use after free).
#[test]
fn dropped_tables_do_not_pile_up() {
    let db = std::sync::Arc::new(Database::default());
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let keeper = create_accounts(&db);
    seed(&db, &keeper, &[(1, 0)]);
    let writer = {
        let (db, stop, keeper) = (db.clone(), stop.clone(), keeper.clone());
        std::thread::spawn(move || {
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let mut tx = db.begin(Snapshot).unwrap();
                let _ = add_balance(&mut tx, &keeper, 1, 1);
                let _ = tx.commit();
            }
        })
    };
    for round in 0..200 {
        let def = accounts_def(64);
        let table = db
            .create_table(hekla_engine::TableDef {
                name: format!("t{round}"),
                ..def
            })
            .unwrap();
        let mut tx = db.begin(Snapshot).unwrap();
        for key in 0..20 {
            tx.insert(
                &table,
                &[hekla_types::Value::Int(key), hekla_types::Value::BigInt(0)],
            )
            .unwrap();
        }
        tx.commit().unwrap();
        let mut deleter = db.begin(Snapshot).unwrap();
        delete_account(&mut deleter, &table, 0).unwrap();
        db.drop_table(table.id).unwrap();
        drop(table);
        deleter.commit().unwrap();
        db.collect_garbage();
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    writer.join().unwrap();
    for _ in 0..3 {
        db.collect_garbage();
    }
    assert_eq!(db.dropped_tables_pending(), 0);
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
