//! DDL: CREATE, ALTER and DROP of every kind of object. Each statement
//! checks what it is given, binds the new definition (through the binder
//! and the planner, as the next open will bind it again), stores it and
//! changes the catalog ([`hekla_plan::catalog`], the model of the objects these
//! statements edit) under the catalog lock.
//!
//! - [`table`]: CREATE TABLE and DROP TABLE; [`temp`]: the same for
//!   `#temp` and `##global` tables; [`schema`]: CREATE SCHEMA;
//!   [`select_into`]: SELECT ... INTO, which creates its table and fills
//!   it through the executor.
//! - [`alter`]: ALTER TABLE, CREATE INDEX and DROP INDEX, which rebuild
//!   the table, and the schema lock statements run under.
//! - [`view`], [`procedure`], [`function`]: CREATE, ALTER, CREATE OR ALTER
//!   and DROP of modules.
//! - [`sequence`], [`user_type`] (alias and table types), [`statistics`]
//!   (with UPDATE STATISTICS).
//! - [`database`]: CREATE and DROP DATABASE; [`database_options`]: ALTER
//!   DATABASE.
//! - [`load`]: binding at open what needs the whole catalog (views'
//!   columns, schema-bound modules' references) and compiling native
//!   procedures.
//! - [`native_compile`]: natively compiled procedures compiled whole at
//!   CREATE (their errors are the CREATE's) into the machine code the
//!   database keeps (`crate::native_code`).
//!
//! Here too are the helpers that write definitions to the catalog's store
//! ([`store_object`], [`store_module`], [`unstore_object`]). The
//! interpreter routes each statement here; nothing here knows of the
//! interpreter.

pub mod alter;
pub mod database;
pub mod database_options;
pub mod function;
pub mod load;
pub mod native_compile;
pub mod procedure;
pub mod schema;
pub mod select_into;
pub mod sequence;
pub mod statistics;
pub mod table;
pub mod temp;
pub mod user_type;
pub mod view;

use hekla_engine::{IsolationLevel, SchemaId};
use hekla_exec::context::StatementDatabase;
use hekla_plan::catalog::store::ObjectStore;
use hekla_plan::catalog::store::{ObjectType, StoredObject};
use hekla_plan::catalog::temp::TempTables;
use hekla_plan::catalog::{stored_object, Catalog};
use std::sync::{RwLockReadGuard, RwLockWriteGuard};

/// The database DDL changes, as DDL sees it: the catalog to read and
/// change, where definitions are stored, the sessions' temporary tables
/// and the schema lock, and what the executor sees (DDL runs statements
/// too: SELECT ... INTO, a table rebuild's checks). The database answers
/// it (`database_context`); DDL never names the session or its database
/// type.
pub trait DdlDatabase: StatementDatabase {
    fn catalog(&self) -> RwLockReadGuard<'_, Catalog>;
    /// The catalog to change: plans compiled before are compiled again.
    fn catalog_mut(&self) -> RwLockWriteGuard<'_, Catalog>;
    fn object_store(&self) -> &ObjectStore;
    fn temp_tables(&self) -> &TempTables;
    fn schema_lock(&self) -> &alter::SchemaLock;
    /// The compiled code of natively compiled modules.
    fn native_modules(&self) -> &crate::native_code::NativeModules;
    /// Compiled batches and procedures (a dropped procedure's go).
    fn plan_cache(&self) -> &crate::plan_cache::PlanCache<ProcedureMeta>;
}
use hekla_plan::catalog::procedure::ProcedureMeta;
use hekla_types::SqlResult;

/// Stores the definition `object` in a transaction of its own, replacing
/// the one stored under its id (ALTER) if there is one.
pub fn store_object(db: &dyn DdlDatabase, object: &StoredObject) -> SqlResult<()> {
    let mut tx = db.engine().begin(IsolationLevel::Snapshot)?;
    db.object_store().delete(&mut tx, object.object_id)?;
    db.object_store().insert(&mut tx, object)?;
    tx.commit()?;
    Ok(())
}

/// Deletes the stored definition of `object_id` (and its counter) in a
/// transaction of its own.
pub fn unstore_object(db: &dyn DdlDatabase, object_id: i32) -> SqlResult<()> {
    let mut tx = db.engine().begin(IsolationLevel::Snapshot)?;
    db.object_store().delete(&mut tx, object_id)?;
    tx.commit()?;
    Ok(())
}

/// Stores the definition of a view, procedure or function being created
/// or altered: under a new object id, or, for ALTER, under the id and
/// creation date `existing` had (only the modification date moves).
pub fn store_module(
    db: &dyn DdlDatabase,
    catalog: &mut Catalog,
    existing: Option<(i32, i64)>,
    schema_id: SchemaId,
    name: &str,
    object_type: ObjectType,
    definition: &str,
) -> SqlResult<StoredObject> {
    let (object_id, created_ms) = match existing {
        Some(kept) => kept,
        None => (
            catalog.allocate_object_id()?,
            hekla_plan::catalog::store::now_ms(),
        ),
    };
    let mut object = stored_object(object_id, schema_id, name, object_type, None, definition);
    object.created_ms = created_ms;
    store_object(db, &object)?;
    Ok(object)
}
