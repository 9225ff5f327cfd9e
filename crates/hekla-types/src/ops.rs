//! SQL Server's expression typing and arithmetic: what type `a + b`, `a = b`
//! or `CASE ... END` has, and what `a + b` evaluates to.
//!
//! The binder types every expression once with [`arithmetic_type`],
//! [`common_type`] (or [`common_type_in`]), [`concat_type`],
//! [`negate_type`] and [`bit_not_type`]; the evaluator converts the operands
//! to that type's family (the conversions are not this module's) and calls
//! [`arithmetic`], [`negate`], [`bit_not`], [`concat()`] or [`compare`].
//!
//! The typing follows SQL Server's documented rules and, where the
//! documentation is silent or wrong, what SQL Server answers:
//!
//! * The operand of lower [`precedence`] converts to the other's type, so a
//!   string beside a number becomes that number (`'125127' + 15` is int
//!   125142): `arithmetic_type` returns the numeric type and the caller
//!   converts the string. Two strings (or two binaries) under `+`
//!   concatenate ([`concat_type`]).
//! * Integers stay in the wider operand's type and overflow there (Msg
//!   8115), `tinyint` included; `/` truncates toward zero and `%` takes the
//!   dividend's sign.
//! * decimal results take the precision and scale of
//!   [`Decimal::result_type`](crate::Decimal::result_type), with integer
//!   operands counted as decimal(3,0), (5,0), (10,0) or (19,0), bit as
//!   (1,0), smallmoney as (10,4) and money as (19,4). SQL Server
//!   types an integer *literal* beside a decimal as decimal(digits, 0)
//!   (`10.0 / 3` is decimal(8,6), not (14,12)); that is the binder's to do,
//!   by passing `DataType::Decimal { precision: digits, scale: 0 }` for such
//!   a literal. Quotients truncate toward zero, every other result rounds
//!   half away from zero.
//! * real wins over every exact numeric, float over real; `%` rejects both.
//! * datetime and smalldatetime add and subtract (numbers count days); date,
//!   time, datetime2 and datetimeoffset reject every arithmetic operator.
//! * `& | ^` take integers and bit, or one binary beside tinyint, smallint
//!   or int; `~` takes integers and bit only.
//!
//! Errors carry SQL Server's numbers and texts: Msg 402 (incompatible pair),
//! 8117 (operand type invalid for the operator), 206 (operand type clash),
//! 8115 (overflow), 8134 (divide by zero), 517 (datetime overflow) and 468
//! (collation conflict). Type names in messages are the bare family names
//! (`varchar`, `datetime2`) with `(max)` kept, and decimal is `numeric`, the
//! name SQL Server uses for literals and expressions (a column declared
//! `decimal` is reported as `decimal` by SQL Server; hekla does not keep
//! that spelling).

mod collate;
mod compare;
mod eval;
mod typing;

pub use collate::{combine_collations, CollationLabel, Operation};
pub use compare::compare;
pub use eval::{arithmetic, bit_not, concat, negate};
pub use typing::{
    arithmetic_type, bit_not_type, common_type, common_type_in, concat_type, negate_type,
};

use crate::{DataType, DecimalOp, Length, SqlError};

/// A binary arithmetic or bitwise operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArithOp {
    Add,
    Subtract,
    Multiply,
    Divide,
    Modulo,
    BitAnd,
    BitOr,
    BitXor,
}

impl ArithOp {
    /// The operator as SQL Server names it in Msg 402 and 8117: `add`,
    /// `subtract`, `multiply`, `divide`, `modulo`, `'&'`, `'|'`, `'^'`.
    pub fn name(self) -> &'static str {
        match self {
            ArithOp::Add => "add",
            ArithOp::Subtract => "subtract",
            ArithOp::Multiply => "multiply",
            ArithOp::Divide => "divide",
            ArithOp::Modulo => "modulo",
            ArithOp::BitAnd => "'&'",
            ArithOp::BitOr => "'|'",
            ArithOp::BitXor => "'^'",
        }
    }

    pub fn is_bitwise(self) -> bool {
        matches!(self, ArithOp::BitAnd | ArithOp::BitOr | ArithOp::BitXor)
    }

    /// The decimal operator, for the five arithmetic operators.
    pub fn decimal_op(self) -> Option<DecimalOp> {
        match self {
            ArithOp::Add => Some(DecimalOp::Add),
            ArithOp::Subtract => Some(DecimalOp::Sub),
            ArithOp::Multiply => Some(DecimalOp::Mul),
            ArithOp::Divide => Some(DecimalOp::Div),
            ArithOp::Modulo => Some(DecimalOp::Rem),
            _ => None,
        }
    }
}

/// SQL Server's data type precedence: when an operator combines two types,
/// the one with the lower precedence converts to the other. The documented
/// order, highest first, is user-defined types, sql_variant, xml,
/// datetimeoffset, datetime2, datetime, smalldatetime, date, time, float,
/// real, decimal, money, smallmoney, bigint, int, smallint, tinyint, bit,
/// ntext, text, image, timestamp, uniqueidentifier, nvarchar, nchar,
/// varchar, char, varbinary, binary (lowest); the numbers are the types'
/// places counted from the bottom, so the ones hekla lacks keep their gaps.
pub fn precedence(t: &DataType) -> u8 {
    use DataType as T;
    match t {
        T::DateTimeOffset { .. } => 27,
        T::DateTime2 { .. } => 26,
        T::DateTime => 25,
        T::SmallDateTime => 24,
        T::Date => 23,
        T::Time { .. } => 22,
        T::Float => 21,
        T::Real => 20,
        T::Decimal { .. } => 19,
        T::Money => 18,
        T::SmallMoney => 17,
        T::BigInt => 16,
        T::Int => 15,
        T::SmallInt => 14,
        T::TinyInt => 13,
        T::Bit => 12,
        // ntext 11, text 10, image 9, timestamp 8
        T::UniqueIdentifier => 7,
        T::NVarChar { .. } => 6,
        T::NChar { .. } => 5,
        T::VarChar { .. } => 4,
        T::Char { .. } => 3,
        T::VarBinary { .. } => 2,
        T::Binary { .. } => 1,
    }
}

/// How an operator treats a type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Family {
    Bit,
    Integer,
    Decimal,
    Money,
    /// float and real
    Approx,
    /// datetime and smalldatetime: numbers add to them as days.
    LegacyDate,
    /// date, time, datetime2, datetimeoffset: no arithmetic at all.
    ModernDate,
    Guid,
    String,
    Binary,
}

fn family(t: &DataType) -> Family {
    use DataType as T;
    match t {
        T::Bit => Family::Bit,
        T::TinyInt | T::SmallInt | T::Int | T::BigInt => Family::Integer,
        T::Decimal { .. } => Family::Decimal,
        T::Money | T::SmallMoney => Family::Money,
        T::Float | T::Real => Family::Approx,
        T::DateTime | T::SmallDateTime => Family::LegacyDate,
        T::Date | T::Time { .. } | T::DateTime2 { .. } | T::DateTimeOffset { .. } => {
            Family::ModernDate
        }
        T::UniqueIdentifier => Family::Guid,
        T::Char { .. } | T::VarChar { .. } | T::NChar { .. } | T::NVarChar { .. } => Family::String,
        T::Binary { .. } | T::VarBinary { .. } => Family::Binary,
    }
}

/// The type as SQL Server names it in operator messages: no length,
/// precision or scale, except `(max)`; decimal is `numeric`.
fn message_name(t: &DataType) -> String {
    use DataType as T;
    let max = |name: &str, len: Length| match len {
        Length::Max => format!("{name}(max)"),
        Length::Bounded(_) => name.to_string(),
    };
    match *t {
        T::Decimal { .. } => "numeric".into(),
        T::Time { .. } => "time".into(),
        T::DateTime2 { .. } => "datetime2".into(),
        T::DateTimeOffset { .. } => "datetimeoffset".into(),
        T::Char { .. } => "char".into(),
        T::NChar { .. } => "nchar".into(),
        T::Binary { .. } => "binary".into(),
        T::VarChar { len, .. } => max("varchar", len),
        T::NVarChar { len, .. } => max("nvarchar", len),
        T::VarBinary { len } => max("varbinary", len),
        _ => t.sql_name(),
    }
}

/// Msg 402: the pair, in written order, has no meaning under the operator.
fn incompatible(left: &DataType, right: &DataType, operator: &str) -> SqlError {
    SqlError::new(
        402,
        16,
        1,
        format!(
            "The data types {} and {} are incompatible in the {operator} operator.",
            message_name(left),
            message_name(right)
        ),
    )
}

/// Msg 8117: the operator does not apply to the type at all.
fn invalid_operand(t: &DataType, operator: &str) -> SqlError {
    SqlError::new(
        8117,
        16,
        1,
        format!(
            "Operand data type {} is invalid for {operator} operator.",
            message_name(t)
        ),
    )
}

/// Msg 206, naming the type that cannot become the other.
fn clash(from: &DataType, to: &DataType) -> SqlError {
    SqlError::type_clash(&message_name(from), &message_name(to))
}

/// Msg 8115 for an expression's result.
fn overflow(t: &DataType) -> SqlError {
    SqlError::arithmetic_overflow("expression", &message_name(t))
}

#[cfg(test)]
mod tests;
