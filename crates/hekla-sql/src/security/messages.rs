//! SQL Server's security errors, with their numbers, severities, states
//! and texts.

use hekla_types::SqlError;

/// 18456: a login that failed, whatever the reason (unknown login, wrong
/// password, disabled login): the client is never told which.
pub fn login_failed(login: &str) -> SqlError {
    SqlError::new(18456, 14, 1, format!("Login failed for user '{login}'."))
}

/// 4060: the login has no user in the database it asked for.
pub fn cannot_open_database(login_database: &str) -> SqlError {
    SqlError::new(
        4060,
        11,
        1,
        format!(
            "Cannot open database \"{login_database}\" requested by the login. The login failed."
        ),
    )
}

/// 15247: a security statement the session's principal may not run.
pub fn no_permission() -> SqlError {
    SqlError::new(
        15247,
        16,
        1,
        "User does not have permission to perform this action.",
    )
}

/// 15025: CREATE LOGIN of a name that is taken.
pub fn server_principal_exists(name: &str) -> SqlError {
    SqlError::new(
        15025,
        16,
        1,
        format!("The server principal '{name}' already exists."),
    )
}

/// 15010: a DEFAULT_DATABASE that does not exist.
pub fn no_such_database(name: &str) -> SqlError {
    SqlError::new(
        15010,
        16,
        1,
        format!("The database '{name}' does not exist. Supply a valid database name. To see available databases, use sys.databases."),
    )
}

/// 15116 / 15118: CHECK_POLICY refuses a password (the rules of SQL Server
/// on Linux: at least 8 characters, of at least three of upper case,
/// lower case, digits and other characters).
pub fn password_too_short() -> SqlError {
    SqlError::new(
        15116,
        16,
        1,
        "Password validation failed. The password does not meet the operating system policy requirements because it is too short.",
    )
}

pub fn password_not_complex() -> SqlError {
    SqlError::new(
        15118,
        16,
        1,
        "Password validation failed. The password does not meet the operating system policy requirements because it is not complex enough.",
    )
}
