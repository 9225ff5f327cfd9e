//! `SET option ON | OFF`, `SET option1, option2 ON | OFF`, `SET
//! STATISTICS IO, TIME ON` and the options that take a value (`SET
//! TEXTSIZE 2147483647`, `SET DATEFORMAT dmy`, `SET LANGUAGE
//! N'us_english'`, `SET ROWCOUNT @n` ...), read with SQL Server's errors
//! and applied to a session's [`SetOptions`].
//!
//! A statement changes all its options or, on an error, none. Options
//! SQL Server has but hekla cannot honour (QUOTED_IDENTIFIER OFF,
//! NUMERIC_ROUNDABORT ON ...) are refused with Msg 10794 rather than
//! accepted and ignored. SQL Server finds some of these errors when it
//! parses the batch (102, 195); hekla finds them when the statement runs.

use hekla_parser::ast::{Expr, ExprKind, Ident, Literal, OptionValue, UnaryOp};
use hekla_plan::error::{not_supported_yet, Refused};
use hekla_plan::session_options::{SetOptions, LANGUAGE, MAX_TEXT_SIZE};
use hekla_types::datetime::DateFormat;
use hekla_types::{SqlError, SqlResult, Value};

/// Evaluates a variable given as a value (`SET ROWCOUNT @n`).
pub type ReadVariable<'r> = dyn FnMut(&Expr) -> SqlResult<Value> + 'r;

/// Applies `SET names value` to `options`. Returns the message SQL Server
/// answers with, if any (SET LANGUAGE's Msg 5703).
pub fn apply(
    options: &mut SetOptions,
    names: &[Ident],
    value: &OptionValue,
    read: &mut ReadVariable,
) -> SqlResult<Option<String>> {
    let Some((first, rest)) = names.split_first() else {
        return Ok(None);
    };
    if first.value.eq_ignore_ascii_case("STATISTICS") {
        return statistics(options, first, rest, value).map(|()| None);
    }
    if rest.is_empty() {
        if let Some(setting) = Setting::named(&first.value) {
            return setting.apply(options, first, value, read);
        }
    }
    let on = switch(value);
    let mut toggles = Vec::with_capacity(names.len());
    for name in names {
        match Toggle::named(&name.value) {
            Some(toggle) => toggles.push((name, toggle)),
            None if Setting::named(&name.value).is_some() => return Err(syntax_near(name, 1)),
            None => return Err(unrecognized(name, on.is_some())),
        }
    }
    let Some(on) = on else {
        return Err(syntax_near(first, 4));
    };
    for (name, toggle) in &toggles {
        toggle.check(name, on)?;
    }
    for (_, toggle) in toggles {
        toggle.set(options, on);
    }
    Ok(None)
}

/// An ON/OFF option and what hekla does with it.
enum Toggle {
    /// Kept in [`SetOptions`].
    Field(fn(&mut SetOptions) -> &mut bool),
    /// Accepted either way; nothing in hekla depends on it (FORCEPLAN:
    /// joins already run in the order written).
    NoEffect,
    /// hekla always runs with it ON (true) or OFF (false): that value is
    /// accepted, the other refused.
    Fixed(bool),
    /// ANSI_DEFAULTS: ON sets the options [`SetOptions::ansi_defaults`]
    /// lists; OFF is refused.
    AnsiDefaults,
}

impl Toggle {
    fn named(name: &str) -> Option<Toggle> {
        use Toggle::*;
        Some(match name.to_ascii_uppercase().as_str() {
            "NOCOUNT" => Field(|o| &mut o.nocount),
            "SHOWPLAN_TEXT" => Field(|o| &mut o.showplan),
            "XACT_ABORT" => Field(|o| &mut o.xact_abort),
            "IMPLICIT_TRANSACTIONS" => Field(|o| &mut o.implicit_transactions),
            "ANSI_NULLS" => Field(|o| &mut o.ansi_nulls),
            "ANSI_WARNINGS" => Field(|o| &mut o.ansi_warnings),
            "ARITHABORT" => Field(|o| &mut o.arithabort),
            "ARITHIGNORE" => Field(|o| &mut o.arithignore),
            "CONCAT_NULL_YIELDS_NULL" => Field(|o| &mut o.concat_null_yields_null),
            "CURSOR_CLOSE_ON_COMMIT" => Field(|o| &mut o.cursor_close_on_commit),
            "FORCEPLAN" => NoEffect,
            // OFF changes how the batch parses ("x" becomes a string), or
            // how columns are created and stored.
            "QUOTED_IDENTIFIER" | "ANSI_PADDING" | "ANSI_NULL_DFLT_ON" => Fixed(true),
            "ANSI_NULL_DFLT_OFF"
            | "NUMERIC_ROUNDABORT"
            | "NOEXEC"
            | "PARSEONLY"
            | "FMTONLY"
            | "SHOWPLAN_ALL"
            | "SHOWPLAN_XML"
            | "REMOTE_PROC_TRANSACTIONS"
            | "NO_BROWSETABLE"
            | "DISABLE_DEF_CNST_CHK" => Fixed(false),
            // OFF would turn QUOTED_IDENTIFIER off too.
            "ANSI_DEFAULTS" => AnsiDefaults,
            _ => return None,
        })
    }

    /// Msg 10794 for a value hekla cannot run with.
    fn check(&self, name: &Ident, on: bool) -> SqlResult<()> {
        let refused = match self {
            Toggle::Fixed(value) => *value != on,
            Toggle::AnsiDefaults => !on,
            Toggle::Field(_) | Toggle::NoEffect => false,
        };
        if refused {
            let value = if on { "ON" } else { "OFF" };
            return Err(not_supported_yet(
                Refused::Statement,
                format!("SET {} {value}", name.value.to_ascii_uppercase()),
            ));
        }
        Ok(())
    }

    fn set(&self, options: &mut SetOptions, on: bool) {
        match self {
            Toggle::Field(field) => *field(options) = on,
            Toggle::AnsiDefaults if on => options.set_ansi_defaults(),
            _ => {}
        }
    }
}

/// `SET STATISTICS IO | TIME | XML | PROFILE [, ...] ON | OFF`. IO and
/// TIME add messages (see `statistics`); XML and PROFILE add result sets,
/// and are refused ON. All of them change, or (on an error) none.
fn statistics(
    options: &mut SetOptions,
    keyword: &Ident,
    kinds: &[Ident],
    value: &OptionValue,
) -> SqlResult<()> {
    let Some(on) = switch(value) else {
        return Err(syntax_near(keyword, 4));
    };
    let (mut io, mut time) = (options.statistics_io, options.statistics_time);
    for kind in kinds {
        match kind.value.to_ascii_uppercase().as_str() {
            "IO" => io = on,
            "TIME" => time = on,
            "XML" | "PROFILE" if on => {
                return Err(not_supported_yet(
                    Refused::Statement,
                    format!("SET STATISTICS {} ON", kind.value.to_ascii_uppercase()),
                ))
            }
            "XML" | "PROFILE" => {}
            _ => return Err(syntax_near(kind, 1)),
        }
    }
    options.statistics_io = io;
    options.statistics_time = time;
    Ok(())
}

/// The options that take a value.
#[derive(Clone, Copy)]
enum Setting {
    TextSize,
    RowCount,
    LockTimeout,
    DateFirst,
    DateFormat,
    Language,
    DeadlockPriority,
    QueryGovernorCostLimit,
    FipsFlagger,
    /// CONTEXT_INFO, OFFSETS, IDENTITY_INSERT: refused.
    Unsupported,
}

impl Setting {
    fn named(name: &str) -> Option<Setting> {
        use Setting::*;
        Some(match name.to_ascii_uppercase().as_str() {
            "TEXTSIZE" => TextSize,
            "ROWCOUNT" => RowCount,
            "LOCK_TIMEOUT" => LockTimeout,
            "DATEFIRST" => DateFirst,
            "DATEFORMAT" => DateFormat,
            "LANGUAGE" => Language,
            "DEADLOCK_PRIORITY" => DeadlockPriority,
            "QUERY_GOVERNOR_COST_LIMIT" => QueryGovernorCostLimit,
            "FIPS_FLAGGER" => FipsFlagger,
            "CONTEXT_INFO" | "OFFSETS" | "IDENTITY_INSERT" => Unsupported,
            _ => return None,
        })
    }

    fn apply(
        self,
        options: &mut SetOptions,
        name: &Ident,
        value: &OptionValue,
        read: &mut ReadVariable,
    ) -> SqlResult<Option<String>> {
        let upper = name.value.to_ascii_uppercase();
        match self {
            // 0 is SQL Server's default of 4 KB; -1 (any negative) the
            // largest size.
            Setting::TextSize => {
                let Some(size) = literal_integer(value) else {
                    return Err(syntax_error(&value.to_string(), 1));
                };
                options.text_size = match size {
                    0 => 4096,
                    negative if negative < 0 => MAX_TEXT_SIZE,
                    _ => i32::try_from(size).unwrap_or(MAX_TEXT_SIZE),
                };
            }
            Setting::RowCount => {
                options.row_count = match given(value, read)? {
                    Given::Integer(count) if (0..=i64::from(i32::MAX)).contains(&count) => {
                        count as u64
                    }
                    _ => {
                        return Err(SqlError::new(
                            507,
                            16,
                            2,
                            "Invalid argument for SET ROWCOUNT. Must be a non-null non-negative integer.",
                        ))
                    }
                };
            }
            Setting::LockTimeout => {
                options.lock_timeout = literal_integer(value)
                    .and_then(|timeout| i32::try_from(timeout).ok())
                    .ok_or_else(|| syntax_error(&upper, 3))?;
            }
            // hekla estimates no costs, so only "no limit" can be kept.
            Setting::QueryGovernorCostLimit => match literal_integer(value) {
                Some(0) => {}
                Some(limit) => {
                    return Err(not_supported_yet(
                        Refused::Statement,
                        format!("SET {upper} {limit}"),
                    ))
                }
                None => return Err(syntax_error(&upper, 3)),
            },
            Setting::DateFirst => {
                options.date_first = match given(value, read)? {
                    Given::Integer(day @ 1..=7) => day as u8,
                    Given::Integer(day) => {
                        return Err(SqlError::new(
                            2742,
                            16,
                            1,
                            format!("SET DATEFIRST {day} is out of range."),
                        ))
                    }
                    _ => return Err(requires("SET DATEFIRST", "integer", 3)),
                };
            }
            Setting::DateFormat => {
                let Some(text) = given(value, read)?.text() else {
                    return Err(requires("SET DATEFORMAT", "character string", 2));
                };
                options.date_format = DateFormat::parse(&text).ok_or_else(|| {
                    SqlError::new(
                        2741,
                        16,
                        1,
                        format!("SET DATEFORMAT date order '{text}' is invalid."),
                    )
                })?;
            }
            // us_english, also called English, is the one language hekla
            // has messages in.
            Setting::Language => {
                let Some(text) = given(value, read)?.text() else {
                    return Err(requires("SET LANGUAGE", "character string", 2));
                };
                if !text.eq_ignore_ascii_case(LANGUAGE) && !text.eq_ignore_ascii_case("English") {
                    return Err(SqlError::new(
                        2740,
                        16,
                        1,
                        format!("SET LANGUAGE failed because '{text}' is not an official language name or a language alias on this SQL Server."),
                    ));
                }
                options.use_us_english();
                return Ok(Some(format!("Changed language setting to {LANGUAGE}.")));
            }
            Setting::DeadlockPriority => {
                let given = given(value, read)?;
                let priority = match (&given, given.text()) {
                    (Given::Integer(priority @ -10..=10), _) => Some(*priority as i32),
                    (_, Some(word)) => match word.to_ascii_uppercase().as_str() {
                        "LOW" => Some(-5),
                        "NORMAL" => Some(0),
                        "HIGH" => Some(5),
                        _ => None,
                    },
                    _ => None,
                };
                options.deadlock_priority = priority.ok_or_else(|| {
                    SqlError::new(
                        2755,
                        16,
                        1,
                        "SET DEADLOCK_PRIORITY option is invalid. Valid options are {HIGH | NORMAL | LOW | [-10 ... 10] of type integer}.",
                    )
                })?;
            }
            Setting::FipsFlagger => {
                if switch(value) != Some(false) {
                    return Err(not_supported_yet(
                        Refused::Statement,
                        format!("SET {upper} {value}"),
                    ));
                }
            }
            Setting::Unsupported => {
                return Err(not_supported_yet(
                    Refused::Statement,
                    format!("SET {upper}"),
                ))
            }
        }
        Ok(None)
    }
}

/// A value as a SET option reads it.
enum Given {
    /// A bare or bracketed word: `mdy`, `LOW`, `[British English]`.
    Word(String),
    /// An integer literal (signed) or an integer variable.
    Integer(i64),
    /// A string literal or string variable.
    Text(String),
    Null,
    /// Any other literal or variable type.
    Other,
}

impl Given {
    fn text(&self) -> Option<String> {
        match self {
            Given::Word(text) | Given::Text(text) => Some(text.clone()),
            _ => None,
        }
    }
}

fn given(value: &OptionValue, read: &mut ReadVariable) -> SqlResult<Given> {
    let expr = match value {
        OptionValue::Words(words) => {
            let text: Vec<&str> = words.iter().map(|w| w.value.as_str()).collect();
            let text = text.join(" ");
            return Ok(if text.eq_ignore_ascii_case("NULL") {
                Given::Null
            } else {
                Given::Word(text)
            });
        }
        OptionValue::Expr(expr) => expr,
        OptionValue::List(_) => return Ok(Given::Other),
    };
    if let Some(integer) = literal_integer(value) {
        return Ok(Given::Integer(integer));
    }
    Ok(match &expr.kind {
        ExprKind::Literal(Literal::String { value, .. }) => Given::Text(value.clone()),
        ExprKind::Literal(Literal::Null) => Given::Null,
        ExprKind::Variable(_) => match read(expr)? {
            Value::String(text) => Given::Text(text),
            Value::Null => Given::Null,
            integer @ (Value::TinyInt(_)
            | Value::SmallInt(_)
            | Value::Int(_)
            | Value::BigInt(_)) => integer.as_i64().map_or(Given::Other, Given::Integer),
            _ => Given::Other,
        },
        _ => Given::Other,
    })
}

/// An integer literal, with its sign: `100`, `-1`.
fn literal_integer(value: &OptionValue) -> Option<i64> {
    let OptionValue::Expr(expr) = value else {
        return None;
    };
    match &expr.kind {
        ExprKind::Literal(Literal::Integer(digits)) => digits.parse().ok(),
        ExprKind::Unary {
            op: UnaryOp::Minus,
            operand,
        } => match &operand.kind {
            ExprKind::Literal(Literal::Integer(digits)) => digits.parse::<i64>().ok().map(|n| -n),
            _ => None,
        },
        _ => None,
    }
}

/// ON or OFF.
fn switch(value: &OptionValue) -> Option<bool> {
    match value {
        OptionValue::Words(words) if words.len() == 1 => {
            match words[0].value.to_ascii_uppercase().as_str() {
                "ON" => Some(true),
                "OFF" => Some(false),
                _ => None,
            }
        }
        _ => None,
    }
}

/// Msg 195: SQL Server has no option of that name. Its state says what
/// followed the name: 5 for ON or OFF, 7 for a value.
fn unrecognized(name: &Ident, switched: bool) -> SqlError {
    SqlError::new(
        195,
        15,
        if switched { 5 } else { 7 },
        format!("'{}' is not a recognized SET option.", name.value),
    )
}

fn syntax_near(name: &Ident, state: u8) -> SqlError {
    syntax_error(&name.value, state)
}

fn syntax_error(near: &str, state: u8) -> SqlError {
    SqlError::new(102, 15, state, format!("Incorrect syntax near '{near}'."))
}

/// Msg 2743: a value of the wrong kind.
fn requires(statement: &str, kind: &str, state: u8) -> SqlError {
    SqlError::new(
        2743,
        16,
        state,
        format!("{statement} option requires {kind} parameter."),
    )
}
