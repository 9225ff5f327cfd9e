//! THROW and RAISERROR: user errors with SQL Server's rules. THROW always
//! has severity 16 and ends the batch; RAISERROR formats its message
//! printf-style, ends only its statement (even with XACT_ABORT ON), and
//! at severity 10 or below is a message, not an error.

use super::failure::{Failure, Reach};
use super::{Frame, Interpreter};
use hekla_parser::ast;
use hekla_plan::result::ErrorEvent;
use hekla_types::{Collation, DataType, Length, SqlError, SqlResult, Value};

/// Longest RAISERROR message; longer ones are cut and end in "...".
const MAX_MESSAGE: usize = 2047;
/// Most substitution arguments RAISERROR takes.
const MAX_ARGUMENTS: usize = 20;

impl Interpreter<'_> {
    /// `THROW` (rethrowing the error its CATCH block handles) or
    /// `THROW number, message, state`.
    pub(super) fn throw(
        &mut self,
        arguments: Option<&[ast::Expr; 3]>,
        statement: &ast::Statement,
        frame: &mut Frame,
    ) -> Failure {
        let event = match arguments {
            None => match &self.session.state.caught {
                Some(caught) => (**caught).clone(),
                None => return self.failure(rethrow_outside_catch(), statement, frame),
            },
            Some(arguments) => match self.thrown_error(arguments, frame) {
                Ok(error) => ErrorEvent {
                    error,
                    line: statement.span.line,
                    procedure: frame.procedure.clone(),
                },
                Err(error) => return self.failure(error, statement, frame),
            },
        };
        Failure::classify(event, frame.level, self.session.options.xact_abort, true)
    }

    fn thrown_error(&mut self, arguments: &[ast::Expr; 3], frame: &Frame) -> SqlResult<SqlError> {
        let number = self.value(&arguments[0], &DataType::Int, frame)?;
        let message = self.value(&arguments[1], &text_type(2048), frame)?;
        let state = self.value(&arguments[2], &DataType::Int, frame)?;
        let number = number.as_i64().unwrap_or(0);
        if number < 50000 {
            return Err(SqlError::new(
                35100,
                16,
                10,
                format!("Error number {number} in the THROW statement is outside the valid range. Specify an error number in the valid range of 50000 to 2147483647."),
            ));
        }
        let state = state.as_i64().unwrap_or(-1);
        let Ok(state) = u8::try_from(state) else {
            return Err(SqlError::new(
                35101,
                16,
                10,
                format!("Error state {state} in the THROW statement is outside the valid range. Specify a state in the valid range of 0 to 255."),
            ));
        };
        let message = match message {
            Value::String(text) => text,
            _ => String::new(),
        };
        Ok(SqlError::new(number as u32, 16, state, message))
    }

    /// `RAISERROR (message, severity, state [, argument ...]) [WITH ...]`:
    /// Ok(()) when it is only a message (severity 10 or below).
    pub(super) fn raiserror(
        &mut self,
        arguments: &[ast::Expr],
        options: &[ast::Ident],
        statement: &ast::Statement,
        frame: &mut Frame,
    ) -> Result<(), Failure> {
        let raised = self
            .raised_error(arguments, options, frame)
            .map_err(|error| self.failure(error, statement, frame))?;
        let sets_error = options
            .iter()
            .any(|option| option.value.eq_ignore_ascii_case("SETERROR"));
        if raised.severity <= 10 {
            self.sink.message(&raised.message);
            self.session.state.error = if sets_error { raised.number as i32 } else { 0 };
            return Ok(());
        }
        self.session.state.error = raised.number as i32;
        let event = ErrorEvent {
            error: raised,
            line: statement.span.line,
            procedure: frame.procedure.clone(),
        };
        // RAISERROR ends only its statement, whatever XACT_ABORT says.
        let mut failure = Failure::classify(event, frame.level, false, false);
        failure.reach = Reach::Statement;
        Err(failure)
    }

    fn raised_error(
        &mut self,
        arguments: &[ast::Expr],
        options: &[ast::Ident],
        frame: &Frame,
    ) -> SqlResult<SqlError> {
        if let Some(option) = options.iter().find(|option| {
            !["LOG", "NOWAIT", "SETERROR"]
                .iter()
                .any(|known| option.value.eq_ignore_ascii_case(known))
        }) {
            return Err(SqlError::new(
                155,
                15,
                1,
                format!("'{}' is not a recognized RAISERROR option.", option.value),
            ));
        }
        if arguments.len() < 3 {
            return Err(SqlError::new(102, 15, 1, "Incorrect syntax near ')'."));
        }
        if arguments.len() - 3 > MAX_ARGUMENTS {
            return Err(SqlError::new(
                2747,
                16,
                1,
                format!("Too many substitution parameters for RAISERROR. Cannot exceed {MAX_ARGUMENTS} substitution parameters."),
            ));
        }
        let format = self.plain_value(&arguments[0], frame)?;
        let severity = self.value(&arguments[1], &DataType::Int, frame)?;
        let state = self.value(&arguments[2], &DataType::Int, frame)?;
        let severity = severity.as_i64().unwrap_or(0).max(0);
        if severity > 18 {
            return Err(SqlError::new(
                2754,
                16,
                1,
                "Error severity levels greater than 18 can only be specified by members of the sysadmin role, using the WITH LOG option.",
            ));
        }
        let state = state.as_i64().unwrap_or(1);
        let state = if state < 0 { 1 } else { state.min(255) } as u8;
        let (number, format) = match format {
            Value::String(text) => (50000, text),
            other => {
                return Err(message_number_error(
                    other.as_i64().unwrap_or(0),
                    severity,
                    state,
                ))
            }
        };
        let substitutions = arguments[3..]
            .iter()
            .map(|argument| self.plain_value(argument, frame))
            .collect::<SqlResult<Vec<_>>>()?;
        let message = printf(&format, &substitutions)?;
        Ok(SqlError::new(number, severity as u8, state, cut(message)))
    }
}

/// RAISERROR with a message number: hekla has no `sp_addmessage`, so no
/// number has a message (Msg 18054), and SQL Server's own range is closed
/// (Msg 2732).
fn message_number_error(number: i64, severity: i64, state: u8) -> SqlError {
    if number < 13000 || number == 50000 {
        return SqlError::new(
            2732,
            16,
            1,
            format!("Error number {number} is invalid. The number must be from 13000 through 2147483647 and it cannot be 50000."),
        );
    }
    SqlError::new(
        18054,
        16,
        1,
        format!("Error {number}, severity {severity}, state {state} was raised, but no message with that error number was found in sys.messages. If error is larger than 50000, make sure the user-defined message is added using sp_addmessage."),
    )
}

fn rethrow_outside_catch() -> SqlError {
    SqlError::new(
        10704,
        15,
        1,
        "To rethrow an error, a THROW statement must be used inside a CATCH block. Insert the THROW statement inside a CATCH block, or add error parameters to the THROW statement.",
    )
}

fn text_type(length: u32) -> DataType {
    DataType::NVarChar {
        len: Length::Bounded(length),
        collation: Collation::default(),
    }
}

fn cut(message: String) -> String {
    if message.chars().count() <= MAX_MESSAGE {
        return message;
    }
    let mut cut: String = message.chars().take(MAX_MESSAGE - 3).collect();
    cut.push_str("...");
    cut
}

/// One `%[flags][width][.precision][h|l]type` specification.
#[derive(Default)]
struct Spec {
    left: bool,
    plus: bool,
    space: bool,
    zero: bool,
    alternate: bool,
    width: Option<usize>,
    precision: Option<usize>,
}

/// RAISERROR's printf: `%d %i %u %o %x %X %s` and `%%`; `*` takes a width
/// or precision from the arguments. A missing argument prints `(null)`.
fn printf(format: &str, arguments: &[Value]) -> SqlResult<String> {
    let mut out = String::new();
    let mut chars = format.chars().peekable();
    let mut arguments = Arguments {
        values: arguments,
        used: 0,
    };
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        if chars.peek() == Some(&'%') {
            chars.next();
            out.push('%');
            continue;
        }
        let mut spec = Spec::default();
        while let Some(&flag) = chars.peek() {
            match flag {
                '-' => spec.left = true,
                '+' => spec.plus = true,
                ' ' => spec.space = true,
                '0' => spec.zero = true,
                '#' => spec.alternate = true,
                _ => break,
            }
            chars.next();
        }
        spec.width = number_or_star(&mut chars, &mut arguments);
        if chars.peek() == Some(&'.') {
            chars.next();
            spec.precision = Some(number_or_star(&mut chars, &mut arguments).unwrap_or(0));
        }
        if matches!(chars.peek(), Some('h' | 'l' | 'I')) {
            chars.next();
            // `I64`: a 64-bit size prefix.
            if chars.peek() == Some(&'6') {
                chars.next();
                chars.next();
            }
        }
        let Some(kind) = chars.next() else {
            break;
        };
        let position = arguments.used + 1;
        let text = match (kind, arguments.take()) {
            (_, None | Some(Value::Null)) => "(null)".to_string(),
            ('d' | 'i' | 'u' | 'o' | 'x' | 'X', Some(value)) => {
                let number = value.as_i64().ok_or_else(|| mismatch(position))?;
                integer(number, kind, &spec)
            }
            ('s', Some(Value::String(text))) => match spec.precision {
                Some(precision) => text.chars().take(precision).collect(),
                None => text.clone(),
            },
            ('s', Some(_)) => return Err(mismatch(position)),
            (other, _) => {
                return Err(SqlError::new(
                    2787,
                    16,
                    1,
                    format!("Invalid format specification: '%{other}'."),
                ))
            }
        };
        out.push_str(&pad(text, &spec));
    }
    Ok(out)
}

/// The substitution arguments, taken in order.
struct Arguments<'a> {
    values: &'a [Value],
    used: usize,
}

impl<'a> Arguments<'a> {
    fn take(&mut self) -> Option<&'a Value> {
        self.used += 1;
        self.values.get(self.used - 1)
    }
}

fn number_or_star(
    chars: &mut std::iter::Peekable<std::str::Chars>,
    arguments: &mut Arguments,
) -> Option<usize> {
    if chars.peek() == Some(&'*') {
        chars.next();
        return arguments
            .take()
            .and_then(Value::as_i64)
            .map(|n| usize::try_from(n).unwrap_or(0));
    }
    let mut digits = String::new();
    while let Some(&c) = chars.peek().filter(|c| c.is_ascii_digit()) {
        digits.push(c);
        chars.next();
    }
    digits.parse().ok()
}

fn integer(number: i64, kind: char, spec: &Spec) -> String {
    let digits = match kind {
        'o' => format!("{:o}", number as u32),
        'x' => format!("{:x}", number as u32),
        'X' => format!("{:X}", number as u32),
        'u' => (number as u32).to_string(),
        _ => number.abs().to_string(),
    };
    let digits = match spec.precision {
        Some(precision) if digits.len() < precision => {
            format!("{}{digits}", "0".repeat(precision - digits.len()))
        }
        _ => digits,
    };
    let sign = match kind {
        'd' | 'i' if number < 0 => "-",
        'd' | 'i' if spec.plus => "+",
        'd' | 'i' if spec.space => " ",
        _ => "",
    };
    let prefix = match kind {
        'o' if spec.alternate => "0",
        'x' if spec.alternate => "0x",
        'X' if spec.alternate => "0X",
        _ => "",
    };
    match spec.width {
        Some(width) if spec.zero && !spec.left => {
            let used = sign.len() + prefix.len() + digits.len();
            let zeros = "0".repeat(width.saturating_sub(used));
            format!("{sign}{prefix}{zeros}{digits}")
        }
        _ => format!("{sign}{prefix}{digits}"),
    }
}

/// Pads to the width, on the left unless `-` asks for the right.
fn pad(text: String, spec: &Spec) -> String {
    let length = text.chars().count();
    match spec.width {
        Some(width) if width > length => {
            let fill = " ".repeat(width - length);
            if spec.left {
                text + &fill
            } else {
                fill + &text
            }
        }
        _ => text,
    }
}

fn mismatch(position: usize) -> SqlError {
    SqlError::new(
        2786,
        16,
        1,
        format!("The data type of substitution parameter {position} does not match the expected type of the format specification."),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn format(text: &str, arguments: &[Value]) -> String {
        printf(text, arguments).unwrap()
    }

    #[test]
    fn substitutes_like_sql_server() {
        let s = |t: &str| Value::String(t.to_string());
        assert_eq!(
            format("%d rows in %s", &[Value::Int(5), s("t")]),
            "5 rows in t"
        );
        assert_eq!(format("[%5d]", &[Value::Int(42)]), "[   42]");
        assert_eq!(format("[%-5d]", &[Value::Int(42)]), "[42   ]");
        assert_eq!(format("[%05d]", &[Value::Int(-42)]), "[-0042]");
        assert_eq!(format("[%+d]", &[Value::Int(7)]), "[+7]");
        assert_eq!(
            format(
                "[%x %X %#o]",
                &[Value::Int(255), Value::Int(255), Value::Int(8)]
            ),
            "[ff FF 010]"
        );
        assert_eq!(format("[%.3s]", &[s("abcdef")]), "[abc]");
        assert_eq!(format("[%*d]", &[Value::Int(4), Value::Int(1)]), "[   1]");
        assert_eq!(format("100%% %s", &[]), "100% (null)");
        assert_eq!(format("%u", &[Value::Int(-1)]), "4294967295");
    }

    #[test]
    fn refuses_mismatched_arguments() {
        let error = printf("%d", &[Value::String("x".into())]).unwrap_err();
        assert_eq!(error.number, 2786);
        let error = printf("%s", &[Value::Int(1)]).unwrap_err();
        assert_eq!(error.number, 2786);
    }
}
