//! The compact payload layout of a table's rows.
//!
//! ```text
//! [null bitmap][fixed-width columns][var end offsets][var data]
//! ```
//! Only nullable columns get a bitmap bit. Fixed-width columns sit at offsets
//! known from the schema. Variable-width columns are located by end offsets
//! (u16, or u32 when the table's variable data can exceed 64 KiB) relative to
//! the start of the var data, so a column is found without scanning.

use crate::catalog::ColumnDef;
use crate::errors;
use hekla_types::{DataType, SqlError, Storage, Value};

/// Rows may not exceed this many payload bytes.
pub const MAX_PAYLOAD_BYTES: usize = 8 << 20;

#[derive(Clone, Copy, Debug)]
enum Place {
    Fixed { offset: usize, len: usize },
    Var { index: usize },
}

#[derive(Clone, Debug)]
struct ColumnSlot {
    place: Place,
    null_bit: Option<usize>,
    data_type: DataType,
}

/// Where each column of a table lives in a payload.
#[derive(Clone, Debug)]
pub struct RowLayout {
    columns: Vec<ColumnSlot>,
    fixed_end: usize,
    var_count: usize,
    offset_width: usize,
}

impl RowLayout {
    pub fn new(columns: &[ColumnDef]) -> RowLayout {
        let nullable = columns.iter().filter(|c| c.nullable).count();
        let bitmap_len = nullable.div_ceil(8);
        let mut fixed_end = bitmap_len;
        let mut var_count = 0;
        let mut var_max_total: u64 = 0;
        let mut next_bit = 0;
        let slots = columns
            .iter()
            .map(|column| {
                let null_bit = column.nullable.then(|| {
                    next_bit += 1;
                    next_bit - 1
                });
                let place = match column.data_type.storage() {
                    Storage::Fixed(len) => {
                        fixed_end += len;
                        Place::Fixed {
                            offset: fixed_end - len,
                            len,
                        }
                    }
                    Storage::Variable { max_bytes } => {
                        var_max_total += max_bytes.map_or(u64::MAX / 4, u64::from);
                        var_count += 1;
                        Place::Var {
                            index: var_count - 1,
                        }
                    }
                };
                ColumnSlot {
                    place,
                    null_bit,
                    data_type: column.data_type,
                }
            })
            .collect();
        let offset_width = if var_max_total <= u64::from(u16::MAX) {
            2
        } else {
            4
        };
        RowLayout {
            columns: slots,
            fixed_end,
            var_count,
            offset_width,
        }
    }

    pub fn column_count(&self) -> usize {
        self.columns.len()
    }

    pub fn data_type(&self, column: usize) -> &DataType {
        &self.columns[column].data_type
    }

    /// Bytes before the var data: everything whose size the schema fixes.
    #[inline]
    pub fn prefix_len(&self) -> usize {
        self.fixed_end + self.var_count * self.offset_width
    }

    #[inline]
    fn var_end(&self, payload: &[u8], index: usize) -> usize {
        let at = self.fixed_end + index * self.offset_width;
        if self.offset_width == 2 {
            u16::from_le_bytes([payload[at], payload[at + 1]]) as usize
        } else {
            u32::from_le_bytes(payload[at..at + 4].try_into().expect("4 bytes")) as usize
        }
    }

    /// The total payload length, read from the payload's fixed prefix.
    #[inline]
    pub fn payload_len(&self, prefix: &[u8]) -> usize {
        let var_len = if self.var_count == 0 {
            0
        } else {
            self.var_end(prefix, self.var_count - 1)
        };
        self.prefix_len() + var_len
    }

    #[inline]
    pub fn is_null(&self, payload: &[u8], column: usize) -> bool {
        match self.columns[column].null_bit {
            Some(bit) => payload[bit / 8] & (1 << (bit % 8)) != 0,
            None => false,
        }
    }

    /// The stored bytes of `column`, or None when it is NULL.
    #[inline]
    pub fn column<'p>(&self, payload: &'p [u8], column: usize) -> Option<&'p [u8]> {
        if self.is_null(payload, column) {
            return None;
        }
        Some(match self.columns[column].place {
            Place::Fixed { offset, len } => &payload[offset..offset + len],
            Place::Var { index } => {
                let start = if index == 0 {
                    0
                } else {
                    self.var_end(payload, index - 1)
                };
                let end = self.var_end(payload, index);
                let base = self.prefix_len();
                &payload[base + start..base + end]
            }
        })
    }

    pub fn value(&self, payload: &[u8], column: usize) -> Value {
        match self.column(payload, column) {
            Some(bytes) => self.columns[column].data_type.decode(bytes),
            None => Value::Null,
        }
    }

    /// Encodes a full row. Errors name the column by ordinal; the caller
    /// turns them into messages with table and column names.
    pub fn encode(&self, values: &[Value], out: &mut Vec<u8>) -> Result<(), (usize, SqlError)> {
        if values.len() != self.columns.len() {
            return Err((
                values.len().min(self.columns.len()),
                errors::invalid_argument(format!(
                    "a row of this table has {} columns, not {}",
                    self.columns.len(),
                    values.len()
                )),
            ));
        }
        self.encode_with(out, |column, out| {
            let value = &values[column];
            if value.is_null() {
                return Ok(false);
            }
            self.columns[column]
                .data_type
                .encode(value, out)
                .map(|()| true)
        })
    }

    /// Encodes a row that is `old` with some columns replaced.
    pub fn patch(
        &self,
        old: &[u8],
        changes: &[(usize, Value)],
        out: &mut Vec<u8>,
    ) -> Result<(), (usize, SqlError)> {
        if let Some(&(column, _)) = changes.iter().find(|(c, _)| *c >= self.columns.len()) {
            return Err((
                0,
                errors::invalid_argument(format!("column ordinal {column} is out of range")),
            ));
        }
        self.encode_with(out, |column, out| {
            match changes.iter().rev().find(|(c, _)| *c == column) {
                Some((_, value)) if value.is_null() => Ok(false),
                Some((_, value)) => self.columns[column]
                    .data_type
                    .encode(value, out)
                    .map(|()| true),
                None => match self.column(old, column) {
                    Some(bytes) => {
                        out.extend_from_slice(bytes);
                        Ok(true)
                    }
                    None => Ok(false),
                },
            }
        })
    }

    /// Lays out a row whose columns `write` appends one at a time (returning
    /// false for NULL); checks NULLs against nullability.
    fn encode_with(
        &self,
        out: &mut Vec<u8>,
        mut write: impl FnMut(usize, &mut Vec<u8>) -> Result<bool, SqlError>,
    ) -> Result<(), (usize, SqlError)> {
        out.clear();
        out.resize(self.prefix_len(), 0);
        let var_base = self.prefix_len();
        for (column, slot) in self.columns.iter().enumerate() {
            let start = out.len();
            let present = write(column, out).map_err(|e| (column, e))?;
            if !present {
                match slot.null_bit {
                    Some(bit) => out[bit / 8] |= 1 << (bit % 8),
                    None => return Err((column, errors::null_not_allowed("", "", "INSERT"))),
                }
            }
            match slot.place {
                Place::Fixed { offset, len } => {
                    if present {
                        debug_assert_eq!(out.len() - start, len, "fixed column width");
                        out.copy_within(start..start + len, offset);
                        out.truncate(start);
                    }
                }
                Place::Var { index } => {
                    let end = out.len() - var_base;
                    if var_base + end > MAX_PAYLOAD_BYTES {
                        return Err((column, errors::row_too_large(MAX_PAYLOAD_BYTES)));
                    }
                    let at = self.fixed_end + index * self.offset_width;
                    if self.offset_width == 2 {
                        out[at..at + 2].copy_from_slice(&(end as u16).to_le_bytes());
                    } else {
                        out[at..at + 4].copy_from_slice(&(end as u32).to_le_bytes());
                    }
                }
            }
        }
        Ok(())
    }
}
