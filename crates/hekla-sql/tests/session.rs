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
        ("CREATE TABLE t (a int, b AS a + 1)", 10794),
        ("CREATE TABLE t (a int CHECK (b > 0), b int)", 8141),
        ("CREATE TABLE t (a int REFERENCES nowhere (id))", 1767),
        ("CREATE TABLE t (a int IDENTITY, b bigint IDENTITY)", 2744),
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

/// Runs `script` in a fresh session of `db`.
fn run_in(db: &Arc<SqlDatabase>, script: &str) -> String {
    run(&mut db.session().unwrap(), script)
}

#[test]
fn constraints_identity_and_sequences_survive_restarts() {
    let dir = scratch("constraints");
    {
        let db = open(&dir);
        let setup = "
CREATE SEQUENCE dbo.ticket_numbers AS int START WITH 1 INCREMENT BY 1 CACHE 10
GO
CREATE SEQUENCE dbo.uncached START WITH 5 INCREMENT BY 5 NO CACHE
GO
CREATE TABLE dbo.customers (id int NOT NULL PRIMARY KEY NONCLUSTERED, name varchar(20) NOT NULL CHECK (name <> ''))
    WITH (MEMORY_OPTIMIZED = ON)
GO
CREATE TABLE dbo.orders (
    id int IDENTITY(1, 1) NOT NULL PRIMARY KEY NONCLUSTERED,
    customer int NOT NULL REFERENCES dbo.customers (id),
    ticket int NOT NULL DEFAULT NEXT VALUE FOR dbo.ticket_numbers
) WITH (MEMORY_OPTIMIZED = ON)
GO
SET NOCOUNT ON
INSERT INTO dbo.customers VALUES (1, 'ada'), (2, 'bob')
INSERT INTO dbo.orders (customer) VALUES (1), (2), (1)
INSERT INTO dbo.orders (customer) VALUES (9)
";
        let out = run_in(&db, setup);
        assert!(out.contains("Msg 547,"), "{out}");
        assert!(
            run_in(&db, "SELECT NEXT VALUE FOR dbo.uncached").contains("\n                   5\n")
        );
    }
    let db = open(&dir);
    // The constraints are bound again from the stored definitions.
    let out = run_in(&db, "INSERT INTO dbo.customers VALUES (3, '')");
    assert!(
        out.starts_with("Msg 547,") && out.contains("CHECK"),
        "{out}"
    );
    let out = run_in(&db, "INSERT INTO dbo.orders (customer) VALUES (8)");
    assert!(
        out.starts_with("Msg 547,") && out.contains("FOREIGN KEY"),
        "{out}"
    );
    let out = run_in(&db, "DELETE FROM dbo.customers WHERE id = 2");
    assert!(
        out.starts_with("Msg 547,") && out.contains("REFERENCE"),
        "{out}"
    );
    assert!(run_in(&db, "DROP TABLE dbo.customers").starts_with("Msg 3726,"));
    // IDENTITY and the sequence continue after every value handed out
    // before the restart, including the one the failed INSERT used; the
    // rest of each reserved block is skipped.
    let out = run_in(
        &db,
        "SET NOCOUNT ON\nINSERT INTO dbo.orders (customer) VALUES (2)\nSELECT id, ticket FROM dbo.orders WHERE customer = 2 ORDER BY id",
    );
    let values: Vec<Vec<i64>> = out
        .lines()
        .skip(2)
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            line.split_whitespace()
                .map(|v| v.parse().unwrap())
                .collect()
        })
        .collect();
    assert_eq!(values.len(), 2, "{out}");
    assert_eq!(values[0], [2, 2]);
    assert!(values[1][0] > 4, "identity reused a value: {out}");
    assert!(values[1][1] > 4, "the sequence reused a value: {out}");
    // Without a cache every value is recorded: the next one follows at once.
    assert!(run_in(&db, "SELECT NEXT VALUE FOR dbo.uncached").contains("                  10\n"));
    assert!(run_in(&db, "DROP SEQUENCE dbo.ticket_numbers").starts_with("Msg 3729,"));
    assert_eq!(
        run_in(&db, "DROP TABLE dbo.orders\nDROP TABLE dbo.customers\nDROP SEQUENCE dbo.ticket_numbers, dbo.uncached"),
        ""
    );
    drop(db);
    let db = open(&dir);
    assert_eq!(db.catalog().tables().count(), 0);
    assert_eq!(db.catalog().sequences().count(), 0);
    drop(db);
    std::fs::remove_dir_all(&dir).unwrap();
}
