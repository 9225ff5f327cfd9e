//! Properties of stored forms, comparisons, hashes and key encodings that
//! the engine relies on, over every data type.

use hekla_types::datetime::TICKS_PER_DAY;
use hekla_types::{
    encode_key, encode_key_from_stored, encode_key_prefix, Collation, DataType, Date, DateTime,
    DateTime2, DateTimeOffset, Decimal, KeyHasher, Length, Money, SmallDateTime, SortOrder,
    Storage, Time, Uuid, Value,
};
use proptest::prelude::*;
use std::cmp::Ordering;

const COLLATIONS: [Collation; 3] = [
    Collation::SqlLatin1GeneralCp1CiAs,
    Collation::Latin1GeneralCiAs,
    Collation::Latin1GeneralBin2,
];

/// Small alphabets make equal-under-collation pairs common.
const LETTERS: [char; 17] = [
    'a', 'A', 'á', 'Á', 'b', 'B', 'e', 'é', 'É', 's', 'S', 'ß', ' ', ' ', '\0', 'z', 'Ω',
];
const STRING_LEN: u32 = 6;

fn types() -> impl Strategy<Value = DataType> {
    use DataType::*;
    let collation = prop::sample::select(COLLATIONS.to_vec());
    let fixed = prop::sample::select(vec![
        Bit,
        TinyInt,
        SmallInt,
        Int,
        BigInt,
        Decimal {
            precision: 1,
            scale: 0,
        },
        Decimal {
            precision: 9,
            scale: 3,
        },
        Decimal {
            precision: 18,
            scale: 18,
        },
        Decimal {
            precision: 38,
            scale: 6,
        },
        Money,
        SmallMoney,
        Float,
        Real,
        Date,
        Time { scale: 0 },
        Time { scale: 7 },
        DateTime,
        DateTime2 { scale: 3 },
        DateTime2 { scale: 7 },
        SmallDateTime,
        DateTimeOffset { scale: 7 },
        UniqueIdentifier,
        Binary { len: 4 },
        VarBinary {
            len: Length::Bounded(4),
        },
        VarBinary { len: Length::Max },
    ]);
    let strings = (collation, 0..4u8).prop_map(|(collation, kind)| match kind {
        0 => Char {
            len: STRING_LEN,
            collation,
        },
        1 => VarChar {
            len: Length::Bounded(STRING_LEN),
            collation,
        },
        2 => NChar {
            len: STRING_LEN,
            collation,
        },
        _ => NVarChar {
            len: Length::Max,
            collation,
        },
    });
    prop_oneof![3 => fixed, 1 => strings]
}

fn small_or_any<T: std::fmt::Debug + Clone + 'static>(
    small: impl Strategy<Value = T> + 'static,
    any: impl Strategy<Value = T> + 'static,
) -> BoxedStrategy<T> {
    prop_oneof![small, any].boxed()
}

fn dt2() -> impl Strategy<Value = hekla_types::DateTime2> {
    // Short of the very last day, which rounding to a scale could overflow.
    (0..Date::MAX.0, 0..TICKS_PER_DAY).prop_map(|(d, t)| DateTime2::new(Date(d), Time(t)))
}

/// Values that fit `ty` (encode succeeds), biased towards collisions.
fn values(ty: DataType) -> BoxedStrategy<Value> {
    use DataType as T;
    match ty {
        T::Bit => any::<bool>().prop_map(Value::Bit).boxed(),
        T::TinyInt => any::<u8>().prop_map(Value::TinyInt).boxed(),
        T::SmallInt => small_or_any(-2i16..2, any::<i16>())
            .prop_map(Value::SmallInt)
            .boxed(),
        T::Int => small_or_any(-2i32..2, any::<i32>())
            .prop_map(Value::Int)
            .boxed(),
        T::BigInt => small_or_any(-2i64..2, any::<i64>())
            .prop_map(Value::BigInt)
            .boxed(),
        T::Decimal { precision, scale } => {
            let max = 10i128.pow(u32::from(precision)) - 1;
            small_or_any(-2i128..2, -max..=max)
                .prop_map(move |mantissa| {
                    Value::Decimal(Decimal {
                        mantissa,
                        precision,
                        scale,
                    })
                })
                .boxed()
        }
        T::Money => small_or_any(-2i64..2, any::<i64>())
            .prop_map(|m| Value::Money(Money(m)))
            .boxed(),
        T::SmallMoney => small_or_any(-2i64..2, i64::from(i32::MIN)..=i64::from(i32::MAX))
            .prop_map(|m| Value::Money(Money(m)))
            .boxed(),
        T::Float => prop_oneof![
            prop::sample::select(vec![0.0, -0.0, 1.0, -1.0, f64::MAX, f64::MIN_POSITIVE]),
            any::<f64>().prop_filter("finite", |v| v.is_finite()),
        ]
        .prop_map(Value::Float)
        .boxed(),
        T::Real => prop_oneof![
            prop::sample::select(vec![0.0f32, -0.0, 1.0, -1.0, f32::MAX]),
            any::<f32>().prop_filter("finite", |v| v.is_finite()),
        ]
        .prop_map(Value::Real)
        .boxed(),
        T::Date => small_or_any(0..3i32, 0..=Date::MAX.0)
            .prop_map(|d| Value::Date(Date(d)))
            .boxed(),
        T::Time { .. } => small_or_any(0..3u64, 0..TICKS_PER_DAY)
            .prop_map(|t| Value::Time(Time(t)))
            .boxed(),
        T::DateTime => (
            DateTime::MIN_DAYS..=DateTime::MAX_DAYS,
            0..DateTime::TICKS_PER_DAY,
        )
            .prop_map(|(days, ticks)| Value::DateTime(DateTime { days, ticks }))
            .boxed(),
        T::DateTime2 { .. } => dt2().prop_map(Value::DateTime2).boxed(),
        T::SmallDateTime => (any::<u16>(), 0..SmallDateTime::MINUTES_PER_DAY)
            .prop_map(|(days, minutes)| Value::SmallDateTime(SmallDateTime { days, minutes }))
            .boxed(),
        T::DateTimeOffset { .. } => (
            small_or_any(
                (0..2i32).prop_map(|d| DateTime2::new(Date(d + 1), Time(0))),
                dt2(),
            ),
            prop::sample::select(vec![-840i16, -60, 0, 60, 840]),
        )
            .prop_map(|(local, offset)| {
                let value = DateTimeOffset::from_local(local, offset).unwrap_or(DateTimeOffset {
                    utc: local,
                    offset_minutes: 0,
                });
                Value::DateTimeOffset(value)
            })
            .boxed(),
        T::UniqueIdentifier => small_or_any((0..3u8).prop_map(|b| [b; 16]), any::<[u8; 16]>())
            .prop_map(|b| Value::UniqueIdentifier(Uuid(b)))
            .boxed(),
        T::Char { .. } | T::VarChar { .. } | T::NChar { .. } | T::NVarChar { .. } => {
            prop::collection::vec(
                prop::sample::select(LETTERS.to_vec()),
                0..=STRING_LEN as usize,
            )
            .prop_map(|chars| Value::String(chars.into_iter().collect()))
            .boxed()
        }
        T::Binary { .. } | T::VarBinary { .. } => {
            prop::collection::vec(prop::sample::select(vec![0u8, 1, 0xFF]), 0..=4)
                .prop_map(Value::Binary)
                .boxed()
        }
    }
}

/// A type and two values of it (each sometimes NULL when `nulls`).
fn pair(nulls: bool) -> impl Strategy<Value = (DataType, Value, Value)> {
    types().prop_flat_map(move |ty| {
        let value = move || {
            if nulls {
                prop_oneof![1 => Just(Value::Null), 6 => values(ty)].boxed()
            } else {
                values(ty)
            }
        };
        (Just(ty), value(), value())
    })
}

fn stored(ty: &DataType, v: &Value) -> Option<Vec<u8>> {
    if v.is_null() {
        return None;
    }
    let mut out = Vec::new();
    ty.encode(v, &mut out)
        .expect("generated values fit their type");
    Some(out)
}

fn hash(ty: &DataType, bytes: &[u8]) -> u64 {
    let mut h = KeyHasher::default();
    ty.stored_hash(bytes, &mut h);
    h.finish()
}

/// SQL order of possibly-NULL stored forms: NULL first.
fn sql_cmp(ty: &DataType, a: &Option<Vec<u8>>, b: &Option<Vec<u8>>) -> Ordering {
    match (a, b) {
        (None, None) => Ordering::Equal,
        (None, Some(_)) => Ordering::Less,
        (Some(_), None) => Ordering::Greater,
        (Some(a), Some(b)) => ty.stored_cmp(a, b),
    }
}

fn key(columns: &[(DataType, SortOrder)], values: &[Value]) -> Vec<u8> {
    let mut out = Vec::new();
    encode_key(columns, values, &mut out).unwrap();
    out
}

fn string() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(LETTERS.to_vec()), 0..5)
        .prop_map(|chars| chars.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn stored_forms_round_trip((ty, v, _) in pair(false)) {
        let bytes = stored(&ty, &v).unwrap();
        match ty.storage() {
            Storage::Fixed(n) => prop_assert_eq!(bytes.len(), n),
            Storage::Variable { max_bytes } => {
                prop_assert!(max_bytes.is_none_or(|m| bytes.len() <= m as usize))
            }
        }
        let decoded = ty.decode(&bytes);
        prop_assert_eq!(stored(&ty, &decoded).unwrap(), bytes.clone());
        let exact = !matches!(
            ty,
            DataType::Char { .. } | DataType::NChar { .. } | DataType::Binary { .. }
                | DataType::Time { scale: 0 } | DataType::DateTime2 { scale: 3 }
        ) && v != Value::Float(-0.0) && v != Value::Real(-0.0);
        if exact {
            prop_assert_eq!(decoded, v);
        }
    }

    #[test]
    fn equality_comparison_and_hash_agree((ty, a, b) in pair(false)) {
        let (a, b) = (stored(&ty, &a).unwrap(), stored(&ty, &b).unwrap());
        let eq = ty.stored_eq(&a, &b);
        prop_assert_eq!(eq, ty.stored_cmp(&a, &b) == Ordering::Equal);
        prop_assert_eq!(ty.stored_cmp(&a, &b), ty.stored_cmp(&b, &a).reverse());
        if eq {
            prop_assert_eq!(hash(&ty, &a), hash(&ty, &b));
        }
    }

    #[test]
    fn key_order_is_stored_order((ty, a, b) in pair(true)) {
        let expected = sql_cmp(&ty, &stored(&ty, &a), &stored(&ty, &b));
        let asc = [(ty, SortOrder::Ascending)];
        let desc = [(ty, SortOrder::Descending)];
        prop_assert_eq!(key(&asc, std::slice::from_ref(&a)).cmp(&key(&asc, std::slice::from_ref(&b))), expected);
        prop_assert_eq!(key(&desc, std::slice::from_ref(&a)).cmp(&key(&desc, std::slice::from_ref(&b))), expected.reverse());
    }

    #[test]
    fn composite_keys_compare_column_by_column(
        (t1, a1, b1) in pair(true),
        (t2, a2, b2) in pair(true),
        o1 in prop::sample::select(vec![SortOrder::Ascending, SortOrder::Descending]),
        o2 in prop::sample::select(vec![SortOrder::Ascending, SortOrder::Descending]),
        same_first in any::<bool>(),
    ) {
        // Often share the first column so that the second decides.
        let b1 = if same_first { a1.clone() } else { b1 };
        let columns = [(t1, o1), (t2, o2)];
        let directed = |o: SortOrder, c: Ordering| if o == SortOrder::Ascending { c } else { c.reverse() };
        let expected = directed(o1, sql_cmp(&t1, &stored(&t1, &a1), &stored(&t1, &b1)))
            .then(directed(o2, sql_cmp(&t2, &stored(&t2, &a2), &stored(&t2, &b2))));
        let ka = key(&columns, &[a1.clone(), a2.clone()]);
        let kb = key(&columns, &[b1.clone(), b2.clone()]);
        prop_assert_eq!(ka.cmp(&kb), expected);

        // The stored-form path produces the same bytes.
        let (s1, s2) = (stored(&t1, &a1), stored(&t2, &a2));
        let mut from_stored = Vec::new();
        encode_key_from_stored(&columns, [s1.as_deref(), s2.as_deref()], &mut from_stored);
        prop_assert_eq!(&from_stored, &ka);

        // A one-column prefix is a byte prefix of the full key.
        let mut prefix = Vec::new();
        encode_key_prefix(&columns, std::slice::from_ref(&a1), &mut prefix).unwrap();
        prop_assert!(ka.starts_with(&prefix));
    }

    #[test]
    fn collations_are_total_orders(
        a in string(), b in string(), c in string(),
        collation in prop::sample::select(COLLATIONS.to_vec()),
    ) {
        let cmp = |x: &str, y: &str| collation.cmp(x, y);
        prop_assert_eq!(cmp(&a, &b), cmp(&b, &a).reverse());
        prop_assert_eq!(collation.eq(&a, &b), cmp(&a, &b) == Ordering::Equal);
        if cmp(&a, &b) != Ordering::Greater && cmp(&b, &c) != Ordering::Greater {
            prop_assert_ne!(cmp(&a, &c), Ordering::Greater);
        }
        let h = |s: &str| {
            let mut hasher = KeyHasher::default();
            collation.hash(s, &mut hasher);
            hasher.finish()
        };
        if collation.eq(&a, &b) {
            prop_assert_eq!(h(&a), h(&b));
        }
        let sort_key = |s: &str| {
            let mut out = Vec::new();
            collation.append_sort_key(s, &mut out);
            out
        };
        prop_assert_eq!(sort_key(&a).cmp(&sort_key(&b)), cmp(&a, &b));
    }

    #[test]
    fn decimal_sums_and_products_are_exact(
        a in -1_000_000_000i128..1_000_000_000, sa in 0u8..6,
        b in -1_000_000_000i128..1_000_000_000, sb in 0u8..6,
    ) {
        let x = Decimal::new(a, 15, sa).unwrap();
        let y = Decimal::new(b, 15, sb).unwrap();
        let scale = sa.max(sb);
        let align = |m: i128, s: u8| m * 10i128.pow(u32::from(scale - s));
        let sum = x.checked_add(y).unwrap();
        prop_assert_eq!(sum.scale, scale);
        prop_assert_eq!(sum.mantissa, align(a, sa) + align(b, sb));
        let difference = x.checked_sub(y).unwrap();
        prop_assert_eq!(difference.mantissa, align(a, sa) - align(b, sb));
        let product = x.checked_mul(y).unwrap();
        prop_assert_eq!((product.mantissa, product.scale), (a * b, sa + sb));
        prop_assert_eq!(x.compare(&y), align(a, sa).cmp(&align(b, sb)));
        prop_assert_eq!(x.to_string().parse::<Decimal>().unwrap().compare(&x), Ordering::Equal);
    }

    #[test]
    fn decimal_quotients_truncate_toward_zero(
        a in -1_000_000_000i128..1_000_000_000,
        b in (1i128..1_000_000).prop_union(-1_000_000i128..0),
    ) {
        let x = Decimal::new(a, 10, 2).unwrap();
        let y = Decimal::new(b, 7, 3).unwrap();
        let q = x.checked_div(y).unwrap();
        // x / y = (a / 100) / (b / 1000); q = mantissa / 10^scale, cut
        // toward zero: |q| <= |x / y| < |q| + 10^-scale, same sign.
        let pow = 10i128.pow(u32::from(q.scale));
        let exact = a * 1000 * pow; // = (x / y) * 10^scale * b * 100
        let cut = q.mantissa * b * 100;
        prop_assert!(cut.abs() <= exact.abs(), "{x} / {y} = {q}");
        prop_assert!(exact.abs() - cut.abs() < (b * 100).abs(), "{x} / {y} = {q}");
        prop_assert!(q.mantissa == 0 || (q.mantissa < 0) == ((a < 0) != (b < 0)));
    }

    #[test]
    fn dates_and_times_display_and_parse_back(v in dt2(), offset in -840i16..=840) {
        let text = v.to_string();
        prop_assert_eq!(text.parse::<DateTime2>().unwrap(), v);
        prop_assert_eq!(v.date.to_string().parse::<Date>().unwrap(), v.date);
        if let Some(dto) = DateTimeOffset::from_local(v, offset) {
            prop_assert_eq!(dto.to_string().parse::<DateTimeOffset>().unwrap(), dto);
        }
        if let Some(dt) = DateTime::from_datetime2(v) {
            prop_assert_eq!(dt.to_string().parse::<DateTime>().unwrap(), dt);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// Damaged stored forms must not bring the server down.
    #[test]
    fn garbage_stored_forms_do_not_panic(
        ty in types(),
        a in prop::collection::vec(any::<u8>(), 0..20),
        b in prop::collection::vec(any::<u8>(), 0..20),
    ) {
        let _ = ty.decode(&a);
        let _ = ty.stored_eq(&a, &b);
        let _ = ty.stored_cmp(&a, &b);
        let _ = hash(&ty, &a);
        let mut out = Vec::new();
        encode_key_from_stored(&[(ty, SortOrder::Descending)], [Some(a.as_slice())], &mut out);
        let _ = format!("{:?}", ty.decode(&b));
    }

    /// Every text parser returns an error rather than panicking.
    #[test]
    fn parsers_do_not_panic(text in "\\PC{0,40}", noise in prop::collection::vec(prop::sample::select(
        "0123456789-+:./TZ $,{}abcdefABCDEF ".chars().collect::<Vec<_>>()), 0..40)) {
        let noise: String = noise.into_iter().collect();
        for text in [text.as_str(), noise.as_str()] {
            let _ = text.parse::<Decimal>();
            let _ = text.parse::<Money>();
            let _ = text.parse::<Uuid>();
            let _ = text.parse::<Date>();
            let _ = text.parse::<Time>();
            let _ = text.parse::<DateTime>();
            let _ = text.parse::<DateTime2>();
            let _ = text.parse::<SmallDateTime>();
            let _ = text.parse::<DateTimeOffset>();
        }
    }

    /// Out-of-range struct values display and convert without panicking.
    #[test]
    fn extreme_structs_do_not_panic(days in any::<i32>(), ticks in any::<u64>(), small in any::<u32>(), offset in any::<i16>()) {
        let dt2 = DateTime2::new(Date(days), Time(ticks));
        let _ = (Date(days).to_string(), Time(ticks).to_string(), dt2.to_string());
        let _ = (dt2.round_to_scale(0), Time(ticks).round_to_scale(3));
        let _ = DateTime { days, ticks: small }.to_string();
        let _ = DateTimeOffset { utc: dt2, offset_minutes: offset }.to_string();
        let _ = (DateTime::from_datetime2(dt2), SmallDateTime::from_datetime2(dt2));
        let _ = DateTimeOffset::from_local(dt2, offset);
    }
}
