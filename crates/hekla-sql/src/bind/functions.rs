//! Built-in scalar functions: name to a typed call. COALESCE, ISNULL,
//! NULLIF and IIF become CASE expressions; the rest are [`Builtin`] calls
//! evaluated in `exec::functions`.

use super::expr::{implicit, is_untyped_null, Binder, CompareOp, Predicate, Scalar, ScalarKind};
use crate::ast;
use hekla_types::{ops, DataType, Length, SqlError, SqlResult, Value};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Builtin {
    Len,
    Upper,
    Lower,
    LTrim,
    RTrim,
    Trim,
    Substring,
    Left,
    Right,
    Abs,
    SysDateTime,
    SysUtcDateTime,
    GetDate,
    GetUtcDate,
    Year,
    Month,
    Day,
}

impl<'a> Binder<'a> {
    /// A call of a built-in function; Msg 195 for an unknown name.
    pub fn function(&self, call: &ast::FunctionCall) -> SqlResult<Scalar> {
        let name = call.name.name().value.to_ascii_uppercase();
        if call.over.is_some() || call.distinct || call.star || !call.within_group.is_empty() {
            return Err(super::expr::not_yet_text(&format!(
                "{name} with OVER, DISTINCT or *"
            )));
        }
        if call.name.parts.len() > 1 {
            return Err(super::expr::not_yet_text("user-defined functions"));
        }
        let args = &call.args;
        match name.as_str() {
            "COALESCE" => {
                if args.len() < 2 {
                    return Err(SqlError::new(
                        189,
                        15,
                        1,
                        "The coalesce function requires 2 to 254 arguments.",
                    ));
                }
                let bound = args
                    .iter()
                    .map(|a| self.scalar(a))
                    .collect::<SqlResult<Vec<_>>>()?;
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
                let data_type = ops::common_type(&then.data_type, &otherwise.data_type)?;
                Ok(Scalar {
                    kind: ScalarKind::Case {
                        whens: vec![(condition, implicit(then, &data_type)?)],
                        otherwise: Box::new(implicit(otherwise, &data_type)?),
                    },
                    data_type,
                })
            }
            _ => self.builtin(&name, args),
        }
    }

    fn builtin(&self, name: &str, args: &[ast::Expr]) -> SqlResult<Scalar> {
        let (builtin, arity) = match name {
            "LEN" => (Builtin::Len, 1),
            "UPPER" => (Builtin::Upper, 1),
            "LOWER" => (Builtin::Lower, 1),
            "LTRIM" => (Builtin::LTrim, 1),
            "RTRIM" => (Builtin::RTrim, 1),
            "TRIM" => (Builtin::Trim, 1),
            "SUBSTRING" => (Builtin::Substring, 3),
            "LEFT" => (Builtin::Left, 2),
            "RIGHT" => (Builtin::Right, 2),
            "ABS" => (Builtin::Abs, 1),
            "SYSDATETIME" => (Builtin::SysDateTime, 0),
            "SYSUTCDATETIME" => (Builtin::SysUtcDateTime, 0),
            "GETDATE" => (Builtin::GetDate, 0),
            "GETUTCDATE" => (Builtin::GetUtcDate, 0),
            "YEAR" => (Builtin::Year, 1),
            "MONTH" => (Builtin::Month, 1),
            "DAY" => (Builtin::Day, 1),
            _ => {
                return Err(SqlError::new(
                    195,
                    15,
                    10,
                    format!(
                        "'{}' is not a recognized built-in function name.",
                        name.to_ascii_lowercase()
                    ),
                ))
            }
        };
        if args.len() != arity {
            return Err(argument_count(&name.to_ascii_lowercase(), arity));
        }
        let mut bound = args
            .iter()
            .map(|a| self.scalar(a))
            .collect::<SqlResult<Vec<_>>>()?;
        let text = |t: &DataType| t.collation().is_some();
        let data_type = match builtin {
            Builtin::Len => {
                let argument = bound.remove(0);
                bound.insert(0, as_text(argument, self)?);
                DataType::Int
            }
            Builtin::Upper
            | Builtin::Lower
            | Builtin::LTrim
            | Builtin::RTrim
            | Builtin::Trim
            | Builtin::Substring
            | Builtin::Left
            | Builtin::Right => {
                if !text(&bound[0].data_type) {
                    let argument = bound.remove(0);
                    bound.insert(0, as_text(argument, self)?);
                }
                for position in 1..bound.len() {
                    let argument = bound.remove(position);
                    bound.insert(position, implicit(argument, &DataType::BigInt)?);
                }
                bound[0].data_type
            }
            Builtin::Abs => {
                let data_type = bound[0].data_type;
                if text(&data_type) || ops::negate_type(&data_type).is_err() {
                    return Err(SqlError::new(
                        8116,
                        16,
                        1,
                        format!(
                            "Argument data type {} is invalid for argument 1 of abs function.",
                            data_type.sql_name().split('(').next().unwrap_or_default()
                        ),
                    ));
                }
                data_type
            }
            Builtin::SysDateTime | Builtin::SysUtcDateTime => DataType::DateTime2 { scale: 7 },
            Builtin::GetDate | Builtin::GetUtcDate => DataType::DateTime,
            Builtin::Year | Builtin::Month | Builtin::Day => {
                let argument = bound.remove(0);
                bound.push(implicit(argument, &DataType::DateTime2 { scale: 7 })?);
                DataType::Int
            }
        };
        Ok(Scalar {
            kind: ScalarKind::Builtin {
                function: builtin,
                args: bound,
            },
            data_type,
        })
    }

    /// Exactly `N` bound arguments, or Msg 174.
    fn arguments<const N: usize>(&self, name: &str, args: &[ast::Expr]) -> SqlResult<[Scalar; N]> {
        if args.len() != N {
            return Err(argument_count(&name.to_ascii_lowercase(), N));
        }
        let bound = args
            .iter()
            .map(|a| self.scalar(a))
            .collect::<SqlResult<Vec<_>>>()?;
        Ok(bound.try_into().expect("the length was checked"))
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
            None => {
                let mut typed = values.iter().filter(|v| !is_untyped_null(v));
                match typed.next() {
                    Some(first) => typed
                        .try_fold(first.data_type, |t, v| ops::common_type(&t, &v.data_type))?,
                    None => DataType::Int,
                }
            }
        };
        let mut converted = values
            .into_iter()
            .map(|v| implicit(v, &data_type))
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

/// A value as nvarchar(max) text (LEN and the string functions take any
/// type, converting it as CAST would).
fn as_text(value: Scalar, binder: &Binder) -> SqlResult<Scalar> {
    if value.data_type.collation().is_some() {
        return Ok(value);
    }
    implicit(
        value,
        &DataType::NVarChar {
            len: Length::Max,
            collation: binder.collation,
        },
    )
}

fn null_of(data_type: DataType) -> Scalar {
    Scalar {
        kind: ScalarKind::Constant(Value::Null),
        data_type,
    }
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
