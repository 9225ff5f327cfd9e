//! Hash aggregation: rows are grouped by the collation-aware key encoding
//! of their GROUP BY values (so 'a' and 'A' share a group under a
//! case-insensitive collation, as in SQL Server), and each group keeps one
//! accumulator per aggregate call. Groups come out in the order they were
//! first met.

use super::eval::Inputs;
use crate::bind::aggregate::{AggregateCall, AggregateFunction, Grouping};
use hekla_types::convert::convert_from;
use hekla_types::ops::{self, ArithOp};
use hekla_types::{encode_key, DataType, SortOrder, SqlError, SqlResult, Value};
use std::collections::{HashMap, HashSet};

/// Groups being built.
pub struct Groups<'a> {
    grouping: &'a Grouping,
    index: HashMap<Vec<u8>, usize>,
    /// Each group's key values, grouping set and accumulators.
    groups: Vec<(Vec<Value>, Option<usize>, Vec<Accumulator>)>,
    key_types: Vec<(DataType, SortOrder)>,
}

impl<'a> Groups<'a> {
    pub fn new(grouping: &'a Grouping) -> Self {
        Groups {
            grouping,
            index: HashMap::new(),
            groups: Vec::new(),
            key_types: grouping
                .keys
                .iter()
                .map(|(_, key)| (key.data_type, SortOrder::Ascending))
                .collect(),
        }
    }

    fn fresh_accumulators(&self) -> Vec<Accumulator> {
        self.grouping
            .aggregates
            .iter()
            .map(|(_, call)| Accumulator::new(call))
            .collect()
    }

    /// Adds one input row to its group (to one group per grouping set).
    pub fn add(&mut self, inputs: &Inputs<'_>) -> SqlResult<()> {
        let keys = self
            .grouping
            .keys
            .iter()
            .map(|(_, key)| key.eval(inputs))
            .collect::<SqlResult<Vec<Value>>>()?;
        if self.grouping.sets.is_empty() {
            let position = self.position(keys, None)?;
            let accumulators = &mut self.groups[position].2;
            for ((_, call), accumulator) in self.grouping.aggregates.iter().zip(accumulators) {
                accumulator.add(call, argument(call, inputs)?)?;
            }
            return Ok(());
        }
        let values = self
            .grouping
            .aggregates
            .iter()
            .map(|(_, call)| argument(call, inputs))
            .collect::<SqlResult<Vec<Option<Value>>>>()?;
        for set in 0..self.grouping.sets.len() {
            let rolled: Vec<Value> = keys
                .iter()
                .zip(&self.grouping.sets[set])
                .map(|(key, &kept)| if kept { key.clone() } else { Value::Null })
                .collect();
            let position = self.position(rolled, Some(set))?;
            let accumulators = &mut self.groups[position].2;
            for (((_, call), accumulator), value) in self
                .grouping
                .aggregates
                .iter()
                .zip(accumulators)
                .zip(&values)
            {
                accumulator.add(call, value.clone())?;
            }
        }
        Ok(())
    }

    /// The group of `keys` (in grouping set `set`), made if new.
    fn position(&mut self, keys: Vec<Value>, set: Option<usize>) -> SqlResult<usize> {
        if keys.is_empty() {
            // No GROUP BY: one group, no key to encode.
            if self.groups.is_empty() {
                self.groups.push((keys, set, self.fresh_accumulators()));
            }
            return Ok(0);
        }
        let mut encoded = Vec::new();
        if let Some(set) = set {
            // Rows of different sets never share a group, even when the
            // keys they keep are equal.
            encoded.extend_from_slice(&(set as u16).to_be_bytes());
        }
        encode_key(&self.key_types, &keys, &mut encoded)?;
        let next = self.groups.len();
        let position = *self.index.entry(encoded).or_insert(next);
        if position == next {
            self.groups.push((keys, set, self.fresh_accumulators()));
        }
        Ok(position)
    }

    /// The grouped rows: key values, then aggregate results, then (with
    /// grouping sets) the GROUPING() flags. A query with aggregates and no
    /// GROUP BY, and a grand-total grouping set, has its group even over
    /// no rows.
    pub fn finish(mut self) -> SqlResult<Vec<Vec<Value>>> {
        if self.groups.is_empty() && self.grouping.keys.is_empty() {
            self.groups
                .push((Vec::new(), None, self.fresh_accumulators()));
        }
        for (set, kept) in self.grouping.sets.iter().enumerate() {
            let grand_total = kept.iter().all(|k| !k);
            if grand_total && !self.groups.iter().any(|(_, s, _)| *s == Some(set)) {
                let nulls = vec![Value::Null; self.grouping.keys.len()];
                self.groups
                    .push((nulls, Some(set), self.fresh_accumulators()));
            }
        }
        let sets = &self.grouping.sets;
        self.groups
            .into_iter()
            .map(|(mut row, set, accumulators)| {
                for ((_, call), accumulator) in self.grouping.aggregates.iter().zip(accumulators) {
                    row.push(accumulator.finish(call)?);
                }
                if let Some(set) = set {
                    row.extend(
                        sets[set]
                            .iter()
                            .map(|&kept| Value::TinyInt(u8::from(!kept))),
                    );
                }
                Ok(row)
            })
            .collect()
    }
}

/// The value an aggregate call adds for a row (None for COUNT(*)).
fn argument(call: &AggregateCall, inputs: &Inputs<'_>) -> SqlResult<Option<Value>> {
    match &call.argument {
        Some(argument) => argument.eval(inputs).map(Some),
        None => Ok(None),
    }
}

/// One aggregate's running state.
#[derive(Clone)]
pub struct Accumulator {
    /// Non-NULL inputs seen (COUNT, and AVG's divisor).
    count: i64,
    /// SUM / AVG running total, MIN / MAX best so far (in the result type).
    value: Value,
    /// COUNT(DISTINCT x) and friends: the encodings already counted.
    seen: Option<HashSet<Vec<u8>>>,
}

impl Accumulator {
    pub fn new(call: &AggregateCall) -> Self {
        Accumulator {
            count: 0,
            value: Value::Null,
            seen: call.distinct.then(HashSet::new),
        }
    }

    /// Adds one input value (None for COUNT(*)'s row).
    pub fn add(&mut self, call: &AggregateCall, value: Option<Value>) -> SqlResult<()> {
        let Some(value) = value else {
            self.count += 1; // COUNT(*)
            return Ok(());
        };
        if value.is_null() {
            return Ok(());
        }
        let argument_type = call
            .argument
            .as_ref()
            .expect("a value comes from an argument")
            .data_type;
        if let Some(seen) = &mut self.seen {
            let mut encoded = Vec::new();
            encode_key(
                &[(argument_type, SortOrder::Ascending)],
                std::slice::from_ref(&value),
                &mut encoded,
            )?;
            if !seen.insert(encoded) {
                return Ok(());
            }
        }
        self.count += 1;
        match call.function {
            AggregateFunction::Count | AggregateFunction::CountBig => {}
            AggregateFunction::Sum | AggregateFunction::Avg => {
                let value = convert_from(&value, &argument_type, &call.result_type, None)?;
                self.value = if self.value.is_null() {
                    value
                } else {
                    ops::arithmetic(ArithOp::Add, &self.value, &value, &call.result_type)?
                };
            }
            AggregateFunction::Min | AggregateFunction::Max => {
                let collation = argument_type.collation().unwrap_or_default();
                let better = match ops::compare(&value, &self.value, collation) {
                    None => true, // the first value
                    Some(ordering) => {
                        (call.function == AggregateFunction::Min) == ordering.is_lt()
                            && ordering.is_ne()
                    }
                };
                if better {
                    self.value = value;
                }
            }
        }
        Ok(())
    }

    pub fn finish(self, call: &AggregateCall) -> SqlResult<Value> {
        match call.function {
            AggregateFunction::Count => i32::try_from(self.count)
                .map(Value::Int)
                .map_err(|_| SqlError::arithmetic_overflow("expression", "int")),
            AggregateFunction::CountBig => Ok(Value::BigInt(self.count)),
            AggregateFunction::Sum | AggregateFunction::Min | AggregateFunction::Max => {
                Ok(self.value)
            }
            AggregateFunction::Avg => {
                if self.value.is_null() {
                    return Ok(Value::Null);
                }
                let count = convert_from(
                    &Value::BigInt(self.count),
                    &DataType::BigInt,
                    &call.result_type,
                    None,
                )?;
                ops::arithmetic(ArithOp::Divide, &self.value, &count, &call.result_type)
            }
        }
    }
}
