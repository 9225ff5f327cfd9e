//! Collation precedence: which collation a string expression combining two
//! others has, or Msg 468.
//!
//! Each string expression carries a collation and a label saying how it got
//! it (SQL Server's "collation coercion rules"): a literal, variable or
//! parameter is coercible-default, a column reference implicit, an
//! expression with `COLLATE` explicit. Explicit beats implicit beats
//! coercible-default; two different explicit collations are an error; two
//! different implicit ones give a result with no collation, which only
//! collation-insensitive operations (CASE, UNION ALL) accept.

use crate::{Collation, SqlError, SqlResult};

/// How a string expression came by its collation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CollationLabel {
    /// Literals, variables, parameters, strings made by built-in functions
    /// from non-strings: the database default, yielding to anything else.
    CoercibleDefault,
    /// A column reference.
    Implicit,
    /// `expr COLLATE name`.
    Explicit,
    /// Two implicit collations met in a collation-insensitive operation.
    NoCollation,
}

/// Where two expressions meet, as SQL Server names it in Msg 402 ("in the
/// equal to operator") and Msg 468 ("in the equal to operation"), and
/// whether it needs a single collation to work.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Operation {
    pub name: &'static str,
    pub collation_sensitive: bool,
}

impl Operation {
    pub const EQUAL_TO: Operation = Operation::sensitive("equal to");
    pub const NOT_EQUAL_TO: Operation = Operation::sensitive("not equal to");
    pub const LESS_THAN: Operation = Operation::sensitive("less than");
    pub const GREATER_THAN: Operation = Operation::sensitive("greater than");
    pub const LESS_THAN_OR_EQUAL_TO: Operation = Operation::sensitive("less than or equal to");
    pub const GREATER_THAN_OR_EQUAL_TO: Operation =
        Operation::sensitive("greater than or equal to");
    pub const LIKE: Operation = Operation::sensitive("like");
    /// String concatenation is collation sensitive.
    pub const CONCATENATION: Operation = Operation::sensitive("add");
    pub const UNION: Operation = Operation::sensitive("UNION");
    pub const UNION_ALL: Operation = Operation::insensitive("UNION ALL");
    pub const CASE: Operation = Operation::insensitive("CASE");

    pub const fn sensitive(name: &'static str) -> Operation {
        Operation {
            name,
            collation_sensitive: true,
        }
    }

    pub const fn insensitive(name: &'static str) -> Operation {
        Operation {
            name,
            collation_sensitive: false,
        }
    }
}

/// Msg 468. SQL Server names the right operand's collation first: `a = b`
/// with `a` in X and `b` in Y reports "between "Y" and "X"".
fn conflict(left: Collation, right: Collation, operation: Operation) -> SqlError {
    SqlError::new(
        468,
        16,
        9,
        format!(
            "Cannot resolve the collation conflict between \"{}\" and \"{}\" in the {} operation.",
            right.name(),
            left.name(),
            operation.name
        ),
    )
}

/// The collation and label of an expression combining `left` and `right`
/// (both strings) under `operation`. A no-collation result keeps the left
/// collation as a placeholder; in a collation-sensitive operation it is
/// Msg 468 instead, as are two different explicit collations anywhere.
pub fn combine_collations(
    left: (Collation, CollationLabel),
    right: (Collation, CollationLabel),
    operation: Operation,
) -> SqlResult<(Collation, CollationLabel)> {
    use CollationLabel::*;
    let (a, la) = left;
    let (b, lb) = right;
    let no_collation = || {
        if operation.collation_sensitive {
            Err(conflict(a, b, operation))
        } else {
            Ok((a, NoCollation))
        }
    };
    match (la, lb) {
        (Explicit, Explicit) if a != b => Err(conflict(a, b, operation)),
        (Explicit, _) => Ok((a, Explicit)),
        (_, Explicit) => Ok((b, Explicit)),
        (NoCollation, _) | (_, NoCollation) => no_collation(),
        (Implicit, Implicit) if a != b => no_collation(),
        (Implicit, _) => Ok((a, Implicit)),
        (_, Implicit) => Ok((b, Implicit)),
        (CoercibleDefault, CoercibleDefault) => Ok((a, CoercibleDefault)),
    }
}
