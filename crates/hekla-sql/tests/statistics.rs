//! SET STATISTICS TIME: the figures change from run to run, so the
//! messages are compared with every number masked as `N`.

mod common;

use common::printed;
use hekla_sql::session::SqlDatabase;

/// Runs `script` in a fresh in-memory database.
fn run(script: &str) -> String {
    let db = SqlDatabase::in_memory().unwrap();
    printed(&mut db.session().unwrap(), script)
}

/// `text` with each run of digits replaced by `N`.
fn masked(text: &str) -> String {
    let mut out = String::new();
    let mut in_number = false;
    for c in text.chars() {
        if c.is_ascii_digit() {
            if !in_number {
                out.push('N');
            }
            in_number = true;
        } else {
            out.push(c);
            in_number = false;
        }
    }
    out
}

const COMPILE: &str =
    "SQL Server parse and compile time: \n   CPU time = N ms, elapsed time = N ms.\n";
const EXECUTION: &str =
    "\n SQL Server Execution Times:\n   CPU time = N ms,  elapsed time = N ms.\n";

#[test]
fn statistics_time_reports_each_batch_and_statement() {
    let out = run("SET NOCOUNT ON
SET STATISTICS TIME ON
GO
CREATE TABLE dbo.d (id int NOT NULL PRIMARY KEY NONCLUSTERED, v int NULL)
INSERT INTO dbo.d VALUES (1, 10)
SELECT v FROM dbo.d
PRINT 'no times for PRINT'
GO
SET STATISTICS TIME OFF
SELECT 1 AS one
GO");
    let expected = format!(
        "{COMPILE}{EXECUTION}v          \n-----------\n         N\n{EXECUTION}no times for PRINT\n{COMPILE}one        \n-----------\n          N\n"
    );
    assert_eq!(masked(&out), expected, "{out}");
}

#[test]
fn statistics_time_measures_real_time() {
    // WAITFOR takes 300 ms of wall clock and next to no CPU; the query
    // that follows is measured on its own.
    let out = run("SET STATISTICS TIME ON
GO
DECLARE @n int = 0
WHILE @n < 20000 SET @n += 1
WAITFOR DELAY '00:00:00.300'
SELECT COUNT(*) AS n FROM sys.objects
GO");
    let figures: Vec<u64> = out
        .lines()
        .filter(|line| line.contains("CPU time"))
        .flat_map(|line| {
            line.split(|c: char| !c.is_ascii_digit())
                .filter(|part| !part.is_empty())
                .map(|part| part.parse::<u64>().unwrap())
                .collect::<Vec<_>>()
        })
        .collect();
    // Compile (CPU, elapsed), then the SELECT's (CPU, elapsed).
    assert_eq!(figures.len(), 4, "{out}");
    assert!(figures[2] <= figures[3] + 1, "CPU beyond elapsed: {out}");
    assert!(figures[3] < 300, "the WAITFOR is not the SELECT's: {out}");
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "hekla-sql-statistics-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn run_in(dir: &std::path::Path, script: &str) -> String {
    let db = SqlDatabase::open(
        dir,
        hekla_engine::DatabaseConfig::default(),
        hekla_engine::StorageConfig::small(),
    )
    .unwrap();
    printed(&mut db.session().unwrap(), script)
}

const USER_STATISTICS: &str =
    "SET NOCOUNT ON SELECT name, stats_id, no_recompute FROM sys.stats WHERE user_created = 1 ORDER BY stats_id";

#[test]
fn statistics_objects_survive_restarts_and_go_with_their_table() {
    let dir = scratch("restart");
    let out = run_in(
        &dir,
        "CREATE TABLE dbo.t (a int NOT NULL PRIMARY KEY NONCLUSTERED, b int NULL) WITH (MEMORY_OPTIMIZED = ON)
GO
CREATE STATISTICS st_b ON dbo.t (b) WITH NORECOMPUTE
CREATE STATISTICS st_ab ON dbo.t (a, b)
GO
ALTER TABLE dbo.t ADD c int NULL",
    );
    assert_eq!(out, "");
    let listed = run_in(&dir, USER_STATISTICS);
    assert!(
        listed.contains("st_b") && listed.contains("st_ab"),
        "{listed}"
    );
    assert!(listed.contains("          3            1"), "{listed}");
    let out = run_in(&dir, "DROP STATISTICS t.st_b");
    assert_eq!(out, "");
    let listed = run_in(&dir, USER_STATISTICS);
    assert!(
        !listed.contains("st_b ") && listed.contains("st_ab"),
        "{listed}"
    );
    assert_eq!(run_in(&dir, "DROP TABLE dbo.t"), "");
    let listed = run_in(
        &dir,
        "CREATE TABLE dbo.t (a int NOT NULL PRIMARY KEY NONCLUSTERED) WITH (MEMORY_OPTIMIZED = ON)
GO
SET NOCOUNT ON SELECT COUNT(*) AS n FROM sys.stats WHERE user_created = 1",
    );
    assert!(listed.trim_end().ends_with(" 0"), "{listed}");
    std::fs::remove_dir_all(&dir).unwrap();
}
