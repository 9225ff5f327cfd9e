//! What a permission check is about, as plans and the binder carry it:
//! the permissions hekla knows ([`Permission`]), the securables' classes
//! ([`Class`]), the object a statement uses ([`ObjectRef`]) and whose
//! access a statement is checked for ([`Access`]). Data only: the checks
//! themselves (grants, denies, roles) are `hekla_sql::security`'s, which the
//! planner reaches through its context trait.

use hekla_engine::SchemaId;

/// The permission checks one session's statements get: those of its
/// database user. A session that is never checked (`dbo`, a `sysadmin`
/// login) carries none (see `hekla_sql::security::access`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Access {
    user_id: i32,
}

impl Access {
    /// The checks for database user `user_id`.
    pub fn for_user(user_id: i32) -> Access {
        Access { user_id }
    }

    /// The database user whose permissions decide.
    pub fn user_id(&self) -> i32 {
        self.user_id
    }
}

/// An object a statement uses, as messages name it.
#[derive(Clone, Copy, Debug)]
pub struct ObjectRef<'a> {
    pub object_id: i32,
    pub schema_id: SchemaId,
    pub name: &'a str,
}

/// A permission, with SQL Server's `type` code and name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Permission {
    Select,
    Insert,
    Update,
    Delete,
    Execute,
    References,
    Alter,
    Control,
    ViewDefinition,
    Connect,
    CreateTable,
    CreateView,
    CreateProcedure,
    CreateFunction,
    CreateType,
    CreateSchema,
}

/// Where a permission can be granted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    Database,
    Object,
    Schema,
}

impl Class {
    /// `sys.database_permissions.class`.
    pub fn code(self) -> u8 {
        match self {
            Class::Database => 0,
            Class::Object => 1,
            Class::Schema => 3,
        }
    }

    pub fn description(self) -> &'static str {
        match self {
            Class::Database => "DATABASE",
            Class::Object => "OBJECT_OR_COLUMN",
            Class::Schema => "SCHEMA",
        }
    }

    pub fn from_code(code: u8) -> Option<Class> {
        [Class::Database, Class::Object, Class::Schema]
            .into_iter()
            .find(|class| class.code() == code)
    }
}

const ALL: [Permission; 16] = [
    Permission::Select,
    Permission::Insert,
    Permission::Update,
    Permission::Delete,
    Permission::Execute,
    Permission::References,
    Permission::Alter,
    Permission::Control,
    Permission::ViewDefinition,
    Permission::Connect,
    Permission::CreateTable,
    Permission::CreateView,
    Permission::CreateProcedure,
    Permission::CreateFunction,
    Permission::CreateType,
    Permission::CreateSchema,
];

impl Permission {
    /// `sys.database_permissions.type`.
    pub fn code(self) -> &'static str {
        match self {
            Permission::Select => "SL",
            Permission::Insert => "IN",
            Permission::Update => "UP",
            Permission::Delete => "DL",
            Permission::Execute => "EX",
            Permission::References => "RF",
            Permission::Alter => "AL",
            Permission::Control => "CL",
            Permission::ViewDefinition => "VW",
            Permission::Connect => "CO",
            Permission::CreateTable => "CRTB",
            Permission::CreateView => "CRVW",
            Permission::CreateProcedure => "CRPR",
            Permission::CreateFunction => "CRFN",
            Permission::CreateType => "CRTY",
            Permission::CreateSchema => "CRSC",
        }
    }

    /// `sys.database_permissions.permission_name`, as GRANT spells it.
    pub fn name(self) -> &'static str {
        match self {
            Permission::Select => "SELECT",
            Permission::Insert => "INSERT",
            Permission::Update => "UPDATE",
            Permission::Delete => "DELETE",
            Permission::Execute => "EXECUTE",
            Permission::References => "REFERENCES",
            Permission::Alter => "ALTER",
            Permission::Control => "CONTROL",
            Permission::ViewDefinition => "VIEW DEFINITION",
            Permission::Connect => "CONNECT",
            Permission::CreateTable => "CREATE TABLE",
            Permission::CreateView => "CREATE VIEW",
            Permission::CreateProcedure => "CREATE PROCEDURE",
            Permission::CreateFunction => "CREATE FUNCTION",
            Permission::CreateType => "CREATE TYPE",
            Permission::CreateSchema => "CREATE SCHEMA",
        }
    }

    pub fn from_code(code: &str) -> Option<Permission> {
        ALL.into_iter().find(|p| p.code() == code)
    }

    /// The permission GRANT's words name (`EXEC` for EXECUTE).
    pub fn from_words(words: &str) -> Option<Permission> {
        let words = words.to_ascii_uppercase();
        if words == "EXEC" {
            return Some(Permission::Execute);
        }
        ALL.into_iter().find(|p| p.name() == words)
    }

    /// Whether it can be granted on `class` (Msg 4606 otherwise).
    pub fn applies_to(self, class: Class) -> bool {
        use Permission::*;
        match self {
            Select | Insert | Update | Delete | Execute | References | Alter | Control
            | ViewDefinition => true,
            Connect | CreateTable | CreateView | CreateProcedure | CreateFunction | CreateType
            | CreateSchema => class == Class::Database,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_and_words_round_trip() {
        for permission in ALL {
            assert_eq!(Permission::from_code(permission.code()), Some(permission));
            assert_eq!(Permission::from_words(permission.name()), Some(permission));
        }
        assert_eq!(Permission::from_words("exec"), Some(Permission::Execute));
        assert!(!Permission::CreateTable.applies_to(Class::Object));
        assert!(Permission::Select.applies_to(Class::Schema));
    }
}
