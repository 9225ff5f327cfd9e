//! Aggregation: rows are grouped by the collation-aware key encoding of
//! their GROUP BY values (so 'a' and 'A' share a group under a
//! case-insensitive collation, as in SQL Server), and each group keeps one
//! accumulator per aggregate call. The hash aggregate ([`Groups`]) keeps
//! every group until its input ends and emits them in the order they were
//! first met; the stream aggregate ([`stream`]) is given its input grouped
//! and keeps one group at a time.

use super::eval::Inputs;
use super::run::{run, Emit};
use crate::eval::Evaluate;
use hekla_plan::bind::aggregate::{AggregateCall, AggregateFunction, Grouping};
use hekla_plan::plan::Node;
use hekla_types::convert::convert_from;
use hekla_types::hash::{HashKeyed, KeyHasher};
use hekla_types::ops::{self, ArithOp};
use hekla_types::{encode_key, DataType, Money, SortOrder, SqlError, SqlResult, Value};
use std::collections::HashSet;
use std::ops::ControlFlow;

/// One group being built.
struct Group {
    keys: Vec<Value>,
    /// The grouping set it belongs to, with grouping sets.
    set: Option<usize>,
    accumulators: Vec<Accumulator>,
}

impl Group {
    fn new(grouping: &Grouping, keys: Vec<Value>, set: Option<usize>) -> Self {
        let mut accumulators = Vec::with_capacity(grouping.aggregates.len());
        push_accumulators(grouping, &mut accumulators);
        Group {
            keys,
            set,
            accumulators,
        }
    }

    /// The grouped row: key values, then aggregate results, then (with
    /// grouping sets) the GROUPING() flags.
    fn finish(self, grouping: &Grouping) -> SqlResult<Vec<Value>> {
        finish_group(grouping, self.keys, self.set, self.accumulators)
    }
}

/// Appends a new group's accumulators, one per aggregate call.
fn push_accumulators(grouping: &Grouping, accumulators: &mut Vec<Accumulator>) {
    accumulators.extend(
        grouping
            .aggregates
            .iter()
            .map(|(_, call)| Accumulator::new(call)),
    );
}

/// Adds the row `inputs` reads to a group's `accumulators`.
fn add_row(
    grouping: &Grouping,
    accumulators: &mut [Accumulator],
    inputs: &Inputs<'_>,
) -> SqlResult<()> {
    for ((_, call), accumulator) in grouping.aggregates.iter().zip(accumulators) {
        accumulator.add(call, argument(call, inputs)?)?;
    }
    Ok(())
}

/// Adds a row's aggregate arguments, already computed, to a group's
/// `accumulators`.
fn add_values(
    grouping: &Grouping,
    accumulators: &mut [Accumulator],
    values: &[Option<Value>],
) -> SqlResult<()> {
    for (((_, call), accumulator), value) in
        grouping.aggregates.iter().zip(accumulators).zip(values)
    {
        accumulator.add(call, value.clone())?;
    }
    Ok(())
}

/// A group's row: key values, then aggregate results, then (with
/// grouping sets) the GROUPING() flags.
fn finish_group(
    grouping: &Grouping,
    keys: Vec<Value>,
    set: Option<usize>,
    accumulators: impl IntoIterator<Item = Accumulator>,
) -> SqlResult<Vec<Value>> {
    let mut row = keys;
    for ((_, call), accumulator) in grouping.aggregates.iter().zip(accumulators) {
        row.push(accumulator.finish(call)?);
    }
    if let Some(set) = set {
        let flags = grouping.sets[set].iter().map(|&kept| u8::from(!kept));
        row.extend(flags.map(Value::TinyInt));
    }
    Ok(row)
}

/// How the keys are encoded to tell groups apart.
fn key_types(grouping: &Grouping) -> Vec<(DataType, SortOrder)> {
    grouping
        .keys
        .iter()
        .map(|(_, key)| (key.data_type, SortOrder::Ascending))
        .collect()
}

/// The GROUP BY values of the row `inputs` reads, into `keys`.
fn key_values(grouping: &Grouping, inputs: &Inputs<'_>, keys: &mut Vec<Value>) -> SqlResult<()> {
    keys.clear();
    for (_, key) in &grouping.keys {
        keys.push(key.eval(inputs)?);
    }
    Ok(())
}

/// The end of a `same_hash` chain.
const NO_GROUP: usize = usize::MAX;

/// Groups being built by the hash aggregate.
pub struct Groups<'a> {
    grouping: &'a Grouping,
    /// The first group whose encoded key has this hash; `same_hash`
    /// chains the others.
    index: HashKeyed<usize>,
    same_hash: Vec<usize>,
    /// Every group's encoded key, end to end; group `i`'s ends at
    /// `key_ends[i]`.
    key_bytes: Vec<u8>,
    key_ends: Vec<usize>,
    /// Each group's keys and grouping set.
    groups: Vec<(Vec<Value>, Option<usize>)>,
    /// Every group's accumulators in one vector, group `i`'s at
    /// `i * aggregates..`: the per-row work touches one dense array, not an
    /// allocation per group wherever the allocator put it.
    accumulators: Vec<Accumulator>,
    key_types: Vec<(DataType, SortOrder)>,
    /// The row being added's keys and encoded key, kept to save
    /// allocations a row.
    keys: Vec<Value>,
    encoded: Vec<u8>,
    /// About what the groups take (see [`Groups::held_bytes`]).
    held: u64,
}

impl<'a> Groups<'a> {
    pub fn new(grouping: &'a Grouping) -> Self {
        Groups {
            grouping,
            index: HashKeyed::default(),
            same_hash: Vec::new(),
            key_bytes: Vec::new(),
            key_ends: Vec::new(),
            groups: Vec::new(),
            accumulators: Vec::new(),
            key_types: key_types(grouping),
            keys: Vec::new(),
            encoded: Vec::new(),
            held: 0,
        }
    }

    /// About what the groups made so far take (their keys twice, as
    /// values and encoded, and their accumulators), for the request's
    /// memory limit.
    pub fn held_bytes(&self) -> u64 {
        self.held
    }

    /// Adds one input row to its group (to one group per grouping set).
    pub fn add(&mut self, inputs: &Inputs<'_>) -> SqlResult<()> {
        let mut keys = std::mem::take(&mut self.keys);
        let added = self.add_keyed(inputs, &mut keys);
        self.keys = keys;
        added
    }

    fn add_keyed(&mut self, inputs: &Inputs<'_>, keys: &mut Vec<Value>) -> SqlResult<()> {
        key_values(self.grouping, inputs, keys)?;
        if self.grouping.sets.is_empty() {
            let position = self.position(keys, None)?;
            return add_row(self.grouping, self.group_accumulators(position), inputs);
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
            let position = self.position(&rolled, Some(set))?;
            add_values(self.grouping, self.group_accumulators(position), &values)?;
        }
        Ok(())
    }

    /// The group of `keys` (in grouping set `set`), made if new.
    fn position(&mut self, keys: &[Value], set: Option<usize>) -> SqlResult<usize> {
        if keys.is_empty() {
            // No GROUP BY: one group, no key to encode.
            if self.groups.is_empty() {
                self.push_group(Vec::new(), set);
            }
            return Ok(0);
        }
        self.encoded.clear();
        if let Some(set) = set {
            // Rows of different sets never share a group, even when the
            // keys they keep are equal.
            self.encoded.extend_from_slice(&(set as u16).to_be_bytes());
        }
        encode_key(&self.key_types, keys, &mut self.encoded)?;
        let mut hasher = KeyHasher::default();
        hasher.write(&self.encoded);
        let hash = hasher.finish();
        let mut candidate = self.index.get(&hash).copied().unwrap_or(NO_GROUP);
        while candidate != NO_GROUP {
            if self.encoded_key(candidate) == self.encoded.as_slice() {
                return Ok(candidate);
            }
            candidate = self.same_hash[candidate];
        }
        let position = self.groups.len();
        self.held += (self.encoded.len()
            + std::mem::size_of::<(Vec<Value>, Option<usize>, usize, usize)>()
            + self.grouping.aggregates.len() * std::mem::size_of::<Accumulator>())
            as u64
            + super::context::row_bytes(keys);
        self.same_hash
            .push(self.index.insert(hash, position).unwrap_or(NO_GROUP));
        self.key_bytes.extend_from_slice(&self.encoded);
        self.key_ends.push(self.key_bytes.len());
        self.push_group(keys.to_vec(), set);
        Ok(position)
    }

    fn push_group(&mut self, keys: Vec<Value>, set: Option<usize>) {
        self.groups.push((keys, set));
        push_accumulators(self.grouping, &mut self.accumulators);
    }

    /// The encoded key of the group at `position`.
    fn encoded_key(&self, position: usize) -> &[u8] {
        let start = position
            .checked_sub(1)
            .map_or(0, |before| self.key_ends[before]);
        &self.key_bytes[start..self.key_ends[position]]
    }

    /// The accumulators of the group at `position`.
    fn group_accumulators(&mut self, position: usize) -> &mut [Accumulator] {
        let count = self.grouping.aggregates.len();
        &mut self.accumulators[position * count..(position + 1) * count]
    }

    /// The grouped rows. A query with aggregates and no GROUP BY, and a
    /// grand-total grouping set, has its group even over no rows.
    pub fn finish(mut self) -> SqlResult<Vec<Vec<Value>>> {
        let grouping = self.grouping;
        if self.groups.is_empty() && grouping.keys.is_empty() {
            self.push_group(Vec::new(), None);
        }
        for (set, kept) in grouping.sets.iter().enumerate() {
            let grand_total = kept.iter().all(|k| !k);
            if grand_total && !self.groups.iter().any(|(_, of)| *of == Some(set)) {
                let nulls = vec![Value::Null; grouping.keys.len()];
                self.push_group(nulls, Some(set));
            }
        }
        let count = grouping.aggregates.len();
        let mut accumulators = self.accumulators.into_iter();
        self.groups
            .into_iter()
            .map(|(keys, set)| finish_group(grouping, keys, set, accumulators.by_ref().take(count)))
            .collect()
    }
}

/// Stream aggregation of `input`, whose rows come grouped on the keys
/// (see `plan::order`): a group goes out as soon as a row of the next one
/// arrives, so one group at a time is in memory and groups come out in
/// the input's order. Keys are told apart by their encodings, as the hash
/// aggregate tells them apart.
pub fn stream(
    input: &Node,
    grouping: &Grouping,
    params: &Inputs<'_>,
    emit: &mut Emit<'_>,
) -> SqlResult<ControlFlow<()>> {
    let key_types = key_types(grouping);
    let mut keys = Vec::new();
    let mut encoded = Vec::new();
    // The group being built, with its keys' encoding.
    let mut current: Option<(Vec<u8>, Group)> = None;
    let flow = run(input, params, &mut |row| {
        let inputs = params.with_row(row);
        key_values(grouping, &inputs, &mut keys)?;
        encoded.clear();
        encode_key(&key_types, &keys, &mut encoded)?;
        if current.as_ref().is_some_and(|(key, _)| *key != encoded) {
            if let Some((_, done)) = current.take() {
                if emit(&done.finish(grouping)?)?.is_break() {
                    return Ok(ControlFlow::Break(()));
                }
            }
        }
        let (_, group) = current
            .get_or_insert_with(|| (encoded.clone(), Group::new(grouping, keys.clone(), None)));
        add_row(grouping, &mut group.accumulators, &inputs)?;
        Ok(ControlFlow::Continue(()))
    })?;
    match current {
        Some((_, last)) if flow.is_continue() => emit(&last.finish(grouping)?),
        _ => Ok(flow),
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

/// `total + value` when the total is an int, bigint or money sum and
/// the value an integer of that width or narrower (or money for money):
/// the sums of most aggregates, added without converting per row. None
/// (the general path decides, its overflow error included) for anything
/// else, the first value, and an overflow.
fn integer_sum(total: &Value, value: &Value, result_type: &DataType) -> Option<Value> {
    let narrow = |value: &Value| match value {
        Value::TinyInt(v) => Some(i64::from(*v)),
        Value::SmallInt(v) => Some(i64::from(*v)),
        Value::Int(v) => Some(i64::from(*v)),
        _ => None,
    };
    match (result_type, total, value) {
        (DataType::Int, Value::Int(total), value) => {
            let sum = i64::from(*total).checked_add(narrow(value)?)?;
            i32::try_from(sum).ok().map(Value::Int)
        }
        (DataType::BigInt, Value::BigInt(total), Value::BigInt(value)) => {
            total.checked_add(*value).map(Value::BigInt)
        }
        (DataType::BigInt, Value::BigInt(total), value) => {
            total.checked_add(narrow(value)?).map(Value::BigInt)
        }
        (DataType::Money, Value::Money(total), Value::Money(value)) => total
            .0
            .checked_add(value.0)
            .map(|sum| Value::Money(Money(sum))),
        _ => None,
    }
}

impl Accumulator {
    pub fn new(call: &AggregateCall) -> Self {
        Accumulator {
            count: 0,
            value: Value::Null,
            seen: call.distinct.then(HashSet::new),
        }
    }

    /// An accumulator that has already seen `count` values adding up to
    /// `value` (in the result type; NULL for counts): how the shortcuts
    /// that count or sum without it (`run::count_only`, compiled row
    /// kernels) make their results the same way.
    pub fn seen(count: i64, value: Value) -> Self {
        Accumulator {
            count,
            value,
            seen: None,
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
                if let Some(total) = integer_sum(&self.value, &value, &call.result_type) {
                    self.value = total;
                    return Ok(());
                }
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
