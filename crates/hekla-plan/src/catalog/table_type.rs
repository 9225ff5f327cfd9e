//! Table types: `CREATE TYPE [schema.]name AS TABLE (columns, PRIMARY
//! KEY, UNIQUE, CHECK, DEFAULT, IDENTITY, INDEX ...) [WITH
//! (MEMORY_OPTIMIZED = ON | OFF)]` (created, stored and dropped as every
//! user type is, see [`super::user_type`]); `DECLARE @v name` makes a
//! table variable of the type (`ddl::temp::declare_variable`).
//!
//! The definition is bound at CREATE TYPE as CREATE TABLE binds a table's,
//! so its errors come then (a memory-optimized table type needs an index,
//! Msg 41327); each variable of the type is then made from the same
//! elements as `DECLARE @v TABLE (...)` makes one. As in SQL Server,
//! constraints of a table type are unnamed, it has no FOREIGN KEY and its
//! DEFAULTs take no `NEXT VALUE FOR` (Msg 11719).
//!
//! `sys.objects` lists the table a table type describes as SQL Server
//! does, with type `TT` and the name `TT_<type>_<object id in hex>`.

use super::table::{ColumnMeta, TableDesign};
use super::Catalog;
use hekla_parser::ast::{self, ConstraintKind, OptionValue, TableElement};
use hekla_types::{SqlError, SqlResult};

#[derive(Debug)]
pub struct TableType {
    /// The columns, constraints and indexes each variable is made from.
    pub elements: Vec<TableElement>,
    /// `WITH (MEMORY_OPTIMIZED = ON)` (`sys.table_types`).
    pub memory_optimized: bool,
    /// The columns as bound at CREATE TYPE (`sys.columns`, and the alias
    /// types they use).
    pub columns: Vec<ColumnMeta>,
    /// The IDENTITY column's position, if there is one.
    pub identity_column: Option<usize>,
    /// `elements` written as T-SQL once, here: emptied tables of this
    /// type's variables are kept for reuse under it (each call with a
    /// table-valued parameter would otherwise print the definition).
    pub elements_text: String,
}

impl TableType {
    /// Binds `create` for the type with object id `id`.
    pub fn bind(catalog: &Catalog, create: &ast::CreateTableType, id: i32) -> SqlResult<TableType> {
        let memory_optimized = memory_optimized(&create.options)?;
        refuse_names_and_foreign_keys(&create.elements)?;
        let table = ast::CreateTable {
            name: create.name.clone(),
            elements: create.elements.clone(),
            options: table_options(memory_optimized),
            filegroup: None,
        };
        let design = TableDesign::bind(&table, catalog, id)?;
        let takes_sequence_values = design
            .columns
            .iter()
            .filter_map(|column| column.default.as_ref())
            .any(|default| {
                catalog
                    .sequences()
                    .any(|sequence| default.uses_sequence(sequence.object_id))
            });
        if takes_sequence_values {
            return Err(crate::error::next_value_not_allowed());
        }
        Ok(TableType {
            elements_text: elements_text(&create.elements),
            elements: create.elements.clone(),
            memory_optimized,
            columns: design.columns,
            identity_column: design.identity.map(|identity| identity.column),
        })
    }
}

/// Table elements as the T-SQL between a CREATE TABLE's parentheses.
pub fn elements_text(elements: &[ast::TableElement]) -> String {
    let written: Vec<String> = elements.iter().map(ToString::to_string).collect();
    written.join(", ")
}

/// The `sys.objects` name of the table of type `type_name` with `id`.
pub fn object_name(type_name: &str, id: i32) -> String {
    format!("TT_{type_name}_{:08X}", id as u32)
}

/// `WITH (MEMORY_OPTIMIZED = ON | OFF)`, the only option of a table type
/// (Msg 155 for another).
fn memory_optimized(options: &[ast::OptionItem]) -> SqlResult<bool> {
    let mut memory_optimized = false;
    for option in options {
        let name: Vec<String> = option
            .name
            .iter()
            .map(|word| word.value.to_ascii_uppercase())
            .collect();
        let value = match &option.value {
            Some(OptionValue::Words(words)) if words.len() == 1 => {
                words[0].value.to_ascii_uppercase()
            }
            _ => String::new(),
        };
        match (name.join(" ").as_str(), value.as_str()) {
            ("MEMORY_OPTIMIZED", "ON") => memory_optimized = true,
            ("MEMORY_OPTIMIZED", "OFF") => memory_optimized = false,
            (other, _) => {
                return Err(SqlError::new(
                    155,
                    15,
                    1,
                    format!("'{other}' is not a recognized CREATE TYPE option."),
                ))
            }
        }
    }
    Ok(memory_optimized)
}

/// The options CREATE TABLE binds the type's definition with: a
/// memory-optimized type is bound as a SCHEMA_ONLY table, which needs an
/// index (Msg 41327) but no primary key, as SQL Server's table types do.
fn table_options(memory_optimized: bool) -> Vec<ast::OptionItem> {
    let option = |name: &str, value: &str| {
        let word = |text: &str| ast::Ident {
            value: text.to_string(),
            span: Default::default(),
        };
        ast::OptionItem {
            name: vec![word(name)],
            value: Some(OptionValue::Words(vec![word(value)])),
            span: Default::default(),
        }
    };
    if memory_optimized {
        vec![
            option("MEMORY_OPTIMIZED", "ON"),
            option("DURABILITY", "SCHEMA_ONLY"),
        ]
    } else {
        Vec::new()
    }
}

/// SQL Server's grammar for table types has no constraint names and no
/// FOREIGN KEY (Msg 156; SQL Server reports it when it parses the batch).
fn refuse_names_and_foreign_keys(elements: &[TableElement]) -> SqlResult<()> {
    let near = |keyword: &str| {
        SqlError::new(
            156,
            15,
            1,
            format!("Incorrect syntax near the keyword '{keyword}'."),
        )
    };
    let check = |constraint: &ast::TableConstraint| match &constraint.kind {
        _ if constraint.name.is_some() => Err(near("CONSTRAINT")),
        ConstraintKind::ForeignKey { columns, .. } if columns.is_empty() => Err(near("REFERENCES")),
        ConstraintKind::ForeignKey { .. } => Err(near("FOREIGN")),
        _ => Ok(()),
    };
    for element in elements {
        match element {
            TableElement::Column(column) => {
                if column
                    .default
                    .as_ref()
                    .is_some_and(|(name, _)| name.is_some())
                {
                    return Err(near("CONSTRAINT"));
                }
                column.constraints.iter().try_for_each(check)?;
            }
            TableElement::Constraint(constraint) => check(constraint)?,
            TableElement::Index(_) => {}
        }
    }
    Ok(())
}
