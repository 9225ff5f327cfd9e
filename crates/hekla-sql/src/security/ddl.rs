//! What a statement needs beyond the objects it reads and changes (the
//! planner checks those, see [`super::access`]): CREATE permissions,
//! ALTER on the object a DDL statement changes or drops, and the
//! database-level rights of CHECKPOINT, DBCC and ALTER DATABASE.
//!
//! Every statement kind is listed, so that a new one has to say what it
//! needs. Refusals use SQL Server's numbers: 262 for a CREATE (or
//! CHECKPOINT) the user may not run, 2760 for a schema it may not create
//! in, and for an existing object the error SQL Server gives when the
//! object cannot be found (3701, 4902, 1088, 4701, 15151), which does not
//! tell the user whether it exists.

use super::access::Checks;
use super::context::SecurityContext;
use super::messages;
use super::permissions::fixed_role;
use super::securables;
use super::Identity;
use hekla_parser::ast::{self, DropType, StatementKind};
use hekla_plan::catalog::temp::is_temp;
use hekla_plan::error::no_table;
use hekla_plan::names::DATABASE_NAME;
use hekla_plan::permission::Access;
use hekla_plan::permission::Permission;
use hekla_types::{SqlError, SqlResult};

/// Checks that the session of `identity` may run a statement of `kind`
/// (with `access` its checks; nothing to check without).
pub fn check(
    db: &dyn SecurityContext,
    identity: &Identity,
    access: Option<&Access>,
    kind: &StatementKind,
) -> SqlResult<()> {
    let Some(access) = access else {
        return Ok(());
    };
    let rules = Rules { db, access };
    use StatementKind as S;
    match kind {
        S::Select(select) => match select.into_target() {
            Some(target) if !is_temp(target) => rules.create(Permission::CreateTable, target),
            _ => Ok(()),
        },
        S::CreateTable(create) if is_temp(&create.name) => Ok(()),
        S::CreateTable(create) => rules.create(Permission::CreateTable, &create.name),
        S::AlterTable(alter) => rules.alter(&alter.table, || no_table(4902, &alter.table.to_string())),
        S::CreateIndex(create) => {
            rules.alter(&create.table, || no_table(1088, &create.table.to_string()))
        }
        S::CreateStatistics { table, .. } | S::UpdateStatistics { table, .. } => {
            rules.alter(table, || no_table(1088, &table.to_string()))
        }
        S::SetIdentityInsert { table, .. } => rules.alter(table, || no_table(1088, &table.to_string())),
        S::Truncate(table) => rules.alter(table, || {
            SqlError::new(
                4701,
                16,
                1,
                format!("Cannot find the object \"{table}\" because it does not exist or you do not have permissions."),
            )
        }),
        S::CreateTableType(create) => rules.create(Permission::CreateType, &create.name),
        S::CreateAliasType { name, .. } => rules.create(Permission::CreateType, name),
        // SQL Server's CREATE SEQUENCE permission is a schema one; ALTER
        // on the schema implies it.
        S::CreateSequence(create) => rules.in_schema(Permission::Alter, "CREATE SEQUENCE", &create.name),
        S::AlterSequence(alter) => rules.alter(&alter.name, || {
            messages::cannot("find", "object", &alter.name.to_string())
        }),
        S::CreateView(create) => rules.module(
            Permission::CreateView,
            &create.name,
            create.alter || create.or_alter,
            "view",
        ),
        S::CreateProcedure(create) => rules.module(
            Permission::CreateProcedure,
            &create.name,
            create.alter || create.or_alter,
            "procedure",
        ),
        S::CreateFunction(create) => rules.module(
            Permission::CreateFunction,
            &create.name,
            create.alter || create.or_alter,
            "function",
        ),
        S::CreateSchema { .. } => rules.database(Permission::CreateSchema, "CREATE SCHEMA"),
        S::Drop {
            object_type,
            names,
            on_table,
            ..
        } => rules.drop(*object_type, names, on_table.as_ref()),
        S::CreateDatabase(_) => Err(SqlError::new(
            262,
            14,
            1,
            "CREATE DATABASE permission denied in database 'master'.",
        )),
        S::AlterDatabase(_) => Err(SqlError::new(
            5011,
            14,
            9,
            format!("User does not have permission to alter database '{DATABASE_NAME}', the database does not exist, or the database is not in a state that allows access checks."),
        )),
        S::Checkpoint(_) => {
            if rules.member_of(&[fixed_role::DB_OWNER, fixed_role::DB_BACKUPOPERATOR]) {
                Ok(())
            } else {
                Err(messages::statement_denied("CHECKPOINT"))
            }
        }
        // The caches DBCC empties are the server's.
        S::Dbcc { command, .. } => Err(SqlError::new(
            2571,
            14,
            1,
            format!(
                "User '{}' does not have permission to run DBCC {}.",
                identity.login.login,
                command.name()
            ),
        )),
        // Security statements check their own rights; the rest touch no
        // object, or only through statements the planner checks.
        S::CreatePrincipal(_) | S::AlterRole { .. } | S::Permission(_) | S::Insert(_) | S::Update(_)
        | S::Delete(_) | S::Declare(_) | S::DeclareTable { .. } | S::SetVariable { .. } | S::SetOption { .. }
        | S::SetTransactionIsolation(_) | S::If { .. } | S::While { .. } | S::Block(_) | S::AtomicBlock { .. }
        | S::TryCatch { .. } | S::Break | S::Continue | S::Return(_) | S::Goto(_) | S::Label(_) | S::Throw(_)
        | S::Raiserror { .. } | S::Print(_) | S::WaitFor { .. } | S::Exec(_) | S::ExecString(_)
        | S::BeginTransaction { .. } | S::Commit { .. } | S::Rollback { .. } | S::SaveTransaction { .. }
        | S::Use(_) => Ok(()),
    }
}

/// The object ids a DROP removes, to forget the permissions on them once
/// it has run.
pub fn dropped_objects(db: &dyn SecurityContext, kind: &StatementKind) -> Vec<i32> {
    let StatementKind::Drop {
        object_type:
            DropType::Table
            | DropType::View
            | DropType::Procedure
            | DropType::Function
            | DropType::Sequence,
        names,
        ..
    } = kind
    else {
        return Vec::new();
    };
    names
        .iter()
        .filter_map(|name| find(db, name).map(|object| object.object_id))
        .collect()
}

/// The object `name` names, if it is one permissions apply to.
fn find(db: &dyn SecurityContext, name: &ast::ObjectName) -> Option<securables::SecuredObject> {
    if is_temp(name) || name.other_database(DATABASE_NAME).is_some() {
        return None;
    }
    let catalog = db.catalog();
    let schema = name.schema().map_or("dbo", |s| s.value.as_str());
    let schema_id = catalog.schema_id(schema)?;
    securables::find(&catalog, schema_id, &name.name().value)
}

struct Rules<'a> {
    db: &'a dyn SecurityContext,
    access: &'a Access,
}

impl Rules<'_> {
    fn member_of(&self, roles: &[i32]) -> bool {
        roles
            .iter()
            .any(|&role| self.access.is_member(self.db, role))
    }

    /// A database-wide permission, 262 naming `statement` without it.
    fn database(&self, permission: Permission, statement: &str) -> SqlResult<()> {
        if self.access.allows_database(self.db, permission) {
            Ok(())
        } else {
            Err(messages::statement_denied(statement))
        }
    }

    /// CREATE of an object `name`: the CREATE permission, and ALTER on
    /// its schema.
    fn create(&self, permission: Permission, name: &ast::ObjectName) -> SqlResult<()> {
        self.database(permission, permission.name())?;
        self.schema_alter(name)
    }

    /// CREATE of an object whose permission is `permission` on its schema.
    fn in_schema(
        &self,
        permission: Permission,
        statement: &str,
        name: &ast::ObjectName,
    ) -> SqlResult<()> {
        let schema = name.schema().map_or("dbo", |s| s.value.as_str());
        let Some(schema_id) = self.db.catalog().schema_id(schema) else {
            return Ok(());
        };
        if self.access.allows_schema(self.db, permission, schema_id) {
            Ok(())
        } else {
            Err(messages::statement_denied(statement))
        }
    }

    /// ALTER on the schema an object is created in (2760 without it); a
    /// schema that does not exist is the statement's own error.
    fn schema_alter(&self, name: &ast::ObjectName) -> SqlResult<()> {
        let schema = name.schema().map_or("dbo", |s| s.value.as_str());
        let Some(schema_id) = self.db.catalog().schema_id(schema) else {
            return Ok(());
        };
        if self
            .access
            .allows_schema(self.db, Permission::Alter, schema_id)
        {
            Ok(())
        } else {
            Err(messages::schema_denied(schema))
        }
    }

    /// ALTER on the existing object `name` (`missing` is the error the
    /// statement gives for an object it cannot find); an object that does
    /// not exist is the statement's own error.
    fn alter(&self, name: &ast::ObjectName, missing: impl FnOnce() -> SqlError) -> SqlResult<()> {
        match find(self.db, name) {
            Some(object) if !self.may_alter(&object) => Err(missing()),
            _ => Ok(()),
        }
    }

    fn may_alter(&self, object: &securables::SecuredObject) -> bool {
        let object = hekla_plan::permission::ObjectRef {
            object_id: object.object_id,
            schema_id: object.schema_id,
            name: &object.name,
        };
        self.access
            .allows_object(self.db, Permission::Alter, object)
    }

    /// CREATE, ALTER or CREATE OR ALTER of a view, procedure or function.
    fn module(
        &self,
        permission: Permission,
        name: &ast::ObjectName,
        may_exist: bool,
        kind: &str,
    ) -> SqlResult<()> {
        if may_exist {
            if let Some(object) = find(self.db, name) {
                return if self.may_alter(&object) {
                    Ok(())
                } else {
                    Err(messages::cannot("alter", kind, &name.to_string()))
                };
            }
        }
        self.create(permission, name)
    }

    fn drop(
        &self,
        object_type: DropType,
        names: &[ast::ObjectName],
        on_table: Option<&ast::ObjectName>,
    ) -> SqlResult<()> {
        let kind = match object_type {
            DropType::Table => "table",
            DropType::View => "view",
            DropType::Procedure => "procedure",
            DropType::Function => "function",
            DropType::Sequence => "sequence",
            // Types are no objects hekla grants on: ALTER on the database.
            DropType::Type => {
                return names.iter().try_for_each(|name| {
                    if self.access.allows_database(self.db, Permission::Alter) {
                        Ok(())
                    } else {
                        Err(hekla_plan::catalog::cannot_drop("type", &name.name().value))
                    }
                });
            }
            DropType::Index | DropType::Statistics => {
                return match on_table {
                    Some(table) => self.alter(table, || no_table(1088, &table.to_string())),
                    None => names.iter().try_for_each(|name| {
                        // `DROP INDEX t.ix`: the table is the name's first part.
                        let table = ast::ObjectName {
                            parts: name.parts[..name.parts.len().saturating_sub(1)].to_vec(),
                            span: name.span,
                        };
                        if table.parts.is_empty() {
                            return Ok(());
                        }
                        self.alter(&table, || no_table(1088, &table.to_string()))
                    }),
                };
            }
            DropType::Schema => {
                return names.iter().try_for_each(|name| {
                    let Some(schema_id) = self.db.catalog().schema_id(&name.name().value) else {
                        return Ok(());
                    };
                    if self
                        .access
                        .allows_schema(self.db, Permission::Control, schema_id)
                    {
                        Ok(())
                    } else {
                        Err(hekla_plan::catalog::cannot_drop(
                            "schema",
                            &name.name().value,
                        ))
                    }
                });
            }
            // Security principals check their own rights; DROP DATABASE
            // is 3701 or 3702 already (one database, in use).
            DropType::Login | DropType::User | DropType::Role | DropType::Database => {
                return Ok(());
            }
        };
        names.iter().try_for_each(|name| {
            self.alter(name, || {
                hekla_plan::catalog::cannot_drop(kind, &name.name().value)
            })
        })
    }
}
