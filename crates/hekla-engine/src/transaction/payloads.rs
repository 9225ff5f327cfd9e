//! A scan that hands its caller the visible rows' payloads a batch at a
//! time ([`Transaction::scan_payloads`]), for compiled code that reads
//! fixed-width columns in place (`hekla-jit`'s row kernels): no call, row
//! handle or payload length per row, only an address in an array.
//!
//! Which versions are visible is decided exactly as [`Transaction::scan`]
//! decides it (settled versions on the spot, the others through the
//! transaction table, taking commit dependencies), and the read set and
//! SERIALIZABLE's scan record are kept the same way.

use super::Transaction;
use crate::table::Table;
use hekla_types::SqlResult;
use std::ops::ControlFlow;
use std::sync::Arc;

/// Rows in a full batch of [`Transaction::scan_payloads`].
pub const SCAN_BATCH_ROWS: usize = 256;

/// The payloads of up to [`SCAN_BATCH_ROWS`] visible rows, in heap order.
#[derive(Clone, Copy)]
pub struct Payloads<'a> {
    table: &'a Table,
    starts: &'a [*const u8],
}

impl<'a> Payloads<'a> {
    /// Where each payload starts. Each holds at least
    /// [`Self::prefix_len`] bytes (every fixed-width column and the null
    /// bitmap), and stays alive and unchanged while the transaction that
    /// scanned it is active.
    pub fn starts(&self) -> &'a [*const u8] {
        self.starts
    }

    /// Bytes every payload of the table holds: its fixed-width part.
    pub fn prefix_len(&self) -> usize {
        self.table.layout.prefix_len()
    }

    pub fn len(&self) -> usize {
        self.starts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.starts.is_empty()
    }

    /// The whole stored row `index` (as [`crate::Row::payload`]).
    pub fn get(&self, index: usize) -> Option<&'a [u8]> {
        let start = *self.starts.get(index)?;
        // SAFETY: `start` begins a visible version's payload, whose fixed
        // prefix is always stored and which lives while the scanning
        // transaction does (see `starts`); its full length, read from that
        // prefix, is what its slot was allocated for.
        unsafe {
            let prefix = std::slice::from_raw_parts(start, self.prefix_len());
            let len = self.table.layout.payload_len(prefix);
            Some(std::slice::from_raw_parts(start, len))
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = &'a [u8]> + '_ {
        (0..self.len()).filter_map(|index| self.get(index))
    }
}

impl Transaction {
    /// Visits the payloads of every visible row of the table, without any
    /// index, [`SCAN_BATCH_ROWS`] at a time (the last batch may hold
    /// fewer; none is empty). The rows are those [`Transaction::scan`]
    /// visits, in the same order.
    pub fn scan_payloads<B>(
        &mut self,
        table: &Arc<Table>,
        mut visit: impl FnMut(Payloads<'_>) -> ControlFlow<B>,
    ) -> SqlResult<Option<B>> {
        let links = table.indexes.len();
        let mut starts = [std::ptr::null::<u8>(); SCAN_BATCH_ROWS];
        let mut gathered = 0;
        let mut hand_over = |starts: &[*const u8]| {
            visit(Payloads {
                table: table.as_ref(),
                starts,
            })
        };
        let stopped = self.for_each_visible(table, |_, version| {
            // SAFETY: the version is visible to this transaction, which is
            // active until this scan returns: it is published, and is
            // never collected meanwhile; its slot holds the header and a
            // payload of the table's layout.
            starts[gathered] = unsafe { version.payload_ptr(links) };
            gathered += 1;
            if gathered < SCAN_BATCH_ROWS {
                return ControlFlow::Continue(());
            }
            gathered = 0;
            hand_over(&starts)
        })?;
        if stopped.is_some() || gathered == 0 {
            return Ok(stopped);
        }
        Ok(hand_over(&starts[..gathered]).break_value())
    }
}

#[cfg(test)]
mod tests;
