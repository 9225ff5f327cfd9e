//! sqlcmd's scripting variables: `:SETVAR name value` defines one, `-v
//! name=value` on the command line too, and `$(name)` in a line is
//! replaced by its value before the line joins its batch.
//!
//! sqlcmd's rules: names are case-insensitive, start with a letter or `_`
//! and go on with letters, digits, `_` or `-`; a value holding blanks is
//! written in double quotes, a quote inside doubled (`"a ""b"""`); `:SETVAR
//! name` alone removes the variable. A `:SETVAR` in the script overrides
//! `-v`, which overrides the environment. References are replaced in code
//! and inside quoted strings and brackets, but not in comments. An
//! undefined name is an error and the batch does not run.

use std::collections::HashMap;

/// The variables of one `hekla sql` run, by upper-cased name.
#[derive(Default)]
pub struct Variables {
    values: HashMap<String, String>,
}

impl Variables {
    /// `-v name=value`: the value is taken as given (the shell has already
    /// removed any quotes around it).
    pub fn define(&mut self, assignment: &str) -> Result<(), String> {
        let Some((name, value)) = assignment.split_once('=') else {
            return Err(format!("'-v {assignment}': expected name=value"));
        };
        let name = name.trim();
        check_name(name)?;
        self.values
            .insert(name.to_ascii_uppercase(), value.to_string());
        Ok(())
    }

    /// A line holding a sqlcmd command hekla runs: `Some(Ok(()))` once it
    /// has run, `Some(Err(message))` if it is malformed, `None` if the line
    /// is not one (it is T-SQL, or `GO`). `line` counts from the start of
    /// the input, for the message.
    pub fn command(&mut self, text: &str, line: usize) -> Option<Result<(), String>> {
        let text = text.trim_start();
        let rest = text
            .get(..7)
            .filter(|word| word.eq_ignore_ascii_case(":setvar"))
            .map(|_| &text[7..])?;
        if !rest.is_empty() && !rest.starts_with([' ', '\t']) {
            return None;
        }
        let syntax_error =
            || format!("Sqlcmd: Error: Syntax error at line {line} near command ':SETVAR'.");
        let rest = rest.trim();
        let (name, value) = match rest.find([' ', '\t']) {
            Some(blank) => (&rest[..blank], Some(rest[blank..].trim_start())),
            None => (rest, None),
        };
        if check_name(name).is_err() {
            return Some(Err(syntax_error()));
        }
        let key = name.to_ascii_uppercase();
        Some(match value.map(parse_value) {
            None => {
                self.values.remove(&key);
                Ok(())
            }
            Some(Some(value)) => {
                self.values.insert(key, value);
                Ok(())
            }
            Some(None) => Err(syntax_error()),
        })
    }

    /// `line` with its `$(name)` references replaced, given where the
    /// previous lines of the batch left off (`state`, updated to where this
    /// line leaves off).
    pub fn substitute(&self, line: &str, state: &mut Lexical) -> Result<String, String> {
        let mut out = String::with_capacity(line.len());
        let mut rest = line;
        while let Some(c) = rest.chars().next() {
            let next = rest[c.len_utf8()..].chars().next();
            match (*state, c, next) {
                (Lexical::Comment, '*', Some('/')) => {
                    *state = Lexical::Code;
                    out.push_str("*/");
                    rest = &rest[2..];
                    continue;
                }
                (Lexical::Comment, ..) => {}
                (_, '$', Some('(')) => {
                    let (value, after) = self.reference(&rest[2..])?;
                    out.push_str(&value);
                    rest = after;
                    continue;
                }
                (Lexical::Quoted(close), c, _) if c == close => *state = Lexical::Code,
                (Lexical::Quoted(_), ..) => {}
                (Lexical::Code, '-', Some('-')) => {
                    out.push_str(rest);
                    return Ok(out);
                }
                (Lexical::Code, '/', Some('*')) => {
                    *state = Lexical::Comment;
                    out.push_str("/*");
                    rest = &rest[2..];
                    continue;
                }
                (Lexical::Code, '\'', _) => *state = Lexical::Quoted('\''),
                (Lexical::Code, '"', _) => *state = Lexical::Quoted('"'),
                (Lexical::Code, '[', _) => *state = Lexical::Quoted(']'),
                (Lexical::Code, ..) => {}
            }
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
        Ok(out)
    }

    /// After `$(`: the value of the reference and the text after its `)`.
    fn reference<'a>(&self, after_open: &'a str) -> Result<(String, &'a str), String> {
        let Some(close) = after_open.find(')') else {
            return Err("Sqlcmd: Error: Syntax error: '$(' without its ')'.".to_string());
        };
        let name = &after_open[..close];
        if check_name(name).is_err() {
            return Err(format!(
                "Sqlcmd: Error: Syntax error: '$({name})' is not a variable reference."
            ));
        }
        let value = self
            .values
            .get(&name.to_ascii_uppercase())
            .cloned()
            .or_else(|| std::env::var(name).ok())
            .ok_or_else(|| format!("'{name}' scripting variable not defined."))?;
        Ok((value, &after_open[close + 1..]))
    }
}

/// Where a line starts: in code, inside a quoted string or bracketed name
/// (its closing character given), or inside a `/* */` comment. Strings and
/// comments may span lines.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Lexical {
    #[default]
    Code,
    Quoted(char),
    Comment,
}

impl Lexical {
    /// sqlcmd commands are recognised only on a line that starts in code.
    pub fn in_code(self) -> bool {
        self == Lexical::Code
    }
}

fn check_name(name: &str) -> Result<(), String> {
    let mut chars = name.chars();
    let first_ok = chars.next().is_some_and(|c| c.is_alphabetic() || c == '_');
    if first_ok && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '-') {
        Ok(())
    } else {
        Err(format!("'{name}' is not a valid scripting variable name"))
    }
}

/// A `:SETVAR` value: one word, or a double-quoted text whose doubled
/// quotes stand for one. `None` if it is neither.
fn parse_value(text: &str) -> Option<String> {
    let Some(quoted) = text.strip_prefix('"') else {
        return (!text.contains(char::is_whitespace)).then(|| text.to_string());
    };
    let inner = quoted.strip_suffix('"')?;
    let mut value = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c == '"' && chars.next() != Some('"') {
            return None;
        }
        value.push(c);
    }
    Some(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(variables: &Variables, lines: &[&str]) -> Result<Vec<String>, String> {
        let mut state = Lexical::Code;
        lines
            .iter()
            .map(|line| variables.substitute(line, &mut state))
            .collect()
    }

    #[test]
    fn setvar_defines_replaces_and_removes() {
        let mut variables = Variables::default();
        assert_eq!(variables.command(":SETVAR db hekla", 1), Some(Ok(())));
        assert_eq!(
            variables.command("  :setvar Note \"a \"\"b\"\" c\"", 2),
            Some(Ok(()))
        );
        assert_eq!(variables.command("SELECT 1", 3), None);
        assert_eq!(variables.command(":setvarx a b", 3), None);
        assert_eq!(
            run(&variables, &["USE $(DB) SELECT '$(note)', [$(db)]"]),
            Ok(vec!["USE hekla SELECT 'a \"b\" c', [hekla]".to_string()])
        );
        assert_eq!(variables.command(":SETVAR note", 4), Some(Ok(())));
        assert_eq!(
            run(&variables, &["SELECT '$(note)'"]),
            Err("'note' scripting variable not defined.".to_string())
        );
    }

    #[test]
    fn comments_are_left_alone() {
        let variables = Variables::default();
        let lines = ["SELECT 1 -- $(a)", "/* $(b)", " still $(c) */ SELECT 2"];
        assert_eq!(
            run(&variables, &lines),
            Ok(lines.iter().map(|line| line.to_string()).collect())
        );
        // A string spanning lines is still a string on the next line.
        assert!(run(&variables, &["SELECT 'x", "$(d)'"]).is_err());
    }

    #[test]
    fn malformed_commands_and_references_are_errors() {
        let mut variables = Variables::default();
        let error = "Sqlcmd: Error: Syntax error at line 7 near command ':SETVAR'.";
        assert_eq!(
            variables.command(":setvar a b c", 7),
            Some(Err(error.to_string()))
        );
        assert_eq!(
            variables.command(":setvar 1a b", 7),
            Some(Err(error.to_string()))
        );
        assert_eq!(
            variables.command(":setvar a \"b", 7),
            Some(Err(error.to_string()))
        );
        assert!(run(&variables, &["SELECT $(a"]).is_err());
        assert!(variables.define("x=1=2").is_ok());
        assert_eq!(run(&variables, &["$(X)"]), Ok(vec!["1=2".to_string()]));
        assert!(variables.define("no value").is_err());
    }
}
