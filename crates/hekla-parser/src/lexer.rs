//! The T-SQL lexer: batch text to tokens. Comments and whitespace vanish;
//! every token keeps its span so the parser can read its text and report
//! lines. The lexer decides nothing about keywords: a keyword is a `Word`
//! the parser recognises (see [`crate::keywords`]).

use crate::error::SyntaxError;
use crate::keywords::is_reserved;
use crate::span::Span;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenKind {
    /// An unquoted identifier or keyword, including `#temp` names.
    Word,
    /// `[name]` or `"name"`.
    QuotedIdent,
    /// `@name` or `@@name`.
    Variable,
    /// `'text'`.
    String,
    /// `N'text'`.
    NString,
    Integer,
    Decimal,
    Float,
    /// `$1.50`.
    Money,
    /// `0x0A1B`.
    Binary,
    LParen,
    RParen,
    Comma,
    Dot,
    Semicolon,
    Colon,
    DoubleColon,
    Plus,
    Minus,
    Star,
    Slash,
    Percent,
    Amp,
    Pipe,
    Caret,
    Tilde,
    Eq,
    /// `<>` or `!=`.
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    /// `!<`
    NotLt,
    /// `!>`
    NotGt,
    PlusEq,
    MinusEq,
    StarEq,
    SlashEq,
    PercentEq,
    AmpEq,
    PipeEq,
    CaretEq,
    /// End of the batch; always the last token.
    Eof,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    pub kind: TokenKind,
    pub span: Span,
    /// A `Word` that is a reserved keyword (looked up once, here).
    pub reserved: bool,
}

/// Splits `source` into tokens ending with one `Eof`.
pub fn tokenize(source: &str) -> Result<Vec<Token>, SyntaxError> {
    let mut lexer = Lexer {
        text: source.as_bytes(),
        source,
        pos: 0,
        token_start: 0,
        line: 1,
        tokens: Vec::with_capacity(source.len() / 4 + 1),
    };
    lexer.run()?;
    Ok(lexer.tokens)
}

struct Lexer<'a> {
    text: &'a [u8],
    source: &'a str,
    pos: usize,
    /// Where the token being lexed starts.
    token_start: usize,
    line: u32,
    tokens: Vec<Token>,
}

/// True if `name` lexes as one `Word`: an unquoted identifier, or a
/// `$name` pseudo-column such as `$action`.
pub(crate) fn is_bare_identifier(name: &str) -> bool {
    let body = match name.strip_prefix('$') {
        Some(rest) if rest.starts_with(char::is_alphabetic) => rest,
        Some(_) => return false,
        None => name,
    };
    let mut chars = body.chars();
    chars
        .next()
        .is_some_and(|c| is_identifier_start(c) || name.starts_with('$'))
        && chars.all(is_identifier_part)
}

/// Characters that may begin an unquoted name.
fn is_identifier_start(c: char) -> bool {
    c.is_alphabetic() || c == '_' || c == '#'
}

/// Characters that may continue an unquoted name.
fn is_identifier_part(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '#' | '@' | '$')
}

impl Lexer<'_> {
    fn peek(&self, ahead: usize) -> u8 {
        self.text.get(self.pos + ahead).copied().unwrap_or(0)
    }

    fn char_at(&self, pos: usize) -> Option<char> {
        self.source.get(pos..).and_then(|rest| rest.chars().next())
    }

    fn run(&mut self) -> Result<(), SyntaxError> {
        loop {
            self.skip_trivia()?;
            let start = self.pos;
            self.token_start = start;
            let line = self.line;
            if start >= self.text.len() {
                self.tokens.push(Token {
                    kind: TokenKind::Eof,
                    span: Span::new(start as u32, start as u32, line),
                    reserved: false,
                });
                return Ok(());
            }
            let kind = self.token()?;
            let reserved = kind == TokenKind::Word && is_reserved(&self.source[start..self.pos]);
            self.tokens.push(Token {
                kind,
                span: Span::new(start as u32, self.pos as u32, line),
                reserved,
            });
        }
    }

    fn skip_trivia(&mut self) -> Result<(), SyntaxError> {
        loop {
            match self.peek(0) {
                b'\n' => {
                    self.line += 1;
                    self.pos += 1;
                }
                b' ' | b'\t' | b'\r' | 0x0b | 0x0c => self.pos += 1,
                b'-' if self.peek(1) == b'-' => {
                    while self.pos < self.text.len() && self.text[self.pos] != b'\n' {
                        self.pos += 1;
                    }
                }
                b'/' if self.peek(1) == b'*' => self.block_comment()?,
                c if c >= 0x80 => match self.char_at(self.pos) {
                    Some(ch) if ch.is_whitespace() => self.pos += ch.len_utf8(),
                    _ => return Ok(()),
                },
                _ => return Ok(()),
            }
        }
    }

    /// `/* ... */`, nested as SQL Server nests them.
    fn block_comment(&mut self) -> Result<(), SyntaxError> {
        let start_line = self.line;
        let mut depth = 0usize;
        while self.pos < self.text.len() {
            match (self.peek(0), self.peek(1)) {
                (b'/', b'*') => {
                    depth += 1;
                    self.pos += 2;
                }
                (b'*', b'/') => {
                    depth -= 1;
                    self.pos += 2;
                    if depth == 0 {
                        return Ok(());
                    }
                }
                (b'\n', _) => {
                    self.line += 1;
                    self.pos += 1;
                }
                _ => self.pos += 1,
            }
        }
        Err(SyntaxError::missing_end_comment(start_line))
    }

    fn token(&mut self) -> Result<TokenKind, SyntaxError> {
        use TokenKind::*;
        let c = self.peek(0);
        let next = self.peek(1);
        let (kind, length) = match c {
            b'\'' => return self.quoted(b'\'', String),
            b'[' => return self.quoted(b']', QuotedIdent),
            b'"' => return self.quoted(b'"', QuotedIdent),
            b'N' | b'n' if next == b'\'' => {
                self.pos += 1;
                self.quoted(b'\'', NString)?;
                return Ok(NString);
            }
            b'0' if next == b'x' || next == b'X' => {
                self.pos += 2;
                while self.peek(0).is_ascii_hexdigit() {
                    self.pos += 1;
                }
                return Ok(Binary);
            }
            b'0'..=b'9' => return Ok(self.number()),
            b'.' if next.is_ascii_digit() => return Ok(self.number()),
            b'$' if next.is_ascii_digit() || (next == b'.' && self.peek(2).is_ascii_digit()) => {
                self.pos += 1;
                self.number();
                return Ok(Money);
            }
            b'@' => return self.variable(),
            b'(' => (LParen, 1),
            b')' => (RParen, 1),
            b',' => (Comma, 1),
            b'.' => (Dot, 1),
            b';' => (Semicolon, 1),
            b':' if next == b':' => (DoubleColon, 2),
            b':' => (Colon, 1),
            b'+' if next == b'=' => (PlusEq, 2),
            b'-' if next == b'=' => (MinusEq, 2),
            b'*' if next == b'=' => (StarEq, 2),
            b'/' if next == b'=' => (SlashEq, 2),
            b'%' if next == b'=' => (PercentEq, 2),
            b'&' if next == b'=' => (AmpEq, 2),
            b'|' if next == b'=' => (PipeEq, 2),
            b'^' if next == b'=' => (CaretEq, 2),
            b'+' => (Plus, 1),
            b'-' => (Minus, 1),
            b'*' => (Star, 1),
            b'/' => (Slash, 1),
            b'%' => (Percent, 1),
            b'&' => (Amp, 1),
            b'|' => (Pipe, 1),
            b'^' => (Caret, 1),
            b'~' => (Tilde, 1),
            b'=' => (Eq, 1),
            b'<' if next == b'>' => (Ne, 2),
            b'<' if next == b'=' => (Le, 2),
            b'<' => (Lt, 1),
            b'>' if next == b'=' => (Ge, 2),
            b'>' => (Gt, 1),
            b'!' if next == b'=' => (Ne, 2),
            b'!' if next == b'<' => (NotLt, 2),
            b'!' if next == b'>' => (NotGt, 2),
            _ => {
                let ch = self.char_at(self.pos).unwrap_or('\u{fffd}');
                let pseudo_column =
                    ch == '$' && self.char_at(self.pos + 1).is_some_and(char::is_alphabetic);
                if is_identifier_start(ch) || pseudo_column {
                    self.pos += ch.len_utf8();
                    self.identifier_rest();
                    return self.checked_word(Word);
                }
                return Err(SyntaxError::near(&ch.to_string(), self.line));
            }
        };
        self.pos += length;
        Ok(kind)
    }

    fn identifier_rest(&mut self) {
        while self.pos < self.text.len() {
            let c = self.text[self.pos];
            if c.is_ascii_alphanumeric() || matches!(c, b'_' | b'#' | b'@' | b'$') {
                self.pos += 1;
            } else if c >= 0x80 {
                match self.char_at(self.pos) {
                    Some(ch) if is_identifier_part(ch) => self.pos += ch.len_utf8(),
                    _ => return,
                }
            } else {
                return;
            }
        }
    }

    fn checked_word(&mut self, kind: TokenKind) -> Result<TokenKind, SyntaxError> {
        let word = &self.source[self.token_start..self.pos];
        if word.chars().count() > crate::error::MAX_IDENTIFIER_LENGTH {
            return Err(SyntaxError::identifier_too_long(word, self.line));
        }
        Ok(kind)
    }

    fn variable(&mut self) -> Result<TokenKind, SyntaxError> {
        self.pos += 1;
        if self.peek(0) == b'@' {
            self.pos += 1;
        }
        let body = self.pos;
        self.identifier_rest();
        if self.pos == body {
            return Err(SyntaxError::near("@", self.line));
        }
        self.checked_word(TokenKind::Variable)
    }

    /// Digits, an optional fraction and an optional exponent.
    fn number(&mut self) -> TokenKind {
        let mut kind = TokenKind::Integer;
        while self.peek(0).is_ascii_digit() {
            self.pos += 1;
        }
        if self.peek(0) == b'.' {
            kind = TokenKind::Decimal;
            self.pos += 1;
            while self.peek(0).is_ascii_digit() {
                self.pos += 1;
            }
        }
        if matches!(self.peek(0), b'e' | b'E') {
            let sign = usize::from(matches!(self.peek(1), b'+' | b'-'));
            if self.peek(1 + sign).is_ascii_digit() {
                self.pos += 1 + sign;
                while self.peek(0).is_ascii_digit() {
                    self.pos += 1;
                }
                kind = TokenKind::Float;
            }
        }
        kind
    }

    /// A string or quoted identifier closed by `close`, where a doubled
    /// `close` stands for itself.
    fn quoted(&mut self, close: u8, kind: TokenKind) -> Result<TokenKind, SyntaxError> {
        let start_line = self.line;
        self.pos += 1;
        let content_start = self.pos;
        while self.pos < self.text.len() {
            let c = self.text[self.pos];
            if c == close {
                if self.peek(1) == close {
                    self.pos += 2;
                    continue;
                }
                self.pos += 1;
                if kind == TokenKind::QuotedIdent {
                    let inner = &self.source[content_start..self.pos - 1];
                    if inner.is_empty() {
                        return Err(SyntaxError::empty_name(start_line));
                    }
                    // The limit is on the name, where a doubled `close`
                    // is one character.
                    let doubled = if close == b']' { "]]" } else { "\"\"" };
                    let escapes = inner.matches(doubled).count();
                    let length = inner.chars().count() - escapes;
                    if length > crate::error::MAX_IDENTIFIER_LENGTH {
                        return Err(SyntaxError::identifier_too_long(inner, start_line));
                    }
                }
                return Ok(kind);
            }
            if c == b'\n' {
                self.line += 1;
            }
            self.pos += 1;
        }
        let content = self.source[content_start..].trim_end();
        Err(SyntaxError::unclosed_quote(content, start_line))
    }
}

/// The text a string token stands for: quotes removed, `''` undoubled.
pub fn string_value(token_text: &str) -> String {
    let body = token_text
        .strip_prefix(['N', 'n'])
        .unwrap_or(token_text)
        .trim_start_matches('\'');
    let body = &body[..body.len().saturating_sub(1)];
    body.replace("''", "'")
}

/// The name a quoted identifier stands for: brackets or quotes removed,
/// `]]` / `""` undoubled.
pub fn quoted_ident_value(token_text: &str) -> String {
    let inner = &token_text[1..token_text.len() - 1];
    if token_text.starts_with('[') {
        inner.replace("]]", "]")
    } else {
        inner.replace("\"\"", "\"")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use TokenKind::*;

    fn kinds(text: &str) -> Vec<TokenKind> {
        tokenize(text).unwrap().iter().map(|t| t.kind).collect()
    }

    #[test]
    fn literals_and_names() {
        assert_eq!(
            kinds("N'a''b' 'x' 0x0A 0x $1.50 12 1.5 .5 1. 1e10 2E-3 @v @@rowcount #t ##g [a]]b] \"q\""),
            vec![
                NString, String, Binary, Binary, Money, Integer, Decimal, Decimal, Decimal, Float,
                Float, Variable, Variable, Word, Word, QuotedIdent, QuotedIdent, Eof
            ]
        );
        assert_eq!(string_value("N'a''b'"), "a'b");
        assert_eq!(quoted_ident_value("[a]]b]"), "a]b");
        assert_eq!(quoted_ident_value("\"q\"\"\""), "q\"");
    }

    #[test]
    fn operators() {
        assert_eq!(
            kinds("<> != !< !> <= >= += -= *= /= %= &= |= ^= :: a.b"),
            vec![
                Ne,
                Ne,
                NotLt,
                NotGt,
                Le,
                Ge,
                PlusEq,
                MinusEq,
                StarEq,
                SlashEq,
                PercentEq,
                AmpEq,
                PipeEq,
                CaretEq,
                DoubleColon,
                Word,
                Dot,
                Word,
                Eof
            ]
        );
    }

    #[test]
    fn comments_nest_and_lines_count() {
        let tokens = tokenize("/* a /* b */ c */ x -- y\n\n z").unwrap();
        assert_eq!(tokens.len(), 3);
        assert_eq!(tokens[0].span.line, 1);
        assert_eq!(tokens[1].span.line, 3);
    }

    #[test]
    fn errors() {
        let error = tokenize("select 'abc").unwrap_err();
        assert_eq!(
            (error.number, error.message.as_str()),
            (
                105,
                "Unclosed quotation mark after the character string 'abc'."
            )
        );
        assert_eq!(tokenize("x /* /* */").unwrap_err().number, 113);
        assert_eq!(tokenize("[abc").unwrap_err().number, 105);
        assert_eq!(tokenize("select []").unwrap_err().number, 1038);
        assert_eq!(tokenize("select \"\"").unwrap_err().number, 1038);
        assert_eq!(tokenize(&"a".repeat(129)).unwrap_err().number, 103);
        assert_eq!(tokenize("a ? b").unwrap_err().number, 102);
    }
}
