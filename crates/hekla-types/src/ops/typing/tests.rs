use super::*;
use crate::ops::ArithOp::*;
use crate::SqlError;
use DataType as T;

const LATIN1: Collation = Collation::Latin1GeneralCiAs;
const SQL: Collation = Collation::SqlLatin1GeneralCp1CiAs;
const BIN2: Collation = Collation::Latin1GeneralBin2;

fn dec(precision: u8, scale: u8) -> DataType {
    T::Decimal { precision, scale }
}

fn vc(n: u32) -> DataType {
    T::VarChar {
        len: Length::Bounded(n),
        collation: SQL,
    }
}

fn vc_in(n: u32, collation: Collation) -> DataType {
    T::VarChar {
        len: Length::Bounded(n),
        collation,
    }
}

fn nvc(n: u32) -> DataType {
    T::NVarChar {
        len: Length::Bounded(n),
        collation: SQL,
    }
}

fn ch(n: u32) -> DataType {
    T::Char {
        len: n,
        collation: SQL,
    }
}

fn nch(n: u32) -> DataType {
    T::NChar {
        len: n,
        collation: SQL,
    }
}

fn vb(n: u32) -> DataType {
    T::VarBinary {
        len: Length::Bounded(n),
    }
}

fn bin(n: u32) -> DataType {
    T::Binary { len: n }
}

const VC_MAX: DataType = T::VarChar {
    len: Length::Max,
    collation: SQL,
};
const NVC_MAX: DataType = T::NVarChar {
    len: Length::Max,
    collation: SQL,
};

fn arith(op: ArithOp, left: DataType, right: DataType) -> DataType {
    arithmetic_type(op, &left, &right).unwrap()
}

fn error(result: SqlResult<DataType>) -> (u32, String) {
    let SqlError {
        number, message, ..
    } = result.unwrap_err();
    (number, message)
}

fn arith_err(op: ArithOp, left: DataType, right: DataType) -> (u32, String) {
    error(arithmetic_type(op, &left, &right))
}

fn msg(number: u32, text: &str) -> (u32, String) {
    (number, text.to_string())
}

#[test]
fn integers_stay_in_the_wider_integer_type() {
    assert_eq!(arith(Add, T::Int, T::Int), T::Int);
    assert_eq!(arith(Add, T::TinyInt, T::TinyInt), T::TinyInt);
    assert_eq!(arith(Multiply, T::SmallInt, T::Int), T::Int);
    assert_eq!(arith(Divide, T::BigInt, T::TinyInt), T::BigInt);
    assert_eq!(arith(Modulo, T::TinyInt, T::SmallInt), T::SmallInt);
    assert_eq!(arith(Add, T::Bit, T::Int), T::Int);
    assert_eq!(arith(Subtract, T::TinyInt, T::Bit), T::TinyInt);
}

#[test]
fn decimal_results_follow_the_documented_table() {
    assert_eq!(arith(Add, dec(5, 2), dec(5, 2)), dec(6, 2));
    assert_eq!(arith(Subtract, dec(10, 0), dec(5, 4)), dec(15, 4));
    assert_eq!(arith(Multiply, dec(10, 2), dec(10, 3)), dec(21, 5));
    // p1 - s1 + s2 + max(6, s1 + p2 + 1) = 8 + 1 + 8, scale 8
    assert_eq!(arith(Divide, dec(10, 2), dec(5, 1)), dec(17, 8));
    // min(p1 - s1, p2 - s2) + max(s1, s2) = 4 + 2
    assert_eq!(arith(Modulo, dec(10, 2), dec(5, 1)), dec(6, 2));
}

#[test]
fn integers_and_money_count_as_decimals_beside_a_decimal() {
    // int is decimal(10,0): 2 + max(10, 3) + 1
    assert_eq!(arith(Add, T::Int, dec(5, 2)), dec(13, 2));
    assert_eq!(arith(Multiply, T::BigInt, dec(5, 2)), dec(25, 2));
    assert_eq!(arith(Add, T::SmallInt, dec(5, 2)), dec(8, 2));
    assert_eq!(arith(Add, T::TinyInt, dec(5, 2)), dec(6, 2));
    assert_eq!(arith(Add, T::Bit, dec(5, 2)), dec(6, 2));
    // decimal outranks money: money is decimal(19,4), smallmoney (10,4)
    assert_eq!(arith(Add, T::Money, dec(10, 2)), dec(20, 4));
    assert_eq!(arith(Add, dec(10, 2), T::SmallMoney), dec(13, 4));
    // 7.0 / 3 with an int operand: 1 + max(6, 1 + 10 + 1) = 13, scale 12.
    assert_eq!(arith(Divide, dec(2, 1), T::Int), dec(13, 12));
    // The binder types an integer literal beside a decimal as
    // decimal(digits, 0): 7.0 / 3 is decimal(7,6), 10.0 / 3 decimal(8,6).
    assert_eq!(arith(Divide, dec(2, 1), dec(1, 0)), dec(7, 6));
    assert_eq!(arith(Divide, dec(3, 1), dec(1, 0)), dec(8, 6));
}

#[test]
fn decimal_precision_above_38_gives_way_in_the_scale() {
    // Sums keep the integral digits (without the carry) and take the rest
    // as scale, with no floor.
    assert_eq!(arith(Add, dec(38, 10), dec(38, 10)), dec(38, 10));
    assert_eq!(arith(Add, dec(38, 20), dec(38, 20)), dec(38, 20));
    assert_eq!(arith(Subtract, dec(38, 38), dec(38, 0)), dec(38, 0));
    assert_eq!(arith(Subtract, dec(38, 0), dec(32, 4)), dec(38, 0));
    assert_eq!(arith(Add, dec(30, 20), dec(38, 30)), dec(38, 28));
    // Products and quotients: integral part under 32 digits keeps them all.
    assert_eq!(arith(Multiply, dec(30, 20), dec(30, 20)), dec(38, 17));
    assert_eq!(arith(Divide, dec(30, 3), dec(10, 4)), dec(38, 7));
    // bigint / decimal(38,10): 19 + 10 + 39 digits, 29 integral, scale 9.
    assert_eq!(arith(Divide, T::BigInt, dec(38, 10)), dec(38, 9));
    // Over 32 integral digits: a scale above 6 drops to 6 ...
    assert_eq!(arith(Multiply, dec(30, 10), dec(30, 10)), dec(38, 6));
    assert_eq!(arith(Multiply, dec(38, 10), dec(38, 10)), dec(38, 6));
    assert_eq!(arith(Multiply, dec(20, 5), dec(23, 5)), dec(38, 6));
    assert_eq!(arith(Multiply, dec(25, 8), dec(25, 8)), dec(38, 6));
    assert_eq!(arith(Divide, dec(38, 0), dec(38, 0)), dec(38, 6));
    // ... and one below 6 stays.
    assert_eq!(arith(Multiply, dec(38, 2), dec(10, 2)), dec(38, 4));
    // % never exceeds 38.
    assert_eq!(arith(Modulo, dec(38, 0), dec(38, 38)), dec(38, 38));
}

#[test]
fn money_float_and_real() {
    assert_eq!(arith(Multiply, T::Money, T::Money), T::Money);
    assert_eq!(arith(Divide, T::Money, T::Money), T::Money);
    assert_eq!(arith(Add, T::SmallMoney, T::SmallMoney), T::SmallMoney);
    assert_eq!(arith(Add, T::Money, T::SmallMoney), T::Money);
    assert_eq!(arith(Multiply, T::Int, T::Money), T::Money);
    assert_eq!(arith(Multiply, T::SmallMoney, T::BigInt), T::SmallMoney);
    assert_eq!(arith(Modulo, T::Money, T::Int), T::Money);
    assert_eq!(arith(Add, T::Float, T::Int), T::Float);
    assert_eq!(arith(Multiply, T::Real, dec(10, 2)), T::Real);
    assert_eq!(arith(Divide, T::Money, T::Real), T::Real);
    assert_eq!(arith(Subtract, T::Real, T::Bit), T::Real);
    assert_eq!(arith(Add, T::Real, T::Float), T::Float);
}

#[test]
fn modulo_has_no_float_form() {
    assert_eq!(
        arith_err(Modulo, T::Float, T::Float),
        msg(
            8117,
            "Operand data type float is invalid for modulo operator."
        )
    );
    assert_eq!(
        arith_err(Modulo, T::Real, T::Float),
        msg(
            8117,
            "Operand data type real is invalid for modulo operator."
        )
    );
    assert_eq!(
        arith_err(Modulo, T::Real, T::Int),
        msg(
            402,
            "The data types real and int are incompatible in the modulo operator."
        )
    );
    assert_eq!(
        arith_err(Modulo, dec(5, 2), T::Float),
        msg(
            402,
            "The data types numeric and float are incompatible in the modulo operator."
        )
    );
}

#[test]
fn bit_pairs_have_no_arithmetic() {
    let pair = |op| arith_err(op, T::Bit, T::Bit);
    assert_eq!(
        pair(Add),
        msg(
            402,
            "The data types bit and bit are incompatible in the add operator."
        )
    );
    assert_eq!(
        pair(Subtract),
        msg(
            402,
            "The data types bit and bit are incompatible in the subtract operator."
        )
    );
    assert_eq!(
        pair(Modulo),
        msg(
            402,
            "The data types bit and bit are incompatible in the modulo operator."
        )
    );
    assert_eq!(
        pair(Multiply),
        msg(
            8117,
            "Operand data type bit is invalid for multiply operator."
        )
    );
    assert_eq!(
        pair(Divide),
        msg(
            8117,
            "Operand data type bit is invalid for divide operator."
        )
    );
    assert_eq!(
        arith_err(Add, T::Bit, vc(1)),
        msg(
            402,
            "The data types bit and varchar are incompatible in the add operator."
        )
    );
    assert_eq!(
        arith_err(Multiply, vc(1), T::Bit),
        msg(
            8117,
            "Operand data type varchar is invalid for multiply operator."
        )
    );
}

#[test]
fn strings_concatenate_or_become_the_number() {
    assert_eq!(arith(Add, vc(10), vc(20)), vc(30));
    assert_eq!(arith(Add, vc(6), T::Int), T::Int);
    assert_eq!(arith(Subtract, T::Int, nvc(3)), T::Int);
    assert_eq!(arith(Add, T::TinyInt, vc(1)), T::TinyInt);
    assert_eq!(arith(Multiply, vc(4), T::Money), T::Money);
    assert_eq!(arith(Divide, vc(4), T::Float), T::Float);
    // The string takes the decimal's precision and scale.
    assert_eq!(arith(Add, vc(4), dec(5, 2)), dec(6, 2));
    assert_eq!(arith(Add, vc(4), T::DateTime), T::DateTime);
    assert_eq!(
        arith_err(Multiply, vc(4), vc(4)),
        msg(
            8117,
            "Operand data type varchar is invalid for multiply operator."
        )
    );
    assert_eq!(
        arith_err(Subtract, nvc(4), vc(4)),
        msg(
            8117,
            "Operand data type nvarchar is invalid for subtract operator."
        )
    );
    assert_eq!(
        arith_err(Subtract, NVC_MAX, NVC_MAX),
        msg(
            402,
            "The data types nvarchar(max) and nvarchar(max) are incompatible in the subtract operator."
        )
    );
}

#[test]
fn binary_pairs_concatenate_under_plus_only() {
    assert_eq!(arith(Add, vb(1), vb(2)), vb(3));
    assert_eq!(arith(Add, bin(2), bin(3)), bin(5));
    assert_eq!(arith(Add, T::Int, vb(1)), T::Int);
    assert_eq!(arith(Divide, T::BigInt, vb(1)), T::BigInt);
    assert_eq!(arith(Add, bin(1), T::TinyInt), T::TinyInt);
    assert_eq!(
        arith_err(Subtract, vb(1), vb(1)),
        msg(
            402,
            "The data types varbinary and varbinary are incompatible in the subtract operator."
        )
    );
    assert_eq!(
        arith_err(Modulo, vb(1), bin(1)),
        msg(
            402,
            "The data types varbinary and binary are incompatible in the modulo operator."
        )
    );
    assert_eq!(
        arith_err(Multiply, vb(1), vb(1)),
        msg(
            8117,
            "Operand data type varbinary is invalid for multiply operator."
        )
    );
    assert_eq!(
        arith_err(Add, vb(1), T::Real),
        msg(
            206,
            "Operand type clash: varbinary is incompatible with real"
        )
    );
}

#[test]
fn datetime_and_smalldatetime_add_days() {
    assert_eq!(arith(Add, T::DateTime, T::Int), T::DateTime);
    assert_eq!(arith(Add, T::Int, T::DateTime), T::DateTime);
    assert_eq!(arith(Subtract, T::DateTime, T::DateTime), T::DateTime);
    assert_eq!(arith(Add, T::DateTime, dec(3, 2)), T::DateTime);
    assert_eq!(arith(Add, T::SmallDateTime, T::Float), T::SmallDateTime);
    assert_eq!(arith(Add, T::SmallDateTime, T::DateTime), T::DateTime);
    assert_eq!(arith(Subtract, T::DateTime, vc(10)), T::DateTime);
    assert_eq!(
        arith_err(Multiply, T::DateTime, T::Int),
        msg(
            8117,
            "Operand data type datetime is invalid for multiply operator."
        )
    );
    assert_eq!(
        arith_err(Modulo, T::Int, T::SmallDateTime),
        msg(
            8117,
            "Operand data type smalldatetime is invalid for modulo operator."
        )
    );
    assert_eq!(
        arith_err(Add, T::DateTime, T::UniqueIdentifier),
        msg(
            206,
            "Operand type clash: uniqueidentifier is incompatible with datetime"
        )
    );
}

#[test]
fn newer_date_types_have_no_arithmetic() {
    let dt2 = T::DateTime2 { scale: 7 };
    assert_eq!(
        arith_err(Add, T::Date, T::Int),
        msg(206, "Operand type clash: date is incompatible with int")
    );
    assert_eq!(
        arith_err(Add, T::Int, T::Date),
        msg(206, "Operand type clash: date is incompatible with int")
    );
    assert_eq!(
        arith_err(Add, dt2, T::Int),
        msg(
            206,
            "Operand type clash: datetime2 is incompatible with int"
        )
    );
    assert_eq!(
        arith_err(Subtract, T::Time { scale: 3 }, dec(3, 1)),
        msg(206, "Operand type clash: time is incompatible with numeric")
    );
    assert_eq!(
        arith_err(Add, T::Date, T::Date),
        msg(8117, "Operand data type date is invalid for add operator.")
    );
    assert_eq!(
        arith_err(Add, T::Date, dt2),
        msg(8117, "Operand data type date is invalid for add operator.")
    );
    assert_eq!(
        arith_err(Subtract, dt2, dt2),
        msg(
            8117,
            "Operand data type datetime2 is invalid for subtract operator."
        )
    );
    assert_eq!(
        arith_err(Add, T::DateTimeOffset { scale: 7 }, vc(5)),
        msg(
            8117,
            "Operand data type datetimeoffset is invalid for add operator."
        )
    );
    assert_eq!(
        arith_err(Add, T::DateTime, T::Date),
        msg(
            402,
            "The data types datetime and date are incompatible in the add operator."
        )
    );
    assert_eq!(
        arith_err(Subtract, T::DateTime, T::Date),
        msg(
            402,
            "The data types datetime and date are incompatible in the subtract operator."
        )
    );
    assert_eq!(
        arith_err(Add, T::DateTime, T::Time { scale: 7 }),
        msg(
            402,
            "The data types datetime and time are incompatible in the add operator."
        )
    );
}

#[test]
fn uniqueidentifier_has_no_arithmetic() {
    assert_eq!(
        arith_err(Add, T::UniqueIdentifier, T::Int),
        msg(
            206,
            "Operand type clash: uniqueidentifier is incompatible with int"
        )
    );
    assert_eq!(
        arith_err(Add, T::UniqueIdentifier, T::UniqueIdentifier),
        msg(
            8117,
            "Operand data type uniqueidentifier is invalid for add operator."
        )
    );
}

#[test]
fn bitwise_operators_take_integers_bit_and_one_binary() {
    assert_eq!(arith(BitAnd, T::Int, T::Int), T::Int);
    assert_eq!(arith(BitOr, T::TinyInt, T::SmallInt), T::SmallInt);
    assert_eq!(arith(BitXor, T::Bit, T::Bit), T::Bit);
    assert_eq!(arith(BitAnd, T::Bit, T::Int), T::Int);
    assert_eq!(arith(BitAnd, T::BigInt, T::Int), T::BigInt);
    assert_eq!(arith(BitAnd, vb(4), T::Int), T::Int);
    assert_eq!(arith(BitOr, T::SmallInt, bin(2)), T::SmallInt);
    let bad = |op, l, r, text: &str| assert_eq!(arith_err(op, l, r), msg(402, text));
    bad(
        BitAnd,
        vb(8),
        T::BigInt,
        "The data types varbinary and bigint are incompatible in the '&' operator.",
    );
    bad(
        BitAnd,
        dec(2, 1),
        T::Int,
        "The data types numeric and int are incompatible in the '&' operator.",
    );
    bad(
        BitAnd,
        vb(1),
        vb(1),
        "The data types varbinary and varbinary are incompatible in the '&' operator.",
    );
    bad(
        BitAnd,
        nvc(20),
        nvc(20),
        "The data types nvarchar and nvarchar are incompatible in the '&' operator.",
    );
    bad(
        BitOr,
        T::Float,
        T::Int,
        "The data types float and int are incompatible in the '|' operator.",
    );
    bad(
        BitXor,
        T::Money,
        T::Money,
        "The data types money and money are incompatible in the '^' operator.",
    );
    bad(
        BitXor,
        vc(1),
        T::Int,
        "The data types varchar and int are incompatible in the '^' operator.",
    );
}

#[test]
fn unary_operator_types() {
    assert_eq!(negate_type(&T::TinyInt), Ok(T::SmallInt));
    assert_eq!(negate_type(&T::Int), Ok(T::Int));
    assert_eq!(negate_type(&dec(5, 3)), Ok(dec(5, 3)));
    assert_eq!(negate_type(&T::SmallMoney), Ok(T::SmallMoney));
    assert_eq!(negate_type(&T::Real), Ok(T::Real));
    assert_eq!(
        error(negate_type(&T::Bit)),
        msg(8117, "Operand data type bit is invalid for minus operator.")
    );
    assert_eq!(
        error(negate_type(&vc(1))),
        msg(
            8117,
            "Operand data type varchar is invalid for minus operator."
        )
    );
    assert_eq!(
        error(negate_type(&T::DateTime)),
        msg(
            8117,
            "Operand data type datetime is invalid for minus operator."
        )
    );
    assert_eq!(bit_not_type(&T::Bit), Ok(T::Bit));
    assert_eq!(bit_not_type(&T::TinyInt), Ok(T::TinyInt));
    assert_eq!(bit_not_type(&T::BigInt), Ok(T::BigInt));
    assert_eq!(
        error(bit_not_type(&dec(3, 1))),
        msg(
            8117,
            "Operand data type numeric is invalid for '~' operator."
        )
    );
    assert_eq!(
        error(bit_not_type(&T::Float)),
        msg(8117, "Operand data type float is invalid for '~' operator.")
    );
    assert_eq!(
        error(bit_not_type(&vb(1))),
        msg(
            8117,
            "Operand data type varbinary is invalid for '~' operator."
        )
    );
}

fn common(a: DataType, b: DataType) -> DataType {
    common_type(&a, &b).unwrap()
}

#[test]
fn common_numeric_types() {
    assert_eq!(common(T::TinyInt, T::SmallInt), T::SmallInt);
    assert_eq!(common(T::Bit, T::Bit), T::Bit);
    assert_eq!(common(T::Int, T::Float), T::Float);
    assert_eq!(common(T::Real, T::Money), T::Real);
    assert_eq!(common(T::Money, T::SmallMoney), T::Money);
    assert_eq!(common(vc(3), T::Int), T::Int);
    // max(s1, s2) + max(p1 - s1, p2 - s2): int is decimal(10,0)
    assert_eq!(common(T::Int, dec(5, 2)), dec(12, 2));
    assert_eq!(common(T::Money, dec(10, 2)), dec(19, 4));
    assert_eq!(common(dec(5, 1), dec(7, 4)), dec(8, 4));
    assert_eq!(common(dec(38, 0), dec(38, 38)), dec(38, 0));
    assert_eq!(common(dec(38, 10), dec(30, 20)), dec(38, 10));
}

#[test]
fn common_string_and_binary_types() {
    assert_eq!(common(vc(10), nvc(5)), nvc(10));
    assert_eq!(common(ch(3), ch(5)), ch(5));
    assert_eq!(common(ch(3), vc(2)), vc(3));
    assert_eq!(common(ch(3), nch(2)), nch(3));
    assert_eq!(common(vc(5000), nch(10)), NVC_MAX);
    assert_eq!(common(VC_MAX, vc(5)), VC_MAX);
    assert_eq!(common(vb(3), bin(5)), vb(5));
    assert_eq!(common(bin(3), bin(5)), bin(5));
    assert_eq!(common(vb(10), vc(3)), vc(10));
}

#[test]
fn common_date_types() {
    assert_eq!(common(T::Date, T::DateTime), T::DateTime);
    assert_eq!(common(T::SmallDateTime, T::Date), T::SmallDateTime);
    assert_eq!(common(T::SmallDateTime, T::DateTime), T::DateTime);
    assert_eq!(
        common(T::DateTime, T::DateTime2 { scale: 0 }),
        T::DateTime2 { scale: 3 }
    );
    assert_eq!(
        common(T::Date, T::DateTimeOffset { scale: 2 }),
        T::DateTimeOffset { scale: 2 }
    );
    assert_eq!(
        common(T::DateTime2 { scale: 7 }, T::DateTimeOffset { scale: 0 }),
        T::DateTimeOffset { scale: 7 }
    );
    assert_eq!(
        common(T::Time { scale: 3 }, T::Time { scale: 7 }),
        T::Time { scale: 7 }
    );
    assert_eq!(common(vc(10), T::Date), T::Date);
    assert_eq!(common(T::DateTime, T::Int), T::DateTime);
    assert_eq!(common(T::UniqueIdentifier, vc(36)), T::UniqueIdentifier);
    let err = |a: DataType, b: DataType| error(common_type(&a, &b));
    assert_eq!(
        err(T::Time { scale: 7 }, T::Date),
        msg(
            402,
            "The data types time and date are incompatible in the equal to operator."
        )
    );
    assert_eq!(
        err(T::Date, T::Int),
        msg(206, "Operand type clash: date is incompatible with int")
    );
    assert_eq!(
        err(T::Int, T::DateTime2 { scale: 3 }),
        msg(
            206,
            "Operand type clash: datetime2 is incompatible with int"
        )
    );
    assert_eq!(
        err(T::UniqueIdentifier, T::Int),
        msg(
            206,
            "Operand type clash: uniqueidentifier is incompatible with int"
        )
    );
    assert_eq!(
        err(T::DateTime, T::UniqueIdentifier),
        msg(
            206,
            "Operand type clash: uniqueidentifier is incompatible with datetime"
        )
    );
}

#[test]
fn common_type_resolves_collations() {
    // Two column references in different collations: Msg 468, naming the
    // right operand's collation first.
    assert_eq!(
        error(common_type(&vc_in(5, LATIN1), &vc_in(5, SQL))),
        msg(
            468,
            "Cannot resolve the collation conflict between \"SQL_Latin1_General_CP1_CI_AS\" and \"Latin1_General_CI_AS\" in the equal to operation."
        )
    );
    use CollationLabel::*;
    let (t, label) = common_type_in(
        &vc_in(5, LATIN1),
        Implicit,
        &vc_in(9, SQL),
        CoercibleDefault,
        Operation::EQUAL_TO,
    )
    .unwrap();
    assert_eq!((t, label), (vc_in(9, LATIN1), Implicit));
    let (t, label) = common_type_in(
        &vc_in(5, LATIN1),
        Implicit,
        &nvc(3),
        Explicit,
        Operation::LESS_THAN,
    )
    .unwrap();
    assert_eq!(t.collation(), Some(SQL));
    assert_eq!(label, Explicit);
    // CASE accepts two implicit collations, leaving no collation.
    let (_, label) = common_type_in(
        &vc_in(5, LATIN1),
        Implicit,
        &vc_in(5, BIN2),
        Implicit,
        Operation::CASE,
    )
    .unwrap();
    assert_eq!(label, NoCollation);
    let union = common_type_in(
        &vc_in(5, LATIN1),
        Implicit,
        &vc_in(5, BIN2),
        Implicit,
        Operation::UNION,
    );
    assert_eq!(
        error(union.map(|(t, _)| t)),
        msg(
            468,
            "Cannot resolve the collation conflict between \"Latin1_General_BIN2\" and \"Latin1_General_CI_AS\" in the UNION operation."
        )
    );
    // Two explicit collations conflict even in CASE.
    let case = common_type_in(
        &vc_in(5, LATIN1),
        Explicit,
        &vc_in(5, BIN2),
        Explicit,
        Operation::CASE,
    );
    assert_eq!(error(case.map(|(t, _)| t)).0, 468);
    // A non-string result carries no collation.
    let (t, _) = common_type_in(&vc(3), Implicit, &T::Int, Implicit, Operation::EQUAL_TO).unwrap();
    assert_eq!(t, T::Int);
}

#[test]
fn concatenation_lengths_add_up_to_the_cap() {
    let cat = |a: DataType, b: DataType| concat_type(&a, &b);
    assert_eq!(cat(vc(2), vc(3)), vc(5));
    assert_eq!(cat(vc(5000), vc(5000)), vc(8000));
    assert_eq!(cat(nvc(3000), vc(2000)), nvc(4000));
    assert_eq!(cat(vc(2), nvc(3)), nvc(5));
    assert_eq!(cat(ch(2), ch(3)), ch(5));
    assert_eq!(cat(ch(5000), ch(5000)), ch(8000));
    assert_eq!(cat(ch(2), vc(3)), vc(5));
    assert_eq!(cat(nch(2), ch(3)), nch(5));
    assert_eq!(cat(VC_MAX, vc(5)), VC_MAX);
    assert_eq!(cat(vc(5), NVC_MAX), NVC_MAX);
    assert_eq!(cat(bin(2), bin(3)), bin(5));
    assert_eq!(cat(bin(5000), vb(5000)), vb(8000));
    assert_eq!(cat(vb(1), vb(2)), vb(3));
    assert_eq!(cat(vc(3), vb(4)), vc(7));
    // The national operand's collation, else the left one's.
    assert_eq!(cat(vc(1), vc_in(1, LATIN1)).collation(), Some(SQL));
    let national = T::NVarChar {
        len: Length::Bounded(1),
        collation: BIN2,
    };
    assert_eq!(cat(vc(1), national).collation(), Some(BIN2));
}
