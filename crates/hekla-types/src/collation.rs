//! String collations: SQL Server's default case-insensitive, accent-sensitive
//! collations and the binary `_BIN2` collation.
//!
//! Every collation ignores trailing spaces (SQL Server pads the shorter
//! string with spaces before comparing). We strip them and let a prefix sort
//! first, which matches padding except when the longer string continues
//! with a control character below U+0020. The two CI_AS collations behave
//! identically here: primary weights are base letters folded to lowercase,
//! secondary weights are accents (see the `fold` module). Punctuation is not
//! "ignorable" as in Windows word sort; it compares by code point.

mod fold;

use crate::key::escape;
use crate::KeyHasher;
use fold::Weights;
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

const ALL: [Collation; 3] = [
    Collation::SqlLatin1GeneralCp1CiAs,
    Collation::Latin1GeneralCiAs,
    Collation::Latin1GeneralBin2,
];

/// Strips the trailing spaces every collation ignores.
#[inline]
fn trim(s: &str) -> &str {
    s.trim_end_matches(' ')
}

impl Collation {
    pub fn name(self) -> &'static str {
        match self {
            Collation::SqlLatin1GeneralCp1CiAs => "SQL_Latin1_General_CP1_CI_AS",
            Collation::Latin1GeneralCiAs => "Latin1_General_CI_AS",
            Collation::Latin1GeneralBin2 => "Latin1_General_BIN2",
        }
    }

    /// Looks a collation up by name, case-insensitively.
    pub fn from_name(name: &str) -> Option<Collation> {
        ALL.into_iter()
            .find(|c| c.name().eq_ignore_ascii_case(name))
    }

    fn is_binary(self) -> bool {
        self == Collation::Latin1GeneralBin2
    }

    /// Equality: trailing spaces are ignored; CI_AS folds case but not accents.
    pub fn eq(self, a: &str, b: &str) -> bool {
        let (a, b) = (trim(a), trim(b));
        if self.is_binary() {
            a == b
        } else if a.is_ascii() && b.is_ascii() {
            a.eq_ignore_ascii_case(b)
        } else {
            Weights::new(a).eq(Weights::new(b))
        }
    }

    pub fn cmp(self, a: &str, b: &str) -> Ordering {
        let (a, b) = (trim(a), trim(b));
        if self.is_binary() {
            // UTF-8 byte order is code-point order.
            a.as_bytes().cmp(b.as_bytes())
        } else if a.is_ascii() && b.is_ascii() {
            let (a, b) = (a.as_bytes(), b.as_bytes());
            a.iter()
                .map(u8::to_ascii_lowercase)
                .cmp(b.iter().map(u8::to_ascii_lowercase))
        } else {
            let primaries = |s| Weights::new(s).map(|(p, _)| p);
            let secondaries = |s| Weights::new(s).map(|(_, s)| s);
            primaries(a)
                .cmp(primaries(b))
                .then_with(|| secondaries(a).cmp(secondaries(b)))
        }
    }

    /// Hashes `s` so that `eq(a, b)` implies equal hashes.
    pub fn hash(self, s: &str, h: &mut KeyHasher) {
        let s = trim(s);
        if self.is_binary() {
            h.write(s.as_bytes());
        } else if s.is_ascii() {
            hash_ascii_folded(s.as_bytes(), h);
        } else {
            hash_weights(s, h);
        }
    }

    /// Appends a byte string whose bytewise order is [`Collation::cmp`]'s
    /// order, equal exactly for strings [`Collation::eq`] calls equal, and
    /// self-delimiting (no sort key is a proper prefix of another), so that
    /// composite index keys can concatenate them.
    ///
    /// CI_AS keys are the escaped primary weights (as UTF-8), a terminator,
    /// then the escaped secondary weights with trailing zeros dropped and a
    /// terminator. Equal primaries mean equally many secondaries, so comparing
    /// the trimmed secondaries compares the full ones.
    pub fn append_sort_key(self, s: &str, out: &mut Vec<u8>) {
        let s = trim(s);
        if self.is_binary() {
            escape::append(s.as_bytes(), out);
            escape::terminate(out);
            return;
        }
        let mut utf8 = [0u8; 4];
        let mut significant = 0;
        for (i, (primary, secondary)) in Weights::new(s).enumerate() {
            escape::append(primary.encode_utf8(&mut utf8).as_bytes(), out);
            if secondary != 0 {
                significant = i + 1;
            }
        }
        escape::terminate(out);
        for (_, secondary) in Weights::new(s).take(significant) {
            escape::append(&[secondary], out);
        }
        escape::terminate(out);
    }
}

/// Lowercases the ASCII letters in eight ASCII bytes at once: a byte is
/// uppercase when adding 0x3F sets its high bit (>= 'A') and adding 0x25 does
/// not (< '['); no byte below 0x80 carries into its neighbour.
#[inline]
fn ascii_lowercase_word(word: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let at_least_a = word.wrapping_add(ONES * 0x3F);
    let past_z = word.wrapping_add(ONES * 0x25);
    let upper = (at_least_a ^ past_z) & (ONES * 0x80);
    word | (upper >> 2)
}

/// Exactly what `KeyHasher::write` does with the lowercased bytes, eight at
/// a time and without allocating.
fn hash_ascii_folded(bytes: &[u8], h: &mut KeyHasher) {
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        h.write_u64(ascii_lowercase_word(u64::from_le_bytes(word)));
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let mut word = [0u8; 8];
        word[..rest.len()].copy_from_slice(rest);
        h.write_u64(ascii_lowercase_word(u64::from_le_bytes(word)));
    }
    h.write_u64(bytes.len() as u64);
}

/// Hashes the primary weights as the UTF-8 byte stream `KeyHasher::write`
/// would see (so that ASCII strings hash as in [`hash_ascii_folded`]), then
/// each non-zero secondary weight with its position.
fn hash_weights(s: &str, h: &mut KeyHasher) {
    let mut word = 0u64;
    let mut filled = 0;
    let mut total = 0u64;
    let mut utf8 = [0u8; 4];
    for (primary, _) in Weights::new(s) {
        for &byte in primary.encode_utf8(&mut utf8).as_bytes() {
            word |= u64::from(byte) << (8 * filled);
            filled += 1;
            total += 1;
            if filled == 8 {
                h.write_u64(word);
                word = 0;
                filled = 0;
            }
        }
    }
    if filled > 0 {
        h.write_u64(word);
    }
    h.write_u64(total);
    for (i, (_, secondary)) in Weights::new(s).enumerate() {
        if secondary != 0 {
            h.write_u64(((i as u64) << 8) | u64::from(secondary));
        }
    }
}

#[cfg(test)]
mod tests;
