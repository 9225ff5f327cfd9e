//! Conversions to the six date and time types, and date and time values
//! as text (CONVERT's date and time styles).
//!
//! Between the types, SQL Server copies what both have and supplies what
//! the target lacks (1900-01-01, midnight, offset +00:00), rounding the
//! time to the target: 1/300 s for datetime, the minute for smalldatetime
//! (29.999 s rounds up), n digits for time(n), datetime2(n) and
//! datetimeoffset(n). A datetimeoffset converts as its local date and time.
//! Numbers convert to datetime and smalldatetime as days since 1900-01-01.

use super::binary;
use super::errors::{self, root_name, string_name};
use crate::datetime::parse::{DateFormat, Grammar, Reader};
use crate::decimal::{div_round, pow10};
use crate::{
    DataType, Date, DateTime, DateTime2, DateTimeOffset, SmallDateTime, SqlError, SqlResult, Time,
    Value,
};

/// 1900-01-01, the date a time alone converts with.
const BASE_DATE: Date = Date::DEFAULT;
const DATETIME_TICKS_PER_DAY: i128 = DateTime::TICKS_PER_DAY as i128;

/// `date_format` is the session's SET DATEFORMAT, which text without a
/// CONVERT style is read in.
pub(super) fn convert(
    value: &Value,
    source: &DataType,
    target: &DataType,
    style: Option<i32>,
    date_format: DateFormat,
) -> SqlResult<Value> {
    match value {
        Value::String(s) => from_text(s, source, target, style, date_format),
        Value::Binary(b) => binary::temporal_from_bytes(b, target),
        Value::Date(d) => fit(DateTime2::new(*d, Time(0)), None, source, target),
        Value::Time(t) => fit(DateTime2::new(BASE_DATE, *t), None, source, target),
        Value::DateTime(d) => fit(d.to_datetime2(), None, source, target),
        Value::SmallDateTime(d) => fit(d.to_datetime2(), None, source, target),
        Value::DateTime2(d) => fit(*d, None, source, target),
        Value::DateTimeOffset(d) => fit(d.local(), Some(*d), source, target),
        _ => from_number(value, target),
    }
}

/// A date and time (and, from a datetimeoffset, the original value) fitted
/// to the target type. Out of the target's range is Msg 242.
fn fit(
    local: DateTime2,
    offset_value: Option<DateTimeOffset>,
    source: &DataType,
    target: &DataType,
) -> SqlResult<Value> {
    let out_of_range = || SqlError::date_out_of_range(root_name(source), root_name(target));
    Ok(match *target {
        DataType::Date => Value::Date(local.date),
        DataType::Time { scale } => Value::Time(local.time.round_to_scale(scale)),
        DataType::DateTime => {
            Value::DateTime(DateTime::from_datetime2(local).ok_or_else(out_of_range)?)
        }
        DataType::SmallDateTime => {
            Value::SmallDateTime(SmallDateTime::from_datetime2(local).ok_or_else(out_of_range)?)
        }
        DataType::DateTime2 { scale } => {
            Value::DateTime2(local.round_to_scale(scale).ok_or_else(out_of_range)?)
        }
        DataType::DateTimeOffset { scale } => {
            let value = match offset_value {
                Some(v) => v,
                None => DateTimeOffset::from_local(local, 0).ok_or_else(out_of_range)?,
            };
            let utc = value.utc.round_to_scale(scale).ok_or_else(out_of_range)?;
            let rounded = DateTimeOffset {
                utc,
                offset_minutes: value.offset_minutes,
            };
            if !rounded.is_valid() || !rounded.local().is_valid() {
                return Err(out_of_range());
            }
            Value::DateTimeOffset(rounded)
        }
        _ => return Err(SqlError::type_clash(root_name(source), root_name(target))),
    })
}

/// The order CONVERT reads numeric dates in for a style: day first for the
/// British, French, German and Italian styles, year first for ANSI and
/// Japanese, month first for every other style (us_english's order).
/// Without a style, the session's DATEFORMAT decides.
fn date_order(style: Option<i32>, date_format: DateFormat) -> DateFormat {
    match style {
        Some(3 | 4 | 5 | 103 | 104 | 105) => DateFormat::Dmy,
        Some(2 | 11 | 102 | 111) => DateFormat::Ymd,
        Some(_) => DateFormat::Mdy,
        None => date_format,
    }
}

fn from_text(
    text: &str,
    source: &DataType,
    target: &DataType,
    style: Option<i32>,
    date_format: DateFormat,
) -> SqlResult<Value> {
    let reader = Reader {
        grammar: Grammar::Full(date_order(style, date_format)),
        source: string_name(source),
    };
    let out_of_range = || SqlError::date_out_of_range(reader.source, root_name(target));
    Ok(match *target {
        DataType::Date => Value::Date(reader.date(text)?),
        DataType::Time { scale } => Value::Time(reader.time(text)?.round_to_scale(scale)),
        DataType::DateTime => Value::DateTime(reader.datetime(text)?),
        DataType::SmallDateTime => Value::SmallDateTime(reader.smalldatetime(text)?),
        DataType::DateTime2 { scale } => Value::DateTime2(
            reader
                .datetime2(text)?
                .round_to_scale(scale)
                .ok_or_else(out_of_range)?,
        ),
        DataType::DateTimeOffset { scale } => {
            let value = reader.datetimeoffset(text)?;
            let utc = value.utc.round_to_scale(scale).ok_or_else(out_of_range)?;
            Value::DateTimeOffset(DateTimeOffset {
                utc,
                offset_minutes: value.offset_minutes,
            })
        }
        _ => return Err(SqlError::type_clash(reader.source, root_name(target))),
    })
}

/// A number as days since 1900-01-01 (the fraction is the time of day,
/// rounded to datetime's 1/300 s); Msg 8115 outside the target's range.
fn from_number(value: &Value, target: &DataType) -> SqlResult<Value> {
    let name = root_name(target);
    let overflow = || errors::overflow("expression", name, 2);
    let per_day = DATETIME_TICKS_PER_DAY;
    let ticks = match value {
        Value::Bit(b) => Some(i128::from(*b) * per_day),
        Value::Decimal(d) => d
            .mantissa
            .checked_mul(per_day)
            .and_then(|n| Some(div_round(n, pow10(u32::from(d.scale))?))),
        // money counts ten-thousandths: a tick is 2592 of them.
        Value::Money(m) => Some(i128::from(m.0) * (per_day / 10_000)),
        Value::Float(v) => float_ticks(*v),
        Value::Real(v) => float_ticks(f64::from(*v)),
        _ => value.as_i64().map(|v| i128::from(v) * per_day),
    };
    let datetime = ticks
        .and_then(|t| {
            let days = i32::try_from(t.div_euclid(per_day)).ok()?;
            let ticks = t.rem_euclid(per_day) as u32;
            Some(DateTime { days, ticks })
        })
        .filter(|d| d.is_valid())
        .ok_or_else(overflow)?;
    match target {
        DataType::DateTime => Ok(Value::DateTime(datetime)),
        DataType::SmallDateTime => SmallDateTime::from_datetime2(datetime.to_datetime2())
            .map(Value::SmallDateTime)
            .ok_or_else(overflow),
        _ => Err(SqlError::type_clash(value.type_name(), name)),
    }
}

fn float_ticks(v: f64) -> Option<i128> {
    let ticks = (v * DATETIME_TICKS_PER_DAY as f64).round();
    (ticks.is_finite() && ticks.abs() < 1e15).then_some(ticks as i128)
}

/// Styles a date or time value takes into text (Msg 281 for the rest):
/// 0 to 14, 20 to 25, 100 to 114, 120, 121, 126, 127, 130 and 131; a
/// date has no 14 or 114.
pub(super) fn check_output_style(source: &DataType, style: i32) -> SqlResult<()> {
    let valid = matches!(style, 0..=14 | 20..=25 | 100..=114 | 120 | 121 | 126 | 127 | 130 | 131);
    let date_without_time = matches!(source, DataType::Date) && matches!(style, 14 | 114);
    if valid && !date_without_time {
        Ok(())
    } else {
        Err(errors::bad_style(style, root_name(source)))
    }
}

/// The time of day as a style writes it.
struct Clock {
    hour: u32,
    minute: u32,
    second: u32,
    /// The fractional digits the type shows (3 for datetime and
    /// smalldatetime, n for the types with a scale).
    fraction: String,
    /// datetime and smalldatetime write milliseconds after a colon in
    /// styles 9, 13 and 14 and their century forms.
    legacy: bool,
}

/// What a style writes: a date, a time, or both, and an offset.
struct Stamp {
    date: Option<Date>,
    clock: Option<Clock>,
    offset: Option<i16>,
}

fn scale_of(source: &DataType) -> u8 {
    match *source {
        DataType::Time { scale }
        | DataType::DateTime2 { scale }
        | DataType::DateTimeOffset { scale } => scale,
        _ => 7,
    }
}

fn clock(time: Time, scale: u8) -> Clock {
    let digits = format!("{:07}", time.fraction());
    Clock {
        hour: time.hour(),
        minute: time.minute(),
        second: time.second(),
        fraction: digits[..usize::from(scale.min(7))].to_string(),
        legacy: false,
    }
}

fn stamp(value: &Value, source: &DataType) -> Option<Stamp> {
    let scale = scale_of(source);
    let plain = |date, clock| Stamp {
        date,
        clock,
        offset: None,
    };
    Some(match value {
        Value::Date(d) => plain(Some(*d), None),
        Value::Time(t) => plain(None, Some(clock(*t, scale))),
        Value::DateTime2(d) => plain(Some(d.date), Some(clock(d.time, scale))),
        Value::DateTimeOffset(d) => {
            let local = d.local();
            Stamp {
                date: Some(local.date),
                clock: Some(clock(local.time, scale)),
                offset: Some(d.offset_minutes),
            }
        }
        Value::DateTime(d) => {
            // Milliseconds from 1/300 s, as SQL Server shows them (.003, .007).
            let millis = (u64::from(d.ticks) * 10 + 1) / 3;
            let seconds = (millis / 1000) as u32;
            plain(
                Some(d.to_datetime2().date),
                Some(Clock {
                    hour: seconds / 3600,
                    minute: seconds / 60 % 60,
                    second: seconds % 60,
                    fraction: format!("{:03}", millis % 1000),
                    legacy: true,
                }),
            )
        }
        Value::SmallDateTime(d) => {
            let value = d.to_datetime2();
            plain(
                Some(value.date),
                Some(Clock {
                    fraction: "000".to_string(),
                    legacy: true,
                    ..clock(value.time, 0)
                }),
            )
        }
        _ => return None,
    })
}

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// The date as a style writes it; None for the time-only styles.
fn date_text(date: Date, style: i32) -> Option<String> {
    let (y, m, d) = date.ymd();
    let month = MONTHS[(m as usize).saturating_sub(1) % 12];
    let century = style >= 100;
    let year = if century || !matches!(style, 1..=7 | 10..=12 | 22) {
        format!("{y:04}")
    } else {
        format!("{:02}", y % 100)
    };
    Some(match style % 100 {
        0 | 9 => format!("{month} {d:>2} {year}"),
        1 | 22 => format!("{m:02}/{d:02}/{year}"),
        2 => format!("{year}.{m:02}.{d:02}"),
        3 => format!("{d:02}/{m:02}/{year}"),
        4 => format!("{d:02}.{m:02}.{year}"),
        5 => format!("{d:02}-{m:02}-{year}"),
        6 => format!("{d:02} {month} {year}"),
        7 => format!("{month} {d:02}, {year}"),
        10 => format!("{m:02}-{d:02}-{year}"),
        11 => format!("{year}/{m:02}/{d:02}"),
        12 => format!("{year}{m:02}{d:02}"),
        13 => format!("{d:02} {month} {year}"),
        20 | 21 | 23 | 25 | 26 | 27 => format!("{year}-{m:02}-{d:02}"),
        _ => return None,
    })
}

/// The time as a style writes it; None for the date-only styles. A time
/// alone has its hour unpadded in styles 0, 9, 100 and 109, as in SQL
/// Server.
fn time_text(c: &Clock, style: i32, time_alone: bool) -> Option<String> {
    let (hh, mi, ss) = (c.hour, c.minute, c.second);
    let h12 = match hh % 12 {
        0 => 12,
        h => h,
    };
    let am = if hh < 12 { "AM" } else { "PM" };
    let hour12 = if time_alone && matches!(style, 0 | 9 | 100 | 109) {
        h12.to_string()
    } else {
        format!("{h12:>2}")
    };
    // Milliseconds after a colon for datetime, a point and n digits for
    // the types with a scale (nothing at scale 0).
    let fraction = |colon: bool| match (c.fraction.is_empty(), c.legacy && colon) {
        (true, _) => String::new(),
        (false, true) => format!(":{}", c.fraction),
        (false, false) => format!(".{}", c.fraction),
    };
    Some(match style {
        0 | 100 => format!("{hour12}:{mi:02}{am}"),
        9 | 109 => format!("{hour12}:{mi:02}:{ss:02}{}{am}", fraction(true)),
        13 | 113 | 14 | 114 => format!("{hh:02}:{mi:02}:{ss:02}{}", fraction(true)),
        8 | 24 | 108 | 20 | 120 => format!("{hh:02}:{mi:02}:{ss:02}"),
        21 | 25 | 121 => format!("{hh:02}:{mi:02}:{ss:02}{}", fraction(false)),
        22 => format!("{hour12}:{mi:02}:{ss:02} {am}"),
        126 | 127 if c.fraction.bytes().all(|d| d == b'0') => {
            format!("{hh:02}:{mi:02}:{ss:02}")
        }
        126 | 127 => format!("{hh:02}:{mi:02}:{ss:02}{}", fraction(false)),
        _ => return None,
    })
}

fn offset_text(minutes: i16) -> String {
    let sign = if minutes < 0 { '-' } else { '+' };
    let m = minutes.unsigned_abs();
    format!("{sign}{:02}:{:02}", m / 60, m % 60)
}

/// A date or time value as text in a style. No style is the type's
/// default: 0 for datetime and smalldatetime, 121 for the others. A date
/// in a time-only style, or a time in a date-only style, is Msg 8114.
pub(super) fn text(
    value: &Value,
    source: &DataType,
    style: Option<i32>,
    target_family: &str,
) -> SqlResult<String> {
    let legacy = matches!(value, Value::DateTime(_) | Value::SmallDateTime(_));
    let style = style.unwrap_or(if legacy { 0 } else { 121 });
    check_output_style(source, style)?;
    if matches!(style, 130 | 131) {
        return Err(errors::not_supported(&format!(
            "CONVERT style {style} (Hijri)"
        )));
    }
    // datetimeoffset in style 127 is written in UTC with a Z.
    if let (Value::DateTimeOffset(d), 127) = (value, style) {
        let utc = Value::DateTime2(d.utc);
        let scaled = DataType::DateTime2 {
            scale: scale_of(source),
        };
        return Ok(format!(
            "{}Z",
            text(&utc, &scaled, Some(127), target_family)?
        ));
    }
    let stamp = stamp(value, source)
        .ok_or_else(|| SqlError::type_clash(value.type_name(), target_family))?;
    let mismatch = || errors::converting(root_name(source), target_family);
    let date = stamp.date.map(|d| date_text(d, style));
    let time = stamp
        .clock
        .as_ref()
        .map(|c| time_text(c, style, stamp.date.is_none()));
    let mut out = match (date, time) {
        (Some(Some(d)), Some(Some(t))) => {
            let separator = if matches!(style, 126 | 127) { "T" } else { " " };
            format!("{d}{separator}{t}")
        }
        (Some(Some(d)), _) => return Ok(d),
        (None, Some(Some(t))) => t,
        (Some(None), None) | (None, Some(None)) => return Err(mismatch()),
        (Some(None), Some(Some(t))) => t,
        _ => return Err(mismatch()),
    };
    if let Some(offset) = stamp.offset {
        if style != 126 {
            out.push(' ');
        }
        out.push_str(&offset_text(offset));
    }
    Ok(out)
}

/// Ticks of time(n) in units of 10^-n s, for the binary forms.
pub(super) fn time_units(time: Time, scale: u8) -> u64 {
    time.0 / 10u64.pow(u32::from(7 - scale.min(7)))
}

/// The time of units of 10^-n s; None past midnight.
pub(super) fn time_of_units(units: u64, scale: u8) -> Option<Time> {
    let ticks = units.checked_mul(10u64.pow(u32::from(7 - scale.min(7))))?;
    let time = Time(ticks);
    time.is_valid().then_some(time)
}
