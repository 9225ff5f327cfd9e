//! Properties over arbitrary values: conversions never panic, what they
//! return is a value of the target type that the target stores, and the
//! lossless text and binary forms round-trip.

use super::*;
use proptest::prelude::*;

fn targets() -> Vec<DataType> {
    vec![
        DataType::Bit,
        DataType::TinyInt,
        DataType::SmallInt,
        DataType::Int,
        DataType::BigInt,
        dec(1, 0),
        dec(9, 3),
        dec(38, 10),
        DataType::Money,
        DataType::SmallMoney,
        DataType::Float,
        DataType::Real,
        DataType::Date,
        time(0),
        time(7),
        DataType::DateTime,
        dt2(3),
        DataType::SmallDateTime,
        dto(7),
        DataType::UniqueIdentifier,
        char_(3),
        varchar(8),
        nchar(5),
        nvarchar_max(),
        binary_(3),
        varbinary(6),
        varbinary_max(),
    ]
}

const CHARS: [char; 24] = [
    '0', '1', '2', '9', '5', '-', '+', '.', ':', '/', ' ', 'e', 'E', 'x', 'A', 'M', 'P', 'J', 'a',
    'n', 'T', 'Z', '$', ',',
];

fn values() -> impl Strategy<Value = Value> {
    prop_oneof![
        any::<bool>().prop_map(Value::Bit),
        any::<u8>().prop_map(Value::TinyInt),
        any::<i16>().prop_map(Value::SmallInt),
        any::<i32>().prop_map(Value::Int),
        any::<i64>().prop_map(Value::BigInt),
        (any::<i64>(), 0u8..=18).prop_map(|(m, scale)| Value::Decimal(Decimal {
            mantissa: i128::from(m),
            precision: 19.max(scale),
            scale,
        })),
        any::<i64>().prop_map(|m| Value::Money(Money(m))),
        prop::num::f64::NORMAL.prop_map(Value::Float),
        (-1e7f64..1e7).prop_map(Value::Float),
        prop::num::f32::NORMAL.prop_map(Value::Real),
        (0..=Date::MAX.0).prop_map(|d| Value::Date(Date(d))),
        (0..crate::datetime::TICKS_PER_DAY).prop_map(|t| Value::Time(Time(t))),
        (
            DateTime::MIN_DAYS..=DateTime::MAX_DAYS,
            0..DateTime::TICKS_PER_DAY
        )
            .prop_map(|(days, ticks)| Value::DateTime(DateTime { days, ticks })),
        (0..=Date::MAX.0, 0..crate::datetime::TICKS_PER_DAY)
            .prop_map(|(d, t)| Value::DateTime2(DateTime2::new(Date(d), Time(t)))),
        (any::<u16>(), 0..SmallDateTime::MINUTES_PER_DAY)
            .prop_map(|(days, minutes)| Value::SmallDateTime(SmallDateTime { days, minutes })),
        (
            1..Date::MAX.0,
            0..crate::datetime::TICKS_PER_DAY,
            -840i16..=840
        )
            .prop_map(
                |(d, t, offset_minutes)| Value::DateTimeOffset(DateTimeOffset {
                    utc: DateTime2::new(Date(d), Time(t)),
                    offset_minutes,
                })
            ),
        any::<[u8; 16]>().prop_map(|b| Value::UniqueIdentifier(Uuid(b))),
        prop::collection::vec(prop::sample::select(CHARS.to_vec()), 0..14)
            .prop_map(|c| Value::String(c.into_iter().collect())),
        "\\PC{0,8}".prop_map(Value::String),
        prop::collection::vec(any::<u8>(), 0..12).prop_map(Value::Binary),
    ]
}

fn styles() -> impl Strategy<Value = Option<i32>> {
    prop_oneof![
        Just(None),
        prop::sample::select(vec![0, 1, 2, 3, 9, 13, 14, 21, 22, 103, 112, 121, 126, 127])
            .prop_map(Some),
        (-5i32..300).prop_map(Some),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn results_are_values_the_target_stores(
        value in values(),
        target in prop::sample::select(targets()),
        style in styles(),
    ) {
        if let Ok(result) = convert(&value, &target, style) {
            prop_assert!(!result.is_null());
            let mut out = Vec::new();
            target
                .encode(&result, &mut out)
                .map_err(|e| TestCaseError::fail(format!("{result:?} as {target:?}: {e}")))?;
        }
    }

    #[test]
    fn try_convert_fails_only_on_types(value in values(), target in prop::sample::select(targets())) {
        let source = natural_type(&value).unwrap();
        if let Err(e) = try_convert(&value, &source, &target, None) {
            prop_assert!(matches!(e.number, 529 | 10794), "{e}");
        }
    }

    #[test]
    fn lossless_text_round_trips(value in values()) {
        let source = natural_type(&value).unwrap();
        let style = match value {
            Value::Float(_) | Value::Real(_) => Some(3),
            Value::Money(_) => Some(2),
            Value::Binary(_) => Some(1),
            Value::DateTime(_) | Value::DateTime2(_) | Value::DateTimeOffset(_) | Value::Time(_) => {
                Some(121)
            }
            _ => None,
        };
        let text = convert_from(&value, &source, &nvarchar_max(), style).unwrap();
        let back = convert_from(&text, &nvarchar_max(), &source, style).unwrap();
        prop_assert_eq!(back, value);
    }

    #[test]
    fn binary_round_trips(value in values()) {
        let source = natural_type(&value).unwrap();
        if !matches!(value, Value::Float(_) | Value::Real(_)) {
            let stored = convert_from(&value, &source, &varbinary_max(), None).unwrap();
            let back = convert_from(&stored, &varbinary_max(), &source, None).unwrap();
            prop_assert_eq!(back, value);
        }
    }
}
