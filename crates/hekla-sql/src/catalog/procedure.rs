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

use super::store::{ObjectType, StoredObject};
use super::{stored_object, Catalog};
use crate::ast::{self, ModuleOption, StatementKind};
use crate::bind::types::{self, TypeContext};
use crate::exec::not_yet;
use crate::session::SqlDatabase;
use hekla_engine::{IsolationLevel, SchemaId};
use hekla_types::{Collation, DataType, SqlError, SqlResult};
use std::collections::BTreeMap;
use std::sync::Arc;

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
    /// A READONLY table-valued parameter of this table type.
    Table(ast::ObjectName),
}

impl ProcedureMeta {
    /// The procedure a stored definition describes.
    pub fn restore(object: &StoredObject) -> SqlResult<ProcedureMeta> {
        let create = parse_definition(&object.definition)?;
        Ok(ProcedureMeta {
            object_id: object.object_id,
            schema_id: object.schema_id,
            name: object.name.clone(),
            parameters: parameters(&create.params, "CREATE PROCEDURE")?,
            native: is_native(&create),
            schemabinding: has_option(&create, ModuleOption::SchemaBinding),
            body: create.body,
            definition: object.definition.clone(),
            created_ms: object.created_ms,
            modified_ms: object.modified_ms,
        })
    }

    /// The name errors show: `schema.name` as SQL Server prints it in
    /// "Procedure ..." is the bare name.
    pub fn display_name(&self) -> &str {
        &self.name
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
#[derive(Debug, Default)]
pub struct Procedures {
    by_id: BTreeMap<i32, Arc<ProcedureMeta>>,
}

impl Procedures {
    pub fn get(&self, schema: SchemaId, name: &str) -> Option<&Arc<ProcedureMeta>> {
        self.by_id
            .values()
            .find(|p| p.schema_id == schema && p.name.eq_ignore_ascii_case(name))
    }

    pub fn by_id(&self, object_id: i32) -> Option<&Arc<ProcedureMeta>> {
        self.by_id.get(&object_id)
    }

    pub fn iter(&self) -> impl Iterator<Item = &Arc<ProcedureMeta>> {
        self.by_id.values()
    }

    pub fn insert(&mut self, procedure: ProcedureMeta) {
        self.by_id.insert(procedure.object_id, Arc::new(procedure));
    }

    pub fn remove(&mut self, object_id: i32) -> Option<Arc<ProcedureMeta>> {
        self.by_id.remove(&object_id)
    }
}

/// CREATE, ALTER and CREATE OR ALTER PROCEDURE.
pub fn create(db: &SqlDatabase, create: &ast::CreateProcedure, text: &str) -> SqlResult<()> {
    if create.name.database().is_some() {
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
    let parameters = parameters(&create.params, "CREATE PROCEDURE")?;
    let name = create.name.name().value.clone();
    let mut catalog = db.catalog_mut();
    let schema_id = catalog.schema_of(&create.name)?;
    let existing = catalog.procedures.get(schema_id, &name).cloned();
    match &existing {
        Some(_) if create.alter || create.or_alter => {}
        Some(_) => return Err(hekla_engine::errors::object_exists(&name)),
        None if create.alter => {
            return Err(SqlError::new(
                208,
                16,
                3,
                format!(
                    "Invalid object name '{}'.",
                    super::sequence::written(&create.name)
                ),
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
    let now = super::store::now_ms();
    let (object_id, created_ms) = match &existing {
        Some(procedure) => (procedure.object_id, procedure.created_ms),
        None => (catalog.allocate_object_id()?, now),
    };
    let mut object = stored_object(
        object_id,
        schema_id,
        &name,
        ObjectType::Procedure,
        None,
        &definition,
    );
    object.created_ms = created_ms;
    // The body's spans must point into the stored text.
    let body = parse_definition(&definition)?.body;
    let mut tx = db.engine().begin(IsolationLevel::Snapshot)?;
    if existing.is_some() {
        db.object_store().delete(&mut tx, object_id)?;
    }
    db.object_store().insert(&mut tx, &object)?;
    tx.commit()?;
    catalog.bindings.set(object_id, references);
    catalog.procedures.insert(ProcedureMeta {
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
    });
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
            return Err(SqlError::new(
                3701,
                11,
                5,
                format!(
                    "Cannot drop the procedure '{}', because it does not exist or you do not have permission.",
                    super::sequence::written(name)
                ),
            ));
        };
        let mut tx = db.engine().begin(IsolationLevel::Snapshot)?;
        db.object_store().delete(&mut tx, procedure.object_id)?;
        tx.commit()?;
        catalog.procedures.remove(procedure.object_id);
        catalog.bindings.remove(procedure.object_id);
    }
    Ok(())
}

/// The procedure `name` names (schema dbo when it has none).
pub fn find<'c>(catalog: &'c Catalog, name: &ast::ObjectName) -> Option<&'c Arc<ProcedureMeta>> {
    if name.database().is_some_and(|db| {
        !db.value
            .eq_ignore_ascii_case(crate::system_views::DATABASE_NAME)
    }) {
        return None;
    }
    let schema = name.schema().map_or("dbo", |s| s.value.as_str());
    let schema_id = catalog.schema_id(schema)?;
    catalog.procedures.get(schema_id, &name.name().value)
}

fn parse_definition(definition: &str) -> SqlResult<ast::CreateProcedure> {
    let parsed = crate::parse_batch(definition)
        .map_err(|error| SqlError::new(error.number, error.level, error.state, error.message))?;
    match parsed.statements.into_iter().next().map(|s| s.kind) {
        Some(StatementKind::CreateProcedure(create)) => Ok(*create),
        _ => Err(SqlError::new(
            3417,
            21,
            1,
            "A stored procedure definition does not parse as CREATE PROCEDURE.",
        )),
    }
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
        return Err(not_yet("NATIVE_COMPILATION without SCHEMABINDING"));
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
                return Err(SqlError::new(
                    134,
                    15,
                    1,
                    format!("The variable name '@{}' has already been declared. Variable names must be unique within a query batch or stored procedure.", param.name),
                ));
            }
            seen.push(&param.name);
            let kind = if param.readonly {
                ParameterKind::Table(param.data_type.name.clone())
            } else {
                ParameterKind::Scalar(types::resolve(
                    &param.data_type,
                    Collation::default(),
                    TypeContext::Declaration {
                        ordinal: ordinal + 1,
                    },
                )?)
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
    use crate::lexer::TokenKind;
    let Ok(tokens) = crate::lexer::tokenize(text) else {
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
