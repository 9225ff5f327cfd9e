//! The engine's own cost for one call of `Sales.usp_InsertSalesOrder_inmem`
//! (issue 19's baseline for the insert procedure): the same engine work
//! the procedure asks for, done through the embedded `hekla_engine` API
//! with no SQL layer, on the same tables of the same kind of database.
//!
//! Per order, in one SNAPSHOT transaction, as the procedure's plans do it
//! (SHOWPLAN: each of its two joins is a scan of the TVP, a hash seek on
//! Product's key and a hash seek on SpecialOffer's key per line):
//! 1. the subtotal: for each of the 5 lines, a hash seek on
//!    `Production.Product_inmem`'s primary key (ListPrice) and one on
//!    `Sales.SpecialOffer_inmem`'s (DiscountPct);
//! 2. the header: its next IDENTITY value, then one insert into
//!    `Sales.SalesOrderHeader_inmem` (both its hash indexes);
//! 3. the lines: for each, the same two seeks again, its next IDENTITY
//!    value, and one insert into `Sales.SalesOrderDetail_inmem` (both its
//!    hash indexes);
//! 4. commit, under the database's DELAYED_DURABILITY as set by SQL.
//!
//! That is 20 hash seeks and 6 inserts of the rows the procedure inserts
//! (same columns, types and values: checked against a row the procedure
//! wrote). Not in it, as SQL-layer work: the RPC's parameters, the TVP's
//! own table (its 5 rows are read from memory here), the CHECK constraint,
//! expression evaluation beyond the subtotal's arithmetic.

use super::ORDER_LINES;
use crate::sql::first_value::first_value;
use hekla_engine::{Database, IsolationLevel, Row, Table, Transaction};
use hekla_sql::catalog::table::{KeyConstraint, TableMeta};
use hekla_sql::session::{Session, SqlDatabase};
use hekla_types::{Date, DateTime2, Money, Time, Value};
use std::ops::ControlFlow;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// The procedure's tables as the engine has them, with the key index of
/// each table it seeks.
pub(super) struct OrderTables {
    product: Arc<Table>,
    product_key: usize,
    special_offer: Arc<Table>,
    special_offer_key: usize,
    header: Arc<TableMeta>,
    detail: Arc<TableMeta>,
}

/// money's units in 1 (it counts ten-thousandths).
const MONEY_UNITS: i64 = 10_000;

// Column positions, checked against the catalog by `OrderTables::find`.
const LIST_PRICE: usize = 2;
const DISCOUNT_PCT: usize = 1;
const PRODUCT_COLUMNS: [&str; 3] = ["ProductID", "Name", "ListPrice"];
const SPECIAL_OFFER_COLUMNS: [&str; 2] = ["SpecialOfferID", "DiscountPct"];
const HEADER_COLUMNS: [&str; 8] = [
    "SalesOrderID",
    "OrderDate",
    "DueDate",
    "Status",
    "CustomerID",
    "ShipMethodID",
    "SubTotal",
    "Comment",
];
const DETAIL_COLUMNS: [&str; 7] = [
    "SalesOrderID",
    "SalesOrderDetailID",
    "OrderQty",
    "ProductID",
    "SpecialOfferID",
    "UnitPrice",
    "UnitPriceDiscount",
];

impl OrderTables {
    /// The tables of workloads/sales_orders.sql in `db`'s catalog; fails
    /// unless their columns are where the rows below put them.
    pub(super) fn find(db: &SqlDatabase) -> Result<OrderTables, String> {
        let catalog = db.catalog();
        let table = |schema: &str, name: &str, columns: &[&str]| {
            let meta = catalog
                .schema_id(schema)
                .and_then(|id| catalog.table(id, name))
                .ok_or_else(|| format!("{schema}.{name} is not in the catalog"))?;
            let names: Vec<&str> = meta.columns.iter().map(|c| c.name.as_str()).collect();
            if names != columns {
                return Err(format!("{schema}.{name} has the columns {names:?}"));
            }
            Ok(meta.clone())
        };
        let product = table("Production", "Product_inmem", &PRODUCT_COLUMNS)?;
        let special_offer = table("Sales", "SpecialOffer_inmem", &SPECIAL_OFFER_COLUMNS)?;
        let header = table("Sales", "SalesOrderHeader_inmem", &HEADER_COLUMNS)?;
        let detail = table("Sales", "SalesOrderDetail_inmem", &DETAIL_COLUMNS)?;
        // The IDENTITY columns: the header's first, the line's second.
        for (meta, column) in [(&header, 0), (&detail, 1)] {
            if meta.identity.as_ref().map(|identity| identity.column) != Some(column) {
                return Err(format!("{}: no IDENTITY column {column}", meta.name));
            }
        }
        Ok(OrderTables {
            product_key: primary_key(&product)?,
            product: product.engine.clone(),
            special_offer_key: primary_key(&special_offer)?,
            special_offer: special_offer.engine.clone(),
            header,
            detail,
        })
    }
}

/// The engine index of `table`'s primary key.
fn primary_key(table: &TableMeta) -> Result<usize, String> {
    table
        .indexes
        .iter()
        .find(|index| index.constraint == Some(KeyConstraint::PrimaryKey))
        .and_then(|index| table.engine.index_named(&index.name))
        .ok_or_else(|| format!("{}: no primary key index", table.name))
}

/// Runs the loop on `threads` threads until `duration` after `start`:
/// the orders committed.
pub(super) fn insert_orders(
    db: &SqlDatabase,
    tables: &OrderTables,
    threads: usize,
    start: Instant,
    duration: Duration,
) -> Result<u64, String> {
    let engine = db.engine();
    let due_date = Value::DateTime2(DateTime2::new(
        Date::from_ymd(2026, 12, 1).ok_or("bad due date")?,
        Time(0),
    ));
    crate::bench::on_threads(threads, |thread| {
        let mut orders = 0u64;
        while start.elapsed() < duration {
            let customer = (orders * 2 + thread as u64) % 10_000;
            insert_order(engine, tables, customer as i32, &due_date)
                .map_err(|e| format!("engine order: {e}"))?;
            orders += 1;
        }
        Ok(orders)
    })
}

/// One order: what one call of the procedure does to the engine.
fn insert_order(
    engine: &Arc<Database>,
    tables: &OrderTables,
    customer: i32,
    due_date: &Value,
) -> hekla_types::SqlResult<()> {
    let mut tx = engine.begin(IsolationLevel::Snapshot)?;
    let mut sub_total = 0i64;
    for &(quantity, product, offer) in &ORDER_LINES {
        let (list_price, discount) = price(&mut tx, tables, product, offer)?;
        // ListPrice * (1 - DiscountPct) * OrderQty, in money's units.
        let discounted = times(list_price, MONEY_UNITS - discount.0);
        sub_total += discounted.0 * i64::from(quantity);
    }
    let order_id = next_identity(engine, &tables.header)?;
    tx.insert(
        &tables.header.engine,
        &[
            order_id.clone(),
            Value::DateTime2(now()),
            due_date.clone(),
            Value::TinyInt(1),
            Value::Int(customer),
            Value::Int(3),
            Value::Money(Money(sub_total)),
            Value::Null,
        ],
    )?;
    for &(quantity, product, offer) in &ORDER_LINES {
        let (list_price, discount) = price(&mut tx, tables, product, offer)?;
        let line_id = next_identity(engine, &tables.detail)?;
        tx.insert(
            &tables.detail.engine,
            &[
                order_id.clone(),
                line_id,
                Value::SmallInt(quantity),
                Value::Int(product),
                Value::Int(offer),
                Value::Money(list_price),
                Value::Money(times(list_price, discount.0)),
            ],
        )?;
    }
    tx.commit()?;
    Ok(())
}

/// A line's ListPrice and DiscountPct (0 when the offer is missing, as the
/// LEFT JOIN's ISNULL makes it): two hash seeks.
fn price(
    tx: &mut Transaction,
    tables: &OrderTables,
    product: i32,
    offer: i32,
) -> hekla_types::SqlResult<(Money, Money)> {
    let money_at = |column: usize| {
        move |row: Row<'_>| match row.value(column) {
            Value::Money(money) => ControlFlow::Break(money),
            _ => ControlFlow::Continue(()),
        }
    };
    let list_price = tx.lookup(
        &tables.product,
        tables.product_key,
        &[Value::Int(product)],
        money_at(LIST_PRICE),
    )?;
    let discount = tx.lookup(
        &tables.special_offer,
        tables.special_offer_key,
        &[Value::Int(offer)],
        money_at(DISCOUNT_PCT),
    )?;
    let list_price = list_price
        .ok_or_else(|| hekla_types::SqlError::new(50000, 16, 1, format!("no product {product}")))?;
    Ok((list_price, discount.unwrap_or(Money(0))))
}

/// `money * units / 10000` rounded half away from zero: money times a
/// money or smallmoney factor given in its units.
fn times(money: Money, factor_units: i64) -> Money {
    let product = i128::from(money.0) * i128::from(factor_units);
    let half = i128::from(MONEY_UNITS / 2) * product.signum();
    Money(((product + half) / i128::from(MONEY_UNITS)) as i64)
}

fn next_identity(engine: &Database, table: &TableMeta) -> hekla_types::SqlResult<Value> {
    match &table.identity {
        Some(identity) => identity.next(engine),
        None => Err(hekla_types::SqlError::new(
            50000,
            16,
            1,
            format!("{} has no IDENTITY column", table.name),
        )),
    }
}

/// SYSDATETIME(): the current UTC instant as datetime2(7).
fn now() -> DateTime2 {
    let epoch = DateTime2::new(Date::from_ymd(1970, 1, 1).unwrap_or(Date::DEFAULT), Time(0));
    let since_epoch = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    DateTime2::from_ticks(epoch.to_ticks() + (since_epoch.as_nanos() / 100) as i64)
}

/// Fails unless every order the engine loop wrote carries the same row
/// contents (but for its IDs and dates) as the one `first_order` the
/// procedure wrote: the loop does the procedure's work, not a lighter one.
pub(super) fn check_rows(session: &mut Session, first_order: &Value) -> Result<(), String> {
    let differing = first_value(
        session,
        &format!(
            "SELECT COUNT_BIG(*) FROM Sales.SalesOrderHeader_inmem AS h
             JOIN Sales.SalesOrderHeader_inmem AS f ON f.SalesOrderID = {first_order}
             WHERE h.SubTotal <> f.SubTotal OR h.Status <> f.Status OR h.DueDate <> f.DueDate
                OR h.ShipMethodID <> f.ShipMethodID OR h.Comment IS NOT NULL
                OR h.OrderDate < f.OrderDate",
        ),
    )?;
    let differing_lines = first_value(
        session,
        &format!(
            "SELECT COUNT_BIG(*) FROM Sales.SalesOrderDetail_inmem AS d
             LEFT JOIN Sales.SalesOrderDetail_inmem AS f
                 ON f.SalesOrderID = {first_order} AND f.ProductID = d.ProductID
             WHERE f.ProductID IS NULL OR d.OrderQty <> f.OrderQty
                OR d.SpecialOfferID <> f.SpecialOfferID OR d.UnitPrice <> f.UnitPrice
                OR d.UnitPriceDiscount <> f.UnitPriceDiscount",
        ),
    )?;
    match (differing, differing_lines) {
        (Value::BigInt(0), Value::BigInt(0)) => Ok(()),
        (headers, lines) => Err(format!(
            "the engine loop's rows differ from the procedure's: {headers} header(s), {lines} line(s)"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn money_times_rounds_half_away_from_zero() {
        // 1000.0000 * 0.9000, 20.0000 * 0.1000, 0.0001 * 0.5000, -0.0001 * 0.5000
        assert_eq!(times(Money(10_000_000), 9_000), Money(9_000_000));
        assert_eq!(times(Money(200_000), 1_000), Money(20_000));
        assert_eq!(times(Money(1), 5_000), Money(1));
        assert_eq!(times(Money(-1), 5_000), Money(-1));
    }

    #[test]
    fn the_engine_loop_writes_the_procedures_rows() {
        let db = SqlDatabase::in_memory().expect("database");
        let mut session = db.session().expect("session");
        crate::bench::sql::create_sales_orders(&mut session).expect("schema");
        super::super::call_order(&mut session, 7).expect("procedure");
        let tables = OrderTables::find(&db).expect("tables");
        let orders = insert_orders(&db, &tables, 2, Instant::now(), Duration::from_millis(50))
            .expect("engine loop");
        assert!(orders > 0);
        check_rows(&mut session, &Value::Int(1)).expect("same rows");
        let lines = first_value(
            &mut session,
            "SELECT COUNT_BIG(*) FROM Sales.SalesOrderDetail_inmem",
        );
        assert_eq!(lines, Ok(Value::BigInt(5 * (orders as i64 + 1))));
        // A line the procedure would not write is seen.
        crate::bench::counting::execute(
            &mut session,
            "UPDATE Sales.SalesOrderDetail_inmem SET UnitPriceDiscount = 1
             WHERE SalesOrderID = 2 AND ProductID = 3",
        )
        .expect("update");
        assert!(check_rows(&mut session, &Value::Int(1)).is_err());
    }
}
