//! Result sets as text, the way sqlcmd prints them: a header line, a line
//! of dashes, then rows in fixed-width columns whose widths come from the
//! column types (so rows can stream), numbers right-aligned, `NULL` for
//! nulls. `hekla sql` and the golden SQL tests share this format.

use hekla_types::{DataType, Length, Value};
use std::io::{self, Write};

/// sqlcmd's formatting switches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextOptions {
    /// `-s`: the column separator (one space by default).
    pub separator: String,
    /// `-W`: trailing blanks removed, columns as wide as their values.
    pub trim: bool,
    /// `-y`: width shown for `max` and very long types (sqlcmd: 256).
    pub variable_width: usize,
    /// `-h -1` turns headers off.
    pub headers: bool,
}

impl Default for TextOptions {
    fn default() -> Self {
        TextOptions {
            separator: " ".to_string(),
            trim: false,
            variable_width: 256,
            headers: true,
        }
    }
}

/// A column of a result set as the text writer needs it.
#[derive(Clone, Debug, PartialEq)]
pub struct TextColumn {
    pub name: String,
    pub data_type: DataType,
}

/// Writes one result set, row by row.
pub struct ResultSetWriter {
    columns: Vec<TextColumn>,
    widths: Vec<usize>,
    options: TextOptions,
}

impl ResultSetWriter {
    /// Widths come from the column types once, so rows stream.
    pub fn new(columns: Vec<TextColumn>, options: TextOptions) -> Self {
        let widths = columns
            .iter()
            .map(|column| {
                let type_width = display_width(&column.data_type, options.variable_width);
                // Wide enough for NULL, as sqlcmd makes nullable columns
                // (hekla reports every result column as nullable).
                type_width
                    .max(column.name.chars().count())
                    .max("NULL".len())
            })
            .collect();
        ResultSetWriter {
            columns,
            widths,
            options,
        }
    }

    /// The header and dash lines (nothing with headers off).
    pub fn header(&self, out: &mut impl Write) -> io::Result<()> {
        if !self.options.headers {
            return Ok(());
        }
        let names: Vec<String> = self.columns.iter().map(|c| c.name.clone()).collect();
        self.line(out, &names, &vec![false; names.len()])?;
        let dashes: Vec<String> = self
            .widths
            .iter()
            .zip(&names)
            .map(|(&width, name)| "-".repeat(self.cell_width(width, name)))
            .collect();
        self.line(out, &dashes, &vec![false; dashes.len()])
    }

    pub fn row(&self, out: &mut impl Write, values: &[Value]) -> io::Result<()> {
        let cells: Vec<String> = values.iter().map(Value::to_string).collect();
        let right: Vec<bool> = self
            .columns
            .iter()
            .zip(values)
            .map(|(column, value)| !value.is_null() && is_numeric(&column.data_type))
            .collect();
        self.line(out, &cells, &right)
    }

    /// With `-W` a column is as wide as the text in it.
    fn cell_width(&self, width: usize, text: &str) -> usize {
        if self.options.trim {
            text.chars().count()
        } else {
            width
        }
    }

    fn line(&self, out: &mut impl Write, cells: &[String], right: &[bool]) -> io::Result<()> {
        let mut text = String::new();
        for (index, cell) in cells.iter().enumerate() {
            if index > 0 {
                text.push_str(&self.options.separator);
            }
            let width = self.cell_width(self.widths[index], cell);
            let shown: String = cell.chars().take(width).collect();
            let padding = width.saturating_sub(shown.chars().count());
            if right[index] {
                text.extend(std::iter::repeat_n(' ', padding));
                text.push_str(&shown);
            } else {
                text.push_str(&shown);
                text.extend(std::iter::repeat_n(' ', padding));
            }
        }
        if self.options.trim {
            text.truncate(text.trim_end().len());
        }
        writeln!(out, "{text}")
    }
}

/// `(3 rows affected)`, as sqlcmd words it (also for one row).
pub fn rows_affected(count: u64) -> String {
    format!("({count} rows affected)")
}

fn is_numeric(data_type: &DataType) -> bool {
    use DataType::*;
    matches!(
        data_type,
        Bit | TinyInt
            | SmallInt
            | Int
            | BigInt
            | Decimal { .. }
            | Money
            | SmallMoney
            | Float
            | Real
    )
}

/// The width sqlcmd gives a column of this type.
pub fn display_width(data_type: &DataType, variable_width: usize) -> usize {
    use DataType::*;
    let bounded = |len: Length| match len {
        Length::Bounded(n) => (n as usize).min(variable_width.max(1)),
        Length::Max => variable_width,
    };
    match *data_type {
        Bit => 1,
        TinyInt => 3,
        SmallInt => 6,
        Int => 11,
        BigInt => 20,
        Decimal { precision, .. } => usize::from(precision) + 2,
        Money => 21,
        SmallMoney => 12,
        Float => 24,
        Real => 14,
        Date => 10,
        Time { scale } => 8 + fraction_width(scale),
        DateTime => 23,
        DateTime2 { scale } => 19 + fraction_width(scale),
        SmallDateTime => 19,
        DateTimeOffset { scale } => 26 + fraction_width(scale),
        UniqueIdentifier => 36,
        Char { len, .. } | NChar { len, .. } => bounded(Length::Bounded(len)),
        VarChar { len, .. } | NVarChar { len, .. } => bounded(len),
        // Two hex digits per byte after `0x`.
        Binary { len } => bounded(Length::Bounded(len.saturating_mul(2).saturating_add(2))),
        VarBinary { len } => match len {
            Length::Bounded(n) => bounded(Length::Bounded(n.saturating_mul(2).saturating_add(2))),
            Length::Max => variable_width,
        },
    }
}

/// `.fffffff`: a point and `scale` digits, nothing for scale 0.
fn fraction_width(scale: u8) -> usize {
    if scale == 0 {
        0
    } else {
        1 + usize::from(scale)
    }
}

/// A [`hekla_plan::result::ResultSink`] that prints what sqlcmd prints:
/// result sets as tables, `(n rows affected)`, messages and errors.
pub struct TextSink<W: Write> {
    out: W,
    options: TextOptions,
    /// The current result set's layout.
    writer: Option<ResultSetWriter>,
    /// Set once a write fails (a closed pipe); later output is dropped.
    failed: Option<io::Error>,
    errors: usize,
}

impl<W: Write> TextSink<W> {
    pub fn new(out: W, options: TextOptions) -> Self {
        TextSink {
            out,
            options,
            writer: None,
            failed: None,
            errors: 0,
        }
    }

    /// How many errors were reported (sqlcmd -b exits non-zero on any).
    pub fn error_count(&self) -> usize {
        self.errors
    }

    /// The writer, and the first write error if there was one.
    pub fn finish(self) -> (W, Option<io::Error>) {
        (self.out, self.failed)
    }

    fn write(&mut self, write: impl FnOnce(&mut W, Option<&ResultSetWriter>) -> io::Result<()>) {
        if self.failed.is_none() {
            if let Err(error) = write(&mut self.out, self.writer.as_ref()) {
                self.failed = Some(error);
            }
        }
    }
}

impl<W: Write> hekla_plan::result::ResultSink for TextSink<W> {
    fn columns(&mut self, columns: &[hekla_plan::result::ResultColumn]) {
        let columns = columns
            .iter()
            .map(|c| TextColumn {
                name: c.name.clone(),
                data_type: c.data_type,
            })
            .collect();
        self.writer = Some(ResultSetWriter::new(columns, self.options.clone()));
        self.write(|out, writer| writer.expect("just set").header(out));
    }

    fn row(&mut self, values: &[Value]) {
        self.write(|out, writer| {
            writer
                .expect("a row follows its result set's columns")
                .row(out, values)
        });
    }

    fn done(&mut self, rows: Option<u64>) {
        if let Some(count) = rows {
            self.write(|out, _| writeln!(out, "\n{}", rows_affected(count)));
        }
    }

    fn message(&mut self, text: &str) {
        self.write(|out, _| writeln!(out, "{text}"));
    }

    fn error(&mut self, error: &hekla_plan::result::ErrorEvent) {
        self.errors += 1;
        self.write(|out, _| writeln!(out, "{error}"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hekla_types::Collation;

    fn columns() -> Vec<TextColumn> {
        vec![
            TextColumn {
                name: "id".into(),
                data_type: DataType::Int,
            },
            TextColumn {
                name: "name".into(),
                data_type: DataType::VarChar {
                    len: Length::Bounded(6),
                    collation: Collation::default(),
                },
            },
        ]
    }

    fn render(options: &TextOptions, rows: &[Vec<Value>]) -> String {
        let columns = columns();
        let writer = ResultSetWriter::new(columns, options.clone());
        let mut out = Vec::new();
        writer.header(&mut out).unwrap();
        for row in rows {
            writer.row(&mut out, row).unwrap();
        }
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn fixed_width_like_sqlcmd() {
        let rows = vec![
            vec![Value::Int(1), Value::String("ab".into())],
            vec![Value::Null, Value::Null],
        ];
        assert_eq!(
            render(&TextOptions::default(), &rows),
            "id          name  \n----------- ------\n          1 ab    \nNULL        NULL  \n"
        );
    }

    #[test]
    fn trimmed_with_separator() {
        let options = TextOptions {
            separator: "|".into(),
            trim: true,
            ..TextOptions::default()
        };
        let rows = vec![vec![Value::Int(42), Value::String("abc".into())]];
        assert_eq!(render(&options, &rows), "id|name\n--|----\n42|abc\n");
        assert_eq!(rows_affected(1), "(1 rows affected)");
    }

    #[test]
    fn widths_follow_types() {
        assert_eq!(
            display_width(
                &DataType::Decimal {
                    precision: 18,
                    scale: 2
                },
                256
            ),
            20
        );
        assert_eq!(display_width(&DataType::DateTime2 { scale: 7 }, 256), 27);
        assert_eq!(display_width(&DataType::Time { scale: 0 }, 256), 8);
        let max = DataType::NVarChar {
            len: Length::Max,
            collation: Collation::default(),
        };
        assert_eq!(display_width(&max, 256), 256);
        assert_eq!(
            display_width(
                &DataType::VarBinary {
                    len: Length::Bounded(4)
                },
                256
            ),
            10
        );
    }
}
