//! FORMAT for numbers: standard formats N, F, D and X, and custom
//! formats. Digits round half away from zero, as .NET Framework rounds.

use super::{literal, Formatted};
use crate::functions::digits::{Digits, DOUBLE_DIGITS, SINGLE_DIGITS};
use hekla_types::Value;

pub(super) fn format(value: &Value, pattern: &str) -> Formatted {
    let digits = match value {
        Value::Decimal(d) => Digits::from_decimal(*d),
        Value::Money(m) => Digits::from_money(*m),
        Value::Float(v) => Digits::from_float(*v, DOUBLE_DIGITS),
        Value::Real(v) => Digits::from_float(f64::from(*v), SINGLE_DIGITS),
        other => match other.as_i64() {
            Some(v) => Digits::from_integer(i128::from(v)),
            None => return Formatted::Unsupported,
        },
    };
    match standard(pattern) {
        Some((letter, precision)) => standard_format(value, &digits, letter, precision),
        // An empty format is the general format, G.
        None if pattern.is_empty() => Formatted::Unsupported,
        None => custom(&digits, pattern),
    }
}

/// A standard format: a letter and at most two digits of precision.
fn standard(pattern: &str) -> Option<(char, Option<usize>)> {
    let mut chars = pattern.chars();
    let letter = chars.next().filter(char::is_ascii_alphabetic)?;
    let precision = chars.as_str();
    if precision.len() > 2 || !precision.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((letter, precision.parse().ok()))
}

fn standard_format(
    value: &Value,
    digits: &Digits,
    letter: char,
    precision: Option<usize>,
) -> Formatted {
    let sign = |d: &Digits| if d.negative { "-" } else { "" };
    match letter.to_ascii_uppercase() {
        'N' | 'F' => {
            let places = precision.unwrap_or(2);
            let rounded = digits.rounded(places);
            let mut whole = rounded.whole_text();
            if whole.is_empty() {
                whole.push('0');
            }
            if letter.eq_ignore_ascii_case(&'N') {
                whole = grouped(&whole);
            }
            let mut text = format!("{}{whole}", sign(&rounded));
            if places > 0 {
                text.push('.');
                text.extend(rounded.fraction_digits(places));
            }
            Formatted::Text(text)
        }
        'D' => match value.as_i64() {
            Some(_) => {
                let mut whole = digits.whole_text();
                let width = precision.unwrap_or(1).max(1);
                if whole.len() < width {
                    whole.insert_str(0, &"0".repeat(width - whole.len()));
                }
                Formatted::Text(format!("{}{whole}", sign(digits)))
            }
            None => Formatted::Invalid,
        },
        'X' => {
            // Two's complement in the type's own width.
            let bits = match value {
                Value::TinyInt(v) => u64::from(*v),
                Value::SmallInt(v) => u64::from(*v as u16),
                Value::Int(v) => u64::from(*v as u32),
                Value::BigInt(v) => *v as u64,
                _ => return Formatted::Invalid,
            };
            let width = precision.unwrap_or(0);
            let hex = format!("{bits:0width$X}");
            Formatted::Text(if letter == 'x' {
                hex.to_ascii_lowercase()
            } else {
                hex
            })
        }
        'C' | 'E' | 'G' | 'P' | 'R' => Formatted::Unsupported,
        _ => Formatted::Invalid,
    }
}

/// Digits with a comma between each group of three.
fn grouped(whole: &str) -> String {
    let mut out = String::with_capacity(whole.len() + whole.len() / 3);
    for (i, c) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// One element of a custom numeric format.
#[derive(Clone, Debug, PartialEq)]
enum Item {
    /// `0`: a digit, zero if the number has none there.
    Zero,
    /// `#`: a digit if the number has one there.
    Hash,
    Point,
    Comma,
    Percent,
    Text(String),
}

impl Item {
    fn is_placeholder(&self) -> bool {
        matches!(self, Item::Zero | Item::Hash)
    }
}

/// A custom numeric format such as `#,##0.00`, `0000` or `(###) ###-####`.
fn custom(digits: &Digits, pattern: &str) -> Formatted {
    let items = match parse(pattern) {
        Ok(items) => items,
        Err(refused) => return refused,
    };
    let point = items.iter().position(|i| *i == Item::Point);
    let (whole_items, fraction_items) = match point {
        Some(at) => (&items[..at], &items[at + 1..]),
        None => (&items[..], &[][..]),
    };
    let Some(grouping) = grouping(whole_items) else {
        return Formatted::Unsupported;
    };
    let mut number = digits.clone();
    for _ in items.iter().filter(|i| **i == Item::Percent) {
        number = number.percent();
    }
    let places = fraction_items.iter().filter(|i| i.is_placeholder()).count();
    let rounded = number.rounded(places);

    let mut text = String::new();
    if rounded.negative {
        text.push('-');
    }
    let whole = whole_digits(&rounded, whole_items);
    if grouping {
        let mut written = false;
        for item in whole_items {
            match item {
                Item::Zero | Item::Hash if !written => {
                    text.push_str(&grouped(&whole));
                    written = true;
                }
                Item::Percent => text.push('%'),
                Item::Text(t) => text.push_str(t),
                _ => {}
            }
        }
    } else {
        fill(&mut text, &whole, whole_items);
        let placeholders = whole_items.iter().any(Item::is_placeholder);
        if !placeholders && (point.is_some() || places > 0) {
            text.push_str(&whole);
        }
    }
    let fraction = fraction_text(&rounded, fraction_items);
    if fraction.1 {
        text.push('.');
    }
    text.push_str(&fraction.0);
    Formatted::Text(text)
}

/// The integer digits to show: at least as many as there are
/// placeholders from the first `0` on.
fn whole_digits(rounded: &Digits, whole_items: &[Item]) -> String {
    let placeholders: Vec<&Item> = whole_items.iter().filter(|i| i.is_placeholder()).collect();
    let minimum = placeholders
        .iter()
        .position(|i| **i == Item::Zero)
        .map_or(0, |first| placeholders.len() - first);
    let whole = rounded.whole_text();
    format!("{whole:0>minimum$}")
}

/// Integer digits into their placeholders, right-aligned, literals kept
/// in place; the first placeholder takes the digits the format has no
/// room for.
fn fill(text: &mut String, whole: &str, whole_items: &[Item]) {
    let whole: Vec<char> = whole.chars().collect();
    let placeholders = whole_items.iter().filter(|i| i.is_placeholder()).count();
    let offset = whole.len() as isize - placeholders as isize;
    let mut slot = 0isize;
    for item in whole_items {
        match item {
            Item::Zero | Item::Hash => {
                if slot == 0 && offset > 0 {
                    text.extend(&whole[..offset as usize]);
                }
                if let Ok(index) = usize::try_from(slot + offset) {
                    text.push(whole[index]);
                }
                slot += 1;
            }
            Item::Percent => text.push('%'),
            Item::Text(t) => text.push_str(t),
            Item::Point | Item::Comma => {}
        }
    }
}

/// The fraction after the point, and whether it shows any digit (the
/// point is written only then): every `0`, and each `#` while
/// significant digits remain.
fn fraction_text(rounded: &Digits, fraction_items: &[Item]) -> (String, bool) {
    let placeholders: Vec<&Item> = fraction_items
        .iter()
        .filter(|i| i.is_placeholder())
        .collect();
    let forced = placeholders
        .iter()
        .rposition(|i| **i == Item::Zero)
        .map_or(0, |last| last + 1);
    let digits: Vec<char> = rounded
        .fraction_digits(forced.max(rounded.fraction.len()))
        .collect();
    let mut text = String::new();
    let mut next = 0;
    for item in fraction_items {
        match item {
            Item::Zero | Item::Hash => {
                if let Some(&digit) = digits.get(next) {
                    text.push(digit);
                }
                next += 1;
            }
            Item::Percent => text.push('%'),
            Item::Text(t) => text.push_str(t),
            Item::Point | Item::Comma => {}
        }
    }
    (text, !digits.is_empty())
}

/// The format's items. Err(Invalid) for what .NET rejects (an unclosed
/// quote), Err(Unsupported) for sections (`;`), exponents and per-mille.
fn parse(pattern: &str) -> Result<Vec<Item>, Formatted> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut items = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if let Some(literal) = literal(&chars, i) {
            if !literal.closed {
                return Err(Formatted::Invalid);
            }
            items.push(Item::Text(literal.text));
            i += literal.used;
            continue;
        }
        match chars[i] {
            '0' => items.push(Item::Zero),
            '#' => items.push(Item::Hash),
            // Only the first point counts.
            '.' if items.contains(&Item::Point) => {}
            '.' => items.push(Item::Point),
            ',' => items.push(Item::Comma),
            '%' => items.push(Item::Percent),
            ';' | '\u{2030}' => return Err(Formatted::Unsupported),
            'E' | 'e' if matches!(chars.get(i + 1), Some('0' | '+' | '-')) => {
                return Err(Formatted::Unsupported)
            }
            c => items.push(Item::Text(c.to_string())),
        }
        i += 1;
    }
    Ok(items)
}

/// Whether commas in the integer part group digits: true when a comma
/// sits between two placeholders; None for what hekla does not implement
/// (scaling commas after the last placeholder, stray commas before the
/// first, literals amid grouped digits).
fn grouping(whole_items: &[Item]) -> Option<bool> {
    let placeholders: Vec<usize> = whole_items
        .iter()
        .enumerate()
        .filter(|(_, i)| i.is_placeholder())
        .map(|(at, _)| at)
        .collect();
    let inside = |at: usize| {
        placeholders.first().is_some_and(|&first| first < at)
            && placeholders.last().is_some_and(|&last| at < last)
    };
    let mut grouping = false;
    let mut literal_inside = false;
    for (at, item) in whole_items.iter().enumerate() {
        match item {
            Item::Comma if inside(at) => grouping = true,
            Item::Comma => return None,
            Item::Text(_) | Item::Percent if inside(at) => literal_inside = true,
            _ => {}
        }
    }
    if grouping && literal_inside {
        return None;
    }
    Some(grouping)
}
