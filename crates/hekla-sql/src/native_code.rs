//! The database's natively compiled modules: each native procedure's
//! machine code (compiled by `ddl::native_compile` at CREATE and at
//! database start; a kernel a plan needs later is compiled at its first
//! run, see `hekla_exec::compiled`), by object id. ALTER replaces a
//! module's code; DROP frees it, once no running call holds it.
//!
//! `sys.dm_os_loaded_modules` lists the modules as SQL Server lists its
//! native DLLs; `sys.dm_hekla_native_modules` adds their code bytes and
//! how many statements ran compiled and interpreted.

use hekla_exec::compiled::ModuleCode;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, RwLock};
use std::time::{Duration, SystemTime};

/// One compiled module.
pub struct CompiledModule {
    pub object_id: i32,
    /// How many times this procedure was compiled (its DLL's version).
    pub generation: u32,
    pub compiled_at: SystemTime,
    pub compile_time: Duration,
    /// Statements bound and planned (queries, DML, variables' values).
    pub statements: usize,
    /// Statements with at least one compiled row kernel.
    pub compiled_statements: usize,
    pub code: Arc<ModuleCode>,
    /// Marked for recompilation (`sp_recompile`): the next EXEC compiles
    /// the procedure anew.
    pub stale: AtomicBool,
}

/// A module's machine code and what the compiler saw of its statements.
pub struct Compilation {
    pub code: ModuleCode,
    pub statements: usize,
    pub compiled_statements: usize,
}

/// Every compiled module of the database, by object id.
#[derive(Default)]
pub struct NativeModules {
    modules: RwLock<HashMap<i32, Arc<CompiledModule>>>,
}

impl NativeModules {
    /// Keeps `compilation`, made in `compile_time`, as the code of
    /// procedure `object_id`, replacing any before.
    pub fn keep(
        &self,
        object_id: i32,
        compilation: Compilation,
        compile_time: Duration,
    ) -> Arc<CompiledModule> {
        let mut modules = self.modules.write().expect("native modules lock");
        let generation = modules.get(&object_id).map_or(1, |m| m.generation + 1);
        let module = Arc::new(CompiledModule {
            object_id,
            generation,
            compiled_at: SystemTime::now(),
            compile_time,
            statements: compilation.statements,
            compiled_statements: compilation.compiled_statements,
            code: Arc::new(compilation.code),
            stale: AtomicBool::new(false),
        });
        modules.insert(object_id, Arc::clone(&module));
        module
    }

    /// Frees the code of procedure `object_id` (DROP PROCEDURE).
    pub fn remove(&self, object_id: i32) {
        self.modules
            .write()
            .expect("native modules lock")
            .remove(&object_id);
    }

    /// Marks procedure `object_id`'s code for recompilation at its next
    /// EXEC (`sp_recompile`).
    pub fn mark_stale(&self, object_id: i32) {
        if let Some(module) = self.get(object_id) {
            module.stale.store(true, Ordering::Relaxed);
        }
    }

    /// The module of procedure `object_id`, if compiled.
    pub fn get(&self, object_id: i32) -> Option<Arc<CompiledModule>> {
        self.modules
            .read()
            .expect("native modules lock")
            .get(&object_id)
            .cloned()
    }

    /// The modules, by object id.
    pub fn list(&self) -> Vec<Arc<CompiledModule>> {
        let mut modules: Vec<_> = self
            .modules
            .read()
            .expect("native modules lock")
            .values()
            .cloned()
            .collect();
        modules.sort_by_key(|module| module.object_id);
        modules
    }
}
