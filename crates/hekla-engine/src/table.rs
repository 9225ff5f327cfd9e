//! A memory-optimized table: its definition, row layout, heap and indexes.

use crate::catalog::{IndexDef, IndexKind, TableDef, TableId, Uniqueness};
use crate::errors;
use crate::hash_index::{HashIndex, HashIndexStats};
use crate::heap::{HeapStats, RowHeap};
use crate::layout::RowLayout;
use crate::memory::MemoryBudget;
use crate::range_index::{RangeIndex, RangeIndexStats};
use crate::version::{header_bytes, VersionPtr};
use hekla_types::{KeyHasher, SqlError, SqlResult, Value};
use std::ptr::NonNull;
use std::sync::atomic::{AtomicUsize, Ordering as AtomicOrdering};
use std::sync::Arc;

/// An uncounted reference to a table, held by write sets and the garbage
/// queue. Valid because a dropped table is kept until no transaction that
/// could hold one is left and none is queued as garbage (see
/// `Database::reclaim_dropped`), and a database with live transactions is
/// never freed (see `Database`'s Drop).
#[derive(Clone, Copy)]
pub(crate) struct TableRef(NonNull<Table>);

// SAFETY: Table is Sync; the pointer is valid as explained above.
unsafe impl Send for TableRef {}
// SAFETY: as above.
unsafe impl Sync for TableRef {}

impl TableRef {
    pub fn new(table: &Table) -> TableRef {
        TableRef(NonNull::from(table))
    }

    /// Identity, for grouping.
    pub fn address(self) -> usize {
        self.0.as_ptr() as usize
    }
}

impl std::ops::Deref for TableRef {
    type Target = Table;
    fn deref(&self) -> &Table {
        // SAFETY: see the type's documentation.
        unsafe { self.0.as_ref() }
    }
}

/// One index of a table.
pub struct Index {
    pub name: String,
    pub columns: Vec<usize>,
    pub uniqueness: Uniqueness,
    pub(crate) structure: IndexStructure,
}

pub(crate) enum IndexStructure {
    Hash(HashIndex),
    Range(RangeIndex),
}

impl Index {
    /// Msg 41805 when a hash index's bucket array does not fit `budget`.
    fn new(
        def: &IndexDef,
        link: usize,
        table: &TableDef,
        budget: &Arc<MemoryBudget>,
    ) -> SqlResult<Index> {
        let structure = match def.kind {
            IndexKind::Hash { bucket_count } => {
                IndexStructure::Hash(HashIndex::new(bucket_count, link, budget)?)
            }
            IndexKind::Range => IndexStructure::Range(RangeIndex::new(
                link,
                def.columns
                    .iter()
                    .zip(&def.orders)
                    .map(|(&c, &order)| (table.columns[c].data_type, order))
                    .collect(),
            )),
        };
        Ok(Index {
            name: def.name.clone(),
            columns: def.columns.clone(),
            uniqueness: def.uniqueness,
            structure,
        })
    }

    pub fn is_range(&self) -> bool {
        matches!(self.structure, IndexStructure::Range(_))
    }

    pub(crate) fn hash(&self) -> Option<&HashIndex> {
        match &self.structure {
            IndexStructure::Hash(hash) => Some(hash),
            IndexStructure::Range(_) => None,
        }
    }

    pub(crate) fn range(&self) -> Option<&RangeIndex> {
        match &self.structure {
            IndexStructure::Range(range) => Some(range),
            IndexStructure::Hash(_) => None,
        }
    }

    /// Refuses a key with other than one value per key column.
    pub(crate) fn check_arity(&self, values: usize) -> SqlResult<()> {
        if values == self.columns.len() {
            return Ok(());
        }
        Err(errors::invalid_argument(format!(
            "index '{}' has {} key columns, not {values}",
            self.name,
            self.columns.len()
        )))
    }

    fn stats(&self) -> IndexStats {
        match &self.structure {
            IndexStructure::Hash(hash) => IndexStats::Hash(hash.stats()),
            IndexStructure::Range(range) => IndexStats::Range(range.stats()),
        }
    }
}

/// One index's figures (`sys.dm_db_xtp_hash_index_stats` or
/// `sys.dm_db_xtp_nonclustered_index_stats`).
#[derive(Clone, Debug, PartialEq)]
pub enum IndexStats {
    Hash(HashIndexStats),
    Range(RangeIndexStats),
}

impl IndexStats {
    pub fn allocated_bytes(&self) -> u64 {
        match self {
            IndexStats::Hash(stats) => stats.allocated_bytes,
            IndexStats::Range(stats) => stats.allocated_bytes,
        }
    }
}

/// What a NULL key column feeds the hasher, in rows and probes alike.
pub(crate) const NULL_KEY_HASH: u64 = 0x4E55_4C4C;

/// A key to look up, in the columns' stored form.
#[derive(Clone, Default)]
pub struct ProbeKey {
    bytes: Vec<u8>,
    /// Per key column: its byte range in `bytes`, or None for NULL.
    parts: Vec<Option<(usize, usize)>>,
    pub hash: u64,
}

impl ProbeKey {
    fn part(&self, column: usize) -> Option<&[u8]> {
        self.parts[column].map(|(start, end)| &self.bytes[start..end])
    }
}

/// Memory figures per table (`sys.dm_db_xtp_table_memory_stats`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TableMemoryStats {
    pub rows: HeapStats,
    pub indexes: Vec<(String, IndexStats)>,
}

pub struct Table {
    /// The serial of the database that owns the table.
    pub(crate) database: u64,
    pub id: TableId,
    pub def: TableDef,
    /// `schema.table`, for error messages.
    pub qualified_name: String,
    pub(crate) layout: RowLayout,
    /// Shared with the collector's deferred frees, which may run after the
    /// table (and the database) are gone: a dropped table is freed without
    /// waiting for the epoch to move on.
    pub(crate) heap: Arc<RowHeap>,
    pub(crate) indexes: Vec<Index>,
    /// Versions of this table in the garbage queue or being collected:
    /// while any is, the table must stay (they reach it by `TableRef`).
    queued_garbage: AtomicUsize,
}

impl Table {
    /// Where fixed-width column `column` sits in this table's payloads
    /// ([`crate::Row::payload`]); None for variable-width columns.
    pub fn fixed_place(&self, column: usize) -> Option<crate::layout::FixedPlace> {
        self.layout.fixed_place(column)
    }

    /// A table whose memory (bucket arrays now, row pages as they come) is
    /// charged to the database's `budget`: Msg 41805 when it does not fit.
    pub(crate) fn new(
        id: TableId,
        def: TableDef,
        schema_name: &str,
        database: u64,
        budget: &Arc<MemoryBudget>,
    ) -> SqlResult<Arc<Table>> {
        let layout = RowLayout::new(&def.columns);
        let indexes = def
            .indexes
            .iter()
            .enumerate()
            .map(|(link, index)| Index::new(index, link, &def, budget))
            .collect::<SqlResult<Vec<Index>>>()?;
        Ok(Arc::new(Table {
            database,
            id,
            qualified_name: format!("{schema_name}.{}", def.name),
            def,
            layout,
            heap: Arc::new(RowHeap::new(budget)),
            indexes,
            queued_garbage: AtomicUsize::new(0),
        }))
    }

    /// `count` more of its versions were queued as garbage.
    pub(crate) fn garbage_queued(&self, count: usize) {
        self.queued_garbage.fetch_add(count, AtomicOrdering::SeqCst);
    }

    /// `count` of its queued versions were collected.
    pub(crate) fn garbage_collected(&self, count: usize) {
        let before = self.queued_garbage.fetch_sub(count, AtomicOrdering::SeqCst);
        debug_assert!(before >= count, "more garbage collected than queued");
    }

    /// Whether any of its versions is queued as garbage or being collected.
    pub(crate) fn has_queued_garbage(&self) -> bool {
        self.queued_garbage.load(AtomicOrdering::SeqCst) > 0
    }

    pub fn name(&self) -> &str {
        &self.def.name
    }

    /// The values of a stored row (a payload from a [`crate::RowChange`]).
    pub fn decode_row(&self, payload: &[u8]) -> Vec<Value> {
        (0..self.layout.column_count())
            .map(|c| self.layout.value(payload, c))
            .collect()
    }

    pub fn index_count(&self) -> usize {
        self.indexes.len()
    }

    /// The ordinal of the index called `name` (case-insensitive).
    pub fn index_named(&self, name: &str) -> Option<usize> {
        self.indexes
            .iter()
            .position(|i| i.name.eq_ignore_ascii_case(name))
    }

    /// The buckets of index `index` if it is a hash index (its BUCKET_COUNT
    /// rounded up to a power of two); None for a range index or no index.
    pub fn hash_bucket_count(&self, index: usize) -> Option<u64> {
        self.indexes.get(index)?.hash().map(HashIndex::bucket_count)
    }

    pub fn memory_stats(&self) -> TableMemoryStats {
        TableMemoryStats {
            rows: self.heap.stats(),
            indexes: self
                .indexes
                .iter()
                .map(|i| (i.name.clone(), i.stats()))
                .collect(),
        }
    }

    /// Bytes a version with this payload occupies.
    #[inline]
    pub(crate) fn version_size(&self, payload_len: usize) -> usize {
        header_bytes(self.indexes.len()) + payload_len
    }

    /// The payload of a protected, published version.
    #[inline]
    pub(crate) fn payload(&self, version: VersionPtr) -> &[u8] {
        let links = self.indexes.len();
        // SAFETY: the version is protected and published (callers' contract);
        // its prefix is within the slot because every payload has one, and
        // the full length read from it was allocated.
        unsafe {
            let prefix =
                std::slice::from_raw_parts(version.payload_ptr(links), self.layout.prefix_len());
            let len = self.layout.payload_len(prefix);
            version.payload(links, len)
        }
    }

    /// Hash of index `index`'s key in a stored row.
    #[inline]
    pub(crate) fn row_key_hash(&self, index: usize, payload: &[u8]) -> u64 {
        let mut hasher = KeyHasher::default();
        for &column in &self.indexes[index].columns {
            match self.layout.column(payload, column) {
                Some(bytes) => self
                    .layout
                    .data_type(column)
                    .stored_hash(bytes, &mut hasher),
                None => hasher.write_u64(NULL_KEY_HASH),
            }
        }
        hasher.finish()
    }

    /// Index `index`, or an error naming the table if there is none.
    pub(crate) fn index(&self, index: usize) -> SqlResult<&Index> {
        self.indexes.get(index).ok_or_else(|| {
            errors::invalid_argument(format!(
                "table '{}' has no index {index}",
                self.qualified_name
            ))
        })
    }

    /// Range index `index`, or an error if there is no such index or it is
    /// a hash index.
    pub(crate) fn range_index(&self, index: usize) -> SqlResult<&RangeIndex> {
        let def = self.index(index)?;
        def.range().ok_or_else(|| {
            errors::invalid_argument(format!(
                "index '{}' is a hash index; ordered scans need a range (NONCLUSTERED) index",
                def.name
            ))
        })
    }

    /// The stored forms of index `index`'s key columns in a row.
    pub(crate) fn stored_key<'a>(
        &'a self,
        index: usize,
        payload: &'a [u8],
    ) -> impl Iterator<Item = Option<&'a [u8]>> + 'a {
        self.indexes[index]
            .columns
            .iter()
            .map(move |&column| self.layout.column(payload, column))
    }

    /// Whether a stored row has the same key as another stored row.
    pub(crate) fn rows_share_key(&self, index: usize, a: &[u8], b: &[u8]) -> bool {
        self.indexes[index].columns.iter().all(|&column| {
            match (self.layout.column(a, column), self.layout.column(b, column)) {
                (Some(x), Some(y)) => self.layout.data_type(column).stored_eq(x, y),
                (None, None) => true,
                _ => false,
            }
        })
    }

    /// Whether a stored row has `key` in index `index`.
    #[inline]
    pub(crate) fn row_matches(&self, index: usize, payload: &[u8], key: &ProbeKey) -> bool {
        self.indexes[index]
            .columns
            .iter()
            .enumerate()
            .all(
                |(i, &column)| match (self.layout.column(payload, column), key.part(i)) {
                    (Some(x), Some(y)) => self.layout.data_type(column).stored_eq(x, y),
                    (None, None) => true,
                    _ => false,
                },
            )
    }

    /// Converts lookup values for index `index` to stored form in `key`
    /// (whose buffers are reused). False when a value is too long for its
    /// column (a `varchar(8000)` parameter against a `varchar(255)` key):
    /// no stored key can equal it.
    pub(crate) fn probe_key(
        &self,
        index: usize,
        values: &[Value],
        key: &mut ProbeKey,
    ) -> SqlResult<bool> {
        let def = self.index(index)?;
        def.check_arity(values.len())?;
        key.bytes.clear();
        key.parts.clear();
        let mut hasher = KeyHasher::default();
        for (&column, value) in def.columns.iter().zip(values) {
            if value.is_null() {
                key.parts.push(None);
                hasher.write_u64(NULL_KEY_HASH);
                continue;
            }
            let start = key.bytes.len();
            let data_type = self.layout.data_type(column);
            match data_type.encode(value, &mut key.bytes) {
                // 2628: longer than the column.
                Err(error) if error.number == 2628 => return Ok(false),
                encoded => encoded.map_err(|e| self.column_error(column, e, "SELECT"))?,
            }
            data_type.stored_hash(&key.bytes[start..], &mut hasher);
            key.parts.push(Some((start, key.bytes.len())));
        }
        key.hash = hasher.finish();
        Ok(true)
    }

    /// Values of index `index`'s key in a stored row, for messages.
    pub(crate) fn key_text(&self, index: usize, payload: &[u8]) -> String {
        self.indexes[index]
            .columns
            .iter()
            .map(|&c| format_value(&self.layout.value(payload, c)))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Names the column (and the failing statement) in an encoding error.
    pub(crate) fn column_error(&self, column: usize, error: SqlError, statement: &str) -> SqlError {
        let name = self.def.columns.get(column).map_or("", |c| c.name.as_str());
        match error.number {
            515 => errors::null_not_allowed(name, &self.qualified_name, statement),
            2628 => errors::truncation(&self.qualified_name, name),
            _ => error,
        }
    }
}

/// How a key value appears in duplicate-key messages.
fn format_value(value: &Value) -> String {
    match value {
        Value::Null => "<NULL>".to_string(),
        other => other.to_string(),
    }
}
