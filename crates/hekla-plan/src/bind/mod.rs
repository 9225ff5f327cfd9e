//! Binding: syntax trees to typed, resolved forms the planner and executor
//! run without looking names up again.

pub mod aggregate;
pub mod expr;
pub mod functions;
pub mod literal;
pub mod server;
pub mod subquery;
pub mod undeclared;
pub mod user_function;
pub mod variables;
