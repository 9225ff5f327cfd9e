//! Binding: syntax trees to typed, resolved forms the planner and executor
//! run without looking names up again.

pub mod aggregate;
pub mod expr;
pub mod functions;
pub mod literal;
pub mod server;
pub mod subquery;
pub mod user_function;
pub mod variables;

/// Type names resolve in the leaf [`crate::type_names`] (the catalog
/// resolves declared types too); the executor's variables still name
/// them here.
pub use crate::type_names as types;
