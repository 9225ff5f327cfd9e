//! The DBCC commands that empty caches: FREEPROCCACHE and
//! FREESYSTEMCACHE ('ALL') empty the plan cache (the interpreter does it,
//! once the arguments here are checked); hekla keeps its data in memory
//! with no buffer pool, so DROPCLEANBUFFERS has nothing to drop. Each says
//! it completed, as SQL Server does.

use hekla_parser::ast::{DbccCommand, Expr, ExprKind, Ident, Literal};
use hekla_plan::error::{not_supported_yet, Refused};
use hekla_types::{SqlError, SqlResult};

/// The informational message that ends a DBCC command (Msg 2528).
pub const COMPLETED: &str =
    "DBCC execution completed. If DBCC printed error messages, contact your system administrator.";

/// Checks the command's arguments and options; the message to print, if
/// any (none under `WITH NO_INFOMSGS`).
pub fn run(
    command: DbccCommand,
    args: &[Expr],
    options: &[Ident],
) -> SqlResult<Option<&'static str>> {
    check_args(command, args)?;
    let mut quiet = false;
    for option in options {
        match option.value.to_ascii_uppercase().as_str() {
            "NO_INFOMSGS" => quiet = true,
            // Entries in use leave the cache and are freed once unused,
            // as the plan cache always frees them.
            "MARK_IN_USE_FOR_REMOVAL" if command == DbccCommand::FreeSystemCache => {}
            _ => return Err(invalid_option()),
        }
    }
    Ok((!quiet).then_some(COMPLETED))
}

/// DROPCLEANBUFFERS and FREEPROCCACHE take no arguments here (a plan
/// handle or resource pool names something hekla does not have);
/// FREESYSTEMCACHE takes `'ALL'`, every cache.
fn check_args(command: DbccCommand, args: &[Expr]) -> SqlResult<()> {
    match (command, args) {
        (_, []) if command != DbccCommand::FreeSystemCache => Ok(()),
        (DbccCommand::FreeSystemCache, [cache]) if is_all(cache) => Ok(()),
        (DbccCommand::FreeSystemCache, []) => Err(SqlError::new(
            2583,
            16,
            1,
            "An incorrect number of parameters was given to the DBCC statement.",
        )),
        _ => Err(not_supported_yet(
            Refused::Statement,
            format!("DBCC {} with these arguments", command.name()),
        )),
    }
}

fn is_all(cache: &Expr) -> bool {
    matches!(&cache.kind, ExprKind::Literal(Literal::String { value, .. })
        if value.eq_ignore_ascii_case("ALL"))
}

/// Msg 2532 for an option the command does not take.
fn invalid_option() -> SqlError {
    SqlError::new(
        2532,
        16,
        1,
        "One or more WITH options specified are not valid for this command.",
    )
}
