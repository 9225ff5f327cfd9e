//! A batch's local variables (`DECLARE @v ...`): declared types for the
//! binder, current values for the evaluator. They live for one batch, as in
//! SQL Server; names compare case-insensitively. Table variables (`DECLARE
//! @t TABLE (...)`) live here too, as the tables made for them (see
//! `catalog::temp`), with the session the batch runs in, whose `#temp`
//! tables its statements see.

use crate::catalog::table::TableMeta;
use hekla_types::{DataType, SqlError, SqlResult, Value};
use std::sync::Arc;

#[derive(Clone, Debug, Default)]
pub struct Variables {
    names: Vec<String>,
    types: Vec<DataType>,
    values: Vec<Value>,
    /// Declared NOT NULL (natively compiled modules).
    not_null: Vec<bool>,
    /// Table variables: name (without the `@`), table, and whether it is
    /// borrowed (a table-valued parameter: the caller's, READONLY here).
    tables: Vec<(String, Arc<TableMeta>, bool)>,
    /// The session (`@@SPID`) running the batch; 0 outside any session.
    session: i16,
}

impl Variables {
    /// No variables yet, for a batch of session `spid`.
    pub fn for_session(spid: i16) -> Self {
        Variables {
            session: spid,
            ..Variables::default()
        }
    }

    /// The session running the batch, whose `#temp` tables it sees.
    pub fn session(&self) -> i16 {
        self.session
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
            return Err(SqlError::new(
                134,
                15,
                1,
                format!("The variable name '@{name}' has already been declared. Variable names must be unique within a query batch or stored procedure."),
            ));
        }
        Ok(())
    }

    /// Msg 134 if `@name` is taken; checked before its table is made.
    pub fn check_table_name(&self, name: &str) -> SqlResult<()> {
        self.check_new(name)
    }

    /// Adds the table variable `@name` (without the `@`).
    pub fn declare_table(&mut self, name: &str, table: Arc<TableMeta>) {
        self.tables.push((name.to_string(), table, false));
    }

    /// Adds the READONLY table-valued parameter `@name`: the caller's
    /// table variable, which stays the caller's.
    pub fn declare_borrowed_table(&mut self, name: &str, table: Arc<TableMeta>) {
        self.tables.push((name.to_string(), table, true));
    }

    /// The table variable `@name`, if declared.
    pub fn table(&self, name: &str) -> Option<&Arc<TableMeta>> {
        self.tables
            .iter()
            .find(|(n, _, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, table, _)| table)
    }

    /// Whether `@name` is a READONLY table-valued parameter.
    pub fn is_borrowed_table(&self, name: &str) -> bool {
        self.tables
            .iter()
            .any(|(n, _, borrowed)| *borrowed && n.eq_ignore_ascii_case(name))
    }

    /// The table variables: name (without the `@`) and table.
    pub fn tables(&self) -> impl Iterator<Item = (&str, &Arc<TableMeta>)> {
        self.tables
            .iter()
            .map(|(name, table, _)| (name.as_str(), table))
    }

    /// The table variables the batch or procedure made, removed (it is
    /// over); borrowed ones stay their owner's.
    pub fn take_tables(&mut self) -> Vec<Arc<TableMeta>> {
        std::mem::take(&mut self.tables)
            .into_iter()
            .filter(|(_, _, borrowed)| !borrowed)
            .map(|(_, table, _)| table)
            .collect()
    }

    pub fn slot(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n.eq_ignore_ascii_case(name))
    }

    /// The slot of `@name`, or Msg 137.
    pub fn resolve(&self, name: &str) -> SqlResult<usize> {
        self.slot(name).ok_or_else(|| {
            SqlError::new(
                137,
                15,
                2,
                format!("Must declare the scalar variable \"@{name}\"."),
            )
        })
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
