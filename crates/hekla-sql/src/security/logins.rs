//! Logins: CREATE LOGIN, checking a login's password, and `sa`'s first
//! password.
//!
//! Every change is written to the security tables first and applied to
//! the in-memory [`Principals`](super::Principals) only once it commits,
//! under the principals' write lock so that two CREATEs cannot both take a
//! name. Passwords are hashed before the lock is taken (hashing is slow on
//! purpose) and never kept in clear anywhere.

use super::context::SecurityContext;
use super::messages;
use super::password::{self, PasswordHash};
use super::permissions;
use super::principals::{FIXED_SERVER_ROLES, SYSADMIN_ROLE_ID};
use super::store::{PrincipalRow, Scope};
use super::{Identity, Principal};
use hekla_parser::ast::{self, Expr, ExprKind, Literal, OptionValue};
use hekla_plan::catalog::databases::{named, Named};
use hekla_plan::catalog::procedure::option_name;
use hekla_plan::catalog::store::now_ms;
use hekla_plan::error::{not_supported_yet, Refused};
use hekla_plan::names::DATABASE_NAME;
use hekla_plan::permission::{Class, Permission};
use hekla_types::{SqlError, SqlResult};

/// `CREATE LOGIN name WITH PASSWORD = '...' [, CHECK_POLICY = ON | OFF]
/// [, CHECK_EXPIRATION = OFF] [, DEFAULT_DATABASE = hekla]`. Needs
/// `sysadmin` (SQL Server's ALTER ANY LOGIN).
pub fn create(
    db: &dyn SecurityContext,
    identity: &Identity,
    create: &ast::CreatePrincipal,
) -> SqlResult<()> {
    if !identity.login.is_sysadmin {
        return Err(messages::no_permission());
    }
    let options = LoginOptions::read(&create.options, "CREATE LOGIN")?;
    let Some(password) = options.password else {
        // A login without a password is a Windows or certificate login.
        return Err(not_supported_yet(
            Refused::Statement,
            "CREATE LOGIN without PASSWORD",
        ));
    };
    let check_policy = options.check_policy.unwrap_or(true);
    if check_policy {
        check_policy_rules(&password)?;
    }
    let hash = PasswordHash::new(&password)?;
    let now = now_ms();
    let mut principals = db.principals_mut();
    let name = &create.name.value;
    if principals.login(name).is_some() {
        return Err(messages::server_principal_exists(name));
    }
    let row = PrincipalRow {
        scope: Scope::Server,
        principal_id: principals.next_login_id(),
        name: name.clone(),
        principal_type: 'S',
        owner_id: None,
        login_id: None,
        password: Some(hash),
        is_disabled: false,
        is_policy_checked: check_policy,
        default_database: Some(DATABASE_NAME.to_string()),
        default_schema: None,
        created_ms: now,
        modified_ms: now,
    };
    super::persist(db, |tables, tx| tables.save(tx, &row))?;
    principals.put(row);
    Ok(())
}

/// `ALTER LOGIN name ENABLE | DISABLE` or `ALTER LOGIN name WITH
/// PASSWORD = '...' [OLD_PASSWORD = '...'] [, CHECK_POLICY = ON | OFF]
/// [, NAME = new] [, DEFAULT_DATABASE = hekla]`. A `sysadmin` may change
/// any login; any other login only its own password, giving the old one.
/// Sessions already open keep running (as in SQL Server).
pub fn alter(
    db: &dyn SecurityContext,
    identity: &Identity,
    alter: &ast::CreatePrincipal,
) -> SqlResult<()> {
    let options = LoginOptions::read(&alter.options, "ALTER LOGIN")?;
    let name = &alter.name.value;
    let cannot = || messages::cannot("alter", "login", name);
    let Some(mut row) = db.principals().login(name).cloned() else {
        return Err(cannot());
    };
    if !identity.login.is_sysadmin {
        let own_password_only = row.principal_id == identity.login.login_id
            && options.password.is_some()
            && alter.enable.is_none()
            && options.rename.is_none()
            && options.check_policy.is_none();
        let old_matches = match (&options.old_password, &row.password) {
            (Some(old), Some(hash)) => hash.matches(old),
            _ => false,
        };
        if !(own_password_only && old_matches) {
            return Err(cannot());
        }
    }
    if let Some(enable) = alter.enable {
        row.is_disabled = !enable;
    }
    if let Some(check_policy) = options.check_policy {
        row.is_policy_checked = check_policy;
    }
    if let Some(password) = &options.password {
        if row.is_policy_checked {
            check_policy_rules(password)?;
        }
        row.password = Some(PasswordHash::new(password)?);
    }
    let mut principals = db.principals_mut();
    if let Some(new_name) = options.rename {
        if principals
            .login(&new_name)
            .is_some_and(|other| other.principal_id != row.principal_id)
        {
            return Err(messages::server_principal_exists(&new_name));
        }
        row.name = new_name;
    }
    // A concurrent DROP LOGIN won: nothing to alter any more.
    if principals.login_by_id(row.principal_id).is_none() {
        return Err(cannot());
    }
    row.modified_ms = now_ms();
    super::persist(db, |tables, tx| tables.save(tx, &row))?;
    principals.put(row);
    Ok(())
}

/// `DROP LOGIN name`: `sysadmin` only; not `sa` (15150) nor a login with
/// an open session (15434). Its database user stays, without a login
/// (an orphaned user, as in SQL Server).
pub fn drop(
    db: &dyn SecurityContext,
    identity: &Identity,
    names: &[ast::ObjectName],
) -> SqlResult<()> {
    for name in names {
        let name = &name.name().value;
        let found = db.principals().login(name).cloned();
        let Some(login) = found.filter(|_| identity.login.is_sysadmin) else {
            return Err(messages::cannot("drop", "login", name));
        };
        if login.principal_id == super::SA_LOGIN_ID {
            return Err(messages::cannot_built_in("drop", "login", &login.name));
        }
        let in_use = crate::session_registry::sessions_of(db.engine())
            .iter()
            .any(|session| session.login.as_deref() == Some(login.name.as_str()));
        if in_use {
            return Err(messages::login_in_use(&login.name));
        }
        let mut principals = db.principals_mut();
        let roles: Vec<i32> = principals
            .server_memberships()
            .filter(|&(_, member)| member == login.principal_id)
            .map(|(role, _)| role)
            .collect();
        super::persist(db, |tables, tx| {
            tables.delete(tx, Scope::Server, login.principal_id)?;
            for &role in &roles {
                tables.remove_server_member(tx, role, login.principal_id)?;
            }
            Ok(())
        })?;
        principals.remove_login(login.principal_id);
    }
    Ok(())
}

/// `ALTER SERVER ROLE sysadmin ADD | DROP MEMBER login`, `sysadmin`
/// only. The other fixed server roles give nothing in hekla, so changing
/// them is 10794; `sa` stays in `sysadmin` (15405). A session keeps what
/// its login had when it logged in, as SQL Server's login token does.
pub fn alter_server_role(
    db: &dyn SecurityContext,
    identity: &Identity,
    role: &ast::Ident,
    add: bool,
    member: &ast::Ident,
) -> SqlResult<()> {
    let known = FIXED_SERVER_ROLES
        .iter()
        .find(|(_, name)| name.eq_ignore_ascii_case(&role.value));
    let Some(&(role_id, role_name)) = known.filter(|_| identity.login.is_sysadmin) else {
        return Err(messages::cannot("alter", "server role", &role.value));
    };
    if role_id != SYSADMIN_ROLE_ID {
        return Err(not_supported_yet(
            Refused::Statement,
            format!("ALTER SERVER ROLE {role_name}"),
        ));
    }
    let mut principals = db.principals_mut();
    let verb = if add { "add" } else { "drop" };
    let login_id = principals
        .login(&member.value)
        .map(|login| login.principal_id)
        .ok_or_else(|| messages::cannot(verb, "principal", &member.value))?;
    if login_id == super::SA_LOGIN_ID {
        return Err(messages::special_principal("sa"));
    }
    if add {
        super::persist(db, |tables, tx| {
            tables.add_server_member(tx, role_id, login_id)
        })?;
        principals.add_server_member(role_id, login_id);
    } else {
        super::persist(db, |tables, tx| {
            tables
                .remove_server_member(tx, role_id, login_id)
                .map(|_| ())
        })?;
        principals.remove_server_member(role_id, login_id);
    }
    Ok(())
}

/// Gives `sa` its password and enables it, unless it already has one.
pub fn ensure_sa(db: &dyn SecurityContext, password: &str) -> SqlResult<bool> {
    if db
        .principals()
        .login_by_id(super::SA_LOGIN_ID)
        .is_some_and(|sa| sa.password.is_some())
    {
        return Ok(false);
    }
    let hash = PasswordHash::new(password)?;
    let mut principals = db.principals_mut();
    let Some(sa) = principals.login_by_id(super::SA_LOGIN_ID) else {
        return Err(messages::login_failed("sa"));
    };
    if sa.password.is_some() {
        return Ok(false);
    }
    let now = now_ms();
    let row = PrincipalRow {
        password: Some(hash),
        is_disabled: false,
        created_ms: now,
        modified_ms: now,
        ..sa.clone()
    };
    super::persist(db, |tables, tx| tables.save(tx, &row))?;
    principals.put(row);
    Ok(true)
}

/// The login `name` if `password` is its password and it is enabled; Msg
/// 18456 otherwise, the same for every reason. An unknown login costs as
/// much time as a wrong password, so timing does not tell which logins
/// exist.
pub fn authenticate(db: &dyn SecurityContext, name: &str, password: &str) -> SqlResult<Principal> {
    let found = db.principals().login(name).and_then(|login| {
        let hash = login.password.clone().filter(|_| !login.is_disabled)?;
        Some((login.name.clone(), login.principal_id, hash))
    });
    let Some((login, login_id, hash)) = found else {
        password::waste_one_check(password);
        return Err(messages::login_failed(name));
    };
    if !hash.matches(password) {
        return Err(messages::login_failed(name));
    }
    let is_sysadmin = db.principals().is_sysadmin(login_id);
    Ok(Principal {
        login,
        login_id,
        is_sysadmin,
    })
}

/// Who a session of `principal` runs as: `dbo` for a `sysadmin`, else the
/// login's database user; Msg 4060 if it has none.
pub fn identity(db: &dyn SecurityContext, principal: &Principal) -> SqlResult<Identity> {
    if principal.is_sysadmin {
        return Ok(Identity {
            login: principal.clone(),
            user_id: super::DBO_USER_ID,
        });
    }
    let principals = db.principals();
    let user = principals
        .user_of_login(principal.login_id)
        .map(|user| user.principal_id)
        // A user whose CONNECT was revoked or denied cannot enter either.
        .filter(|&user| {
            let token = principals.token(user);
            let database = [(Class::Database, 0)];
            permissions::allowed(
                principals.permissions(),
                &token,
                &database,
                Permission::Connect,
            )
        });
    match user {
        Some(user_id) => Ok(Identity {
            login: principal.clone(),
            user_id,
        }),
        None => Err(messages::cannot_open_database(DATABASE_NAME)),
    }
}

/// What a CREATE / ALTER LOGIN's WITH list says.
#[derive(Default)]
struct LoginOptions {
    password: Option<String>,
    /// `OLD_PASSWORD` (ALTER LOGIN of one's own login).
    old_password: Option<String>,
    check_policy: Option<bool>,
    /// `NAME = new` (ALTER LOGIN).
    rename: Option<String>,
}

impl LoginOptions {
    /// The options of `statement` (`CREATE LOGIN` or `ALTER LOGIN`).
    fn read(options: &[ast::OptionItem], statement: &str) -> SqlResult<LoginOptions> {
        let mut read = LoginOptions::default();
        let alter = statement == "ALTER LOGIN";
        for option in options {
            let name = option_name(option);
            let text = |value: &Expr| string_literal(value).ok_or_else(|| syntax_near(&name));
            match (name.as_str(), &option.value) {
                ("PASSWORD", Some(OptionValue::Expr(value))) => read.password = Some(text(value)?),
                ("OLD_PASSWORD", Some(OptionValue::Expr(value))) if alter => {
                    read.old_password = Some(text(value)?);
                }
                ("NAME", Some(OptionValue::Words(words))) if alter && words.len() == 1 => {
                    read.rename = Some(words[0].value.clone());
                }
                ("CHECK_POLICY", Some(value)) => read.check_policy = Some(on_off(value, &name)?),
                ("CHECK_EXPIRATION", Some(value)) => {
                    if on_off(value, &name)? {
                        return Err(not_supported_yet(
                            Refused::Statement,
                            format!("{statement} ... CHECK_EXPIRATION = ON"),
                        ));
                    }
                }
                ("DEFAULT_DATABASE", Some(OptionValue::Words(words))) if words.len() == 1 => {
                    default_database(&words[0].value)?;
                }
                (
                    "MUST_CHANGE" | "HASHED" | "SID" | "DEFAULT_LANGUAGE" | "CREDENTIAL" | "UNLOCK"
                    | "NO CREDENTIAL",
                    _,
                ) => {
                    return Err(not_supported_yet(
                        Refused::Statement,
                        format!("{statement} ... {name}"),
                    ));
                }
                _ => return Err(syntax_near(&name)),
            }
        }
        Ok(read)
    }
}

/// Only this database can be a login's default.
fn default_database(name: &str) -> SqlResult<()> {
    match named(name) {
        Named::Current => Ok(()),
        Named::System => Err(not_supported_yet(
            Refused::Statement,
            format!("DEFAULT_DATABASE = {name}"),
        )),
        Named::Missing => Err(messages::no_such_database(name)),
    }
}

fn string_literal(value: &Expr) -> Option<String> {
    match &value.kind {
        ExprKind::Literal(Literal::String { value, .. }) => Some(value.clone()),
        _ => None,
    }
}

fn on_off(value: &OptionValue, name: &str) -> SqlResult<bool> {
    match value {
        OptionValue::Words(words) if words.len() == 1 => {
            match words[0].value.to_ascii_uppercase().as_str() {
                "ON" => Ok(true),
                "OFF" => Ok(false),
                _ => Err(syntax_near(&words[0].value)),
            }
        }
        _ => Err(syntax_near(name)),
    }
}

fn syntax_near(text: &str) -> SqlError {
    SqlError::new(102, 15, 1, format!("Incorrect syntax near '{text}'."))
}

/// CHECK_POLICY's rules as SQL Server on Linux applies them.
fn check_policy_rules(password: &str) -> SqlResult<()> {
    if password.chars().count() < 8 {
        return Err(messages::password_too_short());
    }
    let kinds = [
        password.chars().any(|c| c.is_uppercase()),
        password.chars().any(|c| c.is_lowercase()),
        password.chars().any(|c| c.is_ascii_digit()),
        password.chars().any(|c| !c.is_alphanumeric()),
    ];
    if kinds.iter().filter(|&&kind| kind).count() < 3 {
        return Err(messages::password_not_complex());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn policy_needs_eight_characters_of_three_kinds() {
        assert_eq!(check_policy_rules("Ab1!").unwrap_err().number, 15116);
        assert_eq!(check_policy_rules("abcdefgh1").unwrap_err().number, 15118);
        assert_eq!(check_policy_rules("ABCDEFGH!").unwrap_err().number, 15118);
        assert!(check_policy_rules("abcdefG1").is_ok());
        assert!(check_policy_rules("abcdefg!1").is_ok());
        assert!(check_policy_rules("ABCDEFG!1").is_ok());
    }
}
