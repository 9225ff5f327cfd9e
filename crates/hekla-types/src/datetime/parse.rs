//! Date and time literals, in the unambiguous forms SQL Server accepts
//! whatever its DATEFORMAT setting:
//!
//! - dates `yyyy-mm-dd` (also with `/` or `.`) and `yyyymmdd`;
//! - times `hh:mm`, `hh:mm:ss` and `hh:mm:ss.fffffff` (1 to 7 digits);
//! - a date and a time separated by spaces or `T`;
//! - a trailing offset `+hh:mm`, `-hh:mm` or `Z` (datetimeoffset).
//!
//! A missing date is 1900-01-01 and a missing time midnight, as in SQL
//! Server. AM/PM and month names are not supported.

use super::{Date, DateTime, DateTime2, DateTimeOffset, SmallDateTime, Time, MAX_FRACTION_SCALE};
use crate::SqlError;
use std::str::FromStr;

/// datetime and smalldatetime literals allow milliseconds at most.
const MAX_DATETIME_FRACTION_DIGITS: usize = 3;

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

fn parse_literal(text: &str) -> Result<Literal, Invalid> {
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
        literal.date = Some(parse_date(&mut c)?);
        if c.eat(b'T') || (c.skip_spaces() && c.peek().is_some_and(|b| b.is_ascii_digit())) {
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

fn parse_date(c: &mut Cursor) -> Result<Date, Invalid> {
    let (year, month, day) = if c.digit_run() == 8 {
        let (ymd, _) = c.number(8, 8)?;
        (ymd / 10_000, ymd / 100 % 100, ymd % 100)
    } else {
        let (year, _) = c.number(4, 4)?;
        let separator = c.peek().ok_or(Invalid::Syntax)?;
        c.pos += 1;
        let (month, _) = c.number(1, 2)?;
        if !c.eat(separator) {
            return Err(Invalid::Syntax);
        }
        let (day, _) = c.number(1, 2)?;
        (year, month, day)
    };
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

/// Parses for the types whose every failure is Msg 241.
fn literal(text: &str) -> Result<Literal, SqlError> {
    parse_literal(text).map_err(|_| SqlError::date_conversion())
}

/// Parses for datetime and smalldatetime: more than three fractional digits
/// is Msg 241, a date that does not exist Msg 242.
fn legacy_literal(text: &str, target: &str) -> Result<Literal, SqlError> {
    match parse_literal(text) {
        Ok(l) if l.fraction_digits <= MAX_DATETIME_FRACTION_DIGITS => Ok(l),
        Ok(_) | Err(Invalid::Syntax) => Err(SqlError::date_conversion()),
        Err(Invalid::NoSuchDate) => Err(SqlError::date_out_of_range("varchar", target)),
    }
}

impl FromStr for Date {
    type Err = SqlError;

    /// A time part is allowed and dropped, as `CAST(... AS date)` does.
    fn from_str(text: &str) -> Result<Date, SqlError> {
        Ok(literal(text)?.datetime2().date)
    }
}

impl FromStr for Time {
    type Err = SqlError;

    /// Full 100 ns precision; a column's scale rounds it on encode.
    fn from_str(text: &str) -> Result<Time, SqlError> {
        Ok(literal(text)?.datetime2().time)
    }
}

impl FromStr for DateTime2 {
    type Err = SqlError;

    fn from_str(text: &str) -> Result<DateTime2, SqlError> {
        Ok(literal(text)?.datetime2())
    }
}

impl FromStr for DateTime {
    type Err = SqlError;

    /// Rounded to 1/300 s; Msg 242 before 1753.
    fn from_str(text: &str) -> Result<DateTime, SqlError> {
        let value = legacy_literal(text, "datetime")?.datetime2();
        DateTime::from_datetime2(value)
            .ok_or_else(|| SqlError::date_out_of_range("varchar", "datetime"))
    }
}

impl FromStr for SmallDateTime {
    type Err = SqlError;

    /// Rounded to the minute; Msg 242 outside 1900-01-01..2079-06-06.
    fn from_str(text: &str) -> Result<SmallDateTime, SqlError> {
        let value = legacy_literal(text, "smalldatetime")?.datetime2();
        SmallDateTime::from_datetime2(value)
            .ok_or_else(|| SqlError::date_out_of_range("varchar", "smalldatetime"))
    }
}

impl FromStr for DateTimeOffset {
    type Err = SqlError;

    /// The date and time are local to the offset (UTC when there is none);
    /// Msg 242 if the UTC instant leaves datetimeoffset's range.
    fn from_str(text: &str) -> Result<DateTimeOffset, SqlError> {
        let literal = literal(text)?;
        DateTimeOffset::from_local(literal.datetime2(), literal.offset_minutes.unwrap_or(0))
            .ok_or_else(|| SqlError::date_out_of_range("varchar", "datetimeoffset"))
    }
}
