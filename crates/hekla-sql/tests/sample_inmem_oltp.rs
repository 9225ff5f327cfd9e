//! The in-memory OLTP sales-order sample of `samples/inmem-oltp/`, end to
//! end on a durable database: its four scripts load the sample at its full
//! size, every table holds what the generator makes and the loaded orders
//! add up; the workload batch inserts orders priced and discounted from the
//! products and offers; the ship-info update, its retrying wrapper, the
//! product and offer procedures and `Demo.usp_DemoReset` do what they
//! say; the article's memory and checkpoint-file queries report the tables.

mod common;

use common::{collect, Collect};
use hekla_engine::{DatabaseConfig, StorageConfig};
use hekla_sql::session::{Session, SqlDatabase};
use hekla_types::Value;
use std::path::PathBuf;

const SCRIPTS: [&str; 4] = [
    include_str!("../../../samples/inmem-oltp/01_schema.sql"),
    include_str!("../../../samples/inmem-oltp/02_procedures.sql"),
    include_str!("../../../samples/inmem-oltp/03_ondisk.sql"),
    include_str!("../../../samples/inmem-oltp/04_data.sql"),
];
const WORKLOAD_INMEM: &str = include_str!("../../../samples/inmem-oltp/workload_inmem.sql");
const WORKLOAD_ONDISK: &str = include_str!("../../../samples/inmem-oltp/workload_ondisk.sql");
const USAGE_QUERIES: &str = include_str!("../../../samples/inmem-oltp/memory_and_disk_usage.sql");

/// The generator's sizes (the article's: about 500 products, 16 offers,
/// 540 offer products, 31,000 orders with 121,000 lines).
const PRODUCTS: i64 = 504;
const OFFERS: i64 = 16;
const OFFER_PRODUCTS: i64 = 540;
const ORDERS: i64 = 31_465;
const LINES: i64 = 121_140;
const LAST_LOADED_ORDER: i64 = 43_658 + ORDERS;
const SEED_ORDERS: i64 = 106;
const SEED_LINES_PER_ORDER: i64 = 5;
/// Orders one run of the workload batch inserts.
const ORDERS_PER_BATCH: i64 = 20;

/// Runs `script`, which must not fail.
fn run(session: &mut Session, script: &str) -> Collect {
    let out = collect(session, script);
    assert!(out.errors.is_empty(), "{script}\n-> {:?}", out.errors);
    out
}

/// The one error `script` fails with.
fn error_of(session: &mut Session, script: &str) -> String {
    let out = collect(session, script);
    assert_eq!(out.errors.len(), 1, "{script}\n-> {:?}", out.errors);
    out.errors[0].clone()
}

/// The integer `query` returns in its first row and column.
fn single(session: &mut Session, query: &str) -> i64 {
    let out = run(session, query);
    out.rows[0][0]
        .as_i64()
        .unwrap_or_else(|| panic!("{query} -> {:?}", out.rows[0][0]))
}

/// A durable database in a directory of its own, removed on drop.
struct Sample {
    dir: PathBuf,
    db: Option<std::sync::Arc<SqlDatabase>>,
}

impl Sample {
    fn load() -> (Sample, Session) {
        let dir = std::env::temp_dir().join(format!("hekla-sample-inmem-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let db =
            SqlDatabase::open(&dir, DatabaseConfig::default(), StorageConfig::default()).unwrap();
        let mut session = db.session().unwrap();
        for script in SCRIPTS {
            run(&mut session, script);
        }
        (Sample { dir, db: Some(db) }, session)
    }

    fn session(&self) -> Session {
        self.db.as_ref().unwrap().session().unwrap()
    }
}

impl Drop for Sample {
    fn drop(&mut self) {
        self.db = None;
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

#[test]
fn the_sample_loads_runs_its_workload_and_resets() {
    let (sample, mut session) = Sample::load();
    the_tables_hold_the_generated_data(&mut session);
    the_loaded_orders_add_up(&mut session);

    for _ in 0..3 {
        run(&mut session, WORKLOAD_INMEM);
    }
    new_orders_are_priced_from_products_and_offers(&mut session, "inmem", 3 * ORDERS_PER_BATCH);
    run(&mut session, WORKLOAD_ONDISK);
    new_orders_are_priced_from_products_and_offers(&mut session, "ondisk", ORDERS_PER_BATCH);

    shipping_an_order_updates_it_and_its_lines(&mut session);
    the_wrapper_retries_a_write_conflict_ten_times(&sample, &mut session);
    products_and_offers_keep_their_integrity(&mut session);

    let highest_before_reset = single(
        &mut session,
        "SELECT MAX(SalesOrderID) FROM Sales.SalesOrderHeader_inmem",
    );
    run(&mut session, "EXEC Demo.usp_DemoReset");
    the_reset_brings_back_the_loaded_orders(&mut session);
    run(&mut session, WORKLOAD_INMEM);
    assert_eq!(
        single(
            &mut session,
            "SELECT MIN(SalesOrderID) FROM Sales.SalesOrderHeader_inmem WHERE SalesOrderID > 75123"
        ),
        highest_before_reset + 1,
        "the identity goes on after a reset: no order id is used twice"
    );

    the_usage_queries_report_the_sample(&mut session);
}

fn the_tables_hold_the_generated_data(session: &mut Session) {
    let counts = [
        ("Production.Product_inmem", PRODUCTS),
        ("Production.Product_ondisk", PRODUCTS),
        ("Sales.SpecialOffer_inmem", OFFERS),
        ("Sales.SpecialOffer_ondisk", OFFERS),
        ("Sales.SpecialOfferProduct_inmem", OFFER_PRODUCTS),
        ("Sales.SpecialOfferProduct_ondisk", OFFER_PRODUCTS),
        ("Sales.SalesOrderHeader", ORDERS),
        ("Sales.SalesOrderHeader_inmem", ORDERS),
        ("Sales.SalesOrderHeader_ondisk", ORDERS),
        ("Sales.SalesOrderDetail", LINES),
        ("Sales.SalesOrderDetail_inmem", LINES),
        ("Sales.SalesOrderDetail_ondisk", LINES),
        (
            "Demo.DemoSalesOrderDetailSeed",
            SEED_ORDERS * SEED_LINES_PER_ORDER,
        ),
    ];
    for (table, expected) in counts {
        let query = format!("SELECT COUNT(*) FROM {table}");
        assert_eq!(single(session, &query), expected, "{table}");
    }
    // The workload picks a sample order 1 to 106; each has five lines.
    let seed_orders = "SELECT COUNT(*) FROM (
        SELECT OrderID FROM Demo.DemoSalesOrderDetailSeed
        GROUP BY OrderID HAVING COUNT(*) = 5 AND MIN(OrderID) BETWEEN 1 AND 106) AS s";
    assert_eq!(single(session, seed_orders), SEED_ORDERS);
    // Every product is on offer 1 (no discount); the other 36 pairs are
    // spread over offers 2 to 16.
    assert_eq!(
        single(
            session,
            "SELECT COUNT(*) FROM Sales.SpecialOfferProduct_inmem WHERE SpecialOfferID = 1"
        ),
        PRODUCTS
    );
    assert_eq!(
        single(
            session,
            "SELECT COUNT(DISTINCT SpecialOfferID) FROM Sales.SpecialOfferProduct_inmem"
        ),
        OFFERS
    );
    // The identities go on after the explicit ids the load gave.
    assert_eq!(
        single(
            session,
            "SELECT CAST(IDENT_CURRENT('Sales.SalesOrderHeader_inmem') AS int)"
        ),
        LAST_LOADED_ORDER
    );
}

fn the_loaded_orders_add_up(session: &mut Session) {
    // Each line's price is its product's list price, its discount its
    // offer's, and its product is on its offer.
    let priced = "SELECT COUNT(*) FROM Sales.SalesOrderDetail_inmem AS d
        JOIN Production.Product_inmem AS p ON p.ProductID = d.ProductID
        JOIN Sales.SpecialOffer_inmem AS so ON so.SpecialOfferID = d.SpecialOfferID
        JOIN Sales.SpecialOfferProduct_inmem AS sop
            ON sop.SpecialOfferID = d.SpecialOfferID AND sop.ProductID = d.ProductID
        WHERE d.UnitPrice = p.ListPrice AND d.UnitPriceDiscount = so.DiscountPct";
    assert_eq!(single(session, priced), LINES);
    let discounted = single(
        session,
        "SELECT COUNT(*) FROM Sales.SalesOrderDetail_inmem WHERE UnitPriceDiscount > 0",
    );
    assert!(discounted > 1_000, "{discounted} discounted lines");
    // Each order's subtotal is the sum of its lines' totals (the view's
    // LineTotal), and the header view's TotalDue adds tax and freight.
    let balanced = "SELECT COUNT(*) FROM Sales.vSalesOrderHeader_extended_inmem AS h
        JOIN (SELECT SalesOrderID, SUM(LineTotal) AS Lines
              FROM Sales.vSalesOrderDetail_extended_inmem GROUP BY SalesOrderID) AS d
            ON d.SalesOrderID = h.SalesOrderID
        WHERE h.SubTotal = d.Lines AND h.SubTotal > 0
          AND h.TotalDue = h.SubTotal + h.TaxAmt + h.Freight
          AND h.SalesOrderNumber = N'SO' + CAST(h.SalesOrderID AS nvarchar(10))";
    assert_eq!(single(session, balanced), ORDERS);
    // The original's NULL sales person is -1 in the memory-optimized table.
    let surrogates = "SELECT COUNT(*) FROM Sales.SalesOrderHeader AS o
        JOIN Sales.SalesOrderHeader_inmem AS m ON m.SalesOrderID = o.SalesOrderID
        WHERE (o.SalesPersonID IS NULL AND m.SalesPersonID = -1)
           OR o.SalesPersonID = m.SalesPersonID";
    assert_eq!(single(session, surrogates), ORDERS);
    let online = single(
        session,
        "SELECT COUNT(*) FROM Sales.SalesOrderHeader_inmem WHERE SalesPersonID = -1",
    );
    assert!(
        online > ORDERS / 2 && online < ORDERS,
        "{online} online orders"
    );
}

/// The orders the workload added to the `suffix` tables: `expected` of
/// them, each with the five lines of one sample order, priced from the
/// products, discounted by the offers, and dated with one reading of the
/// clock.
fn new_orders_are_priced_from_products_and_offers(
    session: &mut Session,
    suffix: &str,
    expected: i64,
) {
    let new_orders = format!(
        "SELECT COUNT(*) FROM Sales.SalesOrderHeader_{suffix} WHERE SalesOrderID > {LAST_LOADED_ORDER}"
    );
    assert_eq!(single(session, &new_orders), expected);
    let new_lines = format!(
        "SELECT COUNT(*) FROM Sales.SalesOrderDetail_{suffix} WHERE SalesOrderID > {LAST_LOADED_ORDER}"
    );
    assert_eq!(single(session, &new_lines), SEED_LINES_PER_ORDER * expected);
    // All five lines of each order match one sample order's lines.
    let from_one_sample = format!(
        "SELECT COUNT(DISTINCT SalesOrderID) FROM (
            SELECT d.SalesOrderID, s.OrderID
            FROM Sales.SalesOrderDetail_{suffix} AS d
            JOIN Demo.DemoSalesOrderDetailSeed AS s
                ON s.ProductID = d.ProductID AND s.SpecialOfferID = d.SpecialOfferID
               AND s.OrderQty = d.OrderQty
            WHERE d.SalesOrderID > {LAST_LOADED_ORDER}
            GROUP BY d.SalesOrderID, s.OrderID
            HAVING COUNT(*) = 5) AS matched"
    );
    assert_eq!(single(session, &from_one_sample), expected);
    // Prices and discounts come from the product and offer tables, and the
    // subtotal is theirs, computed here apart from the procedure.
    let priced = format!(
        "SELECT COUNT(*) FROM Sales.SalesOrderDetail_{suffix} AS d
            JOIN Production.Product_{suffix} AS p ON p.ProductID = d.ProductID
            JOIN Sales.SpecialOffer_{suffix} AS so ON so.SpecialOfferID = d.SpecialOfferID
         WHERE d.SalesOrderID > {LAST_LOADED_ORDER}
           AND d.UnitPrice = p.ListPrice AND d.UnitPriceDiscount = so.DiscountPct"
    );
    assert_eq!(single(session, &priced), SEED_LINES_PER_ORDER * expected);
    let totals = format!(
        "SELECT COUNT(*) FROM Sales.SalesOrderHeader_{suffix} AS h
            JOIN (SELECT d.SalesOrderID, SUM(p.ListPrice * (1.0 - so.DiscountPct) * d.OrderQty) AS Total,
                         MIN(d.ModifiedDate) AS FirstDate, MAX(d.ModifiedDate) AS LastDate
                  FROM Sales.SalesOrderDetail_{suffix} AS d
                  JOIN Production.Product_{suffix} AS p ON p.ProductID = d.ProductID
                  JOIN Sales.SpecialOffer_{suffix} AS so ON so.SpecialOfferID = d.SpecialOfferID
                  GROUP BY d.SalesOrderID) AS l ON l.SalesOrderID = h.SalesOrderID
         WHERE h.SalesOrderID > {LAST_LOADED_ORDER}
           AND h.SubTotal = l.Total AND h.SubTotal > 0
           AND h.OrderDate = h.ModifiedDate AND l.FirstDate = h.OrderDate AND l.LastDate = h.OrderDate
           AND h.DueDate <= h.OrderDate AND h.SalesPersonID = -1 AND h.[Status] = 1"
    );
    assert_eq!(single(session, &totals), expected);
}

const SHIP_ORDER_43700: &str = "EXEC Sales.usp_UpdateSalesOrderShipInfo_inmem
    @SalesOrderID = 43700, @ShipDate = '2014-07-01T10:00:00', @Comment = N'shipped by the test',
    @Status = 5, @TaxRate = 0.1, @Freight = 12.5, @CarrierTrackingNumber = N'TRACK-43700'";

fn shipping_an_order_updates_it_and_its_lines(session: &mut Session) {
    let lines = single(
        session,
        "SELECT COUNT(*) FROM Sales.SalesOrderDetail_inmem WHERE SalesOrderID = 43700",
    );
    assert!(lines > 0);
    run(session, SHIP_ORDER_43700);
    let shipped = "SELECT COUNT(*) FROM Sales.SalesOrderHeader_inmem
        WHERE SalesOrderID = 43700 AND RevisionNumber = 2 AND [Status] = 5
          AND ShipDate = '2014-07-01T10:00:00' AND TaxAmt = SubTotal * 0.1 AND Freight = 12.5
          AND Comment = N'shipped by the test'";
    assert_eq!(single(session, shipped), 1);
    let tracked = "SELECT COUNT(*) FROM Sales.SalesOrderDetail_inmem
        WHERE SalesOrderID = 43700 AND CarrierTrackingNumber = N'TRACK-43700'";
    assert_eq!(single(session, tracked), lines);
    // No such order: the native procedure's error, not retried.
    let error = error_of(
        session,
        "EXEC Sales.usp_UpdateSalesOrderShipInfo_inmem 1, '2014-07-01', NULL, 5, 0.1, 0, NULL",
    );
    assert!(error.contains("Msg 51000"), "{error}");
    assert!(error.contains("The sales order does not exist."), "{error}");
    // The disk-based twin.
    run(
        session,
        "EXEC Sales.usp_UpdateSalesOrderShipInfo_ondisk 43700, '2014-07-01T10:00:00', N'ondisk', 5, 0.1, 12.5, N'TRACK-OD'",
    );
    let shipped_ondisk = "SELECT COUNT(*) FROM Sales.SalesOrderHeader_ondisk
        WHERE SalesOrderID = 43700 AND RevisionNumber = 2 AND Comment = N'ondisk' AND TaxAmt = SubTotal * 0.1";
    assert_eq!(single(session, shipped_ondisk), 1);
}

/// The engine's count of write conflicts so far.
fn write_conflicts(session: &mut Session) -> i64 {
    single(
        session,
        "SELECT write_conflicts FROM sys.dm_xtp_transaction_stats",
    )
}

fn the_wrapper_retries_a_write_conflict_ten_times(sample: &Sample, session: &mut Session) {
    let mut holder = sample.session();
    run(
        &mut holder,
        "BEGIN TRANSACTION
         UPDATE Sales.SalesOrderHeader_inmem WITH (SNAPSHOT) SET Comment = N'held' WHERE SalesOrderID = 43701",
    );
    let before = write_conflicts(session);
    let error = error_of(
        session,
        "EXEC Sales.usp_UpdateSalesOrderShipInfo_inmem 43701, '2014-07-01', N'retried', 5, 0.1, 0, NULL",
    );
    assert!(error.contains("Msg 41302"), "{error}");
    assert_eq!(
        write_conflicts(session) - before,
        10,
        "ten tries, then the error goes to the caller"
    );
    run(&mut holder, "COMMIT");
    run(
        session,
        "EXEC Sales.usp_UpdateSalesOrderShipInfo_inmem 43701, '2014-07-01', N'retried', 5, 0.1, 0, NULL",
    );
    let out = run(
        session,
        "SELECT Comment FROM Sales.SalesOrderHeader_inmem WHERE SalesOrderID = 43701",
    );
    assert_eq!(out.rows, vec![vec![Value::String("retried".into())]]);
}

fn products_and_offers_keep_their_integrity(session: &mut Session) {
    const NEW_PRODUCT: &str = "DECLARE @id int
        EXEC Production.usp_InsertProduct_inmem @id OUTPUT, @Name = N'Test Saddle', @ProductNumber = N'SE-T-999',
            @SafetyStockLevel = 10, @ReorderPoint = 5, @StandardCost = 10, @ListPrice = 25.5,
            @DaysToManufacture = 0, @SellStartDate = '2014-07-01'
        SELECT @id";
    let product = single(session, NEW_PRODUCT);
    assert_eq!(product, PRODUCTS + 1);
    let error = error_of(session, NEW_PRODUCT);
    assert!(error.contains("Msg 51001"), "{error}");
    let taken_number = "DECLARE @id int
        EXEC Production.usp_InsertProduct_inmem @id OUTPUT, @Name = N'Another Saddle', @ProductNumber = N'FR-R-012',
            @SafetyStockLevel = 10, @ReorderPoint = 5, @StandardCost = 10, @ListPrice = 25.5,
            @DaysToManufacture = 0, @SellStartDate = '2014-07-01'";
    assert!(error_of(session, taken_number).contains("Msg 51001"));

    let offer = single(
        session,
        "DECLARE @id int
         EXEC Sales.usp_InsertSpecialOffer_inmem @id OUTPUT, @Description = N'Saddle Week', @DiscountPct = 0.25,
             @Type = N'Seasonal Discount', @Category = N'Customer', @StartDate = '2014-07-01', @EndDate = '2014-07-08'
         SELECT @id",
    );
    assert_eq!(offer, OFFERS + 1);
    run(
        session,
        &format!("EXEC Sales.usp_InsertSpecialOfferProduct_inmem {offer}, {product}"),
    );
    let missing = error_of(
        session,
        &format!("EXEC Sales.usp_InsertSpecialOfferProduct_inmem {offer}, 99999"),
    );
    assert!(missing.contains("Msg 547"), "{missing}");

    // Products and offers that order lines name stay.
    let named = error_of(session, "EXEC Production.usp_DeleteProduct_inmem 1");
    assert!(named.contains("Msg 51002"), "{named}");
    let named = error_of(session, "EXEC Sales.usp_DeleteSpecialOffer_inmem 1");
    assert!(named.contains("Msg 51003"), "{named}");
    // The new ones go, with their pair.
    run(
        session,
        &format!("EXEC Sales.usp_DeleteSpecialOffer_inmem {offer}"),
    );
    run(
        session,
        &format!("EXEC Production.usp_DeleteProduct_inmem {product}"),
    );
    assert_eq!(
        single(session, "SELECT COUNT(*) FROM Production.Product_inmem"),
        PRODUCTS
    );
    assert_eq!(
        single(session, "SELECT COUNT(*) FROM Sales.SpecialOffer_inmem"),
        OFFERS
    );
    assert_eq!(
        single(
            session,
            "SELECT COUNT(*) FROM Sales.SpecialOfferProduct_inmem"
        ),
        OFFER_PRODUCTS
    );
}

fn the_reset_brings_back_the_loaded_orders(session: &mut Session) {
    for suffix in ["inmem", "ondisk"] {
        let orders = format!("SELECT COUNT(*) FROM Sales.SalesOrderHeader_{suffix}");
        assert_eq!(single(session, &orders), ORDERS, "{suffix}");
        let lines = format!("SELECT COUNT(*) FROM Sales.SalesOrderDetail_{suffix}");
        assert_eq!(single(session, &lines), LINES, "{suffix}");
        // The orders are the originals again: the shipped ones too.
        let same = format!(
            "SELECT COUNT(*) FROM Sales.SalesOrderHeader AS o
                JOIN Sales.SalesOrderHeader_{suffix} AS c ON c.SalesOrderID = o.SalesOrderID
             WHERE c.SubTotal = o.SubTotal AND c.TaxAmt = o.TaxAmt AND c.RevisionNumber = o.RevisionNumber
               AND c.OrderDate = o.OrderDate AND ISNULL(c.Comment, N'') = ISNULL(o.Comment, N'')"
        );
        assert_eq!(single(session, &same), ORDERS, "{suffix}");
        let tracking = format!(
            "SELECT COUNT(*) FROM Sales.SalesOrderDetail_{suffix} WHERE CarrierTrackingNumber LIKE N'TRACK%'"
        );
        assert_eq!(single(session, &tracking), 0, "{suffix}");
    }
}

fn the_usage_queries_report_the_sample(session: &mut Session) {
    let batches: Vec<&str> = hekla_parser::script::split_batches(USAGE_QUERIES)
        .into_iter()
        .map(|batch| batch.text)
        .collect();
    assert_eq!(batches.len(), 4);
    let clerks = run(session, batches[0]);
    assert!(
        clerks
            .rows
            .iter()
            .any(|row| row[0] == Value::String("MEMORYCLERK_XTP".into())),
        "{:?}",
        clerks.rows
    );
    // The hash indexes take their bucket arrays whatever the rows: the
    // lines' three indexes have 67,108,864 + 16,777,216 + 1,048,576
    // buckets of 8 bytes, 663,552 KB, as in the article.
    let per_table = run(session, batches[1]);
    let indexes_kb = |table: &str| -> i64 {
        let row = per_table
            .rows
            .iter()
            .find(|row| row[0] == Value::String(table.into()))
            .unwrap_or_else(|| panic!("{table} in {:?}", per_table.rows));
        row[2].as_i64().unwrap()
    };
    assert!(indexes_kb("SalesOrderDetail_inmem") >= 663_552);
    assert!(indexes_kb("SalesOrderHeader_inmem") >= 147_456);
    let on_disk = run(session, batches[2]);
    assert!(
        on_disk.rows[0][0].as_i64().unwrap() > 0,
        "{:?}",
        on_disk.rows
    );
    // The reset's checkpoint wrote the loaded orders into active files.
    let files = run(session, batches[3]);
    assert!(
        files.rows.iter().any(|row| {
            row[0] == Value::String("ACTIVE".into()) && row[1] == Value::String("DATA".into())
        }),
        "{:?}",
        files.rows
    );
}
