use super::SCAN_BATCH_ROWS;
use crate::{ColumnDef, Database, IndexDef, IsolationLevel, Table, TableDef, Transaction};
use crate::{RowId, Uniqueness};
use hekla_types::{Collation, DataType, Length, Value};
use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// `items(id int PRIMARY KEY HASH, qty smallint, note varchar(20) NULL)`:
/// a variable-width column, so payload lengths differ from row to row.
fn items(db: &Database) -> Arc<Table> {
    let note = DataType::VarChar {
        len: Length::Bounded(20),
        collation: Collation::default(),
    };
    db.create_table(TableDef::new(
        "items",
        vec![
            ColumnDef::new("id", DataType::Int, false),
            ColumnDef::new("qty", DataType::SmallInt, false),
            ColumnDef::new("note", note, true),
        ],
        vec![IndexDef::hash("pk", &[0], 1024, Uniqueness::PrimaryKey)],
    ))
    .expect("create items")
}

fn item(id: i32) -> Vec<Value> {
    let note = match id % 3 {
        0 => Value::Null,
        n => Value::String("x".repeat(id as usize % 17 + n as usize)),
    };
    vec![Value::Int(id), Value::SmallInt((id % 1000) as i16), note]
}

fn begin(db: &Database) -> Transaction {
    db.begin(IsolationLevel::Snapshot).expect("begin")
}

fn row_id(tx: &mut Transaction, table: &Arc<Table>, id: i32) -> RowId {
    tx.get(table, 0, &[Value::Int(id)])
        .expect("lookup")
        .expect("the row is there")
}

/// The rows `tx` finds through `scan_payloads`, decoded, in scan order,
/// and the sizes of the batches they came in.
fn by_payloads(tx: &mut Transaction, table: &Arc<Table>) -> (Vec<Vec<Value>>, Vec<usize>) {
    let (mut rows, mut batches) = (Vec::new(), Vec::new());
    let stopped = tx
        .scan_payloads::<()>(table, |payloads| {
            batches.push(payloads.len());
            assert_eq!(payloads.iter().count(), payloads.len());
            for (payload, &start) in payloads.iter().zip(payloads.starts()) {
                assert_eq!(payload.as_ptr(), start);
                assert!(payload.len() >= payloads.prefix_len());
                rows.push(table.decode_row(payload));
            }
            ControlFlow::Continue(())
        })
        .expect("scan_payloads");
    assert_eq!(stopped, None);
    (rows, batches)
}

/// The rows `tx` finds through `scan`, in scan order.
fn by_rows(tx: &mut Transaction, table: &Arc<Table>) -> Vec<Vec<Value>> {
    let mut rows = Vec::new();
    tx.scan::<()>(table, |row| {
        rows.push(row.values());
        ControlFlow::Continue(())
    })
    .expect("scan");
    rows
}

/// Scans with `tx` both ways: the same rows in the same order, and the
/// rows of `expected` (by id) as a set; full batches but the last.
fn assert_scans(tx: &mut Transaction, table: &Arc<Table>, expected: &BTreeMap<i32, Vec<Value>>) {
    let (rows, batches) = by_payloads(tx, table);
    assert_eq!(rows, by_rows(tx, table), "the same rows as scan, in order");
    let found: BTreeMap<i32, Vec<Value>> = rows
        .into_iter()
        .map(|row| match row[0] {
            Value::Int(id) => (id, row),
            ref other => panic!("id {other:?}"),
        })
        .collect();
    assert_eq!(&found, expected);
    assert_eq!(
        batches.iter().sum::<usize>(),
        expected.len(),
        "no row twice"
    );
    if let Some((last, full)) = batches.split_last() {
        assert!(full.iter().all(|&size| size == SCAN_BATCH_ROWS));
        assert!((1..=SCAN_BATCH_ROWS).contains(last));
    }
}

#[test]
fn a_payload_scan_sees_what_a_row_scan_sees_in_every_version_state() {
    let db = Database::default();
    let table = items(&db);
    let mut model: BTreeMap<i32, Vec<Value>> = BTreeMap::new();
    assert_scans(&mut begin(&db), &table, &model);
    // Committed rows over several batches.
    let mut seed = begin(&db);
    for id in 0..700 {
        seed.insert(&table, &item(id)).expect("insert");
        model.insert(id, item(id));
    }
    seed.commit().expect("seed");
    // Committed deletes and updates: old versions ended, new ones begun.
    let mut change = begin(&db);
    for id in (0..700).step_by(7) {
        let row = row_id(&mut change, &table, id);
        change.delete(&table, row).expect("delete");
        model.remove(&id);
    }
    for id in (1..700).step_by(5).filter(|id| id % 7 != 0) {
        let row = row_id(&mut change, &table, id);
        change
            .update(&table, row, &[(1, Value::SmallInt(-1))])
            .expect("update");
        model.insert(
            id,
            vec![Value::Int(id), Value::SmallInt(-1), item(id)[2].clone()],
        );
    }
    change.commit().expect("change");
    // Rolled back: an insert, a delete and an update (aborted versions).
    let mut aborted = begin(&db);
    aborted.insert(&table, &item(5000)).expect("insert");
    let row = row_id(&mut aborted, &table, 2);
    aborted.delete(&table, row).expect("delete");
    let row = row_id(&mut aborted, &table, 3);
    aborted
        .update(&table, row, &[(1, Value::SmallInt(9))])
        .expect("update");
    aborted.rollback();
    assert_scans(&mut begin(&db), &table, &model);

    let mut reader = begin(&db);
    // Another transaction's uncommitted work, under way while `reader`
    // reads: an insert it does not see, a delete and an update whose old
    // versions it still sees.
    let mut writer = begin(&db);
    writer.insert(&table, &item(6000)).expect("insert");
    let row = row_id(&mut writer, &table, 4);
    writer.delete(&table, row).expect("delete");
    let row = row_id(&mut writer, &table, 6);
    writer
        .update(&table, row, &[(1, Value::SmallInt(77))])
        .expect("update");
    // The reader's own: an insert it sees, a delete it does not, an
    // update it sees the new version of.
    let mut own = model.clone();
    reader.insert(&table, &item(7000)).expect("insert");
    own.insert(7000, item(7000));
    let row = row_id(&mut reader, &table, 8);
    reader.delete(&table, row).expect("delete");
    own.remove(&8);
    let row = row_id(&mut reader, &table, 9);
    reader
        .update(&table, row, &[(1, Value::SmallInt(99))])
        .expect("update");
    own.insert(
        9,
        vec![Value::Int(9), Value::SmallInt(99), item(9)[2].clone()],
    );
    assert_scans(&mut reader, &table, &own);
    // The writer commits after the reader began: the reader's snapshot is
    // unchanged; a transaction begun now sees the writer's work.
    writer.commit().expect("writer");
    assert_scans(&mut reader, &table, &own);
    reader.rollback();
    model.insert(6000, item(6000));
    model.remove(&4);
    model.insert(
        6,
        vec![Value::Int(6), Value::SmallInt(77), item(6)[2].clone()],
    );
    assert_scans(&mut begin(&db), &table, &model);
}

#[test]
fn a_visitor_that_breaks_stops_the_scan() {
    let db = Database::default();
    let table = items(&db);
    let mut seed = begin(&db);
    for id in 0..(SCAN_BATCH_ROWS as i32 * 3) {
        seed.insert(&table, &item(id)).expect("insert");
    }
    seed.commit().expect("seed");
    let mut tx = begin(&db);
    let mut batches = 0;
    let stopped = tx
        .scan_payloads(&table, |payloads| {
            batches += 1;
            match batches {
                2 => ControlFlow::Break(payloads.len()),
                _ => ControlFlow::Continue(()),
            }
        })
        .expect("scan");
    assert_eq!((stopped, batches), (Some(SCAN_BATCH_ROWS), 2));
    // A break in the last, partial batch.
    let mut seed = begin(&db);
    seed.insert(&table, &item(10_000)).expect("insert");
    seed.commit().expect("seed");
    let mut tx = begin(&db);
    let stopped = tx
        .scan_payloads(&table, |payloads| match payloads.len() {
            SCAN_BATCH_ROWS => ControlFlow::Continue(()),
            last => ControlFlow::Break(last),
        })
        .expect("scan");
    assert_eq!(stopped, Some(1));
}

#[test]
fn payload_scans_are_validated_at_commit_as_row_scans_are() {
    let db = Database::default();
    let table = items(&db);
    let mut seed = begin(&db);
    for id in 0..10 {
        seed.insert(&table, &item(id)).expect("insert");
    }
    seed.commit().expect("seed");
    let scan_at = |level| {
        let mut tx = db.begin(level).expect("begin");
        by_payloads(&mut tx, &table);
        tx
    };
    // REPEATABLE READ: a row it read was updated since.
    let reader = scan_at(IsolationLevel::RepeatableRead);
    let mut writer = begin(&db);
    let row = row_id(&mut writer, &table, 1);
    writer
        .update(&table, row, &[(1, Value::SmallInt(5))])
        .expect("update");
    writer.commit().expect("writer");
    assert_eq!(reader.commit().unwrap_err().number, 41305);
    // SERIALIZABLE: a row appeared where it scanned.
    let reader = scan_at(IsolationLevel::Serializable);
    let mut writer = begin(&db);
    writer.insert(&table, &item(100)).expect("insert");
    writer.commit().expect("writer");
    assert_eq!(reader.commit().unwrap_err().number, 41325);
    // SNAPSHOT validates nothing.
    let reader = scan_at(IsolationLevel::Snapshot);
    let mut writer = begin(&db);
    writer.insert(&table, &item(101)).expect("insert");
    writer.commit().expect("writer");
    reader.commit().expect("snapshot reader");
}

/// Writers move quantity between rows, keeping the total; every payload
/// scan, made meanwhile, must add up to it (a version seen twice, or a
/// payload read as it is reused, would not).
#[test]
fn payload_scans_under_concurrent_writers_see_consistent_snapshots() {
    let db = Database::default();
    let table = items(&db);
    let rows = 600;
    let mut seed = begin(&db);
    for id in 0..rows {
        let values = [Value::Int(id), Value::SmallInt(10), Value::Null];
        seed.insert(&table, &values).expect("insert");
    }
    seed.commit().expect("seed");
    let total = i64::from(rows) * 10;
    let qty = table.fixed_place(1).expect("qty is fixed-width");
    // Set when the scans are done; the writer writes until then.
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let writer = scope.spawn(|| {
            let mut moves = 0u32;
            let mut step = 0i32;
            // (Bounded, should the scans fail and never say they are done.)
            while step < 100 || (step < 200_000 && !done.load(Ordering::Acquire)) {
                step += 1;
                let (from, to) = (step * 7 % rows, step * 13 % rows);
                if from == to {
                    continue;
                }
                let mut tx = begin(&db);
                let take = |tx: &mut Transaction, id: i32, delta: i16| {
                    let row = row_id(tx, &table, id);
                    let Value::SmallInt(now) = tx.row(&table, row)?.value(1) else {
                        panic!("qty is smallint");
                    };
                    tx.update(&table, row, &[(1, Value::SmallInt(now + delta))])
                };
                let moved = take(&mut tx, from, -1).and_then(|_| take(&mut tx, to, 1));
                // Some are rolled back midway, leaving aborted versions.
                if moved.is_ok() && step % 5 != 0 && tx.commit().is_ok() {
                    moves += 1;
                }
            }
            moves
        });
        for scan in 0..300 {
            let mut tx = begin(&db);
            let (mut sum, mut seen) = (0i64, 0);
            tx.scan_payloads::<()>(&table, |payloads| {
                for payload in payloads.iter() {
                    let at = qty.offset;
                    sum += i64::from(i16::from_le_bytes([payload[at], payload[at + 1]]));
                    seen += 1;
                }
                ControlFlow::Continue(())
            })
            .expect("scan");
            assert_eq!((sum, seen), (total, rows), "scan {scan}");
            tx.commit().expect("a snapshot reader commits");
        }
        done.store(true, Ordering::Release);
        assert!(writer.join().expect("writer") > 0);
    });
}
