//! Multi-threaded stress tests, each bounded by a wall-clock deadline of a
//! few seconds. They check invariants that every committed state and every
//! snapshot must satisfy, whatever the interleaving:
//!
//! * bank transfers at SNAPSHOT keep the total constant in every snapshot;
//! * the on-call doctors rule survives a write-skew-prone workload at
//!   SERIALIZABLE;
//! * full scans of a 1,000-row table see each row exactly once while it is
//!   being updated;
//! * racing inserts into a unique index commit each key at most once;
//! * garbage collection keeps memory bounded under a steady update load,
//!   and a full collection frees everything no transaction can see;
//! * ordered scans of a range primary key see every account once, in
//!   order, with the original total, while transfers update the accounts
//!   and other threads insert and delete keys between them (splitting
//!   leaves and emptying chains), and SERIALIZABLE range readers commit
//!   only when no phantom appeared.

mod common;

use common::*;
use hekla_engine::{
    AbortReason, ColumnDef, Database, DatabaseConfig, IndexDef, IndexStats, IsolationLevel,
    KeyRange, Table, TableDef, Uniqueness,
};
use hekla_types::{DataType, SqlResult, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::ops::{Bound, ControlFlow};
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, Instant};

use IsolationLevel::{RepeatableRead, Serializable, Snapshot};

/// The tests below run one at a time: each loads every core for its whole
/// time budget, and the memory bound of the GC test assumes nobody else
/// keeps the machine oversubscribed.
fn exclusive() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Per-outcome counts of a worker thread.
#[derive(Default, Debug)]
struct Outcomes {
    commits: u64,
    /// By error number.
    failures: BTreeMap<u32, u64>,
}

impl Outcomes {
    /// Records a transaction's outcome; panics on an error nobody retries.
    fn record<T>(&mut self, result: SqlResult<T>, allowed: &[u32]) -> Option<T> {
        match result {
            Ok(value) => {
                self.commits += 1;
                Some(value)
            }
            Err(error) if allowed.contains(&error.number) => {
                *self.failures.entry(error.number).or_default() += 1;
                None
            }
            Err(error) => panic!("unexpected error: {error:?}"),
        }
    }

    fn merge(&mut self, other: Outcomes) {
        self.commits += other.commits;
        for (number, n) in other.failures {
            *self.failures.entry(number).or_default() += n;
        }
    }

    fn failed(&self, number: u32) -> u64 {
        self.failures.get(&number).copied().unwrap_or(0)
    }
}

fn transfer(
    db: &Database,
    accounts: &Arc<Table>,
    level: IsolationLevel,
    from: i32,
    to: i32,
    amount: i64,
) -> SqlResult<u64> {
    let mut tx = db.begin(level)?;
    add_balance(&mut tx, accounts, from, -amount)?;
    add_balance(&mut tx, accounts, to, amount)?;
    tx.commit()
}

/// Two distinct numbers in `0..n`.
fn pair(rng: &mut Rng, n: u64) -> (i32, i32) {
    let a = rng.below(n);
    let b = (a + 1 + rng.below(n - 1)) % n;
    (a as i32, b as i32)
}

// (a) Random transfers between 100 accounts from 4 threads at SNAPSHOT,
// retried on 41302. Every snapshot, read by a full scan or by primary-key
// lookups while the transfers run, holds all 100 accounts and the original
// total; so does the final state. The engine's counters agree with what
// the threads saw. (Readers may check before they commit: a SNAPSHOT
// writer without a log never fails once it prepares, so even speculative
// reads through a preparing writer are final.)
#[test]
fn bank_transfers_keep_the_total_in_every_snapshot() {
    let _serial = exclusive();
    const ACCOUNTS: i32 = 100;
    const TOTAL: i64 = 100 * 1_000;
    let db = Database::default();
    let accounts = create_accounts(&db);
    let rows: Vec<_> = (0..ACCOUNTS).map(|id| (id, TOTAL / 100)).collect();
    seed(&db, &accounts, &rows);
    let deadline = Instant::now() + Duration::from_millis(2000);

    let (writers, reads) = thread::scope(|s| {
        let writers: Vec<_> = (0..4u64)
            .map(|t| {
                let (db, accounts) = (&db, &accounts);
                s.spawn(move || {
                    let mut rng = Rng::new(t + 1);
                    let mut outcomes = Outcomes::default();
                    while Instant::now() < deadline {
                        let (from, to) = pair(&mut rng, ACCOUNTS as u64);
                        let amount = 1 + rng.below(100) as i64;
                        let result = transfer(db, accounts, Snapshot, from, to, amount);
                        outcomes.record(result, &[WRITE_CONFLICT, DEPENDENCY_FAILURE]);
                    }
                    outcomes
                })
            })
            .collect();
        let scanner = s.spawn(|| {
            let mut reads = 0u64;
            while Instant::now() < deadline {
                let mut tx = db.begin(Snapshot).unwrap();
                let seen = balances(&mut tx, &accounts).unwrap();
                assert_eq!(seen.len(), ACCOUNTS as usize, "accounts in a snapshot");
                assert_eq!(seen.values().sum::<i64>(), TOTAL, "total in a scan");
                tx.commit().unwrap();
                reads += 1;
            }
            reads
        });
        let prober = s.spawn(|| {
            let mut reads = 0u64;
            while Instant::now() < deadline {
                let mut tx = db.begin(Snapshot).unwrap();
                let total: i64 = (0..ACCOUNTS)
                    .map(|id| balance(&mut tx, &accounts, id).expect("account"))
                    .sum();
                assert_eq!(total, TOTAL, "total by lookups");
                tx.commit().unwrap();
                reads += 1;
            }
            reads
        });
        let mut writes = Outcomes::default();
        for writer in writers {
            writes.merge(writer.join().unwrap());
        }
        let reads = scanner.join().unwrap() + prober.join().unwrap();
        (writes, reads)
    });

    assert!(writers.commits > 100, "too little progress: {writers:?}");
    assert!(reads > 10, "too few snapshot reads: {reads}");
    let committed = committed_balances(&db, &accounts);
    assert_eq!(committed.len(), ACCOUNTS as usize);
    assert_eq!(committed.values().sum::<i64>(), TOTAL);

    let stats = db.stats();
    // seed + transfers + snapshot reads + the final read above
    assert_eq!(stats.commits, 1 + writers.commits + reads + 1);
    assert_eq!(
        stats.aborts_for(AbortReason::WriteConflict),
        writers.failed(WRITE_CONFLICT)
    );
    assert_eq!(
        stats.aborts_for(AbortReason::CommitDependency),
        writers.failed(DEPENDENCY_FAILURE)
    );
    assert_eq!(
        stats.total_aborts(),
        writers.failed(WRITE_CONFLICT) + writers.failed(DEPENDENCY_FAILURE),
        "each failed transfer aborts exactly once: {stats:?}"
    );
}

// (b) Write skew at SERIALIZABLE: pairs of on-call doctors (the `balance`
// column holds 1 for on call, 0 for off). Rule: at least one doctor of each
// pair is on call. Each transaction reads both doctors of a pair and takes
// one off call only if the other is on call, or puts an off-call doctor
// back. At SNAPSHOT two such transactions can take both off call (see
// anomalies.rs); at SERIALIZABLE no committed state may ever show a pair
// with both off call: not the final one, nor any snapshot that a reader
// (or a worker) saw and then committed. A read through a transaction that
// is still preparing is speculative: if that transaction then fails
// validation, what the reader saw never existed, and its commit must fail
// with 41301 instead.
#[test]
fn on_call_doctors_never_both_off_at_serializable() {
    let _serial = exclusive();
    const PAIRS: u64 = 8;
    let db = Database::default();
    let doctors = create_accounts(&db);
    let rows: Vec<_> = (0..2 * PAIRS as i32).map(|id| (id, 1)).collect();
    seed(&db, &doctors, &rows);
    let deadline = Instant::now() + Duration::from_millis(2000);

    let check = |state: &BTreeMap<i32, i64>, context: &str| {
        assert_eq!(state.len(), 2 * PAIRS as usize);
        for p in 0..PAIRS as i32 {
            assert!(
                state[&(2 * p)] + state[&(2 * p + 1)] >= 1,
                "pair {p} has nobody on call ({context}): {state:?}"
            );
        }
    };

    let (outcomes, went_off) = thread::scope(|s| {
        let workers: Vec<_> = (0..4u64)
            .map(|t| {
                let (db, doctors) = (&db, &doctors);
                s.spawn(move || {
                    let mut rng = Rng::new(100 + t);
                    let mut outcomes = Outcomes::default();
                    let mut went_off = 0u64;
                    while Instant::now() < deadline {
                        let p = rng.below(PAIRS) as i32;
                        let (a, b) = (2 * p, 2 * p + 1);
                        let take_off = if rng.below(2) == 0 { a } else { b };
                        let result = (|| -> SqlResult<bool> {
                            let mut tx = db.begin(Serializable)?;
                            let on_a = try_balance(&mut tx, doctors, a)?.expect("doctor");
                            let on_b = try_balance(&mut tx, doctors, b)?.expect("doctor");
                            // Let another transaction interleave here.
                            thread::yield_now();
                            let off = on_a + on_b == 2;
                            if off {
                                set_balance(&mut tx, doctors, take_off, 0)?;
                            } else {
                                set_balance(&mut tx, doctors, if on_a == 0 { a } else { b }, 1)?;
                            }
                            tx.commit()?;
                            assert!(
                                on_a + on_b >= 1,
                                "committed after reading pair {p} with nobody on call"
                            );
                            Ok(off)
                        })();
                        let allowed = [
                            WRITE_CONFLICT,
                            REPEATABLE_READ_FAILURE,
                            SERIALIZABLE_FAILURE,
                            DEPENDENCY_FAILURE,
                        ];
                        if outcomes.record(result, &allowed) == Some(true) {
                            went_off += 1;
                        }
                    }
                    (outcomes, went_off)
                })
            })
            .collect();
        let reader = s.spawn(|| {
            let mut outcomes = Outcomes::default();
            while Instant::now() < deadline {
                let mut tx = db.begin(Snapshot).unwrap();
                // A scan may fail at once once a writer it read from has
                // aborted (41301); otherwise judge it only if it commits.
                let rows = scan_rows(&mut tx, &doctors);
                let committed = match rows {
                    Ok(rows) => outcomes
                        .record(tx.commit(), &[DEPENDENCY_FAILURE])
                        .map(|_| rows),
                    Err(e) => {
                        outcomes.record::<u64>(Err(e), &[DEPENDENCY_FAILURE]);
                        None
                    }
                };
                if let Some(rows) = committed {
                    check(&balances_of(rows), "committed concurrent snapshot");
                }
            }
            outcomes
        });
        let mut outcomes = Outcomes::default();
        let mut went_off = 0;
        for worker in workers {
            let (o, w) = worker.join().unwrap();
            outcomes.merge(o);
            went_off += w;
        }
        let reads = reader.join().unwrap();
        assert!(reads.commits > 10, "too few snapshot reads: {reads:?}");
        (outcomes, went_off)
    });

    check(&committed_balances(&db, &doctors), "final state");
    assert!(
        outcomes.commits > 100 && went_off > 10,
        "too little progress: {outcomes:?}, {went_off} went off call"
    );
}

// Snapshot consistency of full scans over a larger table: two threads
// increment random rows of 1,000 while a reader scans. Every scan must see
// each row exactly once (never both the old and the new version of a row
// updated at the scan's read timestamp, never neither), and since each
// snapshot is later than the previous one, no row's value may go down.
// (All writers are SNAPSHOT, so checking before the commit is sound; see
// the bank test.)
#[test]
fn snapshot_scans_see_each_row_exactly_once_under_updates() {
    let _serial = exclusive();
    const ROWS: i32 = 1_000;
    let db = Database::default();
    let accounts = create_accounts(&db);
    let rows: Vec<_> = (0..ROWS).map(|id| (id, 0)).collect();
    seed(&db, &accounts, &rows);
    let deadline = Instant::now() + Duration::from_millis(2000);

    let scans = thread::scope(|s| {
        for t in 0..2u64 {
            let (db, accounts) = (&db, &accounts);
            s.spawn(move || {
                let mut rng = Rng::new(500 + t);
                let mut outcomes = Outcomes::default();
                while Instant::now() < deadline {
                    let id = rng.below(ROWS as u64) as i32;
                    let result = (|| -> SqlResult<u64> {
                        let mut tx = db.begin(Snapshot)?;
                        add_balance(&mut tx, accounts, id, 1)?;
                        tx.commit()
                    })();
                    outcomes.record(result, &[WRITE_CONFLICT]);
                }
            });
        }
        let mut previous = BTreeMap::new();
        let mut scans = 0u64;
        while Instant::now() < deadline {
            let mut tx = db.begin(Snapshot).unwrap();
            let seen = balances(&mut tx, &accounts).unwrap();
            let missing: Vec<_> = (0..ROWS).filter(|id| !seen.contains_key(id)).collect();
            assert!(
                missing.is_empty(),
                "rows missing from the snapshot at {}: {missing:?}",
                tx.read_timestamp()
            );
            for (id, value) in &seen {
                let before = previous.get(id).copied().unwrap_or(0);
                assert!(*value >= before, "row {id} went from {before} to {value}");
            }
            tx.commit().unwrap();
            previous = seen;
            scans += 1;
        }
        scans
    });
    assert!(scans > 10, "too few scans: {scans}");
}

/// `tickets(id bigint PRIMARY KEY, code int)` with `CREATE UNIQUE INDEX
/// ux_code (code)`; both hash indexes are small so chains are shared.
fn tickets(db: &Database) -> Arc<Table> {
    db.create_table(TableDef::new(
        "tickets",
        vec![
            ColumnDef::new("id", DataType::BigInt, false),
            ColumnDef::new("code", DataType::Int, false),
        ],
        vec![
            IndexDef::hash("pk_tickets", &[0], 256, Uniqueness::PrimaryKey),
            IndexDef::hash("ux_code", &[1], 64, Uniqueness::UniqueIndex),
        ],
    ))
    .unwrap()
}

/// The rows with `code`, as (id, code), by the unique index.
fn tickets_with_code(
    tx: &mut hekla_engine::Transaction,
    table: &Arc<Table>,
    code: i32,
) -> SqlResult<Vec<(i64, i32)>> {
    let mut found = Vec::new();
    tx.lookup::<()>(table, 1, &[Value::Int(code)], |row| {
        found.push((bigint(&row.value(0)), int(&row.value(1))));
        ControlFlow::Continue(())
    })?;
    Ok(found)
}

// (c) Racing inserts into a unique index. Four threads walk the same codes
// in the same order, so they race for every code; some insert two codes per
// transaction, and the RR/SERIALIZABLE ones look the code up first. Losers
// get 2601 (committed duplicate), 41302 (uncommitted duplicate) or a
// validation failure. Invariants: no snapshot ever holds a code twice; no
// code is committed twice; the final table holds exactly the committed
// (id, code) pairs.
#[test]
fn racing_inserts_commit_each_unique_key_at_most_once() {
    let _serial = exclusive();
    const CODES: i32 = 4000;
    let db = Database::default();
    let table = tickets(&db);
    let next_id = AtomicI64::new(1);
    let deadline = Instant::now() + Duration::from_millis(2000);

    let (committed, outcomes) = thread::scope(|s| {
        let inserters: Vec<_> = (0..4usize)
            .map(|t| {
                let (db, table, next_id) = (&db, &table, &next_id);
                s.spawn(move || {
                    let level = [Snapshot, RepeatableRead, Serializable, Snapshot][t];
                    let per_txn = if t == 3 { 2 } else { 1 };
                    let mut committed = Vec::new();
                    let mut outcomes = Outcomes::default();
                    let mut code = 0;
                    while code < CODES && Instant::now() < deadline {
                        let codes: Vec<i32> = (code..code + per_txn).collect();
                        code += per_txn;
                        let result = (|| -> SqlResult<Vec<(i64, i32)>> {
                            let mut tx = db.begin(level)?;
                            let mut rows = Vec::new();
                            for &c in &codes {
                                if level != Snapshot
                                    && !tickets_with_code(&mut tx, table, c)?.is_empty()
                                {
                                    continue;
                                }
                                let id = next_id.fetch_add(1, Ordering::Relaxed);
                                tx.insert(table, &[Value::BigInt(id), Value::Int(c)])?;
                                rows.push((id, c));
                            }
                            tx.commit()?;
                            Ok(rows)
                        })();
                        let allowed = [
                            DUPLICATE_INDEX,
                            WRITE_CONFLICT,
                            REPEATABLE_READ_FAILURE,
                            SERIALIZABLE_FAILURE,
                            DEPENDENCY_FAILURE,
                        ];
                        if let Some(rows) = outcomes.record(result, &allowed) {
                            committed.extend(rows);
                        }
                    }
                    (committed, outcomes)
                })
            })
            .collect();
        // What a reader saw holds only if it commits: RR and SERIALIZABLE
        // inserters can still fail after they start preparing, and a read
        // through them is speculative (41301 at commit if they fail).
        let reader = s.spawn(|| {
            let mut rng = Rng::new(7);
            let mut outcomes = Outcomes::default();
            while Instant::now() < deadline {
                let mut tx = db.begin(Snapshot).unwrap();
                let scanned: Vec<i32> = scan_rows(&mut tx, &table)
                    .unwrap()
                    .iter()
                    .map(|row| int(&row[1]))
                    .collect();
                let probes: Vec<(i32, usize)> = (0..20)
                    .map(|_| {
                        let code = rng.below(CODES as u64) as i32;
                        (
                            code,
                            tickets_with_code(&mut tx, &table, code).unwrap().len(),
                        )
                    })
                    .collect();
                if outcomes
                    .record(tx.commit(), &[DEPENDENCY_FAILURE])
                    .is_none()
                {
                    continue;
                }
                let mut codes = BTreeSet::new();
                for code in scanned {
                    assert!(codes.insert(code), "code {code} twice in a snapshot");
                }
                for (code, found) in probes {
                    assert_eq!(found, usize::from(codes.contains(&code)), "code {code}");
                }
            }
            outcomes
        });
        let mut committed = Vec::new();
        let mut outcomes = Outcomes::default();
        for inserter in inserters {
            let (c, o) = inserter.join().unwrap();
            committed.extend(c);
            outcomes.merge(o);
        }
        let reads = reader.join().unwrap();
        assert!(reads.commits > 10, "too few snapshot reads: {reads:?}");
        (committed, outcomes)
    });

    let mut by_code = BTreeMap::new();
    for &(id, code) in &committed {
        if let Some(other) = by_code.insert(code, id) {
            panic!("code {code} committed twice, as ids {other} and {id}");
        }
    }
    assert!(committed.len() > 100, "too little progress: {outcomes:?}");
    assert!(
        outcomes.failed(DUPLICATE_INDEX) + outcomes.failed(WRITE_CONFLICT) > 0,
        "the threads never raced: {outcomes:?}"
    );

    let mut tx = db.begin(Snapshot).unwrap();
    let mut present: Vec<(i64, i32)> = scan_rows(&mut tx, &table)
        .unwrap()
        .iter()
        .map(|row| (bigint(&row[0]), int(&row[1])))
        .collect();
    present.sort_unstable();
    let mut expected = committed.clone();
    expected.sort_unstable();
    assert_eq!(
        present, expected,
        "the table holds exactly the committed rows"
    );
    for (&code, &id) in &by_code {
        assert_eq!(
            tickets_with_code(&mut tx, &table, code).unwrap(),
            vec![(id, code)]
        );
    }
    tx.commit().unwrap();
}

// (d) Garbage collection under a steady update load: two threads increment
// random rows of 1,000 for ~3 s. Pages are never returned, so the heap's
// allocated bytes must level off once collection keeps pace: from 1 s to
// the end they may grow by at most 2% of what the updates' replaced
// versions would take if none were reused (1 MiB at least). The slack is
// room for the garbage of a pinned thread descheduled on a loaded machine
// (1.1 MiB was seen in CI after 4 million updates, under 1% of their
// versions); it scales with the update rate, because garbage piles up at
// that rate, so a slow machine neither fails the test nor blunts it.
// After a final collection the live versions are bounded (at most 3 per
// row) and every row holds the number of increments committed to it.
#[test]
fn garbage_collection_bounds_memory_under_updates() {
    let _serial = exclusive();
    const ROWS: i32 = 1_000;
    const MIN_SLACK: u64 = 1024 * 1024;
    // A row version is at least two header words, one index link and a
    // payload of a few bytes.
    const MIN_VERSION_BYTES: u64 = 32;
    let db = Database::default();
    let accounts = create_accounts(&db);
    let rows: Vec<_> = (0..ROWS).map(|id| (id, 0)).collect();
    seed(&db, &accounts, &rows);
    let increments: Vec<AtomicU64> = (0..ROWS).map(|_| AtomicU64::new(0)).collect();
    let start = Instant::now();
    let deadline = start + Duration::from_millis(3000);

    let (outcomes, after_one_second) = thread::scope(|s| {
        let workers: Vec<_> = (0..2u64)
            .map(|t| {
                let (db, accounts, increments) = (&db, &accounts, &increments);
                s.spawn(move || {
                    let mut rng = Rng::new(1000 + t);
                    let mut outcomes = Outcomes::default();
                    while Instant::now() < deadline {
                        let id = rng.below(ROWS as u64) as i32;
                        let result = (|| -> SqlResult<u64> {
                            let mut tx = db.begin(Snapshot)?;
                            add_balance(&mut tx, accounts, id, 1)?;
                            tx.commit()
                        })();
                        if outcomes.record(result, &[WRITE_CONFLICT]).is_some() {
                            increments[id as usize].fetch_add(1, Ordering::Relaxed);
                        }
                    }
                    outcomes
                })
            })
            .collect();
        thread::sleep((start + Duration::from_secs(1)).saturating_duration_since(Instant::now()));
        let after_one_second = accounts.memory_stats().rows.allocated_bytes;
        let mut outcomes = Outcomes::default();
        for worker in workers {
            outcomes.merge(worker.join().unwrap());
        }
        (outcomes, after_one_second)
    });
    let at_end = accounts.memory_stats().rows.allocated_bytes;
    assert!(
        outcomes.commits > 1_000,
        "too few updates to exercise the collector: {outcomes:?}"
    );
    let slack = MIN_SLACK.max(outcomes.commits * MIN_VERSION_BYTES / 50);
    assert!(
        at_end <= after_one_second + slack,
        "the heap kept growing: {after_one_second} bytes after 1 s, {at_end} at the end \
         ({} updates)",
        outcomes.commits
    );

    // Collect everything; slots return to the heap one epoch later, which
    // the lookups below (they pin) help along.
    db.collect_garbage();
    let settle = Instant::now() + Duration::from_secs(2);
    loop {
        let mut tx = db.begin(Snapshot).unwrap();
        for id in 0..ROWS {
            let expected = increments[id as usize].load(Ordering::Relaxed) as i64;
            assert_eq!(balance(&mut tx, &accounts, id), Some(expected), "row {id}");
        }
        tx.commit().unwrap();
        db.collect_garbage();
        let live = accounts.memory_stats().rows.live_slots;
        // Every committed update ended one version: each is collected or
        // still queued, none lost, none collected twice.
        let (collected, pending) = (db.garbage_collected(), db.garbage_pending() as u64);
        if live <= 3 * ROWS as u64 && collected + pending == outcomes.commits {
            break;
        }
        assert!(
            Instant::now() < settle,
            "after garbage collection: {live} live versions for {ROWS} rows; \
             {collected} old versions collected and {pending} queued of {}",
            outcomes.commits
        );
        thread::sleep(Duration::from_millis(10));
    }
    let stats = accounts.memory_stats();
    let (_, IndexStats::Hash(pk)) = &stats.indexes[0] else {
        panic!("a hash index")
    };
    let linked = (pk.avg_chain_length * (pk.total_bucket_count - pk.empty_bucket_count) as f64)
        .round() as i32;
    assert_eq!(linked, ROWS, "index entries after collection: {pk:?}");
    assert_eq!(committed_balances(&db, &accounts).len(), ROWS as usize);
}

// With no transaction active, a full collection frees every version that
// was ended, including those ended by the latest commit: a version ended
// at timestamp T is invisible to every transaction reading at T or later,
// and every future transaction reads at T or later.
#[test]
fn collect_garbage_frees_versions_ended_by_the_latest_commit() {
    let db = Database::new(DatabaseConfig {
        gc_interval: None,
        ..DatabaseConfig::default()
    });
    let accounts = create_accounts(&db);
    seed(&db, &accounts, &[(1, 0), (2, 0)]);
    for round in 1..=3 {
        let mut tx = db.begin(Snapshot).unwrap();
        set_balance(&mut tx, &accounts, 1, round).unwrap();
        delete_account(&mut tx, &accounts, 2).unwrap();
        tx.insert(&accounts, &[Value::Int(2), Value::BigInt(round)])
            .unwrap();
        tx.commit().unwrap();
        db.collect_garbage();
        assert_eq!(db.garbage_pending(), 0, "round {round}");
        assert_eq!(db.garbage_collected(), 2 * round as u64, "round {round}");
    }
    assert_eq!(
        committed_balances(&db, &accounts),
        BTreeMap::from([(1, 3), (2, 3)])
    );
}

// (f) A range primary key under churn. Accounts have even ids 0, 2, ...;
// two threads transfer between them (new versions in the same key chains,
// old ones unlinked by the collector); one thread inserts odd ids with a
// zero balance and deletes them again (new keys between the accounts, leaf
// splits, keys whose chains empty). Ordered scans of the whole index must
// see ids strictly increasing, every account exactly once and the original
// total. A SERIALIZABLE reader sums a sub-range twice, then commits: if it
// commits, no odd id may have appeared or vanished in between, which the
// second sum would otherwise not notice (zero balances), so the check is
// the commit outcome itself against what the inserter did.
#[test]
fn range_scans_stay_ordered_and_complete_under_churn() {
    let _serial = exclusive();
    const ACCOUNTS: i32 = 300;
    const TOTAL: i64 = ACCOUNTS as i64 * 100;
    let db = Database::default();
    let accounts = db.create_table(accounts_range_def()).unwrap();
    let rows: Vec<_> = (0..ACCOUNTS).map(|n| (n * 2, 100)).collect();
    seed(&db, &accounts, &rows);
    let deadline = Instant::now() + Duration::from_millis(2000);
    let ordered_ids = |tx: &mut hekla_engine::Transaction, range: &KeyRange| {
        let mut seen = Vec::new();
        tx.scan_range::<()>(&accounts, 0, range, |row| {
            seen.push((int(&row.value(0)), bigint(&row.value(1))));
            ControlFlow::Continue(())
        })
        .map(|_| seen)
    };
    let (transfers, serializable) = thread::scope(|s| {
        let writers: Vec<_> = (0..2u64)
            .map(|t| {
                let (db, accounts) = (&db, &accounts);
                s.spawn(move || {
                    let mut rng = Rng::new(700 + t);
                    let mut outcomes = Outcomes::default();
                    while Instant::now() < deadline {
                        let (from, to) = pair(&mut rng, ACCOUNTS as u64);
                        let result = transfer(
                            db,
                            accounts,
                            Snapshot,
                            from * 2,
                            to * 2,
                            1 + rng.below(50) as i64,
                        );
                        outcomes.record(result, &[WRITE_CONFLICT, DEPENDENCY_FAILURE]);
                    }
                    outcomes
                })
            })
            .collect();
        s.spawn(|| {
            let mut rng = Rng::new(800);
            while Instant::now() < deadline {
                let odd = rng.below(ACCOUNTS as u64) as i32 * 2 + 1;
                let mut tx = db.begin(Snapshot).unwrap();
                let result = match tx.get(&accounts, 0, &[Value::Int(odd)]) {
                    Ok(Some(row)) => tx.delete(&accounts, row),
                    Ok(None) => tx
                        .insert(&accounts, &[Value::Int(odd), Value::BigInt(0)])
                        .map(|_| ()),
                    Err(error) => Err(error),
                };
                let _ = result.and_then(|()| tx.commit().map(|_| ()));
            }
        });
        let serializable = s.spawn(|| {
            let mut outcomes = Outcomes::default();
            let mut rng = Rng::new(900);
            while Instant::now() < deadline {
                let low = rng.below(ACCOUNTS as u64 * 2) as i32;
                let range = KeyRange::new(
                    Bound::Included(vec![Value::Int(low)]),
                    Bound::Excluded(vec![Value::Int(low + 40)]),
                );
                let result = (|| {
                    let mut tx = db.begin(Serializable)?;
                    let first = ordered_ids(&mut tx, &range)?;
                    thread::sleep(Duration::from_micros(200));
                    let second = ordered_ids(&mut tx, &range)?;
                    assert_eq!(first, second, "a snapshot changed under a reader");
                    tx.commit()
                })();
                outcomes.record(
                    result,
                    &[
                        SERIALIZABLE_FAILURE,
                        REPEATABLE_READ_FAILURE,
                        DEPENDENCY_FAILURE,
                    ],
                );
            }
            outcomes
        });
        let mut scans = 0;
        while Instant::now() < deadline {
            let mut tx = db.begin(Snapshot).unwrap();
            let seen = ordered_ids(&mut tx, &KeyRange::all()).unwrap();
            assert!(seen.windows(2).all(|w| w[0].0 < w[1].0), "ids out of order");
            let evens: Vec<i32> = seen.iter().map(|r| r.0).filter(|id| id % 2 == 0).collect();
            assert_eq!(
                evens,
                (0..ACCOUNTS).map(|n| n * 2).collect::<Vec<_>>(),
                "accounts in a scan"
            );
            assert_eq!(
                seen.iter().map(|r| r.1).sum::<i64>(),
                TOTAL,
                "total in a scan"
            );
            tx.commit().unwrap();
            scans += 1;
        }
        assert!(scans > 10, "too few scans: {scans}");
        let mut transfers = Outcomes::default();
        for writer in writers {
            transfers.merge(writer.join().unwrap());
        }
        (transfers, serializable.join().unwrap())
    });
    assert!(
        transfers.commits > 100,
        "too little progress: {transfers:?}"
    );
    assert!(
        serializable.commits > 0 && serializable.failed(SERIALIZABLE_FAILURE) > 0,
        "{serializable:?}"
    );
    db.collect_garbage();
    let committed = committed_balances(&db, &accounts);
    assert_eq!(committed.values().sum::<i64>(), TOTAL);
    let IndexStats::Range(pk) = &accounts.memory_stats().indexes[0].1 else {
        panic!("a range index")
    };
    assert_eq!(pk.distinct_keys, committed.len() as u64, "{pk:?}");
}
