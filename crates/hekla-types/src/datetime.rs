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
