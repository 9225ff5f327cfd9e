//! Calls of scalar user-defined functions, from any expression.
//!
//! A function's body is bound once per calling statement, on its first
//! call (so a function may call itself), into [`Step`]s: DECLARE, SET,
//! `SELECT @v = ...`, IF, WHILE, BREAK, CONTINUE and RETURN, which is all
//! a function's body may do (CREATE refuses the rest, see
//! `catalog::function`). Each call runs them in a context of its own
//! (`Context::in_function`) that shares the calling statement's
//! transaction, so the function reads what the statement reads.
//!
//! The session's interpreter does not run function bodies: it works for a
//! session (results, messages, transactions, error reach), none of which
//! a function may touch, and expression evaluation has no session, only
//! the statement's context.

use super::context::Context;
use super::eval::Inputs;
use super::variables::{assign_rows, assignment, declared};
use crate::eval::Evaluate;
use hekla_parser::ast::{self, StatementKind};
use hekla_plan::bind::expr::{implicit, Predicate, Scalar};
use hekla_plan::bind::user_function::UserCall;
use hekla_plan::bind::variables::Variables;
use hekla_plan::catalog::binding::{nesting_exceeded, MAX_NESTING};
use hekla_plan::catalog::function::{FunctionBody, FunctionMeta, FunctionParameter};
use hekla_plan::error::{not_supported_yet, Refused};
use hekla_plan::plan::context::PlanContext;
use hekla_plan::plan::value_binder;
use hekla_plan::plan::{Planner, QueryPlan};
use hekla_plan::session_options::SetOptions;
use hekla_types::{DataType, SqlError, SqlResult, Value};
use std::sync::Arc;

/// A scalar function's body, bound.
pub struct BoundBody {
    steps: Vec<Step>,
    /// Its parameters, then the variables it declares.
    variables: Variables,
}

enum Step {
    /// `SET @v = value`, or `DECLARE @v = value` (a DECLARE without a
    /// value does nothing when it runs: a variable declared in a loop
    /// keeps its value, as in SQL Server).
    Assign {
        slot: usize,
        value: Scalar,
    },
    /// `SELECT @a = x, @b = y [FROM ...]`.
    Select {
        plan: QueryPlan,
        slots: Vec<usize>,
    },
    If {
        condition: Predicate,
        then: Vec<Step>,
        otherwise: Vec<Step>,
    },
    While {
        condition: Predicate,
        body: Vec<Step>,
    },
    Break,
    Continue,
    /// `RETURN value`, converted to the function's type.
    Return(Scalar),
}

/// Where control goes after a step.
enum Flow {
    Next,
    Break,
    Continue,
    Return(Value),
}

/// The value of `call` for the row `inputs` holds. With `RETURNS NULL ON
/// NULL INPUT`, a NULL argument is the answer without running the body.
pub fn call(call: &UserCall, inputs: &Inputs<'_>) -> SqlResult<Value> {
    let mut variables = call
        .args
        .iter()
        .map(|arg| arg.eval(inputs))
        .collect::<SqlResult<Vec<Value>>>()?;
    let function = &call.function;
    if function.null_on_null_input && variables.iter().any(Value::is_null) {
        return Ok(Value::Null);
    }
    let context = inputs.context;
    let level = context.session.nest_level.saturating_add(1);
    if usize::from(level) > MAX_NESTING {
        return Err(nesting_exceeded());
    }
    let key = Arc::as_ptr(function) as usize;
    let body = context.function_body(key, || {
        bind(context.db.planning(), function, &context.options)
    })?;
    variables.resize(body.variables.values().len(), Value::Null);
    context.in_function(level, variables, function.reads_data, |call| {
        match body.run(&body.steps, call)? {
            Flow::Return(value) => Ok(value),
            // The body ends with RETURN (CREATE checked it).
            Flow::Next | Flow::Break | Flow::Continue => Ok(Value::Null),
        }
    })
}

impl BoundBody {
    fn run(&self, steps: &[Step], context: &Context) -> SqlResult<Flow> {
        for step in steps {
            match step {
                Step::Assign { slot, value } => {
                    let value = evaluate(value, context)?;
                    self.variables.check_assignable(*slot, &value)?;
                    context.assign(*slot, value);
                }
                Step::Select { plan, slots } => {
                    context.forget_subqueries();
                    assign_rows(context, plan, slots)?;
                    for &slot in slots {
                        self.variables
                            .check_assignable(slot, &context.variable(slot))?;
                    }
                }
                Step::If {
                    condition,
                    then,
                    otherwise,
                } => {
                    let branch = if holds(condition, context)? {
                        then
                    } else {
                        otherwise
                    };
                    match self.run(branch, context)? {
                        Flow::Next => {}
                        flow => return Ok(flow),
                    }
                }
                Step::While { condition, body } => {
                    while holds(condition, context)? {
                        context.check_cancel()?;
                        match self.run(body, context)? {
                            Flow::Next | Flow::Continue => {}
                            Flow::Break => break,
                            flow @ Flow::Return(_) => return Ok(flow),
                        }
                    }
                }
                Step::Break => return Ok(Flow::Break),
                Step::Continue => return Ok(Flow::Continue),
                Step::Return(value) => return Ok(Flow::Return(evaluate(value, context)?)),
            }
        }
        Ok(Flow::Next)
    }
}

/// A value of the body, computed afresh: subqueries that read no outer
/// row are cached per statement, and a function's statements see
/// changing variables.
fn evaluate(value: &Scalar, context: &Context) -> SqlResult<Value> {
    context.forget_subqueries();
    value.eval(&Inputs::top(context))
}

/// An IF or WHILE condition: true only if it holds (UNKNOWN does not).
fn holds(condition: &Predicate, context: &Context) -> SqlResult<bool> {
    context.forget_subqueries();
    Ok(condition.eval(&Inputs::top(context))? == Some(true))
}

/// Binds the body of `function` (a scalar function) for a call: an error
/// is the calling statement's, on its line.
fn bind(
    db: &dyn PlanContext,
    function: &FunctionMeta,
    options: &SetOptions,
) -> SqlResult<BoundBody> {
    bind_body(
        db,
        &function.parameters,
        &function.body,
        function.native,
        options,
    )
    .map_err(|error| SqlError {
        line: None,
        ..error
    })
}

/// Binds a natively compiled scalar function's body at CREATE, as SQL
/// Server compiles a native module whole: a statement that does not bind
/// is the CREATE's error, placed on the line of the statement it belongs
/// to (counted from the first line of the text `body`'s spans point
/// into). An interpreted function is bound on first call.
pub fn check_native_body(
    db: &dyn PlanContext,
    parameters: &[FunctionParameter],
    body: &FunctionBody,
) -> SqlResult<()> {
    bind_body(db, parameters, body, true, &SetOptions::default()).map(drop)
}

fn bind_body(
    db: &dyn PlanContext,
    parameters: &[FunctionParameter],
    body: &FunctionBody,
    native: bool,
    options: &SetOptions,
) -> SqlResult<BoundBody> {
    let FunctionBody::Scalar {
        returns,
        statements,
    } = body
    else {
        return Err(not_supported_yet(
            Refused::Statement,
            "a table-valued function in an expression",
        ));
    };
    let mut binder = BodyBinder {
        db,
        options: options.clone(),
        variables: Variables::default(),
        returns: *returns,
        native,
    };
    for parameter in parameters {
        binder
            .variables
            .declare(&parameter.name, parameter.data_type)?;
    }
    let mut steps = Vec::new();
    for statement in statements {
        binder.statement(statement, &mut steps)?;
    }
    Ok(BoundBody {
        steps,
        variables: binder.variables,
    })
}

/// Binds a body's statements in text order, declaring its variables as
/// it meets their DECLAREs (a variable is known from its DECLARE on, as
/// T-SQL's scoping says).
struct BodyBinder<'a> {
    db: &'a dyn PlanContext,
    /// The calling session's SET options.
    options: SetOptions,
    variables: Variables,
    returns: DataType,
    /// Natively compiled: NOT NULL variables allowed.
    native: bool,
}

impl BodyBinder<'_> {
    fn planner(&self) -> Planner<'_> {
        Planner::new(self.db, &self.variables, self.options.clone())
    }

    /// Binds `statement` into `steps`; its error is placed on its line
    /// (the innermost statement's, for one inside a block).
    fn statement(&mut self, statement: &ast::Statement, steps: &mut Vec<Step>) -> SqlResult<()> {
        self.bind_statement(statement, steps)
            .map_err(|error| error.at_line(statement.span.line))
    }

    fn bind_statement(
        &mut self,
        statement: &ast::Statement,
        steps: &mut Vec<Step>,
    ) -> SqlResult<()> {
        match &statement.kind {
            StatementKind::Declare(declarations) => {
                for (ordinal, declaration) in declarations.iter().enumerate() {
                    let (data_type, value) =
                        declared(&self.planner(), declaration, ordinal, self.native)?;
                    let slot = self.variables.declare(&declaration.name, data_type)?;
                    if declaration.not_null {
                        self.variables.forbid_null(slot);
                    }
                    if let Some(value) = value {
                        steps.push(Step::Assign { slot, value });
                    }
                }
            }
            StatementKind::SetVariable {
                variable,
                op,
                value,
            } => {
                let (slot, value) = assignment(&self.planner(), variable, *op, value)?;
                steps.push(Step::Assign { slot, value });
            }
            StatementKind::Select(select) => {
                let (plan, slots) = self.planner().assignment(select)?;
                steps.push(Step::Select { plan, slots });
            }
            StatementKind::If {
                condition,
                then_branch,
                else_branch,
            } => {
                let condition = self.condition(condition)?;
                let then = self.branch(then_branch)?;
                let otherwise = match else_branch {
                    Some(otherwise) => self.branch(otherwise)?,
                    None => Vec::new(),
                };
                steps.push(Step::If {
                    condition,
                    then,
                    otherwise,
                });
            }
            StatementKind::While { condition, body } => {
                let condition = self.condition(condition)?;
                let body = self.branch(body)?;
                steps.push(Step::While { condition, body });
            }
            StatementKind::Block(statements) => {
                for statement in statements {
                    self.statement(statement, steps)?;
                }
            }
            StatementKind::Break => steps.push(Step::Break),
            StatementKind::Continue => steps.push(Step::Continue),
            StatementKind::Return(Some(value)) => {
                let planner = self.planner();
                let value = implicit(value_binder(&planner).scalar(value)?, &self.returns)?;
                steps.push(Step::Return(value));
            }
            StatementKind::Exec(_) => {
                return Err(SqlError::new(
                    557,
                    16,
                    2,
                    "Only functions and some extended stored procedures can be executed from within a function.",
                ))
            }
            other => {
                return Err(not_supported_yet(Refused::Statement, format!(
                    "{} in a user-defined function",
                    other.keywords()
                )))
            }
        }
        Ok(())
    }

    fn branch(&mut self, statement: &ast::Statement) -> SqlResult<Vec<Step>> {
        let mut steps = Vec::new();
        self.statement(statement, &mut steps)?;
        Ok(steps)
    }

    fn condition(&self, condition: &ast::Expr) -> SqlResult<Predicate> {
        let planner = self.planner();
        value_binder(&planner).predicate(condition)
    }
}
