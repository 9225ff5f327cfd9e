//! `hekla bench range-index`: ordered indexes used as concurrent maps from
//! encoded key bytes to `u64`, side by side: random-order inserts, point
//! lookups, short scans and memory, each structure running the same code.

use super::report::{format_value, Report};
use super::workload::{fnv1a, Rng};
use super::{resident_bytes, MIB};
use clap::Args;
use crossbeam_skiplist::SkipMap;
use hekla_engine::btree::BTree;
use hekla_types::{encode_key, Collation, DataType, Length, SortOrder, Value};
use std::collections::BTreeMap;
use std::ops::{Bound, ControlFlow};
use std::sync::RwLock;
use std::time::{Duration, Instant};

#[derive(Args)]
pub struct RangeIndexArgs {
    /// Keys inserted into each structure.
    #[arg(long, default_value_t = 10_000_000)]
    keys: usize,
    /// Seconds the lookup and the scan workloads each run for.
    #[arg(long, default_value_t = 5.0)]
    seconds: f64,
    /// Thread counts to run every workload with.
    #[arg(long, value_delimiter = ',', default_values_t = vec![1usize, 2])]
    threads: Vec<usize>,
    /// Entries each scan visits.
    #[arg(long, default_value_t = 100)]
    scan_length: usize,
    /// Key kinds: int (bigint), string (varchar(24) YCSB-style keys).
    #[arg(long, value_delimiter = ',', default_values_t = KINDS.map(String::from).to_vec())]
    kinds: Vec<String>,
    /// Structures to compare, by name.
    #[arg(long, value_delimiter = ',', default_values_t = STRUCTURES.iter().map(|s| s.name.to_string()).collect::<Vec<_>>())]
    structures: Vec<String>,
    /// Small sizes and short runs.
    #[arg(long)]
    quick: bool,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    json: bool,
}

/// An ordered concurrent map from key bytes to `u64`, as a range index uses it.
trait OrderedMap: Send + Sync {
    const NAME: &'static str;
    fn new() -> Self;
    fn insert(&self, key: &[u8], value: u64);
    fn get(&self, key: &[u8]) -> Option<u64>;
    /// Visits up to `n` entries with key >= `from` in key order; returns what
    /// it visited.
    fn scan(&self, from: &[u8], n: usize) -> Scanned;
}

/// What a scan visited: enough to check it, and to keep the optimiser from
/// skipping the work.
#[derive(Default, PartialEq, Debug)]
struct Scanned {
    entries: u64,
    value_sum: u64,
}

impl Scanned {
    fn push(&mut self, value: u64) {
        self.entries += 1;
        self.value_sum = self.value_sum.wrapping_add(value);
    }

    fn of(values: impl Iterator<Item = u64>) -> Scanned {
        let mut scanned = Scanned::default();
        values.for_each(|value| scanned.push(value));
        scanned
    }
}

impl OrderedMap for SkipMap<Vec<u8>, u64> {
    const NAME: &'static str = "skiplist";

    fn new() -> Self {
        SkipMap::new()
    }

    fn insert(&self, key: &[u8], value: u64) {
        SkipMap::insert(self, key.to_vec(), value);
    }

    fn get(&self, key: &[u8]) -> Option<u64> {
        SkipMap::get(self, key).map(|entry| *entry.value())
    }

    fn scan(&self, from: &[u8], n: usize) -> Scanned {
        let entries = self.range::<[u8], _>((Bound::Included(from), Bound::Unbounded));
        Scanned::of(entries.take(n).map(|entry| *entry.value()))
    }
}

impl OrderedMap for RwLock<BTreeMap<Vec<u8>, u64>> {
    const NAME: &'static str = "btreemap";

    fn new() -> Self {
        RwLock::new(BTreeMap::new())
    }

    fn insert(&self, key: &[u8], value: u64) {
        let mut map = self.write().expect("a benchmark thread panicked");
        map.insert(key.to_vec(), value);
    }

    fn get(&self, key: &[u8]) -> Option<u64> {
        let map = self.read().expect("a benchmark thread panicked");
        map.get(key).copied()
    }

    fn scan(&self, from: &[u8], n: usize) -> Scanned {
        let map = self.read().expect("a benchmark thread panicked");
        let entries = map.range::<[u8], _>((Bound::Included(from), Bound::Unbounded));
        Scanned::of(entries.take(n).map(|(_, value)| *value))
    }
}

impl OrderedMap for BTree {
    const NAME: &'static str = HEKLA;

    fn new() -> Self {
        BTree::new()
    }

    fn insert(&self, key: &[u8], value: u64) {
        BTree::insert(self, key, value).expect("benchmark keys are short");
    }

    fn get(&self, key: &[u8]) -> Option<u64> {
        BTree::get(self, key)
    }

    fn scan(&self, from: &[u8], n: usize) -> Scanned {
        let mut scanned = Scanned::default();
        self.range(Bound::Included(from), Bound::Unbounded, |value| {
            scanned.push(value);
            if scanned.entries < n as u64 {
                ControlFlow::Continue(())
            } else {
                ControlFlow::Break(())
            }
        });
        scanned
    }
}

/// A structure under test: its name and the workload monomorphised for it.
struct Structure {
    name: &'static str,
    measure: fn(&Workload, usize) -> Result<Figures, String>,
}

const fn structure<M: OrderedMap>() -> Structure {
    Structure {
        name: M::NAME,
        measure: measure::<M>,
    }
}

/// The structures compared, in column order.
const STRUCTURES: &[Structure] = &[
    structure::<BTree>(),
    structure::<SkipMap<Vec<u8>, u64>>(),
    structure::<RwLock<BTreeMap<Vec<u8>, u64>>>(),
];

/// With this structure selected the table adds its ratio to each other one.
const HEKLA: &str = "hekla-btree";

const KINDS: [&str; 2] = ["int", "string"];

/// The figures of one structure, built once with a given thread count:
/// (name in JSON, label in the table, unit).
const METRICS: [(&str, &str, &str); 5] = [
    ("inserts", "inserts/s", "ops/s"),
    ("lookups", "lookups/s", "ops/s"),
    ("scans", "scans/s", "scans/s"),
    ("rss_growth", "RSS growth MiB", "MiB"),
    ("bytes_per_key", "RSS bytes/key", "bytes"),
];

type Figures = [f64; METRICS.len()];

/// Keys encoded back to back, all `width` bytes, in ascending order: the
/// key of rank `i` maps to value `i`, so checks need no second lookup.
struct Keys {
    bytes: Vec<u8>,
    width: usize,
}

impl Keys {
    fn len(&self) -> usize {
        self.bytes.len() / self.width
    }

    fn get(&self, rank: usize) -> &[u8] {
        &self.bytes[rank * self.width..][..self.width]
    }
}

/// Everything one structure's run needs, shared by all structures.
struct Workload<'a> {
    keys: &'a Keys,
    /// Ranks in insertion order: a random permutation.
    order: &'a [usize],
    seconds: f64,
    scan_length: usize,
}

pub fn run(mut args: RangeIndexArgs) -> Result<(), String> {
    if args.quick {
        args.keys = args.keys.min(200_000);
        args.seconds = args.seconds.min(0.3);
    }
    if args.keys == 0
        || args.scan_length == 0
        || args.threads.is_empty()
        || args.threads.contains(&0)
        || !(args.seconds > 0.0 && args.seconds.is_finite())
    {
        return Err("--keys, --threads, --seconds and --scan-length must be positive".to_string());
    }
    let structure_names: Vec<&str> = STRUCTURES.iter().map(|s| s.name).collect();
    for (flag, names, known) in [
        ("kind", &args.kinds, &KINDS[..]),
        ("structure", &args.structures, &structure_names[..]),
    ] {
        if let Some(unknown) = names.iter().find(|n| !known.contains(&n.as_str())) {
            return Err(format!(
                "unknown {flag} '{unknown}'; the {flag}s are {}",
                known.join(", ")
            ));
        }
    }
    // Canonical order, and each at most once however the flags list them.
    let structures: Vec<&Structure> = STRUCTURES
        .iter()
        .filter(|s| args.structures.iter().any(|n| n == s.name))
        .collect();
    let kinds = KINDS.iter().filter(|k| args.kinds.iter().any(|n| n == *k));

    let mut report = Report::new("range-index", args.json);
    let order = shuffled(args.keys);
    for kind in kinds {
        let keys = encode_keys(kind, args.keys)?;
        let workload = Workload {
            keys: &keys,
            order: &order,
            seconds: args.seconds,
            scan_length: args.scan_length,
        };
        for &threads in &args.threads {
            report.section(&format!(
                "{kind} keys ({} bytes encoded): {} keys, {threads} thread(s), scans of {}",
                keys.width, args.keys, args.scan_length
            ));
            let mut figures = Vec::new();
            for structure in &structures {
                let measured = (structure.measure)(&workload, threads)?;
                for ((metric, _, unit), value) in METRICS.iter().zip(measured) {
                    let name = format!("{kind}/{metric}/{threads}t/{}", structure.name);
                    report.record(name, value, unit);
                }
                figures.push((structure.name, measured));
            }
            if !report.is_json() {
                print_table(&figures);
            }
        }
    }
    report.finish();
    Ok(())
}

/// One line per metric, a column per structure, and with the engine's
/// B+tree selected its ratio to each other structure.
fn print_table(figures: &[(&str, Figures)]) {
    let hekla = figures.iter().find(|(name, _)| *name == HEKLA);
    let others: Vec<_> = figures.iter().filter(|(name, _)| *name != HEKLA).collect();
    let mut header = format!("{:<16}", "");
    for (name, _) in figures {
        header += &format!("{name:>16}");
    }
    if hekla.is_some() {
        for (name, _) in &others {
            header += &format!("{:>18}", format!("hekla/{name}"));
        }
    }
    println!("{header}");
    for (m, (_, label, _)) in METRICS.iter().enumerate() {
        let mut line = format!("{label:<16}");
        for (_, values) in figures {
            line += &format!("{:>16}", format_value(values[m]));
        }
        if let Some((_, ours)) = hekla {
            for (_, theirs) in &others {
                let ratio = if theirs[m] > 0.0 {
                    format!("{:.2}x", ours[m] / theirs[m])
                } else {
                    "-".to_string()
                };
                line += &format!("{ratio:>18}");
            }
        }
        println!("{line}");
    }
}

/// 0..n in random order (Fisher-Yates), the same for every structure.
fn shuffled(n: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    let mut rng = Rng::new(7);
    for i in (1..n).rev() {
        order.swap(i, rng.below(i as u64 + 1) as usize);
    }
    order
}

/// `n` keys of a kind, encoded as the engine encodes an ascending index
/// key: bigints 0..n, or "user" and 20 digits of a scrambled number (as
/// YCSB's keys) in varchar(24) with the default collation.
fn encode_keys(kind: &str, n: usize) -> Result<Keys, String> {
    let (column, values): (DataType, Box<dyn Iterator<Item = Value>>) = match kind {
        "int" => (DataType::BigInt, Box::new((0..n as i64).map(Value::BigInt))),
        _ => {
            // "string". Numbers sorted first so that rank order is key order.
            let mut numbers: Vec<u64> = (0..n as u64).map(fnv1a).collect();
            numbers.sort_unstable();
            let varchar = DataType::VarChar {
                len: Length::Bounded(24),
                collation: Collation::default(),
            };
            let strings = numbers.into_iter();
            (
                varchar,
                Box::new(strings.map(|number| Value::String(format!("user{number:020}")))),
            )
        }
    };
    let columns = [(column, SortOrder::Ascending)];
    let mut keys = Keys {
        bytes: Vec::new(),
        width: 0,
    };
    for (rank, value) in values.enumerate() {
        let start = keys.bytes.len();
        encode_key(&columns, &[value], &mut keys.bytes).map_err(|e| e.to_string())?;
        let width = keys.bytes.len() - start;
        if rank == 0 {
            keys.width = width;
            keys.bytes.reserve_exact(width * (n - 1));
        } else if width != keys.width {
            return Err(format!(
                "{kind} key {rank} encodes to {width} bytes, not {}",
                keys.width
            ));
        } else if keys.get(rank) <= keys.get(rank - 1) {
            // Checks would then blame the structures: catch it here.
            return Err(format!(
                "{kind} keys {} and {rank} are not ascending",
                rank - 1
            ));
        }
    }
    Ok(keys)
}

/// Builds an `M` from the keys in random order on `threads` threads, then
/// runs checked lookups and scans on it.
fn measure<M: OrderedMap>(workload: &Workload, threads: usize) -> Result<Figures, String> {
    let Workload {
        keys,
        order,
        seconds,
        scan_length,
    } = *workload;
    let n = keys.len();
    release_free_memory();
    let before = resident_bytes();
    let map = M::new();
    let started = Instant::now();
    std::thread::scope(|scope| {
        for part in order.chunks(n.div_ceil(threads)) {
            let map = &map;
            scope.spawn(move || {
                for &rank in part {
                    map.insert(keys.get(rank), rank as u64);
                }
            });
        }
    });
    let inserts = n as f64 / started.elapsed().as_secs_f64();
    let growth = resident_bytes().saturating_sub(before) as f64;

    let lookups = per_second(threads, seconds, |rng| {
        let rank = rng.below(n as u64) as usize;
        match map.get(keys.get(rank)) {
            Some(value) if value == rank as u64 => Ok(()),
            found => Err(format!("{}: key {rank} found {found:?}", M::NAME)),
        }
    })?;
    let scans = per_second(threads, seconds, |rng| {
        let rank = rng.below(n as u64) as usize;
        let scanned = map.scan(keys.get(rank), scan_length);
        // Values equal ranks: the entries are rank, rank + 1, ...
        let entries = scan_length.min(n - rank) as u64;
        let first = rank as u64;
        let expected = Scanned {
            entries,
            value_sum: entries * first + entries * (entries - 1) / 2,
        };
        if scanned == expected {
            Ok(())
        } else {
            Err(format!(
                "{}: a scan from key {rank} gave {scanned:?}, not {expected:?}",
                M::NAME
            ))
        }
    })?;
    Ok([inserts, lookups, scans, growth / MIB, growth / n as f64])
}

/// Hands freed heap pages back to the kernel (glibc's `malloc_trim`):
/// otherwise a structure built on the pages its predecessor freed shows
/// little or no resident-set growth. Elsewhere growth may read low.
fn release_free_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        extern "C" {
            fn malloc_trim(pad: usize) -> i32;
        }
        // SAFETY: malloc_trim takes no pointers and only releases free pages.
        unsafe {
            malloc_trim(0);
        }
    }
}

/// Runs `op` on `threads` threads for `seconds` and returns operations per
/// second; stops at the first error `op` returns.
fn per_second(
    threads: usize,
    seconds: f64,
    op: impl Fn(&mut Rng) -> Result<(), String> + Sync,
) -> Result<f64, String> {
    let deadline = Duration::from_secs_f64(seconds);
    let started = Instant::now();
    let counts: Result<Vec<u64>, String> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                let op = &op;
                scope.spawn(move || -> Result<u64, String> {
                    let mut rng = Rng::new(0xC0FFEE + t as u64);
                    let mut done = 0;
                    // The clock once per 64 operations, to keep its cost out
                    // of the figures. At least one round each: a thread that
                    // starts after a short deadline (a busy machine) would
                    // otherwise count nothing, and a rate could read 0.
                    loop {
                        for _ in 0..64 {
                            op(&mut rng)?;
                        }
                        done += 64;
                        if started.elapsed() >= deadline {
                            break;
                        }
                    }
                    Ok(done)
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("benchmark worker panicked"))
            .collect()
    });
    Ok(counts?.iter().sum::<u64>() as f64 / started.elapsed().as_secs_f64())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_structure_passes_the_checks_on_every_kind() {
        let order = shuffled(3000);
        for kind in KINDS {
            let keys = encode_keys(kind, 3000).unwrap();
            assert_eq!(keys.len(), 3000);
            let workload = Workload {
                keys: &keys,
                order: &order,
                seconds: 0.01,
                scan_length: 100,
            };
            for structure in STRUCTURES {
                let figures = (structure.measure)(&workload, 2).unwrap();
                assert!(figures[..3].iter().all(|&rate| rate > 0.0), "{figures:?}");
            }
        }
        assert_eq!(encode_keys("int", 1).unwrap().width, 9);
    }
}
