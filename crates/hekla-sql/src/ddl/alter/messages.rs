//! SQL Server's messages for ALTER TABLE, CREATE INDEX and DROP INDEX.

use hekla_types::SqlError;

pub fn damaged(object_id: i32) -> SqlError {
    SqlError::new(
        3414,
        21,
        1,
        format!("The stored definition of table object {object_id} does not match the table."),
    )
}

pub fn index_exists(index: &str, table: &str) -> SqlError {
    SqlError::new(
        1913,
        16,
        1,
        format!("The operation failed because an index or statistics with name '{index}' already exists on table '{table}'."),
    )
}

pub fn has_primary_key(table: &str) -> SqlError {
    SqlError::new(
        1779,
        16,
        0,
        format!("Table '{table}' already has a primary key defined on it."),
    )
}

pub fn nullable_key(table: &str) -> SqlError {
    SqlError::new(
        8111,
        16,
        1,
        format!("Cannot define PRIMARY KEY constraint on nullable column in table '{table}'."),
    )
}

pub fn has_default() -> SqlError {
    SqlError::new(1781, 16, 1, "Column already has a DEFAULT bound to it.")
}

pub fn no_default_column(column: &str, table: &str) -> SqlError {
    SqlError::new(
        1752,
        16,
        0,
        format!(
            "Column '{column}' in table '{table}' is invalid for creating a default constraint."
        ),
    )
}

/// Msg 1750, after the error that stopped a constraint or index.
pub fn could_not_create() -> SqlError {
    SqlError::new(
        1750,
        16,
        0,
        "Could not create constraint or index. See previous errors.",
    )
}

/// Msg 10785: index syntax of ALTER TABLE on a table that is not
/// memory-optimized.
pub fn only_memory_optimized(operation: &str, state: u8) -> SqlError {
    SqlError::new(
        10785,
        16,
        state,
        format!("The operation '{operation}' is supported only with memory optimized tables."),
    )
}

pub fn not_with_memory_optimized(operation: &str) -> SqlError {
    SqlError::new(
        10794,
        16,
        12,
        format!("The operation '{operation}' is not supported with memory optimized tables."),
    )
}

pub fn hash_on_disk_table() -> SqlError {
    SqlError::new(
        10791,
        16,
        1,
        "Hash indexes are permitted only in memory optimized tables.",
    )
}

pub fn clustered_memory_optimized() -> SqlError {
    SqlError::new(
        12317,
        16,
        68,
        "Clustered indexes, which are the default for primary keys, are not supported with memory optimized tables. Specify a NONCLUSTERED index instead.",
    )
}

pub fn included_columns() -> SqlError {
    SqlError::new(
        10664,
        16,
        1,
        "Cannot specify included columns for indexes on memory optimized tables.",
    )
}

pub fn filtered_memory_optimized() -> SqlError {
    SqlError::new(
        10794,
        16,
        1,
        "The feature 'WHERE' is not supported with indexes on memory optimized tables.",
    )
}

/// Msg 3723: DROP INDEX of an index a constraint needs.
pub fn index_enforces(table: &str, index: &str, constraint: &str) -> SqlError {
    SqlError::new(
        3723,
        16,
        4,
        format!("An explicit DROP INDEX is not allowed on index '{table}.{index}'. It is being used for {constraint} constraint enforcement."),
    )
}

pub fn key_referenced(key: &str, table: &str, foreign_key: &str) -> SqlError {
    SqlError::new(
        3725,
        16,
        0,
        format!("The constraint '{key}' is being referenced by table '{table}', foreign key constraint '{foreign_key}'."),
    )
}

pub fn not_a_constraint(name: &str) -> SqlError {
    SqlError::new(3728, 16, 1, format!("'{name}' is not a constraint."))
}

pub fn could_not_drop_constraint() -> SqlError {
    SqlError::new(
        3727,
        16,
        0,
        "Could not drop constraint. See previous errors.",
    )
}

pub fn object_depends(object: &str, column: &str) -> SqlError {
    SqlError::new(
        5074,
        16,
        1,
        format!("The object '{object}' is dependent on column '{column}'."),
    )
}

pub fn index_depends(index: &str, column: &str) -> SqlError {
    SqlError::new(
        5074,
        16,
        1,
        format!("The index '{index}' is dependent on column '{column}'."),
    )
}

pub fn statistics_depends(statistics: &str, column: &str) -> SqlError {
    SqlError::new(
        5074,
        16,
        1,
        format!("The statistics '{statistics}' is dependent on column '{column}'."),
    )
}

/// Msg 4922, after the 5074s: `operation` is DROP or ALTER.
pub fn column_in_use(operation: &str, column: &str) -> SqlError {
    SqlError::new(
        4922,
        16,
        9,
        format!("ALTER TABLE {operation} COLUMN {column} failed because one or more objects access this column."),
    )
}

pub fn only_column(column: &str, table: &str) -> SqlError {
    SqlError::new(
        4923,
        16,
        1,
        format!("ALTER TABLE DROP COLUMN failed because '{column}' is the only data column in table '{table}'. A table must have at least one data column."),
    )
}

/// Msg 4924: `operation` is `DROP COLUMN` or `ALTER COLUMN`.
pub fn no_column(operation: &str, column: &str, table: &str) -> SqlError {
    SqlError::new(
        4924,
        16,
        1,
        format!("ALTER TABLE {operation} failed because column '{column}' does not exist in table '{table}'."),
    )
}

/// Msg 3701 for `ALTER TABLE ... ALTER INDEX`.
pub fn no_index_to_alter(index: &str) -> SqlError {
    SqlError::new(
        3701,
        16,
        22,
        format!("Cannot alter the index '{index}', because it does not exist or you do not have permission."),
    )
}

/// Msg 3701 for `ALTER TABLE ... DROP INDEX` (`level` 16) and for `DROP
/// INDEX` (level 11, the index written as `table.index`).
pub fn no_index_to_drop(index: &str, level: u8) -> SqlError {
    SqlError::new(
        3701,
        level,
        if level == 11 { 7 } else { 21 },
        format!("Cannot drop the index '{index}', because it does not exist or you do not have permission."),
    )
}

pub fn index_option(option: &str) -> SqlError {
    SqlError::new(
        10794,
        16,
        81,
        format!(
            "The index option '{option}' is not supported with indexes on memory optimized tables."
        ),
    )
}

pub fn bucket_count_not_hash() -> SqlError {
    SqlError::new(
        10790,
        16,
        4,
        "The option 'BUCKET_COUNT' can be specified only for hash indexes.",
    )
}

pub fn duplicate_key(object: &str, index: &str, key: &str) -> SqlError {
    SqlError::new(
        1505,
        16,
        1,
        format!("The CREATE UNIQUE INDEX statement terminated because a duplicate key was found for the object name '{object}' and the index name '{index}'. The duplicate key value is ({key})."),
    )
}

pub fn not_null_column(column: &str, table: &str) -> SqlError {
    SqlError::new(
        4901,
        16,
        1,
        format!("ALTER TABLE only allows columns to be added that can contain nulls, or have a DEFAULT definition specified, or the column being added is an identity or timestamp column, or alternatively if none of the previous conditions are satisfied the table must be empty to allow addition of this column. Column '{column}' cannot be added to non-empty table '{table}' because it does not satisfy these conditions."),
    )
}
