//! SET TEXTSIZE: SQL Server sends at most that many bytes of a
//! varchar(max), nvarchar(max) or varbinary(max) value to the client
//! (varchar a byte a character, nvarchar two a UTF-16 unit). Only what a
//! result set shows is cut: values stored, assigned or compared are whole.

use hekla_plan::result::ResultColumn;
use hekla_types::{DataType, Length, Value};
use std::borrow::Cow;

/// How one result set's rows are cut.
pub struct TextSize {
    /// The (max) columns, by position, with the bytes a character of each
    /// counts for (0 for binary).
    long_columns: Vec<(usize, usize)>,
    /// The most bytes of each sent.
    bytes: usize,
}

impl TextSize {
    /// For a result set of `columns` under SET TEXTSIZE `text_size`.
    pub fn new(columns: &[ResultColumn], text_size: i32) -> TextSize {
        let long_columns = columns
            .iter()
            .enumerate()
            .filter_map(|(position, column)| match column.data_type {
                DataType::VarChar {
                    len: Length::Max, ..
                } => Some((position, 1)),
                DataType::NVarChar {
                    len: Length::Max, ..
                } => Some((position, 2)),
                DataType::VarBinary { len: Length::Max } => Some((position, 0)),
                _ => None,
            })
            .collect();
        TextSize {
            long_columns,
            bytes: usize::try_from(text_size).unwrap_or(0),
        }
    }

    /// `row` as the client gets it.
    pub fn fit<'r>(&self, row: &'r [Value]) -> Cow<'r, [Value]> {
        let mut fitted = Cow::Borrowed(row);
        for &(position, char_bytes) in &self.long_columns {
            if let Some(cut) = row.get(position).and_then(|v| self.cut(v, char_bytes)) {
                fitted.to_mut()[position] = cut;
            }
        }
        fitted
    }

    /// The value cut to size, if it is too long.
    fn cut(&self, value: &Value, char_bytes: usize) -> Option<Value> {
        match value {
            Value::Binary(bytes) if bytes.len() > self.bytes => {
                Some(Value::Binary(bytes[..self.bytes].to_vec()))
            }
            Value::String(text) if char_bytes > 0 => {
                let units = self.bytes / char_bytes;
                // No character counts for more units than its UTF-8 bytes.
                if text.len() <= units {
                    return None;
                }
                let mut used = 0;
                let end = text
                    .char_indices()
                    .find(|(_, c)| {
                        used += if char_bytes == 2 { c.len_utf16() } else { 1 };
                        used > units
                    })
                    .map(|(end, _)| end)?;
                Some(Value::String(text[..end].to_string()))
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hekla_types::Collation;

    fn column(data_type: DataType) -> ResultColumn {
        ResultColumn {
            name: String::new(),
            data_type,
            nullable: true,
        }
    }

    #[test]
    fn only_max_values_are_cut_to_the_bytes_allowed() {
        let collation = Collation::default();
        let columns = [
            column(DataType::VarChar {
                len: Length::Max,
                collation,
            }),
            column(DataType::NVarChar {
                len: Length::Max,
                collation,
            }),
            column(DataType::VarBinary { len: Length::Max }),
            column(DataType::VarChar {
                len: Length::Bounded(10),
                collation,
            }),
        ];
        let text = |s: &str| Value::String(s.to_string());
        let row = [
            text("abcdef"),
            text("abcdef"),
            Value::Binary(vec![1, 2, 3, 4, 5]),
            text("abcdef"),
        ];
        let fitted = TextSize::new(&columns, 4).fit(&row).into_owned();
        assert_eq!(
            fitted,
            [
                text("abcd"),
                text("ab"),
                Value::Binary(vec![1, 2, 3, 4]),
                text("abcdef")
            ]
        );
        assert!(matches!(
            TextSize::new(&columns, 100).fit(&row),
            Cow::Borrowed(_)
        ));
    }
}
