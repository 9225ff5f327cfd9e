//! DECLARE, SET @v and assignment SELECT (`SELECT @v = expr [FROM ...]`).
//! Values convert to the variable's type as an assignment does; strings
//! too long for it are cut, as SQL Server cuts them for variables. A
//! value may be a subquery (`SET @n = (SELECT COUNT(*) FROM t)`).

use super::context::Context;
use super::eval::Inputs;
use super::run::for_each;
use hekla_parser::ast::{self, AssignOp};
use hekla_plan::bind::expr::{implicit, Scalar, ScalarKind};
use hekla_plan::catalog::user_type;
use hekla_plan::plan::{value_binder, Planner, QueryPlan};
use hekla_plan::type_names::TypeContext;
use hekla_types::{Collation, DataType, SqlError, SqlResult};

/// A declared variable's type and its bound initial value, if it has
/// one (`DECLARE @v int = expr`); the `ordinal`th of its DECLARE. `NOT
/// NULL` variables exist only in natively compiled modules (`native`),
/// and must be given a value. The value binds with `planner`.
pub fn declared(
    planner: &Planner,
    declaration: &ast::Declaration,
    ordinal: usize,
    native: bool,
) -> SqlResult<(DataType, Option<Scalar>)> {
    // Table types make table variables (`catalog::table_type`) before this.
    let context = TypeContext::Declaration {
        ordinal: ordinal + 1,
    };
    let written = &declaration.data_type;
    let data_type = user_type::resolve(
        &planner.context.catalog(),
        written,
        Collation::default(),
        context,
    )?
    .scalar(written, context)?;
    if declaration.not_null && !native {
        return Err(SqlError::new(
            10794,
            16,
            1,
            "The statement 'DECLARE ... NOT NULL' is supported only in natively compiled modules.",
        ));
    }
    if declaration.not_null && declaration.value.is_none() {
        return Err(SqlError::new(
            515,
            16,
            2,
            format!(
                "The variable '@{}' is declared NOT NULL and must be given a value.",
                declaration.name
            ),
        ));
    }
    let value = match &declaration.value {
        Some(expr) => Some(implicit(value_binder(planner).scalar(expr)?, &data_type)?),
        None => None,
    };
    Ok((data_type, value))
}

/// `SET @v = expr` (or `+=` ...): the variable's slot and the bound value
/// to store, converted to its type, bound with `planner`.
pub fn assignment(
    planner: &Planner,
    name: &str,
    op: AssignOp,
    value: &ast::Expr,
) -> SqlResult<(usize, Scalar)> {
    let slot = planner.variables.resolve(name)?;
    let data_type = planner.variables.data_type(slot);
    let current = Scalar {
        kind: ScalarKind::Variable(slot),
        data_type,
    };
    let scalar = value_binder(planner).assignment(current, op, value, &data_type)?;
    Ok((slot, scalar))
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
