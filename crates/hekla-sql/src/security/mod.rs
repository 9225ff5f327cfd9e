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

pub(crate) mod logins;
mod messages;
pub mod password;
pub(crate) mod principals;
pub mod store;

pub use principals::Principals;

/// `sa`'s `principal_id` in `sys.server_principals`.
pub const SA_LOGIN_ID: i32 = 1;
/// The database owner's `principal_id` in `sys.database_principals`.
pub const DBO_USER_ID: i32 = 1;

/// An authenticated login.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Principal {
    /// The login's name as stored (`SUSER_SNAME()`).
    pub login: String,
    /// Its `principal_id` in `sys.server_principals` (`SUSER_ID()`).
    pub login_id: i32,
    /// Whether it was a member of `sysadmin` when it logged in; like SQL
    /// Server's login token, a session keeps what it had at login.
    pub is_sysadmin: bool,
}

impl Principal {
    /// `sa`, as the embedded API runs.
    pub fn sa() -> Principal {
        Principal {
            login: "sa".to_string(),
            login_id: SA_LOGIN_ID,
            is_sysadmin: true,
        }
    }
}

/// Who a session runs as: its login and, in the database, its user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Identity {
    pub login: Principal,
    /// `principal_id` of the database user (`USER_ID()`).
    pub user_id: i32,
}

impl Identity {
    /// The database owner, as `sa` (the embedded API).
    pub fn owner() -> Identity {
        Identity {
            login: Principal::sa(),
            user_id: DBO_USER_ID,
        }
    }
}
