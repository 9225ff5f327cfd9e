//! Sequences: `CREATE SEQUENCE s [AS type] [START WITH n] [INCREMENT BY n]
//! [MINVALUE n | NO MINVALUE] [MAXVALUE n | NO MAXVALUE] [CYCLE | NO
//! CYCLE] [CACHE [n] | NO CACHE]`, `DROP SEQUENCE [IF EXISTS] s, ...` and
//! `NEXT VALUE FOR s` in expressions (bound in `bind::expr`).
//!
//! Defaults are SQL Server's: bigint, increment 1, the type's range, the
//! first value at the low end of the range (the high end for a negative
//! increment), no cycling, a cache. The definition is stored like every
//! object's ([`super::store`]); the values come from a durable
//! [`Counter`], which records one block of `CACHE` values at a time (50
//! when no size is given, one value at a time with NO CACHE). After a
//! crash or restart the sequence continues after the recorded block, as
//! SQL Server's does after an unexpected shutdown: the unused rest of the
//! block is a gap, and no value is ever handed out twice.

use super::counter::{integer_range, integer_value, Counter, Series};
use super::store::StoredObject;
use super::Catalog;
use crate::type_names::{self, TypeContext};
use hekla_engine::{Database, SchemaId, Table};
use hekla_parser::ast::{self, SequenceOption};
use hekla_types::{Collation, DataType, SqlError, SqlResult, Value};
use std::sync::Arc;

/// Values reserved per durable write when CACHE gives no size.
pub const DEFAULT_CACHE: u64 = 50;

pub struct Sequence {
    pub object_id: i32,
    pub schema_id: SchemaId,
    pub name: String,
    pub data_type: DataType,
    pub start: i128,
    pub increment: i128,
    pub min: i128,
    pub max: i128,
    pub cycle: bool,
    /// `CACHE n` (Some(Some(n))), `CACHE` (Some(None)), `NO CACHE` (None).
    pub cache: Option<Option<u64>>,
    /// The CREATE SEQUENCE text.
    pub definition: String,
    pub created_ms: i64,
    pub counter: Counter,
}

impl std::fmt::Debug for Sequence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Sequence({} #{})", self.name, self.object_id)
    }
}

/// A sequence as an expression holds it: equal only to itself.
#[derive(Clone, Debug)]
pub struct SequenceRef(pub Arc<Sequence>);

impl PartialEq for SequenceRef {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Sequence {
    pub fn series(&self) -> Series {
        let block = match self.cache {
            None => 1,
            Some(None) => DEFAULT_CACHE,
            Some(Some(size)) => size,
        };
        Series {
            start: self.start,
            increment: self.increment,
            min: self.min,
            max: self.max,
            cycle: self.cycle,
            block,
        }
    }

    /// `NEXT VALUE FOR`: the next value, of the sequence's type; Msg 11728
    /// when a sequence without CYCLE has run out.
    pub fn next_value(&self, engine: &Database) -> SqlResult<Value> {
        match self.counter.next(engine, &self.series())? {
            Some(value) => integer_value(value, &self.data_type),
            None => Err(SqlError::new(
                11728,
                16,
                1,
                format!(
                    "The sequence object '{}' has reached its minimum or maximum value. Restart the sequence object to allow new values to be generated.",
                    self.name
                ),
            )),
        }
    }

    /// `sys.sequences.current_value`: the last value handed out, or the
    /// start value before the first.
    pub fn current_value(&self) -> i128 {
        self.counter.last().unwrap_or(self.start)
    }

    pub fn is_exhausted(&self) -> bool {
        self.counter.is_exhausted(&self.series())
    }

    /// Binds a CREATE SEQUENCE for object `object_id` in `schema_id`;
    /// `counters` is `sys.hekla_counters`.
    pub fn bind(
        create: &ast::CreateSequence,
        schema_id: SchemaId,
        object_id: i32,
        definition: &str,
        counters: Arc<Table>,
    ) -> SqlResult<Sequence> {
        let name = create.name.name().value.clone();
        let data_type = match &create.data_type {
            Some(written) => type_names::resolve(
                written,
                Collation::default(),
                TypeContext::Declaration { ordinal: 1 },
            )?,
            None => DataType::BigInt,
        };
        let Some((type_min, type_max)) = integer_range(&data_type) else {
            return Err(SqlError::new(
                11702,
                16,
                2,
                format!("The sequence object '{name}' must be of data type int, bigint, smallint, tinyint, or decimal or numeric with a scale of 0, or any user-defined data type that is based on one of the above integer data types."),
            ));
        };
        let mut options = Options::default();
        for option in &create.options {
            options.take(option)?;
        }
        let value = |expr: Option<&ast::Expr>, argument: &str| -> SqlResult<Option<i128>> {
            let Some(expr) = expr else {
                return Ok(None);
            };
            super::identity::constant_integer(expr)
                .filter(|v| (type_min..=type_max).contains(v))
                .map(Some)
                .ok_or_else(|| {
                    SqlError::new(
                        11708,
                        16,
                        1,
                        format!("An invalid value was specified for argument '{argument}' for the given data type."),
                    )
                })
        };
        let increment = value(options.increment.as_ref(), "INCREMENT BY")?.unwrap_or(1);
        let min =
            value(options.min.as_ref().and_then(Option::as_ref), "MINVALUE")?.unwrap_or(type_min);
        let max =
            value(options.max.as_ref().and_then(Option::as_ref), "MAXVALUE")?.unwrap_or(type_max);
        let start = value(options.start.as_ref(), "START WITH")?;
        if increment == 0 {
            return Err(SqlError::new(
                11700,
                16,
                1,
                format!("The increment for sequence object '{name}' cannot be zero."),
            ));
        }
        if min >= max {
            return Err(SqlError::new(
                11705,
                16,
                2,
                format!("The minimum value for sequence object '{name}' must be less than its maximum value."),
            ));
        }
        let start = start.unwrap_or(if increment > 0 { min } else { max });
        if !(min..=max).contains(&start) {
            return Err(SqlError::new(
                11703,
                16,
                1,
                format!("The start value for sequence object '{name}' must be between the minimum and maximum value of the sequence object."),
            ));
        }
        if increment.unsigned_abs() > (max - min).unsigned_abs() {
            return Err(SqlError::new(
                11701,
                16,
                1,
                format!("The absolute value of the increment for sequence object '{name}' must be less than or equal to the difference between the minimum and maximum value of the sequence object."),
            ));
        }
        let cache = match options.cache {
            None => Some(None),
            Some(None) => None,
            Some(Some(None)) => Some(None),
            Some(Some(Some(expr))) => match super::identity::constant_integer(&expr) {
                Some(size) if size > 0 => Some(Some(u64::try_from(size).unwrap_or(u64::MAX))),
                _ => {
                    return Err(SqlError::new(
                        11706,
                        16,
                        1,
                        format!(
                            "The cache size for sequence object '{name}' must be greater than 0."
                        ),
                    ))
                }
            },
        };
        Ok(Sequence {
            object_id,
            schema_id,
            name,
            data_type,
            start,
            increment,
            min,
            max,
            cycle: options.cycle.unwrap_or(false),
            cache,
            definition: definition.to_string(),
            created_ms: super::store::now_ms(),
            counter: Counter::new(object_id, counters),
        })
    }

    /// Re-binds a stored CREATE SEQUENCE at open; `recorded` is the value
    /// its counter recorded last, if it ever handed one out.
    pub fn restore(
        catalog: &Catalog,
        object: &StoredObject,
        recorded: Option<i128>,
    ) -> SqlResult<Sequence> {
        let damaged = |why: &str| {
            SqlError::new(
                3414,
                21,
                1,
                format!(
                    "The stored definition of sequence object {} cannot be restored: {why}.",
                    object.object_id
                ),
            )
        };
        let batch =
            hekla_parser::parse_batch(&object.definition).map_err(|e| damaged(&e.message))?;
        let Some(ast::StatementKind::CreateSequence(create)) =
            batch.statements.first().map(|s| &s.kind)
        else {
            return Err(damaged("it is not a CREATE SEQUENCE"));
        };
        let mut sequence = Sequence::bind(
            create,
            object.schema_id,
            object.object_id,
            &object.definition,
            catalog.counter_table().clone(),
        )?;
        sequence.created_ms = object.created_ms;
        sequence.counter.resume(recorded);
        Ok(sequence)
    }
}

/// The options of one CREATE SEQUENCE, each at most once (Msg 11712).
#[derive(Default)]
struct Options {
    start: Option<ast::Expr>,
    increment: Option<ast::Expr>,
    min: Option<Option<ast::Expr>>,
    max: Option<Option<ast::Expr>>,
    cycle: Option<bool>,
    cache: Option<Option<Option<ast::Expr>>>,
}

impl Options {
    fn take(&mut self, option: &SequenceOption) -> SqlResult<()> {
        fn once<T>(slot: &mut Option<T>, value: T, argument: &str) -> SqlResult<()> {
            if slot.is_some() {
                return Err(SqlError::new(
                    11712,
                    15,
                    1,
                    format!("Argument '{argument}' can not be specified more than once."),
                ));
            }
            *slot = Some(value);
            Ok(())
        }
        match option {
            SequenceOption::StartWith(expr) => once(&mut self.start, expr.clone(), "START WITH"),
            SequenceOption::IncrementBy(expr) => {
                once(&mut self.increment, expr.clone(), "INCREMENT BY")
            }
            SequenceOption::MinValue(expr) => once(&mut self.min, expr.clone(), "MINVALUE"),
            SequenceOption::MaxValue(expr) => once(&mut self.max, expr.clone(), "MAXVALUE"),
            SequenceOption::Cycle(cycle) => once(&mut self.cycle, *cycle, "CYCLE"),
            SequenceOption::Cache(size) => once(&mut self.cache, size.clone(), "CACHE"),
            SequenceOption::Restart(_) => Err(SqlError::new(
                11709,
                15,
                1,
                "The 'RESTART WITH' argument cannot be used in a CREATE SEQUENCE statement.",
            )),
        }
    }
}

/// A name as written, parts joined with dots.
pub fn written(name: &ast::ObjectName) -> String {
    name.parts
        .iter()
        .map(|p| p.as_ref().map_or("", |i| i.value.as_str()))
        .collect::<Vec<_>>()
        .join(".")
}
