//! Row order: which columns an operator's rows come ordered on, so that
//! a GROUP BY over rows already grouped runs as a stream aggregate and an
//! ORDER BY the rows already follow needs no Sort.
//!
//! Order starts at a range index read in key order ([`AccessPath::Ordered`],
//! chosen by [`read_grouped`]) or at a Sort, and survives the operators
//! that pass rows on in the order they get them. The order of a range
//! index is that of its key encoding, the same encoding (and so the same
//! collation) that a Sort's comparisons and the hash aggregate's grouping
//! follow: 'a' and 'A' are neighbours under a case-insensitive collation.

use super::access::AccessPath;
use super::{AggregateMethod, JoinKind, Node, SortKey, TableRead};
use crate::bind::expr::{Scalar, ScalarKind};
use hekla_engine::IndexKind;
use hekla_types::SortOrder;

/// One column the rows are ordered on, after the ones before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OrderedColumn {
    pub column: usize,
    pub descending: bool,
}

/// The columns `node`'s rows are ordered on, most significant first
/// (empty when nothing is known).
pub fn ordering(node: &Node) -> Vec<OrderedColumn> {
    match node {
        Node::Table(read) => match read.path {
            AccessPath::Ordered { index } | AccessPath::Range { index, .. } => {
                index_order(read, index)
            }
            AccessPath::Scan | AccessPath::Seek { .. } => Vec::new(),
        },
        Node::Sort { keys, .. } => keys
            .iter()
            .map_while(|key| {
                column_of(&key.expr).map(|column| OrderedColumn {
                    column,
                    descending: key.descending,
                })
            })
            .collect(),
        Node::Filter { input, .. } | Node::Top { input, .. } | Node::Distinct { input, .. } => {
            ordering(input)
        }
        // Reached only as the first FROM item, whose columns start at 0.
        Node::Derived { plan, .. } => ordering(&plan.root),
        Node::Project { input, exprs } => renumbered(ordering(input), exprs.iter()),
        Node::Aggregate {
            input,
            grouping,
            method: AggregateMethod::Stream,
        } => renumbered(ordering(input), grouping.keys.iter().map(|(_, key)| key)),
        // Each outer row's matches go out before the next outer row's.
        Node::Join(join) if matches!(join.kind, JoinKind::Inner | JoinKind::Left) => {
            ordering(&join.outer)
        }
        _ => Vec::new(),
    }
}

/// True if `node`'s rows already come in the order of `keys`.
pub fn satisfies(node: &Node, keys: &[SortKey]) -> bool {
    let order = ordering(node);
    keys.len() <= order.len()
        && keys.iter().zip(&order).all(|(key, ordered)| {
            column_of(&key.expr) == Some(ordered.column) && key.descending == ordered.descending
        })
}

/// True if `node`'s rows come with equal values of `columns` together:
/// they are ordered on those columns (in any order) before any other.
pub fn grouped_on(node: &Node, columns: &[usize]) -> bool {
    leads_with(&ordering(node), columns)
}

/// Makes `node` read its rows grouped on `columns` if a range index on
/// the first table it reads leads with them, replacing a full scan of the
/// table by a scan of the index; true if it did.
pub fn read_grouped(node: &mut Node, columns: &[usize]) -> bool {
    match node {
        Node::Table(read) if read.path == AccessPath::Scan => {
            let index = (0..read.table.indexes.len()).find(|&index| {
                read.table.indexes[index].kind == IndexKind::Range
                    && leads_with(&index_order(read, index), columns)
            });
            if let Some(index) = index {
                read.path = AccessPath::Ordered { index };
            }
            index.is_some()
        }
        Node::Filter { input, .. } => read_grouped(input, columns),
        Node::Join(join) if matches!(join.kind, JoinKind::Inner | JoinKind::Left) => {
            read_grouped(&mut join.outer, columns)
        }
        _ => false,
    }
}

/// The order of range index `index` of the table `read` reads, in the
/// clause's row.
fn index_order(read: &TableRead, index: usize) -> Vec<OrderedColumn> {
    read.table.indexes[index]
        .columns
        .iter()
        .map(|&(column, order)| OrderedColumn {
            column: read.offset + column,
            descending: order == SortOrder::Descending,
        })
        .collect()
}

/// True if the first `columns.len()` columns of `order` are `columns`.
fn leads_with(order: &[OrderedColumn], columns: &[usize]) -> bool {
    !columns.is_empty()
        && columns.len() <= order.len()
        && order[..columns.len()]
            .iter()
            .all(|ordered| columns.contains(&ordered.column))
}

/// An order renumbered into an operator's output, whose column `i` is
/// `outputs[i]`: kept up to the first column no output reads as is.
fn renumbered<'s>(
    order: Vec<OrderedColumn>,
    outputs: impl Iterator<Item = &'s Scalar> + Clone,
) -> Vec<OrderedColumn> {
    order
        .into_iter()
        .map_while(|ordered| {
            let position = outputs
                .clone()
                .position(|output| column_of(output) == Some(ordered.column))?;
            Some(OrderedColumn {
                column: position,
                ..ordered
            })
        })
        .collect()
}

/// The column `scalar` reads as is, if it is one.
pub fn column_of(scalar: &Scalar) -> Option<usize> {
    match scalar.kind {
        ScalarKind::Column(column) => Some(column),
        _ => None,
    }
}
