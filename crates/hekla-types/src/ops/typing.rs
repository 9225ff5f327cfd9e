//! Result types: of an operator, and of two expressions brought together by
//! a comparison, CASE, UNION or COALESCE.

use super::collate::{combine_collations, CollationLabel, Operation};
use super::{clash, family, incompatible, invalid_operand, precedence, ArithOp, Family};
use crate::datatype::{MAX_BYTE_LENGTH, MAX_NCHAR_LENGTH};
use crate::decimal::MAX_PRECISION;
use crate::{Collation, DataType, Decimal, DecimalOp, Length, SqlResult};

/// The result type of `left op right`, both operands being converted to it
/// first (a string or binary operand beside a number becomes that number:
/// the caller converts, and the conversion may fail at run time). For
/// decimal results the operands' own precision and scale decide the
/// result's, see [`Decimal::result_type`].
///
/// Errors, as SQL Server reports them:
/// * Msg 402 "The data types X and Y are incompatible in the op operator."
///   for `bit` pairs and binary pairs under `+ - %` (a binary pair
///   concatenates under `+`), `%` with one float or real, `(max)` string
///   pairs, datetime beside date, time, datetime2 or datetimeoffset, and
///   every pair `& | ^` cannot take;
/// * Msg 8117 "Operand data type X is invalid for op operator." for `bit`
///   and binary pairs under `* /`, string pairs other than `+`, `%` with two
///   floats or reals, date, time, datetime2 and datetimeoffset under any
///   operator, datetime and smalldatetime under `* / %`, uniqueidentifier;
/// * Msg 206 "Operand type clash: X is incompatible with Y" for date, time,
///   datetime2 or datetimeoffset beside a number, and pairs that cannot
///   convert into one another (uniqueidentifier and numbers, binary and
///   float or real).
pub fn arithmetic_type(op: ArithOp, left: &DataType, right: &DataType) -> SqlResult<DataType> {
    use Family as F;
    if op.is_bitwise() {
        return bitwise_type(op, left, right);
    }
    let name = op.name();
    let (lf, rf) = (family(left), family(right));
    // Pairs without arithmetic: SQL Server reports the pair under + - %
    // and the left operand alone under * /.
    let pair_error = || {
        if matches!(op, ArithOp::Multiply | ArithOp::Divide) {
            invalid_operand(left, name)
        } else {
            incompatible(left, right, name)
        }
    };
    match (lf, rf) {
        (F::String | F::Binary, F::String | F::Binary) if op == ArithOp::Add => {
            return Ok(concat_type(left, right));
        }
        (F::Binary, F::Binary) => return Err(pair_error()),
        (F::String, F::String) if is_max(left) || is_max(right) => {
            return Err(incompatible(left, right, name));
        }
        (F::String, F::String | F::Binary) | (F::Binary, F::String) => {
            return Err(invalid_operand(left, name));
        }
        (F::Bit, F::Bit | F::String | F::Binary) | (F::String | F::Binary, F::Bit) => {
            return Err(pair_error());
        }
        _ => {}
    }
    if op == ArithOp::Modulo && (lf == F::Approx || rf == F::Approx) {
        return Err(if lf == rf {
            invalid_operand(left, name)
        } else {
            incompatible(left, right, name)
        });
    }
    match (lf, rf) {
        (F::ModernDate, F::ModernDate) => Err(invalid_operand(left, name)),
        (F::ModernDate, F::LegacyDate) | (F::LegacyDate, F::ModernDate) => {
            Err(incompatible(left, right, name))
        }
        // The string becomes the date, which has no arithmetic.
        (F::ModernDate, F::String) => Err(invalid_operand(left, name)),
        (F::String, F::ModernDate) => Err(invalid_operand(right, name)),
        (F::ModernDate, _) => Err(date_clash(left, right)),
        (_, F::ModernDate) => Err(date_clash(right, left)),
        (F::LegacyDate, F::Guid) => Err(clash(right, left)),
        (F::Guid, F::LegacyDate) => Err(clash(left, right)),
        (F::LegacyDate, _) | (_, F::LegacyDate) => {
            // Dates outrank every other family: the datetime (or the wider
            // of two) is the result, and the number counts days.
            let date = higher(left, right);
            if matches!(op, ArithOp::Add | ArithOp::Subtract) {
                Ok(date)
            } else {
                Err(invalid_operand(&date, name))
            }
        }
        (F::Guid, F::Guid | F::String | F::Binary) => Err(invalid_operand(left, name)),
        (F::String | F::Binary, F::Guid) => Err(invalid_operand(right, name)),
        (F::Guid, _) => Err(clash(left, right)),
        (_, F::Guid) => Err(clash(right, left)),
        (F::Binary, F::Approx) => Err(clash(left, right)),
        (F::Approx, F::Binary) => Err(clash(right, left)),
        _ => Ok(numeric_type(op, left, right)),
    }
}

/// date, time, datetime2 and datetimeoffset do not convert to or from
/// numbers; SQL Server names the date type first (`date + 1`: "date is
/// incompatible with int"). Binary and uniqueidentifier do not become dates.
fn date_clash(date: &DataType, other: &DataType) -> crate::SqlError {
    match family(other) {
        Family::Guid | Family::Binary => clash(other, date),
        _ => clash(date, other),
    }
}

fn is_max(t: &DataType) -> bool {
    matches!(
        t,
        DataType::VarChar {
            len: Length::Max,
            ..
        } | DataType::NVarChar {
            len: Length::Max,
            ..
        } | DataType::VarBinary { len: Length::Max }
    )
}

/// The operand of higher precedence (the left one on a tie).
fn higher(left: &DataType, right: &DataType) -> DataType {
    if precedence(right) > precedence(left) {
        *right
    } else {
        *left
    }
}

fn is_numeric(t: &DataType) -> bool {
    matches!(
        family(t),
        Family::Bit | Family::Integer | Family::Decimal | Family::Money | Family::Approx
    )
}

/// Arithmetic between two numbers, or a number and a string or binary
/// (which becomes the number's type).
fn numeric_type(op: ArithOp, left: &DataType, right: &DataType) -> DataType {
    let (left, right) = match (is_numeric(left), is_numeric(right)) {
        (true, false) => (left, left),
        (false, true) => (right, right),
        _ => (left, right),
    };
    let result = higher(left, right);
    match (result, op.decimal_op()) {
        (DataType::Decimal { .. }, Some(decimal_op)) => {
            decimal_result(decimal_op, decimal_shape(left), decimal_shape(right))
        }
        _ => result,
    }
}

fn decimal_result(op: DecimalOp, left: (u8, u8), right: (u8, u8)) -> DataType {
    let (precision, scale) = Decimal::result_type(op, left, right);
    DataType::Decimal { precision, scale }
}

/// The decimal(p, s) an exact numeric converts to beside a decimal.
fn decimal_shape(t: &DataType) -> (u8, u8) {
    match *t {
        DataType::Decimal { precision, scale } => (precision, scale),
        DataType::Bit => (1, 0),
        DataType::TinyInt => (3, 0),
        DataType::SmallInt => (5, 0),
        DataType::Int => (10, 0),
        DataType::SmallMoney => (10, 4),
        DataType::Money => (19, 4),
        // bigint; nothing else reaches here.
        _ => (19, 0),
    }
}

/// `& | ^`: integers and bit in any pairing (the wider type wins; bit with
/// bit stays bit), or one binary operand beside tinyint, smallint or int
/// (the binary converts to the integer). Anything else is Msg 402.
fn bitwise_type(op: ArithOp, left: &DataType, right: &DataType) -> SqlResult<DataType> {
    let integral = |t: &DataType| matches!(family(t), Family::Bit | Family::Integer);
    let beside_binary =
        |t: &DataType| matches!(t, DataType::TinyInt | DataType::SmallInt | DataType::Int);
    match (family(left), family(right)) {
        _ if integral(left) && integral(right) => Ok(higher(left, right)),
        (Family::Binary, _) if beside_binary(right) => Ok(*right),
        (_, Family::Binary) if beside_binary(left) => Ok(*left),
        _ => Err(incompatible(left, right, op.name())),
    }
}

/// The type of unary minus: the operand's, except tinyint, which has no
/// negative values and becomes smallint. Msg 8117 "Operand data type X is
/// invalid for minus operator." for anything but a number other than bit.
pub fn negate_type(t: &DataType) -> SqlResult<DataType> {
    match family(t) {
        _ if *t == DataType::TinyInt => Ok(DataType::SmallInt),
        Family::Integer | Family::Decimal | Family::Money | Family::Approx => Ok(*t),
        _ => Err(invalid_operand(t, "minus")),
    }
}

/// The type of `~`: the operand's, which must be an integer or bit (Msg 8117
/// "Operand data type X is invalid for '~' operator." otherwise).
pub fn bit_not_type(t: &DataType) -> SqlResult<DataType> {
    match family(t) {
        Family::Bit | Family::Integer => Ok(*t),
        _ => Err(invalid_operand(t, "'~'")),
    }
}

/// The type both sides of a comparison are converted to, treating string
/// operands as column references (implicit collations, so two different
/// collations are Msg 468 "... in the equal to operation.") and naming the
/// operation "equal to" in messages. See [`common_type_in`] for the general
/// form, which CASE, UNION, COALESCE and comparisons with literals need.
pub fn common_type(a: &DataType, b: &DataType) -> SqlResult<DataType> {
    let implicit = CollationLabel::Implicit;
    common_type_in(a, implicit, b, implicit, Operation::EQUAL_TO).map(|(t, _)| t)
}

/// The type two expressions are converted to where they meet (`operation`):
/// the higher [`precedence`] type, widened to hold both —
/// * strings: the national type if either is, the variable type if either
///   is, the longer length (`max` if either is; a varchar longer than 4000
///   becomes nvarchar(max)), and the collation of [`combine_collations`];
/// * binary: the longer length, varbinary if either is;
/// * decimal: precision `max(s1, s2) + max(p1 - s1, p2 - s2)` and scale
///   `max(s1, s2)` (the documented UNION rule), integers and money counted
///   as for arithmetic; above 38 digits the scale gives way;
/// * datetime2 and datetimeoffset: the larger fractional scale, datetime
///   counting as 3; time beside any other date type is Msg 402.
///
/// A number beside date, time, datetime2 or datetimeoffset is Msg 206;
/// other pairs that cannot convert are left to the caller's conversion.
/// The label is the result's collation label (meaningful for strings only).
pub fn common_type_in(
    a: &DataType,
    a_label: CollationLabel,
    b: &DataType,
    b_label: CollationLabel,
    operation: Operation,
) -> SqlResult<(DataType, CollationLabel)> {
    let mut result = common_data_type(a, b, operation)?;
    let (collation, label) = match (a.collation(), b.collation()) {
        (Some(ca), Some(cb)) => combine_collations((ca, a_label), (cb, b_label), operation)?,
        (Some(ca), None) => (ca, a_label),
        (None, Some(cb)) => (cb, b_label),
        (None, None) => return Ok((result, CollationLabel::CoercibleDefault)),
    };
    set_collation(&mut result, collation);
    Ok((result, label))
}

fn set_collation(t: &mut DataType, to: Collation) {
    match t {
        DataType::Char { collation, .. }
        | DataType::VarChar { collation, .. }
        | DataType::NChar { collation, .. }
        | DataType::NVarChar { collation, .. } => *collation = to,
        _ => {}
    }
}

fn common_data_type(a: &DataType, b: &DataType, operation: Operation) -> SqlResult<DataType> {
    use Family as F;
    match (family(a), family(b)) {
        (F::String | F::Binary, F::String | F::Binary) => Ok(common_string(a, b)),
        (F::ModernDate | F::LegacyDate, F::ModernDate | F::LegacyDate) => {
            common_date(a, b, operation)
        }
        (F::ModernDate, F::Guid | F::String | F::Binary) => Ok(*a),
        (F::Guid | F::String | F::Binary, F::ModernDate) => Ok(*b),
        (F::ModernDate, _) => Err(date_clash(a, b)),
        (_, F::ModernDate) => Err(date_clash(b, a)),
        (F::Guid, F::Guid | F::String | F::Binary) => Ok(*a),
        (F::String | F::Binary, F::Guid) => Ok(*b),
        (F::Guid, _) => Err(clash(a, b)),
        (_, F::Guid) => Err(clash(b, a)),
        (F::LegacyDate, _) => Ok(*a),
        (_, F::LegacyDate) => Ok(*b),
        (F::Binary, F::Approx) => Err(clash(a, b)),
        (F::Approx, F::Binary) => Err(clash(b, a)),
        _ => Ok(common_number(a, b)),
    }
}

fn common_number(a: &DataType, b: &DataType) -> DataType {
    let (a, b) = match (is_numeric(a), is_numeric(b)) {
        (true, false) => (a, a),
        (false, true) => (b, b),
        _ => (a, b),
    };
    match higher(a, b) {
        DataType::Decimal { .. } => {
            let ((p1, s1), (p2, s2)) = (decimal_shape(a), decimal_shape(b));
            let scale = s1.max(s2);
            let integral = (p1 - s1).max(p2 - s2);
            if integral + scale <= MAX_PRECISION {
                DataType::Decimal {
                    precision: (integral + scale).max(1),
                    scale,
                }
            } else {
                DataType::Decimal {
                    precision: MAX_PRECISION,
                    scale: MAX_PRECISION - integral,
                }
            }
        }
        winner => winner,
    }
}

/// Fractional-second digits a date type brings to datetime2 or
/// datetimeoffset.
fn fraction_digits(t: &DataType) -> u8 {
    match *t {
        DataType::DateTime2 { scale }
        | DataType::DateTimeOffset { scale }
        | DataType::Time { scale } => scale,
        DataType::DateTime => 3,
        _ => 0,
    }
}

fn common_date(a: &DataType, b: &DataType, operation: Operation) -> SqlResult<DataType> {
    let is_time = |t: &DataType| matches!(t, DataType::Time { .. });
    if is_time(a) != is_time(b) {
        return Err(incompatible(a, b, operation.name));
    }
    let scale = fraction_digits(a).max(fraction_digits(b));
    Ok(match higher(a, b) {
        DataType::Time { .. } => DataType::Time { scale },
        DataType::DateTime2 { .. } => DataType::DateTime2 { scale },
        DataType::DateTimeOffset { .. } => DataType::DateTimeOffset { scale },
        winner => winner,
    })
}

/// A string or binary type's length in its own units (characters, byte
/// pairs or bytes), None for `max`.
fn units(t: &DataType) -> Option<u32> {
    match *t {
        DataType::Char { len, .. } | DataType::NChar { len, .. } | DataType::Binary { len } => {
            Some(len)
        }
        DataType::VarChar { len, .. }
        | DataType::NVarChar { len, .. }
        | DataType::VarBinary { len } => match len {
            Length::Bounded(n) => Some(n),
            Length::Max => None,
        },
        _ => None,
    }
}

fn is_fixed(t: &DataType) -> bool {
    matches!(
        t,
        DataType::Char { .. } | DataType::NChar { .. } | DataType::Binary { .. }
    )
}

fn is_national(t: &DataType) -> bool {
    matches!(t, DataType::NChar { .. } | DataType::NVarChar { .. })
}

/// A string or binary type with `len` units (None: max), national and
/// fixed as asked, in `collation`; lengths past the family's limit become
/// `max` when `grow` (a fixed type then turns variable), else the limit.
fn string_type(
    binary: bool,
    national: bool,
    fixed: bool,
    len: Option<u32>,
    collation: Collation,
    grow: bool,
) -> DataType {
    let limit = if national {
        MAX_NCHAR_LENGTH
    } else {
        MAX_BYTE_LENGTH
    };
    let len = match len {
        Some(n) if n > limit && !grow => Some(limit),
        other => other,
    };
    let fits = len.filter(|&n| n <= limit);
    let variable = match fits {
        Some(n) => Length::Bounded(n.max(1)),
        None => Length::Max,
    };
    match (binary, national, fits.filter(|_| fixed)) {
        (true, _, Some(len)) => DataType::Binary { len: len.max(1) },
        (true, _, None) => DataType::VarBinary { len: variable },
        (false, true, Some(len)) => DataType::NChar {
            len: len.max(1),
            collation,
        },
        (false, true, None) => DataType::NVarChar {
            len: variable,
            collation,
        },
        (false, false, Some(len)) => DataType::Char {
            len: len.max(1),
            collation,
        },
        (false, false, None) => DataType::VarChar {
            len: variable,
            collation,
        },
    }
}

/// The collation a concatenation or combination takes before labels are
/// considered: the national operand's if only one is national, else the
/// left string operand's.
fn leading_collation(a: &DataType, b: &DataType) -> Collation {
    let national_b = is_national(b) && !is_national(a);
    let first = if national_b {
        b.collation()
    } else {
        a.collation()
    };
    first.or(b.collation()).unwrap_or_default()
}

fn common_string(a: &DataType, b: &DataType) -> DataType {
    let binary = family(a) == Family::Binary && family(b) == Family::Binary;
    let len = match (units(a), units(b)) {
        (Some(x), Some(y)) => Some(x.max(y)),
        _ => None,
    };
    string_type(
        binary,
        is_national(a) || is_national(b),
        is_fixed(a) && is_fixed(b),
        len,
        leading_collation(a, b),
        true,
    )
}

/// The type of string (or binary) concatenation `a + b`: national if either
/// operand is, fixed-length only if both are, the sum of the lengths capped
/// at 8000 (4000 for national types) unless either is `max`. A binary
/// operand beside a string counts its bytes as characters. Operands that are
/// neither strings nor binary are outside the function's domain (SQL Server
/// adds them as numbers, see [`arithmetic_type`]) and count as `max`.
///
/// The collation is the national operand's when only one is national, else
/// the left operand's; the binder settles collation labels and conflicts
/// with [`combine_collations`] and [`Operation::CONCATENATION`].
pub fn concat_type(a: &DataType, b: &DataType) -> DataType {
    let stringish = |t: &DataType| matches!(family(t), Family::String | Family::Binary);
    let len = match (units(a), units(b)) {
        (Some(x), Some(y)) if stringish(a) && stringish(b) => Some(x.saturating_add(y)),
        _ => None,
    };
    string_type(
        family(a) == Family::Binary && family(b) == Family::Binary,
        is_national(a) || is_national(b),
        is_fixed(a) && is_fixed(b),
        len,
        leading_collation(a, b),
        false,
    )
}

#[cfg(test)]
mod tests;
