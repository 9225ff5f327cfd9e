//! System views: SQL Server's catalog views, DMVs and `master..spt_values`,
//! computed from hekla's catalog and engine when a query reads them.
//!
//! A query names a view the way SQL Server users do (`sys.tables`,
//! `master..spt_values`, `INFORMATION_SCHEMA.COLUMNS`); [`lookup`] finds
//! it, and the executor reads [`SystemView::rows`] once per statement, a
//! snapshot taken when the statement starts.

use crate::session::SqlDatabase;
use hekla_types::{DataType, SqlResult, Value};

/// A column of a system view.
#[derive(Clone, Debug, PartialEq)]
pub struct ViewColumn {
    pub name: &'static str,
    pub data_type: DataType,
    pub nullable: bool,
}

/// One system view: its name, its columns and how to compute its rows.
pub struct SystemView {
    /// `sys`, `INFORMATION_SCHEMA` or `dbo` (for spt_values).
    pub schema: &'static str,
    pub name: &'static str,
    pub columns: fn() -> Vec<ViewColumn>,
    /// Every row, each with one value per column, of the column's type.
    pub rows: fn(&SqlDatabase) -> SqlResult<Vec<Vec<Value>>>,
}

impl std::fmt::Debug for SystemView {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.schema, self.name)
    }
}

/// The view a query names, if it names one: `database` is the first part
/// of a three-part name (`master`, `tempdb` or the current database),
/// `schema` defaults to `dbo` when the query leaves it out.
pub fn lookup(database: Option<&str>, schema: &str, name: &str) -> Option<&'static SystemView> {
    let _ = database;
    VIEWS.iter().find(|view| {
        view.schema.eq_ignore_ascii_case(schema) && view.name.eq_ignore_ascii_case(name)
    })
}

/// Every system view hekla has (filled in by the next commit).
pub static VIEWS: &[SystemView] = &[];
