//! The FROM clause: each table, view, derived table or VALUES list gets
//! its place in the clause's row; each WHERE and ON condition is tested as
//! low in the join tree as its meaning allows (so it can pick an index or
//! drop rows early); each join gets a method:
//!
//! - **index nested loops** when the inner side is a table whose index key
//!   the condition fixes from the outer row;
//! - **hash join** when the condition equates outer and inner columns;
//! - **spool**: the inner side read once into memory, for the rest;
//! - APPLY runs its right side once per row of its left side.

use super::access::AccessPath;
use super::context::PlanContext;
use super::query::Planner;
use super::query_hints::{no_plan, JoinChoice};
use super::system::SystemRelation;
use super::{Join, JoinKind, JoinMethod, Node, QueryPlan, TableRead};
use crate::bind::expr::{
    implicit, is_untyped_null, Binder, CompareOp, Predicate, Reads, Scalar, ScopeColumn,
};
use crate::catalog::table::TableMeta;
use crate::error::{not_supported_yet, Refused};
use crate::names::DATABASE_NAME;
use crate::permission::ObjectRef;
use crate::permission::Permission;
use crate::plan::view_change::Level;
use hekla_parser::ast::{self, TableRefKind};
use hekla_types::{ops, DataType, SqlError, SqlResult};
use std::ops::Range;
use std::sync::Arc;

/// Where an item is among a FROM clause's items: indexes down the tree of
/// joins (first the item, then left 0 / right 1 at each join).
pub type ItemPath = Vec<usize>;

/// The item at `path`.
pub fn item_at<'i>(items: &'i [ast::TableRef], path: &[usize]) -> Option<&'i ast::TableRef> {
    let (first, sides) = path.split_first()?;
    let mut item = items.get(*first)?;
    for &side in sides {
        let TableRefKind::Join { left, right, .. } = &item.kind else {
            return None;
        };
        item = if side == 0 { left } else { right };
    }
    Some(item)
}

/// The items that are not joins, with their paths, left to right.
pub fn leaf_items(items: &[ast::TableRef]) -> Vec<(ItemPath, &ast::TableRef)> {
    fn collect<'i>(
        item: &'i ast::TableRef,
        path: ItemPath,
        out: &mut Vec<(ItemPath, &'i ast::TableRef)>,
    ) {
        match &item.kind {
            TableRefKind::Join { left, right, .. } => {
                for (side, inner) in [left, right].into_iter().enumerate() {
                    let mut inner_path = path.clone();
                    inner_path.push(side);
                    collect(inner, inner_path, out);
                }
            }
            _ => out.push((path, item)),
        }
    }
    let mut out = Vec::new();
    for (index, item) in items.iter().enumerate() {
        collect(item, vec![index], &mut out);
    }
    out
}

/// The name a FROM item (not a join) is known by in its query: its alias,
/// else its own name.
pub fn exposed_name(item: &ast::TableRef) -> Option<String> {
    let alias = match &item.kind {
        TableRefKind::Table { name, alias, .. } => {
            return Some(alias.as_ref().unwrap_or(name.name()).value.clone())
        }
        TableRefKind::Variable { name, alias } => {
            return Some(
                alias
                    .as_ref()
                    .map_or_else(|| format!("@{name}"), |a| a.value.clone()),
            )
        }
        TableRefKind::Derived { alias, .. } | TableRefKind::Values { alias, .. } => Some(alias),
        TableRefKind::Function { alias, .. } => alias.as_ref(),
        TableRefKind::Join { .. } => None,
    };
    alias.map(|alias| alias.value.clone())
}

/// A bound FROM clause, before conditions are placed and methods chosen.
pub enum FromTree {
    Leaf(Leaf),
    Join(Box<JoinTree>),
}

pub struct Leaf {
    source: Source,
    range: Range<usize>,
    /// Conditions on this source's columns alone.
    conditions: Vec<Predicate>,
}

enum Source {
    Table(TableSource),
    View(SystemRelation),
    Derived {
        plan: Box<QueryPlan>,
        correlated: bool,
    },
    Values(Vec<Vec<Scalar>>),
    /// An inline table-valued function's query and the arguments of the
    /// call.
    Function {
        plan: Box<QueryPlan>,
        arguments: Vec<Scalar>,
    },
    /// A recursive CTE's previous step, inside its recursive member.
    Working(usize),
    /// A system table-valued function and the arguments of the call.
    SystemFunction {
        function: SystemRelation,
        arguments: Vec<Scalar>,
    },
}

/// A user table as a FROM item reads it.
struct TableSource {
    table: Arc<TableMeta>,
    shown: String,
    /// The target of an UPDATE or DELETE: its rows end with their row ids
    /// (see `mark_target`).
    row_ids: bool,
    /// The isolation level its table hint asks for.
    hint: Option<ast::IsolationLevel>,
}

pub struct JoinTree {
    left: FromTree,
    right: FromTree,
    kind: ast::JoinKind,
    conditions: Vec<Predicate>,
    /// The methods the query's and the join's hints allow.
    choice: JoinChoice,
}

impl FromTree {
    fn range(&self) -> Range<usize> {
        match self {
            FromTree::Leaf(leaf) => leaf.range.clone(),
            FromTree::Join(join) => join.left.range().start..join.right.range().end,
        }
    }

    /// Places a condition of a WHERE clause (or of an inner join's ON) in
    /// this subtree; gives it back when it must stay above.
    pub fn place(&mut self, condition: Predicate) -> Option<Predicate> {
        let columns = condition.columns();
        let within = |range: Range<usize>| columns.iter().all(|c| range.contains(c));
        match self {
            FromTree::Leaf(leaf) => {
                if within(leaf.range.clone()) {
                    leaf.conditions.push(condition);
                    None
                } else {
                    Some(condition)
                }
            }
            FromTree::Join(join) => {
                use ast::JoinKind::*;
                let whole = join.left.range().start..join.right.range().end;
                let keeps_left =
                    matches!(join.kind, Inner | Cross | Left | CrossApply | OuterApply);
                let keeps_right = matches!(join.kind, Inner | Cross | Right);
                let mut condition = condition;
                if keeps_left && within(join.left.range()) {
                    condition = join.left.place(condition)?;
                }
                if keeps_right && within(join.right.range()) {
                    condition = join.right.place(condition)?;
                }
                if matches!(join.kind, Inner | Cross | CrossApply) && within(whole) {
                    join.conditions.push(condition);
                    return None;
                }
                Some(condition)
            }
        }
    }
}

impl Planner<'_> {
    /// Binds a FROM clause (its items are cross joined), adding its columns
    /// to `binder`'s scope.
    pub fn from_clause(
        &self,
        items: &[ast::TableRef],
        binder: &mut Binder,
    ) -> SqlResult<Option<FromTree>> {
        let mut tree: Option<FromTree> = None;
        for item in items {
            let right = self.bind_item(item, binder)?;
            tree = Some(match tree {
                None => right,
                Some(left) => FromTree::Join(Box::new(JoinTree {
                    left,
                    right,
                    kind: ast::JoinKind::Cross,
                    conditions: Vec::new(),
                    choice: self.hints.get().joins,
                })),
            });
        }
        Ok(tree)
    }

    fn bind_item(&self, item: &ast::TableRef, binder: &mut Binder) -> SqlResult<FromTree> {
        match &item.kind {
            TableRefKind::Table { name, alias, hints } => {
                let (source, columns) = match self.changed_view(item) {
                    Some((view, width)) => {
                        let shown = alias.as_ref().unwrap_or(name.name());
                        let (plan, columns) = self.state.view_hints.through_view(hints, || {
                            view.expand(self.context, &self.state, width, &shown.value)
                        })?;
                        let source = Source::Derived {
                            plan: Box::new(plan),
                            correlated: false,
                        };
                        (source, columns)
                    }
                    None => {
                        // The statement changing the item checks it.
                        let read = !self
                            .dml_target
                            .is_some_and(|target| std::ptr::eq(target.item, item));
                        self.named_source(name, alias.as_ref(), hints, binder, read)?
                    }
                };
                let (source, columns) = self.mark_target(item, source, columns);
                leaf(source, columns, binder)
            }
            TableRefKind::Derived {
                query,
                alias,
                columns,
            } => {
                let plan = self.derived(query, binder.outer)?;
                let scope = derived_columns(&plan, &alias.value, columns)?;
                leaf(
                    Source::Derived {
                        plan: Box::new(plan),
                        correlated: false,
                    },
                    scope,
                    binder,
                )
            }
            TableRefKind::Values {
                rows,
                alias,
                columns,
            } => {
                let (rows, types) = self.values(rows, binder)?;
                if columns.len() != types.len() {
                    return Err(column_count_mismatch(
                        &alias.value,
                        columns.len() < types.len(),
                    ));
                }
                let scope = columns
                    .iter()
                    .zip(types)
                    .map(|(name, data_type)| scope_column(&alias.value, "", &name.value, data_type))
                    .collect();
                leaf(Source::Values(rows), scope, binder)
            }
            TableRefKind::Join {
                left,
                right,
                kind,
                hint,
                on,
            } => {
                let choice = self.hints.get().joins.with_hint(*hint)?;
                let left = self.bind_item(left, binder)?;
                let right = match kind {
                    ast::JoinKind::CrossApply | ast::JoinKind::OuterApply => {
                        self.apply_right(right, binder)?
                    }
                    _ => self.bind_item(right, binder)?,
                };
                let mut join = FromTree::Join(Box::new(JoinTree {
                    left,
                    right,
                    kind: *kind,
                    conditions: Vec::new(),
                    choice,
                }));
                if let Some(on) = on {
                    let condition = binder.predicate(on)?;
                    for part in condition.conjuncts() {
                        place_on(&mut join, part);
                    }
                }
                Ok(join)
            }
            TableRefKind::Variable { name, alias } => {
                let table = self.variables.declared_table(name)?;
                let shown = alias
                    .as_ref()
                    .map_or_else(|| format!("@{name}"), |a| a.value.clone());
                let columns = table
                    .columns
                    .iter()
                    .map(|c| scope_column(&shown, "dbo", &c.name, c.data_type))
                    .collect();
                let source = Source::Table(TableSource {
                    table,
                    shown,
                    row_ids: false,
                    hint: None,
                });
                let (source, columns) = self.mark_target(item, source, columns);
                leaf(source, columns, binder)
            }
            TableRefKind::Function {
                call,
                alias,
                columns,
            } => {
                // Its arguments see enclosing queries, not the items
                // beside it (APPLY's right side does, see `apply_right`).
                let arguments = Binder {
                    outer: binder.outer,
                    planner: Some(self),
                    ..Binder::new(self.variables)
                };
                let (source, scope) =
                    self.function_source(call, alias.as_ref(), columns, &arguments)?;
                leaf(source, scope, binder)
            }
        }
    }

    /// A table-valued function called in FROM, its arguments bound by
    /// `arguments`: Msg 215 for a table or view given arguments, 208 for
    /// a name that is nothing.
    fn function_source(
        &self,
        call: &ast::FunctionCall,
        alias: Option<&ast::Ident>,
        columns: &[ast::Ident],
        arguments: &Binder,
    ) -> SqlResult<(Source, Vec<ScopeColumn>)> {
        let written = crate::catalog::sequence::written(&call.name);
        if let Some(function) = self.system_function(&call.name) {
            let arguments =
                arguments.function_arguments(&(function.parameters)(), &call.args, &written)?;
            let shown = alias.map_or(&call.name.name().value, |alias| &alias.value);
            let scope = (function.columns)()
                .into_iter()
                .map(|c| scope_column(shown, function.schema, c.name, c.data_type))
                .collect();
            let source = Source::SystemFunction {
                function,
                arguments,
            };
            return Ok((source, scope));
        }
        let Some(expanded) =
            crate::plan::inline_function::expand(self.context, &self.state, &call.name)?
        else {
            if self.resolve_table(&call.name).is_ok()
                || crate::catalog::view::names_view(&self.context.catalog(), &call.name)
            {
                return Err(SqlError::new(
                    215,
                    16,
                    1,
                    format!("Parameters supplied for object '{written}' which is not a function. If the parameters are intended as a table hint, a WITH keyword is required."),
                ));
            }
            if call.name.parts.len() == 1 {
                return Err(not_supported_yet(
                    Refused::Statement,
                    format!("the built-in table-valued function {written}"),
                ));
            }
            return Err(crate::error::invalid_object_name(&written, 1));
        };
        if let Some(access) = &self.access {
            let function = &expanded.function;
            let object = ObjectRef {
                object_id: function.object_id,
                schema_id: function.schema_id,
                name: &function.name,
            };
            self.context
                .require_object(access, Permission::Select, object)?;
        }
        let qualified = format!("{}.{}", expanded.schema, expanded.function.name);
        let arguments =
            arguments.function_arguments(&expanded.function.parameters, &call.args, &qualified)?;
        let shown = alias.map_or(&call.name.name().value, |alias| &alias.value);
        let scope = derived_columns(&expanded.plan, shown, columns)?;
        let plan = Box::new(expanded.plan);
        Ok((Source::Function { plan, arguments }, scope))
    }

    /// The view an UPDATE or DELETE changes, if `item` names it, and the
    /// width of the table it changes (see `Planner::changing`).
    fn changed_view(&self, item: &ast::TableRef) -> Option<(&Level, usize)> {
        let target = self.dml_target?;
        let view = target.view.filter(|_| std::ptr::eq(target.item, item))?;
        Some((view, target.width))
    }

    /// The table an UPDATE or DELETE changes (see `Planner::changing`)
    /// reads its row ids too: one more column, without a name, after its
    /// own. Its whole row is read, to be written back and checked.
    fn mark_target(
        &self,
        item: &ast::TableRef,
        source: Source,
        mut columns: Vec<ScopeColumn>,
    ) -> (Source, Vec<ScopeColumn>) {
        let marked = self
            .dml_target
            .is_some_and(|target| std::ptr::eq(target.item, item));
        match source {
            Source::Table(mut read) if marked => {
                columns.push(scope_column(&read.shown, "", "", DataType::BigInt));
                for column in &columns {
                    column.used.set(true);
                }
                read.row_ids = true;
                (Source::Table(read), columns)
            }
            source => (source, columns),
        }
    }

    /// The table `name` names: a temporary table of the session or a user
    /// table (Msg 208 for none); Msg 4508 for a temporary table named in a
    /// view's or function's query.
    fn resolve_table(&self, name: &ast::ObjectName) -> SqlResult<Arc<TableMeta>> {
        if crate::catalog::temp::is_temp(name) && self.state.modules.binding() {
            return Err(crate::catalog::binding::temporary_table());
        }
        if crate::catalog::temp::is_temp(name) {
            // SQL Server recompiles a statement that reads a temporary
            // table; its plan is not kept.
            self.state.not_reusable.set(true);
        }
        crate::plan::context::resolve_table(self.context, self.variables, name)
    }

    /// A table, view or CTE by name, with the columns it adds to the scope;
    /// `hints` are the reference's table hints. A table or view `read`
    /// needs SELECT on it.
    fn named_source(
        &self,
        name: &ast::ObjectName,
        alias: Option<&ast::Ident>,
        hints: &[ast::TableHint],
        binder: &Binder,
        read: bool,
    ) -> SqlResult<(Source, Vec<ScopeColumn>)> {
        let object = &name.name().value;
        if name.parts.len() == 1 {
            if let Some((id, columns)) = self.working_table(object) {
                check_hints_elsewhere(hints)?;
                let shown = alias.map_or(object, |a| &a.value);
                let scope = columns
                    .iter()
                    .map(|c| scope_column(shown, "", &c.name, c.data_type))
                    .collect();
                return Ok((Source::Working(id), scope));
            }
            if let Some(cte) = self.cte(object) {
                check_hints_elsewhere(hints)?;
                let plan = self.cte_plan(cte, binder.outer)?;
                let shown = alias.map_or(object, |a| &a.value);
                let scope = derived_columns(&plan, shown, &cte.columns)?;
                return Ok((
                    Source::Derived {
                        plan: Box::new(plan),
                        correlated: false,
                    },
                    scope,
                ));
            }
        }
        if let Some(access) = self.access.as_ref().filter(|_| read) {
            self.context
                .require_named(access, Permission::Select, name)?;
        }
        let shown = alias.map_or(object, |a| &a.value).clone();
        let view = self.state.view_hints.through_view(hints, || {
            crate::plan::view::expand(self.context, &self.state, name, &shown)
        })?;
        if let Some((plan, columns)) = view {
            let plan = Box::new(plan);
            return Ok((
                Source::Derived {
                    plan,
                    correlated: false,
                },
                columns,
            ));
        }
        let schema = name.schema().map_or("dbo", |s| s.value.as_str());
        let not_found = match self.resolve_table(name) {
            Ok(table) => {
                self.state.modules.note_table(name, table.object_id)?;
                let columns = table
                    .columns
                    .iter()
                    .map(|c| scope_column(&shown, schema, &c.name, c.data_type))
                    .collect();
                let hint = self.state.view_hints.isolation_hint(hints, &table)?;
                let source = Source::Table(TableSource {
                    table,
                    shown,
                    row_ids: false,
                    hint,
                });
                return Ok((source, columns));
            }
            Err(error) => error,
        };
        let database = name.other_database(DATABASE_NAME).map(|d| d.value.as_str());
        match self.context.system_view(database, schema, object) {
            Some(view) => {
                check_hints_elsewhere(hints)?;
                let columns = (view.columns)()
                    .into_iter()
                    .map(|c| scope_column(&shown, view.schema, c.name, c.data_type))
                    .collect();
                Ok((Source::View(view), columns))
            }
            None if crate::catalog::function::find(&self.context.catalog(), name)
                .is_some_and(|function| function.returns().is_none()) =>
            {
                Err(SqlError::new(
                    216,
                    16,
                    1,
                    format!(
                        "Parameters were not supplied for the function '{}'.",
                        crate::catalog::sequence::written(name)
                    ),
                ))
            }
            None => Err(not_found),
        }
    }

    /// APPLY's right side: a query that may read the left side's columns.
    fn apply_right(&self, item: &ast::TableRef, binder: &mut Binder) -> SqlResult<FromTree> {
        let TableRefKind::Derived {
            query,
            alias,
            columns,
        } = &item.kind
        else {
            return match &item.kind {
                TableRefKind::Function {
                    call,
                    alias,
                    columns,
                } => {
                    let (source, scope) =
                        self.function_source(call, alias.as_ref(), columns, binder)?;
                    leaf(source, scope, binder)
                }
                _ => self.bind_item(item, binder),
            };
        };
        let plan = self.derived(query, Some(binder))?;
        let scope = derived_columns(&plan, &alias.value, columns)?;
        leaf(
            Source::Derived {
                plan: Box::new(plan),
                correlated: true,
            },
            scope,
            binder,
        )
    }

    /// VALUES rows, each converted to the column types they share.
    fn values(
        &self,
        rows: &[Vec<ast::Expr>],
        binder: &Binder,
    ) -> SqlResult<(Vec<Vec<Scalar>>, Vec<DataType>)> {
        let values_binder = Binder {
            outer: binder.outer,
            planner: Some(self),
            ..Binder::new(self.variables)
        };
        let mut bound = Vec::with_capacity(rows.len());
        for row in rows {
            let row = row
                .iter()
                .map(|e| values_binder.scalar(e))
                .collect::<SqlResult<Vec<_>>>()?;
            if bound
                .first()
                .is_some_and(|first: &Vec<Scalar>| first.len() != row.len())
            {
                return Err(SqlError::new(
                    10709,
                    16,
                    1,
                    "The number of columns for each row in a table value constructor must be the same.",
                ));
            }
            bound.push(row);
        }
        let width = bound.first().map_or(0, Vec::len);
        let mut types = Vec::with_capacity(width);
        for column in 0..width {
            // Bare NULLs take the type of the column's other values.
            let mut typed = bound
                .iter()
                .map(|row| &row[column])
                .filter(|scalar| !is_untyped_null(scalar));
            let mut common = typed.next().map_or(DataType::Int, |s| s.data_type);
            for scalar in typed {
                common = ops::common_type(&common, &scalar.data_type)?;
            }
            types.push(common);
        }
        let rows = bound
            .into_iter()
            .map(|row| {
                row.into_iter()
                    .zip(&types)
                    .map(|(scalar, data_type)| implicit(scalar, data_type))
                    .collect::<SqlResult<Vec<_>>>()
            })
            .collect::<SqlResult<Vec<_>>>()?;
        Ok((rows, types))
    }

    /// The system table-valued function `name` calls (`sys.dm_exec_sql_text`).
    fn system_function(&self, name: &ast::ObjectName) -> Option<SystemRelation> {
        let schema = name.schema()?;
        let database = name.other_database(DATABASE_NAME).map(|d| d.value.as_str());
        self.context
            .system_function(database, &schema.value, &name.name().value)
    }
}

/// A source taking the next columns of the clause's row; Msg 1013 when
/// its name is already taken in the clause.
fn leaf(source: Source, columns: Vec<ScopeColumn>, binder: &mut Binder) -> SqlResult<FromTree> {
    if let Some(first) = columns.first() {
        let shown = &first.table;
        if binder
            .scope
            .columns
            .iter()
            .any(|c| c.table.eq_ignore_ascii_case(shown))
        {
            return Err(SqlError::new(
                1013,
                16,
                1,
                format!("The objects \"{shown}\" and \"{shown}\" in the FROM clause have the same exposed names. Use correlation names to distinguish them."),
            ));
        }
    }
    let start = binder.scope.columns.len();
    binder.scope.columns.extend(columns);
    Ok(FromTree::Leaf(Leaf {
        source,
        range: start..binder.scope.columns.len(),
        conditions: Vec::new(),
    }))
}

/// An ON condition's part: for inner joins it may go anywhere below; for
/// outer joins only into the side whose rows it filters before matching.
fn place_on(join: &mut FromTree, condition: Predicate) {
    let FromTree::Join(tree) = join else {
        unreachable!("ON belongs to a join")
    };
    let columns = condition.columns();
    let within = |range: Range<usize>| columns.iter().all(|c| range.contains(c));
    let back = match tree.kind {
        ast::JoinKind::Inner | ast::JoinKind::Cross => join.place(condition),
        ast::JoinKind::Left if within(tree.right.range()) && !columns.is_empty() => {
            tree.right.place(condition)
        }
        ast::JoinKind::Right if within(tree.left.range()) && !columns.is_empty() => {
            tree.left.place(condition)
        }
        _ => Some(condition),
    };
    let Some(condition) = back else {
        return;
    };
    let FromTree::Join(tree) = join else {
        unreachable!()
    };
    tree.conditions.push(condition);
}

/// Turns the bound clause into operators. `used` says which columns of
/// the clause's row any expression reads. Msg 8622 when hints leave a
/// join no method.
pub fn finish(tree: FromTree, used: &[bool]) -> SqlResult<Node> {
    match tree {
        FromTree::Leaf(leaf) => Ok(leaf_node(leaf, used)),
        FromTree::Join(join) => join_node(*join, used),
    }
}

fn leaf_node(leaf: Leaf, used: &[bool]) -> Node {
    let filter = Predicate::all(leaf.conditions);
    let node = match leaf.source {
        Source::Table(read) => {
            let path = AccessPath::choose(&read.table, leaf.range.start, filter.as_ref());
            return table_read(read, path, filter, leaf.range, used);
        }
        Source::View(view) => Node::View { view },
        Source::Derived { plan, correlated } => Node::Derived { plan, correlated },
        Source::Values(rows) => Node::Values { rows },
        Source::Function { plan, arguments } => Node::Function { arguments, plan },
        Source::Working(id) => Node::Working { id },
        Source::SystemFunction {
            function,
            arguments,
        } => Node::SystemFunction {
            function,
            arguments,
        },
    };
    match filter {
        Some(predicate) => Node::Filter {
            input: node.boxed(),
            predicate,
        },
        None => node,
    }
}

fn table_read(
    source: TableSource,
    path: AccessPath,
    filter: Option<Predicate>,
    range: Range<usize>,
    used: &[bool],
) -> Node {
    // A read with row ids has one column more than its table.
    let needed = used[range.start..range.start + source.table.columns.len()].to_vec();
    Node::Table(TableRead {
        table: source.table,
        shown: source.shown,
        path,
        filter,
        offset: range.start,
        needed,
        stream: true,
        row_ids: source.row_ids,
        hint: source.hint,
    })
}

fn join_node(join: JoinTree, used: &[bool]) -> SqlResult<Node> {
    use ast::JoinKind as K;
    let outer_width = join.left.range().len();
    let inner_range = join.right.range();
    let kind = match join.kind {
        K::Inner | K::Cross | K::CrossApply => JoinKind::Inner,
        K::Left | K::OuterApply => JoinKind::Left,
        K::Right => JoinKind::Right,
        K::Full => JoinKind::Full,
    };
    let apply = matches!(join.kind, K::CrossApply | K::OuterApply);
    let outer_range = join.left.range();
    let outer = finish(join.left, used)?;
    let (inner, method, residual) = if apply {
        (
            finish(join.right, used)?,
            JoinMethod::Rescan,
            join.conditions,
        )
    } else {
        choose_method(
            join.right,
            join.conditions,
            kind,
            outer_range,
            join.choice,
            used,
        )?
    };
    let on = Predicate::all(residual);
    Ok(Node::Join(Box::new(Join {
        outer,
        inner,
        kind,
        on,
        method,
        outer_width,
        inner_width: inner_range.len(),
    })))
}

/// Among the methods `choice` allows: index nested loops if the
/// conditions fix an index key of an inner table, else a hash join on
/// equalities, else nested loops over a spool of the inner side (or
/// running it again per outer row, without spools); with the conditions
/// still to test on each joined row (a hash join's key equalities hold
/// already: equal encodings are equal values). Msg 8622 if none fits.
fn choose_method(
    right: FromTree,
    conditions: Vec<Predicate>,
    kind: JoinKind,
    outer_range: Range<usize>,
    choice: JoinChoice,
    used: &[bool],
) -> SqlResult<(Node, JoinMethod, Vec<Predicate>)> {
    let inner_range = right.range();
    let right = match right {
        FromTree::Leaf(Leaf {
            source: Source::Table(read),
            range,
            conditions: own,
        }) if matches!(kind, JoinKind::Inner | JoinKind::Left) => {
            let seek_on: Vec<Predicate> = conditions.iter().chain(&own).cloned().collect();
            let path =
                AccessPath::choose(&read.table, range.start, Predicate::all(seek_on).as_ref());
            let filter = Predicate::all(own);
            if choice.nested_loops && matches!(path, AccessPath::Seek { .. }) {
                let residual = conditions
                    .into_iter()
                    .filter(|c| !path.covers(c, &read.table, range.start))
                    .collect();
                let node = table_read(read, path, filter, range, used);
                return Ok((node, JoinMethod::Rescan, residual));
            }
            let scan = table_read(read, AccessPath::Scan, None, range.clone(), used);
            match filter {
                // Keep the leaf's own conditions on the table read.
                Some(filter) => {
                    let Node::Table(mut read) = scan else {
                        unreachable!()
                    };
                    read.path = AccessPath::choose(&read.table, range.start, Some(&filter));
                    read.filter = Some(filter);
                    Node::Table(read)
                }
                None => scan,
            }
        }
        other => finish(other, used)?,
    };
    let is_key = |c: &Predicate| equi_key(c, &outer_range, &inner_range).is_some();
    if choice.hash && conditions.iter().any(is_key) {
        let (mut outer_keys, mut inner_keys, mut residual) = (Vec::new(), Vec::new(), Vec::new());
        for condition in conditions {
            match equi_key(&condition, &outer_range, &inner_range) {
                Some((outer, inner)) => {
                    outer_keys.push(outer);
                    inner_keys.push(inner);
                }
                None => residual.push(condition),
            }
        }
        let method = JoinMethod::Hash {
            outer_keys,
            inner_keys,
        };
        return Ok((right, method, residual));
    }
    // Nested loops without a spool run the inner side per outer row,
    // which keeps no state to find the inner rows no outer row matched.
    let rescan = matches!(kind, JoinKind::Inner | JoinKind::Left);
    match (choice.nested_loops, choice.spool) {
        (true, true) => Ok((right, JoinMethod::Spool, conditions)),
        (true, false) if rescan => Ok((right, JoinMethod::Rescan, conditions)),
        _ => Err(no_plan()),
    }
}

/// `outer_expr = inner_expr`, each side reading only its own side.
fn equi_key(
    condition: &Predicate,
    outer: &Range<usize>,
    inner: &Range<usize>,
) -> Option<(Scalar, Scalar)> {
    let Predicate::Compare {
        op: CompareOp::Eq,
        left,
        right,
        ..
    } = condition
    else {
        return None;
    };
    let side = |scalar: &Scalar, range: &Range<usize>| {
        let columns = scalar.columns();
        !columns.is_empty() && !scalar.has_subquery() && columns.iter().all(|c| range.contains(c))
    };
    if side(left, outer) && side(right, inner) {
        Some((left.clone(), right.clone()))
    } else if side(right, outer) && side(left, inner) {
        Some((right.clone(), left.clone()))
    } else {
        None
    }
}

fn scope_column(table: &str, schema: &str, name: &str, data_type: DataType) -> ScopeColumn {
    ScopeColumn {
        table: table.to_string(),
        schema: schema.to_string(),
        name: name.to_string(),
        data_type,
        used: Default::default(),
    }
}

/// The columns a derived table or CTE shows: its own names, or the list
/// given after its alias; every one named (8155) and unique (8156).
fn derived_columns(
    plan: &QueryPlan,
    alias: &str,
    names: &[ast::Ident],
) -> SqlResult<Vec<ScopeColumn>> {
    if !names.is_empty() && names.len() != plan.columns.len() {
        return Err(column_count_mismatch(
            alias,
            names.len() < plan.columns.len(),
        ));
    }
    let mut scope: Vec<ScopeColumn> = Vec::with_capacity(plan.columns.len());
    for (position, column) in plan.columns.iter().enumerate() {
        let name = names.get(position).map_or(&column.name, |n| &n.value);
        if name.is_empty() {
            return Err(SqlError::new(
                8155,
                16,
                2,
                format!(
                    "No column name was specified for column {} of '{alias}'.",
                    position + 1
                ),
            ));
        }
        if scope.iter().any(|c| c.name.eq_ignore_ascii_case(name)) {
            return Err(SqlError::new(
                8156,
                16,
                1,
                format!("The column '{name}' was specified multiple times for '{alias}'."),
            ));
        }
        scope.push(scope_column(alias, "", name, column.data_type));
    }
    Ok(scope)
}

/// Msg 8158 (more columns than names) or 8159 (fewer).
fn column_count_mismatch(alias: &str, more_columns: bool) -> SqlError {
    if more_columns {
        SqlError::new(
            8158,
            16,
            1,
            format!("'{alias}' has more columns than were specified in the column list."),
        )
    } else {
        SqlError::new(
            8159,
            16,
            1,
            format!("'{alias}' has fewer columns than were specified in the column list."),
        )
    }
}

/// Table hints on what is not a table (a CTE, a system view): SNAPSHOT
/// and TABLOCK are taken and change nothing, as before hints set the
/// isolation of table reads.
fn check_hints_elsewhere(hints: &[ast::TableHint]) -> SqlResult<()> {
    for hint in hints {
        let name = hint.name.value.to_ascii_uppercase();
        if !matches!(name.as_str(), "SNAPSHOT" | "TABLOCK") {
            return Err(not_supported_yet(
                Refused::Statement,
                format!("the table hint {name}"),
            ));
        }
    }
    Ok(())
}

/// The columns of `table` as a query names them: by `shown` (its alias or
/// its own name) and its schema.
pub fn table_scope(context: &dyn PlanContext, table: &TableMeta, shown: &str) -> Vec<ScopeColumn> {
    let schema = context
        .catalog()
        .schema_name(table.schema_id)
        .unwrap_or("dbo")
        .to_string();
    table
        .columns
        .iter()
        .map(|column| ScopeColumn {
            table: shown.to_string(),
            schema: schema.clone(),
            name: column.name.clone(),
            data_type: column.data_type,
            used: Default::default(),
        })
        .collect()
}
