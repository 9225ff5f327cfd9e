//! The power-loss checker shared by `power_loss.rs` and
//! `power_loss_mutations.rs`: two writers run durable and delayed-durable
//! commits, `flush_log` and checkpoints (merges follow from their deletes)
//! on a simulated disk with tiny files, the power fails at a random
//! mutating disk operation, a fresh database recovers from what the disk
//! kept, and the recovered table is checked against a model per writer
//! (each writes only its own rows, so its commits reach the log in the
//! order it made them):
//! - its rows equal its model after some prefix of the transactions it
//!   attempted, so no transaction is partial and none appears twice;
//! - that prefix covers every durable commit acknowledged and every commit
//!   made before a `flush_log` or checkpoint that returned;
//! - recovery succeeds: the simulated disk keeps everything that was
//!   synced, so a refusal (even 3414 naming the file) means the engine
//!   relied on something it never synced, and is reported as a violation.

use crate::common::{accounts_def, bigint, int, Rng};
use hekla_engine::durability::SimulatedStorage;
use hekla_engine::{
    Database, DatabaseConfig, DelayedDurability, IsolationLevel, StorageConfig, Table,
};
use hekla_types::Value;
use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// A fresh, empty disk every this many cuts, so that both young and old
/// databases are cut.
const CUTS_PER_DISK: u64 = 40;
/// The power fails within this many mutating disk operations of a start
/// (the window itself is drawn at random up to this, so that both short
/// and long episodes are common).
const CUT_WINDOW: u64 = 400;
/// One transaction in this many is big: a log block of several KiB, which
/// often does not fit in the rest of a segment.
const BIG_TXN_ONE_IN: u64 = 25;
/// A writer episode stops after this many steps; the power is then cut.
const MAX_STEPS: u32 = 400;
/// Above this many rows a writer mostly deletes.
const TARGET_ROWS: usize = 100;
/// Writer threads; writer `w` owns the ids `w (mod WRITERS)`.
const WRITERS: i32 = 2;

/// What a run survived.
#[derive(Debug, Default)]
pub struct Figures {
    pub cuts: u64,
    pub durable_commits: u64,
    pub delayed_commits: u64,
    pub flushes: u64,
    pub checkpoints: u64,
    /// Merges the writers' checkpoints made (automatic ones merge too).
    pub merges: u64,
}

impl Figures {
    fn add(&mut self, other: &Figures) {
        self.durable_commits += other.durable_commits;
        self.delayed_commits += other.delayed_commits;
        self.flushes += other.flushes;
        self.checkpoints += other.checkpoints;
        self.merges += other.merges;
    }
}

/// Tiny files, so that a few hundred commits switch log segments, seal
/// and merge pairs, and trigger automatic checkpoints.
pub fn tiny_storage(disk: &SimulatedStorage) -> StorageConfig {
    StorageConfig {
        data_file_bytes: 8 << 10,
        delta_file_bytes: 4 << 10,
        log_segment_bytes: 16 << 10,
        checkpoint_log_bytes: 48 << 10,
        delayed_flush_interval: Duration::from_millis(2),
        recovery_threads: 1,
        progress: None,
        storage: disk.shared(),
    }
}

#[derive(Clone, Debug)]
enum Change {
    Put(i32, i64),
    Delete(i32),
}

type Rows = BTreeMap<i32, i64>;

fn apply(rows: &mut Rows, txn: &[Change]) {
    for change in txn {
        match *change {
            Change::Put(id, value) => {
                rows.insert(id, value);
            }
            Change::Delete(id) => {
                rows.remove(&id);
            }
        }
    }
}

/// What the recovered table may hold of one writer's rows: `base` after a
/// prefix of `txns` at least `must` long.
#[derive(Default)]
struct Model {
    writer: i32,
    base: Rows,
    txns: Vec<Vec<Change>>,
    must: usize,
    /// The rows the writer sees: `base` with every transaction applied.
    current: Rows,
    /// Ids handed out so far.
    ids: i32,
}

impl Model {
    fn new(writer: i32) -> Model {
        Model {
            writer,
            ..Model::default()
        }
    }

    fn owns(&self, id: i32) -> bool {
        id.rem_euclid(WRITERS) == self.writer
    }

    fn new_id(&mut self) -> i32 {
        self.ids += 1;
        self.ids * WRITERS + self.writer
    }

    fn attempt(&mut self, txn: Vec<Change>) {
        apply(&mut self.current, &txn);
        self.txns.push(txn);
    }

    /// Accepts `recovered` if it is an allowed prefix (and makes it the new
    /// base), or describes the violation.
    fn check(&mut self, recovered: Rows) -> Result<(), String> {
        let mut rows = self.base.clone();
        for p in 0..=self.txns.len() {
            if p > 0 {
                apply(&mut rows, &self.txns[p - 1]);
            }
            if p >= self.must && rows == recovered {
                self.current = recovered.clone();
                self.base = recovered;
                self.txns.clear();
                self.must = 0;
                return Ok(());
            }
        }
        let mut required = self.base.clone();
        for txn in &self.txns[..self.must] {
            apply(&mut required, txn);
        }
        let missing: Vec<_> = required
            .iter()
            .filter(|(id, v)| recovered.get(id) != Some(v))
            .take(5)
            .collect();
        let extra: Vec<_> = recovered
            .iter()
            .filter(|(id, v)| required.get(id) != Some(v))
            .take(5)
            .collect();
        Err(format!(
            "writer {}: its recovered rows ({}) are no prefix of the {} transactions attempted that covers the {} that must survive; against the required state, missing or different: {missing:?}, unexpected: {extra:?}",
            self.writer,
            recovered.len(),
            self.txns.len(),
            self.must
        ))
    }
}

/// The table's rows by a full scan; a row seen twice is a violation.
fn recovered_rows(db: &Database, table: &Arc<Table>) -> Result<Rows, String> {
    let mut tx = db
        .begin(IsolationLevel::Snapshot)
        .map_err(|e| e.message.clone())?;
    let mut rows = Rows::new();
    let mut twice = None;
    tx.scan::<()>(table, |row| {
        let values = row.values();
        if rows.insert(int(&values[0]), bigint(&values[1])).is_some() {
            twice = Some(int(&values[0]));
        }
        ControlFlow::Continue(())
    })
    .map_err(|e| e.message.clone())?;
    tx.commit().map_err(|e| e.message.clone())?;
    match twice {
        Some(id) => Err(format!("row {id} recovered twice")),
        None => Ok(rows),
    }
}

/// One transaction of the writer: a few new rows, and an update or a
/// delete of an existing one.
fn next_txn(model: &mut Model, rng: &mut Rng) -> Vec<Change> {
    let rows = model.current.len();
    let mut txn = Vec::new();
    let inserts = match (rows > TARGET_ROWS, rng.below(BIG_TXN_ONE_IN)) {
        (_, 0) => 40 + rng.below(120),
        (true, _) => 0,
        (false, _) => 1 + rng.below(3),
    };
    for _ in 0..inserts {
        let id = model.new_id();
        txn.push(Change::Put(id, i64::from(id)));
    }
    if rows > 0 && (inserts == 0 || rng.below(2) == 0) {
        let nth = rng.below(rows as u64) as usize;
        let id = *model.current.keys().nth(nth).expect("a row");
        txn.push(match rng.below(3) {
            0 => Change::Put(id, i64::from(model.ids) * 1000 + rng.below(1000) as i64),
            _ => Change::Delete(id),
        });
    }
    txn
}

fn commit(db: &Database, table: &Arc<Table>, txn: &[Change], delayed: bool) -> Result<(), ()> {
    let mut tx = db.begin(IsolationLevel::Snapshot).map_err(|_| ())?;
    tx.set_delayed_durability(delayed);
    for change in txn {
        match *change {
            Change::Put(id, value) => match tx.get(table, 0, &[Value::Int(id)]).map_err(|_| ())? {
                Some(row) => tx
                    .update(table, row, &[(1, Value::BigInt(value))])
                    .map(|_| ()),
                None => tx
                    .insert(table, &[Value::Int(id), Value::BigInt(value)])
                    .map(|_| ()),
            },
            Change::Delete(id) => {
                let row = tx
                    .get(table, 0, &[Value::Int(id)])
                    .map_err(|_| ())?
                    .expect("the writer deletes rows it sees");
                tx.delete(table, row)
            }
        }
        .map_err(|_| ())?;
    }
    tx.commit().map(|_| ()).map_err(|_| ())
}

/// Runs a writer until a disk operation fails (the power cut) or
/// `MAX_STEPS`, recording in `model` what it attempted and what must
/// survive. A `flush_log` or checkpoint covers the other writer's commits
/// too, but only the writer's own are counted: that is all it knows of.
fn episode(db: &Database, table: &Arc<Table>, model: &mut Model, mut rng: Rng) -> Figures {
    let mut figures = Figures::default();
    let rng = &mut rng;
    for _ in 0..MAX_STEPS {
        // 16 in 20 steps commit (7 in 16 of them delayed), 2 flush the
        // log, 2 checkpoint.
        match rng.below(20) {
            0..=15 => {
                let delayed = rng.below(16) < 7;
                let txn = next_txn(model, rng);
                model.attempt(txn);
                let outcome = commit(db, table, model.txns.last().expect("pushed"), delayed);
                match (outcome, delayed) {
                    (Err(()), _) => return figures,
                    (Ok(()), false) => {
                        model.must = model.txns.len();
                        figures.durable_commits += 1;
                    }
                    (Ok(()), true) => figures.delayed_commits += 1,
                }
            }
            16 | 17 => {
                if db.flush_log().is_err() {
                    return figures;
                }
                model.must = model.txns.len();
                figures.flushes += 1;
            }
            _ => {
                let Ok(report) = db.checkpoint() else {
                    return figures;
                };
                model.must = model.txns.len();
                figures.checkpoints += 1;
                figures.merges += report.merges as u64;
            }
        }
    }
    figures
}

/// Checks each writer's rows in `recovered` against its model.
fn check(models: &mut [Model], recovered: Rows) -> Result<(), String> {
    for model in models {
        let own = recovered
            .iter()
            .filter(|(id, _)| model.owns(**id))
            .map(|(&id, &value)| (id, value))
            .collect();
        model.check(own)?;
    }
    Ok(())
}

fn violation(seed: u64, cuts: u64, problem: String) -> Violation {
    Violation {
        cuts,
        problem: format!(
            "seed {seed}, after {cuts} cuts: {problem} (replay: HEKLA_POWER_SEED={seed} HEKLA_POWER_CUTS={cuts})"
        ),
    }
}

/// Opens the database on `disk`; a refusal is a violation (see the module).
fn open(dir: &Path, disk: &SimulatedStorage) -> Result<Database, String> {
    Database::open(dir, DatabaseConfig::default(), tiny_storage(disk)).map_err(|e| {
        format!(
            "recovery refused with error {} (3414 naming the file is what damage must give, but this disk kept everything synced): {}",
            e.number, e.message
        )
    })
}

/// The first violation of a run: after how many cuts, and what.
#[derive(Debug)]
pub struct Violation {
    pub cuts: u64,
    pub problem: String,
}

/// Cuts the power `cuts` times from `seed`; the first violation ends the
/// run with its description (naming the seed and the cut to replay).
/// `dir` only holds the real directory lock; the files are simulated.
pub fn run(dir: &Path, seed: u64, cuts: u64) -> Result<Figures, Violation> {
    let mut rng = Rng::new(seed);
    let mut figures = Figures::default();
    let mut disk = SimulatedStorage::new();
    let mut models = Vec::new();
    for cut in 0..cuts {
        let fresh = cut % CUTS_PER_DISK == 0;
        if fresh {
            disk = SimulatedStorage::new();
            models = (0..WRITERS).map(Model::new).collect();
        }
        let violation = |problem: String| violation(seed, cut, problem);
        let db = open(dir, &disk).map_err(violation)?;
        let table = match fresh {
            true => {
                db.set_delayed_durability(DelayedDurability::Allowed)
                    .map_err(|e| violation(e.message))?;
                db.create_table(accounts_def(256))
                    .map_err(|e| violation(e.message))?
            }
            false => db
                .table_named("dbo", "accounts")
                .ok_or_else(|| violation("the table is gone".to_string()))?,
        };
        if db.delayed_durability() != DelayedDurability::Allowed {
            return Err(violation("DELAYED_DURABILITY = ALLOWED was lost".into()));
        }
        let recovered = recovered_rows(&db, &table).map_err(violation)?;
        check(&mut models, recovered).map_err(violation)?;
        let window = 1 + rng.below(CUT_WINDOW);
        disk.cut_power_after(1 + rng.below(window));
        let rngs: Vec<Rng> = models.iter().map(|_| Rng::new(rng.next_u64())).collect();
        std::thread::scope(|scope| {
            let writers: Vec<_> = models
                .iter_mut()
                .zip(rngs)
                .map(|(model, rng)| scope.spawn(|| episode(&db, &table, model, rng)))
                .collect();
            for writer in writers {
                figures.add(&writer.join().expect("a writer panicked"));
            }
        });
        drop(table);
        drop(db);
        disk = disk.surviving_image(rng.next_u64());
        figures.cuts += 1;
    }
    // The last image must recover too.
    let violation = |problem: String| violation(seed, cuts, problem);
    let db = open(dir, &disk).map_err(violation)?;
    let table = db
        .table_named("dbo", "accounts")
        .ok_or_else(|| violation("the table is gone".to_string()))?;
    let recovered = recovered_rows(&db, &table).map_err(violation)?;
    check(&mut models, recovered).map_err(violation)?;
    Ok(figures)
}
