//! Evaluating built-in scalar functions on arguments the binder has
//! already converted: each family reads values of the types its binder
//! promised. Most functions are NULL when any argument is; [`strict`] says
//! which are not.
//!
//! Server time is UTC: GETDATE and SYSDATETIME equal their UTC twins.

mod date;
mod digest;
mod digits;
mod format;
pub(crate) mod matching;
mod math;
mod misc;
mod random;
mod string;

use hekla_plan::bind::functions::{Builtin, MathFn, MiscFn, StringFn};
use hekla_plan::session_options::SetOptions;
use hekla_types::convert::convert_from;
use hekla_types::{DataType, Length, SqlResult, Value};

/// `function` of `args`; DATEPART reads the session's DATEFIRST, ISDATE
/// its DATEFORMAT. The string functions that build large values
/// (REPLICATE, SPACE, REPLACE, STUFF, CONCAT, CONCAT_WS) may take at most
/// `memory` bytes for one (what the request's and the database's memory
/// limits leave, `Context::memory_for_value`): beyond, Msg 701.
pub fn evaluate(
    function: Builtin,
    args: &[Value],
    result_type: &DataType,
    options: &SetOptions,
    memory: u64,
) -> SqlResult<Value> {
    if strict(function) && args.iter().any(Value::is_null) {
        return Ok(Value::Null);
    }
    match function {
        Builtin::String(f) => string::evaluate(f, args, result_type, memory),
        Builtin::Date(f) => date::evaluate(f, args, result_type, options.date_first),
        Builtin::Math(f) => math::evaluate(f, args, result_type),
        Builtin::Misc(f) => misc::evaluate(f, args, result_type, options.date_format),
    }
}

/// Whether a NULL argument makes the result NULL without evaluating.
fn strict(function: Builtin) -> bool {
    !matches!(
        function,
        Builtin::String(StringFn::Concat | StringFn::ConcatWs | StringFn::Stuff | StringFn::Format)
            | Builtin::Math(MathFn::Rand)
            | Builtin::Misc(MiscFn::Checksum { .. } | MiscFn::IsNumeric | MiscFn::IsDate)
    )
}

/// A text argument (the binder converts them all to strings).
fn text(value: &Value) -> &str {
    match value {
        Value::String(text) => text,
        other => unreachable!("the binder converts text arguments, not {other:?}"),
    }
}

/// An integer argument (the binder converts counts to int or bigint).
fn integer(value: &Value) -> i64 {
    value
        .as_i64()
        .expect("the binder converts integer arguments")
}

/// A float argument.
fn float(value: &Value) -> f64 {
    match value {
        Value::Float(v) => *v,
        other => unreachable!("the binder converts to float, not {other:?}"),
    }
}

/// `text` as the result type holds it: cut to its length, Windows-1252
/// for varchar, as CAST does.
fn fit(text: String, result_type: &DataType) -> SqlResult<Value> {
    let source = DataType::NVarChar {
        len: Length::Max,
        collation: result_type.collation().unwrap_or_default(),
    };
    convert_from(&Value::String(text), &source, result_type, None)
}

/// An int or bigint result, as the binder typed it.
fn sized(count: i64, result_type: &DataType) -> Value {
    match result_type {
        DataType::BigInt => Value::BigInt(count),
        _ => Value::Int(i32::try_from(count).unwrap_or(i32::MAX)),
    }
}
