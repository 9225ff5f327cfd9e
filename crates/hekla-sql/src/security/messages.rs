//! SQL Server's security errors, with their numbers, severities, states
//! and texts.

use hekla_plan::names::DATABASE_NAME;
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

/// 229: a permission denied on an object.
pub fn permission_denied(permission: &str, object: &str, schema: &str) -> SqlError {
    SqlError::new(
        229,
        14,
        5,
        format!("The {permission} permission was denied on the object '{object}', database '{DATABASE_NAME}', schema '{schema}'."),
    )
}

/// 262: a statement (`CREATE TABLE`, `CHECKPOINT` ...) denied.
pub fn statement_denied(statement: &str) -> SqlError {
    SqlError::new(
        262,
        14,
        1,
        format!("{statement} permission denied in database '{DATABASE_NAME}'."),
    )
}

/// 2760: creating an object in a schema the user may not alter.
pub fn schema_denied(schema: &str) -> SqlError {
    SqlError::new(
        2760,
        16,
        1,
        format!("The specified schema name \"{schema}\" either does not exist or you do not have permission to use it."),
    )
}

/// 15151: `Cannot <verb> the <kind> '<name>', because it does not exist
/// or you do not have permission.`
pub fn cannot(verb: &str, kind: &str, name: &str) -> SqlError {
    SqlError::new(
        15151,
        16,
        1,
        format!("Cannot {verb} the {kind} '{name}', because it does not exist or you do not have permission."),
    )
}

/// 15150: `Cannot <verb> the <kind> '<name>'.` (a built-in principal).
pub fn cannot_built_in(verb: &str, kind: &str, name: &str) -> SqlError {
    SqlError::new(15150, 16, 1, format!("Cannot {verb} the {kind} '{name}'."))
}

/// 15023: CREATE USER / ROLE of a name that is taken.
pub fn database_principal_exists(name: &str) -> SqlError {
    SqlError::new(
        15023,
        16,
        1,
        format!("User, group, or role '{name}' already exists in the current database."),
    )
}

/// 15007: CREATE USER for a login that does not exist.
pub fn not_a_login(name: &str) -> SqlError {
    SqlError::new(
        15007,
        16,
        1,
        format!("'{name}' is not a valid login or you do not have permission."),
    )
}

/// 15063: CREATE USER for a login that has one.
pub fn login_has_user() -> SqlError {
    SqlError::new(
        15063,
        16,
        1,
        "The login already has an account under a different user name.",
    )
}

/// 15144: DROP ROLE of a role with members.
pub fn role_has_members() -> SqlError {
    SqlError::new(
        15144,
        16,
        1,
        "The role has members. It must be empty before it can be dropped.",
    )
}

/// 15138: DROP USER of the owner of a role.
pub fn owns_role() -> SqlError {
    SqlError::new(
        15138,
        16,
        1,
        "The database principal owns a database role in the database, and cannot be dropped.",
    )
}

/// 15405: `dbo` (and the other special principals) added to a role.
pub fn special_principal(name: &str) -> SqlError {
    SqlError::new(
        15405,
        16,
        1,
        format!("Cannot use the special principal '{name}'."),
    )
}

/// 15081: ALTER ROLE public.
pub fn public_membership() -> SqlError {
    SqlError::new(
        15081,
        16,
        1,
        "Membership of the public role cannot be changed.",
    )
}

/// 15413: a role made a member of itself (directly or through others).
pub fn member_of_itself() -> SqlError {
    SqlError::new(15413, 16, 1, "Cannot make a role a member of itself.")
}

/// 4606: a permission that does not apply to the securable.
pub fn not_compatible(permission: &str) -> SqlError {
    SqlError::new(
        4606,
        16,
        1,
        format!("Granted or revoked privilege {permission} is not compatible with object."),
    )
}

/// 4613: GRANT / DENY / REVOKE by a user who may not.
pub fn grantor_cannot() -> SqlError {
    SqlError::new(4613, 16, 1, "Grantor does not have GRANT permission.")
}

/// 4617: permissions of the fixed roles cannot change.
pub fn special_roles() -> SqlError {
    SqlError::new(
        4617,
        16,
        1,
        "Cannot grant, deny or revoke permissions to or from special roles.",
    )
}

/// 4624: permissions of `dbo`, `sys`, `INFORMATION_SCHEMA` or the user
/// itself cannot change.
pub fn owner_grantee() -> SqlError {
    SqlError::new(
        4624,
        16,
        1,
        "Cannot grant, deny, or revoke permissions to sa, dbo, entity owner, information_schema, sys, or yourself.",
    )
}

/// 4627: CONNECT to a role.
pub fn connect_to_role() -> SqlError {
    SqlError::new(
        4627,
        16,
        1,
        "Cannot grant, deny, or revoke the connect database permission to roles and application roles.",
    )
}

/// 4623: ALL on a securable it has no meaning for.
pub fn all_not_available() -> SqlError {
    SqlError::new(
        4623,
        16,
        1,
        "The all permission has been deprecated and is not available for this class of entity",
    )
}

/// 15434: DROP LOGIN of a login with an open session.
pub fn login_in_use(name: &str) -> SqlError {
    SqlError::new(
        15434,
        16,
        1,
        format!("Could not drop login '{name}' as the user is currently logged in."),
    )
}
