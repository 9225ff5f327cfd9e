//! Type names in T-SQL (`int`, `decimal(18, 2)`, `nvarchar(max)`,
//! `float(24)`, `sysname`) to engine [`DataType`]s, with SQL Server's
//! defaults and its errors for unknown types and bad arguments.

use hekla_parser::ast::{self, TypeArg};
use hekla_types::{Collation, DataType, Length, SqlError, SqlResult};

/// Where a type is being resolved: SQL Server's defaults differ (a bare
/// `varchar` is `varchar(1)` in a declaration, `varchar(30)` in CAST).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TypeContext {
    /// A column, parameter or variable: the 1-based ordinal goes into
    /// messages ("Column, parameter, or variable #2: ...").
    Declaration { ordinal: usize },
    /// CAST / CONVERT.
    Conversion,
}

/// Resolves a built-in type name; alias and table types are the catalog's
/// business (`catalog::user_type::resolve`) and come back as Msg 2715 here.
pub fn resolve(
    data_type: &ast::DataType,
    collation: Collation,
    context: TypeContext,
) -> SqlResult<DataType> {
    system(data_type, collation, context)?.ok_or_else(|| cannot_find(&data_type.name, context))
}

/// Resolves a built-in type name: None when the name is no system type
/// (it may be a user type), an error when it is one but its arguments
/// are wrong.
pub fn system(
    data_type: &ast::DataType,
    collation: Collation,
    context: TypeContext,
) -> SqlResult<Option<DataType>> {
    let name = &data_type.name;
    let type_name = name.name().value.to_ascii_lowercase();
    let in_sys = name
        .schema()
        .is_none_or(|schema| schema.value.eq_ignore_ascii_case("sys"));
    if name.parts.len() > 2 || !in_sys {
        return Ok(None);
    }
    let args = &data_type.args;
    let numbers: Vec<Option<u64>> = args
        .iter()
        .map(|arg| match arg {
            TypeArg::Number(n) => Some(*n),
            TypeArg::Max => None,
        })
        .collect();
    let no_args = |t: DataType| {
        if args.is_empty() {
            Ok(t)
        } else {
            Err(width_not_allowed(&type_name, context))
        }
    };
    let resolved = match type_name.as_str() {
        "bit" => no_args(DataType::Bit)?,
        "tinyint" => no_args(DataType::TinyInt)?,
        "smallint" => no_args(DataType::SmallInt)?,
        "int" | "integer" => no_args(DataType::Int)?,
        "bigint" => no_args(DataType::BigInt)?,
        "money" => no_args(DataType::Money)?,
        "smallmoney" => no_args(DataType::SmallMoney)?,
        "real" => no_args(DataType::Real)?,
        "date" => no_args(DataType::Date)?,
        "datetime" => no_args(DataType::DateTime)?,
        "smalldatetime" => no_args(DataType::SmallDateTime)?,
        "uniqueidentifier" => no_args(DataType::UniqueIdentifier)?,
        "sysname" => no_args(DataType::NVarChar {
            len: Length::Bounded(128),
            collation,
        })?,
        "decimal" | "numeric" | "dec" => {
            let precision = small_arg(&numbers, 0, 18, &type_name)?;
            let scale = small_arg(&numbers, 1, 0, &type_name)?;
            at_most_args(&numbers, 2, &type_name, context)?;
            DataType::Decimal { precision, scale }
        }
        "float" => {
            at_most_args(&numbers, 1, &type_name, context)?;
            let bits = small_arg(&numbers, 0, 53, &type_name)?;
            match bits {
                1..=24 => DataType::Real,
                25..=53 => DataType::Float,
                _ => return Err(float_precision(bits)),
            }
        }
        "time" | "datetime2" | "datetimeoffset" => {
            at_most_args(&numbers, 1, &type_name, context)?;
            let scale = small_arg(&numbers, 0, 7, &type_name)?;
            match type_name.as_str() {
                "time" => DataType::Time { scale },
                "datetime2" => DataType::DateTime2 { scale },
                _ => DataType::DateTimeOffset { scale },
            }
        }
        "char" | "character" | "nchar" | "binary" => {
            at_most_args(&numbers, 1, &type_name, context)?;
            let len = match numbers.first() {
                None => default_length(context),
                Some(Some(n)) => length(*n),
                Some(None) => return Err(max_not_allowed(&type_name)),
            };
            match type_name.as_str() {
                "nchar" => DataType::NChar { len, collation },
                "binary" => DataType::Binary { len },
                _ => DataType::Char { len, collation },
            }
        }
        "varchar" | "nvarchar" | "varbinary" => {
            at_most_args(&numbers, 1, &type_name, context)?;
            let len = match numbers.first() {
                None => Length::Bounded(default_length(context)),
                Some(Some(n)) => Length::Bounded(length(*n)),
                Some(None) => Length::Max,
            };
            match type_name.as_str() {
                "varchar" => DataType::VarChar { len, collation },
                "nvarchar" => DataType::NVarChar { len, collation },
                _ => DataType::VarBinary { len },
            }
        }
        "text" | "ntext" | "image" | "xml" | "sql_variant" | "timestamp" | "rowversion"
        | "geography" | "geometry" | "hierarchyid" | "cursor" => {
            return Err(SqlError::new(
                10794,
                16,
                1,
                format!("The type '{type_name}' is not supported with memory optimized tables."),
            ))
        }
        _ => return Ok(None),
    };
    resolved.validate()?;
    Ok(Some(resolved))
}

/// `varchar` alone: 1 in a declaration, 30 in CAST and CONVERT.
fn default_length(context: TypeContext) -> u32 {
    match context {
        TypeContext::Declaration { .. } => 1,
        TypeContext::Conversion => 30,
    }
}

/// Lengths beyond u32 are cut to a value `validate` rejects with Msg 131.
fn length(n: u64) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// A precision or scale argument; values beyond u8 become 255, which
/// `validate` rejects with SQL Server's message.
fn small_arg(numbers: &[Option<u64>], index: usize, default: u8, type_name: &str) -> SqlResult<u8> {
    match numbers.get(index) {
        None => Ok(default),
        Some(None) => Err(max_not_allowed(type_name)),
        Some(Some(n)) => Ok(u8::try_from(*n).unwrap_or(u8::MAX)),
    }
}

fn at_most_args(
    numbers: &[Option<u64>],
    count: usize,
    type_name: &str,
    context: TypeContext,
) -> SqlResult<()> {
    if numbers.len() > count {
        return Err(width_not_allowed(type_name, context));
    }
    Ok(())
}

fn name_text(name: &ast::ObjectName) -> String {
    name.parts
        .iter()
        .map(|part| part.as_ref().map_or("", |ident| ident.value.as_str()))
        .collect::<Vec<_>>()
        .join(".")
}

fn ordinal_prefix(context: TypeContext) -> String {
    match context {
        TypeContext::Declaration { ordinal } => {
            format!("Column, parameter, or variable #{ordinal}: ")
        }
        TypeContext::Conversion => String::new(),
    }
}

/// Msg 2715 (declarations) / 243 (CAST): an unknown type name.
pub fn cannot_find(name: &ast::ObjectName, context: TypeContext) -> SqlError {
    let name = name_text(name);
    match context {
        TypeContext::Declaration { .. } => SqlError::new(
            2715,
            16,
            6,
            format!("{}Cannot find data type {name}.", ordinal_prefix(context)),
        ),
        TypeContext::Conversion => SqlError::new(
            243,
            16,
            1,
            format!("Type {name} is not a defined system type."),
        ),
    }
}

/// Msg 2716: arguments on a type that takes none (`int(4)`).
fn width_not_allowed(type_name: &str, context: TypeContext) -> SqlError {
    SqlError::new(
        2716,
        16,
        1,
        format!(
            "{}Cannot specify a column width on data type {type_name}.",
            ordinal_prefix(context)
        ),
    )
}

/// Msg 2716 for arguments on an alias type (`dbo.Flag(1)`), which SQL
/// Server raises with state 3 and the type's two-part name.
pub fn alias_width_not_allowed(type_name: &str, context: TypeContext) -> SqlError {
    let mut error = width_not_allowed(type_name, context);
    error.state = 3;
    error
}

/// `max` where only a number is allowed (`char(max)`, `decimal(max)`).
fn max_not_allowed(type_name: &str) -> SqlError {
    SqlError::new(
        102,
        15,
        1,
        format!("Incorrect syntax near 'max'. 'max' is not allowed for type '{type_name}'."),
    )
}

/// Msg 2750 for `float(n)` outside 1..=53.
fn float_precision(bits: u8) -> SqlError {
    SqlError::new(
        2750,
        16,
        1,
        format!("Column or parameter #1: Specified column precision {bits} is greater than the maximum precision of 53."),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use hekla_parser::parse_batch;

    /// Parses `CAST(1 AS <text>)` and resolves its type.
    fn resolve_text(text: &str, context: TypeContext) -> SqlResult<DataType> {
        let batch = parse_batch(&format!("DECLARE @v {text}")).expect("parses");
        let ast::StatementKind::Declare(declarations) = &batch.statements[0].kind else {
            panic!("not a declaration");
        };
        resolve(&declarations[0].data_type, Collation::default(), context)
    }

    fn declared(text: &str) -> SqlResult<DataType> {
        resolve_text(text, TypeContext::Declaration { ordinal: 1 })
    }

    #[test]
    fn built_in_types_and_defaults() {
        let collation = Collation::default();
        assert_eq!(declared("INT").unwrap(), DataType::Int);
        assert_eq!(declared("sys.bigint").unwrap(), DataType::BigInt);
        assert_eq!(
            declared("decimal").unwrap(),
            DataType::Decimal {
                precision: 18,
                scale: 0
            }
        );
        assert_eq!(
            declared("numeric(10, 3)").unwrap(),
            DataType::Decimal {
                precision: 10,
                scale: 3
            }
        );
        assert_eq!(declared("float(24)").unwrap(), DataType::Real);
        assert_eq!(declared("float").unwrap(), DataType::Float);
        assert_eq!(
            declared("datetime2").unwrap(),
            DataType::DateTime2 { scale: 7 }
        );
        assert_eq!(declared("time(3)").unwrap(), DataType::Time { scale: 3 });
        assert_eq!(
            declared("varchar").unwrap(),
            DataType::VarChar {
                len: Length::Bounded(1),
                collation
            }
        );
        assert_eq!(
            resolve_text("varchar", TypeContext::Conversion).unwrap(),
            DataType::VarChar {
                len: Length::Bounded(30),
                collation
            }
        );
        assert_eq!(
            declared("nvarchar(max)").unwrap(),
            DataType::NVarChar {
                len: Length::Max,
                collation
            }
        );
        assert_eq!(
            declared("sysname").unwrap(),
            DataType::NVarChar {
                len: Length::Bounded(128),
                collation
            }
        );
        assert_eq!(
            declared("binary(16)").unwrap(),
            DataType::Binary { len: 16 }
        );
    }

    #[test]
    fn errors_follow_sql_server() {
        let error = declared("Sales.OrderLines").unwrap_err();
        assert_eq!(error.number, 2715);
        assert_eq!(
            error.message,
            "Column, parameter, or variable #1: Cannot find data type Sales.OrderLines."
        );
        assert_eq!(declared("int(4)").unwrap_err().number, 2716);
        assert_eq!(declared("varchar(9000)").unwrap_err().number, 131);
        assert_eq!(declared("nvarchar(4001)").unwrap_err().number, 131);
        assert_eq!(declared("decimal(39, 2)").unwrap_err().number, 2750);
        assert_eq!(declared("float(54)").unwrap_err().number, 2750);
        assert_eq!(declared("char(max)").unwrap_err().number, 102);
        assert_eq!(declared("text").unwrap_err().number, 10794);
        assert_eq!(declared("varchar(0)").unwrap_err().number, 1001);
        assert_eq!(
            resolve_text("frob", TypeContext::Conversion)
                .unwrap_err()
                .number,
            243
        );
    }
}
