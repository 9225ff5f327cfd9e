use super::*;

#[test]
fn text_to_integers() {
    for (text, expected) in [
        ("42", 42),
        ("-42", -42),
        ("+42", 42),
        ("  42  ", 42),
        ("007", 7),
        ("", 0),
        ("   ", 0),
        ("-0", 0),
        ("2147483647", i32::MAX),
        ("-2147483648", i32::MIN),
    ] {
        assert_eq!(
            cast(s(text), DataType::Int),
            Value::Int(expected),
            "{text:?}"
        );
    }
    assert_eq!(cast(s("255"), DataType::TinyInt), Value::TinyInt(255));
    assert_eq!(
        cast(s("-9223372036854775808"), DataType::BigInt),
        Value::BigInt(i64::MIN)
    );
}

#[test]
fn text_that_is_no_integer_is_msg_245_naming_the_value() {
    assert_error(
        fail(s("12.5"), DataType::Int),
        245,
        1,
        "Conversion failed when converting the varchar value '12.5' to data type int.",
    );
    for bad in ["abc", "1e5", "0x42", "\t5", "- 5", "+", "5-"] {
        assert_eq!(fail(s(bad), DataType::Int).number, 245, "{bad:?}");
    }
    assert_eq!(
        fail_from(s("abc"), nvarchar(3), DataType::Int, None).message,
        "Conversion failed when converting the nvarchar value 'abc' to data type int."
    );
    // char is named varchar, and keeps its blanks in the message.
    assert_eq!(
        fail_from(s("ab    "), char_(6), DataType::SmallInt, None).message,
        "Conversion failed when converting the varchar value 'ab    ' to data type smallint."
    );
    assert_error(
        fail(s("abc"), DataType::BigInt),
        8114,
        5,
        "Error converting data type varchar to bigint.",
    );
}

#[test]
fn text_overflowing_an_integer() {
    assert_error(
        fail(s("300"), DataType::TinyInt),
        244,
        1,
        "The conversion of the varchar value '300' overflowed an INT1 column. Use a larger integer column.",
    );
    assert_eq!(fail(s("-1"), DataType::TinyInt).number, 244);
    assert_error(
        fail(s("99999"), DataType::SmallInt),
        244,
        2,
        "The conversion of the varchar value '99999' overflowed an INT2 column. Use a larger integer column.",
    );
    assert_error(
        fail(s("2147483648"), DataType::Int),
        248,
        1,
        "The conversion of the varchar value '2147483648' overflowed an int column.",
    );
    assert_error(
        fail(s("99999999999999999999"), DataType::BigInt),
        8115,
        2,
        "Arithmetic overflow error converting expression to data type bigint.",
    );
}

#[test]
fn text_to_bit() {
    for (text, expected) in [
        ("1", true),
        ("0", false),
        ("true", true),
        ("TRUE", true),
        ("False", false),
        ("  true  ", true),
        ("2", true),
        ("-1", true),
        ("000", false),
        ("", false),
        ("99999999999999999999", true),
    ] {
        assert_eq!(
            cast(s(text), DataType::Bit),
            Value::Bit(expected),
            "{text:?}"
        );
    }
    assert_error(
        fail(s("yes"), DataType::Bit),
        245,
        1,
        "Conversion failed when converting the varchar value 'yes' to data type bit.",
    );
    assert_eq!(fail(s("1.0"), DataType::Bit).number, 245);
}

#[test]
fn text_to_decimal() {
    assert_eq!(cast(s("123.4"), dec(9, 4)), dv("123.4", 9, 4));
    assert_eq!(cast(s(" -0.125 "), dec(3, 2)), dv("-0.13", 3, 2));
    assert_eq!(cast(s(".5"), dec(2, 1)), dv("0.5", 2, 1));
    assert_eq!(cast(s("5."), dec(2, 0)), dv("5", 2, 0));
    assert_eq!(
        cast(
            s("0.00000000000000000000000000000000000000000005"),
            dec(38, 38)
        ),
        Value::Decimal(Decimal::new(0, 38, 38).unwrap())
    );
    assert_error(
        fail(s("abc"), dec(10, 2)),
        8114,
        5,
        "Error converting data type varchar to numeric.",
    );
    for bad in ["", "1e5", "$1.00", "1,000", ".", "1.2.3"] {
        assert_eq!(fail(s(bad), dec(10, 2)).number, 8114, "{bad:?}");
    }
    assert_eq!(
        fail_from(s("x"), nvarchar(1), dec(10, 2), None).message,
        "Error converting data type nvarchar to numeric."
    );
    assert_error(
        fail(s("99.5"), dec(2, 0)),
        8115,
        8,
        "Arithmetic overflow error converting varchar to data type numeric.",
    );
    assert_eq!(fail(s("1.005"), dec(38, 38)).state, 8);
    let err = fail(s("123456789012345678901234567890123456789"), dec(38, 0));
    assert_error(
        err,
        8115,
        6,
        "Arithmetic overflow error converting varchar to data type numeric.",
    );
}

#[test]
fn text_to_money() {
    assert_eq!(cast(s("$1,000.50"), DataType::Money), money("1000.5"));
    assert_eq!(cast(s(" 12.34567 "), DataType::Money), money("12.3457"));
    assert_eq!(cast(s("-5"), DataType::SmallMoney), money("-5"));
    assert_eq!(cast(s(""), DataType::Money), money("0"));
    assert_eq!(cast(s("   "), DataType::SmallMoney), money("0"));
    assert_error(
        fail(s("abc"), DataType::Money),
        235,
        0,
        "Cannot convert a char value to money. The char value has incorrect syntax.",
    );
    assert_error(
        fail(s("abc"), DataType::SmallMoney),
        293,
        1,
        "Cannot convert char value to smallmoney. The char value has incorrect syntax.",
    );
    assert_error(
        fail(s("922337203685477.5808"), DataType::Money),
        8115,
        2,
        "Arithmetic overflow error converting expression to data type money.",
    );
    assert_eq!(
        fail(s("300000"), DataType::SmallMoney).message,
        "Arithmetic overflow error converting expression to data type smallmoney."
    );
}

#[test]
fn text_to_float() {
    for (text, expected) in [
        ("1e5", 1e5),
        (" 1.5E-3 ", 0.0015),
        ("\t-2", -2.0),
        ("", 0.0),
        ("  ", 0.0),
        (".5", 0.5),
        ("5.", 5.0),
        ("+1e+2", 100.0),
        ("1.7976931348623157e308", f64::MAX),
    ] {
        assert_eq!(
            cast(s(text), DataType::Float),
            Value::Float(expected),
            "{text:?}"
        );
    }
    assert_error(
        fail(s("abc"), DataType::Float),
        8114,
        5,
        "Error converting data type varchar to float.",
    );
    for bad in ["1e400", "inf", "NaN", "1e", "e5", "1,5", "$1", "1 2"] {
        assert_eq!(fail(s(bad), DataType::Float).number, 8114, "{bad:?}");
    }
    assert_eq!(cast(s("0.1"), DataType::Real), Value::Real(0.1));
    assert_eq!(
        fail(s("3.5e38"), DataType::Real).message,
        "Error converting data type varchar to real."
    );
}

#[test]
fn text_to_uniqueidentifier() {
    let expected = uuid("6F9619FF-8B86-D011-B42D-00C04FC964FF");
    for text in [
        "6F9619FF-8B86-D011-B42D-00C04FC964FF",
        "6f9619ff-8b86-d011-b42d-00c04fc964ff",
        "{6F9619FF-8B86-D011-B42D-00C04FC964FF}",
        "6F9619FF-8B86-D011-B42D-00C04FC964FFxyz",
        "6F9619FF-8B86-D011-B42D-00C04FC964FF    ",
    ] {
        assert_eq!(
            cast(s(text), DataType::UniqueIdentifier),
            expected,
            "{text:?}"
        );
    }
    for bad in [
        "",
        " 6F9619FF-8B86-D011-B42D-00C04FC964FF",
        "6F9619FF-8B86-D011-B42D-00C04FC964F",
        "6F9619FF8B86D011B42D00C04FC964FF",
    ] {
        assert_error(
            fail(s(bad), DataType::UniqueIdentifier),
            8169,
            2,
            "Conversion failed when converting from a character string to uniqueidentifier.",
        );
    }
}

#[test]
fn strings_to_strings_cut_and_pad() {
    assert_eq!(cast(s("hello world"), varchar(5)), s("hello"));
    assert_eq!(cast(s("abc"), char_(8)), s("abc     "));
    assert_eq!(cast(s("abc"), nchar(5)), s("abc  "));
    assert_eq!(cast(s("abc   "), varchar(4)), s("abc "));
    assert_eq!(cast(s(""), char_(2)), s("  "));
    // Never inside a surrogate pair.
    assert_eq!(cast(s("ab😀"), nvarchar(3)), s("ab"));
    assert_eq!(cast(s("ab😀"), nvarchar(4)), s("ab😀"));
    assert_eq!(cast(s("ab😀"), varchar(3)), s("ab?"));
    // varchar holds Windows-1252 only.
    assert_eq!(cast(s("café €"), varchar(10)), s("café €"));
    assert_eq!(cast(s("漢字 ok"), varchar(10)), s("?? ok"));
    assert_eq!(cast(s("漢字"), nvarchar(10)), s("漢字"));
    assert_eq!(cast(s("abc"), varchar_max()), s("abc"));
}

#[test]
fn integers_into_short_text_are_a_star_or_msg_8115() {
    assert_eq!(cast(Value::Int(123), varchar(3)), s("123"));
    assert_eq!(cast(Value::Int(-5), varchar(10)), s("-5"));
    assert_eq!(cast(Value::Int(123), varchar(2)), s("*"));
    assert_eq!(cast(Value::Int(-12), char_(2)), s("* "));
    assert_eq!(cast(Value::TinyInt(200), char_(1)), s("*"));
    assert_error(
        fail(Value::Int(123), nvarchar(2)),
        8115,
        2,
        "Arithmetic overflow error converting expression to data type nvarchar.",
    );
    assert_eq!(
        fail(Value::SmallInt(123), nchar(2)).message,
        "Arithmetic overflow error converting expression to data type nvarchar."
    );
    assert_eq!(
        fail(Value::BigInt(123), varchar(2)).message,
        "Arithmetic overflow error converting expression to data type varchar."
    );
    assert_eq!(cast(Value::Bit(true), varchar(1)), s("1"));
    assert_eq!(cast(Value::Bit(false), nchar(3)), s("0  "));
    assert_eq!(
        cast(Value::BigInt(i64::MAX), varchar(30)),
        s("9223372036854775807")
    );
}

#[test]
fn decimals_as_text() {
    assert_eq!(to_text(d("123.45")), "123.45");
    assert_eq!(to_text(d("0.5")), "0.5");
    assert_eq!(to_text(d("-0.50")), "-0.50");
    assert_eq!(to_text(cast(Value::Int(1), dec(5, 2))), "1.00");
    assert_error(
        fail(d("123.45"), varchar(5)),
        8115,
        5,
        "Arithmetic overflow error converting numeric to data type varchar.",
    );
    assert_error(
        fail(d("123.45"), nvarchar(3)),
        8115,
        2,
        "Arithmetic overflow error converting expression to data type nvarchar.",
    );
}

#[test]
fn money_as_text_in_its_styles() {
    assert_eq!(to_text(money("1234.5")), "1234.50");
    assert_eq!(to_text(money("157.27")), "157.27");
    assert_eq!(to_text(money("-1234.565")), "-1234.57");
    assert_eq!(to_text(money("-0.004")), "0.00");
    assert_eq!(
        text_of(cast_from(
            money("3148.29"),
            DataType::SmallMoney,
            varchar(30)
        )),
        "3148.29"
    );
    assert_eq!(to_text_styled(money("1234567.891"), 0), "1234567.89");
    assert_eq!(to_text_styled(money("1234567.891"), 1), "1,234,567.89");
    assert_eq!(to_text_styled(money("123.4"), 1), "123.40");
    assert_eq!(to_text_styled(money("-123456.4"), 1), "-123,456.40");
    assert_eq!(to_text_styled(money("1234567.891"), 2), "1234567.8910");
    assert_eq!(to_text_styled(money("3510.92"), 126), "3510.9200");
    assert_eq!(to_text_styled(money("3510.92"), 7), "3510.92");
    assert_error(
        fail(money("1234.5"), varchar(3)),
        234,
        1,
        "There is insufficient result space to convert a money value to varchar.",
    );
}

#[test]
fn floats_as_text_in_their_styles() {
    for (v, expected) in [
        (1e10, "1e+010"),
        (123456.7, "123457"),
        (1234567.0, "1.23457e+006"),
        (1234567890.0, "1.23457e+009"),
        (999999.5, "1e+006"),
        (100000.0, "100000"),
        (0.0001, "0.0001"),
        (0.00001, "1e-005"),
        (0.000123456789, "0.000123457"),
        (1.0, "1"),
        (0.1, "0.1"),
        (-1.5, "-1.5"),
        (1.23456789, "1.23457"),
        (0.0, "0"),
        (-0.0, "-0"),
        (1e-300, "1e-300"),
        (f64::MAX, "1.79769e+308"),
    ] {
        assert_eq!(to_text(Value::Float(v)), expected, "{v:e}");
    }
    assert_eq!(to_text_styled(Value::Float(1.0), 1), "1.0000000e+000");
    assert_eq!(to_text_styled(Value::Float(1234567.0), 1), "1.2345670e+006");
    assert_eq!(
        to_text_styled(Value::Float(1.0), 2),
        "1.000000000000000e+000"
    );
    assert_eq!(
        to_text_styled(Value::Float(0.1), 3),
        "1.0000000000000001e-001"
    );
    assert_eq!(
        to_text_styled(Value::Float(-0.1), 126),
        "-1.000000000000000e-001"
    );
    assert_eq!(to_text_styled(Value::Float(1e10), 99), "1e+010");
    assert_eq!(to_text(Value::Real(1234567.0)), "1.23457e+006");
    assert_eq!(
        to_text_styled(Value::Real(1_234_567.9), 2),
        "1.234567875000000e+006"
    );
    assert_eq!(to_text_styled(Value::Real(1.0), 126), "1.0000000e+000");
    assert_eq!(
        fail_styled(Value::Float(1.0), varchar(30), 128).number,
        10794
    );
    assert_error(
        fail(Value::Float(1234.0), varchar(3)),
        232,
        2,
        "Arithmetic overflow error for type varchar, value = 1234.000000.",
    );
    assert_error(
        fail(Value::Float(1234.0), nvarchar(3)),
        8115,
        2,
        "Arithmetic overflow error converting expression to data type nvarchar.",
    );
}

#[test]
fn uniqueidentifiers_as_text() {
    let u = uuid("6f9619ff-8b86-d011-b42d-00c04fc964ff");
    assert_eq!(to_text(u.clone()), "6F9619FF-8B86-D011-B42D-00C04FC964FF");
    assert_eq!(
        text_of(cast(u.clone(), nchar(36))),
        "6F9619FF-8B86-D011-B42D-00C04FC964FF"
    );
    assert_error(
        fail(u.clone(), char_(10)),
        8170,
        2,
        "Insufficient result space to convert uniqueidentifier value to char.",
    );
    assert_eq!(
        fail(u, nvarchar(35)).message,
        "Arithmetic overflow error converting expression to data type nvarchar."
    );
}

#[test]
fn binary_as_text_in_styles_0_1_and_2() {
    // The documentation's examples.
    let name = bytes(&[0x4E, 0x61, 0x6D, 0x65]);
    assert_eq!(text_of(styled(name.clone(), char_(8), 0)), "Name    ");
    assert_eq!(text_of(styled(name.clone(), char_(8), 1)), "0x4E616D");
    assert_eq!(text_of(styled(name.clone(), char_(8), 2)), "4E616D65");
    assert_eq!(text_of(cast(name.clone(), varchar(10))), "Name");
    assert_eq!(to_text_styled(bytes(&[]), 1), "0x");
    assert_eq!(to_text_styled(bytes(&[0xE9, 0x80]), 0), "é€");
    // nvarchar reads UTF-16LE; an odd last byte is the low half.
    assert_eq!(
        text_of(cast(bytes(&[0x41, 0x00, 0x42, 0x00]), nvarchar(5))),
        "AB"
    );
    assert_eq!(text_of(cast(bytes(&[0x41]), nvarchar(5))), "A");
    assert_error(
        fail_styled(name, varchar(10), 3),
        281,
        1,
        "3 is not a valid style number when converting from varbinary to a character string.",
    );
}
