//! hekla's T-SQL front end: text in, syntax trees or SQL Server-style syntax
//! errors out. It knows nothing of catalogs, types or execution (it depends
//! on no other hekla crate); `hekla-sql` binds and runs what it produces.
//!
//! - [`lexer`] turns a batch into tokens, dropping comments;
//! - [`keywords`] lists SQL Server's reserved keywords;
//! - [`parser`] builds the [`ast`] by recursive descent ([`parse_batch`]);
//! - [`span`] locates every node in the batch's text;
//! - [`error`] holds [`SyntaxError`], numbered and worded as SQL Server's;
//! - [`print`](mod@print) turns a tree back into T-SQL that parses to the same tree;
//! - [`script`] splits a script into batches on `GO` lines.

pub mod ast;
pub mod error;
pub mod keywords;
pub mod lexer;
pub mod parser;
pub mod print;
pub mod script;
pub mod span;

pub use error::SyntaxError;
pub use parser::parse_batch;
pub use span::Span;

/// `Debug` output of a tree with every span removed, so that trees parsed
/// from differently formatted text can be compared.
pub fn strip_spans(debug: &str) -> String {
    let bytes = debug.as_bytes();
    let mut out = String::with_capacity(debug.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'@' {
            if let Some(length) = span_length(&bytes[i + 1..]) {
                i += 1 + length;
                continue;
            }
        }
        let ch = debug[i..]
            .chars()
            .next()
            .expect("index is on a char boundary");
        out.push(ch);
        i += ch.len_utf8();
    }
    out
}

/// Length of `digits..digits` at the start of `bytes`, if there is one.
fn span_length(bytes: &[u8]) -> Option<usize> {
    let first = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
    if first == 0 || !bytes[first..].starts_with(b"..") {
        return None;
    }
    let second = bytes[first + 2..]
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .count();
    (second > 0).then_some(first + 2 + second)
}
