//! `ALTER DATABASE CURRENT | hekla SET option = value, ...` for the options
//! hekla keeps: DELAYED_DURABILITY, MEMORY_OPTIMIZED_ELEVATE_TO_SNAPSHOT,
//! RECOVERY and SINGLE_USER | RESTRICTED_USER | MULTI_USER. The engine logs
//! the change before it takes effect, so it survives a restart
//! (`hekla_engine::DatabaseOptions`).
//!
//! SINGLE_USER is enforced: a second session is refused (Msg 924, in
//! `session_registry::register`), and setting it while other
//! sessions are open is 5070 with `NO_WAIT`, else 10794 (hekla neither
//! waits for other sessions nor ends them). RESTRICTED_USER admits the
//! database owners, which every hekla session is. RECOVERY is reported and
//! kept; hekla takes no backups, so its log is truncated at checkpoints
//! under any model, as SQL Server's is before a database's first full
//! backup.
//!
//! `ADD FILEGROUP ... CONTAINS MEMORY_OPTIMIZED_DATA` is Msg 10797: the
//! database has its memory-optimized filegroup already. Other filegroups,
//! ADD FILE, other options and the system databases are 10794; a database
//! that does not exist is SQL Server's 5011 followed by 5069.

use crate::ddl::DdlDatabase;
use hekla_engine::{DatabaseOptions, DelayedDurability, RecoveryModel, UserAccess};
use hekla_parser::ast::{self, AlterDatabaseAction, OptionValue};
use hekla_plan::catalog::databases::{named, Named};
use hekla_plan::catalog::procedure::option_name;
use hekla_plan::error::{not_supported_yet, Refused};
use hekla_plan::names::DATABASE_NAME;
use hekla_plan::result::{ErrorEvent, ResultSink};
use hekla_types::{SqlError, SqlResult};

/// Runs `alter`, statement `line` of its batch; `in_transaction` when a
/// user transaction is open (Msg 226). A leading error of two goes to
/// `sink`, the last is returned.
pub fn alter(
    db: &dyn DdlDatabase,
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
    let (options, termination) = match &alter.action {
        AlterDatabaseAction::Set {
            options,
            termination,
        } => (options, termination),
        AlterDatabaseAction::AddFilegroup {
            memory_optimized: true,
            ..
        } => return Err(second_memory_optimized_filegroup()),
        AlterDatabaseAction::AddFilegroup { .. } => {
            return Err(not_supported_yet(
                Refused::Statement,
                "ALTER DATABASE ADD FILEGROUP",
            ))
        }
        AlterDatabaseAction::AddFile { .. } => {
            return Err(not_supported_yet(
                Refused::Statement,
                "ALTER DATABASE ADD FILE",
            ))
        }
    };
    let changes = options
        .iter()
        .map(Change::of)
        .collect::<SqlResult<Vec<_>>>()?;
    let change = || {
        db.engine().change_options(|kept| {
            for change in &changes {
                change.apply(kept);
            }
        })
    };
    let single_user = changes
        .iter()
        .any(|change| matches!(change, Change::UserAccess(UserAccess::Single)));
    if !single_user {
        change()?;
        return Ok(());
    }
    match crate::session_registry::while_alone(db.engine(), change) {
        Some(changed) => changed.map(|_| ()),
        None if is_no_wait(termination) => {
            sink.error(&ErrorEvent {
                error: SqlError::new(
                    5070,
                    16,
                    2,
                    format!("Database state cannot be changed while other users are using the database '{DATABASE_NAME}'"),
                ),
                line,
                procedure: None,
            });
            Err(alter_failed())
        }
        None => Err(not_supported_yet(
            Refused::Statement,
            "ALTER DATABASE SET SINGLE_USER while other sessions are open",
        )),
    }
}

fn is_no_wait(termination: &[ast::Ident]) -> bool {
    termination
        .first()
        .is_some_and(|word| word.value.eq_ignore_ascii_case("NO_WAIT"))
}

fn alter_failed() -> SqlError {
    SqlError::new(5069, 16, 1, "ALTER DATABASE statement failed.")
}

fn second_memory_optimized_filegroup() -> SqlError {
    SqlError::new(
        10797,
        15,
        2,
        "Only one MEMORY_OPTIMIZED_DATA filegroup is allowed per database.",
    )
}

/// The current database passes; the system databases are 10794; any
/// other name is 5011 (to `sink`) and 5069.
fn check_database(name: &str, line: u32, sink: &mut dyn ResultSink) -> SqlResult<()> {
    match named(name) {
        Named::Current => return Ok(()),
        Named::System => {
            return Err(not_supported_yet(
                Refused::Statement,
                "ALTER DATABASE of a system database",
            ))
        }
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
    Err(alter_failed())
}

/// One `SET` option hekla keeps.
enum Change {
    DelayedDurability(DelayedDurability),
    ElevateToSnapshot(bool),
    Recovery(RecoveryModel),
    UserAccess(UserAccess),
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
            "RECOVERY" => match value.as_deref() {
                Some("FULL") => Ok(Change::Recovery(RecoveryModel::Full)),
                Some("BULK_LOGGED") => Ok(Change::Recovery(RecoveryModel::BulkLogged)),
                Some("SIMPLE") => Ok(Change::Recovery(RecoveryModel::Simple)),
                _ => Err(bad_value(option)),
            },
            "SINGLE_USER" | "RESTRICTED_USER" | "MULTI_USER" if option.value.is_some() => {
                Err(bad_value(option))
            }
            "SINGLE_USER" => Ok(Change::UserAccess(UserAccess::Single)),
            "RESTRICTED_USER" => Ok(Change::UserAccess(UserAccess::Restricted)),
            "MULTI_USER" => Ok(Change::UserAccess(UserAccess::Multi)),
            other => Err(not_supported_yet(
                Refused::Statement,
                format!("ALTER DATABASE SET {other}"),
            )),
        }
    }

    fn apply(&self, options: &mut DatabaseOptions) {
        match *self {
            Change::DelayedDurability(mode) => options.delayed_durability = mode,
            Change::ElevateToSnapshot(on) => options.elevate_to_snapshot = on,
            Change::Recovery(model) => options.recovery = model,
            Change::UserAccess(access) => options.user_access = access,
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
