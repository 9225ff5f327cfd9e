//! Every principal a database knows, built in or stored, with role
//! memberships and permissions: what statements look up and permission
//! checks read. Built-in principals (`sa`, the fixed server roles, `dbo`,
//! `guest`, `public`, the fixed database roles) are not stored until
//! something about them changes (`sa`'s password); a stored row then takes
//! the built-in one's place.

use super::permissions::fixed_role;
use super::store::{PermissionRow, PrincipalRow, Scope};
use super::{DBO_USER_ID, SA_LOGIN_ID};
use hekla_plan::names::DATABASE_NAME;
use std::collections::{BTreeMap, BTreeSet};

/// `sysadmin`'s `principal_id`.
pub const SYSADMIN_ROLE_ID: i32 = 3;

/// SQL Server's fixed server roles and their `principal_id`s. Only
/// `sysadmin` grants anything in hekla; the others are listed (and hold no
/// one) so that names and ids match SQL Server's.
pub const FIXED_SERVER_ROLES: [(i32, &str); 9] = [
    (2, "public"),
    (3, "sysadmin"),
    (4, "securityadmin"),
    (5, "serveradmin"),
    (6, "setupadmin"),
    (7, "processadmin"),
    (8, "diskadmin"),
    (9, "dbcreator"),
    (10, "bulkadmin"),
];

/// `principal_id`s of logins made by CREATE LOGIN start here, after SQL
/// Server's built-in ones.
const FIRST_LOGIN_ID: i32 = 256;
/// Users and roles made by CREATE USER / CREATE ROLE get ids from here up
/// to the first fixed role's, as in SQL Server.
const FIRST_DATABASE_ID: i32 = 5;

/// `guest`'s `principal_id`.
pub const GUEST_USER_ID: i32 = 2;

#[derive(Debug)]
pub struct Principals {
    /// Logins by `principal_id`; `sa` always among them.
    logins: BTreeMap<i32, PrincipalRow>,
    /// Users and roles of the database by `principal_id`, built-in ones
    /// included.
    database: BTreeMap<i32, PrincipalRow>,
    /// Database role memberships: `(role, member)`.
    members: BTreeSet<(i32, i32)>,
    /// Server role memberships: `(role, login)`; `sa`'s in `sysadmin` is
    /// built in.
    server_members: BTreeSet<(i32, i32)>,
    /// Every GRANT and DENY in the database.
    permissions: Vec<PermissionRow>,
}

impl Principals {
    /// The stored principals, memberships and permissions with the
    /// built-in ones.
    pub fn new(
        rows: Vec<PrincipalRow>,
        members: Vec<(i32, i32)>,
        server_members: Vec<(i32, i32)>,
        permissions: Vec<PermissionRow>,
    ) -> Principals {
        let mut principals = Principals {
            logins: BTreeMap::from([(SA_LOGIN_ID, built_in_sa())]),
            database: built_in_database_principals()
                .into_iter()
                .map(|row| (row.principal_id, row))
                .collect(),
            members: BTreeSet::from([(fixed_role::DB_OWNER, DBO_USER_ID)]),
            server_members: BTreeSet::from([(SYSADMIN_ROLE_ID, SA_LOGIN_ID)]),
            permissions,
        };
        for row in rows {
            principals.put(row);
        }
        principals.members.extend(members);
        principals.server_members.extend(server_members);
        principals
    }

    // ---- logins -------------------------------------------------------

    /// The login called `name` (names compare case-insensitively).
    pub fn login(&self, name: &str) -> Option<&PrincipalRow> {
        self.logins
            .values()
            .find(|login| login.name.eq_ignore_ascii_case(name))
    }

    pub fn login_by_id(&self, id: i32) -> Option<&PrincipalRow> {
        self.logins.get(&id)
    }

    /// Every login, by `principal_id`.
    pub fn logins(&self) -> impl Iterator<Item = &PrincipalRow> {
        self.logins.values()
    }

    /// The id a new login gets.
    pub fn next_login_id(&self) -> i32 {
        self.logins
            .keys()
            .next_back()
            .map_or(FIRST_LOGIN_ID, |&last| last.saturating_add(1))
            .max(FIRST_LOGIN_ID)
    }

    /// Whether login `login_id` is a member of `sysadmin` (`sa` always).
    pub fn is_sysadmin(&self, login_id: i32) -> bool {
        self.server_members.contains(&(SYSADMIN_ROLE_ID, login_id))
    }

    /// Every `(server role, login)`.
    pub fn server_memberships(&self) -> impl Iterator<Item = (i32, i32)> + '_ {
        self.server_members.iter().copied()
    }

    pub fn add_server_member(&mut self, role: i32, login: i32) {
        self.server_members.insert((role, login));
    }

    pub fn remove_server_member(&mut self, role: i32, login: i32) {
        self.server_members.remove(&(role, login));
    }

    // ---- users and roles ----------------------------------------------

    /// The user or role called `name`.
    pub fn database_principal(&self, name: &str) -> Option<&PrincipalRow> {
        self.database
            .values()
            .find(|principal| principal.name.eq_ignore_ascii_case(name))
    }

    pub fn database_principal_by_id(&self, id: i32) -> Option<&PrincipalRow> {
        self.database.get(&id)
    }

    /// Every user and role, by `principal_id`.
    pub fn database_principals(&self) -> impl Iterator<Item = &PrincipalRow> {
        self.database.values()
    }

    /// The id a new user or role gets.
    pub fn next_database_id(&self) -> i32 {
        self.database
            .range(FIRST_DATABASE_ID..fixed_role::DB_OWNER)
            .next_back()
            .map_or(FIRST_DATABASE_ID, |(&last, _)| last.saturating_add(1))
    }

    /// Whether principal `id` is one every database has (`dbo`, `guest`,
    /// `public`, the fixed roles ...): it cannot be dropped.
    pub fn is_built_in(id: i32) -> bool {
        !(FIRST_DATABASE_ID..fixed_role::DB_OWNER).contains(&id)
    }

    /// The database user of login `login_id`, if it has one.
    pub fn user_of_login(&self, login_id: i32) -> Option<&PrincipalRow> {
        self.database
            .values()
            .find(|user| user.principal_type == 'S' && user.login_id == Some(login_id))
    }

    /// Adds `row`, or replaces the principal of its scope and id.
    pub fn put(&mut self, row: PrincipalRow) {
        match row.scope {
            Scope::Server => self.logins.insert(row.principal_id, row),
            Scope::Database => self.database.insert(row.principal_id, row),
        };
    }

    /// Removes a login with its server role memberships.
    pub fn remove_login(&mut self, id: i32) {
        self.logins.remove(&id);
        self.server_members.retain(|&(_, login)| login != id);
    }

    /// Removes a user or role with its memberships and the permissions
    /// granted to it.
    pub fn remove_database_principal(&mut self, id: i32) {
        self.database.remove(&id);
        self.members
            .retain(|&(role, member)| role != id && member != id);
        self.permissions.retain(|row| row.grantee != id);
    }

    // ---- role membership ----------------------------------------------

    /// Every `(role, member)`.
    pub fn memberships(&self) -> impl Iterator<Item = (i32, i32)> + '_ {
        self.members.iter().copied()
    }

    pub fn add_member(&mut self, role: i32, member: i32) {
        self.members.insert((role, member));
    }

    pub fn remove_member(&mut self, role: i32, member: i32) {
        self.members.remove(&(role, member));
    }

    /// Whether `role` has any member.
    pub fn has_members(&self, role: i32) -> bool {
        self.members.iter().any(|&(r, _)| r == role)
    }

    /// The roles `principal` is in, directly or through other roles.
    pub fn roles_of(&self, principal: i32) -> BTreeSet<i32> {
        let mut roles = BTreeSet::new();
        let mut pending = vec![principal];
        while let Some(next) = pending.pop() {
            for &(role, member) in &self.members {
                if member == next && roles.insert(role) {
                    pending.push(role);
                }
            }
        }
        roles
    }

    /// Who a check acts for: user `user_id`, `public`, and every role the
    /// user is in.
    pub fn token(&self, user_id: i32) -> Vec<i32> {
        let mut token = vec![user_id, fixed_role::PUBLIC];
        token.extend(self.roles_of(user_id));
        token
    }

    // ---- permissions ----------------------------------------------------

    pub fn permissions(&self) -> &[PermissionRow] {
        &self.permissions
    }

    /// The stored row with `row`'s key (class, securable, grantee, type).
    pub fn permission(&self, key: &PermissionRow) -> Option<&PermissionRow> {
        self.permissions.iter().find(|row| same_key(row, key))
    }

    /// Adds `row`, replacing the one with its key.
    pub fn put_permission(&mut self, row: PermissionRow) {
        self.remove_permission(&row);
        self.permissions.push(row);
    }

    pub fn remove_permission(&mut self, key: &PermissionRow) {
        self.permissions.retain(|row| !same_key(row, key));
    }

    /// Removes every permission on object `object_id` (DROP of it).
    pub fn forget_object(&mut self, class: u8, object_id: i32) -> Vec<PermissionRow> {
        let (gone, kept) = std::mem::take(&mut self.permissions)
            .into_iter()
            .partition(|row| row.class == class && row.major_id == object_id);
        self.permissions = kept;
        gone
    }
}

fn same_key(a: &PermissionRow, b: &PermissionRow) -> bool {
    a.class == b.class && a.major_id == b.major_id && a.grantee == b.grantee && a.code == b.code
}

/// `sa` before a server gives it a password: it exists (as in every SQL
/// Server) but is disabled and has no password, so no one logs in as it.
fn built_in_sa() -> PrincipalRow {
    PrincipalRow {
        scope: Scope::Server,
        principal_id: SA_LOGIN_ID,
        name: "sa".to_string(),
        principal_type: 'S',
        owner_id: None,
        login_id: None,
        password: None,
        is_disabled: true,
        is_policy_checked: true,
        default_database: Some(DATABASE_NAME.to_string()),
        default_schema: None,
        created_ms: 0,
        modified_ms: 0,
    }
}

/// The users and roles every database has, as SQL Server numbers them.
fn built_in_database_principals() -> Vec<PrincipalRow> {
    let principal = |id: i32, name: &str, principal_type: char| PrincipalRow {
        scope: Scope::Database,
        principal_id: id,
        name: name.to_string(),
        principal_type,
        owner_id: (principal_type == 'R').then_some(DBO_USER_ID),
        login_id: None,
        password: None,
        is_disabled: false,
        is_policy_checked: false,
        default_database: None,
        default_schema: None,
        created_ms: 0,
        modified_ms: 0,
    };
    let mut rows = vec![
        principal(fixed_role::PUBLIC, "public", 'R'),
        PrincipalRow {
            login_id: Some(SA_LOGIN_ID),
            default_schema: Some("dbo".to_string()),
            ..principal(DBO_USER_ID, "dbo", 'S')
        },
        PrincipalRow {
            default_schema: Some("guest".to_string()),
            ..principal(GUEST_USER_ID, "guest", 'S')
        },
        principal(3, "INFORMATION_SCHEMA", 'S'),
        principal(4, "sys", 'S'),
    ];
    rows.extend(
        fixed_role::ALL
            .iter()
            .map(|&(id, name)| principal(id, name, 'R')),
    );
    rows
}
