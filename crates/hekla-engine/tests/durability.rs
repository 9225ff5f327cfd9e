//! Durability: what was committed survives a restart (a drop and reopen of
//! the database), through the log alone, through checkpoint files, and
//! through merges; damaged files are refused with errors naming them.

mod common;

use common::*;
use hekla_engine::{
    CheckpointTrigger, ColumnDef, Database, DatabaseConfig, DatabaseOptions, DelayedDurability,
    Durability, FileState, IndexDef, IsolationLevel, RecoveryModel, StorageConfig, TableDef,
    Uniqueness, UserAccess,
};
use hekla_types::{DataType, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

fn open(dir: &Path) -> Database {
    Database::open(dir, DatabaseConfig::default(), StorageConfig::small()).expect("open")
}

fn accounts(db: &Database) -> Arc<hekla_engine::Table> {
    db.table_named("dbo", "accounts").expect("accounts table")
}

#[test]
fn commits_survive_a_restart_through_the_log() {
    let dir = Scratch::new("durability-log");

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
    let dir = Scratch::new("durability-checkpoint");
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

/// The worker keeps the checkpoints it completed, the automatic ones (set
/// off by log growth) as well as `CHECKPOINT`'s, so that a caller can see
/// what happened in the background.
#[test]
fn checkpoint_history_lists_automatic_and_manual_checkpoints() {
    let dir = Scratch::new("durability-history");
    let storage = StorageConfig {
        checkpoint_log_bytes: 64 << 10,
        ..StorageConfig::small()
    };
    let db = Database::open(&dir.0, DatabaseConfig::default(), storage).unwrap();
    assert!(db.checkpoint_history().is_empty());
    let table = create_accounts(&db);
    let rows: Vec<(i32, i64)> = (0..5_000).map(|i| (i, i64::from(i))).collect();
    for chunk in rows.chunks(500) {
        seed(&db, &table, chunk);
    }
    // The worker follows the log on a 20 ms beat; give it time to notice.
    let deadline = Instant::now() + Duration::from_secs(30);
    while !db
        .checkpoint_history()
        .iter()
        .any(|c| c.trigger == CheckpointTrigger::Automatic)
    {
        assert!(Instant::now() < deadline, "no automatic checkpoint");
        std::thread::sleep(Duration::from_millis(20));
    }
    let report = db.checkpoint().unwrap();
    let history = db.checkpoint_history();
    let last = history.last().unwrap();
    assert_eq!(last.trigger, CheckpointTrigger::Manual);
    assert_eq!(last.report, report);
    assert!(history
        .windows(2)
        .all(|w| w[0].finished_at <= w[1].finished_at
            && w[0].report.checkpoint_ts <= w[1].report.checkpoint_ts));
    let automatic = &history[0];
    assert_eq!(automatic.trigger, CheckpointTrigger::Automatic);
    assert!(automatic.report.bytes_written > 0, "{automatic:?}");
}

/// A rebuild (ALTER TABLE in the SQL layer) creates a replacement under
/// the same name before it drops the original; a restart in between, with
/// both in the log or in a checkpoint, must bring both back.
#[test]
fn a_replacement_shares_its_name_until_the_original_goes() {
    let dir = Scratch::new("durability-replacement");
    let (original, replacement) = {
        let db = open(&dir.0);
        let original = create_accounts(&db);
        seed(&db, &original, &[(1, 100)]);
        expect_err(db.create_table(accounts_def(8)).map(|_| ()), 2714);
        let replacement = db.create_replacement(original.id, accounts_def(8)).unwrap();
        seed(&db, &replacement, &[(1, 100), (2, 200)]);
        // A third table of that name is still refused.
        expect_err(
            db.create_replacement(original.id, accounts_def(8))
                .map(|_| ()),
            2714,
        );
        (original.id, replacement.id)
    };
    // First from the log (then checkpoint), then from the checkpoint
    // (then drop the original).
    for from_checkpoint in [false, true] {
        let db = open(&dir.0);
        let original = db.table(original).expect("the original is back");
        let replacement = db.table(replacement).expect("the replacement is back");
        assert_eq!(original.name(), replacement.name());
        assert_eq!(committed_balances(&db, &original).len(), 1);
        assert_eq!(committed_balances(&db, &replacement).len(), 2);
        if from_checkpoint {
            db.drop_table(original.id).unwrap();
        } else {
            db.checkpoint().unwrap();
        }
    }
    let db = open(&dir.0);
    assert!(db.table(original).is_none());
    assert_eq!(committed_balances(&db, &accounts(&db)).len(), 2);
}

#[test]
fn schema_only_tables_come_back_empty_and_dropped_tables_stay_dropped() {
    let dir = Scratch::new("durability-schema-only");
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
    let kept = db
        .table_named("Sales", "accounts")
        .expect("schema and table");
    assert_eq!(committed_balances(&db, &kept), BTreeMap::from([(7, 70)]));
    // Ids are never reused: a new table gets a fresh one.
    let fresh = db.create_table(accounts_def(8)).unwrap();
    assert!(fresh.id > kept.id);
}

#[test]
fn delayed_durability_follows_the_database_option() {
    let dir = Scratch::new("durability-delayed");
    let db = open(&dir.0);
    let table = create_accounts(&db);
    db.set_delayed_durability(DelayedDurability::Allowed)
        .unwrap();
    let flushes = db.log_stats().unwrap().flushes;
    for id in 0..50 {
        let mut tx = db.begin(IsolationLevel::Snapshot).unwrap();
        tx.set_delayed_durability(true);
        tx.insert(&table, &[Value::Int(id), Value::BigInt(0)])
            .unwrap();
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

// The database options survive a restart through the log (the last
// change wins), then through a checkpoint root once the log is truncated.
#[test]
fn database_options_survive_the_log_and_checkpoints() {
    let dir = Scratch::new("durability-options");
    let both = DatabaseOptions {
        delayed_durability: DelayedDurability::Forced,
        elevate_to_snapshot: true,
        recovery: RecoveryModel::Full,
        user_access: UserAccess::Single,
    };
    {
        let db = open(&dir.0);
        assert_eq!(db.options(), DatabaseOptions::default());
        db.change_options(|o| o.elevate_to_snapshot = true).unwrap();
        db.change_options(|o| {
            o.recovery = RecoveryModel::Full;
            o.user_access = UserAccess::Single;
        })
        .unwrap();
        db.set_delayed_durability(DelayedDurability::Allowed)
            .unwrap();
        let left = db
            .change_options(|o| o.delayed_durability = DelayedDurability::Forced)
            .unwrap();
        assert_eq!(left, both);
    }
    let db = open(&dir.0);
    assert_eq!(db.options(), both);
    db.checkpoint().unwrap();
    drop(db);
    let db = open(&dir.0);
    assert_eq!(db.options(), both);
    assert_eq!(db.recovery_report().unwrap().commits_replayed, 0);
    db.change_options(|o| o.elevate_to_snapshot = false)
        .unwrap();
    db.checkpoint().unwrap();
    drop(db);
    let db = open(&dir.0);
    assert_eq!(
        db.options(),
        DatabaseOptions {
            elevate_to_snapshot: false,
            ..both
        }
    );
}

#[test]
fn tables_without_a_unique_index_replay_deletes_of_identical_rows() {
    let dir = Scratch::new("durability-heap");
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

#[test]
fn a_directory_is_opened_by_one_database_at_a_time() {
    let dir = Scratch::new("durability-lock");
    let db = open(&dir.0);
    let second = Database::open(&dir.0, DatabaseConfig::default(), StorageConfig::small());
    expect_err(second.map(|_| ()), 5120);
    drop(db);
    open(&dir.0);
}

/// Random transactions against a model, with checkpoints, merges (tiny
/// data files) and restarts in between: after every restart the database
/// equals the model.
#[test]
fn random_work_with_checkpoints_merges_and_restarts_matches_a_model() {
    let dir = Scratch::new("durability-model");
    let storage = StorageConfig {
        data_file_bytes: 8 << 10,
        delta_file_bytes: 4 << 10,
        log_segment_bytes: 64 << 10,
        checkpoint_log_bytes: 256 << 10,
        ..StorageConfig::small()
    };
    let open = || Database::open(&dir.0, DatabaseConfig::default(), storage.clone()).unwrap();
    let mut rng = Rng::new(0x5eed);
    let mut model: BTreeMap<i32, i64> = BTreeMap::new();
    let mut next_id = 0;
    let mut merges = 0;
    let mut db = open();
    let mut table = create_accounts(&db);
    for round in 0..60 {
        for _ in 0..20 {
            let mut tx = db.begin(IsolationLevel::Snapshot).unwrap();
            let mut changed = model.clone();
            for _ in 0..1 + rng.below(8) {
                let existing: Vec<i32> = changed.keys().copied().collect();
                match rng.below(4) {
                    0 | 1 if !existing.is_empty() && rng.below(2) == 0 => {
                        let id = existing[rng.below(existing.len() as u64) as usize];
                        let value = rng.below(1000) as i64;
                        set_balance(&mut tx, &table, id, value).unwrap();
                        changed.insert(id, value);
                    }
                    2 if !existing.is_empty() => {
                        let id = existing[rng.below(existing.len() as u64) as usize];
                        delete_account(&mut tx, &table, id).unwrap();
                        changed.remove(&id);
                    }
                    _ => {
                        next_id += 1;
                        let value = rng.below(1000) as i64;
                        tx.insert(&table, &[Value::Int(next_id), Value::BigInt(value)])
                            .unwrap();
                        changed.insert(next_id, value);
                    }
                }
            }
            if rng.below(10) == 0 {
                tx.rollback();
            } else {
                tx.commit().unwrap();
                model = changed;
            }
        }
        if rng.below(3) == 0 {
            merges += db.checkpoint().unwrap().merges;
        }
        if rng.below(5) == 0 {
            drop(db);
            db = open();
            table = accounts(&db);
            assert_eq!(
                committed_balances(&db, &table),
                model,
                "after the restart in round {round}"
            );
        }
    }
    assert!(merges > 0, "tiny data files should have been merged");
    drop(db);
    let db = open();
    assert_eq!(committed_balances(&db, &accounts(&db)), model);
}

/// A transaction too big for one log block is written in parts over
/// several blocks; it is recovered whole, or (if its last part never
/// reached the disk) not at all.
#[test]
fn a_transaction_spanning_blocks_is_all_or_nothing() {
    let def = || {
        TableDef::new(
            "wide",
            vec![
                ColumnDef::new("id", DataType::Int, false),
                ColumnDef::new("pad", varchar(400), false),
            ],
            vec![IndexDef::hash("pk", &[0], 1 << 16, Uniqueness::PrimaryKey)],
        )
    };
    let count = |db: &Database| {
        let table = db.table_named("dbo", "wide").unwrap();
        let mut tx = db.begin(IsolationLevel::Snapshot).unwrap();
        scan_rows(&mut tx, &table).unwrap().len()
    };
    // No automatic checkpoint: the log alone must carry the transaction.
    let storage = StorageConfig {
        checkpoint_log_bytes: u64::MAX,
        ..StorageConfig::small()
    };
    let open =
        |dir: &Path| Database::open(dir, DatabaseConfig::default(), storage.clone()).unwrap();
    for lose_last_part in [false, true] {
        let dir = Scratch::new("durability-parts");
        {
            let db = open(&dir.0);
            let table = db.create_table(def()).unwrap();
            let mut tx = db.begin(IsolationLevel::Snapshot).unwrap();
            tx.insert(&table, &[Value::Int(-1), Value::String("first".into())])
                .unwrap();
            tx.commit().unwrap();
            let mut tx = db.begin(IsolationLevel::Snapshot).unwrap();
            let pad = "x".repeat(400);
            for id in 0..50_000 {
                tx.insert(&table, &[Value::Int(id), Value::String(pad.clone())])
                    .unwrap();
            }
            tx.commit().unwrap();
        }
        let mut segments: Vec<PathBuf> = std::fs::read_dir(dir.0.join("log"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "log"))
            .collect();
        segments.sort();
        assert!(segments.len() >= 3, "20 MB in 8 MB blocks: {segments:?}");
        if lose_last_part {
            // The last flush never happened: its segment holds zeros.
            let last = segments.last().unwrap();
            let len = std::fs::metadata(last).unwrap().len();
            std::fs::write(last, vec![0u8; len as usize]).unwrap();
        }
        let db = open(&dir.0);
        assert_eq!(count(&db), if lose_last_part { 1 } else { 50_001 });
    }
}

/// Past the memory limit a table is refused (41805) before anything is
/// logged, so it does not come back at the next open; rows past it are
/// refused too, and what was charged returns when a table is dropped.
#[test]
fn the_memory_limit_refuses_tables_and_rows_past_it() {
    let dir = Scratch::new("durability-memory-limit");
    let config = DatabaseConfig {
        memory_limit_bytes: 4 << 20,
        ..DatabaseConfig::default()
    };
    {
        let db = Database::open(&dir.0, config.clone(), StorageConfig::small()).unwrap();
        let refused = db.create_table(accounts_def(1 << 30)).map(|_| ());
        assert_eq!(refused.unwrap_err().number, 41805);
        assert_eq!(db.memory_used(), 0);
        let table = create_accounts(&db);
        let mut tx = db.begin(IsolationLevel::Snapshot).unwrap();
        let mut inserted = 0;
        let error = loop {
            match tx.insert(&table, &[Value::Int(inserted), Value::BigInt(0)]) {
                Ok(_) => inserted += 1,
                Err(error) => break error,
            }
        };
        assert_eq!(error.number, 41805);
        assert!(inserted > 1000, "only {inserted} rows fit in 4 MiB");
        assert!(db.memory_used() <= db.memory_limit());
        tx.rollback();
        db.drop_table(table.id).unwrap();
        drop(table);
        db.collect_garbage();
        db.collect_garbage();
        assert_eq!(db.dropped_tables_pending(), 0);
    }
    let db = Database::open(&dir.0, config, StorageConfig::small()).unwrap();
    assert!(db.tables().is_empty());
}
