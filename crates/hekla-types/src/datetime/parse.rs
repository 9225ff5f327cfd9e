//! Date and time literals, in the unambiguous forms SQL Server accepts
//! whatever its DATEFORMAT setting:
//!
//! - dates `yyyy-mm-dd` (also with `/` or `.`) and `yyyymmdd`;
//! - times `hh:mm`, `hh:mm:ss` and `hh:mm:ss.fffffff` (1 to 7 digits);
//! - a date and a time separated by spaces or `T`;
//! - a trailing offset `+hh:mm`, `-hh:mm` or `Z` (datetimeoffset).
//!
//! A missing date is 1900-01-01 and a missing time midnight, as in SQL
//! Server.
//!
//! `CAST` and `CONVERT` read more: given a [`DateFormat`] (the session's
//! SET DATEFORMAT or the order a CONVERT style implies), the
//! [`Grammar::Full`] grammar also takes numeric dates such as `1/31/2024`
//! or `31.01.24` (two-digit years with SQL Server's 2049 cutoff),
//! unseparated `yymmdd` and `yyyy`, English month names (`Jan 31 2024`,
//! `31 January, 2024`), AM/PM times (`4:05PM`, `4 PM`), milliseconds after
//! a colon (`12:34:56:789`) and a time before the date.
//!
//! datetime and smalldatetime keep a quirk of SQL Server's: under a
//! DATEFORMAT with the day before the month (dmy, dym, ydm), a separated
//! `yyyy-mm-dd` not followed by `T` is read year, day, month.

use super::{Date, DateTime, DateTime2, DateTimeOffset, SmallDateTime, Time, MAX_FRACTION_SCALE};
use crate::SqlError;
use std::str::FromStr;

/// datetime and smalldatetime literals allow milliseconds at most.
const MAX_DATETIME_FRACTION_DIGITS: usize = 3;

/// SET DATEFORMAT: the order of the three numbers of a numeric date
/// (`1/2/2024`). us_english reads month, day, year.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DateFormat {
    #[default]
    Mdy,
    Dmy,
    Ymd,
    Ydm,
    Myd,
    Dym,
}

impl DateFormat {
    pub const ALL: [DateFormat; 6] = [
        DateFormat::Mdy,
        DateFormat::Dmy,
        DateFormat::Ymd,
        DateFormat::Ydm,
        DateFormat::Myd,
        DateFormat::Dym,
    ];

    /// `mdy`, `dmy` ... as SET DATEFORMAT takes them (any case).
    pub fn parse(text: &str) -> Option<DateFormat> {
        DateFormat::ALL
            .into_iter()
            .find(|format| format.name().eq_ignore_ascii_case(text))
    }

    /// The name sys.dm_exec_sessions shows: `mdy`, `dmy` ...
    pub fn name(self) -> &'static str {
        match self {
            DateFormat::Mdy => "mdy",
            DateFormat::Dmy => "dmy",
            DateFormat::Ymd => "ymd",
            DateFormat::Ydm => "ydm",
            DateFormat::Myd => "myd",
            DateFormat::Dym => "dym",
        }
    }

    fn day_before_month(self) -> bool {
        matches!(self, DateFormat::Dmy | DateFormat::Dym | DateFormat::Ydm)
    }

    /// The year, month and day among a numeric date's three numbers.
    fn arrange(self, [a, b, c]: [&str; 3]) -> [&str; 3] {
        match self {
            DateFormat::Mdy => [c, a, b],
            DateFormat::Dmy => [c, b, a],
            DateFormat::Ymd => [a, b, c],
            DateFormat::Ydm => [a, c, b],
            DateFormat::Myd => [b, a, c],
            DateFormat::Dym => [b, c, a],
        }
    }
}

/// Which literals to accept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Grammar {
    /// The unambiguous ISO forms only (what `FromStr` reads).
    Iso,
    /// Every form CAST and CONVERT read, numeric dates in this order.
    Full(DateFormat),
}

/// Two-digit years up to this are 20yy, later ones 19yy (SQL Server's
/// default "two digit year cutoff" of 2049).
const TWO_DIGIT_YEAR_CUTOFF: u32 = 49;

/// Why a literal was rejected: bad syntax (Msg 241 for every type), or a
/// well-formed date that does not exist (Msg 241, but Msg 242 for datetime
/// and smalldatetime).
#[derive(Debug)]
enum Invalid {
    Syntax,
    NoSuchDate,
}

/// A parsed literal before it is fitted to a type.
#[derive(Debug, Default)]
struct Literal {
    date: Option<Date>,
    time: Option<Time>,
    fraction_digits: usize,
    offset_minutes: Option<i16>,
}

impl Literal {
    fn datetime2(&self) -> DateTime2 {
        DateTime2 {
            date: self.date.unwrap_or(Date::DEFAULT),
            time: self.time.unwrap_or(Time(0)),
        }
    }
}

struct Cursor<'a> {
    text: &'a [u8],
    pos: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.get(self.pos).copied()
    }

    fn eat(&mut self, byte: u8) -> bool {
        let found = self.peek() == Some(byte);
        self.pos += usize::from(found);
        found
    }

    fn skip_spaces(&mut self) -> bool {
        let start = self.pos;
        while self.peek().is_some_and(|b| b.is_ascii_whitespace()) {
            self.pos += 1;
        }
        self.pos > start
    }

    fn digit_run(&self) -> usize {
        self.text[self.pos..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count()
    }

    /// A number of `min..=max` digits, and how many there were.
    fn number(&mut self, min: usize, max: usize) -> Result<(u32, usize), Invalid> {
        let len = self.digit_run();
        if len < min || len > max {
            return Err(Invalid::Syntax);
        }
        let digits = &self.text[self.pos..self.pos + len];
        self.pos += len;
        let value = digits
            .iter()
            .fold(0u32, |v, d| v * 10 + u32::from(d - b'0'));
        Ok((value, len))
    }
}

/// How numeric dates are read for one target type.
#[derive(Clone, Copy, Debug)]
struct DateOrder {
    format: DateFormat,
    /// For datetime or smalldatetime, which keep SQL Server's older rules.
    legacy: bool,
}

impl DateOrder {
    /// A separated `yyyy-mm-dd` (no `T` after it) is year, day, month.
    fn year_day_month(self) -> bool {
        self.legacy && self.format.day_before_month()
    }

    /// The year, month and day of a numeric date. A four-digit first
    /// number is the year; date, datetime2 and datetimeoffset do not take
    /// ydm and read it as ymd.
    fn arrange(self, parts: [&str; 3]) -> [&str; 3] {
        let [a, b, c] = parts;
        if a.len() == 4 {
            return if self.year_day_month() {
                [a, c, b]
            } else {
                [a, b, c]
            };
        }
        match self.format {
            DateFormat::Ydm if !self.legacy => DateFormat::Ymd.arrange(parts),
            format => format.arrange(parts),
        }
    }
}

/// Reads `text`; `legacy` for datetime and smalldatetime.
fn parse_literal(text: &str, grammar: Grammar, legacy: bool) -> Result<Literal, Invalid> {
    let order = match grammar {
        Grammar::Full(format) => Some(DateOrder { format, legacy }),
        Grammar::Iso => None,
    };
    match (parse_iso(text, order), order) {
        (Err(Invalid::Syntax), Some(order)) => parse_general(text, order),
        (result, _) => result,
    }
}

fn parse_iso(text: &str, order: Option<DateOrder>) -> Result<Literal, Invalid> {
    let mut c = Cursor {
        text: text.as_bytes(),
        pos: 0,
    };
    let mut literal = Literal::default();
    c.skip_spaces();
    let run = c.digit_run();
    let date_follows =
        run == 8 || (run == 4 && matches!(c.text.get(c.pos + 4), Some(b'-' | b'/' | b'.')));
    if date_follows {
        let (year, first, second, separated) = date_numbers(&mut c)?;
        let iso_8601 = c.eat(b'T');
        let swapped = separated && !iso_8601 && order.is_some_and(DateOrder::year_day_month);
        literal.date = Some(if swapped {
            Date::from_ymd(year as i32, second, first).ok_or(Invalid::NoSuchDate)?
        } else {
            checked_date(year, first, second)?
        });
        if iso_8601 || (c.skip_spaces() && c.peek().is_some_and(|b| b.is_ascii_digit())) {
            parse_time(&mut c, &mut literal)?;
        }
    } else if run > 0 {
        parse_time(&mut c, &mut literal)?;
    } else {
        return Err(Invalid::Syntax);
    }
    c.skip_spaces();
    if c.peek().is_some() {
        literal.offset_minutes = Some(parse_offset(&mut c)?);
        c.skip_spaces();
    }
    if c.peek().is_some() {
        return Err(Invalid::Syntax);
    }
    Ok(literal)
}

/// `yyyymmdd` or `yyyy-mm-dd` (any one separator): the year and the two
/// numbers after it, and whether they were separated.
fn date_numbers(c: &mut Cursor) -> Result<(u32, u32, u32, bool), Invalid> {
    if c.digit_run() == 8 {
        let (ymd, _) = c.number(8, 8)?;
        return Ok((ymd / 10_000, ymd / 100 % 100, ymd % 100, false));
    }
    let (year, _) = c.number(4, 4)?;
    let separator = c.peek().ok_or(Invalid::Syntax)?;
    c.pos += 1;
    let (month, _) = c.number(1, 2)?;
    if !c.eat(separator) {
        return Err(Invalid::Syntax);
    }
    let (day, _) = c.number(1, 2)?;
    Ok((year, month, day, true))
}

/// An ISO date: a month outside 1 to 12, day 0 or year 0 is bad syntax,
/// a day past the month's end a date that does not exist.
fn checked_date(year: u32, month: u32, day: u32) -> Result<Date, Invalid> {
    if !(1..=12).contains(&month) || day == 0 || year == 0 {
        return Err(Invalid::Syntax);
    }
    Date::from_ymd(year as i32, month, day).ok_or(Invalid::NoSuchDate)
}

fn parse_time(c: &mut Cursor, literal: &mut Literal) -> Result<(), Invalid> {
    let (hour, _) = c.number(1, 2)?;
    if !c.eat(b':') {
        return Err(Invalid::Syntax);
    }
    let (minute, _) = c.number(2, 2)?;
    let mut second = 0;
    let mut fraction = 0;
    if c.eat(b':') {
        second = c.number(2, 2)?.0;
        if c.eat(b'.') {
            let (digits, len) = c.number(1, usize::from(MAX_FRACTION_SCALE))?;
            literal.fraction_digits = len;
            fraction = digits * 10u32.pow(u32::from(MAX_FRACTION_SCALE) - len as u32);
        }
    }
    literal.time = Some(Time::from_hms(hour, minute, second, fraction).ok_or(Invalid::Syntax)?);
    Ok(())
}

fn parse_offset(c: &mut Cursor) -> Result<i16, Invalid> {
    if c.eat(b'Z') {
        return Ok(0);
    }
    let sign = match c.peek() {
        Some(b'+') => 1,
        Some(b'-') => -1,
        _ => return Err(Invalid::Syntax),
    };
    c.pos += 1;
    let (hours, _) = c.number(2, 2)?;
    if !c.eat(b':') {
        return Err(Invalid::Syntax);
    }
    let (minutes, _) = c.number(2, 2)?;
    let total = (hours * 60 + minutes) as i16;
    if minutes >= 60 || total > DateTimeOffset::MAX_OFFSET_MINUTES {
        return Err(Invalid::Syntax);
    }
    Ok(sign * total)
}

/// English month names: a name is its first three letters or more of its
/// spelling (`Sep`, `Sept`, `September`).
const MONTH_NAMES: [&str; 12] = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];

fn month_number(word: &str) -> Option<u32> {
    if word.len() < 3 {
        return None;
    }
    let word = word.to_ascii_lowercase();
    MONTH_NAMES
        .iter()
        .position(|name| name.starts_with(&word))
        .map(|i| i as u32 + 1)
}

/// `Some(true)` for PM, `Some(false)` for AM.
fn meridiem(word: &str) -> Option<bool> {
    if word.eq_ignore_ascii_case("am") {
        Some(false)
    } else if word.eq_ignore_ascii_case("pm") {
        Some(true)
    } else {
        None
    }
}

fn all_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

fn digits_value(s: &str) -> u32 {
    s.bytes().fold(0u32, |v, d| {
        v.saturating_mul(10).saturating_add(u32::from(d - b'0'))
    })
}

/// A year written with two or four digits; two digits follow the cutoff.
fn year_of(digits: &str) -> Result<i32, Invalid> {
    let value = digits_value(digits);
    match digits.len() {
        4 => Ok(value as i32),
        2 if value <= TWO_DIGIT_YEAR_CUTOFF => Ok(2000 + value as i32),
        2 => Ok(1900 + value as i32),
        _ => Err(Invalid::Syntax),
    }
}

/// A well-formed date that may not exist (Msg 242 for datetime).
fn make_date(year: i32, month: &str, day: &str) -> Result<Date, Invalid> {
    if !(1..=2).contains(&month.len()) || !(1..=2).contains(&day.len()) {
        return Err(Invalid::Syntax);
    }
    Date::from_ymd(year, digits_value(month), digits_value(day)).ok_or(Invalid::NoSuchDate)
}

/// `a/b/c`, `a-b-c` or `a.b.c`, in `order`.
fn numeric_date(text: &str, order: DateOrder) -> Result<Date, Invalid> {
    let parts: Vec<&str> = text.split(['/', '-', '.']).collect();
    let [a, b, c] = parts[..] else {
        return Err(Invalid::Syntax);
    };
    if !parts.iter().all(|p| all_digits(p)) {
        return Err(Invalid::Syntax);
    }
    let [year, month, day] = order.arrange([a, b, c]);
    make_date(year_of(year)?, month, day)
}

/// `h:mm[:ss[.fffffff|:mmm]]`, then an optional AM or PM. Returns the time
/// and the number of fractional digits written (milliseconds after a colon
/// count as three).
fn clock(text: &str, pm: Option<bool>) -> Result<(Time, usize), Invalid> {
    let parts: Vec<&str> = text.split(':').collect();
    if !(2..=4).contains(&parts.len()) {
        return Err(Invalid::Syntax);
    }
    let field = |s: &str| {
        if all_digits(s) && s.len() <= 2 {
            Ok(digits_value(s))
        } else {
            Err(Invalid::Syntax)
        }
    };
    let mut hour = field(parts[0])?;
    let minute = field(parts[1])?;
    let (mut second, mut fraction, mut digits) = (0, 0, 0);
    if let Some(&seconds) = parts.get(2) {
        let (whole, fractional) = seconds
            .split_once('.')
            .map_or((seconds, None), |(w, f)| (w, Some(f)));
        second = field(whole)?;
        if let Some(f) = fractional {
            if !all_digits(f) || f.len() > usize::from(MAX_FRACTION_SCALE) || parts.len() == 4 {
                return Err(Invalid::Syntax);
            }
            digits = f.len();
            fraction = digits_value(f) * 10u32.pow(u32::from(MAX_FRACTION_SCALE) - f.len() as u32);
        }
    }
    if let Some(&millis) = parts.get(3) {
        if !all_digits(millis) || millis.len() > MAX_DATETIME_FRACTION_DIGITS {
            return Err(Invalid::Syntax);
        }
        digits = MAX_DATETIME_FRACTION_DIGITS;
        fraction = digits_value(millis) * 10_000;
    }
    hour = apply_meridiem(hour, pm)?;
    let time = Time::from_hms(hour, minute, second, fraction).ok_or(Invalid::Syntax)?;
    Ok((time, digits))
}

/// 12 AM is midnight, 12 PM noon, 1 to 11 PM the afternoon; PM after
/// hour 12 is allowed, AM is not, and hour 0 takes no PM.
fn apply_meridiem(hour: u32, pm: Option<bool>) -> Result<u32, Invalid> {
    match pm {
        None => Ok(hour),
        Some(false) if hour == 12 => Ok(0),
        Some(false) if hour < 12 => Ok(hour),
        Some(true) if (1..12).contains(&hour) => Ok(hour + 12),
        Some(true) if (12..24).contains(&hour) => Ok(hour),
        _ => Err(Invalid::Syntax),
    }
}

/// Splits a trailing AM/PM off a word that starts with a digit.
fn split_meridiem(word: &str) -> (&str, Option<bool>) {
    let cut = word.len().saturating_sub(2);
    match word.get(cut..).and_then(meridiem) {
        Some(pm) if cut > 0 => (&word[..cut], Some(pm)),
        _ => (word, None),
    }
}

/// The forms beyond ISO: the text is split into words at spaces and
/// commas, each word is a clock time, a numeric date, a month name, a bare
/// number, AM/PM or a final offset, and the pieces are then put together.
fn parse_general(text: &str, order: DateOrder) -> Result<Literal, Invalid> {
    let words: Vec<&str> = text
        .split(|c: char| c.is_ascii_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .collect();
    let mut literal = Literal::default();
    let mut month = None;
    let mut numbers: Vec<&str> = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let word = words[i];
        i += 1;
        if literal.offset_minutes.is_some() {
            return Err(Invalid::Syntax);
        }
        let first = word.as_bytes()[0];
        if first == b'+' || first == b'-' {
            let mut c = Cursor {
                text: word.as_bytes(),
                pos: 0,
            };
            literal.offset_minutes = Some(parse_offset(&mut c)?);
            if c.peek().is_some() {
                return Err(Invalid::Syntax);
            }
        } else if word.eq_ignore_ascii_case("z") {
            literal.offset_minutes = Some(0);
        } else if first.is_ascii_digit() {
            let (mut body, mut pm) = split_meridiem(word);
            if pm.is_none() {
                if let Some(next) = words.get(i).and_then(|w| meridiem(w)) {
                    pm = Some(next);
                    i += 1;
                }
            }
            let mut zulu = false;
            if body.contains(':') {
                if let Some(rest) = body.strip_suffix(['Z', 'z']) {
                    body = rest;
                    zulu = true;
                }
            }
            if body.contains(':') || pm.is_some() {
                if literal.time.is_some() {
                    return Err(Invalid::Syntax);
                }
                let (time, digits) = if body.contains(':') {
                    clock(body, pm)?
                } else if all_digits(body) && body.len() <= 2 {
                    let hour = apply_meridiem(digits_value(body), pm)?;
                    (Time::from_hms(hour, 0, 0, 0).ok_or(Invalid::Syntax)?, 0)
                } else {
                    return Err(Invalid::Syntax);
                };
                literal.time = Some(time);
                literal.fraction_digits = digits;
                if zulu {
                    literal.offset_minutes = Some(0);
                }
            } else if body.contains(['/', '-', '.']) {
                if literal.date.is_some() {
                    return Err(Invalid::Syntax);
                }
                literal.date = Some(numeric_date(body, order)?);
            } else if all_digits(body) {
                numbers.push(body);
            } else {
                return Err(Invalid::Syntax);
            }
        } else if word.bytes().all(|b| b.is_ascii_alphabetic()) {
            if month.is_some() {
                return Err(Invalid::Syntax);
            }
            month = Some(month_number(word).ok_or(Invalid::Syntax)?);
        } else {
            return Err(Invalid::Syntax);
        }
    }
    if let Some(month) = month {
        if literal.date.is_some() {
            return Err(Invalid::Syntax);
        }
        literal.date = Some(named_month_date(month, &numbers)?);
    } else if !numbers.is_empty() {
        let [number] = numbers[..] else {
            return Err(Invalid::Syntax);
        };
        if literal.date.is_some() {
            return Err(Invalid::Syntax);
        }
        literal.date = Some(match number.len() {
            8 => make_date(year_of(&number[..4])?, &number[4..6], &number[6..])?,
            6 => make_date(year_of(&number[..2])?, &number[2..4], &number[4..])?,
            4 => make_date(year_of(number)?, "1", "1")?,
            _ => return Err(Invalid::Syntax),
        });
    }
    if literal.date.is_none() && literal.time.is_none() {
        return Err(Invalid::Syntax);
    }
    Ok(literal)
}

/// A date with its month named: the numbers are a year and perhaps a day.
/// A four-digit number is the year; of two short ones the first is the day.
/// Without a day the month's first day is meant.
fn named_month_date(month: u32, numbers: &[&str]) -> Result<Date, Invalid> {
    let (year, day) = match *numbers {
        [year] if year.len() == 4 => (year, "1"),
        [a, b] if a.len() == 4 && b.len() <= 2 => (a, b),
        [a, b] if a.len() <= 2 && (b.len() == 4 || b.len() == 2) => (b, a),
        _ => return Err(Invalid::Syntax),
    };
    Date::from_ymd(year_of(year)?, month, digits_value(day)).ok_or(Invalid::NoSuchDate)
}

/// Reads text as `CAST` / `CONVERT` do for each date and time type.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Reader {
    pub grammar: Grammar,
    /// The string type named in Msg 242: `varchar` or `nvarchar`.
    pub source: &'static str,
}

impl Reader {
    /// What `FromStr` reads: ISO forms, a `varchar` source.
    pub(crate) const ISO: Reader = Reader {
        grammar: Grammar::Iso,
        source: "varchar",
    };

    /// For the types whose every failure is Msg 241.
    fn literal(&self, text: &str) -> Result<Literal, SqlError> {
        parse_literal(text, self.grammar, false).map_err(|_| SqlError::date_conversion())
    }

    /// For datetime and smalldatetime: more than three fractional digits is
    /// a syntax error, a date that does not exist Msg 242; smalldatetime
    /// reports syntax errors as Msg 295.
    fn legacy_literal(&self, text: &str, target: &str) -> Result<Literal, SqlError> {
        let syntax = || {
            if target == "smalldatetime" {
                SqlError::new(
                    295,
                    16,
                    3,
                    "Conversion failed when converting character string to smalldatetime data type.",
                )
            } else {
                SqlError::date_conversion()
            }
        };
        match parse_literal(text, self.grammar, true) {
            Ok(l) if l.fraction_digits <= MAX_DATETIME_FRACTION_DIGITS => Ok(l),
            Ok(_) | Err(Invalid::Syntax) => Err(syntax()),
            Err(Invalid::NoSuchDate) => Err(SqlError::date_out_of_range(self.source, target)),
        }
    }

    /// A time part is allowed and dropped, as `CAST(... AS date)` does.
    pub(crate) fn date(&self, text: &str) -> Result<Date, SqlError> {
        Ok(self.literal(text)?.datetime2().date)
    }

    /// Full 100 ns precision; the caller rounds to a scale.
    pub(crate) fn time(&self, text: &str) -> Result<Time, SqlError> {
        Ok(self.literal(text)?.datetime2().time)
    }

    pub(crate) fn datetime2(&self, text: &str) -> Result<DateTime2, SqlError> {
        Ok(self.literal(text)?.datetime2())
    }

    /// Rounded to 1/300 s; Msg 242 before 1753. Blanks alone are
    /// 1900-01-01, as for smalldatetime (the newer types refuse them).
    pub(crate) fn datetime(&self, text: &str) -> Result<DateTime, SqlError> {
        if text.trim_matches(' ').is_empty() {
            return Ok(DateTime { days: 0, ticks: 0 });
        }
        let value = self.legacy_literal(text, "datetime")?.datetime2();
        DateTime::from_datetime2(value)
            .ok_or_else(|| SqlError::date_out_of_range(self.source, "datetime"))
    }

    /// Rounded to the minute; Msg 242 outside 1900-01-01..2079-06-06.
    pub(crate) fn smalldatetime(&self, text: &str) -> Result<SmallDateTime, SqlError> {
        if text.trim_matches(' ').is_empty() {
            return Ok(SmallDateTime {
                days: 0,
                minutes: 0,
            });
        }
        let value = self.legacy_literal(text, "smalldatetime")?.datetime2();
        SmallDateTime::from_datetime2(value)
            .ok_or_else(|| SqlError::date_out_of_range(self.source, "smalldatetime"))
    }

    /// The date and time are local to the offset (UTC when there is none);
    /// Msg 242 if the UTC instant leaves datetimeoffset's range.
    pub(crate) fn datetimeoffset(&self, text: &str) -> Result<DateTimeOffset, SqlError> {
        let literal = self.literal(text)?;
        DateTimeOffset::from_local(literal.datetime2(), literal.offset_minutes.unwrap_or(0))
            .ok_or_else(|| SqlError::date_out_of_range(self.source, "datetimeoffset"))
    }
}

impl FromStr for Date {
    type Err = SqlError;

    /// A time part is allowed and dropped, as `CAST(... AS date)` does.
    fn from_str(text: &str) -> Result<Date, SqlError> {
        Reader::ISO.date(text)
    }
}

impl FromStr for Time {
    type Err = SqlError;

    /// Full 100 ns precision; a column's scale rounds it on encode.
    fn from_str(text: &str) -> Result<Time, SqlError> {
        Reader::ISO.time(text)
    }
}

impl FromStr for DateTime2 {
    type Err = SqlError;

    fn from_str(text: &str) -> Result<DateTime2, SqlError> {
        Reader::ISO.datetime2(text)
    }
}

impl FromStr for DateTime {
    type Err = SqlError;

    /// Rounded to 1/300 s; Msg 242 before 1753.
    fn from_str(text: &str) -> Result<DateTime, SqlError> {
        Reader::ISO.datetime(text)
    }
}

impl FromStr for SmallDateTime {
    type Err = SqlError;

    /// Rounded to the minute; Msg 242 outside 1900-01-01..2079-06-06, Msg
    /// 295 for text that is not a date.
    fn from_str(text: &str) -> Result<SmallDateTime, SqlError> {
        Reader::ISO.smalldatetime(text)
    }
}

impl FromStr for DateTimeOffset {
    type Err = SqlError;

    /// The date and time are local to the offset (UTC when there is none);
    /// Msg 242 if the UTC instant leaves datetimeoffset's range.
    fn from_str(text: &str) -> Result<DateTimeOffset, SqlError> {
        Reader::ISO.datetimeoffset(text)
    }
}
