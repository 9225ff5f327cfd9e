//! Every principal a database knows, built in or stored: what statements
//! look up and permission checks read. Built-in principals (`sa`, the
//! fixed server roles) are not stored until something about them changes
//! (`sa`'s password); a stored row then takes the built-in one's place.

use super::store::{PrincipalRow, Scope};
use super::SA_LOGIN_ID;
use crate::system_views::DATABASE_NAME;
use std::collections::BTreeMap;

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

#[derive(Debug)]
pub struct Principals {
    /// Logins by `principal_id`; `sa` always among them.
    logins: BTreeMap<i32, PrincipalRow>,
    /// Stored users and roles of the database by `principal_id`.
    database: BTreeMap<i32, PrincipalRow>,
}

impl Principals {
    /// The principals of `rows` (as stored) with the built-in ones.
    pub fn new(rows: Vec<PrincipalRow>) -> Principals {
        let mut principals = Principals {
            logins: BTreeMap::from([(SA_LOGIN_ID, built_in_sa())]),
            database: BTreeMap::new(),
        };
        for row in rows {
            principals.put(row);
        }
        principals
    }

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

    /// Whether login `login_id` is a member of `sysadmin`: `sa` is, as in
    /// SQL Server; hekla has no way yet to add others.
    pub fn is_sysadmin(&self, login_id: i32) -> bool {
        login_id == SA_LOGIN_ID
    }

    /// Adds `row`, or replaces the principal of its scope and id.
    pub fn put(&mut self, row: PrincipalRow) {
        match row.scope {
            Scope::Server => {
                self.logins.insert(row.principal_id, row);
            }
            Scope::Database => {
                self.database.insert(row.principal_id, row);
            }
        }
    }

    /// The database user of login `login_id`, if it has one.
    pub fn user_of_login(&self, login_id: i32) -> Option<&PrincipalRow> {
        self.database
            .values()
            .find(|user| user.principal_type == 'S' && user.login_id == Some(login_id))
    }
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
