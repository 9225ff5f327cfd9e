//! System functions: NEWID, HASHBYTES, CHECKSUM, BINARY_CHECKSUM,
//! ISNUMERIC, ISDATE and DATALENGTH.

use super::{as_text, call, invalid_argument, is_max, is_text, null_of, Builtin};
use crate::bind::expr::{is_untyped_null, Binder, Scalar, ScalarKind};
use hekla_parser::ast;
use hekla_types::{DataType, Length, SqlResult};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MiscFn {
    NewId,
    HashBytes,
    /// CHECKSUM folds case the way the default collation compares;
    /// BINARY_CHECKSUM does not.
    Checksum {
        binary: bool,
    },
    IsNumeric,
    IsDate,
    /// The argument's type decides how its bytes are counted.
    DataLength(DataType),
}

impl MiscFn {
    /// The function's name, lowercase.
    pub fn name(self) -> &'static str {
        match self {
            MiscFn::NewId => "newid",
            MiscFn::HashBytes => "hashbytes",
            MiscFn::Checksum { binary: false } => "checksum",
            MiscFn::Checksum { binary: true } => "binary_checksum",
            MiscFn::IsNumeric => "isnumeric",
            MiscFn::IsDate => "isdate",
            MiscFn::DataLength(_) => "datalength",
        }
    }
}

impl Binder<'_> {
    pub(super) fn misc_function(
        &self,
        name: &str,
        args: &[ast::Expr],
    ) -> Option<SqlResult<Scalar>> {
        let (function, min, max) = match name {
            "NEWID" => (MiscFn::NewId, 0, 0),
            "HASHBYTES" => (MiscFn::HashBytes, 2, 2),
            "CHECKSUM" => (MiscFn::Checksum { binary: false }, 1, 4096),
            "BINARY_CHECKSUM" => (MiscFn::Checksum { binary: true }, 1, 4096),
            "ISNUMERIC" => (MiscFn::IsNumeric, 1, 1),
            "ISDATE" => (MiscFn::IsDate, 1, 1),
            "DATALENGTH" => (MiscFn::DataLength(DataType::Int), 1, 1),
            _ => return None,
        };
        Some(
            self.arguments_between(name, args, min, max)
                .and_then(|bound| self.bind_misc(function, &name.to_ascii_lowercase(), bound)),
        )
    }

    fn bind_misc(&self, function: MiscFn, name: &str, mut args: Vec<Scalar>) -> SqlResult<Scalar> {
        use DataType as T;
        let (function, data_type) = match function {
            MiscFn::NewId => (function, T::UniqueIdentifier),
            MiscFn::HashBytes => {
                let algorithm = as_text(args.remove(0), self)?;
                let input = args.remove(0);
                let input = match input.data_type {
                    _ if is_untyped_null(&input) => null_of(T::VarBinary { len: Length::Max }),
                    T::Binary { .. } | T::VarBinary { .. } => input,
                    // Bytes as the string type stores them: Windows-1252
                    // for varchar, UTF-16LE for nvarchar.
                    t if is_text(&t) => Scalar {
                        kind: ScalarKind::Convert {
                            operand: Box::new(input),
                            style: None,
                            is_try: false,
                        },
                        data_type: T::VarBinary { len: Length::Max },
                    },
                    t => return Err(invalid_argument(&t, 2, name)),
                };
                args = vec![algorithm, input];
                (
                    function,
                    T::VarBinary {
                        len: Length::Bounded(8000),
                    },
                )
            }
            MiscFn::Checksum { .. } | MiscFn::IsNumeric => (function, T::Int),
            MiscFn::IsDate => {
                let value = args.remove(0);
                match value.data_type {
                    T::Date | T::Time { .. } | T::DateTime2 { .. } | T::DateTimeOffset { .. } => {
                        return Err(invalid_argument(&value.data_type, 1, name));
                    }
                    T::DateTime | T::SmallDateTime => args.push(value),
                    _ => args.push(as_text(value, self)?),
                }
                (function, T::Int)
            }
            MiscFn::DataLength(_) => {
                let measured = args[0].data_type;
                let data_type = if is_max(&measured) { T::BigInt } else { T::Int };
                (MiscFn::DataLength(measured), data_type)
            }
        };
        Ok(call(Builtin::Misc(function), args, data_type))
    }
}
