use super::*;
use crate::{Date, DateTime, DateTime2, DateTimeOffset, Decimal, Money, SmallDateTime, Time, Uuid};

const CI: Collation = Collation::SqlLatin1GeneralCp1CiAs;

fn every_type() -> Vec<DataType> {
    use DataType::*;
    vec![
        Bit,
        TinyInt,
        SmallInt,
        Int,
        BigInt,
        Decimal {
            precision: 5,
            scale: 2,
        },
        Decimal {
            precision: 18,
            scale: 4,
        },
        Decimal {
            precision: 38,
            scale: 10,
        },
        Money,
        SmallMoney,
        Float,
        Real,
        Date,
        Time { scale: 7 },
        DateTime,
        DateTime2 { scale: 7 },
        SmallDateTime,
        DateTimeOffset { scale: 7 },
        UniqueIdentifier,
        Char {
            len: 5,
            collation: CI,
        },
        VarChar {
            len: Length::Bounded(5),
            collation: CI,
        },
        NChar {
            len: 5,
            collation: CI,
        },
        NVarChar {
            len: Length::Max,
            collation: CI,
        },
        Binary { len: 4 },
        VarBinary {
            len: Length::Bounded(4),
        },
    ]
}

fn encoded(ty: DataType, v: &Value) -> Vec<u8> {
    let mut out = Vec::new();
    ty.encode(v, &mut out)
        .unwrap_or_else(|e| panic!("{ty:?} {v:?}: {e}"));
    out
}

fn error_number(ty: DataType, v: &Value) -> u32 {
    let mut out = vec![7];
    let err = ty.encode(v, &mut out).expect_err("should fail");
    assert_eq!(out, vec![7], "a failed encode appends nothing");
    err.number
}

fn dec(mantissa: i128, precision: u8, scale: u8) -> Value {
    Value::Decimal(Decimal {
        mantissa,
        precision,
        scale,
    })
}

fn sample(ty: DataType) -> Value {
    use DataType as T;
    match ty {
        T::Bit => Value::Bit(true),
        T::TinyInt => Value::TinyInt(200),
        T::SmallInt => Value::SmallInt(-300),
        T::Int => Value::Int(-70_000),
        T::BigInt => Value::BigInt(i64::MIN),
        T::Decimal { precision, scale } => dec(-12_345, precision, scale),
        T::Money => Value::Money(Money(i64::MAX)),
        T::SmallMoney => Value::Money(Money(-2_147_483_648)),
        T::Float => Value::Float(-1.5e300),
        T::Real => Value::Real(3.25),
        T::Date => Value::Date(Date::MAX),
        T::Time { .. } => Value::Time(Time(TICKS - 1)),
        T::DateTime => Value::DateTime(DateTime {
            days: DateTime::MIN_DAYS,
            ticks: 299,
        }),
        T::DateTime2 { .. } => Value::DateTime2(DateTime2::MAX),
        T::SmallDateTime => Value::SmallDateTime(SmallDateTime {
            days: u16::MAX,
            minutes: 1439,
        }),
        T::DateTimeOffset { .. } => Value::DateTimeOffset(DateTimeOffset {
            utc: DateTime2::MIN,
            offset_minutes: -840,
        }),
        T::UniqueIdentifier => Value::UniqueIdentifier(Uuid(std::array::from_fn(|i| i as u8))),
        T::Char { .. } | T::NChar { .. } => Value::String("Ab é".into()),
        T::VarChar { .. } | T::NVarChar { .. } => Value::String("Ab é".into()),
        T::Binary { .. } => Value::Binary(vec![1, 0, 2, 0]),
        T::VarBinary { .. } => Value::Binary(vec![0, 1]),
    }
}

const TICKS: u64 = crate::datetime::TICKS_PER_DAY;

#[test]
fn every_type_round_trips_with_its_stored_size() {
    for ty in every_type() {
        let v = sample(ty);
        let bytes = encoded(ty, &v);
        match ty.storage() {
            Storage::Fixed(n) => assert_eq!(bytes.len(), n, "{ty:?}"),
            Storage::Variable { max_bytes } => {
                assert!(
                    max_bytes.is_none_or(|m| bytes.len() <= m as usize),
                    "{ty:?}"
                )
            }
        }
        let expected = match (ty, &v) {
            (DataType::Char { .. } | DataType::NChar { .. }, Value::String(s)) => {
                Value::String(format!("{s} "))
            }
            _ => v.clone(),
        };
        assert_eq!(ty.decode(&bytes), expected, "{ty:?}");
        assert!(ty.stored_eq(&bytes, &bytes));
        assert_eq!(ty.stored_cmp(&bytes, &bytes), Ordering::Equal);
    }
}

#[test]
fn storage_sizes() {
    use DataType::*;
    let fixed = |ty: DataType| match ty.storage() {
        Storage::Fixed(n) => n,
        Storage::Variable { .. } => panic!("{ty:?} is variable"),
    };
    assert_eq!(
        fixed(Decimal {
            precision: 9,
            scale: 0
        }),
        4
    );
    assert_eq!(
        fixed(Decimal {
            precision: 10,
            scale: 0
        }),
        8
    );
    assert_eq!(
        fixed(Decimal {
            precision: 19,
            scale: 0
        }),
        16
    );
    assert_eq!(fixed(DateTimeOffset { scale: 0 }), 10);
    assert_eq!(
        VarChar {
            len: Length::Bounded(10),
            collation: CI
        }
        .storage(),
        Storage::Variable {
            max_bytes: Some(40)
        }
    );
    assert_eq!(
        NChar {
            len: 10,
            collation: CI
        }
        .storage(),
        Storage::Variable {
            max_bytes: Some(30)
        }
    );
    assert_eq!(
        VarBinary { len: Length::Max }.storage(),
        Storage::Variable { max_bytes: None }
    );
}

#[test]
fn sql_names() {
    use DataType::*;
    assert_eq!(
        Decimal {
            precision: 18,
            scale: 2
        }
        .sql_name(),
        "decimal(18,2)"
    );
    assert_eq!(
        NVarChar {
            len: Length::Bounded(25),
            collation: CI
        }
        .sql_name(),
        "nvarchar(25)"
    );
    assert_eq!(VarBinary { len: Length::Max }.sql_name(), "varbinary(max)");
    assert_eq!(DateTime2 { scale: 3 }.sql_name(), "datetime2(3)");
}

#[test]
fn wrong_family_is_an_operand_type_clash() {
    let mut out = Vec::new();
    let err = DataType::Date.encode(&Value::Int(1), &mut out).unwrap_err();
    assert_eq!(err.number, 206);
    assert_eq!(err.severity, 16);
    assert_eq!(
        err.message,
        "Operand type clash: int is incompatible with date"
    );
    assert_eq!(error_number(DataType::Int, &Value::String("1".into())), 206);
    assert_eq!(error_number(DataType::Bit, &Value::Int(1)), 206);
    assert_eq!(error_number(DataType::Int, &Value::Null), 515);
}

#[test]
fn integers_fit_any_integer_column_within_range() {
    assert_eq!(
        DataType::BigInt.decode(&encoded(DataType::BigInt, &Value::TinyInt(5))),
        Value::BigInt(5)
    );
    assert_eq!(
        DataType::TinyInt.decode(&encoded(DataType::TinyInt, &Value::Int(255))),
        Value::TinyInt(255)
    );
    assert_eq!(error_number(DataType::TinyInt, &Value::Int(256)), 220);
    assert_eq!(error_number(DataType::TinyInt, &Value::Int(-1)), 220);
    assert_eq!(error_number(DataType::SmallInt, &Value::Int(32_768)), 220);
    assert_eq!(error_number(DataType::Int, &Value::BigInt(1 << 31)), 8115);
}

#[test]
fn decimals_round_to_the_column_scale_and_overflow_past_its_precision() {
    let ty = DataType::Decimal {
        precision: 5,
        scale: 2,
    };
    // 1.005 -> 1.01, -1.005 -> -1.01 (half away from zero)
    assert_eq!(ty.decode(&encoded(ty, &dec(1005, 6, 3))), dec(101, 5, 2));
    assert_eq!(ty.decode(&encoded(ty, &dec(-1005, 6, 3))), dec(-101, 5, 2));
    assert_eq!(ty.decode(&encoded(ty, &dec(1, 1, 0))), dec(100, 5, 2));
    assert_eq!(
        ty.decode(&encoded(ty, &dec(99_999, 5, 2))),
        dec(99_999, 5, 2)
    );
    let mut out = Vec::new();
    let err = ty.encode(&dec(1000, 4, 0), &mut out).unwrap_err();
    assert_eq!(err.number, 8115);
    assert_eq!(
        err.message,
        "Arithmetic overflow error converting numeric to data type numeric."
    );
    // 999.995 rounds to 1000.00: overflow.
    assert_eq!(error_number(ty, &dec(999_995, 6, 3)), 8115);
    let wide = DataType::Decimal {
        precision: 38,
        scale: 0,
    };
    let max = 10i128.pow(38) - 1;
    assert_eq!(
        wide.decode(&encoded(wide, &dec(-max, 38, 0))),
        dec(-max, 38, 0)
    );
}

#[test]
fn money_and_float_ranges() {
    assert_eq!(
        error_number(DataType::SmallMoney, &Value::Money(Money(1 << 31))),
        8115
    );
    assert_eq!(error_number(DataType::Float, &Value::Float(f64::NAN)), 8115);
    assert_eq!(
        error_number(DataType::Float, &Value::Float(f64::INFINITY)),
        8115
    );
    assert_eq!(error_number(DataType::Real, &Value::Float(1e300)), 8115);
    assert_eq!(
        DataType::Float.decode(&encoded(DataType::Float, &Value::Real(0.5))),
        Value::Float(0.5)
    );
    let zero = encoded(DataType::Float, &Value::Float(0.0));
    let minus_zero = encoded(DataType::Float, &Value::Float(-0.0));
    assert!(DataType::Float.stored_eq(&zero, &minus_zero));
    assert_eq!(zero, minus_zero);
}

#[test]
fn strings_are_checked_against_their_length_and_padded() {
    let varchar = DataType::VarChar {
        len: Length::Bounded(3),
        collation: CI,
    };
    let nvarchar = DataType::NVarChar {
        len: Length::Bounded(3),
        collation: CI,
    };
    let char3 = DataType::Char {
        len: 3,
        collation: CI,
    };
    let s = |s: &str| Value::String(s.into());
    assert_eq!(encoded(varchar, &s("été")), "été".as_bytes());
    let err = varchar.encode(&s("abcd"), &mut Vec::new()).unwrap_err();
    assert_eq!((err.number, err.severity), (2628, 16));
    assert_eq!(err.message, "String or binary data would be truncated.");
    // Excess trailing spaces are cut silently.
    assert_eq!(encoded(varchar, &s("ab    ")), b"ab ");
    assert_eq!(encoded(char3, &s("a")), b"a  ");
    assert_eq!(encoded(char3, &s("abc   ")), b"abc");
    // One astral character is two UTF-16 code units but one varchar character.
    assert_eq!(error_number(nvarchar, &s("ab😀")), 2628);
    assert_eq!(encoded(varchar, &s("ab😀")), "ab😀".as_bytes());
    let nchar = DataType::NChar {
        len: 3,
        collation: CI,
    };
    assert_eq!(encoded(nchar, &s("😀")), "😀 ".as_bytes());
}

#[test]
fn binary_is_checked_and_padded_with_zeros() {
    let bin = DataType::Binary { len: 3 };
    let varbin = DataType::VarBinary {
        len: Length::Bounded(2),
    };
    assert_eq!(encoded(bin, &Value::Binary(vec![9])), vec![9, 0, 0]);
    assert_eq!(error_number(bin, &Value::Binary(vec![0; 4])), 2628);
    assert_eq!(error_number(varbin, &Value::Binary(vec![1, 2, 3])), 2628);
    let a = encoded(varbin, &Value::Binary(vec![1]));
    let b = encoded(varbin, &Value::Binary(vec![1, 0]));
    assert!(varbin.stored_eq(&a, &b));
    assert_eq!(varbin.stored_cmp(&a, &b), Ordering::Equal);
}

#[test]
fn times_round_to_the_column_scale() {
    let t0 = DataType::Time { scale: 0 };
    let v = Value::Time(Time(5 * 10_000_000 + 5_000_000));
    assert_eq!(
        t0.decode(&encoded(t0, &v)),
        Value::Time(Time(6 * 10_000_000))
    );
    // Rounding up past midnight wraps, as in SQL Server.
    assert_eq!(
        t0.decode(&encoded(t0, &Value::Time(Time(TICKS - 1)))),
        Value::Time(Time(0))
    );
    assert_eq!(error_number(t0, &Value::Time(Time(TICKS))), 242);
    let d0 = DataType::DateTime2 { scale: 0 };
    assert_eq!(error_number(d0, &Value::DateTime2(DateTime2::MAX)), 242);
    assert_eq!(error_number(DataType::Date, &Value::Date(Date(-1))), 242);
    let err = DataType::Date
        .encode(&Value::Date(Date(-1)), &mut Vec::new())
        .unwrap_err();
    assert_eq!(
        err.message,
        "The conversion of a date data type to a date data type resulted in an out-of-range value."
    );
    let bad = DateTime {
        days: DateTime::MAX_DAYS + 1,
        ticks: 0,
    };
    assert_eq!(error_number(DataType::DateTime, &Value::DateTime(bad)), 242);
    let bad = SmallDateTime {
        days: 0,
        minutes: 1440,
    };
    assert_eq!(
        error_number(DataType::SmallDateTime, &Value::SmallDateTime(bad)),
        242
    );
    let bad = DateTimeOffset {
        utc: DateTime2::MIN,
        offset_minutes: 841,
    };
    assert_eq!(
        error_number(
            DataType::DateTimeOffset { scale: 7 },
            &Value::DateTimeOffset(bad)
        ),
        242
    );
}

#[test]
fn datetimeoffset_compares_the_utc_instant() {
    let ty = DataType::DateTimeOffset { scale: 7 };
    let at = |offset| {
        encoded(
            ty,
            &Value::DateTimeOffset(DateTimeOffset {
                utc: DateTime2::MIN,
                offset_minutes: offset,
            }),
        )
    };
    let (a, b) = (at(60), at(-120));
    assert!(ty.stored_eq(&a, &b));
    let hash = |bytes: &[u8]| {
        let mut h = KeyHasher::default();
        ty.stored_hash(bytes, &mut h);
        h.finish()
    };
    assert_eq!(hash(&a), hash(&b));
}

#[test]
fn uniqueidentifiers_sort_by_their_last_group_first() {
    let ty = DataType::UniqueIdentifier;
    let with = |i: usize| {
        let mut bytes = [0u8; 16];
        bytes[i] = 1;
        encoded(ty, &Value::UniqueIdentifier(Uuid(bytes)))
    };
    // Each byte in SQL Server's order outranks every byte after it.
    let order = [10, 11, 12, 13, 14, 15, 8, 9, 6, 7, 4, 5, 0, 1, 2, 3];
    for pair in order.windows(2) {
        assert_eq!(
            ty.stored_cmp(&with(pair[0]), &with(pair[1])),
            Ordering::Greater
        );
    }
}

#[test]
fn strings_compare_under_their_collation() {
    let ci = DataType::VarChar {
        len: Length::Max,
        collation: CI,
    };
    let bin = DataType::VarChar {
        len: Length::Max,
        collation: Collation::Latin1GeneralBin2,
    };
    let enc = |ty, s: &str| encoded(ty, &Value::String(s.into()));
    assert!(ci.stored_eq(&enc(ci, "Hello  "), &enc(ci, "hELLO")));
    assert!(!bin.stored_eq(&enc(bin, "Hello"), &enc(bin, "hello")));
    assert!(bin.stored_eq(&enc(bin, "hello "), &enc(bin, "hello")));
    assert_eq!(
        ci.stored_cmp(&enc(ci, "B"), &enc(ci, "a")),
        Ordering::Greater
    );
    assert_eq!(
        bin.stored_cmp(&enc(bin, "B"), &enc(bin, "a")),
        Ordering::Less
    );
}

#[test]
fn numbers_compare_by_value() {
    let cases: Vec<(DataType, Value, Value)> = vec![
        (DataType::SmallInt, Value::SmallInt(-1), Value::SmallInt(1)),
        (DataType::Int, Value::Int(-5), Value::Int(3)),
        (DataType::BigInt, Value::BigInt(i64::MIN), Value::BigInt(-1)),
        (
            DataType::Decimal {
                precision: 20,
                scale: 2,
            },
            dec(-1, 3, 2),
            dec(0, 1, 0),
        ),
        (DataType::Float, Value::Float(-2.0), Value::Float(-1.0)),
        (DataType::Real, Value::Real(-0.5), Value::Real(0.25)),
        (
            DataType::Money,
            Value::Money(Money(-1)),
            Value::Money(Money(1)),
        ),
        (
            DataType::DateTime,
            Value::DateTime(DateTime { days: -1, ticks: 5 }),
            Value::DateTime(DateTime { days: 0, ticks: 1 }),
        ),
    ];
    for (ty, lo, hi) in cases {
        let (lo, hi) = (encoded(ty, &lo), encoded(ty, &hi));
        assert_eq!(ty.stored_cmp(&lo, &hi), Ordering::Less, "{ty:?}");
        assert_eq!(ty.stored_cmp(&hi, &lo), Ordering::Greater, "{ty:?}");
        assert!(!ty.stored_eq(&lo, &hi));
    }
}

#[test]
fn validate_rejects_impossible_types() {
    use DataType::*;
    let number = |ty: DataType| ty.validate().unwrap_err().number;
    assert_eq!(
        number(Decimal {
            precision: 39,
            scale: 0
        }),
        2750
    );
    assert_eq!(
        number(Decimal {
            precision: 5,
            scale: 6
        }),
        2751
    );
    assert_eq!(number(Time { scale: 8 }), 1002);
    assert_eq!(
        number(VarChar {
            len: Length::Bounded(8001),
            collation: CI
        }),
        131
    );
    assert_eq!(
        number(NChar {
            len: 4001,
            collation: CI
        }),
        131
    );
    assert_eq!(number(Binary { len: 0 }), 1001);
    for ty in every_type() {
        ty.validate().unwrap();
    }
}
