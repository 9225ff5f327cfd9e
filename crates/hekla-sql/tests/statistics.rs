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

/// The last run's (worker, elapsed) microseconds in
/// `sys.dm_exec_query_stats` of the one-statement batch `text`.
fn last_times(session: &mut hekla_sql::session::Session, text: &str) -> (i64, i64) {
    let out = common::collect(
        session,
        &format!(
            "SELECT qs.last_worker_time, qs.last_elapsed_time
             FROM sys.dm_exec_query_stats AS qs
             CROSS APPLY sys.dm_exec_sql_text(qs.sql_handle) AS t
             WHERE t.text = N'{}'",
            text.replace('\'', "''")
        ),
    );
    assert!(out.errors.is_empty(), "{:?}", out.errors);
    assert_eq!(out.rows.len(), 1, "{:?}", out.rows);
    let micros = |value: &hekla_types::Value| match value {
        hekla_types::Value::BigInt(n) => *n,
        other => panic!("not a bigint: {other:?}"),
    };
    (micros(&out.rows[0][0]), micros(&out.rows[0][1]))
}

/// The test thread's CPU time so far, read exactly.
fn thread_cpu_micros() -> i64 {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `now` is a valid, writable timespec for the call's duration.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) };
    assert_eq!(status, 0, "the thread's CPU clock");
    now.tv_sec * 1_000_000 + now.tv_nsec / 1_000
}

#[test]
fn query_stats_worker_time_is_cpu_time_not_wall_time() {
    // Without STATISTICS TIME the counters' worker time is estimated from
    // the thread's CPU share over windows of 200 µs (statistics.rs): a
    // statement longer than that must still get its real CPU time.
    let db = SqlDatabase::in_memory().unwrap();
    let mut session = db.session().unwrap();
    let setup = common::collect(
        &mut session,
        "CREATE TABLE dbo.n (id int NOT NULL PRIMARY KEY NONCLUSTERED)
         DECLARE @i int = 0
         WHILE @i < 4000 BEGIN INSERT INTO dbo.n VALUES (@i) SET @i += 1 END",
    );
    assert!(setup.errors.is_empty(), "{:?}", setup.errors);
    // An ad hoc text is counted from its second run (its plan is kept at
    // the first), so each batch runs twice. The CPU-bound one grows until
    // it runs for 50 ms.
    let mut rows = 100;
    let (worker, elapsed, batch_cpu) = loop {
        let batch = format!(
            "SELECT COUNT_BIG(*) FROM dbo.n AS a CROSS JOIN dbo.n AS b
             WHERE a.id < {rows} AND b.id < {rows} AND a.id % 7 <> b.id % 5"
        );
        assert!(common::collect(&mut session, &batch).errors.is_empty());
        let cpu_before = thread_cpu_micros();
        assert!(common::collect(&mut session, &batch).errors.is_empty());
        let batch_cpu = thread_cpu_micros() - cpu_before;
        let (worker, elapsed) = last_times(&mut session, &batch);
        if elapsed >= 50_000 || rows >= 4000 {
            break (worker, elapsed, batch_cpu);
        }
        rows *= 2;
    };
    worker_time_is_the_cpu_time(worker, elapsed, batch_cpu);

    let wait = "WAITFOR DELAY '00:00:00.200'";
    for _ in 0..2 {
        let out = common::collect(&mut session, wait);
        assert!(out.errors.is_empty(), "{:?}", out.errors);
    }
    let (worker, elapsed) = last_times(&mut session, wait);
    assert!(elapsed >= 200_000, "{elapsed} µs");
    assert!(
        worker * 20 < elapsed,
        "WAITFOR counted {worker} µs of CPU in {elapsed} µs"
    );
}

/// The last call's (worker, elapsed) microseconds of procedure `name` in
/// `sys.dm_exec_procedure_stats`.
fn last_call_times(session: &mut hekla_sql::session::Session, name: &str) -> (i64, i64) {
    let out = common::collect(
        session,
        &format!(
            "SELECT last_worker_time, last_elapsed_time FROM sys.dm_exec_procedure_stats
             WHERE object_id = OBJECT_ID(N'{name}')"
        ),
    );
    assert!(out.errors.is_empty(), "{:?}", out.errors);
    assert_eq!(out.rows.len(), 1, "{:?}", out.rows);
    let micros = |value: &hekla_types::Value| match value {
        hekla_types::Value::BigInt(n) => *n,
        other => panic!("not a bigint: {other:?}"),
    };
    (micros(&out.rows[0][0]), micros(&out.rows[0][1]))
}

#[test]
fn procedure_stats_worker_time_is_cpu_time_not_wall_time() {
    let db = SqlDatabase::in_memory().unwrap();
    let mut session = db.session().unwrap();
    let setup = common::collect(
        &mut session,
        "CREATE PROCEDURE dbo.busy @n int AS
         DECLARE @i int = 0, @x bigint = 0
         WHILE @i < @n BEGIN SET @x += @i % 7 SET @i += 1 END",
    );
    assert!(setup.errors.is_empty(), "{:?}", setup.errors);
    let setup = common::collect(
        &mut session,
        "CREATE PROCEDURE dbo.waits AS WAITFOR DELAY '00:00:00.050'",
    );
    assert!(setup.errors.is_empty(), "{:?}", setup.errors);
    // The CPU-bound procedure loops more until a call runs for 50 ms.
    let mut loops = 1_000;
    let (worker, elapsed, batch_cpu) = loop {
        let cpu_before = thread_cpu_micros();
        let out = common::collect(&mut session, &format!("EXEC dbo.busy {loops}"));
        let batch_cpu = thread_cpu_micros() - cpu_before;
        assert!(out.errors.is_empty(), "{:?}", out.errors);
        let (worker, elapsed) = last_call_times(&mut session, "dbo.busy");
        if elapsed >= 50_000 || loops >= 10_000_000 {
            break (worker, elapsed, batch_cpu);
        }
        loops *= 2;
    };
    worker_time_is_the_cpu_time(worker, elapsed, batch_cpu);

    let out = common::collect(&mut session, "EXEC dbo.waits");
    assert!(out.errors.is_empty(), "{:?}", out.errors);
    let (worker, elapsed) = last_call_times(&mut session, "dbo.waits");
    assert!(elapsed >= 50_000, "the wait is in the call: {elapsed} µs");
    assert!(
        worker * 5 < elapsed,
        "WAITFOR counted {worker} µs of CPU in {elapsed} µs"
    );
}

/// A statement or call of 50 ms or more (`elapsed`) was measured at
/// `worker` µs of CPU: no more than its elapsed time, and within 10% of
/// `batch_cpu`, its batch's CPU time read exactly around it (the batch
/// adds a little parsing and lookup; on a busy machine both are well
/// below the elapsed time).
fn worker_time_is_the_cpu_time(worker: i64, elapsed: i64, batch_cpu: i64) {
    assert!(elapsed >= 50_000, "never ran 50 ms: {elapsed} µs");
    assert!(
        worker <= elapsed,
        "worker {worker} µs > elapsed {elapsed} µs"
    );
    assert!(
        worker <= batch_cpu + 1_000 && worker * 10 >= batch_cpu * 9,
        "worker {worker} µs, the batch's CPU {batch_cpu} µs, elapsed {elapsed} µs"
    );
}
