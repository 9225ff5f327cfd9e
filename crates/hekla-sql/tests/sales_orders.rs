//! The seed's sales-order workload: `Sales.usp_InsertSalesOrder_inmem`, a
//! natively compiled procedure taking the order lines as a READONLY
//! table-valued parameter and returning the new order's id through an
//! OUTPUT parameter, called 10,000 times with a 5-line order as the
//! seed's ostress script calls it; then every order and line is checked.

mod common;

use common::{collect, Collect};
use hekla_sql::session::{Session, SqlDatabase};

/// Runs `script`, which must not fail.
fn run(session: &mut Session, script: &str) -> Collect {
    let out = collect(session, script);
    assert!(out.errors.is_empty(), "{:?}", out.errors);
    out
}

fn single(session: &mut Session, query: &str) -> i64 {
    let out = run(session, query);
    out.rows[0][0].as_i64().expect("an integer")
}

const ORDERS: i64 = 10_000;

/// The seed's ostress batch: one 5-line order inserted again and again.
const WORKLOAD: &str = "
DECLARE @i int = 0, @od Sales.SalesOrderDetailType_inmem, @SalesOrderID int,
        @DueDate datetime2 = SYSDATETIME(), @CustomerID int = 42, @ShipMethodID int = 3
INSERT INTO @od VALUES (1, 1, 1), (2, 2, 2), (3, 3, 1), (4, 4, 2), (5, 5, 1)
WHILE (@i < 10000)
BEGIN
    EXECUTE Sales.usp_InsertSalesOrder_inmem @SalesOrderID OUTPUT, @DueDate, @CustomerID, @ShipMethodID, @od
    SET @i += 1
END
SELECT @SalesOrderID AS last_order";

#[test]
fn ten_thousand_orders_with_five_lines_each() {
    let db = SqlDatabase::in_memory().unwrap();
    let mut session = db.session().unwrap();
    run(
        &mut session,
        include_str!("../../../workloads/sales_orders.sql"),
    );

    let out = run(&mut session, WORKLOAD);
    let last = out.rows.last().unwrap()[0].as_i64().unwrap();
    assert_eq!(last, ORDERS, "the OUTPUT parameter returned each new id");

    let count = |s: &mut Session, q: &str| single(s, q);
    assert_eq!(
        count(
            &mut session,
            "SELECT COUNT(*) FROM Sales.SalesOrderHeader_inmem"
        ),
        ORDERS
    );
    assert_eq!(
        count(
            &mut session,
            "SELECT COUNT(*) FROM Sales.SalesOrderDetail_inmem"
        ),
        5 * ORDERS
    );
    // Every order has exactly its five lines, one per product.
    let misfits = "SELECT COUNT(*) FROM (
        SELECT h.SalesOrderID
        FROM Sales.SalesOrderHeader_inmem AS h
        LEFT JOIN Sales.SalesOrderDetail_inmem AS d ON d.SalesOrderID = h.SalesOrderID
        GROUP BY h.SalesOrderID
        HAVING COUNT(d.ProductID) <> 5 OR COUNT(DISTINCT d.ProductID) <> 5) AS bad";
    assert_eq!(count(&mut session, misfits), 0);
    // The subtotal: 1*1000 + 2*50*0.9 + 3*5 + 4*30*0.9 + 5*20 = 1313.
    let wrong_totals = "SELECT COUNT(*) FROM Sales.SalesOrderHeader_inmem WHERE SubTotal <> 1313";
    assert_eq!(count(&mut session, wrong_totals), 0);
    // The lines' prices and discounts add up to each header's subtotal.
    let unbalanced = "SELECT COUNT(*) FROM Sales.SalesOrderHeader_inmem AS h
        WHERE h.SubTotal <> (SELECT SUM((d.UnitPrice - d.UnitPriceDiscount) * d.OrderQty)
                             FROM Sales.SalesOrderDetail_inmem AS d WHERE d.SalesOrderID = h.SalesOrderID)";
    assert_eq!(count(&mut session, unbalanced), 0);
    let ids = "SELECT COUNT(DISTINCT SalesOrderID) FROM Sales.SalesOrderDetail_inmem";
    assert_eq!(count(&mut session, ids), ORDERS);
}

#[test]
fn a_failing_order_leaves_nothing_behind() {
    let db = SqlDatabase::in_memory().unwrap();
    let mut session = db.session().unwrap();
    run(
        &mut session,
        include_str!("../../../workloads/sales_orders.sql"),
    );
    // A NULL customer: the NOT NULL parameter refuses it.
    let mut sink = Collect::default();
    session.execute(
        "DECLARE @od Sales.SalesOrderDetailType_inmem, @id int
         INSERT INTO @od VALUES (1, 1, 1)
         EXEC Sales.usp_InsertSalesOrder_inmem @id OUTPUT, '20260101', NULL, 1, @od",
        &mut sink,
    );
    assert_eq!(sink.errors.len(), 1, "{:?}", sink.errors);
    assert!(sink.errors[0].contains("Msg 515"), "{:?}", sink.errors);
    // A line of quantity 0 fails the lines' CHECK after the header went
    // in: the atomic block undoes the header too.
    let mut sink = Collect::default();
    session.execute(
        "DECLARE @od Sales.SalesOrderDetailType_inmem, @id int
         INSERT INTO @od VALUES (1, 1, 1), (0, 2, 1)
         EXEC Sales.usp_InsertSalesOrder_inmem @id OUTPUT, '20260101', 7, 1, @od",
        &mut sink,
    );
    assert_eq!(sink.errors.len(), 1, "{:?}", sink.errors);
    assert!(sink.errors[0].contains("Msg 547"), "{:?}", sink.errors);
    assert!(sink.errors[0].contains("Procedure usp_InsertSalesOrder_inmem"));
    assert_eq!(
        single(
            &mut session,
            "SELECT COUNT(*) FROM Sales.SalesOrderHeader_inmem"
        ),
        0
    );
    assert_eq!(
        single(
            &mut session,
            "SELECT COUNT(*) FROM Sales.SalesOrderDetail_inmem"
        ),
        0
    );
}
