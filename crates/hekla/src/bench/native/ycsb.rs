//! YCSB's read and update as natively compiled procedures (issue 19):
//! `hekla bench ycsb`'s `dbo.usertable` (a varchar(255) hash key and ten
//! varchar(100) fields), SCHEMA_ONLY in an in-memory database, loaded by
//! its load phase; then `dbo.ycsb_read` (`SELECT *` by key) and
//! `dbo.ycsb_update_FIELDn` (one field set by key, a field chosen at
//! random as YCSB's `writeallfields=false` does: a procedure per field,
//! since a native module's statements are fixed) called as RPCs on one
//! thread, keys zipfian as workload A's, interpreted and compiled.

use super::{Counting, Report};
use crate::bench::counting;
use crate::bench::report::format_value;
use crate::bench::workload::{field_value, ycsb_key, Rng, Zipfian};
use crate::bench::ycsb::{field_type, key_type, load_usertable, FIELDS, FIELD_LENGTH};
use crate::sql::first_value::first_value;
use hekla_sql::rpc::{RpcParameter, RpcValue};
use hekla_sql::session::{Session, SqlDatabase};
use hekla_types::Value;
use std::time::{Duration, Instant};

#[derive(Clone, Copy)]
enum Operation {
    Read,
    Update,
}

impl Operation {
    fn name(self) -> &'static str {
        match self {
            Operation::Read => "read",
            Operation::Update => "update",
        }
    }
}

pub(super) fn ycsb(
    report: &mut Report,
    records: u64,
    duration: Duration,
    rounds: u32,
) -> Result<(), String> {
    let db = SqlDatabase::in_memory().map_err(|e| e.message)?;
    let start = Instant::now();
    load_usertable(&db, records, false)?;
    let load_s = start.elapsed().as_secs_f64();
    let mut session = db.session().map_err(|e| e.message)?;
    let loaded = first_value(&mut session, "SELECT COUNT_BIG(*) FROM dbo.usertable")?;
    if loaded != Value::BigInt(records as i64) {
        return Err(format!("dbo.usertable: {loaded} rows, {records} loaded"));
    }
    create_procedures(&mut session)?;
    if !report.is_json() {
        println!(
            "\n## YCSB read and update as native procedures: dbo.usertable, {records} records \
             (loaded in {load_s:.1} s), SCHEMA_ONLY, one RPC per operation, one thread, \
             zipfian keys, {:.1} s each, best of {rounds}\n",
            duration.as_secs_f64()
        );
        println!(
            "{:<10} {:>16} {:>16} {:>8}",
            "operation", "interpreted/s", "compiled/s", "ratio"
        );
    }
    let keys = Zipfian::new(records.max(2), 0.99);
    let mut rng = Rng::new(19);
    for operation in [Operation::Read, Operation::Update] {
        // Interpreted, compiled: the best of the rounds, taking turns to
        // go first.
        let mut per_s = [0.0f64; 2];
        for round in 0..rounds {
            let first = round % 2 == 1;
            for compiled in [first, !first] {
                db.set_native_compilation(compiled);
                let measured = operations_per_s(
                    &mut session,
                    operation,
                    (&keys, &mut rng),
                    records,
                    duration,
                )?;
                let best = &mut per_s[usize::from(compiled)];
                *best = best.max(measured);
            }
        }
        for (mode, per_s) in ["interpreted", "compiled"].into_iter().zip(per_s) {
            report.record(
                format!("ycsb_{}_{mode}_per_s", operation.name()),
                per_s,
                "ops/s",
            );
        }
        if !report.is_json() {
            println!(
                "{:<10} {:>16} {:>16} {:>7.2}x",
                operation.name(),
                format_value(per_s[0]),
                format_value(per_s[1]),
                per_s[1] / per_s[0]
            );
        }
    }
    Ok(())
}

fn create_procedures(session: &mut Session) -> Result<(), String> {
    let procedure = |name: &str, parameters: &str, statement: &str| {
        format!(
            "CREATE PROCEDURE dbo.{name} {parameters} WITH NATIVE_COMPILATION, SCHEMABINDING AS
             BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')
                 {statement}
             END"
        )
    };
    counting::execute(
        session,
        &procedure(
            "ycsb_read",
            "@k varchar(255)",
            "SELECT * FROM dbo.usertable WHERE YCSB_KEY = @k",
        ),
    )?;
    for field in 0..FIELDS {
        counting::execute(
            session,
            &procedure(
                &format!("ycsb_update_FIELD{field}"),
                &format!("@k varchar(255), @v varchar({FIELD_LENGTH})"),
                &format!("UPDATE dbo.usertable SET FIELD{field} = @v WHERE YCSB_KEY = @k"),
            ),
        )?;
    }
    Ok(())
}

/// Calls the operation's procedure for `duration`: calls/s. Fails unless
/// every call read or updated exactly its one row.
fn operations_per_s(
    session: &mut Session,
    operation: Operation,
    (keys, rng): (&Zipfian, &mut Rng),
    records: u64,
    duration: Duration,
) -> Result<f64, String> {
    let start = Instant::now();
    let mut calls = 0u64;
    while start.elapsed() < duration {
        let key = ycsb_key(keys.next(rng) % records);
        let key = parameter("k", key_type(), key);
        let (procedure, parameters) = match operation {
            Operation::Read => ("dbo.ycsb_read".to_string(), vec![key]),
            Operation::Update => (
                format!("dbo.ycsb_update_FIELD{}", rng.below(FIELDS as u64)),
                vec![
                    key,
                    parameter("v", field_type(), field_value(rng, FIELD_LENGTH)),
                ],
            ),
        };
        let mut sink = Counting::default();
        session.call(&procedure, parameters, &mut sink);
        if let Some(error) = sink.error {
            return Err(format!("{procedure}: {error}"));
        }
        let touched = match operation {
            Operation::Read => sink.rows,
            Operation::Update => sink.affected,
        };
        if touched != 1 {
            return Err(format!("{procedure}: {touched} rows, expected 1"));
        }
        calls += 1;
    }
    Ok(calls as f64 / start.elapsed().as_secs_f64())
}

fn parameter(name: &str, data_type: hekla_types::DataType, value: String) -> RpcParameter {
    RpcParameter {
        name: Some(name.to_string()),
        data_type,
        value: RpcValue::Scalar(Value::String(value)),
        output: false,
    }
}
