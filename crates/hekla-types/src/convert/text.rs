//! Conversions to char, varchar, nchar and nvarchar.
//!
//! Every value has a default text (CONVERT style 0, or 121 for date, time,
//! datetime2 and datetimeoffset), which is then fitted to the target: cut
//! to its length, padded with blanks for char(n) and nchar(n), and for
//! char and varchar limited to Windows-1252 (the code page of every
//! collation hekla has), other characters becoming `?`.
//!
//! Numbers are not cut: an integer too wide for char or varchar becomes
//! `*`; every other number too wide for its target is an error (Msg 8115,
//! Msg 232 for float and real into char and varchar, Msg 234 for money).

use super::errors::{self, string_name};
use super::temporal;
use crate::{DataType, Length, Money, SqlResult, Value};

/// Windows-1252 bytes 0x80..=0x9F. The five bytes the code page leaves
/// undefined map to the C1 controls of the same number, as Windows does.
const CP1252_HIGH: [char; 32] = [
    '\u{20AC}', '\u{81}', '\u{201A}', '\u{192}', '\u{201E}', '\u{2026}', '\u{2020}', '\u{2021}',
    '\u{2C6}', '\u{2030}', '\u{160}', '\u{2039}', '\u{152}', '\u{8D}', '\u{17D}', '\u{8F}',
    '\u{90}', '\u{2018}', '\u{2019}', '\u{201C}', '\u{201D}', '\u{2022}', '\u{2013}', '\u{2014}',
    '\u{2DC}', '\u{2122}', '\u{161}', '\u{203A}', '\u{153}', '\u{9D}', '\u{17E}', '\u{178}',
];

/// The Windows-1252 byte of a character, if it has one.
pub fn cp1252_byte(c: char) -> Option<u8> {
    let code = u32::from(c);
    if code < 0x80 || (0xA0..=0xFF).contains(&code) {
        return Some(code as u8);
    }
    CP1252_HIGH
        .iter()
        .position(|&h| h == c)
        .map(|i| 0x80 + i as u8)
}

/// The character of a Windows-1252 byte.
pub fn cp1252_char(byte: u8) -> char {
    match byte {
        0x80..=0x9F => CP1252_HIGH[usize::from(byte - 0x80)],
        _ => char::from(byte),
    }
}

/// Whether the target is nchar or nvarchar.
fn unicode(target: &DataType) -> bool {
    matches!(target, DataType::NChar { .. } | DataType::NVarChar { .. })
}

/// The target's length in characters (UTF-16 code units for nchar and
/// nvarchar), None for `max`.
fn limit(target: &DataType) -> Option<usize> {
    match *target {
        DataType::Char { len, .. } | DataType::NChar { len, .. } => Some(len as usize),
        DataType::VarChar {
            len: Length::Bounded(n),
            ..
        }
        | DataType::NVarChar {
            len: Length::Bounded(n),
            ..
        } => Some(n as usize),
        _ => None,
    }
}

/// Length as the target counts it (the text is already in its repertoire).
fn units(text: &str, target: &DataType) -> usize {
    if text.is_ascii() {
        text.len()
    } else if unicode(target) {
        text.chars().map(char::len_utf16).sum()
    } else {
        text.chars().count()
    }
}

fn fits(text: &str, target: &DataType) -> bool {
    limit(target).is_none_or(|n| units(text, target) <= n)
}

/// Fits text to a character type: Windows-1252 for char and varchar, cut
/// to the length (never inside a surrogate pair), padded for char(n) and
/// nchar(n).
pub(super) fn fit(text: &str, target: &DataType) -> String {
    let wide = unicode(target);
    let mut out: String = if wide || text.is_ascii() {
        text.to_string()
    } else {
        text.chars()
            .map(|c| if cp1252_byte(c).is_some() { c } else { '?' })
            .collect()
    };
    if let Some(limit) = limit(target) {
        let mut used = 0;
        let mut end = out.len();
        for (i, c) in out.char_indices() {
            let width = if wide { c.len_utf16() } else { 1 };
            if used + width > limit {
                end = i;
                break;
            }
            used += width;
        }
        out.truncate(end);
        if matches!(target, DataType::Char { .. } | DataType::NChar { .. }) {
            out.extend(std::iter::repeat_n(' ', limit - used));
        }
    }
    out
}

pub(super) fn convert(
    value: &Value,
    source: &DataType,
    target: &DataType,
    style: Option<i32>,
) -> SqlResult<Value> {
    let wide = unicode(target);
    let family = string_name(target);
    let text = match value {
        Value::String(s) => s.clone(),
        Value::Binary(b) => binary_text(b, wide, style.unwrap_or(0)),
        Value::Bit(b) => u8::from(*b).to_string(),
        Value::Decimal(d) => {
            let text = d.to_string();
            if !fits(&text, target) {
                return Err(if wide {
                    errors::overflow("expression", family, 2)
                } else {
                    errors::overflow("numeric", family, 5)
                });
            }
            text
        }
        Value::Money(m) => {
            let text = money_text(*m, style.unwrap_or(0));
            if !fits(&text, target) {
                return Err(errors::money_text_space(family));
            }
            text
        }
        Value::Float(v) => float_checked(*v, false, style, target)?,
        Value::Real(v) => float_checked(f64::from(*v), true, style, target)?,
        Value::UniqueIdentifier(u) => {
            let text = u.to_string();
            if !fits(&text, target) {
                return Err(if wide {
                    errors::overflow("expression", family, 2)
                } else {
                    errors::uniqueidentifier_space()
                });
            }
            text
        }
        Value::Date(_)
        | Value::Time(_)
        | Value::DateTime(_)
        | Value::DateTime2(_)
        | Value::SmallDateTime(_)
        | Value::DateTimeOffset(_) => {
            let text = temporal::text(value, source, style, family)?;
            // SQL Server refuses to cut a datetimeoffset, reading the
            // shortened text back as a date and failing.
            if matches!(value, Value::DateTimeOffset(_)) && !fits(&text, target) {
                return Err(crate::SqlError::date_conversion());
            }
            text
        }
        Value::Null => return Ok(Value::Null),
        _ => {
            let Some(v) = value.as_i64() else {
                return Err(crate::SqlError::type_clash(
                    value.type_name(),
                    &target.sql_name(),
                ));
            };
            let text = v.to_string();
            if !fits(&text, target) {
                let small = matches!(
                    source,
                    DataType::TinyInt | DataType::SmallInt | DataType::Int
                );
                if small && !wide {
                    return Ok(Value::String(fit("*", target)));
                }
                return Err(errors::overflow("expression", family, 2));
            }
            text
        }
    };
    Ok(Value::String(fit(&text, target)))
}

/// A float's text, or the error for a target too short for it: Msg 232
/// (naming the value) into char and varchar, Msg 8115 into nchar and
/// nvarchar.
fn float_checked(v: f64, real: bool, style: Option<i32>, target: &DataType) -> SqlResult<String> {
    let text = float_text(v, real, style.unwrap_or(0))?;
    if fits(&text, target) {
        Ok(text)
    } else if unicode(target) {
        Err(errors::overflow("expression", string_name(target), 2))
    } else {
        Err(errors::float_overflow(string_name(target), v, 2))
    }
}

/// Binary to text. Style 0 reads the bytes as characters (Windows-1252
/// for char and varchar, UTF-16LE for nchar and nvarchar, an odd last byte
/// taken as the low half of a character); style 1 is `0x` and uppercase
/// hex, style 2 the hex alone.
fn binary_text(bytes: &[u8], wide: bool, style: i32) -> String {
    match style {
        1 | 2 => {
            let mut text = String::with_capacity(2 + 2 * bytes.len());
            if style == 1 {
                text.push_str("0x");
            }
            for b in bytes {
                text.push_str(&format!("{b:02X}"));
            }
            text
        }
        _ if wide => {
            let units: Vec<u16> = bytes
                .chunks(2)
                .map(|pair| u16::from(pair[0]) | (u16::from(*pair.get(1).unwrap_or(&0)) << 8))
                .collect();
            String::from_utf16_lossy(&units)
        }
        _ => bytes.iter().map(|&b| cp1252_char(b)).collect(),
    }
}

/// The bytes of text as a string type stores them: UTF-16LE for nchar and
/// nvarchar, Windows-1252 (`?` for what it lacks) for char and varchar.
pub(super) fn text_bytes(text: &str, source: &DataType) -> Vec<u8> {
    if unicode(source) {
        text.encode_utf16().flat_map(u16::to_le_bytes).collect()
    } else {
        text.chars()
            .map(|c| cp1252_byte(c).unwrap_or(b'?'))
            .collect()
    }
}

/// money as CONVERT shows it: style 0 two decimals, 1 two decimals and
/// thousands separators, 2 and 126 four decimals; other styles are 0.
/// Rounding is half away from zero.
pub(super) fn money_text(m: Money, style: i32) -> String {
    if matches!(style, 2 | 126) {
        return m.to_string();
    }
    let cents = crate::decimal::div_round(i128::from(m.0), 100);
    let sign = if cents < 0 { "-" } else { "" };
    let magnitude = cents.unsigned_abs();
    let mut whole = (magnitude / 100).to_string();
    if style == 1 {
        // Groups of three from the right: the first group takes the rest.
        let first = match whole.len() % 3 {
            0 => 3,
            n => n,
        };
        let mut grouped = whole[..first].to_string();
        for group in whole.as_bytes()[first..].chunks(3) {
            grouped.push(',');
            grouped.push_str(std::str::from_utf8(group).unwrap_or_default());
        }
        whole = grouped;
    }
    format!("{sign}{whole}.{:02}", magnitude % 100)
}

/// float and real as CONVERT shows them: style 0 at most 6 significant
/// digits, scientific only when needed (C's `%g`); 1, 2 and 3 always
/// scientific with 8, 16 and 17 digits; 126 scientific with 16 digits for
/// float and 8 for real. Exponents have a sign and three digits
/// (`1e+010`). Other styles are 0; 128 and 129 hekla does not have.
pub(super) fn float_text(v: f64, real: bool, style: i32) -> SqlResult<String> {
    Ok(match style {
        1 => scientific(v, 8),
        2 => scientific(v, 16),
        3 => scientific(v, 17),
        126 => scientific(v, if real { 8 } else { 16 }),
        128 | 129 => {
            return Err(errors::not_supported(&format!(
                "CONVERT style {style} for float"
            )))
        }
        _ => general(v, 6),
    })
}

/// `(negative, digits, exponent)` of `v` rounded to `significant` digits.
fn decompose(v: f64, significant: usize) -> (bool, String, i32) {
    let formatted = format!("{:.*e}", significant - 1, v.abs());
    let (mantissa, exponent) = formatted.split_once('e').unwrap_or((&formatted, "0"));
    let digits = mantissa.replace('.', "");
    (v.is_sign_negative(), digits, exponent.parse().unwrap_or(0))
}

fn exponent_text(exponent: i32) -> String {
    let sign = if exponent < 0 { '-' } else { '+' };
    format!("e{sign}{:03}", exponent.unsigned_abs())
}

/// `%.{n-1}e` with a three-digit exponent.
fn scientific(v: f64, significant: usize) -> String {
    let (negative, digits, exponent) = decompose(v, significant);
    let sign = if negative { "-" } else { "" };
    let (first, rest) = digits.split_at(1);
    let point = if rest.is_empty() { "" } else { "." };
    format!("{sign}{first}{point}{rest}{}", exponent_text(exponent))
}

/// `%.{n}g` with a three-digit exponent: fixed notation for exponents from
/// -4 to n-1, scientific otherwise, trailing zeros dropped.
fn general(v: f64, significant: usize) -> String {
    let (negative, digits, exponent) = decompose(v, significant);
    let sign = if negative { "-" } else { "" };
    let digits = digits.trim_end_matches('0');
    let digits = if digits.is_empty() { "0" } else { digits };
    if v == 0.0 {
        return format!("{sign}0");
    }
    if exponent < -4 || exponent >= significant as i32 {
        let (first, rest) = digits.split_at(1);
        let point = if rest.is_empty() { "" } else { "." };
        return format!("{sign}{first}{point}{rest}{}", exponent_text(exponent));
    }
    if exponent < 0 {
        let zeros = "0".repeat(exponent.unsigned_abs() as usize - 1);
        return format!("{sign}0.{zeros}{digits}");
    }
    let whole_len = exponent as usize + 1;
    if digits.len() <= whole_len {
        let zeros = "0".repeat(whole_len - digits.len());
        format!("{sign}{digits}{zeros}")
    } else {
        let (whole, fraction) = digits.split_at(whole_len);
        format!("{sign}{whole}.{fraction}")
    }
}
