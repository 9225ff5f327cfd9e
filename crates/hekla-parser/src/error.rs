//! Errors the front end reports, worded and numbered as SQL Server does.

use std::fmt;

/// A compile-time error in a batch: SQL Server reports these with a number,
/// severity (level), state and the line of the batch they were found on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    pub number: u32,
    pub level: u8,
    pub state: u8,
    /// The procedure or function being defined when the error was found
    /// (SQL Server names it in the message header).
    pub procedure: Option<String>,
    /// 1-based line within the batch.
    pub line: u32,
    pub message: String,
}

/// Longest identifier SQL Server accepts (error 103 beyond it).
pub const MAX_IDENTIFIER_LENGTH: usize = 128;

impl SyntaxError {
    fn new(number: u32, line: u32, message: String) -> SyntaxError {
        SyntaxError {
            number,
            level: 15,
            state: 1,
            procedure: None,
            line,
            message,
        }
    }

    /// The same error, reported inside the definition of `module`.
    pub fn in_module(mut self, module: &str) -> SyntaxError {
        self.procedure.get_or_insert_with(|| module.to_string());
        self
    }

    /// Msg 102: the generic "Incorrect syntax near 'x'.".
    pub fn near(text: &str, line: u32) -> SyntaxError {
        SyntaxError::new(102, line, format!("Incorrect syntax near '{text}'."))
    }

    /// Msg 156: a reserved keyword where it cannot stand.
    pub fn near_keyword(keyword: &str, line: u32) -> SyntaxError {
        SyntaxError::new(
            156,
            line,
            format!("Incorrect syntax near the keyword '{keyword}'."),
        )
    }

    /// Msg 105: a string or quoted identifier that never closes.
    pub fn unclosed_quote(content: &str, line: u32) -> SyntaxError {
        SyntaxError::new(
            105,
            line,
            format!("Unclosed quotation mark after the character string '{content}'."),
        )
    }

    /// Msg 154: USE in a procedure's or function's definition.
    pub fn use_in_module(line: u32) -> SyntaxError {
        SyntaxError::new(
            154,
            line,
            "a USE database statement is not allowed in a procedure, function or trigger."
                .to_string(),
        )
    }

    /// Msg 113: a `/*` comment that never closes.
    pub fn missing_end_comment(line: u32) -> SyntaxError {
        SyntaxError::new(113, line, "Missing end comment mark '*/'.".to_string())
    }

    /// Msg 103: an identifier over 128 characters.
    pub fn identifier_too_long(identifier: &str, line: u32) -> SyntaxError {
        let prefix: String = identifier.chars().take(MAX_IDENTIFIER_LENGTH).collect();
        SyntaxError::new(
            103,
            line,
            format!(
                "The identifier that starts with '{prefix}' is too long. Maximum length is {MAX_IDENTIFIER_LENGTH}."
            ),
        )
    }

    /// Msg 1038: `[]`, `""` or an empty string alias.
    pub fn empty_name(line: u32) -> SyntaxError {
        SyntaxError::new(
            1038,
            line,
            "An object or column name is missing or empty. For SELECT INTO statements, verify each column has a name. For other statements, look for empty alias names. Aliases defined as \"\" or [] are not allowed. Change the alias to a valid name.".to_string(),
        )
    }

    /// Msg 191: nesting beyond [`crate::parser::MAX_DEPTH`].
    pub fn nested_too_deeply(line: u32) -> SyntaxError {
        SyntaxError::new(
            191,
            line,
            "Some part of your SQL statement is nested too deeply. Rewrite the query or break it up into smaller queries.".to_string(),
        )
    }

    /// Msg 10794: a statement hekla parses but refuses, as SQL Server
    /// refuses it for memory-optimized tables.
    pub fn not_supported_with_memory_optimized(statement: &str, line: u32) -> SyntaxError {
        SyntaxError {
            number: 10794,
            level: 16,
            state: 94,
            procedure: None,
            line,
            message: format!(
                "The statement '{statement}' is not supported with memory optimized tables."
            ),
        }
    }

    /// Msg 10794 for a statement SQL Server has and hekla does not (BACKUP,
    /// DBCC, cursors...): a clear refusal rather than a syntax error.
    pub fn unsupported(statement: &str, line: u32) -> SyntaxError {
        SyntaxError {
            number: 10794,
            level: 16,
            state: 1,
            procedure: None,
            line,
            message: format!("The statement '{statement}' is not supported by hekla."),
        }
    }
}

/// The two lines sqlcmd prints for an error.
impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Msg {}, Level {}, State {}, ",
            self.number, self.level, self.state
        )?;
        if let Some(procedure) = &self.procedure {
            write!(f, "Procedure {procedure}, ")?;
        }
        write!(f, "Line {}\n{}", self.line, self.message)
    }
}

impl std::error::Error for SyntaxError {}
