//! The plan cache: what a batch, a parameterized statement or a stored
//! procedure compiled to, kept for the next run of the same text, and the
//! counters `sys.dm_exec_cached_plans` and `sys.dm_exec_query_stats` show.
//!
//! What is compiled is the parse: a batch's statements, checked by the
//! batch rules (`interpret::batch_rules`), held as a nameless procedure
//! (a stored procedure's entry shares the catalog's); the cache holds any
//! [`Compiled`] form. Each statement's bound plan joins it, next to its
//! [`StatementStats`], when the statement first runs and its plan may be
//! reused (`interpret::kept_plans` decides, and checks it again on each
//! use; the size estimate leaves bound plans out). A stored procedure's
//! entry also counts its calls (`sys.dm_exec_procedure_stats`). What changes a
//! compilation's meaning is in the key already (see [`PlanKey`] and [`PlanOptions`]), and each entry
//! records the schema version it was compiled at, so an entry older than
//! the last DDL is compiled again on its next use (`plan_generation_num`
//! goes up, the counters start over).
//!
//! An ad hoc text is cached from its second use (as SQL Server does with
//! `optimize for ad hoc workloads`, without the stub entry): a batch
//! with an inlined literal, new each time, costs a hash and no more.
//!
//! The cache is bounded by entry count and by an estimate of the bytes
//! the entries hold (see [`estimated_size`]); when either bound is
//! reached a clock sweep evicts entries not used since the hand last
//! passed them. Lookups take a read lock and mark the entry with an
//! atomic flag; only inserting and evicting take the write lock.

use crate::statistics::Lap;
use hekla_parser::ast::{self, StatementKind};
use hekla_plan::catalog::procedure::ProcedureMeta;
use hekla_plan::session_options::SetOptions;
use hekla_types::hash::{HashKeyed, KeyHasher, PassThrough};
use std::any::Any;
use std::collections::HashSet;
use std::hash::BuildHasherDefault;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::SystemTime;

/// What a cache entry holds: a compiled batch or module.
pub trait Compiled: Send + Sync {
    /// Its statements; their spans point into [`Compiled::text`].
    fn statements(&self) -> &[ast::Statement];
    /// The text it was compiled from (what an ad hoc or prepared key
    /// names).
    fn text(&self) -> &str;
    /// A stored procedure's object id (what a procedure's key names).
    fn object_id(&self) -> i32;
    /// The bytes of text it holds, its own and copies (see
    /// [`estimated_size`]).
    fn text_bytes(&self) -> usize;
}

/// A procedure, or a batch or dynamic SQL compiled like one, is what the
/// plan cache holds.
impl Compiled for ProcedureMeta {
    fn statements(&self) -> &[ast::Statement] {
        &self.body
    }

    fn text(&self) -> &str {
        &self.definition
    }

    fn object_id(&self) -> i32 {
        self.object_id
    }

    /// Its definition, and the copy of it a parameterized text's name is.
    fn text_bytes(&self) -> usize {
        self.definition.len() + self.name.len()
    }
}

/// A plan cache entry of a procedure, batch or dynamic SQL.
pub type ProcedurePlan = CachedPlan<ProcedureMeta>;

/// `objtype` of `sys.dm_exec_cached_plans`: how the text came.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PlanKind {
    /// A batch, or the text of `EXEC ('...')`.
    Adhoc,
    /// `sp_executesql`, `sp_prepare` or `sp_prepexec` text.
    Prepared,
    /// A stored procedure.
    Proc,
}

impl PlanKind {
    pub fn objtype(self) -> &'static str {
        match self {
            PlanKind::Adhoc => "Adhoc",
            PlanKind::Prepared => "Prepared",
            PlanKind::Proc => "Proc",
        }
    }
}

/// The SET options a compilation depends on. SQL Server keys plans on
/// these too (its `set_options` plan attribute); hekla's binder reads
/// ANSI_NULLS, ANSI_WARNINGS and ROWCOUNT, evaluation the rest. Parsing
/// depends on none: hekla always runs with QUOTED_IDENTIFIER ON.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlanOptions {
    /// SQL Server's `set_options` bits for the options above.
    pub set_options: u32,
    pub date_format: hekla_types::datetime::DateFormat,
    pub date_first: u8,
    pub row_count: u64,
}

impl PlanOptions {
    pub fn of(options: &SetOptions) -> PlanOptions {
        // ANSI_PADDING (1), QUOTED_IDENTIFIER (64) and ANSI_NULL_DFLT_ON
        // (128) are always on in hekla.
        let mut bits = 1 | 64 | 128;
        let flags = [
            (options.concat_null_yields_null, 8),
            (options.ansi_warnings, 16),
            (options.ansi_nulls, 32),
            (options.arithabort, 4096),
            (options.row_count != 0, 262_144),
        ];
        for (on, bit) in flags {
            if on {
                bits |= bit;
            }
        }
        PlanOptions {
            set_options: bits,
            date_format: options.date_format,
            date_first: options.date_first,
            row_count: options.row_count,
        }
    }

    fn hash_into(&self, hasher: &mut KeyHasher) {
        let small = u64::from(self.set_options) << 16
            | (self.date_format as u64) << 8
            | u64::from(self.date_first);
        hasher.write_u64(small);
        hasher.write_u64(self.row_count);
    }
}

/// What a compilation is looked up by. It borrows the text: a lookup
/// copies nothing, and hashes the text once.
pub struct PlanKey<'a> {
    pub kind: PlanKind,
    /// The batch or statement text; empty for a procedure.
    pub text: &'a str,
    /// The parameter declarations of `sp_executesql` or `sp_prepare`.
    pub parameters: &'a str,
    /// The procedure's object id; 0 for text.
    pub object_id: i32,
    pub options: PlanOptions,
}

impl<'a> PlanKey<'a> {
    /// A batch's, or `EXEC ('...')`'s, text.
    pub fn adhoc(text: &'a str, options: &SetOptions) -> PlanKey<'a> {
        PlanKey {
            kind: PlanKind::Adhoc,
            text,
            parameters: "",
            object_id: 0,
            options: PlanOptions::of(options),
        }
    }

    /// `sp_executesql`'s or `sp_prepare`'s text with its declarations.
    pub fn prepared(text: &'a str, parameters: &'a str, options: &SetOptions) -> PlanKey<'a> {
        PlanKey {
            kind: PlanKind::Prepared,
            text,
            parameters,
            object_id: 0,
            options: PlanOptions::of(options),
        }
    }

    /// A stored procedure.
    pub fn procedure(object_id: i32, options: &SetOptions) -> PlanKey<'static> {
        PlanKey {
            kind: PlanKind::Proc,
            text: "",
            parameters: "",
            object_id,
            options: PlanOptions::of(options),
        }
    }

    /// Hashed with the index keys' hasher, a multiply per 8 bytes of
    /// text: SipHash cost ~1,600 instructions for a point statement's
    /// text, a twentieth of running it. Texts are not chosen to collide
    /// with each other's entries: a collision only replaces an entry.
    fn hash(&self) -> u64 {
        let mut hasher = KeyHasher::default();
        hasher.write_u64(self.kind as u64);
        hasher.write(self.text.as_bytes());
        hasher.write(self.parameters.as_bytes());
        hasher.write_u64(u64::from(self.object_id as u32));
        self.options.hash_into(&mut hasher);
        hasher.finish()
    }
}

/// One statement's counters, as `sys.dm_exec_query_stats` shows them,
/// or a procedure's calls', as `sys.dm_exec_procedure_stats` does. Times
/// are in microseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Counters {
    pub last_execution: Option<SystemTime>,
    pub execution_count: u64,
    pub worker_time: Totals,
    pub elapsed_time: Totals,
    /// What a statement left in `@@ROWCOUNT`; calls count none (0).
    pub rows: Totals,
}

impl Counters {
    /// One more execution, which took `lap`.
    fn count(&mut self, lap: &Lap, rows: u64) {
        let first = self.execution_count == 0;
        self.execution_count += 1;
        self.last_execution = Some(SystemTime::now());
        self.worker_time.add(lap.worker_micros, first);
        self.elapsed_time.add(lap.elapsed_micros, first);
        self.rows.add(rows, first);
    }
}

/// A figure's total over the executions, and its last, least and most.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Totals {
    pub total: u64,
    pub last: u64,
    pub min: u64,
    pub max: u64,
}

impl Totals {
    fn add(&mut self, value: u64, first: bool) {
        self.total = self.total.saturating_add(value);
        self.last = value;
        self.min = if first { value } else { self.min.min(value) };
        self.max = self.max.max(value);
    }
}

/// A statement of a cached plan: where its text is, and its counters.
pub struct StatementStats {
    /// Byte range of the statement in the module's text.
    pub start: u32,
    pub end: u32,
    counters: Mutex<Counters>,
    /// Its bound plan, for the next run (see `interpret::kept_plans`,
    /// which alone knows what it holds).
    bound: Mutex<Option<BoundPlan>>,
}

/// A statement's bound plan as the cache holds it: opaque.
pub type BoundPlan = Arc<dyn Any + Send + Sync>;

impl StatementStats {
    pub fn counters(&self) -> Counters {
        *self.counters.lock().expect("statement counters")
    }
}

/// One cached compilation.
pub struct CachedPlan<M> {
    pub kind: PlanKind,
    /// The compiled statements.
    pub module: Arc<M>,
    /// The parameter declarations it was compiled with.
    pub parameters: Box<str>,
    options: PlanOptions,
    key_hash: u64,
    /// The catalog's schema version it was compiled at.
    pub schema_version: u64,
    /// 1 at the first compilation, one more per recompilation.
    pub generation: i64,
    /// Stays the same across recompilations (the `plan_handle`).
    pub id: u64,
    pub created: SystemTime,
    pub size_in_bytes: usize,
    usecounts: AtomicU64,
    /// Used since the clock hand last passed it.
    referenced: AtomicBool,
    /// Its statements that do work (not control flow), by position.
    pub statements: Vec<StatementStats>,
    /// A stored procedure's calls since it was compiled (see
    /// `interpret::call` for which count).
    calls: Mutex<Counters>,
}

impl<M: Compiled> CachedPlan<M> {
    fn new(
        key: &PlanKey,
        key_hash: u64,
        module: Arc<M>,
        schema_version: u64,
        id: u64,
        previous: Option<&CachedPlan<M>>,
        kept: bool,
    ) -> CachedPlan<M> {
        // A plan the cache does not keep shows no counters: none are kept.
        let mut statements = Vec::new();
        if kept {
            collect_statements(module.statements(), &mut statements);
        }
        CachedPlan {
            kind: key.kind,
            size_in_bytes: estimated_size(&*module, statements.len()),
            module,
            parameters: key.parameters.into(),
            options: key.options,
            key_hash,
            schema_version,
            generation: previous.map_or(1, |plan| plan.generation + 1),
            id: previous.map_or(id, |plan| plan.id),
            created: SystemTime::now(),
            usecounts: AtomicU64::new(previous.map_or(0, CachedPlan::usecounts)),
            referenced: AtomicBool::new(true),
            statements,
            calls: Mutex::default(),
        }
    }

    fn matches(&self, key: &PlanKey) -> bool {
        self.kind == key.kind
            && self.options == key.options
            && match self.kind {
                PlanKind::Proc => self.module.object_id() == key.object_id,
                _ => *self.parameters == *key.parameters && self.module.text() == key.text,
            }
    }

    /// The hash of its key (`bucketid` is taken from it).
    pub fn key_hash(&self) -> u64 {
        self.key_hash
    }

    /// How many times it was looked up (`usecounts`).
    pub fn usecounts(&self) -> u64 {
        self.usecounts.load(Ordering::Relaxed)
    }

    fn used(&self) {
        self.usecounts.fetch_add(1, Ordering::Relaxed);
        self.referenced.store(true, Ordering::Relaxed);
    }

    /// The position of `statement`'s counters, if it has them (control
    /// flow has none).
    pub fn statement_slot(&self, statement: &ast::Statement) -> Option<usize> {
        if is_control_flow(&statement.kind) {
            return None;
        }
        self.statements
            .binary_search_by_key(&statement.span.start, |s| s.start)
            .ok()
    }

    /// The bound plan kept for the statement at `slot`, if any.
    pub fn bound_plan(&self, slot: usize) -> Option<BoundPlan> {
        let statement = self.statements.get(slot)?;
        statement.bound.lock().expect("bound plan").clone()
    }

    /// Keeps `plan` as the statement at `slot`'s bound plan.
    pub fn keep_bound_plan(&self, slot: usize, plan: BoundPlan) {
        if let Some(statement) = self.statements.get(slot) {
            *statement.bound.lock().expect("bound plan") = Some(plan);
        }
    }

    /// Counts one run of the statement at `slot`, which took `lap` and
    /// left `rows` in `@@ROWCOUNT`.
    pub fn record(&self, slot: usize, lap: &Lap, rows: u64) {
        let Some(statement) = self.statements.get(slot) else {
            return;
        };
        let mut counters = statement.counters.lock().expect("statement counters");
        counters.count(lap, rows);
    }

    /// Counts one call of the stored procedure, which took `lap`.
    pub fn record_call(&self, lap: &Lap) {
        self.calls.lock().expect("call counters").count(lap, 0);
    }

    /// The stored procedure's calls since it was compiled.
    pub fn call_counters(&self) -> Counters {
        *self.calls.lock().expect("call counters")
    }
}

/// Statements SQL Server compiles a query plan for: everything but the
/// control flow around them.
fn is_control_flow(kind: &StatementKind) -> bool {
    matches!(
        kind,
        StatementKind::Block(_)
            | StatementKind::AtomicBlock { .. }
            | StatementKind::If { .. }
            | StatementKind::While { .. }
            | StatementKind::TryCatch { .. }
            | StatementKind::Break
            | StatementKind::Continue
            | StatementKind::Goto(_)
            | StatementKind::Label(_)
            | StatementKind::Return(_)
    )
}

/// The statements under `statements` that get counters, in text order.
fn collect_statements(statements: &[ast::Statement], into: &mut Vec<StatementStats>) {
    for statement in statements {
        match &statement.kind {
            StatementKind::Block(body) | StatementKind::AtomicBlock { body, .. } => {
                collect_statements(body, into)
            }
            StatementKind::If {
                then_branch,
                else_branch,
                ..
            } => {
                collect_statements(std::slice::from_ref(then_branch), into);
                if let Some(otherwise) = else_branch {
                    collect_statements(std::slice::from_ref(otherwise), into);
                }
            }
            StatementKind::While { body, .. } => {
                collect_statements(std::slice::from_ref(body), into)
            }
            StatementKind::TryCatch {
                try_block,
                catch_block,
            } => {
                collect_statements(try_block, into);
                collect_statements(catch_block, into);
            }
            kind if is_control_flow(kind) => {}
            _ => into.push(StatementStats {
                start: statement.span.start,
                end: statement.span.end,
                counters: Mutex::default(),
                bound: Mutex::default(),
            }),
        }
    }
}

/// Bytes of syntax tree per byte of text: a rough average of hekla's AST
/// (boxed expressions, spans and identifier strings per token).
const TREE_BYTES_PER_TEXT_BYTE: usize = 16;

/// What an entry holds, estimated: its text (and copies of it, such as
/// the name a parameterized text carries), the syntax tree at
/// [`TREE_BYTES_PER_TEXT_BYTE`] per byte of text, and the counters of
/// its statements.
pub fn estimated_size(module: &impl Compiled, statements: usize) -> usize {
    std::mem::size_of::<CachedPlan<()>>()
        + module.text_bytes()
        + module.text().len() * TREE_BYTES_PER_TEXT_BYTE
        + statements * std::mem::size_of::<StatementStats>()
}

/// The bounds of a cache.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub entries: usize,
    pub bytes: usize,
}

impl Default for Limits {
    /// 4,096 entries, 64 MiB.
    fn default() -> Self {
        Limits {
            entries: 4096,
            bytes: 64 << 20,
        }
    }
}

/// A database's plan cache.
pub struct PlanCache<M> {
    limits: Limits,
    entries: RwLock<Entries<M>>,
    /// Key hashes of ad hoc texts compiled once (see `seen_before`).
    seen_once: Mutex<HashSet<u64, BuildHasherDefault<PassThrough>>>,
    next_id: AtomicU64,
}

/// The entries, in the slots the clock hand sweeps.
struct Entries<M> {
    slots: Vec<Option<Arc<CachedPlan<M>>>>,
    free: Vec<usize>,
    /// Slot by key hash: one entry per hash (a colliding key replaces
    /// the entry, which a lookup compares in full).
    by_hash: HashKeyed<usize>,
    hand: usize,
    bytes: usize,
}

impl<M> Default for Entries<M> {
    fn default() -> Self {
        Entries {
            slots: Vec::new(),
            free: Vec::new(),
            by_hash: HashKeyed::default(),
            hand: 0,
            bytes: 0,
        }
    }
}

impl<M: Compiled> Default for PlanCache<M> {
    fn default() -> Self {
        PlanCache::new(Limits::default())
    }
}

impl<M: Compiled> PlanCache<M> {
    pub fn new(limits: Limits) -> PlanCache<M> {
        PlanCache {
            limits,
            entries: RwLock::default(),
            seen_once: Mutex::default(),
            next_id: AtomicU64::new(1),
        }
    }

    /// The plan `key` names, compiled at `schema_version`: the cached
    /// one, counted as used, or else what `compile` makes, cached unless
    /// `cacheable` says no or it is larger than the cache. A compilation
    /// that fails is not cached.
    pub fn get_or_compile<E>(
        &self,
        key: &PlanKey,
        schema_version: u64,
        compile: impl FnOnce() -> Result<Arc<M>, E>,
    ) -> Result<Arc<CachedPlan<M>>, E> {
        let hash = key.hash();
        let found = self.find(key, hash);
        if let Some(plan) = found
            .as_ref()
            .filter(|p| p.schema_version == schema_version)
        {
            plan.used();
            return Ok(Arc::clone(plan));
        }
        let second_use = found.is_some() || key.kind != PlanKind::Adhoc || self.seen_before(hash);
        let module = compile()?;
        let kept = second_use && cacheable(module.statements());
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let plan = Arc::new(CachedPlan::new(
            key,
            hash,
            module,
            schema_version,
            id,
            found.as_deref(),
            kept,
        ));
        plan.used();
        if kept {
            self.insert(Arc::clone(&plan));
        }
        Ok(plan)
    }

    /// True if an ad hoc text with this key hash was compiled before;
    /// else remembers it. A text used once (a literal inlined in it, say)
    /// is not worth keeping: its syntax tree is freed at once, and its
    /// next use compiles it again and caches it. The set of hashes is
    /// emptied when it holds as many as the cache may hold entries.
    fn seen_before(&self, hash: u64) -> bool {
        let mut seen = self.seen_once.lock().expect("plan cache lock");
        if seen.remove(&hash) {
            return true;
        }
        if seen.len() >= self.limits.entries {
            seen.clear();
        }
        seen.insert(hash);
        false
    }

    fn find(&self, key: &PlanKey, hash: u64) -> Option<Arc<CachedPlan<M>>> {
        let entries = self.entries.read().expect("plan cache lock");
        let slot = *entries.by_hash.get(&hash)?;
        let plan = entries.slots[slot].as_ref()?;
        plan.matches(key).then(|| Arc::clone(plan))
    }

    fn insert(&self, plan: Arc<CachedPlan<M>>) {
        if plan.size_in_bytes > self.limits.bytes || self.limits.entries == 0 {
            return;
        }
        let mut evicted = Vec::new();
        let mut entries = self.entries.write().expect("plan cache lock");
        if let Some(&slot) = entries.by_hash.get(&plan.key_hash) {
            evicted.extend(entries.remove(slot));
        }
        while entries.by_hash.len() >= self.limits.entries
            || entries.bytes + plan.size_in_bytes > self.limits.bytes
        {
            match entries.evict_one() {
                Some(plan) => evicted.push(plan),
                None => break,
            }
        }
        entries.add(plan);
        // The evicted plans' statements are freed after the lock is let go.
        drop(entries);
        drop(evicted);
    }

    /// Every cached plan (`sys.dm_exec_cached_plans`).
    pub fn plans(&self) -> Vec<Arc<CachedPlan<M>>> {
        let entries = self.entries.read().expect("plan cache lock");
        entries.slots.iter().flatten().cloned().collect()
    }

    /// The number of entries and their estimated bytes.
    pub fn usage(&self) -> (usize, usize) {
        let entries = self.entries.read().expect("plan cache lock");
        (entries.by_hash.len(), entries.bytes)
    }

    /// Lets go of every kept bound plan, after a schema change made them
    /// all stale: a plan holds the tables it reads, so a dropped table's
    /// rows would otherwise stay in memory until its entry is next used
    /// or evicted. The entries stay, with their counters, and are
    /// compiled again at their next use.
    pub fn release_bound_plans(&self) {
        let entries = self.entries.read().expect("plan cache lock");
        for plan in entries.slots.iter().flatten() {
            for statement in plan.statements.iter() {
                statement.bound.lock().expect("bound plan").take();
            }
        }
    }

    /// Removes stored procedure `object_id`'s entries (DROP PROCEDURE), as
    /// SQL Server removes a dropped object's plans: a dropped procedure's
    /// plan would otherwise hold memory until evicted.
    pub fn remove_object(&self, object_id: i32) {
        let mut entries = self.entries.write().expect("plan cache lock");
        let slots: Vec<usize> = entries
            .slots
            .iter()
            .enumerate()
            .filter(|(_, plan)| {
                plan.as_ref().is_some_and(|plan| {
                    plan.kind == PlanKind::Proc && plan.module.object_id() == object_id
                })
            })
            .map(|(slot, _)| slot)
            .collect();
        let removed: Vec<_> = slots
            .into_iter()
            .filter_map(|slot| entries.remove(slot))
            .collect();
        // Their statements are freed after the lock is let go.
        drop(entries);
        drop(removed);
    }

    /// Empties the cache (`DBCC FREEPROCCACHE`).
    pub fn clear(&self) {
        self.seen_once.lock().expect("plan cache lock").clear();
        let emptied = std::mem::take(&mut *self.entries.write().expect("plan cache lock"));
        drop(emptied);
    }
}

impl<M> Entries<M> {
    fn add(&mut self, plan: Arc<CachedPlan<M>>) {
        self.bytes += plan.size_in_bytes;
        let hash = plan.key_hash;
        let slot = match self.free.pop() {
            Some(slot) => {
                self.slots[slot] = Some(plan);
                slot
            }
            None => {
                self.slots.push(Some(plan));
                self.slots.len() - 1
            }
        };
        self.by_hash.insert(hash, slot);
    }

    fn remove(&mut self, slot: usize) -> Option<Arc<CachedPlan<M>>> {
        let plan = self.slots[slot].take()?;
        self.bytes -= plan.size_in_bytes;
        self.by_hash.remove(&plan.key_hash);
        self.free.push(slot);
        Some(plan)
    }

    /// The clock: the hand clears the used flag of each entry it passes
    /// and evicts the first one found unused (two sweeps at most); None
    /// when the cache is empty.
    fn evict_one(&mut self) -> Option<Arc<CachedPlan<M>>> {
        if self.by_hash.is_empty() {
            return None;
        }
        loop {
            let slot = self.hand;
            self.hand = (slot + 1) % self.slots.len();
            let Some(plan) = &self.slots[slot] else {
                continue;
            };
            if !plan.referenced.swap(false, Ordering::Relaxed) {
                return self.remove(slot);
            }
        }
    }
}

/// A batch that defines a module (CREATE PROCEDURE, FUNCTION, VIEW,
/// TRIGGER or SCHEMA, which must start their batch) runs once to create
/// it: hekla does not fill the cache with it.
fn cacheable(statements: &[ast::Statement]) -> bool {
    !matches!(
        statements.first().map(|s| &s.kind),
        Some(
            StatementKind::CreateProcedure(_)
                | StatementKind::CreateFunction(_)
                | StatementKind::CreateView(_)
                | StatementKind::CreateSchema { .. }
        )
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A parsed batch, the least a cache entry can hold.
    struct Batch {
        text: String,
        statements: Vec<ast::Statement>,
    }

    impl Compiled for Batch {
        fn statements(&self) -> &[ast::Statement] {
            &self.statements
        }
        fn text(&self) -> &str {
            &self.text
        }
        fn object_id(&self) -> i32 {
            0
        }
        fn text_bytes(&self) -> usize {
            self.text.len()
        }
    }

    fn module(text: &str) -> Arc<Batch> {
        let statements = hekla_parser::parse_batch(text).expect("parses").statements;
        Arc::new(Batch {
            text: text.to_string(),
            statements,
        })
    }

    /// `text` as prepared text, which is cached at its first use.
    fn compile(cache: &PlanCache<Batch>, text: &str) -> Arc<CachedPlan<Batch>> {
        let options = SetOptions::default();
        let key = PlanKey::prepared(text, "", &options);
        cache
            .get_or_compile(&key, 0, || Ok::<_, ()>(module(text)))
            .expect("compiles")
    }

    fn cached(cache: &PlanCache<Batch>, text: &str) -> bool {
        cache.plans().iter().any(|p| p.module.text == text)
    }

    #[test]
    fn the_same_text_is_found_again() {
        let cache = PlanCache::<Batch>::default();
        let first = compile(&cache, "SELECT 1");
        let second = compile(&cache, "SELECT 1");
        assert!(Arc::ptr_eq(&first, &second));
        assert_eq!(second.usecounts(), 2);
        compile(&cache, "SELECT 2");
        assert_eq!(cache.usage().0, 2);
    }

    #[test]
    fn the_entry_bound_holds_and_the_clock_spares_used_entries() {
        let cache = PlanCache::<Batch>::new(Limits {
            entries: 4,
            bytes: usize::MAX,
        });
        for n in 0..4 {
            compile(&cache, &format!("SELECT {n}"));
        }
        // The first sweep clears every flag and evicts "SELECT 0"; using
        // "SELECT 1" again flags it, so the next eviction passes it by.
        compile(&cache, "SELECT 4");
        assert!(!cached(&cache, "SELECT 0"));
        compile(&cache, "SELECT 1");
        compile(&cache, "SELECT 5");
        assert!(cached(&cache, "SELECT 1"));
        assert!(!cached(&cache, "SELECT 2"));
        for n in 6..100 {
            compile(&cache, &format!("SELECT {n}"));
            assert_eq!(cache.usage().0, 4);
        }
    }

    #[test]
    fn a_schema_change_lets_kept_plans_go_and_keeps_the_entry() {
        let cache = PlanCache::<Batch>::default();
        let plan = compile(&cache, "SELECT 1");
        // What a kept plan holds (tables, with their rows) lives as long
        // as the plan is kept.
        let held = Arc::new(vec![0u8; 1024]);
        plan.keep_bound_plan(0, held.clone());
        assert!(plan.bound_plan(0).is_some());
        assert_eq!(Arc::strong_count(&held), 2);
        cache.release_bound_plans();
        assert!(plan.bound_plan(0).is_none());
        assert_eq!(Arc::strong_count(&held), 1);
        assert!(cached(&cache, "SELECT 1"));
    }

    #[test]
    fn the_byte_bound_holds() {
        let one = compile(&PlanCache::<Batch>::default(), "SELECT 10").size_in_bytes;
        let cache = PlanCache::<Batch>::new(Limits {
            entries: 1000,
            bytes: one * 3,
        });
        for n in 10..60 {
            compile(&cache, &format!("SELECT {n}"));
            let (count, bytes) = cache.usage();
            assert!(bytes <= one * 3, "{bytes} bytes cached");
            assert!(count <= 3);
        }
        assert_eq!(cache.usage().0, 3);
        // Larger than the whole cache: compiled, not cached.
        let large = format!("SELECT '{}'", "x".repeat(one * 3));
        compile(&cache, &large);
        assert!(!cached(&cache, &large));
    }

    #[test]
    fn a_newer_schema_recompiles_under_the_same_handle() {
        let cache = PlanCache::<Batch>::default();
        let options = SetOptions::default();
        let key = PlanKey::prepared("SELECT 1", "", &options);
        let compiled = |version| {
            cache
                .get_or_compile(&key, version, || Ok::<_, ()>(module("SELECT 1")))
                .expect("compiles")
        };
        let first = compiled(7);
        let again = compiled(7);
        assert!(Arc::ptr_eq(&first, &again));
        let recompiled = compiled(8);
        assert!(!Arc::ptr_eq(&first, &recompiled));
        assert_eq!((recompiled.generation, recompiled.id), (2, first.id));
        assert_eq!(recompiled.usecounts(), 3);
        assert_eq!(cache.usage().0, 1);
    }

    #[test]
    fn options_and_parameters_are_part_of_the_key() {
        let cache = PlanCache::<Batch>::default();
        let mut options = SetOptions::default();
        let text = "SELECT @p";
        let get = |key: &PlanKey| {
            cache
                .get_or_compile(key, 0, || Ok::<_, ()>(module(text)))
                .expect("compiles")
        };
        let int = get(&PlanKey::prepared(text, "@p int", &options));
        let bigint = get(&PlanKey::prepared(text, "@p bigint", &options));
        assert!(!Arc::ptr_eq(&int, &bigint));
        options.ansi_nulls = false;
        let ansi_off = get(&PlanKey::prepared(text, "@p int", &options));
        assert!(!Arc::ptr_eq(&int, &ansi_off));
        assert_eq!(cache.usage().0, 3);
    }

    #[test]
    fn the_key_hash_tells_every_part_of_the_key_apart() {
        let options = SetOptions::default();
        let ansi_off = SetOptions {
            ansi_nulls: false,
            ..SetOptions::default()
        };
        let ydm = SetOptions {
            date_format: hekla_types::datetime::DateFormat::Ydm,
            ..SetOptions::default()
        };
        let hashes = [
            PlanKey::adhoc("SELECT 1", &options).hash(),
            PlanKey::adhoc("SELECT 2", &options).hash(),
            PlanKey::adhoc("SELECT 1 ", &options).hash(),
            PlanKey::prepared("SELECT 1", "", &options).hash(),
            PlanKey::prepared("SELECT 1", "@p int", &options).hash(),
            PlanKey::prepared("SELECT 1@p int", "", &options).hash(),
            PlanKey::adhoc("SELECT 1", &ansi_off).hash(),
            PlanKey::adhoc("SELECT 1", &ydm).hash(),
            PlanKey::procedure(5, &options).hash(),
            PlanKey::procedure(6, &options).hash(),
        ];
        let distinct: HashSet<u64> = hashes.iter().copied().collect();
        assert_eq!(distinct.len(), hashes.len(), "{hashes:x?}");
        assert_eq!(hashes[0], PlanKey::adhoc("SELECT 1", &options).hash());
    }

    #[test]
    fn an_ad_hoc_text_is_cached_from_its_second_use() {
        let cache = PlanCache::<Batch>::default();
        let options = SetOptions::default();
        let key = PlanKey::adhoc("SELECT 1", &options);
        let get = || {
            cache
                .get_or_compile(&key, 0, || Ok::<_, ()>(module("SELECT 1")))
                .expect("compiles")
        };
        let first = get();
        assert_eq!(cache.usage().0, 0);
        assert!(first.statements.is_empty(), "no counters for it");
        let second = get();
        let third = get();
        assert!(Arc::ptr_eq(&second, &third));
        assert_eq!((third.usecounts(), third.statements.len()), (2, 1));
        cache.clear();
        get();
        assert_eq!(cache.usage().0, 0, "forgotten with the rest");
    }

    #[test]
    fn a_failed_compilation_is_not_cached() {
        let cache = PlanCache::<Batch>::default();
        let options = SetOptions::default();
        let key = PlanKey::adhoc("SELEC 1", &options);
        for _ in 0..2 {
            assert!(cache.get_or_compile(&key, 0, || Err(())).is_err());
        }
        assert_eq!(cache.usage().0, 0);
    }

    #[test]
    fn calls_are_counted_until_the_plan_is_compiled_again() {
        let cache = PlanCache::<Batch>::default();
        let options = SetOptions::default();
        let key = PlanKey::prepared("SELECT 1", "", &options);
        let compiled = |version| {
            cache
                .get_or_compile(&key, version, || Ok::<_, ()>(module("SELECT 1")))
                .expect("compiles")
        };
        let plan = compiled(1);
        for micros in [30, 10, 20] {
            let lap = crate::statistics::Lap {
                worker_micros: micros / 2,
                elapsed_micros: micros,
            };
            plan.record_call(&lap);
        }
        let calls = plan.call_counters();
        assert_eq!(calls.execution_count, 3);
        let elapsed = calls.elapsed_time;
        assert_eq!(
            (elapsed.total, elapsed.last, elapsed.min, elapsed.max),
            (60, 20, 10, 30)
        );
        assert_eq!(calls.worker_time.total, 30);
        assert!(calls.last_execution.is_some());
        assert_eq!(compiled(2).call_counters(), Counters::default());
    }

    #[test]
    fn statements_get_counters_and_control_flow_does_not() {
        let cache = PlanCache::<Batch>::default();
        let plan = compile(
            &cache,
            "IF 1 = 1\nBEGIN SELECT 1; SELECT 2 END\nELSE PRINT 'x'",
        );
        let spans: Vec<_> = plan.statements.iter().map(|s| (s.start, s.end)).collect();
        assert_eq!(spans.len(), 3, "{spans:?}");
        let lap = crate::statistics::Lap {
            worker_micros: 3,
            elapsed_micros: 4,
        };
        plan.record(1, &lap, 5);
        plan.record(1, &lap, 2);
        let counters = plan.statements[1].counters();
        assert_eq!(counters.execution_count, 2);
        assert_eq!(
            (counters.rows.total, counters.rows.min, counters.rows.max),
            (7, 2, 5)
        );
        assert_eq!(counters.rows.last, 2);
        assert_eq!(plan.statements[0].counters().execution_count, 0);
    }
}
