//! Natively compiled modules (issue 19): the per-row work of their plans
//! as machine code, generated with Cranelift.
//!
//! [`kernel`]: a row kernel, the filter and aggregates of a scan over a
//! table's fixed-width columns, run on each stored row's payload.

pub mod kernel;
