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

/// What a client said of itself when it logged in (TDS LOGIN7): shown by
/// `APP_NAME()`, `HOST_NAME()` and `sys.dm_exec_sessions`. The embedded
/// API has no client, so its sessions have none.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClientInfo {
    pub host_name: String,
    pub program_name: String,
    /// The client's process id on its host.
    pub host_process_id: u32,
    /// The driver's library name (`client_interface_name`).
    pub interface_name: String,
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
