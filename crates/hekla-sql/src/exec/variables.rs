//! DECLARE, SET @v and assignment SELECT (`SELECT @v = expr [FROM ...]`).
//! Values convert to the variable's type as an assignment does; strings
//! too long for it are cut, as SQL Server cuts them for variables. A
//! value may be a subquery (`SET @n = (SELECT COUNT(*) FROM t)`).

use super::context::{Context, SessionState};
use super::eval::Inputs;
use super::not_yet;
use super::run::for_each;
use crate::ast::{self, AssignOp};
use crate::bind::expr::{implicit, Binder, Scalar, ScalarKind};
use crate::bind::types::{self, TypeContext};
use crate::bind::variables::Variables;
use crate::plan::{Planner, QueryPlan};
use crate::session::SqlDatabase;
use hekla_types::{Collation, SqlResult, Value};

pub fn declare(
    db: &SqlDatabase,
    declarations: &[ast::Declaration],
    variables: &mut Variables,
    session: &SessionState,
) -> SqlResult<()> {
    for (ordinal, declaration) in declarations.iter().enumerate() {
        // A schema-qualified type is a user type: an alias type or a
        // (memory-optimized) table type, which need CREATE TYPE.
        if declaration.data_type.name.parts.len() > 1 {
            return Err(not_yet("DECLARE of a user-defined type"));
        }
        let data_type = types::resolve(
            &declaration.data_type,
            Collation::default(),
            TypeContext::Declaration {
                ordinal: ordinal + 1,
            },
        )?;
        if declaration.not_null {
            return Err(not_yet(
                "NOT NULL variables outside natively compiled modules",
            ));
        }
        let value = match &declaration.value {
            Some(expr) => {
                let planner = Planner::new(db, variables);
                let scalar = implicit(binder(&planner).scalar(expr)?, &data_type)?;
                Some(evaluate(db, variables, session, &scalar)?)
            }
            None => None,
        };
        let slot = variables.declare(&declaration.name, data_type)?;
        if let Some(value) = value {
            variables.assign(slot, value);
        }
    }
    Ok(())
}

pub fn set(
    db: &SqlDatabase,
    name: &str,
    op: AssignOp,
    value: &ast::Expr,
    variables: &mut Variables,
    session: &SessionState,
) -> SqlResult<()> {
    let slot = variables.resolve(name)?;
    let data_type = variables.data_type(slot);
    let current = Scalar {
        kind: ScalarKind::Variable(slot),
        data_type,
    };
    let planner = Planner::new(db, variables);
    let scalar = binder(&planner).assignment(current, op, value, &data_type)?;
    let value = evaluate(db, variables, session, &scalar)?;
    variables.assign(slot, value);
    Ok(())
}

/// A binder for a value outside any query (subqueries allowed).
pub fn binder<'a>(planner: &'a Planner<'a>) -> Binder<'a> {
    Binder {
        planner: Some(planner),
        ..Binder::new(planner.variables)
    }
}

/// The value of an expression outside any query, in its own statement.
pub fn evaluate(
    db: &SqlDatabase,
    variables: &Variables,
    session: &SessionState,
    scalar: &Scalar,
) -> SqlResult<Value> {
    let context = Context::new(db, variables.values()).with_session(session);
    let value = scalar.eval(&Inputs::top(&context))?;
    context.commit()?;
    Ok(value)
}

/// `SELECT @a = x, @b = y [FROM ...]`: each row assigns in turn, so the
/// variables hold the last row's values (unchanged when there is no row)
/// and an expression such as `@s = @s + name` sees the previous row's
/// assignment. No row count, as in SQL Server.
pub fn assign_rows(context: &Context, plan: &QueryPlan, slots: &[usize]) -> SqlResult<()> {
    for_each(&plan.root, &Inputs::top(context), &mut |row| {
        for (&slot, value) in slots.iter().zip(row) {
            context.assign(slot, value.clone());
        }
        Ok(())
    })
}
