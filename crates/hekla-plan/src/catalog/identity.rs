//! IDENTITY columns: `IDENTITY [(seed, increment)]` on an integer column
//! (or decimal/numeric with scale 0), at most one per table. INSERT takes
//! the next value for every row that does not give the column (a value
//! given explicitly is Msg 544 unless `SET IDENTITY_INSERT t ON`, after
//! which later values continue past the highest given), and UPDATE cannot
//! change it (Msg 8102). Values come from a durable
//! [`Counter`]: never reused, even by a statement that rolled back, and
//! after a restart they continue past the last block reserved (SQL
//! Server's identity cache: 10 values for tinyint, 100 for smallint, 1000
//! for int, 10000 for bigint and decimal), so a crash can leave a gap.

use super::counter::{integer, integer_range, integer_value, Counter, Series};
use hekla_engine::{Database, Table};
use hekla_parser::ast;
use hekla_types::{DataType, SqlError, SqlResult, Value};
use std::sync::Arc;

pub struct IdentityColumn {
    /// The column's position in the table.
    pub column: usize,
    pub data_type: DataType,
    pub seed: i128,
    pub increment: i128,
    pub counter: Counter,
}

impl IdentityColumn {
    /// The series of values: seed, seed + increment, ... up to the end of
    /// the column's type.
    pub fn series(&self) -> Series {
        let (min, max) = integer_range(&self.data_type).expect("checked at CREATE TABLE");
        let block = match self.data_type {
            DataType::TinyInt => 10,
            DataType::SmallInt => 100,
            DataType::Int => 1000,
            _ => 10_000,
        };
        Series {
            start: self.seed,
            increment: self.increment,
            min,
            max,
            cycle: false,
            block,
        }
    }

    /// The next value, of the column's type; Msg 8115 past the end of the
    /// type, as SQL Server reports it.
    pub fn next(&self, engine: &Database) -> SqlResult<Value> {
        match self.counter.next(engine, &self.series())? {
            Some(value) => integer_value(value, &self.data_type),
            None => Err(SqlError::new(
                8115,
                16,
                1,
                format!(
                    "Arithmetic overflow error converting IDENTITY to data type {}.",
                    // The type's name without its precision.
                    self.data_type
                        .sql_name()
                        .split('(')
                        .next()
                        .unwrap_or_default()
                ),
            )),
        }
    }
}

impl IdentityColumn {
    /// A value an INSERT gave explicitly (IDENTITY_INSERT ON): later values
    /// continue past it if it lies beyond the last one, as SQL Server moves
    /// the table's current identity value.
    pub fn given(&self, engine: &Database, value: &Value) -> SqlResult<()> {
        match integer(value) {
            Some(value) => self.counter.observe(engine, &self.series(), value),
            None => Ok(()),
        }
    }
}

/// Binds `IDENTITY (seed, increment)` on column `name` of `data_type`
/// (position `column`) of the table with `object_id`; `counters` is
/// `sys.hekla_counters`.
pub fn bind(
    arguments: &(ast::Expr, ast::Expr),
    name: &str,
    column: usize,
    data_type: DataType,
    memory_optimized: bool,
    object_id: i32,
    counters: Arc<Table>,
) -> SqlResult<IdentityColumn> {
    let Some((min, max)) = integer_range(&data_type) else {
        return Err(SqlError::new(
            2749,
            16,
            2,
            format!("Identity column '{name}' must be of data type int, bigint, smallint, tinyint, or decimal or numeric with a scale of 0, unencrypted, and constrained to be nonnullable."),
        ));
    };
    let seed = constant_integer(&arguments.0)
        .filter(|seed| (min..=max).contains(seed))
        .ok_or_else(|| {
            SqlError::new(
                2752,
                16,
                2,
                format!("Identity column '{name}' contains invalid SEED."),
            )
        })?;
    let increment = constant_integer(&arguments.1)
        .filter(|&increment| increment != 0 && increment.unsigned_abs() <= (max - min) as u128)
        .ok_or_else(|| {
            SqlError::new(
                2753,
                16,
                2,
                format!("Identity column '{name}' contains invalid INCREMENT."),
            )
        })?;
    if memory_optimized && (seed != 1 || increment != 1) {
        // SQL Server supports IDENTITY on memory-optimized tables only as
        // IDENTITY(1, 1).
        return Err(SqlError::new(
            10794,
            16,
            1,
            "The feature 'IDENTITY with a seed or increment other than 1' is not supported with memory optimized tables.",
        ));
    }
    Ok(IdentityColumn {
        column,
        data_type,
        seed,
        increment,
        counter: Counter::new(object_id, counters),
    })
}

/// An integer written as a constant: digits, optionally signed (a decimal
/// literal with nothing but zeros after the point counts).
pub fn constant_integer(expr: &ast::Expr) -> Option<i128> {
    match &expr.kind {
        ast::ExprKind::Literal(ast::Literal::Integer(digits)) => digits.parse().ok(),
        ast::ExprKind::Literal(ast::Literal::Decimal(text)) => {
            let (whole, fraction) = text.split_once('.')?;
            if !fraction.chars().all(|c| c == '0') {
                return None;
            }
            if whole.is_empty() {
                Some(0)
            } else {
                whole.parse().ok()
            }
        }
        ast::ExprKind::Unary {
            op: ast::UnaryOp::Minus,
            operand,
        } => constant_integer(operand)?.checked_neg(),
        ast::ExprKind::Unary {
            op: ast::UnaryOp::Plus,
            operand,
        } => constant_integer(operand),
        _ => None,
    }
}
