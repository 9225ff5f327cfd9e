//! The names and ids of the databases hekla shows: the one database it
//! serves and `master`. Every layer spells them (three-part names,
//! `DB_NAME()`, messages, catalog views), so they live in this leaf.

/// The name of the database, as `DB_NAME()` and three-part names spell it.
pub const DATABASE_NAME: &str = "hekla";
/// Its `database_id` (`DB_ID()`): SQL Server numbers user databases from 5,
/// after master, tempdb, model and msdb.
pub const DATABASE_ID: i32 = 5;
/// `master`, which holds `spt_values` and nothing else in hekla.
pub const MASTER_NAME: &str = "master";
pub const MASTER_ID: i32 = 1;

/// The `schema_id` SQL Server shows (catalog views, permissions) for the
/// engine's schema `id`.
pub fn schema_id(id: u32) -> i32 {
    i32::try_from(id).unwrap_or(i32::MAX)
}
