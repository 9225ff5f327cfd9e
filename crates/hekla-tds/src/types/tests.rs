use super::*;
use hekla_types::datetime::TICKS_PER_SECOND;

/// Encodes the type and value as the server does and reads them back as a
/// client does.
fn round_trip(data_type: DataType, value: Value) -> (TypeInfo, Value, Vec<u8>) {
    let mut wire = Vec::new();
    encode_type_info(&data_type, &mut wire);
    let type_len = wire.len();
    encode_value(&data_type, &value, &mut wire).unwrap();
    let mut reader = Reader::new(&wire);
    let info = TypeInfo::decode(&mut reader).unwrap();
    assert_eq!(reader.position(), type_len);
    let decoded = info.decode_value(&mut reader).unwrap();
    assert!(reader.is_empty(), "{data_type:?}: bytes left over");
    let value_bytes = wire[type_len..].to_vec();
    (info, decoded, value_bytes)
}

fn assert_round_trip(data_type: DataType, value: Value) -> Vec<u8> {
    let (info, decoded, bytes) = round_trip(data_type, value.clone());
    assert_eq!(info.data_type, data_type);
    assert_eq!(decoded, value, "{data_type:?}");
    let (_, null, _) = round_trip(data_type, Value::Null);
    assert_eq!(null, Value::Null, "{data_type:?} NULL");
    bytes
}

fn varchar(len: Length) -> DataType {
    DataType::VarChar {
        len,
        collation: Collation::default(),
    }
}

fn nvarchar(len: Length) -> DataType {
    DataType::NVarChar {
        len,
        collation: Collation::default(),
    }
}

#[test]
fn integers_and_bit() {
    assert_eq!(assert_round_trip(DataType::Bit, Value::Bit(true)), [1, 1]);
    assert_round_trip(DataType::TinyInt, Value::TinyInt(255));
    assert_round_trip(DataType::SmallInt, Value::SmallInt(-32768));
    assert_eq!(
        assert_round_trip(DataType::Int, Value::Int(-2)),
        [4, 0xFE, 0xFF, 0xFF, 0xFF]
    );
    assert_round_trip(DataType::BigInt, Value::BigInt(i64::MIN));
}

#[test]
fn decimals_are_sign_and_magnitude() {
    let dt = DataType::Decimal {
        precision: 5,
        scale: 2,
    };
    let bytes = assert_round_trip(dt, Value::Decimal(Decimal::new(-12345, 5, 2).unwrap()));
    // length 5, sign 0 (negative), 12345 = 0x3039 little-endian in 4 bytes.
    assert_eq!(bytes, [5, 0, 0x39, 0x30, 0, 0]);
    let widest = 10i128.pow(38) - 1;
    let dt = DataType::Decimal {
        precision: 38,
        scale: 10,
    };
    assert_round_trip(dt, Value::Decimal(Decimal::new(widest, 38, 10).unwrap()));
    assert_round_trip(dt, Value::Decimal(Decimal::new(-widest, 38, 10).unwrap()));
    // A value at another scale is sent at the column's scale.
    let (_, decoded, _) = round_trip(
        DataType::Decimal {
            precision: 10,
            scale: 3,
        },
        Value::Decimal(Decimal::new(15, 3, 1).unwrap()),
    );
    assert_eq!(decoded, Value::Decimal(Decimal::new(1500, 10, 3).unwrap()));
}

#[test]
fn money_sends_the_high_half_first() {
    let bytes = assert_round_trip(DataType::Money, Value::Money(Money(0x1_0000_0002)));
    assert_eq!(bytes, [8, 1, 0, 0, 0, 2, 0, 0, 0]);
    assert_round_trip(DataType::Money, Value::Money(Money::MIN));
    assert_round_trip(DataType::SmallMoney, Value::Money(Money::SMALL_MIN));
}

#[test]
fn floats() {
    assert_round_trip(DataType::Float, Value::Float(-1.5e300));
    assert_round_trip(DataType::Real, Value::Real(3.25));
}

#[test]
fn dates_and_times_at_every_scale() {
    let date = Date::from_ymd(2026, 11, 27).unwrap();
    assert_eq!(
        assert_round_trip(DataType::Date, Value::Date(Date::MAX)).len(),
        4
    );
    assert_round_trip(DataType::Date, Value::Date(Date::MIN));
    for scale in 0..=7u8 {
        let unit = 10u64.pow(u32::from(7 - scale));
        let time = Time((TICKS_PER_DAY - 1) / unit * unit);
        let bytes = assert_round_trip(DataType::Time { scale }, Value::Time(time));
        assert_eq!(bytes.len(), 1 + time_size(scale));
        assert_round_trip(
            DataType::DateTime2 { scale },
            Value::DateTime2(DateTime2::new(date, time)),
        );
        assert_round_trip(
            DataType::DateTimeOffset { scale },
            Value::DateTimeOffset(DateTimeOffset {
                utc: DateTime2::new(date, time),
                offset_minutes: -14 * 60,
            }),
        );
    }
    // time(3) 00:00:01.5 is 1500 milliseconds in 4 bytes.
    let bytes = assert_round_trip(
        DataType::Time { scale: 3 },
        Value::Time(Time(TICKS_PER_SECOND * 3 / 2)),
    );
    assert_eq!(bytes, [4, 0xDC, 0x05, 0, 0]);
    let datetime = DateTime {
        days: -53_690,
        ticks: 299,
    };
    assert_round_trip(DataType::DateTime, Value::DateTime(datetime));
    let small = SmallDateTime {
        days: 65535,
        minutes: 1439,
    };
    assert_round_trip(DataType::SmallDateTime, Value::SmallDateTime(small));
}

#[test]
fn uniqueidentifier_keeps_sql_server_byte_order() {
    let uuid: Uuid = "6F9619FF-8B86-D011-B42D-00C04FC964FF".parse().unwrap();
    let bytes = assert_round_trip(DataType::UniqueIdentifier, Value::UniqueIdentifier(uuid));
    // The first group goes little-endian, as .NET's Guid.ToByteArray.
    assert_eq!(&bytes[..5], [16, 0xFF, 0x19, 0x96, 0x6F]);
}

#[test]
fn strings_in_their_code_pages() {
    let bytes = assert_round_trip(varchar(Length::Bounded(10)), Value::String("é€".into()));
    assert_eq!(bytes, [2, 0, 0xE9, 0x80]);
    let bytes = assert_round_trip(nvarchar(Length::Bounded(10)), Value::String("é𝄞".into()));
    assert_eq!(bytes.len(), 2 + 6);
    assert_round_trip(
        DataType::Char {
            len: 3,
            collation: Collation::Latin1GeneralBin2,
        },
        Value::String("ab ".into()),
    );
    assert_round_trip(
        DataType::NChar {
            len: 2,
            collation: Collation::Latin1GeneralCiAs,
        },
        Value::String("xy".into()),
    );
    // A character outside Windows-1252 becomes '?', as SQL Server converts.
    let (_, decoded, _) = round_trip(varchar(Length::Bounded(5)), Value::String("a𝄞".into()));
    assert_eq!(decoded, Value::String("a?".into()));
}

#[test]
fn max_types_are_plp_in_chunks() {
    let long = "x".repeat(20_000);
    let bytes = assert_round_trip(varchar(Length::Max), Value::String(long.clone()));
    // total length, three chunks of at most 8000, terminator
    assert_eq!(bytes.len(), 8 + 3 * 4 + 20_000 + 4);
    assert_round_trip(nvarchar(Length::Max), Value::String(long));
    assert_round_trip(nvarchar(Length::Max), Value::String(String::new()));
    assert_round_trip(
        DataType::VarBinary { len: Length::Max },
        Value::Binary(vec![0, 1, 2]),
    );
}

#[test]
fn binary() {
    assert_round_trip(DataType::Binary { len: 2 }, Value::Binary(vec![0xAB, 0]));
    assert_round_trip(
        DataType::VarBinary {
            len: Length::Bounded(8000),
        },
        Value::Binary(vec![7; 8000]),
    );
}

#[test]
fn values_of_another_type_are_converted_or_refused() {
    let (_, decoded, _) = round_trip(DataType::BigInt, Value::Int(5));
    assert_eq!(decoded, Value::BigInt(5));
    let mut out = Vec::new();
    assert!(encode_value(
        &DataType::Int,
        &Value::UniqueIdentifier(Uuid([1; 16])),
        &mut out
    )
    .is_err());
}

#[test]
fn client_types_decode() {
    // INT4 (fixed), then a value.
    let mut reader = Reader::new(&[code::INT4, 7, 0, 0, 0]);
    let info = TypeInfo::decode(&mut reader).unwrap();
    assert_eq!(info.decode_value(&mut reader).unwrap(), Value::Int(7));
    // NVARCHAR(MAX) with unknown-length PLP in two chunks.
    let mut wire = vec![code::NVARCHAR, 0xFF, 0xFF, 0x09, 0x04, 0xD0, 0x00, 0x34];
    wire.extend_from_slice(&PLP_UNKNOWN_LENGTH.to_le_bytes());
    wire.extend_from_slice(&[2, 0, 0, 0, b'h', 0, 2, 0, 0, 0, b'i', 0, 0, 0, 0, 0]);
    let mut reader = Reader::new(&wire);
    let info = TypeInfo::decode(&mut reader).unwrap();
    assert_eq!(info.data_type, nvarchar(Length::Max));
    assert_eq!(
        info.decode_value(&mut reader).unwrap(),
        Value::String("hi".into())
    );
}

#[test]
fn malformed_types_and_values_are_errors() {
    let bad: &[&[u8]] = &[
        &[],
        &[0x99],
        &[code::INTN, 3],
        &[code::DECIMALN, 17, 39, 0],
        &[code::DECIMALN, 5, 5, 6],
        &[code::TIMEN, 8],
        &[code::NVARCHAR, 0x42, 0x1F], // 8002 bytes, and no collation
        &[code::XML, 0],
        &[code::SQL_VARIANT, 0, 0, 0, 0],
    ];
    for wire in bad {
        assert!(
            TypeInfo::decode(&mut Reader::new(wire)).is_err(),
            "{wire:?}"
        );
    }
    let value_errors: &[&[u8]] = &[
        &[code::INTN, 4, 2, 1, 2],              // length 2 for int
        &[code::INTN, 4, 4, 1, 2],              // truncated
        &[code::DATEN, 3, 0xFF, 0xFF, 0xFF],    // past 9999-12-31
        &[code::TIMEN, 0, 3, 0xFF, 0xFF, 0xFF], // past midnight
        &[code::DECIMALN, 5, 2, 0, 5, 1, 0xFF, 0xFF, 0xFF, 0x7F], // 2147483647 > 99.999
        &[
            code::NVARCHAR,
            4,
            0,
            0x09,
            0x04,
            0xD0,
            0x00,
            0x34,
            2,
            0,
            0x00,
            0xD8,
        ], // lone surrogate
        &[
            code::BIGVARBINARY,
            0xFF,
            0xFF,
            9,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            1,
            0,
            0,
            0,
            1,
            0,
            0,
            0,
            0,
        ], // PLP says 9, has 1
        &[code::DATETIMEN, 8, 8, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF], // ticks past midnight
        // offset -32768 minutes (found by the fuzzer: it overflowed abs()).
        &[code::DATETIMEOFFSETN, 0, 8, 0, 0, 0, 0, 0, 0, 0x00, 0x80],
    ];
    for wire in value_errors {
        let mut reader = Reader::new(wire);
        let info = TypeInfo::decode(&mut reader).unwrap();
        assert!(info.decode_value(&mut reader).is_err(), "{wire:?}");
    }
    // A PLP claiming an absurd length fails before anything is allocated.
    let mut wire = vec![code::BIGVARBINARY, 0xFF, 0xFF];
    wire.extend_from_slice(&(u64::MAX - 2).to_le_bytes());
    let mut reader = Reader::new(&wire);
    let info = TypeInfo::decode(&mut reader).unwrap();
    assert!(info.decode_value(&mut reader).is_err());
}
