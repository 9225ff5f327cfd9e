//! Logins: CREATE LOGIN, checking a login's password, and `sa`'s first
//! password.
//!
//! Every change is written to the security tables first and applied to
//! the in-memory [`Principals`](super::Principals) only once it commits,
//! under the principals' write lock so that two CREATEs cannot both take a
//! name. Passwords are hashed before the lock is taken (hashing is slow on
//! purpose) and never kept in clear anywhere.

use super::messages;
use super::password::{self, PasswordHash};
use super::store::{PrincipalRow, Scope};
use super::{Identity, Principal};
use crate::ast::{self, Expr, ExprKind, Literal, OptionValue};
use crate::catalog::databases::{named, Named};
use crate::catalog::procedure::option_name;
use crate::catalog::store::now_ms;
use crate::exec::not_yet;
use crate::session::SqlDatabase;
use crate::system_views::DATABASE_NAME;
use hekla_engine::IsolationLevel;
use hekla_types::{SqlError, SqlResult};

/// `CREATE LOGIN name WITH PASSWORD = '...' [, CHECK_POLICY = ON | OFF]
/// [, CHECK_EXPIRATION = OFF] [, DEFAULT_DATABASE = hekla]`. Needs
/// `sysadmin` (SQL Server's ALTER ANY LOGIN).
pub fn create(
    db: &SqlDatabase,
    identity: &Identity,
    create: &ast::CreatePrincipal,
) -> SqlResult<()> {
    if !identity.login.is_sysadmin {
        return Err(messages::no_permission());
    }
    let options = LoginOptions::read(&create.options)?;
    let Some(password) = options.password else {
        // A login without a password is a Windows or certificate login.
        return Err(not_yet("CREATE LOGIN without PASSWORD"));
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
    store(db, &row)?;
    principals.put(row);
    Ok(())
}

/// Gives `sa` its password and enables it, unless it already has one.
pub fn ensure_sa(db: &SqlDatabase, password: &str) -> SqlResult<bool> {
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
    store(db, &row)?;
    principals.put(row);
    Ok(true)
}

/// The login `name` if `password` is its password and it is enabled; Msg
/// 18456 otherwise, the same for every reason. An unknown login costs as
/// much time as a wrong password, so timing does not tell which logins
/// exist.
pub fn authenticate(db: &SqlDatabase, name: &str, password: &str) -> SqlResult<Principal> {
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
pub fn identity(db: &SqlDatabase, principal: &Principal) -> SqlResult<Identity> {
    if principal.is_sysadmin {
        return Ok(Identity {
            login: principal.clone(),
            user_id: super::DBO_USER_ID,
        });
    }
    match db.principals().user_of_login(principal.login_id) {
        Some(user) => Ok(Identity {
            login: principal.clone(),
            user_id: user.principal_id,
        }),
        None => Err(messages::cannot_open_database(DATABASE_NAME)),
    }
}

/// Writes `row` in a transaction of its own.
fn store(db: &SqlDatabase, row: &PrincipalRow) -> SqlResult<()> {
    let mut tx = db.engine().begin(IsolationLevel::Snapshot)?;
    db.object_store().security().save(&mut tx, row)?;
    tx.commit()?;
    Ok(())
}

/// What a CREATE / ALTER LOGIN's WITH list says.
#[derive(Default)]
struct LoginOptions {
    password: Option<String>,
    check_policy: Option<bool>,
}

impl LoginOptions {
    fn read(options: &[ast::OptionItem]) -> SqlResult<LoginOptions> {
        let mut read = LoginOptions::default();
        for option in options {
            let name = option_name(option);
            match (name.as_str(), &option.value) {
                ("PASSWORD", Some(OptionValue::Expr(value))) => {
                    read.password = Some(string_literal(value).ok_or_else(|| syntax_near(&name))?);
                }
                ("CHECK_POLICY", Some(value)) => read.check_policy = Some(on_off(value, &name)?),
                ("CHECK_EXPIRATION", Some(value)) => {
                    if on_off(value, &name)? {
                        return Err(not_yet("CREATE LOGIN ... CHECK_EXPIRATION = ON"));
                    }
                }
                ("DEFAULT_DATABASE", Some(OptionValue::Words(words))) if words.len() == 1 => {
                    default_database(&words[0].value)?;
                }
                ("MUST_CHANGE" | "HASHED" | "SID" | "DEFAULT_LANGUAGE" | "CREDENTIAL", _) => {
                    return Err(not_yet(&format!("CREATE LOGIN ... {name}")));
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
        Named::System => Err(not_yet(&format!("DEFAULT_DATABASE = {name}"))),
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
