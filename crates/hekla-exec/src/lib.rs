//! Running bound statements.

pub mod access;
pub mod aggregate;
pub mod compiled;
pub mod constraints;
pub mod context;
pub mod dbcc;
pub mod eval;
pub mod functions;
pub mod hash_table;
pub mod insert;
pub mod isolation;
pub mod join;
pub mod modify;
pub mod output;
mod row_buffer;
pub mod run;
pub mod scalar_function;
pub mod select;
pub mod server;
pub mod sort;
pub mod table_reads;
pub mod target;
pub mod text_size;
pub mod truncate;
pub mod variables;
pub mod window;
