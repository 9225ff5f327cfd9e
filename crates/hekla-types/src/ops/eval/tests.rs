use super::*;
use crate::ops::{arithmetic_type, ArithOp::*};
use crate::Collation;
use DataType as T;

fn d(text: &str) -> Value {
    Value::Decimal(text.parse().unwrap())
}

fn m(text: &str) -> Value {
    Value::Money(text.parse().unwrap())
}

fn s(text: &str) -> Value {
    Value::String(text.to_string())
}

fn dec(precision: u8, scale: u8) -> DataType {
    T::Decimal { precision, scale }
}

fn eval(op: ArithOp, left: Value, right: Value, ty: DataType) -> Value {
    arithmetic(op, &left, &right, &ty).unwrap()
}

fn eval_err(op: ArithOp, left: Value, right: Value, ty: DataType) -> (u32, String) {
    let e = arithmetic(op, &left, &right, &ty).unwrap_err();
    (e.number, e.message)
}

fn msg(number: u32, text: &str) -> (u32, String) {
    (number, text.to_string())
}

const DIVIDE_BY_ZERO: &str = "Divide by zero error encountered.";

fn int_overflow(name: &str) -> (u32, String) {
    msg(
        8115,
        &format!("Arithmetic overflow error converting expression to data type {name}."),
    )
}

#[test]
fn integer_arithmetic_overflows_in_its_own_type() {
    use Value::Int;
    assert_eq!(eval(Add, Int(2), Int(3), T::Int), Int(5));
    assert_eq!(
        eval_err(Add, Int(i32::MAX), Int(1), T::Int),
        int_overflow("int")
    );
    assert_eq!(
        eval_err(Subtract, Int(i32::MIN), Int(1), T::Int),
        int_overflow("int")
    );
    assert_eq!(
        eval_err(Multiply, Int(65_536), Int(32_768), T::Int),
        int_overflow("int")
    );
    assert_eq!(
        eval_err(Divide, Int(i32::MIN), Int(-1), T::Int),
        int_overflow("int")
    );
    // SQL Server forms the quotient for % as well.
    assert_eq!(
        eval_err(Modulo, Int(i32::MIN), Int(-1), T::Int),
        int_overflow("int")
    );
    assert_eq!(eval(Modulo, Int(i32::MIN), Int(1), T::Int), Int(0));
    assert_eq!(eval(Modulo, Int(-5), Int(-1), T::Int), Int(0));
    let big = |v| Value::BigInt(v);
    assert_eq!(
        eval_err(Add, big(i64::MAX), big(1), T::BigInt),
        int_overflow("bigint")
    );
    assert_eq!(
        eval_err(Divide, big(i64::MIN), big(-1), T::BigInt),
        int_overflow("bigint")
    );
    // A narrower operand is widened to the result type.
    assert_eq!(
        eval(Add, Value::SmallInt(7), big(i64::MAX - 7), T::BigInt),
        big(i64::MAX)
    );
}

#[test]
fn tinyint_and_smallint_keep_their_ranges() {
    use Value::{SmallInt, TinyInt};
    assert_eq!(
        eval(Add, TinyInt(200), TinyInt(55), T::TinyInt),
        TinyInt(255)
    );
    assert_eq!(
        eval_err(Add, TinyInt(255), TinyInt(1), T::TinyInt),
        int_overflow("tinyint")
    );
    assert_eq!(
        eval_err(Subtract, TinyInt(0), TinyInt(1), T::TinyInt),
        int_overflow("tinyint")
    );
    assert_eq!(
        eval_err(Multiply, TinyInt(16), TinyInt(16), T::TinyInt),
        int_overflow("tinyint")
    );
    assert_eq!(
        eval_err(Add, SmallInt(i16::MAX), SmallInt(1), T::SmallInt),
        int_overflow("smallint")
    );
    assert_eq!(
        eval_err(Divide, SmallInt(i16::MIN), SmallInt(-1), T::SmallInt),
        int_overflow("smallint")
    );
}

#[test]
fn division_truncates_and_modulo_follows_the_dividend() {
    use Value::Int;
    assert_eq!(eval(Divide, Int(7), Int(2), T::Int), Int(3));
    assert_eq!(eval(Divide, Int(-7), Int(2), T::Int), Int(-3));
    assert_eq!(eval(Divide, Int(38), Int(5), T::Int), Int(7));
    assert_eq!(eval(Modulo, Int(38), Int(5), T::Int), Int(3));
    assert_eq!(eval(Modulo, Int(-7), Int(3), T::Int), Int(-1));
    assert_eq!(eval(Modulo, Int(7), Int(-3), T::Int), Int(1));
    assert_eq!(eval(Modulo, Int(-7), Int(-3), T::Int), Int(-1));
    assert_eq!(
        eval_err(Divide, Int(5), Int(0), T::Int),
        msg(8134, DIVIDE_BY_ZERO)
    );
    assert_eq!(
        eval_err(Modulo, Int(5), Int(0), T::Int),
        msg(8134, DIVIDE_BY_ZERO)
    );
}

#[test]
fn null_in_null_out() {
    assert_eq!(eval(Add, Value::Int(1), Value::Null, T::Int), Value::Null);
    // NULL wins over a zero divisor.
    assert_eq!(
        eval(Divide, Value::Null, Value::Int(0), T::Int),
        Value::Null
    );
    assert_eq!(eval(Add, Value::Null, s("a"), vc(5)), Value::Null);
    assert_eq!(
        eval(BitAnd, Value::Null, Value::Bit(true), T::Bit),
        Value::Null
    );
    assert_eq!(negate(&Value::Null, &T::Int), Ok(Value::Null));
    assert_eq!(bit_not(&Value::Null, &T::Bit), Ok(Value::Null));
    // The type is still checked.
    assert_eq!(negate(&Value::Null, &vc(1)).unwrap_err().number, 8117);
}

#[test]
fn bitwise_operators() {
    use Value::{Bit, Int, SmallInt, TinyInt};
    // The documentation's 170 and 75.
    assert_eq!(eval(BitAnd, Int(170), Int(75), T::Int), Int(10));
    assert_eq!(eval(BitOr, Int(170), Int(75), T::Int), Int(235));
    assert_eq!(eval(BitXor, Int(170), Int(75), T::Int), Int(225));
    assert_eq!(
        eval(BitXor, TinyInt(170), TinyInt(255), T::TinyInt),
        TinyInt(85)
    );
    assert_eq!(
        eval(BitAnd, SmallInt(-1), TinyInt(255), T::SmallInt),
        SmallInt(255)
    );
    assert_eq!(eval(BitAnd, Int(-1), Int(i32::MIN), T::Int), Int(i32::MIN));
    assert_eq!(eval(BitAnd, Bit(true), Bit(false), T::Bit), Bit(false));
    assert_eq!(eval(BitOr, Bit(true), Bit(false), T::Bit), Bit(true));
    assert_eq!(eval(BitXor, Bit(true), Bit(true), T::Bit), Bit(false));
    assert_eq!(eval(BitOr, Bit(true), Int(6), T::Int), Int(7));
    assert_eq!(
        eval_err(Add, Bit(true), Bit(true), T::Bit),
        msg(8117, "Operand data type bit is invalid for add operator.")
    );
}

#[test]
fn bitwise_not() {
    let not = |v: Value, t: DataType| bit_not(&v, &t).unwrap();
    assert_eq!(not(Value::Int(170), T::Int), Value::Int(-171));
    assert_eq!(not(Value::Int(75), T::Int), Value::Int(-76));
    assert_eq!(not(Value::Int(1), T::Int), Value::Int(-2));
    assert_eq!(not(Value::TinyInt(170), T::TinyInt), Value::TinyInt(85));
    assert_eq!(not(Value::TinyInt(0), T::TinyInt), Value::TinyInt(255));
    assert_eq!(not(Value::SmallInt(5), T::SmallInt), Value::SmallInt(-6));
    assert_eq!(not(Value::BigInt(5), T::BigInt), Value::BigInt(-6));
    assert_eq!(not(Value::Bit(true), T::Bit), Value::Bit(false));
    assert_eq!(not(Value::Bit(false), T::Bit), Value::Bit(true));
    let e = bit_not(&d("1.5"), &dec(3, 1)).unwrap_err();
    assert_eq!(
        (e.number, e.message.as_str()),
        (
            8117,
            "Operand data type numeric is invalid for '~' operator."
        )
    );
}

#[test]
fn unary_minus() {
    let neg = |v: Value, t: DataType| negate(&v, &t);
    assert_eq!(neg(Value::Int(5), T::Int), Ok(Value::Int(-5)));
    assert_eq!(
        neg(Value::TinyInt(255), T::TinyInt),
        Ok(Value::SmallInt(-255))
    );
    let over = |r: SqlResult<Value>| {
        let e = r.unwrap_err();
        (e.number, e.message)
    };
    assert_eq!(over(neg(Value::Int(i32::MIN), T::Int)), int_overflow("int"));
    assert_eq!(
        over(neg(Value::SmallInt(i16::MIN), T::SmallInt)),
        int_overflow("smallint")
    );
    assert_eq!(
        over(neg(Value::BigInt(i64::MIN), T::BigInt)),
        int_overflow("bigint")
    );
    assert_eq!(
        over(neg(Value::Money(Money::MIN), T::Money)),
        int_overflow("money")
    );
    assert_eq!(
        over(neg(Value::Money(Money::SMALL_MIN), T::SmallMoney)),
        int_overflow("smallmoney")
    );
    assert_eq!(
        neg(Value::Money(Money::SMALL_MIN), T::Money),
        Ok(m("214748.3648"))
    );
    assert_eq!(neg(d("1.50"), dec(5, 2)), Ok(d("-1.50")));
    let Ok(Value::Float(zero)) = neg(Value::Float(0.0), T::Float) else {
        panic!("float expected");
    };
    assert!(zero == 0.0 && zero.is_sign_negative());
    assert_eq!(neg(Value::Real(1.5), T::Real), Ok(Value::Real(-1.5)));
    assert_eq!(
        over(neg(Value::Bit(true), T::Bit)),
        msg(8117, "Operand data type bit is invalid for minus operator.")
    );
}

/// The evaluated value with the type `arithmetic_type` gives the operands.
fn typed(op: ArithOp, (a, ta): (Value, DataType), (b, tb): (Value, DataType)) -> (Value, DataType) {
    let ty = arithmetic_type(op, &ta, &tb).unwrap();
    (eval(op, a, b, ty), ty)
}

fn shown(op: ArithOp, a: (Value, DataType), b: (Value, DataType)) -> String {
    typed(op, a, b).0.to_string()
}

#[test]
fn decimal_arithmetic_in_the_result_type() {
    let lit = |text: &str| {
        let v: Decimal = text.parse().unwrap();
        (Value::Decimal(v), dec(v.precision, v.scale))
    };
    let int = |v: i32| (Value::Int(v), T::Int);
    // An integer literal beside a decimal: decimal(digits, 0).
    let three = (Value::Int(3), dec(1, 0));
    assert_eq!(
        typed(Divide, lit("7.0"), three.clone()),
        (d("2.333333"), dec(7, 6))
    );
    // An int expression is decimal(10,0): twelve decimals.
    assert_eq!(shown(Divide, lit("7.0"), int(3)), "2.333333333333");
    // Quotients truncate.
    assert_eq!(shown(Divide, lit("2.0"), three.clone()), "0.666666");
    assert_eq!(shown(Divide, lit("-2.0"), three.clone()), "-0.666666");
    assert_eq!(shown(Divide, lit("1.0"), three), "0.333333");
    assert_eq!(shown(Divide, lit("4.00"), lit("7")), "0.571428");
    assert_eq!(shown(Add, lit("1.5"), lit("2.25")), "3.75");
    assert_eq!(typed(Add, lit("1.5"), lit("2.25")).1, dec(4, 2));
    assert_eq!(shown(Multiply, lit("1.5"), lit("-1.5")), "-2.25");
    assert_eq!(shown(Add, int(1), lit("0.5")), "1.5");
    assert_eq!(shown(Modulo, lit("-5.5"), int(2)), "-1.5");
    assert_eq!(shown(Modulo, lit("5.5"), lit("2")), "1.5");
    // Money beside a decimal is decimal(19,4).
    let (sum, ty) = typed(Add, (m("1.25"), T::Money), lit("0.5"));
    assert_eq!((sum.to_string(), ty), ("1.7500".to_string(), dec(20, 4)));
}

#[test]
fn decimal_results_past_38_digits_round_or_overflow() {
    let typed_dec = |mantissa: i128, precision: u8, scale: u8| {
        (
            Value::Decimal(Decimal::new(mantissa, precision, scale).unwrap()),
            dec(precision, scale),
        )
    };
    // The documentation's examples: decimal(38,17) keeps the digits ...
    let (v, ty) = typed(
        Multiply,
        typed_dec(9_000 * 10i128.pow(10), 30, 20),
        typed_dec(10i128.pow(20), 30, 20),
    );
    assert_eq!(
        (v.to_string(), ty),
        ("0.00000090000000000".into(), dec(38, 17))
    );
    // ... decimal(38,6) rounds them.
    let (v, ty) = typed(
        Multiply,
        typed_dec(9_000, 30, 10),
        typed_dec(10i128.pow(10), 30, 10),
    );
    assert_eq!((v.to_string(), ty), ("0.000001".into(), dec(38, 6)));
    // A sum rounds to the scale the integral digits leave: 0 - 4.2 as
    // decimal(38,0) is -4.
    let (v, ty) = typed(Subtract, typed_dec(0, 38, 0), typed_dec(42_000, 32, 4));
    assert_eq!((v.to_string(), ty), ("-4".into(), dec(38, 0)));
    let nines = 10i128.pow(38) - 1;
    let e = arithmetic(
        Add,
        &Value::Decimal(Decimal::new(nines, 38, 0).unwrap()),
        &Value::Int(1),
        &dec(38, 0),
    )
    .unwrap_err();
    assert_eq!(
        (e.number, e.message.as_str()),
        (
            8115,
            "Arithmetic overflow error converting expression to data type numeric."
        )
    );
    assert_eq!(
        eval_err(Divide, d("1.0"), Value::Int(0), dec(13, 12)),
        msg(8134, DIVIDE_BY_ZERO)
    );
    assert_eq!(
        eval_err(Modulo, d("1.0"), d("0.00"), dec(3, 2)),
        msg(8134, DIVIDE_BY_ZERO)
    );
}

#[test]
fn money_arithmetic() {
    assert_eq!(
        eval(Multiply, m("1.2345"), m("1.2345"), T::Money),
        m("1.5240")
    );
    assert_eq!(
        eval(Multiply, m("1.0001"), m("0.5555"), T::Money),
        m("0.5556")
    );
    assert_eq!(
        eval(Divide, m("1.00"), Value::Int(7), T::Money),
        m("0.1428")
    );
    assert_eq!(eval(Divide, m("2"), m("3"), T::Money), m("0.6666"));
    assert_eq!(eval(Modulo, m("5.5"), m("2"), T::Money), m("1.5"));
    assert_eq!(eval(Modulo, m("-5.5"), Value::Int(2), T::Money), m("-1.5"));
    assert_eq!(
        eval(Add, Value::TinyInt(1), m("0.5"), T::SmallMoney),
        m("1.5")
    );
    assert_eq!(
        eval_err(Add, Value::Money(Money::MAX), m("0.0001"), T::Money),
        int_overflow("money")
    );
    assert_eq!(
        eval_err(
            Add,
            Value::Money(Money::SMALL_MAX),
            m("0.0001"),
            T::SmallMoney
        ),
        int_overflow("smallmoney")
    );
    assert_eq!(
        eval_err(Multiply, m("100000"), m("100000"), T::SmallMoney),
        int_overflow("smallmoney")
    );
    assert_eq!(
        eval_err(Divide, m("1"), m("0"), T::Money),
        msg(8134, DIVIDE_BY_ZERO)
    );
    assert_eq!(
        eval_err(Modulo, Value::Money(Money::MIN), m("-0.0001"), T::Money),
        int_overflow("money")
    );
}

#[test]
fn float_and_real_arithmetic() {
    use Value::{Float, Real};
    assert_eq!(
        eval(Add, Float(0.1), Float(0.2), T::Float),
        Float(0.30000000000000004)
    );
    assert_eq!(eval(Add, Float(1.5), Value::Int(2), T::Float), Float(3.5));
    assert_eq!(eval(Divide, Real(1.0), Real(3.0), T::Real), Real(1.0 / 3.0));
    // 2^24 + 1 is not a real: real's own answer drops the 1.
    assert_eq!(
        eval(Add, Real(16_777_216.0), Value::BigInt(1), T::Real),
        Real(16_777_216.0)
    );
    assert_eq!(
        eval_err(Multiply, Float(1e308), Float(10.0), T::Float),
        int_overflow("float")
    );
    assert_eq!(
        eval_err(Multiply, Real(3e38), Real(10.0), T::Real),
        int_overflow("real")
    );
    assert_eq!(
        eval_err(Divide, Float(1.0), Float(0.0), T::Float),
        msg(8134, DIVIDE_BY_ZERO)
    );
    assert_eq!(
        eval_err(Modulo, Float(1.0), Float(2.0), T::Float),
        msg(
            8117,
            "Operand data type float is invalid for modulo operator."
        )
    );
}

fn datetime(text: &str) -> Value {
    Value::DateTime(text.parse().unwrap())
}

fn smalldatetime(text: &str) -> Value {
    Value::SmallDateTime(text.parse().unwrap())
}

#[test]
fn datetime_adds_and_subtracts_days() {
    // The documentation's example: 1900-01-10 + 1.25 (converted to
    // datetime by the caller: 1900-01-02 06:00) and + 5.
    let start = datetime("1900-01-10 00:00:00");
    assert_eq!(
        eval(
            Add,
            start.clone(),
            datetime("1900-01-02 06:00:00"),
            T::DateTime
        )
        .to_string(),
        "1900-01-11 06:00:00.000"
    );
    assert_eq!(
        eval(Add, start.clone(), Value::Int(5), T::DateTime).to_string(),
        "1900-01-15 00:00:00.000"
    );
    assert_eq!(
        eval(Subtract, start, Value::Int(20), T::DateTime).to_string(),
        "1899-12-21 00:00:00.000"
    );
    assert_eq!(
        eval(
            Subtract,
            datetime("2024-01-02 00:00:00"),
            datetime("2024-01-01 12:00:00"),
            T::DateTime
        )
        .to_string(),
        "1900-01-01 12:00:00.000"
    );
    assert_eq!(
        eval(
            Add,
            datetime("2024-02-28 23:59:59.997"),
            smalldatetime("1900-01-01 00:01:00"),
            T::DateTime
        )
        .to_string(),
        "2024-02-29 00:00:59.997"
    );
    let overflow = msg(
        517,
        "Adding a value to a 'datetime' column caused an overflow.",
    );
    assert_eq!(
        eval_err(
            Add,
            datetime("9999-12-31 23:00:00"),
            Value::Int(1),
            T::DateTime
        ),
        overflow
    );
    assert_eq!(
        eval_err(
            Subtract,
            datetime("1753-01-01 00:00:00"),
            Value::Int(1),
            T::DateTime
        ),
        overflow
    );
    assert_eq!(
        eval_err(
            Multiply,
            datetime("1900-01-01 00:00:00"),
            Value::Int(1),
            T::DateTime
        ),
        msg(
            8117,
            "Operand data type datetime is invalid for multiply operator."
        )
    );
}

#[test]
fn smalldatetime_adds_and_subtracts_days() {
    assert_eq!(
        eval(
            Add,
            smalldatetime("1900-01-02 00:30:00"),
            smalldatetime("1900-01-01 23:59:00"),
            T::SmallDateTime
        )
        .to_string(),
        "1900-01-03 00:29:00"
    );
    let overflow = msg(
        517,
        "Adding a value to a 'smalldatetime' column caused an overflow.",
    );
    assert_eq!(
        eval_err(
            Subtract,
            smalldatetime("1900-01-01 12:00:00"),
            Value::Int(1),
            T::SmallDateTime
        ),
        overflow
    );
    assert_eq!(
        eval_err(
            Add,
            smalldatetime("2079-06-06 00:00:00"),
            Value::Int(1),
            T::SmallDateTime
        ),
        overflow
    );
}

fn vc(n: u32) -> DataType {
    T::VarChar {
        len: Length::Bounded(n),
        collation: Collation::default(),
    }
}

#[test]
fn concatenation_is_cut_to_the_result_type() {
    assert_eq!(eval(Add, s("abc"), s("defg"), vc(5)), s("abcde"));
    assert_eq!(eval(Add, s("ab"), s("cd"), vc(4)), s("abcd"));
    let max = T::VarChar {
        len: Length::Max,
        collation: Collation::default(),
    };
    let long = "x".repeat(9000);
    assert_eq!(eval(Add, s(&long), s("y"), max), s(&format!("{long}y")));
    // nvarchar counts UTF-16 code units and never splits a pair.
    let nvc3 = T::NVarChar {
        len: Length::Bounded(3),
        collation: Collation::default(),
    };
    assert_eq!(eval(Add, s("a\u{1F600}"), s("b"), nvc3), s("a\u{1F600}"));
    assert_eq!(eval(Add, s("é"), s("ü"), vc(2)), s("éü"));
    let vb3 = T::VarBinary {
        len: Length::Bounded(3),
    };
    assert_eq!(
        eval(
            Add,
            Value::Binary(vec![1, 2]),
            Value::Binary(vec![3, 4]),
            vb3
        ),
        Value::Binary(vec![1, 2, 3])
    );
    assert_eq!(
        eval_err(Subtract, s("a"), s("b"), vc(1)),
        msg(
            8117,
            "Operand data type varchar is invalid for subtract operator."
        )
    );
    assert_eq!(
        eval_err(Add, s("1"), Value::Int(1), T::Int),
        msg(206, "Operand type clash: nvarchar is incompatible with int")
    );
}

#[test]
fn concat_values() {
    assert_eq!(concat(&s("a "), &s("b")), s("a b"));
    assert_eq!(concat(&s("a"), &Value::Null), Value::Null);
    assert_eq!(concat(&Value::Null, &Value::Binary(vec![1])), Value::Null);
    assert_eq!(
        concat(&Value::Binary(vec![1]), &Value::Binary(vec![2])),
        Value::Binary(vec![1, 2])
    );
}
