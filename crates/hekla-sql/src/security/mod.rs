//! Security: logins (server principals), database users and roles
//! (database principals), and who a session runs as.
//!
//! - [`password`]: salted PBKDF2 hashes of login passwords;
//! - [`store`]: the hidden tables that keep principals durable;
//! - [`principals`]: the in-memory view of every principal, built in or
//!   stored, that statements and checks read;
//! - [`logins`]: CREATE / ALTER / DROP LOGIN and authentication.
//!
//! A [`Principal`] is an authenticated login; a session runs as it and as
//! its database user. The embedded API (`SqlDatabase::session`) runs as
//! `sa`, a member of `sysadmin`, mapped to the database owner `dbo`.

pub mod access;
pub mod context;
pub(crate) mod ddl;
pub(crate) mod functions;
pub(crate) mod grants;
pub(crate) mod logins;
pub(crate) mod messages;
pub mod password;
pub mod permissions;
pub(crate) mod principals;
pub mod securables;
pub mod store;
pub(crate) mod users;

pub use principals::Principals;

pub use hekla_plan::identity::{Identity, Principal, DBO_USER_ID, SA_LOGIN_ID};

/// Runs `change` on the security tables in a transaction of its own and
/// commits it (callers then apply the change in memory).
pub(crate) fn persist(
    db: &dyn context::SecurityContext,
    change: impl FnOnce(
        &store::SecurityTables,
        &mut hekla_engine::Transaction,
    ) -> hekla_types::SqlResult<()>,
) -> hekla_types::SqlResult<()> {
    let mut tx = db.engine().begin(hekla_engine::IsolationLevel::Snapshot)?;
    change(db.security_tables(), &mut tx)?;
    tx.commit()?;
    Ok(())
}

/// CREATE LOGIN / USER / ROLE and ALTER LOGIN.
pub(crate) fn principal_statement(
    db: &dyn context::SecurityContext,
    identity: &Identity,
    statement: &hekla_parser::ast::CreatePrincipal,
) -> hekla_types::SqlResult<()> {
    use hekla_parser::ast::PrincipalKind;
    use hekla_plan::error::{not_supported_yet, Refused};
    match (statement.principal, statement.alter) {
        (PrincipalKind::Login, false) => logins::create(db, identity, statement),
        (PrincipalKind::User, false) => users::create_user(db, identity, statement),
        (PrincipalKind::Role, false) => users::create_role(db, identity, statement),
        (PrincipalKind::Login, true) => logins::alter(db, identity, statement),
        (PrincipalKind::User, true) => Err(not_supported_yet(Refused::Statement, "ALTER USER")),
        (PrincipalKind::Role, true) => {
            Err(not_supported_yet(Refused::Statement, "ALTER ROLE ... WITH"))
        }
    }
}

/// DROP LOGIN / USER / ROLE.
pub(crate) fn drop_principals(
    db: &dyn context::SecurityContext,
    identity: &Identity,
    kind: hekla_parser::ast::DropType,
    names: &[hekla_parser::ast::ObjectName],
    if_exists: bool,
) -> hekla_types::SqlResult<()> {
    use hekla_parser::ast::DropType;
    match kind {
        DropType::User => users::drop(db, identity, false, names, if_exists),
        DropType::Role => users::drop(db, identity, true, names, if_exists),
        _ => logins::drop(db, identity, names),
    }
}
