//! String collations: SQL Server's default case-insensitive, accent-sensitive
//! collations and the binary `_BIN2` collation.

use crate::KeyHasher;
use std::cmp::Ordering;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Collation {
    /// `SQL_Latin1_General_CP1_CI_AS`, SQL Server's installation default.
    #[default]
    SqlLatin1GeneralCp1CiAs,
    /// `Latin1_General_CI_AS`.
    Latin1GeneralCiAs,
    /// `Latin1_General_BIN2`: code-point order.
    Latin1GeneralBin2,
}

impl Collation {
    pub fn name(self) -> &'static str {
        todo!()
    }
    /// Looks a collation up by name, case-insensitively.
    pub fn from_name(name: &str) -> Option<Collation> {
        todo!()
    }
    /// Equality: trailing spaces are ignored; CI_AS folds case but not accents.
    pub fn eq(self, a: &str, b: &str) -> bool {
        todo!()
    }
    pub fn cmp(self, a: &str, b: &str) -> Ordering {
        todo!()
    }
    /// Hashes `s` so that `eq(a, b)` implies equal hashes.
    pub fn hash(self, s: &str, h: &mut KeyHasher) {
        todo!()
    }
}
