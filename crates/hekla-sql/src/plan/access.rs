//! Access paths: how a plan reaches the rows of a table its WHERE clause
//! can accept. When the WHERE clause fixes every key column of an index
//! with `column = constant`, the rows come from that index (a hash bucket
//! or a B+tree position); otherwise from a full scan, of the table or,
//! when the rows are wanted in order ([`super::order`]), of a range index.
//! Either way the whole filter is applied to each row, so the path only
//! decides speed and order. The executor reads along a path
//! (`exec::access`).

use crate::bind::expr::{CompareOp, Predicate, Reads, Scalar, ScalarKind};
use crate::catalog::table::TableMeta;

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
        let mut fixed = Vec::new();
        equalities(filter, &columns, &mut fixed);
        for (position, index) in table.indexes.iter().enumerate() {
            let key: Option<Vec<Scalar>> = index
                .columns
                .iter()
                .map(|&(column, _)| {
                    fixed
                        .iter()
                        .find(|(c, _)| *c == offset + column)
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

/// `column = value` conjuncts of an AND tree where the column belongs to
/// the table being read (`columns`) and the value is known before it:
/// constants, variables, columns of earlier tables. Both sides have the
/// column's own type (a converted column cannot use its index).
fn equalities(
    predicate: &Predicate,
    columns: &std::ops::Range<usize>,
    out: &mut Vec<(usize, Scalar)>,
) {
    match predicate {
        Predicate::And(left, right) => {
            equalities(left, columns, out);
            equalities(right, columns, out);
        }
        Predicate::Compare {
            op: CompareOp::Eq,
            left,
            right,
            ..
        } => {
            let pair =
                column_value(left, right, columns).or_else(|| column_value(right, left, columns));
            out.extend(pair);
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
