//! YCSB's CoreWorkload: the operation mix of workloads A–F, which record
//! each operation touches, and the statements that run them against
//! `dbo.usertable` (a key and ten 100-byte fields).

use super::connection::{Connection, Outcome, Parameter};
use super::stats::Status;
use crate::bench::workload::{field_value, ycsb_key, Rng, Zipfian};
use clap::ValueEnum;
use hekla_types::{Collation, DataType, Length, Value};
use std::collections::BTreeSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

pub const FIELDS: usize = 10;
pub const FIELD_LENGTH: usize = 100;
/// YCSB's default `maxscanlength` (uniform in 1..=100).
const MAX_SCAN_LENGTH: u64 = 100;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Workload {
    /// 50% reads, 50% updates, zipfian (update heavy).
    A,
    /// 95% reads, 5% updates, zipfian (read mostly).
    B,
    /// 100% reads, zipfian (read only).
    C,
    /// 95% reads, 5% inserts, the latest records most read.
    D,
    /// 95% short range scans, 5% inserts, zipfian.
    E,
    /// 50% reads, 50% read-modify-writes, zipfian.
    F,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Operation {
    Read,
    Update,
    Insert,
    Scan,
    ReadModifyWrite,
}

impl Operation {
    /// The name YCSB prints it under.
    pub fn label(self) -> &'static str {
        match self {
            Operation::Read => "READ",
            Operation::Update => "UPDATE",
            Operation::Insert => "INSERT",
            Operation::Scan => "SCAN",
            Operation::ReadModifyWrite => "READ-MODIFY-WRITE",
        }
    }
}

impl Workload {
    /// The operations and their proportions (summing to 1).
    fn mix(self) -> &'static [(Operation, f64)] {
        use Operation::*;
        match self {
            Workload::A => &[(Read, 0.5), (Update, 0.5)],
            Workload::B => &[(Read, 0.95), (Update, 0.05)],
            Workload::C => &[(Read, 1.0)],
            Workload::D => &[(Read, 0.95), (Insert, 0.05)],
            Workload::E => &[(Scan, 0.95), (Insert, 0.05)],
            Workload::F => &[(Read, 0.5), (ReadModifyWrite, 0.5)],
        }
    }

    pub fn choose(self, rng: &mut Rng) -> Operation {
        let mix = self.mix();
        let mut point = rng.unit();
        for &(operation, share) in mix {
            if point < share {
                return operation;
            }
            point -= share;
        }
        mix[mix.len() - 1].0
    }

    /// Whether the table needs an ordered index on the key (E's scans).
    pub fn scans(self) -> bool {
        self == Workload::E
    }
}

/// The table, with a hash index on the key sized for `records` (and an
/// ordered one for scans).
pub fn create_table(records: u64, ordered: bool, durable: bool) -> String {
    let buckets = (records * 2).next_power_of_two();
    let fields: Vec<String> = (0..FIELDS)
        .map(|n| format!("FIELD{n} varchar({FIELD_LENGTH}) NULL"))
        .collect();
    let ordered_index = if ordered {
        ", INDEX ix_usertable_key NONCLUSTERED (YCSB_KEY)"
    } else {
        ""
    };
    let durability = if durable {
        "SCHEMA_AND_DATA"
    } else {
        "SCHEMA_ONLY"
    };
    format!(
        "DROP TABLE IF EXISTS dbo.usertable;
         CREATE TABLE dbo.usertable (
             YCSB_KEY varchar(255) NOT NULL PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = {buckets}),
             {}{ordered_index}
         ) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = {durability})",
        fields.join(", ")
    )
}

pub fn key_type() -> DataType {
    DataType::VarChar {
        len: Length::Bounded(255),
        collation: Collation::default(),
    }
}

pub fn field_type() -> DataType {
    DataType::VarChar {
        len: Length::Bounded(FIELD_LENGTH as u32),
        collation: Collation::default(),
    }
}

fn key_parameter(key: String) -> Parameter<'static> {
    Parameter {
        name: "@k",
        data_type: key_type(),
        value: Value::String(key),
    }
}

/// Which records the run's operations touch, shared by its threads.
pub struct Keys {
    workload: Workload,
    /// The next record number an insert takes.
    next: AtomicU64,
    /// Inserts finished, as YCSB's acknowledged counter keeps them: every
    /// record below `limit` is in the table, so a read of the latest ones
    /// never asks for one still being inserted.
    acknowledged: Mutex<Acknowledged>,
    zipfian: Zipfian,
}

struct Acknowledged {
    limit: u64,
    /// Finished inserts above a gap (one still running below them).
    ahead: BTreeSet<u64>,
}

impl Keys {
    pub fn new(workload: Workload, records: u64, zipfian_constant: f64) -> Keys {
        Keys {
            workload,
            next: AtomicU64::new(records),
            acknowledged: Mutex::new(Acknowledged {
                limit: records,
                ahead: BTreeSet::new(),
            }),
            zipfian: Zipfian::new(records.max(2), zipfian_constant),
        }
    }

    /// The record an operation reads or changes.
    fn existing(&self, rng: &mut Rng) -> u64 {
        if self.workload == Workload::D {
            // "latest": the most recently inserted records are the most
            // popular, by the same zipfian ranks counted back from the end.
            let latest = self.acknowledged().limit - 1;
            latest.saturating_sub(self.zipfian.rank(rng))
        } else {
            self.zipfian.next(rng)
        }
    }

    /// A new record number for an insert.
    fn next_insert(&self) -> u64 {
        self.next.fetch_add(1, Ordering::Relaxed)
    }

    /// Record `number` is in the table.
    fn acknowledge(&self, number: u64) {
        let mut acknowledged = self.acknowledged();
        acknowledged.ahead.insert(number);
        while acknowledged.ahead.first() == Some(&acknowledged.limit) {
            acknowledged.ahead.pop_first();
            acknowledged.limit += 1;
        }
    }

    fn acknowledged(&self) -> std::sync::MutexGuard<'_, Acknowledged> {
        // A panicking client thread fails the run; the counter itself is
        // never left half-changed.
        self.acknowledged
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// One operation of the run on `connection`, and how it ended: a read or
/// scan that finds no row is NOT_FOUND, as YCSB counts it; a
/// read-modify-write ends with its read when that did not succeed.
pub fn perform(
    operation: Operation,
    keys: &Keys,
    connection: &mut Connection,
    rng: &mut Rng,
) -> Result<Status, String> {
    let outcome = match operation {
        Operation::Read => read(connection, ycsb_key(keys.existing(rng)))?,
        Operation::Update => update(connection, ycsb_key(keys.existing(rng)), rng)?,
        Operation::Insert => {
            let number = keys.next_insert();
            let outcome = insert(connection, number, rng)?;
            if outcome.error.is_none() {
                keys.acknowledge(number);
            }
            outcome
        }
        Operation::Scan => {
            let length = 1 + rng.below(MAX_SCAN_LENGTH);
            connection.call(
                "SELECT TOP (@n) * FROM dbo.usertable WHERE YCSB_KEY >= @k ORDER BY YCSB_KEY",
                "@n int, @k varchar(255)",
                vec![
                    Parameter {
                        name: "@n",
                        data_type: DataType::Int,
                        value: Value::Int(length as i32),
                    },
                    key_parameter(ycsb_key(keys.existing(rng))),
                ],
            )?
        }
        Operation::ReadModifyWrite => {
            let key = ycsb_key(keys.existing(rng));
            let read = status(read(connection, key.clone())?, true);
            if read != Status::Ok {
                return Ok(read);
            }
            update(connection, key, rng)?
        }
    };
    let reads = matches!(operation, Operation::Read | Operation::Scan);
    Ok(status(outcome, reads))
}

fn status(outcome: Outcome, reads: bool) -> Status {
    match outcome.error {
        Some((number, _)) => Status::Error(number),
        None if reads && outcome.rows == 0 => Status::NotFound,
        None => Status::Ok,
    }
}

/// Inserts record `number` for the load phase.
pub fn load_record(
    connection: &mut Connection,
    number: u64,
    rng: &mut Rng,
) -> Result<Status, String> {
    Ok(status(insert(connection, number, rng)?, false))
}

fn read(connection: &mut Connection, key: String) -> Result<Outcome, String> {
    connection.call(
        "SELECT * FROM dbo.usertable WHERE YCSB_KEY = @k",
        "@k varchar(255)",
        vec![key_parameter(key)],
    )
}

/// Writes one field, as YCSB's default `writeallfields=false` does.
fn update(connection: &mut Connection, key: String, rng: &mut Rng) -> Result<Outcome, String> {
    let field = rng.below(FIELDS as u64);
    connection.call(
        &format!("UPDATE dbo.usertable SET FIELD{field} = @v WHERE YCSB_KEY = @k"),
        "@v varchar(100), @k varchar(255)",
        vec![
            Parameter {
                name: "@v",
                data_type: field_type(),
                value: Value::String(field_value(rng, FIELD_LENGTH)),
            },
            key_parameter(key),
        ],
    )
}

/// Inserts record `number` with all its fields.
fn insert(connection: &mut Connection, number: u64, rng: &mut Rng) -> Result<Outcome, String> {
    let mut parameters = vec![key_parameter(ycsb_key(number))];
    for name in FIELD_PARAMETERS {
        parameters.push(Parameter {
            name,
            data_type: field_type(),
            value: Value::String(field_value(rng, FIELD_LENGTH)),
        });
    }
    connection.call(
        "INSERT INTO dbo.usertable VALUES (@k, @f0, @f1, @f2, @f3, @f4, @f5, @f6, @f7, @f8, @f9)",
        "@k varchar(255), @f0 varchar(100), @f1 varchar(100), @f2 varchar(100), \
         @f3 varchar(100), @f4 varchar(100), @f5 varchar(100), @f6 varchar(100), \
         @f7 varchar(100), @f8 varchar(100), @f9 varchar(100)",
        parameters,
    )
}

const FIELD_PARAMETERS: [&str; FIELDS] = [
    "@f0", "@f1", "@f2", "@f3", "@f4", "@f5", "@f6", "@f7", "@f8", "@f9",
];
