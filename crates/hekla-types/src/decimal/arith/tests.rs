use super::*;

fn d(text: &str) -> Decimal {
    text.parse().unwrap()
}

fn typed(mantissa: i128, precision: u8, scale: u8) -> Decimal {
    Decimal::new(mantissa, precision, scale).unwrap()
}

#[test]
fn result_types_follow_sql_server() {
    use DecimalOp::*;
    assert_eq!(Decimal::result_type(Add, (5, 2), (5, 2)), (6, 2));
    assert_eq!(Decimal::result_type(Sub, (10, 0), (5, 4)), (15, 4));
    assert_eq!(Decimal::result_type(Mul, (10, 2), (10, 3)), (21, 5));
    assert_eq!(Decimal::result_type(Div, (10, 2), (5, 1)), (17, 8));
    assert_eq!(Decimal::result_type(Rem, (10, 2), (5, 1)), (6, 2));
    // Precision above 38: a sum keeps its operands' widest integral part
    // (without the carry digit) and the scale takes the rest, with no floor.
    assert_eq!(Decimal::result_type(Add, (38, 10), (38, 10)), (38, 10));
    assert_eq!(Decimal::result_type(Add, (38, 10), (38, 30)), (38, 10));
    assert_eq!(Decimal::result_type(Sub, (30, 20), (38, 30)), (38, 28));
    assert_eq!(Decimal::result_type(Add, (38, 38), (38, 0)), (38, 0));
    // Products and quotients: the scale gives way, but not below 6.
    assert_eq!(Decimal::result_type(Mul, (38, 10), (38, 10)), (38, 6));
    assert_eq!(Decimal::result_type(Mul, (20, 2), (20, 2)), (38, 4));
    assert_eq!(Decimal::result_type(Div, (38, 0), (38, 0)), (38, 6));
    assert_eq!(Decimal::result_type(Div, (18, 2), (18, 2)), (38, 20));
}

#[test]
fn addition_and_subtraction() {
    assert_eq!(d("1.5").checked_add(d("2.25")).unwrap(), typed(375, 4, 2));
    assert_eq!(d("1.5").checked_sub(d("2.25")).unwrap(), typed(-75, 4, 2));
    assert_eq!(d("-1.5").checked_add(d("1.5")).unwrap().mantissa, 0);
    let max = typed(10i128.pow(38) - 1, 38, 0);
    let err = max.checked_add(d("1")).unwrap_err();
    assert_eq!(err.number, 8115);
    assert_eq!(
        err.message,
        "Arithmetic overflow error converting expression to data type numeric."
    );
    assert_eq!(
        max.checked_sub(d("1")).unwrap().mantissa,
        10i128.pow(38) - 2
    );
}

#[test]
fn multiplication_rounds_to_the_reduced_scale() {
    assert_eq!(d("1.5").checked_mul(d("-1.5")).unwrap(), typed(-225, 5, 2));
    // decimal(38,10) * decimal(38,10) is decimal(38,6): 1/3-ish products round.
    let third = typed(3_333_333_333, 38, 10); // 0.3333333333
    let product = third.checked_mul(third).unwrap();
    assert_eq!((product.precision, product.scale), (38, 6));
    assert_eq!(product.mantissa, 111_111); // 0.11111111108888888889 -> 0.111111
    let big = typed(10i128.pow(20), 38, 0);
    assert_eq!(big.checked_mul(big).unwrap_err().number, 8115);
}

#[test]
fn division_truncates_toward_zero() {
    let q = d("1").checked_div(d("3")).unwrap();
    assert_eq!(q, typed(333_333, 7, 6));
    assert_eq!(q.to_string(), "0.333333");
    assert_eq!(d("2").checked_div(d("3")).unwrap().to_string(), "0.666666");
    assert_eq!(
        d("-2").checked_div(d("3")).unwrap().to_string(),
        "-0.666666"
    );
    assert_eq!(
        d("10.00").checked_div(d("0.25")).unwrap().to_string(),
        "40.000000"
    );
    let err = d("1").checked_div(d("0.0")).unwrap_err();
    assert_eq!(
        (err.number, err.message.as_str()),
        (8134, "Divide by zero error encountered.")
    );
    let huge = typed(10i128.pow(37), 38, 0);
    let tiny = typed(1, 38, 38);
    assert_eq!(huge.checked_div(tiny).unwrap_err().number, 8115);
}

#[test]
fn remainder_takes_the_dividend_sign() {
    assert_eq!(d("5.5").checked_rem(d("2")).unwrap().to_string(), "1.5");
    assert_eq!(d("-5.5").checked_rem(d("2")).unwrap().to_string(), "-1.5");
    assert_eq!(d("1").checked_rem(d("0")).unwrap_err().number, 8134);
}

#[test]
fn comparison_ignores_scale() {
    use std::cmp::Ordering::*;
    assert_eq!(d("1.0").compare(&d("1.00")), Equal);
    assert_eq!(d("-1").compare(&d("0.5")), Less);
    assert_eq!(d("-0.0").compare(&d("0")), Equal);
    assert_eq!(d("2.001").compare(&d("2.0009")), Greater);
    assert_eq!((-d("2.5")).to_string(), "-2.5");
}

#[test]
fn conversion_rounds_and_checks_precision() {
    assert_eq!(d("2.345").convert(5, 2).unwrap().to_string(), "2.35");
    assert_eq!(d("-2.345").convert(5, 2).unwrap().to_string(), "-2.35");
    assert_eq!(d("2.5").convert(5, 0).unwrap().to_string(), "3");
    assert_eq!(d("123.4").convert(4, 2).unwrap_err().number, 8115);
    assert_eq!(d("1").convert(39, 0).unwrap_err().number, 2750);
    assert_eq!(
        Decimal::from_i64(i64::MIN).to_string(),
        i64::MIN.to_string()
    );
}

#[test]
fn literals_parse_to_their_natural_type() {
    assert_eq!(d("123.45"), typed(12_345, 5, 2));
    assert_eq!(d("-0.5"), typed(-5, 1, 1));
    assert_eq!(d(".5"), typed(5, 1, 1));
    assert_eq!(d("+1."), typed(1, 1, 0));
    assert_eq!(d(" 007 "), typed(7, 1, 0));
    assert_eq!(d("0"), typed(0, 1, 0));
    assert_eq!(d("0.000"), typed(0, 3, 3));
    for bad in ["", "-", ".", "1e3", "1.2.3", "abc", "1 2", "--1"] {
        assert_eq!(bad.parse::<Decimal>().unwrap_err().number, 8114, "{bad:?}");
    }
    let too_long = "1".repeat(39);
    assert_eq!(too_long.parse::<Decimal>().unwrap_err().number, 8115);
    // Fractional digits past 38 significant ones are rounded away.
    let long_fraction = format!("1.{}", "6".repeat(40));
    let parsed = d(&long_fraction);
    assert_eq!((parsed.precision, parsed.scale), (38, 37));
    assert!(parsed.to_string().ends_with("67"));
}

#[test]
fn display_always_shows_the_scale() {
    assert_eq!(typed(100, 5, 2).to_string(), "1.00");
    assert_eq!(typed(-5, 5, 2).to_string(), "-0.05");
    assert_eq!(typed(0, 1, 0).to_string(), "0");
    assert_eq!(
        typed(-(10i128.pow(38) - 1), 38, 38).to_string(),
        format!("-0.{}", "9".repeat(38))
    );
}
