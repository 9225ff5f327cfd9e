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
}

impl SqlError {
    pub fn new(number: u32, severity: u8, state: u8, message: impl Into<String>) -> Self {
        SqlError {
            number,
            severity,
            state,
            message: message.into(),
        }
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
