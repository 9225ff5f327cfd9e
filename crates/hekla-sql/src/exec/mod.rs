//! Running bound statements.

pub mod eval;
