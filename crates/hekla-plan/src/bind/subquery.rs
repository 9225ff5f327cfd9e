//! Subqueries inside expressions: `(SELECT ...)` as a value, `EXISTS`,
//! `IN (SELECT ...)` and `op ANY|SOME|ALL (SELECT ...)`. Each is planned
//! as a query whose binder sees the enclosing query's columns as outer
//! references; whether it reads any decides if it runs once per
//! statement or once per outer row.

use super::expr::{implicit, Binder, CompareOp, Leaf, Predicate, Scalar, ScalarKind};
use crate::plan::QueryPlan;
use hekla_parser::ast;
use hekla_types::{ops, SqlError, SqlResult};
use std::sync::Arc;

/// A planned subquery.
#[derive(Debug)]
pub struct Subquery {
    pub plan: QueryPlan,
    /// Columns of enclosing queries it reads, as `(depth, index)` seen
    /// from the subquery itself: depth 1 is the query it sits in.
    pub outer: Vec<(usize, usize)>,
}

impl Subquery {
    /// True if it must run again for every row of the enclosing query.
    pub fn is_correlated(&self) -> bool {
        !self.outer.is_empty()
    }
}

/// A shared subquery; equal only to itself (plans are compared by
/// identity, never by structure).
#[derive(Clone, Debug)]
pub struct SubqueryRef(pub Arc<Subquery>);

impl PartialEq for SubqueryRef {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl SubqueryRef {
    /// An identity for caching the results of an uncorrelated subquery.
    pub fn key(&self) -> usize {
        Arc::as_ptr(&self.0) as usize
    }

    /// What the subquery reads from the query it sits in, in that query's
    /// terms: depth 1 becomes a column of the current row.
    pub fn leaves(&self, visit: &mut dyn FnMut(Leaf)) {
        visit(Leaf::Subquery);
        for &(depth, index) in &self.0.outer {
            visit(match depth {
                1 => Leaf::Column(index),
                _ => Leaf::Outer {
                    depth: depth - 1,
                    index,
                },
            });
        }
    }
}

impl<'a> Binder<'a> {
    /// Plans `query` as a subquery of this binder's query.
    fn subquery(&self, query: &ast::Query) -> SqlResult<SubqueryRef> {
        let Some(planner) = self.planner else {
            return Err(SqlError::new(
                1046,
                15,
                1,
                "Subqueries are not allowed in this context. Only scalar expressions are allowed.",
            ));
        };
        let plan = planner.subquery(query, self)?;
        let outer = crate::plan::outer_references(&plan.root);
        Ok(SubqueryRef(Arc::new(Subquery { plan, outer })))
    }

    /// `(SELECT x ...)` as a value.
    pub(super) fn scalar_subquery(&self, query: &ast::Query) -> SqlResult<Scalar> {
        let subquery = self.subquery(query)?;
        let columns = &subquery.0.plan.columns;
        if columns.len() != 1 {
            return Err(one_column());
        }
        let data_type = columns[0].data_type;
        Ok(Scalar {
            kind: ScalarKind::Subquery(subquery),
            data_type,
        })
    }

    pub(super) fn exists(&self, query: &ast::Query) -> SqlResult<Predicate> {
        Ok(Predicate::Exists(self.subquery(query)?))
    }

    /// `operand op ANY|ALL (query)`.
    pub(super) fn quantified(
        &self,
        operand: &ast::Expr,
        op: CompareOp,
        all: bool,
        query: &ast::Query,
    ) -> SqlResult<Predicate> {
        let operand = self.scalar(operand)?;
        let subquery = self.subquery(query)?;
        let columns = &subquery.0.plan.columns;
        if columns.len() != 1 {
            return Err(one_column());
        }
        let common = ops::common_type(&operand.data_type, &columns[0].data_type)?;
        let collation = common.collation().unwrap_or(self.collation);
        Ok(Predicate::Quantified {
            operand: implicit(operand, &common)?,
            op,
            all,
            subquery,
            common,
            collation,
        })
    }
}

/// Msg 116: a subquery used as a value has one column.
fn one_column() -> SqlError {
    SqlError::new(
        116,
        16,
        1,
        "Only one expression can be specified in the select list when the subquery is not introduced with EXISTS.",
    )
}
