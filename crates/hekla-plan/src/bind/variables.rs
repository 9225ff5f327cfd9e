//! A batch's local variables (`DECLARE @v ...`): declared types for the
//! binder, current values for the evaluator. They live for one batch, as in
//! SQL Server; names compare case-insensitively. Table variables (`DECLARE
//! @t TABLE (...)`) live here too, as the tables made for them (see
//! `catalog::temp`), with the session the batch runs in, whose `#temp`
//! tables its statements see. So do a procedure's table-valued
//! parameters, which are READONLY (`declare_table_parameter`).

use crate::catalog::table::TableMeta;
use hekla_parser::ast::{Statement, StatementKind};
use hekla_parser::span::Span;
use hekla_types::{DataType, SqlError, SqlResult, Value};
use std::sync::Arc;

/// A table variable or table-valued parameter.
#[derive(Clone, Debug)]
struct TableVariable {
    /// Without the `@`.
    name: String,
    table: Arc<TableMeta>,
    kind: TableKind,
    /// The table type it was declared with (`DECLARE @v type`), whose
    /// variables alone a parameter of that type takes.
    table_type: Option<i32>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TableKind {
    /// `DECLARE @t TABLE (...)` or `DECLARE @t type`: the batch's own,
    /// dropped when it ends.
    Declared,
    /// A table-valued parameter: its table is its maker's (the caller's
    /// table variable, or the rows a client sent), so the end of the
    /// frame leaves it alone. READONLY ones cannot be written (Msg 10700).
    Parameter { readonly: bool },
}

#[derive(Clone, Debug, Default)]
pub struct Variables {
    names: Vec<String>,
    types: Vec<DataType>,
    values: Vec<Value>,
    /// Declared NOT NULL (natively compiled modules).
    not_null: Vec<bool>,
    /// Table variables.
    tables: Vec<TableVariable>,
    /// The session (`@@SPID`) running the batch; 0 outside any session.
    session: i16,
    /// Where the declarations that have run stand in the batch's text.
    /// SQL Server declares a variable once, when it compiles the batch: a
    /// loop meeting its DECLARE again only assigns the initial value.
    declared_at: Vec<Span>,
}

/// Which variables a batch or procedure has declared so far, in order,
/// with their types: a plan bound against one layout reads variables by
/// slot, so it fits only the same layout (a DECLARE in a branch not taken
/// shifts the slots of the later ones).
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    names: Vec<String>,
    types: Vec<DataType>,
}

impl Variables {
    /// The variables' layout as it is now.
    pub fn layout(&self) -> Layout {
        Layout {
            names: self.names.clone(),
            types: self.types.clone(),
        }
    }

    /// Whether the variables have `layout` (compared without copying).
    pub fn has_layout(&self, layout: &Layout) -> bool {
        self.names == layout.names && self.types == layout.types
    }

    /// No variables yet, for a batch of session `spid`.
    pub fn for_session(spid: i16) -> Self {
        Variables {
            session: spid,
            ..Variables::default()
        }
    }

    /// No variables yet, with room for `expected` of them without
    /// growing (a procedure's parameters and declarations): a call's
    /// frame would otherwise grow its vectors one step at a time.
    pub fn with_room(spid: i16, expected: usize) -> Self {
        Variables {
            names: Vec::with_capacity(expected),
            types: Vec::with_capacity(expected),
            values: Vec::with_capacity(expected),
            not_null: Vec::with_capacity(expected),
            session: spid,
            ..Variables::default()
        }
    }

    /// The session running the batch, whose `#temp` tables it sees.
    pub fn session(&self) -> i16 {
        self.session
    }

    /// Records that the declaration at `site` has run.
    pub fn mark_declared(&mut self, site: Span) {
        self.declared_at.push(site);
    }

    /// Whether the declaration at `site` has run before (a loop around
    /// it): its variable exists already and keeps its value (a table
    /// variable its rows), as in SQL Server.
    pub fn was_declared(&self, site: Span) -> bool {
        self.declared_at.contains(&site)
    }

    /// Declares `@name` (given without the `@`) holding NULL; its slot.
    pub fn declare(&mut self, name: &str, data_type: DataType) -> SqlResult<usize> {
        self.check_new(name)?;
        self.names.push(name.to_string());
        self.types.push(data_type);
        self.values.push(Value::Null);
        self.not_null.push(false);
        Ok(self.names.len() - 1)
    }

    /// Makes the variable in `slot` refuse NULL from now on.
    pub fn forbid_null(&mut self, slot: usize) {
        self.not_null[slot] = true;
    }

    /// Msg 134 when `@name` is taken, by a scalar or a table variable.
    fn check_new(&self, name: &str) -> SqlResult<()> {
        if self.slot(name).is_some() || self.table(name).is_some() {
            return Err(crate::error::already_declared(name));
        }
        Ok(())
    }

    /// Msg 134 if `@name` is taken; checked before its table is made.
    pub fn check_table_name(&self, name: &str) -> SqlResult<()> {
        self.check_new(name)
    }

    /// Adds the table variable `@name` (without the `@`).
    pub fn declare_table(&mut self, name: &str, table: Arc<TableMeta>) {
        self.push_table(name, table, TableKind::Declared);
    }

    /// Records that `@name` was declared with the table type `type_id`.
    pub fn set_table_type(&mut self, name: &str, type_id: i32) {
        if let Some(variable) = self
            .tables
            .iter_mut()
            .find(|variable| variable.name.eq_ignore_ascii_case(name))
        {
            variable.table_type = Some(type_id);
        }
    }

    /// The table type `@name` was declared with, if any.
    pub fn table_type(&self, name: &str) -> Option<i32> {
        self.table_variable(name)?.table_type
    }

    /// Adds the table-valued parameter `@name` (without the `@`), whose
    /// `table` holds the rows passed (a caller's table variable, or a
    /// table from `ddl::temp::variable_table` filled with a client's
    /// rows). The table stays its maker's: [`Variables::take_tables`]
    /// does not hand it back, so the end of the procedure does not drop
    /// it. With `readonly` (as SQL Server requires of every table-valued
    /// parameter), INSERT, UPDATE, DELETE and OUTPUT INTO on it are Msg
    /// 10700. Msg 134 if `@name` is taken.
    pub fn declare_table_parameter(
        &mut self,
        name: &str,
        table: Arc<TableMeta>,
        readonly: bool,
    ) -> SqlResult<()> {
        self.check_new(name)?;
        self.push_table(name, table, TableKind::Parameter { readonly });
        Ok(())
    }

    fn push_table(&mut self, name: &str, table: Arc<TableMeta>, kind: TableKind) {
        self.tables.push(TableVariable {
            name: name.to_string(),
            table,
            kind,
            table_type: None,
        });
    }

    fn table_variable(&self, name: &str) -> Option<&TableVariable> {
        self.tables
            .iter()
            .find(|variable| variable.name.eq_ignore_ascii_case(name))
    }

    /// The table variable `@name`, if declared.
    pub fn table(&self, name: &str) -> Option<&Arc<TableMeta>> {
        self.table_variable(name).map(|variable| &variable.table)
    }

    /// Whether `@name` is a READONLY table-valued parameter.
    pub fn is_readonly(&self, name: &str) -> bool {
        self.table_variable(name)
            .is_some_and(|variable| variable.kind == TableKind::Parameter { readonly: true })
    }

    /// The table variables: name (without the `@`) and table.
    pub fn tables(&self) -> impl Iterator<Item = (&str, &Arc<TableMeta>)> {
        self.tables
            .iter()
            .map(|variable| (variable.name.as_str(), &variable.table))
    }

    /// The table variable `@name` (given without the `@`), or Msg 1087.
    pub fn declared_table(&self, name: &str) -> SqlResult<Arc<TableMeta>> {
        self.table(name)
            .cloned()
            .ok_or_else(|| crate::error::undeclared_table_variable(name))
    }

    /// The table variable `@name` (given without the `@`) as the target of
    /// an INSERT, UPDATE, DELETE or OUTPUT INTO: Msg 1087 if there is none,
    /// 10700 for a READONLY table-valued parameter.
    pub fn writable_table(&self, name: &str) -> SqlResult<Arc<TableMeta>> {
        let table = self.declared_table(name)?;
        if self.is_readonly(name) {
            return Err(SqlError::new(
                10700,
                16,
                1,
                format!(
                    "The table-valued parameter \"@{name}\" is READONLY and cannot be modified."
                ),
            ));
        }
        Ok(table)
    }

    /// An error as SQL Server words it for a table variable: the engine
    /// names the table by its engine name (`dbo.#FFEFFFFE`), SQL Server a key
    /// violation's object as `dbo.@t` and a NULL violation's table as `@t`.
    pub fn present_error(&self, mut error: SqlError) -> SqlError {
        if !matches!(error.number, 515 | 2601 | 2627) {
            return error;
        }
        for (name, table) in self.tables() {
            let engine = &table.engine.qualified_name;
            if error.message.contains(engine.as_str()) {
                let shown = if error.number == 515 {
                    format!("@{name}")
                } else {
                    format!("dbo.@{name}")
                };
                error.message = error.message.replace(engine.as_str(), &shown);
            }
        }
        error
    }

    /// The batch's own table variables, removed with its table-valued
    /// parameters (the batch is over).
    pub fn take_tables(&mut self) -> Vec<Arc<TableMeta>> {
        std::mem::take(&mut self.tables)
            .into_iter()
            .filter(|variable| variable.kind == TableKind::Declared)
            .map(|variable| variable.table)
            .collect()
    }

    pub fn slot(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n.eq_ignore_ascii_case(name))
    }

    /// The slot of `@name`, or Msg 137.
    pub fn resolve(&self, name: &str) -> SqlResult<usize> {
        self.slot(name)
            .ok_or_else(|| crate::error::undeclared_variable(name))
    }

    /// The name of the variable in `slot`, without the `@`.
    pub fn name(&self, slot: usize) -> &str {
        &self.names[slot]
    }

    pub fn data_type(&self, slot: usize) -> DataType {
        self.types[slot]
    }

    pub fn values(&self) -> &[Value] {
        &self.values
    }

    /// Stores an already converted value.
    pub fn assign(&mut self, slot: usize, value: Value) {
        self.values[slot] = value;
    }

    /// Stores an already converted value, refusing NULL for a variable
    /// declared NOT NULL.
    pub fn assign_checked(&mut self, slot: usize, value: Value) -> SqlResult<()> {
        self.check_assignable(slot, &value)?;
        self.values[slot] = value;
        Ok(())
    }

    /// Msg 515 if `value` is NULL and the variable in `slot` is declared
    /// NOT NULL.
    pub fn check_assignable(&self, slot: usize, value: &Value) -> SqlResult<()> {
        if self.not_null[slot] && value.is_null() {
            return Err(SqlError::new(
                515,
                16,
                2,
                format!(
                    "Cannot assign NULL to the variable '@{}', which is declared NOT NULL.",
                    self.names[slot]
                ),
            ));
        }
        Ok(())
    }
}

/// The first variable `statements` (a batch, or a module's body after its
/// `parameters`) declare a second time, anywhere in their blocks, with the
/// line of that declaration: SQL Server refuses such a batch or module
/// before any of it runs (Msg 134), since a variable lives for the whole
/// batch, not a block.
pub fn first_redeclaration<'a>(
    parameters: impl IntoIterator<Item = &'a str>,
    statements: &'a [Statement],
) -> Option<(SqlError, u32)> {
    let mut seen: Vec<&str> = parameters.into_iter().collect();
    redeclared(statements.iter(), &mut seen)
        .map(|(name, line)| (crate::error::already_declared(name), line))
}

fn redeclared<'a>(
    statements: impl Iterator<Item = &'a Statement>,
    seen: &mut Vec<&'a str>,
) -> Option<(&'a str, u32)> {
    for statement in statements {
        let found = match &statement.kind {
            StatementKind::Declare(declarations) => declarations
                .iter()
                .find_map(|d| declare(&d.name, d.span.line, seen)),
            StatementKind::DeclareTable { variable, .. } => {
                declare(variable, statement.span.line, seen)
            }
            StatementKind::Block(body) | StatementKind::AtomicBlock { body, .. } => {
                redeclared(body.iter(), seen)
            }
            StatementKind::TryCatch {
                try_block,
                catch_block,
            } => redeclared(try_block.iter().chain(catch_block), seen),
            StatementKind::If {
                then_branch,
                else_branch,
                ..
            } => redeclared(
                std::iter::once(&**then_branch).chain(else_branch.as_deref()),
                seen,
            ),
            StatementKind::While { body, .. } => redeclared(std::iter::once(&**body), seen),
            _ => None,
        };
        if found.is_some() {
            return found;
        }
    }
    None
}

/// Records `name` as declared; it and its line if it already was.
fn declare<'a>(name: &'a str, line: u32, seen: &mut Vec<&'a str>) -> Option<(&'a str, u32)> {
    if seen.iter().any(|s| s.eq_ignore_ascii_case(name)) {
        return Some((name, line));
    }
    seen.push(name);
    None
}
