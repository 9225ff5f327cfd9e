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

/// A fixed-width column's place: `len` bytes at `offset` (integers and
/// money little-endian), and its bit in the null bitmap at the payload's
/// start (set: NULL) if it is nullable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FixedPlace {
    pub offset: usize,
    pub len: usize,
    pub null_bit: Option<usize>,
}

/// Where each column of a table lives in a payload.
#[derive(Clone, Debug)]
pub struct RowLayout {
    columns: Vec<ColumnSlot>,
    fixed_end: usize,
    var_count: usize,
    /// Column ordinal of each variable-width column, in payload order.
    var_columns: Vec<usize>,
    offset_width: usize,
    /// Where the var data starts (the prefix length).
    var_base: usize,
}

impl RowLayout {
    pub fn new(columns: &[ColumnDef]) -> RowLayout {
        let nullable = columns.iter().filter(|c| c.nullable).count();
        let bitmap_len = nullable.div_ceil(8);
        let mut fixed_end = bitmap_len;
        let mut var_count = 0;
        let mut var_max_total: u64 = 0;
        let mut next_bit = 0;
        let slots: Vec<ColumnSlot> = columns
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
                        // `max` columns force 4-byte offsets; saturate rather than wrap.
                        var_max_total =
                            var_max_total.saturating_add(max_bytes.map_or(u64::MAX, u64::from));
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
        let var_columns = slots_var_columns(&slots);
        let offset_width = if var_max_total <= u64::from(u16::MAX) {
            2
        } else {
            4
        };
        RowLayout {
            columns: slots,
            fixed_end,
            var_count,
            var_columns,
            offset_width,
            var_base: fixed_end + var_count * offset_width,
        }
    }

    /// Where a fixed-width column sits in every payload, for code that
    /// reads payloads without decoding them (compiled row kernels); None
    /// for a variable-width column.
    pub fn fixed_place(&self, column: usize) -> Option<FixedPlace> {
        let slot = self.columns.get(column)?;
        match slot.place {
            Place::Fixed { offset, len } => Some(FixedPlace {
                offset,
                len,
                null_bit: slot.null_bit,
            }),
            Place::Var { .. } => None,
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
        self.var_base
    }

    #[inline]
    fn var_end(&self, payload: &[u8], index: usize) -> usize {
        let at = self.fixed_end + index * self.offset_width;
        if self.offset_width == 2 {
            let bytes: [u8; 2] = payload[at..at + 2].try_into().expect("2 bytes");
            u16::from_le_bytes(bytes) as usize
        } else {
            let bytes: [u8; 4] = payload[at..at + 4].try_into().expect("4 bytes");
            u32::from_le_bytes(bytes) as usize
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

    /// Checks a payload read from disk before it is stored: its length
    /// and variable-width offsets must agree with the layout, so that
    /// reading any column stays inside it.
    pub fn check_payload(&self, payload: &[u8]) -> Result<(), String> {
        if payload.len() < self.prefix_len() {
            return Err(format!(
                "{} bytes, shorter than the {}-byte fixed part",
                payload.len(),
                self.prefix_len()
            ));
        }
        let mut previous = 0;
        for index in 0..self.var_count {
            let end = self.var_end(payload, index);
            if end < previous {
                return Err("variable-width offsets go backwards".into());
            }
            previous = end;
        }
        if self.payload_len(payload) != payload.len() {
            return Err(format!(
                "{} bytes where its offsets say {}",
                payload.len(),
                self.payload_len(payload)
            ));
        }
        Ok(())
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
                &payload[self.var_base + start..self.var_base + end]
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

    /// Encodes a row that is `old` with some columns replaced (the last
    /// change to a column wins). Unchanged variable-width columns are copied
    /// as byte ranges, so an update costs little more than a copy.
    pub fn patch(
        &self,
        old: &[u8],
        changes: &[(usize, Value)],
        out: &mut Vec<u8>,
    ) -> Result<(), (usize, SqlError)> {
        let change_of = |column: usize| {
            changes
                .iter()
                .rev()
                .find(|(c, _)| *c == column)
                .map(|(_, v)| v)
        };
        if let Some(&(column, _)) = changes.iter().find(|(c, _)| *c >= self.columns.len()) {
            return Err((
                0,
                errors::invalid_argument(format!("column ordinal {column} is out of range")),
            ));
        }
        let prefix = self.prefix_len();
        out.clear();
        out.extend_from_slice(&old[..prefix]);
        for &(column, ref value) in changes {
            let slot = &self.columns[column];
            match slot.null_bit {
                Some(bit) if value.is_null() => out[bit / 8] |= 1 << (bit % 8),
                Some(bit) => out[bit / 8] &= !(1 << (bit % 8)),
                None if value.is_null() => {
                    return Err((column, errors::null_not_allowed("", "", "UPDATE")))
                }
                None => {}
            }
            if let Place::Fixed { offset, len } = slot.place {
                if value.is_null() {
                    out[offset..offset + len].fill(0);
                } else {
                    slot.data_type.encode(value, out).map_err(|e| (column, e))?;
                    out.copy_within(prefix..prefix + len, offset);
                    out.truncate(prefix);
                }
            }
        }
        let mut old_start = 0;
        for (index, &column) in self.var_columns.iter().enumerate() {
            let old_end = self.var_end(old, index);
            match change_of(column) {
                None => out.extend_from_slice(&old[prefix + old_start..prefix + old_end]),
                Some(value) if value.is_null() => {}
                Some(value) => self.columns[column]
                    .data_type
                    .encode(value, out)
                    .map_err(|e| (column, e))?,
            }
            let end = out.len() - prefix;
            self.set_var_end(out, index, end).map_err(|e| (column, e))?;
            old_start = old_end;
        }
        Ok(())
    }

    /// Records where variable column `index` ends (relative to the var data).
    fn set_var_end(&self, out: &mut [u8], index: usize, end: usize) -> Result<(), SqlError> {
        if self.prefix_len() + end > MAX_PAYLOAD_BYTES {
            return Err(errors::row_too_large(MAX_PAYLOAD_BYTES));
        }
        let at = self.fixed_end + index * self.offset_width;
        if self.offset_width == 2 {
            out[at..at + 2].copy_from_slice(&(end as u16).to_le_bytes());
        } else {
            out[at..at + 4].copy_from_slice(&(end as u32).to_le_bytes());
        }
        Ok(())
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
                    self.set_var_end(out, index, end).map_err(|e| (column, e))?;
                }
            }
        }
        Ok(())
    }
}

fn slots_var_columns(slots: &[ColumnSlot]) -> Vec<usize> {
    slots
        .iter()
        .enumerate()
        .filter(|(_, slot)| matches!(slot.place, Place::Var { .. }))
        .map(|(column, _)| column)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use hekla_types::{Collation, Length};

    fn varchar(len: Length) -> DataType {
        DataType::VarChar {
            len,
            collation: Collation::default(),
        }
    }

    fn layout(len: Length) -> RowLayout {
        RowLayout::new(&[
            ColumnDef::new("id", DataType::Int, false),
            ColumnDef::new("name", varchar(len), true),
            ColumnDef::new("qty", DataType::SmallInt, true),
            ColumnDef::new("note", varchar(len), true),
        ])
    }

    fn encoded(layout: &RowLayout, values: &[Value]) -> Vec<u8> {
        let mut out = Vec::new();
        layout.encode(values, &mut out).expect("encodes");
        assert_eq!(layout.payload_len(&out), out.len());
        out
    }

    #[test]
    fn rows_round_trip_with_nulls_and_both_offset_widths() {
        for len in [Length::Bounded(20), Length::Max] {
            let layout = layout(len);
            let row = [
                Value::Int(7),
                Value::String("héllo".into()),
                Value::Null,
                Value::String(String::new()),
            ];
            let payload = encoded(&layout, &row);
            let back: Vec<Value> = (0..4).map(|c| layout.value(&payload, c)).collect();
            assert_eq!(back, row);
            assert!(layout.is_null(&payload, 2));
            assert!(!layout.is_null(&payload, 3));
        }
    }

    #[test]
    fn many_max_columns_use_wide_offsets() {
        let columns: Vec<ColumnDef> = (0..6)
            .map(|i| ColumnDef::new(&format!("c{i}"), varchar(Length::Max), true))
            .collect();
        let layout = RowLayout::new(&columns);
        let mut row = vec![Value::Null; 6];
        row[5] = Value::String("x".repeat(70_000));
        row[2] = Value::String("y".into());
        let payload = encoded(&layout, &row);
        assert_eq!(layout.value(&payload, 5), row[5]);
        assert_eq!(layout.value(&payload, 2), row[2]);
    }

    #[test]
    fn patch_replaces_only_the_named_columns() {
        let layout = layout(Length::Bounded(20));
        let old = encoded(
            &layout,
            &[
                Value::Int(1),
                Value::String("a".into()),
                Value::SmallInt(3),
                Value::Null,
            ],
        );
        let mut out = Vec::new();
        layout
            .patch(
                &old,
                &[
                    (3, Value::String("note".into())),
                    (2, Value::Null),
                    (1, Value::String("bb".into())),
                    (1, Value::String("ccc".into())),
                ],
                &mut out,
            )
            .expect("patches");
        let expected = encoded(
            &layout,
            &[
                Value::Int(1),
                Value::String("ccc".into()),
                Value::Null,
                Value::String("note".into()),
            ],
        );
        assert_eq!(out, expected);
    }

    #[test]
    fn nulls_and_bad_ordinals_are_refused() {
        let layout = layout(Length::Bounded(20));
        let mut out = Vec::new();
        let row = [Value::Null, Value::Null, Value::Null, Value::Null];
        assert_eq!(layout.encode(&row, &mut out).unwrap_err().1.number, 515);
        let old = encoded(
            &layout,
            &[Value::Int(1), Value::Null, Value::Null, Value::Null],
        );
        let error = layout
            .patch(&old, &[(0, Value::Null)], &mut out)
            .unwrap_err();
        assert_eq!((error.0, error.1.number), (0, 515));
        assert!(layout.patch(&old, &[(9, Value::Int(1))], &mut out).is_err());
        let long = Value::String("x".repeat(21));
        let error = layout.patch(&old, &[(1, long)], &mut out).unwrap_err();
        assert_eq!((error.0, error.1.number), (1, 2628));
    }

    mod properties {
        use super::*;
        use hekla_types::Money;
        use proptest::prelude::*;

        /// A column type and a strategy for its non-null values.
        fn column() -> impl Strategy<Value = (DataType, bool)> {
            let types = prop_oneof![
                Just(DataType::Bit),
                Just(DataType::SmallInt),
                Just(DataType::Int),
                Just(DataType::BigInt),
                Just(DataType::Money),
                Just(varchar(Length::Bounded(12))),
                Just(DataType::NVarChar {
                    len: Length::Max,
                    collation: Collation::default(),
                }),
            ];
            (types, any::<bool>())
        }

        fn value_of(data_type: DataType, seed: u64) -> Value {
            match data_type {
                DataType::Bit => Value::Bit(seed.is_multiple_of(2)),
                DataType::SmallInt => Value::SmallInt(seed as i16),
                DataType::Int => Value::Int(seed as i32),
                DataType::BigInt => Value::BigInt(seed as i64),
                DataType::Money => Value::Money(Money(seed as i64 % 1_000_000_000)),
                DataType::VarChar { .. } => Value::String("v".repeat(seed as usize % 13)),
                _ => Value::String("é".repeat(seed as usize % 300)),
            }
        }

        fn row_of(types: &[(DataType, bool)], seeds: &[(u64, bool)]) -> Vec<Value> {
            types
                .iter()
                .zip(seeds)
                .map(|(&(data_type, nullable), &(seed, null))| {
                    if nullable && null {
                        Value::Null
                    } else {
                        value_of(data_type, seed)
                    }
                })
                .collect()
        }

        proptest! {
            /// Encoding then reading every column gives the row back, and
            /// patching a row equals encoding the patched row from scratch.
            #[test]
            fn encode_and_patch_agree_with_a_plain_row(
                types in prop::collection::vec(column(), 1..8),
                seeds in prop::collection::vec((any::<u64>(), any::<bool>()), 8),
                new_seeds in prop::collection::vec((any::<u64>(), any::<bool>()), 8),
                changed in prop::collection::vec(any::<bool>(), 8),
            ) {
                let columns: Vec<ColumnDef> = types
                    .iter()
                    .enumerate()
                    .map(|(i, &(t, nullable))| ColumnDef::new(&format!("c{i}"), t, nullable))
                    .collect();
                let layout = RowLayout::new(&columns);
                let row = row_of(&types, &seeds);
                let payload = encoded(&layout, &row);
                for (c, value) in row.iter().enumerate() {
                    prop_assert_eq!(&layout.value(&payload, c), value);
                }
                let replacement = row_of(&types, &new_seeds);
                let changes: Vec<(usize, Value)> = (0..types.len())
                    .filter(|&c| changed[c])
                    .map(|c| (c, replacement[c].clone()))
                    .collect();
                let mut expected_row = row.clone();
                for (c, value) in &changes {
                    expected_row[*c] = value.clone();
                }
                let mut patched = Vec::new();
                layout.patch(&payload, &changes, &mut patched).expect("patches");
                prop_assert_eq!(patched, encoded(&layout, &expected_row));
            }
        }
    }
}
