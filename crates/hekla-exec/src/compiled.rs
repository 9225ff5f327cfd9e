//! Plans that run as machine code in natively compiled modules (issue 19).
//!
//! An aggregate without GROUP BY over one table's rows (a scan, or a hash
//! or range index seek), whose
//! filter ANDs comparisons of columns with constants or variables of the
//! same type, among the types whose values compare as their stored
//! integers (integers, money, smallmoney, bit, date, datetime2), and whose
//! aggregates are COUNT, SUM, AVG, MIN and MAX of such columns (or of integer
//! columns and constants joined by +, - and *, money ones by + and -, in
//! the aggregate's type),
//! becomes a row kernel
//! (`hekla_jit::kernel`) run on each stored row, without decoding it.
//! Anything else is left to the interpreter (None), which gives the same
//! results: the kernel's overflow raises the interpreter's 8115.
//!
//! A module's kernels are compiled when the module is (at CREATE, and
//! at database start: see `hekla_sql::ddl::native_compile`) from its
//! statements' bound plans, and live in its [`ModuleCode`]: dropping the
//! module frees them. At run time a statement finds its kernel by the
//! specification its plan gives now, so a kernel compiled for another
//! table layout is never run; a plan the module has no kernel for (the
//! layout moved, or the compiler did not see it) gets one compiled then.

use super::access::read_along;
use super::aggregate::Accumulator;
use super::eval::{Evaluate, Inputs};
use hekla_engine::Transaction;
use hekla_jit::kernel::{
    Aggregate, Argument, ArithmeticOp, CompareOp as KernelOp, Condition, FixedColumn, Kernel,
    KernelSpec, Operand, Outcome, RowBatch, Stored, SumType, SLOTS_PER_AGGREGATE,
};
use hekla_plan::bind::aggregate::{AggregateCall, AggregateFunction, Grouping};
use hekla_plan::bind::expr::{CompareOp, Predicate, Scalar, ScalarKind};
use hekla_plan::catalog::table::TableMeta;
use hekla_plan::plan::access::AccessPath;
use hekla_plan::plan::change::{Reading, RowSource};
use hekla_plan::plan::{Node, QueryPlan, TableRead};
use hekla_types::ops::ArithOp;
use hekla_types::{DataType, Date, DateTime2, Money, SqlError, SqlResult, Value};
use std::collections::HashMap;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

/// Rows a kernel is given at once from a seek (between them, the cancel
/// flag is looked at); a scan's batches are the engine's
/// (`hekla_engine::SCAN_BATCH_ROWS`).
const BATCH_ROWS: usize = 256;

/// Kernels a module compiles at run time at most (see
/// [`ModuleCode::kernel`]); past it, such reads are interpreted.
const MAX_LATE_KERNELS: usize = 256;

/// A natively compiled module's machine code: the row kernels of its
/// statements, by specification, and what running them counted.
#[derive(Default)]
pub struct ModuleCode {
    /// Compiled with the module, from the plans its compiler saw.
    kernels: HashMap<KernelSpec, Arc<Kernel>>,
    /// Compiled at a statement's first run: plans the module's compiler
    /// did not see (a subquery in SET) or that changed since (ALTER TABLE
    /// moved the row layout); None for one that did not compile (it is
    /// interpreted, not compiled again each run). Locked only when
    /// `kernels` has none.
    late: Mutex<HashMap<KernelSpec, Option<Arc<Kernel>>>>,
    /// Kernels run (a statement may run several).
    kernels_run: AtomicU64,
}

impl ModuleCode {
    /// Compiles the row kernels of `plan`'s aggregates and filters; how
    /// many reads of it have one.
    pub fn compile_query(&mut self, plan: &QueryPlan) -> SqlResult<usize> {
        self.compile_node(&plan.root)
    }

    /// As [`Self::compile_query`], for the rows an UPDATE or DELETE finds.
    pub fn compile_rows(&mut self, rows: &RowSource) -> SqlResult<usize> {
        match &rows.reading {
            Reading::Target(read) => self.compile_filter(read),
            Reading::Plan { root, .. } => self.compile_node(root),
        }
    }

    fn compile_node(&mut self, node: &Node) -> SqlResult<usize> {
        match node {
            Node::Aggregate {
                input, grouping, ..
            } => {
                if let Node::Table(read) = &**input {
                    // Compiled as for a statement's outermost query: one
                    // inside a FROM clause reads the row to its left, which
                    // the kernel does not (it is then interpreted).
                    if let Some(plan) = KernelPlan::of(read, grouping, 0) {
                        self.compile(plan.spec)?;
                        return Ok(1);
                    }
                }
            }
            Node::Table(read) => return self.compile_filter(read),
            _ => {}
        }
        let mut compiled = 0;
        for (child, _) in node.children() {
            compiled += self.compile_node(child)?;
        }
        Ok(compiled)
    }

    fn compile_filter(&mut self, read: &TableRead) -> SqlResult<usize> {
        match KernelPlan::filter(read) {
            Some(plan) => self.compile(plan.spec).map(|()| 1),
            None => Ok(0),
        }
    }

    fn compile(&mut self, spec: KernelSpec) -> SqlResult<()> {
        if let std::collections::hash_map::Entry::Vacant(entry) = self.kernels.entry(spec) {
            let kernel = Kernel::compile(entry.key()).map_err(not_compiled)?;
            entry.insert(Arc::new(kernel));
        }
        Ok(())
    }

    /// The kernel for `spec`, counted as run: the module's, or one
    /// compiled now and kept (None if it does not compile or too many
    /// were: the read is then interpreted).
    fn kernel(&self, spec: &KernelSpec) -> Option<Arc<Kernel>> {
        let kernel = match self.kernels.get(spec) {
            Some(kernel) => Arc::clone(kernel),
            None => {
                let mut late = self.late();
                match late.get(spec) {
                    Some(kept) => Arc::clone(kept.as_ref()?),
                    None if late.len() < MAX_LATE_KERNELS => {
                        let kernel = Kernel::compile(spec).ok().map(Arc::new);
                        late.insert(spec.clone(), kernel.clone());
                        kernel?
                    }
                    None => return None,
                }
            }
        };
        self.kernels_run.fetch_add(1, Ordering::Relaxed);
        Some(kernel)
    }

    fn late(&self) -> MutexGuard<'_, HashMap<KernelSpec, Option<Arc<Kernel>>>> {
        self.late
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Its kernels: compiled with it, and since at run time.
    pub fn kernels(&self) -> (usize, usize) {
        let late = self.late().values().flatten().count();
        (self.kernels.len(), late)
    }

    /// Machine-code bytes of its kernels.
    pub fn code_bytes(&self) -> usize {
        self.each_kernel(Kernel::code_bytes).into_iter().sum()
    }

    /// Where its machine code starts (its lowest kernel's address); None
    /// without kernels.
    pub fn base_address(&self) -> Option<usize> {
        self.each_kernel(Kernel::address).into_iter().min()
    }

    /// `read` of each of its kernels, those compiled late included.
    fn each_kernel<T>(&self, read: impl Fn(&Kernel) -> T) -> Vec<T> {
        let late = self.late();
        self.kernels
            .values()
            .chain(late.values().flatten())
            .map(|kernel| read(kernel))
            .collect()
    }

    /// Kernels run since the module was compiled.
    pub fn kernel_runs(&self) -> u64 {
        self.kernels_run.load(Ordering::Relaxed)
    }
}

impl std::fmt::Debug for ModuleCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ModuleCode")
            .field("kernels", &self.kernels())
            .field("code_bytes", &self.code_bytes())
            .finish()
    }
}

/// Row kernels alive in the process (every module's) and their code
/// bytes: what dropping modules must give back.
pub fn live_code() -> (usize, usize) {
    hekla_jit::kernel::live()
}

/// The aggregates' row, computed by the running module's compiled kernel;
/// None when the plan has none (the caller interprets it).
pub fn aggregate(
    input: &Node,
    grouping: &Grouping,
    params: &Inputs<'_>,
) -> SqlResult<Option<Vec<Value>>> {
    let Some(code) = &params.context.session.native_code else {
        return Ok(None);
    };
    let Node::Table(read) = input else {
        return Ok(None);
    };
    let Some(plan) = KernelPlan::of(read, grouping, params.row.len()) else {
        return Ok(None);
    };
    // With SET ARITHABORT OFF and ANSI_WARNINGS OFF an overflow in an
    // argument is NULL and a warning, which the interpreter gives.
    if plan.spec.computes() && params.context.options.arithmetic_errors_are_null() {
        return Ok(None);
    }
    let Some(kernel) = code.kernel(&plan.spec) else {
        return Ok(None);
    };
    let Some(parameters) = plan.parameters(params)? else {
        if plan.spec.computes() {
            // Every row's computed sides are still computed, and may
            // overflow: the interpreter's to do.
            return Ok(None);
        }
        // A comparison with NULL holds for no row.
        return Ok(Some(plan.results(grouping, &[0; 0])?));
    };
    let mut state = vec![0i64; plan.spec.aggregates.len() * SLOTS_PER_AGGREGATE];
    // The error a kernel's run ends with; the cancel flag is looked at
    // between batches.
    let failed = |outcome: Outcome| match outcome {
        Outcome::Done => params.context.check_cancel().err(),
        Outcome::Overflow { index } => Some(plan.overflow(index, &grouping.aggregates)),
        Outcome::Misuse => Some(misfit()),
    };
    let failure = {
        let table = params.context.table(&read.table);
        let mut tx = params.context.reading(table, read.hint)?;
        let run = KernelRun {
            kernel: &kernel,
            parameters: &parameters,
            failed: &failed,
        };
        match &read.path {
            AccessPath::Scan => run.over_scan(&mut tx, table, &mut state)?,
            path => run.along(path, &mut tx, table, params, &mut state)?,
        }
    };
    if let Some(error) = failure {
        return Err(error);
    }
    plan.results(grouping, &state).map(Some)
}

/// A kernel run over a read's rows, adding to its aggregates' state: the
/// error it stopped with, if any.
struct KernelRun<'a> {
    kernel: &'a Kernel,
    parameters: &'a [i64],
    /// The error an outcome of the kernel is, if any.
    failed: &'a dyn Fn(Outcome) -> Option<SqlError>,
}

impl KernelRun<'_> {
    /// Over a scan, in the batches of payloads the engine gathers.
    fn over_scan(
        &self,
        tx: &mut Transaction,
        table: &TableMeta,
        state: &mut [i64],
    ) -> SqlResult<Option<SqlError>> {
        let mut failure = None;
        tx.scan_payloads(&table.engine, |payloads| {
            // SAFETY: each payload holds `prefix_len` bytes, and stays
            // alive and unchanged while the statement's transaction, which
            // is scanning, is active (`Payloads::starts`).
            let outcome = unsafe {
                self.kernel.run_starts(
                    payloads.starts(),
                    payloads.prefix_len(),
                    self.parameters,
                    state,
                )
            };
            failure = (self.failed)(outcome);
            match failure {
                Some(_) => ControlFlow::Break(()),
                None => ControlFlow::Continue(()),
            }
        })?;
        Ok(failure)
    }

    /// Over the rows found along `path` (a seek or an index's order),
    /// gathered into batches here.
    fn along(
        &self,
        path: &AccessPath,
        tx: &mut Transaction,
        table: &TableMeta,
        params: &Inputs<'_>,
        state: &mut [i64],
    ) -> SqlResult<Option<SqlError>> {
        let mut failure = None;
        let mut batch = RowBatch::for_kernel(self.kernel, BATCH_ROWS);
        read_along(path, tx, table, params, |row| {
            // SAFETY: the batch runs before this read ends (here, or just
            // below) while the statement's transaction, which found the row
            // visible, is active: a version visible to an active
            // transaction is never reclaimed, and a version's payload never
            // changes, so the payload stays alive as it is.
            if !unsafe { batch.push(row.payload()) } {
                failure = Some(misfit());
            } else if batch.is_full() {
                failure = (self.failed)(self.kernel.run_batch(&mut batch, self.parameters, state));
            }
            match failure {
                Some(_) => ControlFlow::Break(()),
                None => ControlFlow::Continue(()),
            }
        })?;
        if failure.is_none() && !batch.is_empty() {
            failure = (self.failed)(self.kernel.run_batch(&mut batch, self.parameters, state));
        }
        Ok(failure)
    }
}

/// A read's WHERE clause as compiled code: tests each stored row before
/// it is decoded, in place of the interpreted filter (all of it).
pub struct RowFilter {
    kernel: Arc<Kernel>,
    plan: KernelPlan,
    /// None: a variable is NULL, and no row passes.
    parameters: Option<Vec<i64>>,
    state: [i64; SLOTS_PER_AGGREGATE],
}

impl RowFilter {
    /// True if the row stored as `payload` passes the filter.
    pub fn passes(&mut self, payload: &[u8]) -> SqlResult<bool> {
        let Some(parameters) = &self.parameters else {
            return Ok(false);
        };
        // The kernel counts the rows that pass in its count slot.
        let passed = self.state[1];
        match self.kernel.run(payload, parameters, &mut self.state) {
            Outcome::Done => Ok(self.state[1] != passed),
            Outcome::Overflow { index } => Err(self.plan.overflow(index, &[])),
            Outcome::Misuse => Err(misfit()),
        }
    }
}

/// `read`'s filter compiled, in the running native module; None when it
/// has none (the filter is interpreted).
pub fn row_filter(read: &TableRead, params: &Inputs<'_>) -> SqlResult<Option<RowFilter>> {
    let Some(code) = &params.context.session.native_code else {
        return Ok(None);
    };
    let Some(plan) = KernelPlan::filter(read) else {
        return Ok(None);
    };
    // A computed side's overflow is NULL under ARITHABORT OFF with
    // ANSI_WARNINGS OFF, and computed for every row even when a variable
    // is NULL: the interpreter's cases.
    if plan.spec.computes() && params.context.options.arithmetic_errors_are_null() {
        return Ok(None);
    }
    let parameters = plan.parameters(params)?;
    if parameters.is_none() && plan.spec.computes() {
        return Ok(None);
    }
    let Some(kernel) = code.kernel(&plan.spec) else {
        return Ok(None);
    };
    Ok(Some(RowFilter {
        kernel,
        plan,
        parameters,
        state: [0; SLOTS_PER_AGGREGATE],
    }))
}

/// A statement's kernel: what to compile, and how to read its results.
struct KernelPlan {
    spec: KernelSpec,
    /// The variable each parameter of the kernel is, in order.
    variables: Vec<Scalar>,
    /// The type each condition compares in (its overflow's, if computed).
    compared: Vec<DataType>,
}

impl KernelPlan {
    fn of(read: &TableRead, grouping: &Grouping, outer_columns: usize) -> Option<KernelPlan> {
        // Any access path: the read finds the rows (a seek evaluates its
        // key), the kernel tests what the filter leaves and aggregates.
        if read.row_ids
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
            compared: Vec::new(),
        };
        if let Some(filter) = &read.filter {
            plan.conditions(table, 0, filter)?;
        }
        for (_, call) in &grouping.aggregates {
            plan.aggregate(table, call)?;
        }
        let counts_only = plan.spec.conditions.is_empty()
            && plan
                .spec
                .aggregates
                .iter()
                .all(|aggregate| *aggregate == Aggregate::CountRows);
        // `SELECT COUNT(*) FROM t` counts rows without reading them
        // (`run::count_only`): no kernel does better.
        (!counts_only).then_some(plan)
    }

    /// The kernel of `read`'s filter: it counts the rows that pass (one
    /// COUNT(*)), so a row passes if the count moved.
    fn filter(read: &TableRead) -> Option<KernelPlan> {
        let mut plan = KernelPlan {
            spec: KernelSpec::default(),
            variables: Vec::new(),
            compared: Vec::new(),
        };
        plan.conditions(&read.table, read.offset, read.filter.as_ref()?)?;
        plan.spec.aggregates.push(Aggregate::CountRows);
        Some(plan)
    }

    /// The kernel's parameters: its variables' values now; None if one is
    /// NULL (no row passes a comparison with NULL).
    fn parameters(&self, params: &Inputs<'_>) -> SqlResult<Option<Vec<i64>>> {
        let mut parameters = Vec::with_capacity(self.variables.len());
        for variable in &self.variables {
            match integer(&variable.eval(params)?) {
                Some(value) => parameters.push(value),
                None => return Ok(None),
            }
        }
        Ok(Some(parameters))
    }

    /// Adds `filter`'s comparisons, whose column references count from
    /// the FROM clause's row, where `table`'s columns start at `offset`.
    fn conditions(&mut self, table: &TableMeta, offset: usize, filter: &Predicate) -> Option<()> {
        match filter {
            Predicate::And(left, right) => {
                self.conditions(table, offset, left)?;
                self.conditions(table, offset, right)
            }
            Predicate::Compare {
                op, left, right, ..
            } => {
                // One side a value the statement computes once, the other
                // what the kernel reads (or computes) of each row.
                let (read, other, op) = match (is_value(left), is_value(right)) {
                    (false, true) => (left, right, *op),
                    (true, false) => (right, left, flipped(*op)),
                    _ => return None,
                };
                // Both sides are of one type whose values compare as
                // their stored integers: the kernel's 64-bit comparison
                // of the two is the same.
                if other.data_type != read.data_type || !compares_as_integer(&read.data_type) {
                    return None;
                }
                let argument = kernel_argument(table, offset, read)?;
                let operand = match &other.kind {
                    ScalarKind::Constant(value) => Operand::Constant(integer(value)?),
                    _ => {
                        self.variables.push(other.clone());
                        Operand::Parameter((self.variables.len() - 1) as u32)
                    }
                };
                self.compared.push(read.data_type);
                self.spec.conditions.push(Condition {
                    left: argument,
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
        let argument = match &call.argument {
            None => None,
            Some(scalar) => Some((kernel_argument(table, 0, scalar)?, scalar.data_type)),
        };
        if let Some((Argument::Arithmetic { .. }, data_type)) = &argument {
            // The kernel's overflow is raised in the aggregate's result
            // type: the same error only if the argument is of that type.
            if *data_type != call.result_type {
                return None;
            }
        }
        let aggregate = match (call.function, argument) {
            (AggregateFunction::Count | AggregateFunction::CountBig, None) => Aggregate::CountRows,
            (AggregateFunction::Count | AggregateFunction::CountBig, Some((argument, _))) => {
                Aggregate::Count(argument)
            }
            // AVG is its SUM (in the result type) over its count, divided
            // when the result is made (`Accumulator::finish`).
            (AggregateFunction::Sum | AggregateFunction::Avg, Some((argument, data_type))) => {
                let sum_type = match (data_type, call.result_type) {
                    (DataType::TinyInt | DataType::SmallInt | DataType::Int, DataType::Int) => {
                        SumType::Int
                    }
                    (DataType::BigInt, DataType::BigInt)
                    | (DataType::Money | DataType::SmallMoney, DataType::Money) => SumType::BigInt,
                    _ => return None,
                };
                Aggregate::Sum(argument, sum_type)
            }
            (AggregateFunction::Min, Some((argument, data_type)))
                if call.result_type == data_type =>
            {
                Aggregate::Min(argument)
            }
            (AggregateFunction::Max, Some((argument, data_type)))
                if call.result_type == data_type =>
            {
                Aggregate::Max(argument)
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

impl KernelPlan {
    /// The interpreter's error for the kernel's overflow at `index` (see
    /// `Outcome::Overflow`): aggregate `index`'s (of `aggregates`, the
    /// statement's calls) in its result type, or past the aggregates a
    /// condition's computed side in the type it compares in.
    fn overflow(&self, index: usize, aggregates: &[(String, AggregateCall)]) -> SqlError {
        let data_type = match index.checked_sub(self.spec.aggregates.len()) {
            Some(condition) => self.compared.get(condition),
            None => aggregates.get(index).map(|(_, call)| &call.result_type),
        };
        match data_type {
            Some(data_type) => SqlError::arithmetic_overflow("expression", &data_type.sql_name()),
            None => misfit(),
        }
    }
}

/// `scalar` as what a kernel reads of each of `table`'s rows: a stored
/// column (widened as [`stored_column`] allows), or columns and constants
/// joined by +, - and * in an integer type, or by + and - in money or
/// smallmoney (ten-thousandths), computed exactly and then checked against
/// the type's range, as the interpreter computes them.
fn kernel_argument(table: &TableMeta, offset: usize, scalar: &Scalar) -> Option<Argument> {
    if let Some(column) = stored_column(scalar) {
        return Some(Argument::Column(fixed(table, column.checked_sub(offset)?)?));
    }
    let (family, range) = arithmetic_type(&scalar.data_type)?;
    match &scalar.kind {
        ScalarKind::Constant(value) => Some(Argument::Constant(integer(value)?)),
        ScalarKind::Arithmetic { op, left, right } => {
            let op = match (op, family) {
                (ArithOp::Add, _) => ArithmeticOp::Add,
                (ArithOp::Subtract, _) => ArithmeticOp::Subtract,
                // Money's product is rounded to ten-thousandths.
                (ArithOp::Multiply, Family::Integer) => ArithmeticOp::Multiply,
                _ => return None,
            };
            // Each side of the result's family: an int side of a money
            // sum would be in units, not ten-thousandths.
            let operand = |side: &Scalar| match arithmetic_type(&side.data_type) {
                Some((side_family, _)) if side_family == family => {
                    kernel_argument(table, offset, side)
                }
                _ => None,
            };
            Some(Argument::Arithmetic {
                op,
                left: Box::new(operand(left)?),
                right: Box::new(operand(right)?),
                range,
            })
        }
        _ => None,
    }
}

/// The kinds of type a kernel computes in.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Family {
    Integer,
    /// money and smallmoney, in ten-thousandths.
    Money,
}

/// `data_type`'s family and the range of its values (as stored integers).
fn arithmetic_type(data_type: &DataType) -> Option<(Family, (i64, i64))> {
    let integer = |range: (i64, i64)| Some((Family::Integer, range));
    match data_type {
        DataType::TinyInt => integer((0, u8::MAX.into())),
        DataType::SmallInt => integer((i16::MIN.into(), i16::MAX.into())),
        DataType::Int => integer((i32::MIN.into(), i32::MAX.into())),
        DataType::BigInt => integer((i64::MIN, i64::MAX)),
        DataType::SmallMoney => Some((Family::Money, (i32::MIN.into(), i32::MAX.into()))),
        DataType::Money => Some((Family::Money, (i64::MIN, i64::MAX))),
        _ => None,
    }
}

/// The column `scalar` reads, as stored or widened to a larger integer
/// type (the planner's implicit conversion of `smallint_column > 1`):
/// widening an integer is exact, so the kernel may compare it as stored.
fn stored_column(scalar: &Scalar) -> Option<usize> {
    match &scalar.kind {
        ScalarKind::Column(column) => Some(*column),
        ScalarKind::Convert {
            operand,
            is_try: false,
            ..
        } if widens(&operand.data_type, &scalar.data_type) => match operand.kind {
            ScalarKind::Column(column) => Some(column),
            _ => None,
        },
        _ => None,
    }
}

/// A constant or variable, or one widened to a larger integer type: a
/// value the statement computes once, before the rows are read.
fn is_value(scalar: &Scalar) -> bool {
    match &scalar.kind {
        ScalarKind::Constant(_) | ScalarKind::Variable(_) => true,
        ScalarKind::Convert {
            operand,
            is_try: false,
            ..
        } => widens(&operand.data_type, &scalar.data_type) && is_value(operand),
        _ => false,
    }
}

/// True if converting `from` to `to` keeps every value's stored integer
/// (a larger integer type; smallmoney to money, both in ten-thousandths).
fn widens(from: &DataType, to: &DataType) -> bool {
    // (family, rank in it): within a family a value's integer is the same.
    let rank = |data_type: &DataType| match data_type {
        DataType::TinyInt => Some((0, 0)),
        DataType::SmallInt => Some((0, 1)),
        DataType::Int => Some((0, 2)),
        DataType::BigInt => Some((0, 3)),
        DataType::SmallMoney => Some((1, 0)),
        DataType::Money => Some((1, 1)),
        _ => None,
    };
    matches!((rank(from), rank(to)),
        (Some((from_family, from)), Some((to_family, to))) if from_family == to_family && from <= to)
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

/// Whether two values of `data_type` compare as their stored integers
/// do ([`integer`]): integers, money and smallmoney (ten-thousandths),
/// bit, date (days) and datetime2 (ticks, of one scale).
fn compares_as_integer(data_type: &DataType) -> bool {
    matches!(
        data_type,
        DataType::TinyInt
            | DataType::SmallInt
            | DataType::Int
            | DataType::BigInt
            | DataType::Money
            | DataType::SmallMoney
            | DataType::Bit
            | DataType::Date
            | DataType::DateTime2 { .. }
    )
}

/// A value as the 64-bit integer its column stores (see [`fixed`]).
fn integer(value: &Value) -> Option<i64> {
    match value {
        Value::TinyInt(v) => Some(i64::from(*v)),
        Value::SmallInt(v) => Some(i64::from(*v)),
        Value::Int(v) => Some(i64::from(*v)),
        Value::BigInt(v) => Some(*v),
        Value::Money(money) => Some(money.0),
        Value::Bit(bit) => Some(i64::from(*bit)),
        Value::Date(date) => Some(i64::from(date.0)),
        Value::DateTime2(moment) => Some(moment.to_ticks()),
        _ => None,
    }
}

/// `value` (64 bits, in range for the type) as a value of `data_type`.
fn typed(data_type: &DataType, value: i64) -> Value {
    match data_type {
        DataType::TinyInt => Value::TinyInt(value as u8),
        DataType::SmallInt => Value::SmallInt(value as i16),
        DataType::Int => Value::Int(value as i32),
        DataType::Money | DataType::SmallMoney => Value::Money(Money(value)),
        DataType::Date => Value::Date(Date(value as i32)),
        DataType::DateTime2 { .. } => Value::DateTime2(DateTime2::from_ticks(value)),
        _ => Value::BigInt(value),
    }
}

/// Where `column` of `table` is stored, if the kernel can read it.
fn fixed(table: &TableMeta, column: usize) -> Option<FixedColumn> {
    let stored = match table.columns.get(column)?.data_type {
        DataType::TinyInt | DataType::Bit => Stored::U8,
        DataType::SmallInt => Stored::I16,
        DataType::Int | DataType::SmallMoney | DataType::Date => Stored::I32,
        DataType::BigInt | DataType::Money | DataType::DateTime2 { .. } => Stored::I64,
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

/// A kernel given a row shorter than the layout it was compiled for.
fn misfit() -> SqlError {
    SqlError::new(
        8630,
        16,
        1,
        "Internal Query Processor Error: a compiled row kernel was given a row it does not fit.",
    )
}

fn not_compiled(error: String) -> SqlError {
    SqlError::new(
        8630,
        16,
        1,
        format!("Internal Query Processor Error: a row kernel did not compile: {error}."),
    )
}
