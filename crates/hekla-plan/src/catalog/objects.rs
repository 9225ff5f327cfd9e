//! The catalog's maps of one kind of schema-scoped object (views,
//! procedures, user types): by object id, found by schema and name.

use hekla_engine::SchemaId;
use std::collections::BTreeMap;
use std::sync::Arc;

/// What the map needs of an object.
pub trait SchemaObject {
    fn object_id(&self) -> i32;
    fn schema_id(&self) -> SchemaId;
    fn name(&self) -> &str;
}

/// Implements [`SchemaObject`] for a struct with `schema_id` and `name`
/// fields and its object id in the field given.
macro_rules! schema_object {
    ($type:ty, $id:ident) => {
        impl $crate::catalog::objects::SchemaObject for $type {
            fn object_id(&self) -> i32 {
                self.$id
            }
            fn schema_id(&self) -> hekla_engine::SchemaId {
                self.schema_id
            }
            fn name(&self) -> &str {
                &self.name
            }
        }
    };
}
pub(crate) use schema_object;

#[derive(Debug)]
pub struct Objects<T> {
    by_id: BTreeMap<i32, Arc<T>>,
}

impl<T> Default for Objects<T> {
    fn default() -> Self {
        Objects {
            by_id: BTreeMap::new(),
        }
    }
}

impl<T: SchemaObject> Objects<T> {
    /// The object `schema.name` (names compare case-insensitively).
    pub fn get(&self, schema: SchemaId, name: &str) -> Option<&Arc<T>> {
        self.by_id
            .values()
            .find(|o| o.schema_id() == schema && o.name().eq_ignore_ascii_case(name))
    }

    pub fn by_id(&self, object_id: i32) -> Option<&Arc<T>> {
        self.by_id.get(&object_id)
    }

    /// Every object, in object id order.
    pub fn iter(&self) -> impl Iterator<Item = &Arc<T>> {
        self.by_id.values()
    }

    /// Adds `object`, or replaces the object with its id.
    pub fn insert(&mut self, object: T) {
        self.by_id.insert(object.object_id(), Arc::new(object));
    }

    pub fn remove(&mut self, object_id: i32) -> Option<Arc<T>> {
        self.by_id.remove(&object_id)
    }
}
