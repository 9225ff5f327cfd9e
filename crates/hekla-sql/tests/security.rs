//! Logins as a server uses them: `sa`'s first password, authentication
//! (one error, 18456, for every kind of failure), sessions of a login, and
//! all of it across restarts.

mod common;

use hekla_engine::{DatabaseConfig, StorageConfig};
use hekla_sql::session::SqlDatabase;
use hekla_sql::Principal;
use hekla_types::Value;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The rows a script returned (values joined by `|`, a line each), then
/// its errors as sqlcmd prints them.
fn run(session: &mut hekla_sql::Session, script: &str) -> String {
    let sent = common::collect(session, script);
    let mut out = String::new();
    for row in &sent.rows {
        let values: Vec<String> = row
            .iter()
            .map(|value| match value {
                Value::Null => "NULL".to_string(),
                Value::String(text) => text.clone(),
                Value::Int(n) => n.to_string(),
                other => format!("{other:?}"),
            })
            .collect();
        out.push_str(&values.join("|"));
        out.push('\n');
    }
    for error in &sent.errors {
        out.push_str(error);
        out.push('\n');
    }
    out
}

fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("hekla-sql-security-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn open(dir: &Path) -> Arc<SqlDatabase> {
    SqlDatabase::open(dir, DatabaseConfig::default(), StorageConfig::small()).unwrap()
}

fn login_failed(db: &SqlDatabase, login: &str, password: &str) {
    let error = db.authenticate(login, password).unwrap_err();
    assert_eq!(
        (error.number, error.severity, error.state),
        (18456, 14, 1),
        "{login}"
    );
    assert_eq!(error.message, format!("Login failed for user '{login}'."));
}

#[test]
fn sa_gets_its_password_once_and_logs_in_with_it() {
    let db = SqlDatabase::in_memory().unwrap();
    // Before a server gives sa a password, no one logs in as sa.
    login_failed(&db, "sa", "");
    assert!(db.ensure_sa_login("First-Pa55").unwrap());
    assert!(!db.ensure_sa_login("Second-Pa55").unwrap());
    login_failed(&db, "sa", "Second-Pa55");
    let sa = db.authenticate("SA", "First-Pa55").unwrap();
    assert_eq!(
        sa,
        Principal {
            login: "sa".to_string(),
            login_id: 1,
            is_sysadmin: true
        }
    );
    let mut session = db.session_for(&sa).unwrap();
    assert_eq!(
        run(
            &mut session,
            "CREATE TABLE t (id int PRIMARY KEY NONCLUSTERED) WITH (MEMORY_OPTIMIZED = ON)"
        ),
        ""
    );
}

#[test]
fn every_failure_is_the_same_18456() {
    let db = SqlDatabase::in_memory().unwrap();
    db.ensure_sa_login("Sa-Passw0rd").unwrap();
    let mut session = db.session().unwrap();
    assert_eq!(
        run(
            &mut session,
            "CREATE LOGIN ycsb WITH PASSWORD = 'Ycsb-Passw0rd'"
        ),
        ""
    );
    login_failed(&db, "ycsb", "ycsb-passw0rd");
    login_failed(&db, "ycsb", "");
    login_failed(&db, "nobody", "Ycsb-Passw0rd");
    login_failed(&db, "", "");
    let ycsb = db.authenticate("ycsb", "Ycsb-Passw0rd").unwrap();
    assert_eq!((ycsb.login.as_str(), ycsb.is_sysadmin), ("ycsb", false));
    // A login without a user in the database cannot open it.
    let error = db.session_for(&ycsb).err().unwrap();
    assert_eq!((error.number, error.severity, error.state), (4060, 11, 1));
    assert_eq!(
        error.message,
        "Cannot open database \"hekla\" requested by the login. The login failed."
    );
}

#[test]
fn logins_and_sa_survive_a_restart_and_no_password_is_stored_in_clear() {
    let dir = scratch("restart");
    {
        let db = open(&dir);
        assert!(db.ensure_sa_login("Sa-Passw0rd-42").unwrap());
        let mut session = db.session().unwrap();
        assert_eq!(
            run(
                &mut session,
                "CREATE LOGIN reader WITH PASSWORD = 'Distinctive-Secret-77'"
            ),
            ""
        );
        db.engine().checkpoint().unwrap();
        assert_eq!(
            run(
                &mut session,
                "CREATE LOGIN writer WITH PASSWORD = 'Another-Distinctive-88'"
            ),
            ""
        );
    }
    let db = open(&dir);
    assert!(!db.ensure_sa_login("Other-Passw0rd").unwrap());
    assert!(db.authenticate("sa", "Sa-Passw0rd-42").unwrap().is_sysadmin);
    assert_eq!(
        db.authenticate("reader", "Distinctive-Secret-77")
            .unwrap()
            .login_id,
        256
    );
    assert_eq!(
        db.authenticate("writer", "Another-Distinctive-88")
            .unwrap()
            .login_id,
        257
    );
    login_failed(&db, "reader", "Another-Distinctive-88");
    drop(db);
    // Neither the checkpoint files nor the log hold a password.
    for file in files_under(&dir) {
        let bytes = std::fs::read(&file).unwrap();
        for secret in [
            "Sa-Passw0rd-42",
            "Distinctive-Secret-77",
            "Another-Distinctive-88",
        ] {
            for encoded in [secret.as_bytes().to_vec(), utf16(secret)] {
                assert!(
                    !bytes
                        .windows(encoded.len())
                        .any(|w| w == encoded.as_slice()),
                    "{secret} in {}",
                    file.display()
                );
            }
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

fn utf16(text: &str) -> Vec<u8> {
    text.encode_utf16().flat_map(u16::to_le_bytes).collect()
}

fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
            } else {
                files.push(path);
            }
        }
    }
    assert!(!files.is_empty());
    files
}

/// The key-value study's setup: a login granted only SELECT, INSERT and
/// UPDATE on dbo.usertable.
const KEY_VALUE_SETUP: &str = "
CREATE TABLE dbo.usertable (YCSB_KEY varchar(255) NOT NULL PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = 1024),
    FIELD0 varchar(100) NOT NULL) WITH (MEMORY_OPTIMIZED = ON)
CREATE TABLE dbo.secrets (id int NOT NULL PRIMARY KEY NONCLUSTERED, v int) WITH (MEMORY_OPTIMIZED = ON)
INSERT dbo.secrets VALUES (1, 42)
CREATE LOGIN ycsb WITH PASSWORD = 'Ycsb-Passw0rd'
CREATE USER ycsb FOR LOGIN ycsb
GRANT SELECT, INSERT, UPDATE ON dbo.usertable TO ycsb
";

fn denied(permission: &str, object: &str) -> String {
    format!("Msg 229, Level 14, State 5, Line 1\nThe {permission} permission was denied on the object '{object}', database 'hekla', schema 'dbo'.\n")
}

fn ycsb_session(db: &Arc<SqlDatabase>) -> hekla_sql::Session {
    let ycsb = db.authenticate("ycsb", "Ycsb-Passw0rd").unwrap();
    db.session_for(&ycsb).unwrap()
}

fn key_value_study_is_enforced(db: &Arc<SqlDatabase>, key: &str) {
    let mut ycsb = ycsb_session(db);
    assert_eq!(
        run(
            &mut ycsb,
            &format!("INSERT INTO dbo.usertable (YCSB_KEY, FIELD0) VALUES ('{key}', 'a')")
        ),
        ""
    );
    assert_eq!(
        run(
            &mut ycsb,
            &format!("UPDATE usertable SET FIELD0 = 'b' WHERE YCSB_KEY = '{key}'")
        ),
        ""
    );
    assert_eq!(
        run(
            &mut ycsb,
            &format!("SELECT FIELD0 FROM dbo.usertable WHERE YCSB_KEY = '{key}'")
        ),
        "b\n"
    );
    assert_eq!(
        run(
            &mut ycsb,
            &format!("DELETE FROM dbo.usertable WHERE YCSB_KEY = '{key}'")
        ),
        denied("DELETE", "usertable")
    );
    assert_eq!(
        run(&mut ycsb, "SELECT v FROM dbo.secrets"),
        denied("SELECT", "secrets")
    );
    assert_eq!(
        run(&mut ycsb, "UPDATE dbo.secrets SET v = 0"),
        denied("UPDATE", "secrets")
    );
    assert_eq!(
        run(
            &mut ycsb,
            "INSERT dbo.usertable SELECT CAST(id AS varchar(10)), 'x' FROM dbo.secrets"
        ),
        denied("SELECT", "secrets")
    );
    assert_eq!(
        run(&mut ycsb, "CREATE TABLE dbo.mine (id int NOT NULL PRIMARY KEY NONCLUSTERED) WITH (MEMORY_OPTIMIZED = ON)"),
        "Msg 262, Level 14, State 1, Line 1\nCREATE TABLE permission denied in database 'hekla'.\n"
    );
    assert_eq!(
        run(&mut ycsb, "DROP TABLE dbo.usertable"),
        "Msg 3701, Level 11, State 5, Line 1\nCannot drop the table 'usertable', because it does not exist or you do not have permission.\n"
    );
    assert_eq!(
        run(&mut ycsb, "TRUNCATE TABLE dbo.usertable"),
        "Msg 4701, Level 16, State 1, Line 1\nCannot find the object \"dbo.usertable\" because it does not exist or you do not have permissions.\n"
    );
    assert_eq!(
        run(&mut ycsb, "GRANT DELETE ON dbo.usertable TO ycsb"),
        "Msg 4613, Level 16, State 1, Line 1\nGrantor does not have GRANT permission.\n"
    );
    assert_eq!(
        run(&mut ycsb, "CREATE LOGIN other WITH PASSWORD = 'Other-Passw0rd'"),
        "Msg 15247, Level 16, State 1, Line 1\nUser does not have permission to perform this action.\n"
    );
    // Counting natively compiled procedures' calls is for sysadmin to
    // turn on or off.
    assert_eq!(
        run(
            &mut ycsb,
            "EXEC sys.sp_xtp_control_proc_exec_stats @new_collection_value = 1"
        ),
        "Msg 15247, Level 16, State 1, Line 1\nUser does not have permission to perform this action.\n"
    );
    // Temporary tables are the session's own.
    assert_eq!(
        run(
            &mut ycsb,
            "CREATE TABLE #t (a int); INSERT #t VALUES (1); SELECT a FROM #t; DROP TABLE #t"
        ),
        "1\n"
    );
    assert_eq!(
        run(&mut ycsb, "SELECT USER_NAME(), SUSER_SNAME(), IS_MEMBER('db_owner'), IS_SRVROLEMEMBER('sysadmin')"),
        "ycsb|ycsb|0|0\n"
    );
}

#[test]
fn the_key_value_study_login_can_only_do_what_it_was_granted() {
    let db = SqlDatabase::in_memory().unwrap();
    let mut dbo = db.session().unwrap();
    assert_eq!(run(&mut dbo, KEY_VALUE_SETUP), "");
    key_value_study_is_enforced(&db, "user1");
}

#[test]
fn grants_users_and_logins_survive_a_restart() {
    let dir = scratch("grants");
    {
        let db = open(&dir);
        let mut dbo = db.session().unwrap();
        assert_eq!(run(&mut dbo, KEY_VALUE_SETUP), "");
        key_value_study_is_enforced(&db, "before");
    }
    let db = open(&dir);
    key_value_study_is_enforced(&db, "after");
    drop(db);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn procedures_chain_ownership_but_dynamic_sql_breaks_the_chain() {
    let db = SqlDatabase::in_memory().unwrap();
    let mut dbo = db.session().unwrap();
    assert_eq!(run(&mut dbo, KEY_VALUE_SETUP), "");
    assert_eq!(
        run(
            &mut dbo,
            "CREATE PROCEDURE dbo.read_secret AS SELECT v FROM dbo.secrets
GO
CREATE PROCEDURE dbo.read_secret_dynamically AS EXEC ('SELECT v FROM dbo.secrets')
GO
CREATE VIEW dbo.secret_view AS SELECT v FROM dbo.secrets
GO
CREATE FUNCTION dbo.secret_value() RETURNS int AS BEGIN RETURN (SELECT v FROM dbo.secrets) END"
        ),
        ""
    );
    let mut ycsb = ycsb_session(&db);
    assert_eq!(
        run(&mut ycsb, "EXEC dbo.read_secret"),
        denied("EXECUTE", "read_secret")
    );
    assert_eq!(
        run(&mut ycsb, "SELECT v FROM dbo.secret_view"),
        denied("SELECT", "secret_view")
    );
    assert_eq!(
        run(&mut ycsb, "SELECT dbo.secret_value()"),
        denied("EXECUTE", "secret_value")
    );
    assert_eq!(
        run(
            &mut dbo,
            "GRANT EXECUTE ON dbo.read_secret TO ycsb
GRANT EXECUTE ON OBJECT::dbo.read_secret_dynamically TO ycsb
GRANT SELECT ON dbo.secret_view TO ycsb
GRANT EXECUTE ON dbo.secret_value TO ycsb"
        ),
        ""
    );
    // dbo owns the procedure, the view, the function and the table: the
    // chain holds and the table needs no permission of its own.
    assert_eq!(run(&mut ycsb, "EXEC dbo.read_secret"), "42\n");
    assert_eq!(run(&mut ycsb, "SELECT v FROM dbo.secret_view"), "42\n");
    assert_eq!(run(&mut ycsb, "SELECT dbo.secret_value()"), "42\n");
    // Dynamic SQL runs as the caller: the chain breaks.
    let denied_inside = run(&mut ycsb, "EXEC dbo.read_secret_dynamically");
    assert!(
        denied_inside.starts_with("Msg 229, Level 14, State 5")
            && denied_inside.contains("The SELECT permission was denied on the object 'secrets'"),
        "{denied_inside}"
    );
    assert_eq!(
        run(&mut ycsb, "SELECT v FROM dbo.secrets"),
        denied("SELECT", "secrets")
    );
    // The chain covers data access, not DDL: TRUNCATE inside a procedure
    // needs ALTER of the caller.
    assert_eq!(
        run(
            &mut dbo,
            "CREATE PROCEDURE dbo.empty_secrets AS TRUNCATE TABLE dbo.secrets
GO
GRANT EXECUTE ON dbo.empty_secrets TO ycsb"
        ),
        ""
    );
    let truncate = run(&mut ycsb, "EXEC dbo.empty_secrets");
    assert!(
        truncate.starts_with("Msg 4701, Level 16, State 1"),
        "{truncate}"
    );
    assert_eq!(run(&mut ycsb, "EXEC dbo.read_secret"), "42\n");
    // OUTPUT INTO a table inserts into it.
    assert_eq!(
        run(&mut ycsb, "UPDATE dbo.usertable SET FIELD0 = 'c' OUTPUT inserted.YCSB_KEY, 1 INTO dbo.secrets (id, v)"),
        denied("INSERT", "secrets")
    );
    // A DENY wins over the grant, here through public.
    assert_eq!(
        run(&mut dbo, "DENY EXECUTE ON dbo.read_secret TO public"),
        ""
    );
    assert_eq!(
        run(&mut ycsb, "EXEC dbo.read_secret"),
        denied("EXECUTE", "read_secret")
    );
}

#[test]
fn roles_grant_to_their_members() {
    let db = SqlDatabase::in_memory().unwrap();
    let mut dbo = db.session().unwrap();
    assert_eq!(run(&mut dbo, KEY_VALUE_SETUP), "");
    let mut ycsb = ycsb_session(&db);
    assert_eq!(
        run(&mut ycsb, "SELECT v FROM dbo.secrets"),
        denied("SELECT", "secrets")
    );
    assert_eq!(
        run(&mut dbo, "ALTER ROLE db_datareader ADD MEMBER ycsb"),
        ""
    );
    assert_eq!(run(&mut ycsb, "SELECT v FROM dbo.secrets"), "42\n");
    assert_eq!(
        run(&mut ycsb, "DELETE dbo.secrets"),
        denied("DELETE", "secrets")
    );
    assert_eq!(
        run(&mut dbo, "CREATE ROLE writers; GRANT DELETE ON SCHEMA::dbo TO writers; ALTER ROLE writers ADD MEMBER ycsb"),
        ""
    );
    assert_eq!(run(&mut ycsb, "DELETE dbo.secrets WHERE id = 2"), "");
    assert_eq!(run(&mut dbo, "ALTER ROLE writers DROP MEMBER ycsb"), "");
    assert_eq!(
        run(&mut ycsb, "DELETE dbo.secrets WHERE id = 2"),
        denied("DELETE", "secrets")
    );
    // db_ddladmin may create tables.
    assert_eq!(run(&mut dbo, "ALTER ROLE db_ddladmin ADD MEMBER ycsb"), "");
    assert_eq!(
        run(&mut ycsb, "CREATE TABLE dbo.mine (id int NOT NULL PRIMARY KEY NONCLUSTERED) WITH (MEMORY_OPTIMIZED = ON); DROP TABLE dbo.mine"),
        ""
    );
    // db_owner may do anything, but a DENY still applies to it.
    assert_eq!(
        run(
            &mut dbo,
            "ALTER ROLE db_owner ADD MEMBER ycsb; DENY SELECT ON dbo.secrets TO ycsb"
        ),
        ""
    );
    assert_eq!(
        run(&mut ycsb, "SELECT v FROM dbo.secrets"),
        denied("SELECT", "secrets")
    );
    assert_eq!(run(&mut ycsb, "SELECT COUNT(*) FROM dbo.usertable"), "0\n");
    // A user without CONNECT cannot open the database (db_owner implies
    // it, as CONTROL on the database does in SQL Server).
    assert_eq!(run(&mut dbo, "REVOKE CONNECT FROM ycsb"), "");
    assert!(db
        .session_for(&db.authenticate("ycsb", "Ycsb-Passw0rd").unwrap())
        .is_ok());
    assert_eq!(run(&mut dbo, "ALTER ROLE db_owner DROP MEMBER ycsb"), "");
    let principal = db.authenticate("ycsb", "Ycsb-Passw0rd").unwrap();
    assert_eq!(db.session_for(&principal).err().unwrap().number, 4060);
}

#[test]
fn logins_change_their_own_password_and_only_that() {
    let db = SqlDatabase::in_memory().unwrap();
    let mut dbo = db.session().unwrap();
    assert_eq!(run(&mut dbo, KEY_VALUE_SETUP), "");
    let mut ycsb = ycsb_session(&db);
    let cannot = "Msg 15151, Level 16, State 1, Line 1\nCannot alter the login 'ycsb', because it does not exist or you do not have permission.\n";
    assert_eq!(
        run(
            &mut ycsb,
            "ALTER LOGIN ycsb WITH PASSWORD = 'New-Passw0rd' OLD_PASSWORD = 'wrong'"
        ),
        cannot
    );
    assert_eq!(
        run(&mut ycsb, "ALTER LOGIN ycsb WITH PASSWORD = 'New-Passw0rd'"),
        cannot
    );
    assert_eq!(run(&mut ycsb, "ALTER LOGIN ycsb DISABLE"), cannot);
    assert_eq!(
        run(&mut ycsb, "ALTER LOGIN sa WITH PASSWORD = 'Mine-Passw0rd'"),
        "Msg 15151, Level 16, State 1, Line 1\nCannot alter the login 'sa', because it does not exist or you do not have permission.\n"
    );
    assert_eq!(
        run(
            &mut ycsb,
            "ALTER LOGIN ycsb WITH PASSWORD = 'New-Passw0rd' OLD_PASSWORD = 'Ycsb-Passw0rd'"
        ),
        ""
    );
    login_failed(&db, "ycsb", "Ycsb-Passw0rd");
    assert!(db.authenticate("ycsb", "New-Passw0rd").is_ok());
    // An open session keeps its login from being dropped.
    assert_eq!(
        run(&mut dbo, "DROP LOGIN ycsb"),
        "Msg 15434, Level 16, State 1, Line 1\nCould not drop login 'ycsb' as the user is currently logged in.\n"
    );
    drop(ycsb);
    // A disabled login cannot log in: the same 18456.
    assert_eq!(run(&mut dbo, "ALTER LOGIN ycsb DISABLE"), "");
    login_failed(&db, "ycsb", "New-Passw0rd");
    assert_eq!(
        run(&mut dbo, "ALTER LOGIN ycsb ENABLE; DROP LOGIN ycsb"),
        ""
    );
    login_failed(&db, "ycsb", "New-Passw0rd");
    // sa gets a password and is enabled by ALTER LOGIN too.
    login_failed(&db, "sa", "Sa-Passw0rd-1");
    assert_eq!(
        run(
            &mut dbo,
            "ALTER LOGIN sa WITH PASSWORD = 'Sa-Passw0rd-1'; ALTER LOGIN sa ENABLE"
        ),
        ""
    );
    assert!(db.authenticate("sa", "Sa-Passw0rd-1").unwrap().is_sysadmin);
    assert!(!db.ensure_sa_login("Other-Passw0rd").unwrap());
}

#[test]
fn an_rpc_call_is_checked_like_exec() {
    let db = SqlDatabase::in_memory().unwrap();
    let mut dbo = db.session().unwrap();
    assert_eq!(run(&mut dbo, KEY_VALUE_SETUP), "");
    assert_eq!(
        run(
            &mut dbo,
            "CREATE PROCEDURE dbo.read_secret AS SELECT v FROM dbo.secrets"
        ),
        ""
    );
    let mut ycsb = ycsb_session(&db);
    let mut sink = common::Collect::default();
    ycsb.call("dbo.read_secret", Vec::new(), &mut sink);
    assert!(sink.rows.is_empty());
    assert!(
        sink.errors.len() == 1
            && sink.errors[0]
                .contains("The EXECUTE permission was denied on the object 'read_secret'"),
        "{:?}",
        sink.errors
    );
    assert_eq!(
        run(&mut dbo, "GRANT EXECUTE ON dbo.read_secret TO ycsb"),
        ""
    );
    let mut sink = common::Collect::default();
    ycsb.call("dbo.read_secret", Vec::new(), &mut sink);
    assert_eq!(sink.rows, vec![vec![Value::Int(42)]]);
    assert!(sink.errors.is_empty());
}

#[test]
fn a_login_made_sysadmin_runs_as_dbo_after_a_restart_too() {
    let dir = scratch("sysadmin");
    {
        let db = open(&dir);
        let mut dbo = db.session().unwrap();
        assert_eq!(
            run(
                &mut dbo,
                "CREATE LOGIN admin2 WITH PASSWORD = 'Adm1n-Passw0rd'
ALTER SERVER ROLE sysadmin ADD MEMBER admin2"
            ),
            ""
        );
    }
    let db = open(&dir);
    let admin = db.authenticate("admin2", "Adm1n-Passw0rd").unwrap();
    assert!(admin.is_sysadmin);
    let mut session = db.session_for(&admin).unwrap();
    assert_eq!(
        run(
            &mut session,
            "SELECT USER_NAME(), SUSER_SNAME(), IS_SRVROLEMEMBER('sysadmin'), IS_MEMBER('db_owner')"
        ),
        "dbo|admin2|1|1\n"
    );
    assert_eq!(
        run(&mut session, "ALTER SERVER ROLE sysadmin DROP MEMBER sa"),
        "Msg 15405, Level 16, State 1, Line 1\nCannot use the special principal 'sa'.\n"
    );
    let mut dbo = db.session().unwrap();
    assert_eq!(
        run(&mut dbo, "ALTER SERVER ROLE sysadmin DROP MEMBER admin2"),
        ""
    );
    // The open session keeps its login token; a new login does not.
    assert_eq!(
        run(&mut session, "SELECT IS_SRVROLEMEMBER('sysadmin')"),
        "1\n"
    );
    assert!(
        !db.authenticate("admin2", "Adm1n-Passw0rd")
            .unwrap()
            .is_sysadmin
    );
    drop(session);
    drop(dbo);
    drop(db);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// How YCSB's JDBC binding runs its statements: prepared and
/// parameterized, checked as the statements they run.
#[test]
fn prepared_and_parameterized_statements_are_checked_as_the_caller() {
    let db = SqlDatabase::in_memory().unwrap();
    let mut dbo = db.session().unwrap();
    assert_eq!(run(&mut dbo, KEY_VALUE_SETUP), "");
    let mut ycsb = ycsb_session(&db);
    assert_eq!(
        run(
            &mut ycsb,
            "EXEC sp_executesql N'INSERT dbo.usertable VALUES (@k, @v)', N'@k varchar(255), @v varchar(100)', 'user7', 'x'
DECLARE @h int
EXEC sp_prepare @h OUTPUT, N'@k varchar(255)', N'SELECT FIELD0 FROM dbo.usertable WHERE YCSB_KEY = @k'
EXEC sp_execute @h, 'user7'"
        ),
        "x\n"
    );
    assert_eq!(
        run(&mut ycsb, "EXEC sp_executesql N'DELETE dbo.usertable WHERE YCSB_KEY = @k', N'@k varchar(255)', 'user7'"),
        "Msg 229, Level 14, State 5, Line 1\nThe DELETE permission was denied on the object 'usertable', database 'hekla', schema 'dbo'.\n"
    );
    let prepared_secret = run(
        &mut ycsb,
        "DECLARE @h int
EXEC sp_prepare @h OUTPUT, N'@id int', N'SELECT v FROM dbo.secrets WHERE id = @id'
EXEC sp_execute @h, 1",
    );
    assert!(
        prepared_secret.contains("The SELECT permission was denied on the object 'secrets'"),
        "{prepared_secret}"
    );
}
