//! The binder and planner on a catalog built in memory, with no
//! `SqlDatabase`, session or executor: name resolution, the types
//! expressions bind to, access paths, join methods and SHOWPLAN text.
//! The engine holds the tables' storage only (a `TableMeta` names its
//! engine table); nothing is read or written.

use super::access::AccessPath;
use super::test_catalog::MemoryCatalog;
use super::{JoinMethod, Node, Planner, QueryPlan};
use crate::bind::variables::Variables;
use crate::session_options::SetOptions;
use hekla_parser::ast::{self, StatementKind};
use hekla_types::SqlResult;

impl MemoryCatalog {
    /// Plans `query` as a statement of a batch without variables, under
    /// the default SET options.
    fn plan(&self, query: &str) -> SqlResult<QueryPlan> {
        let batch = hekla_parser::parse_batch(query).expect("the query parses");
        let StatementKind::Select(select) = &batch.statements[0].kind else {
            panic!("not a SELECT: {query}");
        };
        let variables = Variables::default();
        Planner::new(self, &variables, SetOptions::default()).statement(select)
    }

    fn error(&self, query: &str) -> (u32, String) {
        match self.plan(query) {
            Ok(plan) => panic!("planned {query}: {plan:?}"),
            Err(error) => (error.number, error.message),
        }
    }

    /// SHOWPLAN_TEXT's operator lines for `query`.
    fn showplan(&self, query: &str) -> Vec<String> {
        let plan = self.plan(query).expect("plans");
        super::explain::explain(self, &plan, &Variables::default())
    }
}

const SCHEMA: &str = "
CREATE TABLE dbo.customers (
    id int NOT NULL CONSTRAINT pk_customers PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = 64),
    name nvarchar(50) NOT NULL,
    city varchar(20) NULL
) WITH (MEMORY_OPTIMIZED = ON);
CREATE TABLE dbo.orders (
    id bigint NOT NULL CONSTRAINT pk_orders PRIMARY KEY NONCLUSTERED,
    customer_id int NOT NULL,
    placed int NOT NULL,
    amount decimal(10, 2) NULL,
    INDEX ix_placed NONCLUSTERED (placed)
) WITH (MEMORY_OPTIMIZED = ON);
CREATE TABLE dbo.lines (
    order_id bigint NOT NULL,
    line int NOT NULL,
    quantity int NOT NULL,
    CONSTRAINT pk_lines PRIMARY KEY NONCLUSTERED HASH (order_id, line) WITH (BUCKET_COUNT = 64)
) WITH (MEMORY_OPTIMIZED = ON);
CREATE VIEW dbo.big_orders AS
    SELECT id, customer_id, amount * 2 AS doubled FROM dbo.orders WHERE amount > 100;
CREATE VIEW dbo.broken AS SELECT id FROM dbo.gone;
CREATE VIEW dbo.outer_view AS SELECT id FROM dbo.broken;
CREATE VIEW dbo.on_temp AS SELECT id FROM #scratch;
";

fn catalog() -> MemoryCatalog {
    MemoryCatalog::new(SCHEMA)
}

/// The first table read under `node`, depth first.
fn first_read(node: &Node) -> &super::TableRead {
    match node {
        Node::Table(read) => read,
        Node::Filter { input, .. }
        | Node::Project { input, .. }
        | Node::Aggregate { input, .. }
        | Node::Sort { input, .. }
        | Node::Top { input, .. } => first_read(input),
        Node::Join(join) => first_read(&join.outer),
        Node::Derived { plan, .. } => first_read(&plan.root),
        other => panic!("no table read in {other:?}"),
    }
}

fn first_join(node: &Node) -> &super::Join {
    match node {
        Node::Join(join) => join,
        Node::Filter { input, .. } | Node::Project { input, .. } => first_join(input),
        other => panic!("no join in {other:?}"),
    }
}

#[test]
fn names_that_do_not_resolve_give_sql_servers_errors() {
    let catalog = catalog();
    assert_eq!(
        catalog.error("SELECT nope FROM dbo.customers"),
        (207, "Invalid column name 'nope'.".to_string())
    );
    assert_eq!(
        catalog.error("SELECT * FROM dbo.missing"),
        (208, "Invalid object name 'dbo.missing'.".to_string())
    );
    assert_eq!(
        catalog.error("SELECT x.id FROM dbo.customers AS c"),
        (
            4104,
            "The multi-part identifier \"x.id\" could not be bound.".to_string()
        )
    );
    assert_eq!(
        catalog.error(
            "SELECT id FROM dbo.customers AS c JOIN dbo.orders AS o ON o.customer_id = c.id"
        ),
        (209, "Ambiguous column name 'id'.".to_string())
    );
}

#[test]
fn a_view_that_no_longer_binds_names_itself_and_the_error_behind_it() {
    let catalog = catalog();
    let broken = "Could not use view or function 'dbo.broken' because of binding errors. (Msg 208: Invalid object name 'dbo.gone'.)";
    assert_eq!(
        catalog.error("SELECT id FROM dbo.broken"),
        (4413, broken.to_string())
    );
    // The innermost broken view is the one reported, through another.
    assert_eq!(
        catalog.error("SELECT id FROM dbo.outer_view"),
        (4413, broken.to_string())
    );
}

#[test]
fn a_view_may_not_read_a_temporary_table() {
    assert_eq!(
        catalog().error("SELECT id FROM dbo.on_temp"),
        (
            4413,
            "Could not use view or function 'dbo.on_temp' because of binding errors. (Msg 4508: Views or functions are not allowed on temporary tables. Table names that begin with '#' denote temporary tables.)".to_string()
        )
    );
}

#[test]
fn a_hint_on_a_view_reaches_the_tables_it_reads_and_no_others() {
    let catalog = catalog();
    let plan = catalog
        .plan(
            "SELECT b.id FROM dbo.big_orders AS b WITH (SNAPSHOT)
             JOIN dbo.customers AS c ON c.id = b.customer_id",
        )
        .expect("plans");
    let join = first_join(&plan.root);
    assert_eq!(first_read(&join.outer).table.name, "orders");
    assert_eq!(
        first_read(&join.outer).hint,
        Some(ast::IsolationLevel::Snapshot)
    );
    assert_eq!(first_read(&join.inner).table.name, "customers");
    assert_eq!(first_read(&join.inner).hint, None);
}

#[test]
fn columns_and_expressions_bind_to_sql_servers_types() {
    let plan = catalog()
        .plan(
            "SELECT c.id, c.name, c.city, c.id + 1 AS next, o.amount * o.amount AS squared,
                    o.placed / 2.0 AS half, c.name + N'!' AS shout, b.doubled, COUNT(*) OVER () AS n
             FROM dbo.customers AS c
             JOIN dbo.big_orders AS b ON b.customer_id = c.id
             JOIN dbo.orders AS o ON o.id = b.id",
        )
        .expect("plans");
    let columns: Vec<(&str, String)> = plan
        .columns
        .iter()
        .map(|column| (column.name.as_str(), column.data_type.sql_name()))
        .collect();
    // An integer constant in decimal arithmetic is a decimal of its own
    // digits (2 is decimal(1,0)); a column of int is decimal(10,0).
    let expected = [
        ("id", "int"),
        ("name", "nvarchar(50)"),
        ("city", "varchar(20)"),
        ("next", "int"),
        ("squared", "decimal(21,4)"),
        ("half", "decimal(17,6)"),
        ("shout", "nvarchar(51)"),
        ("doubled", "decimal(12,2)"),
        ("n", "int"),
    ];
    let expected: Vec<(&str, String)> = expected
        .into_iter()
        .map(|(name, data_type)| (name, data_type.to_string()))
        .collect();
    assert_eq!(columns, expected);
}

#[test]
fn equality_on_a_whole_index_key_seeks_a_range_index_bound_reads_a_stretch_and_anything_else_scans()
{
    let catalog = catalog();
    let path = |query: &str| {
        first_read(&catalog.plan(query).expect("plans").root)
            .path
            .clone()
    };
    let seek_index = |query: &str| match path(query) {
        AccessPath::Seek { index, key } => Some((index, key.len())),
        AccessPath::Scan | AccessPath::Ordered { .. } | AccessPath::Range { .. } => None,
    };
    // The hash primary key, and the range index on placed.
    assert_eq!(
        seek_index("SELECT name FROM dbo.customers WHERE id = 7"),
        Some((0, 1))
    );
    assert_eq!(
        seek_index("SELECT id FROM dbo.orders WHERE placed = 3 AND amount > 0"),
        Some((1, 1))
    );
    // Both columns of a two-column hash key, in either order.
    assert_eq!(
        seek_index("SELECT quantity FROM dbo.lines WHERE line = 2 AND order_id = 10"),
        Some((0, 2))
    );
    // Half a hash key, a range over a hash key, an OR, a bound on a
    // converted column: every row is read.
    for query in [
        "SELECT quantity FROM dbo.lines WHERE order_id = 10",
        "SELECT name FROM dbo.customers WHERE id > 7",
        "SELECT id FROM dbo.orders WHERE placed > 3 OR placed < 1",
        "SELECT id FROM dbo.orders WHERE placed + 1 > 3",
        "SELECT name FROM dbo.customers WHERE id = 1 OR id = 2",
    ] {
        assert_eq!(path(query), AccessPath::Scan, "{query}");
    }
    // Bounds on the range index's column, either side of the comparison.
    let bounds = |query: &str| match path(query) {
        AccessPath::Range {
            index: 1,
            lower,
            upper,
        } => (
            lower.map(|bound| bound.inclusive),
            upper.map(|bound| bound.inclusive),
        ),
        other => panic!("{query}: {other:?}"),
    };
    assert_eq!(
        bounds("SELECT id FROM dbo.orders WHERE placed > 3"),
        (Some(false), None)
    );
    assert_eq!(
        bounds("SELECT id FROM dbo.orders WHERE 3 >= placed"),
        (None, Some(true))
    );
    assert_eq!(
        bounds("SELECT id FROM dbo.orders WHERE placed BETWEEN 2 AND 5 AND amount > 0"),
        (Some(true), Some(true))
    );
    // Grouping on a range index's key reads the index in order.
    assert_eq!(
        path("SELECT placed, COUNT(*) AS n FROM dbo.orders GROUP BY placed"),
        AccessPath::Ordered { index: 1 }
    );
}

#[test]
fn joins_seek_an_index_on_the_inner_side_or_hash() {
    let catalog = catalog();
    let method = |query: &str| {
        let plan = catalog.plan(query).expect("plans");
        match &first_join(&plan.root).method {
            JoinMethod::Rescan => "rescan",
            JoinMethod::Spool => "spool",
            JoinMethod::Hash { .. } => "hash",
        }
    };
    // customers.id is a hash key: each order seeks its customer.
    assert_eq!(
        method("SELECT o.id FROM dbo.orders AS o JOIN dbo.customers AS c ON c.id = o.customer_id"),
        "rescan"
    );
    // No index on orders.customer_id: a hash join.
    assert_eq!(
        method(
            "SELECT c.name FROM dbo.customers AS c JOIN dbo.orders AS o ON o.customer_id = c.id"
        ),
        "hash"
    );
    // No equality to hash on: the inner side is read once and looped over.
    assert_eq!(
        method("SELECT c.name FROM dbo.customers AS c JOIN dbo.orders AS o ON o.placed > c.id"),
        "spool"
    );
}

#[test]
fn showplan_text_comes_from_the_plan_alone() {
    let catalog = catalog();
    assert_eq!(
        catalog.showplan("SELECT name FROM dbo.customers WHERE id = 7"),
        ["  |--Hash Index Seek(OBJECT:([dbo].[customers].[pk_customers]), SEEK:([customers].[id]=(7)), WHERE:([customers].[id]=(7)))"]
    );
    assert_eq!(
        catalog.showplan(
            "SELECT o.id FROM dbo.orders AS o JOIN dbo.customers AS c ON c.id = o.customer_id"
        ),
        [
            "  |--Nested Loops(Inner Join)",
            "       |--Table Scan(OBJECT:([dbo].[orders] AS [o]))",
            "       |--Hash Index Seek(OBJECT:([dbo].[customers].[pk_customers] AS [c]), SEEK:([c].[id]=([o].[customer_id])))",
        ]
    );
    assert_eq!(
        catalog.showplan("SELECT placed, COUNT(*) AS n FROM dbo.orders GROUP BY placed"),
        [
            "  |--Stream Aggregate(GROUP BY:([orders].[placed]) DEFINE:(COUNT(*)))",
            "       |--Index Scan(OBJECT:([dbo].[orders].[ix_placed]) ORDERED FORWARD)",
        ]
    );
    assert_eq!(
        catalog.showplan("SELECT TOP (2) id FROM dbo.orders ORDER BY placed"),
        [
            "  |--Sort(TOP 2, ORDER BY:([orders].[placed] ASC))",
            "       |--Table Scan(OBJECT:([dbo].[orders]))",
        ]
    );
}
