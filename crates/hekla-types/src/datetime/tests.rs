use super::*;
use crate::SqlError;

fn number<T: std::fmt::Debug>(result: Result<T, SqlError>) -> u32 {
    result.unwrap_err().number
}

#[test]
fn dates_from_parts_and_back() {
    let d = Date::from_ymd(2024, 2, 29).unwrap();
    assert_eq!(d.ymd(), (2024, 2, 29));
    assert_eq!((d.year(), d.month(), d.day()), (2024, 2, 29));
    assert_eq!(Date::from_ymd(1, 1, 1), Some(Date::MIN));
    assert_eq!(Date::from_ymd(9999, 12, 31), Some(Date::MAX));
    assert_eq!(Date::from_ymd(2023, 2, 29), None);
    assert_eq!(Date::from_ymd(0, 1, 1), None);
    assert_eq!(Date::from_ymd(2024, 13, 1), None);
    assert_eq!(Date::DEFAULT.to_string(), "1900-01-01");
}

#[test]
fn times_from_parts_and_back() {
    let t = Time::from_hms(23, 59, 58, 1_234_567).unwrap();
    assert_eq!(
        (t.hour(), t.minute(), t.second(), t.fraction()),
        (23, 59, 58, 1_234_567)
    );
    assert_eq!(Time::from_hms(24, 0, 0, 0), None);
    assert_eq!(Time::from_hms(0, 60, 0, 0), None);
    assert_eq!(Time::from_hms(0, 0, 0, 10_000_000), None);
    assert_eq!(t.format(3), "23:59:58.123");
    assert_eq!(t.format(0), "23:59:58");
    assert_eq!(t.to_string(), "23:59:58.1234567");
}

#[test]
fn literals_parse_in_every_accepted_form() {
    let d: Date = "2024-01-31".parse().unwrap();
    assert_eq!(d.to_string(), "2024-01-31");
    assert_eq!("20240131".parse::<Date>().unwrap(), d);
    assert_eq!("2024/1/31".parse::<Date>().unwrap(), d);
    assert_eq!(" 2024-01-31 12:34 ".parse::<Date>().unwrap(), d);
    let dt2: DateTime2 = "2024-01-31T12:34:56.1234567".parse().unwrap();
    assert_eq!(dt2.to_string(), "2024-01-31 12:34:56.1234567");
    assert_eq!(dt2.format(2), "2024-01-31 12:34:56.12");
    assert_eq!(
        "2024-01-31 12:34".parse::<DateTime2>().unwrap().format(0),
        "2024-01-31 12:34:00"
    );
    let t: Time = "12:34:56".parse().unwrap();
    assert_eq!(t.to_string(), "12:34:56.0000000");
    assert_eq!("1:02:03.5".parse::<Time>().unwrap().format(1), "01:02:03.5");
    assert_eq!(
        "12:34".parse::<DateTime2>().unwrap().to_string(),
        "1900-01-01 12:34:00.0000000"
    );
    assert_eq!("2024-01-31".parse::<Time>().unwrap(), Time(0));
}

#[test]
fn bad_literals_are_msg_241() {
    for bad in [
        "",
        "2024-01",
        "2024-13-01",
        "2024-02-30",
        "24-01-31",
        "2024-01-31T",
        "2024-01-31 25:00",
        "12:60",
        "12:34:56.12345678",
        "12:34:5",
        "hello",
        "2024-01-31 12:34 +15:00",
        "2024-01-31 12:34 +02",
        "2024-01-31 12:34 x",
    ] {
        let err = bad.parse::<DateTime2>().unwrap_err();
        assert_eq!(err.number, 241, "{bad:?}");
        assert_eq!(
            err.message,
            "Conversion failed when converting date and/or time from character string."
        );
    }
}

#[test]
fn datetime_rounds_to_three_hundredths_of_a_second() {
    let shown = |text: &str| text.parse::<DateTime>().unwrap().to_string();
    assert_eq!(shown("2024-01-31 12:34:56.789"), "2024-01-31 12:34:56.790");
    assert_eq!(shown("2024-01-31 12:34:56.001"), "2024-01-31 12:34:56.000");
    assert_eq!(shown("2024-01-31 12:34:56.002"), "2024-01-31 12:34:56.003");
    assert_eq!(shown("2024-01-31 12:34:56.005"), "2024-01-31 12:34:56.007");
    assert_eq!(shown("2024-01-31 12:34:56.008"), "2024-01-31 12:34:56.007");
    assert_eq!(shown("2024-01-31 23:59:59.999"), "2024-02-01 00:00:00.000");
    assert_eq!(shown("1753-01-01"), "1753-01-01 00:00:00.000");
    assert_eq!(shown("9999-12-31 23:59:59.997"), "9999-12-31 23:59:59.997");
    assert_eq!(number("1752-12-31".parse::<DateTime>()), 242);
    assert_eq!(number("9999-12-31 23:59:59.999".parse::<DateTime>()), 242);
    assert_eq!(number("2023-02-29".parse::<DateTime>()), 242);
    assert_eq!(number("2024-01-31 12:34:56.1234".parse::<DateTime>()), 241);
    let err = "1700-01-01".parse::<DateTime>().unwrap_err();
    assert_eq!(
        err.message,
        "The conversion of a varchar data type to a datetime data type resulted in an out-of-range value."
    );
}

#[test]
fn datetime_converts_to_datetime2_and_back() {
    let dt: DateTime = "2024-01-31 12:34:56.003".parse().unwrap();
    assert_eq!(dt.to_datetime2().to_string(), "2024-01-31 12:34:56.0033333");
    assert_eq!(DateTime::from_datetime2(dt.to_datetime2()), Some(dt));
    for ticks in [0, 1, 2, 299, DateTime::TICKS_PER_DAY - 1] {
        let dt = DateTime { days: 100, ticks };
        assert_eq!(DateTime::from_datetime2(dt.to_datetime2()), Some(dt));
    }
}

#[test]
fn smalldatetime_rounds_to_the_minute() {
    let shown = |text: &str| text.parse::<SmallDateTime>().unwrap().to_string();
    assert_eq!(shown("2024-01-31 12:34:29.998"), "2024-01-31 12:34:00");
    assert_eq!(shown("2024-01-31 12:34:29.999"), "2024-01-31 12:35:00");
    assert_eq!(shown("2024-01-31 23:59:45"), "2024-02-01 00:00:00");
    assert_eq!(shown("2079-06-06 23:59"), "2079-06-06 23:59:00");
    assert_eq!(number("2079-06-06 23:59:30".parse::<SmallDateTime>()), 242);
    assert_eq!(number("1899-12-31".parse::<SmallDateTime>()), 242);
}

#[test]
fn datetimeoffset_keeps_utc_and_shows_local_time() {
    let v: DateTimeOffset = "2024-01-31 12:34:56.5 +02:00".parse().unwrap();
    assert_eq!(v.offset_minutes, 120);
    assert_eq!(v.utc.format(1), "2024-01-31 10:34:56.5");
    assert_eq!(v.to_string(), "2024-01-31 12:34:56.5000000 +02:00");
    assert_eq!(v.format(0), "2024-01-31 12:34:56 +02:00");
    let w: DateTimeOffset = "2024-01-31T05:04:56.5-05:30".parse().unwrap();
    assert_eq!(w.utc.format(1), "2024-01-31 10:34:56.5");
    assert_eq!(w.to_string(), "2024-01-31 05:04:56.5000000 -05:30");
    let z: DateTimeOffset = "2024-01-31 10:34:56.5Z".parse().unwrap();
    assert_eq!(z.utc, v.utc);
    assert_eq!(z.offset_minutes, 0);
    assert_eq!(
        number("0001-01-01 00:00 +01:00".parse::<DateTimeOffset>()),
        242
    );
    assert_eq!(DateTimeOffset::from_local(DateTime2::MIN, 841), None);
}

#[test]
fn rounding_to_a_scale() {
    let t: Time = "23:59:59.9999999".parse().unwrap();
    assert_eq!(t.round_to_scale(3), Time(0));
    assert_eq!(
        "10:00:00.1235"
            .parse::<Time>()
            .unwrap()
            .round_to_scale(3)
            .format(3),
        "10:00:00.124"
    );
    let d: DateTime2 = "2024-12-31 23:59:59.9999999".parse().unwrap();
    assert_eq!(
        d.round_to_scale(0).unwrap().to_string(),
        "2025-01-01 00:00:00.0000000"
    );
    assert_eq!(DateTime2::MAX.round_to_scale(6), None);
    assert_eq!(DateTime2::MAX.round_to_scale(7), Some(DateTime2::MAX));
}

#[test]
fn any_offset_is_checked_without_overflow() {
    let utc = DateTime2::new(Date::DEFAULT, Time(0));
    for (offset_minutes, valid) in [
        (i16::MIN, false),
        (i16::MAX, false),
        (-840, true),
        (841, false),
    ] {
        let value = DateTimeOffset {
            utc,
            offset_minutes,
        };
        assert_eq!(value.is_valid(), valid, "{offset_minutes}");
    }
}
