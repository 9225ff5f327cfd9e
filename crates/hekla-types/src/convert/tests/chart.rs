use super::*;
use Conversion::*;

#[test]
fn implicit_pairs() {
    let pairs = [
        (DataType::Int, DataType::BigInt),
        (DataType::BigInt, DataType::TinyInt),
        (dec(10, 2), dec(5, 4)),
        (DataType::Int, varchar(10)),
        (varchar(10), DataType::Int),
        (nvarchar(10), DataType::Float),
        (varchar(10), DataType::Date),
        (DataType::Date, nvarchar(10)),
        (DataType::Date, dt2(7)),
        (dto(7), DataType::Date),
        (DataType::Time { scale: 3 }, DataType::DateTime),
        (DataType::Int, DataType::DateTime),
        (DataType::Float, DataType::SmallDateTime),
        (DataType::Bit, DataType::DateTime),
        (varbinary(4), DataType::Int),
        (DataType::Int, binary_(4)),
        (DataType::Float, varbinary(8)),
        (binary_(8), DataType::DateTime),
        (DataType::DateTime, varbinary(8)),
        (DataType::UniqueIdentifier, varchar(36)),
        (nvarchar(36), DataType::UniqueIdentifier),
        (binary_(16), DataType::UniqueIdentifier),
        (DataType::UniqueIdentifier, binary_(16)),
        (DataType::Money, dec(19, 4)),
        (varbinary(4), varchar(8)),
        (char_(3), nvarchar_max()),
    ];
    for (from, to) in pairs {
        assert_eq!(conversion(&from, &to), Implicit, "{from:?} -> {to:?}");
    }
}

#[test]
fn explicit_pairs() {
    let pairs = [
        (varchar(10), varbinary(10)),
        (nchar(10), binary_(10)),
        (DataType::DateTime, DataType::Int),
        (DataType::SmallDateTime, dec(10, 4)),
        (DataType::DateTime, DataType::Float),
        (DataType::DateTime, DataType::Bit),
        (DataType::DateTime, DataType::Money),
        (varbinary(3), DataType::Date),
        (dt2(7), binary_(9)),
    ];
    for (from, to) in pairs {
        assert_eq!(conversion(&from, &to), Explicit, "{from:?} -> {to:?}");
    }
}

#[test]
fn pairs_that_never_convert() {
    let pairs = [
        (DataType::Date, time(7)),
        (time(7), DataType::Date),
        (DataType::Int, DataType::Date),
        (DataType::Date, DataType::Int),
        (dec(10, 2), time(7)),
        (DataType::Float, dt2(7)),
        (dto(7), DataType::Money),
        (DataType::Bit, DataType::Date),
        (varbinary(8), DataType::Float),
        (binary_(4), DataType::Real),
        (DataType::UniqueIdentifier, DataType::Int),
        (DataType::Int, DataType::UniqueIdentifier),
        (DataType::DateTime, DataType::UniqueIdentifier),
        (DataType::UniqueIdentifier, DataType::Date),
    ];
    for (from, to) in pairs {
        assert_eq!(conversion(&from, &to), NotAllowed, "{from:?} -> {to:?}");
    }
}

#[test]
fn refused_pairs_are_msg_529_with_bare_names() {
    let err = fail(date("2020-01-01"), time(7));
    assert_error(
        err,
        529,
        1,
        "Explicit conversion from data type date to time is not allowed.",
    );
    let err = fail(Value::Int(1), DataType::Date);
    assert_error(
        err,
        529,
        1,
        "Explicit conversion from data type int to date is not allowed.",
    );
    let err = fail(d("1.5"), dt2(3));
    assert_error(
        err,
        529,
        1,
        "Explicit conversion from data type numeric to datetime2 is not allowed.",
    );
    let err = fail_from(bytes(&[0x41]), varbinary(1), DataType::Float, None);
    assert_error(
        err,
        529,
        1,
        "Explicit conversion from data type varbinary to float is not allowed.",
    );
    let err = fail(bytes(&[0x41]), DataType::Real);
    assert_eq!(
        err.message,
        "Explicit conversion from data type varbinary(max) to real is not allowed."
    );
    let err = fail(uuid("6F9619FF-8B86-D011-B42D-00C04FC964FF"), DataType::Int);
    assert_eq!(
        err.message,
        "Explicit conversion from data type uniqueidentifier to int is not allowed."
    );
}

#[test]
fn implicit_conversions_check_the_chart() {
    assert_eq!(check_implicit(&DataType::Int, &varchar(10)), Ok(()));
    assert_error(
        check_implicit(&varchar(10), &varbinary(10)).unwrap_err(),
        257,
        3,
        "Implicit conversion from data type varchar to varbinary is not allowed. Use the CONVERT function to run this query.",
    );
    assert_eq!(
        check_implicit(&nvarchar_max(), &varbinary_max())
            .unwrap_err()
            .message,
        "Implicit conversion from data type nvarchar(max) to varbinary(max) is not allowed. Use the CONVERT function to run this query."
    );
    assert_eq!(
        check_implicit(&DataType::DateTime, &DataType::Int)
            .unwrap_err()
            .number,
        257
    );
    // The documentation's own example of Msg 206.
    assert_error(
        check_implicit(&DataType::Date, &time(7)).unwrap_err(),
        206,
        2,
        "Operand type clash: date is incompatible with time",
    );
}
