//! Natively compiled procedures' machine code over a database's life:
//! compiled again when the database opens, before any EXEC; and freed by
//! DROP PROCEDURE, so that compiling and dropping many procedures gives
//! their code and memory back.
//!
//! `HEKLA_COMPILE_CYCLES=10000 cargo test --release -p hekla-sql --test
//! native_modules -- --nocapture` runs the 10,000 cycles and
//! prints the process's resident memory before and after.

mod common;

use hekla_engine::{DatabaseConfig, StorageConfig};
use hekla_sql::exec::compiled::live_code;
use hekla_sql::session::SqlDatabase;
use std::sync::Arc;

/// The tests count the process's live kernels: one at a time.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn run(db: &Arc<SqlDatabase>, script: &str) -> String {
    common::printed(&mut db.session().unwrap(), script)
}

const TABLE: &str = "
CREATE TABLE dbo.t (id int NOT NULL PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = 1024), v int NOT NULL)
    WITH (MEMORY_OPTIMIZED = ON)
GO
INSERT INTO dbo.t VALUES (1, 10), (2, 20), (3, 30)
";

fn native_procedure(name: &str, body: &str) -> String {
    format!(
        "CREATE PROCEDURE dbo.{name} @p int WITH NATIVE_COMPILATION, SCHEMABINDING AS \
         BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')\n\
         {body}\nEND"
    )
}

#[test]
fn modules_are_compiled_when_the_database_opens() {
    let _alone = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let dir = std::env::temp_dir().join(format!(
        "hekla-native-modules-{}-{}",
        std::process::id(),
        hekla_sql::catalog::store::now_ms()
    ));
    let open = || SqlDatabase::open(&dir, DatabaseConfig::default(), StorageConfig::small());
    {
        let db = open().unwrap();
        run(&db, TABLE);
        let create = native_procedure("total", "SELECT SUM(v) AS s FROM dbo.t WHERE v > @p");
        assert_eq!(run(&db, &create), "");
    }
    let db = open().unwrap();
    let modules = run(
        &db,
        "SET NOCOUNT ON SELECT generation, kernels, statement_executions FROM sys.dm_hekla_native_modules",
    );
    let row: Vec<&str> = modules.lines().nth(2).unwrap().split_whitespace().collect();
    assert_eq!(row, ["1", "1", "0"], "{modules}");
    let out = run(&db, "SET NOCOUNT ON EXEC dbo.total 15");
    assert_eq!(out.lines().nth(2).map(str::trim), Some("50"), "{out}");
    let after = run(
        &db,
        "SET NOCOUNT ON SELECT generation, kernel_executions FROM sys.dm_hekla_native_modules",
    );
    let row: Vec<&str> = after.lines().nth(2).unwrap().split_whitespace().collect();
    assert_eq!(row, ["1", "1"], "the module compiled at open ran: {after}");
    drop(db);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The process's resident memory, in KiB.
fn resident_kib() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: u64 = statm
        .split_whitespace()
        .nth(1)
        .and_then(|pages| pages.parse().ok())
        .unwrap_or(0);
    pages * 4
}

#[test]
fn dropped_modules_give_their_code_back() {
    let cycles: usize = std::env::var("HEKLA_COMPILE_CYCLES")
        .ok()
        .and_then(|cycles| cycles.parse().ok())
        .unwrap_or(300);
    let _alone = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let db = SqlDatabase::in_memory().unwrap();
    run(&db, TABLE);
    let mut session = db.session().unwrap();
    let mut cycle = |i: usize| {
        // A new constant each time: a kernel of its own.
        let body = format!("SELECT SUM(v) AS s, COUNT(*) AS n FROM dbo.t WHERE v > {i}");
        let (kernels, _) = live_code();
        let create = native_procedure(&format!("p{i}"), &body);
        let out = common::printed(&mut session, &create);
        assert!(out.is_empty(), "{out}");
        assert_eq!(live_code().0, kernels + 1, "CREATE compiled the kernel");
        let script = format!("EXEC dbo.p{i} 0\nGO\nDROP PROCEDURE dbo.p{i}");
        let out = common::printed(&mut session, &script);
        assert!(!out.contains("Msg "), "{out}");
        assert_eq!(live_code().0, kernels, "DROP freed the kernel");
    };
    // Warm up the allocator and the caches a first run fills.
    for i in 0..20 {
        cycle(i);
    }
    let (kernels, bytes) = live_code();
    let before = resident_kib();
    let started = std::time::Instant::now();
    for i in 20..20 + cycles {
        cycle(i);
    }
    let elapsed = started.elapsed();
    let after = resident_kib();
    println!(
        "{cycles} compile/run/drop cycles in {:.1} s: resident {before} KiB -> {after} KiB ({:+} KiB)",
        elapsed.as_secs_f64(),
        after as i64 - before as i64
    );
    assert_eq!(live_code(), (kernels, bytes), "every kernel was freed");
    // Each cycle's machine code takes pages of its own: kept, they would
    // add at least 4 KiB a cycle.
    let grown = after.saturating_sub(before);
    assert!(
        grown < 1024 + cycles as u64,
        "resident memory grew {grown} KiB over {cycles} cycles"
    );
}
