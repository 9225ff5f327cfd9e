//! Row versions as the durability layer sees them: their identity in log
//! and delta records, and the restore path recovery uses to put committed
//! rows back without transactions.
//!
//! A version is named by the commit timestamp that created it plus its
//! *identity*: the key of the table's first unique index, or the whole row
//! when there is no unique index. Among the rows one transaction left
//! behind, a unique key names exactly one; without one, identical rows are
//! interchangeable, so deleting any one of them is the same change.

use super::codec::{Decoder, Encoder};
use crate::catalog::TableDef;
use crate::layout::RowLayout;
use crate::table::{IndexStructure, Table};
use crate::version::VersionPtr;
use crate::word::{FREE, INFINITY};
use hekla_types::KeyHasher;
use std::ops::ControlFlow;
use std::sync::atomic::Ordering::{Acquire, Release};

impl Table {
    fn identity_index(&self) -> Option<usize> {
        identity_index(&self.def)
    }

    /// Appends the identity of a stored row to `out`.
    pub(crate) fn row_identity(&self, payload: &[u8], out: &mut Vec<u8>) {
        row_identity(&self.def, &self.layout, payload, out);
    }

    /// Puts a committed row back, born at `begin_ts`, linked into every index.
    /// Safe to call from several threads at once (indexes are latch-free).
    pub(crate) fn restore_row(&self, begin_ts: u64, payload: &[u8]) -> Result<(), String> {
        self.layout
            .check_payload(payload)
            .map_err(|problem| format!("a row of table {} is malformed: {problem}", self.id))?;
        let slot = self
            .heap
            .allocate(self.version_size(payload.len()))
            .map_err(|error| format!("table {}: {}", self.id, error.message))?;
        let version = VersionPtr::new(slot);
        // SAFETY: the slot is fresh from the heap and ours alone, sized for
        // this payload after the table's header.
        unsafe {
            std::ptr::copy_nonoverlapping(
                payload.as_ptr(),
                version.payload_ptr(self.index_count()) as *mut u8,
                payload.len(),
            );
        }
        version.end().store(INFINITY, Release);
        version.begin().store(begin_ts, Release);
        let _guard = crossbeam_epoch::pin();
        let mut key = Vec::new();
        for (i, index) in self.indexes.iter().enumerate() {
            match &index.structure {
                IndexStructure::Hash(hash) => hash.insert(version, self.row_key_hash(i, payload)),
                IndexStructure::Range(tree) => {
                    tree.row_key(self.stored_key(i, payload), &mut key);
                    tree.insert(&key, version).map_err(|too_long| {
                        format!("a key of {} bytes in index {}", too_long.len, index.name)
                    })?;
                }
            }
        }
        Ok(())
    }

    /// The live version born at `begin_ts` with `identity`, found through
    /// the identity index, or by a scan when the table has none.
    pub(crate) fn find_restored(&self, begin_ts: u64, identity: &[u8]) -> Option<VersionPtr> {
        let _guard = crossbeam_epoch::pin();
        let mut candidate_identity = Vec::new();
        let mut matches = |v: VersionPtr| {
            if v.begin().load(Acquire) != begin_ts || v.end().load(Acquire) != INFINITY {
                return ControlFlow::Continue(());
            }
            candidate_identity.clear();
            self.row_identity(self.payload(v), &mut candidate_identity);
            if candidate_identity == identity {
                ControlFlow::Break(v)
            } else {
                ControlFlow::Continue(())
            }
        };
        let Some(index) = self.identity_index() else {
            return self.heap.for_each_slot(|slot| {
                let v = VersionPtr::new(slot);
                if v.begin().load(Acquire) == FREE {
                    ControlFlow::Continue(())
                } else {
                    matches(v)
                }
            });
        };
        let parts = decode_identity(identity, self.indexes[index].columns.len())?;
        match &self.indexes[index].structure {
            IndexStructure::Hash(hash) => {
                let mut hasher = KeyHasher::default();
                for (part, &column) in parts.iter().zip(&self.indexes[index].columns) {
                    match part {
                        Some(bytes) => self
                            .layout
                            .data_type(column)
                            .stored_hash(bytes, &mut hasher),
                        None => hasher.write_u64(crate::table::NULL_KEY_HASH),
                    }
                }
                hash.for_each(hasher.finish(), matches)
            }
            IndexStructure::Range(tree) => {
                let mut key = Vec::new();
                tree.row_key(parts.iter().copied(), &mut key);
                tree.for_each(&key, matches)
            }
        }
    }
}

/// The index whose key is the row identity, if there is one.
fn identity_index(def: &TableDef) -> Option<usize> {
    def.indexes.iter().position(|i| i.uniqueness.is_unique())
}

/// Appends the identity of a stored row of a table defined by `def` (whose
/// rows are laid out by `layout`) to `out`.
pub(crate) fn row_identity(def: &TableDef, layout: &RowLayout, payload: &[u8], out: &mut Vec<u8>) {
    let Some(index) = identity_index(def) else {
        out.extend_from_slice(payload);
        return;
    };
    let mut e = Encoder(out);
    for &column in &def.indexes[index].columns {
        match layout.column(payload, column) {
            Some(bytes) => {
                e.u8(1);
                e.bytes(bytes);
            }
            None => e.u8(0),
        }
    }
}

fn decode_identity(identity: &[u8], columns: usize) -> Option<Vec<Option<&[u8]>>> {
    let mut d = Decoder::new(identity);
    let parts = (0..columns)
        .map(|_| match d.u8().ok()? {
            0 => Some(None),
            _ => d.bytes().ok().map(Some),
        })
        .collect::<Option<Vec<_>>>()?;
    d.is_empty().then_some(parts)
}
