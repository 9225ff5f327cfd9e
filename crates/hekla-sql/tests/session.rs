//! The embedded session: DDL for schemas and tables, errors as a client
//! sees them, and the SQL catalog across restarts.

mod common;

use common::printed as run;
use hekla_engine::{DatabaseConfig, StorageConfig};
use hekla_sql::session::SqlDatabase;
use std::path::{Path, PathBuf};
use std::sync::Arc;

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
        ("CREATE TABLE t (a int, b AS a + 1, c AS b * 2)", 1759),
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
    // IDENTITY and the sequence continue right after every value handed
    // out, including those the failed INSERTs used (4 before the restart,
    // 5 after): the database was closed cleanly, so nothing of their
    // blocks is lost.
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
    assert_eq!(values[1], [6, 6], "{out}");
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

/// A query's rows, each as its values separated by one space.
fn rows(db: &Arc<SqlDatabase>, query: &str) -> Vec<String> {
    let out = run_in(db, &format!("SET NOCOUNT ON\n{query}"));
    assert!(!out.contains("Msg "), "{query}\n{out}");
    out.lines()
        .skip(2)
        .filter(|line| !line.trim().is_empty())
        .map(|line| line.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect()
}

#[test]
fn user_types_survive_restarts() {
    let dir = scratch("types");
    let rows = |db: &Arc<SqlDatabase>, query: &str| -> Vec<String> {
        let out = run_in(db, &format!("SET NOCOUNT ON\n{query}"));
        assert!(!out.contains("Msg "), "{query}\n{out}");
        out.lines()
            .skip(2)
            .filter(|line| !line.trim().is_empty())
            .map(|line| line.split_whitespace().collect::<Vec<_>>().join(" "))
            .collect()
    };
    let types_before;
    {
        let db = open(&dir);
        let setup = "
CREATE SCHEMA Sales
GO
CREATE TYPE Sales.SalesOrderDetailType_inmem AS TABLE(
  OrderQty smallint NOT NULL, ProductID int NOT NULL, SpecialOfferID int NOT NULL,
  INDEX IX_ProductID NONCLUSTERED HASH (ProductID) WITH (BUCKET_COUNT = 8)
) WITH (MEMORY_OPTIMIZED = ON)
GO
CREATE TYPE dbo.Flag FROM bit NOT NULL
GO
CREATE TABLE dbo.late (id int NOT NULL PRIMARY KEY NONCLUSTERED) WITH (MEMORY_OPTIMIZED = ON)
GO
CREATE TYPE dbo.Later FROM varchar(3) NOT NULL
GO
ALTER TABLE dbo.late ADD code dbo.Later NULL, f Flag NOT NULL DEFAULT 1
GO
SET NOCOUNT ON
INSERT INTO dbo.late (id, code) VALUES (1, 'abc')
";
        assert_eq!(run_in(&db, setup), "");
        types_before = rows(
            &db,
            "SELECT name, user_type_id FROM sys.types WHERE is_user_defined = 1 ORDER BY name",
        );
    }
    let db = open(&dir);
    // Same types, same ids; the table altered to use a type made after it
    // is restored too.
    assert_eq!(
        rows(
            &db,
            "SELECT name, user_type_id FROM sys.types WHERE is_user_defined = 1 ORDER BY name"
        ),
        types_before
    );
    assert_eq!(rows(&db, "SELECT id, code, f FROM dbo.late"), ["1 abc 1"]);
    let script = "
DECLARE @od Sales.SalesOrderDetailType_inmem;
INSERT INTO @od VALUES (3, 707, 1), (1, 708, 1);
SELECT * FROM @od ORDER BY ProductID";
    assert_eq!(rows(&db, script), ["3 707 1", "1 708 1"]);
    assert!(run_in(&db, "DROP TYPE dbo.Later").starts_with("Msg 3732,"));
    assert_eq!(
        run_in(
            &db,
            "DROP TABLE dbo.late\nDROP TYPE dbo.Later, dbo.Flag, Sales.SalesOrderDetailType_inmem"
        ),
        ""
    );
    drop(db);
    let db = open(&dir);
    assert_eq!(
        rows(
            &db,
            "SELECT COUNT(*) FROM sys.types WHERE is_user_defined = 1"
        ),
        ["0"]
    );
    drop(db);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn views_survive_restarts() {
    let dir = scratch("views");
    let changed_id;
    {
        let db = open(&dir);
        let setup = "
CREATE TABLE dbo.items (id int NOT NULL PRIMARY KEY NONCLUSTERED, price int NOT NULL)
    WITH (MEMORY_OPTIMIZED = ON)
GO
SET NOCOUNT ON
INSERT INTO dbo.items VALUES (1, 10), (2, 20), (3, 30)
GO
CREATE VIEW dbo.cheap (item) AS SELECT id FROM dbo.items WHERE price < 25
GO
CREATE VIEW dbo.changed AS SELECT id FROM dbo.items
GO
ALTER VIEW dbo.changed AS SELECT id, price * 2 AS doubled FROM dbo.items WHERE id = 3
GO
CREATE VIEW dbo.gone AS SELECT 1 AS one
GO
DROP VIEW dbo.gone
GO
CREATE VIEW dbo.bound WITH SCHEMABINDING AS SELECT id FROM dbo.items
GO
CREATE VIEW dbo.on_cheap AS SELECT COUNT(*) AS n FROM dbo.cheap
";
        assert_eq!(run_in(&db, setup), "");
        changed_id = rows(&db, "SELECT OBJECT_ID('dbo.changed')");
    }
    let db = open(&dir);
    // The views work, the altered one with its new definition.
    assert_eq!(
        rows(&db, "SELECT item FROM dbo.cheap ORDER BY item"),
        ["1", "2"]
    );
    assert_eq!(rows(&db, "SELECT id, doubled FROM dbo.changed"), ["3 60"]);
    assert_eq!(rows(&db, "SELECT n FROM dbo.on_cheap"), ["2"]);
    assert_eq!(rows(&db, "SELECT OBJECT_ID('dbo.changed')"), changed_id);
    assert_eq!(
        rows(
            &db,
            "SELECT name FROM sys.columns WHERE object_id = OBJECT_ID('dbo.changed') ORDER BY column_id"
        ),
        ["id", "doubled"]
    );
    let definition = rows(
        &db,
        "SELECT definition FROM sys.sql_modules WHERE object_id = OBJECT_ID('dbo.changed')",
    );
    assert_eq!(
        definition,
        ["CREATE VIEW dbo.changed AS SELECT id, price * 2 AS doubled FROM dbo.items WHERE id = 3"]
    );
    // The dropped view stays dropped; its name is free.
    assert!(run_in(&db, "SELECT one FROM dbo.gone").starts_with("Msg 208,"));
    assert_eq!(rows(&db, "SELECT COUNT(*) FROM sys.views"), ["4"]);
    // Schema binding is bound again at open.
    let out = run_in(&db, "DROP TABLE dbo.items");
    assert!(
        out.starts_with("Msg 3729,") && out.contains("'bound'"),
        "{out}"
    );
    // New objects get ids past every stored one.
    assert_eq!(run_in(&db, "CREATE VIEW dbo.gone AS SELECT 2 AS two"), "");
    let newer: i64 = rows(&db, "SELECT MAX(object_id) FROM sys.objects")[0]
        .parse()
        .unwrap();
    assert_eq!(
        rows(&db, "SELECT OBJECT_ID('dbo.gone')"),
        [newer.to_string()]
    );
    assert_eq!(
        run_in(&db, "DROP VIEW dbo.on_cheap, dbo.cheap, dbo.bound"),
        ""
    );
    // ALTER VIEW starts its batch (Msg 111 otherwise).
    assert_eq!(run_in(&db, "ALTER VIEW dbo.gone AS SELECT 3 AS three"), "");
    drop(db);
    let db = open(&dir);
    assert_eq!(
        rows(&db, "SELECT name FROM sys.views ORDER BY name"),
        ["changed", "gone"]
    );
    assert_eq!(rows(&db, "SELECT three FROM dbo.gone"), ["3"]);
    assert_eq!(
        run_in(&db, "DROP VIEW dbo.changed, dbo.gone\nDROP TABLE dbo.items"),
        ""
    );
    drop(db);
    let db = open(&dir);
    assert_eq!(rows(&db, "SELECT COUNT(*) FROM sys.objects"), ["0"]);
    drop(db);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn functions_survive_restarts() {
    let dir = scratch("functions");
    let ids;
    {
        let db = open(&dir);
        let setup = "
CREATE TABLE dbo.items (id int NOT NULL PRIMARY KEY NONCLUSTERED, price int NOT NULL)
    WITH (MEMORY_OPTIMIZED = ON)
GO
SET NOCOUNT ON
INSERT INTO dbo.items VALUES (1, 10), (2, 20), (3, 30)
GO
CREATE FUNCTION dbo.doubled(@x int, @by int = 2) RETURNS int
AS
BEGIN
    DECLARE @r int = @x * @by
    RETURN @r
END
GO
CREATE FUNCTION dbo.price_of(@id int) RETURNS int WITH SCHEMABINDING
AS
BEGIN
    RETURN (SELECT price FROM dbo.items WHERE id = @id)
END
GO
CREATE FUNCTION dbo.cheaper_than(@limit int) RETURNS TABLE
AS RETURN (SELECT id, dbo.doubled(price, DEFAULT) AS twice FROM dbo.items WHERE price < @limit)
GO
ALTER FUNCTION dbo.doubled(@x int, @by int = 3) RETURNS int AS BEGIN RETURN @x * @by END
GO
CREATE FUNCTION dbo.gone() RETURNS int AS BEGIN RETURN 1 END
GO
DROP FUNCTION dbo.gone
";
        assert_eq!(run_in(&db, setup), "");
        ids = rows(
            &db,
            "SELECT name, object_id, type FROM sys.objects WHERE type IN ('FN', 'IF') ORDER BY name",
        );
    }
    let db = open(&dir);
    // The functions work, the altered one with its new body, under the
    // same ids.
    assert_eq!(
        rows(
            &db,
            "SELECT name, object_id, type FROM sys.objects WHERE type IN ('FN', 'IF') ORDER BY name"
        ),
        ids
    );
    assert_eq!(
        rows(&db, "SELECT dbo.doubled(5, DEFAULT), dbo.price_of(2)"),
        ["15 20"]
    );
    assert_eq!(
        rows(
            &db,
            "SELECT id, twice FROM dbo.cheaper_than(25) ORDER BY id"
        ),
        ["1 30", "2 60"]
    );
    assert_eq!(
        rows(
            &db,
            "SELECT p.name, p.parameter_id FROM sys.parameters AS p WHERE p.object_id = OBJECT_ID('dbo.doubled') ORDER BY p.parameter_id"
        ),
        ["0", "@x 1", "@by 2"]
    );
    // The dropped function stays dropped; schema binding is bound again.
    assert!(run_in(&db, "SELECT dbo.gone()").starts_with("Msg 4121,"));
    let out = run_in(&db, "DROP TABLE dbo.items");
    assert!(
        out.starts_with("Msg 3729,") && out.contains("'price_of'"),
        "{out}"
    );
    assert_eq!(
        run_in(
            &db,
            "DROP FUNCTION dbo.price_of, dbo.cheaper_than, dbo.doubled\nDROP TABLE dbo.items"
        ),
        ""
    );
    drop(db);
    let db = open(&dir);
    assert_eq!(rows(&db, "SELECT COUNT(*) FROM sys.objects"), ["0"]);
    drop(db);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn temp_tables_are_per_session_and_never_durable() {
    let dir = scratch("temp");
    let temp_engine_tables = |db: &Arc<SqlDatabase>| -> Vec<String> {
        let mut names: Vec<String> = db
            .engine()
            .tables()
            .iter()
            .map(|t| t.def.name.clone())
            .filter(|name| name.starts_with('#'))
            .collect();
        names.sort();
        names
    };
    {
        let db = open(&dir);
        let mut first = db.session().unwrap();
        let mut second = db.session().unwrap();
        let setup = "
SET NOCOUNT ON
CREATE TABLE dbo.src (id int NOT NULL PRIMARY KEY NONCLUSTERED, name varchar(10) NULL)
    WITH (MEMORY_OPTIMIZED = ON)
INSERT INTO dbo.src VALUES (1, 'one'), (2, NULL)
SELECT * INTO dbo.copy FROM dbo.src
SELECT * INTO #mine FROM dbo.src
CREATE TABLE ##everyone (n int NOT NULL)
INSERT INTO ##everyone VALUES (7)
";
        assert_eq!(run(&mut first, setup), "");
        // Another session sees neither the #table nor its rows, and may
        // make its own #table of the same name; ##tables are shared.
        let out = run(&mut second, "SELECT * FROM #mine");
        assert!(out.starts_with("Msg 208,"), "{out}");
        let out = run(
            &mut second,
            "SELECT CASE WHEN OBJECT_ID('tempdb..#mine') IS NULL THEN 'none' END",
        );
        assert!(out.contains("none"), "{out}");
        let out = run(
            &mut second,
            "SET NOCOUNT ON\nCREATE TABLE #mine (x int)\nINSERT INTO #mine VALUES (1), (2), (3)\nSELECT COUNT(*) FROM #mine\nSELECT n FROM ##everyone",
        );
        assert!(!out.contains("Msg"), "{out}");
        assert!(
            out.contains("          3\n") && out.contains("          7\n"),
            "{out}"
        );
        let out = run(&mut first, "SELECT COUNT(*) FROM #mine");
        assert!(out.contains("          2\n"), "{out}");
        assert!(run(&mut second, "DROP TABLE ##everyone").is_empty());
        assert!(run(&mut first, "SELECT * FROM ##everyone").starts_with("Msg 208,"));
        assert!(run(&mut first, "CREATE TABLE ##everyone (n int)").is_empty());
        // Temp tables are schema-only engine tables without a stored
        // definition: not in the catalog, never logged, never recovered.
        assert_eq!(temp_engine_tables(&db).len(), 3);
        for table in db.engine().tables() {
            if table.def.name.starts_with('#') {
                assert_eq!(table.def.durability, hekla_engine::Durability::SchemaOnly);
            }
        }
        assert!(db.catalog().tables().all(|t| !t.name.starts_with('#')));
        // The session's tables go with it (its `##everyone` is dropped; its
        // `#mine` is emptied and kept for the next `#mine` of that
        // definition); the other's stay.
        drop(first);
        let left = temp_engine_tables(&db);
        assert_eq!(left.len(), 2, "{left:?}");
        assert!(
            left.iter().all(|name| name.starts_with("#mine___")),
            "{left:?}"
        );
        let out = run(&mut second, "SELECT COUNT(*) FROM #mine");
        assert!(out.contains("          3\n"), "{out}");
        assert!(run(&mut second, "SELECT * FROM ##everyone").starts_with("Msg 208,"));
        // The SELECT INTO table is a user table with a stored CREATE TABLE.
        let definition = {
            let catalog = db.catalog();
            let schema = catalog.schema_id("dbo").unwrap();
            catalog.table(schema, "copy").unwrap().definition.clone()
        };
        assert_eq!(
            definition,
            "CREATE TABLE dbo.copy (id int NOT NULL, name varchar(10) NULL)"
        );
        // A table variable lasts one batch; its emptied engine table is
        // kept for the next DECLARE of the same variable, not made again.
        let out = run(
            &mut second,
            "DECLARE @t TABLE (a int)\nINSERT INTO @t VALUES (1)\nSELECT * INTO #from_variable FROM @t",
        );
        assert!(!out.contains("Msg"), "{out}");
        assert_eq!(temp_engine_tables(&db).len(), 4);
        let out = run(
            &mut second,
            "DECLARE @t TABLE (a int)\nINSERT INTO @t VALUES (2)\nSELECT COUNT(*) FROM @t",
        );
        assert!(
            out.contains("          1\n"),
            "a reused table starts empty: {out}"
        );
        assert_eq!(temp_engine_tables(&db).len(), 4);
        // Had the process stopped here, the next open would drop the
        // engine tables nothing describes (see the_catalog_survives_restarts).
        drop(second);
    }
    let db = open(&dir);
    assert!(temp_engine_tables(&db).is_empty());
    let mut session = db.session().unwrap();
    let out = run(&mut session, "SELECT id, name FROM dbo.copy ORDER BY id");
    assert!(out.contains("          1 one"), "{out}");
    assert!(out.contains("          2 NULL"), "{out}");
    assert!(run(&mut session, "SELECT * FROM #mine").starts_with("Msg 208,"));
    drop(session);
    drop(db);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// ALTER TABLE and CREATE INDEX rebuild a table under a new stored
/// definition: after a restart the table has its new columns, indexes and
/// constraints (with the same object ids), its rows, and its IDENTITY
/// continues; a definition that refers to objects made after the table
/// (a foreign key's table, a DEFAULT's sequence) still restores.
#[test]
fn native_module_bindings_survive_restarts() {
    let dir = scratch("native-bindings");
    {
        let db = open(&dir);
        let setup = "
CREATE TABLE dbo.acct (id int NOT NULL PRIMARY KEY NONCLUSTERED, balance int NOT NULL, spare int NULL)
    WITH (MEMORY_OPTIMIZED = ON)
GO
CREATE PROCEDURE dbo.balance_of @id int WITH NATIVE_COMPILATION, SCHEMABINDING
AS BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')
    SELECT balance FROM dbo.acct WHERE id = @id
END
GO
CREATE PROCEDURE dbo.caller WITH NATIVE_COMPILATION, SCHEMABINDING
AS BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')
    EXEC dbo.balance_of 1
END
";
        assert_eq!(run_in(&db, setup), "");
    }
    let db = open(&dir);
    // What the modules name and read is bound again at open.
    let out = run_in(&db, "DROP PROCEDURE dbo.balance_of");
    assert!(
        out.starts_with("Msg 3729,") && out.contains("'caller'"),
        "{out}"
    );
    let out = run_in(&db, "ALTER TABLE dbo.acct DROP COLUMN balance");
    assert!(
        out.starts_with("Msg 5074,") && out.contains("'balance_of'") && out.contains("Msg 4922,"),
        "{out}"
    );
    assert_eq!(run_in(&db, "ALTER TABLE dbo.acct DROP COLUMN spare"), "");
    assert_eq!(
        run_in(
            &db,
            "DROP PROCEDURE dbo.caller, dbo.balance_of\nALTER TABLE dbo.acct DROP COLUMN balance"
        ),
        ""
    );
    drop(db);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn altered_tables_survive_restarts() {
    let dir = scratch("altered");
    let objects = "SELECT name, object_id, parent_object_id FROM sys.objects ORDER BY object_id";
    let before = {
        let db = open(&dir);
        let setup = "
CREATE TABLE dbo.items (
    id int IDENTITY(1, 1) NOT NULL PRIMARY KEY NONCLUSTERED,
    name varchar(20) NOT NULL,
    legacy int NULL,
    CHECK (name <> '')
) WITH (MEMORY_OPTIMIZED = ON)
GO
INSERT INTO dbo.items (name, legacy) VALUES ('one', 1), ('two', 2), ('three', 3)
GO
CREATE TABLE dbo.owners (owner int NOT NULL PRIMARY KEY NONCLUSTERED) WITH (MEMORY_OPTIMIZED = ON)
GO
INSERT INTO dbo.owners VALUES (7)
GO
CREATE SEQUENCE dbo.tags START WITH 100
GO
ALTER TABLE dbo.items ADD owner int NOT NULL CONSTRAINT DF_items_owner DEFAULT 7
GO
ALTER TABLE dbo.items ADD CONSTRAINT FK_items_owners FOREIGN KEY (owner) REFERENCES dbo.owners (owner)
GO
ALTER TABLE dbo.items ADD tag int NULL DEFAULT NEXT VALUE FOR dbo.tags, CHECK (owner > 0)
GO
ALTER TABLE dbo.items DROP COLUMN legacy
GO
ALTER TABLE dbo.items ADD INDEX ix_items_name NONCLUSTERED (name)
GO
ALTER TABLE dbo.items ALTER COLUMN tag bigint NULL
GO
CREATE TABLE dbo.plain (a int NULL, b varchar(10) NULL)
GO
INSERT INTO dbo.plain VALUES (1, 'x'), (2, 'y')
GO
CREATE INDEX ix_plain_a ON dbo.plain (a)
GO
INSERT INTO dbo.items (name) VALUES ('four')
";
        let out = run_in(&db, setup);
        assert!(!out.contains("Msg"), "{out}");
        run_in(&db, objects)
    };
    let db = open(&dir);
    assert_eq!(run_in(&db, objects), before, "object ids survive");
    let rows = run_in(
        &db,
        "SELECT id, name, owner, tag FROM dbo.items ORDER BY id",
    );
    let lines: Vec<&str> = rows.lines().map(str::trim_end).collect();
    assert_eq!(
        lines,
        [
            "id          name                 owner       tag",
            "----------- -------------------- ----------- --------------------",
            "          1 one                            7 NULL",
            "          2 two                            7 NULL",
            "          3 three                          7 NULL",
            "          4 four                           7                  100",
            "",
            "(4 rows affected)",
        ]
    );
    assert!(run_in(&db, "SELECT legacy FROM dbo.items").starts_with("Msg 207,"));
    // The IDENTITY goes on right after its last value (the database was
    // closed cleanly), the sequence too; the constraints hold.
    let out = run_in(
        &db,
        "INSERT INTO dbo.items (name) VALUES ('five')
         SELECT id, tag FROM dbo.items WHERE name = 'five'",
    );
    assert!(out.contains("          5 "), "{out}");
    let out = run_in(&db, "INSERT INTO dbo.items (name, owner) VALUES ('six', 8)");
    assert!(
        out.contains("FOREIGN KEY constraint \"FK_items_owners\""),
        "{out}"
    );
    let out = run_in(&db, "INSERT INTO dbo.items (name) VALUES ('')");
    assert!(out.starts_with("Msg 547,"), "{out}");
    // The indexes are there and used.
    let plan = run_in(
        &db,
        "SET SHOWPLAN_TEXT ON
GO
SELECT id FROM dbo.items WHERE name = 'two'
GO
SELECT b FROM dbo.plain WHERE a = 2",
    );
    assert!(plan.contains("[dbo].[items].[ix_items_name]"), "{plan}");
    assert!(plan.contains("[dbo].[plain].[ix_plain_a]"), "{plan}");
    let out = run_in(&db, "SELECT b FROM dbo.plain WHERE a = 2");
    assert!(out.contains("y"), "{out}");
    // One engine table per SQL table: the replaced ones are gone.
    let user_tables = db
        .engine()
        .tables()
        .iter()
        .filter(|t| ["items", "owners", "plain"].contains(&t.name()))
        .count();
    assert_eq!(user_tables, 3);
    drop(db);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `dbo.acct`, a memory-optimized table, with rows 1, 2 and 5.
const ACCOUNTS: &str = "
CREATE TABLE dbo.acct (id int NOT NULL PRIMARY KEY NONCLUSTERED, balance int NOT NULL)
    WITH (MEMORY_OPTIMIZED = ON)
INSERT INTO dbo.acct VALUES (1, 10), (2, 20), (5, 50)
";

/// The first line of `out`: a result's header, or an error's `Msg` line.
fn first_line(out: &str) -> &str {
    out.lines().next().unwrap_or("")
}

// Two sessions: each table hint sets the isolation of its own reads, and
// COMMIT validates what each read: a row read WITH (REPEATABLEREAD) and
// updated meanwhile fails it (41305); one read WITH (SNAPSHOT) does not,
// even in the same transaction.
#[test]
fn repeatable_read_hints_validate_only_their_rows_at_commit() {
    let db = SqlDatabase::in_memory().unwrap();
    let mut reader = db.session().unwrap();
    let mut writer = db.session().unwrap();
    run(&mut reader, ACCOUNTS);
    let read_both = "BEGIN TRANSACTION
        SELECT balance FROM dbo.acct WITH (REPEATABLEREAD) WHERE id = 1
        SELECT balance FROM dbo.acct WITH (SNAPSHOT) WHERE id = 2";
    for (updated, fails) in [(2, false), (1, true)] {
        assert!(run(&mut reader, read_both).contains("(1 rows affected)"));
        let update = format!("UPDATE dbo.acct SET balance += 1 WHERE id = {updated}");
        assert_eq!(run(&mut writer, &update), "\n(1 rows affected)\n");
        let committed = run(&mut reader, "COMMIT");
        if fails {
            assert_eq!(
                committed,
                "Msg 41305, Level 16, State 0, Line 1\nThe current transaction failed to commit due to a repeatable read validation failure.\n"
            );
        } else {
            assert_eq!(committed, "", "a SNAPSHOT read is not validated");
        }
        assert!(run(&mut reader, "SELECT @@TRANCOUNT AS trancount")
            .ends_with("0\n\n(1 rows affected)\n"));
    }
}

// A range read WITH (SERIALIZABLE) fails COMMIT (41325) when another
// session inserts into the range; the same read WITH (SNAPSHOT) commits.
#[test]
fn serializable_hints_find_phantoms_at_commit() {
    let db = SqlDatabase::in_memory().unwrap();
    let mut reader = db.session().unwrap();
    let mut writer = db.session().unwrap();
    run(&mut reader, ACCOUNTS);
    // The first round's insert commits: the second finds 3 rows.
    for (hint, seen, inserted, fails) in [("SNAPSHOT", 2, 3, false), ("SERIALIZABLE", 3, 4, true)] {
        let read = format!(
            "BEGIN TRANSACTION
             SELECT COUNT(*) AS in_range FROM dbo.acct WITH ({hint}) WHERE id BETWEEN 1 AND 4"
        );
        let out = run(&mut reader, &read);
        assert!(out.contains(&format!("          {seen}\n")), "{out}");
        let insert = format!("INSERT INTO dbo.acct VALUES ({inserted}, 0)");
        assert_eq!(run(&mut writer, &insert), "\n(1 rows affected)\n");
        let committed = run(&mut reader, "COMMIT");
        if fails {
            assert_eq!(
                committed,
                "Msg 41325, Level 16, State 0, Line 1\nThe current transaction failed to commit due to a serializable validation failure.\n"
            );
        } else {
            assert_eq!(committed, "");
        }
    }
}

// ALTER DATABASE options are logged: they survive a restart through the
// log, then through a checkpoint, and act after it (an unhinted read in a
// transaction is elevated to SNAPSHOT instead of failing with 41368).
#[test]
fn database_options_survive_restarts() {
    let dir = scratch("options");
    let options = "SELECT delayed_durability_desc, is_memory_optimized_elevate_to_snapshot_on
        FROM sys.databases WHERE database_id = DB_ID()";
    let read_in_transaction = "BEGIN TRANSACTION SELECT COUNT(*) AS n FROM dbo.acct COMMIT";
    {
        let db = open(&dir);
        assert_eq!(run_in(&db, ACCOUNTS), "\n(3 rows affected)\n");
        assert!(first_line(&run_in(&db, read_in_transaction)).starts_with("n "));
        assert!(run_in(&db, read_in_transaction).contains("Msg 41368,"));
        let alter = "ALTER DATABASE CURRENT SET MEMORY_OPTIMIZED_ELEVATE_TO_SNAPSHOT = ON,
            DELAYED_DURABILITY = ALLOWED";
        assert_eq!(run_in(&db, alter), "");
    }
    let expected = "ALLOWED                                                                                               1";
    for checkpoint in [false, true] {
        let db = open(&dir);
        assert!(run_in(&db, options).contains(expected));
        assert!(!run_in(&db, read_in_transaction).contains("Msg"));
        if checkpoint {
            db.engine().checkpoint().unwrap();
        }
    }
    let db = open(&dir);
    assert!(run_in(&db, options).contains(expected));
    assert_eq!(db.engine().recovery_report().unwrap().commits_replayed, 0);
    drop(db);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The seed article's query of checkpoint files by state and type.
const CHECKPOINT_FILES_BY_STATE: &str = "SELECT state_desc, file_type_desc, COUNT(*) AS [count], SUM(CASE WHEN state = 5 AND file_type = 0 THEN 128 * 1024 * 1024 WHEN state = 5 AND file_type = 1 THEN 8 * 1024 * 1024 WHEN state IN (6, 7) THEN 68 * 1024 * 1024 ELSE file_size_in_bytes END) / 1024 / 1024 AS [on-disk size MB] FROM sys.dm_db_xtp_checkpoint_files GROUP BY state, state_desc, file_type, file_type_desc ORDER BY state, file_type;";

/// The rows each kind of checkpoint file holds.
const CHECKPOINT_ROWS_BY_STATE: &str = "SET NOCOUNT ON SELECT state_desc, file_type_desc, SUM(inserted_row_count) AS inserted, SUM(deleted_row_count) AS deleted FROM sys.dm_db_xtp_checkpoint_files GROUP BY state, state_desc, file_type, file_type_desc ORDER BY state, file_type";

fn trimmed_lines(out: &str) -> Vec<String> {
    out.lines()
        .map(|line| line.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect()
}

/// CHECKPOINT seals the pair under construction: its data and delta files
/// turn ACTIVE, holding the rows inserted and deleted so far, and a new
/// precreated pair waits for what comes next.
#[test]
fn checkpoint_turns_the_files_under_construction_active() {
    let dir = scratch("checkpoint");
    let db = open(&dir);
    let setup = "CREATE TABLE dbo.t (id int NOT NULL PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = 1024), v varchar(20)) WITH (MEMORY_OPTIMIZED = ON)
GO
SET NOCOUNT ON
INSERT dbo.t SELECT number, 'row' FROM master..spt_values WHERE type = 'P' AND number < 100
DELETE dbo.t WHERE id < 10";
    assert_eq!(run_in(&db, setup), "");
    let before = trimmed_lines(&run_in(&db, CHECKPOINT_ROWS_BY_STATE));
    assert!(
        before.iter().all(|line| !line.starts_with("ACTIVE")),
        "{before:?}"
    );
    assert_eq!(run_in(&db, "CHECKPOINT"), "");
    // The background worker precreates the next pair at its own pace: its
    // PRECREATED files may or may not be listed yet.
    let sealed = |query: &str| -> Vec<String> {
        trimmed_lines(&run_in(&db, query))
            .into_iter()
            .filter(|line| !line.starts_with("PRECREATED") && !line.ends_with("rows affected)"))
            .collect()
    };
    assert_eq!(
        sealed(CHECKPOINT_FILES_BY_STATE),
        [
            "state_desc file_type_desc count on-disk size MB",
            "------------------------------------------------------------ ------------------------------------------------------------ ----------- --------------------",
            "ACTIVE DATA 1 0",
            "ACTIVE DELTA 1 0",
            "",
        ]
    );
    // 100 rows and the table's stored definition; the 10 deletes.
    assert_eq!(
        sealed(CHECKPOINT_ROWS_BY_STATE)[2..],
        ["ACTIVE DATA 101 0", "ACTIVE DELTA 0 10"]
    );
    // With a duration (only checked: the checkpoint runs as fast as it
    // can); the pair is sealed already, so nothing changes.
    assert_eq!(run_in(&db, "CHECKPOINT 10"), "");
    assert_eq!(
        sealed(CHECKPOINT_ROWS_BY_STATE)[2..],
        ["ACTIVE DATA 101 0", "ACTIVE DELTA 0 10"]
    );
    drop(db);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A database whose memory-optimized tables may take only 16 MiB.
fn open_with_memory_limit(dir: &Path, bytes: u64) -> Arc<SqlDatabase> {
    let config = DatabaseConfig {
        memory_limit_bytes: bytes,
        ..DatabaseConfig::default()
    };
    SqlDatabase::open(dir, config, StorageConfig::small()).unwrap()
}

/// Past the database's memory limit, allocations fail with SQL Server's
/// errors instead of aborting the process: a hash index's bucket array at
/// CREATE TABLE and rows at INSERT with 41805 (the batch ends and the
/// transaction rolls back), a huge string with 701; the database goes on.
#[test]
fn allocations_past_the_memory_limit_are_errors() {
    let dir = scratch("memory-limit");
    let db = open_with_memory_limit(&dir, 16 << 20);
    let insufficient = "Msg 41805, Level 16, State 1, Line 1\nThere is insufficient memory in the resource pool 'default' to run this operation on memory-optimized tables. See 'http://go.microsoft.com/fwlink/?LinkID=614951' for more information.\n";
    // 2^30 buckets: 8 GiB.
    let out = run_in(
        &db,
        "CREATE TABLE dbo.huge (id int NOT NULL PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = 1000000000)) WITH (MEMORY_OPTIMIZED = ON)",
    );
    assert_eq!(out, insufficient);
    assert!(run_in(&db, "SELECT OBJECT_ID('dbo.huge')").contains("NULL"));
    // Past SQL Server's largest bucket count.
    let out = run_in(
        &db,
        "CREATE TABLE dbo.huge (id int NOT NULL PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = 1073741825)) WITH (MEMORY_OPTIMIZED = ON)",
    );
    assert!(out.contains("from 1 to 1073741824"), "{out}");

    let out = run_in(
        &db,
        "SELECT LEN(REPLICATE(CAST('x' AS varchar(max)), 20000000)) AS n",
    );
    // Raised as the row is computed, after the column header (as SQL
    // Server shows run-time errors of a SELECT).
    assert!(
        out.ends_with("Msg 701, Level 17, State 123, Line 1\nThere is insufficient system memory in resource pool 'default' to run this query.\n"),
        "{out}"
    );
    // Under the limit it works.
    let out = run_in(
        &db,
        "SET NOCOUNT ON SELECT LEN(REPLICATE(CAST('x' AS varchar(max)), 1000000)) AS n",
    );
    assert!(out.contains("1000000"), "{out}");

    // Rows: about 1 KB each until the limit is passed, in a transaction
    // that also holds an earlier insert; all of it rolls back.
    let setup = "CREATE TABLE dbo.t (id int NOT NULL PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = 1024), v varchar(1000) NOT NULL) WITH (MEMORY_OPTIMIZED = ON)";
    assert_eq!(run_in(&db, setup), "");
    let out = run_in(
        &db,
        "SET NOCOUNT ON
BEGIN TRANSACTION
INSERT dbo.t VALUES (-1, 'first')
INSERT dbo.t SELECT a.number * 2048 + b.number, REPLICATE('v', 1000) FROM master..spt_values a CROSS JOIN master..spt_values b WHERE a.type = 'P' AND b.type = 'P' AND a.number < 10
SELECT 'not reached'
GO
SELECT @@TRANCOUNT AS open_transactions, (SELECT COUNT(*) FROM dbo.t) AS [rows]",
    );
    assert!(
        out.starts_with(&insufficient.replace("Line 1", "Line 4")),
        "{out}"
    );
    assert!(!out.contains("not reached"), "{out}");
    assert!(
        out.trim_end().ends_with("                0           0"),
        "{out}"
    );
    // The database goes on: smaller work fits, memory freed is reused.
    let out = run_in(
        &db,
        "SET NOCOUNT ON INSERT dbo.t VALUES (1, 'one') SELECT v FROM dbo.t",
    );
    assert!(out.contains("one"), "{out}");
    assert_eq!(run_in(&db, "DROP TABLE dbo.t"), "");
    drop(db);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// RECOVERY and the user access are kept across restarts (through the log,
/// then a checkpoint); SINGLE_USER admits one session (Msg 924 for the
/// next) and is not set beside another session (5070 with NO_WAIT, else
/// 10794); DATABASEPROPERTYEX agrees with sys.databases throughout.
#[test]
fn recovery_and_user_access_survive_restarts_and_single_user_is_enforced() {
    let dir = scratch("database-settings");
    let settings = "SELECT recovery_model_desc, user_access_desc,
           CAST(DATABASEPROPERTYEX(DB_NAME(), 'Recovery') AS varchar(20)) AS recovery,
           CAST(DATABASEPROPERTYEX(DB_NAME(), 'UserAccess') AS varchar(20)) AS access
    FROM sys.databases WHERE database_id = DB_ID()";
    let first_row = |out: &str| -> Vec<String> {
        out.lines()
            .nth(2)
            .unwrap_or_default()
            .split_whitespace()
            .map(str::to_string)
            .collect()
    };
    {
        let db = open(&dir);
        let mut session = db.session().unwrap();
        assert_eq!(
            first_row(&run(&mut session, settings)),
            ["SIMPLE", "MULTI_USER", "SIMPLE", "MULTI_USER"]
        );
        let other = db.session().unwrap();
        assert_eq!(
            run(&mut session, "ALTER DATABASE CURRENT SET SINGLE_USER WITH NO_WAIT"),
            "Msg 5070, Level 16, State 2, Line 1\nDatabase state cannot be changed while other users are using the database 'hekla'\nMsg 5069, Level 16, State 1, Line 1\nALTER DATABASE statement failed.\n"
        );
        assert!(run(
            &mut session,
            "ALTER DATABASE hekla SET SINGLE_USER WITH ROLLBACK IMMEDIATE"
        )
        .starts_with("Msg 10794,"));
        drop(other);
        assert_eq!(
            run(
                &mut session,
                "ALTER DATABASE hekla SET RECOVERY FULL WITH NO_WAIT\nALTER DATABASE CURRENT SET SINGLE_USER WITH ROLLBACK IMMEDIATE"
            ),
            ""
        );
        match db.session() {
            Err(error) => assert_eq!(
                (error.number, error.severity, error.message.as_str()),
                (
                    924,
                    14,
                    "Database 'hekla' is already open and can only have one user at a time."
                )
            ),
            Ok(_) => panic!("a second session opened in SINGLE_USER mode"),
        }
    }
    let db = open(&dir);
    let mut session = db.session().unwrap();
    assert_eq!(
        first_row(&run(&mut session, settings)),
        ["FULL", "SINGLE_USER", "FULL", "SINGLE_USER"]
    );
    db.engine().checkpoint().unwrap();
    assert_eq!(
        run(
            &mut session,
            "ALTER DATABASE CURRENT SET MULTI_USER\nALTER DATABASE CURRENT SET RECOVERY BULK_LOGGED"
        ),
        ""
    );
    drop(session);
    drop(db);
    let db = open(&dir);
    let mut session = db.session().unwrap();
    let second = db.session().unwrap();
    assert_eq!(
        first_row(&run(&mut session, settings)),
        ["BULK_LOGGED", "MULTI_USER", "BULK_LOGGED", "MULTI_USER"]
    );
    drop((session, second, db));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn truncate_restarts_identity_across_restarts() {
    let dir = scratch("truncate");
    {
        let db = open(&dir);
        let out = run_in(
            &db,
            "CREATE TABLE dbo.log (id int IDENTITY(1, 1) NOT NULL, note varchar(10) NULL)
GO
SET NOCOUNT ON
INSERT INTO dbo.log (note) VALUES ('a'), ('b'), ('c')
TRUNCATE TABLE dbo.log",
        );
        assert_eq!(out, "");
    }
    // Closed cleanly after the TRUNCATE: the next value is the seed.
    let db = open(&dir);
    assert_eq!(
        rows(
            &db,
            "INSERT INTO dbo.log (note) VALUES ('d')\nSELECT id, note FROM dbo.log"
        ),
        ["1 d"]
    );
    // A TRUNCATE rolled back leaves the counter where it was, durably.
    let out = run_in(
        &db,
        "BEGIN TRANSACTION\nTRUNCATE TABLE dbo.log\nINSERT INTO dbo.log (note) VALUES ('x')\nROLLBACK",
    );
    assert!(!out.contains("Msg "), "{out}");
    drop(db);
    let db = open(&dir);
    assert_eq!(
        rows(
            &db,
            "INSERT INTO dbo.log (note) VALUES ('e')\nSELECT id, note FROM dbo.log ORDER BY id"
        ),
        ["1 d", "2 e"]
    );
    drop(db);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Views nest 32 deep (SQL Server's limit); one more is Msg 4413 carrying
/// the nesting error 217.
#[test]
fn views_nest_32_deep() {
    use hekla_plan::catalog::binding::MAX_NESTING;
    let db = SqlDatabase::in_memory().unwrap();
    let mut session = db.session().unwrap();
    run(
        &mut session,
        "CREATE TABLE dbo.t (a int NOT NULL PRIMARY KEY NONCLUSTERED) WITH (MEMORY_OPTIMIZED = ON)",
    );
    run(&mut session, "SET NOCOUNT ON INSERT INTO dbo.t VALUES (7)");
    assert_eq!(
        run(&mut session, "CREATE VIEW dbo.v1 AS SELECT a FROM dbo.t"),
        ""
    );
    for level in 2..=MAX_NESTING {
        let create = format!(
            "CREATE VIEW dbo.v{level} AS SELECT a FROM dbo.v{}",
            level - 1
        );
        assert_eq!(run(&mut session, &create), "");
    }
    let out = run(&mut session, &format!("SELECT a FROM dbo.v{MAX_NESTING}"));
    assert!(out.contains("          7"), "{out}");
    let out = run(
        &mut session,
        &format!("CREATE VIEW dbo.too_deep AS SELECT a FROM dbo.v{MAX_NESTING}"),
    );
    assert!(
        out.starts_with("Msg 4413,") && out.contains("(Msg 217: Maximum"),
        "{out}"
    );
}
