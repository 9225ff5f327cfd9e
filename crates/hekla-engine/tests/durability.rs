//! Durability: what was committed survives a restart (a drop and reopen of
//! the database), through the log alone, through checkpoint files, and
//! through merges; damaged files are refused with errors naming them.

mod common;

use common::*;
use hekla_engine::{
    ColumnDef, Database, DatabaseConfig, DelayedDurability, Durability, FileState, IndexDef,
    IsolationLevel, StorageConfig, TableDef, Uniqueness,
};
use hekla_types::{DataType, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A fresh directory, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let path = std::env::temp_dir().join(format!(
            "hekla-durability-{name}-{}-{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_nanos()
        ));
        std::fs::create_dir_all(&path).unwrap();
        TempDir(path)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn open(dir: &Path) -> Database {
    Database::open(dir, DatabaseConfig::default(), StorageConfig::small()).expect("open")
}

fn accounts(db: &Database) -> Arc<hekla_engine::Table> {
    db.table_named("dbo", "accounts").expect("accounts table")
}

#[test]
fn commits_survive_a_restart_through_the_log() {
    let dir = TempDir::new("log");
    {
        let db = open(&dir.0);
        let table = create_accounts(&db);
        seed(&db, &table, &[(1, 100), (2, 200), (3, 300)]);
        let mut tx = db.begin(IsolationLevel::Snapshot).unwrap();
        set_balance(&mut tx, &table, 2, 250).unwrap();
        delete_account(&mut tx, &table, 3).unwrap();
        tx.commit().unwrap();
    }
    let db = open(&dir.0);
    let table = accounts(&db);
    assert_eq!(
        committed_balances(&db, &table),
        BTreeMap::from([(1, 100), (2, 250)])
    );
    let report = db.recovery_report().unwrap();
    assert_eq!(report.commits_replayed, 2);
    // New commits after recovery get later timestamps and survive too.
    seed(&db, &table, &[(4, 400)]);
    drop(db);
    let db = open(&dir.0);
    assert_eq!(committed_balances(&db, &accounts(&db)).len(), 3);
}

#[test]
fn checkpoints_hold_rows_and_deletes_and_truncate_the_log() {
    let dir = TempDir::new("checkpoint");
    let mut model = BTreeMap::new();
    {
        let db = open(&dir.0);
        let table = create_accounts(&db);
        for round in 0..5 {
            let rows: Vec<(i32, i64)> = (0..500).map(|i| (round * 500 + i, i as i64)).collect();
            seed(&db, &table, &rows);
            model.extend(rows);
            let mut tx = db.begin(IsolationLevel::Snapshot).unwrap();
            for id in (round * 500..round * 500 + 500).step_by(3) {
                delete_account(&mut tx, &table, id).unwrap();
                model.remove(&id);
            }
            tx.commit().unwrap();
            let report = db.checkpoint().unwrap();
            assert!(report.checkpoint_ts > 0);
        }
        let files = db.checkpoint_files();
        assert!(files.iter().any(|f| f.state == FileState::Active));
        assert_eq!(committed_balances(&db, &table), model);
    }
    let db = open(&dir.0);
    assert_eq!(committed_balances(&db, &accounts(&db)), model);
    let report = db.recovery_report().unwrap().clone();
    assert!(report.pairs_loaded > 0);
    assert_eq!(report.commits_replayed, 0, "{report:?}");
    assert_eq!(report.rows_loaded as usize, model.len());
}

#[test]
fn schema_only_tables_come_back_empty_and_dropped_tables_stay_dropped() {
    let dir = TempDir::new("schema-only");
    {
        let db = open(&dir.0);
        let mut def = accounts_def(64);
        def.name = "scratch".into();
        def.durability = Durability::SchemaOnly;
        let scratch = db.create_table(def).unwrap();
        seed(&db, &scratch, &[(1, 1)]);
        let mut gone = accounts_def(64);
        gone.name = "gone".into();
        let gone = db.create_table(gone).unwrap();
        seed(&db, &gone, &[(1, 1)]);
        db.checkpoint().unwrap();
        db.drop_table(gone.id).unwrap();
        let sales = db.create_schema("Sales").unwrap();
        let mut def = accounts_def(64);
        def.schema = sales;
        let kept = db.create_table(def).unwrap();
        seed(&db, &kept, &[(7, 70)]);
    }
    let db = open(&dir.0);
    let scratch = db.table_named("dbo", "scratch").expect("schema survives");
    assert!(committed_balances(&db, &scratch).is_empty());
    assert!(db.table_named("dbo", "gone").is_none());
    let kept = db.table_named("Sales", "accounts").expect("schema and table");
    assert_eq!(committed_balances(&db, &kept), BTreeMap::from([(7, 70)]));
    // Ids are never reused: a new table gets a fresh one.
    let fresh = db.create_table(accounts_def(8)).unwrap();
    assert!(fresh.id > kept.id);
}

#[test]
fn delayed_durability_follows_the_database_option() {
    let dir = TempDir::new("delayed");
    let db = open(&dir.0);
    let table = create_accounts(&db);
    db.set_delayed_durability(DelayedDurability::Allowed).unwrap();
    let flushes = db.log_stats().unwrap().flushes;
    for id in 0..50 {
        let mut tx = db.begin(IsolationLevel::Snapshot).unwrap();
        tx.set_delayed_durability(true);
        tx.insert(&table, &[Value::Int(id), Value::BigInt(0)]).unwrap();
        tx.commit().unwrap();
    }
    assert!(
        db.log_stats().unwrap().flushes - flushes < 50,
        "delayed commits share flushes"
    );
    db.flush_log().unwrap();
    drop(db);
    let db = open(&dir.0);
    assert_eq!(db.delayed_durability(), DelayedDurability::Allowed);
    assert_eq!(committed_balances(&db, &accounts(&db)).len(), 50);
}

#[test]
fn tables_without_a_unique_index_replay_deletes_of_identical_rows() {
    let dir = TempDir::new("heap");
    let def = TableDef::new(
        "events",
        vec![
            ColumnDef::new("kind", DataType::Int, false),
            ColumnDef::new("note", varchar(20), true),
        ],
        vec![IndexDef::hash("by_kind", &[0], 16, Uniqueness::NotUnique)],
    );
    {
        let db = open(&dir.0);
        let table = db.create_table(def).unwrap();
        let mut tx = db.begin(IsolationLevel::Snapshot).unwrap();
        for _ in 0..3 {
            tx.insert(&table, &[Value::Int(1), Value::Null]).unwrap();
        }
        tx.commit().unwrap();
        let mut tx = db.begin(IsolationLevel::Snapshot).unwrap();
        let row = tx.get(&table, 0, &[Value::Int(1)]).unwrap().unwrap();
        tx.delete(&table, row).unwrap();
        tx.commit().unwrap();
    }
    let db = open(&dir.0);
    let table = db.table_named("dbo", "events").unwrap();
    let mut tx = db.begin(IsolationLevel::Snapshot).unwrap();
    assert_eq!(scan_rows(&mut tx, &table).unwrap().len(), 2);
}
