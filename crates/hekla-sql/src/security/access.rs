//! Permission checks as statements run.
//!
//! A statement of a session that is not `dbo` (nor a `sysadmin` login,
//! mapped to `dbo`) carries an [`Access`]: the planner asks it for SELECT
//! on every table, view and table-valued function the statement reads,
//! INSERT / UPDATE / DELETE on the object it changes, EXECUTE on the scalar
//! functions it calls, and the interpreter for EXECUTE on a procedure.
//!
//! Ownership chaining, as in SQL Server: a view, function or procedure
//! reaches the objects it uses without checks when they have the same
//! owner. In hekla `dbo` owns every schema and so every object, so the
//! chain never breaks inside a module: a view's or function's query is
//! bound without an `Access`, and statements of a procedure run without
//! one. Dynamic SQL (`EXEC ('...')`, `sp_executesql`) starts a new chain,
//! as in SQL Server: its statements are checked against the caller, even
//! inside a procedure. The chain covers data access only: DDL inside a
//! procedure (CREATE, DROP, TRUNCATE ...) is checked against the caller
//! ([`super::ddl`]), as in SQL Server.

use super::context::SecurityContext;
use super::messages;
use super::permissions;
use super::securables;
use super::Identity;
use hekla_engine::SchemaId;
use hekla_parser::ast;
use hekla_plan::names::schema_id as sql_schema_id;
use hekla_plan::names::DATABASE_NAME;
use hekla_plan::permission::{Access, Class, ObjectRef, Permission};
use hekla_types::SqlResult;

/// The checks over an [`Access`] (a model type the planner carries):
/// they read the principals and the catalog, which only security knows.
pub trait Checks {
    /// Whether the user may use `permission` on `object` (or on its
    /// schema, or database-wide).
    fn allows_object(
        &self,
        db: &dyn SecurityContext,
        permission: Permission,
        object: ObjectRef,
    ) -> bool;

    /// Msg 229 unless the user may use `permission` on `object`.
    fn require_object(
        &self,
        db: &dyn SecurityContext,
        permission: Permission,
        object: ObjectRef,
    ) -> SqlResult<()>;

    /// Msg 229 unless the user may use `permission` on the table, view,
    /// procedure, function or sequence `name` names; nothing for a name
    /// that names none of them (a temporary table, a system view, an
    /// object that does not exist: the statement reports those).
    fn require_named(
        &self,
        db: &dyn SecurityContext,
        permission: Permission,
        name: &ast::ObjectName,
    ) -> SqlResult<()>;

    /// Whether the user may use `permission` on schema `schema_id` (or
    /// database-wide).
    fn allows_schema(
        &self,
        db: &dyn SecurityContext,
        permission: Permission,
        schema_id: SchemaId,
    ) -> bool;

    /// Whether the user has the database-wide `permission`.
    fn allows_database(&self, db: &dyn SecurityContext, permission: Permission) -> bool;

    /// Whether the user is in role `role` (directly or through roles).
    fn is_member(&self, db: &dyn SecurityContext, role: i32) -> bool;
}

/// The checks for `identity`'s statements; None for one that is never
/// checked (`dbo`, a `sysadmin` login).
pub fn access_of(identity: &Identity) -> Option<Access> {
    let unchecked = identity.login.is_sysadmin || identity.user_id == super::DBO_USER_ID;
    (!unchecked).then(|| Access::for_user(identity.user_id))
}

impl Checks for Access {
    fn allows_object(
        &self,
        db: &dyn SecurityContext,
        permission: Permission,
        object: ObjectRef,
    ) -> bool {
        allows(
            self,
            db,
            &[
                (Class::Object, object.object_id),
                (Class::Schema, sql_schema_id(object.schema_id)),
                (Class::Database, 0),
            ],
            permission,
        )
    }

    fn require_object(
        &self,
        db: &dyn SecurityContext,
        permission: Permission,
        object: ObjectRef,
    ) -> SqlResult<()> {
        if self.allows_object(db, permission, object) {
            return Ok(());
        }
        let schema = db
            .catalog()
            .schema_name(object.schema_id)
            .unwrap_or_default()
            .to_string();
        Err(messages::permission_denied(
            permission.name(),
            object.name,
            &schema,
        ))
    }

    fn require_named(
        &self,
        db: &dyn SecurityContext,
        permission: Permission,
        name: &ast::ObjectName,
    ) -> SqlResult<()> {
        if name.name().value.starts_with('#') || name.other_database(DATABASE_NAME).is_some() {
            return Ok(());
        }
        let found = {
            let catalog = db.catalog();
            let schema = name.schema().map_or("dbo", |s| s.value.as_str());
            catalog
                .schema_id(schema)
                .and_then(|id| securables::find(&catalog, id, &name.name().value))
        };
        match found {
            Some(object) => self.require_object(
                db,
                permission,
                ObjectRef {
                    object_id: object.object_id,
                    schema_id: object.schema_id,
                    name: &object.name,
                },
            ),
            None => Ok(()),
        }
    }

    fn allows_schema(
        &self,
        db: &dyn SecurityContext,
        permission: Permission,
        schema_id: SchemaId,
    ) -> bool {
        allows(
            self,
            db,
            &[
                (Class::Schema, sql_schema_id(schema_id)),
                (Class::Database, 0),
            ],
            permission,
        )
    }

    fn allows_database(&self, db: &dyn SecurityContext, permission: Permission) -> bool {
        allows(self, db, &[(Class::Database, 0)], permission)
    }

    fn is_member(&self, db: &dyn SecurityContext, role: i32) -> bool {
        db.principals().token(self.user_id()).contains(&role)
    }
}

/// Whether `access`'s user may use `permission` on the securables `path`
/// (most specific first).
fn allows(
    access: &Access,
    db: &dyn SecurityContext,
    path: &[(Class, i32)],
    permission: Permission,
) -> bool {
    let principals = db.principals();
    let token = principals.token(access.user_id());
    permissions::allowed(principals.permissions(), &token, path, permission)
}

/// Whether `identity` may administer what members of `roles` may:
/// `dbo` and `sysadmin` logins always; another user if it is in one of
/// them (`db_owner` is always one).
pub fn administers(db: &dyn SecurityContext, identity: &Identity, roles: &[i32]) -> bool {
    match access_of(identity) {
        None => true,
        Some(access) => {
            let token = db.principals().token(access.user_id());
            std::iter::once(&super::permissions::fixed_role::DB_OWNER)
                .chain(roles)
                .any(|role| token.contains(role))
        }
    }
}
