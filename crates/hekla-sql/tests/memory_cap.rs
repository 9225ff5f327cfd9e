//! The per-request memory cap (`DatabaseConfig::request_memory_limit_bytes`):
//! large values functions build and the buffers of sorts and joins count
//! against it, and past it a request gets Msg 701 instead of taking the
//! machine's memory; the session goes on.

mod common;

use common::printed;
use hekla_engine::{DatabaseConfig, StorageConfig};
use hekla_sql::session::SqlDatabase;
use std::path::PathBuf;
use std::sync::Arc;

const INSUFFICIENT: &str = "Msg 701, Level 17, State 123, Line 1\nThere is insufficient system memory in resource pool 'default' to run this query.\n";

/// The process's peak resident memory so far (VmHWM), in bytes.
fn peak_resident() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("procfs");
    let line = status
        .lines()
        .find(|line| line.starts_with("VmHWM:"))
        .expect("VmHWM");
    let kb: u64 = line
        .split_whitespace()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .expect("a number of kB");
    kb * 1024
}

#[test]
fn a_two_gigabyte_replicate_is_refused_without_taking_the_memory() {
    let db = SqlDatabase::in_memory().expect("database");
    let mut session = db.session().expect("session");
    let before = peak_resident();
    let out = printed(
        &mut session,
        "SELECT REPLICATE(CAST('x' AS varchar(max)), 2000000000)",
    );
    assert!(out.ends_with(INSUFFICIENT), "{out}");
    let grew = peak_resident().saturating_sub(before);
    assert!(grew < 256 << 20, "peak memory grew by {grew} bytes");
    // Under the default 1 GiB, a large value is fine.
    let out = printed(
        &mut session,
        "SET NOCOUNT ON; SELECT LEN(REPLICATE(CAST('x' AS varchar(max)), 10000000)) AS n",
    );
    assert!(out.contains("10000000"), "{out}");
}

/// A database whose requests may take `bytes` each.
fn with_request_limit(name: &str, bytes: u64) -> (Arc<SqlDatabase>, PathBuf) {
    let dir = std::env::temp_dir().join(format!(
        "hekla-sql-memory-cap-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    let config = DatabaseConfig {
        request_memory_limit_bytes: bytes,
        ..DatabaseConfig::default()
    };
    let db = SqlDatabase::open(&dir, config, StorageConfig::small()).expect("database");
    (db, dir)
}

#[test]
fn values_sorts_and_joins_past_the_request_limit_are_701() {
    let (db, dir) = with_request_limit("small", 8 << 20);
    let mut session = db.session().expect("session");
    let setup = printed(
        &mut session,
        "SET NOCOUNT ON;
         CREATE TABLE dbo.wide (id int NOT NULL PRIMARY KEY NONCLUSTERED, pad varchar(8000) NOT NULL) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_ONLY);
         DECLARE @i int = 0;
         WHILE @i < 1200 BEGIN INSERT dbo.wide VALUES (@i, REPLICATE('p', 8000)); SET @i += 1 END",
    );
    assert_eq!(setup, "");
    let refused = [
        // Values functions and operators build.
        "SELECT REPLICATE(CAST('x' AS varchar(max)), 9000000)",
        "SELECT LEN(REPLACE(REPLICATE(CAST('x' AS varchar(max)), 1000000), 'x', 'xxxxxxxxxx'))",
        "DECLARE @s varchar(max) = REPLICATE(CAST('x' AS varchar(max)), 3000000); SELECT LEN(CONCAT(@s, @s, @s))",
        "DECLARE @s varchar(max) = REPLICATE(CAST('x' AS varchar(max)), 1000000); WHILE 1 = 1 SET @s = @s + @s",
        // A sort of 9.6 MB of rows, and a join's 9.6 MB build side.
        "SELECT id FROM dbo.wide ORDER BY pad, id",
        "SELECT COUNT(*) FROM dbo.wide a INNER HASH JOIN dbo.wide b ON a.pad = b.pad",
        // Hash aggregation's groups, DISTINCT's and UNION's rows.
        "SELECT COUNT(*) FROM (SELECT CONCAT(pad, id) AS k FROM dbo.wide GROUP BY CONCAT(pad, id)) g",
        "SELECT COUNT(*) FROM (SELECT DISTINCT CONCAT(pad, id) AS k FROM dbo.wide) d",
        "SELECT COUNT(*) FROM (SELECT CONCAT(pad, id) AS k FROM dbo.wide UNION SELECT pad FROM dbo.wide) u",
    ];
    for batch in refused {
        let out = printed(&mut session, batch);
        assert!(out.ends_with(INSUFFICIENT), "{batch}\n{out}");
    }
    // Within the limit, the same things work, and so does a sort repeated
    // per outer row (its memory is given back each time).
    let out = printed(
        &mut session,
        "SET NOCOUNT ON;
         SELECT LEN(REPLICATE(CAST('x' AS varchar(max)), 1000000)) AS n;
         SELECT COUNT(*) AS n FROM (SELECT TOP (500) id FROM dbo.wide ORDER BY pad, id) t;
         SELECT SUM(x.n) AS total FROM dbo.wide w CROSS APPLY (SELECT TOP (1) LEN(pad) AS n FROM (SELECT TOP (300) pad FROM dbo.wide ORDER BY id) v ORDER BY v.pad DESC) x WHERE w.id < 20;",
    );
    assert!(out.contains("1000000"), "{out}");
    assert!(out.contains("500"), "{out}");
    assert!(out.contains("160000"), "{out}");
    drop(session);
    drop(db);
    let _ = std::fs::remove_dir_all(&dir);
}
