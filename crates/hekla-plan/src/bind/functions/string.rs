//! String functions: arguments become text (numbers and dates as CAST
//! writes them), counts and positions bigint; results are varchar unless
//! an input is nvarchar. Functions that search (CHARINDEX, PATINDEX,
//! REPLACE) carry the collation they compare under.

use super::{as_text, call, constant, convert, invalid_argument, is_max, is_unicode, Builtin};
use super::{text_length, Binder};
use crate::bind::expr::Scalar;
use hekla_parser::ast;
use hekla_types::{ops, Collation, DataType, Length, SqlError, SqlResult, Value};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StringFn {
    Len,
    Upper,
    Lower,
    LTrim,
    RTrim,
    Trim,
    Substring,
    Left,
    Right,
    CharIndex(Collation),
    PatIndex(Collation),
    Replace(Collation),
    Replicate,
    Reverse,
    Stuff,
    Space,
    Char,
    NChar,
    Ascii,
    Unicode,
    QuoteName,
    Concat,
    ConcatWs,
    Str,
    Format,
}

impl StringFn {
    /// The function's name, lowercase.
    pub fn name(self) -> &'static str {
        use StringFn as F;
        match self {
            F::Len => "len",
            F::Upper => "upper",
            F::Lower => "lower",
            F::LTrim => "ltrim",
            F::RTrim => "rtrim",
            F::Trim => "trim",
            F::Substring => "substring",
            F::Left => "left",
            F::Right => "right",
            F::CharIndex(_) => "charindex",
            F::PatIndex(_) => "patindex",
            F::Replace(_) => "replace",
            F::Replicate => "replicate",
            F::Reverse => "reverse",
            F::Stuff => "stuff",
            F::Space => "space",
            F::Char => "char",
            F::NChar => "nchar",
            F::Ascii => "ascii",
            F::Unicode => "unicode",
            F::QuoteName => "quotename",
            F::Concat => "concat",
            F::ConcatWs => "concat_ws",
            F::Str => "str",
            F::Format => "format",
        }
    }
}

/// The longest bounded varchar (bytes) and nvarchar (characters).
const VARCHAR_LIMIT: u32 = 8000;
const NVARCHAR_LIMIT: u32 = 4000;

impl Binder<'_> {
    pub(super) fn string_function(
        &self,
        name: &str,
        args: &[ast::Expr],
    ) -> Option<SqlResult<Scalar>> {
        // Searches compare under their arguments' collation, which
        // `bind_string` puts in place of this one.
        let any = Collation::default();
        let (function, min, max) = match name {
            "LEN" => (StringFn::Len, 1, 1),
            "UPPER" => (StringFn::Upper, 1, 1),
            "LOWER" => (StringFn::Lower, 1, 1),
            "LTRIM" => (StringFn::LTrim, 1, 1),
            "RTRIM" => (StringFn::RTrim, 1, 1),
            "TRIM" => (StringFn::Trim, 1, 1),
            "SUBSTRING" => (StringFn::Substring, 3, 3),
            "LEFT" => (StringFn::Left, 2, 2),
            "RIGHT" => (StringFn::Right, 2, 2),
            "CHARINDEX" => (StringFn::CharIndex(any), 2, 3),
            "PATINDEX" => (StringFn::PatIndex(any), 2, 2),
            "REPLACE" => (StringFn::Replace(any), 3, 3),
            "REPLICATE" => (StringFn::Replicate, 2, 2),
            "REVERSE" => (StringFn::Reverse, 1, 1),
            "STUFF" => (StringFn::Stuff, 4, 4),
            "SPACE" => (StringFn::Space, 1, 1),
            "CHAR" => (StringFn::Char, 1, 1),
            "NCHAR" => (StringFn::NChar, 1, 1),
            "ASCII" => (StringFn::Ascii, 1, 1),
            "UNICODE" => (StringFn::Unicode, 1, 1),
            "QUOTENAME" => (StringFn::QuoteName, 1, 2),
            "CONCAT" => (StringFn::Concat, 2, 254),
            "CONCAT_WS" => (StringFn::ConcatWs, 3, 254),
            "STR" => (StringFn::Str, 1, 3),
            "FORMAT" => (StringFn::Format, 2, 3),
            _ => return None,
        };
        Some(
            self.arguments_between(name, args, min, max)
                .and_then(|bound| self.bind_string(function, bound)),
        )
    }

    fn bind_string(&self, function: StringFn, mut args: Vec<Scalar>) -> SqlResult<Scalar> {
        use StringFn as F;
        let function = match function {
            F::CharIndex(_) | F::PatIndex(_) | F::Replace(_) => {
                // Text arguments first, so the collation is theirs.
                for position in 0..args.len().min(3) {
                    if !(matches!(function, F::CharIndex(_)) && position == 2) {
                        self.text_at(&mut args, position)?;
                    }
                }
                let common = ops::common_type(&args[0].data_type, &args[1].data_type)?;
                let collation = common.collation().unwrap_or(self.collation);
                match function {
                    F::CharIndex(_) => F::CharIndex(collation),
                    F::PatIndex(_) => F::PatIndex(collation),
                    _ => F::Replace(collation),
                }
            }
            other => other,
        };
        let data_type = match function {
            F::Len => {
                self.text_at(&mut args, 0)?;
                position_type(&args[0])
            }
            F::Upper
            | F::Lower
            | F::LTrim
            | F::RTrim
            | F::Trim
            | F::Substring
            | F::Left
            | F::Right
            | F::Reverse => {
                self.text_at(&mut args, 0)?;
                let end = args.len();
                counts(&mut args, 1..end)?;
                if let Some(length) = args.last().filter(|_| end > 1) {
                    constant_length(function, length)?;
                }
                args[0].data_type
            }
            F::CharIndex(_) => {
                let end = args.len();
                counts(&mut args, 2..end)?;
                position_type(&args[1])
            }
            F::PatIndex(_) => position_type(&args[1]),
            F::Replace(_) => self.long_text(&args[..1], &args),
            F::Replicate => {
                self.text_at(&mut args, 0)?;
                counts(&mut args, 1..2)?;
                self.long_text(&args[..1], &args[..1])
            }
            F::Stuff => {
                self.text_at(&mut args, 0)?;
                self.text_at(&mut args, 3)?;
                counts(&mut args, 1..3)?;
                let texts = [args[0].clone(), args[3].clone()];
                self.long_text(&texts, &texts)
            }
            F::Space => {
                counts(&mut args, 0..1)?;
                self.varchar(Length::Bounded(VARCHAR_LIMIT))
            }
            F::Char | F::NChar => {
                let argument = args.remove(0);
                args.push(convert(argument, &DataType::Int)?);
                if function == F::Char {
                    DataType::Char {
                        len: 1,
                        collation: self.collation,
                    }
                } else {
                    DataType::NChar {
                        len: 1,
                        collation: self.collation,
                    }
                }
            }
            F::Ascii | F::Unicode => {
                self.text_at(&mut args, 0)?;
                DataType::Int
            }
            F::QuoteName => {
                for position in 0..args.len() {
                    self.text_at(&mut args, position)?;
                }
                DataType::NVarChar {
                    len: Length::Bounded(258),
                    collation: self.collation,
                }
            }
            F::Concat | F::ConcatWs => self.concatenation(&mut args, function == F::ConcatWs)?,
            F::Str => self.str_arguments(&mut args)?,
            F::Format => {
                let value = &args[0].data_type;
                let formattable = !matches!(
                    value,
                    DataType::Bit
                        | DataType::UniqueIdentifier
                        | DataType::Char { .. }
                        | DataType::VarChar { .. }
                        | DataType::NChar { .. }
                        | DataType::NVarChar { .. }
                        | DataType::Binary { .. }
                        | DataType::VarBinary { .. }
                );
                if !formattable {
                    return Err(invalid_argument(value, 1, "format"));
                }
                for position in 1..args.len() {
                    self.text_at(&mut args, position)?;
                }
                DataType::NVarChar {
                    len: Length::Bounded(NVARCHAR_LIMIT),
                    collation: self.collation,
                }
            }
        };
        Ok(call(Builtin::String(function), args, data_type))
    }

    /// Converts argument `position` to text in place.
    fn text_at(&self, args: &mut [Scalar], position: usize) -> SqlResult<()> {
        let argument = args[position].clone();
        args[position] = as_text(argument, self)?;
        Ok(())
    }

    fn varchar(&self, len: Length) -> DataType {
        DataType::VarChar {
            len,
            collation: self.collation,
        }
    }

    /// The type of a string built from `sources` that may grow up to SQL
    /// Server's 8000-byte limit: nvarchar(4000) if any of `inputs` is
    /// Unicode, else varchar(8000); `max` if a source is.
    fn long_text(&self, sources: &[Scalar], inputs: &[Scalar]) -> DataType {
        let max = sources.iter().any(|s| is_max(&s.data_type));
        let collation = sources
            .first()
            .and_then(|s| s.data_type.collation())
            .unwrap_or(self.collation);
        if inputs.iter().any(|s| is_unicode(&s.data_type)) {
            DataType::NVarChar {
                len: if max {
                    Length::Max
                } else {
                    Length::Bounded(NVARCHAR_LIMIT)
                },
                collation,
            }
        } else {
            DataType::VarChar {
                len: if max {
                    Length::Max
                } else {
                    Length::Bounded(VARCHAR_LIMIT)
                },
                collation,
            }
        }
    }

    /// CONCAT and CONCAT_WS: every argument becomes text; the result is as
    /// long as all of them (and the separators) together, nvarchar if one
    /// is, `max` past the bounded limit.
    fn concatenation(&self, args: &mut [Scalar], separated: bool) -> SqlResult<DataType> {
        for position in 0..args.len() {
            self.text_at(args, position)?;
        }
        let unicode = args.iter().any(|a| is_unicode(&a.data_type));
        let length = |a: &Scalar| match text_length(&a.data_type) {
            Length::Bounded(n) => Some(u64::from(n)),
            Length::Max => None,
        };
        let total = if separated {
            let separator = length(&args[0]);
            let values: Option<u64> = args[1..].iter().map(length).sum();
            values
                .zip(separator)
                .map(|(values, separator)| values + separator * (args.len() as u64 - 2))
        } else {
            args.iter().map(length).sum()
        };
        let limit = if unicode {
            NVARCHAR_LIMIT
        } else {
            VARCHAR_LIMIT
        };
        let len = match total {
            Some(n) if n <= u64::from(limit) => Length::Bounded(n.max(1) as u32),
            _ => Length::Max,
        };
        Ok(if unicode {
            DataType::NVarChar {
                len,
                collation: self.collation,
            }
        } else {
            self.varchar(len)
        })
    }

    /// `STR(float [, length [, decimals]])`: varchar(length) when the
    /// length is a constant (10 when omitted).
    fn str_arguments(&self, args: &mut [Scalar]) -> SqlResult<DataType> {
        let end = args.len();
        convert_range(args, 0..1, &DataType::Float)?;
        convert_range(args, 1..end, &DataType::Int)?;
        let len = match args.get(1).map(constant) {
            None => 10,
            Some(Some(Value::Int(n))) if (1..=8000).contains(&n) => n as u32,
            _ => VARCHAR_LIMIT,
        };
        Ok(self.varchar(Length::Bounded(len)))
    }
}

/// A negative constant length for SUBSTRING, LEFT or RIGHT is refused
/// while compiling (Msg 536); one that turns negative as the query runs
/// is the evaluator's Msg 537 (536 for RIGHT).
fn constant_length(function: StringFn, length: &Scalar) -> SqlResult<()> {
    let (name, state) = match function {
        StringFn::Substring => ("substring", 8),
        StringFn::Left => ("left", 6),
        StringFn::Right => ("right", 6),
        _ => return Ok(()),
    };
    match constant(length).and_then(|v| v.as_i64()) {
        Some(n) if n < 0 => Err(SqlError::new(
            536,
            16,
            state,
            format!("Invalid length parameter passed to the {name} function."),
        )),
        _ => Ok(()),
    }
}

/// Converts the arguments in `range` to bigint (lengths, counts, starts).
fn counts(args: &mut [Scalar], range: std::ops::Range<usize>) -> SqlResult<()> {
    convert_range(args, range, &DataType::BigInt)
}

/// Converts the arguments in `range` to `target`.
fn convert_range(
    args: &mut [Scalar],
    range: std::ops::Range<usize>,
    target: &DataType,
) -> SqlResult<()> {
    for argument in &mut args[range] {
        *argument = convert(argument.clone(), target)?;
    }
    Ok(())
}

/// LEN, CHARINDEX and PATINDEX answer bigint for a `max` argument, int
/// otherwise.
fn position_type(searched: &Scalar) -> DataType {
    if is_max(&searched.data_type) {
        DataType::BigInt
    } else {
        DataType::Int
    }
}
