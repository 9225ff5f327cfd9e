//! A batch's local variables (`DECLARE @v ...`): declared types for the
//! binder, current values for the evaluator. They live for one batch, as in
//! SQL Server; names compare case-insensitively.

use hekla_types::{DataType, SqlError, SqlResult, Value};

#[derive(Clone, Debug, Default)]
pub struct Variables {
    names: Vec<String>,
    types: Vec<DataType>,
    values: Vec<Value>,
}

impl Variables {
    /// Declares `@name` (given without the `@`) holding NULL; its slot.
    pub fn declare(&mut self, name: &str, data_type: DataType) -> SqlResult<usize> {
        if self.slot(name).is_some() {
            return Err(SqlError::new(
                134,
                15,
                1,
                format!("The variable name '@{name}' has already been declared. Variable names must be unique within a query batch or stored procedure."),
            ));
        }
        self.names.push(name.to_string());
        self.types.push(data_type);
        self.values.push(Value::Null);
        Ok(self.names.len() - 1)
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
}
