//! CREATE SCHEMA.

use crate::ddl::DdlDatabase;
use hekla_types::{SqlError, SqlResult};

/// Creates schema `name`; an AUTHORIZATION `owner`, when written, must be
/// one this database has (see `check_schema_owner`).
pub fn create(db: &dyn DdlDatabase, name: &str, owner: Option<&str>) -> SqlResult<()> {
    if let Some(owner) = owner {
        check_schema_owner(owner)?;
    }
    let mut catalog = db.catalog_mut();
    let id = db.engine().create_schema(name)?;
    catalog.add_schema(id, name);
    Ok(())
}

/// The owner `CREATE SCHEMA ... AUTHORIZATION owner` names: hekla has one
/// database principal, dbo, whom every session acts as and who owns every
/// schema (`sys.schemas.principal_id` 1); any other name is Msg 15151.
fn check_schema_owner(owner: &str) -> SqlResult<()> {
    if owner.eq_ignore_ascii_case("dbo") {
        return Ok(());
    }
    Err(SqlError::new(
        15151,
        16,
        1,
        format!("Cannot find the user '{owner}', because it does not exist or you do not have permission."),
    ))
}
