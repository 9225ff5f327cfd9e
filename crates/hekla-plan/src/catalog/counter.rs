//! Generated numbers that survive restarts: the values of IDENTITY columns
//! and sequences.
//!
//! A [`Counter`] hands out the values of a [`Series`] from memory. Values
//! are never given back: a statement that takes one and then rolls back
//! leaves a gap, as in SQL Server. Before a value goes out, the counter
//! makes sure a block of values reaching at least that far is recorded in
//! a hidden durable engine table, `sys.hekla_counters` (one row per
//! object: its id and the last value of the latest reserved block), in a
//! transaction of its own that commits at once, whatever becomes of the
//! statement that asked. That is SQL Server's identity cache and sequence
//! `CACHE`: one durable write per block, not per value.
//!
//! After a restart a counter resumes after the recorded value, so no value
//! is ever handed out twice. When the database closes cleanly, each
//! counter first records the last value it handed out instead of the end
//! of its block ([`Counter::release_unused`]), so the next open continues
//! without a gap, as SQL Server writes its cache's next value at an orderly
//! shutdown; after a crash the unused rest of the block is skipped (SQL
//! Server's gap after an unexpected shutdown). The block's commit returns once it is in the log on disk (unless the
//! database delays durability), before any of its values goes out, so a
//! row that survives a crash always has its block recorded too.

use hekla_engine::{
    ColumnDef, Database, IndexDef, IsolationLevel, SchemaId, Table, TableDef, Transaction,
    Uniqueness,
};
use hekla_types::{DataType, Decimal, SqlError, SqlResult, Value};
use std::collections::HashMap;
use std::ops::ControlFlow;
use std::sync::{Arc, Mutex};

const COUNTER_TABLE: &str = "hekla_counters";
const COUNTER_BUCKETS: u64 = 1024;
/// decimal(38, 0) holds the values of every type a counter can have.
const STORED_TYPE: DataType = DataType::Decimal {
    precision: 38,
    scale: 0,
};

/// `sys.hekla_counters`: `(object_id int, reserved decimal(38, 0))`.
pub struct CounterTable {
    table: Arc<Table>,
}

impl CounterTable {
    /// Finds the table in schema `schema` of `db`, creating it the first
    /// time (also in a database made before hekla had counters).
    pub fn open(db: &Database, schema: SchemaId, schema_name: &str) -> SqlResult<CounterTable> {
        if let Some(table) = db.table_named(schema_name, COUNTER_TABLE) {
            return Ok(CounterTable { table });
        }
        let columns = vec![
            ColumnDef::new("object_id", DataType::Int, false),
            ColumnDef::new("reserved", STORED_TYPE, false),
        ];
        let key = IndexDef::hash(
            "PK_hekla_counters",
            &[0],
            COUNTER_BUCKETS,
            Uniqueness::PrimaryKey,
        );
        let mut def = TableDef::new(COUNTER_TABLE, columns, vec![key]);
        def.schema = schema;
        Ok(CounterTable {
            table: db.create_table(def)?,
        })
    }

    pub fn engine_table(&self) -> &Arc<Table> {
        &self.table
    }

    /// Every recorded value, by object id.
    pub fn load(&self, db: &Database) -> SqlResult<HashMap<i32, i128>> {
        let mut tx = db.begin(IsolationLevel::Snapshot)?;
        let mut values = HashMap::new();
        tx.scan(&self.table, |row| {
            if let (Value::Int(id), Some(value)) = (row.value(0), integer(&row.value(1))) {
                values.insert(id, value);
            }
            ControlFlow::<()>::Continue(())
        })?;
        tx.commit()?;
        Ok(values)
    }

    /// Removes the row of `object_id`, if it has one, within `tx`.
    pub fn delete(&self, tx: &mut Transaction, object_id: i32) -> SqlResult<()> {
        if let Some(row) = tx.get(&self.table, 0, &[Value::Int(object_id)])? {
            tx.delete(&self.table, row)?;
        }
        Ok(())
    }

    /// Removes the rows of objects that no longer exist (a DROP that
    /// raced a block reservation, or an id a dropped object left free).
    pub fn retain(&self, db: &Database, keep: impl Fn(i32) -> bool) -> SqlResult<()> {
        let mut tx = db.begin(IsolationLevel::Snapshot)?;
        let mut stale = Vec::new();
        tx.scan(&self.table, |row| {
            match row.value(0) {
                Value::Int(id) if keep(id) => {}
                _ => stale.push(row.id()),
            }
            ControlFlow::<()>::Continue(())
        })?;
        if stale.is_empty() {
            tx.rollback();
            return Ok(());
        }
        for row in stale {
            tx.delete(&self.table, row)?;
        }
        tx.commit().map(|_| ())
    }
}

/// The arithmetic of a series of generated values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Series {
    /// The first value.
    pub start: i128,
    /// Never 0; negative for a descending series.
    pub increment: i128,
    pub min: i128,
    pub max: i128,
    /// After the last value comes the first of the other end (`min` when
    /// ascending); without it the series is exhausted.
    pub cycle: bool,
    /// Values reserved per durable write (at least 1).
    pub block: u64,
}

impl Series {
    /// The value after `last`; None when the series is exhausted.
    pub fn after(&self, last: i128) -> Option<i128> {
        match last.checked_add(self.increment) {
            Some(next) if (self.min..=self.max).contains(&next) => Some(next),
            _ if self.cycle => Some(if self.increment > 0 {
                self.min
            } else {
                self.max
            }),
            _ => None,
        }
    }

    /// The last value of a block that starts at `first`: `block - 1` steps
    /// on, or the end of the range if that comes first.
    fn block_end(&self, first: i128) -> (i128, u64) {
        let mut end = first;
        let mut count = 1;
        while count < self.block {
            match end.checked_add(self.increment) {
                Some(next) if (self.min..=self.max).contains(&next) => {
                    end = next;
                    count += 1;
                }
                _ => break,
            }
        }
        (end, count)
    }
}

/// Where a counter stood before [`Counter::restart`].
#[derive(Clone, Copy, Debug)]
pub struct CounterState {
    last: Option<i128>,
    left: u64,
}

/// The values of one object.
pub struct Counter {
    object_id: i32,
    table: Arc<Table>,
    state: Mutex<State>,
}

struct State {
    /// The last value handed out (or recorded, after a restart).
    last: Option<i128>,
    /// Values left in the recorded block after `last`.
    left: u64,
    /// The object is gone: nothing more is recorded for it.
    dropped: bool,
}

impl Counter {
    /// A counter that has handed out nothing yet; `table` is
    /// `sys.hekla_counters`.
    pub fn new(object_id: i32, table: Arc<Table>) -> Counter {
        Counter {
            object_id,
            table,
            state: Mutex::new(State {
                last: None,
                left: 0,
                dropped: false,
            }),
        }
    }

    /// At open: continue after the value recorded before the restart.
    pub fn resume(&self, recorded: Option<i128>) {
        let mut state = self.state.lock().expect("counter lock");
        state.last = recorded;
        state.left = 0;
    }

    /// Carries on from `other`, the same object's counter until now (ALTER
    /// TABLE rebuilt the table): its last value and what is left of its
    /// recorded block.
    pub fn take_over(&self, other: &Counter) {
        let (last, left) = {
            let theirs = other.state.lock().expect("counter lock");
            (theirs.last, theirs.left)
        };
        let mut state = self.state.lock().expect("counter lock");
        state.last = last;
        state.left = left;
    }

    /// The last value handed out, if any.
    pub fn last(&self) -> Option<i128> {
        self.state.lock().expect("counter lock").last
    }

    /// Whether the next value would exhaust the series.
    pub fn is_exhausted(&self, series: &Series) -> bool {
        let last = self.state.lock().expect("counter lock").last;
        last.is_some_and(|last| series.after(last).is_none())
    }

    /// TRUNCATE TABLE: the next value is the series' start again. The
    /// first block from the start is recorded in `tx`, the truncating
    /// transaction, so the restart is durable exactly when the truncation
    /// is, and values up to the block's end need no other write to the
    /// record while that transaction is open. The returned state puts the
    /// counter back if the transaction rolls back.
    pub fn restart(&self, tx: &mut Transaction, series: &Series) -> SqlResult<CounterState> {
        let mut state = self.state.lock().expect("counter lock");
        let (end, count) = series.block_end(series.start);
        self.write(tx, end)?;
        let before = CounterState {
            last: state.last,
            left: state.left,
        };
        state.last = None;
        state.left = count;
        Ok(before)
    }

    /// Undoes [`Counter::restart`]: the truncation rolled back.
    pub fn restore(&self, before: CounterState) {
        let mut state = self.state.lock().expect("counter lock");
        state.last = before.last;
        state.left = before.left;
    }

    /// The object was dropped: stop recording (its row goes with the DROP).
    pub fn retire(&self) {
        self.state.lock().expect("counter lock").dropped = true;
    }

    /// The next value of `series`, recording a new block in `engine` first
    /// when the current one is used up; None when the series is exhausted.
    pub fn next(&self, engine: &Database, series: &Series) -> SqlResult<Option<i128>> {
        let mut state = self.state.lock().expect("counter lock");
        let value = match state.last {
            None => series.start,
            Some(last) => match series.after(last) {
                Some(value) => value,
                None => return Ok(None),
            },
        };
        if state.left == 0 {
            let (end, count) = series.block_end(value);
            if !state.dropped {
                self.record(engine, end)?;
            }
            state.left = count;
        }
        state.left -= 1;
        state.last = Some(value);
        Ok(Some(value))
    }

    /// A value given explicitly (`SET IDENTITY_INSERT ... ON`): when it lies
    /// beyond the last value handed out, it becomes the last one. Past the
    /// reserved block, the block from it is recorded first, so that no
    /// value after a restart can repeat it.
    pub fn observe(&self, engine: &Database, series: &Series, value: i128) -> SqlResult<()> {
        let beyond = |a: i128, b: i128| {
            if series.increment > 0 {
                a > b
            } else {
                a < b
            }
        };
        let mut state = self.state.lock().expect("counter lock");
        let advances = match state.last {
            Some(last) => beyond(value, last),
            None => !beyond(series.start, value),
        };
        if !advances {
            return Ok(());
        }
        let reserved_end = state
            .last
            .filter(|_| state.left > 0)
            .and_then(|last| last.checked_add(series.increment.checked_mul(state.left as i128)?));
        match reserved_end {
            Some(end) if !beyond(value, end) => {
                state.left = u64::try_from((end - value) / series.increment).unwrap_or(0);
            }
            _ => {
                let (end, count) = series.block_end(value);
                if !state.dropped {
                    self.record(engine, end)?;
                }
                state.left = count - 1;
            }
        }
        state.last = Some(value);
        Ok(())
    }

    /// At a clean close: records the last value handed out instead of the
    /// end of its block, so that the next open continues right after it.
    /// The block is given up: a value asked for after this reserves anew.
    /// A counter restarted by TRUNCATE that handed out nothing since
    /// records nothing, so that the next open starts at the beginning.
    pub fn release_unused(&self, engine: &Database) -> SqlResult<()> {
        let mut state = self.state.lock().expect("counter lock");
        if state.left == 0 || state.dropped {
            return Ok(());
        }
        let mut tx = engine.begin(IsolationLevel::Snapshot)?;
        match state.last {
            Some(last) => self.write(&mut tx, last)?,
            None => {
                if let Some(row) = tx.get(&self.table, 0, &[Value::Int(self.object_id)])? {
                    tx.delete(&self.table, row)?;
                }
            }
        }
        tx.commit()?;
        state.left = 0;
        Ok(())
    }

    /// Writes `reserved` as this object's recorded value, committed now.
    fn record(&self, engine: &Database, reserved: i128) -> SqlResult<()> {
        let mut tx = engine.begin(IsolationLevel::Snapshot)?;
        self.write(&mut tx, reserved)?;
        tx.commit().map(|_| ())
    }

    /// Writes `reserved` as this object's recorded value in `tx`.
    fn write(&self, tx: &mut Transaction, reserved: i128) -> SqlResult<()> {
        let stored = Value::Decimal(Decimal::new(reserved, 38, 0)?);
        let key = [Value::Int(self.object_id)];
        match tx.get(&self.table, 0, &key)? {
            Some(row) => {
                tx.update(&self.table, row, &[(1, stored)])?;
            }
            None => {
                tx.insert(&self.table, &[Value::Int(self.object_id), stored])?;
            }
        }
        Ok(())
    }
}

/// The range of values of an integer type, or of decimal/numeric with
/// scale 0 (the types IDENTITY and sequences take); None for other types.
pub fn integer_range(data_type: &DataType) -> Option<(i128, i128)> {
    Some(match *data_type {
        DataType::TinyInt => (0, i128::from(u8::MAX)),
        DataType::SmallInt => (i128::from(i16::MIN), i128::from(i16::MAX)),
        DataType::Int => (i128::from(i32::MIN), i128::from(i32::MAX)),
        DataType::BigInt => (i128::from(i64::MIN), i128::from(i64::MAX)),
        DataType::Decimal {
            precision,
            scale: 0,
        } => {
            let limit = 10i128.pow(u32::from(precision)) - 1;
            (-limit, limit)
        }
        _ => return None,
    })
}

/// `value` as a value of `data_type` (one [`integer_range`] accepts, and
/// within its range).
pub fn integer_value(value: i128, data_type: &DataType) -> SqlResult<Value> {
    let overflow = || SqlError::arithmetic_overflow("expression", &data_type.sql_name());
    Ok(match *data_type {
        DataType::TinyInt => Value::TinyInt(u8::try_from(value).map_err(|_| overflow())?),
        DataType::SmallInt => Value::SmallInt(i16::try_from(value).map_err(|_| overflow())?),
        DataType::Int => Value::Int(i32::try_from(value).map_err(|_| overflow())?),
        DataType::BigInt => Value::BigInt(i64::try_from(value).map_err(|_| overflow())?),
        DataType::Decimal { precision, scale } => {
            Value::Decimal(Decimal::new(value, precision, scale).map_err(|_| overflow())?)
        }
        _ => return Err(overflow()),
    })
}

/// An integer or scale-0 decimal value as i128.
pub fn integer(value: &Value) -> Option<i128> {
    match value {
        Value::Decimal(d) if d.scale == 0 => Some(d.mantissa),
        other => other.as_i64().map(i128::from),
    }
}

/// A value of a counter as decimal(38, 0), the type catalog views show
/// sequence and identity values in.
pub fn as_decimal(value: i128) -> Value {
    Decimal::new(value, 38, 0).map_or(Value::Null, Value::Decimal)
}

#[cfg(test)]
mod tests {
    use super::*;
    use hekla_engine::DatabaseConfig;

    fn series(start: i128, increment: i128, min: i128, max: i128, cycle: bool) -> Series {
        Series {
            start,
            increment,
            min,
            max,
            cycle,
            block: 3,
        }
    }

    fn counter(db: &Database, object_id: i32) -> (CounterTable, Counter) {
        let schema = match db.schema_id("sys") {
            Some(id) => id,
            None => db.create_schema("sys").unwrap(),
        };
        let table = CounterTable::open(db, schema, "sys").unwrap();
        let counter = Counter::new(object_id, table.engine_table().clone());
        (table, counter)
    }

    #[test]
    fn values_step_cycle_and_run_out() {
        let db = Database::new(DatabaseConfig::default());
        let (_, up) = counter(&db, 7);
        let ascending = series(8, 1, 1, 10, true);
        let values: Vec<_> = (0..5)
            .map(|_| up.next(&db, &ascending).unwrap().unwrap())
            .collect();
        assert_eq!(values, [8, 9, 10, 1, 2]);
        let (_, down) = counter(&db, 8);
        let once = series(2, -2, -3, 5, false);
        assert_eq!(down.next(&db, &once).unwrap(), Some(2));
        assert_eq!(down.next(&db, &once).unwrap(), Some(0));
        assert_eq!(down.next(&db, &once).unwrap(), Some(-2));
        assert!(down.is_exhausted(&once));
        assert_eq!(down.next(&db, &once).unwrap(), None);
    }

    #[test]
    fn blocks_are_recorded_before_their_values_go_out() {
        let db = Database::new(DatabaseConfig::default());
        let (table, counter) = counter(&db, 7);
        let s = series(1, 5, 0, 1000, false);
        assert_eq!(counter.next(&db, &s).unwrap(), Some(1));
        assert_eq!(table.load(&db).unwrap()[&7], 11);
        counter.next(&db, &s).unwrap();
        counter.next(&db, &s).unwrap();
        assert_eq!(table.load(&db).unwrap()[&7], 11);
        assert_eq!(counter.next(&db, &s).unwrap(), Some(16));
        assert_eq!(table.load(&db).unwrap()[&7], 26);
        // A restart resumes after the block, skipping what it did not use.
        let resumed = Counter::new(7, table.engine_table().clone());
        resumed.resume(Some(26));
        assert_eq!(resumed.next(&db, &s).unwrap(), Some(31));
        // A clean close gives the unused rest of the block back.
        assert_eq!(resumed.next(&db, &s).unwrap(), Some(36));
        resumed.release_unused(&db).unwrap();
        assert_eq!(table.load(&db).unwrap()[&7], 36);
        resumed.release_unused(&db).unwrap();
        assert_eq!(table.load(&db).unwrap()[&7], 36);
        let reopened = Counter::new(7, table.engine_table().clone());
        reopened.resume(Some(36));
        assert_eq!(reopened.next(&db, &s).unwrap(), Some(41));
        // A value taken after the release reserves a block again.
        assert_eq!(resumed.next(&db, &s).unwrap(), Some(41));
        assert_eq!(table.load(&db).unwrap()[&7], 51);
        table.retain(&db, |id| id != 7).unwrap();
        assert!(table.load(&db).unwrap().is_empty());
    }

    #[test]
    fn integer_types() {
        assert_eq!(integer_range(&DataType::TinyInt), Some((0, 255)));
        let numeric = DataType::Decimal {
            precision: 3,
            scale: 0,
        };
        assert_eq!(integer_range(&numeric), Some((-999, 999)));
        assert_eq!(integer_range(&DataType::Float), None);
        assert_eq!(
            integer_value(300, &DataType::SmallInt).unwrap(),
            Value::SmallInt(300)
        );
        assert_eq!(
            integer_value(300, &DataType::TinyInt).unwrap_err().number,
            8115
        );
        assert_eq!(integer(&integer_value(-5, &numeric).unwrap()), Some(-5));
    }
}
