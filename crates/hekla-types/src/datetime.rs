//! Date and time types.

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

impl Date {
    /// 0001-01-01.
    pub const MIN: Date = Date(0);
    /// 9999-12-31.
    pub const MAX: Date = Date(3_652_058);

    pub fn is_valid(self) -> bool {
        (Date::MIN..=Date::MAX).contains(&self)
    }
}

impl Time {
    pub fn is_valid(self) -> bool {
        self.0 < TICKS_PER_DAY
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
    (ticks + unit / 2) / unit * unit
}

impl DateTime2 {
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
    pub fn to_ticks(self) -> i64 {
        i64::from(self.date.0) * TICKS_PER_DAY as i64 + self.time.0 as i64
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
}

impl SmallDateTime {
    pub const MINUTES_PER_DAY: u16 = 1_440;

    /// Every `days` value is in range (1900-01-01 to 2079-06-06).
    pub fn is_valid(self) -> bool {
        self.minutes < SmallDateTime::MINUTES_PER_DAY
    }
}

impl DateTimeOffset {
    /// Offsets run from -14:00 to +14:00.
    pub const MAX_OFFSET_MINUTES: i16 = 14 * 60;

    pub fn is_valid(self) -> bool {
        self.utc.is_valid() && self.offset_minutes.abs() <= DateTimeOffset::MAX_OFFSET_MINUTES
    }
}
