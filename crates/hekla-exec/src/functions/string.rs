//! String functions. Positions and lengths count characters; a bounded
//! result is cut to its type's length as CAST would.

use super::digits::{Digits, DOUBLE_DIGITS};
use super::matching::Matcher;
use super::{fit, float, integer, sized, text};
use hekla_plan::bind::functions::StringFn;
use hekla_types::convert::convert_from;
use hekla_types::{DataType, Length, SqlError, SqlResult, Value};

/// The longest string a `max` type holds, in bytes.
const MAX_BYTES: u64 = i32::MAX as u64;

pub(super) fn evaluate(
    function: StringFn,
    args: &[Value],
    result_type: &DataType,
    memory: u64,
) -> SqlResult<Value> {
    use StringFn as F;
    let count = |index: usize| integer(&args[index]);
    Ok(match function {
        F::Len => sized(
            text(&args[0]).trim_end_matches(' ').chars().count() as i64,
            result_type,
        ),
        F::Upper => Value::String(text(&args[0]).to_uppercase()),
        F::Lower => Value::String(text(&args[0]).to_lowercase()),
        F::LTrim => Value::String(text(&args[0]).trim_start_matches(' ').to_string()),
        F::RTrim => Value::String(text(&args[0]).trim_end_matches(' ').to_string()),
        F::Trim => Value::String(text(&args[0]).trim_matches(' ').to_string()),
        F::Substring => {
            let length = count(2);
            if length < 0 {
                return Err(invalid_length(function));
            }
            // Characters start..start+length, 1-based, clipped to the text.
            let start = count(1);
            let first = start.max(1);
            let end = start.saturating_add(length);
            let taken = end.saturating_sub(first).max(0);
            Value::String(chars(text(&args[0]), first - 1, taken))
        }
        F::Left | F::Right => {
            let length = count(1);
            if length < 0 {
                return Err(invalid_length(function));
            }
            let value = text(&args[0]);
            let skip = if function == F::Left {
                0
            } else {
                (value.chars().count() as i64 - length).max(0)
            };
            Value::String(chars(value, skip, length))
        }
        F::Reverse => Value::String(text(&args[0]).chars().rev().collect()),
        F::CharIndex(collation) => {
            let needle: Vec<char> = text(&args[0]).chars().collect();
            let haystack: Vec<char> = text(&args[1]).chars().collect();
            let from = args
                .get(2)
                .map_or(0, |start| integer(start).saturating_sub(1).max(0));
            let found = usize::try_from(from)
                .ok()
                .and_then(|from| Matcher::new(collation).find(&haystack, &needle, from));
            sized(found.map_or(0, |at| at as i64 + 1), result_type)
        }
        F::PatIndex(collation) => {
            let at = Matcher::new(collation).pattern_index(text(&args[0]), text(&args[1]));
            sized(at as i64, result_type)
        }
        F::Replace(collation) => {
            let replaced = Matcher::new(collation)
                .replace(text(&args[0]), text(&args[1]), text(&args[2]), memory)
                .ok_or_else(hekla_engine::errors::insufficient_system_memory)?;
            fit(replaced, result_type)?
        }
        F::Replicate => {
            let times = count(1);
            if times < 0 {
                return Ok(Value::Null);
            }
            let unit = text(&args[0]);
            let times = match bounded_length(result_type) {
                // Enough copies to fill the type; `fit` cuts the rest.
                Some(limit) => (times as u64).min(limit / unit.chars().count().max(1) as u64 + 1),
                None if (unit.len() as u64).saturating_mul(times as u64) > MAX_BYTES => {
                    return Err(too_long("REPLICATE"));
                }
                None => times as u64,
            };
            let repeated = repeat(unit, times, memory)?;
            match bounded_length(result_type) {
                // Copies of a value of the result type need no conversion,
                // and a max type no cut: the value is kept, not copied
                // (fit's conversion held two more growing copies, 3x its
                // size at the peak).
                None => Value::String(repeated),
                Some(_) => fit(repeated, result_type)?,
            }
        }
        F::Stuff => return stuff(args, result_type, memory),
        F::Space => {
            let length = count(0);
            if length < 0 {
                return Ok(Value::Null);
            }
            let limit = bounded_length(result_type).unwrap_or(MAX_BYTES);
            Value::String(repeat(" ", (length as u64).min(limit), memory)?)
        }
        F::Char => match u8::try_from(count(0)) {
            Ok(byte) => convert_from(
                &Value::Binary(vec![byte]),
                &DataType::VarBinary {
                    len: Length::Bounded(1),
                },
                result_type,
                None,
            )?,
            Err(_) => Value::Null,
        },
        F::NChar => u32::try_from(count(0))
            .ok()
            .filter(|&code| code <= 0xFFFF)
            .and_then(char::from_u32)
            .map_or(Value::Null, |c| Value::String(c.to_string())),
        F::Ascii => match text(&args[0]).chars().next() {
            Some(first) => {
                let bytes = convert_from(
                    &Value::String(first.to_string()),
                    &DataType::VarChar {
                        len: Length::Max,
                        collation: Default::default(),
                    },
                    &DataType::VarBinary { len: Length::Max },
                    None,
                )?;
                match bytes {
                    Value::Binary(bytes) => Value::Int(i32::from(bytes[0])),
                    _ => Value::Null,
                }
            }
            None => Value::Null,
        },
        F::Unicode => match text(&args[0]).encode_utf16().next() {
            Some(unit) => Value::Int(i32::from(unit)),
            None => Value::Null,
        },
        F::QuoteName => quote_name(text(&args[0]), args.get(1).map(text)),
        F::Concat => {
            let parts = args.iter().filter(|a| !a.is_null()).map(text);
            within(parts.clone().map(str::len).sum(), memory)?;
            Value::String(parts.collect())
        }
        F::ConcatWs => {
            let separator = if args[0].is_null() {
                ""
            } else {
                text(&args[0])
            };
            let joined: Vec<&str> = args[1..]
                .iter()
                .filter(|a| !a.is_null())
                .map(text)
                .collect();
            let separators = separator.len() * joined.len().saturating_sub(1);
            within(
                joined.iter().map(|part| part.len()).sum::<usize>() + separators,
                memory,
            )?;
            Value::String(joined.join(separator))
        }
        F::Str => str_text(
            float(&args[0]),
            args.get(1).map(integer),
            args.get(2).map(integer),
        ),
        F::Format => super::format::format(args, result_type)?,
    })
}

/// `unit` `times` over, in memory asked for first, so that a huge result
/// is an error and not an abort: Msg 701 when it would take more than
/// `memory` bytes or the system refuses them.
fn repeat(unit: &str, times: u64, memory: u64) -> SqlResult<String> {
    let bytes = (unit.len() as u64).saturating_mul(times);
    let mut repeated = String::new();
    usize::try_from(bytes)
        .ok()
        .filter(|_| bytes <= memory)
        .and_then(|bytes| repeated.try_reserve_exact(bytes).ok())
        .ok_or_else(hekla_engine::errors::insufficient_system_memory)?;
    for _ in 0..times {
        repeated.push_str(unit);
    }
    Ok(repeated)
}

/// Msg 701 for a result of `bytes` when only `memory` may be taken.
fn within(bytes: usize, memory: u64) -> SqlResult<()> {
    if bytes as u64 > memory {
        return Err(hekla_engine::errors::insufficient_system_memory());
    }
    Ok(())
}

/// `count` characters of `text` from character `skip` (0-based).
fn chars(text: &str, skip: i64, count: i64) -> String {
    text.chars()
        .skip(usize::try_from(skip).unwrap_or(0))
        .take(usize::try_from(count).unwrap_or(0))
        .collect()
}

/// A bounded result type's length in characters (UTF-16 units for
/// nvarchar); None for `max`.
fn bounded_length(result_type: &DataType) -> Option<u64> {
    match result_type {
        DataType::VarChar {
            len: Length::Bounded(n),
            ..
        }
        | DataType::NVarChar {
            len: Length::Bounded(n),
            ..
        } => Some(u64::from(*n)),
        _ => None,
    }
}

/// `STUFF(text, start, length, replacement)`: NULL for a start outside
/// the text or a negative length; a NULL replacement only deletes.
fn stuff(args: &[Value], result_type: &DataType, memory: u64) -> SqlResult<Value> {
    if args[..3].iter().any(Value::is_null) {
        return Ok(Value::Null);
    }
    let replacement = if args[3].is_null() {
        0
    } else {
        text(&args[3]).len()
    };
    within(text(&args[0]).len() + replacement, memory)?;
    let value: Vec<char> = text(&args[0]).chars().collect();
    let (start, length) = (integer(&args[1]), integer(&args[2]));
    if start < 1 || start > value.len() as i64 || length < 0 {
        return Ok(Value::Null);
    }
    let start = (start - 1) as usize;
    let end = start.saturating_add(length as usize).min(value.len());
    let mut stuffed: String = value[..start].iter().collect();
    if !args[3].is_null() {
        stuffed.push_str(text(&args[3]));
    }
    stuffed.extend(&value[end..]);
    fit(stuffed, result_type)
}

/// `QUOTENAME(name [, quote])`: the name between the delimiters, the
/// closing one doubled inside; NULL past 128 characters or for a quote
/// character SQL Server does not pair.
fn quote_name(name: &str, quote: Option<&str>) -> Value {
    let quote = quote.unwrap_or("[");
    let mut quote_chars = quote.chars();
    let (Some(first), None) = (quote_chars.next(), quote_chars.next()) else {
        return Value::Null;
    };
    let (open, close) = match first {
        '[' | ']' => ('[', ']'),
        '(' | ')' => ('(', ')'),
        '<' | '>' => ('<', '>'),
        '{' | '}' => ('{', '}'),
        '\'' | '"' | '`' => (first, first),
        _ => return Value::Null,
    };
    if name.chars().count() > 128 {
        return Value::Null;
    }
    let mut quoted = String::with_capacity(name.len() + 2);
    quoted.push(open);
    for c in name.chars() {
        quoted.push(c);
        if c == close {
            quoted.push(close);
        }
    }
    quoted.push(close);
    Value::String(quoted)
}

/// `STR(value [, length [, decimals]])`: right-aligned in `length`
/// characters (10 by default) with `decimals` places (0 by default, at
/// most 16), fewer places when the number does not fit and `*`s when even
/// its integer part does not; NULL for a length outside 1..=8000 or
/// negative places.
fn str_text(value: f64, length: Option<i64>, decimals: Option<i64>) -> Value {
    let length = length.unwrap_or(10);
    let decimals = decimals.unwrap_or(0);
    if !(1..=8000).contains(&length) || decimals < 0 {
        return Value::Null;
    }
    let width = length as usize;
    let digits = Digits::from_float(value, DOUBLE_DIGITS);
    for places in (0..=decimals.min(16) as usize).rev() {
        let rounded = digits.rounded(places);
        let mut shown = String::new();
        if rounded.negative {
            shown.push('-');
        }
        let whole = rounded.whole_text();
        shown.push_str(if whole.is_empty() { "0" } else { &whole });
        if places > 0 {
            shown.push('.');
            shown.extend(rounded.fraction_digits(places));
        }
        if shown.len() <= width {
            return Value::String(format!("{shown:>width$}"));
        }
    }
    Value::String("*".repeat(width))
}

/// A length that turns negative as the query runs: Msg 537 for LEFT and
/// SUBSTRING (one message names both), Msg 536 for RIGHT. (A constant one
/// is the binder's Msg 536.)
fn invalid_length(function: StringFn) -> SqlError {
    if function == StringFn::Right {
        SqlError::new(
            536,
            16,
            2,
            "Invalid length parameter passed to the RIGHT function.",
        )
    } else {
        SqlError::new(
            537,
            16,
            2,
            "Invalid length parameter passed to the LEFT or SUBSTRING function.",
        )
    }
}

/// Msg 599: a `max` result past 2 GB.
fn too_long(function: &str) -> SqlError {
    SqlError::new(
        599,
        16,
        1,
        format!(
            "{function}: The length of the result exceeds the length limit (2GB) of the target large type."
        ),
    )
}
