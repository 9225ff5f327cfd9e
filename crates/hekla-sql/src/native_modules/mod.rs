//! The database's natively compiled modules: each native procedure's
//! machine code, compiled at CREATE (its errors are the CREATE's), again
//! at database start before first use, and again before a run when a
//! schema change moved what its plans read. ALTER replaces a module's
//! code, DROP frees it (once no running call holds it).
//!
//! `sys.dm_os_loaded_modules` lists the modules as SQL Server lists its
//! native DLLs; `sys.dm_hekla_native_modules` adds their code bytes and
//! how many statements ran compiled and interpreted.

mod compile;

pub use compile::{compile, Compilation};

use crate::ddl::DdlDatabase;
use hekla_exec::compiled::ModuleCode;
use hekla_plan::catalog::procedure::ProcedureMeta;
use std::collections::HashMap;
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant, SystemTime};

/// One compiled module.
pub struct CompiledModule {
    pub object_id: i32,
    /// The schema version its plans were made at.
    pub schema_version: u64,
    /// How many times this procedure was compiled (its DLL's version).
    pub generation: u32,
    pub compiled_at: SystemTime,
    pub compile_time: Duration,
    pub statements: usize,
    pub compiled_statements: usize,
    pub code: Arc<ModuleCode>,
}

/// Every compiled module of the database, by object id.
#[derive(Default)]
pub struct NativeModules {
    modules: RwLock<HashMap<i32, Arc<CompiledModule>>>,
}

impl NativeModules {
    /// Compiles `procedure` and keeps its code, replacing any before.
    pub fn compile(
        &self,
        db: &dyn DdlDatabase,
        procedure: &ProcedureMeta,
        schema_version: u64,
    ) -> hekla_types::SqlResult<Arc<CompiledModule>> {
        let started = Instant::now();
        let compilation = compile(db, &procedure.parameters, &procedure.body)?;
        Ok(self.keep(procedure.object_id, compilation, schema_version, started))
    }

    /// Keeps `compilation` as the code of procedure `object_id`.
    pub fn keep(
        &self,
        object_id: i32,
        compilation: Compilation,
        schema_version: u64,
        started: Instant,
    ) -> Arc<CompiledModule> {
        let mut modules = self.modules.write().expect("native modules lock");
        let generation = modules.get(&object_id).map_or(1, |m| m.generation + 1);
        let module = Arc::new(CompiledModule {
            object_id,
            schema_version,
            generation,
            compiled_at: SystemTime::now(),
            compile_time: started.elapsed(),
            statements: compilation.statements,
            compiled_statements: compilation.compiled_statements,
            code: Arc::new(compilation.code),
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

    /// The code `procedure` runs now: its module's, compiled again first
    /// when missing (a restart whose compile failed) or when a plan found
    /// no kernel after the schema moved. None if it does not compile now:
    /// the interpreter then runs it and reports the error where it is.
    pub fn code(
        &self,
        db: &dyn DdlDatabase,
        procedure: &ProcedureMeta,
        schema_version: u64,
    ) -> Option<Arc<ModuleCode>> {
        let current = self
            .modules
            .read()
            .expect("native modules lock")
            .get(&procedure.object_id)
            .cloned();
        match current {
            Some(module) if !(module.code.missed() && module.schema_version != schema_version) => {
                Some(Arc::clone(&module.code))
            }
            _ => self
                .compile(db, procedure, schema_version)
                .ok()
                .map(|module| Arc::clone(&module.code)),
        }
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
