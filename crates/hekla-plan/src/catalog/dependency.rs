//! Schema binding: which objects an object created `WITH SCHEMABINDING`
//! (or natively compiled) depends on. While such a dependency exists, the
//! referenced object can be neither dropped nor altered (Msg 3729), nor
//! can the columns the module reads (Msg 5074, [`reads_column`]), as in
//! SQL Server.
//!
//! The record is general (referencing object id to referenced object
//! ids): views, functions and procedures share it. It is not stored: it
//! is rebuilt when the referencing objects are bound again after an open.

use hekla_parser::lexer::{Token, TokenKind};
use hekla_types::SqlError;
use std::collections::BTreeMap;

#[derive(Debug, Default)]
pub struct Bindings {
    /// Each schema-bound object's id, with the ids it references.
    references: BTreeMap<i32, Vec<i32>>,
}

impl Bindings {
    /// Records what `referencing` is bound to, replacing what it was bound
    /// to before; an empty list removes the record.
    pub fn set(&mut self, referencing: i32, mut referenced: Vec<i32>) {
        referenced.sort_unstable();
        referenced.dedup();
        referenced.retain(|&id| id != referencing);
        if referenced.is_empty() {
            self.references.remove(&referencing);
        } else {
            self.references.insert(referencing, referenced);
        }
    }

    /// Forgets `referencing` (it was dropped).
    pub fn remove(&mut self, referencing: i32) {
        self.references.remove(&referencing);
    }

    /// What `referencing` is bound to.
    pub fn references(&self, referencing: i32) -> &[i32] {
        self.references.get(&referencing).map_or(&[], Vec::as_slice)
    }

    /// The first (lowest id) object bound to `referenced`, if any.
    pub fn first_referencing(&self, referenced: i32) -> Option<i32> {
        self.referencing(referenced).next()
    }

    /// The objects bound to `referenced`, lowest id first.
    pub fn referencing(&self, referenced: i32) -> impl Iterator<Item = i32> + '_ {
        self.references
            .iter()
            .filter(move |(_, ids)| ids.binary_search(&referenced).is_ok())
            .map(|(&id, _)| id)
    }
}

/// The identifier `token` of `text` spells, if it is one: a word that is
/// not reserved, or a quoted name without its quotes.
pub fn identifier<'t>(token: &Token, text: &'t str) -> Option<&'t str> {
    let written = token.span.text(text);
    match token.kind {
        TokenKind::Word if !token.reserved => Some(written),
        TokenKind::QuotedIdent => written.get(1..written.len() - 1),
        _ => None,
    }
}

/// Whether a schema-bound module whose definition is `definition` reads
/// `column` of the table `schema.table`, so that the column can be
/// neither dropped nor altered (Msg 5074): the module names the column,
/// or reads every column (a `*` select list; an INSERT into the table
/// without a column list). Read from the tokens, as the objects a module
/// is bound to are ([`super::procedure::bound_objects`]): a word spelled
/// as the column counts wherever it stands, so a column that shares its
/// name with another table's, an alias or a keyword is held too —
/// stricter than SQL Server's binding, never looser.
pub fn reads_column(definition: &str, schema: &str, table: &str, column: &str) -> bool {
    let Ok(tokens) = hekla_parser::lexer::tokenize(definition) else {
        return true;
    };
    let names = |token: &Token, name: &str| {
        identifier(token, definition).is_some_and(|written| written.eq_ignore_ascii_case(name))
    };
    let is_keyword = |token: &Token, keyword: &str| {
        token.kind == TokenKind::Word && token.span.text(definition).eq_ignore_ascii_case(keyword)
    };
    tokens.iter().enumerate().any(|(index, token)| {
        let next = |ahead: usize| tokens.get(index + ahead);
        if names(token, column) {
            return true;
        }
        if token.kind == TokenKind::Star {
            // `*` followed by FROM, INTO or a comma is a select list's;
            // `COUNT(*)` and `a * b` are not.
            return next(1).is_some_and(|after| {
                after.kind == TokenKind::Comma
                    || is_keyword(after, "FROM")
                    || is_keyword(after, "INTO")
            });
        }
        if !is_keyword(token, "INSERT") {
            return false;
        }
        let skip = usize::from(next(1).is_some_and(|t| is_keyword(t, "INTO")));
        next(skip + 1).is_some_and(|t| names(t, schema))
            && next(skip + 2).is_some_and(|t| t.kind == TokenKind::Dot)
            && next(skip + 3).is_some_and(|t| names(t, table))
            && next(skip + 4).is_none_or(|t| t.kind != TokenKind::LParen)
    })
}

/// Msg 3729: `action` (`DROP TABLE`, `DROP VIEW`, `ALTER`) of `written`
/// is refused because `referencing` is bound to it.
pub fn still_referenced(action: &str, written: &str, referencing: &str) -> SqlError {
    SqlError::new(
        3729,
        16,
        1,
        format!(
            "Cannot {action} '{written}' because it is being referenced by object '{referencing}'."
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_replace_and_go() {
        let mut bindings = Bindings::default();
        bindings.set(10, vec![3, 1, 3, 10]);
        bindings.set(11, vec![3]);
        assert_eq!(bindings.references(10), &[1, 3]);
        assert_eq!(bindings.first_referencing(3), Some(10));
        assert_eq!(bindings.first_referencing(1), Some(10));
        assert_eq!(bindings.first_referencing(10), None);
        bindings.set(10, vec![1]);
        assert_eq!(bindings.first_referencing(3), Some(11));
        bindings.remove(11);
        assert_eq!(bindings.first_referencing(3), None);
        bindings.set(10, Vec::new());
        assert_eq!(bindings.first_referencing(1), None);
        assert!(bindings.references(10).is_empty());
    }

    #[test]
    fn all_that_reference_an_object() {
        let mut bindings = Bindings::default();
        bindings.set(12, vec![3]);
        bindings.set(10, vec![3, 4]);
        bindings.set(11, vec![4]);
        assert_eq!(bindings.referencing(3).collect::<Vec<_>>(), [10, 12]);
        assert_eq!(bindings.referencing(4).collect::<Vec<_>>(), [10, 11]);
        assert_eq!(bindings.referencing(5).count(), 0);
    }

    #[test]
    fn a_module_reads_the_columns_it_names() {
        let text = "CREATE PROCEDURE dbo.p AS SELECT [v], COUNT(*) * 2 FROM dbo.t WHERE id = @w";
        let reads = |column| reads_column(text, "dbo", "t", column);
        assert!(reads("id"));
        assert!(reads("V"));
        assert!(!reads("w"), "a variable is not a column");
        assert!(!reads("other"));
    }

    #[test]
    fn a_module_reads_every_column_through_a_star_or_a_bare_insert() {
        let reads = |text, column| reads_column(text, "dbo", "t", column);
        assert!(reads("SELECT * FROM dbo.t", "c"));
        assert!(reads("SELECT t.*, 1 FROM dbo.t", "c"));
        assert!(reads("INSERT INTO dbo.t VALUES (1)", "c"));
        assert!(reads("INSERT dbo.[t] SELECT 1", "c"));
        assert!(!reads("INSERT INTO dbo.t (a) VALUES (1)", "c"));
        assert!(!reads("INSERT INTO dbo.u VALUES (1)", "c"));
        assert!(!reads("SELECT COUNT(*) FROM dbo.t", "c"));
    }
}
