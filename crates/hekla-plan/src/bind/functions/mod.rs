//! Built-in scalar functions: a name and arguments to a typed call.
//!
//! COALESCE, ISNULL, NULLIF, IIF and CHOOSE become CASE expressions. The
//! rest are [`Builtin`] calls, bound by family (`string`, `date`, `math`,
//! `misc`): each family checks its arguments, converts them to the types
//! its evaluator expects and decides the result type, and
//! `exec::functions` evaluates the call on the converted values.
//!
//! Nothing here is folded at bind time. NEWID and RAND(seed) are evaluated
//! for every row that reads them; RAND() and the clock functions are
//! runtime constants, as in SQL Server: each reference is evaluated once
//! per statement execution ([`ScalarKind::RuntimeConstant`]).

mod date;
mod math;
mod misc;
mod string;

pub use date::{Clock, DateFn, DatePart};
pub use math::MathFn;
pub use misc::MiscFn;
pub use string::StringFn;

use super::expr::{implicit, is_untyped_null, Binder, CompareOp, Predicate, Scalar, ScalarKind};
use crate::error::{not_supported_yet, Refused};
use hekla_parser::ast;
use hekla_types::convert::convert_from;
use hekla_types::{ops, DataType, Length, SqlError, SqlResult, Value};
use std::sync::atomic::{AtomicU64, Ordering};

/// A built-in function, by family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Builtin {
    String(StringFn),
    Date(DateFn),
    Math(MathFn),
    Misc(MiscFn),
}

impl Builtin {
    /// The function's name as SQL Server's plans spell it: lowercase, YEAR,
    /// MONTH and DAY as `datepart`.
    pub fn name(self) -> &'static str {
        match self {
            Builtin::String(f) => f.name(),
            Builtin::Date(f) => f.name(),
            Builtin::Math(f) => f.name(),
            Builtin::Misc(f) => f.name(),
        }
    }

    /// Whether two calls in one statement may answer differently: NEWID
    /// and RAND(seed), which reseeds the session's sequence. Such a call is
    /// not a constant for a plan to compute once (`ORDER BY NEWID()`
    /// shuffles). RAND() and the clocks are runtime constants instead.
    pub fn is_nondeterministic(self) -> bool {
        matches!(
            self,
            Builtin::Misc(MiscFn::NewId) | Builtin::Math(MathFn::Rand)
        )
    }

    /// Whether SQL Server evaluates a call once per statement execution
    /// (per reference), not per row: RAND without a seed and the clocks
    /// (GETDATE, CURRENT_TIMESTAMP, GETUTCDATE, SYSDATETIME,
    /// SYSUTCDATETIME, SYSDATETIMEOFFSET).
    fn is_runtime_constant(self, args: &[Scalar]) -> bool {
        match self {
            Builtin::Date(DateFn::Now(_)) => true,
            Builtin::Math(MathFn::Rand) => args.is_empty(),
            _ => false,
        }
    }

    /// The datepart keyword of DATEADD, DATEDIFF, DATEPART and DATENAME
    /// (which is not among the bound arguments): a plan shows it first.
    pub fn datepart(self) -> Option<DatePart> {
        match self {
            Builtin::Date(f) => f.datepart(),
            _ => None,
        }
    }
}

/// A family's binder: None when the name is not one of its functions.
type Family<'a> = fn(&Binder<'a>, &str, &[ast::Expr]) -> Option<SqlResult<Scalar>>;

impl<'a> Binder<'a> {
    /// A call of a built-in function (Msg 195 for an unknown name), or of
    /// a user-defined one, which only a qualified name calls.
    pub fn function(&self, call: &ast::FunctionCall) -> SqlResult<Scalar> {
        let name = call.name.name().value.to_ascii_uppercase();
        if call.over.is_some() || call.distinct || call.star || !call.within_group.is_empty() {
            return Err(not_supported_yet(
                Refused::Expression,
                format!("{name} with OVER, DISTINCT or *"),
            ));
        }
        if call.name.parts.len() > 1 {
            return self.user_function(call);
        }
        let args = &call.args;
        match name.as_str() {
            "COALESCE" => {
                let bound = self.arguments_between(&name, args, 2, 254)?;
                self.first_non_null(bound, None)
            }
            "ISNULL" => {
                let [value, replacement] = self.arguments::<2>(&name, args)?;
                // The first argument's type, unless it is a bare NULL.
                let data_type = if is_untyped_null(&value) {
                    replacement.data_type
                } else {
                    value.data_type
                };
                self.first_non_null(vec![value, replacement], Some(data_type))
            }
            "NULLIF" => {
                let [value, other] = self.arguments::<2>(&name, args)?;
                let common = ops::common_type(&value.data_type, &other.data_type)?;
                let collation = common.collation().unwrap_or(self.collation);
                let data_type = value.data_type;
                let equal = Predicate::Compare {
                    op: CompareOp::Eq,
                    left: implicit(value.clone(), &common)?,
                    right: implicit(other, &common)?,
                    collation,
                };
                Ok(Scalar {
                    kind: ScalarKind::Case {
                        whens: vec![(equal, null_of(data_type))],
                        otherwise: Box::new(value),
                    },
                    data_type,
                })
            }
            "IIF" => {
                if args.len() != 3 {
                    return Err(argument_count("iif", 3));
                }
                let condition = self.predicate(&args[0])?;
                let (then, otherwise) = (self.scalar(&args[1])?, self.scalar(&args[2])?);
                let data_type = common_of(&[&then, &otherwise])?;
                Ok(Scalar {
                    kind: ScalarKind::Case {
                        whens: vec![(condition, convert(then, &data_type)?)],
                        otherwise: Box::new(convert(otherwise, &data_type)?),
                    },
                    data_type,
                })
            }
            "CHOOSE" => self.choose(args),
            _ => self.builtin(&name, args),
        }
    }

    fn builtin(&self, name: &str, args: &[ast::Expr]) -> SqlResult<Scalar> {
        let families: [Family<'a>; 4] = [
            Self::string_function,
            Self::date_function,
            Self::math_function,
            Self::misc_function,
        ];
        for family in families {
            if let Some(bound) = family(self, name, args) {
                return bound;
            }
        }
        Err(SqlError::new(
            195,
            15,
            10,
            format!(
                "'{}' is not a recognized built-in function name.",
                name.to_ascii_lowercase()
            ),
        ))
    }

    /// `CHOOSE(index, a, b, ...)`: `CASE index WHEN 1 THEN a WHEN 2 THEN b
    /// ... END`, typed by precedence like CASE; NULL for an index out of
    /// range.
    fn choose(&self, args: &[ast::Expr]) -> SqlResult<Scalar> {
        let mut bound = self.arguments_between("CHOOSE", args, 2, 254)?;
        let index = convert(bound.remove(0), &DataType::Int)?;
        let data_type = common_of(&bound.iter().collect::<Vec<_>>())?;
        let whens = bound
            .into_iter()
            .zip(1..)
            .map(|(choice, position)| {
                let equal = Predicate::Compare {
                    op: CompareOp::Eq,
                    left: index.clone(),
                    right: Scalar {
                        kind: ScalarKind::Constant(Value::Int(position)),
                        data_type: DataType::Int,
                    },
                    collation: self.collation,
                };
                Ok((equal, convert(choice, &data_type)?))
            })
            .collect::<SqlResult<Vec<_>>>()?;
        Ok(Scalar {
            kind: ScalarKind::Case {
                whens,
                otherwise: Box::new(null_of(data_type)),
            },
            data_type,
        })
    }

    /// Exactly `N` bound arguments, or Msg 174.
    fn arguments<const N: usize>(&self, name: &str, args: &[ast::Expr]) -> SqlResult<[Scalar; N]> {
        let bound = self.arguments_between(name, args, N, N)?;
        Ok(bound.try_into().expect("the length was checked"))
    }

    /// `min..=max` bound arguments (Msg 174 or 189 otherwise).
    fn arguments_between(
        &self,
        name: &str,
        args: &[ast::Expr],
        min: usize,
        max: usize,
    ) -> SqlResult<Vec<Scalar>> {
        check_arity(name, args.len(), min, max)?;
        args.iter().map(|a| self.scalar(a)).collect()
    }

    /// `CASE WHEN a IS NOT NULL THEN a WHEN b ... ELSE last END`, typed
    /// `data_type` (ISNULL: the first argument's) or by precedence.
    fn first_non_null(
        &self,
        values: Vec<Scalar>,
        data_type: Option<DataType>,
    ) -> SqlResult<Scalar> {
        let data_type = match data_type {
            Some(t) => t,
            None => common_of(&values.iter().collect::<Vec<_>>())?,
        };
        let mut converted = values
            .into_iter()
            .map(|v| convert(v, &data_type))
            .collect::<SqlResult<Vec<_>>>()?;
        let otherwise = converted.pop().expect("at least two arguments");
        let whens = converted
            .into_iter()
            .map(|value| {
                let present = Predicate::IsNull {
                    operand: value.clone(),
                    negated: true,
                };
                (present, value)
            })
            .collect();
        Ok(Scalar {
            kind: ScalarKind::Case {
                whens,
                otherwise: Box::new(otherwise),
            },
            data_type,
        })
    }
}

/// The type several values meet in (CASE's rule): by precedence, bare
/// NULLs taking the others' type; int when all are bare NULLs.
fn common_of(values: &[&Scalar]) -> SqlResult<DataType> {
    let mut typed = values.iter().filter(|v| !is_untyped_null(v));
    match typed.next() {
        Some(first) => typed.try_fold(first.data_type, |t, v| ops::common_type(&t, &v.data_type)),
        None => Ok(DataType::Int),
    }
}

/// Names one reference to a runtime constant: unique in the process, so
/// references bound apart (a query and its subqueries, a table's DEFAULT)
/// never share a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RuntimeConstantId(u64);

impl RuntimeConstantId {
    fn fresh() -> Self {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        RuntimeConstantId(NEXT.fetch_add(1, Ordering::Relaxed))
    }
}

/// A call of `function` on converted arguments; a runtime constant gets
/// an id of its own.
fn call(function: Builtin, args: Vec<Scalar>, data_type: DataType) -> Scalar {
    let runtime_constant = function.is_runtime_constant(&args);
    let call = Scalar {
        kind: ScalarKind::Builtin { function, args },
        data_type,
    };
    if !runtime_constant {
        return call;
    }
    Scalar {
        kind: ScalarKind::RuntimeConstant {
            id: RuntimeConstantId::fresh(),
            call: Box::new(call),
        },
        data_type,
    }
}

fn is_text(t: &DataType) -> bool {
    t.collation().is_some()
}

fn is_unicode(t: &DataType) -> bool {
    matches!(t, DataType::NChar { .. } | DataType::NVarChar { .. })
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

/// `implicit`, except that a bare NULL simply takes the target type (it
/// converts to anything, a date or a uniqueidentifier too).
fn convert(scalar: Scalar, target: &DataType) -> SqlResult<Scalar> {
    if is_untyped_null(&scalar) {
        return Ok(null_of(*target));
    }
    implicit(scalar, target)
}

/// A value as text: strings as they are, anything else converted to
/// varchar as CAST would, wide enough for its longest default text.
fn as_text(value: Scalar, binder: &Binder) -> SqlResult<Scalar> {
    if is_text(&value.data_type) {
        return Ok(value);
    }
    let len = text_length(&value.data_type);
    convert(
        value,
        &DataType::VarChar {
            len,
            collation: binder.collation,
        },
    )
}

/// How many characters a value of type `t` takes as text (CAST's default
/// style): what CONCAT counts for a non-string argument.
fn text_length(t: &DataType) -> Length {
    use DataType as T;
    let fraction = |scale: u8| u32::from(scale) + u32::from(scale > 0);
    Length::Bounded(match *t {
        T::Bit => 1,
        T::TinyInt => 3,
        T::SmallInt => 6,
        T::Int => 11,
        T::BigInt => 20,
        T::Decimal { precision, .. } => u32::from(precision) + 2,
        // money has two decimals by default, float and real six digits.
        T::Money => 20,
        T::SmallMoney => 12,
        T::Float | T::Real => 13,
        T::Date => 10,
        T::Time { scale } => 8 + fraction(scale),
        // `Jan  1 2020 12:00AM`
        T::DateTime | T::SmallDateTime => 19,
        T::DateTime2 { scale } => 19 + fraction(scale),
        T::DateTimeOffset { scale } => 26 + fraction(scale),
        T::UniqueIdentifier => 36,
        T::Char { len, .. } | T::NChar { len, .. } | T::Binary { len } => len,
        T::VarChar { len, .. } | T::NVarChar { len, .. } | T::VarBinary { len } => return len,
    })
}

/// The type name Msg 8116 uses: the bare family name, decimal as numeric.
fn type_name(t: &DataType) -> String {
    match t {
        DataType::Decimal { .. } => "numeric".to_string(),
        _ => t
            .sql_name()
            .split('(')
            .next()
            .unwrap_or_default()
            .to_string(),
    }
}

/// Msg 8116: an argument of a type the function does not take.
fn invalid_argument(t: &DataType, position: usize, function: &str) -> SqlError {
    SqlError::new(
        8116,
        16,
        1,
        format!(
            "Argument data type {} is invalid for argument {position} of {function} function.",
            type_name(t)
        ),
    )
}

/// The value of a constant argument, folding signs and conversions (`-1`,
/// `CAST(3 AS bigint)`); None for anything computed.
fn constant(scalar: &Scalar) -> Option<Value> {
    match &scalar.kind {
        ScalarKind::Constant(value) => Some(value.clone()),
        ScalarKind::Negate(operand) => ops::negate(&constant(operand)?, &scalar.data_type).ok(),
        ScalarKind::Convert {
            operand,
            style,
            is_try: false,
        } => convert_from(
            &constant(operand)?,
            &operand.data_type,
            &scalar.data_type,
            *style,
        )
        .ok(),
        _ => None,
    }
}

fn null_of(data_type: DataType) -> Scalar {
    Scalar {
        kind: ScalarKind::Constant(Value::Null),
        data_type,
    }
}

/// `count` arguments for a function taking `min..=max`: Msg 174 when it
/// takes a fixed number, Msg 189 when it takes a range.
fn check_arity(name: &str, count: usize, min: usize, max: usize) -> SqlResult<()> {
    if (min..=max).contains(&count) {
        return Ok(());
    }
    let name = name.to_ascii_lowercase();
    Err(if min == max {
        argument_count(&name, min)
    } else {
        SqlError::new(
            189,
            15,
            1,
            format!("The {name} function requires {min} to {max} arguments."),
        )
    })
}

/// Msg 174: the wrong number of arguments.
fn argument_count(name: &str, count: usize) -> SqlError {
    SqlError::new(
        174,
        15,
        1,
        format!("The {name} function requires {count} argument(s)."),
    )
}
