//! `FORMAT(value, format [, culture])`: .NET Framework's format strings,
//! which SQL Server runs FORMAT through, under the en-US culture.
//!
//! What is implemented: for numbers the standard formats N, F, D and X
//! with an optional precision and custom formats of `0`, `#`, `.`, `,`
//! (grouping), `%`, quoted and escaped literals; for dates the standard
//! formats d, D, f, F, g, G, m, s, t, T and y and custom formats of the
//! usual specifiers (yyyy, MM, MMMM, dd, dddd, HH, hh, mm, ss, fff, tt,
//! zzz ...). A format .NET rejects gives NULL, as in SQL Server; a format
//! or culture hekla does not implement (currency, exponent, sections,
//! time values, cultures other than en-US) is an error rather than a
//! guess.

mod date;
mod number;

use super::{fit, text};
use hekla_types::{DataType, SqlError, SqlResult, Value};

/// What formatting gives.
enum Formatted {
    Text(String),
    /// .NET throws FormatException: SQL Server's FORMAT answers NULL.
    Invalid,
    /// Valid in .NET, not implemented here.
    Unsupported,
}

pub(super) fn format(args: &[Value], result_type: &DataType) -> SqlResult<Value> {
    if args[0].is_null() || args[1].is_null() {
        return Ok(Value::Null);
    }
    let pattern = text(&args[1]);
    if let Some(culture) = args.get(2).filter(|c| !c.is_null()).map(text) {
        if !culture.eq_ignore_ascii_case("en-US") {
            return Err(not_supported(&format!("culture '{culture}'")));
        }
    }
    let formatted = match &args[0] {
        Value::Date(_)
        | Value::DateTime(_)
        | Value::SmallDateTime(_)
        | Value::DateTime2(_)
        | Value::DateTimeOffset(_) => date::format(&args[0], pattern),
        Value::Time(_) => Formatted::Unsupported,
        value => number::format(value, pattern),
    };
    match formatted {
        Formatted::Text(text) => fit(text, result_type),
        Formatted::Invalid => Ok(Value::Null),
        Formatted::Unsupported => Err(not_supported(&format!(
            "format '{pattern}' for {}",
            args[0].type_name()
        ))),
    }
}

/// Msg 10794 naming what FORMAT does not do yet.
fn not_supported(what: &str) -> SqlError {
    SqlError::new(
        10794,
        16,
        1,
        format!("FORMAT with {what} is not supported by hekla yet."),
    )
}

/// Literal text in a custom format.
struct Literal {
    text: String,
    /// Characters of the format it takes.
    used: usize,
    /// False for a quote that never closes (FormatException in .NET).
    closed: bool,
}

/// The literal starting at `at`, if one does: `'...'` and `"..."` quote,
/// `\` escapes one character.
fn literal(chars: &[char], at: usize) -> Option<Literal> {
    match chars[at] {
        '\\' => Some(Literal {
            text: chars.get(at + 1).map(char::to_string).unwrap_or_default(),
            used: 2,
            closed: at + 1 < chars.len(),
        }),
        quote @ ('\'' | '"') => {
            let text: String = chars[at + 1..]
                .iter()
                .take_while(|&&c| c != quote)
                .collect();
            let length = text.chars().count();
            let closed = at + 1 + length < chars.len();
            Some(Literal {
                text,
                used: length + 1 + usize::from(closed),
                closed,
            })
        }
        _ => None,
    }
}
