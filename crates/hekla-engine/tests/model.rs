//! Model-based property test: random single-threaded sequences of inserts,
//! updates (of the value and of the key), deletes, lookups, scans, commits,
//! rollbacks and savepoints, checked after every operation against a plain
//! `BTreeMap` model of the committed state and of the open transaction's
//! state.
//!
//! The table has an int primary key in a hash index of 4 buckets and a
//! non-unique hash index of 2 buckets on a nullable varchar column, so every
//! chain holds several keys. Tags differ in case and trailing spaces, which
//! the default (CI) collation treats as equal.

mod common;

use common::*;
use hekla_engine::{
    ColumnDef, Database, IndexDef, IsolationLevel, Savepoint, Table, TableDef, Transaction,
    Uniqueness,
};
use hekla_types::{DataType, Value};
use proptest::prelude::*;
use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::sync::Arc;

const KEYS: i32 = 10;
const TAGS: [Option<&str>; 7] = [
    Some("a"),
    Some("A"),
    Some("b"),
    Some("b  "),
    Some("B"),
    Some("c"),
    None,
];
const PROBE_TAGS: [&str; 4] = ["a", "B ", "c", "d"];

/// id -> (val, tag)
type Rows = BTreeMap<i32, (i64, Option<String>)>;

#[derive(Clone, Debug)]
enum Op {
    Insert {
        id: i32,
        val: i64,
        tag: Option<&'static str>,
    },
    Update {
        id: i32,
        val: i64,
        tag: Option<&'static str>,
    },
    /// Updates the primary key column.
    Rekey {
        id: i32,
        new_id: i32,
    },
    Delete {
        id: i32,
    },
    Lookup {
        id: i32,
    },
    LookupTag {
        tag: &'static str,
    },
    Scan,
    Commit,
    Rollback,
    Savepoint,
    /// Rolls back to the n-th open savepoint (modulo their number).
    RollbackTo(usize),
    CollectGarbage,
}

fn op() -> impl Strategy<Value = Op> {
    let id = || 0..KEYS;
    let val = || -1000i64..1000;
    let tag = || prop::sample::select(TAGS.to_vec());
    prop_oneof![
        6 => (id(), val(), tag()).prop_map(|(id, val, tag)| Op::Insert { id, val, tag }),
        4 => (id(), val(), tag()).prop_map(|(id, val, tag)| Op::Update { id, val, tag }),
        1 => (id(), id()).prop_map(|(id, new_id)| Op::Rekey { id, new_id }),
        3 => id().prop_map(|id| Op::Delete { id }),
        1 => id().prop_map(|id| Op::Lookup { id }),
        1 => prop::sample::select(PROBE_TAGS.to_vec()).prop_map(|tag| Op::LookupTag { tag }),
        1 => Just(Op::Scan),
        2 => Just(Op::Commit),
        1 => Just(Op::Rollback),
        1 => Just(Op::Savepoint),
        1 => (0..4usize).prop_map(Op::RollbackTo),
        1 => Just(Op::CollectGarbage),
    ]
}

fn level() -> impl Strategy<Value = IsolationLevel> {
    prop::sample::select(vec![
        IsolationLevel::Snapshot,
        IsolationLevel::RepeatableRead,
        IsolationLevel::Serializable,
    ])
}

fn items(db: &Database) -> Arc<Table> {
    db.create_table(TableDef::new(
        "items",
        vec![
            ColumnDef::new("id", DataType::Int, false),
            ColumnDef::new("val", DataType::BigInt, false),
            ColumnDef::new("tag", varchar(8), true),
        ],
        vec![
            IndexDef::hash("pk_items", &[0], 4, Uniqueness::PrimaryKey),
            IndexDef::hash("ix_tag", &[2], 2, Uniqueness::NotUnique),
        ],
    ))
    .expect("create items")
}

fn tag_value(tag: Option<&str>) -> Value {
    tag.map_or(Value::Null, |t| Value::String(t.to_string()))
}

fn decode(values: &[Value]) -> (i32, (i64, Option<String>)) {
    let tag = match &values[2] {
        Value::Null => None,
        Value::String(s) => Some(s.clone()),
        other => panic!("tag {other:?}"),
    };
    (int(&values[0]), (bigint(&values[1]), tag))
}

/// The collation's equality: case-insensitive, trailing spaces ignored.
fn same_tag(a: &str, b: &str) -> bool {
    a.trim_end_matches(' ')
        .eq_ignore_ascii_case(b.trim_end_matches(' '))
}

fn scan_all(tx: &mut Transaction, table: &Arc<Table>) -> Rows {
    let mut rows = Rows::new();
    for values in scan_rows(tx, table).expect("scan") {
        let (id, row) = decode(&values);
        assert!(rows.insert(id, row).is_none(), "id {id} twice in a scan");
    }
    rows
}

fn lookup_all(tx: &mut Transaction, table: &Arc<Table>, index: usize, key: Value) -> Rows {
    let mut rows = Rows::new();
    tx.lookup::<()>(table, index, &[key], |row| {
        let (id, row) = decode(&row.values());
        assert!(rows.insert(id, row).is_none(), "id {id} twice in a lookup");
        ControlFlow::Continue(())
    })
    .expect("lookup");
    rows
}

/// Everything `tx` can read agrees with `expected`: a full scan, a lookup
/// of every key, and a lookup of every probe tag.
fn verify(tx: &mut Transaction, table: &Arc<Table>, expected: &Rows, context: &str) {
    assert_eq!(&scan_all(tx, table), expected, "scan, {context}");
    for id in 0..KEYS {
        let want: Rows = expected
            .get(&id)
            .map(|row| (id, row.clone()))
            .into_iter()
            .collect();
        assert_eq!(
            lookup_all(tx, table, 0, Value::Int(id)),
            want,
            "lookup of id {id}, {context}"
        );
    }
    for tag in PROBE_TAGS {
        let want: Rows = expected
            .iter()
            .filter(|(_, (_, t))| t.as_deref().is_some_and(|t| same_tag(t, tag)))
            .map(|(id, row)| (*id, row.clone()))
            .collect();
        assert_eq!(
            lookup_all(tx, table, 1, Value::String(tag.to_string())),
            want,
            "lookup of tag {tag:?}, {context}"
        );
    }
}

struct Harness {
    db: Database,
    table: Arc<Table>,
    levels: Vec<IsolationLevel>,
    begun: usize,
    tx: Option<Transaction>,
    committed: Rows,
    /// The open transaction's view (equal to `committed` when none is open).
    pending: Rows,
    savepoints: Vec<(Savepoint, Rows)>,
}

impl Harness {
    fn new(levels: Vec<IsolationLevel>) -> Harness {
        let db = Database::default();
        let table = items(&db);
        Harness {
            db,
            table,
            levels,
            begun: 0,
            tx: None,
            committed: Rows::new(),
            pending: Rows::new(),
            savepoints: Vec::new(),
        }
    }

    /// The open transaction, begun on first use.
    fn tx(&mut self) -> &mut Transaction {
        if self.tx.is_none() {
            let level = self.levels[self.begun % self.levels.len()];
            self.begun += 1;
            self.tx = Some(self.db.begin(level).expect("begin"));
            self.pending = self.committed.clone();
            self.savepoints.clear();
        }
        self.tx.as_mut().expect("open transaction")
    }

    fn apply(&mut self, op: &Op) {
        let table = self.table.clone();
        match *op {
            Op::Insert { id, val, tag } => {
                let exists = self.pending.contains_key(&id);
                let result = self.tx().insert(
                    &table,
                    &[Value::Int(id), Value::BigInt(val), tag_value(tag)],
                );
                if exists {
                    let error = expect_err(result, DUPLICATE_CONSTRAINT);
                    assert_eq!(error.message, format!("Violation of PRIMARY KEY constraint 'pk_items'. Cannot insert duplicate key in object 'dbo.items'. The duplicate key value is ({id})."));
                    assert!(self.tx().is_active(), "2627 leaves the transaction usable");
                } else {
                    result.expect("insert");
                    self.pending.insert(id, (val, tag.map(str::to_string)));
                }
            }
            Op::Update { id, val, tag } => {
                let tx = self.tx();
                let Some(row) = tx.get(&table, 0, &[Value::Int(id)]).expect("get") else {
                    assert!(!self.pending.contains_key(&id), "{id} not found");
                    return;
                };
                tx.update(&table, row, &[(1, Value::BigInt(val)), (2, tag_value(tag))])
                    .expect("update");
                self.pending.insert(id, (val, tag.map(str::to_string)));
            }
            Op::Rekey { id, new_id } => {
                let tx = self.tx();
                let Some(row) = tx.get(&table, 0, &[Value::Int(id)]).expect("get") else {
                    assert!(!self.pending.contains_key(&id), "{id} not found");
                    return;
                };
                let result = tx.update(&table, row, &[(0, Value::Int(new_id))]);
                if new_id != id && self.pending.contains_key(&new_id) {
                    let error = expect_err(result, DUPLICATE_CONSTRAINT);
                    assert!(error
                        .message
                        .ends_with(&format!("The duplicate key value is ({new_id}).")));
                } else {
                    result.expect("update of the key");
                    let row = self.pending.remove(&id).expect("modelled row");
                    self.pending.insert(new_id, row);
                }
            }
            Op::Delete { id } => {
                let tx = self.tx();
                let Some(row) = tx.get(&table, 0, &[Value::Int(id)]).expect("get") else {
                    assert!(!self.pending.contains_key(&id), "{id} not found");
                    return;
                };
                tx.delete(&table, row).expect("delete");
                self.pending.remove(&id);
            }
            Op::Lookup { id } => {
                let found = lookup_all(self.tx(), &table, 0, Value::Int(id));
                assert_eq!(found.get(&id), self.pending.get(&id));
            }
            Op::LookupTag { tag } => {
                let found = lookup_all(self.tx(), &table, 1, Value::String(tag.into()));
                assert!(found
                    .values()
                    .all(|(_, t)| t.as_deref().is_some_and(|t| same_tag(t, tag))));
            }
            Op::Scan => {
                let rows = scan_all(self.tx(), &table);
                assert_eq!(rows, self.pending);
            }
            Op::Commit => {
                if let Some(tx) = self.tx.take() {
                    let level = tx.isolation();
                    tx.commit()
                        .unwrap_or_else(|e| panic!("commit at {level:?}: {e:?}"));
                    self.committed = self.pending.clone();
                    // A fresh transaction sees exactly the committed state.
                    let mut fresh = self.db.begin(IsolationLevel::Snapshot).unwrap();
                    assert_eq!(scan_all(&mut fresh, &table), self.committed);
                    fresh.commit().unwrap();
                }
            }
            Op::Rollback => {
                if let Some(tx) = self.tx.take() {
                    tx.rollback();
                    self.pending = self.committed.clone();
                }
            }
            Op::Savepoint => {
                let savepoint = self.tx().savepoint();
                self.savepoints.push((savepoint, self.pending.clone()));
            }
            Op::RollbackTo(n) => {
                if self.tx.is_none() || self.savepoints.is_empty() {
                    return;
                }
                let n = n % self.savepoints.len();
                let (savepoint, rows) = self.savepoints[n].clone();
                self.tx().rollback_to(savepoint);
                self.pending = rows;
                self.savepoints.truncate(n + 1);
            }
            Op::CollectGarbage => {
                self.db.collect_garbage();
            }
        }
    }

    /// After every operation: the open transaction sees its own state, and
    /// any other transaction sees only the committed state.
    fn check(&mut self, step: usize) {
        let table = self.table.clone();
        let mut observer = self.db.begin(IsolationLevel::Snapshot).unwrap();
        let committed = self.committed.clone();
        verify(
            &mut observer,
            &table,
            &committed,
            &format!("observer after op {step}"),
        );
        observer.commit().unwrap();
        if let Some(tx) = self.tx.as_mut() {
            verify(
                tx,
                &table,
                &self.pending,
                &format!("own view after op {step}"),
            );
        }
    }

    fn finish(mut self) {
        if let Some(tx) = self.tx.take() {
            let level = tx.isolation();
            tx.commit()
                .unwrap_or_else(|e| panic!("final commit at {level:?}: {e:?}"));
            self.committed = self.pending.clone();
        }
        self.db.collect_garbage();
        let mut fresh = self.db.begin(IsolationLevel::Serializable).unwrap();
        verify(&mut fresh, &self.table, &self.committed, "at the end");
        fresh.commit().expect("read-only SERIALIZABLE commit");
    }
}

fn run(levels: Vec<IsolationLevel>, ops: &[Op]) {
    let mut harness = Harness::new(levels);
    for (step, op) in ops.iter().enumerate() {
        harness.apply(op);
        harness.check(step);
    }
    harness.finish();
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 256,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Every transaction at SNAPSHOT.
    #[test]
    fn matches_model_at_snapshot(ops in prop::collection::vec(op(), 1..80)) {
        run(vec![IsolationLevel::Snapshot], &ops);
    }

    /// Transactions cycle through a random list of isolation levels. With a
    /// single thread nothing can conflict, so every commit must succeed at
    /// every level.
    #[test]
    fn matches_model_at_any_level(
        levels in prop::collection::vec(level(), 1..4),
        ops in prop::collection::vec(op(), 1..80),
    ) {
        run(levels, &ops);
    }
}
