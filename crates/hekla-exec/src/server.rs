//! Evaluating the server, catalog and session functions of
//! [`hekla_plan::bind::server`]. Object lookups read `sys.objects` (so they
//! see tables, sequences and constraints alike); session values come from
//! the statement's context, as of the statement's start.

use super::context::Context;
use hekla_plan::bind::server::ServerFunction;
use hekla_plan::names::{DATABASE_ID, DATABASE_NAME, MASTER_ID, MASTER_NAME};
use hekla_plan::plan::system::SystemRelation;
use hekla_plan::result::ErrorEvent;
use hekla_types::convert::convert_from;
use hekla_types::{Collation, DataType, SqlResult, Value};

/// The SQL Server release whose T-SQL and TDS behaviour hekla follows;
/// tools and drivers read it to decide which features to use.
pub const PRODUCT_VERSION: &str = "16.0.1000.6";

pub fn evaluate(
    function: ServerFunction,
    args: &[Value],
    result_type: &DataType,
    context: &Context,
) -> SqlResult<Value> {
    use ServerFunction::*;
    let session = &context.session;
    let security = || context.db.security_functions();
    let text = |index: usize| match args.get(index) {
        Some(Value::String(text)) => Some(text.as_str()),
        _ => None,
    };
    let id = |index: usize| args.get(index).and_then(Value::as_i64);
    let string = |s: &str| Value::String(s.to_string());
    Ok(match function {
        ObjectId => match text(0) {
            Some(name) => object_id(context, name, text(1))?,
            None => Value::Null,
        },
        ObjectName | ObjectSchemaName => {
            let in_database = args.len() < 2 || id(1) == Some(i64::from(DATABASE_ID));
            match id(0).filter(|_| in_database) {
                Some(object) => object_name(context, object, function == ObjectSchemaName)?,
                None => Value::Null,
            }
        }
        SchemaName => match args.first() {
            None => string("dbo"),
            Some(_) => match id(0).and_then(|i| u32::try_from(i).ok()) {
                Some(schema) => context
                    .db
                    .planning()
                    .catalog()
                    .schema_name(schema)
                    .map_or(Value::Null, string),
                None => Value::Null,
            },
        },
        SchemaId => {
            let name = if args.is_empty() {
                Some("dbo")
            } else {
                text(0)
            };
            match name.and_then(|n| context.db.planning().catalog().schema_id(n)) {
                Some(schema) => Value::Int(hekla_plan::names::schema_id(schema)),
                None => Value::Null,
            }
        }
        DbId => match (args.is_empty(), text(0)) {
            (true, _) => Value::Int(DATABASE_ID),
            (_, Some(name)) if name.eq_ignore_ascii_case(DATABASE_NAME) => Value::Int(DATABASE_ID),
            (_, Some(name)) if name.eq_ignore_ascii_case(MASTER_NAME) => Value::Int(MASTER_ID),
            _ => Value::Null,
        },
        DbName => match (args.is_empty(), id(0)) {
            (true, _) => string(DATABASE_NAME),
            (_, Some(i)) if i == i64::from(DATABASE_ID) => string(DATABASE_NAME),
            (_, Some(i)) if i == i64::from(MASTER_ID) => string(MASTER_NAME),
            _ => Value::Null,
        },
        ServerProperty => text(0).map_or(Value::Null, server_property),
        DatabasePropertyEx => match (text(0), text(1)) {
            (Some(database), Some(property)) => database_property(context, database, property)?,
            _ => Value::Null,
        },
        UserName => {
            let id = (!args.is_empty()).then(|| id(0));
            security().user_name(&session.principal, id)
        }
        UserId => {
            let name = (!args.is_empty()).then(|| text(0));
            security().user_id(&session.principal, name)
        }
        SuserSname => session.login.as_deref().map_or(Value::Null, string),
        AppName => session
            .client
            .as_ref()
            .map_or(Value::Null, |client| string(&client.program_name)),
        HostName => session
            .client
            .as_ref()
            .map_or(Value::Null, |client| string(&client.host_name)),
        SuserId => {
            let login = (!args.is_empty()).then(|| text(0));
            security().suser_id(&session.principal, session.login.as_deref(), login)
        }
        IsMember => security().is_member(&session.principal, text(0)),
        IsSrvRoleMember => {
            let login = (args.len() > 1).then(|| text(1));
            security().is_srvrolemember(&session.principal, text(0), login)
        }
        Identity => match &session.identity {
            Some(value) => convert_identity(value, result_type)?,
            None => Value::Null,
        },
        ScopeIdentity => match &session.scope_identity {
            Some(value) => convert_identity(value, result_type)?,
            None => Value::Null,
        },
        IdentCurrent | IdentSeed | IdentIncr => match text(0) {
            Some(name) => identity_of(context, name, function)?,
            None => Value::Null,
        },
        Spid => Value::SmallInt(session.spid),
        Version => string(&version()),
        RowCount => Value::Int(i32::try_from(session.rowcount).unwrap_or(i32::MAX)),
        TranCount => Value::Int(i32::try_from(session.trancount).unwrap_or(i32::MAX)),
        NestLevel => Value::Int(i32::from(session.nest_level)),
        XactState => Value::SmallInt(session.xact_state),
        ErrorNumber | ErrorMessage | ErrorSeverity | ErrorState | ErrorLine | ErrorProcedure => {
            caught_error(function, session.caught.as_deref())
        }
        Error => Value::Int(session.error),
        ServerName => string(&host_name()),
        Language => string(hekla_plan::session_options::LANGUAGE),
        LangId => Value::SmallInt(0),
        DateFirst => Value::TinyInt(context.options.date_first),
        Options => Value::Int(context.options.bitmask()),
        TextSize => Value::Int(context.options.text_size),
        LockTimeout => Value::Int(context.options.lock_timeout),
        MaxPrecision => Value::TinyInt(38),
    })
}

fn convert_identity(value: &Value, target: &DataType) -> SqlResult<Value> {
    let source = match value {
        Value::TinyInt(_) => DataType::TinyInt,
        Value::SmallInt(_) => DataType::SmallInt,
        Value::Int(_) => DataType::Int,
        Value::BigInt(_) => DataType::BigInt,
        _ => *target,
    };
    convert_from(value, &source, target, None)
}

/// The system view `sys.{name}`, one of those these functions read.
fn system_view(context: &Context, name: &str) -> SystemRelation {
    context
        .db
        .planning()
        .system_view(None, "sys", name)
        .expect("the system views the server functions read exist")
}

/// The rows of `sys.objects`: name, object_id, principal_id, schema_id,
/// parent_object_id, type ...
fn objects(context: &Context) -> SqlResult<Vec<Vec<Value>>> {
    context.db.view_rows(&system_view(context, "objects"))
}

/// `OBJECT_ID('[db.][schema.]name' [, 'type'])`: NULL for names in other
/// databases and objects that do not exist; a temporary table is found
/// in tempdb (`tempdb..#t`).
fn object_id(context: &Context, name: &str, object_type: Option<&str>) -> SqlResult<Value> {
    let parts: Vec<String> = split_name(name);
    let (database, schema, object) = match parts.as_slice() {
        [object] => (None, "dbo", object.as_str()),
        [schema, object] => (None, schema.as_str(), object.as_str()),
        [database, schema, object] => (
            Some(database.as_str()),
            if schema.is_empty() {
                "dbo"
            } else {
                schema.as_str()
            },
            object.as_str(),
        ),
        _ => return Ok(Value::Null),
    };
    if object.starts_with('#') {
        // Temporary tables live in tempdb: the session's own `#t`, any `##t`.
        let in_tempdb = database.is_some_and(|d| d.eq_ignore_ascii_case("tempdb"));
        let table_type = object_type.is_none_or(|t| t.trim().eq_ignore_ascii_case("U"));
        let found = context
            .db
            .planning()
            .temp_table(context.session.spid, object)
            .filter(|_| in_tempdb && table_type);
        return Ok(found.map_or(Value::Null, |table| Value::Int(table.object_id)));
    }
    if database.is_some_and(|d| !d.eq_ignore_ascii_case(DATABASE_NAME)) {
        return Ok(Value::Null);
    }
    let Some(schema_id) = context.db.planning().catalog().schema_id(schema) else {
        return Ok(Value::Null);
    };
    let schema_id = Value::Int(hekla_plan::names::schema_id(schema_id));
    let found = objects(context)?.into_iter().find(|row| {
        let named = matches!(&row[0], Value::String(n) if n.eq_ignore_ascii_case(object));
        let typed = match (object_type, &row[5]) {
            (Some(wanted), Value::String(code)) => code.trim().eq_ignore_ascii_case(wanted.trim()),
            (Some(_), _) => false,
            (None, _) => true,
        };
        named && typed && row[3] == schema_id
    });
    Ok(found.map_or(Value::Null, |row| row[1].clone()))
}

/// `IDENT_CURRENT` (the last value any session took, or the seed before
/// the first), `IDENT_SEED` or `IDENT_INCR` of the table `name` names;
/// NULL for a name that is not a table with an IDENTITY column.
fn identity_of(context: &Context, name: &str, function: ServerFunction) -> SqlResult<Value> {
    let Some(object) = table_id(context, name)? else {
        return Ok(Value::Null);
    };
    let catalog = context.db.planning().catalog();
    let identity = catalog
        .table_by_id(object)
        .and_then(|table| table.identity.as_ref());
    let Some(identity) = identity else {
        return Ok(Value::Null);
    };
    let value = match function {
        ServerFunction::IdentCurrent => identity.counter.last().unwrap_or(identity.seed),
        ServerFunction::IdentSeed => identity.seed,
        _ => identity.increment,
    };
    hekla_types::Decimal::new(value, 38, 0).map(Value::Decimal)
}

/// The object id of the user table `name` names, as `OBJECT_ID(name,
/// 'U')` finds it.
pub fn table_id(context: &Context, name: &str) -> SqlResult<Option<i32>> {
    let id = object_id(context, name, Some("U"))?;
    Ok(id.as_i64().and_then(|id| i32::try_from(id).ok()))
}

/// The type code (`U`, `V`, `P` ...) of the object `name` names in the
/// database, as `sys.objects` shows it; None if it names none.
pub fn object_type(context: &Context, name: &str) -> SqlResult<Option<String>> {
    let id = object_id(context, name, None)?;
    if id.is_null() {
        return Ok(None);
    }
    Ok(objects(context)?
        .into_iter()
        .find(|row| row[1] == id)
        .and_then(|row| match &row[5] {
            Value::String(code) => Some(code.trim().to_string()),
            _ => None,
        }))
}

/// OBJECT_NAME / OBJECT_SCHEMA_NAME of an object id.
fn object_name(context: &Context, object: i64, schema: bool) -> SqlResult<Value> {
    let row = objects(context)?
        .into_iter()
        .find(|row| row[1].as_i64() == Some(object));
    let Some(row) = row else {
        return Ok(Value::Null);
    };
    if !schema {
        return Ok(row[0].clone());
    }
    let schema_id = row[3].as_i64().and_then(|i| u32::try_from(i).ok());
    Ok(schema_id
        .and_then(|i| {
            context
                .db
                .planning()
                .catalog()
                .schema_name(i)
                .map(str::to_string)
        })
        .map_or(Value::Null, Value::String))
}

/// `a.b.c`, `[a].[b.c]`, `a..c` into their parts, brackets removed.
pub fn split_name(name: &str) -> Vec<String> {
    let mut parts = vec![String::new()];
    let mut chars = name.trim().chars().peekable();
    let mut bracketed = false;
    while let Some(c) = chars.next() {
        match c {
            '[' if !bracketed => bracketed = true,
            ']' if bracketed && chars.peek() == Some(&']') => {
                chars.next();
                parts.last_mut().expect("one part").push(']');
            }
            ']' if bracketed => bracketed = false,
            '.' if !bracketed => parts.push(String::new()),
            c => parts.last_mut().expect("one part").push(c),
        }
    }
    parts
}

fn server_property(property: &str) -> Value {
    let text = |s: String| Value::String(s);
    match property.to_ascii_lowercase().as_str() {
        "productversion" => text(PRODUCT_VERSION.to_string()),
        "productmajorversion" => text("16".to_string()),
        "productminorversion" => text("0".to_string()),
        "productbuild" => text("1000".to_string()),
        "productlevel" => text("RTM".to_string()),
        "edition" => text(format!("hekla {}", env!("CARGO_PKG_VERSION"))),
        "servername" | "machinename" | "computernamephysicalnetbios" => text(host_name()),
        "collation" => text(Collation::default().name().to_string()),
        "isxtpsupported" => text("1".to_string()),
        // 3 is Enterprise (also Developer and Evaluation): hekla has no
        // edition of its own and, like those, refuses no feature for
        // its edition, In-Memory OLTP included.
        "engineedition" => text("3".to_string()),
        "issingleuser" | "isclustered" | "ishadrenabled" | "isfulltextinstalled" => {
            text("0".to_string())
        }
        "processid" => text(std::process::id().to_string()),
        // SQL Server answers NULL for a property it does not know.
        _ => Value::Null,
    }
}

/// `DATABASEPROPERTYEX(database, property)`, read from the database's row
/// of `sys.databases` so that the two always agree; NULL for a database or
/// property hekla does not know.
fn database_property(context: &Context, database: &str, property: &str) -> SqlResult<Value> {
    let view = system_view(context, "databases");
    let columns = (view.columns)();
    let rows = context.db.view_rows(&view)?;
    let Some(row) = rows
        .iter()
        .find(|row| matches!(&row[0], Value::String(name) if name.eq_ignore_ascii_case(database)))
    else {
        return Ok(Value::Null);
    };
    let column = |name: &str| {
        columns
            .iter()
            .position(|column| column.name == name)
            .map_or(Value::Null, |index| row[index].clone())
    };
    let text = |s: &str| Value::String(s.to_string());
    Ok(match property.to_ascii_lowercase().as_str() {
        "collation" => column("collation_name"),
        "status" => column("state_desc"),
        "useraccess" => column("user_access_desc"),
        "recovery" => column("recovery_model_desc"),
        "updateability" => match column("is_read_only") {
            Value::Bit(true) => text("READ_ONLY"),
            Value::Bit(false) => text("READ_WRITE"),
            _ => Value::Null,
        },
        // hekla never closes, shrinks or restores a database.
        "isautoclose" | "isautoshrink" | "isinstandby" => text("0"),
        _ => Value::Null,
    })
}

fn version() -> String {
    format!(
        "hekla {} - {} (in-memory OLTP database engine following Microsoft SQL Server 2022)\n\tLinux {}",
        env!("CARGO_PKG_VERSION"),
        PRODUCT_VERSION,
        std::env::consts::ARCH
    )
}

/// The machine's name, as the kernel reports it.
fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|name| name.trim().to_string())
        .unwrap_or_else(|_| "localhost".to_string())
}

/// `ERROR_NUMBER()` and its siblings: NULL outside a CATCH block.
fn caught_error(function: ServerFunction, caught: Option<&ErrorEvent>) -> Value {
    let Some(event) = caught else {
        return Value::Null;
    };
    let error = &event.error;
    let int = |n: u32| Value::Int(i32::try_from(n).unwrap_or(i32::MAX));
    match function {
        ServerFunction::ErrorNumber => int(error.number),
        ServerFunction::ErrorMessage => Value::String(error.message.clone()),
        ServerFunction::ErrorSeverity => int(u32::from(error.severity)),
        ServerFunction::ErrorState => int(u32::from(error.state)),
        ServerFunction::ErrorLine => int(event.line),
        ServerFunction::ErrorProcedure => event
            .procedure
            .as_ref()
            .map_or(Value::Null, |name| Value::String(name.clone())),
        _ => Value::Null,
    }
}

#[cfg(test)]
mod tests {
    use super::split_name;

    #[test]
    fn names_split_into_parts() {
        assert_eq!(split_name("dbo.t"), ["dbo", "t"]);
        assert_eq!(split_name("[my.schema].[t]]x]"), ["my.schema", "t]x"]);
        assert_eq!(split_name("hekla..t"), ["hekla", "", "t"]);
        assert_eq!(split_name("t"), ["t"]);
    }
}
