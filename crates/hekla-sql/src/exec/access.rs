//! Access paths: how a statement reaches the rows its WHERE clause can
//! accept. When the WHERE clause fixes every key column of an index with
//! `column = constant`, the rows come from that index (a hash bucket or a
//! B+tree position); otherwise from a full scan. Either way the whole
//! filter is applied to each row, so the path only decides speed.

use super::eval::Inputs;
use crate::bind::expr::{CompareOp, Predicate, Scalar, ScalarKind};
use crate::catalog::table::TableMeta;
use crate::session::SqlDatabase;
use hekla_engine::{RowId, Transaction};
use hekla_types::{SqlResult, Value};
use std::ops::ControlFlow;

/// How the rows are found.
#[derive(Clone, Debug, PartialEq)]
pub enum AccessPath {
    Scan,
    /// Rows whose key in `index` equals `key`.
    Seek {
        index: usize,
        key: Vec<Value>,
    },
}

impl AccessPath {
    /// The cheapest path `filter` allows on `table`: the first index all of
    /// whose key columns are fixed by an equality.
    pub fn choose(table: &TableMeta, filter: Option<&Predicate>) -> AccessPath {
        let Some(filter) = filter else {
            return AccessPath::Scan;
        };
        let mut fixed = Vec::new();
        equalities(filter, &mut fixed);
        for (position, index) in table.indexes.iter().enumerate() {
            let key: Option<Vec<Value>> = index
                .columns
                .iter()
                .map(|&(column, _)| {
                    fixed
                        .iter()
                        .find(|(c, _)| *c == column)
                        .map(|(_, value)| value.clone())
                })
                .collect();
            if let Some(key) = key {
                return AccessPath::Seek {
                    index: position,
                    key,
                };
            }
        }
        AccessPath::Scan
    }
}

impl AccessPath {
    /// The operator as SHOWPLAN_TEXT names it.
    /// `filter` is the WHERE clause as written, applied to every row read.
    pub fn describe(&self, db: &SqlDatabase, table: &TableMeta, filter: Option<&str>) -> String {
        let schema = db
            .catalog()
            .schema_name(table.schema_id)
            .unwrap_or("dbo")
            .to_string();
        let object = format!("[{schema}].[{}]", table.name);
        let residual = filter.map_or(String::new(), |f| format!(", WHERE:({f})"));
        match self {
            AccessPath::Scan => format!("Table Scan(OBJECT:({object}){residual})"),
            AccessPath::Seek { index, key } => {
                let meta = &table.indexes[*index];
                let seek: Vec<String> = meta
                    .columns
                    .iter()
                    .zip(key)
                    .map(|(&(column, _), value)| {
                        format!("[{}]=({value})", table.columns[column].name)
                    })
                    .collect();
                let kind = match meta.kind {
                    hekla_engine::IndexKind::Hash { .. } => "Hash Index Seek",
                    hekla_engine::IndexKind::Range => "Index Seek",
                };
                format!(
                    "{kind}(OBJECT:({object}.[{}]), SEEK:({}){residual})",
                    meta.name,
                    seek.join(" AND ")
                )
            }
        }
    }
}

/// Visits the rows of `table` that `filter` accepts, with their values.
pub fn for_each_row(
    tx: &mut Transaction,
    table: &TableMeta,
    filter: Option<&Predicate>,
    variables: &[Value],
    mut visit: impl FnMut(RowId, Vec<Value>) -> SqlResult<ControlFlow<()>>,
) -> SqlResult<()> {
    let mut failure = None;
    let mut step = |id: RowId, values: Vec<Value>| {
        let accepted = match filter {
            Some(filter) => filter.eval(&Inputs {
                row: &values,
                variables,
            }),
            None => Ok(Some(true)),
        };
        let result = accepted.and_then(|accepted| match accepted {
            Some(true) => visit(id, values),
            _ => Ok(ControlFlow::Continue(())),
        });
        match result {
            Ok(flow) => flow,
            Err(error) => {
                failure = Some(error);
                ControlFlow::Break(())
            }
        }
    };
    match AccessPath::choose(table, filter) {
        AccessPath::Scan => tx.scan(&table.engine, |row| step(row.id(), row.values()))?,
        AccessPath::Seek { index, key } => tx.lookup(&table.engine, index, &key, |row| {
            step(row.id(), row.values())
        })?,
    };
    failure.map_or(Ok(()), Err)
}

/// `column = constant` conjuncts of an AND tree, with non-NULL constants of
/// the column's own type (a converted column cannot use its index).
fn equalities(predicate: &Predicate, out: &mut Vec<(usize, Value)>) {
    match predicate {
        Predicate::And(left, right) => {
            equalities(left, out);
            equalities(right, out);
        }
        Predicate::Compare {
            op: CompareOp::Eq,
            left,
            right,
            ..
        } => {
            if let Some(pair) =
                column_constant(left, right).or_else(|| column_constant(right, left))
            {
                out.push(pair);
            }
        }
        _ => {}
    }
}

fn column_constant(column: &Scalar, constant: &Scalar) -> Option<(usize, Value)> {
    match (&column.kind, &constant.kind) {
        (ScalarKind::Column(index), ScalarKind::Constant(value)) if !value.is_null() => {
            Some((*index, value.clone()))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bind::expr::{Binder, Scope, ScopeColumn};
    use crate::session::SqlDatabase;
    use crate::text_output::{TextOptions, TextSink};

    fn path(where_clause: &str) -> AccessPath {
        let db = SqlDatabase::in_memory().unwrap();
        let mut sink = TextSink::new(Vec::new(), TextOptions::default());
        db.session().execute(
            "CREATE TABLE t (a bigint NOT NULL, b int NOT NULL, c int NULL,
                 PRIMARY KEY NONCLUSTERED HASH (a, b) WITH (BUCKET_COUNT = 64),
                 INDEX ix_c NONCLUSTERED (c))",
            &mut sink,
        );
        assert!(sink.finish().0.is_empty());
        let catalog = db.catalog();
        let table = catalog.tables().next().unwrap().clone();
        let variables = crate::bind::variables::Variables::default();
        let binder = Binder {
            variables: &variables,
            grouping: None,
            collation: hekla_types::Collation::default(),
            scope: Scope {
                columns: table
                    .columns
                    .iter()
                    .map(|c| ScopeColumn {
                        table: "t".into(),
                        schema: "dbo".into(),
                        name: c.name.clone(),
                        data_type: c.data_type,
                    })
                    .collect(),
            },
        };
        let batch = crate::parse_batch(&format!("SELECT 1 WHERE {where_clause}")).unwrap();
        let crate::ast::StatementKind::Select(select) = &batch.statements[0].kind else {
            panic!()
        };
        let crate::ast::QueryBody::Select(body) = &select.query.body else {
            panic!()
        };
        let filter = binder
            .predicate(body.where_clause.as_ref().unwrap())
            .unwrap();
        AccessPath::choose(&table, Some(&filter))
    }

    #[test]
    fn seeks_when_every_key_column_is_fixed() {
        assert_eq!(
            path("b = 2 AND 1 = a AND c > 0"),
            AccessPath::Seek {
                index: 0,
                key: vec![Value::BigInt(1), Value::Int(2)]
            }
        );
        assert_eq!(
            path("c = 7"),
            AccessPath::Seek {
                index: 1,
                key: vec![Value::Int(7)]
            }
        );
        assert_eq!(path("a = 1"), AccessPath::Scan, "half a hash key");
        assert_eq!(path("a = 1 OR b = 2"), AccessPath::Scan);
        assert_eq!(path("c = NULL"), AccessPath::Scan);
        assert_eq!(path("a + 0 = 1 AND b = 2"), AccessPath::Scan);
    }
}
