//! Where data lives: `sys.databases`, `sys.filegroups`,
//! `sys.database_files`, and the page-storage views `sys.partitions` and
//! `sys.allocation_units`, which are empty because memory-optimized data
//! has neither (rows live in memory, linked by their indexes).

use super::context::SystemContext;
use super::objects::no_rows;
use super::shared::{
    bit, char, int, not_null, nullable, nvarchar, sysname, text, tinyint, CONTAINER_FILE_ID,
    LOG_FILE_ID, MEMORY_OPTIMIZED_DATA_SPACE, MEMORY_OPTIMIZED_FILEGROUP,
};
use super::{Scope, SystemView, ViewColumn};
use hekla_engine::{DelayedDurability, RecoveryModel, UserAccess};
use hekla_plan::names::{DATABASE_ID, DATABASE_NAME, MASTER_ID, MASTER_NAME};
use hekla_types::{Collation, DataType, SqlResult, Value};
use std::path::Path;

// ---- sys.databases --------------------------------------------------------

pub const DATABASES: SystemView = SystemView {
    schema: "sys",
    name: "databases",
    scope: Scope::Server,
    columns: databases_columns,
    rows: databases_rows,
};

fn databases_columns() -> Vec<ViewColumn> {
    vec![
        not_null("name", sysname()),
        not_null("database_id", DataType::Int),
        nullable("source_database_id", DataType::Int),
        // hekla does not record when a database was created.
        nullable("create_date", DataType::DateTime),
        nullable("collation_name", sysname()),
        nullable("user_access", DataType::TinyInt),
        nullable("user_access_desc", nvarchar(60)),
        nullable("is_read_only", DataType::Bit),
        nullable("state", DataType::TinyInt),
        nullable("state_desc", nvarchar(60)),
        nullable("recovery_model", DataType::TinyInt),
        nullable("recovery_model_desc", nvarchar(60)),
        nullable("is_memory_optimized_elevate_to_snapshot_on", DataType::Bit),
        nullable("delayed_durability", DataType::Int),
        nullable("delayed_durability_desc", nvarchar(60)),
        nullable("is_memory_optimized_enabled", DataType::Bit),
    ]
}

/// master (which holds only `spt_values`, and cannot be written) and the
/// database itself.
fn databases_rows(db: &dyn SystemContext) -> SqlResult<Vec<Vec<Value>>> {
    let engine = db.engine();
    let collation = text(Collation::default().name());
    let master = vec![
        text(MASTER_NAME),
        int(MASTER_ID),
        Value::Null,
        Value::Null,
        collation.clone(),
        tinyint(0),
        text("MULTI_USER"),
        bit(true),
        tinyint(0),
        text("ONLINE"),
        // master has no log or tables in hekla: no recovery model, and
        // no memory-optimized data.
        Value::Null,
        Value::Null,
        Value::Null,
        Value::Null,
        Value::Null,
        bit(false),
    ];
    let options = engine.options();
    let recovery = match options.recovery {
        RecoveryModel::Full => "FULL",
        RecoveryModel::BulkLogged => "BULK_LOGGED",
        RecoveryModel::Simple => "SIMPLE",
    };
    let user_access = match options.user_access {
        UserAccess::Multi => "MULTI_USER",
        UserAccess::Single => "SINGLE_USER",
        UserAccess::Restricted => "RESTRICTED_USER",
    };
    let delayed = match options.delayed_durability {
        DelayedDurability::Disabled => (0, "DISABLED"),
        DelayedDurability::Allowed => (1, "ALLOWED"),
        DelayedDurability::Forced => (2, "FORCED"),
    };
    let current = vec![
        text(DATABASE_NAME),
        int(DATABASE_ID),
        Value::Null,
        Value::Null,
        collation,
        tinyint(options.user_access.code()),
        text(user_access),
        bit(false),
        tinyint(0),
        text("ONLINE"),
        tinyint(options.recovery.code()),
        text(recovery),
        bit(options.elevate_to_snapshot),
        int(delayed.0),
        text(delayed.1),
        bit(true),
    ];
    Ok(vec![master, current])
}

// ---- sys.filegroups -------------------------------------------------------

pub const FILEGROUPS: SystemView = SystemView {
    schema: "sys",
    name: "filegroups",
    scope: Scope::Database,
    columns: filegroups_columns,
    rows: filegroups_rows,
};

fn filegroups_columns() -> Vec<ViewColumn> {
    vec![
        not_null("name", sysname()),
        not_null("data_space_id", DataType::Int),
        not_null("type", char(2)),
        nullable("type_desc", nvarchar(60)),
        not_null("is_default", DataType::Bit),
        nullable("is_system", DataType::Bit),
        nullable("filegroup_guid", DataType::UniqueIdentifier),
        nullable("log_filegroup_id", DataType::Int),
        not_null("is_read_only", DataType::Bit),
        not_null("is_autogrow_all_files", DataType::Bit),
    ]
}

/// One filegroup: the memory-optimized data filegroup every hekla table
/// lives in (so it is also the default). There is no rows (PRIMARY)
/// filegroup, since hekla has no disk-based tables.
fn filegroups_rows(_: &dyn SystemContext) -> SqlResult<Vec<Vec<Value>>> {
    Ok(vec![vec![
        text(MEMORY_OPTIMIZED_FILEGROUP),
        int(MEMORY_OPTIMIZED_DATA_SPACE),
        text("FX"),
        text("MEMORY_OPTIMIZED_DATA_FILEGROUP"),
        bit(true),
        bit(false),
        // hekla gives filegroups no GUID.
        Value::Null,
        Value::Null,
        bit(false),
        bit(false),
    ]])
}

// ---- sys.database_files ---------------------------------------------------

pub const DATABASE_FILES: SystemView = SystemView {
    schema: "sys",
    name: "database_files",
    scope: Scope::Database,
    columns: database_files_columns,
    rows: database_files_rows,
};

fn database_files_columns() -> Vec<ViewColumn> {
    vec![
        not_null("file_id", DataType::Int),
        nullable("file_guid", DataType::UniqueIdentifier),
        not_null("type", DataType::TinyInt),
        nullable("type_desc", nvarchar(60)),
        nullable("data_space_id", DataType::Int),
        not_null("name", sysname()),
        not_null("physical_name", nvarchar(260)),
        nullable("state", DataType::TinyInt),
        nullable("state_desc", nvarchar(60)),
        not_null("size", DataType::Int),
        not_null("max_size", DataType::Int),
        nullable("is_read_only", DataType::Bit),
    ]
}

/// The log and the container of checkpoint files of a database opened
/// from a directory, with their sizes on disk now, in 8 KB pages; a
/// database in memory only has no files. Both grow until the disk is full
/// (max_size -1).
fn database_files_rows(db: &dyn SystemContext) -> SqlResult<Vec<Vec<Value>>> {
    let engine = db.engine();
    let Some(dir) = engine.directory() else {
        return Ok(Vec::new());
    };
    let checkpoint_bytes: u64 = engine
        .checkpoint_files()
        .iter()
        .map(|file| file.file_size_bytes)
        .sum();
    let log_dir = dir.join("log");
    let file = |file_id, type_code: u8, type_desc, data_space, name, path: &Path, bytes| {
        vec![
            int(file_id),
            Value::Null,
            tinyint(type_code),
            text(type_desc),
            int(data_space),
            text(name),
            text(path.display().to_string()),
            tinyint(0),
            text("ONLINE"),
            int_pages(bytes),
            int(-1),
            bit(false),
        ]
    };
    Ok(vec![
        file(
            LOG_FILE_ID,
            1,
            "LOG",
            0,
            format!("{DATABASE_NAME}_log"),
            &log_dir,
            bytes_on_disk(&log_dir),
        ),
        // SQL Server keeps memory-optimized data in a FILESTREAM container.
        file(
            CONTAINER_FILE_ID,
            2,
            "FILESTREAM",
            MEMORY_OPTIMIZED_DATA_SPACE,
            MEMORY_OPTIMIZED_FILEGROUP.to_string(),
            &container_path(dir),
            checkpoint_bytes,
        ),
    ])
}

/// The directory holding the checkpoint files.
pub fn container_path(dir: &Path) -> std::path::PathBuf {
    dir.join("data")
}

/// Bytes in 8 KB pages, rounded up.
fn int_pages(bytes: u64) -> Value {
    int(i32::try_from(bytes.div_ceil(8192)).unwrap_or(i32::MAX))
}

/// The sizes of the files in `dir` (the log's segments, including the
/// spare one prepared ahead of need). Files that vanish while being
/// counted (a segment recycled meanwhile) count as empty.
fn bytes_on_disk(dir: &Path) -> u64 {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    entries
        .filter_map(Result::ok)
        .filter_map(|entry| entry.metadata().ok())
        .filter(|metadata| metadata.is_file())
        .map(|metadata| metadata.len())
        .sum()
}

// ---- sys.partitions, sys.allocation_units ---------------------------------

pub const PARTITIONS: SystemView = SystemView {
    schema: "sys",
    name: "partitions",
    scope: Scope::Database,
    columns: partitions_columns,
    rows: no_rows,
};

fn partitions_columns() -> Vec<ViewColumn> {
    vec![
        not_null("partition_id", DataType::BigInt),
        not_null("object_id", DataType::Int),
        nullable("index_id", DataType::Int),
        not_null("partition_number", DataType::Int),
        nullable("hobt_id", DataType::BigInt),
        nullable("rows", DataType::BigInt),
        not_null("filestream_filegroup_id", DataType::SmallInt),
        not_null("data_compression", DataType::TinyInt),
        nullable("data_compression_desc", nvarchar(60)),
    ]
}

pub const ALLOCATION_UNITS: SystemView = SystemView {
    schema: "sys",
    name: "allocation_units",
    scope: Scope::Database,
    columns: allocation_units_columns,
    rows: no_rows,
};

fn allocation_units_columns() -> Vec<ViewColumn> {
    vec![
        not_null("allocation_unit_id", DataType::BigInt),
        not_null("type", DataType::TinyInt),
        nullable("type_desc", nvarchar(60)),
        not_null("container_id", DataType::BigInt),
        nullable("data_space_id", DataType::Int),
        not_null("total_pages", DataType::BigInt),
        not_null("used_pages", DataType::BigInt),
        not_null("data_pages", DataType::BigInt),
    ]
}
