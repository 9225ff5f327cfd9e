//! The security functions of a session: USER_NAME, USER_ID, SUSER_ID,
//! IS_MEMBER and IS_SRVROLEMEMBER (SUSER_SNAME reads the session's login
//! directly). NULL for a name or id that names nothing, as in SQL Server.

use super::context::SecurityContext;
use super::principals::FIXED_SERVER_ROLES;
use super::Identity;
use hekla_types::Value;

/// `USER_NAME([id])`: the session's user, or the user or role `id`.
pub fn user_name(db: &dyn SecurityContext, who: &Identity, id: Option<Option<i64>>) -> Value {
    let id = match id {
        None => Some(who.user_id),
        Some(id) => id.and_then(|id| i32::try_from(id).ok()),
    };
    id.and_then(|id| {
        db.principals()
            .database_principal_by_id(id)
            .map(|p| Value::String(p.name.clone()))
    })
    .unwrap_or(Value::Null)
}

/// `USER_ID(['name'])`: the session's user's id, or that of user `name`.
pub fn user_id(db: &dyn SecurityContext, who: &Identity, name: Option<Option<&str>>) -> Value {
    match name {
        None => Value::Int(who.user_id),
        Some(name) => name
            .and_then(|name| {
                db.principals()
                    .database_principal(name)
                    .map(|p| p.principal_id)
            })
            .map_or(Value::Null, Value::Int),
    }
}

/// `SUSER_ID(['login'])`: the session's login's id (NULL for an embedded
/// session, which has no login, as `SUSER_SNAME()` is NULL there), or
/// that of login `login`.
pub fn suser_id(
    db: &dyn SecurityContext,
    who: &Identity,
    session_login: Option<&str>,
    login: Option<Option<&str>>,
) -> Value {
    match login {
        None => session_login.map_or(Value::Null, |_| Value::Int(who.login.login_id)),
        Some(name) => name
            .and_then(|name| db.principals().login(name).map(|l| l.principal_id))
            .map_or(Value::Null, Value::Int),
    }
}

/// `IS_MEMBER('role')`: 1 if the session's user is in the database role
/// (directly or through others), 0 if not, NULL if no such role.
pub fn is_member(db: &dyn SecurityContext, who: &Identity, role: Option<&str>) -> Value {
    let principals = db.principals();
    let Some(role) = role
        .and_then(|role| principals.database_principal(role))
        .filter(|role| role.principal_type == 'R')
    else {
        return Value::Null;
    };
    let member = principals.token(who.user_id).contains(&role.principal_id);
    Value::Int(i32::from(member))
}

/// `IS_SRVROLEMEMBER('role' [, 'login'])`: 1 if the login (the session's
/// by default) is in the server role, 0 if not, NULL for a role or login
/// that does not exist.
pub fn is_srvrolemember(
    db: &dyn SecurityContext,
    who: &Identity,
    role: Option<&str>,
    login: Option<Option<&str>>,
) -> Value {
    let Some(role) = role.and_then(|role| {
        FIXED_SERVER_ROLES
            .iter()
            .find(|(_, name)| name.eq_ignore_ascii_case(role))
    }) else {
        return Value::Null;
    };
    let principals = db.principals();
    // The session's own login answers from its login token.
    let sysadmin = match login {
        None => who.login.is_sysadmin,
        Some(name) => match name.and_then(|name| principals.login(name)) {
            Some(login) => principals.is_sysadmin(login.principal_id),
            None => return Value::Null,
        },
    };
    let member = match role.1 {
        "public" => true,
        "sysadmin" => sysadmin,
        _ => false,
    };
    Value::Int(i32::from(member))
}
