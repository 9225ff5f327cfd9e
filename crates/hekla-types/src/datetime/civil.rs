//! Proleptic Gregorian calendar arithmetic (what date and datetime2 use):
//! day numbers counted from 0001-01-01 to and from year, month, day.

/// Days from 0000-03-01 to 1970-01-01 in the era-based algorithm below;
/// shifting by it keeps the intermediate values non-negative.
const EPOCH_SHIFT: i64 = 719_468;
/// Days from 1970-01-01 back to 0001-01-01.
const DAY_ONE: i64 = -719_162;

/// Days since 0001-01-01 of a date (which the caller has validated).
pub(crate) fn days_from_civil(year: i32, month: u32, day: u32) -> i64 {
    let year = i64::from(year) - i64::from(month <= 2);
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let month_from_march = i64::from((month + 9) % 12);
    let day_of_year = (153 * month_from_march + 2) / 5 + i64::from(day) - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - EPOCH_SHIFT - DAY_ONE
}

/// Year, month and day of a day number (days since 0001-01-01).
pub(crate) fn civil_from_days(days: i64) -> (i32, u32, u32) {
    let z = days + DAY_ONE + EPOCH_SHIFT;
    let era = z.div_euclid(146_097);
    let day_of_era = z - era * 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153;
    let day = (day_of_year - (153 * month_from_march + 2) / 5 + 1) as u32;
    let month = if month_from_march < 10 {
        month_from_march + 3
    } else {
        month_from_march - 9
    } as u32;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year as i32, month, day)
}

pub(crate) fn is_leap_year(year: i32) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

pub(crate) fn days_in_month(year: i32, month: u32) -> u32 {
    match month {
        2 if is_leap_year(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_day_numbers() {
        assert_eq!(days_from_civil(1, 1, 1), 0);
        assert_eq!(days_from_civil(1900, 1, 1), 693_595);
        assert_eq!(days_from_civil(9999, 12, 31), 3_652_058);
        assert_eq!(days_from_civil(2000, 3, 1), 730_179);
    }

    #[test]
    fn round_trips_every_day_of_a_few_centuries() {
        for days in (0..3_652_059).step_by(7).chain(693_000..700_000) {
            let (y, m, d) = civil_from_days(days);
            assert!((1..=12).contains(&m) && d >= 1 && d <= days_in_month(y, m));
            assert_eq!(days_from_civil(y, m, d), days);
        }
    }

    #[test]
    fn leap_years() {
        assert!(is_leap_year(2000) && is_leap_year(2024));
        assert!(!is_leap_year(1900) && !is_leap_year(2023));
    }
}
