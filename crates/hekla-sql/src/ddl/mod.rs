//! DDL: CREATE, ALTER and DROP of every kind of object. Each statement
//! checks what it is given, binds the new definition (through the binder
//! and the planner), stores it and changes the catalog ([`crate::catalog`],
//! the model of objects these statements edit) under the catalog lock.
//!
//! - [`table`]: CREATE TABLE and DROP TABLE; [`schema`]: CREATE SCHEMA.
//! - [`alter`]: ALTER TABLE, CREATE INDEX and DROP INDEX, which rebuild
//!   the table, and the schema lock statements run under.
//!
//! The interpreter routes each statement here; nothing here knows of the
//! interpreter.

pub mod alter;
pub mod schema;
pub mod table;
