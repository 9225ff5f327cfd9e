//! Reads through range (NONCLUSTERED) indexes: point lookups on the full
//! key and ordered scans between bounds on any prefix of the key columns.

use super::*;
use crate::range_index::RangeIndex;
use hekla_types::{encode_key_prefix, prefix_successor};
use std::ops::Bound;

/// The bounds of an ordered scan: each bound holds values for the leading
/// key columns (any number of them), so `lower: Included([5])` on an index
/// over `(a, b)` starts at the first row with `a = 5`, whatever its `b`.
/// A NULL value matches NULL keys, which sort before every other value.
///
/// ```
/// use hekla_engine::*;
/// use hekla_types::{DataType, SortOrder, Value};
/// use std::ops::{Bound, ControlFlow};
///
/// let db = Database::default();
/// let lines = db.create_table(TableDef::new(
///     "lines",
///     vec![
///         ColumnDef::new("order_id", DataType::Int, false),
///         ColumnDef::new("line", DataType::Int, false),
///     ],
///     vec![IndexDef::range(
///         "pk",
///         &[(0, SortOrder::Ascending), (1, SortOrder::Descending)],
///         Uniqueness::PrimaryKey,
///     )],
/// ))?;
/// let mut tx = db.begin(IsolationLevel::Snapshot)?;
/// for (order, line) in [(2, 1), (1, 1), (1, 2), (3, 1)] {
///     tx.insert(&lines, &[Value::Int(order), Value::Int(line)])?;
/// }
/// // Order 1's lines, last line first (a seek on the leading column).
/// let mut seen = Vec::new();
/// tx.scan_range(&lines, 0, &KeyRange::prefix(vec![Value::Int(1)]), |row| {
///     seen.push((row.value(0), row.value(1)));
///     ControlFlow::<()>::Continue(())
/// })?;
/// assert_eq!(seen, [(Value::Int(1), Value::Int(2)), (Value::Int(1), Value::Int(1))]);
/// // Orders after 1, first one only (a TOP (1) scan).
/// let after_one = KeyRange::new(Bound::Excluded(vec![Value::Int(1)]), Bound::Unbounded);
/// let first = tx.scan_range(&lines, 0, &after_one, |row| ControlFlow::Break(row.value(0)))?;
/// assert_eq!(first, Some(Value::Int(2)));
/// tx.commit()?;
/// # Ok::<(), hekla_types::SqlError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct KeyRange {
    pub lower: Bound<Vec<Value>>,
    pub upper: Bound<Vec<Value>>,
}

impl KeyRange {
    pub fn new(lower: Bound<Vec<Value>>, upper: Bound<Vec<Value>>) -> KeyRange {
        KeyRange { lower, upper }
    }

    /// Every row, in index order.
    pub fn all() -> KeyRange {
        KeyRange::new(Bound::Unbounded, Bound::Unbounded)
    }

    /// The rows whose leading key columns equal `values`.
    pub fn prefix(values: Vec<Value>) -> KeyRange {
        KeyRange::new(Bound::Included(values.clone()), Bound::Included(values))
    }
}

/// A range in encoded-key space, as the B+tree takes it.
pub(super) type EncodedRange = (Bound<Vec<u8>>, Bound<Vec<u8>>);

/// Encodes the bounds of `range` for range index `tree` (named `name`).
fn encode_range(tree: &RangeIndex, name: &str, range: &KeyRange) -> SqlResult<EncodedRange> {
    let lower = match &range.lower {
        Bound::Unbounded => Bound::Unbounded,
        Bound::Included(values) => Bound::Included(encode_prefix(tree, name, values)?),
        // Past every key that starts with the prefix.
        Bound::Excluded(values) => {
            let prefix = encode_prefix(tree, name, values)?;
            match prefix_successor(&prefix) {
                Some(successor) => Bound::Included(successor),
                // Nothing sorts after it: the range is empty.
                None => return Ok((Bound::Included(prefix.clone()), Bound::Excluded(prefix))),
            }
        }
    };
    let upper = match &range.upper {
        Bound::Unbounded => Bound::Unbounded,
        // Up to and including every key that starts with the prefix.
        Bound::Included(values) => prefix_successor(&encode_prefix(tree, name, values)?)
            .map_or(Bound::Unbounded, Bound::Excluded),
        Bound::Excluded(values) => Bound::Excluded(encode_prefix(tree, name, values)?),
    };
    Ok((lower, upper))
}

/// Encodes values for the leading key columns of `tree`.
fn encode_prefix(tree: &RangeIndex, name: &str, values: &[Value]) -> SqlResult<Vec<u8>> {
    let columns = tree.key_columns();
    if values.len() > columns.len() {
        return Err(errors::invalid_argument(format!(
            "index '{name}' has {} key columns; a bound gave {} values",
            columns.len(),
            values.len()
        )));
    }
    let mut encoded = Vec::new();
    encode_key_prefix(columns, values, &mut encoded)?;
    Ok(encoded)
}

fn borrowed(bound: &Bound<Vec<u8>>) -> Bound<&[u8]> {
    bound.as_ref().map(Vec::as_slice)
}

impl Transaction {
    /// Visits, in index order, the visible rows of range index `index`
    /// whose keys lie in `range`, until `visit` breaks.
    pub fn scan_range<B>(
        &mut self,
        table: &Arc<Table>,
        index: usize,
        range: &KeyRange,
        mut visit: impl FnMut(Row<'_>) -> ControlFlow<B>,
    ) -> SqlResult<Option<B>> {
        self.check_usable()?;
        self.check_table(table)?;
        let tree = table.range_index(index)?;
        let (lower, upper) = encode_range(tree, &table.indexes[index].name, range)?;
        let mut result = None;
        let mut stopped_at = None;
        let guard = crossbeam_epoch::pin();
        tree.range(borrowed(&lower), borrowed(&upper), |version| {
            if !self.observe(version, self.read_ts).visible {
                return ControlFlow::Continue(());
            }
            match self.visit_visible(table, version, &mut visit) {
                ControlFlow::Continue(()) => ControlFlow::Continue(()),
                ControlFlow::Break(b) => {
                    result = Some(b);
                    stopped_at = Some(version);
                    ControlFlow::Break(())
                }
            }
        });
        drop(guard);
        // A scan that stopped early read only up to where it stopped (that
        // key included: its other versions may not have been seen). The
        // version it stopped on is visible, so still here.
        let upper = match stopped_at {
            Some(version) if self.read_isolation == IsolationLevel::Serializable => {
                let mut key = Vec::new();
                tree.row_key(table.stored_key(index, table.payload(version)), &mut key);
                Bound::Included(key)
            }
            _ => upper,
        };
        self.record_range_scan(table, index, lower, upper);
        Ok(result)
    }

    /// A lookup on every key column of range index `index`: one chain, no
    /// leaf walk.
    pub(super) fn lookup_range<B>(
        &mut self,
        table: &Arc<Table>,
        index: usize,
        key: &[Value],
        visit: &mut impl FnMut(Row<'_>) -> ControlFlow<B>,
    ) -> SqlResult<Option<B>> {
        let def = table.index(index)?;
        def.check_arity(key.len())?;
        let tree = table.range_index(index)?;
        let encoded = match encode_prefix(tree, &def.name, key) {
            // 2628: a key longer than its column equals no stored key.
            Err(error) if error.number == 2628 => return Ok(None),
            encoded => encoded?,
        };
        let guard = crossbeam_epoch::pin();
        let result = tree.for_each(&encoded, |version| {
            if !self.observe(version, self.read_ts).visible {
                return ControlFlow::Continue(());
            }
            self.visit_visible(table, version, visit)
        });
        drop(guard);
        let key = Bound::Included(encoded);
        self.record_range_scan(table, index, key.clone(), key);
        Ok(result)
    }

    /// SERIALIZABLE: remembers a range read, to repeat it at commit.
    fn record_range_scan(
        &mut self,
        table: &Arc<Table>,
        index: usize,
        lower: Bound<Vec<u8>>,
        upper: Bound<Vec<u8>>,
    ) {
        if self.read_isolation == IsolationLevel::Serializable {
            self.scans.push(Scan::Range {
                table: table.clone(),
                index,
                range: (lower, upper),
            });
        }
    }
}

/// Whether a range scan, repeated now, meets a version `phantom` flags.
pub(super) fn range_has(
    table: &Table,
    index: usize,
    (lower, upper): &EncodedRange,
    mut phantom: impl FnMut(VersionPtr) -> bool,
) -> bool {
    let tree = table.indexes[index]
        .range()
        .expect("a range scan names a range index");
    let mut found = false;
    tree.range(borrowed(lower), borrowed(upper), |version| {
        found = phantom(version);
        if found {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    found
}
