//! Parser unit tests: shapes of trees and error positions. The corpus
//! under `tests/corpus` covers the language broadly.

use super::*;

fn parse_one(text: &str) -> StatementKind {
    let batch = parse_batch(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(batch.statements.len(), 1, "{text}");
    batch.statements.into_iter().next().unwrap().kind
}

fn error(text: &str) -> SyntaxError {
    parse_batch(text).expect_err(text)
}

#[test]
fn statements_without_semicolons() {
    let batch = parse_batch("select 1 select 2; select 3").unwrap();
    assert_eq!(batch.statements.len(), 3);
}

fn select_expr(text: &str) -> Expr {
    let StatementKind::Select(select) = parse_one(&format!("SELECT {text}")) else {
        panic!("not a select");
    };
    let QueryBody::Select(body) = select.query.body else {
        panic!("not a plain select");
    };
    match body.items.into_iter().next() {
        Some(SelectItem::Expr { expr, .. }) => expr,
        other => panic!("unexpected item {other:?}"),
    }
}

fn binary(expr: &Expr) -> (BinaryOp, &Expr, &Expr) {
    match &expr.kind {
        ExprKind::Binary { op, left, right } => (*op, left, right),
        other => panic!("not binary: {other:?}"),
    }
}

#[test]
fn precedence_and_associativity() {
    let expr = select_expr("1 + 2 * 3");
    let (op, _, right) = binary(&expr);
    assert_eq!(op, BinaryOp::Add);
    assert_eq!(binary(right).0, BinaryOp::Multiply);

    let expr = select_expr("10 - 4 - 3");
    let (op, left, _) = binary(&expr);
    assert_eq!(op, BinaryOp::Subtract);
    assert_eq!(
        binary(left).0,
        BinaryOp::Subtract,
        "subtraction groups left"
    );

    let StatementKind::Select(select) =
        parse_one("SELECT 1 WHERE NOT a = 1 AND b BETWEEN 1 AND 2 OR c IS NULL")
    else {
        panic!()
    };
    let QueryBody::Select(body) = select.query.body else {
        panic!()
    };
    let condition = body.where_clause.unwrap();
    let (or, left, right) = binary(&condition);
    assert_eq!(or, BinaryOp::Or);
    assert!(matches!(
        right.kind,
        ExprKind::IsNull { negated: false, .. }
    ));
    let (and, not, between) = binary(left);
    assert_eq!(and, BinaryOp::And);
    assert!(matches!(
        not.kind,
        ExprKind::Unary {
            op: UnaryOp::Not,
            ..
        }
    ));
    assert!(matches!(
        between.kind,
        ExprKind::Between { negated: false, .. }
    ));
}

#[test]
fn spans_point_at_the_source() {
    let text = "SELECT a,\n  b + 1 AS c\nFROM t";
    let StatementKind::Select(select) = parse_one(text) else {
        panic!()
    };
    let QueryBody::Select(body) = select.query.body else {
        panic!()
    };
    let SelectItem::Expr { expr, alias, .. } = &body.items[1] else {
        panic!()
    };
    assert_eq!(expr.span.text(text), "b + 1");
    assert_eq!(expr.span.line, 2);
    assert_eq!(alias.as_ref().unwrap().span.text(text), "c");
}

#[test]
fn aliases_and_assignments_are_told_apart() {
    let StatementKind::Select(select) = parse_one("SELECT x = a, a y, a AS [z w], @v = 1, @w += 2")
    else {
        panic!()
    };
    let QueryBody::Select(body) = select.query.body else {
        panic!()
    };
    let aliases: Vec<String> = body
        .items
        .iter()
        .filter_map(|item| match item {
            SelectItem::Expr { alias, .. } => alias.as_ref().map(|a| a.value.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(aliases, ["x", "y", "z w"]);
    assert!(matches!(
        body.items[4],
        SelectItem::Assign {
            op: AssignOp::Add,
            ..
        }
    ));
}

#[test]
fn seed_spellings() {
    // The sales-order sample writes a compound assignment with a space.
    assert!(matches!(
        parse_one("SET @i + = 1"),
        StatementKind::SetVariable {
            op: AssignOp::Add,
            ..
        }
    ));
    // A procedure call without EXEC is allowed first in a batch only.
    assert!(matches!(
        parse_one("sp_who 'active'"),
        StatementKind::Exec(_)
    ));
    assert_eq!(error("SELECT 1 sp_who 'active'").number, 102);
    // Reserved words are names after a dot.
    parse_one("SELECT c.precision, c.[scale] FROM sys.columns AS c");
}

#[test]
fn errors_name_the_token_and_line() {
    let e = error("SELECT *\nFROM t\nWHERE a = = 1");
    assert_eq!((e.number, e.line), (102, 3));
    assert_eq!(e.message, "Incorrect syntax near '='.");
    let e = error("SELECT * FROM WHERE a = 1");
    assert_eq!(e.number, 156);
    assert_eq!(e.message, "Incorrect syntax near the keyword 'WHERE'.");
    let e = error("SELECT * FROM");
    assert_eq!(e.message, "Incorrect syntax near the keyword 'FROM'.");
    let e = error("BEGIN\nSELECT 1\n");
    assert_eq!((e.number, e.line), (102, 2));
    assert_eq!(error("MERGE t USING s ON 1 = 1").number, 10794);
    assert_eq!(error("DBCC CHECKDB").number, 10794);
    assert_eq!(
        error("CREATE TABLE t (id bigint) ON ps (id)").message,
        "The statement 'ON partition_scheme (column)' is not supported by hekla."
    );
    assert_eq!(error("CREATE INDEX ix ON t (id) ON ps (id)").number, 10794);

    assert_eq!(
        error("CREATE TRIGGER tr ON t AFTER INSERT AS SELECT 1").number,
        10794
    );
    assert_eq!(error("CREATE FROB x").number, 102);
    assert_eq!(error("SELECT 1 AS ''").number, 1038);
    parse_one("SELECT db.s.t.* FROM db.s.t");
    assert_eq!(error("SELECT a.db.s.t.* FROM t").number, 102);
    let e = error("CREATE PROCEDURE dbo.p AS\nSELECT 1\nSELECT FROM t");
    assert_eq!((e.procedure.as_deref(), e.line), (Some("p"), 3));
    assert!(e
        .to_string()
        .starts_with("Msg 156, Level 15, State 1, Procedure p, Line 3\n"));
}

#[test]
fn group_by_items() {
    let StatementKind::Select(select) = parse_one(
        "SELECT 1 FROM t GROUP BY a, ROLLUP (a, (b, c)), CUBE (b), \
         GROUPING SETS ((a + 1) * 2, (a, b), (), (ROLLUP (c), a), ((b, c))), ()",
    ) else {
        panic!("not a select");
    };
    let QueryBody::Select(body) = &select.query.body else {
        panic!("not a plain select");
    };
    let shape: Vec<&str> = body
        .group_by
        .iter()
        .map(|item| match item {
            GroupByItem::Expr(_) => "expr",
            GroupByItem::Composite(_) => "list",
            GroupByItem::Rollup(_) => "rollup",
            GroupByItem::Cube(_) => "cube",
            GroupByItem::GroupingSets(_) => "sets",
        })
        .collect();
    assert_eq!(shape, ["expr", "rollup", "cube", "sets", "list"]);
    let GroupByItem::GroupingSets(sets) = &body.group_by[3] else {
        unreachable!()
    };
    // `(a + 1) * 2` is an expression, `(a, b)` a list, `((b, c))` a list
    // of one list.
    assert!(matches!(sets[0], GroupByItem::Expr(_)));
    assert!(matches!(&sets[1], GroupByItem::Composite(parts) if parts.len() == 2));
    assert!(matches!(&sets[2], GroupByItem::Composite(parts) if parts.is_empty()));
    assert!(matches!(&sets[4], GroupByItem::Composite(parts)
        if matches!(parts.as_slice(), [GroupByItem::Composite(_)])));
    assert_eq!(
        body.group_by
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", "),
        "a, ROLLUP (a, (b, c)), CUBE (b), \
         GROUPING SETS ((a + 1) * 2, (a, b), (), (ROLLUP (c), a), ((b, c))), ()"
    );
    // Lists stand alone only inside ROLLUP, CUBE and GROUPING SETS; the
    // grand total only at the top and in GROUPING SETS.
    assert_eq!(error("SELECT 1 GROUP BY (a, b)").number, 102);
    assert_eq!(error("SELECT 1 GROUP BY ROLLUP (())").number, 102);
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    for depth in [200, 100_000] {
        let text = format!("SELECT {}1{}", "(".repeat(depth), ")".repeat(depth));
        assert_eq!(error(&text).number, 191, "parentheses x{depth}");
        let text = format!("SELECT {}1", "- ".repeat(depth));
        assert_eq!(error(&text).number, 191, "unary x{depth}");
        let text = format!(
            "{}SELECT 1{}",
            "IF 1 = 1 BEGIN ".repeat(depth),
            " END".repeat(depth)
        );
        assert_eq!(error(&text).number, 191, "blocks x{depth}");
        let text = format!(
            "SELECT 1 WHERE 1 IN {}SELECT 1{}",
            "(".repeat(depth),
            ")".repeat(depth)
        );
        assert_eq!(error(&text).number, 191, "subqueries x{depth}");
    }
    // Nesting within the budget parses.
    let text = format!("SELECT {}1{}", "(".repeat(100), ")".repeat(100));
    parse_batch(&text).unwrap();
}

#[test]
fn long_operator_chains_are_bounded() {
    // The deepest chain the budget allows still prints and re-parses on a
    // test thread's 2 MiB stack.
    let terms = vec!["a = 1"; 900].join(" OR ");
    let tree = parse_batch(&format!("SELECT 1 WHERE {terms}")).unwrap();
    let printed = crate::print::to_sql(&tree);
    assert_eq!(
        crate::print::to_sql(&parse_batch(&printed).unwrap()),
        printed
    );
    let terms = vec!["1"; 5000].join(" + ");
    assert_eq!(error(&format!("SELECT {terms}")).number, 191);
    let list = vec!["1"; 50_000].join(", ");
    parse_batch(&format!("SELECT 1 WHERE a IN ({list})")).unwrap();
}

#[test]
fn pathological_inputs_end_in_errors() {
    // Each would take quadratic time, unbounded memory or the whole stack
    // in a careless parser; all must end promptly in an error.
    let cases = [
        (format!("SELECT {}", "(".repeat(200_000)), 191),
        (format!("SELECT {}", "a.".repeat(100_000)), 102),
        ("BEGIN ".repeat(100_000), 191),
        (
            format!("SELECT {}", "CASE WHEN 1 = 1 THEN ".repeat(50_000)),
            191,
        ),
        (format!("SELECT 1 WHERE a IN {}", "(".repeat(200_000)), 191),
        ("SELECT 1 UNION ".repeat(50_000), 191),
        (format!("SELECT * FROM {}", "a JOIN ".repeat(50_000)), 191),
        (format!("SELECT {}*", "a.".repeat(100_000)), 102),
        ("/*".repeat(100_000), 113),
        (
            format!("SELECT 1 GROUP BY GROUPING SETS {}", "(".repeat(200_000)),
            191,
        ),
    ];
    for (text, number) in cases {
        assert_eq!(error(&text).number, number, "{}...", &text[..40]);
    }
}

#[test]
fn a_names_length_counts_an_escaped_bracket_once() {
    // 128 characters, 64 of them `]`: written as 192 between brackets.
    let name = "a]".repeat(64);
    let written = format!("[{}]", name.replace(']', "]]"));
    parse_one(&format!("SELECT 1 AS {written}"));
    // A string alias of that name prints as that bracketed name, which
    // must parse again (the parse fuzz target's round trip).
    let printed = crate::print::to_sql(&parse_batch(&format!("SELECT 1 '{name}'")).unwrap());
    parse_batch(&printed).unwrap_or_else(|e| panic!("{printed}: {e}"));
    let longer = format!("[x{}]", name.replace(']', "]]"));
    assert_eq!(error(&format!("SELECT 1 AS {longer}")).number, 103);
}
