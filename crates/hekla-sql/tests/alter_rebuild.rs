//! ALTER TABLE's rebuild of a memory-optimized table: what a crash at
//! each of its stopping points leaves (through the crash-point test hook,
//! `ddl::alter::stop_rebuilds_at`), and its exclusion of concurrent
//! writers.

mod common;

use hekla_engine::{DatabaseConfig, StorageConfig};
use hekla_sql::ddl::alter::{stop_rebuilds_at, Stop};
use hekla_sql::session::SqlDatabase;
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn run(db: &Arc<SqlDatabase>, script: &str) -> String {
    common::printed(&mut db.session().unwrap(), script)
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "hekla-sql-alter-{name}-{}-{}",
        std::process::id(),
        hekla_sql::catalog::store::now_ms()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn open(dir: &Path) -> Arc<SqlDatabase> {
    SqlDatabase::open(dir, DatabaseConfig::default(), StorageConfig::small()).unwrap()
}

const SETUP: &str = "
CREATE TABLE dbo.t (id int NOT NULL PRIMARY KEY NONCLUSTERED, v varchar(10) NULL)
    WITH (MEMORY_OPTIMIZED = ON)
GO
INSERT INTO dbo.t VALUES (1, 'a'), (2, 'b'), (3, NULL)
";

/// Engine tables called `t`.
fn engine_tables(db: &SqlDatabase) -> usize {
    db.engine()
        .tables()
        .iter()
        .filter(|t| t.name() == "t")
        .count()
}

/// A crash at `stop` during `ALTER TABLE dbo.t ADD w int NULL`, with a
/// checkpoint taken in that state; what the next open finds.
fn crash_during_alter(stop: Stop) -> String {
    let dir = scratch(&format!("{stop:?}"));
    {
        let db = open(&dir);
        assert!(run(&db, SETUP).contains("(3 rows affected)"));
        stop_rebuilds_at(Some(stop));
        let out = run(&db, "ALTER TABLE dbo.t ADD w int NULL");
        stop_rebuilds_at(None);
        assert_eq!(out, "");
        // The old engine table and its replacement, under one name.
        assert_eq!(engine_tables(&db), 2);
        db.engine().checkpoint().unwrap();
    }
    let db = open(&dir);
    assert_eq!(
        engine_tables(&db),
        1,
        "the table no definition names is gone"
    );
    let out = run(&db, "SELECT * FROM dbo.t ORDER BY id");
    drop(db);
    std::fs::remove_dir_all(&dir).unwrap();
    out
}

#[test]
fn a_crash_before_the_switch_leaves_the_table_as_it_was() {
    let out = crash_during_alter(Stop::BeforeSwitch);
    assert!(out.starts_with("id          v"), "{out}");
    assert!(!out.contains(" w"), "{out}");
    assert!(out.contains("(3 rows affected)"), "{out}");
}

#[test]
fn a_crash_after_the_switch_leaves_the_altered_table() {
    let out = crash_during_alter(Stop::BeforeDrop);
    assert!(out.starts_with("id          v          w"), "{out}");
    assert!(out.contains("(3 rows affected)"), "{out}");
}

/// Sessions inserting while another rebuilds the table again and again:
/// every row a writer was told it inserted is in the table afterwards
/// (without the schema lock, rows written to the old table after the copy
/// read it would be lost).
#[test]
fn rows_written_during_rebuilds_are_not_lost() {
    let db = SqlDatabase::in_memory().unwrap();
    assert_eq!(
        run(
            &db,
            "CREATE TABLE dbo.t (id int NOT NULL PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = 4096), v int NOT NULL)
                 WITH (MEMORY_OPTIMIZED = ON)"
        ),
        ""
    );
    let writers: Vec<_> = (0..2)
        .map(|w| {
            let db = Arc::clone(&db);
            std::thread::spawn(move || {
                let mut inserted = 0;
                for i in 0..400 {
                    let out = run(
                        &db,
                        &format!("INSERT INTO dbo.t VALUES ({}, {i})", w * 1000 + i),
                    );
                    if out.contains("(1 rows affected)") {
                        inserted += 1;
                    }
                }
                inserted
            })
        })
        .collect();
    for round in 0..6 {
        let add = run(
            &db,
            &format!("ALTER TABLE dbo.t ADD INDEX ix{round} NONCLUSTERED (v)"),
        );
        assert_eq!(add, "");
        assert_eq!(
            run(&db, &format!("ALTER TABLE dbo.t DROP INDEX ix{round}")),
            ""
        );
    }
    let inserted: usize = writers.into_iter().map(|w| w.join().unwrap()).sum();
    assert_eq!(inserted, 800);
    let count = run(&db, "SELECT COUNT(*) FROM dbo.t");
    assert!(count.contains("        800"), "{count}");
}
