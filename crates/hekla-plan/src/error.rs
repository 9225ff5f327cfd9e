//! Errors the SQL layer reports when it refuses a statement, worded and
//! numbered as SQL Server does. Syntax errors are the front end's:
//! `hekla_parser::SyntaxError`.

use hekla_types::SqlError;
use std::fmt;

/// The kind of thing a Msg 10794 refusal names: SQL Server words the
/// message "The %S_MSG '%ls' is not supported ...", the first insert
/// naming what sort of thing the second is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refused {
    Statement,
    Feature,
    Expression,
}

impl Refused {
    fn word(self) -> &'static str {
        match self {
            Refused::Statement => "statement",
            Refused::Feature => "feature",
            Refused::Expression => "expression",
        }
    }
}

/// Msg 10794 for something hekla parses but does not run yet: a clear
/// refusal, never a silent success.
pub fn not_supported_yet(kind: Refused, what: impl fmt::Display) -> SqlError {
    SqlError::new(
        10794,
        16,
        1,
        format!(
            "The {} '{what}' is not supported by hekla yet.",
            kind.word()
        ),
    )
}

/// Msg 208: no object by that name. SQL Server's state says where the
/// name was looked up (1 in a query, 3 for ALTER PROCEDURE, 6 for ALTER
/// VIEW and ALTER FUNCTION), so the caller gives it.
pub fn invalid_object_name(name: &str, state: u8) -> SqlError {
    SqlError::new(208, 16, state, format!("Invalid object name '{name}'."))
}

/// Msg 4902 (ALTER TABLE) / 1088 (CREATE INDEX, statistics, IDENTITY_INSERT):
/// no such table, or one the user may not alter (the message does not say
/// which, as SQL Server's does not).
pub fn no_table(number: u32, written: &str) -> SqlError {
    SqlError::new(
        number,
        16,
        if number == 1088 { 12 } else { 1 },
        format!(
            "Cannot find the object \"{written}\" because it does not exist or you do not have permissions."
        ),
    )
}

/// Msg 1060: a TOP count that is not a whole number of rows (or is
/// negative).
pub fn top_rows_not_integer() -> SqlError {
    SqlError::new(
        1060,
        16,
        1,
        "The number of rows in the TOP clause must be an integer.",
    )
}

/// Msg 1061: a TOP ... PERCENT outside 0 to 100.
pub fn top_percent_invalid() -> SqlError {
    SqlError::new(1061, 16, 1, "The TOP clause contains an invalid value.")
}

/// Msg 134: `@name` is declared twice in one batch or module.
pub fn already_declared(name: &str) -> SqlError {
    SqlError::new(
        134,
        15,
        1,
        format!("The variable name '@{name}' has already been declared. Variable names must be unique within a query batch or stored procedure."),
    )
}

/// Msg 137: `@name` (given without the `@`) is not declared.
pub fn undeclared_variable(name: &str) -> SqlError {
    SqlError::new(
        137,
        15,
        2,
        format!("Must declare the scalar variable \"@{name}\"."),
    )
}

/// Msg 1087: the table variable `@name` (given without the `@`) is not
/// declared.
pub fn undeclared_table_variable(name: &str) -> SqlError {
    SqlError::new(
        1087,
        15,
        2,
        format!("Must declare the table variable \"@{name}\"."),
    )
}

/// Msg 11719: `NEXT VALUE FOR` where SQL Server allows none.
pub fn next_value_not_allowed() -> SqlError {
    SqlError::new(
        11719,
        15,
        1,
        "NEXT VALUE FOR function is not allowed in check constraints, default objects, computed columns, views, user-defined functions, user-defined aggregates, user-defined table types, sub-queries, common table expressions, derived tables or return statements.",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn not_supported_yet_names_the_kind_of_thing_refused() {
        let error = not_supported_yet(Refused::Feature, "DEFAULT constraints");
        assert_eq!((error.number, error.severity, error.state), (10794, 16, 1));
        assert_eq!(
            error.message,
            "The feature 'DEFAULT constraints' is not supported by hekla yet."
        );
        assert_eq!(
            not_supported_yet(Refused::Statement, "ALTER USER").message,
            "The statement 'ALTER USER' is not supported by hekla yet."
        );
    }

    #[test]
    fn invalid_object_name_keeps_the_callers_state() {
        let error = invalid_object_name("dbo.p", 3);
        assert_eq!((error.number, error.severity, error.state), (208, 16, 3));
        assert_eq!(error.message, "Invalid object name 'dbo.p'.");
    }
}
