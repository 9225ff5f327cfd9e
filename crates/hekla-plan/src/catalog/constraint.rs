//! CHECK and FOREIGN KEY constraints as CREATE TABLE binds them (and binds
//! them again at open from the stored text). What they do to INSERT,
//! UPDATE and DELETE is `exec::constraints`.
//!
//! Each constraint is an object in SQL Server, with an object id and a
//! name unique in its schema. hekla numbers a table's CHECK and FOREIGN
//! KEY constraints after the table, in the order they are written (the
//! table's id + 1, + 2 ...), which the same definition always reproduces;
//! CREATE TABLE reserves those ids. An unnamed one is named as SQL Server
//! names it, `CK__<table>__<column>__<id in hex>` (a CHECK that reads
//! several columns has no column part) and `FK__<table>__<first
//! column>__<id in hex>`, except that hekla does not shorten the table and
//! column names.

use super::table::{ColumnMeta, IndexMeta};
use crate::bind::expr::{Binder, Predicate, Reads, Scope, ScopeColumn};
use crate::bind::variables::Variables;
use hekla_parser::ast;
use hekla_types::{SqlError, SqlResult, Value};

/// `CHECK (condition)`.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckConstraint {
    pub object_id: i32,
    pub name: String,
    pub system_named: bool,
    /// Reads the table's row (column positions are the table's).
    pub condition: Predicate,
    /// The column a column-level constraint is declared on.
    pub column: Option<usize>,
    /// The columns the condition reads, each once, in table order.
    pub reads: Vec<usize>,
    /// The condition as written, in parentheses (`sys.check_constraints`).
    pub definition: String,
}

impl CheckConstraint {
    /// The column Msg 547 names: the one the condition reads, when it
    /// reads exactly one (SQL Server names none otherwise).
    pub fn message_column(&self) -> Option<usize> {
        match self.reads.as_slice() {
            [column] => Some(*column),
            _ => None,
        }
    }
}

/// `FOREIGN KEY (columns) REFERENCES table (columns)`, NO ACTION only.
#[derive(Clone, Debug, PartialEq)]
pub struct ForeignKey {
    pub object_id: i32,
    pub name: String,
    pub system_named: bool,
    /// The referencing columns, in the order written.
    pub columns: Vec<usize>,
    /// The referenced table's object id (this table's own for a
    /// self-reference).
    pub referenced_table: i32,
    /// The referenced columns, pairwise with `columns`.
    pub referenced_columns: Vec<usize>,
    /// The referenced table's PRIMARY KEY or UNIQUE index on exactly those
    /// columns.
    pub referenced_index: usize,
    /// For each key column of that index, its position in `columns`.
    pub key_order: Vec<usize>,
}

impl ForeignKey {
    /// The referencing values of `row` (a row of this table), in the
    /// order of `columns`; None if any is NULL (the row references
    /// nothing).
    pub fn key_of(&self, row: &[Value]) -> Option<Vec<Value>> {
        gather(&self.columns, row)
    }

    /// The referenced values of `row` (a row of the referenced table), in
    /// the order of `referenced_columns`; None if any is NULL.
    pub fn referenced_key_of(&self, row: &[Value]) -> Option<Vec<Value>> {
        gather(&self.referenced_columns, row)
    }

    /// A key in column order as the referenced index takes it.
    pub fn index_key(&self, key: &[Value]) -> Vec<Value> {
        self.key_order.iter().map(|&p| key[p].clone()).collect()
    }
}

fn gather(columns: &[usize], row: &[Value]) -> Option<Vec<Value>> {
    let key: Vec<Value> = columns.iter().map(|&c| row[c].clone()).collect();
    (!key.iter().any(Value::is_null)).then_some(key)
}

/// A table a foreign key can reference: an existing one, or the one being
/// created (a self-reference).
pub struct KeyTable<'a> {
    pub object_id: i32,
    pub columns: &'a [ColumnMeta],
    pub indexes: &'a [IndexMeta],
}

/// The name an unnamed constraint gets.
pub fn system_name(prefix: &str, table: &str, column: Option<&str>, object_id: i32) -> String {
    match column {
        Some(column) => format!("{prefix}__{table}__{column}__{object_id:08X}"),
        None => format!("{prefix}__{table}__{object_id:08X}"),
    }
}

/// Binds a CHECK condition over the table's columns. `column` is the
/// column of a column-level constraint, which may read only that column
/// (Msg 8141). Subqueries are Msg 1046 and NEXT VALUE FOR Msg 11719, as in
/// SQL Server.
pub fn bind_check(
    condition: &ast::Expr,
    table: &str,
    schema: &str,
    columns: &[ColumnMeta],
    column: Option<usize>,
) -> SqlResult<(Predicate, Vec<usize>)> {
    let variables = Variables::default();
    let binder = Binder {
        scope: table_scope(table, schema, columns),
        ..Binder::new(&variables)
    };
    let predicate = binder.predicate(condition)?;
    let mut reads = predicate.columns();
    reads.sort_unstable();
    reads.dedup();
    if let Some(own) = column {
        if reads.iter().any(|&c| c != own) {
            return Err(SqlError::new(
                8141,
                16,
                0,
                format!(
                    "Column CHECK constraint for column '{}' references another column, table '{table}'.",
                    columns[own].name
                ),
            ));
        }
    }
    Ok((predicate, reads))
}

/// A computed column's expression, bound over the table's columns
/// (subqueries are Msg 1046, NEXT VALUE FOR Msg 11719, as in CHECK).
pub fn bind_column_expression(
    expr: &ast::Expr,
    table: &str,
    schema: &str,
    columns: &[ColumnMeta],
) -> SqlResult<crate::bind::expr::Scalar> {
    let variables = Variables::default();
    let binder = Binder {
        scope: table_scope(table, schema, columns),
        ..Binder::new(&variables)
    };
    binder.scalar(expr)
}

fn table_scope(table: &str, schema: &str, columns: &[ColumnMeta]) -> Scope {
    Scope {
        columns: columns
            .iter()
            .map(|c| ScopeColumn {
                table: table.to_string(),
                schema: schema.to_string(),
                name: c.name.clone(),
                data_type: c.data_type,
                used: Default::default(),
            })
            .collect(),
    }
}

/// A foreign key's columns resolved: see [`ForeignKey`]'s fields of the
/// same names.
pub struct ResolvedKey {
    pub columns: Vec<usize>,
    pub referenced_columns: Vec<usize>,
    pub referenced_index: usize,
    pub key_order: Vec<usize>,
}

/// Resolves a FOREIGN KEY of the table `table_name` (with `columns`)
/// against `referenced`, whose name is `referenced_name` as written: the
/// referencing and referenced columns, the referenced key and the type
/// checks (Msg 1769, 1770, 1773, 8139, 1776, 1778, 1757, 1753).
pub fn bind_foreign_key(
    name: &str,
    table_name: &str,
    columns: &[ColumnMeta],
    referencing: &[ast::Ident],
    referenced: &KeyTable<'_>,
    referenced_name: &str,
    referenced_list: &[ast::Ident],
) -> SqlResult<ResolvedKey> {
    let position = |list: &[ColumnMeta], column: &str| {
        list.iter()
            .position(|c| c.name.eq_ignore_ascii_case(column))
    };
    let mut own = Vec::with_capacity(referencing.len());
    for column in referencing {
        own.push(position(columns, &column.value).ok_or_else(|| {
            SqlError::new(
                1769,
                16,
                1,
                format!(
                    "Foreign key '{name}' references invalid column '{}' in referencing table '{table_name}'.",
                    column.value
                ),
            )
        })?);
    }
    let primary_key = || {
        referenced
            .indexes
            .iter()
            .find(|index| index.constraint == Some(super::table::KeyConstraint::PrimaryKey))
    };
    let targets: Vec<usize> = if referenced_list.is_empty() {
        match primary_key() {
            Some(index) => index.columns.iter().map(|&(c, _)| c).collect(),
            None => {
                return Err(SqlError::new(
                    1773,
                    16,
                    0,
                    format!(
                        "Foreign key '{name}' has implicit reference to object '{referenced_name}' which does not have a primary key defined on it."
                    ),
                ))
            }
        }
    } else {
        if referenced_list.len() != own.len() {
            return Err(count_mismatch(table_name));
        }
        let mut targets = Vec::with_capacity(referenced_list.len());
        for column in referenced_list {
            targets.push(position(referenced.columns, &column.value).ok_or_else(|| {
                SqlError::new(
                    1770,
                    16,
                    0,
                    format!(
                        "Foreign key '{name}' references invalid column '{}' in referenced table '{referenced_name}'.",
                        column.value
                    ),
                )
            })?);
        }
        targets
    };
    if targets.len() != own.len() {
        return Err(count_mismatch(table_name));
    }
    // A PRIMARY KEY or UNIQUE index whose key is exactly these columns, in
    // any order; the primary key first.
    let mut candidates: Vec<(usize, &IndexMeta)> = referenced
        .indexes
        .iter()
        .enumerate()
        .filter(|(_, index)| index.constraint.is_some())
        .collect();
    candidates.sort_by_key(|(_, index)| {
        index.constraint != Some(super::table::KeyConstraint::PrimaryKey)
    });
    let found = candidates.into_iter().find_map(|(ordinal, index)| {
        if index.columns.len() != targets.len() {
            return None;
        }
        let order: Option<Vec<usize>> = index
            .columns
            .iter()
            .map(|&(column, _)| targets.iter().position(|&t| t == column))
            .collect();
        let order = order?;
        let mut distinct = order.clone();
        distinct.sort_unstable();
        distinct.dedup();
        (distinct.len() == order.len()).then_some((ordinal, order))
    });
    let Some((index, key_order)) = found else {
        return Err(SqlError::new(
            1776,
            16,
            0,
            format!(
                "There are no primary or candidate keys in the referenced table '{referenced_name}' that match the referencing column list in the foreign key '{name}'."
            ),
        ));
    };
    for (&mine, &theirs) in own.iter().zip(&targets) {
        let (child, parent) = (&columns[mine], &referenced.columns[theirs]);
        let pair = |what: &str| {
            format!(
                "Column '{referenced_name}.{}' is not {what} as referencing column '{table_name}.{}' in foreign key '{name}'.",
                parent.name, child.name
            )
        };
        let family = |t: &hekla_types::DataType| {
            let name = t.sql_name();
            name.split('(').next().unwrap_or_default().to_string()
        };
        if family(&child.data_type) != family(&parent.data_type) {
            return Err(SqlError::new(1778, 16, 0, pair("the same data type")));
        }
        if child.data_type.collation() != parent.data_type.collation() {
            return Err(SqlError::new(1757, 16, 0, pair("of same collation")));
        }
        if child.data_type != parent.data_type {
            return Err(SqlError::new(
                1753,
                16,
                0,
                format!(
                    "{} Columns participating in a foreign key relationship must be defined with the same length and scale.",
                    pair("the same length or scale")
                ),
            ));
        }
    }
    Ok(ResolvedKey {
        columns: own,
        referenced_columns: targets,
        referenced_index: index,
        key_order,
    })
}

fn count_mismatch(table: &str) -> SqlError {
    SqlError::new(
        8139,
        16,
        0,
        format!(
            "Number of referencing columns in foreign key differs from number of referenced columns, table '{table}'."
        ),
    )
}

/// ON DELETE / ON UPDATE other than NO ACTION: not run yet.
pub fn check_actions(
    on_delete: Option<ast::ReferentialAction>,
    on_update: Option<ast::ReferentialAction>,
) -> SqlResult<()> {
    for (clause, action) in [("ON DELETE", on_delete), ("ON UPDATE", on_update)] {
        let word = match action {
            None | Some(ast::ReferentialAction::NoAction) => continue,
            Some(ast::ReferentialAction::Cascade) => "CASCADE",
            Some(ast::ReferentialAction::SetNull) => "SET NULL",
            Some(ast::ReferentialAction::SetDefault) => "SET DEFAULT",
        };
        return Err(SqlError::new(
            10794,
            16,
            1,
            format!("The feature 'FOREIGN KEY ... {clause} {word}' is not supported by hekla yet (only NO ACTION is)."),
        ));
    }
    Ok(())
}
