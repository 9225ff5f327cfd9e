//! Schema binding: which objects an object created `WITH SCHEMABINDING`
//! depends on. While such a dependency exists, the referenced object can
//! be neither dropped nor altered (Msg 3729), as in SQL Server.
//!
//! The record is general (referencing object id to referenced object
//! ids), so views, and later procedures and functions, share it. It is
//! not stored: it is rebuilt when the referencing objects are bound again
//! after an open.

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
        self.references
            .iter()
            .find(|(_, ids)| ids.binary_search(&referenced).is_ok())
            .map(|(&id, _)| id)
    }
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
}
