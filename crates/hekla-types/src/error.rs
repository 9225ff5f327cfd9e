//! Errors shared by every layer, carrying SQL Server's error number, severity,
//! state and message text so that drivers and retry logic see what they expect.

use std::fmt;

/// An error as SQL Server reports it (`Msg N, Level L, State S: text`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SqlError {
    pub number: u32,
    pub severity: u8,
    pub state: u8,
    pub message: String,
    /// The line of the part of the running statement the error belongs to,
    /// counted from that statement's first line (1), when it is not the
    /// statement's own line: a statement of a module body compiled at
    /// CREATE, which SQL Server reports on that statement's line.
    pub line: Option<u32>,
}

impl SqlError {
    pub fn new(number: u32, severity: u8, state: u8, message: impl Into<String>) -> Self {
        SqlError {
            number,
            severity,
            state,
            message: message.into(),
            line: None,
        }
    }

    /// The error placed on `line` of the running statement (see
    /// [`SqlError::line`]), unless an inner statement placed it already.
    pub fn at_line(mut self, line: u32) -> Self {
        self.line.get_or_insert(line);
        self
    }

    /// Msg 206: a value of one type family offered where another is required.
    pub fn type_clash(from: &str, to: &str) -> Self {
        SqlError::new(
            206,
            16,
            2,
            format!("Operand type clash: {from} is incompatible with {to}"),
        )
    }

    /// Msg 2628 without table and column; the engine adds those, since it
    /// knows where the value was going.
    pub fn truncation() -> Self {
        SqlError::new(2628, 16, 1, "String or binary data would be truncated.")
    }

    /// Msg 8115, e.g. `converting numeric to data type numeric`.
    pub fn arithmetic_overflow(from: &str, to: &str) -> Self {
        SqlError::new(
            8115,
            16,
            2,
            format!("Arithmetic overflow error converting {from} to data type {to}."),
        )
    }

    /// Msg 220: tinyint and smallint overflow name the offending value.
    pub fn integer_overflow(to: &str, value: impl std::fmt::Display) -> Self {
        SqlError::new(
            220,
            16,
            2,
            format!("Arithmetic overflow error for data type {to}, value = {value}."),
        )
    }

    /// Msg 8134.
    pub fn divide_by_zero() -> Self {
        SqlError::new(8134, 16, 1, "Divide by zero error encountered.")
    }

    /// Msg 241: text that is not a valid date or time literal.
    pub fn date_conversion() -> Self {
        SqlError::new(
            241,
            16,
            1,
            "Conversion failed when converting date and/or time from character string.",
        )
    }

    /// Msg 242: a date or time outside the target type's range.
    pub fn date_out_of_range(from: &str, to: &str) -> Self {
        SqlError::new(
            242,
            16,
            3,
            format!(
                "The conversion of a {from} data type to a {to} data type resulted in an out-of-range value."
            ),
        )
    }
}

impl fmt::Display for SqlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Msg {}, Level {}, State {}: {}",
            self.number, self.severity, self.state, self.message
        )
    }
}

impl std::error::Error for SqlError {}

pub type SqlResult<T> = Result<T, SqlError>;
