use super::*;

fn dec_value(v: Value) -> String {
    match v {
        Value::Decimal(d) => format!("{d} ({},{})", d.precision, d.scale),
        other => panic!("not a decimal: {other:?}"),
    }
}

#[test]
fn integers_narrow_with_msg_220_or_8115() {
    assert_eq!(
        cast(Value::Int(255), DataType::TinyInt),
        Value::TinyInt(255)
    );
    assert_eq!(
        cast(Value::Int(-32768), DataType::SmallInt),
        Value::SmallInt(-32768)
    );
    assert_eq!(
        cast(Value::BigInt(i64::from(i32::MIN)), DataType::Int),
        Value::Int(i32::MIN)
    );
    assert_eq!(cast(Value::TinyInt(7), DataType::BigInt), Value::BigInt(7));
    assert_eq!(cast(Value::Bit(true), DataType::Int), Value::Int(1));
    assert_error(
        fail(Value::Int(300), DataType::TinyInt),
        220,
        2,
        "Arithmetic overflow error for data type tinyint, value = 300.",
    );
    assert_error(
        fail(Value::SmallInt(-1), DataType::TinyInt),
        220,
        2,
        "Arithmetic overflow error for data type tinyint, value = -1.",
    );
    assert_error(
        fail(Value::Int(40000), DataType::SmallInt),
        220,
        1,
        "Arithmetic overflow error for data type smallint, value = 40000.",
    );
    assert_error(
        fail(Value::BigInt(i64::from(i32::MAX) + 1), DataType::Int),
        8115,
        2,
        "Arithmetic overflow error converting expression to data type int.",
    );
    assert_error(
        fail(Value::BigInt(300), DataType::TinyInt),
        8115,
        2,
        "Arithmetic overflow error converting expression to data type tinyint.",
    );
}

#[test]
fn decimal_truncates_to_integers_and_rounds_to_decimals() {
    // The documentation's example: 10.6496 and -10.6496.
    assert_eq!(cast(d("10.6496"), DataType::Int), Value::Int(10));
    assert_eq!(cast(d("-10.6496"), DataType::Int), Value::Int(-10));
    assert_eq!(dec_value(cast(d("10.6496"), dec(18, 0))), "11 (18,0)");
    assert_eq!(dec_value(cast(d("-10.6496"), dec(18, 0))), "-11 (18,0)");
    assert_eq!(
        cast(d("2147483647.99"), DataType::Int),
        Value::Int(i32::MAX)
    );
    assert_error(
        fail(d("2147483648.0"), DataType::Int),
        8115,
        2,
        "Arithmetic overflow error converting expression to data type int.",
    );
    assert_eq!(cast(d("-0.9"), DataType::TinyInt), Value::TinyInt(0));
    // Halves round away from zero.
    assert_eq!(dec_value(cast(d("1.25"), dec(2, 1))), "1.3 (2,1)");
    assert_eq!(dec_value(cast(d("-1.25"), dec(2, 1))), "-1.3 (2,1)");
    assert_eq!(dec_value(cast(d("1.24"), dec(2, 1))), "1.2 (2,1)");
    assert_eq!(dec_value(cast(d("2.5"), dec(1, 0))), "3 (1,0)");
    assert_eq!(dec_value(cast(d("1"), dec(5, 2))), "1.00 (5,2)");
    assert_error(
        fail(d("999.5"), dec(3, 0)),
        8115,
        8,
        "Arithmetic overflow error converting numeric to data type numeric.",
    );
    assert_eq!(fail(d("1.005"), dec(38, 38)).state, 6);
}

#[test]
fn integers_to_decimal_name_their_type_on_overflow() {
    assert_eq!(dec_value(cast(Value::Int(42), dec(4, 2))), "42.00 (4,2)");
    assert_error(
        fail(Value::Int(100), dec(2, 0)),
        8115,
        2,
        "Arithmetic overflow error converting int to data type numeric.",
    );
    assert_eq!(
        fail(Value::BigInt(100), dec(3, 1)).message,
        "Arithmetic overflow error converting bigint to data type numeric."
    );
    assert_eq!(dec_value(cast(Value::Bit(true), dec(1, 0))), "1 (1,0)");
}

#[test]
fn float_truncates_to_integers_with_msg_232_on_overflow() {
    assert_eq!(cast(Value::Float(10.9), DataType::Int), Value::Int(10));
    assert_eq!(cast(Value::Float(-10.9), DataType::Int), Value::Int(-10));
    assert_eq!(cast(Value::Float(-0.0), DataType::Int), Value::Int(0));
    assert_eq!(cast(Value::Real(1.5), DataType::Int), Value::Int(1));
    assert_eq!(
        cast(Value::Float(i64::MIN as f64), DataType::BigInt),
        Value::BigInt(i64::MIN)
    );
    assert_error(
        fail(Value::Float(3e9), DataType::Int),
        232,
        3,
        "Arithmetic overflow error for type int, value = 3000000000.000000.",
    );
    assert_error(
        fail(Value::Float(300.5), DataType::TinyInt),
        232,
        1,
        "Arithmetic overflow error for type tinyint, value = 300.500000.",
    );
    assert_eq!(fail(Value::Float(-40000.0), DataType::SmallInt).state, 2);
    assert_eq!(
        fail(Value::Float(1e30), DataType::Int).message,
        "Arithmetic overflow error for type int, value = 1000000000000000000000000000000.000000."
    );
    assert_error(
        fail(Value::Float(9.3e18), DataType::BigInt),
        8115,
        2,
        "Arithmetic overflow error converting expression to data type bigint.",
    );
}

#[test]
fn float_to_decimal_rounds_the_exact_binary_value() {
    assert_eq!(
        dec_value(cast(Value::Float(0.1), dec(38, 30))),
        "0.100000000000000005551115123126 (38,30)"
    );
    assert_eq!(
        dec_value(cast(Value::Float(1e30), dec(38, 0))),
        "1000000000000000019884624838656 (38,0)"
    );
    assert_eq!(
        dec_value(cast(Value::Float(1e38), dec(38, 0))),
        "99999999999999997748809823456034029568 (38,0)"
    );
    assert_eq!(
        dec_value(cast(Value::Real(1.1), dec(20, 10))),
        "1.1000000238 (20,10)"
    );
    assert_eq!(dec_value(cast(Value::Float(2.5), dec(1, 0))), "3 (1,0)");
    // The double nearest 2.675 is a little below it.
    assert_eq!(
        dec_value(cast(Value::Float(2.675), dec(5, 2))),
        "2.67 (5,2)"
    );
    assert_eq!(dec_value(cast(d("2.675"), dec(5, 2))), "2.68 (5,2)");
    assert_eq!(dec_value(cast(Value::Float(-2.5), dec(1, 0))), "-3 (1,0)");
    assert_eq!(dec_value(cast(Value::Float(-0.0), dec(3, 1))), "0.0 (3,1)");
    assert_eq!(
        dec_value(cast(Value::Float(1e-300), dec(38, 38))),
        "0.00000000000000000000000000000000000000 (38,38)"
    );
    assert_error(
        fail(Value::Float(1e39), dec(38, 0)),
        8115,
        6,
        "Arithmetic overflow error converting float to data type numeric.",
    );
    assert_eq!(
        fail(Value::Real(1000.0), dec(3, 0)).message,
        "Arithmetic overflow error converting real to data type numeric."
    );
}

#[test]
fn money_rounds_to_integers() {
    assert_eq!(cast(money("1.5"), DataType::Int), Value::Int(2));
    assert_eq!(cast(money("-0.5"), DataType::Int), Value::Int(-1));
    assert_eq!(cast(money("2.4999"), DataType::Int), Value::Int(2));
    assert_eq!(cast(money("-2.5"), DataType::BigInt), Value::BigInt(-3));
    assert_eq!(cast(money("255.4"), DataType::TinyInt), Value::TinyInt(255));
    assert_error(
        fail(money("3000000000"), DataType::Int),
        237,
        1,
        "There is insufficient result space to convert a money value to int.",
    );
    assert_error(
        fail(money("70000"), DataType::SmallInt),
        220,
        7,
        "Arithmetic overflow error for data type smallint, value = 700000000.",
    );
    assert_error(
        fail(money("3000000000"), DataType::SmallInt),
        237,
        2,
        "There is insufficient result space to convert a money value to smallint.",
    );
    assert_error(
        fail(money("300"), DataType::TinyInt),
        232,
        11,
        "Arithmetic overflow error for type tinyint, value = 300.000000.",
    );
    assert_eq!(fail(money("3000000000"), DataType::TinyInt).number, 237);
    // smallmoney reports differently.
    let small = DataType::SmallMoney;
    assert_error(
        fail_from(money("70000.75"), small, DataType::SmallInt, None),
        220,
        5,
        "Arithmetic overflow error for data type smallint, value = 70000.",
    );
    assert_error(
        fail_from(money("300"), small, DataType::TinyInt, None),
        8115,
        2,
        "Arithmetic overflow error converting expression to data type tinyint.",
    );
}

#[test]
fn money_conversions() {
    // The documentation's examples.
    assert_eq!(cast(d("10.3496847"), DataType::Money), money("10.3497"));
    assert_eq!(cast(Value::Int(4), DataType::Money), money("4"));
    assert_eq!(dec_value(cast(money("3148.29"), dec(18, 0))), "3148 (18,0)");
    assert_eq!(
        dec_value(cast(money("1234.5678"), dec(10, 2))),
        "1234.57 (10,2)"
    );
    assert_eq!(cast(Value::Float(0.1), DataType::Money), money("0.1"));
    assert_eq!(
        cast(Value::Float(-0.00005), DataType::Money),
        money("-0.0001")
    );
    assert_eq!(
        cast(Value::Int(i32::MAX), DataType::Money),
        money("2147483647")
    );
    assert_error(
        fail(Value::BigInt(922_337_203_685_478), DataType::Money),
        8115,
        2,
        "Arithmetic overflow error converting expression to data type money.",
    );
    assert_error(
        fail(Value::Int(1_000_000), DataType::SmallMoney),
        220,
        3,
        "Arithmetic overflow error for data type smallmoney, value = 1000000.",
    );
    assert_error(
        fail(money("1000000"), DataType::SmallMoney),
        237,
        3,
        "There is insufficient result space to convert a money value to smallmoney.",
    );
    assert_eq!(
        cast(money("214748.3647"), DataType::SmallMoney),
        money("214748.3647")
    );
    assert_error(
        fail(d("1000000000000000"), DataType::Money),
        8115,
        4,
        "Arithmetic overflow error converting numeric to data type money.",
    );
    assert_error(
        fail(Value::Float(1e20), DataType::Money),
        232,
        2,
        "Arithmetic overflow error for type money, value = 100000000000000000000.000000.",
    );
    assert_eq!(
        fail(Value::Float(1e6), DataType::SmallMoney).message,
        "Arithmetic overflow error for type smallmoney, value = 1000000.000000."
    );
}

#[test]
fn bit_takes_any_nonzero_as_one() {
    for (value, expected) in [
        (Value::Int(5), true),
        (Value::Int(0), false),
        (Value::Int(-1), true),
        (Value::BigInt(i64::MIN), true),
        (d("0.00"), false),
        (d("0.01"), true),
        (money("0"), false),
        (Value::Float(0.1), true),
        (Value::Float(-0.0), false),
        (Value::Real(0.0), false),
        (datetime("1900-01-01"), false),
        (datetime("1900-01-01 00:00:00.003"), true),
    ] {
        assert_eq!(
            cast(value.clone(), DataType::Bit),
            Value::Bit(expected),
            "{value:?}"
        );
    }
}

#[test]
fn floats_from_exact_numbers() {
    assert_eq!(cast(Value::Int(3), DataType::Float), Value::Float(3.0));
    assert_eq!(cast(d("0.1"), DataType::Float), Value::Float(0.1));
    assert_eq!(cast(money("1.2345"), DataType::Float), Value::Float(1.2345));
    assert_eq!(cast(d("0.1"), DataType::Real), Value::Real(0.1));
    assert_eq!(cast(Value::Float(0.1), DataType::Real), Value::Real(0.1));
    assert_eq!(
        cast(Value::Real(0.1), DataType::Float),
        Value::Float(f64::from(0.1f32))
    );
    assert_eq!(
        cast(Value::BigInt(i64::MAX), DataType::Float),
        Value::Float(i64::MAX as f64)
    );
    assert_error(
        fail(Value::Float(1e39), DataType::Real),
        8115,
        2,
        "Arithmetic overflow error converting float to data type real.",
    );
}

#[test]
fn datetime_to_numbers_counts_days_since_1900() {
    assert_eq!(
        cast(datetime("2020-01-01"), DataType::Int),
        Value::Int(43829)
    );
    // Rounded, half away from zero.
    assert_eq!(
        cast(datetime("1900-01-01 12:00"), DataType::Int),
        Value::Int(1)
    );
    assert_eq!(
        cast(datetime("1900-01-01 11:59"), DataType::Int),
        Value::Int(0)
    );
    assert_eq!(
        cast(datetime("1899-12-31 06:00"), DataType::Int),
        Value::Int(-1)
    );
    assert_eq!(
        cast(smalldatetime("1900-01-01 12:00"), DataType::Int),
        Value::Int(1)
    );
    assert_eq!(
        cast(datetime("1900-01-02 06:00"), DataType::Float),
        Value::Float(1.25)
    );
    assert_eq!(
        cast(datetime("1899-12-31 18:00"), DataType::Float),
        Value::Float(-0.25)
    );
    assert_eq!(
        dec_value(cast(datetime("1900-01-02 08:00"), dec(10, 4))),
        "1.3333 (10,4)"
    );
    assert_eq!(
        cast(datetime("1900-01-02 12:00"), DataType::Money),
        money("1.5")
    );
    assert_error(
        fail(datetime("2020-01-01"), DataType::SmallInt),
        8115,
        2,
        "Arithmetic overflow error converting expression to data type smallint.",
    );
}
