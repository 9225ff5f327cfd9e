//! The catalog's list of one kind of module (views, functions): by object
//! id, found by schema and name (names compare case-insensitively).

use hekla_engine::SchemaId;
use std::collections::BTreeMap;
use std::sync::Arc;

/// What the registry needs to know of a module.
pub trait Module {
    fn object_id(&self) -> i32;
    fn schema_id(&self) -> SchemaId;
    fn name(&self) -> &str;
}

#[derive(Debug)]
pub struct Registry<T> {
    by_id: BTreeMap<i32, Arc<T>>,
}

impl<T> Default for Registry<T> {
    fn default() -> Self {
        Registry {
            by_id: BTreeMap::new(),
        }
    }
}

impl<T: Module> Registry<T> {
    /// The module `schema.name`.
    pub fn get(&self, schema: SchemaId, name: &str) -> Option<&Arc<T>> {
        self.by_id
            .values()
            .find(|m| m.schema_id() == schema && m.name().eq_ignore_ascii_case(name))
    }

    pub fn by_id(&self, object_id: i32) -> Option<&Arc<T>> {
        self.by_id.get(&object_id)
    }

    /// Every module, in object id order.
    pub fn iter(&self) -> impl Iterator<Item = &Arc<T>> {
        self.by_id.values()
    }

    /// Adds `module`, or replaces the module with its id.
    pub fn insert(&mut self, module: T) {
        self.by_id.insert(module.object_id(), Arc::new(module));
    }

    pub fn remove(&mut self, object_id: i32) -> Option<Arc<T>> {
        self.by_id.remove(&object_id)
    }
}
