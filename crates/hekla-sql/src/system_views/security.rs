//! sys.server_principals and sys.sql_logins: logins and server roles,
//! from [`crate::security`].
//!
//! `sid`: SQL Server gives built-in principals one-byte sids (`sa` 0x01,
//! `public` 0x02, ...) and logins random 16-byte ones; hekla derives every
//! sid from the principal id (one byte below 256, else the id's four bytes,
//! big-endian), so the same login has the same sid wherever it shows.
//! `sys.sql_logins.password_hash` is always NULL: no view shows a hash.

use super::shared::*;
use super::{Scope, SystemView, ViewColumn};
use crate::security::principals::FIXED_SERVER_ROLES;
use crate::security::store::PrincipalRow;
use crate::security::SA_LOGIN_ID;
use crate::session::SqlDatabase;
use hekla_types::{DataType, Length, SqlResult, Value};

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

fn server_principals_rows(db: &SqlDatabase) -> SqlResult<Vec<Vec<Value>>> {
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

fn sql_logins_rows(db: &SqlDatabase) -> SqlResult<Vec<Vec<Value>>> {
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

fn varbinary(len: u32) -> DataType {
    DataType::VarBinary {
        len: Length::Bounded(len),
    }
}
