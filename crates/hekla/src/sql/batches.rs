//! Running input line by line as sqlcmd reads it: a `:SETVAR` line
//! defines a variable, `$(name)` references are replaced, and a `GO [n]`
//! line runs the batch gathered so far (n times).

use super::variables::{Lexical, Variables};
use hekla_parser::script::batch_separator;
use hekla_sql::result::ResultSink;
use hekla_sql::session::Session;
use hekla_sql::text_output::TextSink;
use std::io;

pub type Sink = TextSink<io::StdoutLock<'static>>;

/// Where batches run: an embedded session, or a server (`-S`).
pub trait Runner {
    fn execute(&mut self, batch: &str, sink: &mut dyn ResultSink);
    /// The link to the server broke: no later batch can run.
    fn connection_lost(&self) -> bool {
        false
    }
}

impl Runner for Session {
    fn execute(&mut self, batch: &str, sink: &mut dyn ResultSink) {
        Session::execute(self, batch, sink);
    }
}

/// What the input should do after a line.
#[derive(Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    /// sqlcmd stops a script at an error of its own (an undefined
    /// variable, a malformed command).
    Stop,
}

/// The batch being gathered and the variables of the run.
pub struct Batches<'a> {
    session: &'a mut dyn Runner,
    sink: &'a mut Sink,
    pub variables: Variables,
    pending: String,
    /// Where the next line of the batch starts.
    lexical: Lexical,
    /// Lines read, for the line numbers of messages.
    lines: usize,
    /// Errors of hekla sql itself (not of statements), reported to stderr.
    pub errors: usize,
}

impl<'a> Batches<'a> {
    pub fn new(session: &'a mut dyn Runner, sink: &'a mut Sink, variables: Variables) -> Self {
        Batches {
            session,
            sink,
            variables,
            pending: String::new(),
            lexical: Lexical::Code,
            lines: 0,
            errors: 0,
        }
    }

    /// Takes one line (without its line break). After an error the batch
    /// gathered so far is dropped.
    pub fn line(&mut self, line: &str) -> Flow {
        self.lines += 1;
        if let Some(count) = batch_separator(line) {
            self.run(count);
            return Flow::Continue;
        }
        let command = if self.lexical.in_code() {
            self.variables.command(line, self.lines)
        } else {
            None
        };
        let substituted = match command {
            Some(Ok(())) => return Flow::Continue,
            Some(Err(message)) => Err(message),
            None => self.variables.substitute(line, &mut self.lexical),
        };
        match substituted {
            Ok(text) => {
                self.pending.push_str(&text);
                self.pending.push('\n');
                Flow::Continue
            }
            Err(message) => {
                eprintln!("{message}");
                self.errors += 1;
                self.pending.clear();
                self.lexical = Lexical::Code;
                Flow::Stop
            }
        }
    }

    /// Every line of `script`; false if it stopped at an error.
    pub fn script(&mut self, script: &str) -> bool {
        for line in script.lines() {
            if self.line(line) == Flow::Stop {
                return false;
            }
        }
        self.run(1);
        true
    }

    /// Runs what is pending, `count` times.
    pub fn run(&mut self, count: u32) {
        if !self.pending.trim().is_empty() {
            for _ in 0..count {
                self.session.execute(&self.pending, self.sink);
            }
        }
        self.pending.clear();
        self.lexical = Lexical::Code;
    }
}
