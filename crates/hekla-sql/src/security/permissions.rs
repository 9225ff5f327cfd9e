//! How a principal's grants, denies and fixed roles decide an access to
//! a securable (the permissions and classes are `hekla_plan::permission`'s).
//!
//! The rule is SQL Server's: a DENY anywhere on the way (the object, its
//! schema, the database) to the user or to any role it is in wins; else a
//! GRANT anywhere on the way, of the permission or of CONTROL (which
//! implies every permission), allows; else the fixed roles decide
//! (`db_owner` everything, `db_datareader` SELECT, `db_datawriter` INSERT,
//! UPDATE and DELETE, `db_ddladmin` ALTER, REFERENCES and the CREATE
//! permissions, `db_denydatareader` / `db_denydatawriter` deny what the
//! other two give). `sysadmin` logins and `dbo` are never checked.

use super::store::PermissionRow;
use hekla_plan::permission::{Class, Permission};

/// SQL Server's fixed database roles and their `principal_id`s.
pub mod fixed_role {
    pub const PUBLIC: i32 = 0;
    pub const DB_OWNER: i32 = 16384;
    pub const DB_ACCESSADMIN: i32 = 16385;
    pub const DB_SECURITYADMIN: i32 = 16386;
    pub const DB_DDLADMIN: i32 = 16387;
    pub const DB_BACKUPOPERATOR: i32 = 16389;
    pub const DB_DATAREADER: i32 = 16390;
    pub const DB_DATAWRITER: i32 = 16391;
    pub const DB_DENYDATAREADER: i32 = 16392;
    pub const DB_DENYDATAWRITER: i32 = 16393;

    /// Every fixed role (not `public`), by id.
    pub const ALL: [(i32, &str); 9] = [
        (DB_OWNER, "db_owner"),
        (DB_ACCESSADMIN, "db_accessadmin"),
        (DB_SECURITYADMIN, "db_securityadmin"),
        (DB_DDLADMIN, "db_ddladmin"),
        (DB_BACKUPOPERATOR, "db_backupoperator"),
        (DB_DATAREADER, "db_datareader"),
        (DB_DATAWRITER, "db_datawriter"),
        (DB_DENYDATAREADER, "db_denydatareader"),
        (DB_DENYDATAWRITER, "db_denydatawriter"),
    ];
}

/// What the fixed roles in `token` say about `permission`: Some(false)
/// denies, Some(true) grants, None says nothing.
fn fixed_roles(token: &[i32], permission: Permission) -> Option<bool> {
    use fixed_role::*;
    use Permission::*;
    let member = |role| token.contains(&role);
    let data_write = matches!(permission, Insert | Update | Delete);
    if (permission == Select && member(DB_DENYDATAREADER))
        || (data_write && member(DB_DENYDATAWRITER))
    {
        return Some(false);
    }
    let ddl = matches!(
        permission,
        Alter
            | References
            | CreateTable
            | CreateView
            | CreateProcedure
            | CreateFunction
            | CreateType
            | CreateSchema
    );
    let granted = member(DB_OWNER)
        || (permission == Select && member(DB_DATAREADER))
        || (data_write && member(DB_DATAWRITER))
        || (ddl && member(DB_DDLADMIN));
    granted.then_some(true)
}

/// Whether a principal whose token (its user id and every role it is in)
/// is `token` may use `permission` on the securables `path` (most specific
/// first: `[(Object, id), (Schema, id), (Database, 0)]`, or a shorter
/// tail), given the stored `grants`.
pub fn allowed(
    grants: &[PermissionRow],
    token: &[i32],
    path: &[(Class, i32)],
    permission: Permission,
) -> bool {
    let states = |state: fn(char) -> bool| {
        grants.iter().any(|row| {
            state(row.state)
                && token.contains(&row.grantee)
                && (row.code == permission.code() || row.code == Permission::Control.code())
                && path
                    .iter()
                    .any(|&(class, id)| class.code() == row.class && id == row.major_id)
        })
    };
    if states(|state| state == 'D') {
        return false;
    }
    match fixed_roles(token, permission) {
        Some(false) => false,
        Some(true) => true,
        None => states(|state| state == 'G' || state == 'W'),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(
        class: Class,
        major_id: i32,
        grantee: i32,
        permission: Permission,
        state: char,
    ) -> PermissionRow {
        PermissionRow {
            class: class.code(),
            major_id,
            grantee,
            code: permission.code().to_string(),
            state,
            grantor: 1,
        }
    }

    const TABLE: [(Class, i32); 3] = [
        (Class::Object, 100),
        (Class::Schema, 1),
        (Class::Database, 0),
    ];

    #[test]
    fn grants_on_any_level_allow_and_denies_anywhere_win() {
        let user = [5, fixed_role::PUBLIC];
        let on_object = [row(Class::Object, 100, 5, Permission::Select, 'G')];
        assert!(allowed(&on_object, &user, &TABLE, Permission::Select));
        assert!(!allowed(&on_object, &user, &TABLE, Permission::Delete));
        assert!(!allowed(
            &on_object,
            &user,
            &[
                (Class::Object, 101),
                (Class::Schema, 1),
                (Class::Database, 0)
            ],
            Permission::Select
        ));
        let on_schema = [row(
            Class::Schema,
            1,
            fixed_role::PUBLIC,
            Permission::Select,
            'G',
        )];
        assert!(allowed(&on_schema, &user, &TABLE, Permission::Select));
        let denied = [
            row(Class::Object, 100, 5, Permission::Select, 'G'),
            row(Class::Schema, 1, 5, Permission::Select, 'D'),
        ];
        assert!(!allowed(&denied, &user, &TABLE, Permission::Select));
        let control = [row(Class::Database, 0, 5, Permission::Control, 'W')];
        assert!(allowed(&control, &user, &TABLE, Permission::Delete));
    }

    #[test]
    fn fixed_roles_grant_their_share_and_denies_still_win() {
        let reader = [5, fixed_role::PUBLIC, fixed_role::DB_DATAREADER];
        assert!(allowed(&[], &reader, &TABLE, Permission::Select));
        assert!(!allowed(&[], &reader, &TABLE, Permission::Insert));
        let denied = [row(
            Class::Object,
            100,
            fixed_role::PUBLIC,
            Permission::Select,
            'D',
        )];
        assert!(!allowed(&denied, &reader, &TABLE, Permission::Select));
        let owner_denied_reader = [5, fixed_role::DB_OWNER, fixed_role::DB_DENYDATAREADER];
        assert!(!allowed(
            &[],
            &owner_denied_reader,
            &TABLE,
            Permission::Select
        ));
        assert!(allowed(
            &[],
            &owner_denied_reader,
            &TABLE,
            Permission::Update
        ));
        let ddl = [5, fixed_role::DB_DDLADMIN];
        assert!(allowed(
            &[],
            &ddl,
            &[(Class::Database, 0)],
            Permission::CreateTable
        ));
        assert!(!allowed(&[], &ddl, &TABLE, Permission::Select));
    }
}
