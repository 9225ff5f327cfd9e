//! Hash indexes through the transaction API: composite keys, non-unique
//! keys, NULL keys, collation-aware matching and the statistics DMVs read.

mod common;

use common::*;
use hekla_engine::{
    ColumnDef, Database, IndexDef, IndexStats, IsolationLevel::Snapshot, TableDef, Uniqueness,
};
use hekla_types::{DataType, Value};
use std::ops::ControlFlow;

/// order_lines(order_id int, line int, product varchar(20) NULL), with a
/// composite primary key and a non-unique index on product.
fn order_lines(db: &Database) -> std::sync::Arc<hekla_engine::Table> {
    db.create_table(TableDef::new(
        "order_lines",
        vec![
            ColumnDef::new("order_id", DataType::Int, false),
            ColumnDef::new("line", DataType::Int, false),
            ColumnDef::new("product", varchar(20), true),
        ],
        vec![
            IndexDef::hash("PK_order_lines", &[0, 1], 16, Uniqueness::PrimaryKey),
            IndexDef::hash("IX_product", &[2], 4, Uniqueness::NotUnique),
        ],
    ))
    .unwrap()
}

fn line(order: i32, line: i32, product: Option<&str>) -> Vec<Value> {
    vec![
        Value::Int(order),
        Value::Int(line),
        product.map_or(Value::Null, |p| Value::String(p.into())),
    ]
}

fn lines_with(
    tx: &mut hekla_engine::Transaction,
    table: &std::sync::Arc<hekla_engine::Table>,
    product: Value,
) -> Vec<(i32, i32)> {
    let mut found = Vec::new();
    tx.lookup::<()>(table, 1, &[product], |row| {
        found.push((int(&row.value(0)), int(&row.value(1))));
        ControlFlow::Continue(())
    })
    .unwrap();
    found.sort();
    found
}

#[test]
fn composite_keys_match_on_every_column() {
    let db = Database::default();
    let table = order_lines(&db);
    let mut tx = db.begin(Snapshot).unwrap();
    for (order, n) in [(1, 1), (1, 2), (2, 1)] {
        tx.insert(&table, &line(order, n, Some("bolt"))).unwrap();
    }
    let found = tx.get(&table, 0, &[Value::Int(1), Value::Int(2)]).unwrap();
    let row = tx.row(&table, found.expect("order 1 line 2")).unwrap();
    assert_eq!((int(&row.value(0)), int(&row.value(1))), (1, 2));
    assert!(tx
        .get(&table, 0, &[Value::Int(2), Value::Int(2)])
        .unwrap()
        .is_none());
    expect_msg(
        tx.insert(&table, &line(1, 2, None)),
        DUPLICATE_CONSTRAINT,
        "Violation of PRIMARY KEY constraint 'PK_order_lines'. Cannot insert duplicate key in object 'dbo.order_lines'. The duplicate key value is (1, 2).",
    );
    // A key of the wrong arity is a caller error, not a panic.
    assert!(tx.get(&table, 0, &[Value::Int(1)]).is_err());
    tx.commit().unwrap();
}

#[test]
fn delete_all_deletes_what_the_transaction_sees_and_empties_every_index() {
    let db = Database::default();
    let table = order_lines(&db);
    let mut setup = db.begin(Snapshot).unwrap();
    for (order, n) in [(1, 1), (1, 2), (2, 1)] {
        setup.insert(&table, &line(order, n, Some("bolt"))).unwrap();
    }
    setup.commit().unwrap();
    let mut tx = db.begin(Snapshot).unwrap();
    // A row inserted by this transaction is seen, and deleted, too.
    tx.insert(&table, &line(3, 1, Some("nut"))).unwrap();
    assert_eq!(tx.delete_all(&table).unwrap(), 4);
    assert!(lines_with(&mut tx, &table, Value::String("bolt".into())).is_empty());
    tx.commit().unwrap();
    let mut after = db.begin(Snapshot).unwrap();
    assert_eq!(after.delete_all(&table).unwrap(), 0);
    assert!(after
        .get(&table, 0, &[Value::Int(1), Value::Int(1)])
        .unwrap()
        .is_none());
    after.commit().unwrap();
}

#[test]
fn non_unique_keys_return_every_visible_row_under_the_collation() {
    let db = Database::default();
    let table = order_lines(&db);
    let mut tx = db.begin(Snapshot).unwrap();
    tx.insert(&table, &line(1, 1, Some("Bolt"))).unwrap();
    tx.insert(&table, &line(1, 2, Some("bolt  "))).unwrap();
    tx.insert(&table, &line(2, 1, Some("nut"))).unwrap();
    tx.insert(&table, &line(3, 1, None)).unwrap();
    tx.insert(&table, &line(3, 2, None)).unwrap();
    tx.commit().unwrap();

    let mut tx = db.begin(Snapshot).unwrap();
    // CI_AS: case and trailing spaces do not matter; accents do.
    assert_eq!(
        lines_with(&mut tx, &table, Value::String("BOLT".into())),
        vec![(1, 1), (1, 2)]
    );
    assert_eq!(
        lines_with(&mut tx, &table, Value::String("bölt".into())),
        vec![]
    );
    // NULL keys are indexed and found together.
    assert_eq!(
        lines_with(&mut tx, &table, Value::Null),
        vec![(3, 1), (3, 2)]
    );
    tx.commit().unwrap();
}

#[test]
fn statistics_describe_buckets_chains_and_memory() {
    let db = Database::default();
    let table = order_lines(&db);
    let mut tx = db.begin(Snapshot).unwrap();
    for n in 0..40 {
        tx.insert(&table, &line(n, 0, Some(["a", "b", "c"][n as usize % 3])))
            .unwrap();
    }
    tx.commit().unwrap();
    let stats = table.memory_stats();
    assert_eq!(stats.rows.live_slots, 40);
    assert!(
        stats.rows.used_bytes >= 40 * 40 && stats.rows.allocated_bytes >= stats.rows.used_bytes
    );
    let (name, IndexStats::Hash(pk)) = &stats.indexes[0] else {
        panic!("a hash index")
    };
    assert_eq!(
        (name.as_str(), pk.total_bucket_count),
        ("PK_order_lines", 16)
    );
    assert_eq!(pk.allocated_bytes, 16 * 8);
    let (_, IndexStats::Hash(product)) = &stats.indexes[1] else {
        panic!("a hash index")
    };
    // Three distinct products in four buckets: at most 3 used, 40 entries.
    assert_eq!(product.total_bucket_count, 4);
    assert!(product.empty_bucket_count >= 1);
    let used = product.total_bucket_count - product.empty_bucket_count;
    assert_eq!((product.avg_chain_length * used as f64).round() as u64, 40);
    assert!(product.max_chain_length >= 14);
    assert_eq!(table.index_named("ix_PRODUCT"), Some(1));
}

#[test]
fn large_rows_are_stored_up_to_the_limit_and_refused_beyond_it() {
    let db = Database::default();
    let table = db
        .create_table(TableDef::new(
            "documents",
            vec![
                ColumnDef::new("id", DataType::Int, false),
                ColumnDef::new(
                    "body",
                    DataType::VarChar {
                        len: hekla_types::Length::Max,
                        collation: hekla_types::Collation::default(),
                    },
                    true,
                ),
            ],
            vec![IndexDef::hash("pk", &[0], 8, Uniqueness::PrimaryKey)],
        ))
        .unwrap();
    let mut tx = db.begin(Snapshot).unwrap();
    let big = "x".repeat(3 << 20);
    tx.insert(&table, &[Value::Int(1), Value::String(big.clone())])
        .unwrap();
    expect_err(
        tx.insert(&table, &[Value::Int(2), Value::String("y".repeat(9 << 20))]),
        41307,
    );
    // A type that does not fit the column is refused, not stored or panicked on.
    expect_err(
        tx.insert(&table, &[Value::String("3".into()), Value::Null]),
        206,
    );
    tx.commit().unwrap();
    let mut tx = db.begin(Snapshot).unwrap();
    let row = tx.get(&table, 0, &[Value::Int(1)]).unwrap().unwrap();
    assert_eq!(tx.row(&table, row).unwrap().value(1), Value::String(big));
    tx.commit().unwrap();
}
