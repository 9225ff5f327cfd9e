//! Compiling a natively compiled procedure (see `crate::native_code` for
//! where the code is kept): its body bound and planned
//! statement by statement over the variables it declares, as SQL Server
//! compiles a native module whole at CREATE. A statement that does not
//! bind is the CREATE's error; the plans' row kernels become the module's
//! machine code ([`ModuleCode`]).
//!
//! The walk follows the text: a variable is known from its DECLARE on,
//! as in T-SQL, whichever branch declares it. Statements the compiler
//! does not bind here (EXEC, THROW, RETURN's value, transaction
//! statements) are bound when they run, as in any procedure.

use crate::ddl::temp::VariableShape;
use crate::ddl::DdlDatabase;
use crate::native_code::{Compilation, CompiledModule};
use hekla_exec::compiled::ModuleCode;
use hekla_parser::ast::{self, StatementKind};
use hekla_plan::bind::variables::Variables;
use hekla_plan::catalog::procedure::ProcedureMeta;
use hekla_plan::catalog::procedure::{ParameterKind, ParameterMeta};
use hekla_plan::catalog::table::TableMeta;
use hekla_plan::plan::Planner;
use hekla_plan::session_options::SetOptions;
use hekla_types::{SqlError, SqlResult};
use std::sync::Arc;
use std::time::Instant;

/// Compiles `procedure` and keeps its code as the database's module.
pub fn compile_procedure(
    db: &dyn DdlDatabase,
    procedure: &ProcedureMeta,
) -> SqlResult<Arc<CompiledModule>> {
    let started = Instant::now();
    let compilation = compile(db, &procedure.parameters, &procedure.body)?;
    Ok(db
        .native_modules()
        .keep(procedure.object_id, compilation, started.elapsed()))
}

/// The code `procedure` runs: its module's, compiled first if missing
/// (a restart whose compile failed) or marked for recompilation. None if
/// it does not compile now: the interpreter then runs it and reports the
/// error where it is.
pub fn code_for(db: &dyn DdlDatabase, procedure: &ProcedureMeta) -> Option<Arc<ModuleCode>> {
    let module = match db.native_modules().get(procedure.object_id) {
        Some(module) if !module.stale.load(std::sync::atomic::Ordering::Relaxed) => module,
        _ => compile_procedure(db, procedure).ok()?,
    };
    Some(Arc::clone(&module.code))
}

/// Compiles the procedure with `parameters` and `body`. An error is
/// placed on the line of the statement it belongs to, counted from the
/// first line of the text `body`'s spans point into (the definition).
pub fn compile(
    db: &dyn DdlDatabase,
    parameters: &[ParameterMeta],
    body: &[ast::Statement],
) -> SqlResult<Compilation> {
    let mut compiler = Compiler {
        db,
        options: SetOptions::default(),
        variables: Variables::for_session(0),
        parameter_tables: Vec::new(),
        compilation: Compilation {
            code: ModuleCode::default(),
            statements: 0,
            compiled_statements: 0,
        },
    };
    let outcome = compiler
        .parameters(parameters)
        .and_then(|()| compiler.block(body));
    compiler.release();
    outcome.map(|()| compiler.compilation)
}

struct Compiler<'a> {
    db: &'a dyn DdlDatabase,
    options: SetOptions,
    variables: Variables,
    /// The tables made to stand for table-valued parameters.
    parameter_tables: Vec<Arc<TableMeta>>,
    compilation: Compilation,
}

impl Compiler<'_> {
    fn parameters(&mut self, parameters: &[ParameterMeta]) -> SqlResult<()> {
        for parameter in parameters {
            match &parameter.kind {
                ParameterKind::Scalar(data_type) => {
                    let slot = self.variables.declare(&parameter.name, *data_type)?;
                    if parameter.not_null {
                        self.variables.forbid_null(slot);
                    }
                }
                ParameterKind::Table(type_id) => {
                    let table = {
                        let catalog = self.db.catalog();
                        let table_type = catalog
                            .types
                            .by_id(*type_id)
                            .and_then(|user_type| user_type.as_table())
                            .ok_or_else(|| missing_type(&parameter.name))?;
                        crate::ddl::temp::variable_table(
                            self.db,
                            &parameter.name,
                            &VariableShape::of_type(table_type),
                        )?
                    };
                    self.parameter_tables.push(Arc::clone(&table));
                    self.variables
                        .declare_table_parameter(&parameter.name, table, true)?;
                    self.variables.set_table_type(&parameter.name, *type_id);
                }
            }
        }
        Ok(())
    }

    fn block(&mut self, statements: &[ast::Statement]) -> SqlResult<()> {
        statements
            .iter()
            .try_for_each(|statement| self.statement(statement))
    }

    /// Binds and plans `statement`; its error is placed on its line (the
    /// innermost statement's, for one inside a block).
    fn statement(&mut self, statement: &ast::Statement) -> SqlResult<()> {
        self.bind_statement(statement)
            .map_err(|error| error.at_line(statement.span.line))
    }

    fn bind_statement(&mut self, statement: &ast::Statement) -> SqlResult<()> {
        match &statement.kind {
            StatementKind::Block(statements)
            | StatementKind::AtomicBlock {
                body: statements, ..
            } => self.block(statements),
            StatementKind::TryCatch {
                try_block,
                catch_block,
            } => {
                self.block(try_block)?;
                self.block(catch_block)
            }
            StatementKind::If {
                condition,
                then_branch,
                else_branch,
            } => {
                self.condition(condition)?;
                self.statement(then_branch)?;
                match else_branch {
                    Some(otherwise) => self.statement(otherwise),
                    None => Ok(()),
                }
            }
            StatementKind::While { condition, body } => {
                self.condition(condition)?;
                self.statement(body)
            }
            StatementKind::Declare(declarations) => {
                for (ordinal, declaration) in declarations.iter().enumerate() {
                    self.declare(declaration, ordinal)?;
                }
                Ok(())
            }
            StatementKind::DeclareTable { variable, elements } => crate::ddl::temp::declare_table(
                self.db,
                &mut self.variables,
                variable,
                &VariableShape::declared(elements),
            ),
            StatementKind::SetVariable {
                variable,
                op,
                value,
            } => {
                hekla_exec::variables::assignment(&self.planner(), variable, *op, value)?;
                self.counted(0);
                Ok(())
            }
            StatementKind::Select(select) if select.into_target().is_none() => {
                let planner = self.planner();
                let plan = if select.assigns_variables() {
                    planner.assignment(select)?.0
                } else {
                    planner.statement(select)?
                };
                let kernels = self.compilation.code.compile_query(&plan)?;
                self.counted(kernels);
                Ok(())
            }
            StatementKind::Insert(insert) => {
                self.planner().insert(insert)?;
                self.counted(0);
                Ok(())
            }
            StatementKind::Update(update) => {
                let plan = self.planner().update(update)?;
                let kernels = self.compilation.code.compile_rows(&plan.rows)?;
                self.counted(kernels);
                Ok(())
            }
            StatementKind::Delete(delete) => {
                let plan = self.planner().delete(delete)?;
                let kernels = self.compilation.code.compile_rows(&plan.rows)?;
                self.counted(kernels);
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// A statement bound and planned, with `kernels` compiled reads.
    fn counted(&mut self, kernels: usize) {
        self.compilation.statements += 1;
        if kernels > 0 {
            self.compilation.compiled_statements += 1;
        }
    }

    fn condition(&self, condition: &ast::Expr) -> SqlResult<()> {
        let planner = self.planner();
        hekla_plan::plan::value_binder(&planner)
            .predicate(condition)
            .map(drop)
    }

    fn declare(&mut self, declaration: &ast::Declaration, ordinal: usize) -> SqlResult<()> {
        if crate::ddl::temp::declare_variable(self.db, &mut self.variables, declaration, ordinal)? {
            return Ok(());
        }
        let (data_type, _) =
            hekla_exec::variables::declared(&self.planner(), declaration, ordinal, true)?;
        let slot = self.variables.declare(&declaration.name, data_type)?;
        if declaration.not_null {
            self.variables.forbid_null(slot);
        }
        Ok(())
    }

    fn planner(&self) -> Planner<'_> {
        Planner::new(self.db.planning(), &self.variables, self.options.clone())
    }

    /// Gives back the tables the walk made.
    fn release(&mut self) {
        crate::ddl::temp::end_batch(self.db, &mut self.variables);
        for table in self.parameter_tables.drain(..) {
            crate::ddl::temp::release(self.db, table);
        }
    }
}

/// A table-valued parameter whose type is gone (the catalog keeps a
/// procedure's table types while it exists, so this is not expected).
fn missing_type(parameter: &str) -> SqlError {
    SqlError::new(
        2715,
        16,
        3,
        format!("Column, parameter, or variable @{parameter}: Cannot find data type."),
    )
}
