//! `ALTER DATABASE CURRENT | hekla SET option = value, ...` for the options
//! hekla keeps: DELAYED_DURABILITY and MEMORY_OPTIMIZED_ELEVATE_TO_SNAPSHOT.
//! The engine logs the change before it takes effect, so it survives a
//! restart (`hekla_engine::DatabaseOptions`). Other options, ADD FILEGROUP
//! and FILE, and the system databases are refused with 10794; a database
//! that does not exist is SQL Server's 5011 followed by 5069.

use crate::ast::{self, AlterDatabaseAction, OptionValue};
use crate::catalog::databases::{named, Named};
use crate::catalog::procedure::option_name;
use crate::exec::not_yet;
use crate::session::{ErrorEvent, ResultSink, SqlDatabase};
use hekla_engine::{DatabaseOptions, DelayedDurability};
use hekla_types::{SqlError, SqlResult};

/// Runs `alter`, statement `line` of its batch; `in_transaction` when a
/// user transaction is open (Msg 226). A leading error of two goes to
/// `sink`, the last is returned.
pub fn alter(
    db: &SqlDatabase,
    alter: &ast::AlterDatabase,
    in_transaction: bool,
    line: u32,
    sink: &mut dyn ResultSink,
) -> SqlResult<()> {
    if in_transaction {
        return Err(SqlError::new(
            226,
            16,
            6,
            "ALTER DATABASE statement not allowed within multi-statement transaction.",
        ));
    }
    if let Some(name) = &alter.database {
        check_database(&name.value, line, sink)?;
    }
    let AlterDatabaseAction::Set { options, .. } = &alter.action else {
        return Err(not_yet("ALTER DATABASE ADD FILEGROUP or FILE"));
    };
    let changes = options
        .iter()
        .map(Change::of)
        .collect::<SqlResult<Vec<_>>>()?;
    db.engine().change_options(|kept| {
        for change in &changes {
            change.apply(kept);
        }
    })?;
    Ok(())
}

/// The current database passes; the system databases are 10794; any
/// other name is 5011 (to `sink`) and 5069.
fn check_database(name: &str, line: u32, sink: &mut dyn ResultSink) -> SqlResult<()> {
    match named(name) {
        Named::Current => return Ok(()),
        Named::System => return Err(not_yet("ALTER DATABASE of a system database")),
        Named::Missing => {}
    }
    sink.error(&ErrorEvent {
        error: SqlError::new(
            5011,
            14,
            9,
            format!("User does not have permission to alter database '{name}', the database does not exist, or the database is not in a state that allows access checks."),
        ),
        line,
        procedure: None,
    });
    Err(SqlError::new(
        5069,
        16,
        1,
        "ALTER DATABASE statement failed.",
    ))
}

/// One `SET` option hekla keeps.
enum Change {
    DelayedDurability(DelayedDurability),
    ElevateToSnapshot(bool),
}

impl Change {
    fn of(option: &ast::OptionItem) -> SqlResult<Change> {
        let name = option_name(option);
        let value = value_word(option);
        match name.as_str() {
            "DELAYED_DURABILITY" => match value.as_deref() {
                Some("DISABLED") => Ok(Change::DelayedDurability(DelayedDurability::Disabled)),
                Some("ALLOWED") => Ok(Change::DelayedDurability(DelayedDurability::Allowed)),
                Some("FORCED") => Ok(Change::DelayedDurability(DelayedDurability::Forced)),
                _ => Err(bad_value(option)),
            },
            "MEMORY_OPTIMIZED_ELEVATE_TO_SNAPSHOT" => match value.as_deref() {
                Some("ON") => Ok(Change::ElevateToSnapshot(true)),
                Some("OFF") => Ok(Change::ElevateToSnapshot(false)),
                _ => Err(bad_value(option)),
            },
            other => Err(not_yet(&format!("ALTER DATABASE SET {other}"))),
        }
    }

    fn apply(&self, options: &mut DatabaseOptions) {
        match *self {
            Change::DelayedDurability(mode) => options.delayed_durability = mode,
            Change::ElevateToSnapshot(on) => options.elevate_to_snapshot = on,
        }
    }
}

/// The option's value when it is one word, upper-cased.
fn value_word(option: &ast::OptionItem) -> Option<String> {
    match &option.value {
        Some(OptionValue::Words(words)) if words.len() == 1 => {
            Some(words[0].value.to_ascii_uppercase())
        }
        _ => None,
    }
}

/// Msg 102 for a value the option's grammar has no place for.
fn bad_value(option: &ast::OptionItem) -> SqlError {
    let near = match &option.value {
        Some(OptionValue::Words(words)) => words
            .first()
            .map_or_else(String::new, |word| word.value.clone()),
        Some(OptionValue::Expr(expr)) => expr.to_string(),
        Some(OptionValue::List(_)) => "(".to_string(),
        None => option_name(option),
    };
    SqlError::new(102, 15, 1, format!("Incorrect syntax near '{near}'."))
}
