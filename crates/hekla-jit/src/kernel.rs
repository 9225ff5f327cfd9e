//! Row kernels: what a scan that filters and aggregates does to each row
//! (`SELECT SUM(OrderQty) FROM t WHERE ProductID = @p`), compiled to one
//! machine-code function over the row's stored payload.
//!
//! A payload starts with its null bitmap and holds each fixed-width column
//! at an offset known from the table's schema, integers little-endian
//! (`hekla-engine/src/layout.rs`), so the kernel reads a column with one
//! load and its null bit with one test, where the interpreter decodes the
//! row into values and walks expression trees.
//!
//! The kernel's contract: `run` gives it the payload, the parameters as
//! 64-bit integers and the aggregates' state (two 64-bit slots each: the
//! running value and the count of values seen). A condition on a NULL
//! column rejects the row (UNKNOWN in a WHERE clause); NULL parameters are
//! the caller's to handle (a comparison with NULL holds for no row). A SUM
//! that leaves its result type's range, or an aggregate's computed
//! argument ([`Argument::Arithmetic`]) its type's, stops with
//! [`Outcome::Overflow`], for the caller to raise SQL Server's 8115.

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, AbiParam, Block, InstBuilder, MemFlagsData, Value};
use cranelift_codegen::isa::TargetFrontendConfig;
use cranelift_codegen::settings::{self, Configurable};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext, Variable};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{default_libcall_names, Linkage, Module};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Kernels alive in the process and their machine-code bytes: what
/// dropping a module must give back (see [`live`]).
static LIVE_KERNELS: AtomicUsize = AtomicUsize::new(0);
static LIVE_CODE_BYTES: AtomicUsize = AtomicUsize::new(0);

/// How many kernels are alive in the process, and their code bytes.
pub fn live() -> (usize, usize) {
    (
        LIVE_KERNELS.load(Ordering::Relaxed),
        LIVE_CODE_BYTES.load(Ordering::Relaxed),
    )
}

/// How a fixed-width column is stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stored {
    /// tinyint: one unsigned byte.
    U8,
    /// smallint.
    I16,
    /// int, and smallmoney (ten-thousandths).
    I32,
    /// bigint, and money (ten-thousandths).
    I64,
}

impl Stored {
    fn width(self) -> u32 {
        match self {
            Stored::U8 => 1,
            Stored::I16 => 2,
            Stored::I32 => 4,
            Stored::I64 => 8,
        }
    }
}

/// Where a column is in a payload.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FixedColumn {
    pub offset: u32,
    pub stored: Stored,
    /// Its bit in the null bitmap (set: NULL); None for NOT NULL columns.
    pub null_bit: Option<u32>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CompareOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

/// What a column is compared with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    /// The statement's parameter with this index.
    Parameter(u32),
    Constant(i64),
}

/// `left op operand`; the conditions of a kernel are ANDed, in order.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Condition {
    pub left: Argument,
    pub op: CompareOp,
    pub operand: Operand,
}

/// The range a SUM's result type holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SumType {
    /// int (the SUM of tinyint, smallint and int).
    Int,
    /// bigint, and money.
    BigInt,
}

/// What an aggregate reads from each row.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Argument {
    Column(FixedColumn),
    Constant(i64),
    /// `left op right` on integers, NULL if either side is. Both sides are
    /// computed (the left first) whether or not the other is NULL; when
    /// neither is, a result outside `range` (the result type's, inclusive)
    /// is an overflow, as SQL Server's 8115.
    Arithmetic {
        op: ArithmeticOp,
        left: Box<Argument>,
        right: Box<Argument>,
        range: (i64, i64),
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArithmeticOp {
    Add,
    Subtract,
    Multiply,
}

impl From<FixedColumn> for Argument {
    fn from(column: FixedColumn) -> Argument {
        Argument::Column(column)
    }
}

impl Argument {
    /// Every stored column the argument reads.
    fn columns(&self, found: &mut Vec<FixedColumn>) {
        match self {
            Argument::Column(column) => found.push(*column),
            Argument::Constant(_) => {}
            Argument::Arithmetic { left, right, .. } => {
                left.columns(found);
                right.columns(found);
            }
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Aggregate {
    /// COUNT(*): every row that passes.
    CountRows,
    /// COUNT(argument): its non-NULL values.
    Count(Argument),
    Sum(Argument, SumType),
    Min(Argument),
    Max(Argument),
}

impl Aggregate {
    fn argument(&self) -> Option<&Argument> {
        match self {
            Aggregate::CountRows => None,
            Aggregate::Count(argument)
            | Aggregate::Sum(argument, _)
            | Aggregate::Min(argument)
            | Aggregate::Max(argument) => Some(argument),
        }
    }
}

/// What to compile.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct KernelSpec {
    pub conditions: Vec<Condition>,
    pub aggregates: Vec<Aggregate>,
}

impl KernelSpec {
    /// The shortest payload every read of the kernel stays inside.
    fn payload_needed(&self) -> usize {
        let mut columns = Vec::new();
        for argument in self.arguments() {
            argument.columns(&mut columns);
        }
        columns
            .iter()
            .map(|column| {
                let value_end = (column.offset + column.stored.width()) as usize;
                let bitmap_end = column.null_bit.map_or(0, |bit| bit as usize / 8 + 1);
                value_end.max(bitmap_end)
            })
            .max()
            .unwrap_or(0)
    }

    /// Whether a condition or aggregate computes its argument (whose overflow SET
    /// ARITHABORT OFF with ANSI_WARNINGS OFF would make NULL instead of an
    /// error: the caller's to know).
    pub fn computes(&self) -> bool {
        self.arguments()
            .any(|argument| matches!(argument, Argument::Arithmetic { .. }))
    }

    /// What the conditions compare and the aggregates read.
    fn arguments(&self) -> impl Iterator<Item = &Argument> {
        self.conditions
            .iter()
            .map(|condition| &condition.left)
            .chain(self.aggregates.iter().filter_map(Aggregate::argument))
    }

    fn parameters_needed(&self) -> usize {
        self.conditions
            .iter()
            .filter_map(|condition| match condition.operand {
                Operand::Parameter(index) => Some(index as usize + 1),
                Operand::Constant(_) => None,
            })
            .max()
            .unwrap_or(0)
    }
}

/// A row's fate in a kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Added to the aggregates, or rejected by the conditions.
    Done,
    /// Aggregate `index`'s SUM or computed argument left its type's range,
    /// or (`index` past the aggregates) condition `index - aggregates`'s
    /// computed side did (the statement's error; the state is not to be
    /// used).
    Overflow { index: usize },
    /// The payload, parameters or state given are too short for the
    /// kernel (nothing was read).
    Misuse,
}

/// (payloads, how many, parameters, state) -> 0, or 1 + the index of what
/// overflowed (see [`Outcome::Overflow`]).
type KernelFn = unsafe extern "C" fn(*const *const u8, usize, *const i64, *mut i64) -> u32;

/// A compiled kernel; its code is freed when it is dropped.
pub struct Kernel {
    function: KernelFn,
    module: Option<JITModule>,
    payload_needed: usize,
    parameters_needed: usize,
    aggregates: usize,
    code_bytes: usize,
}

/// The state slots each aggregate takes.
pub const SLOTS_PER_AGGREGATE: usize = 2;

impl Kernel {
    /// Compiles `spec` for this machine.
    pub fn compile(spec: &KernelSpec) -> Result<Kernel, String> {
        let mut flags = settings::builder();
        flags.set("opt_level", "speed").map_err(|e| e.to_string())?;
        let isa = cranelift_native::builder()
            .map_err(|e| e.to_string())?
            .finish(settings::Flags::new(flags))
            .map_err(|e| e.to_string())?;
        let mut module = JITModule::new(JITBuilder::with_isa(isa, default_libcall_names()));
        let pointer = module.target_config().pointer_type();
        let mut context = module.make_context();
        context.func.signature.params.extend([
            AbiParam::new(pointer),
            AbiParam::new(pointer),
            AbiParam::new(pointer),
            AbiParam::new(pointer),
        ]);
        context
            .func
            .signature
            .returns
            .push(AbiParam::new(types::I32));
        let mut builder_context = FunctionBuilderContext::new();
        Generator::new(
            FunctionBuilder::new(&mut context.func, &mut builder_context),
            module.target_config(),
        )
        .generate(spec);
        let id = module
            .declare_function("row_kernel", Linkage::Local, &context.func.signature)
            .map_err(|e| e.to_string())?;
        module
            .define_function(id, &mut context)
            .map_err(|e| e.to_string())?;
        let code_bytes = context
            .compiled_code()
            .map_or(0, |code| code.code_buffer().len());
        module.clear_context(&mut context);
        module.finalize_definitions().map_err(|e| e.to_string())?;
        let address = module.get_finalized_function(id);
        // SAFETY: `address` is the entry of the function just finalized in
        // `module`, whose signature is (pointer × 4) -> i32
        // in the platform's C calling convention (the module's default),
        // which is `KernelFn`. The code lives as long as `module`, which
        // the kernel owns and frees only when dropped.
        let function = unsafe { std::mem::transmute::<*const u8, KernelFn>(address) };
        LIVE_KERNELS.fetch_add(1, Ordering::Relaxed);
        LIVE_CODE_BYTES.fetch_add(code_bytes, Ordering::Relaxed);
        Ok(Kernel {
            function,
            module: Some(module),
            payload_needed: spec.payload_needed(),
            parameters_needed: spec.parameters_needed(),
            aggregates: spec.aggregates.len(),
            code_bytes,
        })
    }

    /// Where the kernel's machine code starts in the process.
    pub fn address(&self) -> usize {
        self.function as usize
    }

    /// Machine-code bytes of the kernel.
    pub fn code_bytes(&self) -> usize {
        self.code_bytes
    }

    /// Runs the kernel on one row's `payload`, with the statement's
    /// `parameters`, adding to `state` ([`SLOTS_PER_AGGREGATE`] slots per
    /// aggregate, zeroed before the first row).
    pub fn run(&self, payload: &[u8], parameters: &[i64], state: &mut [i64]) -> Outcome {
        if payload.len() < self.payload_needed {
            return Outcome::Misuse;
        }
        self.call(&[payload.as_ptr()], parameters, state)
    }

    /// Runs the kernel on every row of `batch` in one call (the aggregates'
    /// state stays in registers meanwhile), then empties the batch. On an
    /// overflow the state is as before the row that overflowed.
    pub fn run_batch(
        &self,
        batch: &mut RowBatch,
        parameters: &[i64],
        state: &mut [i64],
    ) -> Outcome {
        // SAFETY: every payload in the batch holds `needed` bytes and
        // stays alive and unchanged until the batch runs (`push`'s
        // contract).
        let outcome = unsafe { self.run_starts(&batch.payloads, batch.needed, parameters, state) };
        batch.payloads.clear();
        outcome
    }

    /// Runs the kernel on the payloads starting at `starts`, as
    /// [`Self::run_batch`] does on a batch's: for rows gathered elsewhere
    /// (`hekla_engine::Payloads`, a scan's batch), without copying their
    /// addresses.
    ///
    /// # Safety
    /// Each of `starts` must point to at least `holding` readable bytes
    /// that do not change during the call.
    pub unsafe fn run_starts(
        &self,
        starts: &[*const u8],
        holding: usize,
        parameters: &[i64],
        state: &mut [i64],
    ) -> Outcome {
        if holding < self.payload_needed {
            return Outcome::Misuse;
        }
        self.call(starts, parameters, state)
    }

    /// Calls the code on `payloads`, each known to hold `payload_needed`
    /// bytes (checked by the callers above).
    fn call(&self, payloads: &[*const u8], parameters: &[i64], state: &mut [i64]) -> Outcome {
        if parameters.len() < self.parameters_needed
            || state.len() < self.aggregates * SLOTS_PER_AGGREGATE
        {
            return Outcome::Misuse;
        }
        // SAFETY: the generated code reads `payloads.len()` pointers from
        // `payloads`, and below `payload_needed` bytes of each, which
        // `run` checked of its slice and `run_starts` of the bytes its
        // caller promised each payload holds (alive during the call); it
        // reads the parameters below `parameters_needed` and reads and
        // writes the state below `aggregates * 2` slots, checked above;
        // it keeps no pointer after it returns.
        let status = unsafe {
            (self.function)(
                payloads.as_ptr(),
                payloads.len(),
                parameters.as_ptr(),
                state.as_mut_ptr(),
            )
        };
        match status {
            0 => Outcome::Done,
            status => Outcome::Overflow {
                index: status as usize - 1,
            },
        }
    }

    /// The bytes of a payload the kernel reads.
    pub fn payload_needed(&self) -> usize {
        self.payload_needed
    }
}

/// Rows gathered for one call of a kernel ([`Kernel::run_batch`]).
pub struct RowBatch {
    payloads: Vec<*const u8>,
    /// Every payload in the batch holds at least this many bytes.
    needed: usize,
}

impl RowBatch {
    /// An empty batch for `kernel`, of at most `capacity` rows.
    pub fn for_kernel(kernel: &Kernel, capacity: usize) -> RowBatch {
        RowBatch {
            payloads: Vec::with_capacity(capacity),
            needed: kernel.payload_needed,
        }
    }

    /// Adds `payload`; false (not added) if it is shorter than the kernel
    /// reads.
    ///
    /// # Safety
    /// `payload` must stay alive and unchanged until the batch is run or
    /// dropped: the batch keeps only its address.
    pub unsafe fn push(&mut self, payload: &[u8]) -> bool {
        if payload.len() < self.needed {
            return false;
        }
        self.payloads.push(payload.as_ptr());
        true
    }

    pub fn len(&self) -> usize {
        self.payloads.len()
    }

    pub fn is_empty(&self) -> bool {
        self.payloads.is_empty()
    }

    /// True when it holds as many rows as it was made for.
    pub fn is_full(&self) -> bool {
        self.payloads.len() == self.payloads.capacity()
    }
}

// SAFETY: a kernel is machine code that reads only the buffers each call
// gives it and keeps no state, so calls from several threads at once are
// independent; the module it owns is touched again only by `Drop`, which
// has the kernel to itself.
unsafe impl Send for Kernel {}
// SAFETY: as for `Send`: `run` takes `&self` and shares nothing mutable.
unsafe impl Sync for Kernel {}

impl Drop for Kernel {
    fn drop(&mut self) {
        if let Some(module) = self.module.take() {
            // SAFETY: the kernel's function pointer is only called through
            // `run`, which needs the kernel alive; once it is dropped no
            // call is running or can start.
            unsafe { module.free_memory() };
            LIVE_KERNELS.fetch_sub(1, Ordering::Relaxed);
            LIVE_CODE_BYTES.fetch_sub(self.code_bytes, Ordering::Relaxed);
        }
    }
}

/// Emits a kernel's instructions: a loop over the batch's payloads, the
/// aggregates' state held in variables (registers) from the first row to
/// the last and stored back at the end.
struct Generator<'a> {
    builder: FunctionBuilder<'a>,
    target: TargetFrontendConfig,
    /// Each aggregate's running value and count.
    totals: Vec<(Variable, Variable)>,
}

/// Loads of the kernel's own buffers: aligned or not, never trapping
/// (their bounds are checked before the call).
fn trusted() -> MemFlagsData {
    MemFlagsData::new().with_notrap()
}

impl<'a> Generator<'a> {
    fn new(builder: FunctionBuilder<'a>, target: TargetFrontendConfig) -> Generator<'a> {
        Generator {
            builder,
            target,
            totals: Vec::new(),
        }
    }

    fn generate(mut self, spec: &KernelSpec) {
        let pointer = self.target.pointer_type();
        let entry = self.builder.create_block();
        self.builder.append_block_params_for_function_params(entry);
        self.builder.switch_to_block(entry);
        let [payloads, count, parameters, state] =
            [0, 1, 2, 3].map(|n| self.builder.block_params(entry)[n]);
        for index in 0..spec.aggregates.len() {
            let value_slot = (index * SLOTS_PER_AGGREGATE * 8) as i32;
            let pair = [value_slot, value_slot + 8].map(|slot| {
                let variable = self.builder.declare_var(types::I64);
                let loaded = self.builder.ins().load(types::I64, trusted(), state, slot);
                self.builder.def_var(variable, loaded);
                variable
            });
            self.totals.push((pair[0], pair[1]));
        }
        let row = self.builder.declare_var(pointer);
        let zero = self.builder.ins().iconst(pointer, 0);
        self.builder.def_var(row, zero);
        let [header, body, next_row, exit] = [(); 4].map(|()| self.builder.create_block());
        self.builder.ins().jump(header, &[]);

        self.builder.switch_to_block(header);
        let index = self.builder.use_var(row);
        let past_end = self
            .builder
            .ins()
            .icmp(IntCC::UnsignedGreaterThanOrEqual, index, count);
        self.builder.ins().brif(past_end, exit, &[], body, &[]);

        self.builder.switch_to_block(body);
        let index = self.builder.use_var(row);
        let offset = self
            .builder
            .ins()
            .imul_imm_s(index, i64::from(pointer.bytes()));
        let address = self.builder.ins().iadd(payloads, offset);
        let payload = self.builder.ins().load(pointer, trusted(), address, 0);
        // Conditions on stored columns alone reject a row at its first
        // NULL or FALSE; any other needs the interpreter's order.
        let on_columns: Option<Vec<(&FixedColumn, &Condition)>> = spec
            .conditions
            .iter()
            .map(|condition| match &condition.left {
                Argument::Column(column) => Some((column, condition)),
                _ => None,
            })
            .collect();
        match on_columns {
            Some(conditions) => {
                for (column, condition) in conditions {
                    self.condition(column, condition, payload, parameters, next_row);
                }
            }
            None => self.computed_conditions(spec, payload, parameters, next_row, state),
        }
        for (index, aggregate) in spec.aggregates.iter().enumerate() {
            self.aggregate(index, aggregate, payload, state);
        }
        self.builder.ins().jump(next_row, &[]);

        self.builder.switch_to_block(next_row);
        let index = self.builder.use_var(row);
        let following = self.builder.ins().iadd_imm_s(index, 1);
        self.builder.def_var(row, following);
        self.builder.ins().jump(header, &[]);

        self.builder.switch_to_block(exit);
        self.store_totals(state);
        let zero = self.builder.ins().iconst(types::I32, 0);
        self.builder.ins().return_(&[zero]);
        self.builder.seal_all_blocks();
        self.builder.finalize(self.target);
    }

    /// Writes the aggregates' running values and counts back to `state`.
    fn store_totals(&mut self, state: Value) {
        for (index, (value, count)) in self.totals.clone().into_iter().enumerate() {
            let value_slot = (index * SLOTS_PER_AGGREGATE * 8) as i32;
            for (variable, slot) in [(value, value_slot), (count, value_slot + 8)] {
                let current = self.builder.use_var(variable);
                self.builder.ins().store(trusted(), current, state, slot);
            }
        }
    }

    /// Goes on in a new block when `column` is not NULL, else to `null`.
    fn unless_null(&mut self, column: &FixedColumn, payload: Value, null: Block) {
        let Some(bit) = column.null_bit else {
            return;
        };
        let byte = self
            .builder
            .ins()
            .uload8(types::I32, trusted(), payload, (bit / 8) as i32);
        let set = self.builder.ins().band_imm_u(byte, 1 << (bit % 8));
        let present = self.builder.create_block();
        self.builder.ins().brif(set, null, &[], present, &[]);
        self.builder.switch_to_block(present);
    }

    /// The column's value, widened to 64 bits.
    fn load(&mut self, column: &FixedColumn, payload: Value) -> Value {
        let offset = column.offset as i32;
        let ins = self.builder.ins();
        match column.stored {
            Stored::U8 => ins.uload8(types::I64, trusted(), payload, offset),
            Stored::I16 => ins.sload16(types::I64, trusted(), payload, offset),
            Stored::I32 => ins.sload32(trusted(), payload, offset),
            Stored::I64 => ins.load(types::I64, trusted(), payload, offset),
        }
    }

    /// `condition`, whose left side is the stored `column`.
    fn condition(
        &mut self,
        column: &FixedColumn,
        condition: &Condition,
        payload: Value,
        parameters: Value,
        reject: Block,
    ) {
        self.unless_null(column, payload, reject);
        let value = self.load(column, payload);
        let holds = self.compare(condition, value, parameters);
        let next = self.builder.create_block();
        self.builder.ins().brif(holds, next, &[], reject, &[]);
        self.builder.switch_to_block(next);
    }

    /// The conditions when one of them is not a stored column, as the interpreter tests
    /// an AND: a condition that is FALSE rejects the row at once, one that
    /// is UNKNOWN (a NULL) only once the later ones are computed too (they
    /// may overflow). An overflow in condition `n` leaves the kernel with
    /// the index `aggregates + n`.
    fn computed_conditions(
        &mut self,
        spec: &KernelSpec,
        payload: Value,
        parameters: Value,
        reject: Block,
        state: Value,
    ) {
        let mut unknown = self.builder.ins().iconst(types::I8, 0);
        for (index, condition) in spec.conditions.iter().enumerate() {
            let exit = spec.aggregates.len() + index;
            let (value, is_null) = self.computed(&condition.left, payload, exit, state);
            let holds = self.compare(condition, value, parameters);
            let known = self.builder.ins().icmp_imm_s(IntCC::Equal, is_null, 0);
            let fails = self.builder.ins().icmp_imm_s(IntCC::Equal, holds, 0);
            let false_known = self.builder.ins().band(known, fails);
            let next = self.builder.create_block();
            self.builder.ins().brif(false_known, reject, &[], next, &[]);
            self.builder.switch_to_block(next);
            unknown = self.builder.ins().bor(unknown, is_null);
        }
        let passes = self.builder.create_block();
        self.builder.ins().brif(unknown, reject, &[], passes, &[]);
        self.builder.switch_to_block(passes);
    }

    /// Whether `value op operand` holds (an `i8`).
    fn compare(&mut self, condition: &Condition, value: Value, parameters: Value) -> Value {
        let operand = match condition.operand {
            Operand::Parameter(index) => {
                self.builder
                    .ins()
                    .load(types::I64, trusted(), parameters, (index * 8) as i32)
            }
            Operand::Constant(constant) => self.builder.ins().iconst(types::I64, constant),
        };
        let code = match condition.op {
            CompareOp::Eq => IntCC::Equal,
            CompareOp::Ne => IntCC::NotEqual,
            CompareOp::Lt => IntCC::SignedLessThan,
            CompareOp::Le => IntCC::SignedLessThanOrEqual,
            CompareOp::Gt => IntCC::SignedGreaterThan,
            CompareOp::Ge => IntCC::SignedGreaterThanOrEqual,
        };
        self.builder.ins().icmp(code, value, operand)
    }

    /// `argument`'s value in a new block reached only when it is not NULL
    /// (else on to `null`). An overflow in computing it leaves the kernel
    /// as aggregate `index`'s.
    fn argument(
        &mut self,
        argument: &Argument,
        payload: Value,
        null: Block,
        index: usize,
        state: Value,
    ) -> Value {
        if let Argument::Column(column) = argument {
            self.unless_null(column, payload, null);
            return self.load(column, payload);
        }
        let (value, is_null) = self.computed(argument, payload, index, state);
        let present = self.builder.create_block();
        self.builder.ins().brif(is_null, null, &[], present, &[]);
        self.builder.switch_to_block(present);
        value
    }

    /// `argument`'s value and whether it is NULL (an `i8`), computed as
    /// the interpreter computes it: both sides of an operator, the left
    /// first, and the range checked only of a result that is not NULL.
    fn computed(
        &mut self,
        argument: &Argument,
        payload: Value,
        index: usize,
        state: Value,
    ) -> (Value, Value) {
        match argument {
            Argument::Column(column) => {
                let is_null = match column.null_bit {
                    Some(bit) => {
                        let byte = self.builder.ins().uload8(
                            types::I32,
                            trusted(),
                            payload,
                            (bit / 8) as i32,
                        );
                        let set = self.builder.ins().band_imm_u(byte, 1 << (bit % 8));
                        self.builder.ins().icmp_imm_s(IntCC::NotEqual, set, 0)
                    }
                    None => self.builder.ins().iconst(types::I8, 0),
                };
                (self.load(column, payload), is_null)
            }
            Argument::Constant(constant) => (
                self.builder.ins().iconst(types::I64, *constant),
                self.builder.ins().iconst(types::I8, 0),
            ),
            Argument::Arithmetic {
                op,
                left,
                right,
                range,
            } => {
                let (left, left_null) = self.computed(left, payload, index, state);
                let (right, right_null) = self.computed(right, payload, index, state);
                let ins = self.builder.ins();
                let (result, wrapped) = match op {
                    ArithmeticOp::Add => ins.sadd_overflow(left, right),
                    ArithmeticOp::Subtract => ins.ssub_overflow(left, right),
                    ArithmeticOp::Multiply => ins.smul_overflow(left, right),
                };
                let is_null = self.builder.ins().bor(left_null, right_null);
                let outside = self.outside(result, *range);
                let out = self.builder.ins().bor(wrapped, outside);
                let present = self.builder.ins().icmp_imm_s(IntCC::Equal, is_null, 0);
                let overflowed = self.builder.ins().band(out, present);
                self.overflow_exit(overflowed, index, state);
                (result, is_null)
            }
        }
    }

    /// Whether `value` is outside `range` (inclusive): an `i8`.
    fn outside(&mut self, value: Value, (low, high): (i64, i64)) -> Value {
        let below = self
            .builder
            .ins()
            .icmp_imm_s(IntCC::SignedLessThan, value, low);
        let above = self
            .builder
            .ins()
            .icmp_imm_s(IntCC::SignedGreaterThan, value, high);
        self.builder.ins().bor(below, above)
    }

    /// Leaves the kernel as aggregate `index`'s overflow when `overflowed`
    /// (the state stored as it stands), else goes on in a new block.
    fn overflow_exit(&mut self, overflowed: Value, index: usize, state: Value) {
        let overflow = self.builder.create_block();
        let fits = self.builder.create_block();
        self.builder
            .ins()
            .brif(overflowed, overflow, &[], fits, &[]);
        self.builder.switch_to_block(overflow);
        self.store_totals(state);
        let status = self.builder.ins().iconst(types::I32, index as i64 + 1);
        self.builder.ins().return_(&[status]);
        self.builder.switch_to_block(fits);
    }

    fn aggregate(&mut self, index: usize, aggregate: &Aggregate, payload: Value, state: Value) {
        let (total, seen) = self.totals[index];
        let next = self.builder.create_block();
        let count_one = |generator: &mut Self| {
            let count = generator.builder.use_var(seen);
            let count = generator.builder.ins().iadd_imm_s(count, 1);
            generator.builder.def_var(seen, count);
        };
        match aggregate {
            Aggregate::CountRows => count_one(self),
            Aggregate::Count(argument) => {
                self.argument(argument, payload, next, index, state);
                count_one(self);
            }
            Aggregate::Sum(argument, sum_type) => {
                let value = self.argument(argument, payload, next, index, state);
                let before = self.builder.use_var(total);
                let sum = self.builder.ins().iadd(before, value);
                let overflowed = match sum_type {
                    // Both sides hold int values: the 64-bit sum is exact.
                    SumType::Int => self.outside(sum, (i32::MIN.into(), i32::MAX.into())),
                    // Overflow iff the sum's sign differs from both sides'.
                    SumType::BigInt => {
                        let a = self.builder.ins().bxor(before, sum);
                        let b = self.builder.ins().bxor(value, sum);
                        let both = self.builder.ins().band(a, b);
                        self.builder
                            .ins()
                            .icmp_imm_s(IntCC::SignedLessThan, both, 0)
                    }
                };
                self.overflow_exit(overflowed, index, state);
                self.builder.def_var(total, sum);
                count_one(self);
            }
            Aggregate::Min(argument) | Aggregate::Max(argument) => {
                let value = self.argument(argument, payload, next, index, state);
                let best = self.builder.use_var(total);
                let count = self.builder.use_var(seen);
                let code = if matches!(aggregate, Aggregate::Min(_)) {
                    IntCC::SignedLessThan
                } else {
                    IntCC::SignedGreaterThan
                };
                let better = self.builder.ins().icmp(code, value, best);
                let first = self.builder.ins().icmp_imm_s(IntCC::Equal, count, 0);
                let take = self.builder.ins().bor(better, first);
                let kept = self.builder.ins().select(take, value, best);
                self.builder.def_var(total, kept);
                count_one(self);
            }
        }
        self.builder.ins().jump(next, &[]);
        self.builder.switch_to_block(next);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A payload as the engine lays out `(a int NULL, b smallint NOT NULL,
    /// c bigint NULL, d tinyint NOT NULL)`: a one-byte null bitmap (a is
    /// bit 0, c bit 1), then the fixed columns in order.
    struct Row {
        a: Option<i32>,
        b: i16,
        c: Option<i64>,
        d: u8,
    }

    const A: FixedColumn = FixedColumn {
        offset: 1,
        stored: Stored::I32,
        null_bit: Some(0),
    };
    const B: FixedColumn = FixedColumn {
        offset: 5,
        stored: Stored::I16,
        null_bit: None,
    };
    const C: FixedColumn = FixedColumn {
        offset: 7,
        stored: Stored::I64,
        null_bit: Some(1),
    };
    const D: FixedColumn = FixedColumn {
        offset: 15,
        stored: Stored::U8,
        null_bit: None,
    };

    impl Row {
        fn payload(&self) -> Vec<u8> {
            let mut bytes = vec![u8::from(self.a.is_none()) | (u8::from(self.c.is_none()) << 1)];
            bytes.extend(self.a.unwrap_or(0).to_le_bytes());
            bytes.extend(self.b.to_le_bytes());
            bytes.extend(self.c.unwrap_or(0).to_le_bytes());
            bytes.push(self.d);
            bytes
        }
    }

    /// A small deterministic generator (the tests need no randomness
    /// crate and are repeatable).
    struct Lcg(u64);

    impl Lcg {
        fn next(&mut self) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            self.0 >> 33
        }
        fn between(&mut self, low: i64, high: i64) -> i64 {
            low + (self.next() % (high - low + 1) as u64) as i64
        }
    }

    fn random_row(rng: &mut Lcg) -> Row {
        Row {
            a: (!rng.next().is_multiple_of(5)).then(|| rng.between(-1000, 1000) as i32),
            b: rng.between(-30000, 30000) as i16,
            c: (!rng.next().is_multiple_of(7)).then(|| rng.between(-1 << 40, 1 << 40)),
            d: rng.between(0, 255) as u8,
        }
    }

    #[test]
    fn a_kernel_filters_and_aggregates_as_the_rows_say() {
        let spec = KernelSpec {
            conditions: vec![
                Condition {
                    left: A.into(),
                    op: CompareOp::Ge,
                    operand: Operand::Parameter(0),
                },
                Condition {
                    left: D.into(),
                    op: CompareOp::Ne,
                    operand: Operand::Constant(3),
                },
            ],
            aggregates: vec![
                Aggregate::CountRows,
                Aggregate::Count(C.into()),
                Aggregate::Sum(A.into(), SumType::Int),
                Aggregate::Sum(C.into(), SumType::BigInt),
                Aggregate::Min(B.into()),
                Aggregate::Max(C.into()),
                Aggregate::Sum(D.into(), SumType::Int),
            ],
        };
        let kernel = Kernel::compile(&spec).expect("compiles");
        assert!(kernel.code_bytes() > 0);
        let mut rng = Lcg(7);
        let rows: Vec<Row> = (0..20_000).map(|_| random_row(&mut rng)).collect();
        let threshold = -200i64;
        let mut state = vec![0i64; spec.aggregates.len() * SLOTS_PER_AGGREGATE];
        for row in &rows {
            assert_eq!(
                kernel.run(&row.payload(), &[threshold], &mut state),
                Outcome::Done
            );
        }
        // The same by hand: a NULL `a` fails `a >= @0` (UNKNOWN).
        let passing: Vec<&Row> = rows
            .iter()
            .filter(|row| row.a.is_some_and(|a| i64::from(a) >= threshold) && row.d != 3)
            .collect();
        let cs: Vec<i64> = passing.iter().filter_map(|row| row.c).collect();
        let value = |index: usize| state[index * SLOTS_PER_AGGREGATE];
        let count = |index: usize| state[index * SLOTS_PER_AGGREGATE + 1];
        assert_eq!(count(0), passing.len() as i64);
        assert_eq!(count(1), cs.len() as i64);
        assert_eq!(
            value(2),
            passing
                .iter()
                .map(|row| i64::from(row.a.unwrap()))
                .sum::<i64>()
        );
        assert_eq!(value(3), cs.iter().sum::<i64>());
        assert_eq!(
            value(4),
            passing.iter().map(|row| i64::from(row.b)).min().unwrap()
        );
        assert_eq!(value(5), *cs.iter().max().unwrap());
        assert_eq!(
            value(6),
            passing.iter().map(|row| i64::from(row.d)).sum::<i64>()
        );
        assert!(
            passing.len() > 1000 && passing.len() < rows.len(),
            "the filter filters"
        );
    }

    #[test]
    fn a_batch_aggregates_as_its_rows_one_by_one() {
        let spec = KernelSpec {
            conditions: vec![Condition {
                left: B.into(),
                op: CompareOp::Lt,
                operand: Operand::Parameter(0),
            }],
            aggregates: vec![
                Aggregate::CountRows,
                Aggregate::Sum(C.into(), SumType::BigInt),
                Aggregate::Min(A.into()),
                Aggregate::Max(D.into()),
            ],
        };
        let kernel = Kernel::compile(&spec).expect("compiles");
        let mut rng = Lcg(11);
        let payloads: Vec<Vec<u8>> = (0..5_000).map(|_| random_row(&mut rng).payload()).collect();
        let slots = spec.aggregates.len() * SLOTS_PER_AGGREGATE;
        let mut one_by_one = vec![0i64; slots];
        for payload in &payloads {
            assert_eq!(kernel.run(payload, &[1000], &mut one_by_one), Outcome::Done);
        }
        let mut batched = vec![0i64; slots];
        let mut batch = RowBatch::for_kernel(&kernel, 256);
        for payload in &payloads {
            // SAFETY: `payloads` outlives every run of the batch.
            assert!(unsafe { batch.push(payload) });
            if batch.is_full() {
                assert_eq!(
                    kernel.run_batch(&mut batch, &[1000], &mut batched),
                    Outcome::Done
                );
                assert!(batch.is_empty());
            }
        }
        assert_eq!(
            kernel.run_batch(&mut batch, &[1000], &mut batched),
            Outcome::Done
        );
        assert_eq!(batched, one_by_one);
        // The same rows by their addresses, all at once.
        let starts: Vec<*const u8> = payloads.iter().map(|payload| payload.as_ptr()).collect();
        let shortest = payloads.iter().map(Vec::len).min().unwrap_or(0);
        let mut at_once = vec![0i64; slots];
        // SAFETY: each payload holds `shortest` bytes, and `payloads`
        // outlives the call.
        let outcome = unsafe { kernel.run_starts(&starts, shortest, &[1000], &mut at_once) };
        assert_eq!((outcome, at_once), (Outcome::Done, one_by_one));
        // Fewer bytes than the kernel reads: refused, nothing read.
        let mut untouched = vec![0i64; slots];
        // SAFETY: as above (and nothing is read).
        let outcome = unsafe {
            kernel.run_starts(
                &starts,
                kernel.payload_needed() - 1,
                &[1000],
                &mut untouched,
            )
        };
        assert_eq!((outcome, untouched), (Outcome::Misuse, vec![0i64; slots]));
        // A payload shorter than the kernel reads is refused.
        // SAFETY: the slice is alive while the batch is.
        assert!(!unsafe { batch.push(&[0u8; 3]) });
        // An overflow in the middle of a batch: the SUM as before its row.
        let row = |c: i64| {
            Row {
                a: Some(0),
                b: 0,
                c: Some(c),
                d: 0,
            }
            .payload()
        };
        let (one, big) = (row(1), row(i64::MAX));
        let mut state = vec![0i64; slots];
        // SAFETY: `one` and `big` outlive the batch's run.
        unsafe {
            assert!(batch.push(&one));
            assert!(batch.push(&big));
            assert!(batch.push(&one));
        }
        assert_eq!(
            kernel.run_batch(&mut batch, &[1000], &mut state),
            Outcome::Overflow { index: 1 }
        );
        let sum = SLOTS_PER_AGGREGATE;
        assert_eq!(
            (state[sum], state[sum + 1]),
            (1, 1),
            "the first row's sum only"
        );
    }

    #[test]
    fn a_sum_past_its_type_stops_at_the_row_that_overflows() {
        let spec = KernelSpec {
            conditions: vec![],
            aggregates: vec![
                Aggregate::CountRows,
                Aggregate::Sum(A.into(), SumType::Int),
                Aggregate::Sum(C.into(), SumType::BigInt),
            ],
        };
        let kernel = Kernel::compile(&spec).expect("compiles");
        let mut state = vec![0i64; 6];
        let row = |a: i32, c: i64| {
            Row {
                a: Some(a),
                b: 0,
                c: Some(c),
                d: 0,
            }
            .payload()
        };
        assert_eq!(
            kernel.run(&row(i32::MAX, 1), &[], &mut state),
            Outcome::Done
        );
        let before = state.clone();
        assert_eq!(
            kernel.run(&row(1, 1), &[], &mut state),
            Outcome::Overflow { index: 1 }
        );
        assert_eq!(
            state[2..],
            before[2..],
            "the overflowing SUM and those after it are unchanged"
        );
        let mut state = vec![0i64; 6];
        assert_eq!(
            kernel.run(&row(i32::MIN, i64::MIN), &[], &mut state),
            Outcome::Done
        );
        assert_eq!(
            kernel.run(&row(0, -1), &[], &mut state),
            Outcome::Overflow { index: 2 }
        );
        assert_eq!(
            kernel.run(&row(-1, 0), &[], &mut state),
            Outcome::Overflow { index: 1 }
        );
    }

    #[test]
    fn short_buffers_are_refused_before_anything_is_read() {
        let spec = KernelSpec {
            conditions: vec![Condition {
                left: D.into(),
                op: CompareOp::Eq,
                operand: Operand::Parameter(1),
            }],
            aggregates: vec![Aggregate::CountRows],
        };
        let kernel = Kernel::compile(&spec).expect("compiles");
        let payload = Row {
            a: None,
            b: 0,
            c: None,
            d: 9,
        }
        .payload();
        let mut state = vec![0i64; 2];
        assert_eq!(
            kernel.run(&payload[..15], &[0, 9], &mut state),
            Outcome::Misuse
        );
        assert_eq!(kernel.run(&payload, &[9], &mut state), Outcome::Misuse);
        assert_eq!(
            kernel.run(&payload, &[0, 9], &mut state[..1]),
            Outcome::Misuse
        );
        assert_eq!(kernel.run(&payload, &[0, 9], &mut state), Outcome::Done);
        assert_eq!(state[1], 1);
    }

    #[test]
    fn many_kernels_compile_run_and_drop_one_after_another() {
        let spec = KernelSpec {
            conditions: vec![],
            aggregates: vec![Aggregate::Sum(B.into(), SumType::Int)],
        };
        for _ in 0..2_000 {
            let kernel = Kernel::compile(&spec).expect("compiles");
            let mut state = vec![0i64; 2];
            let payload = Row {
                a: None,
                b: 5,
                c: None,
                d: 0,
            }
            .payload();
            assert_eq!(kernel.run(&payload, &[], &mut state), Outcome::Done);
            assert_eq!(state[0], 5);
        }
    }

    /// `left op right` in a type of range `range`.
    fn computed(op: ArithmeticOp, left: Argument, right: Argument, range: (i64, i64)) -> Argument {
        Argument::Arithmetic {
            op,
            left: Box::new(left),
            right: Box::new(right),
            range,
        }
    }

    #[test]
    fn computed_arguments_check_their_range_only_when_not_null() {
        const TINYINT: (i64, i64) = (0, 255);
        const INT: (i64, i64) = (i32::MIN as i64, i32::MAX as i64);
        // MIN(d - 10) in tinyint, SUM(a * b) in int, MAX(c * c) in bigint.
        let spec = KernelSpec {
            conditions: vec![],
            aggregates: vec![
                Aggregate::Min(computed(
                    ArithmeticOp::Subtract,
                    D.into(),
                    Argument::Constant(10),
                    TINYINT,
                )),
                Aggregate::Sum(
                    computed(ArithmeticOp::Multiply, A.into(), B.into(), INT),
                    SumType::Int,
                ),
                Aggregate::Max(computed(
                    ArithmeticOp::Multiply,
                    C.into(),
                    C.into(),
                    (i64::MIN, i64::MAX),
                )),
            ],
        };
        let kernel = Kernel::compile(&spec).expect("compiles");
        let run = |row: Row| {
            let mut state = vec![0i64; 6];
            let outcome = kernel.run(&row.payload(), &[], &mut state);
            (outcome, state)
        };
        // NULL a and c (stored as 0): no overflow, nothing summed.
        let (outcome, state) = run(Row {
            a: None,
            b: 7,
            c: None,
            d: 12,
        });
        assert_eq!(outcome, Outcome::Done);
        assert_eq!((state[0], state[1]), (2, 1));
        assert_eq!((state[3], state[5]), (0, 0));
        // A NULL is NULL whatever its bytes hold: 70000 * 32767 is not
        // computed when a's null bit is set.
        let mut payload = Row {
            a: Some(70_000),
            b: 32_767,
            c: None,
            d: 10,
        }
        .payload();
        payload[0] |= 1;
        let mut state = vec![0i64; 6];
        assert_eq!(kernel.run(&payload, &[], &mut state), Outcome::Done);
        assert_eq!(state[3], 0);
        // 3 - 10 is below tinyint: the first aggregate's overflow.
        let (outcome, _) = run(Row {
            a: None,
            b: 7,
            c: None,
            d: 3,
        });
        assert_eq!(outcome, Outcome::Overflow { index: 0 });
        // 70000 * 32767 is past int, computed exactly in 64 bits.
        let (outcome, _) = run(Row {
            a: Some(70_000),
            b: 32_767,
            c: None,
            d: 10,
        });
        assert_eq!(outcome, Outcome::Overflow { index: 1 });
        let (outcome, state) = run(Row {
            a: Some(-65_536),
            b: 32_767,
            c: None,
            d: 10,
        });
        assert_eq!(outcome, Outcome::Done);
        assert_eq!((state[2], state[3]), (-65_536 * 32_767, 1));
        // 2^32 squared wraps 64 bits: caught by the multiply's own flag.
        let (outcome, _) = run(Row {
            a: None,
            b: 0,
            c: Some(1 << 32),
            d: 10,
        });
        assert_eq!(outcome, Outcome::Overflow { index: 2 });
        let (outcome, state) = run(Row {
            a: None,
            b: 0,
            c: Some(-3_037_000_499),
            d: 10,
        });
        assert_eq!(outcome, Outcome::Done);
        assert_eq!(state[4], 3_037_000_499i64 * 3_037_000_499);
    }

    #[test]
    fn a_condition_on_a_constant_compiles_as_a_computed_one() {
        for (left, expected) in [(5, 1), (1, 0)] {
            let spec = KernelSpec {
                conditions: vec![Condition {
                    left: Argument::Constant(left),
                    op: CompareOp::Gt,
                    operand: Operand::Constant(3),
                }],
                aggregates: vec![Aggregate::CountRows],
            };
            let kernel = Kernel::compile(&spec).expect("compiles");
            let payload = Row {
                a: None,
                b: 0,
                c: None,
                d: 0,
            }
            .payload();
            let mut state = vec![0i64; 2];
            assert_eq!(kernel.run(&payload, &[], &mut state), Outcome::Done);
            assert_eq!(state[1], expected);
        }
    }
}
