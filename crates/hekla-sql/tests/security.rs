//! Logins as a server uses them: `sa`'s first password, authentication
//! (one error, 18456, for every kind of failure), sessions of a login, and
//! all of it across restarts.

mod common;

use common::printed as run;
use hekla_engine::{DatabaseConfig, StorageConfig};
use hekla_sql::session::SqlDatabase;
use hekla_sql::Principal;
use std::path::{Path, PathBuf};
use std::sync::Arc;

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
