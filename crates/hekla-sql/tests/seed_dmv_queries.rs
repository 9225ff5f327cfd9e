//! Every query of the seed articles 000 and 003 against catalog views and
//! DMVs (kept in the parser's corpus,
//! `crates/hekla-parser/tests/corpus/seed_*.sql`) runs on a
//! durable database holding the article's tables, without an error, and
//! reports figures that are true for hekla. (003's on-disk baseline file
//! repeats the buffer-descriptor queries over a disk-based copy of
//! AdventureWorks made with SELECT ... INTO; its view queries are the same
//! as those of `seed_003_inmem_queries.sql`.)

use hekla_engine::{DatabaseConfig, StorageConfig};
use hekla_sql::session::{Session, SqlDatabase};
use hekla_sql::text_output::{TextOptions, TextSink};
use std::path::Path;

/// Runs one batch; what sqlcmd would show. Any error fails the test.
fn run(session: &mut Session, batch: &str) -> String {
    let mut sink = TextSink::new(Vec::new(), TextOptions::default());
    session.execute(batch, &mut sink);
    let (out, _) = sink.finish();
    let out = String::from_utf8(out).unwrap();
    assert!(!out.contains("Msg "), "{batch}\n-> {out}");
    out
}

/// The SELECT batches of a corpus file (USE and the like are SQL
/// Server's business, not a query of the views).
fn selects(file: &str) -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../hekla-parser/tests/corpus")
        .join(file);
    let script = std::fs::read_to_string(path).unwrap();
    hekla_parser::script::split_batches(&script)
        .into_iter()
        .map(|batch| batch.text.to_string())
        .filter(|text| {
            let code: Vec<&str> = text
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty() && !l.starts_with("--"))
                .collect();
            code.first()
                .is_some_and(|l| l.to_ascii_uppercase().starts_with("SELECT"))
        })
        .collect()
}

#[test]
fn seed_dmv_queries_run_and_tell_the_truth() {
    let dir = std::env::temp_dir().join(format!("hekla-seed-dmvs-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let db = SqlDatabase::open(&dir, DatabaseConfig::default(), StorageConfig::small()).unwrap();
    let mut session = db.session().unwrap();
    run(&mut session, "CREATE SCHEMA Sales");
    run(
        &mut session,
        "CREATE TABLE Sales.SalesOrderDetailMedium (
             SalesOrderID int NOT NULL, SalesOrderDetailID int NOT NULL,
             CarrierTrackingNumber nvarchar(25) NULL, OrderQty smallint NOT NULL,
             ProductID int NOT NULL, UnitPrice money NOT NULL,
             INDEX IX HASH (SalesOrderID, SalesOrderDetailID) WITH (BUCKET_COUNT = 5000000)
         ) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_ONLY)",
    );
    run(
        &mut session,
        "CREATE TABLE Sales.SalesOrderHeader_inmem (
             SalesOrderID int NOT NULL PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = 1024),
             Comment nvarchar(128) NULL
         ) WITH (MEMORY_OPTIMIZED = ON)",
    );
    run(
        &mut session,
        "INSERT Sales.SalesOrderDetailMedium
         SELECT 43659 + RN / 4, RN, N'4911-403C-98', RN % 10 + 1, 700 + RN % 300, 20.5
         FROM (SELECT TOP (20000) ROW_NUMBER() OVER (ORDER BY (SELECT NULL)) AS RN
               FROM master..spt_values a CROSS JOIN master..spt_values b) AS q
         INSERT Sales.SalesOrderHeader_inmem SELECT number, N'x' FROM master..spt_values WHERE type = 'P'",
    );
    db.engine().checkpoint().unwrap();

    let files = [
        "seed_000_memory_dmvs.sql",
        "seed_000_checkpoint_files.sql",
        "seed_003_inmem_queries.sql",
    ];
    let mut outputs = Vec::new();
    for file in files {
        let batches = selects(file);
        assert!(!batches.is_empty(), "{file} has queries");
        for batch in batches {
            outputs.push((batch.clone(), run(&mut session, &batch)));
        }
    }
    let output_of = |needle: &str| -> &str {
        &outputs
            .iter()
            .find(|(batch, _)| batch.contains(needle))
            .unwrap_or_else(|| panic!("no query with {needle}"))
            .1
    };
    // 000: the XTP memory clerk, and every durable or not table by name.
    assert!(output_of("FROM sys.dm_os_memory_clerks").contains("MEMORYCLERK_XTP"));
    let per_table = output_of("FROM sys.dm_db_xtp_table_memory_stats");
    assert!(per_table.contains("SalesOrderDetailMedium"), "{per_table}");
    assert!(per_table.contains("SalesOrderHeader_inmem"), "{per_table}");
    // 000: checkpoint files exist after a checkpoint of a durable table.
    let states = output_of("FROM sys.dm_db_xtp_checkpoint_files");
    assert!(states.contains("DATA"), "{states}");
    // 000: the FX filegroup's on-disk size is its checkpoint files' size
    // (compared in pages: the small test files make less than 1 MB).
    let figure = |out: String| out.lines().nth(2).unwrap_or_default().trim().to_string();
    let fx_pages = figure(run(
        &mut session,
        "SELECT SUM(df.size) FROM sys.filegroups AS f
         INNER JOIN sys.database_files AS df ON f.data_space_id = df.data_space_id
         WHERE f.type = N'FX'",
    ));
    let checkpoint_pages = figure(run(
        &mut session,
        "SELECT CAST(CEILING(SUM(file_size_in_bytes) / 8192.0) AS int)
         FROM sys.dm_db_xtp_checkpoint_files",
    ));
    assert_eq!(fx_pages, checkpoint_pages);
    assert!(
        fx_pages.parse::<i32>().is_ok_and(|pages| pages > 0),
        "{fx_pages}"
    );
    assert!(output_of("AS [On-disk size in MB]").contains("On-disk size in MB"));
    // 003: the hash index's memory consumer, by table and index.
    let consumers = output_of("sys.dm_db_xtp_memory_consumers AS mec");
    assert!(consumers.contains("SalesOrderDetailMedium"), "{consumers}");
    assert!(consumers.contains("NONCLUSTERED HASH"), "{consumers}");
    // 003: the bucket count arithmetic and the COUNT(*).
    assert!(output_of("AS bucket_count").contains("8388608"));
    assert!(output_of("Sales.SalesOrderDetailMedium;").contains("20000"));
    // 003: no buffer pool pages for in-memory tables.
    assert!(output_of("sys.dm_os_buffer_descriptors AS bd").contains("(0 rows affected)"));
    drop(session);
    drop(db);
    std::fs::remove_dir_all(&dir).unwrap();
}
