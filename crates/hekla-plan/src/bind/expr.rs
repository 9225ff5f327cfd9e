//! Expressions bound once: every node typed, every implicit conversion made
//! an explicit [`ScalarKind::Convert`] node, operator result types decided
//! by SQL Server's rules (`hekla_types::ops`). Predicates (comparisons,
//! AND/OR/NOT, IS NULL) are a separate tree: in T-SQL they yield TRUE,
//! FALSE or UNKNOWN, never a value.
//!
//! Column references resolve against the statement's [`Scope`] to row
//! positions, variables to their batch slots.

use super::aggregate::Grouping;
use super::literal;
use super::subquery::SubqueryRef;
use super::variables::Variables;
use crate::error::{not_supported_yet, Refused};
use crate::names::DATABASE_NAME;
use crate::plan::window::WindowSet;
use crate::type_names::{self, TypeContext};
use hekla_parser::ast::{self, BinaryOp, ExprKind, UnaryOp};
use hekla_types::convert::{check_implicit, conversion, Conversion};
use hekla_types::ops::{self, ArithOp};
use hekla_types::{Collation, DataType, Length, SqlError, SqlResult, Value};
use std::cmp::Ordering;

#[derive(Clone, Debug, PartialEq)]
pub struct Scalar {
    pub kind: ScalarKind,
    pub data_type: DataType,
}

/// What an expression reads, in its own query's terms: a column of the
/// current row, a column `depth` queries out (a correlated reference), or
/// a subquery (which may itself read either).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Leaf {
    Column(usize),
    Outer { depth: usize, index: usize },
    Subquery,
}

/// Expressions and predicates alike: what they read.
pub trait Reads {
    fn leaves(&self, visit: &mut dyn FnMut(Leaf));

    /// The input row positions read.
    fn columns(&self) -> Vec<usize> {
        let mut columns = Vec::new();
        self.leaves(&mut |leaf| {
            if let Leaf::Column(index) = leaf {
                columns.push(index);
            }
        });
        columns
    }

    fn has_subquery(&self) -> bool {
        let mut found = false;
        self.leaves(&mut |leaf| found |= leaf == Leaf::Subquery);
        found
    }
}

impl Reads for Scalar {
    /// Visits what this expression reads.
    fn leaves(&self, visit: &mut dyn FnMut(Leaf)) {
        match &self.kind {
            ScalarKind::Column(index) => visit(Leaf::Column(*index)),
            ScalarKind::Outer { depth, index } => visit(Leaf::Outer {
                depth: *depth,
                index: *index,
            }),
            ScalarKind::Constant(_)
            | ScalarKind::Variable(_)
            | ScalarKind::NextValue(_)
            | ScalarKind::RuntimeConstant { .. } => {}
            ScalarKind::Arithmetic { left, right, .. } | ScalarKind::Concat(left, right) => {
                left.leaves(visit);
                right.leaves(visit);
            }
            ScalarKind::Negate(operand)
            | ScalarKind::BitNot(operand)
            | ScalarKind::Convert { operand, .. } => operand.leaves(visit),
            ScalarKind::Builtin { args, .. } | ScalarKind::Server { args, .. } => {
                args.iter().for_each(|arg| arg.leaves(visit))
            }
            ScalarKind::Case { whens, otherwise } => {
                for (condition, result) in whens {
                    condition.leaves(visit);
                    result.leaves(visit);
                }
                otherwise.leaves(visit);
            }
            ScalarKind::Subquery(subquery) => subquery.leaves(visit),
            // A function that reads tables needs the statement's
            // transaction, as a subquery does.
            ScalarKind::UserFunction(call) => {
                if call.function.reads_data {
                    visit(Leaf::Subquery);
                }
                call.args.iter().for_each(|arg| arg.leaves(visit));
            }
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum ScalarKind {
    Constant(Value),
    /// The value at this position of the input row.
    Column(usize),
    /// A local variable's current value, by slot.
    Variable(usize),
    /// A column of a query `depth` levels out (a correlated subquery or
    /// the right side of APPLY reading the row it runs for).
    Outer {
        depth: usize,
        index: usize,
    },
    /// A scalar subquery: its one column of its first row, NULL without
    /// rows, Msg 512 with more than one.
    Subquery(SubqueryRef),
    /// Both operands already have `data_type`'s family.
    Arithmetic {
        op: ArithOp,
        left: Box<Scalar>,
        right: Box<Scalar>,
    },
    Concat(Box<Scalar>, Box<Scalar>),
    Negate(Box<Scalar>),
    BitNot(Box<Scalar>),
    /// The operand converted to this node's type.
    Convert {
        operand: Box<Scalar>,
        style: Option<i32>,
        /// TRY_CAST / TRY_CONVERT: a value that does not convert is NULL.
        is_try: bool,
    },
    /// A built-in function of already converted arguments.
    Builtin {
        function: super::functions::Builtin,
        args: Vec<Scalar>,
    },
    /// A call SQL Server evaluates once per statement execution however
    /// many rows read it, a runtime constant (RAND() and the clock
    /// functions). `id` names this reference; the statement's context
    /// keeps its value, so copies of the node (a seek key and the residual
    /// predicate it came from) see one value.
    RuntimeConstant {
        id: super::functions::RuntimeConstantId,
        call: Box<Scalar>,
    },
    /// `CASE WHEN p THEN r ... ELSE e END` (a simple CASE binds to this
    /// with equality predicates).
    Case {
        whens: Vec<(Predicate, Scalar)>,
        otherwise: Box<Scalar>,
    },
    /// `NEXT VALUE FOR sequence`: a new value each time it is evaluated.
    NextValue(crate::catalog::sequence::SequenceRef),
    /// A function of the server, catalog or session (`OBJECT_ID`,
    /// `@@ROWCOUNT` ...), evaluated against the statement's context.
    Server {
        function: super::server::ServerFunction,
        args: Vec<Scalar>,
    },
    /// A scalar user-defined function, run against the statement's
    /// context (`exec::scalar_function`).
    UserFunction(super::user_function::UserCall),
}

impl Scalar {
    /// Whether the expression takes values from the sequence with
    /// `object_id` (a DEFAULT that keeps DROP SEQUENCE from running).
    pub fn uses_sequence(&self, object_id: i32) -> bool {
        match &self.kind {
            ScalarKind::NextValue(sequence) => sequence.0.object_id == object_id,
            ScalarKind::Arithmetic { left, right, .. } | ScalarKind::Concat(left, right) => {
                left.uses_sequence(object_id) || right.uses_sequence(object_id)
            }
            ScalarKind::Negate(operand)
            | ScalarKind::BitNot(operand)
            | ScalarKind::Convert { operand, .. } => operand.uses_sequence(object_id),
            ScalarKind::Builtin { args, .. } | ScalarKind::Server { args, .. } => {
                args.iter().any(|a| a.uses_sequence(object_id))
            }
            ScalarKind::Case { whens, otherwise } => {
                whens
                    .iter()
                    .any(|(_, result)| result.uses_sequence(object_id))
                    || otherwise.uses_sequence(object_id)
            }
            _ => false,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Predicate {
    /// Operands already converted to a common type.
    Compare {
        op: CompareOp,
        left: Scalar,
        right: Scalar,
        collation: Collation,
    },
    /// `=` (`equal`) or `<>` under SET ANSI_NULLS OFF, where a side is a
    /// NULL literal or a variable (`null_sides`): when such a side is NULL
    /// the comparison holds if both sides are NULL (`=`) or not both
    /// (`<>`); otherwise it is an ordinary comparison. No index is sought
    /// with it.
    CompareNullsEqual {
        equal: bool,
        left: Scalar,
        right: Scalar,
        collation: Collation,
        null_sides: [bool; 2],
    },
    And(Box<Predicate>, Box<Predicate>),
    Or(Box<Predicate>, Box<Predicate>),
    Not(Box<Predicate>),
    IsNull {
        operand: Scalar,
        negated: bool,
    },
    /// `operand [NOT] LIKE pattern [ESCAPE escape]`, both sides strings
    /// (other types convert, as in SQL Server).
    Like {
        operand: Scalar,
        pattern: Scalar,
        escape: Option<Scalar>,
        collation: Collation,
    },
    /// `EXISTS (subquery)`.
    Exists(SubqueryRef),
    /// `x op ANY|ALL (subquery)`; `x IN (subquery)` is `x = ANY (...)`.
    /// The operand is converted to `common`, subquery values convert to
    /// it as they are read.
    Quantified {
        operand: Scalar,
        op: CompareOp,
        all: bool,
        subquery: SubqueryRef,
        common: DataType,
        collation: Collation,
    },
}

impl Reads for Predicate {
    fn leaves(&self, visit: &mut dyn FnMut(Leaf)) {
        match self {
            Predicate::Compare { left, right, .. }
            | Predicate::CompareNullsEqual { left, right, .. } => {
                left.leaves(visit);
                right.leaves(visit);
            }
            Predicate::And(left, right) | Predicate::Or(left, right) => {
                left.leaves(visit);
                right.leaves(visit);
            }
            Predicate::Not(operand) => operand.leaves(visit),
            Predicate::IsNull { operand, .. } => operand.leaves(visit),
            Predicate::Like {
                operand,
                pattern,
                escape,
                ..
            } => {
                operand.leaves(visit);
                pattern.leaves(visit);
                if let Some(escape) = escape {
                    escape.leaves(visit);
                }
            }
            Predicate::Exists(subquery) => subquery.leaves(visit),
            Predicate::Quantified {
                operand, subquery, ..
            } => {
                operand.leaves(visit);
                subquery.leaves(visit);
            }
        }
    }
}

impl Predicate {
    /// The AND-ed parts of this predicate.
    pub fn conjuncts(self) -> Vec<Predicate> {
        match self {
            Predicate::And(left, right) => {
                let mut parts = left.conjuncts();
                parts.extend(right.conjuncts());
                parts
            }
            other => vec![other],
        }
    }

    /// The conjunction of `parts` (None when there are none).
    pub fn all(parts: Vec<Predicate>) -> Option<Predicate> {
        parts
            .into_iter()
            .reduce(|left, right| Predicate::And(Box::new(left), Box::new(right)))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompareOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl CompareOp {
    /// True if `ordering` satisfies the operator.
    pub fn holds(self, ordering: Ordering) -> bool {
        match self {
            CompareOp::Eq => ordering == Ordering::Equal,
            CompareOp::Ne => ordering != Ordering::Equal,
            CompareOp::Lt => ordering == Ordering::Less,
            CompareOp::Le => ordering != Ordering::Greater,
            CompareOp::Gt => ordering == Ordering::Greater,
            CompareOp::Ge => ordering != Ordering::Less,
        }
    }

    /// The operator with its operands swapped: `a < b` is `b > a`.
    pub fn mirrored(self) -> CompareOp {
        match self {
            CompareOp::Lt => CompareOp::Gt,
            CompareOp::Le => CompareOp::Ge,
            CompareOp::Gt => CompareOp::Lt,
            CompareOp::Ge => CompareOp::Le,
            CompareOp::Eq | CompareOp::Ne => self,
        }
    }
}

/// The columns an expression can name: those of the FROM clause, in input
/// row order.
#[derive(Clone, Debug, Default)]
pub struct Scope {
    pub columns: Vec<ScopeColumn>,
}

#[derive(Clone, Debug)]
pub struct ScopeColumn {
    /// The name the table is known by in the query: its alias, else its
    /// own name.
    pub table: String,
    pub schema: String,
    pub name: String,
    pub data_type: DataType,
    /// Set when an expression reads the column, so a table read can skip
    /// decoding the columns nobody reads.
    pub used: std::cell::Cell<bool>,
}

impl Scope {
    /// The row position a column reference names: Msg 207 when nothing
    /// matches, 209 when several do, 4104 for a qualifier that matches no
    /// table.
    pub fn resolve(&self, parts: &[ast::Ident]) -> SqlResult<usize> {
        let (column, qualifier) = parts.split_last().expect("a column has a name");
        let matches_qualifier = |c: &ScopeColumn| match qualifier {
            [] => true,
            [table] => c.table.eq_ignore_ascii_case(&table.value),
            [.., schema, table] => {
                c.table.eq_ignore_ascii_case(&table.value)
                    && c.schema.eq_ignore_ascii_case(&schema.value)
            }
        };
        let mut found =
            self.columns.iter().enumerate().filter(|(_, c)| {
                matches_qualifier(c) && c.name.eq_ignore_ascii_case(&column.value)
            });
        match (found.next(), found.next()) {
            (Some((index, _)), None) => Ok(index),
            (Some(_), Some(_)) => Err(SqlError::new(
                209,
                16,
                1,
                format!("Ambiguous column name '{}'.", column.value),
            )),
            (None, _) if !qualifier.is_empty() && !self.columns.iter().any(matches_qualifier) => {
                let text: Vec<&str> = parts.iter().map(|p| p.value.as_str()).collect();
                Err(SqlError::new(
                    4104,
                    16,
                    1,
                    format!(
                        "The multi-part identifier \"{}\" could not be bound.",
                        text.join(".")
                    ),
                ))
            }
            (None, _) => Err(SqlError::new(
                207,
                16,
                1,
                format!("Invalid column name '{}'.", column.value),
            )),
        }
    }
}

/// Binds expressions for one statement.
pub struct Binder<'a> {
    /// The collation string literals get (the database default).
    pub collation: Collation,
    pub scope: Scope,
    pub variables: &'a Variables,
    /// After GROUP BY: keys and aggregates are read from the grouped row;
    /// `scope` then still names the FROM clause's columns, only to tell
    /// them (Msg 8120 unless grouped) from outer references.
    pub grouping: Option<&'a Grouping>,
    /// Window function results, read from the end of the row (only the
    /// select list and ORDER BY may use them).
    pub windows: Option<&'a WindowSet>,
    /// The enclosing query's binder: a column not found here is looked up
    /// there and becomes an outer reference.
    pub outer: Option<&'a Binder<'a>>,
    /// Plans subqueries; None where SQL Server allows none (DEFAULT).
    pub planner: Option<&'a crate::plan::Planner<'a>>,
    /// Where `NEXT VALUE FOR` finds sequences when there is no planner
    /// (a DEFAULT bound while the catalog is being changed or loaded).
    pub catalog: Option<&'a crate::catalog::Catalog>,
    /// The parameters of the inline function whose query this binder
    /// encloses: `@p` in that query reads them as a row this many queries
    /// out (see `plan::inline_function`).
    pub parameters: Option<&'a [crate::catalog::function::FunctionParameter]>,
}

impl<'a> Binder<'a> {
    /// A binder with no FROM scope.
    pub fn new(variables: &'a Variables) -> Self {
        Binder {
            collation: Collation::default(),
            scope: Scope::default(),
            variables,
            grouping: None,
            windows: None,
            outer: None,
            planner: None,
            catalog: None,
            parameters: None,
        }
    }

    pub fn scalar(&self, expr: &ast::Expr) -> SqlResult<Scalar> {
        if let ExprKind::Function(call) = &expr.kind {
            if call.over.is_some() {
                return crate::plan::window::read(self.windows, expr);
            }
        }
        if let Some(grouping) = self.grouping {
            if let ExprKind::Function(call) = &expr.kind {
                if let Some(scalar) = grouping.grouping_function(call)? {
                    return Ok(scalar);
                }
            }
            if let Some((index, data_type)) = grouping.position(expr) {
                return Ok(Scalar {
                    kind: ScalarKind::Column(index),
                    data_type,
                });
            }
            if let ExprKind::Column(parts) = &expr.kind {
                // A column of an enclosing query is one value per group.
                if self.scope.resolve(parts).is_err() {
                    return self.column(expr, parts);
                }
                let name: Vec<&str> = parts.iter().map(|p| p.value.as_str()).collect();
                return Err(SqlError::new(
                    8120,
                    16,
                    1,
                    format!("Column '{}' is invalid in the select list because it is not contained in either an aggregate function or the GROUP BY clause.", name.join(".")),
                ));
            }
        } else if super::aggregate::contains_aggregate(expr)
            && matches!(expr.kind, ExprKind::Function(_))
        {
            return Err(SqlError::new(
                147,
                15,
                1,
                "An aggregate may not appear in the WHERE clause unless it is in a subquery contained in a HAVING clause or a select list, and the column being aggregated is an outer reference.",
            ));
        }
        match &expr.kind {
            ExprKind::Literal(value) => {
                let (value, data_type) = literal::literal(value, self.collation)?;
                Ok(Scalar {
                    kind: ScalarKind::Constant(value),
                    data_type,
                })
            }
            ExprKind::Unary { op, operand } => self.unary(*op, operand),
            ExprKind::Binary { op, left, right } => self.binary(*op, left, right),
            ExprKind::Cast {
                expr,
                data_type,
                is_try,
            } => self.cast(expr, data_type, None, *is_try),
            ExprKind::Convert {
                data_type,
                expr,
                style,
                is_try,
            } => {
                let style = match style {
                    Some(style) => Some(self.constant_int(style, "CONVERT style")?),
                    None => None,
                };
                self.cast(expr, data_type, style, *is_try)
            }
            ExprKind::Case {
                operand,
                whens,
                else_result,
            } => self.case(operand.as_deref(), whens, else_result.as_deref()),
            ExprKind::Column(parts) => self.column(expr, parts),
            ExprKind::Subquery(query) => self.scalar_subquery(query),
            ExprKind::Variable(name) => match self.variables.resolve(name) {
                Ok(slot) => Ok(Scalar {
                    kind: ScalarKind::Variable(slot),
                    data_type: self.variables.data_type(slot),
                }),
                Err(undeclared) => self.function_parameter(name, 0).ok_or(undeclared),
            },
            ExprKind::Function(call) => match self.server_function(call) {
                Some(bound) => bound,
                None => self.function(call),
            },
            ExprKind::GlobalVariable(name) => self.global_variable(name),
            ExprKind::NextValueFor(name) => self.next_value_for(name),
            _ if is_predicate(expr) => Err(SqlError::new(
                4145,
                15,
                1,
                "An expression of non-boolean type specified in a context where a condition is expected.",
            )),
            _ => Err(not_supported_yet(Refused::Expression, expr)),
        }
    }

    pub fn predicate(&self, expr: &ast::Expr) -> SqlResult<Predicate> {
        match &expr.kind {
            ExprKind::Binary { op, left, right } => match op {
                BinaryOp::And | BinaryOp::Or => {
                    let left = Box::new(self.predicate(left)?);
                    let right = Box::new(self.predicate(right)?);
                    Ok(if *op == BinaryOp::And {
                        Predicate::And(left, right)
                    } else {
                        Predicate::Or(left, right)
                    })
                }
                _ => match compare_op(*op) {
                    Some(op) => self.compare(op, left, right),
                    None => Err(non_boolean()),
                },
            },
            ExprKind::Unary {
                op: UnaryOp::Not,
                operand,
            } => Ok(Predicate::Not(Box::new(self.predicate(operand)?))),
            ExprKind::IsNull { expr, negated } => Ok(Predicate::IsNull {
                operand: self.scalar(expr)?,
                negated: *negated,
            }),
            ExprKind::Between {
                expr,
                negated,
                low,
                high,
            } => {
                let range = Predicate::And(
                    Box::new(self.compare(CompareOp::Ge, expr, low)?),
                    Box::new(self.compare(CompareOp::Le, expr, high)?),
                );
                Ok(negate_if(range, *negated))
            }
            ExprKind::InList {
                expr,
                negated,
                list,
            } => {
                let mut any: Option<Predicate> = None;
                for item in list {
                    let equal = self.compare(CompareOp::Eq, expr, item)?;
                    any = Some(match any {
                        Some(previous) => Predicate::Or(Box::new(previous), Box::new(equal)),
                        None => equal,
                    });
                }
                let any = any.expect("the parser requires a non-empty IN list");
                Ok(negate_if(any, *negated))
            }
            ExprKind::Like {
                expr,
                negated,
                pattern,
                escape,
            } => Ok(negate_if(
                self.like(expr, pattern, escape.as_deref())?,
                *negated,
            )),
            ExprKind::Exists(query) => self.exists(query),
            ExprKind::InSubquery {
                expr,
                negated,
                query,
            } => Ok(negate_if(
                self.quantified(expr, CompareOp::Eq, false, query)?,
                *negated,
            )),
            ExprKind::Quantified {
                expr,
                op,
                quantifier,
                query,
            } => {
                let op = compare_op(*op).ok_or_else(non_boolean)?;
                let all = *quantifier == ast::Quantifier::All;
                self.quantified(expr, op, all, query)
            }
            _ if is_predicate(expr) => Err(not_supported_yet(Refused::Expression, expr)),
            _ => Err(non_boolean()),
        }
    }

    /// LIKE: both sides as strings of the operand's collation.
    fn like(
        &self,
        operand: &ast::Expr,
        pattern: &ast::Expr,
        escape: Option<&ast::Expr>,
    ) -> SqlResult<Predicate> {
        let (operand, pattern) = typed_nulls(self.scalar(operand)?, self.scalar(pattern)?);
        let collation = operand
            .data_type
            .collation()
            .or(pattern.data_type.collation())
            .unwrap_or(self.collation);
        let unicode =
            |t: &DataType| matches!(t, DataType::NChar { .. } | DataType::NVarChar { .. });
        let text = if unicode(&operand.data_type) || unicode(&pattern.data_type) {
            DataType::NVarChar {
                len: hekla_types::Length::Max,
                collation,
            }
        } else {
            DataType::VarChar {
                len: hekla_types::Length::Max,
                collation,
            }
        };
        let escape = match escape {
            Some(escape) => Some(implicit(self.scalar(escape)?, &text)?),
            None => None,
        };
        Ok(Predicate::Like {
            operand: implicit(operand, &text)?,
            pattern: implicit(pattern, &text)?,
            escape,
            collation,
        })
    }

    /// A column of this query's FROM clause, else of an enclosing query's
    /// (an outer reference); the error is this query's when neither has it.
    fn column(&self, expr: &ast::Expr, parts: &[ast::Ident]) -> SqlResult<Scalar> {
        match self.scope.resolve(parts) {
            Ok(index) => {
                let column = &self.scope.columns[index];
                column.used.set(true);
                Ok(Scalar {
                    kind: ScalarKind::Column(index),
                    data_type: column.data_type,
                })
            }
            Err(error) if matches!(error.number, 207 | 4104) => {
                let Some(found) = self.outer.and_then(|outer| outer.scalar(expr).ok()) else {
                    return Err(error);
                };
                let (depth, index) = match found.kind {
                    ScalarKind::Column(index) => (1, index),
                    ScalarKind::Outer { depth, index } => (depth + 1, index),
                    _ => return Err(error),
                };
                Ok(Scalar {
                    kind: ScalarKind::Outer { depth, index },
                    data_type: found.data_type,
                })
            }
            Err(error) => Err(error),
        }
    }

    /// `@name` as a parameter of the inline function whose query this
    /// binder is in, `depth` queries out of the binder asked first.
    fn function_parameter(&self, name: &str, depth: usize) -> Option<Scalar> {
        let found = self.parameters.and_then(|parameters| {
            parameters
                .iter()
                .position(|p| p.name.eq_ignore_ascii_case(name))
                .map(|index| (index, parameters[index].data_type))
        });
        match found {
            Some((index, data_type)) => Some(Scalar {
                kind: match depth {
                    0 => ScalarKind::Column(index),
                    _ => ScalarKind::Outer { depth, index },
                },
                data_type,
            }),
            None => self.outer?.function_parameter(name, depth + 1),
        }
    }

    fn unary(&self, op: UnaryOp, operand: &ast::Expr) -> SqlResult<Scalar> {
        let operand = self.scalar(operand)?;
        match op {
            UnaryOp::Plus => Ok(operand),
            UnaryOp::Minus => {
                let data_type = ops::negate_type(&operand.data_type)?;
                let operand = implicit(operand, &data_type)?;
                Ok(Scalar {
                    kind: ScalarKind::Negate(Box::new(operand)),
                    data_type,
                })
            }
            UnaryOp::BitNot => {
                let data_type = ops::bit_not_type(&operand.data_type)?;
                let operand = implicit(operand, &data_type)?;
                Ok(Scalar {
                    kind: ScalarKind::BitNot(Box::new(operand)),
                    data_type,
                })
            }
            UnaryOp::Not => Err(non_boolean()),
        }
    }

    fn binary(&self, op: BinaryOp, left: &ast::Expr, right: &ast::Expr) -> SqlResult<Scalar> {
        let Some(op) = arith_op(op) else {
            return Err(non_boolean());
        };
        self.arithmetic(op, self.scalar(left)?, self.scalar(right)?)
    }

    /// `left op right` over bound operands (also compound assignments such
    /// as `SET a += 1`), typed by SQL Server's rules.
    pub fn arithmetic(&self, op: ArithOp, left: Scalar, right: Scalar) -> SqlResult<Scalar> {
        let (left, right) = typed_nulls(left, right);
        if op == ArithOp::Add && is_string(&left.data_type) && is_string(&right.data_type) {
            let data_type = ops::concat_type(&left.data_type, &right.data_type);
            return Ok(Scalar {
                kind: ScalarKind::Concat(Box::new(left), Box::new(right)),
                data_type,
            });
        }
        let (left_type, right_type) = (left.data_type, right.data_type);
        let left = sized_integer_literal(left, &right_type);
        let right = sized_integer_literal(right, &left_type);
        let data_type = ops::arithmetic_type(op, &left.data_type, &right.data_type)?;
        let operand_type = operand_type(op, &data_type, &left.data_type, &right.data_type);
        let left = implicit(left, &operand_type)?;
        let right = implicit(right, &operand_type)?;
        Ok(Scalar {
            kind: ScalarKind::Arithmetic {
                op,
                left: Box::new(left),
                right: Box::new(right),
            },
            data_type,
        })
    }

    fn compare(&self, op: CompareOp, left: &ast::Expr, right: &ast::Expr) -> SqlResult<Predicate> {
        let (left, right) = typed_nulls(self.scalar(left)?, self.scalar(right)?);
        let null_sides = [is_null_or_variable(&left), is_null_or_variable(&right)];
        let common = ops::common_type(&left.data_type, &right.data_type)?;
        let collation = common.collation().unwrap_or(self.collation);
        let (left, right) = (
            comparison_side(left, &common)?,
            comparison_side(right, &common)?,
        );
        let ansi_nulls = self
            .planner
            .is_none_or(|planner| planner.options.ansi_nulls);
        if !ansi_nulls && matches!(op, CompareOp::Eq | CompareOp::Ne) && null_sides.contains(&true)
        {
            return Ok(Predicate::CompareNullsEqual {
                equal: op == CompareOp::Eq,
                left,
                right,
                collation,
                null_sides,
            });
        }
        Ok(Predicate::Compare {
            op,
            left,
            right,
            collation,
        })
    }

    fn cast(
        &self,
        expr: &ast::Expr,
        data_type: &ast::DataType,
        style: Option<i32>,
        is_try: bool,
    ) -> SqlResult<Scalar> {
        let operand = self.scalar(expr)?;
        let target = self.conversion_type(data_type)?;
        if is_untyped_null(&operand) {
            return Ok(null_of(target));
        }
        if conversion(&operand.data_type, &target) == Conversion::NotAllowed {
            return Err(hekla_types::convert::convert_from(
                &Value::Null,
                &operand.data_type,
                &target,
                style,
            )
            .expect_err("a refused conversion fails even for NULL"));
        }
        Ok(Scalar {
            kind: ScalarKind::Convert {
                operand: Box::new(operand),
                style,
                is_try,
            },
            data_type: target,
        })
    }

    /// The type of a CAST or CONVERT: a system type, or an alias type's
    /// base when the catalog is at hand.
    fn conversion_type(&self, data_type: &ast::DataType) -> SqlResult<DataType> {
        let context = TypeContext::Conversion;
        let resolve = |catalog: &crate::catalog::Catalog| {
            crate::catalog::user_type::resolve(catalog, data_type, self.collation, context)?
                .scalar(data_type, context)
        };
        match (self.catalog, self.planner) {
            (Some(catalog), _) => resolve(catalog),
            (None, Some(planner)) => resolve(&planner.context.catalog()),
            (None, None) => type_names::resolve(data_type, self.collation, context),
        }
    }

    fn case(
        &self,
        operand: Option<&ast::Expr>,
        whens: &[(ast::Expr, ast::Expr)],
        else_result: Option<&ast::Expr>,
    ) -> SqlResult<Scalar> {
        let mut conditions = Vec::with_capacity(whens.len());
        let mut results = Vec::with_capacity(whens.len() + 1);
        for (when, then) in whens {
            conditions.push(match operand {
                Some(operand) => self.compare(CompareOp::Eq, operand, when)?,
                None => self.predicate(when)?,
            });
            results.push(self.scalar(then)?);
        }
        let otherwise = match else_result {
            Some(expr) => self.scalar(expr)?,
            None => Scalar {
                kind: ScalarKind::Constant(Value::Null),
                data_type: results[0].data_type,
            },
        };
        results.push(otherwise);
        // NULL results take the type of the others.
        let typed = results
            .iter()
            .find(|r| !is_untyped_null(r))
            .map(|r| r.data_type);
        let mut data_type = typed.unwrap_or(results[0].data_type);
        for result in results.iter().filter(|r| !is_untyped_null(r)) {
            data_type = ops::common_type(&data_type, &result.data_type)?;
        }
        let mut results = results
            .into_iter()
            .map(|result| implicit(result, &data_type))
            .collect::<SqlResult<Vec<_>>>()?;
        let otherwise = Box::new(results.pop().expect("ELSE was pushed last"));
        Ok(Scalar {
            kind: ScalarKind::Case {
                whens: conditions.into_iter().zip(results).collect(),
                otherwise,
            },
            data_type,
        })
    }

    /// The value stored by `target op= value` (`=` or a compound operator
    /// such as `+=`), converted for storing into `stored_type`: a column's
    /// [`assignment_type`] or a variable's own type.
    pub fn assignment(
        &self,
        target: Scalar,
        op: ast::AssignOp,
        value: &ast::Expr,
        stored_type: &DataType,
    ) -> SqlResult<Scalar> {
        let value = self.scalar(value)?;
        let combined = match compound(op) {
            Some(op) => self.arithmetic(op, target, value)?,
            None => value,
        };
        implicit(combined, stored_type)
    }

    /// `NEXT VALUE FOR name`: Msg 208 for no such object, 11726 for one
    /// that is not a sequence, 11719 where SQL Server allows none (CHECK
    /// constraints, subqueries).
    fn next_value_for(&self, name: &ast::ObjectName) -> SqlResult<Scalar> {
        if self.outer.is_some()
            || (self.planner.is_none() && self.catalog.is_none())
            || self
                .planner
                .is_some_and(|planner| planner.state.modules.binding())
        {
            return Err(crate::error::next_value_not_allowed());
        }
        let find = |catalog: &crate::catalog::Catalog| {
            if name.other_database(DATABASE_NAME).is_some() {
                return Err(None);
            }
            let schema = name.schema().map_or("dbo", |s| s.value.as_str());
            let schema_id = catalog.schema_id(schema).ok_or(None)?;
            if let Some(sequence) = catalog.sequence(schema_id, &name.name().value) {
                return Ok(std::sync::Arc::clone(sequence));
            }
            if catalog.table(schema_id, &name.name().value).is_some() {
                return Err(Some(format!("{schema}.{}", name.name().value)));
            }
            Err(None)
        };
        let found = match (self.catalog, self.planner) {
            (Some(catalog), _) => find(catalog),
            (None, Some(planner)) => find(&planner.context.catalog()),
            (None, None) => unreachable!("refused above"),
        };
        // Taking a sequence's next value needs UPDATE on it.
        if let (Ok(sequence), Some(planner)) = (&found, self.planner) {
            if let Some(access) = &planner.access {
                let object = crate::permission::ObjectRef {
                    object_id: sequence.object_id,
                    schema_id: sequence.schema_id,
                    name: &sequence.name,
                };
                planner.context.require_object(
                    access,
                    crate::permission::Permission::Update,
                    object,
                )?;
            }
        }
        match found {
            Ok(sequence) => Ok(Scalar {
                data_type: sequence.data_type,
                kind: ScalarKind::NextValue(crate::catalog::sequence::SequenceRef(sequence)),
            }),
            Err(Some(other)) => Err(SqlError::new(
                11726,
                16,
                1,
                format!("Object '{other}' is not a sequence object."),
            )),
            Err(None) => Err(crate::error::invalid_object_name(
                &crate::catalog::sequence::written(name),
                1,
            )),
        }
    }

    /// A constant integer argument (a CONVERT style).
    fn constant_int(&self, expr: &ast::Expr, what: &str) -> SqlResult<i32> {
        let bound = self.scalar(expr)?;
        match (&bound.kind, bound.data_type) {
            (ScalarKind::Constant(value), DataType::Int) => Ok(value
                .as_i64()
                .and_then(|v| i32::try_from(v).ok())
                .unwrap_or(0)),
            _ => Err(SqlError::new(
                8116,
                16,
                1,
                format!(
                    "Argument data type {} is invalid for argument 3 of {what} function.",
                    bound.data_type.sql_name()
                ),
            )),
        }
    }
}

/// The type a value converts to before it is stored in a column: the
/// column's own, except that strings and binary keep their full length so
/// the engine can report truncation (Msg 2628) instead of cutting silently
/// as CAST does.
pub fn assignment_type(column: &DataType) -> DataType {
    match *column {
        DataType::Char { collation, .. } | DataType::VarChar { collation, .. } => {
            DataType::VarChar {
                len: hekla_types::Length::Max,
                collation,
            }
        }
        DataType::NChar { collation, .. } | DataType::NVarChar { collation, .. } => {
            DataType::NVarChar {
                len: hekla_types::Length::Max,
                collation,
            }
        }
        DataType::Binary { .. } | DataType::VarBinary { .. } => DataType::VarBinary {
            len: hekla_types::Length::Max,
        },
        other => other,
    }
}

/// The operator of a compound assignment (`+=` is `+`); None for `=`.
fn compound(op: ast::AssignOp) -> Option<ArithOp> {
    use ast::AssignOp::*;
    Some(match op {
        Assign => return None,
        Add => ArithOp::Add,
        Subtract => ArithOp::Subtract,
        Multiply => ArithOp::Multiply,
        Divide => ArithOp::Divide,
        Modulo => ArithOp::Modulo,
        BitAnd => ArithOp::BitAnd,
        BitOr => ArithOp::BitOr,
        BitXor => ArithOp::BitXor,
    })
}

/// One side of a comparison in the comparison's type `common`, except a
/// varchar or nvarchar compared with a longer one of the same collation (a
/// driver's `@P0 varchar(8000)` against a `varchar(255)` key): its values
/// compare the same at either length, and a bare column left unconverted
/// can still seek its index. A seek key too long for the column finds no
/// row; a range bound too long for it leaves that end of the range open
/// (`exec::access`), the comparison itself still testing each row.
fn comparison_side(scalar: Scalar, common: &DataType) -> SqlResult<Scalar> {
    let only_longer = match (&scalar.data_type, common) {
        (
            DataType::VarChar {
                len: Length::Bounded(_),
                collation,
            },
            DataType::VarChar {
                len: Length::Bounded(_),
                collation: wider,
            },
        )
        | (
            DataType::NVarChar {
                len: Length::Bounded(_),
                collation,
            },
            DataType::NVarChar {
                len: Length::Bounded(_),
                collation: wider,
            },
        ) => collation == wider,
        _ => false,
    };
    if only_longer {
        Ok(scalar)
    } else {
        implicit(scalar, common)
    }
}

/// Wraps `scalar` in an implicit conversion to `target` when its type
/// differs, with SQL Server's error when the chart refuses it.
pub fn implicit(scalar: Scalar, target: &DataType) -> SqlResult<Scalar> {
    if scalar.data_type == *target {
        return Ok(scalar);
    }
    // A bare NULL goes anywhere (`DECLARE @d datetime2 = NULL`), though an
    // int that is NULL does not (Msg 206).
    if is_untyped_null(&scalar) {
        return Ok(null_of(*target));
    }
    check_implicit(&scalar.data_type, target)?;
    // A constant converts now, so `bigint_column = 1` compares with a
    // bigint constant and can seek an index. A failing conversion, and
    // text whose date the session's DATEFORMAT decides, stay a node and
    // convert when (and if) it runs.
    if let ScalarKind::Constant(value) = &scalar.kind {
        if let Some(converted) =
            hekla_types::convert::convert_settled(value, &scalar.data_type, target)
        {
            return Ok(Scalar {
                kind: ScalarKind::Constant(converted),
                data_type: *target,
            });
        }
    }
    Ok(Scalar {
        kind: ScalarKind::Convert {
            operand: Box::new(scalar),
            style: None,
            is_try: false,
        },
        data_type: *target,
    })
}

/// The type operands convert to before `op`: the result type, except that
/// datetime arithmetic takes a number of days on the other side, and a
/// decimal remainder's type is narrower than its dividend (`12.34 % 7` is
/// decimal(3,2)), so its operands keep the result's scale at full
/// precision.
fn operand_type(op: ArithOp, result: &DataType, left: &DataType, right: &DataType) -> DataType {
    let is_datetime = |t: &DataType| matches!(t, DataType::DateTime | DataType::SmallDateTime);
    if matches!(op, ArithOp::Add | ArithOp::Subtract) && (is_datetime(left) || is_datetime(right)) {
        return DataType::DateTime;
    }
    match (op, *result) {
        (ArithOp::Modulo, DataType::Decimal { scale, .. }) => DataType::Decimal {
            precision: 38,
            scale,
        },
        _ => *result,
    }
}

/// A bare `NULL` literal: typed int, but it takes the type of whatever it
/// meets (`'a' + NULL` is a NULL varchar, not a conversion of 'a').
pub(crate) fn is_untyped_null(scalar: &Scalar) -> bool {
    matches!(scalar.kind, ScalarKind::Constant(Value::Null)) && scalar.data_type == DataType::Int
}

/// A NULL constant of `data_type`.
fn null_of(data_type: DataType) -> Scalar {
    Scalar {
        kind: ScalarKind::Constant(Value::Null),
        data_type,
    }
}

/// What SET ANSI_NULLS OFF changes a comparison with: a NULL literal or a
/// variable.
fn is_null_or_variable(scalar: &Scalar) -> bool {
    matches!(
        scalar.kind,
        ScalarKind::Constant(Value::Null) | ScalarKind::Variable(_)
    )
}

fn typed_nulls(left: Scalar, right: Scalar) -> (Scalar, Scalar) {
    let retype = |scalar: Scalar, data_type: DataType| {
        if is_untyped_null(&scalar) {
            null_of(data_type)
        } else {
            scalar
        }
    };
    let (left_type, right_type) = (left.data_type, right.data_type);
    (retype(left, right_type), retype(right, left_type))
}

/// Beside a decimal, SQL Server types an integer constant by its digits
/// (`3` as decimal(1, 0), not int's decimal(10, 0)), which keeps `7.0 / 3`
/// at scale 6.
fn sized_integer_literal(scalar: Scalar, other: &DataType) -> Scalar {
    let ScalarKind::Constant(value) = &scalar.kind else {
        return scalar;
    };
    let (Some(number), DataType::Decimal { .. }) = (value.as_i64(), other) else {
        return scalar;
    };
    if !matches!(scalar.data_type, DataType::Int | DataType::BigInt) {
        return scalar;
    }
    let digits = number.unsigned_abs().checked_ilog10().map_or(1, |d| d + 1) as u8;
    Scalar {
        kind: ScalarKind::Constant(Value::Decimal(
            hekla_types::Decimal::new(i128::from(number), digits, 0)
                .expect("an integer fits its own digit count"),
        )),
        data_type: DataType::Decimal {
            precision: digits,
            scale: 0,
        },
    }
}

fn is_string(t: &DataType) -> bool {
    t.collation().is_some()
}

fn arith_op(op: BinaryOp) -> Option<ArithOp> {
    Some(match op {
        BinaryOp::Add => ArithOp::Add,
        BinaryOp::Subtract => ArithOp::Subtract,
        BinaryOp::Multiply => ArithOp::Multiply,
        BinaryOp::Divide => ArithOp::Divide,
        BinaryOp::Modulo => ArithOp::Modulo,
        BinaryOp::BitAnd => ArithOp::BitAnd,
        BinaryOp::BitOr => ArithOp::BitOr,
        BinaryOp::BitXor => ArithOp::BitXor,
        _ => return None,
    })
}

fn compare_op(op: BinaryOp) -> Option<CompareOp> {
    Some(match op {
        BinaryOp::Eq => CompareOp::Eq,
        BinaryOp::Ne => CompareOp::Ne,
        BinaryOp::Lt => CompareOp::Lt,
        BinaryOp::Le | BinaryOp::NotGt => CompareOp::Le,
        BinaryOp::Gt => CompareOp::Gt,
        BinaryOp::Ge | BinaryOp::NotLt => CompareOp::Ge,
        _ => return None,
    })
}

fn negate_if(predicate: Predicate, negated: bool) -> Predicate {
    if negated {
        Predicate::Not(Box::new(predicate))
    } else {
        predicate
    }
}

fn is_predicate(expr: &ast::Expr) -> bool {
    expr.precedence() <= ast::precedence::COMPARISON
}

/// Msg 4145: a value where a condition belongs.
fn non_boolean() -> SqlError {
    SqlError::new(
        4145,
        15,
        1,
        "An expression of non-boolean type specified in a context where a condition is expected.",
    )
}
