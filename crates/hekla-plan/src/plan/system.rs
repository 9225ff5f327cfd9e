//! System views and system table-valued functions as plans name them:
//! their names, parameters and columns, which the planner binds against
//! and SHOWPLAN prints, and their place in the system views' lists, by
//! which the executor computes their rows when the plan runs. The planner
//! finds them through its context ([`super::context::PlanContext`]), never
//! by naming the system views.

use crate::catalog::function::FunctionParameter;
use hekla_types::DataType;

/// A column of a system view.
#[derive(Clone, Debug, PartialEq)]
pub struct ViewColumn {
    pub name: &'static str,
    pub data_type: DataType,
    pub nullable: bool,
}

/// A system view (`sys.tables`) or system table-valued function
/// (`sys.dm_exec_sql_text`) a plan reads.
#[derive(Clone, Copy)]
pub struct SystemRelation {
    /// Its place in the system views' list (a function's, in the system
    /// functions' list).
    pub index: usize,
    /// `sys`, `INFORMATION_SCHEMA` or `dbo` (for spt_values).
    pub schema: &'static str,
    pub name: &'static str,
    /// A function's parameters; none for a view.
    pub parameters: fn() -> Vec<FunctionParameter>,
    pub columns: fn() -> Vec<ViewColumn>,
}

impl std::fmt::Debug for SystemRelation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.schema, self.name)
    }
}
