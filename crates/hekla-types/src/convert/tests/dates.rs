use super::*;

fn shown(value: Value) -> String {
    match value {
        Value::Date(v) => v.to_string(),
        Value::DateTime(v) => v.to_string(),
        Value::SmallDateTime(v) => v.to_string(),
        Value::DateTime2(v) => v.to_string(),
        Value::Time(v) => v.to_string(),
        Value::DateTimeOffset(v) => v.to_string(),
        other => panic!("not a date or time: {other:?}"),
    }
}

#[test]
fn default_text_of_each_type() {
    // datetime and smalldatetime: style 0.
    assert_eq!(to_text(datetime("2020-01-01")), "Jan  1 2020 12:00AM");
    assert_eq!(
        to_text(datetime("2006-04-18 09:58:04.570")),
        "Apr 18 2006  9:58AM"
    );
    assert_eq!(
        to_text(datetime("2020-12-31 23:59:59.997")),
        "Dec 31 2020 11:59PM"
    );
    assert_eq!(
        to_text(smalldatetime("2026-05-04 13:45")),
        "May  4 2026  1:45PM"
    );
    // The others: style 121 at their scale.
    assert_eq!(to_text(date("2026-05-04")), "2026-05-04");
    assert_eq!(to_text(date("0001-01-01")), "0001-01-01");
    let at = |scale| DataType::DateTime2 { scale };
    let value = datetime2("2010-07-20 13:44:31.5879025");
    assert_eq!(
        text_of(cast_from(value.clone(), at(7), nvarchar(30))),
        "2010-07-20 13:44:31.5879025"
    );
    let value = cast(value, at(0));
    assert_eq!(
        text_of(cast_from(value, at(0), varchar(30))),
        "2010-07-20 13:44:32"
    );
    let t = cast(time_value("13:45:30.123"), time(3));
    assert_eq!(text_of(cast_from(t, time(3), varchar(20))), "13:45:30.123");
    assert_eq!(to_text(time_value("13:45:30.1234567")), "13:45:30.1234567");
    let offset = cast(datetimeoffset("2026-05-04 13:45:30 -07:00"), dto(0));
    assert_eq!(
        text_of(cast_from(offset, dto(0), varchar(40))),
        "2026-05-04 13:45:30 -07:00"
    );
    let offset = cast(datetimeoffset("2026-05-04 13:45:30.123 +03:00"), dto(3));
    assert_eq!(
        text_of(cast_from(offset, dto(3), varchar(40))),
        "2026-05-04 13:45:30.123 +03:00"
    );
}

#[test]
fn datetime_in_every_style() {
    // The documentation's table (GETDATE() = 2019-08-23 13:39:17.090).
    let now = datetime("2019-08-23 13:39:17.090");
    for (style, expected) in [
        (0, "Aug 23 2019  1:39PM"),
        (100, "Aug 23 2019  1:39PM"),
        (1, "08/23/19"),
        (2, "19.08.23"),
        (3, "23/08/19"),
        (4, "23.08.19"),
        (5, "23-08-19"),
        (6, "23 Aug 19"),
        (7, "Aug 23, 19"),
        (8, "13:39:17"),
        (24, "13:39:17"),
        (108, "13:39:17"),
        (9, "Aug 23 2019  1:39:17:090PM"),
        (109, "Aug 23 2019  1:39:17:090PM"),
        (10, "08-23-19"),
        (11, "19/08/23"),
        (12, "190823"),
        (13, "23 Aug 2019 13:39:17:090"),
        (113, "23 Aug 2019 13:39:17:090"),
        (14, "13:39:17:090"),
        (114, "13:39:17:090"),
        (20, "2019-08-23 13:39:17"),
        (120, "2019-08-23 13:39:17"),
        (21, "2019-08-23 13:39:17.090"),
        (25, "2019-08-23 13:39:17.090"),
        (121, "2019-08-23 13:39:17.090"),
        (22, "08/23/19  1:39:17 PM"),
        (23, "2019-08-23"),
        (101, "08/23/2019"),
        (102, "2019.08.23"),
        (103, "23/08/2019"),
        (104, "23.08.2019"),
        (105, "23-08-2019"),
        (106, "23 Aug 2019"),
        (107, "Aug 23, 2019"),
        (110, "08-23-2019"),
        (111, "2019/08/23"),
        (112, "20190823"),
        (126, "2019-08-23T13:39:17.090"),
        (127, "2019-08-23T13:39:17.090"),
    ] {
        assert_eq!(
            to_text_styled(now.clone(), style),
            expected,
            "style {style}"
        );
    }
    // Style 126 drops a zero fraction; 1/300 s show as .003 and .007.
    assert_eq!(
        to_text_styled(datetime("2012-11-07 18:26:20"), 126),
        "2012-11-07T18:26:20"
    );
    assert_eq!(
        to_text_styled(datetime("2012-11-07 00:00:00.007"), 121),
        "2012-11-07 00:00:00.007"
    );
    assert_eq!(
        to_text_styled(datetime("2012-11-07 00:00:00.003"), 114),
        "00:00:00:003"
    );
    assert_eq!(
        to_text_styled(datetime("2001-01-05 00:05"), 0),
        "Jan  5 2001 12:05AM"
    );
    assert_eq!(
        to_text_styled(datetime("2001-01-05 12:05"), 0),
        "Jan  5 2001 12:05PM"
    );
    assert_eq!(to_text_styled(datetime("2001-01-05"), 107), "Jan 05, 2001");
}

#[test]
fn other_types_in_styles() {
    let at = |scale| DataType::DateTime2 { scale };
    let v = datetime2("2019-08-23 13:39:17.1234567");
    let styled_from = |value: Value, source: DataType, style| {
        text_of(convert_from(&value, &source, &varchar_max(), Some(style)).unwrap())
    };
    assert_eq!(
        styled_from(v.clone(), at(7), 9),
        "Aug 23 2019  1:39:17.1234567PM"
    );
    assert_eq!(
        styled_from(v.clone(), at(7), 13),
        "23 Aug 2019 13:39:17.1234567"
    );
    assert_eq!(
        styled_from(v.clone(), at(7), 126),
        "2019-08-23T13:39:17.1234567"
    );
    assert_eq!(styled_from(v.clone(), at(7), 101), "08/23/2019");
    assert_eq!(styled_from(v.clone(), at(7), 0), "Aug 23 2019  1:39PM");
    let zero = cast(v, at(0));
    assert_eq!(styled_from(zero.clone(), at(0), 121), "2019-08-23 13:39:17");
    assert_eq!(styled_from(zero, at(0), 9), "Aug 23 2019  1:39:17PM");
    // A date writes only its date; a time-only style is Msg 8114, 14 and
    // 114 are no styles for it.
    assert_eq!(to_text_styled(date("2026-05-04"), 0), "May  4 2026");
    assert_eq!(to_text_styled(date("2026-05-04"), 101), "05/04/2026");
    assert_eq!(to_text_styled(date("2026-05-04"), 121), "2026-05-04");
    assert_error(
        fail_styled(date("2026-05-04"), varchar(30), 8),
        8114,
        5,
        "Error converting data type date to varchar.",
    );
    assert_error(
        fail_styled(date("2026-05-04"), nvarchar(30), 114),
        281,
        1,
        "114 is not a valid style number when converting from date to a character string.",
    );
    // A time writes only its time, unpadded in styles 0 and 9.
    let t = cast(time_value("13:45:30.5"), time(1));
    assert_eq!(styled_from(t.clone(), time(1), 0), "1:45PM");
    assert_eq!(styled_from(t.clone(), time(1), 109), "1:45:30.5PM");
    assert_eq!(styled_from(t.clone(), time(1), 22), " 1:45:30 PM");
    assert_eq!(styled_from(t.clone(), time(1), 108), "13:45:30");
    assert_eq!(styled_from(t.clone(), time(1), 120), "13:45:30");
    assert_error(
        fail_from(t, time(1), nvarchar(30), Some(101)),
        8114,
        5,
        "Error converting data type time to nvarchar.",
    );
    // datetimeoffset: the offset follows the time; 127 is UTC with Z.
    let o = datetimeoffset("2026-05-04 13:45:30 -07:00");
    let source = dto(0);
    let o = cast_from(o, dto(7), source);
    assert_eq!(
        styled_from(o.clone(), source, 126),
        "2026-05-04T13:45:30-07:00"
    );
    assert_eq!(styled_from(o.clone(), source, 127), "2026-05-04T20:45:30Z");
    assert_eq!(
        styled_from(o.clone(), source, 0),
        "May  4 2026  1:45PM -07:00"
    );
    assert_eq!(styled_from(o, source, 103), "04/05/2026");
    // smalldatetime shows zero seconds and milliseconds.
    let sdt = smalldatetime("2026-05-04 13:45");
    assert_eq!(to_text_styled(sdt.clone(), 120), "2026-05-04 13:45:00");
    assert_eq!(to_text_styled(sdt.clone(), 121), "2026-05-04 13:45:00.000");
    assert_eq!(to_text_styled(sdt, 9), "May  4 2026  1:45:00:000PM");
}

#[test]
fn styles_out_of_the_table_are_msg_281() {
    for style in [-1, 15, 19, 26, 99, 115, 119, 122, 125, 128, 132, 1000] {
        assert_error(
            fail_styled(datetime("2020-01-01"), varchar(30), style),
            281,
            1,
            &format!("{style} is not a valid style number when converting from datetime to a character string."),
        );
    }
    assert_eq!(
        fail_styled(datetime2("2020-01-01"), varchar(30), 16).message,
        "16 is not a valid style number when converting from datetime2 to a character string."
    );
    assert_eq!(
        fail_styled(datetime("2020-01-01"), varchar(30), 130).number,
        10794
    );
    // Styles of other types are not checked for dates' sake.
    assert_eq!(to_text_styled(Value::Int(5), 15), "5");
}

#[test]
fn dates_into_short_text_are_cut_but_datetimeoffset_fails() {
    assert_eq!(
        text_of(cast(datetime("2020-01-01"), varchar(11))),
        "Jan  1 2020"
    );
    assert_eq!(
        text_of(styled(datetime2("2020-01-01 10:00"), char_(10), 121)),
        "2020-01-01"
    );
    assert_eq!(text_of(cast(date("2020-01-01"), nchar(12))), "2020-01-01  ");
    assert_eq!(
        fail(datetimeoffset("2020-01-01 10:00"), varchar(10)).number,
        241
    );
}

#[test]
fn text_to_dates_in_the_iso_forms() {
    assert_eq!(shown(cast(s("2020-01-01"), DataType::Date)), "2020-01-01");
    assert_eq!(shown(cast(s("20200101"), DataType::Date)), "2020-01-01");
    assert_eq!(shown(cast(s(" 2024-01-31 "), DataType::Date)), "2024-01-31");
    assert_eq!(
        shown(cast(s("2024-01-31 12:34"), DataType::Date)),
        "2024-01-31"
    );
    assert_eq!(
        shown(cast(s("2024-01-31T12:34:56.5"), time(1))),
        "12:34:56.5000000"
    );
    assert_eq!(
        shown(cast(s("2007-05-08 12:35:29.1234567 +12:15"), dto(7))),
        "2007-05-08 12:35:29.1234567 +12:15"
    );
    assert_eq!(
        shown(cast(s("2007-05-08 12:35:29.1234567 +12:15"), dt2(7))),
        "2007-05-08 12:35:29.1234567"
    );
    assert_eq!(
        shown(cast(s("2007-05-08 12:35:29.123"), DataType::SmallDateTime)),
        "2007-05-08 12:35:00"
    );
    assert_eq!(
        shown(cast(s("2007-05-08 12:35:29.123"), DataType::DateTime)),
        "2007-05-08 12:35:29.123"
    );
    assert_eq!(
        shown(cast(s("2026-05-04 13:45:30"), dto(0))),
        "2026-05-04 13:45:30.0000000 +00:00"
    );
    assert_eq!(
        shown(cast(s("12:34"), DataType::DateTime)),
        "1900-01-01 12:34:00.000"
    );
}

#[test]
fn text_to_dates_in_the_other_forms() {
    let as_date = |text: &str| shown(cast(s(text), DataType::Date));
    assert_eq!(as_date("Jan 1 2020"), "2020-01-01");
    assert_eq!(as_date("January 31, 2024"), "2024-01-31");
    assert_eq!(as_date("31 Jan 2024"), "2024-01-31");
    assert_eq!(as_date("31 january, 24"), "2024-01-31");
    assert_eq!(as_date("Sep 2024"), "2024-09-01");
    assert_eq!(as_date("2024 Sept 3"), "2024-09-03");
    // Numeric dates are month first, as under us_english.
    assert_eq!(as_date("1/31/2024"), "2024-01-31");
    assert_eq!(as_date("01-31-2024"), "2024-01-31");
    assert_eq!(as_date("1.31.24"), "2024-01-31");
    assert_eq!(as_date("12/10/49"), "2049-12-10");
    assert_eq!(as_date("12/10/50"), "1950-12-10");
    assert_eq!(as_date("2024/1/31"), "2024-01-31");
    assert_eq!(as_date("240131"), "2024-01-31");
    assert_eq!(as_date("2024"), "2024-01-01");
    let as_datetime = |text: &str| shown(cast(s(text), DataType::DateTime));
    assert_eq!(
        as_datetime("Jan  1 2020 12:00AM"),
        "2020-01-01 00:00:00.000"
    );
    assert_eq!(
        as_datetime("Jan  1 2020 12:00PM"),
        "2020-01-01 12:00:00.000"
    );
    assert_eq!(as_datetime("4/15/96 4 PM"), "1996-04-15 16:00:00.000");
    assert_eq!(as_datetime("4pm 4/15/1996"), "1996-04-15 16:00:00.000");
    assert_eq!(
        as_datetime("2020-01-01 12:30:20:1"),
        "2020-01-01 12:30:20.000"
    );
    assert_eq!(
        as_datetime("2020-01-01 12:30:20:5"),
        "2020-01-01 12:30:20.007"
    );
    assert_eq!(
        as_datetime("2020-01-01 1:05:07.5 pm"),
        "2020-01-01 13:05:07.500"
    );
    let as_time = |text: &str| shown(cast(s(text), time(7)));
    assert_eq!(as_time("4:05PM"), "16:05:00.0000000");
    assert_eq!(as_time("12:30 AM"), "00:30:00.0000000");
    assert_eq!(as_time("12:30 PM"), "12:30:00.0000000");
    assert_eq!(as_time("13:30 PM"), "13:30:00.0000000");
    assert_eq!(as_time("01:01:01.1234567 PM"), "13:01:01.1234567");
    for bad in [
        "13:00 AM",
        "0:30PM",
        "25:00",
        "12:60",
        "abc",
        "Foo 1 2020",
        "1/2",
        "1/2/3/4",
        "12",
    ] {
        assert_eq!(fail(s(bad), time(7)).number, 241, "{bad:?}");
    }
}

#[test]
fn styles_choose_the_order_of_numeric_dates() {
    let read = |text: &str, style| shown(styled(s(text), DataType::Date, style));
    assert_eq!(read("02/01/2024", 101), "2024-02-01");
    assert_eq!(read("02/01/2024", 103), "2024-01-02");
    assert_eq!(read("02.01.24", 4), "2024-01-02");
    assert_eq!(read("02-01-24", 5), "2024-01-02");
    assert_eq!(read("24.01.02", 2), "2024-01-02");
    assert_eq!(read("24/01/02", 11), "2024-01-02");
    assert_eq!(read("31/01/2024", 103), "2024-01-31");
    // Unknown styles read as the default.
    assert_eq!(read("02/01/2024", 999), "2024-02-01");
    assert_eq!(fail(s("31/01/2024"), DataType::Date).number, 241);
}

#[test]
fn the_session_date_format_orders_numeric_dates() {
    let source = varchar(30);
    let read = |text: &str, target: DataType, format: DateFormat| {
        convert_under(&s(text), &source, &target, None, format).map(shown)
    };
    let date = DataType::Date;
    assert_eq!(
        read("02/01/2024", date, DateFormat::Mdy).unwrap(),
        "2024-02-01"
    );
    assert_eq!(
        read("02/01/2024", date, DateFormat::Dmy).unwrap(),
        "2024-01-02"
    );
    assert_eq!(
        read("24/01/02", date, DateFormat::Ymd).unwrap(),
        "2024-01-02"
    );
    assert_eq!(
        read("01/2024/02", date, DateFormat::Myd).unwrap(),
        "2024-01-02"
    );
    assert_eq!(
        read("02/2024/01", date, DateFormat::Dym).unwrap(),
        "2024-01-02"
    );
    // ydm is datetime's alone: the newer types read it as ymd.
    assert_eq!(
        read("24/02/01", date, DateFormat::Ydm).unwrap(),
        "2024-02-01"
    );
    let legacy = DataType::DateTime;
    assert_eq!(
        read("24/02/01", legacy, DateFormat::Ydm).unwrap(),
        "2024-01-02 00:00:00.000"
    );
    assert_eq!(
        read("31/12/2008", date, DateFormat::Mdy)
            .unwrap_err()
            .number,
        241
    );
    // A CONVERT style wins over the session's order.
    assert_eq!(
        shown(convert_under(&s("02/01/2024"), &source, &date, Some(101), DateFormat::Dmy).unwrap()),
        "2024-02-01"
    );
    // yyyy-mm-dd: always so for the newer types and after a T; datetime
    // reads it year, day, month when the day comes first.
    assert_eq!(
        read("2024-02-01", date, DateFormat::Dmy).unwrap(),
        "2024-02-01"
    );
    assert_eq!(
        read("2024-02-01", legacy, DateFormat::Dmy).unwrap(),
        "2024-01-02 00:00:00.000"
    );
    assert_eq!(
        read("2024-02-01T10:00:00", legacy, DateFormat::Dmy).unwrap(),
        "2024-02-01 10:00:00.000"
    );
    assert_eq!(
        read("20240201", legacy, DateFormat::Dmy).unwrap(),
        "2024-02-01 00:00:00.000"
    );
    assert_eq!(
        read("2003-02-28", legacy, DateFormat::Dmy)
            .unwrap_err()
            .number,
        242
    );
}

#[test]
fn constants_settle_only_when_every_date_format_agrees() {
    let source = varchar(30);
    let settled = |text: &str, target: DataType| convert_settled(&s(text), &source, &target);
    assert!(settled("2024-02-01", DataType::Date).is_some());
    assert!(settled("20240201", DataType::DateTime).is_some());
    assert!(settled("2024-02-01", DataType::DateTime).is_none());
    assert!(settled("02/01/2024", DataType::Date).is_none());
    assert!(settled("12", DataType::Int).is_some());
    assert!(settled("x", DataType::Int).is_none());
}

#[test]
fn text_that_is_no_date() {
    // Blanks are 1900-01-01 for datetime and smalldatetime only.
    assert_eq!(cast(s(""), DataType::DateTime), datetime("1900-01-01"));
    assert_eq!(
        cast(s("  "), DataType::SmallDateTime),
        smalldatetime("1900-01-01")
    );
    assert_eq!(fail(s(""), DataType::Date).number, 241);
    assert_eq!(fail(s(" "), dt2(7)).number, 241);
    assert_error(
        fail(s("abc"), DataType::Date),
        241,
        1,
        "Conversion failed when converting date and/or time from character string.",
    );
    assert_eq!(fail(s("abc"), DataType::DateTime).number, 241);
    assert_eq!(fail(s("2024-02-30"), dt2(7)).number, 241);
    assert_eq!(
        fail(s("2024-01-31 12:34:56.1234"), DataType::DateTime).number,
        241
    );
    assert_error(
        fail(s("abc"), DataType::SmallDateTime),
        295,
        3,
        "Conversion failed when converting character string to smalldatetime data type.",
    );
    // A date that does not exist is Msg 242 for datetime and smalldatetime.
    assert_error(
        fail(s("2023-02-29"), DataType::DateTime),
        242,
        3,
        "The conversion of a varchar data type to a datetime data type resulted in an out-of-range value.",
    );
    assert_eq!(fail(s("2024-13-01"), DataType::DateTime).number, 242);
    assert_eq!(fail(s("13/01/2024"), DataType::SmallDateTime).number, 242);
    assert_eq!(
        fail_from(s("1752-12-31"), nvarchar(10), DataType::DateTime, None).message,
        "The conversion of a nvarchar data type to a datetime data type resulted in an out-of-range value."
    );
    assert_eq!(
        fail(s("2079-06-07"), DataType::SmallDateTime).message,
        "The conversion of a varchar data type to a smalldatetime data type resulted in an out-of-range value."
    );
}

#[test]
fn leap_days_and_range_limits() {
    assert_eq!(
        shown(cast(s("2024-02-29"), DataType::DateTime)),
        "2024-02-29 00:00:00.000"
    );
    assert_eq!(shown(cast(s("2000-02-29"), DataType::Date)), "2000-02-29");
    assert_eq!(fail(s("1900-02-29"), DataType::DateTime).number, 242);
    assert_eq!(fail(s("2100-02-29"), DataType::Date).number, 241);
    assert_eq!(
        shown(cast(s("1753-01-01"), DataType::DateTime)),
        "1753-01-01 00:00:00.000"
    );
    assert_eq!(
        fail(s("1752-12-31 23:59:59.997"), DataType::DateTime).number,
        242
    );
    assert_eq!(
        fail(s("9999-12-31 23:59:59.999"), DataType::DateTime).number,
        242
    );
    assert_eq!(
        shown(cast(s("0001-01-01"), dt2(7))),
        "0001-01-01 00:00:00.0000000"
    );
    assert_eq!(
        shown(cast(s("9999-12-31 23:59:59.9999999"), dt2(7))),
        "9999-12-31 23:59:59.9999999"
    );
    assert_eq!(
        fail(s("9999-12-31 23:59:59.9999999"), dt2(0)).message,
        "The conversion of a varchar data type to a datetime2 data type resulted in an out-of-range value."
    );
    assert_eq!(
        shown(cast(s("2079-06-06 23:59"), DataType::SmallDateTime)),
        "2079-06-06 23:59:00"
    );
    assert_eq!(
        shown(cast(s("1900-01-01"), DataType::SmallDateTime)),
        "1900-01-01 00:00:00"
    );
}

#[test]
fn styles_round_trip() {
    let moment = datetime("2019-08-23 13:39:17.090");
    for style in [9, 13, 21, 25, 109, 113, 121, 126, 127] {
        let written = styled(moment.clone(), varchar(40), style);
        let read = styled(written.clone(), DataType::DateTime, style);
        assert_eq!(read, moment, "style {style}: {written:?}");
    }
    let minute = datetime("2019-08-23 13:39");
    for style in [0, 20, 22, 100, 120] {
        let written = styled(minute.clone(), varchar(40), style);
        assert_eq!(
            styled(written, DataType::DateTime, style),
            minute,
            "style {style}"
        );
    }
    let day = date("2019-08-03");
    for style in [
        1, 2, 3, 4, 5, 6, 7, 10, 11, 12, 23, 101, 102, 103, 104, 105, 106, 107, 110, 111, 112,
    ] {
        let written = styled(day.clone(), varchar(40), style);
        assert_eq!(
            styled(written.clone(), DataType::Date, style),
            day,
            "style {style}: {written:?}"
        );
    }
    let precise = datetime2("2019-08-23 13:39:17.1234567");
    for style in [9, 13, 21, 121, 126] {
        let written = styled(precise.clone(), varchar(40), style);
        assert_eq!(styled(written, dt2(7), style), precise, "style {style}");
    }
    let offset = datetimeoffset("2019-08-23 13:39:17.1234567 -05:30");
    for style in [121, 126] {
        let written = styled(offset.clone(), varchar(50), style);
        assert_eq!(styled(written, dto(7), style), offset, "style {style}");
    }
    let written = styled(offset.clone(), varchar(50), 127);
    let read = styled(written, dto(7), 127);
    let (Value::DateTimeOffset(a), Value::DateTimeOffset(b)) = (&read, &offset) else {
        panic!("{read:?}");
    };
    assert_eq!((a.utc, a.offset_minutes), (b.utc, 0));
}

#[test]
fn between_date_and_time_types() {
    // The documentation's examples.
    assert_eq!(
        shown(cast(date("2025-12-10"), DataType::DateTime)),
        "2025-12-10 00:00:00.000"
    );
    assert_eq!(
        shown(cast(date("1912-10-25"), DataType::SmallDateTime)),
        "1912-10-25 00:00:00"
    );
    assert_eq!(
        shown(cast(date("1912-10-25"), dto(3))),
        "1912-10-25 00:00:00.0000000 +00:00"
    );
    assert_eq!(
        shown(cast(date("1912-10-25"), dt2(3))),
        "1912-10-25 00:00:00.0000000"
    );
    assert_eq!(
        shown(cast(time_value("12:34:54.1237"), time(3))),
        "12:34:54.1240000"
    );
    assert_eq!(
        shown(cast(time_value("12:15:04.1237"), DataType::DateTime)),
        "1900-01-01 12:15:04.123"
    );
    assert_eq!(
        shown(cast(time_value("12:15:59.9999"), DataType::SmallDateTime)),
        "1900-01-01 12:16:00"
    );
    assert_eq!(
        shown(cast(time_value("12:59:59.9999"), DataType::SmallDateTime)),
        "1900-01-01 13:00:00"
    );
    assert_eq!(
        shown(cast(time_value("12:15:04.1237"), dto(3))),
        "1900-01-01 12:15:04.1240000 +00:00"
    );
    assert_eq!(
        shown(cast(time_value("12:15:04.1237"), dt2(3))),
        "1900-01-01 12:15:04.1240000"
    );
    let sdt = smalldatetime("1955-12-13 12:43:10");
    assert_eq!(shown(cast(sdt.clone(), DataType::Date)), "1955-12-13");
    assert_eq!(shown(cast(sdt.clone(), time(4))), "12:43:00.0000000");
    assert_eq!(
        shown(cast(sdt.clone(), DataType::DateTime)),
        "1955-12-13 12:43:00.000"
    );
    assert_eq!(
        shown(cast(sdt, dto(4))),
        "1955-12-13 12:43:00.0000000 +00:00"
    );
    let offset = datetimeoffset("2025-12-10 12:32:10.1237 +01:00");
    assert_eq!(shown(cast(offset.clone(), DataType::Date)), "2025-12-10");
    assert_eq!(shown(cast(offset.clone(), time(3))), "12:32:10.1240000");
    assert_eq!(
        shown(cast(offset.clone(), DataType::DateTime)),
        "2025-12-10 12:32:10.123"
    );
    assert_eq!(shown(cast(offset, dt2(7))), "2025-12-10 12:32:10.1237000");
    assert_eq!(
        shown(cast(
            datetimeoffset("1912-10-25 12:24:32 +10:00"),
            DataType::SmallDateTime
        )),
        "1912-10-25 12:25:00"
    );
    assert_eq!(
        shown(cast(datetime("2016-10-23 12:45:37.333"), dt2(7))),
        "2016-10-23 12:45:37.3333333"
    );
    assert_eq!(
        shown(cast(datetime("2016-10-23 12:45:37.333"), DataType::Date)),
        "2016-10-23"
    );
    assert_eq!(
        shown(cast(datetime("2016-10-23 12:45:37.333"), time(3))),
        "12:45:37.3330000"
    );
    assert_eq!(
        shown(cast(datetime2("2016-10-23 12:45:37"), dto(0))),
        "2016-10-23 12:45:37.0000000 +00:00"
    );
}

#[test]
fn rounding_between_scales() {
    assert_eq!(
        shown(cast(datetime2("2026-05-04 13:45:30.5"), dt2(0))),
        "2026-05-04 13:45:31.0000000"
    );
    assert_eq!(
        shown(cast(
            datetime2("2024-12-31 23:59:59.9999999"),
            DataType::DateTime
        )),
        "2025-01-01 00:00:00.000"
    );
    assert_eq!(
        shown(cast(datetime2("2024-12-31 23:59:59.9999999"), dt2(3))),
        "2025-01-01 00:00:00.0000000"
    );
    assert_eq!(
        shown(cast(time_value("23:59:59.9999999"), time(0))),
        "00:00:00.0000000"
    );
    assert_eq!(
        shown(cast(time_value("23:59:59.9999999"), DataType::DateTime)),
        "1900-01-02 00:00:00.000"
    );
    assert_eq!(
        shown(cast(
            datetime2("2007-05-08 12:35:29.998"),
            DataType::SmallDateTime
        )),
        "2007-05-08 12:35:00"
    );
    assert_eq!(
        shown(cast(
            datetime2("2007-05-08 12:35:29.999"),
            DataType::SmallDateTime
        )),
        "2007-05-08 12:36:00"
    );
    assert_eq!(
        shown(cast(
            datetime2("2007-05-08 12:59:59.998"),
            DataType::SmallDateTime
        )),
        "2007-05-08 13:00:00"
    );
    assert_eq!(
        shown(cast(
            datetime2("2007-05-08 12:35:29.001"),
            DataType::DateTime
        )),
        "2007-05-08 12:35:29.000"
    );
    assert_eq!(
        shown(cast(
            datetime2("2007-05-08 12:35:29.005"),
            DataType::DateTime
        )),
        "2007-05-08 12:35:29.007"
    );
    let offset = datetimeoffset("2026-05-04 13:45:30.5 -07:00");
    assert_eq!(
        shown(cast(offset, dto(0))),
        "2026-05-04 13:45:31.0000000 -07:00"
    );
}

#[test]
fn out_of_range_between_types_is_msg_242() {
    assert_error(
        fail(date("1700-01-01"), DataType::DateTime),
        242,
        3,
        "The conversion of a date data type to a datetime data type resulted in an out-of-range value.",
    );
    assert_eq!(
        fail(date("2080-01-01"), DataType::SmallDateTime).message,
        "The conversion of a date data type to a smalldatetime data type resulted in an out-of-range value."
    );
    assert_eq!(
        fail(datetime2("9999-12-31 23:59:59.9999999"), DataType::DateTime).message,
        "The conversion of a datetime2 data type to a datetime2 data type resulted in an out-of-range value."
            .replace("to a datetime2", "to a datetime")
    );
    assert_eq!(
        fail(datetime2("2079-06-06 23:59:30"), DataType::SmallDateTime).number,
        242
    );
    assert_eq!(
        fail(datetime2("9999-12-31 23:59:59.9999999"), dt2(6)).number,
        242
    );
    assert_eq!(
        fail(datetime("1899-12-31"), DataType::SmallDateTime).number,
        242
    );
}

#[test]
fn numbers_to_datetime_are_days_since_1900() {
    let as_datetime = |v: Value| shown(cast(v, DataType::DateTime));
    assert_eq!(as_datetime(Value::Int(1)), "1900-01-02 00:00:00.000");
    assert_eq!(as_datetime(Value::Int(-1)), "1899-12-31 00:00:00.000");
    assert_eq!(as_datetime(Value::Int(-53690)), "1753-01-01 00:00:00.000");
    assert_eq!(as_datetime(Value::Float(1.5)), "1900-01-02 12:00:00.000");
    assert_eq!(as_datetime(Value::Float(-0.25)), "1899-12-31 18:00:00.000");
    assert_eq!(as_datetime(d("1.25")), "1900-01-02 06:00:00.000");
    assert_eq!(as_datetime(money("0.5")), "1900-01-01 12:00:00.000");
    assert_eq!(as_datetime(Value::Bit(true)), "1900-01-02 00:00:00.000");
    assert_eq!(as_datetime(Value::Int(43829)), "2020-01-01 00:00:00.000");
    assert_error(
        fail(Value::Int(3_000_000), DataType::DateTime),
        8115,
        2,
        "Arithmetic overflow error converting expression to data type datetime.",
    );
    assert_eq!(fail(Value::Int(-53691), DataType::DateTime).number, 8115);
    assert_eq!(fail(Value::Float(1e300), DataType::DateTime).number, 8115);
    assert_eq!(
        shown(cast(Value::Int(0), DataType::SmallDateTime)),
        "1900-01-01 00:00:00"
    );
    assert_eq!(
        shown(cast(Value::Float(0.5), DataType::SmallDateTime)),
        "1900-01-01 12:00:00"
    );
    assert_error(
        fail(Value::Int(-1), DataType::SmallDateTime),
        8115,
        2,
        "Arithmetic overflow error converting expression to data type smalldatetime.",
    );
}

#[test]
fn date_and_time_values_take_only_styles_0_and_1_into_datetimeoffset() {
    let now = datetime("2020-01-01");
    assert_eq!(
        shown(styled(now.clone(), dto(0), 0)),
        "2020-01-01 00:00:00.0000000 +00:00"
    );
    assert_eq!(
        shown(styled(now.clone(), dto(0), 1)),
        "2020-01-01 00:00:00.0000000 +00:00"
    );
    assert_error(
        fail_styled(now, dto(0), 2),
        9809,
        1,
        "The style 2 is not supported for conversions from datetime to datetimeoffset.",
    );
    // Text takes its styles.
    assert_eq!(
        shown(styled(s("2020-01-01T10:00:00Z"), dto(0), 127)),
        "2020-01-01 10:00:00.0000000 +00:00"
    );
}

#[test]
fn odd_shapes_of_date_text() {
    let read = |text: &str, target: DataType| convert(&s(text), &target, None).map(shown);
    assert_eq!(
        read("2024-01-31T10:00:00Z", dto(0)).unwrap(),
        "2024-01-31 10:00:00.0000000 +00:00"
    );
    assert_eq!(
        read("10:00 2024-01-31", dt2(0)).unwrap(),
        "2024-01-31 10:00:00.0000000"
    );
    assert_eq!(
        read("1/31/2024 10:00 -02:00", dto(0)).unwrap(),
        "2024-01-31 10:00:00.0000000 -02:00"
    );
    assert_eq!(read("12 PM", time(0)).unwrap(), "12:00:00.0000000");
    assert_eq!(
        read("12:00:00.5Z", dto(1)).unwrap(),
        "1900-01-01 12:00:00.5000000 +00:00"
    );
    for bad in [
        "Jan",
        "1 Jan",
        "Jan 1",
        "Jan Feb 2020",
        "2024-01-31 10:00 +02:00 x",
        "10:00 11:00",
        "1/2/2020 3/4/2020",
        "2020 2021",
        "1/31/202",
        "123/1/2020",
        "1/31/2024 10:00 +15:00",
        "AM",
        "12:00:00.12345678",
        "12:00:00:1234",
        "12:00:00.5:123",
    ] {
        assert_eq!(read(bad, dt2(7)).unwrap_err().number, 241, "{bad:?}");
    }
    // FromStr keeps to the ISO forms; smalldatetime says Msg 295.
    assert!("1/31/2024".parse::<Date>().is_err());
    assert_eq!("abc".parse::<SmallDateTime>().unwrap_err().number, 295);
}
