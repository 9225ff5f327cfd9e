//! Principals and permissions, from [`crate::security`]:
//! sys.server_principals, sys.sql_logins and sys.server_role_members
//! (logins and server roles),
//! sys.database_principals, sys.database_role_members and
//! sys.database_permissions.
//!
//! `sid`: SQL Server gives built-in principals one-byte sids (`sa` 0x01,
//! `public` 0x02, ...) and logins random 16-byte ones; hekla derives every
//! sid from the principal id (one byte below 256, else the id's four bytes,
//! big-endian), so the same login has the same sid wherever it shows.
//! A database user shows its login's sid (`guest` 0x00); users without a
//! login and roles have no sid here (NULL).
//! `sys.sql_logins.password_hash` is always NULL: no view shows a hash.

use super::context::SystemContext;
use super::shared::*;
use super::{Scope, SystemView, ViewColumn};
use crate::security::permissions::fixed_role;
use crate::security::principals::{FIXED_SERVER_ROLES, GUEST_USER_ID};
use crate::security::store::PrincipalRow;
use crate::security::SA_LOGIN_ID;
use hekla_plan::permission::{Class, Permission};
use hekla_types::{DataType, SqlResult, Value};

pub const SERVER_PRINCIPALS: SystemView = SystemView {
    schema: "sys",
    name: "server_principals",
    scope: Scope::Server,
    columns: || server_principal_columns(false),
    rows: server_principals_rows,
};

pub const SQL_LOGINS: SystemView = SystemView {
    schema: "sys",
    name: "sql_logins",
    scope: Scope::Server,
    columns: || server_principal_columns(true),
    rows: sql_logins_rows,
};

fn server_principal_columns(sql_logins: bool) -> Vec<ViewColumn> {
    let mut columns = vec![
        not_null("name", sysname()),
        not_null("principal_id", DataType::Int),
        nullable("sid", varbinary(85)),
        nullable("type", char(1)),
        nullable("type_desc", nvarchar(60)),
        nullable("is_disabled", DataType::Bit),
        not_null("create_date", DataType::DateTime),
        not_null("modify_date", DataType::DateTime),
        nullable("default_database_name", sysname()),
        nullable("default_language_name", sysname()),
        nullable("credential_id", DataType::Int),
        nullable("owning_principal_id", DataType::Int),
        not_null("is_fixed_role", DataType::Bit),
    ];
    if sql_logins {
        columns.extend([
            nullable("is_policy_checked", DataType::Bit),
            nullable("is_expiration_checked", DataType::Bit),
            nullable("password_hash", varbinary(256)),
        ]);
    }
    columns
}

fn server_principals_rows(db: &dyn SystemContext) -> SqlResult<Vec<Vec<Value>>> {
    let principals = db.principals();
    let mut rows: Vec<(i32, Vec<Value>)> = principals
        .logins()
        .map(|login| (login.principal_id, login_values(login)))
        .collect();
    rows.extend(FIXED_SERVER_ROLES.iter().map(|&(id, name)| {
        let values = vec![
            text(name),
            int(id),
            sid(id),
            padded("R", 1),
            text("SERVER_ROLE"),
            bit(false),
            datetime_ms(0),
            datetime_ms(0),
            Value::Null,
            Value::Null,
            Value::Null,
            int(SA_LOGIN_ID),
            // `public` is a server role but not a fixed one.
            bit(name != "public"),
        ];
        (id, values)
    }));
    rows.sort_by_key(|(id, _)| *id);
    Ok(rows.into_iter().map(|(_, values)| values).collect())
}

fn sql_logins_rows(db: &dyn SystemContext) -> SqlResult<Vec<Vec<Value>>> {
    let principals = db.principals();
    Ok(principals
        .logins()
        .map(|login| {
            let mut values = login_values(login);
            values.extend([bit(login.is_policy_checked), bit(false), Value::Null]);
            values
        })
        .collect())
}

/// A login's row of sys.server_principals.
fn login_values(login: &PrincipalRow) -> Vec<Value> {
    vec![
        text(&login.name),
        int(login.principal_id),
        sid(login.principal_id),
        padded("S", 1),
        text("SQL_LOGIN"),
        bit(login.is_disabled),
        datetime_ms(login.created_ms),
        datetime_ms(login.modified_ms),
        or_null(login.default_database.clone(), text),
        text("us_english"),
        Value::Null,
        Value::Null,
        bit(false),
    ]
}

/// The sid hekla gives principal `id` (see the module's documentation).
pub fn sid(id: i32) -> Value {
    match u8::try_from(id) {
        Ok(byte) => Value::Binary(vec![byte]),
        Err(_) => Value::Binary(id.to_be_bytes().to_vec()),
    }
}

pub const DATABASE_PRINCIPALS: SystemView = SystemView {
    schema: "sys",
    name: "database_principals",
    scope: Scope::Database,
    columns: || {
        vec![
            not_null("name", sysname()),
            not_null("principal_id", DataType::Int),
            not_null("type", char(1)),
            nullable("type_desc", nvarchar(60)),
            nullable("default_schema_name", sysname()),
            not_null("create_date", DataType::DateTime),
            not_null("modify_date", DataType::DateTime),
            nullable("owning_principal_id", DataType::Int),
            nullable("sid", varbinary(85)),
            not_null("is_fixed_role", DataType::Bit),
            not_null("authentication_type", DataType::Int),
            nullable("authentication_type_desc", nvarchar(60)),
            nullable("default_language_name", sysname()),
            nullable("default_language_lcid", DataType::Int),
            not_null("allow_encrypted_value_modifications", DataType::Bit),
        ]
    },
    rows: database_principals_rows,
};

fn database_principals_rows(db: &dyn SystemContext) -> SqlResult<Vec<Vec<Value>>> {
    let principals = db.principals();
    Ok(principals
        .database_principals()
        .map(|principal| {
            let role = principal.principal_type == 'R';
            let sid = match principal.login_id {
                Some(login) => sid(login),
                None if principal.principal_id == GUEST_USER_ID => Value::Binary(vec![0]),
                None => Value::Null,
            };
            let instance = principal.login_id.is_some();
            vec![
                text(&principal.name),
                int(principal.principal_id),
                padded(&principal.principal_type.to_string(), 1),
                text(if role { "DATABASE_ROLE" } else { "SQL_USER" }),
                or_null(principal.default_schema.clone(), text),
                datetime_ms(principal.created_ms),
                datetime_ms(principal.modified_ms),
                or_null(principal.owner_id, int),
                sid,
                bit(fixed_role::ALL
                    .iter()
                    .any(|&(id, _)| id == principal.principal_id)),
                int(i32::from(instance)),
                text(if instance { "INSTANCE" } else { "NONE" }),
                Value::Null,
                Value::Null,
                bit(false),
            ]
        })
        .collect())
}

/// sys.database_role_members and sys.server_role_members: a role and one
/// of its members.
fn role_member_columns() -> Vec<ViewColumn> {
    vec![
        not_null("role_principal_id", DataType::Int),
        not_null("member_principal_id", DataType::Int),
    ]
}

pub const DATABASE_ROLE_MEMBERS: SystemView = SystemView {
    schema: "sys",
    name: "database_role_members",
    scope: Scope::Database,
    columns: role_member_columns,
    rows: |db| {
        Ok(db
            .principals()
            .memberships()
            .map(|(role, member)| vec![int(role), int(member)])
            .collect())
    },
};

pub const DATABASE_PERMISSIONS: SystemView = SystemView {
    schema: "sys",
    name: "database_permissions",
    scope: Scope::Database,
    columns: || {
        vec![
            not_null("class", DataType::TinyInt),
            nullable("class_desc", nvarchar(60)),
            not_null("major_id", DataType::Int),
            not_null("minor_id", DataType::Int),
            not_null("grantee_principal_id", DataType::Int),
            not_null("grantor_principal_id", DataType::Int),
            not_null("type", char(4)),
            nullable("permission_name", nvarchar(128)),
            not_null("state", char(1)),
            nullable("state_desc", nvarchar(60)),
        ]
    },
    rows: database_permissions_rows,
};

fn database_permissions_rows(db: &dyn SystemContext) -> SqlResult<Vec<Vec<Value>>> {
    let principals = db.principals();
    Ok(principals
        .permissions()
        .iter()
        .map(|row| {
            let class = Class::from_code(row.class);
            let permission = Permission::from_code(&row.code);
            let state = match row.state {
                'D' => "DENY",
                'W' => "GRANT_WITH_GRANT_OPTION",
                _ => "GRANT",
            };
            vec![
                tinyint(row.class),
                or_null(class, |class| text(class.description())),
                int(row.major_id),
                int(0),
                int(row.grantee),
                int(row.grantor),
                padded(&row.code, 4),
                or_null(permission, |permission| text(permission.name())),
                padded(&row.state.to_string(), 1),
                text(state),
            ]
        })
        .collect())
}

pub const SERVER_ROLE_MEMBERS: SystemView = SystemView {
    schema: "sys",
    name: "server_role_members",
    scope: Scope::Server,
    columns: role_member_columns,
    rows: |db| {
        Ok(db
            .principals()
            .server_memberships()
            .map(|(role, member)| vec![int(role), int(member)])
            .collect())
    },
};
