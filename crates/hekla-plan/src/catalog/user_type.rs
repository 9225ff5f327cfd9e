//! User-defined types: alias types (`CREATE TYPE dbo.Flag FROM bit NOT
//! NULL`, [`super::alias_type`]) and table types (`CREATE TYPE dbo.Lines
//! AS TABLE (...)`, [`super::table_type`]); type names resolved against
//! them (columns, variables, CAST); and `DROP TYPE [IF EXISTS]`.
//!
//! Types have a namespace of their own in each schema (a table and a type
//! may share a name): Msg 219 for a name a type has. A one-part name is a
//! system type if one has that name, else a type of dbo, the default
//! schema of every hekla session.
//!
//! Each type's CREATE TYPE text is stored like every object's
//! ([`super::store`]) and bound again at open. Its object id there is also
//! the `user_type_id` hekla reports (SQL Server numbers user types from 257
//! apart from object ids) and a table type's `type_table_object_id`.

use super::alias_type::AliasType;
use super::store::{ObjectType, StoredObject};
use super::table_type::TableType;
use super::Catalog;
use crate::catalog::objects::{schema_object, Objects};
use crate::error::{not_supported_yet, Refused};
use crate::type_names::{self, TypeContext};
use hekla_engine::SchemaId;
use hekla_parser::ast::{self, StatementKind};
use hekla_types::{Collation, DataType, SqlError, SqlResult};
use std::sync::Arc;

/// A user-defined type.
#[derive(Debug)]
pub struct UserType {
    /// Its stored definition's object id, reported as its `user_type_id`.
    pub id: i32,
    pub schema_id: SchemaId,
    pub name: String,
    pub kind: UserTypeKind,
    pub created_ms: i64,
}

#[derive(Debug)]
pub enum UserTypeKind {
    Alias(AliasType),
    Table(TableType),
}

impl UserType {
    /// The definition of a table type.
    pub fn as_table(&self) -> Option<&TableType> {
        match &self.kind {
            UserTypeKind::Table(table) => Some(table),
            UserTypeKind::Alias(_) => None,
        }
    }
}

/// The catalog's user types, by id.
pub type UserTypes = Objects<UserType>;

schema_object!(UserType, id);

/// The user type a written name (`Flag`, `dbo.Flag`) names, if any.
pub fn named<'c>(catalog: &'c Catalog, name: &ast::ObjectName) -> Option<&'c Arc<UserType>> {
    let schema = catalog.named_schema(name)?;
    catalog.types.get(schema, &name.name().value)
}

// ---- type names -------------------------------------------------------------

/// What a type name in a column, variable or CAST stands for.
pub enum Resolved {
    /// A system type, or the one an alias type (`alias`) stands for.
    Scalar {
        data_type: DataType,
        alias: Option<AliasUse>,
    },
    /// A table type: only a DECLARE (and a procedure's parameter) may use
    /// one.
    Table(Arc<UserType>),
}

/// An alias type where a column uses it.
pub struct AliasUse {
    /// The type's `user_type_id`.
    pub id: i32,
    /// Its nullability, a column's when the column does not say.
    pub nullable: bool,
}

impl Resolved {
    /// The scalar type; a table type where one is needed is an unknown
    /// type (Msg 2715 or 243).
    pub fn scalar(self, written: &ast::DataType, context: TypeContext) -> SqlResult<DataType> {
        match self {
            Resolved::Scalar { data_type, .. } => Ok(data_type),
            Resolved::Table(_) => Err(type_names::cannot_find(&written.name, context)),
        }
    }
}

/// Resolves a type name: a system type, else a user type (an alias type
/// with `collation` for a character base). Msg 2715 / 243 for neither,
/// 2716 for arguments on an alias type.
pub fn resolve(
    catalog: &Catalog,
    written: &ast::DataType,
    collation: Collation,
    context: TypeContext,
) -> SqlResult<Resolved> {
    if let Some(data_type) = type_names::system(written, collation, context)? {
        return Ok(Resolved::Scalar {
            data_type,
            alias: None,
        });
    }
    let Some(user_type) = named(catalog, &written.name) else {
        return Err(type_names::cannot_find(&written.name, context));
    };
    match &user_type.kind {
        UserTypeKind::Table(_) => Ok(Resolved::Table(Arc::clone(user_type))),
        UserTypeKind::Alias(_) if !written.args.is_empty() => Err(
            type_names::alias_width_not_allowed(&two_part_name(catalog, user_type), context),
        ),
        UserTypeKind::Alias(alias) => Ok(Resolved::Scalar {
            data_type: alias.data_type(collation),
            alias: Some(AliasUse {
                id: user_type.id,
                nullable: alias.nullable,
            }),
        }),
    }
}

/// `schema.name` of a type, for messages.
pub fn two_part_name(catalog: &Catalog, user_type: &UserType) -> String {
    let schema = catalog.schema_name(user_type.schema_id).unwrap_or("dbo");
    format!("{schema}.{}", user_type.name)
}

// ---- CREATE TYPE ------------------------------------------------------------

/// The name a CREATE TYPE statement defines, and how it is stored.
pub fn defined(statement: &StatementKind) -> Option<(&ast::ObjectName, ObjectType)> {
    match statement {
        StatementKind::CreateAliasType { name, .. } => Some((name, ObjectType::AliasType)),
        StatementKind::CreateTableType(create) => Some((&create.name, ObjectType::TableType)),
        _ => None,
    }
}

/// Binds a CREATE TYPE statement for the type with object id `id`.
pub fn bind(catalog: &Catalog, statement: &StatementKind, id: i32) -> SqlResult<UserTypeKind> {
    match statement {
        StatementKind::CreateAliasType { base, nullable, .. } => {
            Ok(UserTypeKind::Alias(AliasType::bind(base, *nullable)?))
        }
        StatementKind::CreateTableType(create) => {
            Ok(UserTypeKind::Table(TableType::bind(catalog, create, id)?))
        }
        _ => Err(not_supported_yet(Refused::Statement, statement.keywords())),
    }
}

/// Binds a stored CREATE TYPE again at open (the types it uses, made
/// before it, are back already).
pub fn restore(catalog: &Catalog, object: &StoredObject) -> SqlResult<UserType> {
    let damaged = |why: &str| {
        SqlError::new(
            3414,
            21,
            1,
            format!(
                "The stored definition of type {} cannot be restored: {why}.",
                object.object_id
            ),
        )
    };
    let batch = hekla_parser::parse_batch(&object.definition).map_err(|e| damaged(&e.message))?;
    let statement = batch
        .statements
        .first()
        .map(|s| &s.kind)
        .filter(|&kind| defined(kind).is_some())
        .ok_or_else(|| damaged("it is not a CREATE TYPE"))?;
    let kind = bind(catalog, statement, object.object_id)?;
    Ok(UserType {
        id: object.object_id,
        schema_id: object.schema_id,
        name: object.name.clone(),
        kind,
        created_ms: object.created_ms,
    })
}

// ---- DROP TYPE --------------------------------------------------------------
