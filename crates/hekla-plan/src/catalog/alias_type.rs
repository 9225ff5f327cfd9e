//! Alias types: `CREATE TYPE [schema.]name FROM base [NULL | NOT NULL]`
//! (created, stored and dropped as every user type is, see
//! [`super::user_type`]). An alias type stands for its system base type
//! wherever a type is written: columns (whose nullability it gives when
//! the column does not say), variables and CAST / CONVERT. A column
//! remembers the alias it was declared with, for `sys.columns` and DROP
//! TYPE (Msg 3732).

use crate::type_names::{self, TypeContext};
use hekla_parser::ast;
use hekla_types::{Collation, DataType, SqlError, SqlResult};

#[derive(Debug)]
pub struct AliasType {
    /// The base type, with the database's default collation.
    pub base: DataType,
    /// `NULL` / `NOT NULL` after the base; NULL when unsaid.
    pub nullable: bool,
}

impl AliasType {
    /// Binds `FROM base [NULL | NOT NULL]`. The base must be a system type
    /// (Msg 222 for an alias or table type, or an unknown name); its
    /// defaults are a declaration's (`varchar` is `varchar(1)`).
    pub fn bind(base: &ast::DataType, nullable: Option<bool>) -> SqlResult<AliasType> {
        let context = TypeContext::Declaration { ordinal: 1 };
        let Some(base_type) = type_names::system(base, Collation::default(), context)? else {
            return Err(SqlError::new(
                222,
                16,
                1,
                format!(
                    "The base type \"{}\" is not a valid base type for the alias data type.",
                    super::sequence::written(&base.name)
                ),
            ));
        };
        Ok(AliasType {
            base: base_type,
            nullable: nullable.unwrap_or(true),
        })
    }

    /// The base type, under `collation` if it is a character type (a
    /// column's COLLATE applies to the base).
    pub fn data_type(&self, collation: Collation) -> DataType {
        match self.base {
            DataType::Char { len, .. } => DataType::Char { len, collation },
            DataType::VarChar { len, .. } => DataType::VarChar { len, collation },
            DataType::NChar { len, .. } => DataType::NChar { len, collation },
            DataType::NVarChar { len, .. } => DataType::NVarChar { len, collation },
            other => other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hekla_types::Length;

    fn alias(text: &str) -> SqlResult<AliasType> {
        let batch = hekla_parser::parse_batch(text).expect("parses");
        match &batch.statements[0].kind {
            ast::StatementKind::CreateAliasType { base, nullable, .. } => {
                AliasType::bind(base, *nullable)
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn bases_are_system_types_with_declaration_defaults() {
        let flag = alias("CREATE TYPE dbo.Flag FROM bit NOT NULL").unwrap();
        assert_eq!((flag.base, flag.nullable), (DataType::Bit, false));
        let code = alias("CREATE TYPE Code FROM varchar").unwrap();
        assert!(code.nullable);
        let latin = Collation::from_name("Latin1_General_BIN2").unwrap();
        assert_eq!(
            code.data_type(latin),
            DataType::VarChar {
                len: Length::Bounded(1),
                collation: latin
            }
        );
        assert_eq!(
            alias("CREATE TYPE n FROM dbo.Flag").unwrap_err().number,
            222
        );
        assert_eq!(alias("CREATE TYPE n FROM int(4)").unwrap_err().number, 2716);
    }
}
