//! Finding text in text under a collation (CHARINDEX, REPLACE) and
//! matching LIKE patterns (PATINDEX): `%` any run of characters, `_` one
//! character, `[abc]`, `[a-z]` and `[^...]` one character of (or not of)
//! a set.
//!
//! Under the case-insensitive collations characters compare with their
//! case folded and accents kept (`a` matches `A` but not `á`), under
//! `_BIN2` by code point. Unlike `=`, these searches count trailing
//! spaces.

use hekla_types::Collation;

#[derive(Clone, Copy)]
pub struct Matcher {
    fold_case: bool,
}

/// One element of a LIKE pattern.
#[derive(Debug, PartialEq)]
enum Token {
    AnyRun,
    AnyOne,
    Literal(char),
    Set {
        negated: bool,
        ranges: Vec<(char, char)>,
    },
}

impl Matcher {
    pub fn new(collation: Collation) -> Matcher {
        Matcher {
            fold_case: collation != Collation::Latin1GeneralBin2,
        }
    }

    fn same(self, a: char, b: char) -> bool {
        a == b || (self.fold_case && a.to_lowercase().eq(b.to_lowercase()))
    }

    /// The character a case-insensitive range compares.
    fn key(self, c: char) -> char {
        if self.fold_case {
            c.to_lowercase().next().unwrap_or(c)
        } else {
            c
        }
    }

    fn matches_at(self, text: &[char], at: usize, needle: &[char]) -> bool {
        text.len() - at >= needle.len()
            && text[at..at + needle.len()]
                .iter()
                .zip(needle)
                .all(|(&a, &b)| self.same(a, b))
    }

    /// The first position at or after `from` where `needle` occurs (never
    /// for an empty needle).
    pub fn find(self, text: &[char], needle: &[char], from: usize) -> Option<usize> {
        if needle.is_empty() || text.len() < needle.len() {
            return None;
        }
        (from..=text.len() - needle.len()).find(|&at| self.matches_at(text, at, needle))
    }

    /// Every occurrence of `find` in `text`, left to right and not
    /// overlapping, replaced by `with`; None when the result would take
    /// more than `memory` bytes.
    pub fn replace(self, text: &str, find: &str, with: &str, memory: u64) -> Option<String> {
        let text: Vec<char> = text.chars().collect();
        let find: Vec<char> = find.chars().collect();
        let mut out = String::with_capacity(text.len());
        let mut at = 0;
        while at < text.len() {
            if !find.is_empty() && self.matches_at(&text, at, &find) {
                if (out.len() + with.len()) as u64 > memory {
                    return None;
                }
                out.push_str(with);
                at += find.len();
            } else {
                out.push(text[at]);
                at += 1;
            }
        }
        Some(out)
    }

    /// `text LIKE pattern [ESCAPE escape]`: the pattern matches all of the
    /// text; after `escape`, a character stands for itself.
    pub fn like_match(self, text: &str, pattern: &str, escape: Option<char>) -> bool {
        let tokens = match escape {
            Some(escape) => tokenize_escaped(pattern, escape),
            None => tokenize(pattern),
        };
        let text: Vec<char> = text.chars().collect();
        self.like(&text, &tokens)
    }

    /// PATINDEX: the 1-based position where `pattern` first matches, 0 if
    /// nowhere. The pattern matches the whole rest of the text, so a
    /// pattern that does not start with `%` can only match at position 1
    /// and one that does not end with `%` must reach the end.
    pub fn pattern_index(self, pattern: &str, text: &str) -> usize {
        let mut tokens = tokenize(pattern);
        let floating = tokens.first() == Some(&Token::AnyRun);
        while tokens.first() == Some(&Token::AnyRun) {
            tokens.remove(0);
        }
        let text: Vec<char> = text.chars().collect();
        let last = if floating { text.len() } else { 0 };
        (0..=last)
            .find(|&start| self.like(&text[start..], &tokens))
            .map_or(0, |start| start + 1)
    }

    /// Whether `tokens` match all of `text`: the usual wildcard walk, going
    /// back to the last `%` when a character fails.
    fn like(self, text: &[char], tokens: &[Token]) -> bool {
        let (mut t, mut p) = (0, 0);
        let mut resume: Option<(usize, usize)> = None;
        while t < text.len() {
            match tokens.get(p) {
                Some(Token::AnyRun) => {
                    p += 1;
                    resume = Some((p, t));
                    continue;
                }
                Some(token) if self.accepts(token, text[t]) => {
                    p += 1;
                    t += 1;
                    continue;
                }
                _ => {}
            }
            match resume {
                Some((after, from)) => {
                    p = after;
                    t = from + 1;
                    resume = Some((after, from + 1));
                }
                None => return false,
            }
        }
        tokens[p..].iter().all(|token| *token == Token::AnyRun)
    }

    fn accepts(self, token: &Token, c: char) -> bool {
        match token {
            Token::AnyRun | Token::AnyOne => true,
            Token::Literal(l) => self.same(*l, c),
            Token::Set { negated, ranges } => {
                let key = self.key(c);
                let inside = ranges
                    .iter()
                    .any(|&(lo, hi)| (self.key(lo)..=self.key(hi)).contains(&key));
                inside != *negated
            }
        }
    }
}

/// The pattern's tokens. A `[` without its `]` is a literal.
fn tokenize(pattern: &str) -> Vec<Token> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let token = match chars[i] {
            '%' => Token::AnyRun,
            '_' => Token::AnyOne,
            '[' => match chars[i + 1..].iter().position(|&c| c == ']') {
                Some(length) => {
                    let set = &chars[i + 1..i + 1 + length];
                    i += length + 1;
                    set_token(set)
                }
                None => Token::Literal('['),
            },
            c => Token::Literal(c),
        };
        tokens.push(token);
        i += 1;
    }
    tokens
}

/// The tokens of a pattern with an ESCAPE character: the escape makes the
/// next character (`%`, `_`, `[` or itself) a literal.
fn tokenize_escaped(pattern: &str, escape: char) -> Vec<Token> {
    let mut tokens = Vec::new();
    let mut rest = pattern;
    while let Some(at) = rest.find(escape) {
        tokens.extend(tokenize(&rest[..at]));
        let after = &rest[at + escape.len_utf8()..];
        match after.chars().next() {
            Some(c) => {
                tokens.push(Token::Literal(c));
                rest = &after[c.len_utf8()..];
            }
            None => {
                tokens.push(Token::Literal(escape));
                rest = after;
            }
        }
    }
    tokens.extend(tokenize(rest));
    tokens
}

/// The inside of `[...]`: `^` first negates, `a-z` is a range.
fn set_token(set: &[char]) -> Token {
    let (negated, set) = match set.split_first() {
        Some(('^', rest)) => (true, rest),
        _ => (false, set),
    };
    let mut ranges = Vec::new();
    let mut i = 0;
    while i < set.len() {
        if i + 2 < set.len() && set[i + 1] == '-' {
            ranges.push((set[i], set[i + 2]));
            i += 3;
        } else {
            ranges.push((set[i], set[i]));
            i += 1;
        }
    }
    Token::Set { negated, ranges }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ci() -> Matcher {
        Matcher::new(Collation::default())
    }

    fn chars(s: &str) -> Vec<char> {
        s.chars().collect()
    }

    #[test]
    fn find_folds_case_but_not_accents() {
        assert_eq!(
            ci().find(&chars("Hello World"), &chars("WORLD"), 0),
            Some(6)
        );
        assert_eq!(ci().find(&chars("café"), &chars("CAFE"), 0), None);
        let bin = Matcher::new(Collation::Latin1GeneralBin2);
        assert_eq!(bin.find(&chars("Hello"), &chars("hello"), 0), None);
        assert_eq!(ci().find(&chars("abc"), &chars(""), 0), None);
        assert_eq!(ci().find(&chars("a b"), &chars(" "), 0), Some(1));
    }

    #[test]
    fn replace_is_left_to_right() {
        assert_eq!(ci().replace("aaaa", "AA", "b", 100).as_deref(), Some("bb"));
        assert_eq!(
            ci().replace("abcABC", "b", "-", 100).as_deref(),
            Some("a-cA-C")
        );
        assert_eq!(ci().replace("abc", "", "x", 100).as_deref(), Some("abc"));
        assert_eq!(ci().replace("aaaa", "a", "xyz", 11), None);
    }

    #[test]
    fn patterns() {
        let m = ci();
        assert_eq!(m.pattern_index("%ter%", "interesting"), 3);
        assert_eq!(m.pattern_index("%[0-9]%", "abc7d"), 4);
        assert_eq!(m.pattern_index("%[^a-z]%", "abc7d"), 4);
        assert_eq!(m.pattern_index("b%", "abc"), 0);
        assert_eq!(m.pattern_index("a%", "ABC"), 1);
        assert_eq!(m.pattern_index("%c", "abc"), 3);
        assert_eq!(m.pattern_index("%c", "abcd"), 0);
        assert_eq!(m.pattern_index("%a_c%", "xxabcx"), 3);
        assert_eq!(m.pattern_index("%b%c%", "abxbc"), 2);
        assert_eq!(m.pattern_index("%[%", "a[b"), 2);
    }
}
