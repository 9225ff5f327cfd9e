//! Inline table-valued functions: a query with parameters, bound like a
//! view's query (in a [`binding`] frame: self-reference, nesting, schema
//! binding) at CREATE and wherever a FROM clause calls the function.
//!
//! The parameters are the columns of a row one query out of the
//! function's query: `@p` binds to them there (see `Binder::parameters`),
//! and the plan's `Node::Function` evaluates the call's arguments into
//! that row each time it runs, so an argument may read the row to its
//! left under APPLY.

use crate::bind::expr::Binder;
use crate::bind::variables::Variables;
use crate::catalog::binding::{Frame, ModuleKind};
use crate::catalog::function::{find, FunctionBody, FunctionMeta, FunctionParameter};
use crate::plan::context::PlanContext;
use crate::plan::query::BindState;
use crate::plan::view::module_columns;
use crate::plan::{Planner, QueryPlan};
use crate::session_options::SetOptions;
use hekla_parser::ast;
use hekla_types::SqlResult;
use std::rc::Rc;
use std::sync::Arc;

/// An inline function a FROM clause calls, bound.
pub struct Expanded {
    pub function: Arc<FunctionMeta>,
    /// The name of its schema, for messages.
    pub schema: String,
    pub plan: QueryPlan,
}

/// Binds a function's query, whose `@p` are `parameters`, within `state`.
fn plan_query(
    db: &dyn PlanContext,
    state: &Rc<BindState>,
    parameters: &[FunctionParameter],
    query: &ast::Query,
) -> SqlResult<QueryPlan> {
    let variables = Variables::default();
    let row = Binder {
        parameters: Some(parameters),
        ..Binder::new(&variables)
    };
    Planner::new(db, &variables, SetOptions::default())
        .sharing(state)
        .derived(query, Some(&row))
}

/// Binds the query of a function being created or altered (`object` when
/// it exists): what it references. WITH SCHEMABINDING it may name only
/// schema-bound objects, by two-part names; its columns must be named
/// (Msg 4514) and unique (4506).
pub fn bind_definition(
    db: &dyn PlanContext,
    object: Option<i32>,
    name: &str,
    parameters: &[FunctionParameter],
    query: &ast::Query,
    schemabinding: bool,
) -> SqlResult<Vec<i32>> {
    let frame = Frame::new(ModuleKind::Function, object, name, schemabinding);
    let state = Rc::<BindState>::default();
    let (plan, references) = state
        .modules
        .in_frame(frame, || plan_query(db, &state, parameters, query))?;
    module_columns(&plan, &[], name, false, ModuleKind::Function)?;
    Ok(references)
}

/// Binds what a schema-bound inline function references again, after an
/// open (bindings are not stored); None if it no longer binds.
pub fn references(db: &dyn PlanContext, function: &FunctionMeta) -> Option<Vec<i32>> {
    let FunctionBody::Inline(query) = &function.body else {
        return None;
    };
    let frame = Frame::new(
        ModuleKind::Function,
        Some(function.object_id),
        &function.name,
        true,
    );
    let state = Rc::<BindState>::default();
    state
        .modules
        .in_frame(frame, || {
            plan_query(db, &state, &function.parameters, query)
        })
        .ok()
        .map(|(_, references)| references)
}

/// The inline function a FROM clause calls as `name`, bound; None when
/// `name` names no function. Msg 208 for a scalar function, 4413 for a
/// function that no longer binds. It is bound within the calling
/// statement's `state`.
pub fn expand(
    db: &dyn PlanContext,
    state: &Rc<BindState>,
    name: &ast::ObjectName,
) -> SqlResult<Option<Expanded>> {
    let (function, schema) = {
        let catalog = db.catalog();
        let Some(function) = find(&catalog, name) else {
            return Ok(None);
        };
        let schema = catalog
            .schema_name(function.schema_id)
            .unwrap_or("dbo")
            .to_string();
        (Arc::clone(function), schema)
    };
    let FunctionBody::Inline(query) = &function.body else {
        return Err(crate::error::invalid_object_name(
            &crate::catalog::sequence::written(name),
            1,
        ));
    };
    let plan = state.modules.expand(
        name,
        ModuleKind::Function,
        function.object_id,
        &function.name,
        function.schemabinding,
        || {
            let plan = plan_query(db, state, &function.parameters, query)?;
            module_columns(&plan, &[], &function.name, true, ModuleKind::Function)?;
            Ok(plan)
        },
    )?;
    Ok(Some(Expanded {
        function,
        schema,
        plan,
    }))
}
