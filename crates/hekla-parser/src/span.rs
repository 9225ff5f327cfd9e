//! Source positions. Every token and AST node carries the byte range it came
//! from and the line it starts on, so errors and tools can point at text.

use std::fmt;

/// A byte range `start..end` of the batch text, plus the 1-based line of
/// `start`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Span {
    pub start: u32,
    pub end: u32,
    pub line: u32,
}

impl Span {
    pub fn new(start: u32, end: u32, line: u32) -> Span {
        Span { start, end, line }
    }

    /// The smallest span covering `self` and `other` (`self` must come first).
    pub fn to(self, other: Span) -> Span {
        Span {
            start: self.start,
            end: other.end.max(self.end),
            line: self.line,
        }
    }

    /// The text this span covers.
    pub fn text(self, source: &str) -> &str {
        &source[self.start as usize..self.end as usize]
    }
}

/// Spans print as `@start..end` so tests can strip them from `Debug` output
/// when comparing two parses of different text (see [`crate::strip_spans`]).
impl fmt::Debug for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "@{}..{}", self.start, self.end)
    }
}
