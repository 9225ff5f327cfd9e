//! hekla's model and planner. The catalog holds the SQL objects (tables,
//! views, modules, types, sequences); the binder settles every name and
//! type of a statement once; the planner turns it into a typed plan that
//! holds no names. Planning sees the database only through
//! [`plan::context::PlanContext`], so it runs on an in-memory catalog in
//! tests as well as on a live database.
//!
//! Below them are the leaves every layer shares: errors with SQL Server's
//! numbers, result types and the [`result::ResultSink`] seam, session
//! options, names, permissions, type names, IDENTITY and cancellation.

pub mod bind;
pub mod cancel;
pub mod catalog;
pub mod error;
pub mod identity;
pub mod names;
pub mod permission;
pub mod plan;
pub mod result;
pub mod session_options;
pub mod type_names;
