//! GRANT, DENY and REVOKE of permissions on objects (`ON [OBJECT::]name`),
//! schemas (`ON SCHEMA::name`) and the database (no ON, or `ON
//! DATABASE::hekla`), to users and roles.
//!
//! A GRANT replaces a DENY of the same permission to the same principal
//! and the other way round; REVOKE removes either. Column permissions
//! (`SELECT (a, b)`) are not supported (10794).

use super::access::administers;
use super::context::SecurityContext;
use super::messages;
use super::permissions::fixed_role;
use super::principals::{Principals, GUEST_USER_ID};
use super::securables::{self, ObjectKind};
use super::store::PermissionRow;
use super::{persist, Identity};
use hekla_parser::ast::{self, PermissionAction};
use hekla_plan::error::{not_supported_yet, Refused};
use hekla_plan::names::schema_id as sql_schema_id;
use hekla_plan::names::DATABASE_NAME;
use hekla_plan::permission::{Class, Permission};
use hekla_types::{SqlError, SqlResult};

/// What a GRANT / DENY / REVOKE is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum On {
    Database,
    Schema(i32),
    Object(i32, ObjectKind),
}

impl On {
    fn key(self) -> (Class, i32) {
        match self {
            On::Database => (Class::Database, 0),
            On::Schema(id) => (Class::Schema, id),
            On::Object(id, _) => (Class::Object, id),
        }
    }
}

pub fn run(
    db: &dyn SecurityContext,
    identity: &Identity,
    statement: &ast::Permission,
) -> SqlResult<()> {
    if !administers(db, identity, &[fixed_role::DB_SECURITYADMIN]) {
        return Err(messages::grantor_cannot());
    }
    let on = securable(db, statement.on.as_ref())?;
    let permissions = permissions(statement, on)?;
    if statement.grant_option && statement.action == PermissionAction::Deny {
        return Err(SqlError::new(
            156,
            15,
            1,
            "Incorrect syntax near the keyword 'WITH'.",
        ));
    }
    let mut principals = db.principals_mut();
    let grantees = statement
        .principals
        .iter()
        .map(|name| grantee(&principals, identity, &name.value))
        .collect::<SqlResult<Vec<i32>>>()?;
    let (class, major_id) = on.key();
    let mut writes = Vec::new();
    let mut removals = Vec::new();
    for &grantee in &grantees {
        let grantee_is_role = principals
            .database_principal_by_id(grantee)
            .is_some_and(|p| p.principal_type == 'R');
        for &permission in &permissions {
            if permission == Permission::Connect && grantee_is_role {
                return Err(messages::connect_to_role());
            }
            let key = PermissionRow {
                class: class.code(),
                major_id,
                grantee,
                code: permission.code().to_string(),
                state: 'G',
                grantor: identity.user_id,
            };
            let existing = principals.permission(&key).map(|row| row.state);
            let grantable = existing == Some('W');
            match statement.action {
                PermissionAction::Grant => {
                    let state = if statement.grant_option || grantable {
                        'W'
                    } else {
                        'G'
                    };
                    writes.push(PermissionRow { state, ..key });
                }
                PermissionAction::Deny => {
                    if grantable && !statement.cascade {
                        return Err(cascade_needed());
                    }
                    writes.push(PermissionRow { state: 'D', ..key });
                }
                PermissionAction::Revoke if statement.grant_option => {
                    if grantable {
                        writes.push(PermissionRow { state: 'G', ..key });
                    }
                }
                PermissionAction::Revoke => {
                    if grantable && !statement.cascade {
                        return Err(cascade_needed());
                    }
                    if existing.is_some() {
                        removals.push(key);
                    }
                }
            }
        }
    }
    persist(db, |tables, tx| {
        for row in &writes {
            tables.save_permission(tx, row)?;
        }
        for row in &removals {
            tables.delete_permission(tx, row)?;
        }
        Ok(())
    })?;
    for row in writes {
        principals.put_permission(row);
    }
    for row in &removals {
        principals.remove_permission(row);
    }
    Ok(())
}

/// Forgets the permissions on those of `objects` that no longer exist
/// (after a DROP): SQL Server drops them with the object, and a new object
/// may later get the same id.
pub fn forget_dropped(db: &dyn SecurityContext, objects: &[i32]) -> SqlResult<()> {
    // Every statement passes here: take no lock for one that dropped nothing.
    if objects.is_empty() {
        return Ok(());
    }
    let gone: Vec<i32> = {
        let catalog = db.catalog();
        objects
            .iter()
            .copied()
            .filter(|&id| securables::by_id(&catalog, id).is_none())
            .collect()
    };
    let mut principals = db.principals_mut();
    let rows: Vec<PermissionRow> = gone
        .iter()
        .flat_map(|&id| principals.forget_object(Class::Object.code(), id))
        .collect();
    if rows.is_empty() {
        return Ok(());
    }
    persist(db, |tables, tx| {
        rows.iter()
            .try_for_each(|row| tables.delete_permission(tx, row).map(|_| ()))
    })
}

/// At open: forgets the permissions on objects a DROP removed just before
/// a crash (the DROP commits first, its permissions after).
pub fn forget_missing_objects(db: &dyn SecurityContext) -> SqlResult<()> {
    let objects: Vec<i32> = db
        .principals()
        .permissions()
        .iter()
        .filter(|row| row.class == Class::Object.code())
        .map(|row| row.major_id)
        .collect();
    forget_dropped(db, &objects)
}

/// The securable an ON clause names.
fn securable(
    db: &dyn SecurityContext,
    on: Option<&(Option<ast::Ident>, ast::ObjectName)>,
) -> SqlResult<On> {
    let Some((class, name)) = on else {
        return Ok(On::Database);
    };
    let class = class.as_ref().map(|c| c.value.to_ascii_uppercase());
    let catalog = db.catalog();
    let written = hekla_plan::catalog::sequence::written(name);
    match class.as_deref() {
        None | Some("OBJECT") => {
            if name.other_database(DATABASE_NAME).is_some() {
                return Err(messages::cannot("find", "object", &written));
            }
            let schema = name.schema().map_or("dbo", |s| s.value.as_str());
            catalog
                .schema_id(schema)
                .and_then(|schema_id| securables::find(&catalog, schema_id, &name.name().value))
                .map(|object| On::Object(object.object_id, object.kind))
                .ok_or_else(|| messages::cannot("find", "object", &written))
        }
        Some("SCHEMA") if name.parts.len() == 1 => catalog
            .schema_id(&name.name().value)
            .map(|id| On::Schema(sql_schema_id(id)))
            .ok_or_else(|| messages::cannot("find", "schema", &written)),
        Some("DATABASE") if name.name().value.eq_ignore_ascii_case(DATABASE_NAME) => {
            Ok(On::Database)
        }
        Some("DATABASE") => Err(SqlError::new(
            4610,
            16,
            1,
            "You can only grant or revoke permissions on objects in the current database.",
        )),
        Some(other) => Err(not_supported_yet(
            Refused::Statement,
            format!("GRANT ... ON {other}::"),
        )),
    }
}

/// The permissions a statement names, checked against what they are on.
fn permissions(statement: &ast::Permission, on: On) -> SqlResult<Vec<Permission>> {
    let mut found = Vec::new();
    for (words, columns) in &statement.permissions {
        let words = words
            .iter()
            .map(|w| w.value.to_ascii_uppercase())
            .collect::<Vec<_>>()
            .join(" ");
        if !columns.is_empty() {
            return Err(not_supported_yet(Refused::Statement, "column permissions"));
        }
        if words == "ALL" || words == "ALL PRIVILEGES" {
            found.extend(all(on)?);
            continue;
        }
        let permission = Permission::from_words(&words).ok_or_else(|| {
            not_supported_yet(Refused::Statement, format!("the {words} permission"))
        })?;
        if !fits(permission, on) {
            return Err(messages::not_compatible(permission.name()));
        }
        found.push(permission);
    }
    Ok(found)
}

/// Whether `permission` can be granted on `on`.
fn fits(permission: Permission, on: On) -> bool {
    use Permission::*;
    let (class, _) = on.key();
    if !permission.applies_to(class) {
        return false;
    }
    match on {
        On::Object(_, kind) => match kind {
            ObjectKind::Table | ObjectKind::View | ObjectKind::TableFunction => {
                permission != Execute
            }
            ObjectKind::Procedure => {
                matches!(permission, Execute | Alter | Control | ViewDefinition)
            }
            ObjectKind::ScalarFunction => {
                matches!(
                    permission,
                    Execute | References | Alter | Control | ViewDefinition
                )
            }
            ObjectKind::Sequence => {
                matches!(
                    permission,
                    Update | References | Alter | Control | ViewDefinition
                )
            }
        },
        On::Schema(_) | On::Database => true,
    }
}

/// What the deprecated ALL means on `on`, as in SQL Server.
fn all(on: On) -> SqlResult<Vec<Permission>> {
    use Permission::*;
    match on {
        On::Object(_, ObjectKind::Table | ObjectKind::View | ObjectKind::TableFunction) => {
            Ok(vec![Delete, Insert, References, Select, Update])
        }
        On::Object(_, ObjectKind::Procedure) => Ok(vec![Execute]),
        On::Object(_, ObjectKind::ScalarFunction) => Ok(vec![Execute, References]),
        On::Object(_, ObjectKind::Sequence) | On::Schema(_) => Err(messages::all_not_available()),
        On::Database => Err(not_supported_yet(
            Refused::Statement,
            "GRANT ALL on the database",
        )),
    }
}

/// The principal a permission is granted to: a user or role other than
/// the special ones and the grantor itself.
fn grantee(principals: &Principals, identity: &Identity, name: &str) -> SqlResult<i32> {
    let principal = principals
        .database_principal(name)
        .ok_or_else(|| messages::cannot("find", "user", name))?;
    let id = principal.principal_id;
    if fixed_role::ALL.iter().any(|&(fixed, _)| fixed == id) {
        return Err(messages::special_roles());
    }
    let special = Principals::is_built_in(id) && id != GUEST_USER_ID && id != fixed_role::PUBLIC;
    if special || id == identity.user_id {
        return Err(messages::owner_grantee());
    }
    Ok(id)
}

/// 4611.
fn cascade_needed() -> SqlError {
    SqlError::new(
        4611,
        16,
        1,
        "To revoke or deny grantable privileges, specify the CASCADE option.",
    )
}
