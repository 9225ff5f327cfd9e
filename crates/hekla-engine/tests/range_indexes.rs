//! Range (NONCLUSTERED) indexes through the transaction API: ordered
//! scans, prefix seeks and bounds, composite and descending keys, NULL and
//! collation-aware keys, uniqueness, MVCC visibility, garbage collection
//! and the statistics DMVs read.

mod common;

use common::*;
use hekla_engine::{
    ColumnDef, Database, IndexDef, IndexStats, IsolationLevel::Snapshot, KeyRange, RangeIndexStats,
    Table, TableDef, Transaction, Uniqueness,
};
use hekla_types::{DataType, SortOrder, Value};
use std::ops::{Bound, ControlFlow};
use std::sync::Arc;

use SortOrder::{Ascending, Descending};

/// `products(id int, name varchar(40) NULL, price bigint)` with a range
/// primary key on id, a non-unique range index on (name, price DESC) and a
/// unique range index on price.
fn products(db: &Database) -> Arc<Table> {
    db.create_table(TableDef::new(
        "products",
        vec![
            ColumnDef::new("id", DataType::Int, false),
            ColumnDef::new("name", varchar(40), true),
            ColumnDef::new("price", DataType::BigInt, false),
        ],
        vec![
            IndexDef::range("PK_products", &[(0, Ascending)], Uniqueness::PrimaryKey),
            IndexDef::range(
                "IX_name_price",
                &[(1, Ascending), (2, Descending)],
                Uniqueness::NotUnique,
            ),
            IndexDef::range("UX_price", &[(2, Ascending)], Uniqueness::UniqueIndex),
        ],
    ))
    .unwrap()
}

fn product(id: i32, name: Option<&str>, price: i64) -> Vec<Value> {
    vec![
        Value::Int(id),
        name.map_or(Value::Null, |n| Value::String(n.into())),
        Value::BigInt(price),
    ]
}

fn load(db: &Database, table: &Arc<Table>, rows: &[Vec<Value>]) {
    let mut tx = db.begin(Snapshot).unwrap();
    for row in rows {
        tx.insert(table, row).unwrap();
    }
    tx.commit().unwrap();
}

/// The ids of the rows `range` finds in index `index`, in index order.
fn ids(tx: &mut Transaction, table: &Arc<Table>, index: usize, range: KeyRange) -> Vec<i32> {
    let mut found = Vec::new();
    tx.scan_range::<()>(table, index, &range, |row| {
        found.push(int(&row.value(0)));
        ControlFlow::Continue(())
    })
    .unwrap();
    found
}

fn between(lower: Bound<Vec<Value>>, upper: Bound<Vec<Value>>) -> KeyRange {
    KeyRange::new(lower, upper)
}

fn ints(values: &[i32]) -> Vec<Value> {
    values.iter().map(|&v| Value::Int(v)).collect()
}

#[test]
fn scans_return_rows_in_key_order_within_bounds() {
    let db = Database::default();
    let table = products(&db);
    // Inserted out of order.
    let rows: Vec<_> = [7, 3, 9, 1, 5]
        .iter()
        .map(|&id| product(id, Some("p"), id as i64 * 10))
        .collect();
    load(&db, &table, &rows);
    let mut tx = db.begin(Snapshot).unwrap();
    assert_eq!(ids(&mut tx, &table, 0, KeyRange::all()), [1, 3, 5, 7, 9]);
    let inc = |v: i32| Bound::Included(ints(&[v]));
    let exc = |v: i32| Bound::Excluded(ints(&[v]));
    assert_eq!(ids(&mut tx, &table, 0, between(inc(3), inc(7))), [3, 5, 7]);
    assert_eq!(ids(&mut tx, &table, 0, between(exc(3), exc(7))), [5]);
    assert_eq!(ids(&mut tx, &table, 0, between(exc(3), inc(7))), [5, 7]);
    assert_eq!(
        ids(&mut tx, &table, 0, between(inc(4), Bound::Unbounded)),
        [5, 7, 9]
    );
    assert_eq!(
        ids(&mut tx, &table, 0, between(Bound::Unbounded, exc(5))),
        [1, 3]
    );
    assert_eq!(
        ids(&mut tx, &table, 0, between(inc(8), inc(2))),
        Vec::<i32>::new()
    );
    assert_eq!(ids(&mut tx, &table, 0, KeyRange::prefix(ints(&[9]))), [9]);
    // Point lookups go through the same index.
    assert_eq!(
        tx.get(&table, 0, &ints(&[5]))
            .unwrap()
            .map(|r| tx.row(&table, r).unwrap().value(2)),
        Some(Value::BigInt(50))
    );
    assert_eq!(tx.get(&table, 0, &ints(&[6])).unwrap(), None);
    // A scan stops when the visitor breaks.
    let first = tx
        .scan_range(&table, 0, &KeyRange::all(), |row| {
            ControlFlow::Break(int(&row.value(0)))
        })
        .unwrap();
    assert_eq!(first, Some(1));
    tx.commit().unwrap();
}

#[test]
fn composite_keys_seek_on_prefixes_with_descending_columns_and_nulls_first() {
    let db = Database::default();
    let table = products(&db);
    load(
        &db,
        &table,
        &[
            product(1, Some("bolt"), 30),
            product(2, Some("nut"), 10),
            product(3, Some("BOLT"), 50),
            product(4, None, 20),
            product(5, Some("bolt "), 40),
            product(6, Some("washer"), 60),
        ],
    );
    let mut tx = db.begin(Snapshot).unwrap();
    // NULL first; then 'bolt' in any case or trailing spaces (the default
    // collation is case-insensitive) by price descending; then the rest.
    assert_eq!(ids(&mut tx, &table, 1, KeyRange::all()), [4, 3, 5, 1, 2, 6]);
    let bolt = vec![Value::String("Bolt".into())];
    assert_eq!(
        ids(&mut tx, &table, 1, KeyRange::prefix(bolt.clone())),
        [3, 5, 1]
    );
    // A prefix and a bound on the second (descending) column.
    let mut at_most_45 = bolt.clone();
    at_most_45.push(Value::BigInt(45));
    assert_eq!(
        ids(
            &mut tx,
            &table,
            1,
            between(Bound::Included(at_most_45), Bound::Included(bolt.clone()))
        ),
        [5, 1]
    );
    // Past every 'bolt', up to 'nut' inclusive.
    assert_eq!(
        ids(
            &mut tx,
            &table,
            1,
            between(
                Bound::Excluded(bolt),
                Bound::Included(vec![Value::String("NUT".into())])
            )
        ),
        [2]
    );
    assert_eq!(
        ids(&mut tx, &table, 1, KeyRange::prefix(vec![Value::Null])),
        [4]
    );
    // A full-key lookup on the composite index.
    let found = tx
        .lookup(
            &table,
            1,
            &[Value::String("BOLT".into()), Value::BigInt(30)],
            |row| ControlFlow::Break(int(&row.value(0))),
        )
        .unwrap();
    assert_eq!(found, Some(1));
    tx.commit().unwrap();
}

#[test]
fn duplicates_raise_2627_for_constraints_and_2601_for_unique_indexes() {
    let db = Database::default();
    let table = products(&db);
    load(&db, &table, &[product(1, Some("a"), 10)]);
    let mut tx = db.begin(Snapshot).unwrap();
    let error = expect_err(
        tx.insert(&table, &product(1, Some("b"), 20)),
        DUPLICATE_CONSTRAINT,
    );
    assert_eq!(
        error.message,
        "Violation of PRIMARY KEY constraint 'PK_products'. Cannot insert duplicate key in object 'dbo.products'. The duplicate key value is (1)."
    );
    let error = expect_err(
        tx.insert(&table, &product(2, Some("b"), 10)),
        DUPLICATE_INDEX,
    );
    assert_eq!(
        error.message,
        "Cannot insert duplicate key row in object 'dbo.products' with unique index 'UX_price'. The duplicate key value is (10)."
    );
    // Statement errors: the transaction goes on, and nothing of the failed
    // inserts is visible.
    tx.insert(&table, &product(2, Some("b"), 20)).unwrap();
    assert_eq!(ids(&mut tx, &table, 0, KeyRange::all()), [1, 2]);
    assert_eq!(ids(&mut tx, &table, 2, KeyRange::all()), [1, 2]);
    // An update onto an existing key, and a delete that frees a key.
    let row = tx.get(&table, 0, &ints(&[2])).unwrap().unwrap();
    expect_err(
        tx.update(&table, row, &[(2, Value::BigInt(10))]),
        DUPLICATE_INDEX,
    );
    let one = tx.get(&table, 0, &ints(&[1])).unwrap().unwrap();
    tx.delete(&table, one).unwrap();
    tx.update(&table, row, &[(2, Value::BigInt(10))]).unwrap();
    tx.commit().unwrap();
    let mut tx = db.begin(Snapshot).unwrap();
    assert_eq!(ids(&mut tx, &table, 2, KeyRange::all()), [2]);
    tx.commit().unwrap();
}

#[test]
fn scans_see_their_snapshot_while_rows_change() {
    let db = Database::default();
    let table = products(&db);
    load(
        &db,
        &table,
        &[product(1, Some("a"), 10), product(2, Some("b"), 20)],
    );
    let mut reader = db.begin(Snapshot).unwrap();
    let mut writer = db.begin(Snapshot).unwrap();
    let two = writer.get(&table, 0, &ints(&[2])).unwrap().unwrap();
    writer
        .update(&table, two, &[(1, Value::String("z".into()))])
        .unwrap();
    let one = writer.get(&table, 0, &ints(&[1])).unwrap().unwrap();
    writer.delete(&table, one).unwrap();
    writer.insert(&table, &product(3, Some("c"), 30)).unwrap();
    // The writer sees its own changes, in index order.
    assert_eq!(ids(&mut writer, &table, 1, KeyRange::all()), [3, 2]);
    writer.commit().unwrap();
    // The older reader still sees the rows as they were.
    assert_eq!(ids(&mut reader, &table, 1, KeyRange::all()), [1, 2]);
    assert_eq!(ids(&mut reader, &table, 0, KeyRange::all()), [1, 2]);
    reader.commit().unwrap();
    let mut later = db.begin(Snapshot).unwrap();
    assert_eq!(ids(&mut later, &table, 1, KeyRange::all()), [3, 2]);
    assert_eq!(ids(&mut later, &table, 0, KeyRange::all()), [2, 3]);
    later.commit().unwrap();
}

fn range_stats(table: &Table, index: usize) -> RangeIndexStats {
    match &table.memory_stats().indexes[index].1 {
        IndexStats::Range(stats) => *stats,
        other => panic!("not a range index: {other:?}"),
    }
}

#[test]
fn garbage_collection_removes_old_versions_and_empty_keys() {
    let db = Database::default();
    let table = products(&db);
    let rows: Vec<_> = (0..5_000)
        .map(|id| product(id, Some(&format!("n{id}")), id as i64))
        .collect();
    load(&db, &table, &rows);
    let stats = range_stats(&table, 0);
    assert_eq!(stats.distinct_keys, 5_000);
    assert!(stats.depth >= 2 && stats.leaf_pages > 1, "{stats:?}");
    assert!(stats.allocated_bytes >= stats.used_bytes && stats.used_bytes > 5_000 * 24);
    // Move every price up by 10,000 (new keys in UX_price), then delete
    // the odd ids; collect.
    let mut tx = db.begin(Snapshot).unwrap();
    for id in 0..5_000 {
        let row = tx.get(&table, 0, &ints(&[id])).unwrap().unwrap();
        if id % 2 == 1 {
            tx.delete(&table, row).unwrap();
        } else {
            tx.update(&table, row, &[(2, Value::BigInt(10_000 + id as i64))])
                .unwrap();
        }
    }
    tx.commit().unwrap();
    db.collect_garbage();
    assert_eq!(db.garbage_pending(), 0);
    // Old prices' keys are gone from UX_price, deleted ids from the primary key.
    assert_eq!(range_stats(&table, 2).distinct_keys, 2_500);
    assert_eq!(range_stats(&table, 0).distinct_keys, 2_500);
    let mut tx = db.begin(Snapshot).unwrap();
    let prices: Vec<i32> = ids(&mut tx, &table, 2, KeyRange::all());
    assert_eq!(prices, (0..5_000).step_by(2).collect::<Vec<_>>());
    tx.commit().unwrap();
}

#[test]
fn over_long_keys_fail_the_statement_with_1946() {
    let db = Database::default();
    let table = db
        .create_table(TableDef::new(
            "notes",
            vec![
                ColumnDef::new("id", DataType::Int, false),
                ColumnDef::new("text", varchar(4000), false),
            ],
            vec![
                IndexDef::hash("pk", &[0], 64, Uniqueness::PrimaryKey),
                IndexDef::range("ix_text", &[(1, Ascending)], Uniqueness::NotUnique),
            ],
        ))
        .unwrap();
    let mut tx = db.begin(Snapshot).unwrap();
    let long = "x".repeat(3000);
    let error = expect_err(
        tx.insert(&table, &[Value::Int(1), Value::String(long)]),
        1946,
    );
    assert!(
        error.message.contains("index 'ix_text'") && error.message.contains("1000 bytes"),
        "{}",
        error.message
    );
    assert!(tx.is_active());
    tx.insert(&table, &[Value::Int(1), Value::String("short".into())])
        .unwrap();
    assert_eq!(ids(&mut tx, &table, 1, KeyRange::all()), [1]);
    tx.commit().unwrap();
}

#[test]
fn misuse_is_an_error_not_a_panic() {
    let db = Database::default();
    let table = db.create_table(accounts_def(64)).unwrap();
    let mut tx = db.begin(Snapshot).unwrap();
    let error = tx
        .scan_range::<()>(&table, 0, &KeyRange::all(), |_| ControlFlow::Continue(()))
        .unwrap_err();
    assert!(error.message.contains("hash index"), "{}", error.message);
    expect_err(
        tx.scan_range::<()>(&table, 5, &KeyRange::all(), |_| ControlFlow::Continue(())),
        50000,
    );
    let ranged = products(&db);
    let too_many = KeyRange::prefix(ints(&[1, 2]));
    expect_err(
        tx.scan_range::<()>(&ranged, 0, &too_many, |_| ControlFlow::Continue(())),
        50000,
    );
    expect_err(
        tx.lookup::<()>(&ranged, 1, &[Value::Null], |_| ControlFlow::Continue(())),
        50000,
    );
    tx.commit().unwrap();
}
