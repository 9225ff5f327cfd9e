//! Binding at open what could not be bound while the catalog was loaded
//! ([`hekla_plan::catalog::Catalog::load`] restores each object alone, in id
//! order): views' columns and what schema-bound views and functions are
//! bound to need the whole catalog and the planner. `SqlDatabase::open`
//! runs these once the catalog is whole.

use crate::ddl::DdlDatabase;
use hekla_plan::catalog::binding::{Frame, ModuleKind};
use hekla_plan::catalog::function::{FunctionBody, FunctionMeta};
use hekla_plan::catalog::procedure;
use hekla_plan::catalog::view::ViewMeta;
use hekla_plan::plan::query::BindState;
use hekla_plan::plan::{inline_function, view::bind_stored};
use std::rc::Rc;
use std::sync::Arc;

/// Binds every view restored at open, now that the catalog is whole:
/// learns its columns and, for a schema-bound view, what it is bound to.
/// A view that does not bind (a table it reads is gone) keeps no columns
/// and fails where it is used, as it would have before the restart.
pub fn bind_views(db: &dyn DdlDatabase) {
    let views: Vec<Arc<ViewMeta>> = db.catalog().views.iter().cloned().collect();
    for view in views {
        let frame = Frame::new(
            ModuleKind::View,
            Some(view.object_id),
            &view.name,
            view.schemabinding,
        );
        let state = Rc::<BindState>::default();
        let bound = state
            .modules
            .in_frame(frame, || bind_stored(db.planning(), &state, &view, false));
        let Ok(((_, columns), references)) = bound else {
            continue;
        };
        let mut catalog = db.catalog_mut();
        if view.schemabinding {
            catalog.bindings.set(view.object_id, references);
        }
        catalog.views.insert(ViewMeta {
            object_id: view.object_id,
            schema_id: view.schema_id,
            name: view.name.clone(),
            declared: view.declared.clone(),
            columns,
            definition: view.definition.clone(),
            created_ms: view.created_ms,
            modified_ms: view.modified_ms,
            schemabinding: view.schemabinding,
            view_metadata: view.view_metadata,
        });
    }
}

/// Records again, after an open, what each schema-bound function is bound
/// to (bindings are not stored). An inline function that no longer binds
/// keeps no bindings and fails where it is used.
pub fn bind_functions(db: &dyn DdlDatabase) {
    let bound: Vec<Arc<FunctionMeta>> = db
        .catalog()
        .functions
        .iter()
        .filter(|function| function.schemabinding)
        .cloned()
        .collect();
    for function in bound {
        let references = match &function.body {
            FunctionBody::Inline(_) => inline_function::references(db.planning(), &function),
            FunctionBody::Scalar { .. } => Some(procedure::bound_objects(
                &db.catalog(),
                &function.definition,
            )),
        };
        if let Some(references) = references {
            db.catalog_mut()
                .bindings
                .set(function.object_id, references);
        }
    }
}

/// Compiles every natively compiled procedure, as SQL Server compiles
/// them at database start. One that does not compile now is left to its
/// first EXEC, which tries again and otherwise reports the error.
pub fn compile_native_modules(db: &dyn DdlDatabase) {
    let native: Vec<_> = db
        .catalog()
        .procedures
        .iter()
        .filter(|procedure| procedure.native)
        .cloned()
        .collect();
    for procedure in native {
        let _ = super::native_compile::compile_procedure(db, &procedure);
    }
}
