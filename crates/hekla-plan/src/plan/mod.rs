//! Query plans: a bound query as a tree of operators ([`Node`]) that the
//! executor (`exec::run`) pushes rows through, and that SHOWPLAN prints.
//!
//! - [`query`] plans a query: FROM, WHERE, grouping, windows, the select
//!   list, DISTINCT, ORDER BY, TOP/OFFSET, set operators and CTEs;
//! - [`from`] plans the FROM clause: where each WHERE/ON condition is
//!   tested, and how each join runs (index nested loops, hash, spool);
//! - [`window`] binds window functions;
//! - [`order`] knows which operators' rows come ordered, for stream
//!   aggregation and for leaving out a Sort;
//! - [`change`] plans INSERT, UPDATE and DELETE;
//! - [`explain`] prints a plan the way `SET SHOWPLAN_TEXT ON` does;
//! - [`context`] is what planning asks of the database it plans for
//!   ([`context::PlanContext`]): the planner depends on that trait, never
//!   on `SqlDatabase`, the executor or the interpreter.
//!
//! Rows inside a FROM clause are laid out as the whole clause's row: an
//! operator handed the columns to its left (`params.row` at run time)
//! emits them followed by its own. Expressions bound against the clause's
//! scope therefore read the same positions wherever they run.

pub mod access;
pub mod change;
pub mod context;
pub mod explain;
pub mod from;
pub mod inline_function;
pub mod order;
pub mod query;
pub mod query_hints;
pub mod system;
pub mod table_hints;
pub mod view;
pub mod view_change;
pub mod window;

#[cfg(test)]
mod test_catalog;
#[cfg(test)]
mod tests;

use crate::bind::aggregate::Grouping;
use crate::bind::expr::{Binder, Leaf, Predicate, Reads, Scalar};
use crate::catalog::table::TableMeta;
use crate::result::ResultColumn;
use access::AccessPath;
use hekla_types::{ops, DataType};
use std::cmp::Ordering;
use std::sync::Arc;
use system::SystemRelation;
use window::WindowCall;

pub use query::Planner;

/// A planned query: its result columns and the operators that make them.
#[derive(Debug)]
pub struct QueryPlan {
    pub columns: Vec<ResultColumn>,
    pub root: Node,
}

#[derive(Debug)]
pub enum Node {
    /// One row of no columns: a SELECT without FROM.
    Single,
    /// A VALUES list's rows, evaluated when read.
    Values {
        rows: Vec<Vec<Scalar>>,
    },
    /// A system view's rows, computed when read.
    View {
        view: SystemRelation,
    },
    /// A system table-valued function's rows for its `arguments`
    /// (evaluated for the row to its left), computed when read.
    SystemFunction {
        function: SystemRelation,
        arguments: Vec<Scalar>,
    },
    Table(TableRead),
    /// A derived table, CTE or APPLY's right side: a query of its own.
    /// With `correlated`, it reads the row to its left as outer row.
    Derived {
        plan: Box<QueryPlan>,
        correlated: bool,
    },
    /// An inline table-valued function's query, run with its `arguments`
    /// (evaluated for the row to its left) as the row one query out,
    /// which its parameters read.
    Function {
        arguments: Vec<Scalar>,
        plan: Box<QueryPlan>,
    },
    Filter {
        input: Box<Node>,
        predicate: Predicate,
    },
    Project {
        input: Box<Node>,
        exprs: Vec<Scalar>,
    },
    Join(Box<Join>),
    /// Grouping: emits GROUP BY keys, then aggregate results (see
    /// `Grouping` for the row).
    Aggregate {
        input: Box<Node>,
        grouping: Grouping,
        method: AggregateMethod,
    },
    /// Appends one column per window function.
    Window {
        input: Box<Node>,
        calls: Vec<WindowCall>,
    },
    Sort {
        input: Box<Node>,
        keys: Vec<SortKey>,
        /// A Top N Sort: only the first rows matter, so only they are kept.
        top: Option<TopN>,
    },
    /// OFFSET `skip` rows, then at most `limit`; with `ties` (TOP ... WITH
    /// TIES), also the rows after the last one that equal it on these keys.
    Top {
        input: Box<Node>,
        skip: u64,
        limit: Option<Limit>,
        ties: Vec<SortKey>,
    },
    /// Drops repeated rows (compared on the first `width` columns).
    Distinct {
        input: Box<Node>,
        types: Vec<DataType>,
    },
    /// A recursive CTE: `anchor`'s rows, then `step` run again and again
    /// on the rows the previous run made (read by [`Node::Working`] with
    /// the same `id`) until it makes none.
    Recursive {
        anchor: Box<Node>,
        step: Box<Node>,
        id: usize,
        /// Steps allowed (0: no limit), Msg 530 past it.
        max_recursion: u32,
    },
    /// The rows the previous step of recursive CTE `id` made.
    Working {
        id: usize,
    },
    SetOp {
        op: SetOperation,
        left: Box<Node>,
        right: Box<Node>,
        types: Vec<DataType>,
    },
}

/// Rows of a user table.
#[derive(Debug)]
pub struct TableRead {
    pub table: Arc<TableMeta>,
    /// The alias the query knows the table by.
    pub shown: String,
    pub path: AccessPath,
    /// Tested on each row read (its columns are at `offset`).
    pub filter: Option<Predicate>,
    pub offset: usize,
    /// Columns any expression reads; the others are not decoded (NULL).
    pub needed: Vec<bool>,
    /// Rows go downstream while the table is read; otherwise they are read
    /// into memory first because a downstream operator needs the
    /// transaction (see [`plan_streaming`]).
    pub stream: bool,
    /// The table an UPDATE or DELETE changes: each row ends with one more
    /// column, the row's id as registered with the statement's context
    /// (`Context::register_row`).
    pub row_ids: bool,
    /// The isolation level a table hint asks for (`WITH (SNAPSHOT)`).
    pub hint: Option<hekla_parser::ast::IsolationLevel>,
}

#[derive(Debug)]
pub struct Join {
    pub outer: Node,
    pub inner: Node,
    pub kind: JoinKind,
    /// Tested on each joined row; rows failing it do not match.
    pub on: Option<Predicate>,
    pub method: JoinMethod,
    /// Columns of the outer side (before the inner side's).
    pub outer_width: usize,
    pub inner_width: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JoinKind {
    Inner,
    Left,
    Right,
    Full,
}

#[derive(Debug)]
pub enum JoinMethod {
    /// The inner side runs once per outer row, given that row (an index
    /// seek on a join column, or APPLY).
    Rescan,
    /// The inner side runs once into memory; each outer row loops over it.
    Spool,
    /// The inner side runs once into a hash table on `inner_keys`; each
    /// outer row probes it with `outer_keys`.
    Hash {
        outer_keys: Vec<Scalar>,
        inner_keys: Vec<Scalar>,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AggregateMethod {
    /// Groups are kept in a hash table until the input ends.
    Hash,
    /// The input comes grouped (ordered on the keys, see [`order`]): each
    /// group is finished and emitted when a row of the next one arrives.
    Stream,
}

/// What a Top N Sort returns: the first `rows` rows in order and, with
/// `with_ties`, the rows equal on the sort keys to the last of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TopN {
    pub rows: u64,
    pub with_ties: bool,
}

/// How many rows TOP or FETCH lets through.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Limit {
    Rows(u64),
    /// `TOP (p) PERCENT`: p% of the input's rows, rounded up.
    Percent(f64),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetOperation {
    UnionAll,
    Union,
    Except,
    Intersect,
}

/// One ORDER BY key.
#[derive(Clone, Debug, PartialEq)]
pub struct SortKey {
    pub expr: Scalar,
    pub descending: bool,
}

impl SortKey {
    /// SQL Server's order: NULL first ascending, strings by collation.
    pub fn compare(&self, a: &hekla_types::Value, b: &hekla_types::Value) -> Ordering {
        let collation = self.expr.data_type.collation().unwrap_or_default();
        let ordering = match (a.is_null(), b.is_null()) {
            (true, true) => Ordering::Equal,
            (true, false) => Ordering::Less,
            (false, true) => Ordering::Greater,
            (false, false) => ops::compare(a, b, collation).unwrap_or(Ordering::Equal),
        };
        if self.descending {
            ordering.reverse()
        } else {
            ordering
        }
    }
}

impl Node {
    pub fn boxed(self) -> Box<Node> {
        Box::new(self)
    }

    /// The operator's children with how many queries deeper each runs
    /// (a correlated derived table runs one level in).
    pub fn children(&self) -> Vec<(&Node, usize)> {
        match self {
            Node::Single
            | Node::Values { .. }
            | Node::View { .. }
            | Node::SystemFunction { .. }
            | Node::Table(_)
            | Node::Working { .. } => vec![],
            Node::Recursive { anchor, step, .. } => vec![(anchor, 0), (step, 0)],
            Node::Derived { plan, correlated } => vec![(&plan.root, usize::from(*correlated))],
            // Its query reads no row beyond its parameters.
            Node::Function { plan, .. } => vec![(&plan.root, 1)],
            Node::Filter { input, .. }
            | Node::Project { input, .. }
            | Node::Aggregate { input, .. }
            | Node::Window { input, .. }
            | Node::Sort { input, .. }
            | Node::Top { input, .. }
            | Node::Distinct { input, .. } => vec![(input, 0)],
            Node::Join(join) => vec![(&join.outer, 0), (&join.inner, 0)],
            Node::SetOp { left, right, .. } => vec![(left, 0), (right, 0)],
        }
    }

    /// Visits the expressions this operator itself evaluates.
    fn expressions(&self, visit: &mut dyn FnMut(&dyn Reads)) {
        match self {
            Node::Values { rows } => rows.iter().flatten().for_each(|s| visit(s)),
            Node::Table(read) => {
                if let AccessPath::Seek { key, .. } = &read.path {
                    key.iter().for_each(|s| visit(s));
                }
                if let Some(filter) = &read.filter {
                    visit(filter);
                }
            }
            Node::Filter { predicate, .. } => visit(predicate),
            Node::Project { exprs, .. }
            | Node::Function {
                arguments: exprs, ..
            }
            | Node::SystemFunction {
                arguments: exprs, ..
            } => exprs.iter().for_each(|s| visit(s)),
            Node::Join(join) => {
                if let Some(on) = &join.on {
                    visit(on);
                }
                if let JoinMethod::Hash {
                    outer_keys,
                    inner_keys,
                } = &join.method
                {
                    outer_keys.iter().chain(inner_keys).for_each(|s| visit(s));
                }
            }
            Node::Aggregate { grouping, .. } => {
                grouping.keys.iter().for_each(|(_, key)| visit(key));
                for (_, call) in &grouping.aggregates {
                    if let Some(argument) = &call.argument {
                        visit(argument);
                    }
                }
            }
            Node::Window { calls, .. } => calls.iter().for_each(|call| call.expressions(visit)),
            Node::Sort { keys, .. } | Node::Top { ties: keys, .. } => {
                keys.iter().for_each(|key| visit(&key.expr))
            }
            Node::Single
            | Node::View { .. }
            | Node::Derived { .. }
            | Node::Distinct { .. }
            | Node::Recursive { .. }
            | Node::Working { .. }
            | Node::SetOp { .. } => {}
        }
    }

    /// True if running this operator or any below it reads a table
    /// (directly or through a subquery).
    fn reads_tables(&self) -> bool {
        if matches!(self, Node::Table(_)) {
            return true;
        }
        let mut subquery = false;
        self.expressions(&mut |expr| subquery |= expr.has_subquery());
        subquery
            || self
                .children()
                .iter()
                .any(|(child, _)| child.reads_tables())
    }

    fn has_subquery(&self) -> bool {
        let mut found = false;
        self.expressions(&mut |expr| found |= expr.has_subquery());
        found
    }
}

/// The columns of enclosing queries that `root` reads, as `(depth,
/// index)` seen from `root`'s own query (depth 1: the query it sits in).
pub fn outer_references(root: &Node) -> Vec<(usize, usize)> {
    let mut found = Vec::new();
    collect_outer(root, 0, &mut found);
    found.sort_unstable();
    found.dedup();
    found
}

fn collect_outer(node: &Node, level: usize, found: &mut Vec<(usize, usize)>) {
    node.expressions(&mut |expr| {
        expr.leaves(&mut |leaf| {
            if let Leaf::Outer { depth, index } = leaf {
                if depth > level {
                    found.push((depth - level, index));
                }
            }
        })
    });
    for (child, deeper) in node.children() {
        collect_outer(child, level + deeper, found);
    }
}

/// Decides which table reads may stream. A read that streams holds the
/// statement's transaction while its rows flow downstream, so it may only
/// stream when nothing downstream, up to the next operator that keeps
/// rows in memory, reads a table too. `busy` says whether the consumer of
/// `node`'s rows does.
pub fn plan_streaming(node: &mut Node, busy: bool) {
    let own = node.has_subquery();
    let busy_here = busy || own;
    match node {
        Node::Table(read) => read.stream = !busy_here,
        Node::Single
        | Node::Values { .. }
        | Node::View { .. }
        | Node::SystemFunction { .. }
        | Node::Working { .. } => {}
        // Each run of either side is read into memory.
        Node::Recursive { anchor, step, .. } => {
            plan_streaming(anchor, false);
            plan_streaming(step, false);
        }
        // A derived query's rows are its own pipeline's output.
        Node::Derived { plan, .. } | Node::Function { plan, .. } => {
            plan_streaming(&mut plan.root, busy_here)
        }
        Node::Filter { input, .. }
        | Node::Project { input, .. }
        | Node::Top { input, .. }
        | Node::Aggregate {
            input,
            method: AggregateMethod::Stream,
            ..
        } => plan_streaming(input, busy_here),
        // These keep their input in memory before emitting anything.
        Node::Aggregate { input, .. } | Node::Window { input, .. } | Node::Sort { input, .. } => {
            plan_streaming(input, own)
        }
        Node::Distinct { input, .. } => plan_streaming(input, busy_here),
        Node::Join(join) => {
            let inner_reads = join.inner.reads_tables();
            match join.method {
                // While an outer row is out, the inner side is read.
                JoinMethod::Rescan => {
                    plan_streaming(&mut join.outer, busy_here || inner_reads);
                    plan_streaming(&mut join.inner, busy_here);
                }
                // The inner side is read into memory first.
                JoinMethod::Spool | JoinMethod::Hash { .. } => {
                    plan_streaming(&mut join.outer, busy_here);
                    plan_streaming(&mut join.inner, false);
                }
            }
        }
        Node::SetOp {
            op, left, right, ..
        } => {
            // UNION ALL and UNION stream both sides; EXCEPT and INTERSECT
            // read the right side into memory first.
            let streams_right = matches!(op, SetOperation::UnionAll | SetOperation::Union);
            plan_streaming(left, busy_here);
            plan_streaming(right, busy_here && streams_right);
        }
    }
}

/// A binder for a value outside any query (subqueries allowed).
pub fn value_binder<'a>(planner: &'a Planner<'a>) -> Binder<'a> {
    Binder {
        planner: Some(planner),
        ..Binder::new(planner.variables)
    }
}
