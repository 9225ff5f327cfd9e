//! `hekla sql`: a sqlcmd-like runner on a local data directory (no server),
//! or on a `hekla serve` server with sqlcmd's `-S -U -P [-d] [-N] [-C]`.
//! `-Q` runs a query and exits, `-i` runs script files, and with neither it
//! reads batches from standard input: at a terminal with sqlcmd's numbered
//! prompt (`1>`, `2>` ...), line editing and a history kept across runs,
//! where `GO` runs the batch and `EXIT` leaves. sqlcmd's scripting
//! variables work in all three (`:SETVAR`, `-v`, `$(name)`).

pub(crate) mod batches;
pub(crate) mod first_value;
pub(crate) mod remote;
mod variables;

use batches::{Batches, Flow};
use clap::Args;
use hekla_engine::{DatabaseConfig, StorageConfig};
use hekla_sql::session::SqlDatabase;
use hekla_sql::text_output::{TextOptions, TextSink};
use remote::ConnectionArgs;
use std::collections::VecDeque;
use std::io::{self, BufRead, IsTerminal};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// sqlcmd's flags: `-h` is the headers option there, so help is `-?` or
/// `--help`.
#[derive(Args)]
#[command(disable_help_flag = true)]
pub struct SqlArgs {
    /// Print help.
    #[arg(short = '?', long = "help", action = clap::ArgAction::Help)]
    help: Option<bool>,
    /// The database directory (created if missing).
    #[arg(
        long,
        value_name = "DIR",
        required_unless_present = "server",
        conflicts_with = "server"
    )]
    data_dir: Option<PathBuf>,
    #[command(flatten)]
    connection: ConnectionArgs,
    /// Run this query (batches separated by GO lines) and exit.
    #[arg(
        short = 'Q',
        long = "query",
        value_name = "SQL",
        conflicts_with = "input"
    )]
    query: Option<String>,
    /// Run these script files in order and exit.
    #[arg(short = 'i', long = "input", value_name = "FILE", num_args = 1..)]
    input: Vec<PathBuf>,
    /// Column separator.
    #[arg(short = 's', long = "separator", default_value = " ")]
    separator: String,
    /// Remove trailing blanks: columns as wide as their values.
    #[arg(short = 'W', long = "trim")]
    trim: bool,
    /// The workstation name the server shows as HOST_NAME() (with -S).
    #[arg(short = 'H', long = "workstation", requires = "server")]
    workstation: Option<String>,
    /// Headers: -1 turns them off (sqlcmd's -h).
    #[arg(
        short = 'h',
        long = "headers",
        default_value_t = 0,
        allow_negative_numbers = true
    )]
    headers: i32,
    /// Width shown for max types.
    #[arg(short = 'y', long = "variable-width", default_value_t = 256)]
    variable_width: usize,
    /// Scripting variables for `$(name)`: `-v name=value ...`.
    #[arg(short = 'v', long = "variable", value_name = "NAME=VALUE", num_args = 1..)]
    variables: Vec<String>,
    /// Exit with status 1 if any statement failed (sqlcmd's -b).
    #[arg(short = 'b', long = "fail-on-error")]
    fail_on_error: bool,
    /// The most memory the database's memory-optimized tables may take, in
    /// MiB (past it: Msg 41805, and 701 for a query's large values).
    /// Default: a share of physical memory, as SQL Server sizes it.
    #[arg(long = "memory-limit-mb", value_name = "MIB", conflicts_with = "server", value_parser = clap::value_parser!(u64).range(1..))]
    memory_limit_mb: Option<u64>,
}

pub fn run(args: SqlArgs) -> Result<(), String> {
    let target = args
        .connection
        .target("hekla sql", args.workstation.as_deref());
    match (target, &args.data_dir) {
        (Some(target), _) => {
            let mut session = remote::RemoteSession::connect(&target)?;
            run_batches(&args, &mut session)
        }
        (None, Some(dir)) => {
            let db = open_database(dir, args.memory_limit_mb)?;
            let mut session = db.session().map_err(|e| e.message)?;
            run_batches(&args, &mut session)
        }
        (None, None) => Err("give --data-dir DIR or -S server".to_string()),
    }
}

/// Opens (creating if needed) the database in `dir` in this process, as
/// `--data-dir` does; `memory_limit_mb` caps its memory-optimized tables.
pub(crate) fn open_database(
    dir: &Path,
    memory_limit_mb: Option<u64>,
) -> Result<Arc<SqlDatabase>, String> {
    let mut config = DatabaseConfig::default();
    if let Some(mib) = memory_limit_mb {
        config.memory_limit_bytes = mib.saturating_mul(1 << 20);
    }
    SqlDatabase::open(dir, config, StorageConfig::default())
        .map_err(|e| format!("cannot open {}: {}", dir.display(), e.message))
}

/// Runs the query, the scripts or standard input on `session`.
fn run_batches(args: &SqlArgs, session: &mut dyn batches::Runner) -> Result<(), String> {
    let options = TextOptions {
        separator: args.separator.clone(),
        trim: args.trim,
        variable_width: args.variable_width,
        headers: args.headers != -1,
    };
    let mut variables = variables::Variables::default();
    for assignment in &args.variables {
        variables.define(assignment)?;
    }
    let mut sink = TextSink::new(io::stdout().lock(), options);
    let mut batches = Batches::new(session, &mut sink, variables);
    if let Some(query) = &args.query {
        batches.script(query);
    } else if !args.input.is_empty() {
        for path in &args.input {
            let script = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            if !batches.script(&script) {
                break;
            }
        }
    } else {
        read_batches(&mut batches)?;
    }
    let errors = batches.errors + sink.error_count();
    if let Some(error) = sink.finish().1 {
        if error.kind() != io::ErrorKind::BrokenPipe {
            return Err(error.to_string());
        }
    }
    if args.fail_on_error && errors > 0 {
        return Err(format!("{errors} statement(s) failed"));
    }
    Ok(())
}

/// Standard input, batch by batch: a line holding only `GO` (or `GO n`)
/// runs what came before; `EXIT` or `QUIT` (or the end of input) runs what
/// is pending and stops. At a terminal, sqlcmd's numbered prompt shows,
/// with line editing and a history kept across runs (see [`Lines`]). An
/// error of sqlcmd's own (an undefined variable) drops the batch; it ends
/// piped input, as it ends a script, but not a terminal session.
fn read_batches(batches: &mut Batches) -> Result<(), String> {
    let mut lines = Lines::open()?;
    let mut line_number = 1;
    while let Some(line) = lines.next(line_number)? {
        let command = line.trim();
        if command.eq_ignore_ascii_case("exit") || command.eq_ignore_ascii_case("quit") {
            break;
        }
        line_number += 1;
        let flow = batches.line(&line);
        if hekla_parser::script::batch_separator(&line).is_some() || flow == Flow::Stop {
            line_number = 1;
        }
        if flow == Flow::Stop && !lines.is_terminal() {
            lines.close();
            return Ok(());
        }
    }
    batches.run(1);
    lines.close();
    Ok(())
}

/// Where interactive input comes from: a line editor at a terminal (arrow
/// keys, history in `$HEKLA_HISTORY` or `~/.hekla_history`), plain lines
/// otherwise (pipes and files, no prompt).
///
/// Lines pasted or typed ahead at a terminal must not be lost: the editor
/// keeps what it read past the end of a line for the next one (rustyline's
/// `buffer-redux` feature, without which each line's read-ahead is
/// dropped), and a paste the terminal brackets arrives as one entry of
/// several lines, which `pasted` hands out one line at a time.
enum Lines {
    Terminal {
        editor: Box<rustyline::DefaultEditor>,
        history: Option<PathBuf>,
        pasted: VecDeque<String>,
    },
    Piped(io::Lines<io::StdinLock<'static>>),
}

/// Lines kept in the history file.
const HISTORY_LINES: usize = 1000;

impl Lines {
    fn open() -> Result<Lines, String> {
        if !io::stdin().is_terminal() {
            return Ok(Lines::Piped(io::stdin().lock().lines()));
        }
        let config = rustyline::Config::builder()
            .max_history_size(HISTORY_LINES)
            .map_err(|e| e.to_string())?
            .auto_add_history(true)
            .build();
        let mut editor = rustyline::DefaultEditor::with_config(config)
            .map_err(|e| format!("cannot start the line editor: {e}"))?;
        let history = std::env::var_os("HEKLA_HISTORY")
            .map(PathBuf::from)
            .or_else(|| {
                std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".hekla_history"))
            });
        if let Some(path) = &history {
            // A missing history file is the first run, not an error.
            let _ = editor.load_history(path);
        }
        Ok(Lines::Terminal {
            editor: Box::new(editor),
            history,
            pasted: VecDeque::new(),
        })
    }

    /// The next line, after the prompt `n> ` at a terminal; None at the
    /// end of input (Ctrl-D). Ctrl-C abandons the line being typed.
    fn next(&mut self, number: usize) -> Result<Option<String>, String> {
        match self {
            Lines::Piped(lines) => lines
                .next()
                .transpose()
                .map_err(|e| format!("cannot read standard input: {e}")),
            Lines::Terminal { pasted, .. } if !pasted.is_empty() => Ok(pasted.pop_front()),
            Lines::Terminal { editor, pasted, .. } => loop {
                match editor.readline(&format!("{number}> ")) {
                    Ok(entry) => {
                        pasted.extend(entry.split('\n').map(str::to_string));
                        return Ok(pasted.pop_front());
                    }
                    Err(rustyline::error::ReadlineError::Interrupted) => continue,
                    Err(rustyline::error::ReadlineError::Eof) => return Ok(None),
                    Err(error) => return Err(format!("cannot read the terminal: {error}")),
                }
            },
        }
    }

    fn is_terminal(&self) -> bool {
        matches!(self, Lines::Terminal { .. })
    }

    /// Saves the history of a terminal session.
    fn close(self) {
        if let Lines::Terminal {
            mut editor,
            history: Some(path),
            ..
        } = self
        {
            if let Err(error) = editor.save_history(&path) {
                eprintln!(
                    "hekla sql: cannot save history to {}: {error}",
                    path.display()
                );
            }
        }
    }
}
