//! Expected values and errors are SQL Server's, from its documentation
//! (CAST and CONVERT, the data type pages, the message table) where it
//! gives them.

mod binary;
mod chart;
mod dates;
mod numbers;
mod properties;
mod strings;

use super::*;
use crate::{Date, DateTime, DateTime2, DateTimeOffset, Decimal, Money, SmallDateTime, Time, Uuid};

const CI: Collation = Collation::SqlLatin1GeneralCp1CiAs;

fn varchar(n: u32) -> DataType {
    DataType::VarChar {
        len: Length::Bounded(n),
        collation: CI,
    }
}

fn varchar_max() -> DataType {
    DataType::VarChar {
        len: Length::Max,
        collation: CI,
    }
}

fn nvarchar(n: u32) -> DataType {
    DataType::NVarChar {
        len: Length::Bounded(n),
        collation: CI,
    }
}

fn nvarchar_max() -> DataType {
    DataType::NVarChar {
        len: Length::Max,
        collation: CI,
    }
}

fn char_(n: u32) -> DataType {
    DataType::Char {
        len: n,
        collation: CI,
    }
}

fn nchar(n: u32) -> DataType {
    DataType::NChar {
        len: n,
        collation: CI,
    }
}

fn binary_(n: u32) -> DataType {
    DataType::Binary { len: n }
}

fn varbinary(n: u32) -> DataType {
    DataType::VarBinary {
        len: Length::Bounded(n),
    }
}

fn varbinary_max() -> DataType {
    DataType::VarBinary { len: Length::Max }
}

fn dec(precision: u8, scale: u8) -> DataType {
    DataType::Decimal { precision, scale }
}

fn time(scale: u8) -> DataType {
    DataType::Time { scale }
}

fn dt2(scale: u8) -> DataType {
    DataType::DateTime2 { scale }
}

fn dto(scale: u8) -> DataType {
    DataType::DateTimeOffset { scale }
}

/// A string value (read as varchar unless a test says otherwise).
fn s(text: &str) -> Value {
    Value::String(text.to_string())
}

/// A decimal literal with the type SQL Server gives it.
fn d(text: &str) -> Value {
    Value::Decimal(text.parse::<Decimal>().unwrap())
}

/// decimal(precision, scale) holding the number in `text`.
fn dv(text: &str, precision: u8, scale: u8) -> Value {
    let mantissa = text
        .parse::<Decimal>()
        .unwrap()
        .mantissa_at_scale(scale)
        .unwrap();
    Value::Decimal(Decimal::new(mantissa, precision, scale).unwrap())
}

fn money(text: &str) -> Value {
    Value::Money(text.parse::<Money>().unwrap())
}

fn bytes(b: &[u8]) -> Value {
    Value::Binary(b.to_vec())
}

fn cast(value: Value, target: DataType) -> Value {
    convert(&value, &target, None).unwrap_or_else(|e| panic!("{value:?} AS {target:?}: {e}"))
}

fn cast_from(value: Value, source: DataType, target: DataType) -> Value {
    convert_from(&value, &source, &target, None)
        .unwrap_or_else(|e| panic!("{value:?} ({source:?}) AS {target:?}: {e}"))
}

fn styled(value: Value, target: DataType, style: i32) -> Value {
    convert(&value, &target, Some(style))
        .unwrap_or_else(|e| panic!("{value:?} AS {target:?} style {style}: {e}"))
}

fn fail(value: Value, target: DataType) -> SqlError {
    convert(&value, &target, None).expect_err("should fail")
}

fn fail_from(value: Value, source: DataType, target: DataType, style: Option<i32>) -> SqlError {
    convert_from(&value, &source, &target, style).expect_err("should fail")
}

fn fail_styled(value: Value, target: DataType, style: i32) -> SqlError {
    convert(&value, &target, Some(style)).expect_err("should fail")
}

/// Asserts the number, state and text of an error.
#[track_caller]
fn assert_error(err: SqlError, number: u32, state: u8, message: &str) {
    assert_eq!(
        (err.number, err.severity, err.state, err.message.as_str()),
        (number, 16, state, message)
    );
}

/// The text of a string value.
#[track_caller]
fn text_of(value: Value) -> String {
    match value {
        Value::String(t) => t,
        other => panic!("not a string: {other:?}"),
    }
}

/// `CAST(value AS varchar(max))`.
fn to_text(value: Value) -> String {
    text_of(cast(value, varchar_max()))
}

/// `CONVERT(varchar(max), value, style)`.
fn to_text_styled(value: Value, style: i32) -> String {
    text_of(styled(value, varchar_max(), style))
}

fn datetime(text: &str) -> Value {
    Value::DateTime(text.parse::<DateTime>().unwrap())
}

fn smalldatetime(text: &str) -> Value {
    Value::SmallDateTime(text.parse::<SmallDateTime>().unwrap())
}

fn date(text: &str) -> Value {
    Value::Date(text.parse::<Date>().unwrap())
}

fn time_value(text: &str) -> Value {
    Value::Time(text.parse::<Time>().unwrap())
}

fn datetime2(text: &str) -> Value {
    Value::DateTime2(text.parse::<DateTime2>().unwrap())
}

fn datetimeoffset(text: &str) -> Value {
    Value::DateTimeOffset(text.parse::<DateTimeOffset>().unwrap())
}

fn uuid(text: &str) -> Value {
    Value::UniqueIdentifier(text.parse::<Uuid>().unwrap())
}

#[test]
fn null_converts_to_null_for_every_allowed_pair() {
    let types = [
        DataType::Bit,
        DataType::TinyInt,
        DataType::Int,
        DataType::BigInt,
        dec(10, 2),
        DataType::Money,
        DataType::SmallMoney,
        DataType::Float,
        DataType::Real,
        DataType::Date,
        time(3),
        DataType::DateTime,
        dt2(7),
        DataType::SmallDateTime,
        dto(7),
        DataType::UniqueIdentifier,
        char_(3),
        varchar(3),
        nchar(3),
        nvarchar_max(),
        binary_(4),
        varbinary_max(),
    ];
    for from in &types {
        for to in &types {
            let result = convert_from(&Value::Null, from, to, None);
            if conversion(from, to) == Conversion::NotAllowed {
                assert_eq!(result.unwrap_err().number, 529, "{from:?} -> {to:?}");
            } else {
                assert_eq!(result, Ok(Value::Null), "{from:?} -> {to:?}");
            }
        }
        assert_eq!(convert(&Value::Null, from, None), Ok(Value::Null));
    }
}

#[test]
fn try_convert_turns_value_failures_into_null_only() {
    let int = DataType::Int;
    assert_eq!(
        try_convert(&s("abc"), &varchar(3), &int, None),
        Ok(Value::Null)
    );
    assert_eq!(
        try_convert(&s("300"), &varchar(3), &DataType::TinyInt, None),
        Ok(Value::Null)
    );
    assert_eq!(
        try_convert(&s("x"), &varchar(1), &DataType::Date, None),
        Ok(Value::Null)
    );
    assert_eq!(
        try_convert(&s("42"), &varchar(2), &int, None),
        Ok(Value::Int(42))
    );
    // A pair the chart refuses, or a bad style, is still an error.
    let err = try_convert(&Value::Int(1), &int, &DataType::Date, None).unwrap_err();
    assert_eq!(err.number, 529);
    let err = try_convert(
        &datetime("2020-01-01"),
        &DataType::DateTime,
        &varchar(30),
        Some(15),
    )
    .unwrap_err();
    assert_eq!(err.number, 281);
}

#[test]
fn natural_types_of_values() {
    assert_eq!(natural_type(&Value::Null), None);
    assert_eq!(natural_type(&d("12.345")), Some(dec(5, 3)));
    assert_eq!(natural_type(&s("abc")), Some(varchar_max()));
    assert_eq!(natural_type(&s("café €")), Some(varchar_max()));
    assert_eq!(natural_type(&s("漢字")), Some(nvarchar_max()));
    assert_eq!(natural_type(&bytes(&[1])), Some(varbinary_max()));
    assert_eq!(natural_type(&time_value("12:00")), Some(time(7)));
}

#[test]
fn a_value_of_another_family_than_its_type_is_a_type_clash() {
    let err = fail_from(Value::Int(1), varchar(3), DataType::Int, None);
    assert_error(
        err,
        206,
        2,
        "Operand type clash: int is incompatible with varchar(3)",
    );
}

#[test]
fn default_text_is_cast_to_nvarchar_max() {
    let text = |value: Value| {
        let source = natural_type(&value).unwrap();
        super::to_text(&value, &source).unwrap()
    };
    assert_eq!(text(money("1234.5")), Some("1234.50".to_string()));
    assert_eq!(text(Value::Float(1e10)), Some("1e+010".to_string()));
    assert_eq!(
        text(datetime("2020-01-01")),
        Some("Jan  1 2020 12:00AM".to_string())
    );
    assert_eq!(text(Value::Bit(true)), Some("1".to_string()));
    assert_eq!(super::to_text(&Value::Null, &DataType::Int), Ok(None));
}
