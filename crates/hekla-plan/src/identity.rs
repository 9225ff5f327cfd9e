//! Who a session runs as: its login ([`Principal`]) and its database
//! user ([`Identity`]). Plain data, below every layer that reads it: the
//! executor carries it for `USER_NAME()` and the like, security checks
//! and changes principals by it (and re-exports it as `security::Identity`).

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

/// The database owner, as `sa` (the embedded API).
impl Default for Identity {
    fn default() -> Identity {
        Identity {
            login: Principal::sa(),
            user_id: DBO_USER_ID,
        }
    }
}
