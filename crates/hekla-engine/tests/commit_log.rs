//! The durability hook: what a commit hands to the redo log.

mod common;

use common::*;
use hekla_engine::{
    CommitLog, CommitRecord, Database, Durability, IsolationLevel::Snapshot, RowChange,
};
use hekla_types::{SqlError, SqlResult};
use std::sync::{Arc, Mutex};

/// What a record said, decoded: (commit ts, [(table, "insert"/"delete", id, balance, begin_ts)]).
type Logged = (u64, Vec<(u32, &'static str, i32, i64, u64)>);

/// Records every commit record; refuses appends while `failing` is set.
#[derive(Default)]
struct RecordingLog {
    records: Mutex<Vec<Logged>>,
    failing: Mutex<bool>,
}

impl CommitLog for RecordingLog {
    fn append(&self, record: &CommitRecord<'_>) -> SqlResult<()> {
        if *self.failing.lock().unwrap() {
            return Err(SqlError::new(9002, 17, 2, "The transaction log is full."));
        }
        let changes = record
            .changes
            .iter()
            .map(|change| {
                let (table, kind, row, begin_ts) = match change {
                    RowChange::Insert { table, row } => (table, "insert", row, 0),
                    RowChange::Delete {
                        table,
                        row,
                        begin_ts,
                    } => (table, "delete", row, *begin_ts),
                };
                let values = table.decode_row(row);
                (
                    table.id,
                    kind,
                    int(&values[0]),
                    bigint(&values[1]),
                    begin_ts,
                )
            })
            .collect();
        self.records
            .lock()
            .unwrap()
            .push((record.commit_ts, changes));
        Ok(())
    }
}

fn logged_db() -> (Database, Arc<RecordingLog>) {
    let db = Database::default();
    let log = Arc::new(RecordingLog::default());
    db.set_commit_log(log.clone()).unwrap();
    (db, log)
}

#[test]
fn each_commit_yields_one_record_of_row_images() {
    let (db, log) = logged_db();
    let accounts = create_accounts(&db);
    seed(&db, &accounts, &[(1, 10), (2, 20)]);
    let seeded_at = log.records.lock().unwrap()[0].0;

    let mut tx = db.begin(Snapshot).unwrap();
    set_balance(&mut tx, &accounts, 1, 11).unwrap();
    delete_account(&mut tx, &accounts, 2).unwrap();
    let committed_at = tx.commit().unwrap();

    let records = log.records.lock().unwrap();
    assert_eq!(records.len(), 2, "one record per read-write commit");
    let id = accounts.id;
    assert_eq!(
        records[0],
        (
            seeded_at,
            vec![(id, "insert", 1, 10, 0), (id, "insert", 2, 20, 0)]
        )
    );
    // An update is the old image deleted and the new one inserted; deletes
    // carry the timestamp the deleted version was born at.
    assert_eq!(
        records[1],
        (
            committed_at,
            vec![
                (id, "delete", 1, 10, seeded_at),
                (id, "insert", 1, 11, 0),
                (id, "delete", 2, 20, seeded_at),
            ]
        )
    );
}

#[test]
fn read_only_work_and_own_temporary_rows_are_not_logged() {
    let (db, log) = logged_db();
    let accounts = create_accounts(&db);
    let mut reader = db.begin(Snapshot).unwrap();
    assert_eq!(balance(&mut reader, &accounts, 1), None);
    reader.commit().unwrap();

    // Inserted and deleted in one transaction: nobody else ever saw it.
    let mut tx = db.begin(Snapshot).unwrap();
    tx.insert(
        &accounts,
        &[hekla_types::Value::Int(5), hekla_types::Value::BigInt(1)],
    )
    .unwrap();
    set_balance(&mut tx, &accounts, 5, 2).unwrap();
    delete_account(&mut tx, &accounts, 5).unwrap();
    tx.commit().unwrap();
    assert!(log.records.lock().unwrap().is_empty());
}

#[test]
fn schema_only_tables_are_not_logged() {
    let (db, log) = logged_db();
    let mut def = accounts_def(64);
    def.durability = Durability::SchemaOnly;
    let scratch = db.create_table(def).unwrap();
    seed(&db, &scratch, &[(1, 1)]);
    assert!(log.records.lock().unwrap().is_empty());
    assert_eq!(committed_balances(&db, &scratch).len(), 1);
}

#[test]
fn a_refused_append_aborts_the_commit() {
    let (db, log) = logged_db();
    let accounts = create_accounts(&db);
    seed(&db, &accounts, &[(1, 10)]);
    *log.failing.lock().unwrap() = true;
    let mut tx = db.begin(Snapshot).unwrap();
    set_balance(&mut tx, &accounts, 1, 99).unwrap();
    let error = tx.commit().unwrap_err();
    assert_eq!(error.number, 9002);
    *log.failing.lock().unwrap() = false;
    assert_eq!(
        committed_balances(&db, &accounts)[&1],
        10,
        "nothing visible"
    );
    // The row is free again for the next writer.
    let mut tx = db.begin(Snapshot).unwrap();
    set_balance(&mut tx, &accounts, 1, 12).unwrap();
    tx.commit().unwrap();
    assert_eq!(committed_balances(&db, &accounts)[&1], 12);
}

#[test]
fn a_second_log_is_refused() {
    let (db, _log) = logged_db();
    assert!(db
        .set_commit_log(Arc::new(RecordingLog::default()))
        .is_err());
}

/// A log that holds each append until the test lets it go, then accepts or
/// refuses it: it keeps a committing transaction in the Preparing state.
#[derive(Default)]
struct GatedLog {
    /// None: closed; Some(true): accept the next append; Some(false): refuse it.
    gate: Mutex<Option<bool>>,
    opened: std::sync::Condvar,
    waiting: std::sync::atomic::AtomicBool,
}

impl GatedLog {
    fn release(&self, accept: bool) {
        *self.gate.lock().unwrap() = Some(accept);
        self.opened.notify_all();
    }

    fn wait_until_holding(&self) {
        while !self.waiting.load(std::sync::atomic::Ordering::SeqCst) {
            std::thread::yield_now();
        }
    }
}

impl CommitLog for GatedLog {
    fn append(&self, _record: &CommitRecord<'_>) -> SqlResult<()> {
        self.waiting
            .store(true, std::sync::atomic::Ordering::SeqCst);
        let mut gate = self.gate.lock().unwrap();
        while gate.is_none() {
            gate = self.opened.wait(gate).unwrap();
        }
        let accept = gate.take().unwrap();
        self.waiting
            .store(false, std::sync::atomic::Ordering::SeqCst);
        if accept {
            Ok(())
        } else {
            Err(SqlError::new(9002, 17, 2, "The transaction log is full."))
        }
    }
}

/// A reader that begins after a writer has taken its end timestamp sees
/// the writer's rows while it is still logging (speculatively), and may
/// commit only if the writer does: 41301 if the writer fails.
#[test]
fn speculative_reads_commit_only_with_the_transaction_they_read() {
    for writer_commits in [true, false] {
        let db = Database::default();
        let accounts = create_accounts(&db);
        seed(&db, &accounts, &[(1, 10)]);
        let log = Arc::new(GatedLog::default());
        db.set_commit_log(log.clone()).unwrap();
        std::thread::scope(|s| {
            let writer = s.spawn(|| {
                let mut tx = db.begin(Snapshot).unwrap();
                set_balance(&mut tx, &accounts, 1, 11).unwrap();
                tx.commit()
            });
            log.wait_until_holding();
            // The writer is preparing: its end timestamp is below our read
            // timestamp, so we see its update, on condition that it commits.
            let mut reader = db.begin(Snapshot).unwrap();
            assert_eq!(balance(&mut reader, &accounts, 1), Some(11));
            log.release(writer_commits);
            let written = writer.join().unwrap();
            assert_eq!(written.is_ok(), writer_commits);
            if writer_commits {
                reader.commit().unwrap();
            } else {
                expect_msg(
                    reader.commit(),
                    DEPENDENCY_FAILURE,
                    "A previous transaction that the current transaction took a dependency on has aborted, and the current transaction can no longer commit.",
                );
            }
        });
        let expected = if writer_commits { 11 } else { 10 };
        assert_eq!(committed_balances(&db, &accounts)[&1], expected);
    }
}

/// A reader that took a handle to a row it read speculatively cannot use it
/// once the writer has aborted, however much is collected and inserted.
#[test]
fn handles_from_speculative_reads_die_with_the_aborted_writer() {
    let db = Database::default();
    let accounts = create_accounts(&db);
    let log = Arc::new(GatedLog::default());
    db.set_commit_log(log.clone()).unwrap();
    std::thread::scope(|s| {
        let writer = s.spawn(|| {
            let mut tx = db.begin(Snapshot).unwrap();
            tx.insert(
                &accounts,
                &[hekla_types::Value::Int(1), hekla_types::Value::BigInt(1)],
            )
            .unwrap();
            tx.commit()
        });
        log.wait_until_holding();
        let mut reader = db.begin(Snapshot).unwrap();
        let seen = reader
            .get(&accounts, 0, &[hekla_types::Value::Int(1)])
            .unwrap()
            .expect("read speculatively");
        log.release(false);
        assert!(writer.join().unwrap().is_err());
        db.collect_garbage();
        // The reader is doomed: its work and its commit fail with 41301.
        assert_eq!(
            reader.row(&accounts, seen).unwrap_err().number,
            DEPENDENCY_FAILURE
        );
        assert_eq!(reader.commit().unwrap_err().number, DEPENDENCY_FAILURE);
    });
}

/// A reader holds back what it read speculatively until the writer it
/// read has ended: settling its dependencies waits for the writer's commit
/// and fails with 41301 if the writer aborts. The handle to the reader's
/// dependencies (used while the reader is borrowed) behaves the same.
#[test]
fn results_wait_until_the_transactions_read_speculatively_have_ended() {
    for (writer_commits, by_handle) in [(true, false), (false, false), (true, true), (false, true)]
    {
        let db = Database::default();
        let accounts = create_accounts(&db);
        seed(&db, &accounts, &[(1, 10)]);
        let log = Arc::new(GatedLog::default());
        db.set_commit_log(log.clone()).unwrap();
        std::thread::scope(|s| {
            let writer = s.spawn(|| {
                let mut tx = db.begin(Snapshot).unwrap();
                set_balance(&mut tx, &accounts, 1, 11).unwrap();
                tx.commit()
            });
            log.wait_until_holding();
            let mut reader = db.begin(Snapshot).unwrap();
            assert_eq!(balance(&mut reader, &accounts, 1), Some(11));
            let pending = |id| {
                db.active_transactions()
                    .iter()
                    .find(|t| t.id == id)
                    .map(|t| t.pending_dependencies)
            };
            assert_eq!(pending(reader.id()), Some(1));
            let handle = reader.dependencies();
            let db = &db;
            let settling = s.spawn(move || {
                let settled = if by_handle {
                    db.settle_dependencies(handle)
                } else {
                    reader.settle_dependencies()
                };
                (reader, settled)
            });
            // The writer is held in its commit: nothing can settle yet.
            std::thread::sleep(std::time::Duration::from_millis(20));
            assert!(!settling.is_finished(), "settled before the writer ended");
            log.release(writer_commits);
            assert_eq!(writer.join().unwrap().is_ok(), writer_commits);
            let (reader, settled) = settling.join().unwrap();
            if writer_commits {
                settled.unwrap();
                // Settled once, settled for good: at once from now on.
                reader.settle_dependencies().unwrap();
                reader.commit().unwrap();
            } else {
                expect_msg(
                    settled,
                    DEPENDENCY_FAILURE,
                    "A previous transaction that the current transaction took a dependency on has aborted, and the current transaction can no longer commit.",
                );
                assert!(reader.is_active(), "the caller rolls it back");
                expect_err(reader.settle_dependencies(), DEPENDENCY_FAILURE);
                expect_err(reader.commit(), DEPENDENCY_FAILURE);
            }
            // The reader has ended: its handle has nothing left to wait for.
            db.settle_dependencies(handle).unwrap();
        });
    }
}

/// Without speculative reads there is nothing to wait for, even while
/// another transaction is held in its commit; a handle is refused by
/// another database.
#[test]
fn settling_without_speculative_reads_returns_at_once() {
    let db = Database::default();
    let accounts = create_accounts(&db);
    seed(&db, &accounts, &[(1, 10), (2, 20)]);
    let log = Arc::new(GatedLog::default());
    db.set_commit_log(log.clone()).unwrap();
    std::thread::scope(|s| {
        let writer = s.spawn(|| {
            let mut tx = db.begin(Snapshot).unwrap();
            set_balance(&mut tx, &accounts, 1, 11).unwrap();
            tx.commit()
        });
        log.wait_until_holding();
        // Row 2 is not the writer's: reading it takes no dependency, and
        // settling returns while the writer is still held.
        let mut reader = db.begin(Snapshot).unwrap();
        assert_eq!(balance(&mut reader, &accounts, 2), Some(20));
        reader.settle_dependencies().unwrap();
        db.settle_dependencies(reader.dependencies()).unwrap();
        let other = Database::default();
        expect_err(other.settle_dependencies(reader.dependencies()), 50000);
        reader.commit().unwrap();
        log.release(true);
        writer.join().unwrap().unwrap();
    });
}
