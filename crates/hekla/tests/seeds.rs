//! The seed articles' T-SQL as a permanent test.
//!
//! `tests/seeds/` holds every T-SQL snippet of the five public articles the
//! project measures itself against, one file per snippet, named
//! `ARTICLE_POSITION_what.sql` and scaled to run in seconds. An article's
//! snippets run in order through the real `hekla sql -i` binary, in one
//! session on one data directory, as their author ran them in one query
//! window; what each prints must equal the checked-in `.out` file.
//!
//! A snippet's header comments say what the test expects beyond its output:
//! - `-- refused: N why`: hekla refuses part of the snippet with Msg N, for
//!   the reason given. The list of refusals is what is left to build.
//! - `-- error: N why`: the snippet fails with Msg N in SQL Server as well
//!   (the article's own mistake, or a consequence of an earlier refusal).
//! - `-- mask: TEXT`: on output lines containing TEXT, numbers vary from run
//!   to run (times, memory sizes) and are replaced by `#`; `-- mask: result
//!   rows` does so on every row of every result set. Lines with `CPU time`
//!   (SET STATISTICS TIME) are always masked.
//! - `-- new session`: the snippet starts a new `hekla sql` process on the
//!   same data directory, which recovers the database first (as after a
//!   restart).
//! - `-- fresh database`: the snippet starts on a new data directory, as
//!   the article starts a new database there.
//! - `-- stand-in`: the file is not the article's but hekla's stand-in for
//!   what the article omits (the sample's objects, its source tables); it
//!   does not count as a snippet.
//!
//! Every `Msg N` in the output must be declared by one of the first two, and
//! every declared number must occur. `HEKLA_BLESS=1 cargo test -p hekla
//! --test seeds` rewrites the `.out` files (`HEKLA_BLESS=NAME`: only files
//! whose name contains NAME) for review.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

/// One snippet file and what its header declares.
struct Snippet {
    path: PathBuf,
    name: String,
    article: String,
    refused: Vec<(u32, String)>,
    errors: Vec<(u32, String)>,
    masks: Vec<String>,
    new_session: bool,
    fresh_database: bool,
    stand_in: bool,
}

impl Snippet {
    fn load(path: PathBuf) -> Snippet {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let article = name.split('_').next().unwrap().to_string();
        let text = std::fs::read_to_string(&path).expect("readable snippet");
        let mut snippet = Snippet {
            path,
            name,
            article,
            refused: Vec::new(),
            errors: Vec::new(),
            masks: vec!["CPU time".to_string()],
            new_session: false,
            fresh_database: false,
            stand_in: false,
        };
        for line in text.lines().map(str::trim) {
            if let Some(rest) = line.strip_prefix("-- refused:") {
                snippet.refused.push(numbered(rest, &snippet.name));
            } else if let Some(rest) = line.strip_prefix("-- error:") {
                snippet.errors.push(numbered(rest, &snippet.name));
            } else if let Some(rest) = line.strip_prefix("-- mask:") {
                snippet.masks.push(rest.trim().to_string());
            } else if line == "-- new session" {
                snippet.new_session = true;
            } else if line == "-- fresh database" {
                snippet.fresh_database = true;
            } else if line == "-- stand-in" {
                snippet.stand_in = true;
            }
        }
        snippet
    }

    fn declared_numbers(&self) -> BTreeSet<u32> {
        self.refused
            .iter()
            .chain(&self.errors)
            .map(|(number, _)| *number)
            .collect()
    }
}

/// `N reason` from a header line.
fn numbered(rest: &str, file: &str) -> (u32, String) {
    let rest = rest.trim();
    let (number, reason) = rest.split_once(' ').unwrap_or((rest, ""));
    let number = number
        .parse()
        .unwrap_or_else(|_| panic!("{file}: `{rest}` must start with a message number"));
    assert!(
        !reason.trim().is_empty(),
        "{file}: Msg {number} needs a reason"
    );
    (number, reason.trim().to_string())
}

/// Runs `session`'s snippets in one `hekla sql` process and returns what
/// each printed. Between snippets it runs a PRINT of a marker line, which
/// splits the output.
fn run(session: &[&Snippet], data_dir: &Path, scratch: &Path) -> Vec<String> {
    let mut command = Command::new(env!("CARGO_BIN_EXE_hekla"));
    command.arg("sql").arg("--data-dir").arg(data_dir).arg("-i");
    for (position, snippet) in session.iter().enumerate() {
        if position > 0 {
            let marker = scratch.join(format!("marker-{position}.sql"));
            std::fs::write(&marker, format!("PRINT '{MARKER}'\n")).expect("writable scratch");
            command.arg(marker);
        }
        command.arg(&snippet.path);
    }
    let output = command.output().expect("hekla runs");
    let names: Vec<_> = session.iter().map(|s| s.name.as_str()).collect();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "{names:?}: hekla sql failed ({}): {stderr}",
        output.status
    );
    assert!(stderr.is_empty(), "{names:?}: stderr: {stderr}");
    let stdout = String::from_utf8(output.stdout).expect("UTF-8 output");
    let outputs: Vec<String> = stdout
        .split(&format!("{MARKER}\n"))
        .map(str::to_string)
        .collect();
    assert_eq!(outputs.len(), session.len(), "{names:?}: markers lost");
    outputs
}

/// The line that separates two snippets' output.
const MARKER: &str = "~~~~ next seed snippet ~~~~";

/// The mask that selects every row of every result set.
const RESULT_ROWS: &str = "result rows";

/// Replaces, on lines a mask selects, each run of digits (with the blanks
/// before it, whose width follows the number's) by ` #`.
fn mask(output: &str, masks: &[String]) -> String {
    let mut masked = String::with_capacity(output.len());
    // Rows run from a header's underline (dashes and blanks) to a blank line.
    let mut in_rows = false;
    for line in output.split_inclusive('\n') {
        let content = line.trim_end_matches('\n');
        let row = in_rows && !content.is_empty();
        in_rows = row || (content.contains('-') && content.chars().all(|c| c == '-' || c == ' '));
        let selected = masks.iter().any(|m| {
            if m == RESULT_ROWS {
                row
            } else {
                line.contains(m.as_str())
            }
        });
        if !selected {
            masked.push_str(line);
            continue;
        }
        let mut chars = line.chars().peekable();
        let mut blanks = String::new();
        while let Some(c) = chars.next() {
            if c == ' ' {
                blanks.push(c);
            } else if c.is_ascii_digit() {
                while chars
                    .peek()
                    .is_some_and(|&n| n.is_ascii_digit() || n == '.')
                {
                    chars.next();
                }
                masked.push_str(if blanks.is_empty() { "#" } else { " #" });
                blanks.clear();
            } else {
                masked.push_str(&blanks);
                blanks.clear();
                masked.push(c);
            }
        }
        masked.push_str(&blanks);
    }
    masked
}

/// What is wrong with a snippet's output: undeclared or missing errors, and
/// a difference from its `.out` file (which blessing rewrites instead).
fn check(snippet: &Snippet, actual: &str, bless: Option<&str>) -> Vec<String> {
    let mut problems = Vec::new();
    let seen = message_numbers(actual);
    let declared = snippet.declared_numbers();
    for number in seen.difference(&declared) {
        problems.push(format!("{}: undeclared Msg {number}", snippet.name));
    }
    for number in declared.difference(&seen) {
        problems.push(format!(
            "{}: declared Msg {number} did not occur",
            snippet.name
        ));
    }
    let expected_path = snippet.path.with_extension("out");
    if let Some(filter) = bless {
        if filter == "1" || snippet.name.contains(filter) {
            std::fs::write(&expected_path, actual).expect("writable");
        }
        return problems;
    }
    let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
    if expected != actual {
        let line = expected
            .lines()
            .zip(actual.lines())
            .position(|(e, a)| e != a)
            .unwrap_or(expected.lines().count().min(actual.lines().count()))
            + 1;
        problems.push(format!(
            "{}: line {line}\n  expected: {:?}\n  actual:   {:?}",
            snippet.name,
            expected.lines().nth(line - 1),
            actual.lines().nth(line - 1)
        ));
    }
    problems
}

/// The message numbers of `Msg N, Level ...` lines.
fn message_numbers(output: &str) -> BTreeSet<u32> {
    output
        .lines()
        .filter_map(|line| line.strip_prefix("Msg ")?.split(',').next()?.parse().ok())
        .collect()
}

#[test]
fn the_articles_t_sql_runs_as_they_show_it() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/seeds");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/seeds exists")
        .map(|entry| entry.expect("readable entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "sql"))
        .collect();
    paths.sort();
    let snippets: Vec<_> = paths.into_iter().map(Snippet::load).collect();
    assert!(snippets.len() >= 5, "every article has snippets");

    let bless = std::env::var("HEKLA_BLESS").ok();
    let root = std::env::temp_dir().join(format!("hekla-seeds-{}", std::process::id()));
    std::fs::create_dir_all(&root).expect("scratch directory");
    let mut problems = Vec::new();
    let mut data_dir = PathBuf::new();
    let mut position = 0;
    while position < snippets.len() {
        // A session: from here to the next snippet that starts one.
        let first = &snippets[position];
        let starts_session =
            |s: &Snippet| s.article != first.article || s.new_session || s.fresh_database;
        let end = position
            + 1
            + snippets[position + 1..]
                .iter()
                .take_while(|s| !starts_session(s))
                .count();
        let new_article = position == 0 || snippets[position - 1].article != first.article;
        if new_article || first.fresh_database {
            data_dir = root.join(format!("db-{position:03}"));
        }
        let session: Vec<&Snippet> = snippets[position..end].iter().collect();
        let outputs = run(&session, &data_dir, &root);
        for (snippet, output) in session.iter().zip(outputs) {
            let actual = mask(&output, &snippet.masks);
            problems.extend(check(snippet, &actual, bless.as_deref()));
        }
        position = end;
    }
    let _ = std::fs::remove_dir_all(&root);

    let articles: Vec<_> = snippets.iter().filter(|s| !s.stand_in).collect();
    let refused: Vec<_> = articles.iter().filter(|s| !s.refused.is_empty()).collect();
    eprintln!(
        "seeds: {} snippets of the articles (and {} stand-ins), {} run as the articles show them, {} with refusals:",
        articles.len(),
        snippets.len() - articles.len(),
        articles.len() - refused.len(),
        refused.len()
    );
    for snippet in &refused {
        for (number, why) in &snippet.refused {
            eprintln!("  {}: Msg {number}: {why}", snippet.name);
        }
    }
    assert!(
        problems.is_empty(),
        "{}\n(HEKLA_BLESS=1 regenerates the .out files)",
        problems.join("\n")
    );
}

#[test]
fn masking_hides_numbers_only_on_marked_lines() {
    let output = "Start time:  27 Nov 2026 08:38:33:050\n   42 rows\n";
    let masked = mask(output, &["Start time:".to_string()]);
    assert_eq!(masked, "Start time: # Nov # #:#:#:#\n   42 rows\n");
    let result = "size\n----\n  2312\n    17\n\n(2 rows affected)\n";
    assert_eq!(
        mask(result, &[RESULT_ROWS.to_string()]),
        "size\n----\n #\n #\n\n(2 rows affected)\n"
    );
    assert_eq!(
        message_numbers("Msg 911, Level 16, State 1, Line 1\nx\nMsg 208, Level 16"),
        BTreeSet::from([208, 911])
    );
}
