use super::*;
use crate::{Collation, DateTime2, DateTimeOffset, Decimal, Money, Uuid, Value};
use std::cmp::Ordering::{self, *};

const SQL: Collation = Collation::SqlLatin1GeneralCp1CiAs;
const LATIN1: Collation = Collation::Latin1GeneralCiAs;
const BIN2: Collation = Collation::Latin1GeneralBin2;

#[test]
fn precedence_follows_the_documented_order() {
    let bounded = Length::Bounded(10);
    let highest_first = [
        DataType::DateTimeOffset { scale: 7 },
        DataType::DateTime2 { scale: 7 },
        DataType::DateTime,
        DataType::SmallDateTime,
        DataType::Date,
        DataType::Time { scale: 7 },
        DataType::Float,
        DataType::Real,
        DataType::Decimal {
            precision: 18,
            scale: 2,
        },
        DataType::Money,
        DataType::SmallMoney,
        DataType::BigInt,
        DataType::Int,
        DataType::SmallInt,
        DataType::TinyInt,
        DataType::Bit,
        DataType::UniqueIdentifier,
        DataType::NVarChar {
            len: Length::Max,
            collation: SQL,
        },
        DataType::NChar {
            len: 10,
            collation: SQL,
        },
        DataType::VarChar {
            len: bounded,
            collation: SQL,
        },
        DataType::Char {
            len: 10,
            collation: SQL,
        },
        DataType::VarBinary { len: bounded },
        DataType::Binary { len: 10 },
    ];
    for pair in highest_first.windows(2) {
        assert!(
            precedence(&pair[0]) > precedence(&pair[1]),
            "{:?} should outrank {:?}",
            pair[0],
            pair[1]
        );
    }
    // Lengths, scales and collations do not matter.
    assert_eq!(
        precedence(&DataType::VarChar {
            len: Length::Max,
            collation: BIN2
        }),
        precedence(&DataType::VarChar {
            len: bounded,
            collation: SQL
        })
    );
}

#[test]
fn operator_names() {
    assert_eq!(ArithOp::Modulo.name(), "modulo");
    assert_eq!(ArithOp::BitXor.name(), "'^'");
    assert!(ArithOp::BitOr.is_bitwise() && !ArithOp::Divide.is_bitwise());
    assert_eq!(ArithOp::Divide.decimal_op(), Some(DecimalOp::Div));
    assert_eq!(ArithOp::BitAnd.decimal_op(), None);
}

fn s(text: &str) -> Value {
    Value::String(text.into())
}

fn cmp(a: &Value, b: &Value) -> Option<Ordering> {
    compare(a, b, SQL)
}

#[test]
fn null_compares_unknown() {
    assert_eq!(cmp(&Value::Null, &Value::Int(1)), None);
    assert_eq!(cmp(&s("a"), &Value::Null), None);
    assert_eq!(cmp(&Value::Null, &Value::Null), None);
}

#[test]
fn strings_compare_under_the_collation_ignoring_trailing_blanks() {
    assert_eq!(cmp(&s("a "), &s("a")), Some(Equal));
    assert_eq!(cmp(&s("a"), &s("a   ")), Some(Equal));
    assert_eq!(cmp(&s(" a"), &s("a")), Some(Less));
    assert_eq!(cmp(&s("ABC"), &s("abc")), Some(Equal));
    assert_eq!(compare(&s("Straße"), &s("STRASSE"), LATIN1), Some(Equal));
    assert_eq!(cmp(&s("abc"), &s("abd")), Some(Less));
    assert_eq!(cmp(&s("b"), &s("A")), Some(Greater));
    // Accent sensitive: a < á < b.
    assert_eq!(cmp(&s("á"), &s("a")), Some(Greater));
    assert_eq!(cmp(&s("á"), &s("b")), Some(Less));
    // Binary collation: code points, trailing blanks still ignored.
    assert_eq!(compare(&s("A"), &s("a"), BIN2), Some(Less));
    assert_eq!(compare(&s("b"), &s("a"), BIN2), Some(Greater));
    assert_eq!(compare(&s("a  "), &s("a"), BIN2), Some(Equal));
}

#[test]
fn numbers_compare_by_value() {
    let dec = |t: &str| Value::Decimal(t.parse::<Decimal>().unwrap());
    assert_eq!(cmp(&Value::Int(1), &Value::BigInt(2)), Some(Less));
    assert_eq!(cmp(&Value::TinyInt(3), &dec("3.00")), Some(Equal));
    assert_eq!(cmp(&dec("1.50"), &dec("1.5")), Some(Equal));
    assert_eq!(cmp(&dec("-0.1"), &Value::Int(0)), Some(Less));
    let money = Value::Money("1.5".parse::<Money>().unwrap());
    assert_eq!(cmp(&money, &dec("1.50")), Some(Equal));
    assert_eq!(cmp(&Value::Int(2), &money), Some(Greater));
    assert_eq!(cmp(&Value::Bit(true), &Value::Bit(false)), Some(Greater));
    assert_eq!(cmp(&Value::Float(-0.0), &Value::Float(0.0)), Some(Equal));
    assert_eq!(cmp(&Value::Real(0.5), &Value::Float(0.5)), Some(Equal));
    assert_eq!(
        cmp(&Value::Float(1e300), &Value::Float(-1e300)),
        Some(Greater)
    );
    // Families the caller forgot to convert compare unknown.
    assert_eq!(cmp(&Value::Int(1), &s("1")), None);
    assert_eq!(cmp(&Value::Float(1.0), &Value::Int(1)), None);
}

#[test]
fn binary_values_ignore_trailing_zeros() {
    let b = |bytes: &[u8]| Value::Binary(bytes.to_vec());
    assert_eq!(cmp(&b(&[1]), &b(&[1, 0, 0])), Some(Equal));
    assert_eq!(cmp(&b(&[1]), &b(&[1, 1])), Some(Less));
    assert_eq!(cmp(&b(&[2]), &b(&[1, 0xFF])), Some(Greater));
    assert_eq!(cmp(&b(&[]), &b(&[0])), Some(Equal));
}

#[test]
fn dates_and_identifiers_compare_in_sql_server_order() {
    let dt2 = |t: &str| t.parse::<DateTime2>().unwrap();
    let at = |t: &str, offset: i16| {
        Value::DateTimeOffset(DateTimeOffset::from_local(dt2(t), offset).unwrap())
    };
    // 12:00 at +02:00 is 10:00 UTC.
    assert_eq!(
        cmp(
            &at("2024-01-01 12:00:00", 120),
            &at("2024-01-01 10:00:00", 0)
        ),
        Some(Equal)
    );
    assert_eq!(
        cmp(
            &at("2024-01-01 12:00:00", 120),
            &at("2024-01-01 11:00:00", 0)
        ),
        Some(Less)
    );
    assert_eq!(
        cmp(
            &Value::DateTime2(dt2("2024-01-01 00:00:00.0000001")),
            &Value::DateTime2(dt2("2024-01-01 00:00:00"))
        ),
        Some(Greater)
    );
    let dt = |t: &str| Value::DateTime(t.parse().unwrap());
    assert_eq!(
        cmp(&dt("1899-12-31 23:59:59"), &dt("1900-01-01 00:00:00")),
        Some(Less)
    );
    // uniqueidentifier orders by its last six bytes first.
    let mut low = [0u8; 16];
    let mut high = [0u8; 16];
    low[0] = 0xFF;
    high[10] = 0x01;
    assert_eq!(
        cmp(
            &Value::UniqueIdentifier(Uuid(low)),
            &Value::UniqueIdentifier(Uuid(high))
        ),
        Some(Less)
    );
}

#[test]
fn collation_labels_combine_by_precedence() {
    use CollationLabel::*;
    let eq = Operation::EQUAL_TO;
    let combine = |a, b, op| combine_collations(a, b, op);
    assert_eq!(
        combine((LATIN1, Implicit), (SQL, CoercibleDefault), eq),
        Ok((LATIN1, Implicit))
    );
    assert_eq!(
        combine((SQL, CoercibleDefault), (LATIN1, Implicit), eq),
        Ok((LATIN1, Implicit))
    );
    assert_eq!(
        combine((LATIN1, Implicit), (BIN2, Explicit), eq),
        Ok((BIN2, Explicit))
    );
    assert_eq!(
        combine((LATIN1, Implicit), (LATIN1, Implicit), eq),
        Ok((LATIN1, Implicit))
    );
    assert_eq!(
        combine((LATIN1, CoercibleDefault), (SQL, CoercibleDefault), eq),
        Ok((LATIN1, CoercibleDefault))
    );
    assert_eq!(
        combine((LATIN1, Implicit), (SQL, Implicit), Operation::UNION_ALL),
        Ok((LATIN1, NoCollation))
    );
    assert_eq!(
        combine((LATIN1, NoCollation), (BIN2, Explicit), eq),
        Ok((BIN2, Explicit))
    );
    assert_eq!(
        combine((LATIN1, NoCollation), (LATIN1, Implicit), Operation::CASE),
        Ok((LATIN1, NoCollation))
    );
    let conflict = |a, b, op| combine_collations(a, b, op).unwrap_err();
    let e = conflict((LATIN1, Implicit), (BIN2, Implicit), eq);
    assert_eq!(
        (e.number, e.severity, e.state, e.message.as_str()),
        (
            468,
            16,
            9,
            "Cannot resolve the collation conflict between \"Latin1_General_BIN2\" and \"Latin1_General_CI_AS\" in the equal to operation."
        )
    );
    let e = conflict((SQL, Explicit), (BIN2, Explicit), Operation::CASE);
    assert_eq!(
        e.message,
        "Cannot resolve the collation conflict between \"Latin1_General_BIN2\" and \"SQL_Latin1_General_CP1_CI_AS\" in the CASE operation."
    );
    assert_eq!(
        conflict(
            (SQL, NoCollation),
            (SQL, Implicit),
            Operation::CONCATENATION
        )
        .number,
        468
    );
}
