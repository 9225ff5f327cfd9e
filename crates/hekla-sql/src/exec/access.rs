//! Reading a table along an access path ([`crate::plan::access`]): a
//! scan, an index seek, or a range index's key order.

use super::eval::Inputs;
use crate::catalog::table::TableMeta;
use crate::plan::access::AccessPath;
use crate::plan::TableRead;
use hekla_engine::{KeyRange, Row, RowId, Transaction};
use hekla_types::{SqlResult, Value};
use std::ops::ControlFlow;

impl AccessPath {
    /// Reads `table`'s rows along this path; key expressions read `outer`
    /// (the columns before the table in a join, and outer queries' rows).
    pub fn read(
        &self,
        tx: &mut Transaction,
        table: &TableMeta,
        outer: &Inputs<'_>,
        mut visit: impl FnMut(Row<'_>) -> ControlFlow<()>,
    ) -> SqlResult<()> {
        match self {
            AccessPath::Scan => tx.scan(&table.engine, visit)?,
            // A key of one column (the usual) is read without a vector.
            AccessPath::Seek { index, key } if key.len() == 1 => {
                let value = key[0].eval(outer)?;
                if value.is_null() {
                    return Ok(()); // = NULL matches nothing
                }
                tx.lookup(
                    &table.engine,
                    *index,
                    std::slice::from_ref(&value),
                    &mut visit,
                )?
            }
            AccessPath::Seek { index, key } => {
                let key = key
                    .iter()
                    .map(|part| part.eval(outer))
                    .collect::<SqlResult<Vec<Value>>>()?;
                if key.iter().any(Value::is_null) {
                    return Ok(()); // = NULL matches nothing
                }
                tx.lookup(&table.engine, *index, &key, &mut visit)?
            }
            AccessPath::Ordered { index } => {
                tx.scan_range(&table.engine, *index, &KeyRange::all(), visit)?
            }
        };
        Ok(())
    }
}

/// Visits the rows `read` finds along its access path that its filter
/// accepts, with their values, read at the isolation level its hint asks
/// for. `inputs` gives the statement's context and outer rows; the rows
/// are read into memory first, so `visit` may use the transaction.
pub fn for_each_row(
    read: &TableRead,
    inputs: &Inputs<'_>,
    mut visit: impl FnMut(RowId, Vec<Value>) -> SqlResult<ControlFlow<()>>,
) -> SqlResult<()> {
    let mut rows = Vec::new();
    {
        let table = inputs.context.table(&read.table);
        let mut tx = inputs.context.reading(table, read.hint)?;
        read.path.read(&mut tx, table, inputs, |row| {
            rows.push((row.id(), row.values()));
            ControlFlow::Continue(())
        })?;
    }
    let filter = read.filter.as_ref();
    for (id, values) in rows {
        if super::run::holds(filter, &inputs.with_row(&values))? && visit(id, values)?.is_break() {
            break;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bind::expr::{Binder, ScalarKind, Scope};
    use crate::session::SqlDatabase;
    use crate::text_output::{TextOptions, TextSink};

    fn path(where_clause: &str) -> AccessPath {
        let db = SqlDatabase::in_memory().unwrap();
        let mut sink = TextSink::new(Vec::new(), TextOptions::default());
        db.session().unwrap().execute(
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
            scope: Scope {
                columns: crate::plan::from::table_scope(&*db, &table, "t"),
            },
            ..Binder::new(&variables)
        };
        let batch = hekla_parser::parse_batch(&format!("SELECT 1 WHERE {where_clause}")).unwrap();
        let hekla_parser::ast::StatementKind::Select(select) = &batch.statements[0].kind else {
            panic!()
        };
        let hekla_parser::ast::QueryBody::Select(body) = &select.query.body else {
            panic!()
        };
        let filter = binder
            .predicate(body.where_clause.as_ref().unwrap())
            .unwrap();
        AccessPath::choose(&table, 0, Some(&filter))
    }

    #[test]
    fn seeks_when_every_key_column_is_fixed() {
        let constants = |path: AccessPath| match path {
            AccessPath::Seek { index, key } => {
                let values = key.iter().map(|part| match &part.kind {
                    ScalarKind::Constant(value) => value.clone(),
                    other => panic!("not a constant: {other:?}"),
                });
                Some((index, values.collect::<Vec<_>>()))
            }
            AccessPath::Scan | AccessPath::Ordered { .. } => None,
        };
        assert_eq!(
            constants(path("b = 2 AND 1 = a AND c > 0")),
            Some((0, vec![Value::BigInt(1), Value::Int(2)]))
        );
        assert_eq!(constants(path("c = 7")), Some((1, vec![Value::Int(7)])));
        assert_eq!(path("a = 1"), AccessPath::Scan, "half a hash key");
        assert_eq!(path("a = 1 OR b = 2"), AccessPath::Scan);
        assert_eq!(path("c = NULL"), AccessPath::Scan);
        assert_eq!(path("a + 0 = 1 AND b = 2"), AccessPath::Scan);
    }
}
