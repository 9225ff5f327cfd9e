//! Row kernels over real engine rows: a table laid out by the engine, its
//! rows inserted and scanned through a transaction, each visible row's
//! payload given to the kernel, and the answers compared with the same
//! computation over the decoded values.

use hekla_engine::{
    ColumnDef, Database, DatabaseConfig, FixedPlace, IndexDef, IsolationLevel, TableDef, Uniqueness,
};
use hekla_jit::kernel::{
    Aggregate, CompareOp, Condition, FixedColumn, Kernel, KernelSpec, Operand, Outcome, Stored,
    SumType, SLOTS_PER_AGGREGATE,
};
use hekla_types::{Collation, DataType, Length, Money, Value};
use std::ops::ControlFlow;

fn column(place: FixedPlace, stored: Stored) -> FixedColumn {
    FixedColumn {
        offset: place.offset as u32,
        stored,
        null_bit: place.null_bit.map(|bit| bit as u32),
    }
}

#[test]
fn kernels_read_the_engines_payloads() {
    let db = Database::new(DatabaseConfig::default());
    // A variable-width column first and nullable ones between, so the
    // fixed columns' offsets and null bits are the layout's to decide.
    let table = db
        .create_table(TableDef::new(
            "order_lines",
            vec![
                ColumnDef::new("id", DataType::Int, false),
                ColumnDef::new(
                    "note",
                    DataType::VarChar {
                        len: Length::Bounded(20),
                        collation: Collation::default(),
                    },
                    true,
                ),
                ColumnDef::new("product_id", DataType::Int, true),
                ColumnDef::new("order_qty", DataType::SmallInt, false),
                ColumnDef::new("unit_price", DataType::Money, true),
            ],
            vec![IndexDef::hash("pk", &[0], 1024, Uniqueness::PrimaryKey)],
        ))
        .expect("table");
    let mut tx = db.begin(IsolationLevel::Snapshot).expect("transaction");
    for id in 0..5_000 {
        let row = [
            Value::Int(id),
            if id % 3 == 0 {
                Value::Null
            } else {
                Value::String(format!("line {id}"))
            },
            if id % 11 == 0 {
                Value::Null
            } else {
                Value::Int(700 + id % 25)
            },
            Value::SmallInt((id % 7) as i16 + 1),
            if id % 13 == 0 {
                Value::Null
            } else {
                Value::Money(Money(i64::from(id) * 1234))
            },
        ];
        tx.insert(&table, &row).expect("insert");
    }
    tx.commit().expect("commit");

    let place = |n| table.fixed_place(n).expect("a fixed-width column");
    assert!(table.fixed_place(1).is_none(), "varchar has no fixed place");
    let (product, quantity, price) = (
        column(place(2), Stored::I32),
        column(place(3), Stored::I16),
        column(place(4), Stored::I64),
    );
    let spec = KernelSpec {
        conditions: vec![Condition {
            left: product.into(),
            op: CompareOp::Eq,
            operand: Operand::Parameter(0),
        }],
        aggregates: vec![
            Aggregate::CountRows,
            Aggregate::Sum(quantity.into(), SumType::Int),
            Aggregate::Sum(price.into(), SumType::BigInt),
            Aggregate::Count(price.into()),
            Aggregate::Max(price.into()),
        ],
    };
    let kernel = Kernel::compile(&spec).expect("compiles");
    let wanted = 712;
    let mut state = vec![0i64; spec.aggregates.len() * SLOTS_PER_AGGREGATE];
    let mut decoded = Vec::new();
    let mut tx = db.begin(IsolationLevel::Snapshot).expect("transaction");
    tx.scan(&table, |row| {
        assert_eq!(
            kernel.run(row.payload(), &[wanted], &mut state),
            Outcome::Done
        );
        decoded.push(row.values());
        ControlFlow::<()>::Continue(())
    })
    .expect("scan");
    tx.commit().expect("commit");

    let passing: Vec<&Vec<Value>> = decoded
        .iter()
        .filter(|row| row[2] == Value::Int(wanted as i32))
        .collect();
    let prices: Vec<i64> = passing
        .iter()
        .filter_map(|row| match row[4] {
            Value::Money(money) => Some(money.0),
            _ => None,
        })
        .collect();
    let quantities: i64 = passing
        .iter()
        .map(|row| match row[3] {
            Value::SmallInt(quantity) => i64::from(quantity),
            ref other => panic!("order_qty is {other:?}"),
        })
        .sum();
    assert_eq!(decoded.len(), 5_000);
    assert!(passing.len() > 100);
    assert_eq!(state[1], passing.len() as i64, "COUNT(*)");
    assert_eq!(state[2], quantities, "SUM(order_qty)");
    assert_eq!(state[4], prices.iter().sum::<i64>(), "SUM(unit_price)");
    assert_eq!(state[7], prices.len() as i64, "COUNT(unit_price)");
    assert_eq!(
        state[8],
        *prices.iter().max().expect("prices"),
        "MAX(unit_price)"
    );
}
