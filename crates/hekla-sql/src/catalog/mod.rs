//! The SQL catalog: what SQL knows about objects beyond the engine's
//! schemas and tables (see docs/sql.md, "Execution").

pub mod store;
