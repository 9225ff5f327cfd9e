//! The shapes of INSERT, UPDATE and DELETE plans, planned over a small
//! catalog built in memory, with no database, session or executor.

use super::*;
use crate::bind::expr::{Reads, ScalarKind};
use crate::bind::variables::Variables;
use crate::plan::access::AccessPath;
use crate::plan::test_catalog::MemoryCatalog;
use crate::plan::{JoinKind, Node, Planner};
use crate::session_options::SetOptions;
use hekla_parser::ast::StatementKind;
use hekla_types::SqlResult;

/// A catalog with `t` (an IDENTITY column, a default and a hash key)
/// and `o`.
fn database() -> MemoryCatalog {
    MemoryCatalog::new(
        "CREATE TABLE dbo.t (
             n int IDENTITY(1, 1) NOT NULL,
             id int NOT NULL PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = 64),
             v int NULL DEFAULT 7)
         CREATE TABLE dbo.o (id int NOT NULL, x int NULL)",
    )
}

/// Plans the one statement of `sql` with `plan`.
fn planned<P>(
    db: &MemoryCatalog,
    sql: &str,
    plan: impl FnOnce(&Planner, &StatementKind) -> SqlResult<P>,
) -> SqlResult<P> {
    let batch = hekla_parser::parse_batch(sql).unwrap();
    let variables = Variables::default();
    let planner = Planner::new(db, &variables, SetOptions::default());
    plan(&planner, &batch.statements[0].kind)
}

fn insert(db: &MemoryCatalog, sql: &str) -> SqlResult<InsertPlan> {
    planned(db, sql, |planner, kind| match kind {
        StatementKind::Insert(insert) => planner.insert(insert),
        other => panic!("not an INSERT: {other:?}"),
    })
}

fn constant(scalar: &Option<Scalar>) -> Option<Value> {
    match scalar.as_ref().map(|s| &s.kind) {
        Some(ScalarKind::Constant(value)) => Some(value.clone()),
        Some(other) => panic!("not a constant: {other:?}"),
        None => None,
    }
}

#[test]
fn insert_values_are_bound_once_with_default_as_none() {
    let db = database();
    let plan = insert(&db, "INSERT dbo.t (v, id) VALUES (DEFAULT, 1), (2, 3)").unwrap();
    assert_eq!(
        plan.columns,
        vec![2, 1],
        "the columns named, in VALUES order"
    );
    assert!(plan.target.view.is_none());
    assert_eq!(plan.target.table.name, "t");
    let InsertSource::Values(rows) = &plan.source else {
        panic!("not VALUES: {:?}", plan.source);
    };
    let values: Vec<Vec<Option<Value>>> = rows
        .iter()
        .map(|row| row.iter().map(constant).collect())
        .collect();
    assert_eq!(
        values,
        vec![
            vec![None, Some(Value::Int(1))],
            vec![Some(Value::Int(2)), Some(Value::Int(3))],
        ]
    );
    assert!(plan.output.is_none());
}

#[test]
fn insert_leaves_the_identity_column_out() {
    let db = database();
    let plan = insert(&db, "INSERT dbo.t VALUES (1, 2)").unwrap();
    assert_eq!(
        plan.columns,
        vec![1, 2],
        "every column but the IDENTITY one"
    );
    let plan = insert(&db, "INSERT dbo.t DEFAULT VALUES").unwrap();
    assert!(matches!(plan.source, InsertSource::DefaultValues));
    let code = |sql: &str| insert(&db, sql).err().map(|error| error.number);
    assert_eq!(code("INSERT dbo.t (n, id) VALUES (1, 2)"), Some(544));
    assert_eq!(code("INSERT dbo.t VALUES (1, 2, 3)"), Some(8101));
    assert_eq!(code("INSERT dbo.t VALUES (1)"), Some(109));
    assert_eq!(code("INSERT dbo.t (id, nope) VALUES (1, 2)"), Some(207));
}

#[test]
fn insert_select_converts_each_column_to_its_target() {
    let db = database();
    let plan = insert(
        &db,
        "INSERT dbo.t (id, v) SELECT x, CAST(id AS bigint) FROM dbo.o",
    )
    .unwrap();
    let InsertSource::Query {
        plan: query,
        converters,
    } = &plan.source
    else {
        panic!("not a query: {:?}", plan.source);
    };
    assert_eq!(query.columns.len(), 2);
    assert!(matches!(converters[0].kind, ScalarKind::Column(0)));
    // bigint into an int column converts.
    assert!(matches!(converters[1].kind, ScalarKind::Convert { .. }));
}

#[test]
fn update_with_from_joins_and_finds_the_target_row_id() {
    let db = database();
    let plan = planned(
        &db,
        "UPDATE t SET v = o.x + 1 FROM dbo.o AS o JOIN dbo.t AS t ON t.id = o.id",
        |planner, kind| match kind {
            StatementKind::Update(update) => planner.update(update),
            other => panic!("not an UPDATE: {other:?}"),
        },
    )
    .unwrap();
    // o (id, x), then t (n, id, v) and its row id.
    assert_eq!(plan.rows.offset, 2);
    assert_eq!(plan.rows.named, 2..5);
    let Reading::Plan { root, id_column } = &plan.rows.reading else {
        panic!("not a FROM clause's plan");
    };
    assert_eq!(*id_column, 5);
    let Node::Join(join) = root else {
        panic!("not a join: {root:?}");
    };
    assert_eq!(join.kind, JoinKind::Inner);
    let [(column, value)] = plan.assignments.as_slice() else {
        panic!("one assignment: {:?}", plan.assignments);
    };
    assert_eq!(*column, 2, "v");
    assert_eq!(value.columns(), vec![1], "o.x");
    let code = |sql: &str| {
        planned(&db, sql, |planner, kind| match kind {
            StatementKind::Update(update) => planner.update(update),
            other => panic!("not an UPDATE: {other:?}"),
        })
        .err()
        .map(|error| error.number)
    };
    assert_eq!(code("UPDATE dbo.t SET n = 1"), Some(8102));
    assert_eq!(code("UPDATE dbo.t SET v = 1, v = 2"), Some(264));
    assert_eq!(code("UPDATE dbo.t SET nope = 1"), Some(207));
}

#[test]
fn delete_alone_seeks_its_key() {
    let db = database();
    let plan = planned(
        &db,
        "DELETE dbo.t WHERE id = 4",
        |planner, kind| match kind {
            StatementKind::Delete(delete) => planner.delete(delete),
            other => panic!("not a DELETE: {other:?}"),
        },
    )
    .unwrap();
    let Reading::Target(read) = &plan.rows.reading else {
        panic!("not the target alone");
    };
    assert!(matches!(read.path, AccessPath::Seek { index: 0, .. }));
    assert!(read.filter.is_some());
    assert_eq!(plan.rows.named, 0..3);
    assert!(plan.output.is_none());
}

#[test]
fn delete_top_keeps_its_count_for_the_run() {
    let db = database();
    let delete = |sql: &str| {
        planned(&db, sql, |planner, kind| match kind {
            StatementKind::Delete(delete) => planner.delete(delete),
            other => panic!("not a DELETE: {other:?}"),
        })
    };
    let plan = delete("DELETE TOP (2) FROM dbo.t WHERE v = 1").unwrap();
    let top = plan.rows.top.as_ref().expect("a TOP");
    assert!(!top.percent);
    assert!(matches!(
        &top.count.kind,
        ScalarKind::Constant(Value::Int(2))
    ));
    assert!(matches!(
        &plan.rows.reading,
        Reading::Target(read) if read.path == AccessPath::Scan
    ));
    let plan = delete("DELETE TOP (5) PERCENT dbo.t").unwrap();
    let top = plan.rows.top.as_ref().expect("a TOP");
    assert!(top.percent);
    assert_eq!(top.count.data_type, hekla_types::DataType::Float);
    assert!(delete("DELETE dbo.t").unwrap().rows.top.is_none());
    let refused = delete("DELETE TOP (1) WITH TIES FROM dbo.t").unwrap_err();
    assert_eq!(refused.number, 10794);
}
