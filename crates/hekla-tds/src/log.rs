//! Structured, leveled log lines on stderr:
//! `2026-11-27T12:00:00Z INFO  listening addr=127.0.0.1:1433`.
//! One line per event, written whole (so lines from many connections never
//! interleave) and unbuffered (nothing is lost at exit). Values with spaces
//! or quotes are quoted. Callers never pass passwords.

use std::fmt::Display;
use std::time::{SystemTime, UNIX_EPOCH};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    Error,
    Warn,
    Info,
    Debug,
}

impl Level {
    fn label(self) -> &'static str {
        match self {
            Level::Error => "ERROR",
            Level::Warn => "WARN ",
            Level::Info => "INFO ",
            Level::Debug => "DEBUG",
        }
    }
}

/// The most detailed level written: `HEKLA_LOG=debug` adds DEBUG lines.
fn max_level() -> Level {
    static LEVEL: std::sync::OnceLock<Level> = std::sync::OnceLock::new();
    *LEVEL.get_or_init(|| match std::env::var("HEKLA_LOG").as_deref() {
        Ok("debug") => Level::Debug,
        Ok("warn") => Level::Warn,
        Ok("error") => Level::Error,
        _ => Level::Info,
    })
}

pub fn log(level: Level, event: &str, fields: &[(&str, &dyn Display)]) {
    if level > max_level() {
        return;
    }
    let line = format_line(SystemTime::now(), level, event, fields);
    // One formatted piece per line, so it goes out in one write (and the
    // test harness captures it).
    eprint!("{line}");
}

pub fn error(event: &str, fields: &[(&str, &dyn Display)]) {
    log(Level::Error, event, fields)
}

pub fn warn(event: &str, fields: &[(&str, &dyn Display)]) {
    log(Level::Warn, event, fields)
}

pub fn info(event: &str, fields: &[(&str, &dyn Display)]) {
    log(Level::Info, event, fields)
}

pub fn debug(event: &str, fields: &[(&str, &dyn Display)]) {
    log(Level::Debug, event, fields)
}

fn format_line(
    now: SystemTime,
    level: Level,
    event: &str,
    fields: &[(&str, &dyn Display)],
) -> String {
    let mut line = format!("{} {} {event}", timestamp(now), level.label());
    for (name, value) in fields {
        let value = value.to_string();
        if value.is_empty() || value.contains([' ', '"', '=', '\n']) {
            line.push_str(&format!(" {name}={value:?}"));
        } else {
            line.push_str(&format!(" {name}={value}"));
        }
    }
    line.push('\n');
    line
}

/// UTC, to the second.
fn timestamp(now: SystemTime) -> String {
    let seconds = now.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let unix_epoch = hekla_types::Date::from_ymd(1970, 1, 1).map_or(0, |d| d.0);
    let date = hekla_types::Date(unix_epoch + (seconds / 86_400) as i32);
    let (year, month, day) = date.ymd();
    let of_day = seconds % 86_400;
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        of_day / 3600,
        of_day / 60 % 60,
        of_day % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn lines_have_a_time_a_level_and_fields() {
        let at = UNIX_EPOCH + Duration::from_secs(1_795_737_600 + 3 * 3600 + 61);
        let line = format_line(
            at,
            Level::Info,
            "listening",
            &[("addr", &"127.0.0.1:1433"), ("note", &"two words")],
        );
        assert_eq!(
            line,
            "2026-11-27T03:01:01Z INFO  listening addr=127.0.0.1:1433 note=\"two words\"\n"
        );
    }
}
