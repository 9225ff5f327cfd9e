//! SQL Server's default output formats for date and time values.

use super::{Date, DateTime, DateTime2, DateTimeOffset, SmallDateTime, Time, MAX_FRACTION_SCALE};
use std::fmt;

/// `yyyy-mm-dd`.
impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (y, m, d) = self.ymd();
        write!(f, "{y:04}-{m:02}-{d:02}")
    }
}

impl Time {
    /// `hh:mm:ss` and, for scale > 0, that many fractional digits, as
    /// time(scale) displays. The value should already be rounded to the
    /// scale (stored values are); extra digits are cut, not rounded.
    pub fn format(self, scale: u8) -> String {
        let mut text = format!(
            "{:02}:{:02}:{:02}",
            self.hour(),
            self.minute(),
            self.second()
        );
        let scale = usize::from(scale.min(MAX_FRACTION_SCALE));
        if scale > 0 {
            let digits = format!("{:07}", self.fraction());
            text.push('.');
            text.push_str(&digits[..scale]);
        }
        text
    }
}

/// time(7).
impl fmt::Display for Time {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.format(MAX_FRACTION_SCALE))
    }
}

impl DateTime2 {
    /// `yyyy-mm-dd hh:mm:ss[.fffffff]` with `scale` fractional digits.
    pub fn format(self, scale: u8) -> String {
        format!("{} {}", self.date, self.time.format(scale))
    }
}

/// datetime2(7).
impl fmt::Display for DateTime2 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.format(MAX_FRACTION_SCALE))
    }
}

/// `yyyy-mm-dd hh:mm:ss.mmm`, milliseconds ending in 0, 3 or 7.
impl fmt::Display for DateTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let date = self.to_datetime2().date;
        let millis = (u64::from(self.ticks) * 10 + 1) / 3;
        let seconds = millis / 1000;
        write!(
            f,
            "{date} {:02}:{:02}:{:02}.{:03}",
            seconds / 3600,
            seconds / 60 % 60,
            seconds % 60,
            millis % 1000
        )
    }
}

/// `yyyy-mm-dd hh:mm:00`.
impl fmt::Display for SmallDateTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let value = self.to_datetime2();
        f.write_str(&value.format(0))
    }
}

impl DateTimeOffset {
    /// The local date and time with `scale` fractional digits, then the
    /// offset: `2024-01-31 12:34:56.1234567 +02:00`.
    pub fn format(self, scale: u8) -> String {
        let offset = self.offset_minutes.unsigned_abs();
        let sign = if self.offset_minutes < 0 { '-' } else { '+' };
        format!(
            "{} {sign}{:02}:{:02}",
            self.local().format(scale),
            offset / 60,
            offset % 60
        )
    }
}

/// datetimeoffset(7).
impl fmt::Display for DateTimeOffset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.format(MAX_FRACTION_SCALE))
    }
}
