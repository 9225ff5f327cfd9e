//! Date and time functions, under us_english (English month and day
//! names). DATEPART's weekday and week follow the session's SET DATEFIRST;
//! DATEDIFF counts weeks from Sunday whatever it is, as SQL Server does.
//!
//! A datetime is read at the millisecond it shows (`.007`, not the
//! 1/300 s tick's .0066667), so DATEPART and DATEDIFF agree with what a
//! client sees; DATEADD works on the exact instant and rounds back.

use super::{integer, sized};
use hekla_plan::bind::functions::{DateFn, DatePart};
use hekla_types::datetime::{TICKS_PER_DAY, TICKS_PER_SECOND};
use hekla_types::DataType;
use hekla_types::{
    Date, DateTime, DateTime2, DateTimeOffset, SmallDateTime, SqlError, SqlResult, Time, Value,
};
use std::time::{SystemTime, UNIX_EPOCH};

/// datetime2 ticks (100 ns since 0001-01-01) at the Unix epoch.
const UNIX_EPOCH_TICKS: i64 = 621_355_968_000_000_000;

pub(super) const MONTH_NAMES: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

pub(super) const DAY_NAMES: [&str; 7] = [
    "Sunday",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
];

/// `date_first` is the session's first day of the week, 1 (Monday) to 7
/// (Sunday).
pub(super) fn evaluate(
    function: DateFn,
    args: &[Value],
    result_type: &DataType,
    date_first: u8,
) -> SqlResult<Value> {
    match function {
        DateFn::Now(_) => Ok(now(result_type)),
        DateFn::Add(part) => add(part, integer(&args[0]), &args[1], result_type),
        DateFn::Diff { part, big } => {
            let count = difference(part, Moment::of(&args[0]), Moment::of(&args[1]));
            let fits = if big {
                i64::try_from(count).is_ok()
            } else {
                i32::try_from(count).is_ok()
            };
            if !fits {
                return Err(diff_overflow(if big { "datediff_big" } else { "datediff" }));
            }
            Ok(sized(count as i64, result_type))
        }
        DateFn::Part(part) => Ok(Value::Int(
            part_of(part, &Moment::of(&args[0]), date_first) as i32
        )),
        DateFn::Name(part) => Ok(Value::String(name_of(
            part,
            &Moment::of(&args[0]),
            date_first,
        ))),
        DateFn::EndOfMonth => {
            let Value::Date(date) = args[0] else {
                unreachable!("the binder converts EOMONTH's date");
            };
            let months = args.get(1).map_or(0, integer);
            date.add_months(months)
                .map(|d| Value::Date(d.end_of_month()))
                .ok_or_else(|| add_overflow("date"))
        }
        DateFn::DateFromParts
        | DateFn::DateTimeFromParts
        | DateFn::DateTime2FromParts
        | DateFn::TimeFromParts => from_parts(function, args, result_type),
    }
}

/// The current instant in the result's type (server time is UTC).
fn now(result_type: &DataType) -> Value {
    let since_epoch = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    let ticks = i64::try_from(since_epoch.as_nanos() / 100).unwrap_or(0);
    let now = DateTime2::from_ticks(UNIX_EPOCH_TICKS + ticks);
    match result_type {
        DataType::DateTime => {
            Value::DateTime(DateTime::from_datetime2(now).expect("now is within datetime's range"))
        }
        DataType::DateTimeOffset { .. } => Value::DateTimeOffset(DateTimeOffset {
            utc: now,
            offset_minutes: 0,
        }),
        _ => Value::DateTime2(now),
    }
}

/// A date or time value read as a local date and time of day, with the
/// offset of a datetimeoffset.
pub(super) struct Moment {
    pub date: Date,
    pub time: Time,
    pub offset_minutes: Option<i16>,
}

impl Moment {
    pub fn of(value: &Value) -> Moment {
        let local = |at: DateTime2| Moment {
            date: at.date,
            time: at.time,
            offset_minutes: None,
        };
        match value {
            Value::Date(date) => local(DateTime2::new(*date, Time(0))),
            Value::Time(time) => local(DateTime2::new(Date::DEFAULT, *time)),
            Value::DateTime(at) => {
                let exact = at.to_datetime2();
                // The millisecond datetime shows, as its text does.
                let millis = (u64::from(at.ticks) * 10 + 1) / 3;
                local(DateTime2::new(
                    exact.date,
                    Time(millis * (TICKS_PER_SECOND / 1000)),
                ))
            }
            Value::SmallDateTime(at) => local(at.to_datetime2()),
            Value::DateTime2(at) => local(*at),
            Value::DateTimeOffset(at) => Moment {
                offset_minutes: Some(at.offset_minutes),
                ..local(at.local())
            },
            other => unreachable!("the binder converts date operands, not {other:?}"),
        }
    }

    /// The instant in UTC, as 100 ns ticks since 0001-01-01.
    fn utc_ticks(&self) -> i128 {
        let local = i128::from(self.date.0) * i128::from(TICKS_PER_DAY) + i128::from(self.time.0);
        let offset = i128::from(self.offset_minutes.unwrap_or(0));
        local - offset * 60 * i128::from(TICKS_PER_SECOND)
    }
}

/// 100 ns ticks in one unit of a time part.
fn unit_ticks(part: DatePart) -> Option<i128> {
    let second = i128::from(TICKS_PER_SECOND);
    Some(match part {
        DatePart::Hour => 3600 * second,
        DatePart::Minute => 60 * second,
        DatePart::Second => second,
        DatePart::Millisecond => second / 1000,
        DatePart::Microsecond => second / 1_000_000,
        _ => return None,
    })
}

/// DATEDIFF: how many `part` boundaries lie between the two instants
/// (taken in UTC). Weeks start on Sunday whatever DATEFIRST says.
fn difference(part: DatePart, start: Moment, end: Moment) -> i128 {
    let (from, to) = (start.utc_ticks(), end.utc_ticks());
    let per_day = i128::from(TICKS_PER_DAY);
    let (first, last) = (from.div_euclid(per_day), to.div_euclid(per_day));
    let ymd = |day: i128| Date(day as i32).ymd();
    let months = |day: i128| {
        let (year, month, _) = ymd(day);
        i128::from(year) * 12 + i128::from(month) - 1
    };
    match part {
        DatePart::Year => i128::from(ymd(last).0 - ymd(first).0),
        DatePart::Quarter => months(last).div_euclid(3) - months(first).div_euclid(3),
        DatePart::Month => months(last) - months(first),
        DatePart::DayOfYear | DatePart::Day | DatePart::Weekday => last - first,
        // 0001-01-01 was a Monday: day + 1 counts from the Sunday before.
        DatePart::Week => (last + 1).div_euclid(7) - (first + 1).div_euclid(7),
        DatePart::Nanosecond => (to - from) * 100,
        _ => {
            let unit = unit_ticks(part).expect("the binder refuses tzoffset and iso_week");
            to.div_euclid(unit) - from.div_euclid(unit)
        }
    }
}

/// The day of the week of `date`, 1 to 7, counted from `date_first`.
fn weekday(date: Date, date_first: u8) -> u32 {
    // Date::weekday counts from Sunday, 0.
    (date.weekday() + 7 - u32::from(date_first % 7)) % 7 + 1
}

/// DATEPART's integer.
fn part_of(part: DatePart, moment: &Moment, date_first: u8) -> i64 {
    let date = moment.date;
    let (year, month, day) = date.ymd();
    let time = moment.time;
    match part {
        DatePart::Year => i64::from(year),
        DatePart::Quarter => i64::from((month - 1) / 3 + 1),
        DatePart::Month => i64::from(month),
        DatePart::DayOfYear => i64::from(date.day_of_year()),
        DatePart::Day => i64::from(day),
        DatePart::Week => {
            // Week 1 holds January 1; weeks start on the DATEFIRST day.
            let january = Date::from_ymd(year, 1, 1).expect("January 1 exists");
            let before = weekday(january, date_first) - 1;
            i64::from((date.day_of_year() - 1 + before) / 7 + 1)
        }
        DatePart::Weekday => i64::from(weekday(date, date_first)),
        DatePart::Hour => i64::from(time.hour()),
        DatePart::Minute => i64::from(time.minute()),
        DatePart::Second => i64::from(time.second()),
        DatePart::Millisecond => i64::from(time.fraction() / 10_000),
        DatePart::Microsecond => i64::from(time.fraction() / 10),
        DatePart::Nanosecond => i64::from(time.fraction()) * 100,
        DatePart::TzOffset => i64::from(moment.offset_minutes.unwrap_or(0)),
        DatePart::IsoWeek => i64::from(date.iso_week()),
    }
}

/// DATENAME's text: month and weekday names, the offset as `+hh:mm`,
/// every other part as its number.
fn name_of(part: DatePart, moment: &Moment, date_first: u8) -> String {
    match part {
        DatePart::Month => MONTH_NAMES[moment.date.month() as usize - 1].to_string(),
        DatePart::Weekday => DAY_NAMES[moment.date.weekday() as usize].to_string(),
        DatePart::TzOffset => {
            let offset = moment.offset_minutes.unwrap_or(0);
            let sign = if offset < 0 { '-' } else { '+' };
            let minutes = offset.unsigned_abs();
            format!("{sign}{:02}:{:02}", minutes / 60, minutes % 60)
        }
        _ => part_of(part, moment, date_first).to_string(),
    }
}

/// DATEADD: `number` parts added to `value`, in the value's own type.
fn add(part: DatePart, number: i64, value: &Value, result_type: &DataType) -> SqlResult<Value> {
    let scale = match *result_type {
        DataType::Time { scale }
        | DataType::DateTime2 { scale }
        | DataType::DateTimeOffset { scale } => scale,
        _ => 7,
    };
    let overflow = || add_overflow(type_name(value));
    Ok(match value {
        Value::Date(date) => {
            let moved = shift(DateTime2::new(*date, Time(0)), part, number).ok_or_else(overflow)?;
            Value::Date(moved.date)
        }
        Value::Time(time) => {
            // A time of day wraps around midnight.
            let ticks = match unit_ticks(part) {
                Some(unit) => i128::from(number) * unit,
                None => nanosecond_ticks(number),
            };
            let day = i128::from(TICKS_PER_DAY);
            let moved = (i128::from(time.0) + ticks).rem_euclid(day) as u64;
            Value::Time(Time(moved).round_to_scale(scale))
        }
        Value::DateTime(at) => Value::DateTime(
            shift(at.to_datetime2(), part, number)
                .and_then(DateTime::from_datetime2)
                .ok_or_else(overflow)?,
        ),
        Value::SmallDateTime(at) => Value::SmallDateTime(
            shift(at.to_datetime2(), part, number)
                .and_then(SmallDateTime::from_datetime2)
                .ok_or_else(overflow)?,
        ),
        Value::DateTime2(at) => Value::DateTime2(
            shift(*at, part, number)
                .and_then(|moved| moved.round_to_scale(scale))
                .ok_or_else(overflow)?,
        ),
        Value::DateTimeOffset(at) => Value::DateTimeOffset(
            shift(at.local(), part, number)
                .and_then(|moved| moved.round_to_scale(scale))
                .and_then(|moved| DateTimeOffset::from_local(moved, at.offset_minutes))
                .ok_or_else(overflow)?,
        ),
        other => unreachable!("the binder converts DATEADD's date, not {other:?}"),
    })
}

/// `at` moved by `number` parts; None outside datetime2's range. Months
/// keep the day where the month has it and take the month's last day
/// where it does not.
fn shift(at: DateTime2, part: DatePart, number: i64) -> Option<DateTime2> {
    let months = |factor: i64| {
        let date = at.date.add_months(number.checked_mul(factor)?)?;
        Some(DateTime2::new(date, at.time))
    };
    let days = |factor: i64| {
        let date = at.date.add_days(number.checked_mul(factor)?)?;
        Some(DateTime2::new(date, at.time))
    };
    match part {
        DatePart::Year => months(12),
        DatePart::Quarter => months(3),
        DatePart::Month => months(1),
        DatePart::DayOfYear | DatePart::Day | DatePart::Weekday => days(1),
        DatePart::Week => days(7),
        DatePart::Nanosecond => at.add_ticks(nanosecond_ticks(number)),
        _ => at.add_ticks(i128::from(number) * unit_ticks(part)?),
    }
}

/// Nanoseconds as 100 ns ticks, rounded half away from zero (49 ns add
/// nothing, 50 ns one tick).
fn nanosecond_ticks(number: i64) -> i128 {
    let number = i128::from(number);
    (number + 50 * number.signum()) / 100
}

/// DATEFROMPARTS, DATETIMEFROMPARTS, DATETIME2FROMPARTS and
/// TIMEFROMPARTS: Msg 289 when a part is out of range.
fn from_parts(function: DateFn, args: &[Value], result_type: &DataType) -> SqlResult<Value> {
    let part = |index: usize| u32::try_from(integer(&args[index])).ok();
    let year = |index: usize| i32::try_from(integer(&args[index])).ok();
    let scale = match *result_type {
        DataType::DateTime2 { scale } | DataType::Time { scale } => scale,
        _ => 0,
    };
    // Fractions count units of 10^-scale seconds.
    let fraction = |index: usize| {
        let fraction = part(index)?;
        let units = 10u32.pow(u32::from(scale));
        (fraction < units).then(|| fraction * 10u32.pow(7 - u32::from(scale)))
    };
    let date = || Date::from_ymd(year(0)?, part(1)?, part(2)?);
    let (value, type_name, state) = match function {
        DateFn::DateFromParts => (date().map(Value::Date), "date", 1),
        DateFn::DateTimeFromParts => {
            let at = || {
                let millis = part(6).filter(|&ms| ms < 1000)?;
                let time = Time::from_hms(part(3)?, part(4)?, part(5)?, millis * 10_000)?;
                DateTime::from_datetime2(DateTime2::new(date()?, time))
            };
            (at().map(Value::DateTime), "datetime", 3)
        }
        DateFn::DateTime2FromParts => {
            let at = || {
                let time = Time::from_hms(part(3)?, part(4)?, part(5)?, fraction(6)?)?;
                Some(DateTime2::new(date()?, time))
            };
            (at().map(Value::DateTime2), "datetime2", 5)
        }
        _ => {
            let time = || Time::from_hms(part(0)?, part(1)?, part(2)?, fraction(3)?);
            (time().map(Value::Time), "time", 2)
        }
    };
    value.ok_or_else(|| {
        SqlError::new(
            289,
            16,
            state,
            format!(
                "Cannot construct data type {type_name}, some of the arguments have values which are not valid."
            ),
        )
    })
}

/// The type name DATEADD's overflow message uses.
fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Date(_) => "date",
        Value::Time(_) => "time",
        Value::DateTime(_) => "datetime",
        Value::SmallDateTime(_) => "smalldatetime",
        Value::DateTime2(_) => "datetime2",
        _ => "datetimeoffset",
    }
}

/// Msg 517.
fn add_overflow(type_name: &str) -> SqlError {
    SqlError::new(
        517,
        16,
        1,
        format!("Adding a value to a '{type_name}' column caused an overflow."),
    )
}

/// Msg 535.
fn diff_overflow(function: &str) -> SqlError {
    SqlError::new(
        535,
        16,
        0,
        format!(
            "The {function} function resulted in an overflow. The number of dateparts separating two date/time instances is too large. Try to use {function} with a less precise datepart."
        ),
    )
}
