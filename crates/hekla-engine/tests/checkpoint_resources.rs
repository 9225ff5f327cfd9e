//! What checkpoints hold while a database runs: a merge's memory is bounded
//! by a block of each file it reads or writes plus one source's delete set
//! (kept compact, about twice its delta file), not by the size of the data
//! files it merges; and sealed pairs and merged-away files keep no file
//! open, so a database's open files do not grow with its data.
//!
//! Memory is measured with a counting global allocator, which counts every
//! thread of this test binary: the tests take turns through `SERIAL`.

mod common;

use common::*;
use hekla_engine::{
    ColumnDef, Database, DatabaseConfig, FileState, FileType, IndexDef, IsolationLevel,
    StorageConfig, Table, TableDef, Uniqueness,
};
use hekla_types::{DataType, Value};
use std::alloc::{GlobalAlloc, Layout, System};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
static SERIAL: Mutex<()> = Mutex::new(());

impl Counting {
    fn grew(by: usize) {
        let live = LIVE.fetch_add(by, Ordering::Relaxed) + by;
        PEAK.fetch_max(live, Ordering::Relaxed);
    }
}

// SAFETY: every call is forwarded unchanged to the system allocator, which
// upholds GlobalAlloc's contract; the counters only observe sizes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's layout obligations pass through to System.
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            Counting::grew(layout.size());
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `alloc`/`realloc` above, i.e. from System.
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as for `dealloc`; System checks nothing else.
        let new = unsafe { System.realloc(ptr, layout, new_size) };
        if !new.is_null() {
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
            Counting::grew(new_size);
        }
        new
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

const DATA_FILE_BYTES: u64 = 16 << 20;
const BLOCK_BYTES: usize = 1 << 20;

/// Pairs of `DATA_FILE_BYTES`; checkpoints only when asked.
fn open(dir: &Path) -> Database {
    let config = StorageConfig {
        data_file_bytes: DATA_FILE_BYTES,
        delta_file_bytes: 1 << 20,
        log_segment_bytes: 1 << 20,
        checkpoint_log_bytes: u64::MAX,
        ..StorageConfig::small()
    };
    Database::open(dir, DatabaseConfig::default(), config).expect("open")
}

/// `notes(id int PRIMARY KEY NONCLUSTERED HASH, body varchar(200))`: rows
/// much bigger than their identities, as in most tables.
fn create_notes(db: &Database) -> Arc<Table> {
    db.create_table(TableDef::new(
        "notes",
        vec![
            ColumnDef::new("id", DataType::Int, false),
            ColumnDef::new("body", varchar(200), false),
        ],
        vec![IndexDef::hash("pk", &[0], 1 << 16, Uniqueness::PrimaryKey)],
    ))
    .expect("create notes")
}

/// Inserts rows until `pairs` data files have filled, deleting all but one
/// row in twenty as it goes (a commit each per `batch` rows), the way a
/// queue or an order table churns. Returns the ids left.
fn churn(db: &Database, table: &Arc<Table>, pairs: u64) -> Vec<i32> {
    let body = "x".repeat(180);
    let batch = 2_000;
    let mut kept = Vec::new();
    let mut next = 0;
    while db
        .checkpoint_files()
        .iter()
        .filter(|f| f.file_type == FileType::Data && f.upper_bound_ts != u64::MAX)
        .filter(|f| f.state == FileState::UnderConstruction)
        .count()
        < pairs as usize
    {
        let ids: Vec<i32> = (next..next + batch).collect();
        next += batch;
        let mut tx = db.begin(IsolationLevel::Snapshot).unwrap();
        for &id in &ids {
            tx.insert(table, &[Value::Int(id), Value::String(body.clone())])
                .unwrap();
        }
        tx.commit().unwrap();
        let mut tx = db.begin(IsolationLevel::Snapshot).unwrap();
        for &id in &ids {
            if id % 20 == 0 {
                kept.push(id);
            } else {
                delete_account(&mut tx, table, id).unwrap();
            }
        }
        tx.commit().unwrap();
        // Let the checkpoint worker file the log as it grows.
        std::thread::sleep(Duration::from_millis(1));
    }
    kept
}

fn open_files_under(dir: &Path) -> usize {
    std::fs::read_dir("/proc/self/fd")
        .unwrap()
        .filter_map(|entry| std::fs::read_link(entry.ok()?.path()).ok())
        .filter(|target| target.starts_with(dir))
        .count()
}

#[test]
fn a_merge_holds_a_block_and_a_compact_delete_set_not_its_data_files() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let dir = Scratch::new("merge-memory");
    let db = open(&dir.0);
    let table = create_notes(&db);
    let kept = churn(&db, &table, 3);
    // Let the worker catch up with the log, so that the checkpoint itself
    // reads little of it.
    std::thread::sleep(Duration::from_millis(200));
    let files = db.checkpoint_files();
    let largest = |file_type| {
        files
            .iter()
            .filter(|f| f.file_type == file_type)
            .map(|f| f.file_size_used_bytes)
            .max()
            .unwrap()
    };
    let (largest_data, largest_delta) = (largest(FileType::Data), largest(FileType::Delta));
    assert!(largest_data >= DATA_FILE_BYTES, "{files:#?}");

    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let report = db.checkpoint().unwrap();
    let held = PEAK.load(Ordering::Relaxed) - before;
    assert!(report.merges >= 1, "{report:?}");

    // One block read, the target's block (which may grow to twice a block
    // with its last entry), a log segment's tail, and the delete set.
    let bound = 4 * BLOCK_BYTES as u64 + 2 * largest_delta;
    eprintln!(
        "a checkpoint sealing {} pairs and merging {} times held {held} bytes at most (bound {bound}); largest data file {largest_data}, delta {largest_delta}",
        report.pairs_sealed, report.merges
    );
    assert!(
        (held as u64) < bound,
        "the checkpoint held {held} bytes; bound {bound}"
    );

    // The merged data is all there.
    drop(db);
    let db = open(&dir.0);
    let table = db.table_named("dbo", "notes").unwrap();
    let mut tx = db.begin(IsolationLevel::Snapshot).unwrap();
    let mut ids: Vec<i32> = scan_rows(&mut tx, &table)
        .unwrap()
        .iter()
        .map(|row| int(&row[0]))
        .collect();
    ids.sort_unstable();
    assert_eq!(ids, kept);
}

#[test]
fn sealed_pairs_and_merged_files_keep_no_file_open() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let dir = Scratch::new("checkpoint-open-files");
    let db = open(&dir.0);
    let table = create_notes(&db);
    churn(&db, &table, 3);
    let report = db.checkpoint().unwrap();
    assert!(report.merges >= 1, "{report:?}");
    let files = db.checkpoint_files();
    let named = |state| files.iter().filter(|f| f.state == state).count();
    assert!(named(FileState::Tombstone) >= 4, "{files:#?}");
    assert!(named(FileState::Active) >= 2, "{files:#?}");
    // Only the precreated pair (data and delta) is open in the data
    // directory: nothing was committed since the checkpoint.
    assert_eq!(open_files_under(&dir.0.join("data")), 2, "{files:#?}");

    // Deletes reach a sealed pair's delta file through a buffer, and a
    // later checkpoint finds them there after a restart.
    let mut tx = db.begin(IsolationLevel::Snapshot).unwrap();
    delete_account(&mut tx, &table, 0).unwrap();
    tx.commit().unwrap();
    db.checkpoint().unwrap();
    assert_eq!(open_files_under(&dir.0.join("data")), 2);
    drop(db);
    let db = open(&dir.0);
    // Reopened, the sealed pairs whose files end where the checkpoint
    // counted stay closed; at most the precreated pair is open.
    assert!(open_files_under(&dir.0.join("data")) <= 2);
    let table = db.table_named("dbo", "notes").unwrap();
    let mut tx = db.begin(IsolationLevel::Snapshot).unwrap();
    assert!(tx.get(&table, 0, &[Value::Int(0)]).unwrap().is_none());
    assert!(tx.get(&table, 0, &[Value::Int(20)]).unwrap().is_some());
}
