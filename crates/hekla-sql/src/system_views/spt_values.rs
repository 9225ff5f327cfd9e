//! `master.dbo.spt_values`, SQL Server's lookup table, of which scripts
//! use the type 'P' rows: the numbers 0 to 2047, cross joined to make
//! rows. Each P row also decodes a bit of a bitmap, as sp_ procedures use
//! it: `low` is the byte (from 1) that holds bit `number`, `high` the
//! bit's value within that byte.

use super::context::SystemContext;
use super::shared::{int, nchar, not_null, nullable, nvarchar, padded};
use super::{Scope, SystemView, ViewColumn};
use hekla_types::{DataType, SqlResult, Value};

/// The numbers of the P rows: 0..=LAST_NUMBER.
pub const LAST_NUMBER: i32 = 2047;

pub const SPT_VALUES: SystemView = SystemView {
    schema: "dbo",
    name: "spt_values",
    scope: Scope::Master,
    columns: spt_values_columns,
    rows: spt_values_rows,
};

fn spt_values_columns() -> Vec<ViewColumn> {
    vec![
        nullable("name", nvarchar(35)),
        not_null("number", DataType::Int),
        not_null("type", nchar(3)),
        nullable("low", DataType::Int),
        nullable("high", DataType::Int),
        nullable("status", DataType::Int),
    ]
}

fn spt_values_rows(_: &dyn SystemContext) -> SqlResult<Vec<Vec<Value>>> {
    Ok((0..=LAST_NUMBER)
        .map(|number| {
            vec![
                Value::Null,
                int(number),
                padded("P", 3),
                int(number / 8 + 1),
                int(1 << (number % 8)),
                int(0),
            ]
        })
        .collect())
}
