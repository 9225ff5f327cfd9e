//! A catalog built in memory from CREATE TABLE and CREATE VIEW text, as
//! the planner's context: the binder's and planner's unit tests plan
//! against it, with no `SqlDatabase`, session or executor. The engine
//! holds the tables' storage only (a `TableMeta` names its engine table);
//! nothing is read or written.

use super::context::PlanContext;
use super::system::SystemRelation;
use crate::bind::expr::{Scalar, ScalarKind};
use crate::catalog::store::{ObjectStore, ObjectType};
use crate::catalog::table::{TableDesign, TableMeta};
use crate::catalog::view::ViewMeta;
use crate::catalog::Catalog;
use crate::error::{not_supported_yet, Refused};
use crate::permission::{Access, ObjectRef, Permission};
use crate::session_options::SetOptions;
use hekla_engine::{Database, DatabaseConfig};
use hekla_parser::ast::{self, StatementKind};
use hekla_types::{SqlError, SqlResult, Value};
use std::sync::{Arc, RwLock, RwLockReadGuard};

/// A catalog of the tables and views some CREATE statements define, as
/// the planner's context.
pub struct MemoryCatalog {
    catalog: RwLock<Catalog>,
    /// Owns the engine tables the catalog's tables name.
    _engine: Database,
}

impl MemoryCatalog {
    pub fn new(script: &str) -> MemoryCatalog {
        let engine = Database::new(DatabaseConfig {
            gc_interval: None,
            ..DatabaseConfig::default()
        });
        let store = ObjectStore::open(&engine).expect("system tables");
        let mut catalog = Catalog::load(&engine, &store, &|_| false).expect("an empty catalog");
        let batch = hekla_parser::parse_batch(script).expect("the script parses");
        for statement in &batch.statements {
            let text = statement.span.text(script);
            let object_id = catalog.allocate_object_id().expect("an object id");
            match &statement.kind {
                StatementKind::CreateTable(create) => {
                    let design = TableDesign::bind(create, &catalog, object_id).expect("binds");
                    let table = engine.create_table(design.engine_def()).expect("created");
                    catalog.add_table(TableMeta::new(design, object_id, table, text));
                }
                StatementKind::CreateView(create) => {
                    let schema_id = catalog.schema_of(&create.name).expect("a schema");
                    let stored = crate::catalog::stored_object(
                        object_id,
                        schema_id,
                        &create.name.name().value,
                        ObjectType::View,
                        None,
                        text,
                    );
                    catalog
                        .views
                        .insert(ViewMeta::restore(&stored).expect("restored"));
                }
                other => panic!("not a table or view: {}", other.keywords()),
            }
        }
        MemoryCatalog {
            catalog: RwLock::new(catalog),
            _engine: engine,
        }
    }
}

impl PlanContext for MemoryCatalog {
    fn catalog(&self) -> RwLockReadGuard<'_, Catalog> {
        self.catalog.read().expect("catalog lock")
    }

    /// The test catalog has no sessions, so no temporary tables.
    fn temp_table(&self, _spid: i16, _name: &str) -> Option<Arc<TableMeta>> {
        None
    }

    /// The test catalog has no system views.
    fn system_view(&self, _: Option<&str>, _: &str, _: &str) -> Option<SystemRelation> {
        None
    }

    fn system_function(&self, _: Option<&str>, _: &str, _: &str) -> Option<SystemRelation> {
        None
    }

    /// The tests plan as `dbo` (no `Access`), which is never checked.
    fn require_object(&self, _: &Access, _: Permission, _: ObjectRef) -> SqlResult<()> {
        Err(no_permissions())
    }

    fn require_named(&self, _: &Access, _: Permission, _: &ast::ObjectName) -> SqlResult<()> {
        Err(no_permissions())
    }

    /// Constants only: the test catalog has no executor to evaluate more.
    fn start_value(&self, scalar: &Scalar, _: &[Value], _: &SetOptions) -> SqlResult<Value> {
        match &scalar.kind {
            ScalarKind::Constant(value) => Ok(value.clone()),
            _ => Err(not_supported_yet(
                Refused::Expression,
                "a computed count in the test catalog",
            )),
        }
    }
}

fn no_permissions() -> SqlError {
    not_supported_yet(Refused::Statement, "permission checks in the test catalog")
}
