//! Schemas, tables, columns and indexes: the definitions the engine stores
//! rows by. Ids are handed out once and never reused, so that the durability
//! layer can persist them and recovery can restore them unchanged.

use crate::errors;
use hekla_types::{DataType, SortOrder, SqlResult};

pub type SchemaId = u32;
pub type TableId = u32;

/// The schema every database starts with.
pub const DBO_SCHEMA: SchemaId = 1;

/// Explicit limits (SQL Server's, where it has one).
pub const MAX_COLUMNS: usize = 1024;
pub const MAX_INDEXES: usize = 999;
pub const MAX_KEY_COLUMNS: usize = 32;
/// Hash indexes: SQL Server caps BUCKET_COUNT at 2^30.
pub const MAX_BUCKET_COUNT: u64 = 1 << 30;

/// Whether a table's rows survive a restart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Durability {
    /// `DURABILITY = SCHEMA_AND_DATA`: rows are logged and checkpointed.
    SchemaAndData,
    /// `DURABILITY = SCHEMA_ONLY`: the table comes back empty after a restart.
    SchemaOnly,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ColumnDef {
    pub name: String,
    pub data_type: DataType,
    pub nullable: bool,
}

impl ColumnDef {
    pub fn new(name: &str, data_type: DataType, nullable: bool) -> Self {
        ColumnDef {
            name: name.to_string(),
            data_type,
            nullable,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IndexKind {
    /// `NONCLUSTERED HASH WITH (BUCKET_COUNT = n)`: n is rounded up to a power of two.
    Hash { bucket_count: u64 },
    /// `NONCLUSTERED`: an ordered index (a B+tree) for seeks and ordered scans.
    Range,
}

/// What a unique index enforces, which decides the duplicate-key error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Uniqueness {
    NotUnique,
    /// `CREATE UNIQUE INDEX`: duplicates raise 2601.
    UniqueIndex,
    /// `PRIMARY KEY` constraint: duplicates raise 2627.
    PrimaryKey,
    /// `UNIQUE` constraint: duplicates raise 2627.
    UniqueConstraint,
}

impl Uniqueness {
    pub fn is_unique(self) -> bool {
        self != Uniqueness::NotUnique
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct IndexDef {
    pub name: String,
    pub kind: IndexKind,
    /// Key columns, as ordinals into the table's columns.
    pub columns: Vec<usize>,
    /// Per key column, its order in a range index (hash indexes: ascending).
    pub orders: Vec<SortOrder>,
    pub uniqueness: Uniqueness,
}

impl IndexDef {
    pub fn hash(name: &str, columns: &[usize], bucket_count: u64, uniqueness: Uniqueness) -> Self {
        IndexDef {
            name: name.to_string(),
            kind: IndexKind::Hash { bucket_count },
            columns: columns.to_vec(),
            orders: vec![SortOrder::Ascending; columns.len()],
            uniqueness,
        }
    }

    /// A range index; each key column with its sort order.
    pub fn range(name: &str, columns: &[(usize, SortOrder)], uniqueness: Uniqueness) -> Self {
        IndexDef {
            name: name.to_string(),
            kind: IndexKind::Range,
            columns: columns.iter().map(|&(column, _)| column).collect(),
            orders: columns.iter().map(|&(_, order)| order).collect(),
            uniqueness,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct TableDef {
    pub schema: SchemaId,
    pub name: String,
    pub columns: Vec<ColumnDef>,
    pub durability: Durability,
    pub indexes: Vec<IndexDef>,
}

impl TableDef {
    pub fn new(name: &str, columns: Vec<ColumnDef>, indexes: Vec<IndexDef>) -> Self {
        TableDef {
            schema: DBO_SCHEMA,
            name: name.to_string(),
            columns,
            durability: Durability::SchemaAndData,
            indexes,
        }
    }

    /// Checks the definition against SQL Server's rules and our limits.
    pub fn validate(&self) -> SqlResult<()> {
        if self.columns.is_empty() {
            return Err(errors::invalid_definition(
                4922,
                format!("Table '{}' must have at least one column.", self.name),
            ));
        }
        if self.columns.len() > MAX_COLUMNS {
            return Err(errors::invalid_definition(
                1702,
                format!(
                    "CREATE TABLE failed because column '{}' in table '{}' exceeds the maximum of {} columns.",
                    self.columns[MAX_COLUMNS].name, self.name, MAX_COLUMNS
                ),
            ));
        }
        for (i, column) in self.columns.iter().enumerate() {
            if self.columns[..i]
                .iter()
                .any(|c| c.name.eq_ignore_ascii_case(&column.name))
            {
                return Err(errors::invalid_definition(
                    2705,
                    format!(
                        "Column names in each table must be unique. Column name '{}' in table '{}' is specified more than once.",
                        column.name, self.name
                    ),
                ));
            }
        }
        if self.indexes.len() > MAX_INDEXES {
            return Err(errors::invalid_definition(
                1910,
                format!(
                    "Could not create index on table '{}' because it exceeds the maximum of {} allowed per table or view.",
                    self.name, MAX_INDEXES
                ),
            ));
        }
        let primary_keys = self
            .indexes
            .iter()
            .filter(|i| i.uniqueness == Uniqueness::PrimaryKey)
            .count();
        if primary_keys > 1 {
            return Err(errors::invalid_definition(
                8110,
                format!(
                    "Cannot add multiple PRIMARY KEY constraints to table '{}'.",
                    self.name
                ),
            ));
        }
        for (i, index) in self.indexes.iter().enumerate() {
            self.validate_index(index)?;
            if self.indexes[..i]
                .iter()
                .any(|other| other.name.eq_ignore_ascii_case(&index.name))
            {
                return Err(errors::invalid_definition(
                    1913,
                    format!(
                        "The operation failed because an index or statistics with name '{}' already exists on table '{}'.",
                        index.name, self.name
                    ),
                ));
            }
        }
        Ok(())
    }

    fn validate_index(&self, index: &IndexDef) -> SqlResult<()> {
        if index.columns.is_empty() || index.columns.len() > MAX_KEY_COLUMNS {
            return Err(errors::invalid_definition(
                1904,
                format!(
                    "The index '{}' on table '{}' has {} key columns; an index needs between 1 and {}.",
                    index.name,
                    self.name,
                    index.columns.len(),
                    MAX_KEY_COLUMNS
                ),
            ));
        }
        if index.orders.len() != index.columns.len() {
            return Err(errors::invalid_argument(format!(
                "index '{}' has {} key columns but {} sort orders",
                index.name,
                index.columns.len(),
                index.orders.len()
            )));
        }
        for (i, &ordinal) in index.columns.iter().enumerate() {
            let Some(column) = self.columns.get(ordinal) else {
                return Err(errors::invalid_definition(
                    1911,
                    format!(
                        "Column ordinal {} named in index '{}' does not exist in table '{}'.",
                        ordinal, index.name, self.name
                    ),
                ));
            };
            if index.columns[..i].contains(&ordinal) {
                return Err(errors::invalid_definition(
                    1909,
                    format!(
                        "Cannot use duplicate column names in index. Column name '{}' listed more than once.",
                        column.name
                    ),
                ));
            }
            if index.uniqueness == Uniqueness::PrimaryKey && column.nullable {
                return Err(errors::invalid_definition(
                    8111,
                    format!(
                        "Cannot define PRIMARY KEY constraint on nullable column in table '{}'.",
                        self.name
                    ),
                ));
            }
        }
        match index.kind {
            IndexKind::Hash { bucket_count } if bucket_count == 0 || bucket_count > MAX_BUCKET_COUNT => {
                Err(errors::invalid_definition(
                    41310,
                    format!(
                        "The value {} for BUCKET_COUNT of index '{}' is out of range: it must be between 1 and {}.",
                        bucket_count, index.name, MAX_BUCKET_COUNT
                    ),
                ))
            }
            IndexKind::Hash { .. } | IndexKind::Range => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(columns: Vec<ColumnDef>, indexes: Vec<IndexDef>) -> SqlResult<()> {
        TableDef::new("t", columns, indexes).validate()
    }

    fn error_number(result: SqlResult<()>) -> u32 {
        result.expect_err("the definition is refused").number
    }

    #[test]
    fn definitions_follow_sql_server_rules() {
        let id = || ColumnDef::new("id", DataType::Int, false);
        let maybe = || ColumnDef::new("maybe", DataType::Int, true);
        let pk = |columns: &[usize]| IndexDef::hash("pk", columns, 8, Uniqueness::PrimaryKey);
        assert!(table(vec![id(), maybe()], vec![pk(&[0])]).is_ok());
        assert_eq!(error_number(table(vec![], vec![])), 4922);
        assert_eq!(error_number(table(vec![id(), id()], vec![])), 2705);
        assert_eq!(
            error_number(table(vec![id(), maybe()], vec![pk(&[1])])),
            8111
        );
        assert_eq!(
            error_number(table(vec![id()], vec![pk(&[0]), pk(&[0])])),
            8110
        );
        assert_eq!(error_number(table(vec![id()], vec![pk(&[3])])), 1911);
        assert_eq!(error_number(table(vec![id()], vec![pk(&[0, 0])])), 1909);
        let too_many_buckets =
            IndexDef::hash("h", &[0], MAX_BUCKET_COUNT + 1, Uniqueness::NotUnique);
        assert_eq!(
            error_number(table(vec![id()], vec![too_many_buckets])),
            41310
        );
        let range =
            |columns: &[(usize, SortOrder)]| IndexDef::range("r", columns, Uniqueness::UniqueIndex);
        assert!(table(vec![id()], vec![range(&[(0, SortOrder::Descending)])]).is_ok());
        assert_eq!(
            error_number(table(vec![id()], vec![range(&[(2, SortOrder::Ascending)])])),
            1911
        );
        // Nullable key columns are allowed in non-unique and unique indexes.
        let nullable_key = IndexDef::hash("n", &[1], 8, Uniqueness::UniqueIndex);
        assert!(table(vec![id(), maybe()], vec![nullable_key]).is_ok());
        assert!(table(
            vec![id(), maybe()],
            vec![range(&[(1, SortOrder::Ascending)])]
        )
        .is_ok());
    }
}
