//! Evaluating built-in scalar functions on already converted arguments.
//! Server time is UTC: GETDATE and SYSDATETIME equal their UTC twins.

use crate::bind::functions::Builtin;
use hekla_types::{ops, DataType, DateTime, DateTime2, SqlError, SqlResult, Value};
use std::time::{SystemTime, UNIX_EPOCH};

/// datetime2 ticks (100 ns since 0001-01-01) at the Unix epoch.
const UNIX_EPOCH_TICKS: i64 = 621_355_968_000_000_000;

pub fn evaluate(function: Builtin, args: &[Value], result_type: &DataType) -> SqlResult<Value> {
    if args.iter().any(Value::is_null) {
        return Ok(Value::Null);
    }
    let text = || match &args[0] {
        Value::String(text) => text.as_str(),
        _ => unreachable!("the binder converts string arguments"),
    };
    let count = |index: usize| {
        args[index]
            .as_i64()
            .expect("the binder converts counts to bigint")
    };
    Ok(match function {
        Builtin::Len => Value::Int(text().trim_end_matches(' ').chars().count() as i32),
        Builtin::Upper => Value::String(text().to_uppercase()),
        Builtin::Lower => Value::String(text().to_lowercase()),
        Builtin::LTrim => Value::String(text().trim_start_matches(' ').to_string()),
        Builtin::RTrim => Value::String(text().trim_end_matches(' ').to_string()),
        Builtin::Trim => Value::String(text().trim_matches(' ').to_string()),
        Builtin::Substring => {
            let length = count(2);
            if length < 0 {
                return Err(invalid_length("SUBSTRING"));
            }
            // Characters start..start+length, 1-based, clipped to the text.
            let start = count(1);
            let first = start.max(1);
            let end = start.saturating_add(length);
            let taken = (end - first).max(0);
            Value::String(chars(text(), first - 1, taken))
        }
        Builtin::Left => {
            let length = count(1);
            if length < 0 {
                return Err(invalid_length("LEFT"));
            }
            Value::String(chars(text(), 0, length))
        }
        Builtin::Right => {
            let length = count(1);
            if length < 0 {
                return Err(invalid_length("RIGHT"));
            }
            let total = text().chars().count() as i64;
            Value::String(chars(text(), (total - length).max(0), length))
        }
        Builtin::Abs => absolute(&args[0], result_type)?,
        Builtin::SysDateTime | Builtin::SysUtcDateTime => Value::DateTime2(now()),
        Builtin::GetDate | Builtin::GetUtcDate => Value::DateTime(
            DateTime::from_datetime2(now()).expect("now is within datetime's range"),
        ),
        Builtin::Year | Builtin::Month | Builtin::Day => {
            let Value::DateTime2(moment) = &args[0] else {
                unreachable!("the binder converts to datetime2");
            };
            let (year, month, day) = moment.date.ymd();
            Value::Int(match function {
                Builtin::Year => year,
                Builtin::Month => month as i32,
                _ => day as i32,
            })
        }
    })
}

/// `count` characters of `text` from character `skip` (0-based).
fn chars(text: &str, skip: i64, count: i64) -> String {
    text.chars()
        .skip(usize::try_from(skip).unwrap_or(0))
        .take(usize::try_from(count).unwrap_or(0))
        .collect()
}

fn absolute(value: &Value, data_type: &DataType) -> SqlResult<Value> {
    let negative = match value {
        Value::TinyInt(_) | Value::Bit(_) => false,
        Value::SmallInt(v) => *v < 0,
        Value::Int(v) => *v < 0,
        Value::BigInt(v) => *v < 0,
        Value::Decimal(v) => v.mantissa < 0,
        Value::Money(v) => v.0 < 0,
        Value::Float(v) => *v < 0.0,
        Value::Real(v) => *v < 0.0,
        _ => false,
    };
    if negative {
        ops::negate(value, data_type)
    } else {
        Ok(value.clone())
    }
}

fn now() -> DateTime2 {
    let since_epoch = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    let ticks = i64::try_from(since_epoch.as_nanos() / 100).unwrap_or(0);
    DateTime2::from_ticks(UNIX_EPOCH_TICKS + ticks)
}

/// Msg 537.
fn invalid_length(function: &str) -> SqlError {
    SqlError::new(
        537,
        16,
        3,
        format!("Invalid length parameter passed to the {function} function."),
    )
}
