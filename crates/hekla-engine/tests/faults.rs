//! Fault injection: torn, flipped and truncated bytes in the log, the
//! checkpoint files and the root, and a full disk under the log and under
//! a checkpoint.
//!
//! The rules under test: a damaged *last* log block is a flush that never
//! completed, so the database opens without it (and without anything
//! partial); damage anywhere else is corruption, and the database refuses
//! to open with error 3414 naming the file and the offset, leaving every
//! file as it was; a full disk fails the commits that need the log with
//! 9002 but loses nothing acknowledged.
//!
//! The block layout is read here from its documentation (`frame.rs`):
//! `[magic u32][len u32][position u64][crc32c u32][reserved u32]` and the
//! payload, padded to 8 bytes, all little-endian.

mod common;

use common::*;
use hekla_engine::{
    ColumnDef, Database, DatabaseConfig, FileState, FileType, IndexDef, IsolationLevel,
    StorageConfig, Table, TableDef, Uniqueness,
};
use hekla_types::{DataType, SqlError, SqlResult, Value};
use std::collections::BTreeMap;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

const HEADER: usize = 24;
const MAGIC: u32 = 0x424c_4b48;
const CORRUPT: u32 = 3414;
const LOG_FULL: u32 = 9002;
const OS_ERROR: u32 = 823;

// ---------------------------------------------------------------------------
// Directories and files.

/// Every file under `dir` with its bytes (but the lock file, which opening
/// creates), to show that a refused open changed nothing.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut files = BTreeMap::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(at) = pending.pop() {
        for entry in std::fs::read_dir(&at).expect("list directory") {
            let path = entry.expect("directory entry").path();
            if path.is_dir() {
                pending.push(path);
            } else if path.file_name().is_some_and(|n| n != "hekla.lock") {
                files.insert(path.clone(), std::fs::read(&path).expect("read file"));
            }
        }
    }
    files
}

fn flip_bit(path: &Path, offset: usize, bit: u8) {
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(path)
        .expect("open file to damage");
    let mut byte = [0u8];
    file.read_exact_at(&mut byte, offset as u64)
        .expect("read byte");
    byte[0] ^= 1 << bit;
    file.write_all_at(&byte, offset as u64).expect("write byte");
}

fn truncate(path: &Path, len: u64) {
    std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .expect("open file to truncate")
        .set_len(len)
        .expect("truncate");
}

/// One block of a durability file, as its header describes it.
#[derive(Clone, Copy, Debug)]
struct Block {
    /// Offset in the file.
    at: usize,
    /// Just past the payload (the checksum covers nothing after it).
    payload_end: usize,
    /// Just past the padding: where the next block starts.
    end: usize,
}

/// The blocks of a file whose first byte sits at `base` (an LSN for a log
/// segment, 0 for other files), up to the first all-zero header.
fn blocks(bytes: &[u8], base: u64) -> Vec<Block> {
    let mut found = Vec::new();
    let mut at = 0;
    while at + HEADER <= bytes.len() && bytes[at..at + HEADER].iter().any(|&b| b != 0) {
        let u32_at = |i: usize| u32::from_le_bytes(bytes[at + i..at + i + 4].try_into().unwrap());
        assert_eq!(u32_at(0), MAGIC, "a block at offset {at} has no magic");
        let position = u64::from_le_bytes(bytes[at + 8..at + 16].try_into().unwrap());
        assert_eq!(position, base + at as u64, "block at offset {at}");
        let payload_end = at + HEADER + u32_at(4) as usize;
        let end = payload_end.next_multiple_of(8);
        found.push(Block {
            at,
            payload_end,
            end,
        });
        at = end;
    }
    found
}

/// The log segments in `dir/log`, by first LSN.
fn segments(dir: &Path) -> Vec<(u64, PathBuf)> {
    let mut found: Vec<(u64, PathBuf)> = std::fs::read_dir(dir.join("log"))
        .expect("list log")
        .map(|e| e.expect("log entry").path())
        .filter_map(|path| {
            let name = path.file_name()?.to_str()?;
            let stem = name.strip_suffix(".log")?;
            let lsn = u64::from_str_radix(stem, 16).ok()?;
            (stem.len() == 16).then_some((lsn, path))
        })
        .collect();
    found.sort();
    found
}

// ---------------------------------------------------------------------------
// Opening, and what a refusal must look like.

fn open_with(dir: &Path, storage: StorageConfig) -> SqlResult<Database> {
    Database::open(dir, DatabaseConfig::default(), storage)
}

fn open(dir: &Path) -> SqlResult<Database> {
    open_with(dir, StorageConfig::small())
}

fn accounts(db: &Database) -> Arc<Table> {
    db.table_named("dbo", "accounts").expect("accounts table")
}

/// Opens `dir`, which must be refused with 3414 naming `file` (and
/// `offset`, when given), without changing any file. Returns the error.
#[track_caller]
fn expect_refused(dir: &Path, file: &Path, offset: Option<usize>, what: &str) -> SqlError {
    let before = snapshot(dir);
    let error = match open(dir) {
        Ok(_) => panic!("{what}: the damaged database opened"),
        Err(error) => error,
    };
    assert_eq!(error.number, CORRUPT, "{what}: {error}");
    let named = match offset {
        Some(offset) => format!("file '{}' is corrupt at offset {offset}:", file.display()),
        None => format!("file '{}' is corrupt at offset", file.display()),
    };
    assert!(
        error.message.contains(&named),
        "{what}: the error should say {named:?}; it is {error}"
    );
    assert!(
        before == snapshot(dir),
        "{what}: the refused open changed the database's files"
    );
    error
}

// ---------------------------------------------------------------------------
// The log: a database whose every commit is one block, with the state the
// database must come back with when the log is cut before any block.

struct LogFixture {
    _scratch: Scratch,
    /// The database as written, never opened again.
    pristine: PathBuf,
    /// Where each case copies it to and damages it.
    work: PathBuf,
    /// The committed accounts once the log ended at each LSN.
    states: BTreeMap<u64, BTreeMap<i32, i64>>,
}

impl LogFixture {
    /// `commits` single-threaded commits of accounts inserts, updates and
    /// deletes, the last one much larger than the others; each is one
    /// flush, so one block.
    fn build(
        name: &str,
        storage: StorageConfig,
        commits: usize,
        rows_per_commit: i32,
    ) -> LogFixture {
        let scratch = Scratch::new(&format!("faults-{name}"));
        let pristine = scratch.0.join("pristine");
        let work = scratch.0.join("work");
        let mut states = BTreeMap::new();
        let db = open_with(&pristine, storage).expect("open a new database");
        let end = |db: &Database| db.log_stats().expect("durable database").bytes;
        let mut model: BTreeMap<i32, i64> = BTreeMap::new();
        states.insert(end(&db), model.clone());
        let table = create_accounts(&db);
        states.insert(end(&db), model.clone());
        let mut rng = Rng::new(0xfa17);
        let mut next_id = 0;
        for i in 0..commits {
            let last = i + 1 == commits;
            let inserts = if last { 60 } else { rows_per_commit };
            let changes = if last { 5 } else { 1 };
            let mut tx = db.begin(IsolationLevel::Snapshot).unwrap();
            let mut after = model.clone();
            for _ in 0..inserts {
                let balance = rng.below(1_000_000) as i64;
                tx.insert(&table, &[Value::Int(next_id), Value::BigInt(balance)])
                    .unwrap();
                after.insert(next_id, balance);
                next_id += 1;
            }
            // Updates and deletes of rows committed earlier, so that the
            // lost block would also have to undo those.
            let existing: Vec<i32> = model.keys().copied().collect();
            for k in 0..changes.min(existing.len() / 2) {
                let id = existing[rng.below(existing.len() as u64) as usize];
                if !after.contains_key(&id) {
                    continue;
                }
                if k % 2 == 0 {
                    set_balance(&mut tx, &table, id, -(id as i64)).unwrap();
                    after.insert(id, -(id as i64));
                } else {
                    delete_account(&mut tx, &table, id).unwrap();
                    after.remove(&id);
                }
            }
            tx.commit().unwrap();
            model = after;
            states.insert(end(&db), model.clone());
        }
        assert_eq!(committed_balances(&db, &table), model);
        drop(db);
        LogFixture {
            _scratch: scratch,
            pristine,
            work,
            states,
        }
    }

    /// A fresh copy of the database to damage.
    fn fresh_work(&self) -> PathBuf {
        copy_dir(&self.pristine, &self.work);
        self.work.clone()
    }

    /// Every block of every segment: (segment start LSN, file name, block).
    fn blocks(&self) -> Vec<(u64, String, Block)> {
        let mut all = Vec::new();
        for (start, path) in segments(&self.pristine) {
            let bytes = std::fs::read(&path).expect("read segment");
            let name = path.file_name().unwrap().to_str().unwrap().to_string();
            for block in blocks(&bytes, start) {
                // Every block ends where some commit left the log.
                assert!(
                    self.states.contains_key(&(start + block.end as u64)),
                    "block at {start}+{} does not end at a commit",
                    block.at
                );
                all.push((start, name.clone(), block));
            }
        }
        all
    }

    /// What the database must hold if the log is cut at LSN `lsn` (a
    /// block boundary).
    fn state_at(&self, lsn: u64) -> &BTreeMap<i32, i64> {
        self.states
            .get(&lsn)
            .unwrap_or_else(|| panic!("no commit ended the log at {lsn}"))
    }

    fn final_state(&self) -> &BTreeMap<i32, i64> {
        self.states.values().last().unwrap()
    }
}

/// Opens `dir`, which must hold exactly `expected`; then commits one more
/// row, restarts, and checks the log took it after the repaired end.
#[track_caller]
fn expect_state_and_log_continues(dir: &Path, expected: &BTreeMap<i32, i64>, what: &str) {
    let db = open(dir).unwrap_or_else(|e| panic!("{what}: the database did not open: {e}"));
    let table = accounts(&db);
    assert_eq!(&committed_balances(&db, &table), expected, "{what}");
    seed(&db, &table, &[(-1, 42)]);
    drop(db);
    let db = open(dir).unwrap_or_else(|e| panic!("{what}: reopening failed: {e}"));
    let mut expected = expected.clone();
    expected.insert(-1, 42);
    assert_eq!(
        committed_balances(&db, &accounts(&db)),
        expected,
        "{what}: after a commit past the repaired end and a restart"
    );
}

#[track_caller]
fn expect_state(dir: &Path, expected: &BTreeMap<i32, i64>, what: &str) {
    let db = open(dir).unwrap_or_else(|e| panic!("{what}: the database did not open: {e}"));
    assert_eq!(&committed_balances(&db, &accounts(&db)), expected, "{what}");
}

#[derive(Clone, Copy, Debug)]
enum Tear {
    /// The flush stopped at the cut: the preallocated zeros remain after it.
    Zeroed,
    /// The file itself ends at the cut.
    Truncated,
}

#[test]
fn a_torn_last_log_block_loses_only_its_own_commit_wherever_it_is_cut() {
    let fixture = LogFixture::build("torn", StorageConfig::small(), 12, 2);
    let all = fixture.blocks();
    assert_eq!(
        segments(&fixture.pristine).len(),
        1,
        "the fixture fits one segment"
    );
    let (start, name, last) = all.last().cloned().unwrap();
    assert!(
        last.end - last.at > 1000,
        "the last block should be large: {last:?}"
    );
    let before = fixture.state_at(start + last.at as u64).clone();
    let after = fixture.final_state().clone();
    assert_ne!(before, after);

    // Every byte of the header and the start of the payload, then a
    // stride through the payload, then the end of the block.
    let mut cuts: Vec<usize> = (last.at..last.at + HEADER + 16).collect();
    cuts.extend((last.at + HEADER + 16..last.end).step_by(23));
    cuts.extend(last.payload_end.saturating_sub(3)..=last.end);
    cuts.sort();
    cuts.dedup();

    for tear in [Tear::Zeroed, Tear::Truncated] {
        for (i, &cut) in cuts.iter().enumerate() {
            let what = format!(
                "{tear:?} at offset {cut} of the last block [{}, {})",
                last.at, last.end
            );
            let dir = fixture.fresh_work();
            let segment = dir.join("log").join(&name);
            match tear {
                Tear::Zeroed => {
                    let zeros = vec![0u8; last.end - cut];
                    std::fs::OpenOptions::new()
                        .write(true)
                        .open(&segment)
                        .unwrap()
                        .write_all_at(&zeros, cut as u64)
                        .unwrap();
                }
                Tear::Truncated => truncate(&segment, cut as u64),
            }
            let expected = if cut >= last.end {
                &after
            } else if cut >= last.payload_end {
                // Only padding is missing: the checksum cannot tell, and
                // either outcome keeps every acknowledged commit but that one.
                let db = open(&dir).unwrap_or_else(|e| panic!("{what}: {e}"));
                let found = committed_balances(&db, &accounts(&db));
                assert!(found == before || found == after, "{what}: {found:?}");
                continue;
            } else {
                &before
            };
            // Checking that the log goes on costs a restart; do it for a
            // sample of the cuts.
            if i % 8 == 0 {
                expect_state_and_log_continues(&dir, expected, &what);
            } else {
                expect_state(&dir, expected, &what);
            }
        }
    }
}

#[test]
fn a_flipped_bit_in_the_last_log_block_loses_only_its_own_commit() {
    let fixture = LogFixture::build("flip-last", StorageConfig::small(), 8, 2);
    let (start, name, last) = fixture.blocks().last().cloned().unwrap();
    let before = fixture.state_at(start + last.at as u64).clone();
    let mid = (last.at + HEADER + last.payload_end) / 2;
    // (offset in the block, bit): magic, length (small and huge), position,
    // checksum, and the payload's first, middle and last bytes.
    let flips = [
        (last.at, 0),
        (last.at + 4, 1),
        (last.at + 7, 7),
        (last.at + 9, 2),
        (last.at + 18, 5),
        (last.at + HEADER, 0),
        (mid, 6),
        (last.payload_end - 1, 3),
    ];
    for (k, &(offset, bit)) in flips.iter().enumerate() {
        let what = format!(
            "bit {bit} of byte {offset} in the last block [{}, {})",
            last.at, last.end
        );
        let dir = fixture.fresh_work();
        flip_bit(&dir.join("log").join(&name), offset, bit);
        if k == 0 {
            expect_state_and_log_continues(&dir, &before, &what);
        } else {
            expect_state(&dir, &before, &what);
        }
    }
}

#[test]
fn a_flipped_bit_in_an_earlier_log_block_refuses_to_open_naming_segment_and_offset() {
    let fixture = LogFixture::build("flip-earlier", StorageConfig::small(), 10, 2);
    let all = fixture.blocks();
    let n = all.len();
    // The first block (the table's creation), one in the middle, and the
    // one just before the last.
    for index in [0, n / 2, n - 2] {
        let (_, name, block) = all[index].clone();
        for (offset, bit) in [
            (block.at, 1),
            (block.at + 17, 4),
            ((block.at + HEADER + block.payload_end) / 2, 0),
        ] {
            let what = format!(
                "bit {bit} of byte {offset} in block {index} of {n} [{}, {})",
                block.at, block.end
            );
            let dir = fixture.fresh_work();
            let segment = dir.join("log").join(&name);
            flip_bit(&segment, offset, bit);
            expect_refused(&dir, &segment, Some(block.at), &what);
            // Nothing was repaired away: undoing the damage gives back
            // every commit.
            flip_bit(&segment, offset, bit);
            expect_state(&dir, fixture.final_state(), &format!("{what}, undone"));
        }
    }
}

#[test]
fn log_damage_is_placed_across_segment_boundaries() {
    let storage = StorageConfig {
        log_segment_bytes: 16 << 10,
        ..StorageConfig::small()
    };
    let fixture = LogFixture::build("segments", storage, 60, 25);
    let all = fixture.blocks();
    let names: Vec<&String> = {
        let mut names: Vec<&String> = all.iter().map(|(_, name, _)| name).collect();
        names.dedup();
        names
    };
    assert!(names.len() >= 3, "the fixture spans segments: {names:?}");

    // The last block of the first segment is followed by valid blocks in
    // the next segment only: still corruption, reported in the first.
    let (_, first, block) = all
        .iter()
        .rfind(|(_, name, _)| name == names[0])
        .cloned()
        .unwrap();
    let dir = fixture.fresh_work();
    let segment = dir.join("log").join(&first);
    flip_bit(&segment, block.at + HEADER, 2);
    expect_refused(
        &dir,
        &segment,
        Some(block.at),
        "the last block of the first segment",
    );

    // A block in the middle of a later segment: the offset is the file's,
    // not the LSN.
    let (start, middle, block) = all
        .iter()
        .filter(|(_, name, _)| name == names[1])
        .nth(1)
        .cloned()
        .unwrap();
    assert!(start > 0);
    let dir = fixture.fresh_work();
    let segment = dir.join("log").join(&middle);
    flip_bit(&segment, block.at + 12, 0);
    expect_refused(
        &dir,
        &segment,
        Some(block.at),
        "a block inside the second segment",
    );

    // The very last block, in the last segment: a torn tail.
    let (start, last_name, last) = all.last().cloned().unwrap();
    let dir = fixture.fresh_work();
    flip_bit(&dir.join("log").join(&last_name), last.payload_end - 1, 7);
    expect_state_and_log_continues(
        &dir,
        fixture.state_at(start + last.at as u64),
        "the last block of the last segment",
    );
}

// ---------------------------------------------------------------------------
// Checkpoint files and the root.

struct CheckpointFixture {
    _scratch: Scratch,
    pristine: PathBuf,
    work: PathBuf,
    model: BTreeMap<i32, i64>,
    /// File names (in `data/`) of the checkpoint's data and delta files.
    data: String,
    delta: String,
}

impl CheckpointFixture {
    /// A checkpoint holding one pair with inserts and deletes, then a few
    /// commits in the log after it. Small log segments, so that the
    /// checkpoint truncates the log.
    fn build(name: &str) -> CheckpointFixture {
        let scratch = Scratch::new(&format!("faults-{name}"));
        let pristine = scratch.0.join("pristine");
        let work = scratch.0.join("work");
        let storage = StorageConfig {
            log_segment_bytes: 16 << 10,
            ..StorageConfig::small()
        };
        let db = open_with(&pristine, storage).expect("open a new database");
        let table = create_accounts(&db);
        let mut model = BTreeMap::new();
        for chunk in 0..3 {
            let rows: Vec<(i32, i64)> = (chunk * 500..chunk * 500 + 500)
                .map(|id| (id, id as i64 * 10))
                .collect();
            seed(&db, &table, &rows);
            model.extend(rows);
        }
        let mut tx = db.begin(IsolationLevel::Snapshot).unwrap();
        for id in (0..1500).step_by(7) {
            delete_account(&mut tx, &table, id).unwrap();
            model.remove(&id);
        }
        for id in (1..1500).step_by(50).filter(|id| id % 7 != 0) {
            set_balance(&mut tx, &table, id, -1).unwrap();
            model.insert(id, -1);
        }
        tx.commit().unwrap();
        let report = db.checkpoint().expect("checkpoint");
        assert_eq!(report.merges, 0, "the fixture's pair should stay as it is");
        let files = db.checkpoint_files();
        let active = |file_type| {
            let found: Vec<_> = files
                .iter()
                .filter(|f| f.state == FileState::Active && f.file_type == file_type)
                .collect();
            assert_eq!(found.len(), 1, "one active {file_type:?} file: {files:#?}");
            assert!(found[0].file_size_used_bytes > 0, "{:#?}", found[0]);
            found[0]
                .path
                .file_name()
                .unwrap()
                .to_str()
                .unwrap()
                .to_string()
        };
        let (data, delta) = (active(FileType::Data), active(FileType::Delta));
        // Commits only the log holds.
        seed(&db, &table, &[(5000, 1), (5001, 2)]);
        model.extend([(5000, 1), (5001, 2)]);
        drop(db);
        assert!(
            segments(&pristine)[0].0 > 0,
            "the checkpoint should have truncated the log"
        );
        // The undamaged database opens through its checkpoint.
        let fixture = CheckpointFixture {
            _scratch: scratch,
            pristine,
            work,
            model,
            data,
            delta,
        };
        let dir = fixture.fresh_work();
        let db = open(&dir).expect("the undamaged copy opens");
        assert_eq!(committed_balances(&db, &accounts(&db)), fixture.model);
        assert_eq!(db.recovery_report().unwrap().pairs_loaded, 1);
        fixture
    }

    fn fresh_work(&self) -> PathBuf {
        copy_dir(&self.pristine, &self.work);
        self.work.clone()
    }
}

/// Flips bits in the header and the payload of every block of `file`
/// (relative to the database directory); each must be refused naming it.
fn flips_are_refused(fixture: &CheckpointFixture, file: &Path) {
    let bytes = std::fs::read(fixture.pristine.join(file)).expect("read file");
    let found = blocks(&bytes, 0);
    assert!(!found.is_empty(), "{} holds blocks", file.display());
    for block in found {
        for (offset, bit) in [
            (block.at, 0),
            (block.at + 5, 3),
            (block.at + 10, 1),
            (block.at + 16, 7),
            (block.at + HEADER, 2),
            ((block.at + HEADER + block.payload_end) / 2, 5),
            (block.payload_end - 1, 4),
        ] {
            let dir = fixture.fresh_work();
            let path = dir.join(file);
            flip_bit(&path, offset, bit);
            expect_refused(
                &dir,
                &path,
                Some(block.at),
                &format!("bit {bit} of byte {offset} of {}", file.display()),
            );
        }
    }
}

#[test]
fn a_damaged_data_file_refuses_to_open_naming_it() {
    let fixture = CheckpointFixture::build("data");
    flips_are_refused(&fixture, &Path::new("data").join(&fixture.data));
}

#[test]
fn a_damaged_delta_file_refuses_to_open_naming_it() {
    let fixture = CheckpointFixture::build("delta");
    flips_are_refused(&fixture, &Path::new("data").join(&fixture.delta));
}

#[test]
fn a_damaged_root_file_refuses_to_open_naming_it() {
    let fixture = CheckpointFixture::build("root");
    flips_are_refused(&fixture, Path::new("hekla.root"));
}

#[test]
fn truncated_checkpoint_files_refuse_to_open_naming_them() {
    let fixture = CheckpointFixture::build("truncated");
    let files = [
        Path::new("data").join(&fixture.data),
        Path::new("data").join(&fixture.delta),
        PathBuf::from("hekla.root"),
    ];
    for file in &files {
        let len = std::fs::metadata(fixture.pristine.join(file))
            .unwrap()
            .len();
        for keep in [0, len / 2, len - 1] {
            let dir = fixture.fresh_work();
            let path = dir.join(file);
            truncate(&path, keep);
            expect_refused(
                &dir,
                &path,
                None,
                &format!("{} cut to {keep} of {len} bytes", file.display()),
            );
        }
    }
}

#[test]
fn a_missing_data_file_refuses_to_open_naming_it() {
    let fixture = CheckpointFixture::build("missing-data");
    let dir = fixture.fresh_work();
    let path = dir.join("data").join(&fixture.data);
    std::fs::remove_file(&path).unwrap();
    let before = snapshot(&dir);
    let error = match open(&dir) {
        Ok(_) => panic!("opened without its data file"),
        Err(error) => error,
    };
    assert!(
        [CORRUPT, OS_ERROR].contains(&error.number),
        "unexpected error {error}"
    );
    assert!(
        error.message.contains(&format!("'{}'", path.display())),
        "the error should name {}: {error}",
        path.display()
    );
    assert!(before == snapshot(&dir), "the refused open changed files");
}

/// A checkpoint's files may be longer than the root says (a later
/// checkpoint that never finished appended to them); recovery reads only
/// what the root counts, so stray blocks past it are not damage.
#[test]
fn bytes_past_the_recorded_length_of_checkpoint_files_are_ignored() {
    let fixture = CheckpointFixture::build("past-end");
    let dir = fixture.fresh_work();
    for name in [&fixture.data, &fixture.delta] {
        let path = dir.join("data").join(name);
        let len = std::fs::metadata(&path).unwrap().len();
        let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
        file.write_all_at(&[0xa5; 3000], len).unwrap();
    }
    expect_state(&dir, &fixture.model, "garbage after the recorded lengths");
    // And the stray bytes are dropped, not built upon: a checkpoint and a
    // restart later everything is still there.
    let db = open(&dir).unwrap();
    seed(&db, &accounts(&db), &[(7000, 7)]);
    db.checkpoint().expect("checkpoint");
    drop(db);
    let mut expected = fixture.model.clone();
    expected.insert(7000, 7);
    expect_state(&dir, &expected, "after a checkpoint on top of them");
}

/// The root is what says a checkpoint exists. Without it, and with the log
/// already truncated past its start, the database must not open as if it
/// were new: that would lose every row the checkpoint held (and delete its
/// files as leftovers).
#[test]
fn a_missing_root_file_with_a_truncated_log_refuses_to_open() {
    let fixture = CheckpointFixture::build("missing-root");
    let dir = fixture.fresh_work();
    std::fs::remove_file(dir.join("hekla.root")).unwrap();
    let before = snapshot(&dir);
    match open(&dir) {
        Ok(db) => {
            let found = db
                .table_named("dbo", "accounts")
                .map_or(0, |table| committed_balances(&db, &table).len());
            let tables = db.tables().len();
            drop(db);
            let deleted: Vec<_> = before.keys().filter(|p| !p.exists()).collect();
            panic!(
                "opened without its root as a database with {tables} tables and {found} of {} accounts; files deleted: {deleted:?}",
                fixture.model.len()
            );
        }
        Err(error) => {
            assert!(
                before == snapshot(&dir),
                "the refused open changed files: {error}"
            );
        }
    }
}

/// `checkpoint_files()` (the `sys.dm_db_xtp_checkpoint_files` view) is
/// the kind of thing a monitor polls. Each query is a request to the
/// checkpoint worker, and the worker must still do its own work between
/// them: follow the log, keep a pair precreated and checkpoint by itself
/// once the log has grown `checkpoint_log_bytes`. Otherwise the log is never
/// truncated while the monitor runs, and the disk fills.
#[test]
fn frequent_checkpoint_file_queries_do_not_starve_the_checkpoint_worker() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::{Duration, Instant};
    let scratch = Scratch::new("faults-starved");
    let threshold = 64 << 10;
    let storage = StorageConfig {
        checkpoint_log_bytes: threshold,
        ..StorageConfig::small()
    };
    let db = open_with(&scratch.0.join("db"), storage).expect("open");
    let table = create_accounts(&db);
    let stop = AtomicBool::new(false);
    let checkpointed = AtomicBool::new(false);
    std::thread::scope(|scope| {
        // The monitor: a query every couple of milliseconds, from before the
        // first commit on. The sleep paces it.
        scope.spawn(|| {
            while !stop.load(Ordering::Relaxed) {
                if db
                    .checkpoint_files()
                    .iter()
                    .any(|f| f.state == FileState::Active)
                {
                    checkpointed.store(true, Ordering::Relaxed);
                }
                std::thread::sleep(Duration::from_millis(2));
            }
        });
        let mut next = 0;
        while db.log_stats().unwrap().bytes < 4 * threshold {
            let rows: Vec<(i32, i64)> = (next..next + 100).map(|id| (id, 1)).collect();
            seed(&db, &table, &rows);
            next += 100;
        }
        // The worker looks at the log every 20 ms: give it plenty of ticks.
        let deadline = Instant::now() + Duration::from_secs(3);
        while !checkpointed.load(Ordering::Relaxed) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(10));
        }
        stop.store(true, Ordering::Relaxed);
    });
    if !checkpointed.load(Ordering::Relaxed) {
        // Without the queries, does it catch up? That tells starvation from
        // a checkpoint that never triggers at all.
        std::thread::sleep(Duration::from_millis(200));
        let after_pause = db
            .checkpoint_files()
            .iter()
            .any(|f| f.state == FileState::Active);
        panic!(
            "no automatic checkpoint within 3 s although the log grew to {} bytes, 4 times checkpoint_log_bytes, while checkpoint_files() was queried every 2 ms; 200 ms after the queries stopped it {}",
            db.log_stats().unwrap().bytes,
            if after_pause { "had checkpointed: the queries starve the worker" } else { "still had not" }
        );
    }
}

// ---------------------------------------------------------------------------
// A full disk, on a small tmpfs.

/// A tmpfs of a given size mounted on a fresh directory, unmounted (and
/// the directory removed) when dropped, even if the test fails.
struct Tmpfs {
    path: PathBuf,
}

impl Tmpfs {
    /// None, after saying why, where mounting is not possible (not root).
    fn mount(name: &str, bytes: u64) -> Option<Tmpfs> {
        let path = unique_path(&format!("hekla-faults-{name}-tmpfs"));
        std::fs::create_dir_all(&path).expect("create mount point");
        let outcome = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={bytes}"), "hekla-test"])
            .arg(&path)
            .output();
        match outcome {
            Ok(output) if output.status.success() => Some(Tmpfs { path }),
            outcome => {
                let why = match outcome {
                    Ok(output) => String::from_utf8_lossy(&output.stderr).into_owned(),
                    Err(error) => error.to_string(),
                };
                eprintln!(
                    "SKIPPED {name}: cannot mount a {bytes}-byte tmpfs to fill up (the full-disk tests need root): {}",
                    why.trim()
                );
                let _ = std::fs::remove_dir(&path);
                None
            }
        }
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let unmounted = Command::new("umount")
            .arg(&self.path)
            .status()
            .is_ok_and(|s| s.success());
        if !unmounted {
            // Busy (a file still open after a failure): detach it anyway.
            let _ = Command::new("umount").arg("-l").arg(&self.path).status();
        }
        let _ = std::fs::remove_dir(&self.path);
    }
}

/// `notes(id int PRIMARY KEY, body varchar(1200))`: wide rows fill a disk fast.
fn notes_def() -> TableDef {
    TableDef::new(
        "notes",
        vec![
            ColumnDef::new("id", DataType::Int, false),
            ColumnDef::new("body", varchar(1200), false),
        ],
        vec![IndexDef::hash("pk", &[0], 4096, Uniqueness::PrimaryKey)],
    )
}

fn body(id: i32, version: u32) -> String {
    let stamp = format!("note {id} version {version}. ");
    stamp.repeat(900 / stamp.len() + 1)[..900].to_string()
}

fn committed_notes(db: &Database) -> BTreeMap<i32, String> {
    let table = db.table_named("dbo", "notes").expect("notes table");
    let mut tx = db.begin(IsolationLevel::Snapshot).unwrap();
    let mut notes = BTreeMap::new();
    for row in scan_rows(&mut tx, &table).unwrap() {
        let Value::String(text) = &row[1] else {
            panic!("a note's body is {:?}", row[1]);
        };
        assert!(
            notes.insert(int(&row[0]), text.clone()).is_none(),
            "note {:?} twice",
            row[0]
        );
    }
    tx.commit().unwrap();
    notes
}

#[track_caller]
fn expect_log_full<T>(result: SqlResult<T>, what: &str) {
    match result {
        Ok(_) => panic!("{what} succeeded on a full log"),
        Err(error) => {
            assert_eq!(error.number, LOG_FULL, "{what}: {error}");
            assert_eq!(
                error.message, "The transaction log for database 'db' is full due to 'DISK_FULL'.",
                "{what}"
            );
        }
    }
}

#[test]
fn a_full_disk_under_the_log_fails_commits_with_9002_and_keeps_every_acknowledged_one() {
    let Some(disk) = Tmpfs::mount("log-full", 2 << 20) else {
        return;
    };
    let scratch = Scratch::new("faults-log-full");
    let dir = disk.path.join("db");
    // Small segments so that a new one is needed often; no automatic
    // checkpoint, so nothing truncates the log.
    let storage = StorageConfig {
        log_segment_bytes: 128 << 10,
        data_file_bytes: 64 << 10,
        delta_file_bytes: 16 << 10,
        checkpoint_log_bytes: u64::MAX,
        ..StorageConfig::small()
    };
    let db = open_with(&dir, storage.clone()).expect("open on the tmpfs");
    let notes = db.create_table(notes_def()).expect("create notes");
    let mut model: BTreeMap<i32, String> = BTreeMap::new();
    let mut rng = Rng::new(0xd15c);
    let mut refused = None;
    for id in 0..100_000 {
        // An insert, and now and then an update or a delete of an older
        // note, applied to the model only if the commit is acknowledged.
        let mut tx = db.begin(IsolationLevel::Snapshot).unwrap();
        let mut changes = vec![(id, Some(body(id, 0)))];
        tx.insert(&notes, &[Value::Int(id), Value::String(body(id, 0))])
            .unwrap();
        if id % 4 == 3 {
            let old = rng.below(id as u64) as i32;
            if model.contains_key(&old) {
                let row = tx.get(&notes, 0, &[Value::Int(old)]).unwrap().unwrap();
                if id % 8 == 3 {
                    tx.delete(&notes, row).unwrap();
                    changes.push((old, None));
                } else {
                    tx.update(&notes, row, &[(1, Value::String(body(old, id as u32)))])
                        .unwrap();
                    changes.push((old, Some(body(old, id as u32))));
                }
            }
        }
        match tx.commit() {
            Ok(_) => {
                for (key, value) in changes {
                    match value {
                        Some(text) => model.insert(key, text),
                        None => model.remove(&key),
                    };
                }
            }
            Err(error) => {
                refused = Some((id, error));
                break;
            }
        }
    }
    let (failed_id, error) = refused.expect("the disk never filled up");
    eprintln!(
        "log full after {failed_id} commits: {error}; log files: {:?}",
        std::fs::read_dir(dir.join("log"))
            .unwrap()
            .map(|e| {
                let e = e.unwrap();
                (e.file_name(), e.metadata().unwrap().len())
            })
            .collect::<Vec<_>>()
    );
    assert_eq!(error.number, LOG_FULL, "the first failed commit: {error}");
    assert!(model.len() > 100, "only {} commits fitted", model.len());

    // The log takes nothing more: inserts, updates, deletes, catalog changes.
    let mut tx = db.begin(IsolationLevel::Snapshot).unwrap();
    tx.insert(
        &notes,
        &[Value::Int(failed_id + 1), Value::String(body(0, 0))],
    )
    .unwrap();
    expect_log_full(tx.commit(), "an insert after the failure");
    let some_id = *model.keys().next().unwrap();
    let mut tx = db.begin(IsolationLevel::Snapshot).unwrap();
    let row = tx.get(&notes, 0, &[Value::Int(some_id)]).unwrap().unwrap();
    tx.update(&notes, row, &[(1, Value::String(body(some_id, 999)))])
        .unwrap();
    expect_log_full(tx.commit(), "an update after the failure");
    let mut tx = db.begin(IsolationLevel::Snapshot).unwrap();
    let row = tx.get(&notes, 0, &[Value::Int(some_id)]).unwrap().unwrap();
    tx.delete(&notes, row).unwrap();
    expect_log_full(tx.commit(), "a delete after the failure");
    expect_log_full(db.create_table(accounts_def(8)), "CREATE TABLE");
    assert!(db.table_named("dbo", "accounts").is_none());
    expect_log_full(db.flush_log(), "flush_log");

    // Reads go on, and show exactly the acknowledged commits.
    assert!(committed_notes(&db) == model, "reads after the failure");
    drop(db);

    // Nothing acknowledged is lost and nothing refused appears, on a disk
    // with room, and the log goes on from there.
    let copy = scratch.0.join("db");
    copy_dir(&dir, &copy);
    let db = open_with(&copy, storage.clone()).expect("the copy opens");
    let found = committed_notes(&db);
    assert!(
        !found.contains_key(&failed_id),
        "the refused commit of note {failed_id} is there"
    );
    assert!(
        found == model,
        "acknowledged notes differ after recovery ({} found, {} expected)",
        found.len(),
        model.len()
    );
    let notes = db.table_named("dbo", "notes").unwrap();
    let mut tx = db.begin(IsolationLevel::Snapshot).unwrap();
    tx.insert(&notes, &[Value::Int(-1), Value::String(body(-1, 0))])
        .unwrap();
    tx.commit().expect("a commit on a disk with room");
    drop(db);
    model.insert(-1, body(-1, 0));
    let db = open_with(&copy, storage).expect("reopen");
    assert!(
        committed_notes(&db) == model,
        "after a restart on a disk with room"
    );
}

/// Fills `dir`'s file system with one file until it refuses more.
fn fill_disk(dir: &Path) -> PathBuf {
    use std::io::Write;
    let path = dir.join("filler");
    let mut file = std::fs::File::create(&path).expect("create filler");
    for chunk in [64 << 10, 4 << 10, 512] {
        let bytes = vec![0x5a_u8; chunk];
        loop {
            match file.write(&bytes) {
                Ok(n) if n == chunk => {}
                Ok(_) => break,
                Err(error) => {
                    assert_eq!(error.raw_os_error(), Some(libc::ENOSPC), "{error}");
                    break;
                }
            }
        }
    }
    path
}

#[track_caller]
fn assert_checkpoint_failed(result: SqlResult<hekla_engine::CheckpointReport>, dir: &Path) {
    let error = result.expect_err("a checkpoint on a full disk succeeded");
    eprintln!("checkpoint on a full disk: {error}");
    assert!(
        [OS_ERROR, LOG_FULL].contains(&error.number),
        "unexpected error {error}"
    );
    assert!(
        error.message.contains(&dir.display().to_string()),
        "the error should name a file of {}: {error}",
        dir.display()
    );
    if error.number == OS_ERROR {
        assert!(error.message.contains("os error 28"), "{error}");
    }
}

/// Storage for a small tmpfs: no automatic checkpoint, so each test
/// decides when one runs.
fn tmpfs_storage(log_segment_bytes: u64, data_file_bytes: u64) -> StorageConfig {
    StorageConfig {
        log_segment_bytes,
        data_file_bytes,
        delta_file_bytes: 16 << 10,
        checkpoint_log_bytes: u64::MAX,
        ..StorageConfig::small()
    }
}

/// Copies the database in `dir` (on the full disk) to a roomy one, opens
/// the copy and checks that it holds exactly `model`.
fn open_copy(
    dir: &Path,
    scratch: &Scratch,
    storage: &StorageConfig,
    model: &BTreeMap<i32, i64>,
) -> Database {
    let copy = scratch.0.join("db");
    copy_dir(dir, &copy);
    let db = open_with(&copy, storage.clone()).expect("the copy opens");
    assert_eq!(
        &committed_balances(&db, &accounts(&db)),
        model,
        "on a roomy disk"
    );
    db
}

#[test]
fn a_full_disk_during_a_checkpoint_fails_it_and_keeps_every_acknowledged_commit() {
    let Some(disk) = Tmpfs::mount("checkpoint-full", 4 << 20) else {
        return;
    };
    let scratch = Scratch::new("faults-checkpoint-full");
    let dir = disk.path.join("db");
    let storage = tmpfs_storage(512 << 10, 256 << 10);
    let db = open_with(&dir, storage.clone()).expect("open on the tmpfs");
    let table = create_accounts(&db);
    let mut model = BTreeMap::new();
    let mut commit = |db: &Database, ids: std::ops::Range<i32>| {
        let rows: Vec<(i32, i64)> = ids.map(|id| (id, id as i64 + 1)).collect();
        seed(db, &table, &rows);
        model.extend(rows);
    };
    for k in 0..3 {
        commit(&db, k * 100..k * 100 + 100);
    }
    db.checkpoint().expect("a checkpoint while there is room");
    commit(&db, 300..350);
    commit(&db, 350..400);

    let filler = fill_disk(&disk.path);
    assert_checkpoint_failed(db.checkpoint(), &dir);
    // Commits go on into the log (its segment was made before the disk
    // filled), and checkpoints stay failed until a restart.
    for k in 0..5 {
        commit(&db, 400 + k * 10..410 + k * 10);
    }
    assert_checkpoint_failed(db.checkpoint(), &dir);
    assert_eq!(committed_balances(&db, &accounts(&db)), model);
    drop(db);

    drop(open_copy(&dir, &scratch, &storage, &model));

    // With room again, the database recovers in place and checkpoints.
    std::fs::remove_file(filler).unwrap();
    let db = open_with(&dir, storage.clone()).expect("reopen in place");
    assert_eq!(committed_balances(&db, &accounts(&db)), model, "in place");
    db.checkpoint()
        .expect("a checkpoint once there is room again");
    drop(db);
    let db = open_with(&dir, storage).expect("reopen after the checkpoint");
    assert_eq!(committed_balances(&db, &accounts(&db)), model);
    assert!(db.recovery_report().unwrap().pairs_loaded > 0);
}

/// The disk fills after the checkpoint worker has reserved its files (the
/// pair under construction holds every row, a spare pair is precreated):
/// the checkpoint can seal its pair but not write its new root.
#[test]
fn a_full_disk_when_a_checkpoint_writes_its_root_fails_it_and_keeps_every_acknowledged_commit() {
    let Some(disk) = Tmpfs::mount("root-full", 4 << 20) else {
        return;
    };
    let scratch = Scratch::new("faults-root-full");
    let dir = disk.path.join("db");
    let storage = tmpfs_storage(512 << 10, 256 << 10);
    let db = open_with(&dir, storage.clone()).expect("open on the tmpfs");
    let table = create_accounts(&db);
    let mut model = BTreeMap::new();
    for k in 0..4 {
        let rows: Vec<(i32, i64)> = (k * 100..k * 100 + 100).map(|id| (id, 5)).collect();
        seed(&db, &table, &rows);
        model.extend(rows);
    }
    // The worker follows the log on its own; wait until it has filed every
    // row and reserved the next pair, as its file list shows. Asking more
    // often than the worker's 20 ms tick would starve it (see
    // `frequent_checkpoint_file_queries_do_not_starve_the_checkpoint_worker`).
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        let files = db.checkpoint_files();
        let filed = files
            .iter()
            .filter(|f| f.state == FileState::UnderConstruction)
            .map(|f| f.inserted_row_count)
            .sum::<u64>();
        let precreated = files.iter().any(|f| f.state == FileState::Precreated);
        if filed == model.len() as u64 && precreated {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the checkpoint worker never caught up: {files:#?}"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }

    let filler = fill_disk(&disk.path);
    let result = db.checkpoint();
    assert_checkpoint_failed(result.clone(), &dir);
    let error = result.unwrap_err();
    assert!(
        error
            .message
            .contains(&dir.join("hekla.root").display().to_string()),
        "the checkpoint should fail writing its root: {error}"
    );
    seed(&db, &table, &[(1000, 1)]);
    model.insert(1000, 1);
    assert_checkpoint_failed(db.checkpoint(), &dir);
    drop(db);

    drop(open_copy(&dir, &scratch, &storage, &model));

    std::fs::remove_file(filler).unwrap();
    let db = open_with(&dir, storage).expect("reopen in place");
    assert_eq!(committed_balances(&db, &accounts(&db)), model, "in place");
    db.checkpoint()
        .expect("a checkpoint once there is room again");
}

#[test]
fn checkpoint_files_too_large_for_the_disk_fail_checkpoints_but_not_commits() {
    let Some(disk) = Tmpfs::mount("preallocation", 2 << 20) else {
        return;
    };
    let scratch = Scratch::new("faults-preallocation");
    let dir = disk.path.join("db");
    // A data file's reservation alone is larger than the disk.
    let storage = tmpfs_storage(256 << 10, 8 << 20);
    let db = open_with(&dir, storage.clone()).expect("open on the tmpfs");
    let table = create_accounts(&db);
    let mut model = BTreeMap::new();
    for k in 0..4 {
        let rows: Vec<(i32, i64)> = (k * 50..k * 50 + 50).map(|id| (id, 3)).collect();
        seed(&db, &table, &rows);
        model.extend(rows);
    }
    let result = db.checkpoint();
    assert_checkpoint_failed(result.clone(), &dir);
    let error = result.unwrap_err();
    assert!(
        error
            .message
            .contains(&dir.join("data").display().to_string()),
        "the failure should name the data file it could not reserve: {error}"
    );
    seed(&db, &table, &[(1000, 1)]);
    model.insert(1000, 1);
    assert_checkpoint_failed(db.checkpoint(), &dir);
    drop(db);

    let db = open_copy(&dir, &scratch, &storage, &model);
    db.checkpoint().expect("a checkpoint on a disk with room");
}
