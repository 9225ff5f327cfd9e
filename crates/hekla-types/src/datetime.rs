//! Date and time types.
//!
//! Constructors validate, conversions between the types round the way SQL
//! Server does, and text goes through the `parse` module (literals) and the `format` module
//! (SQL Server's default output formats).

mod calendar;
mod civil;
mod format;
pub(crate) mod parse;

pub use parse::DateFormat;

/// Days since 0001-01-01.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date(pub i32);

/// 100-nanosecond ticks since midnight.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Time(pub u64);

/// datetime: days since 1900-01-01 and 1/300-second ticks since midnight.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct DateTime {
    pub days: i32,
    pub ticks: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct DateTime2 {
    pub date: Date,
    pub time: Time,
}

/// smalldatetime: days since 1900-01-01 and minutes since midnight.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SmallDateTime {
    pub days: u16,
    pub minutes: u16,
}

/// A UTC instant and the offset it was written with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DateTimeOffset {
    pub utc: DateTime2,
    pub offset_minutes: i16,
}

/// time, datetime2 and datetimeoffset count 100 ns ticks.
pub const TICKS_PER_SECOND: u64 = 10_000_000;
pub const TICKS_PER_DAY: u64 = 86_400 * TICKS_PER_SECOND;
/// time(n), datetime2(n) and datetimeoffset(n) allow n in 0..=7.
pub const MAX_FRACTION_SCALE: u8 = 7;

/// Days from 0001-01-01 to 1900-01-01, the epoch of datetime and
/// smalldatetime.
const DAYS_TO_1900: i32 = 693_595;
const TICKS_PER_MINUTE: u64 = 60 * TICKS_PER_SECOND;

impl Date {
    /// 0001-01-01.
    pub const MIN: Date = Date(0);
    /// 9999-12-31.
    pub const MAX: Date = Date(3_652_058);
    /// 1900-01-01, the date SQL Server assumes when a literal has none.
    pub const DEFAULT: Date = Date(DAYS_TO_1900);

    pub fn is_valid(self) -> bool {
        (Date::MIN..=Date::MAX).contains(&self)
    }

    /// None unless year 1..=9999, month 1..=12 and the day exists.
    pub fn from_ymd(year: i32, month: u32, day: u32) -> Option<Date> {
        let valid = (1..=9999).contains(&year)
            && (1..=12).contains(&month)
            && (1..=civil::days_in_month(year, month)).contains(&day);
        valid.then(|| Date(civil::days_from_civil(year, month, day) as i32))
    }

    /// (year, month, day).
    pub fn ymd(self) -> (i32, u32, u32) {
        civil::civil_from_days(i64::from(self.0))
    }

    pub fn year(self) -> i32 {
        self.ymd().0
    }

    pub fn month(self) -> u32 {
        self.ymd().1
    }

    pub fn day(self) -> u32 {
        self.ymd().2
    }
}

impl Time {
    pub fn is_valid(self) -> bool {
        self.0 < TICKS_PER_DAY
    }

    /// None unless hour < 24, minute < 60, second < 60 and `fraction` (in
    /// 100 ns ticks) < 10^7.
    pub fn from_hms(hour: u32, minute: u32, second: u32, fraction: u32) -> Option<Time> {
        let valid =
            hour < 24 && minute < 60 && second < 60 && u64::from(fraction) < TICKS_PER_SECOND;
        valid.then(|| {
            let seconds = u64::from(hour) * 3600 + u64::from(minute) * 60 + u64::from(second);
            Time(seconds * TICKS_PER_SECOND + u64::from(fraction))
        })
    }

    pub fn hour(self) -> u32 {
        (self.0 / (3600 * TICKS_PER_SECOND)) as u32
    }

    pub fn minute(self) -> u32 {
        (self.0 / TICKS_PER_MINUTE % 60) as u32
    }

    pub fn second(self) -> u32 {
        (self.0 / TICKS_PER_SECOND % 60) as u32
    }

    /// The fraction of the second in 100 ns ticks.
    pub fn fraction(self) -> u32 {
        (self.0 % TICKS_PER_SECOND) as u32
    }

    /// Rounds to `scale` fractional digits (half up). Like SQL Server, a time
    /// that rounds up to midnight wraps to 00:00:00.
    pub fn round_to_scale(self, scale: u8) -> Time {
        Time(round_ticks(self.0, scale) % TICKS_PER_DAY)
    }
}

/// Rounds a tick count to `scale` fractional digits, half up.
fn round_ticks(ticks: u64, scale: u8) -> u64 {
    let unit = 10u64.pow(u32::from(
        MAX_FRACTION_SCALE - scale.min(MAX_FRACTION_SCALE),
    ));
    ticks.saturating_add(unit / 2) / unit * unit
}

impl DateTime2 {
    pub fn new(date: Date, time: Time) -> DateTime2 {
        DateTime2 { date, time }
    }

    pub const MIN: DateTime2 = DateTime2 {
        date: Date::MIN,
        time: Time(0),
    };
    pub const MAX: DateTime2 = DateTime2 {
        date: Date::MAX,
        time: Time(TICKS_PER_DAY - 1),
    };

    pub fn is_valid(self) -> bool {
        self.date.is_valid() && self.time.is_valid()
    }

    /// 100 ns ticks since 0001-01-01 00:00 (datetime2's stored form).
    /// Meaningful for valid values; others wrap rather than panic.
    pub fn to_ticks(self) -> i64 {
        i64::from(self.date.0)
            .wrapping_mul(TICKS_PER_DAY as i64)
            .wrapping_add(self.time.0 as i64)
    }

    pub fn from_ticks(ticks: i64) -> DateTime2 {
        let per_day = TICKS_PER_DAY as i64;
        DateTime2 {
            date: Date(ticks.div_euclid(per_day) as i32),
            time: Time(ticks.rem_euclid(per_day) as u64),
        }
    }

    /// Rounds to `scale` fractional digits (half up), carrying into the next
    /// day; None if that leaves datetime2's range.
    pub fn round_to_scale(self, scale: u8) -> Option<DateTime2> {
        if !self.is_valid() {
            return None;
        }
        let rounded = DateTime2 {
            date: self.date,
            time: Time(round_ticks(self.time.0, scale)),
        };
        let rounded = DateTime2::from_ticks(rounded.to_ticks());
        rounded.is_valid().then_some(rounded)
    }
}

impl DateTime {
    /// 1753-01-01 and 9999-12-31, as days since 1900-01-01.
    pub const MIN_DAYS: i32 = -53_690;
    pub const MAX_DAYS: i32 = 2_958_463;
    /// datetime counts 1/300 s.
    pub const TICKS_PER_SECOND: u32 = 300;
    pub const TICKS_PER_DAY: u32 = 86_400 * DateTime::TICKS_PER_SECOND;

    pub fn is_valid(self) -> bool {
        (DateTime::MIN_DAYS..=DateTime::MAX_DAYS).contains(&self.days)
            && self.ticks < DateTime::TICKS_PER_DAY
    }

    /// Rounds to datetime's 1/300 s (so milliseconds end in 0, 3 or 7),
    /// carrying into the next day; None outside 1753-01-01..9999-12-31.
    pub fn from_datetime2(value: DateTime2) -> Option<DateTime> {
        if !value.is_valid() {
            return None;
        }
        let ticks300 = crate::decimal::div_round(
            i128::from(value.time.0) * i128::from(DateTime::TICKS_PER_SECOND),
            i128::from(TICKS_PER_SECOND),
        ) as u32;
        let carry = ticks300 / DateTime::TICKS_PER_DAY;
        let result = DateTime {
            days: value.date.0 - DAYS_TO_1900 + carry as i32,
            ticks: ticks300 % DateTime::TICKS_PER_DAY,
        };
        result.is_valid().then_some(result)
    }

    /// The same instant with 100 ns ticks (1/300 s is rounded to the
    /// nearest tick: .003 becomes .0033333).
    pub fn to_datetime2(self) -> DateTime2 {
        let ticks = crate::decimal::div_round(
            i128::from(self.ticks) * i128::from(TICKS_PER_SECOND),
            i128::from(DateTime::TICKS_PER_SECOND),
        ) as u64;
        DateTime2 {
            date: Date(self.days.wrapping_add(DAYS_TO_1900)),
            time: Time(ticks),
        }
    }
}

impl SmallDateTime {
    pub const MINUTES_PER_DAY: u16 = 1_440;

    /// Every `days` value is in range (1900-01-01 to 2079-06-06).
    pub fn is_valid(self) -> bool {
        self.minutes < SmallDateTime::MINUTES_PER_DAY
    }

    /// Rounds to the minute (29.999 s and up round up, as SQL Server
    /// documents), carrying into the next day; None outside
    /// 1900-01-01..2079-06-06 23:59.
    pub fn from_datetime2(value: DateTime2) -> Option<SmallDateTime> {
        if !value.is_valid() {
            return None;
        }
        const ROUND_UP_FROM: u64 = 29_999 * TICKS_PER_SECOND / 1000;
        let mut minutes = value.time.0 / TICKS_PER_MINUTE;
        if value.time.0 % TICKS_PER_MINUTE >= ROUND_UP_FROM {
            minutes += 1;
        }
        let days = i64::from(value.date.0 - DAYS_TO_1900) + (minutes / 1440) as i64;
        Some(SmallDateTime {
            days: u16::try_from(days).ok()?,
            minutes: (minutes % 1440) as u16,
        })
    }

    pub fn to_datetime2(self) -> DateTime2 {
        DateTime2 {
            date: Date(i32::from(self.days) + DAYS_TO_1900),
            time: Time(u64::from(self.minutes) * TICKS_PER_MINUTE),
        }
    }
}

impl DateTimeOffset {
    /// Offsets run from -14:00 to +14:00.
    pub const MAX_OFFSET_MINUTES: i16 = 14 * 60;

    pub fn is_valid(self) -> bool {
        // unsigned_abs: i16::MIN (from a client's bytes) has no i16 absolute value.
        self.utc.is_valid()
            && self.offset_minutes.unsigned_abs()
                <= DateTimeOffset::MAX_OFFSET_MINUTES.unsigned_abs()
    }

    /// The instant written as local time `local` at `offset_minutes` east of
    /// UTC; None if the offset or the UTC instant is out of range.
    pub fn from_local(local: DateTime2, offset_minutes: i16) -> Option<DateTimeOffset> {
        if !local.is_valid() {
            return None;
        }
        let shift = i64::from(offset_minutes) * TICKS_PER_MINUTE as i64;
        let result = DateTimeOffset {
            utc: DateTime2::from_ticks(local.to_ticks() - shift),
            offset_minutes,
        };
        result.is_valid().then_some(result)
    }

    /// The local date and time the value was written with.
    pub fn local(self) -> DateTime2 {
        let shift = i64::from(self.offset_minutes) * TICKS_PER_MINUTE as i64;
        DateTime2::from_ticks(self.utc.to_ticks().wrapping_add(shift))
    }
}

#[cfg(test)]
mod tests;
