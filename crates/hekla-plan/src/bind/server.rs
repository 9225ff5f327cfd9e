//! Functions that read the server, the database's catalog or the session
//! rather than their arguments alone: `OBJECT_ID`, `DB_NAME`,
//! `SERVERPROPERTY`, `@@SPID`, `@@ROWCOUNT`, `SCOPE_IDENTITY()` ... They
//! are bound here and evaluated against the statement's context
//! (`exec::server`).

use super::expr::{implicit, Binder, Scalar, ScalarKind};
use hekla_parser::ast;
use hekla_types::{Collation, DataType, Length, SqlError, SqlResult};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ServerFunction {
    ObjectId,
    ObjectName,
    ObjectSchemaName,
    SchemaName,
    SchemaId,
    DbId,
    DbName,
    ServerProperty,
    DatabasePropertyEx,
    UserName,
    UserId,
    SuserSname,
    SuserId,
    IsMember,
    IsSrvRoleMember,
    ScopeIdentity,
    /// `IDENT_CURRENT`, `IDENT_SEED`, `IDENT_INCR` of a table's IDENTITY.
    IdentCurrent,
    IdentSeed,
    IdentIncr,
    /// `@@...`
    Spid,
    Version,
    RowCount,
    TranCount,
    NestLevel,
    Error,
    XactState,
    /// `ERROR_NUMBER()` ... `ERROR_PROCEDURE()`: the error a CATCH block
    /// is handling.
    ErrorNumber,
    ErrorMessage,
    ErrorSeverity,
    ErrorState,
    ErrorLine,
    ErrorProcedure,
    Identity,
    ServerName,
    /// `APP_NAME()` and `HOST_NAME()`: what the client said at login.
    AppName,
    HostName,
    Language,
    LangId,
    DateFirst,
    Options,
    TextSize,
    LockTimeout,
    MaxPrecision,
}

impl ServerFunction {
    /// The name a plan shows.
    pub fn name(self) -> &'static str {
        use ServerFunction::*;
        match self {
            ObjectId => "object_id",
            ObjectName => "object_name",
            ObjectSchemaName => "object_schema_name",
            SchemaName => "schema_name",
            SchemaId => "schema_id",
            DbId => "db_id",
            DbName => "db_name",
            ServerProperty => "serverproperty",
            DatabasePropertyEx => "databasepropertyex",
            UserName => "user_name",
            UserId => "user_id",
            SuserSname => "suser_sname",
            SuserId => "suser_id",
            IsMember => "is_member",
            IsSrvRoleMember => "is_srvrolemember",
            ScopeIdentity => "scope_identity",
            IdentCurrent => "ident_current",
            IdentSeed => "ident_seed",
            IdentIncr => "ident_incr",
            Spid => "@@spid",
            Version => "@@version",
            RowCount => "@@rowcount",
            TranCount => "@@trancount",
            NestLevel => "@@nestlevel",
            Error => "@@error",
            XactState => "xact_state",
            ErrorNumber => "error_number",
            ErrorMessage => "error_message",
            ErrorSeverity => "error_severity",
            ErrorState => "error_state",
            ErrorLine => "error_line",
            ErrorProcedure => "error_procedure",
            Identity => "@@identity",
            ServerName => "@@servername",
            AppName => "app_name",
            HostName => "host_name",
            Language => "@@language",
            LangId => "@@langid",
            DateFirst => "@@datefirst",
            Options => "@@options",
            TextSize => "@@textsize",
            LockTimeout => "@@lock_timeout",
            MaxPrecision => "@@max_precision",
        }
    }
}

fn sysname() -> DataType {
    DataType::NVarChar {
        len: Length::Bounded(128),
        collation: Collation::default(),
    }
}

/// The type of `@@IDENTITY` and `SCOPE_IDENTITY()`.
fn identity_type() -> DataType {
    DataType::Decimal {
        precision: 38,
        scale: 0,
    }
}

impl Binder<'_> {
    /// `@@name`; Msg 137 for one hekla does not know (SQL Server reads an
    /// unknown `@@x` as an undeclared variable).
    pub(super) fn global_variable(&self, name: &str) -> SqlResult<Scalar> {
        use ServerFunction::*;
        let (function, data_type) = match name.to_ascii_uppercase().as_str() {
            "SPID" => (Spid, DataType::SmallInt),
            "VERSION" => (
                Version,
                DataType::NVarChar {
                    len: Length::Bounded(300),
                    collation: Collation::default(),
                },
            ),
            "ROWCOUNT" => (RowCount, DataType::Int),
            "TRANCOUNT" => (TranCount, DataType::Int),
            "NESTLEVEL" => (NestLevel, DataType::Int),
            "ERROR" => (Error, DataType::Int),
            "IDENTITY" => (Identity, identity_type()),
            "SERVERNAME" => (ServerName, sysname()),
            "LANGUAGE" => (Language, sysname()),
            "LANGID" => (LangId, DataType::SmallInt),
            "DATEFIRST" => (DateFirst, DataType::TinyInt),
            "OPTIONS" => (Options, DataType::Int),
            "TEXTSIZE" => (TextSize, DataType::Int),
            "LOCK_TIMEOUT" => (LockTimeout, DataType::Int),
            "MAX_PRECISION" => (MaxPrecision, DataType::TinyInt),
            _ => {
                return Err(SqlError::new(
                    137,
                    15,
                    2,
                    format!("Must declare the scalar variable \"@@{name}\"."),
                ))
            }
        };
        Ok(server(function, Vec::new(), data_type))
    }

    /// A call of a server function, or None for any other name.
    pub(super) fn server_function(&self, call: &ast::FunctionCall) -> Option<SqlResult<Scalar>> {
        use ServerFunction::*;
        if call.name.parts.len() > 1 || call.over.is_some() {
            return None;
        }
        let name = call.name.name().value.to_ascii_uppercase();
        let (function, arguments, data_type) = match name.as_str() {
            "OBJECT_ID" => (ObjectId, 1..=2, DataType::Int),
            "OBJECT_NAME" => (ObjectName, 1..=2, sysname()),
            "OBJECT_SCHEMA_NAME" => (ObjectSchemaName, 1..=2, sysname()),
            "SCHEMA_NAME" => (SchemaName, 0..=1, sysname()),
            "SCHEMA_ID" => (SchemaId, 0..=1, DataType::Int),
            "DB_ID" => (DbId, 0..=1, DataType::Int),
            "DB_NAME" => (DbName, 0..=1, sysname()),
            // sql_variant in SQL Server; hekla has no sql_variant, so the
            // value comes as text (numbers as their digits).
            "SERVERPROPERTY" => (ServerProperty, 1..=1, sysname()),
            "DATABASEPROPERTYEX" => (DatabasePropertyEx, 2..=2, sysname()),
            "USER_NAME" => (UserName, 0..=1, sysname()),
            "USER_ID" => (UserId, 0..=1, DataType::Int),
            // The login's name; ORIGINAL_LOGIN() is the same without
            // EXECUTE AS, which hekla does not have.
            "SUSER_SNAME" | "SUSER_NAME" | "ORIGINAL_LOGIN" => (SuserSname, 0..=0, sysname()),
            "SUSER_ID" => (SuserId, 0..=1, DataType::Int),
            "APP_NAME" => (AppName, 0..=0, sysname()),
            "HOST_NAME" => (HostName, 0..=0, sysname()),
            "IS_MEMBER" => (IsMember, 1..=1, DataType::Int),
            "IS_SRVROLEMEMBER" => (IsSrvRoleMember, 1..=2, DataType::Int),
            "SCOPE_IDENTITY" => (ScopeIdentity, 0..=0, identity_type()),
            "IDENT_CURRENT" => (IdentCurrent, 1..=1, identity_type()),
            "IDENT_SEED" => (IdentSeed, 1..=1, identity_type()),
            "IDENT_INCR" => (IdentIncr, 1..=1, identity_type()),
            "XACT_STATE" => (XactState, 0..=0, DataType::SmallInt),
            "ERROR_NUMBER" => (ErrorNumber, 0..=0, DataType::Int),
            "ERROR_MESSAGE" => (
                ErrorMessage,
                0..=0,
                DataType::NVarChar {
                    len: Length::Bounded(4000),
                    collation: Collation::default(),
                },
            ),
            "ERROR_SEVERITY" => (ErrorSeverity, 0..=0, DataType::Int),
            "ERROR_STATE" => (ErrorState, 0..=0, DataType::Int),
            "ERROR_LINE" => (ErrorLine, 0..=0, DataType::Int),
            "ERROR_PROCEDURE" => (ErrorProcedure, 0..=0, sysname()),
            _ => return None,
        };
        Some(self.server_call(call, function, arguments, data_type))
    }

    fn server_call(
        &self,
        call: &ast::FunctionCall,
        function: ServerFunction,
        arguments: std::ops::RangeInclusive<usize>,
        data_type: DataType,
    ) -> SqlResult<Scalar> {
        if !arguments.contains(&call.args.len()) || call.star || call.distinct {
            return Err(SqlError::new(
                174,
                15,
                1,
                format!(
                    "The {} function requires {} argument(s).",
                    function.name(),
                    // The bound the call missed.
                    if call.args.len() < *arguments.start() {
                        arguments.start()
                    } else {
                        arguments.end()
                    }
                ),
            ));
        }
        // Names are text, ids int; each argument converts to what its
        // position takes.
        let text = DataType::NVarChar {
            len: Length::Max,
            collation: self.collation,
        };
        let args = call
            .args
            .iter()
            .enumerate()
            .map(|(position, arg)| {
                let takes_id = matches!(
                    (function, position),
                    (
                        ServerFunction::ObjectName | ServerFunction::ObjectSchemaName,
                        0
                    ) | (
                        ServerFunction::ObjectName | ServerFunction::ObjectSchemaName,
                        1
                    ) | (ServerFunction::SchemaName | ServerFunction::DbName, 0)
                        | (ServerFunction::UserName, 0)
                );
                let target = if takes_id { DataType::Int } else { text };
                implicit(self.scalar(arg)?, &target)
            })
            .collect::<SqlResult<Vec<_>>>()?;
        Ok(server(function, args, data_type))
    }
}

fn server(function: ServerFunction, args: Vec<Scalar>, data_type: DataType) -> Scalar {
    Scalar {
        kind: ScalarKind::Server { function, args },
        data_type,
    }
}
