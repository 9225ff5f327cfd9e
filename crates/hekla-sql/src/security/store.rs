//! Durable storage of logins, users and roles: hidden engine tables in the
//! `sys` schema, written in ordinary transactions (so logged, checkpointed
//! and recovered like any data) and read back when the database opens.
//!
//! - `sys.hekla_principals`: one row per principal that is not built in,
//!   server-level (logins) and database-level (users, roles) alike, keyed
//!   by scope and principal id; its password column holds only the salted
//!   hash (see [`super::password`]);
//! - `sys.hekla_role_members`: database role memberships;
//! - `sys.hekla_server_role_members`: server role memberships (logins in
//!   `sysadmin` besides `sa`);
//! - `sys.hekla_permissions`: GRANTs and DENYs, as
//!   `sys.database_permissions` shows them.

use super::password::PasswordHash;
use hekla_engine::{
    ColumnDef, Database, IndexDef, IsolationLevel, SchemaId, Table, TableDef, Transaction,
    Uniqueness,
};
use hekla_types::{Collation, DataType, Length, SqlError, SqlResult, Value};
use std::ops::ControlFlow;
use std::sync::Arc;

const PRINCIPALS_TABLE: &str = "hekla_principals";
const MEMBERS_TABLE: &str = "hekla_role_members";
const PERMISSIONS_TABLE: &str = "hekla_permissions";
const SERVER_MEMBERS_TABLE: &str = "hekla_server_role_members";
/// Hash buckets of the key index: principals are few.
const BUCKETS: u64 = 1024;

/// Where a principal lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scope {
    /// A login or server role (`sys.server_principals`).
    Server,
    /// A user or role of the database (`sys.database_principals`).
    Database,
}

impl Scope {
    fn code(self) -> &'static str {
        match self {
            Scope::Server => "S",
            Scope::Database => "D",
        }
    }

    fn from_code(code: &str) -> Option<Scope> {
        match code {
            "S" => Some(Scope::Server),
            "D" => Some(Scope::Database),
            _ => None,
        }
    }
}

/// One stored principal.
#[derive(Clone, Debug, PartialEq)]
pub struct PrincipalRow {
    pub scope: Scope,
    pub principal_id: i32,
    pub name: String,
    /// SQL Server's one-letter `type`: `S` (SQL login / SQL user) or `R`
    /// (role).
    pub principal_type: char,
    /// A role's owner.
    pub owner_id: Option<i32>,
    /// A user's login (SQL Server keeps the login's sid).
    pub login_id: Option<i32>,
    pub password: Option<PasswordHash>,
    pub is_disabled: bool,
    pub is_policy_checked: bool,
    pub default_database: Option<String>,
    pub default_schema: Option<String>,
    /// Milliseconds since the Unix epoch.
    pub created_ms: i64,
    pub modified_ms: i64,
}

/// Column ordinals of `sys.hekla_principals`.
mod column {
    pub const SCOPE: usize = 0;
    pub const PRINCIPAL_ID: usize = 1;
    pub const NAME: usize = 2;
    pub const TYPE: usize = 3;
    pub const OWNER_ID: usize = 4;
    pub const LOGIN_ID: usize = 5;
    pub const PASSWORD: usize = 6;
    pub const IS_DISABLED: usize = 7;
    pub const IS_POLICY_CHECKED: usize = 8;
    pub const DEFAULT_DATABASE: usize = 9;
    pub const DEFAULT_SCHEMA: usize = 10;
    pub const CREATED: usize = 11;
    pub const MODIFIED: usize = 12;
}

/// The security tables of one database.
pub struct SecurityTables {
    principals: KeyedTable,
    /// `sys.hekla_role_members`: `(role_id, member_id)`, database roles.
    members: KeyedTable,
    /// `sys.hekla_server_role_members`: `(role_id, login_id)`.
    server_members: KeyedTable,
    /// `sys.hekla_permissions`: `(class, major_id, grantee_id, type,
    /// state, grantor_id)`, keyed by the first four.
    permissions: KeyedTable,
}

impl SecurityTables {
    /// Finds the tables in schema `schema` of `db`, creating them the first
    /// time (also in a database made before hekla had logins).
    pub fn open(db: &Database, schema: SchemaId, schema_name: &str) -> SqlResult<SecurityTables> {
        let int = |name| ColumnDef::new(name, DataType::Int, false);
        let code = |name, len| {
            ColumnDef::new(
                name,
                DataType::Char {
                    len,
                    collation: Collation::default(),
                },
                false,
            )
        };
        Ok(SecurityTables {
            principals: KeyedTable::open(
                db,
                (schema, schema_name),
                PRINCIPALS_TABLE,
                principal_columns(),
                2,
            )?,
            members: KeyedTable::open(
                db,
                (schema, schema_name),
                MEMBERS_TABLE,
                vec![int("role_id"), int("member_id")],
                2,
            )?,
            server_members: KeyedTable::open(
                db,
                (schema, schema_name),
                SERVER_MEMBERS_TABLE,
                vec![int("role_id"), int("login_id")],
                2,
            )?,
            permissions: KeyedTable::open(
                db,
                (schema, schema_name),
                PERMISSIONS_TABLE,
                vec![
                    ColumnDef::new("class", DataType::TinyInt, false),
                    int("major_id"),
                    int("grantee_id"),
                    code("type", 4),
                    code("state", 1),
                    int("grantor_id"),
                ],
                4,
            )?,
        })
    }

    /// Whether engine table `id` is one of these (never a user table).
    pub fn owns_engine_table(&self, id: u32) -> bool {
        [
            &self.principals,
            &self.members,
            &self.server_members,
            &self.permissions,
        ]
        .iter()
        .any(|table| table.table.id == id)
    }

    /// Every stored principal.
    pub fn load(&self, db: &Database) -> SqlResult<Vec<PrincipalRow>> {
        // A damaged row is not shown: it may hold a password hash.
        decoded(self.principals.rows(db)?, decode_principal, "principal")
    }

    /// Writes `principal` in place of the row of its scope and id, if
    /// there is one, within `tx`.
    pub fn save(&self, tx: &mut Transaction, principal: &PrincipalRow) -> SqlResult<()> {
        self.principals.put(tx, encode_principal(principal))
    }

    /// Removes the row of `scope` and `principal_id` within `tx`; false if
    /// there was none.
    pub fn delete(&self, tx: &mut Transaction, scope: Scope, principal_id: i32) -> SqlResult<bool> {
        self.principals.delete(
            tx,
            &[
                Value::String(scope.code().to_string()),
                Value::Int(principal_id),
            ],
        )
    }

    /// Every `(role_id, member_id)` stored.
    pub fn load_members(&self, db: &Database) -> SqlResult<Vec<(i32, i32)>> {
        decoded(
            self.members.rows(db)?,
            |values| match values {
                [Value::Int(role), Value::Int(member)] => Some((*role, *member)),
                _ => None,
            },
            "role membership",
        )
    }

    pub fn add_member(&self, tx: &mut Transaction, role: i32, member: i32) -> SqlResult<()> {
        self.members
            .put(tx, vec![Value::Int(role), Value::Int(member)])
    }

    pub fn remove_member(&self, tx: &mut Transaction, role: i32, member: i32) -> SqlResult<bool> {
        self.members
            .delete(tx, &[Value::Int(role), Value::Int(member)])
    }

    /// Every `(server role, login)` stored.
    pub fn load_server_members(&self, db: &Database) -> SqlResult<Vec<(i32, i32)>> {
        decoded(
            self.server_members.rows(db)?,
            |values| match values {
                [Value::Int(role), Value::Int(login)] => Some((*role, *login)),
                _ => None,
            },
            "server role membership",
        )
    }

    pub fn add_server_member(&self, tx: &mut Transaction, role: i32, login: i32) -> SqlResult<()> {
        self.server_members
            .put(tx, vec![Value::Int(role), Value::Int(login)])
    }

    pub fn remove_server_member(
        &self,
        tx: &mut Transaction,
        role: i32,
        login: i32,
    ) -> SqlResult<bool> {
        self.server_members
            .delete(tx, &[Value::Int(role), Value::Int(login)])
    }

    /// Every stored permission.
    pub fn load_permissions(&self, db: &Database) -> SqlResult<Vec<PermissionRow>> {
        decoded(
            self.permissions.rows(db)?,
            PermissionRow::decode,
            "permission",
        )
    }

    /// Writes `permission` in place of the row of its key, if any.
    pub fn save_permission(
        &self,
        tx: &mut Transaction,
        permission: &PermissionRow,
    ) -> SqlResult<()> {
        self.permissions.put(tx, permission.encode())
    }

    pub fn delete_permission(
        &self,
        tx: &mut Transaction,
        permission: &PermissionRow,
    ) -> SqlResult<bool> {
        self.permissions.delete(tx, &permission.encode()[..4])
    }
}

/// One stored GRANT or DENY: `sys.database_permissions` without its
/// descriptions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PermissionRow {
    /// SQL Server's class: 0 database, 1 object, 3 schema.
    pub class: u8,
    pub major_id: i32,
    pub grantee: i32,
    /// SQL Server's `type` code (`SL`, `IN`, `CRTB` ...).
    pub code: String,
    /// `G` (grant), `W` (grant with grant option) or `D` (deny).
    pub state: char,
    pub grantor: i32,
}

impl PermissionRow {
    fn encode(&self) -> Vec<Value> {
        vec![
            Value::TinyInt(self.class),
            Value::Int(self.major_id),
            Value::Int(self.grantee),
            Value::String(self.code.clone()),
            Value::String(self.state.to_string()),
            Value::Int(self.grantor),
        ]
    }

    fn decode(values: &[Value]) -> Option<PermissionRow> {
        match values {
            [Value::TinyInt(class), Value::Int(major_id), Value::Int(grantee), Value::String(code), Value::String(state), Value::Int(grantor)] => {
                Some(PermissionRow {
                    class: *class,
                    major_id: *major_id,
                    grantee: *grantee,
                    code: code.trim_end().to_string(),
                    state: state.chars().next()?,
                    grantor: *grantor,
                })
            }
            _ => None,
        }
    }
}

/// Every row of `rows` read by `decode`; Msg 3414 naming `what` if one
/// cannot be (the row itself is not shown).
fn decoded<T>(
    rows: Vec<Vec<Value>>,
    decode: impl Fn(&[Value]) -> Option<T>,
    what: &str,
) -> SqlResult<Vec<T>> {
    rows.iter()
        .map(|values| decode(values))
        .collect::<Option<Vec<T>>>()
        .ok_or_else(|| {
            SqlError::new(
                3414,
                21,
                1,
                format!("The security catalog holds a {what} row hekla cannot read."),
            )
        })
}

/// A hidden engine table keyed (unique hash index) on its first columns.
struct KeyedTable {
    table: Arc<Table>,
}

impl KeyedTable {
    fn open(
        db: &Database,
        (schema, schema_name): (SchemaId, &str),
        name: &str,
        columns: Vec<ColumnDef>,
        key_len: usize,
    ) -> SqlResult<KeyedTable> {
        if let Some(table) = db.table_named(schema_name, name) {
            return Ok(KeyedTable { table });
        }
        let key: Vec<usize> = (0..key_len).collect();
        let index = IndexDef::hash(&format!("PK_{name}"), &key, BUCKETS, Uniqueness::PrimaryKey);
        let mut def = TableDef::new(name, columns, vec![index]);
        def.schema = schema;
        Ok(KeyedTable {
            table: db.create_table(def)?,
        })
    }

    fn rows(&self, db: &Database) -> SqlResult<Vec<Vec<Value>>> {
        let mut tx = db.begin(IsolationLevel::Snapshot)?;
        let mut rows = Vec::new();
        tx.scan(&self.table, |row| {
            rows.push(row.values());
            ControlFlow::<()>::Continue(())
        })?;
        tx.commit()?;
        Ok(rows)
    }

    /// Writes `values` in place of the row with the same key, if any.
    fn put(&self, tx: &mut Transaction, values: Vec<Value>) -> SqlResult<()> {
        let key_len = self.table.def.indexes[0].columns.len();
        self.delete(tx, &values[..key_len])?;
        tx.insert(&self.table, &values)?;
        Ok(())
    }

    fn delete(&self, tx: &mut Transaction, key: &[Value]) -> SqlResult<bool> {
        match tx.get(&self.table, 0, key)? {
            Some(row) => {
                tx.delete(&self.table, row)?;
                Ok(true)
            }
            None => Ok(false),
        }
    }
}

fn principal_columns() -> Vec<ColumnDef> {
    let collation = Collation::default();
    let name = || DataType::NVarChar {
        len: Length::Bounded(128),
        collation,
    };
    let code = DataType::Char { len: 1, collation };
    vec![
        ColumnDef::new("scope", code, false),
        ColumnDef::new("principal_id", DataType::Int, false),
        ColumnDef::new("name", name(), false),
        ColumnDef::new("type", code, false),
        ColumnDef::new("owner_id", DataType::Int, true),
        ColumnDef::new("login_id", DataType::Int, true),
        ColumnDef::new(
            "password_hash",
            DataType::VarBinary {
                len: Length::Bounded(256),
            },
            true,
        ),
        ColumnDef::new("is_disabled", DataType::Bit, false),
        ColumnDef::new("is_policy_checked", DataType::Bit, false),
        ColumnDef::new("default_database", name(), true),
        ColumnDef::new("default_schema", name(), true),
        ColumnDef::new("created_ms", DataType::BigInt, false),
        ColumnDef::new("modified_ms", DataType::BigInt, false),
    ]
}

fn encode_principal(principal: &PrincipalRow) -> Vec<Value> {
    let optional_int = |value: Option<i32>| value.map_or(Value::Null, Value::Int);
    let optional_text = |value: &Option<String>| value.clone().map_or(Value::Null, Value::String);
    vec![
        Value::String(principal.scope.code().to_string()),
        Value::Int(principal.principal_id),
        Value::String(principal.name.clone()),
        Value::String(principal.principal_type.to_string()),
        optional_int(principal.owner_id),
        optional_int(principal.login_id),
        principal
            .password
            .as_ref()
            .map_or(Value::Null, |hash| Value::Binary(hash.to_bytes())),
        Value::Bit(principal.is_disabled),
        Value::Bit(principal.is_policy_checked),
        optional_text(&principal.default_database),
        optional_text(&principal.default_schema),
        Value::BigInt(principal.created_ms),
        Value::BigInt(principal.modified_ms),
    ]
}

fn decode_principal(values: &[Value]) -> Option<PrincipalRow> {
    let text = |index: usize| match values.get(index)? {
        Value::String(v) => Some(v.clone()),
        _ => None,
    };
    let optional_text = |index: usize| match values.get(index)? {
        Value::Null => Some(None),
        Value::String(v) => Some(Some(v.clone())),
        _ => None,
    };
    let optional_int = |index: usize| match values.get(index)? {
        Value::Null => Some(None),
        Value::Int(v) => Some(Some(*v)),
        _ => None,
    };
    let bit = |index: usize| match values.get(index)? {
        Value::Bit(v) => Some(*v),
        _ => None,
    };
    let big = |index: usize| match values.get(index)? {
        Value::BigInt(v) => Some(*v),
        _ => None,
    };
    let password = match values.get(column::PASSWORD)? {
        Value::Null => None,
        Value::Binary(bytes) => Some(PasswordHash::from_bytes(bytes)?),
        _ => return None,
    };
    Some(PrincipalRow {
        scope: Scope::from_code(text(column::SCOPE)?.trim_end())?,
        principal_id: match values.get(column::PRINCIPAL_ID)? {
            Value::Int(id) => *id,
            _ => return None,
        },
        name: text(column::NAME)?,
        principal_type: text(column::TYPE)?.chars().next()?,
        owner_id: optional_int(column::OWNER_ID)?,
        login_id: optional_int(column::LOGIN_ID)?,
        password,
        is_disabled: bit(column::IS_DISABLED)?,
        is_policy_checked: bit(column::IS_POLICY_CHECKED)?,
        default_database: optional_text(column::DEFAULT_DATABASE)?,
        default_schema: optional_text(column::DEFAULT_SCHEMA)?,
        created_ms: big(column::CREATED)?,
        modified_ms: big(column::MODIFIED)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use hekla_engine::{DatabaseConfig, StorageConfig};

    fn login(id: i32, name: &str, password: &str) -> PrincipalRow {
        PrincipalRow {
            scope: Scope::Server,
            principal_id: id,
            name: name.to_string(),
            principal_type: 'S',
            owner_id: None,
            login_id: None,
            password: Some(PasswordHash::new(password).unwrap()),
            is_disabled: false,
            is_policy_checked: true,
            default_database: Some("hekla".to_string()),
            default_schema: None,
            created_ms: 1,
            modified_ms: 2,
        }
    }

    #[test]
    fn principals_survive_a_restart_and_replace_by_key() {
        let dir = std::env::temp_dir().join(format!(
            "hekla-sql-security-store-{}-{}",
            std::process::id(),
            hekla_plan::catalog::store::now_ms()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        let user = PrincipalRow {
            scope: Scope::Database,
            principal_id: 5,
            name: "reader".to_string(),
            principal_type: 'S',
            login_id: Some(256),
            password: None,
            default_database: None,
            default_schema: Some("dbo".to_string()),
            ..login(5, "x", "y")
        };
        {
            let db =
                Database::open(&dir, DatabaseConfig::default(), StorageConfig::small()).unwrap();
            let schema = db.create_schema("sys").unwrap();
            let tables = SecurityTables::open(&db, schema, "sys").unwrap();
            let mut tx = db.begin(IsolationLevel::Snapshot).unwrap();
            tables.save(&mut tx, &login(256, "app", "first")).unwrap();
            tables.save(&mut tx, &login(257, "gone", "pw")).unwrap();
            tables.save(&mut tx, &user).unwrap();
            tx.commit().unwrap();
            let mut tx = db.begin(IsolationLevel::Snapshot).unwrap();
            tables.save(&mut tx, &login(256, "app", "second")).unwrap();
            assert!(tables.delete(&mut tx, Scope::Server, 257).unwrap());
            assert!(!tables.delete(&mut tx, Scope::Database, 257).unwrap());
            tx.commit().unwrap();
        }
        let db = Database::open(&dir, DatabaseConfig::default(), StorageConfig::small()).unwrap();
        let schema = db.schema_id("sys").unwrap();
        let tables = SecurityTables::open(&db, schema, "sys").unwrap();
        let mut rows = tables.load(&db).unwrap();
        rows.sort_by_key(|row| (row.scope, row.principal_id));
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].name, "app");
        assert!(rows[0].password.as_ref().unwrap().matches("second"));
        assert!(!rows[0].password.as_ref().unwrap().matches("first"));
        assert_eq!(rows[1], user);
        drop(db);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
