//! FORMAT for date, datetime, smalldatetime, datetime2 and
//! datetimeoffset: en-US standard formats and custom formats.

use super::{literal, Formatted};
use crate::functions::date::{Moment, DAY_NAMES, MONTH_NAMES};
use hekla_types::Value;

pub(super) fn format(value: &Value, pattern: &str) -> Formatted {
    let moment = Moment::of(value);
    let mut chars = pattern.chars();
    let custom_pattern = match (chars.next(), chars.next()) {
        (Some(letter), None) => match standard(letter) {
            Ok(expanded) => expanded,
            Err(refused) => return refused,
        },
        // An empty format is the general format, G.
        (None, _) => GENERAL,
        _ => pattern,
    };
    custom(&moment, custom_pattern)
}

/// The general format, G (also what an empty format means).
const GENERAL: &str = "M/d/yyyy h:mm:ss tt";

/// en-US's pattern for a standard format letter.
fn standard(letter: char) -> Result<&'static str, Formatted> {
    Ok(match letter {
        'd' => "M/d/yyyy",
        'D' => "dddd, MMMM d, yyyy",
        'f' => "dddd, MMMM d, yyyy h:mm tt",
        'F' => "dddd, MMMM d, yyyy h:mm:ss tt",
        'g' => "M/d/yyyy h:mm tt",
        'G' => GENERAL,
        'm' | 'M' => "MMMM d",
        's' => "yyyy'-'MM'-'dd'T'HH':'mm':'ss",
        't' => "h:mm tt",
        'T' => "h:mm:ss tt",
        'y' | 'Y' => "MMMM yyyy",
        'o' | 'O' | 'r' | 'R' | 'u' | 'U' => return Err(Formatted::Unsupported),
        _ => return Err(Formatted::Invalid),
    })
}

/// A custom date format: runs of a specifier letter (`yyyy`, `MM`,
/// `dddd`, `HH`, `fff` ...), literals, and any other character as itself.
fn custom(moment: &Moment, pattern: &str) -> Formatted {
    let chars: Vec<char> = pattern.chars().collect();
    let (year, month, day) = moment.date.ymd();
    let time = moment.time;
    let offset = i32::from(moment.offset_minutes.unwrap_or(0));
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        if let Some(literal) = literal(&chars, i) {
            if !literal.closed {
                return Formatted::Invalid;
            }
            out.push_str(&literal.text);
            i += literal.used;
            continue;
        }
        let c = chars[i];
        if c == '%' {
            // `%d` is the custom `d` alone; a lone or doubled % is not.
            if matches!(chars.get(i + 1), None | Some('%')) {
                return Formatted::Invalid;
            }
            i += 1;
            continue;
        }
        let run = chars[i..].iter().take_while(|&&x| x == c).count();
        let two = |v: u32| format!("{v:02}");
        let hour12 = match time.hour() % 12 {
            0 => 12,
            h => h,
        };
        let text = match c {
            'd' => match run {
                1 => day.to_string(),
                2 => two(day),
                3 => DAY_NAMES[moment.date.weekday() as usize][..3].to_string(),
                _ => DAY_NAMES[moment.date.weekday() as usize].to_string(),
            },
            'M' => match run {
                1 => month.to_string(),
                2 => two(month),
                3 => MONTH_NAMES[month as usize - 1][..3].to_string(),
                _ => MONTH_NAMES[month as usize - 1].to_string(),
            },
            'y' => match run {
                1 => (year % 100).to_string(),
                2 => two((year % 100) as u32),
                _ => format!("{year:0run$}"),
            },
            'h' if run == 1 => hour12.to_string(),
            'h' => two(hour12),
            'H' if run == 1 => time.hour().to_string(),
            'H' => two(time.hour()),
            'm' if run == 1 => time.minute().to_string(),
            'm' => two(time.minute()),
            's' if run == 1 => time.second().to_string(),
            's' => two(time.second()),
            'f' | 'F' if run > 7 => return Formatted::Invalid,
            'f' => format!("{:07}", time.fraction())[..run].to_string(),
            'F' => {
                let digits = format!("{:07}", time.fraction());
                let digits = digits[..run].trim_end_matches('0');
                if digits.is_empty() && out.ends_with('.') {
                    out.pop();
                }
                digits.to_string()
            }
            't' => {
                let meridiem = if time.hour() < 12 { "AM" } else { "PM" };
                meridiem[..run.min(2)].to_string()
            }
            'z' => {
                let sign = if offset < 0 { '-' } else { '+' };
                let (hours, minutes) = (offset.abs() / 60, offset.abs() % 60);
                match run {
                    1 => format!("{sign}{hours}"),
                    2 => format!("{sign}{hours:02}"),
                    _ => format!("{sign}{hours:02}:{minutes:02}"),
                }
            }
            'K' => match moment.offset_minutes {
                Some(_) => {
                    let sign = if offset < 0 { '-' } else { '+' };
                    format!("{sign}{:02}:{:02}", offset.abs() / 60, offset.abs() % 60)
                }
                None => String::new(),
            },
            'g' => "A.D.".to_string(),
            other => {
                out.push(other);
                i += 1;
                continue;
            }
        };
        out.push_str(&text);
        i += run;
    }
    Formatted::Text(out)
}
