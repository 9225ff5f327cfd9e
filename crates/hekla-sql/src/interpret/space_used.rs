//! `sp_spaceused [@objname =] 'table'`: a table's row count and the memory
//! its rows and indexes take, in SQL Server's result shape (name, rows,
//! reserved, data, index_size, unused; sizes as `'N KB'` strings).
//!
//! hekla keeps tables in memory, so the sizes are those of
//! `sys.dm_db_xtp_table_memory_stats`: reserved is what the row heap and
//! the indexes have allocated, data and index_size what they use, unused
//! the rest. The rows are counted, not estimated. The form without a name
//! (database totals, which SQL Server reads from data and log files) is
//! not supported.

use super::failure::Failure;
use super::{Flow, Frame, Interpreter};
use hekla_exec::server::{split_name, table_id};
use hekla_parser::ast;
use hekla_plan::error::{not_supported_yet, Refused};
use hekla_plan::names::DATABASE_NAME;
use hekla_types::{SqlError, SqlResult, Value};

impl Interpreter<'_> {
    pub(super) fn space_used(
        &mut self,
        exec: &ast::Exec,
        statement: &ast::Statement,
        frame: &mut Frame,
    ) -> Result<Flow, Failure> {
        let query = self
            .space_used_query(&exec.args, frame)
            .map_err(|error| self.failure(error, statement, frame))?;
        self.run_dynamic(&query, None, &[], None, statement, frame)?;
        self.succeeded(exec, statement, frame)
    }

    /// The query that reports the named table, once the name is known to
    /// be one of this database's tables.
    fn space_used_query(&mut self, arguments: &[ast::ExecArg], frame: &Frame) -> SqlResult<String> {
        // @updateusage corrects SQL Server's stored page counts; hekla's
        // figures are measured, so it changes nothing.
        let named = |argument: &ast::ExecArg, wanted: &str| {
            argument
                .name
                .as_deref()
                .is_some_and(|n| n.eq_ignore_ascii_case(wanted))
        };
        let (first, rest) = arguments.split_first().ok_or_else(without_name)?;
        let known = match rest {
            [] => true,
            [second] => second.name.is_none() || named(second, "updateusage"),
            _ => false,
        };
        if !known || !(first.name.is_none() || named(first, "objname")) {
            return Err(not_supported_yet(
                Refused::Statement,
                "sp_spaceused parameters other than @objname and @updateusage",
            ));
        }
        let name = match self.plain_value(&first.value, frame)? {
            Value::Null => return Err(without_name()),
            Value::String(name) => name,
            other => other.to_string(),
        };
        let database = split_name(&name);
        if database.len() == 3 && !database[0].eq_ignore_ascii_case(DATABASE_NAME) {
            return Err(SqlError::new(
                15250,
                16,
                1,
                "The database name component of the object qualifier must be the name of the current database.",
            ));
        }
        let object_id = self
            .session
            .in_context(&frame.variables, |context| table_id(context, &name))?;
        let catalog = self.session.db.catalog();
        let found = object_id.and_then(|id| {
            let table = catalog.table_by_id(id)?;
            let schema = catalog.schema_name(table.schema_id)?;
            Some((
                table.memory_optimized,
                schema.to_string(),
                table.name.clone(),
            ))
        });
        drop(catalog);
        let (Some(object_id), Some((memory_optimized, schema, table))) = (object_id, found) else {
            return Err(not_found(&name));
        };
        // A memory-optimized table is counted at SNAPSHOT, so the call works
        // inside a user transaction as SQL Server's (which reads metadata) does.
        let hint = if memory_optimized {
            " WITH (SNAPSHOT)"
        } else {
            ""
        };
        Ok(format!(
            "SET NOCOUNT ON
SELECT name = CONVERT(nvarchar(128), N'{literal}'),
       rows = CONVERT(char(20), (SELECT COUNT_BIG(*) FROM {schema}.{table}{hint})),
       reserved = CONVERT(varchar(18), CONVERT(varchar(15), m.memory_allocated_for_table_kb + m.memory_allocated_for_indexes_kb) + ' KB'),
       data = CONVERT(varchar(18), CONVERT(varchar(15), m.memory_used_by_table_kb) + ' KB'),
       index_size = CONVERT(varchar(18), CONVERT(varchar(15), m.memory_used_by_indexes_kb) + ' KB'),
       unused = CONVERT(varchar(18), CONVERT(varchar(15), m.memory_allocated_for_table_kb + m.memory_allocated_for_indexes_kb
                                                         - m.memory_used_by_table_kb - m.memory_used_by_indexes_kb) + ' KB')
FROM sys.dm_db_xtp_table_memory_stats AS m
WHERE m.object_id = {object_id}",
            literal = table.replace('\'', "''"),
            schema = quoted(&schema),
            table = quoted(&table),
        ))
    }
}

/// `[name]`, with `]` doubled.
fn quoted(name: &str) -> String {
    format!("[{}]", name.replace(']', "]]"))
}

fn without_name() -> SqlError {
    not_supported_yet(
        Refused::Statement,
        "sp_spaceused without @objname (database totals)",
    )
}

/// Msg 15009, as the system procedures raise it for a name that is not an
/// object they can work on here.
pub(super) fn not_found(name: &str) -> SqlError {
    SqlError::new(
        15009,
        16,
        1,
        format!(
            "The object '{name}' does not exist in database '{DATABASE_NAME}' or is invalid for this operation."
        ),
    )
}
