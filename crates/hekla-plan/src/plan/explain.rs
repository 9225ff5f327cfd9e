//! Plans as `SET SHOWPLAN_TEXT ON` shows them: one operator per line,
//! children indented under their parent, expressions printed with the
//! names of the columns they read (`[t].[id]`).

use super::access::AccessPath;
use super::change::{DeletePlan, InsertPlan, InsertSource, Reading, RowSource, UpdatePlan};
use super::context::PlanContext;
use super::window::WindowFunction;
use super::{
    AggregateMethod, JoinKind, JoinMethod, Limit, Node, QueryPlan, SetOperation, TableRead,
};
use crate::bind::expr::{CompareOp, Predicate, Scalar, ScalarKind};
use crate::bind::variables::Variables;
use crate::catalog::table::TableMeta;
use hekla_engine::IndexKind;
use hekla_types::Value;

/// The plan's operators, one line each.
pub fn explain(db: &dyn PlanContext, plan: &QueryPlan, variables: &Variables) -> Vec<String> {
    let mut printer = Printer::new(db, variables);
    printer.node(&plan.root, 0, &[]);
    printer.lines
}

/// An INSERT's plan: the Table Insert operator on the changed table over
/// the rows it writes.
pub fn explain_insert(
    db: &dyn PlanContext,
    plan: &InsertPlan,
    variables: &Variables,
) -> Vec<String> {
    let mut printer = Printer::new(db, variables);
    printer.change("Insert", &plan.target.table);
    match &plan.source {
        InsertSource::Query { plan, .. } => {
            printer.node(&plan.root, 1, &[]);
        }
        InsertSource::Values(rows) => {
            printer.line(1, format!("Constant Scan(VALUES:({} rows))", rows.len()));
        }
        InsertSource::DefaultValues => {}
    }
    printer.lines
}

/// An UPDATE's plan: the Table Update operator over its TOP, the new
/// values computed (a Compute Scalar, when one is more than a column) and
/// the rows it finds.
pub fn explain_update(
    db: &dyn PlanContext,
    plan: &UpdatePlan,
    variables: &Variables,
) -> Vec<String> {
    let mut printer = Printer::new(db, variables);
    printer.change("Update", &plan.target.table);
    let depth = printer.top(&plan.rows, 1);
    let computed: Vec<&Scalar> = plan
        .assignments
        .iter()
        .map(|(_, value)| value)
        .filter(|value| !matches!(value.kind, ScalarKind::Column(_)))
        .collect();
    if computed.is_empty() {
        printer.rows(&plan.rows, depth);
        return printer.lines;
    }
    let at = printer.reserve(depth);
    let names = printer.rows(&plan.rows, depth + 1);
    let defined: Vec<String> = computed
        .iter()
        .enumerate()
        .map(|(i, value)| {
            let name = format!("[Expr{}]", 1001 + names.len() + i);
            format!("{name}={}", scalar(value, &names, &printer))
        })
        .collect();
    printer.fill(
        at,
        depth,
        format!("Compute Scalar(DEFINE:({}))", defined.join(", ")),
    );
    printer.lines
}

/// A DELETE's plan: the Table Delete operator over its TOP and the rows
/// it finds.
pub fn explain_delete(
    db: &dyn PlanContext,
    plan: &DeletePlan,
    variables: &Variables,
) -> Vec<String> {
    let mut printer = Printer::new(db, variables);
    printer.change("Delete", &plan.target.table);
    let depth = printer.top(&plan.rows, 1);
    printer.rows(&plan.rows, depth);
    printer.lines
}

struct Printer<'a> {
    db: &'a dyn PlanContext,
    variables: &'a Variables,
    lines: Vec<String>,
}

impl<'a> Printer<'a> {
    fn new(db: &'a dyn PlanContext, variables: &'a Variables) -> Printer<'a> {
        Printer {
            db,
            variables,
            lines: Vec::new(),
        }
    }
}

impl Printer<'_> {
    fn line(&mut self, depth: usize, text: String) {
        self.lines
            .push(format!("  {}|--{text}", " ".repeat(5 * depth)));
    }

    /// A system view or function, which SQL Server shows as a
    /// table-valued function; its columns follow `prefix`.
    fn system_function(
        &mut self,
        schema: &str,
        name: &str,
        columns: fn() -> Vec<super::system::ViewColumn>,
        depth: usize,
        prefix: &[String],
    ) -> Vec<String> {
        self.line(
            depth,
            format!("Table-valued function(OBJECT:([{schema}].[{name}]))"),
        );
        let names = columns().into_iter().map(|c| format!("[{}]", c.name));
        extend(prefix, names)
    }

    /// Prints `node` at `depth`, its columns following `prefix`; returns
    /// the names of the columns it emits.
    fn node(&mut self, node: &Node, depth: usize, prefix: &[String]) -> Vec<String> {
        match node {
            Node::Single => {
                self.line(depth, "Constant Scan".to_string());
                prefix.to_vec()
            }
            Node::Values { rows } => {
                self.line(
                    depth,
                    format!("Constant Scan(VALUES:({} rows))", rows.len()),
                );
                let width = rows.first().map_or(0, Vec::len);
                extend(prefix, (0..width).map(|i| format!("[Union{}]", 1000 + i)))
            }
            Node::View { view } => {
                self.system_function(view.schema, view.name, view.columns, depth, prefix)
            }
            Node::SystemFunction { function, .. } => self.system_function(
                function.schema,
                function.name,
                function.columns,
                depth,
                prefix,
            ),
            Node::Table(read) => self.table(read, depth, prefix),
            Node::Derived { plan, .. } | Node::Function { plan, .. } => {
                self.node(&plan.root, depth, &[]);
                extend(prefix, plan.columns.iter().map(|c| format!("[{}]", c.name)))
            }
            Node::Filter {
                input,
                predicate: p,
            } => {
                let at = self.reserve(depth);
                let names = self.node(input, depth + 1, prefix);
                self.fill(
                    at,
                    depth,
                    format!("Filter(WHERE:({}))", predicate(p, &names, self)),
                );
                names
            }
            Node::Project { input, exprs } => {
                let computes = exprs
                    .iter()
                    .any(|e| !matches!(e.kind, ScalarKind::Column(_)));
                if !computes {
                    let names = self.node(input, depth, prefix);
                    return exprs.iter().map(|e| scalar(e, &names, self)).collect();
                }
                let at = self.reserve(depth);
                let names = self.node(input, depth + 1, prefix);
                let mut defined = Vec::new();
                let out: Vec<String> = exprs
                    .iter()
                    .enumerate()
                    .map(|(i, e)| match e.kind {
                        ScalarKind::Column(_) => scalar(e, &names, self),
                        _ => {
                            let name = format!("[Expr{}]", 1001 + i);
                            defined.push(format!("{name}={}", scalar(e, &names, self)));
                            name
                        }
                    })
                    .collect();
                self.fill(
                    at,
                    depth,
                    format!("Compute Scalar(DEFINE:({}))", defined.join(", ")),
                );
                out
            }
            Node::Join(join) => {
                let at = self.reserve(depth);
                let kind = match join.kind {
                    JoinKind::Inner => "Inner Join",
                    JoinKind::Left => "Left Outer Join",
                    JoinKind::Right => "Right Outer Join",
                    JoinKind::Full => "Full Outer Join",
                };
                let (text, names) = match &join.method {
                    JoinMethod::Hash {
                        outer_keys,
                        inner_keys,
                    } => {
                        // SQL Server lists the build input first.
                        let outer_names = self.peek(&join.outer, prefix);
                        let inner_names = self.node(&join.inner, depth + 1, &outer_names);
                        self.node(&join.outer, depth + 1, prefix);
                        let keys = |keys: &[Scalar], names: &[String], p: &Printer| {
                            keys.iter()
                                .map(|k| scalar(k, names, p))
                                .collect::<Vec<_>>()
                                .join(", ")
                        };
                        let mut text = format!(
                            "Hash Match({kind}, HASH:({})=({})",
                            keys(inner_keys, &inner_names, self),
                            keys(outer_keys, &inner_names, self)
                        );
                        if let Some(on) = &join.on {
                            text += &format!(", RESIDUAL:({})", predicate(on, &inner_names, self));
                        }
                        (text + ")", inner_names)
                    }
                    method => {
                        let outer_names = self.node(&join.outer, depth + 1, prefix);
                        let spool = matches!(method, JoinMethod::Spool);
                        let inner_depth = depth + 1 + usize::from(spool);
                        let spool_at = spool.then(|| self.reserve(depth + 1));
                        let names = self.node(&join.inner, inner_depth, &outer_names);
                        if let Some(spool_at) = spool_at {
                            self.fill(spool_at, depth + 1, "Table Spool".to_string());
                        }
                        let mut text = format!("Nested Loops({kind}");
                        if let Some(on) = &join.on {
                            text += &format!(", WHERE:({})", predicate(on, &names, self));
                        }
                        (text + ")", names)
                    }
                };
                self.fill(at, depth, text);
                names
            }
            Node::Aggregate {
                input,
                grouping,
                method,
            } => {
                let at = self.reserve(depth);
                let names = self.node(input, depth + 1, prefix);
                let keys: Vec<String> = grouping
                    .keys
                    .iter()
                    .map(|(_, k)| scalar(k, &names, self))
                    .collect();
                let aggregates: Vec<String> = grouping
                    .aggregates
                    .iter()
                    .map(|(text, _)| text.clone())
                    .collect();
                let (keys_text, aggregates_text) = (keys.join(", "), aggregates.join(", "));
                let text = match method {
                    _ if keys.is_empty() => {
                        format!("Stream Aggregate(DEFINE:({aggregates_text}))")
                    }
                    AggregateMethod::Hash => format!(
                        "Hash Match(Aggregate, HASH:({keys_text}), DEFINE:({aggregates_text}))"
                    ),
                    AggregateMethod::Stream if aggregates.is_empty() => {
                        format!("Stream Aggregate(GROUP BY:({keys_text}))")
                    }
                    AggregateMethod::Stream => format!(
                        "Stream Aggregate(GROUP BY:({keys_text}) DEFINE:({aggregates_text}))"
                    ),
                };
                self.fill(at, depth, text);
                keys.into_iter().chain(aggregates).collect()
            }
            Node::Window { input, calls } => {
                let at = self.reserve(depth);
                let names = self.node(input, depth + 1, prefix);
                let defined: Vec<String> = calls
                    .iter()
                    .map(|call| match &call.function {
                        WindowFunction::Aggregate(a) => format!("{:?}", a.function).to_uppercase(),
                        other => format!("{other:?}").to_uppercase(),
                    })
                    .collect();
                let streams = calls.iter().all(|c| c.streams());
                let operator = if streams {
                    "Sequence Project"
                } else {
                    "Window"
                };
                self.fill(
                    at,
                    depth,
                    format!("{operator}(DEFINE:({}))", defined.join(", ")),
                );
                names.into_iter().chain(defined).collect()
            }
            Node::Sort { input, keys, top } => {
                let at = self.reserve(depth);
                let names = self.node(input, depth + 1, prefix);
                let order: Vec<String> = keys
                    .iter()
                    .map(|k| {
                        let direction = if k.descending { "DESC" } else { "ASC" };
                        format!("{} {direction}", scalar(&k.expr, &names, self))
                    })
                    .collect();
                let top = top.map_or(String::new(), |top| format!("TOP {}, ", top.rows));
                self.fill(
                    at,
                    depth,
                    format!("Sort({top}ORDER BY:({}))", order.join(", ")),
                );
                names
            }
            Node::Top {
                input,
                skip,
                limit,
                ties,
            } => {
                let at = self.reserve(depth);
                let names = self.node(input, depth + 1, prefix);
                let mut parts = Vec::new();
                if *skip > 0 {
                    parts.push(format!("OFFSET EXPRESSION:(({skip}))"));
                }
                match limit {
                    Some(Limit::Rows(rows)) => parts.push(format!("TOP EXPRESSION:(({rows}))")),
                    Some(Limit::Percent(p)) => {
                        parts.push(format!("TOP EXPRESSION:(({p})), PERCENT"))
                    }
                    None => {}
                }
                if !ties.is_empty() {
                    parts.push("WITH TIES".to_string());
                }
                self.fill(at, depth, format!("Top({})", parts.join(", ")));
                names
            }
            Node::Distinct { input, .. } => {
                let at = self.reserve(depth);
                let names = self.node(input, depth + 1, prefix);
                self.fill(at, depth, "Hash Match(Flow Distinct)".to_string());
                names
            }
            Node::Recursive { anchor, step, .. } => {
                self.line(depth, "Recursive Union".to_string());
                let names = self.node(anchor, depth + 1, prefix);
                self.node(step, depth + 1, prefix);
                names
            }
            Node::Working { .. } => {
                self.line(depth, "Table Spool(WORK TABLE)".to_string());
                prefix.to_vec()
            }
            Node::SetOp {
                op, left, right, ..
            } => {
                let text = match op {
                    SetOperation::UnionAll => "Concatenation",
                    SetOperation::Union => "Hash Match(Union)",
                    SetOperation::Except => "Hash Match(Left Anti Semi Join)",
                    SetOperation::Intersect => "Hash Match(Left Semi Join)",
                };
                self.line(depth, text.to_string());
                let names = self.node(left, depth + 1, prefix);
                self.node(right, depth + 1, prefix);
                names
            }
        }
    }

    /// Prints the read of a table at `depth`, its columns following
    /// `prefix`; returns the names of the columns it emits.
    fn table(&mut self, read: &TableRead, depth: usize, prefix: &[String]) -> Vec<String> {
        let columns = read
            .table
            .columns
            .iter()
            .map(|c| format!("[{}].[{}]", read.shown, c.name));
        // The row id an UPDATE or DELETE reads, as SQL Server names a row
        // locator.
        let row_id = read.row_ids.then(|| "[Bmk1000]".to_string());
        let names = extend(prefix, columns.chain(row_id));
        let filter = read.filter.as_ref().map(|f| predicate(f, &names, self));
        let text = self.access(read, &names, filter);
        self.line(depth, text);
        names
    }

    /// The operator of an INSERT, UPDATE or DELETE (`verb`) on `table`, as
    /// SQL Server names it for a table without a clustered index.
    fn change(&mut self, verb: &str, table: &TableMeta) {
        let object = self.object(table);
        self.line(0, format!("Table {verb}(OBJECT:({object}))"));
    }

    /// An UPDATE's or DELETE's TOP at `depth`, if it has one; the depth of
    /// what comes below.
    fn top(&mut self, rows: &RowSource, depth: usize) -> usize {
        let Some(top) = &rows.top else {
            return depth;
        };
        let count = scalar(&top.count, &[], self);
        let percent = if top.percent { ", PERCENT" } else { "" };
        self.line(depth, format!("Top(TOP EXPRESSION:({count}){percent})"));
        depth + 1
    }

    /// Prints how an UPDATE or DELETE finds its rows at `depth`; returns
    /// the names of the columns of a row found.
    fn rows(&mut self, rows: &RowSource, depth: usize) -> Vec<String> {
        match &rows.reading {
            Reading::Target(read) => self.table(read, depth, &[]),
            Reading::Plan { root, .. } => self.node(root, depth, &[]),
        }
    }

    /// The names `node` emits, without printing it.
    fn peek(&mut self, node: &Node, prefix: &[String]) -> Vec<String> {
        let mark = self.lines.len();
        let names = self.node(node, 0, prefix);
        self.lines.truncate(mark);
        names
    }

    fn reserve(&mut self, depth: usize) -> usize {
        self.line(depth, String::new());
        self.lines.len() - 1
    }

    fn fill(&mut self, at: usize, depth: usize, text: String) {
        self.lines[at] = format!("  {}|--{text}", " ".repeat(5 * depth));
    }

    /// `[schema].[table]`; a table variable as SQL Server shows it, `@t`.
    fn object(&self, table: &TableMeta) -> String {
        if table.name.starts_with('@') {
            return table.name.clone();
        }
        let catalog = self.db.catalog();
        let schema = catalog.schema_name(table.schema_id).unwrap_or("dbo");
        format!("[{schema}].[{}]", table.name)
    }

    /// A seek key's value as SQL Server shows it: a constant as is, any
    /// other expression in parentheses.
    fn seek_value(&self, value: &Scalar, names: &[String]) -> String {
        match &value.kind {
            ScalarKind::Constant(_) => scalar(value, names, self),
            _ => format!("({})", scalar(value, names, self)),
        }
    }

    fn access(&self, read: &TableRead, names: &[String], filter: Option<String>) -> String {
        let object = self.object(&read.table);
        let alias = if read.shown.eq_ignore_ascii_case(&read.table.name) {
            String::new()
        } else {
            format!(" AS [{}]", read.shown)
        };
        let residual = filter.map_or(String::new(), |f| format!(", WHERE:({f})"));
        match &read.path {
            AccessPath::Scan => format!("Table Scan(OBJECT:({object}{alias}){residual})"),
            AccessPath::Ordered { index } => format!(
                "Index Scan(OBJECT:({object}.[{}]{alias}){residual} ORDERED FORWARD)",
                read.table.indexes[*index].name
            ),
            AccessPath::Range {
                index,
                lower,
                upper,
            } => {
                let meta = &read.table.indexes[*index];
                let column = format!(
                    "[{}].[{}]",
                    read.shown, read.table.columns[meta.columns[0].0].name
                );
                let ends = [(lower, ">"), (upper, "<")];
                let seek: Vec<String> = ends
                    .iter()
                    .filter_map(|(end, strict)| {
                        let end = end.as_ref()?;
                        let op = if end.inclusive {
                            format!("{strict}=")
                        } else {
                            strict.to_string()
                        };
                        Some(format!(
                            "{column} {op} {}",
                            self.seek_value(&end.value, names)
                        ))
                    })
                    .collect();
                format!(
                    "Index Seek(OBJECT:({object}.[{}]{alias}), SEEK:({}){residual} ORDERED FORWARD)",
                    meta.name,
                    seek.join(" AND ")
                )
            }
            AccessPath::Seek { index, key } => {
                let meta = &read.table.indexes[*index];
                let seek: Vec<String> = meta
                    .columns
                    .iter()
                    .zip(key)
                    .map(|(&(column, _), part)| {
                        let value = self.seek_value(part, names);
                        format!(
                            "[{}].[{}]={value}",
                            read.shown, read.table.columns[column].name
                        )
                    })
                    .collect();
                let kind = match meta.kind {
                    IndexKind::Hash { .. } => "Hash Index Seek",
                    IndexKind::Range => "Index Seek",
                };
                format!(
                    "{kind}(OBJECT:({object}.[{}]{alias}), SEEK:({}){residual})",
                    meta.name,
                    seek.join(" AND ")
                )
            }
        }
    }
}

fn extend(prefix: &[String], names: impl Iterator<Item = String>) -> Vec<String> {
    prefix.iter().cloned().chain(names).collect()
}

fn scalar(s: &Scalar, names: &[String], p: &Printer) -> String {
    match &s.kind {
        ScalarKind::Constant(Value::Null) => "NULL".to_string(),
        ScalarKind::Constant(Value::String(text)) => format!("('{}')", text.replace('\'', "''")),
        ScalarKind::Constant(value) => format!("({value})"),
        ScalarKind::Column(index) => names
            .get(*index)
            .cloned()
            .unwrap_or_else(|| format!("[Col{index}]")),
        ScalarKind::Outer { index, .. } => format!("[outer].[Col{index}]"),
        ScalarKind::Variable(slot) => format!("[@{}]", p.variables.name(*slot)),
        ScalarKind::Arithmetic { op, left, right } => format!(
            "{}{}{}",
            scalar(left, names, p),
            arithmetic_symbol(*op),
            scalar(right, names, p)
        ),
        ScalarKind::Concat(left, right) => {
            format!("{}+{}", scalar(left, names, p), scalar(right, names, p))
        }
        ScalarKind::Negate(operand) => format!("-{}", scalar(operand, names, p)),
        ScalarKind::BitNot(operand) => format!("~{}", scalar(operand, names, p)),
        ScalarKind::Convert { operand, .. } => format!(
            "CONVERT_IMPLICIT({},{},0)",
            s.data_type.sql_name(),
            scalar(operand, names, p)
        ),
        ScalarKind::Builtin { function, args } => {
            let part = function
                .datepart()
                .map(|part| format!("{part:?}").to_lowercase());
            let args: Vec<String> = part
                .into_iter()
                .chain(args.iter().map(|a| scalar(a, names, p)))
                .collect();
            format!("{}({})", function.name(), args.join(","))
        }
        ScalarKind::RuntimeConstant { call, .. } => scalar(call, names, p),
        ScalarKind::Server { function, args } => {
            let args: Vec<String> = args.iter().map(|a| scalar(a, names, p)).collect();
            format!("{}({})", function.name(), args.join(","))
        }
        ScalarKind::Case { .. } => "CASE WHEN ... END".to_string(),
        ScalarKind::Subquery(_) => "(subquery)".to_string(),
        ScalarKind::NextValue(sequence) => format!("NEXT VALUE FOR [{}]", sequence.0.name),
        ScalarKind::UserFunction(call) => {
            let schema =
                p.db.catalog()
                    .schema_name(call.function.schema_id)
                    .unwrap_or("dbo")
                    .to_string();
            let args: Vec<String> = call.args.iter().map(|a| scalar(a, names, p)).collect();
            format!("[{schema}].[{}]({})", call.function.name, args.join(","))
        }
    }
}

fn predicate(pred: &Predicate, names: &[String], p: &Printer) -> String {
    match pred {
        Predicate::Compare {
            op, left, right, ..
        } => {
            let symbol = match op {
                CompareOp::Eq => "=",
                CompareOp::Ne => "<>",
                CompareOp::Lt => "<",
                CompareOp::Le => "<=",
                CompareOp::Gt => ">",
                CompareOp::Ge => ">=",
            };
            comparison(symbol, left, right, names, p)
        }
        Predicate::CompareNullsEqual {
            equal, left, right, ..
        } => comparison(if *equal { "=" } else { "<>" }, left, right, names, p),
        Predicate::And(left, right) => {
            format!(
                "{} AND {}",
                predicate(left, names, p),
                predicate(right, names, p)
            )
        }
        Predicate::Or(left, right) => {
            format!(
                "({} OR {})",
                predicate(left, names, p),
                predicate(right, names, p)
            )
        }
        Predicate::Not(operand) => format!("NOT ({})", predicate(operand, names, p)),
        Predicate::IsNull { operand, negated } => {
            let not = if *negated { " NOT" } else { "" };
            format!("{} IS{not} NULL", scalar(operand, names, p))
        }
        Predicate::Like {
            operand, pattern, ..
        } => format!(
            "{} like {}",
            scalar(operand, names, p),
            scalar(pattern, names, p)
        ),
        Predicate::Exists(_) => "EXISTS (subquery)".to_string(),
        Predicate::Quantified { operand, all, .. } => {
            let quantifier = if *all { "ALL" } else { "ANY" };
            format!("{} {quantifier} (subquery)", scalar(operand, names, p))
        }
    }
}

fn comparison(
    symbol: &str,
    left: &Scalar,
    right: &Scalar,
    names: &[String],
    p: &Printer,
) -> String {
    format!(
        "{}{symbol}{}",
        scalar(left, names, p),
        scalar(right, names, p)
    )
}

fn arithmetic_symbol(op: hekla_types::ops::ArithOp) -> &'static str {
    use hekla_types::ops::ArithOp::*;
    match op {
        Add => "+",
        Subtract => "-",
        Multiply => "*",
        Divide => "/",
        Modulo => "%",
        BitAnd => "&",
        BitOr => "|",
        BitXor => "^",
    }
}
