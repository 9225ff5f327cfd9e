//! Plans that run as machine code in natively compiled modules (issue 19).
//!
//! An aggregate without GROUP BY over a full scan of one table, whose
//! filter ANDs comparisons of fixed-width integer columns with constants
//! or variables of the same type, and whose aggregates are COUNT, SUM, MIN
//! and MAX of fixed-width integer or money columns, becomes a row kernel
//! (`hekla_jit::kernel`) run on each stored row, without decoding it.
//! Anything else is left to the interpreter (None), which gives the same
//! results: the kernel's overflow raises the interpreter's 8115.
//!
//! Kernels are kept by their specification, so a procedure's statement is
//! compiled on its first run and reused after (a bounded cache).

use super::access::read_along;
use super::aggregate::Accumulator;
use super::eval::{Evaluate, Inputs};
use hekla_jit::kernel::{
    Aggregate, CompareOp as KernelOp, Condition, FixedColumn, Kernel, KernelSpec, Operand, Outcome,
    Stored, SumType, SLOTS_PER_AGGREGATE,
};
use hekla_plan::bind::aggregate::{AggregateCall, AggregateFunction, Grouping};
use hekla_plan::bind::expr::{CompareOp, Predicate, Scalar, ScalarKind};
use hekla_plan::catalog::table::TableMeta;
use hekla_plan::plan::access::AccessPath;
use hekla_plan::plan::{Node, TableRead};
use hekla_types::{DataType, Money, SqlError, SqlResult, Value};
use std::collections::HashMap;
use std::ops::ControlFlow;
use std::sync::{Arc, Mutex, OnceLock};

/// Kernels kept at most; the cache starts afresh past it.
const KEPT_KERNELS: usize = 256;
/// Rows between looks at the cancel flag.
const CANCEL_EVERY: u32 = 4096;

/// The aggregates' row, computed by a compiled kernel; None when the plan
/// does not compile (the caller interprets it).
pub fn aggregate(
    input: &Node,
    grouping: &Grouping,
    params: &Inputs<'_>,
) -> SqlResult<Option<Vec<Value>>> {
    if !params.context.session.native_module {
        return Ok(None);
    }
    let Node::Table(read) = input else {
        return Ok(None);
    };
    let Some(plan) = KernelPlan::of(read, grouping, params.row.len()) else {
        return Ok(None);
    };
    let mut parameters = Vec::with_capacity(plan.variables.len());
    for variable in &plan.variables {
        match integer(&variable.eval(params)?) {
            Some(value) => parameters.push(value),
            // A comparison with NULL holds for no row.
            None => return Ok(Some(plan.results(grouping, &[0; 0])?)),
        }
    }
    let kernel = kept(&plan.spec)?;
    let mut state = vec![0i64; plan.spec.aggregates.len() * SLOTS_PER_AGGREGATE];
    let mut failure = None;
    let mut unchecked = 0u32;
    {
        let table = params.context.table(&read.table);
        let mut tx = params.context.reading(table, read.hint)?;
        read_along(&read.path, &mut tx, table, params, |row| {
            let stop = match kernel.run(row.payload(), &parameters, &mut state) {
                Outcome::Done => None,
                Outcome::Overflow { index } => Some(overflow(&grouping.aggregates[index].1)),
                Outcome::Misuse => Some(SqlError::new(
                    8630,
                    16,
                    1,
                    "Internal Query Processor Error: a compiled row kernel was given a row it does not fit.",
                )),
            };
            unchecked += 1;
            let stop = stop.or_else(|| {
                (unchecked >= CANCEL_EVERY)
                    .then(|| {
                        unchecked = 0;
                        params.context.check_cancel().err()
                    })
                    .flatten()
            });
            match stop {
                Some(error) => {
                    failure = Some(error);
                    ControlFlow::Break(())
                }
                None => ControlFlow::Continue(()),
            }
        })?;
    }
    if let Some(error) = failure {
        return Err(error);
    }
    plan.results(grouping, &state).map(Some)
}

/// A statement's kernel: what to compile, and how to read its results.
struct KernelPlan {
    spec: KernelSpec,
    /// The variable each parameter of the kernel is, in order.
    variables: Vec<Scalar>,
}

impl KernelPlan {
    fn of(read: &TableRead, grouping: &Grouping, outer_columns: usize) -> Option<KernelPlan> {
        if read.path != AccessPath::Scan
            || read.row_ids
            || outer_columns != 0
            || read.offset != 0
            || !grouping.keys.is_empty()
            || !grouping.sets.is_empty()
        {
            return None;
        }
        let table = &read.table;
        let mut plan = KernelPlan {
            spec: KernelSpec::default(),
            variables: Vec::new(),
        };
        if let Some(filter) = &read.filter {
            plan.conditions(table, filter)?;
        }
        for (_, call) in &grouping.aggregates {
            plan.aggregate(table, call)?;
        }
        Some(plan)
    }

    fn conditions(&mut self, table: &TableMeta, filter: &Predicate) -> Option<()> {
        match filter {
            Predicate::And(left, right) => {
                self.conditions(table, left)?;
                self.conditions(table, right)
            }
            Predicate::Compare {
                op, left, right, ..
            } => {
                let (column, other, op) = match (&left.kind, &right.kind) {
                    (ScalarKind::Column(column), _) => (*column, right, *op),
                    (_, ScalarKind::Column(column)) => (*column, left, flipped(*op)),
                    _ => return None,
                };
                let data_type = table.columns.get(column)?.data_type;
                if other.data_type != data_type || !is_integer(&data_type) {
                    return None;
                }
                let operand = match &other.kind {
                    ScalarKind::Constant(value) => Operand::Constant(integer(value)?),
                    ScalarKind::Variable(_) => {
                        self.variables.push(other.clone());
                        Operand::Parameter((self.variables.len() - 1) as u32)
                    }
                    _ => return None,
                };
                self.spec.conditions.push(Condition {
                    column: fixed(table, column)?,
                    op: match op {
                        CompareOp::Eq => KernelOp::Eq,
                        CompareOp::Ne => KernelOp::Ne,
                        CompareOp::Lt => KernelOp::Lt,
                        CompareOp::Le => KernelOp::Le,
                        CompareOp::Gt => KernelOp::Gt,
                        CompareOp::Ge => KernelOp::Ge,
                    },
                    operand,
                });
                Some(())
            }
            _ => None,
        }
    }

    fn aggregate(&mut self, table: &TableMeta, call: &AggregateCall) -> Option<()> {
        if call.distinct {
            return None;
        }
        let column = match &call.argument {
            None => None,
            Some(Scalar {
                kind: ScalarKind::Column(column),
                ..
            }) => Some(*column),
            Some(_) => return None,
        };
        let column_type = column.map(|column| table.columns[column].data_type);
        let aggregate = match (call.function, column) {
            (AggregateFunction::Count | AggregateFunction::CountBig, None) => Aggregate::CountRows,
            (AggregateFunction::Count | AggregateFunction::CountBig, Some(column)) => {
                Aggregate::Count(fixed(table, column)?)
            }
            (AggregateFunction::Sum, Some(column)) => {
                let sum_type = match (column_type?, call.result_type) {
                    (DataType::TinyInt | DataType::SmallInt | DataType::Int, DataType::Int) => {
                        SumType::Int
                    }
                    (DataType::BigInt, DataType::BigInt) | (DataType::Money, DataType::Money) => {
                        SumType::BigInt
                    }
                    _ => return None,
                };
                Aggregate::Sum(fixed(table, column)?, sum_type)
            }
            (AggregateFunction::Min | AggregateFunction::Max, Some(column))
                if call.result_type == column_type? =>
            {
                let column = fixed(table, column)?;
                if call.function == AggregateFunction::Min {
                    Aggregate::Min(column)
                } else {
                    Aggregate::Max(column)
                }
            }
            _ => return None,
        };
        self.spec.aggregates.push(aggregate);
        Some(())
    }

    /// The aggregates' values from the kernel's `state` (empty: no row
    /// passed), made as the interpreter's accumulators make them.
    fn results(&self, grouping: &Grouping, state: &[i64]) -> SqlResult<Vec<Value>> {
        let slot = |index: usize, offset: usize| {
            state
                .get(index * SLOTS_PER_AGGREGATE + offset)
                .copied()
                .unwrap_or(0)
        };
        self.spec
            .aggregates
            .iter()
            .zip(&grouping.aggregates)
            .enumerate()
            .map(|(index, (aggregate, (_, call)))| {
                let (value, count) = (slot(index, 0), slot(index, 1));
                let value = match aggregate {
                    Aggregate::CountRows | Aggregate::Count(_) => Value::Null,
                    _ if count == 0 => Value::Null,
                    // MIN and MAX: the result type is the column's.
                    _ => typed(&call.result_type, value),
                };
                Accumulator::seen(count, value).finish(call)
            })
            .collect()
    }
}

/// The interpreter's error for a SUM past its result type.
fn overflow(call: &AggregateCall) -> SqlError {
    SqlError::arithmetic_overflow("expression", &call.result_type.sql_name())
}

/// `left op right` as `right op' left`.
fn flipped(op: CompareOp) -> CompareOp {
    match op {
        CompareOp::Lt => CompareOp::Gt,
        CompareOp::Le => CompareOp::Ge,
        CompareOp::Gt => CompareOp::Lt,
        CompareOp::Ge => CompareOp::Le,
        same => same,
    }
}

fn is_integer(data_type: &DataType) -> bool {
    matches!(
        data_type,
        DataType::TinyInt | DataType::SmallInt | DataType::Int | DataType::BigInt
    )
}

/// A value of an integer type (or money, in ten-thousandths) as 64 bits.
fn integer(value: &Value) -> Option<i64> {
    match value {
        Value::TinyInt(v) => Some(i64::from(*v)),
        Value::SmallInt(v) => Some(i64::from(*v)),
        Value::Int(v) => Some(i64::from(*v)),
        Value::BigInt(v) => Some(*v),
        Value::Money(money) => Some(money.0),
        _ => None,
    }
}

/// `value` (64 bits, in range for the type) as a value of `data_type`.
fn typed(data_type: &DataType, value: i64) -> Value {
    match data_type {
        DataType::TinyInt => Value::TinyInt(value as u8),
        DataType::SmallInt => Value::SmallInt(value as i16),
        DataType::Int => Value::Int(value as i32),
        DataType::Money => Value::Money(Money(value)),
        _ => Value::BigInt(value),
    }
}

/// Where `column` of `table` is stored, if the kernel can read it.
fn fixed(table: &TableMeta, column: usize) -> Option<FixedColumn> {
    let stored = match table.columns.get(column)?.data_type {
        DataType::TinyInt => Stored::U8,
        DataType::SmallInt => Stored::I16,
        DataType::Int => Stored::I32,
        DataType::BigInt | DataType::Money => Stored::I64,
        _ => return None,
    };
    let place = table.engine.fixed_place(column)?;
    Some(FixedColumn {
        offset: u32::try_from(place.offset).ok()?,
        stored,
        null_bit: match place.null_bit {
            Some(bit) => Some(u32::try_from(bit).ok()?),
            None => None,
        },
    })
}

/// The kernel for `spec`, compiled on first use.
fn kept(spec: &KernelSpec) -> SqlResult<Arc<Kernel>> {
    static KERNELS: OnceLock<Mutex<HashMap<KernelSpec, Arc<Kernel>>>> = OnceLock::new();
    let kernels = KERNELS.get_or_init(|| Mutex::new(HashMap::new()));
    let mut kernels = kernels
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(kernel) = kernels.get(spec) {
        return Ok(Arc::clone(kernel));
    }
    let kernel = Arc::new(Kernel::compile(spec).map_err(|error| {
        SqlError::new(
            8630,
            16,
            1,
            format!("Internal Query Processor Error: a row kernel did not compile: {error}."),
        )
    })?);
    if kernels.len() >= KEPT_KERNELS {
        kernels.clear();
    }
    kernels.insert(spec.clone(), Arc::clone(&kernel));
    Ok(kernel)
}
