//! The embedded session: DDL for schemas and tables, errors as a client
//! sees them, and the SQL catalog across restarts.

use hekla_engine::{DatabaseConfig, StorageConfig};
use hekla_sql::session::{Session, SqlDatabase};
use hekla_sql::text_output::{TextOptions, TextSink};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Runs a script (batches split on GO) and returns what sqlcmd would show.
fn run(session: &mut Session, script: &str) -> String {
    let mut sink = TextSink::new(Vec::new(), TextOptions::default());
    for batch in hekla_sql::script::split_batches(script) {
        session.execute(batch.text, &mut sink);
    }
    let (out, failed) = sink.finish();
    assert!(failed.is_none());
    String::from_utf8(out).unwrap()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hekla-sql-session-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn open(dir: &Path) -> Arc<SqlDatabase> {
    SqlDatabase::open(dir, DatabaseConfig::default(), StorageConfig::small()).unwrap()
}

const SALES_SCHEMA: &str = "
CREATE SCHEMA Sales;
GO
CREATE TABLE Sales.SalesOrderHeader_inmem (
    SalesOrderID int NOT NULL PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = 1048576),
    OrderDate datetime2(7) NOT NULL,
    CustomerID int NOT NULL INDEX IX_CustomerID HASH WITH (BUCKET_COUNT = 65536),
    Comment nvarchar(128) NULL,
    INDEX IX_OrderDate NONCLUSTERED (OrderDate DESC)
) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_AND_DATA);
";

#[test]
fn create_and_drop_tables() {
    let db = SqlDatabase::in_memory().unwrap();
    let mut session = db.session().unwrap();
    assert_eq!(run(&mut session, SALES_SCHEMA), "");
    {
        let catalog = db.catalog();
        let schema = catalog.schema_id("sales").unwrap();
        let table = catalog.table(schema, "salesorderheader_INMEM").unwrap();
        assert_eq!(table.columns.len(), 4);
        assert!(!table.columns[0].nullable);
        assert!(table.columns[3].nullable);
        let index_names: Vec<&str> = table.indexes.iter().map(|i| i.name.as_str()).collect();
        assert_eq!(index_names.len(), 3);
        assert!(index_names[0].starts_with("PK__SalesOrderHeader_inmem__"));
        assert_eq!(&index_names[1..], ["IX_CustomerID", "IX_OrderDate"]);
        assert_eq!(table.engine.def.indexes.len(), 3);
    }
    assert_eq!(
        run(&mut session, "CREATE TABLE Sales.SalesOrderHeader_inmem (a int PRIMARY KEY NONCLUSTERED)"),
        "Msg 2714, Level 16, State 6, Line 1\nThere is already an object named 'SalesOrderHeader_inmem' in the database.\n"
    );
    assert_eq!(run(&mut session, "DROP TABLE Sales.SalesOrderHeader_inmem; DROP TABLE IF EXISTS Sales.SalesOrderHeader_inmem"), "");
    assert_eq!(
        run(&mut session, "DROP TABLE dbo.missing"),
        "Msg 3701, Level 11, State 5, Line 1\nCannot drop the table 'missing', because it does not exist or you do not have permission.\n"
    );
    assert_eq!(db.catalog().tables().count(), 0);
}

#[test]
fn table_definitions_are_checked_as_sql_server_checks_them() {
    let db = SqlDatabase::in_memory().unwrap();
    let mut session = db.session().unwrap();
    let cases = [
        ("CREATE TABLE t (a int) WITH (MEMORY_OPTIMIZED = ON)", 41321),
        ("CREATE TABLE t (a int INDEX ix NONCLUSTERED) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_AND_DATA)", 41321),
        ("CREATE TABLE nope.t (a int PRIMARY KEY NONCLUSTERED)", 2760),
        ("CREATE TABLE t (a int NULL PRIMARY KEY NONCLUSTERED)", 8111),
        ("CREATE TABLE t (a int, PRIMARY KEY NONCLUSTERED (b))", 1911),
        ("CREATE TABLE t (a int, a bigint)", 2705),
        ("CREATE TABLE t (a frob)", 2715),
        ("CREATE TABLE t (a varchar(9000))", 131),
        ("CREATE TABLE t (a int PRIMARY KEY NONCLUSTERED HASH)", 10794),
        ("CREATE TABLE t (a int PRIMARY KEY NONCLUSTERED, b int PRIMARY KEY NONCLUSTERED)", 8110),
        ("CREATE TABLE t (a int CHECK (a > 0))", 10794),
        ("CREATE TABLE t (a int) WITH (FROB = ON)", 155),
        ("CREATE TABLE t (a int COLLATE Klingon_CI_AS)", 448),
    ];
    for (sql, number) in cases {
        let out = run(&mut session, sql);
        assert!(out.starts_with(&format!("Msg {number},")), "{sql}\n{out}");
    }
    // SCHEMA_ONLY tables need an index, not a primary key; a plain CREATE
    // TABLE (SQL Server's disk-table rules) needs neither.
    assert_eq!(run(&mut session, "CREATE TABLE s (a int INDEX ix NONCLUSTERED) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_ONLY)"), "");
    assert_eq!(
        run(&mut session, "CREATE TABLE h (a int, b varchar(10))"),
        ""
    );
    assert_eq!(db.catalog().tables().count(), 2);
}

#[test]
fn errors_report_lines_and_the_batch_goes_on() {
    let db = SqlDatabase::in_memory().unwrap();
    let mut session = db.session().unwrap();
    assert_eq!(
        run(&mut session, "CREATE TABLE a (x int)\nDROP TABLE nope\nCREATE TABLE b (x int)"),
        "Msg 3701, Level 11, State 5, Line 2\nCannot drop the table 'nope', because it does not exist or you do not have permission.\n"
    );
    assert_eq!(db.catalog().tables().count(), 2);
    // A syntax error stops the whole batch before anything runs.
    assert_eq!(
        run(&mut session, "CREATE TABLE c (x int)\nSELECT * FROM WHERE"),
        "Msg 156, Level 15, State 1, Line 2\nIncorrect syntax near the keyword 'WHERE'.\n"
    );
    assert_eq!(db.catalog().tables().count(), 2);
    assert!(run(
        &mut session,
        "MERGE a USING b ON 1 = 1 WHEN MATCHED THEN DELETE;"
    )
    .starts_with("Msg 10794,"));
    assert!(run(&mut session, "SET NOCOUNT ON; SET NOCOUNT OFF").is_empty());
}

#[test]
fn the_catalog_survives_restarts() {
    let dir = scratch("restart");
    {
        let db = open(&dir);
        assert_eq!(run(&mut db.session().unwrap(), SALES_SCHEMA), "");
        assert_eq!(
            run(
                &mut db.session().unwrap(),
                "CREATE TABLE dbo.gone (a int PRIMARY KEY NONCLUSTERED)"
            ),
            ""
        );
        assert_eq!(run(&mut db.session().unwrap(), "DROP TABLE dbo.gone"), "");
    }
    {
        let db = open(&dir);
        let catalog = db.catalog();
        let schema = catalog.schema_id("Sales").unwrap();
        let table = catalog.table(schema, "SalesOrderHeader_inmem").unwrap();
        assert_eq!(table.indexes.len(), 3);
        assert_eq!(table.columns[1].name, "OrderDate");
        assert!(catalog.table(1, "gone").is_none());
        assert_eq!(catalog.tables().count(), 1);
    }
    {
        // An engine table whose definition never committed (a crash inside
        // CREATE TABLE) is dropped at open.
        let db = open(&dir);
        let def = hekla_engine::TableDef::new(
            "orphan",
            vec![hekla_engine::ColumnDef::new(
                "a",
                hekla_types::DataType::Int,
                false,
            )],
            vec![],
        );
        db.engine().create_table(def).unwrap();
    }
    let db = open(&dir);
    assert!(db.engine().table_named("dbo", "orphan").is_none());
    assert_eq!(db.catalog().tables().count(), 1);
    drop(db);
    std::fs::remove_dir_all(&dir).unwrap();
}
