//! Calendar arithmetic for the date functions: days and months added to a
//! date (a month's missing day clipped to its last), ticks added to a
//! datetime2, the day of the year, the weekday and the ISO 8601 week.

use super::{civil, Date, DateTime2};

impl Date {
    /// The date `days` later (earlier when negative); None outside
    /// 0001-01-01..9999-12-31.
    pub fn add_days(self, days: i64) -> Option<Date> {
        let day = i64::from(self.0).checked_add(days)?;
        let date = Date(i32::try_from(day).ok()?);
        date.is_valid().then_some(date)
    }

    /// The same day `months` later, or the last day of that month when it
    /// is shorter (January 31 plus one month is February 28 or 29); None
    /// outside the date range.
    pub fn add_months(self, months: i64) -> Option<Date> {
        let (year, month, day) = self.ymd();
        let index = (i64::from(year) * 12 + i64::from(month) - 1).checked_add(months)?;
        let year = i32::try_from(index.div_euclid(12)).ok()?;
        let month = (index.rem_euclid(12) + 1) as u32;
        if !(1..=9999).contains(&year) {
            return None;
        }
        Date::from_ymd(year, month, day.min(civil::days_in_month(year, month)))
    }

    /// The last day of this date's month.
    pub fn end_of_month(self) -> Date {
        let (year, month, _) = self.ymd();
        Date::from_ymd(year, month, civil::days_in_month(year, month))
            .expect("a month's last day is a date")
    }

    /// 1 for January 1.
    pub fn day_of_year(self) -> u32 {
        let (year, _, _) = self.ymd();
        let first = civil::days_from_civil(year, 1, 1);
        (i64::from(self.0) - first + 1) as u32
    }

    /// 0 for Sunday through 6 for Saturday (0001-01-01 was a Monday).
    pub fn weekday(self) -> u32 {
        (i64::from(self.0) + 1).rem_euclid(7) as u32
    }

    /// The ISO 8601 week number: weeks start on Monday and week 1 is the
    /// one holding the year's first Thursday, so early January can be in
    /// week 52 or 53 of the year before.
    pub fn iso_week(self) -> u32 {
        let days_since_monday = i64::from((self.weekday() + 6) % 7);
        let thursday = i64::from(self.0) - days_since_monday + 3;
        let (year, _, _) = civil::civil_from_days(thursday);
        let first = civil::days_from_civil(year, 1, 1);
        ((thursday - first) / 7 + 1) as u32
    }
}

impl DateTime2 {
    /// The instant `ticks` (100 ns) later; None outside datetime2's range.
    pub fn add_ticks(self, ticks: i128) -> Option<DateTime2> {
        let total = i128::from(self.to_ticks()).checked_add(ticks)?;
        let moved = DateTime2::from_ticks(i64::try_from(total).ok()?);
        moved.is_valid().then_some(moved)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datetime::Time;

    fn date(y: i32, m: u32, d: u32) -> Date {
        Date::from_ymd(y, m, d).unwrap()
    }

    #[test]
    fn months_clip_to_the_last_day() {
        assert_eq!(date(2006, 8, 31).add_months(1), Some(date(2006, 9, 30)));
        assert_eq!(date(2024, 1, 31).add_months(1), Some(date(2024, 2, 29)));
        assert_eq!(date(2024, 3, 31).add_months(-13), Some(date(2023, 2, 28)));
        assert_eq!(date(9999, 12, 1).add_months(1), None);
        assert_eq!(date(1, 1, 1).add_months(-1), None);
        assert_eq!(date(2000, 1, 1).add_months(i64::MAX), None);
    }

    #[test]
    fn days_stay_in_range() {
        assert_eq!(date(2024, 2, 28).add_days(2), Some(date(2024, 3, 1)));
        assert_eq!(Date::MAX.add_days(1), None);
        assert_eq!(Date::MIN.add_days(-1), None);
    }

    #[test]
    fn weekdays_and_weeks() {
        assert_eq!(date(1, 1, 1).weekday(), 1);
        assert_eq!(date(2007, 4, 21).weekday(), 6);
        assert_eq!(date(2024, 12, 31).day_of_year(), 366);
        assert_eq!(date(2007, 10, 30).day_of_year(), 303);
        // 2004W01 ran from Monday 2003-12-29 to Sunday 2004-01-04.
        assert_eq!(date(2003, 12, 29).iso_week(), 1);
        assert_eq!(date(2004, 1, 4).iso_week(), 1);
        assert_eq!(date(2004, 1, 5).iso_week(), 2);
        assert_eq!(date(2021, 1, 3).iso_week(), 53);
        assert_eq!(date(2007, 10, 30).iso_week(), 44);
        assert_eq!(date(2024, 2, 29).end_of_month(), date(2024, 2, 29));
        assert_eq!(date(2023, 2, 1).end_of_month(), date(2023, 2, 28));
    }

    #[test]
    fn ticks_carry_into_days() {
        let start = DateTime2::new(date(2024, 1, 1), Time(0));
        assert_eq!(
            start.add_ticks(-1),
            Some(DateTime2::new(
                date(2023, 12, 31),
                Time(super::super::TICKS_PER_DAY - 1)
            ))
        );
        assert_eq!(DateTime2::MAX.add_ticks(1), None);
    }
}
