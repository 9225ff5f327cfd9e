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
use super::store::{ObjectType, StoredObject};
use super::user_type::{self, Resolved};
use super::Catalog;
use crate::bind::types::TypeContext;
use crate::error::{not_supported_yet, Refused};
use crate::session::SqlDatabase;
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

/// CREATE, ALTER and CREATE OR ALTER PROCEDURE.
pub fn create(db: &SqlDatabase, create: &ast::CreateProcedure, text: &str) -> SqlResult<()> {
    if create.name.written_database().is_some() {
        return Err(SqlError::new(
            166,
            15,
            1,
            "'CREATE/ALTER PROCEDURE' does not allow specifying the database name as a prefix to the object name.",
        ));
    }
    let native = is_native(create);
    if native {
        check_native(create)?;
    }
    let name = create.name.name().value.clone();
    let mut catalog = db.catalog_mut();
    let parameters = parameters(&create.params, "CREATE PROCEDURE", &catalog)?;
    let names = create.params.iter().map(|p| p.name.as_str());
    if let Some((error, _)) = crate::bind::variables::first_redeclaration(names, &create.body) {
        return Err(error);
    }
    let schema_id = catalog.schema_of(&create.name)?;
    let existing = catalog.procedures.get(schema_id, &name).cloned();
    match &existing {
        Some(_) if create.alter || create.or_alter => {}
        Some(_) => return Err(hekla_engine::errors::object_exists(&name)),
        None if create.alter => {
            return Err(crate::error::invalid_object_name(
                &super::sequence::written(&create.name),
                3,
            ))
        }
        None if catalog.object_exists(schema_id, &name) => {
            return Err(hekla_engine::errors::object_exists(&name))
        }
        None => {}
    }
    let schemabinding = has_option(create, ModuleOption::SchemaBinding);
    let references = if schemabinding {
        bound_objects(&catalog, text)
    } else {
        Vec::new()
    };
    let definition = super::view::stored_text(text, create.alter, create.or_alter);
    let name = existing.as_ref().map_or(name, |p| p.name.clone());
    // The body's spans must point into the stored text.
    let body = parse_definition(&definition)?.body;
    let object = super::store_module(
        db,
        &mut catalog,
        existing
            .as_ref()
            .map(|procedure| (procedure.object_id, procedure.created_ms)),
        schema_id,
        &name,
        ObjectType::Procedure,
        &definition,
    )?;
    let (object_id, created_ms) = (object.object_id, object.created_ms);
    catalog.bindings.set(object_id, references);
    let procedure = ProcedureMeta {
        object_id,
        schema_id,
        name,
        parameters,
        body,
        definition,
        native,
        schemabinding,
        created_ms,
        modified_ms: object.modified_ms,
    };
    catalog
        .type_references
        .set(object_id, procedure.table_types());
    catalog.procedures.insert(procedure);
    Ok(())
}

/// DROP PROCEDURE: each name in turn (Msg 3701 for a missing one unless IF
/// EXISTS).
pub fn drop(db: &SqlDatabase, names: &[ast::ObjectName], if_exists: bool) -> SqlResult<()> {
    for name in names {
        let mut catalog = db.catalog_mut();
        let found = find(&catalog, name).cloned();
        let Some(procedure) = found else {
            if if_exists {
                continue;
            }
            return Err(super::cannot_drop(
                "procedure",
                &super::sequence::written(name),
            ));
        };
        super::unstore_object(db, procedure.object_id)?;
        catalog.procedures.remove(procedure.object_id);
        catalog.bindings.remove(procedure.object_id);
        catalog.type_references.remove(procedure.object_id);
    }
    Ok(())
}

/// The procedure `name` names (schema dbo when it has none).
pub fn find<'c>(catalog: &'c Catalog, name: &ast::ObjectName) -> Option<&'c Arc<ProcedureMeta>> {
    let schema_id = catalog.named_schema(name)?;
    catalog.procedures.get(schema_id, &name.name().value)
}

/// The CREATE PROCEDURE of a stored definition (Msg 3414 if it is not one).
fn parse_definition(definition: &str) -> SqlResult<ast::CreateProcedure> {
    super::parse_stored(definition, "a procedure", |kind| match kind {
        StatementKind::CreateProcedure(create) => Some(*create),
        _ => None,
    })
}

fn has_option(create: &ast::CreateProcedure, option: ModuleOption) -> bool {
    create.options.contains(&option)
}

fn is_native(create: &ast::CreateProcedure) -> bool {
    has_option(create, ModuleOption::NativeCompilation)
}

/// What SQL Server requires of a natively compiled procedure.
fn check_native(create: &ast::CreateProcedure) -> SqlResult<()> {
    if !has_option(create, ModuleOption::SchemaBinding) {
        return Err(not_supported_yet(
            Refused::Statement,
            "NATIVE_COMPILATION without SCHEMABINDING",
        ));
    }
    let [ast::Statement {
        kind: StatementKind::AtomicBlock { options, .. },
        ..
    }] = create.body.as_slice()
    else {
        return Err(SqlError::new(
            17083,
            16,
            1,
            "The body of a natively compiled stored procedure must be an ATOMIC block.",
        ));
    };
    for required in ["TRANSACTION ISOLATION LEVEL", "LANGUAGE"] {
        if !options.iter().any(|o| option_name(o) == required) {
            return Err(SqlError::new(
                17084,
                16,
                1,
                format!("The WITH clause of BEGIN ATOMIC statement must specify a value for the option '{required}'."),
            ));
        }
    }
    Ok(())
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

/// The parameters of a CREATE PROCEDURE or CREATE FUNCTION (`statement`).
pub(super) fn parameters(
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
                return Err(crate::bind::variables::already_declared(&param.name));
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
pub(super) fn bound_objects(catalog: &Catalog, text: &str) -> Vec<i32> {
    use hekla_parser::lexer::TokenKind;
    let Ok(tokens) = hekla_parser::lexer::tokenize(text) else {
        return Vec::new();
    };
    let word = |index: usize| -> Option<String> {
        let token = tokens.get(index)?;
        let written = token.span.text(text);
        match token.kind {
            TokenKind::Word if !token.reserved => Some(written.to_string()),
            TokenKind::QuotedIdent => Some(written[1..written.len() - 1].to_string()),
            _ => None,
        }
    };
    let is_dot = |index: usize| tokens.get(index).is_some_and(|t| t.kind == TokenKind::Dot);
    let mut found = Vec::new();
    for index in 0..tokens.len() {
        if !is_dot(index + 1) || index > 0 && is_dot(index - 1) {
            continue;
        }
        let (Some(schema), Some(name)) = (word(index), word(index + 2)) else {
            continue;
        };
        let Some(schema_id) = catalog.schema_id(&schema) else {
            continue;
        };
        found.extend(catalog.bindable(schema_id, &name));
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
