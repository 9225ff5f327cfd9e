use super::*;
use crate::{Collation, Length};
use std::cmp::Ordering;

fn key(columns: &[(DataType, SortOrder)], values: &[Value]) -> Vec<u8> {
    let mut out = Vec::new();
    encode_key(columns, values, &mut out).unwrap();
    out
}

#[test]
fn nulls_sort_first_ascending_and_last_descending() {
    let asc = [(DataType::Int, SortOrder::Ascending)];
    let desc = [(DataType::Int, SortOrder::Descending)];
    let values = [
        Value::Null,
        Value::Int(i32::MIN),
        Value::Int(0),
        Value::Int(5),
    ];
    let asc_keys: Vec<_> = values
        .iter()
        .map(|v| key(&asc, std::slice::from_ref(v)))
        .collect();
    let desc_keys: Vec<_> = values
        .iter()
        .map(|v| key(&desc, std::slice::from_ref(v)))
        .collect();
    assert!(asc_keys.windows(2).all(|w| w[0] < w[1]));
    assert!(desc_keys.windows(2).all(|w| w[0] > w[1]));
}

#[test]
fn a_string_prefix_does_not_misorder_the_next_column() {
    let vc = DataType::VarChar {
        len: Length::Max,
        collation: Collation::Latin1GeneralBin2,
    };
    let cols = [
        (vc, SortOrder::Ascending),
        (DataType::Int, SortOrder::Ascending),
    ];
    let a = key(&cols, &[Value::String("ab".into()), Value::Int(i32::MAX)]);
    let b = key(&cols, &[Value::String("abc".into()), Value::Int(i32::MIN)]);
    assert!(a < b);
}

#[test]
fn prefixes_bound_their_full_keys() {
    let cols = [
        (DataType::Int, SortOrder::Ascending),
        (DataType::Int, SortOrder::Descending),
    ];
    let mut prefix = Vec::new();
    encode_key_prefix(&cols, &[Value::Int(7)], &mut prefix).unwrap();
    let upper = prefix_successor(&prefix).unwrap();
    for second in [Value::Null, Value::Int(i32::MIN), Value::Int(i32::MAX)] {
        let full = key(&cols, &[Value::Int(7), second]);
        assert!(full.starts_with(&prefix));
        assert!(full < upper);
    }
    assert!(key(&cols, &[Value::Int(8), Value::Int(0)]) >= upper);
    assert_eq!(prefix_successor(&[1, 0xFF]), Some(vec![2]));
    assert_eq!(prefix_successor(&[0xFF]), None);
}

#[test]
fn value_count_must_match() {
    let cols = [(DataType::Int, SortOrder::Ascending)];
    let mut out = Vec::new();
    assert_eq!(encode_key(&cols, &[], &mut out).unwrap_err().number, 213);
    assert_eq!(
        encode_key_prefix(&cols, &[Value::Int(1), Value::Int(2)], &mut out)
            .unwrap_err()
            .number,
        213
    );
    assert_eq!(
        encode_key(&cols, &[Value::String("x".into())], &mut out)
            .unwrap_err()
            .number,
        206
    );
    assert!(out.is_empty());
}

#[test]
fn stored_and_value_encodings_agree() {
    let cols = [
        (DataType::Float, SortOrder::Descending),
        (
            DataType::NVarChar {
                len: Length::Max,
                collation: Collation::Latin1GeneralCiAs,
            },
            SortOrder::Ascending,
        ),
    ];
    let values = [Value::Float(-0.0), Value::String("Ça".into())];
    let mut stored = Vec::new();
    let mut parts = Vec::new();
    for ((ty, _), v) in cols.iter().zip(&values) {
        let mut bytes = Vec::new();
        ty.encode(v, &mut bytes).unwrap();
        parts.push(bytes);
    }
    stored.extend(parts.iter().map(|p| Some(p.as_slice())));
    let mut from_stored = Vec::new();
    encode_key_from_stored(&cols, stored.iter().copied(), &mut from_stored);
    assert_eq!(from_stored, key(&cols, &values));
    assert_eq!(
        key(&cols, &values),
        key(&cols, &[Value::Float(0.0), Value::String("ça  ".into())])
    );
    assert_eq!(
        key(&cols, &values).cmp(&key(
            &cols,
            &[Value::Float(0.0), Value::String("cb".into())]
        )),
        Ordering::Less
    );
}
