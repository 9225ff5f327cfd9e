//! Crash tests with real processes: this test binary starts itself again as
//! a child that commits as fast as it can from several threads (and
//! checkpoints every few milliseconds), SIGKILLs it at a random moment, and
//! checks what a restart finds against what the child had acknowledged.
//!
//! A SIGKILL loses nothing the child wrote with a system call (the page
//! cache survives the process), so these tests find bugs in the order and
//! the atomicity of the engine's writes — a commit acknowledged before its
//! log block was written, a root naming files not yet complete, recovery
//! that cannot cope with a torn last flush or with files left half-made by
//! a checkpoint, a merge or an earlier recovery — not in the disk's own
//! behaviour on power loss.
//!
//! The parent verifies each crash on a copy of the directory, so that the
//! next child recovers the crashed files itself (and is sometimes killed in
//! the middle of that recovery too).
//!
//! `HEKLA_CRASH_CYCLES=n` runs `n` kill cycles per test instead of the
//! default; `HEKLA_CRASH_SEED=s` (decimal or 0x-hex) replays a run.

mod common;

use common::*;
use hekla_engine::{
    ColumnDef, Database, DatabaseConfig, DelayedDurability, IndexDef, IsolationLevel,
    StorageConfig, Table, TableDef, Uniqueness,
};
use hekla_types::{DataType, SqlResult, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Environment variables that turn the ignored `crash_child` test into the
/// child's body; without them it returns at once.
const ENV_DIR: &str = "HEKLA_CRASH_CHILD_DIR";
const ENV_MODE: &str = "HEKLA_CRASH_CHILD_MODE";
const ENV_SEED: &str = "HEKLA_CRASH_CHILD_SEED";

const DEFAULT_SEED: u64 = 0x4845_4b4c_4121;

/// Writer threads of the child in the ordinary mode.
const WRITERS: i32 = 3;
/// Accounts of the fixed-total transfer table, and each one's opening balance.
const ACCOUNTS: i32 = 32;
const OPENING_BALANCE: i64 = 1_000;
/// Rows every transaction inserts into `items`.
const PARTS: i32 = 3;
/// A writer's transaction `s` deletes the items of its transaction
/// `s - KEEP`, so exactly the items of its last `KEEP` commits are live.
const KEEP: i32 = 4;
/// Exit code of a child that failed by itself (a panic) rather than being killed.
const CHILD_FAILED: i32 = 86;
/// Starts every line the child says; the test harness writes to the same
/// stdout, and its "test crash_child ... " has no newline of its own.
const MARKER: &str = "hekla-crash-child:";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// Several writers, every commit durable before it is acknowledged.
    Durable,
    /// One writer under DELAYED_DURABILITY = FORCED, which makes its
    /// commits durable only at `flush_log` (or any later flush).
    Delayed,
}

impl Mode {
    fn name(self) -> &'static str {
        match self {
            Mode::Durable => "durable",
            Mode::Delayed => "delayed",
        }
    }

    fn parse(name: &str) -> Mode {
        match name {
            "durable" => Mode::Durable,
            "delayed" => Mode::Delayed,
            other => panic!("unknown crash child mode {other:?}"),
        }
    }

    fn writers(self) -> i32 {
        match self {
            Mode::Durable => WRITERS,
            Mode::Delayed => 1,
        }
    }
}

// ---------------------------------------------------------------------------
// The tables, shared by child and parent.

/// `items(thread, seq, part, payload)`: the multi-row part of every
/// transaction, so that a half-recovered transaction shows.
fn items_def() -> TableDef {
    TableDef::new(
        "items",
        vec![
            ColumnDef::new("thread", DataType::Int, false),
            ColumnDef::new("seq", DataType::Int, false),
            ColumnDef::new("part", DataType::Int, false),
            ColumnDef::new("payload", varchar(300), false),
        ],
        vec![IndexDef::hash(
            "pk",
            &[0, 1, 2],
            4096,
            Uniqueness::PrimaryKey,
        )],
    )
}

/// `ledger(thread, seq)`: one row per commit, never deleted: the record of
/// exactly which commits happened.
fn ledger_def() -> TableDef {
    TableDef::new(
        "ledger",
        vec![
            ColumnDef::new("thread", DataType::Int, false),
            ColumnDef::new("seq", DataType::Int, false),
        ],
        vec![IndexDef::hash(
            "pk",
            &[0, 1],
            1 << 16,
            Uniqueness::PrimaryKey,
        )],
    )
}

/// `progress(id = thread, balance = last seq)`: updated by every commit.
fn progress_def() -> TableDef {
    let mut def = accounts_def(16);
    def.name = "progress".into();
    def
}

/// An item's payload: derived from its key, of varying length, so that a
/// row recovered with the wrong bytes is noticed.
fn payload(thread: i32, seq: i32, part: i32) -> String {
    let len = 40 + (seq as usize * 31 + part as usize * 7 + thread as usize) % 220;
    let stamp = format!("{thread}/{seq}/{part};");
    stamp.repeat(len / stamp.len() + 1)[..len].to_string()
}

struct Tables {
    items: Arc<Table>,
    ledger: Arc<Table>,
    progress: Arc<Table>,
    accounts: Arc<Table>,
}

// ---------------------------------------------------------------------------
// The child.

/// One line to the parent, written with a single system call once the
/// thing it reports has happened; a line the parent reads was said.
fn say(line: String) {
    let mut out = std::io::stdout().lock();
    // A write error means the parent has gone: the panic hook ends us.
    out.write_all(format!("{MARKER}{line}\n").as_bytes())
        .and_then(|()| out.flush())
        .expect("parent reads our stdout");
}

#[test]
#[ignore = "the body of the child process that the crash tests start and kill"]
fn crash_child() {
    let Some(dir) = std::env::var_os(ENV_DIR) else {
        return;
    };
    let mode = Mode::parse(&std::env::var(ENV_MODE).expect("mode"));
    let seed: u64 = std::env::var(ENV_SEED)
        .expect("seed")
        .parse()
        .expect("numeric seed");
    // Any panic, on any thread, ends the process at once with a code the
    // parent tells from its own SIGKILL.
    std::panic::set_hook(Box::new(|info| {
        eprintln!("crash child failed: {info}");
        std::process::exit(CHILD_FAILED);
    }));

    let db = Database::open(&dir, DatabaseConfig::default(), StorageConfig::small())
        .unwrap_or_else(|e| panic!("open: {e}"));
    let tables = child_setup(&db, mode);
    say("ready".into());
    std::thread::scope(|scope| {
        let db = &db;
        let tables = &tables;
        scope.spawn(move || child_checkpointer(db, mode, seed));
        for thread in 1..=mode.writers() {
            scope.spawn(move || child_writer(db, tables, mode, thread, seed));
        }
    });
}

/// Creates whatever tables an earlier child did not get to (it may have
/// been killed between two of them), and funds the accounts once.
fn child_setup(db: &Database, mode: Mode) -> Tables {
    let table = |def: TableDef| {
        let name = def.name.clone();
        db.table_named("dbo", &name).unwrap_or_else(|| {
            db.create_table(def)
                .unwrap_or_else(|e| panic!("create {name}: {e}"))
        })
    };
    let tables = Tables {
        items: table(items_def()),
        ledger: table(ledger_def()),
        progress: table(progress_def()),
        accounts: table(accounts_def(256)),
    };
    // Funding is one transaction, so the accounts are either all there
    // with the full total or not there at all.
    if committed_balances(db, &tables.accounts).is_empty() {
        let rows: Vec<(i32, i64)> = (0..ACCOUNTS).map(|id| (id, OPENING_BALANCE)).collect();
        seed(db, &tables.accounts, &rows);
    }
    if mode == Mode::Delayed && db.delayed_durability() != DelayedDurability::Forced {
        db.set_delayed_durability(DelayedDurability::Forced)
            .unwrap_or_else(|e| panic!("set delayed durability: {e}"));
    }
    tables
}

/// Checkpoints every few milliseconds, so that kills land in the middle of
/// checkpoints and merges. The sleep paces the loop; nothing waits on it.
fn child_checkpointer(db: &Database, mode: Mode, seed: u64) {
    let mut rng = Rng::new(seed ^ 0xc0ff_ee00);
    let pause = match mode {
        Mode::Durable => 2..12,
        Mode::Delayed => 5..30,
    };
    loop {
        std::thread::sleep(Duration::from_millis(
            pause.start + rng.below(pause.end - pause.start),
        ));
        let report = db
            .checkpoint()
            .unwrap_or_else(|e| panic!("checkpoint: {e}"));
        say(format!(
            "checkpoint {} {}",
            report.pairs_sealed, report.merges
        ));
    }
}

/// Commits sequence numbers `last + 1, last + 2, ...` for ever, where
/// `last` is what the database recovered for this thread. Says `ack` after
/// each commit returns, and, when delayed, `flushed` after `flush_log`.
fn child_writer(db: &Database, tables: &Tables, mode: Mode, thread: i32, seed: u64) {
    let mut rng = Rng::new(seed ^ ((thread as u64) << 32));
    let last = {
        let mut tx = db.begin(IsolationLevel::Snapshot).expect("begin");
        let last = balance(&mut tx, &tables.progress, thread).unwrap_or(0);
        tx.commit().expect("read-only commit");
        last as i32
    };
    let flush_every = 1 + rng.below(16);
    for seq in last + 1.. {
        loop {
            match one_commit(db, tables, mode, thread, seq, &mut rng) {
                Ok(()) => break,
                // Two writers picked the same account: try again, same seq.
                Err(error) if is_retryable(&error) => continue,
                Err(error) => panic!("thread {thread} seq {seq}: {error}"),
            }
        }
        say(format!("ack {thread} {seq}"));
        if mode == Mode::Delayed && rng.below(flush_every) == 0 {
            db.flush_log()
                .unwrap_or_else(|e| panic!("flush_log after seq {seq}: {e}"));
            say(format!("flushed {thread} {seq}"));
        }
    }
}

/// Transaction `seq` of `thread`: inserts its items, deletes those of
/// `seq - KEEP`, records itself in the ledger, advances its progress row
/// and moves money between two accounts.
fn one_commit(
    db: &Database,
    t: &Tables,
    mode: Mode,
    thread: i32,
    seq: i32,
    rng: &mut Rng,
) -> SqlResult<()> {
    let mut tx = db.begin(IsolationLevel::Snapshot)?;
    tx.set_delayed_durability(mode == Mode::Delayed);
    for part in 0..PARTS {
        tx.insert(
            &t.items,
            &[
                Value::Int(thread),
                Value::Int(seq),
                Value::Int(part),
                Value::String(payload(thread, seq, part)),
            ],
        )?;
    }
    if seq > KEEP {
        for part in 0..PARTS {
            let key = [Value::Int(thread), Value::Int(seq - KEEP), Value::Int(part)];
            let row = tx
                .get(&t.items, 0, &key)?
                .unwrap_or_else(|| panic!("item ({thread}, {}, {part}) is missing", seq - KEEP));
            tx.delete(&t.items, row)?;
        }
    }
    tx.insert(&t.ledger, &[Value::Int(thread), Value::Int(seq)])?;
    if seq == 1 {
        tx.insert(&t.progress, &[Value::Int(thread), Value::BigInt(1)])?;
    } else {
        set_balance(&mut tx, &t.progress, thread, seq as i64)?;
    }
    let from = rng.below(ACCOUNTS as u64) as i32;
    let to = (from + 1 + rng.below(ACCOUNTS as u64 - 1) as i32) % ACCOUNTS;
    let amount = 1 + rng.below(100) as i64;
    add_balance(&mut tx, &t.accounts, from, -amount)?;
    add_balance(&mut tx, &t.accounts, to, amount)?;
    tx.commit().map(|_| ())
}

// ---------------------------------------------------------------------------
// The parent.

/// Kills and reaps the child if the parent gives up on it early (a failed
/// assertion), so that no child outlives the test.
struct ChildGuard(Option<Child>);

impl Drop for ChildGuard {
    fn drop(&mut self) {
        if let Some(child) = &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

fn env_seed() -> u64 {
    match std::env::var("HEKLA_CRASH_SEED") {
        Ok(text) => {
            let text = text.trim();
            match text.strip_prefix("0x") {
                Some(hex) => u64::from_str_radix(hex, 16),
                None => text.parse(),
            }
            .unwrap_or_else(|_| panic!("HEKLA_CRASH_SEED={text:?} is not a number"))
        }
        Err(_) => DEFAULT_SEED,
    }
}

fn env_cycles(default: usize) -> usize {
    match std::env::var("HEKLA_CRASH_CYCLES") {
        Ok(text) => text
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("HEKLA_CRASH_CYCLES={text:?} is not a number")),
        Err(_) => default,
    }
}

/// What one child said before it died.
#[derive(Default)]
struct Said {
    ready: bool,
    /// Per writer thread: the sequence numbers acknowledged, in order.
    acks: BTreeMap<i32, Vec<i32>>,
    /// Per writer thread: the highest sequence number made durable by `flush_log`.
    flushed: BTreeMap<i32, i32>,
    checkpoints: u64,
    merges: u64,
}

impl Said {
    fn parse(lines: &[String], context: &str) -> Said {
        let mut said = Said::default();
        let number = |word: Option<&str>, line: &str| -> i64 {
            word.and_then(|w| w.parse().ok())
                .unwrap_or_else(|| panic!("malformed child line {line:?} ({context})"))
        };
        for line in lines {
            let Some(at) = line.find(MARKER) else {
                continue;
            };
            let mut words = line[at + MARKER.len()..].split_whitespace();
            match words.next() {
                Some("ready") => said.ready = true,
                Some("ack") => {
                    let thread = number(words.next(), line) as i32;
                    let seq = number(words.next(), line) as i32;
                    said.acks.entry(thread).or_default().push(seq);
                }
                Some("flushed") => {
                    let thread = number(words.next(), line) as i32;
                    let seq = number(words.next(), line) as i32;
                    let entry = said.flushed.entry(thread).or_default();
                    *entry = (*entry).max(seq);
                }
                Some("checkpoint") => {
                    let _sealed = number(words.next(), line);
                    said.merges += number(words.next(), line) as u64;
                    said.checkpoints += 1;
                }
                _ => panic!("unknown child line {line:?} ({context})"),
            }
        }
        said
    }
}

/// Everything in the database, read by full scans.
#[derive(Default)]
struct Contents {
    /// (thread, seq) -> how many ledger rows.
    ledger: BTreeMap<(i32, i32), usize>,
    /// (thread, seq) -> the parts found (a part twice is listed twice).
    items: BTreeMap<(i32, i32), Vec<i32>>,
    progress: BTreeMap<i32, Vec<i64>>,
    accounts: BTreeMap<i32, Vec<i64>>,
}

fn read_contents(db: &Database, context: &str) -> Contents {
    let mut contents = Contents::default();
    let mut tx = db.begin(IsolationLevel::Snapshot).expect("begin");
    let mut rows = |name: &str| -> Vec<Vec<Value>> {
        match db.table_named("dbo", name) {
            Some(table) => scan_rows(&mut tx, &table).expect("scan"),
            None => Vec::new(),
        }
    };
    for row in rows("ledger") {
        *contents
            .ledger
            .entry((int(&row[0]), int(&row[1])))
            .or_default() += 1;
    }
    for row in rows("items") {
        let (thread, seq, part) = (int(&row[0]), int(&row[1]), int(&row[2]));
        let Value::String(text) = &row[3] else {
            panic!(
                "item ({thread}, {seq}, {part}) payload is {:?} ({context})",
                row[3]
            );
        };
        assert_eq!(
            *text,
            payload(thread, seq, part),
            "item ({thread}, {seq}, {part}) came back with the wrong payload ({context})"
        );
        contents.items.entry((thread, seq)).or_default().push(part);
    }
    for row in rows("progress") {
        contents
            .progress
            .entry(int(&row[0]))
            .or_default()
            .push(bigint(&row[1]));
    }
    for row in rows("accounts") {
        contents
            .accounts
            .entry(int(&row[0]))
            .or_default()
            .push(bigint(&row[1]));
    }
    // Every row found by the scan must be found through the primary key
    // too: recovery fills the heap and the indexes separately.
    if let Some(ledger) = db.table_named("dbo", "ledger") {
        for &(thread, seq) in contents.ledger.keys() {
            let key = [Value::Int(thread), Value::Int(seq)];
            assert!(
                tx.get(&ledger, 0, &key).expect("lookup").is_some(),
                "ledger row ({thread}, {seq}) is in the heap but not in its index ({context})"
            );
        }
    }
    if let Some(items) = db.table_named("dbo", "items") {
        for (&(thread, seq), parts) in &contents.items {
            for &part in parts {
                let key = [Value::Int(thread), Value::Int(seq), Value::Int(part)];
                assert!(
                    tx.get(&items, 0, &key).expect("lookup").is_some(),
                    "item ({thread}, {seq}, {part}) is in the heap but not in its index ({context})"
                );
            }
        }
    }
    tx.commit().expect("read-only commit");
    contents
}

/// Checks a recovered database against what the children said; returns
/// each writer's recovered last sequence number.
///
/// `known` holds each writer's last sequence number as recovered after the
/// previous crash; `said` is what the last child reported.
fn verify(
    db: &Database,
    mode: Mode,
    known: &BTreeMap<i32, i32>,
    said: &Said,
    context: &str,
) -> BTreeMap<i32, i32> {
    let contents = read_contents(db, context);
    let writers = mode.writers();

    for (&(thread, seq), &count) in &contents.ledger {
        assert!(
            (1..=writers).contains(&thread),
            "ledger row ({thread}, {seq}) of a thread that never ran ({context})"
        );
        assert_eq!(
            count, 1,
            "commit ({thread}, {seq}) is in the ledger {count} times ({context})"
        );
    }

    let mut recovered = BTreeMap::new();
    for thread in 1..=writers {
        let seqs: Vec<i32> = contents
            .ledger
            .range((thread, i32::MIN)..=(thread, i32::MAX))
            .map(|(&(_, seq), _)| seq)
            .collect();
        // A writer commits one transaction at a time, and the log is
        // written in order, so its commits must come back as a prefix.
        let last = seqs.len() as i32;
        if let Some((position, seq)) = seqs
            .iter()
            .enumerate()
            .find(|&(position, &seq)| seq != position as i32 + 1)
        {
            panic!(
                "thread {thread}: commit {} is missing but commit {seq} is present (gap in the ledger at position {position}) ({context})",
                position + 1
            );
        }

        let before = known.get(&thread).copied().unwrap_or(0);
        let acks = said.acks.get(&thread).map(Vec::as_slice).unwrap_or(&[]);
        // The child resumed right after what the last recovery found.
        for (i, &seq) in acks.iter().enumerate() {
            assert_eq!(
                seq,
                before + 1 + i as i32,
                "thread {thread}: acknowledgement {i} of this cycle was for seq {seq}, expected {} ({context})",
                before + 1 + i as i32
            );
        }
        let last_ack = acks.last().copied().unwrap_or(before);
        let durable_floor = match mode {
            Mode::Durable => last_ack,
            Mode::Delayed => said.flushed.get(&thread).copied().unwrap_or(0),
        }
        .max(before);
        assert!(
            last >= durable_floor,
            "thread {thread}: commit {} was {} but is lost; the database recovered commits 1..={last} ({context})",
            last + 1,
            match mode {
                Mode::Durable => format!("acknowledged (last acknowledged: {last_ack})"),
                Mode::Delayed => format!("made durable by flush_log or an earlier recovery (floor {durable_floor})"),
            }
        );
        // At most the one commit in flight when the child died can be
        // there without an acknowledgement.
        assert!(
            last <= last_ack + 1,
            "thread {thread}: commits up to {last} recovered, but the writer never got past {} ({context})",
            last_ack + 1
        );

        let progress = contents.progress.get(&thread).cloned().unwrap_or_default();
        let expected_progress = if last == 0 { vec![] } else { vec![last as i64] };
        assert_eq!(
            progress, expected_progress,
            "thread {thread}: progress row(s) disagree with the ledger, which ends at {last} ({context})"
        );

        let live: BTreeSet<i32> = ((last - KEEP + 1).max(1)..=last).collect();
        for seq in &live {
            let mut parts = contents
                .items
                .get(&(thread, *seq))
                .cloned()
                .unwrap_or_default();
            parts.sort();
            assert_eq!(
                parts,
                (0..PARTS).collect::<Vec<_>>(),
                "thread {thread}: items of commit {seq} are not all there exactly once (partial transaction?) ({context})"
            );
        }
        for (&(item_thread, seq), parts) in &contents.items {
            if item_thread == thread && !live.contains(&seq) {
                panic!(
                    "thread {thread}: items {parts:?} of commit {seq} are present, but only those of commits {live:?} should be ({context})"
                );
            }
        }
        recovered.insert(thread, last);
    }
    for &(thread, _) in contents.items.keys() {
        assert!(
            (1..=writers).contains(&thread),
            "items of a thread ({thread}) that never ran ({context})"
        );
    }

    // The accounts are funded in one transaction before any writer starts,
    // and every transfer keeps the total.
    let committed_any = recovered.values().any(|&last| last > 0);
    if contents.accounts.is_empty() {
        assert!(
            !committed_any,
            "the accounts are gone but commits {recovered:?} are there ({context})"
        );
    } else {
        let ids: Vec<i32> = contents.accounts.keys().copied().collect();
        assert_eq!(
            ids,
            (0..ACCOUNTS).collect::<Vec<_>>(),
            "the set of accounts changed ({context})"
        );
        let mut total = 0;
        for (id, balances) in &contents.accounts {
            assert_eq!(
                balances.len(),
                1,
                "account {id} has {} versions visible: {balances:?} ({context})",
                balances.len()
            );
            total += balances[0];
        }
        assert_eq!(
            total,
            ACCOUNTS as i64 * OPENING_BALANCE,
            "the transfers' total is not conserved: a transfer was half recovered ({context})"
        );
    }
    recovered
}

/// Totals over a run, for the report and for checking that the run really
/// exercised what it is meant to.
#[derive(Debug, Default)]
struct Totals {
    cycles: usize,
    acks: u64,
    killed_before_ready: usize,
    checkpoints: u64,
    merges: u64,
}

fn spawn_child(dir: &Path, mode: Mode, seed: u64, stderr: &Path) -> Child {
    Command::new(std::env::current_exe().expect("current test binary"))
        .args([
            "--exact",
            "crash_child",
            "--ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(ENV_DIR, dir)
        .env(ENV_MODE, mode.name())
        .env(ENV_SEED, seed.to_string())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(stderr).expect("child stderr file"))
        .spawn()
        .expect("start the crash child")
}

/// Starts the child on `cycles` occasions, kills it at a random moment
/// each time and verifies what survived.
fn run_kill_cycles(mode: Mode, default_cycles: usize) -> Totals {
    let seed = env_seed();
    let cycles = env_cycles(default_cycles);
    let scratch = Scratch::new(&format!("crash-{}", mode.name()));
    let db_dir = scratch.0.join("db");
    let check_dir = scratch.0.join("check");
    let stderr_path = scratch.0.join("child.stderr");
    let mut rng = Rng::new(seed ^ mode as u64);
    let mut known: BTreeMap<i32, i32> = BTreeMap::new();
    let mut totals = Totals::default();
    let started = Instant::now();

    for cycle in 1..=cycles {
        let context = format!(
            "{} crash test, cycle {cycle} of {cycles}, HEKLA_CRASH_SEED={seed:#x}, files in {}",
            mode.name(),
            scratch.0.display()
        );
        // Mostly well into the run, sometimes while the child is still
        // recovering what the previous one left, sometimes late.
        let delay = match rng.below(8) {
            0 => rng.below(40),
            1 => 400 + rng.below(400),
            _ => 40 + rng.below(360),
        };
        let mut child = ChildGuard(Some(spawn_child(
            &db_dir,
            mode,
            rng.next_u64(),
            &stderr_path,
        )));
        let stdout = child
            .0
            .as_mut()
            .unwrap()
            .stdout
            .take()
            .expect("child stdout");
        let reader = std::thread::spawn(move || {
            BufReader::new(stdout)
                .lines()
                .map_while(Result::ok)
                .collect::<Vec<String>>()
        });
        // The random moment of the crash; nothing is waited for.
        std::thread::sleep(Duration::from_millis(delay));
        let mut process = child.0.take().unwrap();
        let _ = process.kill();
        let status = process.wait().expect("reap the child");
        let lines = reader.join().expect("child stdout reader");
        if status.signal() != Some(libc::SIGKILL) {
            let stderr = std::fs::read_to_string(&stderr_path).unwrap_or_default();
            panic!(
                "the child ended by itself ({status}) before the kill after {delay} ms ({context}); its stderr:\n{stderr}"
            );
        }
        let said = Said::parse(&lines, &context);
        totals.cycles += 1;
        totals.acks += said.acks.values().map(|a| a.len() as u64).sum::<u64>();
        totals.killed_before_ready += usize::from(!said.ready);
        totals.checkpoints += said.checkpoints;
        totals.merges += said.merges;

        // Check a copy, so that the next child recovers the crashed files
        // as they are.
        let _ = std::fs::remove_dir_all(&check_dir);
        if db_dir.exists() {
            copy_dir(&db_dir, &check_dir);
        }
        let context = format!("{context}, killed after {delay} ms");
        let db = Database::open(
            &check_dir,
            DatabaseConfig::default(),
            StorageConfig::small(),
        )
        .unwrap_or_else(|e| panic!("the crashed database does not open: {e} ({context})"));
        known = verify(&db, mode, &known, &said, &context);
        drop(db);
    }

    // Finally the original directory itself, opened in this process.
    let context = format!(
        "{} crash test, final reopen, HEKLA_CRASH_SEED={seed:#x}, files in {}",
        mode.name(),
        scratch.0.display()
    );
    let db = Database::open(&db_dir, DatabaseConfig::default(), StorageConfig::small())
        .unwrap_or_else(|e| panic!("the database does not open: {e} ({context})"));
    let last = verify(&db, mode, &known, &Said::default(), &context);
    assert_eq!(
        last, known,
        "a second recovery found other commits ({context})"
    );
    drop(db);

    eprintln!(
        "{} crash test: {totals:?}, commits recovered per writer {known:?}, {:.1} s, seed {seed:#x}",
        mode.name(),
        started.elapsed().as_secs_f64()
    );
    assert!(
        totals.acks > 0,
        "no child ever acknowledged a commit ({context})"
    );
    assert!(
        totals.checkpoints > 0,
        "no child ever completed a checkpoint ({context})"
    );
    totals
}

#[test]
fn acknowledged_commits_survive_random_kills() {
    let totals = run_kill_cycles(Mode::Durable, 50);
    // The point is to kill during merges too: make sure there were some.
    assert!(
        totals.merges > 0,
        "no checkpoint merged anything; the test does not exercise merges: {totals:?}"
    );
}

#[test]
fn delayed_durable_commits_come_back_as_a_prefix_covering_every_flush() {
    run_kill_cycles(Mode::Delayed, 50);
}
