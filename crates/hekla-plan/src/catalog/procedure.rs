//! Stored procedures: `CREATE [OR ALTER] PROCEDURE`, `ALTER PROCEDURE`,
//! `DROP PROCEDURE [IF EXISTS]`.
//!
//! A procedure is its definition: the CREATE text is stored like every
//! object's ([`super::store`]) and parsed again at open. Its statements
//! are bound when they run, as SQL Server's deferred name resolution does
//! for interpreted procedures (a missing table is an error of the call,
//! not of the CREATE).
//!
//! `WITH NATIVE_COMPILATION, SCHEMABINDING` procedures must consist of one
//! `BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = ..., LANGUAGE = ...)`
//! block (Msg 17083, 17084); the tables they name (two-part names) are
//! bound to them, so they cannot be dropped or altered while the
//! procedure exists (Msg 3729).

use super::objects::{schema_object, Objects};
use super::store::StoredObject;
use super::user_type::{self, Resolved};
use super::Catalog;
use crate::type_names::TypeContext;
use hekla_engine::SchemaId;
use hekla_parser::ast::{self, ModuleOption, StatementKind};
use hekla_types::{Collation, DataType, SqlError, SqlResult};
use std::sync::Arc;

/// The object id of dynamic SQL, which is no object.
const DYNAMIC_SQL: i32 = 0;

/// Most parameters a procedure may have (SQL Server's limit).
pub const MAX_PARAMETERS: usize = 2100;

#[derive(Debug)]
pub struct ProcedureMeta {
    pub object_id: i32,
    pub schema_id: SchemaId,
    pub name: String,
    pub parameters: Vec<ParameterMeta>,
    /// The statements of its body; their spans point into `definition`.
    pub body: Vec<ast::Statement>,
    /// The CREATE PROCEDURE text as `sys.sql_modules` shows it.
    pub definition: String,
    pub native: bool,
    pub schemabinding: bool,
    pub created_ms: i64,
    pub modified_ms: i64,
}

#[derive(Debug)]
pub struct ParameterMeta {
    /// Without the `@`.
    pub name: String,
    pub kind: ParameterKind,
    pub default: Option<ast::Expr>,
    pub output: bool,
    /// `NOT NULL` (natively compiled procedures).
    pub not_null: bool,
}

#[derive(Debug)]
pub enum ParameterKind {
    Scalar(DataType),
    /// A READONLY table-valued parameter of the table type with this id.
    Table(i32),
}

impl ProcedureMeta {
    /// The procedure a stored definition describes.
    pub fn restore(object: &StoredObject, catalog: &Catalog) -> SqlResult<ProcedureMeta> {
        let create = parse_definition(&object.definition)?;
        Ok(ProcedureMeta {
            object_id: object.object_id,
            schema_id: object.schema_id,
            name: object.name.clone(),
            parameters: parameters(&create.params, "CREATE PROCEDURE", catalog)?,
            native: is_native(&create),
            schemabinding: has_option(&create, ModuleOption::SchemaBinding),
            body: create.body,
            definition: object.definition.clone(),
            created_ms: object.created_ms,
            modified_ms: object.modified_ms,
        })
    }

    /// Dynamic SQL (`EXEC ('...')`, `sp_executesql`) run like a
    /// procedure without a name: `text` is its body, `parameters` the
    /// parameter list `sp_executesql` was given.
    pub fn dynamic(text: &str, parameters: &str, catalog: &Catalog) -> SqlResult<ProcedureMeta> {
        let batch = hekla_parser::parse_batch(text).map_err(|error| {
            SqlError::new(error.number, error.level, error.state, error.message)
        })?;
        let declared = if parameters.trim().is_empty() {
            Vec::new()
        } else {
            let header = format!("CREATE PROCEDURE sp_executesql {parameters} AS RETURN");
            let create = parse_definition(&header).map_err(|_| {
                SqlError::new(
                    214,
                    16,
                    3,
                    "Procedure expects parameter '@params' of type 'ntext/nchar/nvarchar'.",
                )
            })?;
            self::parameters(&create.params, "sp_executesql", catalog)?
        };
        Ok(ProcedureMeta {
            object_id: DYNAMIC_SQL,
            schema_id: 0,
            // How SQL Server names a parameterized query in its errors.
            name: format!("({parameters}){text}"),
            parameters: declared,
            body: batch.statements,
            definition: text.to_string(),
            native: false,
            schemabinding: false,
            created_ms: 0,
            modified_ms: 0,
        })
    }

    /// A batch's statements, parsed from `text`, run like dynamic SQL
    /// without parameters (the plan cache holds it).
    pub fn batch(text: String, body: Vec<ast::Statement>) -> ProcedureMeta {
        ProcedureMeta {
            object_id: DYNAMIC_SQL,
            schema_id: 0,
            name: String::new(),
            parameters: Vec::new(),
            body,
            definition: text,
            native: false,
            schemabinding: false,
            created_ms: 0,
            modified_ms: 0,
        }
    }

    /// The name errors raised in it show ("Procedure p, Line 3"); none for
    /// dynamic SQL.
    pub fn shown_name(&self) -> Option<String> {
        (!self.is_dynamic()).then(|| self.name.clone())
    }

    pub fn is_dynamic(&self) -> bool {
        self.object_id == DYNAMIC_SQL
    }

    /// The table types of its table-valued parameters, which cannot be
    /// dropped while it exists.
    pub fn table_types(&self) -> Vec<i32> {
        self.parameters
            .iter()
            .filter_map(|p| match p.kind {
                ParameterKind::Table(type_id) => Some(type_id),
                ParameterKind::Scalar(_) => None,
            })
            .collect()
    }

    /// The atomic block of a natively compiled procedure: its options and
    /// statements.
    pub fn atomic_block(&self) -> Option<(&[ast::OptionItem], &[ast::Statement])> {
        match self.body.as_slice() {
            [ast::Statement {
                kind: StatementKind::AtomicBlock { options, body },
                ..
            }] => Some((options, body)),
            _ => None,
        }
    }
}

/// The procedures of a database, by object id.
pub type Procedures = Objects<ProcedureMeta>;

schema_object!(ProcedureMeta, object_id);

/// The procedure `name` names (schema dbo when it has none).
pub fn find<'c>(catalog: &'c Catalog, name: &ast::ObjectName) -> Option<&'c Arc<ProcedureMeta>> {
    let schema_id = catalog.named_schema(name)?;
    catalog.procedures.get(schema_id, &name.name().value)
}

/// The CREATE PROCEDURE of a stored definition (Msg 3414 if it is not one).
pub fn parse_definition(definition: &str) -> SqlResult<ast::CreateProcedure> {
    super::parse_stored(definition, "a procedure", |kind| match kind {
        StatementKind::CreateProcedure(create) => Some(*create),
        _ => None,
    })
}

pub fn has_option(create: &ast::CreateProcedure, option: ModuleOption) -> bool {
    create.options.contains(&option)
}

/// An option's name words, upper case, joined by spaces.
pub fn option_name(option: &ast::OptionItem) -> String {
    option
        .name
        .iter()
        .map(|word| word.value.to_ascii_uppercase())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether `option` is `name` (upper-case words joined by spaces), in any
/// case: what `option_name(option) == name` tells, without allocating
/// (an ATOMIC block's options are looked up on every call).
pub fn is_option(option: &ast::OptionItem, name: &str) -> bool {
    let mut words = name.split(' ');
    option.name.iter().all(|word| {
        words
            .next()
            .is_some_and(|w| word.value.eq_ignore_ascii_case(w))
    }) && words.next().is_none()
}

/// The parameters of a CREATE PROCEDURE or CREATE FUNCTION (`statement`).
pub fn parameters(
    params: &[ast::Parameter],
    statement: &str,
    catalog: &Catalog,
) -> SqlResult<Vec<ParameterMeta>> {
    if params.len() > MAX_PARAMETERS {
        return Err(SqlError::new(
            180,
            15,
            1,
            format!(
                "There are too many parameters in this {statement} statement. The maximum number is {MAX_PARAMETERS}."
            ),
        ));
    }
    let mut seen: Vec<&str> = Vec::new();
    params
        .iter()
        .enumerate()
        .map(|(ordinal, param)| {
            if seen.iter().any(|s| s.eq_ignore_ascii_case(&param.name)) {
                return Err(crate::error::already_declared(&param.name));
            }
            seen.push(&param.name);
            let context = TypeContext::Declaration {
                ordinal: ordinal + 1,
            };
            let resolved =
                user_type::resolve(catalog, &param.data_type, Collation::default(), context)?;
            let kind = match resolved {
                Resolved::Table(table_type) if param.readonly => ParameterKind::Table(table_type.id),
                Resolved::Table(_) => {
                    return Err(SqlError::new(
                        352,
                        15,
                        1,
                        format!("The table-valued parameter \"@{}\" must be declared with the READONLY option.", param.name),
                    ))
                }
                Resolved::Scalar { .. } if param.readonly => {
                    return Err(SqlError::new(
                        346,
                        15,
                        1,
                        format!("The parameter \"@{}\" can not be declared READONLY since it is not a table-valued parameter.", param.name),
                    ))
                }
                scalar => ParameterKind::Scalar(scalar.scalar(&param.data_type, context)?),
            };
            Ok(ParameterMeta {
                name: param.name.clone(),
                kind,
                default: param.default.clone(),
                output: param.output,
                not_null: param.nullable == Some(false),
            })
        })
        .collect()
}

/// The objects a schema-bound procedure or function names with two-part
/// names: every `schema.name` in its text that is a table, view or
/// function. (SQL Server binds the module's statements; scanning the
/// tokens finds the same objects without binding statements whose
/// variables are not declared until the module runs.)
pub fn bound_objects(catalog: &Catalog, text: &str) -> Vec<i32> {
    use hekla_parser::lexer::TokenKind;
    let Ok(tokens) = hekla_parser::lexer::tokenize(text) else {
        return Vec::new();
    };
    let word = |index: usize| super::dependency::identifier(tokens.get(index)?, text);
    let is_dot = |index: usize| tokens.get(index).is_some_and(|t| t.kind == TokenKind::Dot);
    let mut found = Vec::new();
    for index in 0..tokens.len() {
        if !is_dot(index + 1) || index > 0 && is_dot(index - 1) {
            continue;
        }
        let (Some(schema), Some(name)) = (word(index), word(index + 2)) else {
            continue;
        };
        let Some(schema_id) = catalog.schema_id(schema) else {
            continue;
        };
        found.extend(catalog.bindable(schema_id, name));
    }
    found
}

/// Records again, after an open, what each schema-bound procedure is
/// bound to (bindings are not stored).
pub fn bind_restored(catalog: &mut Catalog) {
    let bound: Vec<(i32, Vec<i32>)> = catalog
        .procedures
        .iter()
        .filter(|p| p.schemabinding)
        .map(|p| (p.object_id, bound_objects(catalog, &p.definition)))
        .collect();
    for (object_id, references) in bound {
        catalog.bindings.set(object_id, references);
    }
}

pub fn is_native(create: &ast::CreateProcedure) -> bool {
    has_option(create, ModuleOption::NativeCompilation)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_option_is_its_name_words_in_any_case() {
        let option = |words: &[&str]| ast::OptionItem {
            name: words
                .iter()
                .map(|w| ast::Ident {
                    value: w.to_string(),
                    span: hekla_parser::span::Span::default(),
                })
                .collect(),
            value: None,
            span: hekla_parser::span::Span::default(),
        };
        let isolation = option(&["Transaction", "isolation", "LEVEL"]);
        assert!(is_option(&isolation, "TRANSACTION ISOLATION LEVEL"));
        assert_eq!(option_name(&isolation), "TRANSACTION ISOLATION LEVEL");
        assert!(!is_option(&isolation, "TRANSACTION ISOLATION"));
        assert!(!is_option(&isolation, "TRANSACTION ISOLATION LEVEL X"));
        assert!(!is_option(&option(&["LANGUAGE"]), "DELAYED_DURABILITY"));
        assert!(is_option(
            &option(&["delayed_durability"]),
            "DELAYED_DURABILITY"
        ));
    }
}
