//! Database users and roles: CREATE / DROP USER, CREATE / DROP ROLE and
//! ALTER ROLE ... ADD / DROP MEMBER.
//!
//! As for logins, a change is committed to the security tables first and
//! applied in memory after, under the principals' write lock.

use super::access::administers;
use super::context::SecurityContext;
use super::messages;
use super::permissions::fixed_role;
use super::principals::Principals;
use super::store::{PermissionRow, PrincipalRow, Scope};
use super::{persist, Identity, DBO_USER_ID};
use hekla_parser::ast::{self, OptionValue};
use hekla_plan::catalog::procedure::option_name;
use hekla_plan::catalog::store::now_ms;
use hekla_plan::error::{not_supported_yet, Refused};
use hekla_plan::permission::{Class, Permission};
use hekla_types::SqlResult;

/// `CREATE USER name [FOR | FROM LOGIN login | WITHOUT LOGIN] [WITH
/// DEFAULT_SCHEMA = dbo]`: without FOR LOGIN, the login of the same name.
/// The user gets CONNECT, as in SQL Server.
pub fn create_user(
    db: &dyn SecurityContext,
    identity: &Identity,
    create: &ast::CreatePrincipal,
) -> SqlResult<()> {
    if !administers(db, identity, &[fixed_role::DB_ACCESSADMIN]) {
        return Err(messages::no_permission());
    }
    let default_schema = user_options(&create.options)?;
    let name = &create.name.value;
    let mut principals = db.principals_mut();
    if principals.database_principal(name).is_some() {
        return Err(messages::database_principal_exists(name));
    }
    let login_id = if create.without_login {
        None
    } else {
        let login_name = create.login.as_ref().map_or(name, |login| &login.value);
        let login = principals
            .login(login_name)
            .ok_or_else(|| messages::not_a_login(login_name))?;
        // `sa` (every sysadmin) is dbo already.
        if principals.is_sysadmin(login.principal_id)
            || principals.user_of_login(login.principal_id).is_some()
        {
            return Err(messages::login_has_user());
        }
        Some(login.principal_id)
    };
    let now = now_ms();
    let user = PrincipalRow {
        scope: Scope::Database,
        principal_id: principals.next_database_id(),
        name: name.clone(),
        principal_type: 'S',
        owner_id: None,
        login_id,
        password: None,
        is_disabled: false,
        is_policy_checked: false,
        default_database: None,
        default_schema: Some(default_schema),
        created_ms: now,
        modified_ms: now,
    };
    let connect = PermissionRow {
        class: Class::Database.code(),
        major_id: 0,
        grantee: user.principal_id,
        code: Permission::Connect.code().to_string(),
        state: 'G',
        grantor: DBO_USER_ID,
    };
    persist(db, |tables, tx| {
        tables.save(tx, &user)?;
        tables.save_permission(tx, &connect)
    })?;
    principals.put(user);
    principals.put_permission(connect);
    Ok(())
}

/// `CREATE ROLE name`, owned by the user who creates it.
pub fn create_role(
    db: &dyn SecurityContext,
    identity: &Identity,
    create: &ast::CreatePrincipal,
) -> SqlResult<()> {
    if !administers(db, identity, &[fixed_role::DB_SECURITYADMIN]) {
        return Err(messages::no_permission());
    }
    if let Some(option) = create.options.first() {
        return Err(not_supported_yet(
            Refused::Statement,
            format!("CREATE ROLE ... WITH {}", option_name(option)),
        ));
    }
    let name = &create.name.value;
    let mut principals = db.principals_mut();
    if principals.database_principal(name).is_some() {
        return Err(messages::database_principal_exists(name));
    }
    let now = now_ms();
    let role = PrincipalRow {
        scope: Scope::Database,
        principal_id: principals.next_database_id(),
        name: name.clone(),
        principal_type: 'R',
        owner_id: Some(identity.user_id),
        login_id: None,
        password: None,
        is_disabled: false,
        is_policy_checked: false,
        default_database: None,
        default_schema: None,
        created_ms: now,
        modified_ms: now,
    };
    persist(db, |tables, tx| tables.save(tx, &role))?;
    principals.put(role);
    Ok(())
}

/// `DROP USER [IF EXISTS] name` or `DROP ROLE [IF EXISTS] name`: its
/// memberships and the permissions granted to it go with it.
pub fn drop(
    db: &dyn SecurityContext,
    identity: &Identity,
    role: bool,
    names: &[ast::ObjectName],
    if_exists: bool,
) -> SqlResult<()> {
    let (kind, administrator) = if role {
        ("role", fixed_role::DB_SECURITYADMIN)
    } else {
        ("user", fixed_role::DB_ACCESSADMIN)
    };
    let allowed = administers(db, identity, &[administrator]);
    for name in names {
        let name = &name.name().value;
        let mut principals = db.principals_mut();
        let found = principals
            .database_principal(name)
            .filter(|p| (p.principal_type == 'R') == role)
            .cloned();
        let Some(principal) = found.filter(|_| allowed) else {
            if if_exists && allowed {
                continue;
            }
            return Err(messages::cannot("drop", kind, name));
        };
        let id = principal.principal_id;
        if Principals::is_built_in(id) {
            return Err(messages::cannot_built_in("drop", kind, &principal.name));
        }
        if role && principals.has_members(id) {
            return Err(messages::role_has_members());
        }
        if principals
            .database_principals()
            .any(|other| other.owner_id == Some(id))
        {
            return Err(messages::owns_role());
        }
        let memberships: Vec<(i32, i32)> = principals
            .memberships()
            .filter(|&(r, m)| r == id || m == id)
            .collect();
        let grants: Vec<PermissionRow> = principals
            .permissions()
            .iter()
            .filter(|row| row.grantee == id)
            .cloned()
            .collect();
        persist(db, |tables, tx| {
            tables.delete(tx, Scope::Database, id)?;
            for &(r, m) in &memberships {
                tables.remove_member(tx, r, m)?;
            }
            for grant in &grants {
                tables.delete_permission(tx, grant)?;
            }
            Ok(())
        })?;
        principals.remove_database_principal(id);
    }
    Ok(())
}

/// `ALTER ROLE role ADD | DROP MEMBER principal`. Adding a member it has,
/// or dropping one it has not, changes nothing, as in SQL Server.
pub fn alter_role(
    db: &dyn SecurityContext,
    identity: &Identity,
    role: &ast::Ident,
    add: bool,
    member: &ast::Ident,
) -> SqlResult<()> {
    let allowed = {
        let fixed = db
            .principals()
            .database_principal(&role.value)
            .is_some_and(|r| Principals::is_built_in(r.principal_id));
        // Only db_owner changes the fixed roles.
        let administrators: &[i32] = if fixed {
            &[]
        } else {
            &[fixed_role::DB_SECURITYADMIN]
        };
        administers(db, identity, administrators)
    };
    let mut principals = db.principals_mut();
    let role_row = principals
        .database_principal(&role.value)
        .filter(|r| r.principal_type == 'R' && allowed)
        .cloned()
        .ok_or_else(|| messages::cannot("alter", "role", &role.value))?;
    if role_row.principal_id == fixed_role::PUBLIC {
        return Err(messages::public_membership());
    }
    let verb = if add { "add" } else { "drop" };
    let member_row = principals
        .database_principal(&member.value)
        .cloned()
        .ok_or_else(|| messages::cannot(verb, "principal", &member.value))?;
    let (role_id, member_id) = (role_row.principal_id, member_row.principal_id);
    let special =
        member_id != super::principals::GUEST_USER_ID && Principals::is_built_in(member_id);
    if special {
        return Err(messages::special_principal(&member_row.name));
    }
    if add {
        if member_id == role_id || principals.roles_of(role_id).contains(&member_id) {
            return Err(messages::member_of_itself());
        }
        persist(db, |tables, tx| tables.add_member(tx, role_id, member_id))?;
        principals.add_member(role_id, member_id);
    } else {
        persist(db, |tables, tx| {
            tables.remove_member(tx, role_id, member_id).map(|_| ())
        })?;
        principals.remove_member(role_id, member_id);
    }
    Ok(())
}

/// CREATE USER's WITH list: the default schema (only `dbo`: hekla
/// resolves unqualified names in `dbo` for every user).
fn user_options(options: &[ast::OptionItem]) -> SqlResult<String> {
    let mut schema = "dbo".to_string();
    for option in options {
        let name = option_name(option);
        match (name.as_str(), &option.value) {
            ("DEFAULT_SCHEMA", Some(OptionValue::Words(words)))
                if words.len() == 1 && words[0].value.eq_ignore_ascii_case("dbo") =>
            {
                schema = "dbo".to_string();
            }
            _ => {
                return Err(not_supported_yet(
                    Refused::Statement,
                    format!("CREATE USER ... WITH {name} (other than DEFAULT_SCHEMA = dbo)"),
                ))
            }
        }
    }
    Ok(schema)
}
