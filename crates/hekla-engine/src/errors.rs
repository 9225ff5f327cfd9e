//! The engine's errors, with SQL Server's numbers and message texts, so that
//! retry logic written for SQL Server recognises them.

use hekla_types::SqlError;

/// 41302: first writer wins; the transaction is aborted at once.
pub fn write_conflict() -> SqlError {
    SqlError::new(
        41302,
        16,
        110,
        "The current transaction attempted to update a record that has been updated since this transaction started. The transaction was aborted.",
    )
}

/// 41305: a row read under REPEATABLE READ or SERIALIZABLE changed before commit.
pub fn repeatable_read_failure() -> SqlError {
    SqlError::new(
        41305,
        16,
        0,
        "The current transaction failed to commit due to a repeatable read validation failure.",
    )
}

/// 41325: a phantom appeared in a range scanned under SERIALIZABLE.
pub fn serializable_failure() -> SqlError {
    SqlError::new(
        41325,
        16,
        0,
        "The current transaction failed to commit due to a serializable validation failure.",
    )
}

/// 41301: a transaction this one read from speculatively aborted.
pub fn dependency_failure() -> SqlError {
    SqlError::new(
        41301,
        16,
        0,
        "A previous transaction that the current transaction took a dependency on has aborted, and the current transaction can no longer commit.",
    )
}

/// The resource pool databases are bound to (hekla has only this one).
pub const RESOURCE_POOL: &str = "default";

/// 41805: memory-optimized data would pass the database's memory limit, or
/// the system refused the memory.
pub fn insufficient_memory() -> SqlError {
    SqlError::new(
        41805,
        16,
        1,
        format!("There is insufficient memory in the resource pool '{RESOURCE_POOL}' to run this operation on memory-optimized tables. See 'http://go.microsoft.com/fwlink/?LinkID=614951' for more information."),
    )
}

/// 701: a query needs more memory than the database's memory limit leaves,
/// or than the system gives.
pub fn insufficient_system_memory() -> SqlError {
    SqlError::new(
        701,
        17,
        123,
        format!("There is insufficient system memory in resource pool '{RESOURCE_POOL}' to run this query."),
    )
}

/// 2627 (constraint) or 2601 (unique index).
pub fn duplicate_key(
    constraint: Option<&str>,
    index: &str,
    object: &str,
    key_text: &str,
) -> SqlError {
    match constraint {
        Some(kind) => SqlError::new(
            2627,
            14,
            1,
            format!(
                "Violation of {kind} constraint '{index}'. Cannot insert duplicate key in object '{object}'. The duplicate key value is ({key_text})."
            ),
        ),
        None => SqlError::new(
            2601,
            14,
            1,
            format!(
                "Cannot insert duplicate key row in object '{object}' with unique index '{index}'. The duplicate key value is ({key_text})."
            ),
        ),
    }
}

/// 515: NULL into a NOT NULL column.
pub fn null_not_allowed(column: &str, object: &str, statement: &str) -> SqlError {
    SqlError::new(
        515,
        16,
        2,
        format!(
            "Cannot insert the value NULL into column '{column}', table '{object}'; column does not allow nulls. {statement} fails."
        ),
    )
}

/// 2628: a value longer than its column.
pub fn truncation(object: &str, column: &str) -> SqlError {
    SqlError::new(
        2628,
        16,
        1,
        format!("String or binary data would be truncated in table '{object}', column '{column}'."),
    )
}

/// 3930: work attempted in a transaction that has already been aborted.
pub fn transaction_doomed() -> SqlError {
    SqlError::new(
        3930,
        16,
        1,
        "The current transaction cannot be committed and cannot support operations that write to the log file. Roll back the transaction.",
    )
}

/// 41307: a row larger than the engine's row size limit.
pub fn row_too_large(limit: usize) -> SqlError {
    SqlError::new(
        41307,
        16,
        1,
        format!("The row size limit of {limit} bytes for memory optimized tables has been exceeded. Please simplify the table definition."),
    )
}

/// 41839-style resource limit: too many concurrent transactions.
pub fn too_many_transactions(limit: usize) -> SqlError {
    SqlError::new(
        41839,
        16,
        1,
        format!("The number of concurrent transactions exceeded the engine limit of {limit}. Retry the transaction."),
    )
}

/// 2714: a name already in use.
pub fn object_exists(name: &str) -> SqlError {
    SqlError::new(
        2714,
        16,
        6,
        format!("There is already an object named '{name}' in the database."),
    )
}

/// 208: no such object.
pub fn invalid_object(name: &str) -> SqlError {
    SqlError::new(208, 16, 1, format!("Invalid object name '{name}'."))
}

/// A rejected table or index definition (the number says which rule).
pub fn invalid_definition(number: u32, message: String) -> SqlError {
    SqlError::new(number, 16, 1, message)
}

/// 40000-range "not supported" for features this engine version lacks.
pub fn not_supported(feature: &str) -> SqlError {
    SqlError::new(
        10794,
        16,
        1,
        format!("The feature '{feature}' is not supported with memory optimized tables in this version of hekla."),
    )
}

/// A caller broke an API contract (wrong table, stale row handle, bad arity).
pub fn invalid_argument(message: String) -> SqlError {
    SqlError::new(50000, 16, 1, message)
}

/// 1946: a range index key longer than the B+tree takes.
pub fn index_key_too_long(len: usize, index: &str, limit: usize) -> SqlError {
    SqlError::new(
        1946,
        16,
        3,
        format!("Operation failed. The index entry of length {len} bytes for the index '{index}' exceeds the maximum length of {limit} bytes for nonclustered indexes."),
    )
}

/// 9002: the log cannot grow because its disk is full. Durable commits are
/// refused from then on; nothing already acknowledged is touched.
pub fn log_full(database: &str) -> SqlError {
    SqlError::new(
        9002,
        17,
        2,
        format!("The transaction log for database '{database}' is full due to 'DISK_FULL'."),
    )
}

/// 9001: the log failed in a way that leaves its tail unknown; the
/// database takes no more commits until it is restarted.
pub fn log_unavailable(database: &str, cause: &std::io::Error) -> SqlError {
    SqlError::new(
        9001,
        21,
        1,
        format!("The log for database '{database}' is not available ({cause}). Check the operating system error log for related error messages. Resolve any errors and restart the database."),
    )
}

/// An operating-system error on a database file (SQL Server's 823).
pub fn io_error(operation: &str, path: &std::path::Path, cause: &std::io::Error) -> SqlError {
    SqlError::new(
        823,
        24,
        2,
        format!(
            "The operating system returned error '{cause}' during a {operation} of file '{}'.",
            path.display()
        ),
    )
}

/// 3414: a database's files are damaged; it is not opened at all.
pub fn recovery_failed(path: &std::path::Path, offset: u64, problem: &str) -> SqlError {
    SqlError::new(
        3414,
        21,
        1,
        format!(
            "An error occurred during recovery, preventing the database from opening: file '{}' is corrupt at offset {offset}: {problem}.",
            path.display()
        ),
    )
}

/// 5120: the database directory is open in another process.
pub fn database_in_use(path: &std::path::Path) -> SqlError {
    SqlError::new(
        5120,
        16,
        101,
        format!(
            "Unable to open the physical file \"{}\". The database is in use by another process.",
            path.display()
        ),
    )
}
