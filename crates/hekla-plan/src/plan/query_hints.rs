//! `OPTION (...)` query hints and `INNER LOOP | HASH | MERGE JOIN` join
//! hints: what each does in hekla.
//!
//! - `LOOP JOIN`, `HASH JOIN` restrict the join methods the planner may
//!   choose (nested loops: an index seek per outer row or a spooled inner
//!   side; hash match). A join hint in the FROM clause restricts its own
//!   join further, within what OPTION allows, as in SQL Server.
//! - `MERGE JOIN`: hekla has no merge join, so a join left with no method
//!   fails with SQL Server's Msg 8622 rather than running another one.
//! - `NO_PERFORMANCE_SPOOL`: nested loops run the inner side again for
//!   each outer row instead of spooling it.
//! - `FORCE ORDER`, `EXPAND VIEWS`: hekla always joins in the order
//!   written and expands views, so these hold already.
//! - `MAXRECURSION n`: the recursion limit of recursive CTEs.
//! - `RECOMPILE`: the statement's plan is not kept for its next run
//!   (`interpret::kept_plans`).
//! - Accepted without effect, for what hekla does not have: `MAXDOP n`
//!   (a query runs on one thread), `KEEP PLAN`, `KEEPFIXED PLAN` (plans
//!   are kept until the schema changes, whatever the row counts),
//!   `OPTIMIZE FOR (...)`, `OPTIMIZE FOR UNKNOWN` (planned with the values
//!   at hand, no parameter sniffing), `USE HINT ('...')` (hekla's planner
//!   has no costed choices those switch), `MIN_GRANT_PERCENT`,
//!   `MAX_GRANT_PERCENT` (no memory grants), `QUERYTRACEON n` (no trace
//!   flags).
//! - Any other hint is refused (Msg 10794).

use crate::error::{not_supported_yet, Refused};
use hekla_parser::ast;
use hekla_types::{SqlError, SqlResult};

/// The join methods a join may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JoinChoice {
    pub nested_loops: bool,
    pub hash: bool,
    /// Nested loops may spool the inner side (no NO_PERFORMANCE_SPOOL).
    pub spool: bool,
}

impl JoinChoice {
    /// No hint: the planner picks.
    pub const ANY: JoinChoice = JoinChoice {
        nested_loops: true,
        hash: true,
        spool: true,
    };

    /// What is left of `self` under a join's own hint.
    pub fn with_hint(self, hint: Option<ast::JoinHint>) -> SqlResult<JoinChoice> {
        Ok(match hint {
            None => self,
            Some(ast::JoinHint::Loop) => JoinChoice {
                hash: false,
                ..self
            },
            Some(ast::JoinHint::Hash) => JoinChoice {
                nested_loops: false,
                ..self
            },
            Some(ast::JoinHint::Merge) => JoinChoice {
                nested_loops: false,
                hash: false,
                ..self
            },
            Some(ast::JoinHint::Remote) => {
                return Err(not_supported_yet(Refused::Statement, "REMOTE join hints"))
            }
        })
    }
}

/// A statement's `OPTION (...)`, as the planner uses it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueryHints {
    /// `MAXRECURSION n`, if given (0 to 32,767).
    pub max_recursion: Option<u32>,
    /// The join methods `LOOP JOIN`, `HASH JOIN`, `MERGE JOIN` and
    /// `NO_PERFORMANCE_SPOOL` allow.
    pub joins: JoinChoice,
    /// `RECOMPILE`: the plan is made for this run only.
    pub recompile: bool,
}

impl Default for QueryHints {
    fn default() -> Self {
        QueryHints {
            max_recursion: None,
            joins: JoinChoice::ANY,
            recompile: false,
        }
    }
}

/// Reads a statement's hints (Msg 310 for a bad MAXRECURSION, 10794 for
/// a hint hekla does not take).
pub fn read(hints: &[ast::QueryHint]) -> SqlResult<QueryHints> {
    let mut read = QueryHints::default();
    let mut join_hints: Option<(bool, bool)> = None;
    for hint in hints {
        let words: Vec<String> = hint
            .words
            .iter()
            .map(|w| w.value.to_ascii_uppercase())
            .collect();
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        match words.as_slice() {
            [method @ ("LOOP" | "HASH" | "MERGE"), "JOIN"] => {
                let (nested_loops, hash) = join_hints.get_or_insert((false, false));
                match *method {
                    "LOOP" => *nested_loops = true,
                    "HASH" => *hash = true,
                    // No merge join to allow.
                    _ => {}
                }
            }
            ["NO_PERFORMANCE_SPOOL"] => read.joins.spool = false,
            ["MAXRECURSION"] => read.max_recursion = Some(max_recursion(hint)?),
            ["RECOMPILE"] => read.recompile = true,
            ["FORCE", "ORDER"]
            | ["EXPAND", "VIEWS"]
            | ["MAXDOP"]
            | ["KEEP", "PLAN"]
            | ["KEEPFIXED", "PLAN"]
            | ["OPTIMIZE", "FOR"]
            | ["OPTIMIZE", "FOR", "UNKNOWN"]
            | ["USE", "HINT"]
            | ["MIN_GRANT_PERCENT"]
            | ["MAX_GRANT_PERCENT"]
            | ["QUERYTRACEON"] => {}
            _ => {
                return Err(not_supported_yet(
                    Refused::Statement,
                    format!("the query hint {}", words.join(" ")),
                ))
            }
        }
    }
    if let Some((nested_loops, hash)) = join_hints {
        read.joins.nested_loops = nested_loops;
        read.joins.hash = hash;
    }
    Ok(read)
}

fn max_recursion(hint: &ast::QueryHint) -> SqlResult<u32> {
    let limit = match &hint.value {
        Some(ast::Expr {
            kind: ast::ExprKind::Literal(ast::Literal::Integer(digits)),
            ..
        }) => digits.parse::<u32>().ok().filter(|n| *n <= 32_767),
        _ => None,
    };
    limit.ok_or_else(|| {
        SqlError::new(
            310,
            15,
            1,
            "The value for the MAXRECURSION option must be between 0 and 32767.",
        )
    })
}

/// Msg 8622: the hints leave a join no method hekla has.
pub fn no_plan() -> SqlError {
    SqlError::new(
        8622,
        16,
        1,
        "Query processor could not produce a query plan because of the hints defined in this query. Resubmit the query without specifying any hints and without using SET FORCEPLAN.",
    )
}
