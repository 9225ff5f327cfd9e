use super::*;

fn hex(value: Value) -> String {
    match value {
        Value::Binary(b) => b.iter().map(|x| format!("{x:02X}")).collect(),
        other => panic!("not binary: {other:?}"),
    }
}

#[test]
fn integers_are_big_endian_cut_or_padded_on_the_left() {
    // The documentation's examples.
    assert_eq!(hex(cast(Value::Int(123456), binary_(4))), "0001E240");
    assert_eq!(hex(cast(Value::Int(123456), binary_(2))), "E240");
    assert_eq!(cast(bytes(&[0xE2, 0x40]), DataType::Int), Value::Int(57920));
    assert_eq!(hex(cast(Value::Int(258), binary_(1))), "02");
    assert_eq!(hex(cast(Value::Int(258), binary_(8))), "0000000000000102");
    assert_eq!(hex(cast(Value::Int(-1), binary_(4))), "FFFFFFFF");
    assert_eq!(hex(cast(Value::Int(258), varbinary(30))), "00000102");
    assert_eq!(hex(cast(Value::TinyInt(1), varbinary(4))), "01");
    assert_eq!(hex(cast(Value::SmallInt(258), varbinary(1))), "02");
    assert_eq!(
        hex(cast(Value::BigInt(1), varbinary_max())),
        "0000000000000001"
    );
    assert_eq!(hex(cast(Value::Bit(true), binary_(2))), "0001");
}

#[test]
fn binary_to_integers_reads_the_rightmost_bytes() {
    assert_eq!(cast(bytes(&[1, 2]), DataType::Int), Value::Int(258));
    assert_eq!(
        cast(bytes(&[1, 2, 3, 4, 5]), DataType::Int),
        Value::Int(33_752_069)
    );
    assert_eq!(cast(bytes(&[0xFF; 4]), DataType::Int), Value::Int(-1));
    assert_eq!(
        cast(bytes(&[0xFF, 0x01]), DataType::TinyInt),
        Value::TinyInt(1)
    );
    assert_eq!(
        cast(bytes(&[0x80, 0x00]), DataType::SmallInt),
        Value::SmallInt(i16::MIN)
    );
    assert_eq!(cast(bytes(&[]), DataType::Int), Value::Int(0));
    assert_eq!(cast(bytes(&[0xFF; 8]), DataType::BigInt), Value::BigInt(-1));
    assert_eq!(cast(bytes(&[1, 0]), DataType::Bit), Value::Bit(false));
    assert_eq!(cast(bytes(&[1]), DataType::Bit), Value::Bit(true));
}

#[test]
fn money_and_floats_as_binary() {
    assert_eq!(hex(cast(money("1"), varbinary(8))), "0000000000002710");
    assert_eq!(
        hex(cast_from(money("1"), DataType::SmallMoney, varbinary(8))),
        "00002710"
    );
    assert_eq!(cast(bytes(&[1]), DataType::Money), money("0.0001"));
    assert_eq!(cast(bytes(&[1]), DataType::SmallMoney), money("0.0001"));
    assert_eq!(
        cast(bytes(&[0xFF; 4]), DataType::SmallMoney),
        money("-0.0001")
    );
    assert_eq!(
        hex(cast(Value::Float(1.0), varbinary(8))),
        "3FF0000000000000"
    );
    assert_eq!(hex(cast(Value::Float(1.0), varbinary(4))), "00000000");
    assert_eq!(hex(cast(Value::Real(1.0), varbinary(8))), "3F800000");
}

#[test]
fn decimals_in_their_binary_form() {
    let one_and_a_half = cast(d("1.5"), dec(5, 1));
    assert_eq!(
        hex(cast(one_and_a_half.clone(), varbinary(30))),
        "050100010F000000"
    );
    assert_eq!(hex(cast(one_and_a_half.clone(), binary_(2))), "0501");
    assert_eq!(
        hex(cast(one_and_a_half, binary_(10))),
        "0000050100010F000000"
    );
    assert_eq!(
        hex(cast(d("-12345678901234567890.5"), varbinary_max())),
        "15010000396C362F819F4EB106000000"
    );
    assert_eq!(
        cast(bytes(&[5, 2, 0, 1, 0x96, 0, 0, 0]), dec(5, 2)),
        dv("1.50", 5, 2)
    );
    assert_eq!(
        cast(bytes(&[5, 2, 0, 0, 0xE1, 0, 0, 0]), dec(4, 1)),
        dv("-2.3", 4, 1)
    );
    assert_eq!(cast(bytes(&[5, 2, 0, 1, 0x96]), dec(5, 2)), dv("1.5", 5, 2));
    for bad in [
        &[1u8, 2][..],
        &[0, 0, 0, 1, 1],
        &[39, 0, 0, 1, 1],
        &[2, 3, 0, 1, 1],
        &[2, 0, 0, 1, 100],
        &[2, 0, 0, 0, 0],
        &[2, 0, 0, 2, 1],
    ] {
        assert_error(
            fail(bytes(bad), dec(10, 2)),
            8114,
            5,
            "Error converting data type varbinary to numeric.",
        );
    }
    // The documentation's round trip.
    let value = cast(d("193.57"), dec(5, 2));
    let stored = cast(value, varbinary(20));
    assert_eq!(cast(stored, dec(10, 5)), dv("193.57", 10, 5));
    let wide = cast(d("-12345678901234567890.5"), dec(38, 1));
    assert_eq!(cast(cast(wide.clone(), varbinary_max()), dec(38, 1)), wide);
}

#[test]
fn strings_as_binary_and_back() {
    // The documentation's examples.
    assert_eq!(hex(styled(s("Name"), binary_(8), 0)), "4E616D6500000000");
    assert_eq!(hex(styled(s("0x4E616D65"), binary_(4), 1)), "4E616D65");
    assert_eq!(hex(styled(s("4E616D65"), binary_(4), 2)), "4E616D65");
    assert_eq!(hex(styled(s("4e616d65"), varbinary(2), 2)), "4E61");
    assert_eq!(hex(cast(s("abc"), varbinary(10))), "616263");
    assert_eq!(hex(cast(s("abc"), binary_(10))), "61626300000000000000");
    assert_eq!(
        hex(cast_from(s("abc"), nvarchar(3), varbinary(10))),
        "610062006300"
    );
    assert_eq!(hex(cast(s("é€"), varbinary(10))), "E980");
    assert_eq!(hex(cast(s("漢"), varbinary(10))), "226F");
    assert_eq!(hex(cast_from(s("漢"), varchar(1), varbinary(10))), "3F");
    assert_error(
        fail_styled(s("0x4E616D6"), binary_(4), 1),
        8114,
        5,
        "Error converting data type varchar to binary.",
    );
    assert_eq!(fail_styled(s("4E616D65"), varbinary(4), 1).number, 8114);
    assert_eq!(fail_styled(s("0x4E"), varbinary(4), 2).number, 8114);
    assert_eq!(fail_styled(s("zz"), varbinary(4), 2).number, 8114);
    assert_error(
        fail_styled(s("ab"), varbinary(4), 5),
        281,
        1,
        "5 is not a valid style number when converting from varchar to a character string.",
    );
    // CAST(CAST(0x41 AS nvarchar) AS varbinary) is 0x4100.
    let text = cast(bytes(&[0x41]), nvarchar(30));
    assert_eq!(hex(cast_from(text, nvarchar(30), varbinary(30))), "4100");
}

#[test]
fn binary_to_binary_is_cut_or_padded_on_the_right() {
    assert_eq!(hex(cast(bytes(&[1, 2]), binary_(4))), "01020000");
    assert_eq!(hex(cast(bytes(&[1, 2]), binary_(1))), "01");
    assert_eq!(hex(cast(bytes(&[1, 2, 3]), varbinary(2))), "0102");
    assert_eq!(hex(cast(bytes(&[1, 2, 3]), varbinary_max())), "010203");
}

#[test]
fn uniqueidentifiers_and_binary() {
    let u = uuid("00112233-4455-6677-8899-AABBCCDDEEFF");
    let stored = cast(u.clone(), binary_(16));
    assert_eq!(hex(stored.clone()), "33221100554477668899AABBCCDDEEFF");
    assert_eq!(cast(stored, DataType::UniqueIdentifier), u);
    assert_eq!(
        to_text(cast(bytes(&[0x12, 0x34]), DataType::UniqueIdentifier)),
        "00003412-0000-0000-0000-000000000000"
    );
}

#[test]
fn dates_and_times_in_binary() {
    let dt = datetime("1900-01-02");
    assert_eq!(hex(cast(dt.clone(), binary_(8))), "0000000100000000");
    assert_eq!(cast(cast(dt.clone(), binary_(8)), DataType::DateTime), dt);
    let noon = datetime("1900-01-01 12:00");
    assert_eq!(hex(cast(noon, binary_(4))), "00C5C100");
    assert_eq!(
        cast(bytes(&[1, 2]), DataType::DateTime),
        datetime("1900-01-01 00:00:00.860")
    );
    let sdt = smalldatetime("1900-01-02 00:01");
    assert_eq!(hex(cast(sdt.clone(), varbinary(4))), "00010001");
    assert_eq!(
        cast(cast(sdt.clone(), varbinary(4)), DataType::SmallDateTime),
        sdt
    );
    assert_error(
        fail(bytes(&[0x61, 0x00]), DataType::SmallDateTime),
        210,
        1,
        "Conversion failed when converting datetime from binary/varbinary string.",
    );
    assert_eq!(fail(bytes(&[0xFF; 8]), DataType::DateTime).number, 210);
    // date, time, datetime2 and datetimeoffset round-trip their forms.
    assert_eq!(hex(cast(date("0001-01-02"), varbinary(10))), "010000");
    let cases = [
        (date("2024-02-29"), DataType::Date),
        (cast(time_value("12:34:56.789"), time(3)), time(3)),
        (cast(time_value("23:59:59.9999999"), time(7)), time(7)),
        (cast(datetime2("2024-02-29 12:34:56.78"), dt2(2)), dt2(2)),
        (
            cast(datetimeoffset("2024-02-29 12:34:56.1234567 -05:30"), dto(7)),
            dto(7),
        ),
    ];
    for (value, ty) in cases {
        let stored = cast_from(value.clone(), ty, varbinary_max());
        assert_eq!(cast(stored, ty), value, "{ty:?}");
    }
    let stored = cast_from(cast(time_value("12:00"), time(0)), time(0), varbinary_max());
    assert_eq!(hex(stored), "00C0A800");
    let offset = bytes(&[
        0x07, 0xA0, 0x06, 0x27, 0xC0, 0xA5, 0x17, 0x3D, 0x0B, 0x00, 0x00,
    ]);
    assert_eq!(
        hex(cast(cast(offset, dto(7)), varbinary_max())),
        "07A00627C0A5173D0B0000"
    );
    assert_error(
        fail(bytes(&[1, 2]), DataType::Date),
        241,
        1,
        "Conversion failed when converting date and/or time from character string.",
    );
    assert_eq!(fail(bytes(&[8, 0, 0, 0]), time(7)).number, 241);
    assert_eq!(fail(bytes(&[0xFF, 0xFF, 0xFF]), DataType::Date).number, 241);
}
