//! Access paths: how a plan reaches the rows of a table its WHERE clause
//! can accept. When the WHERE clause fixes every key column of an index
//! with `column = constant`, the rows come from that index (a hash bucket
//! or a B+tree position); when it bounds the leading key column of a
//! range index (`>`, `>=`, `<`, `<=`, `=`, BETWEEN), from that stretch of
//! the index, in key order; otherwise from a full scan, of the table or,
//! when the rows are wanted in order ([`super::order`]), of a range index.
//! Either way the whole filter is applied to each row, so the path only
//! decides speed and order. The executor reads along a path
//! (`exec::access`).

use crate::bind::expr::{CompareOp, Predicate, Reads, Scalar, ScalarKind};
use crate::catalog::table::TableMeta;
use hekla_engine::IndexKind;
use hekla_types::SortOrder;

/// How the rows are found.
#[derive(Clone, Debug, PartialEq)]
pub enum AccessPath {
    Scan,
    /// Rows whose key in `index` equals `key`, computed from constants,
    /// variables and (in a join) the columns of the tables before.
    Seek {
        index: usize,
        key: Vec<Scalar>,
    },
    /// Every row, in the key order of range index `index`.
    Ordered {
        index: usize,
    },
    /// The rows of range index `index` whose leading key column lies
    /// between the bounds (either may be open), in key order.
    Range {
        index: usize,
        lower: Option<Box<RangeBound>>,
        upper: Option<Box<RangeBound>>,
    },
}

/// One end of a [`AccessPath::Range`]: the leading key column's bound,
/// computed as a seek key is.
#[derive(Clone, Debug, PartialEq)]
pub struct RangeBound {
    pub value: Scalar,
    pub inclusive: bool,
}

impl AccessPath {
    /// The cheapest path `filter` allows on `table`, whose columns start at
    /// `offset` in the row `filter` reads: the first index all of whose key
    /// columns are fixed by an equality with something known before
    /// `table` is read.
    pub fn choose(table: &TableMeta, offset: usize, filter: Option<&Predicate>) -> AccessPath {
        let Some(filter) = filter else {
            return AccessPath::Scan;
        };
        let columns = offset..offset + table.columns.len();
        let mut bounds = Vec::new();
        comparisons(filter, &columns, &mut bounds);
        for (position, index) in table.indexes.iter().enumerate() {
            let key: Option<Vec<Scalar>> = index
                .columns
                .iter()
                .map(|&(column, _)| {
                    bounds
                        .iter()
                        .find(|(c, op, _)| *c == offset + column && *op == CompareOp::Eq)
                        .map(|(_, _, value)| value.clone())
                })
                .collect();
            if let Some(key) = key {
                return AccessPath::Seek {
                    index: position,
                    key,
                };
            }
        }
        table
            .indexes
            .iter()
            .enumerate()
            .find_map(|(position, index)| {
                let &(leading, order) = index.columns.first()?;
                // Bounds are in the column's order; a descending column's
                // key order runs the other way.
                if index.kind != IndexKind::Range || order != SortOrder::Ascending {
                    return None;
                }
                let on_leading = |wanted: fn(CompareOp) -> bool| {
                    bounds
                        .iter()
                        .find(|(column, op, _)| *column == offset + leading && wanted(*op))
                        .map(|(_, op, value)| {
                            Box::new(RangeBound {
                                value: value.clone(),
                                inclusive: matches!(
                                    op,
                                    CompareOp::Ge | CompareOp::Le | CompareOp::Eq
                                ),
                            })
                        })
                };
                let lower =
                    on_leading(|op| matches!(op, CompareOp::Gt | CompareOp::Ge | CompareOp::Eq));
                let upper =
                    on_leading(|op| matches!(op, CompareOp::Lt | CompareOp::Le | CompareOp::Eq));
                (lower.is_some() || upper.is_some()).then_some(AccessPath::Range {
                    index: position,
                    lower,
                    upper,
                })
            })
            .unwrap_or(AccessPath::Scan)
    }
    /// True if every row this path returns satisfies `condition` because
    /// it is one of the equalities the seek key was made from (so a join
    /// need not test it again). `offset` is where `table`'s columns start.
    pub fn covers(&self, condition: &Predicate, table: &TableMeta, offset: usize) -> bool {
        let AccessPath::Seek { index, key } = self else {
            return false;
        };
        let Predicate::Compare {
            op: CompareOp::Eq,
            left,
            right,
            ..
        } = condition
        else {
            return false;
        };
        let key_columns = table.indexes[*index].columns.iter();
        key_columns.zip(key).any(|(&(column, _), value)| {
            let is_column =
                |s: &Scalar| matches!(s.kind, ScalarKind::Column(c) if c == offset + column);
            (is_column(left) && right == value) || (is_column(right) && left == value)
        })
    }
}

/// `column op value` conjuncts of an AND tree, with the column put on the
/// left (`5 < c` is `c > 5`), where the column belongs to the table being
/// read (`columns`) and the value is known before it: constants,
/// variables, columns of earlier tables. Both sides have the column's own
/// type (a converted column cannot use its index).
fn comparisons(
    predicate: &Predicate,
    columns: &std::ops::Range<usize>,
    out: &mut Vec<(usize, CompareOp, Scalar)>,
) {
    match predicate {
        Predicate::And(left, right) => {
            comparisons(left, columns, out);
            comparisons(right, columns, out);
        }
        Predicate::Compare {
            op, left, right, ..
        } if *op != CompareOp::Ne => {
            if let Some((column, value)) = column_value(left, right, columns) {
                out.push((column, *op, value));
            } else if let Some((column, value)) = column_value(right, left, columns) {
                out.push((column, op.mirrored(), value));
            }
        }
        _ => {}
    }
}

fn column_value(
    column: &Scalar,
    value: &Scalar,
    columns: &std::ops::Range<usize>,
) -> Option<(usize, Scalar)> {
    let ScalarKind::Column(index) = column.kind else {
        return None;
    };
    let known_before = value.columns().iter().all(|&c| c < columns.start) && !value.has_subquery();
    let null = matches!(&value.kind, ScalarKind::Constant(v) if v.is_null());
    (columns.contains(&index) && known_before && !null).then(|| (index, value.clone()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bind::expr::{Binder, Scope};
    use crate::plan::context::PlanContext;
    use crate::plan::test_catalog::MemoryCatalog;
    use hekla_types::Value;

    fn path(where_clause: &str) -> AccessPath {
        let db = MemoryCatalog::new(
            "CREATE TABLE t (a bigint NOT NULL, b int NOT NULL, c int NULL,
                 PRIMARY KEY NONCLUSTERED HASH (a, b) WITH (BUCKET_COUNT = 64),
                 INDEX ix_c NONCLUSTERED (c))",
        );
        let catalog = db.catalog();
        let table = catalog.tables().next().unwrap().clone();
        let variables = crate::bind::variables::Variables::default();
        let binder = Binder {
            scope: Scope {
                columns: crate::plan::from::table_scope(&db, &table, "t"),
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
            AccessPath::Scan | AccessPath::Ordered { .. } | AccessPath::Range { .. } => None,
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
