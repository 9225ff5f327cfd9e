//! Differential test: the same queries run on hekla and on PostgreSQL 15,
//! and their results must agree.
//!
//! The test starts its own throw-away PostgreSQL cluster (`initdb` into a
//! temporary directory, `postgres` listening on a Unix socket in that
//! directory only, `fsync=off`), loads the same deterministic data set into
//! it and into an in-memory hekla database, runs every query of
//! `tests/differential/queries.sql` on both, renders the rows as text the
//! same way on both sides and compares them. The cluster is stopped and its
//! directory removed when the test ends, also when it fails.
//!
//! PostgreSQL is found through `HEKLA_PG_BIN` (a directory holding
//! `initdb`, `pg_ctl` and `psql`), else `/usr/lib/postgresql/15/bin`, else
//! the newest `/usr/lib/postgresql/*/bin`. Without it the test prints
//! "skipped: ..." to stderr and passes, unless `HEKLA_REQUIRE_POSTGRES=1`,
//! when it fails (CI sets it). Run as root, the PostgreSQL programs run as
//! the `postgres` user (or `nobody`) through `runuser`, since `initdb`
//! refuses root.
//!
//! `HEKLA_DIFFERENTIAL_ONLY=name,name` runs only the named queries,
//! `HEKLA_DIFFERENTIAL_QUERIES=path` another query file (for exploring),
//! and `HEKLA_DIFFERENTIAL_VERBOSE=1` prints every query's row counts or
//! errors.
//!
//! # The query file
//!
//! Entries end with a line `-- ;`. Each starts with directive comments:
//!
//! - `-- name: <id>`: required, unique; names the query in reports.
//! - `-- ordered`: compare rows in order (the query has an ORDER BY that
//!   fixes a total order). Without it rows compare as multisets.
//! - `-- empty`: the query returns no rows on purpose. Any other query
//!   must return rows: one that returns nothing on both sides proves
//!   little, so it fails.
//! - `-- error`: the query fails on both sides (division by zero, an
//!   overflow, a subquery returning several rows); the messages are not
//!   compared.
//! - `-- pg-replace: <from> => <to>`: a textual substitution that turns
//!   the T-SQL text into PostgreSQL's (each must match at least once).
//! - `-- pg: <line>`: PostgreSQL's text in full instead, one `-- pg:` line
//!   per line of it.
//! - `-- known-difference: <reason>`: the results differ because of a
//!   hekla bug or a piece hekla has not built yet, described in `tests/differential/known_differences.md`.
//!   The query still runs and the difference is printed, but it does not
//!   fail the test; if the results come to agree, the test fails so that
//!   the marker goes.
//!
//! Other `--` lines are comments. The rest is the query, run as hekla's
//! T-SQL text.
//!
//! # Portability rules for queries and data
//!
//! The two systems differ on purpose in places; queries stay in the common
//! subset or bridge the gap with a `pg-replace`/`pg` line:
//!
//! - Strings are lowercase ASCII letters and digits only, without trailing
//!   spaces: hekla's default collation is SQL Server's case-insensitive
//!   one (`'a' = 'A'`, and it orders and groups that way) and ignores
//!   trailing spaces, while the cluster uses the byte-wise C collation.
//! - NULLs sort first ascending and last descending in T-SQL, the other
//!   way round in PostgreSQL: ORDER BY (and window ORDER BY) over a key
//!   that can be NULL says `NULLS FIRST`/`NULLS LAST` on the PostgreSQL
//!   side through `pg-replace`.
//! - `AVG` of an integer is an integer in T-SQL (truncated toward zero)
//!   and numeric in PostgreSQL: PostgreSQL's side says
//!   `TRUNC(AVG(x))::int`, or the query uses `SUM(x) / COUNT(x)` (integer
//!   division on both). `AVG` of a decimal is cast to a fixed scale.
//! - `CAST(x AS int)` of a decimal or float truncates in T-SQL and rounds
//!   in PostgreSQL: PostgreSQL's side says `TRUNC(x)::int`.
//! - `TOP (n)` becomes `LIMIT n` on PostgreSQL's side; `OFFSET ... ROWS
//!   FETCH NEXT ... ROWS ONLY` is written once for both.
//! - `+` on strings becomes `||`; `LEN` becomes `LENGTH`; `ISNULL` becomes
//!   `COALESCE`; `^` (bitwise exclusive or) becomes `#`.
//! - No boolean or bit columns in results (PostgreSQL prints `t`/`f`); use
//!   `CASE WHEN ... THEN 1 ELSE 0 END`.
//! - Column names are not compared (PostgreSQL folds and invents them).
//!
//! # How values compare
//!
//! Both sides become text per cell: NULL as `<NULL>`, integers as digits,
//! strings as they are, bit as 0/1. Any cell that reads as a decimal number
//! loses trailing zeros after the point (`1.50` and `1.5000` are `1.5`).
//! Cells that are both numbers and not both integers are equal within a
//! relative tolerance of 1e-9 (floats summed in another order). Unordered
//! results are sorted on both sides before comparing.

use hekla_sql::session::{ErrorEvent, ResultColumn, ResultSink, SqlDatabase};
use hekla_types::Value;
use std::io::Write;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

/// How a NULL cell reads on both sides.
const NULL: &str = "<NULL>";
/// psql's field separator (ASCII unit separator); records end with NUL.
const FIELD_SEPARATOR: char = '\u{1f}';
/// INSERT statements carry this many rows each.
const ROWS_PER_INSERT: usize = 100;

type Rows = Vec<Vec<String>>;

fn differential_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/differential")
}

#[test]
fn hekla_agrees_with_postgres() {
    let require = std::env::var("HEKLA_REQUIRE_POSTGRES").is_ok_and(|v| v == "1");
    let verbose = std::env::var_os("HEKLA_DIFFERENTIAL_VERBOSE").is_some();
    let started = Instant::now();
    let file = std::env::var_os("HEKLA_DIFFERENTIAL_QUERIES")
        .map_or_else(|| differential_dir().join("queries.sql"), PathBuf::from);
    let label = file
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let mut queries = parse_queries(&read(&file), &label);
    if let Ok(names) = std::env::var("HEKLA_DIFFERENTIAL_ONLY") {
        let names: Vec<&str> = names.split(',').map(str::trim).collect();
        queries.retain(|q| names.contains(&q.name.as_str()));
    }
    let data = DataSet::generate();

    let cluster = match PgCluster::start() {
        Ok(cluster) => cluster,
        Err(Unavailable(reason)) => {
            assert!(
                !require,
                "HEKLA_REQUIRE_POSTGRES=1 but PostgreSQL cannot run: {reason}"
            );
            eprintln!("differential: skipped: {reason}");
            return;
        }
    };
    eprintln!(
        "differential: {} (cluster in {})",
        cluster.version,
        cluster.dir.display()
    );
    let pg_schema = read(&differential_dir().join("schema.pg.sql"));
    cluster
        .run_script(&format!("{pg_schema}\n{}", data.inserts(";\n")))
        .unwrap_or_else(|e| panic!("loading PostgreSQL failed:\n{e}"));

    let db = SqlDatabase::in_memory().expect("in-memory database");
    let mut session = db.session().expect("session");
    let hekla_schema = read(&differential_dir().join("schema.hekla.sql"));
    for (what, batch) in [("schema", hekla_schema), ("data", data.inserts("\n"))] {
        let mut sink = Collect::default();
        session.execute(&batch, &mut sink);
        assert!(
            sink.errors.is_empty(),
            "loading hekla's {what} failed:\n{}",
            sink.errors.join("\n")
        );
    }

    let mut failures = Vec::new();
    let mut known = Vec::new();
    for query in &queries {
        let mut sink = Collect::default();
        session.execute(&query.hekla, &mut sink);
        let hekla = sink.into_rows();
        let postgres = cluster.query(&query.pg);
        if verbose {
            let show = |side: &Result<Rows, String>| match side {
                Ok(rows) => format!("{} rows", rows.len()),
                Err(e) => e.lines().last().unwrap_or_default().to_string(),
            };
            eprintln!(
                "differential: {}: hekla {}; postgres {}",
                query.name,
                show(&hekla),
                show(&postgres)
            );
        }
        let verdict = compare(query, hekla, postgres);
        match (&query.known_difference, verdict) {
            (None, None) => {}
            (None, Some(diff)) => failures.push(format!("{}\n{diff}", query.title())),
            (Some(reason), Some(diff)) => known.push(format!(
                "{} [known difference: {reason}]\n{diff}",
                query.title()
            )),
            (Some(_), None) => failures.push(format!(
                "{}\n  marked known-difference, but the results now agree: remove the \
                 marker (and its entry in known_differences.md)",
                query.title()
            )),
        }
    }
    for entry in &known {
        eprintln!("differential: {entry}");
    }
    eprintln!(
        "differential: {} queries, {} agree, {} known differences, {} failures ({:.1} s)",
        queries.len(),
        queries.len() - known.len() - failures.len(),
        known.len(),
        failures.len(),
        started.elapsed().as_secs_f64()
    );
    assert!(
        failures.is_empty(),
        "hekla and PostgreSQL disagree:\n\n{}",
        failures.join("\n\n")
    );
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

// ---------------------------------------------------------------------------
// The query file

struct Query {
    name: String,
    /// Where it is: the query file's name and the line of `-- name:`.
    file: String,
    line: usize,
    hekla: String,
    pg: String,
    ordered: bool,
    empty: bool,
    error: bool,
    known_difference: Option<String>,
}

impl Query {
    fn title(&self) -> String {
        format!("query `{}` ({}:{})", self.name, self.file, self.line)
    }
}

fn parse_queries(text: &str, file: &str) -> Vec<Query> {
    let mut queries: Vec<Query> = Vec::new();
    let mut entry: Vec<(usize, &str)> = Vec::new();
    for (index, line) in text.lines().enumerate() {
        if line.trim() == "-- ;" {
            if let Some(query) = parse_entry(file, &entry) {
                assert!(
                    queries.iter().all(|q| q.name != query.name),
                    "{file}:{}: duplicate name `{}`",
                    query.line,
                    query.name
                );
                queries.push(query);
            }
            entry.clear();
        } else {
            entry.push((index + 1, line));
        }
    }
    assert!(
        entry
            .iter()
            .all(|(_, line)| line.trim().is_empty() || line.trim_start().starts_with("--")),
        "{file}: text after the last `-- ;`"
    );
    assert!(!queries.is_empty(), "{file} holds no queries");
    queries
}

/// One entry; None for one holding only comments.
fn parse_entry(file: &str, lines: &[(usize, &str)]) -> Option<Query> {
    let mut name = None;
    let mut ordered = false;
    let mut empty = false;
    let mut error = false;
    let mut known_difference = None;
    let mut replacements = Vec::new();
    let mut pg_lines = Vec::new();
    let mut body = Vec::new();
    let mut first_line = None;
    for &(number, line) in lines {
        let trimmed = line.trim();
        let directive = trimmed.strip_prefix("-- ");
        if let Some(value) = directive.and_then(|d| d.strip_prefix("name:")) {
            name = Some(value.trim().to_string());
            first_line = Some(number);
        } else if directive == Some("ordered") {
            ordered = true;
        } else if directive == Some("empty") {
            empty = true;
        } else if directive == Some("error") {
            error = true;
        } else if let Some(value) = directive.and_then(|d| d.strip_prefix("known-difference:")) {
            known_difference = Some(value.trim().to_string());
        } else if let Some(value) = directive.and_then(|d| d.strip_prefix("pg-replace:")) {
            let (from, to) = value
                .split_once("=>")
                .unwrap_or_else(|| panic!("{file}:{number}: pg-replace needs `from => to`"));
            replacements.push((number, from.trim().to_string(), to.trim().to_string()));
        } else if let Some(value) = trimmed.strip_prefix("-- pg:") {
            pg_lines.push(value.strip_prefix(' ').unwrap_or(value).to_string());
        } else if trimmed.starts_with("--") || trimmed.is_empty() {
            // A comment.
        } else {
            body.push(line);
        }
    }
    if body.is_empty() {
        assert!(
            name.is_none(),
            "{file}:{}: entry without a query",
            first_line.unwrap_or(0)
        );
        return None;
    }
    let line = first_line.unwrap_or(lines[0].0);
    let name = name.unwrap_or_else(|| panic!("{file}:{line}: entry without `-- name:`"));
    let hekla = body.join("\n");
    assert!(
        !ordered || hekla.to_uppercase().contains("ORDER BY"),
        "{file}:{line}: `{name}` is marked ordered but has no ORDER BY"
    );
    assert!(
        pg_lines.is_empty() || replacements.is_empty(),
        "{file}:{line}: `{name}` has both `pg:` and `pg-replace:`"
    );
    let mut pg = if pg_lines.is_empty() {
        hekla.clone()
    } else {
        pg_lines.join("\n")
    };
    for (number, from, to) in replacements {
        assert!(
            pg.contains(&from),
            "{file}:{number}: pg-replace `{from}` does not occur in `{name}`"
        );
        pg = pg.replace(&from, &to);
    }
    Some(Query {
        name,
        file: file.to_string(),
        line,
        hekla,
        pg,
        ordered,
        empty,
        error,
        known_difference,
    })
}

// ---------------------------------------------------------------------------
// Comparing

/// None when both sides agree, else a description of the difference.
fn compare(
    query: &Query,
    hekla: Result<Rows, String>,
    postgres: Result<Rows, String>,
) -> Option<String> {
    let (mut hekla, mut postgres) = match (hekla, postgres) {
        (Err(_), Err(_)) if query.error => return None,
        (Ok(h), Ok(p)) if !query.error => (h, p),
        (h, p) => {
            let show = |side: Result<Rows, String>| match side {
                Ok(rows) if query.error => format!("{} rows, expected an error", rows.len()),
                Ok(rows) => format!("{} rows", rows.len()),
                Err(e) => format!("error: {}", e.trim_end().replace('\n', "\n      ")),
            };
            return Some(format!(
                "  hekla:    {}\n  postgres: {}\n{}",
                show(h),
                show(p),
                texts(query)
            ));
        }
    };
    if !query.ordered {
        hekla.sort();
        postgres.sort();
    }
    let same =
        hekla.len() == postgres.len() && hekla.iter().zip(&postgres).all(|(h, p)| rows_equal(h, p));
    if same {
        return match (query.empty, hekla.is_empty()) {
            (false, true) => Some(format!(
                "  no rows on either side: make the query return rows, or mark it `-- empty`\n{}",
                texts(query)
            )),
            (true, false) => Some(format!(
                "  marked `-- empty` but both sides return {} rows\n{}",
                hekla.len(),
                texts(query)
            )),
            _ => None,
        };
    }
    let mut out = format!(
        "  hekla: {} rows, postgres: {} rows ({})\n",
        hekla.len(),
        postgres.len(),
        if query.ordered {
            "in order"
        } else {
            "as multisets"
        }
    );
    if query.ordered {
        let at = hekla
            .iter()
            .zip(&postgres)
            .position(|(h, p)| !rows_equal(h, p))
            .unwrap_or(hekla.len().min(postgres.len()));
        out += &format!("  first difference at row {}:\n", at + 1);
        for (label, rows) in [("hekla:   ", &hekla), ("postgres:", &postgres)] {
            for row in rows.iter().skip(at).take(3) {
                out += &format!("    {label} {}\n", row.join(" | "));
            }
        }
    } else {
        let (only_hekla, only_postgres) = multiset_difference(&hekla, &postgres);
        for (label, rows) in [
            ("only in hekla:   ", only_hekla),
            ("only in postgres:", only_postgres),
        ] {
            out += &format!("  {label} {} rows\n", rows.len());
            for row in rows.iter().take(8) {
                out += &format!("    {}\n", row.join(" | "));
            }
        }
    }
    out += &texts(query);
    Some(out)
}

fn texts(query: &Query) -> String {
    let mut out = format!(
        "  T-SQL:      {}",
        query.hekla.replace('\n', "\n              ")
    );
    if query.pg != query.hekla {
        out += &format!(
            "\n  PostgreSQL: {}",
            query.pg.replace('\n', "\n              ")
        );
    }
    out
}

/// Rows of each sorted side that the other lacks.
fn multiset_difference<'a>(
    a: &'a Rows,
    b: &'a Rows,
) -> (Vec<&'a Vec<String>>, Vec<&'a Vec<String>>) {
    let (mut i, mut j) = (0, 0);
    let (mut only_a, mut only_b) = (Vec::new(), Vec::new());
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && rows_equal(&a[i], &b[j]) {
            i += 1;
            j += 1;
        } else if j == b.len() || (i < a.len() && a[i] < b[j]) {
            only_a.push(&a[i]);
            i += 1;
        } else {
            only_b.push(&b[j]);
            j += 1;
        }
    }
    (only_a, only_b)
}

fn rows_equal(a: &[String], b: &[String]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| cells_equal(x, y))
}

fn cells_equal(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    let approximate = |s: &str| s.contains(['.', 'e', 'E']) || s.ends_with("inf");
    if !(approximate(a) || approximate(b)) {
        return false;
    }
    match (a.parse::<f64>(), b.parse::<f64>()) {
        (Ok(x), Ok(y)) => (x - y).abs() <= 1e-9 * x.abs().max(y.abs()).max(1.0),
        _ => false,
    }
}

/// The text both sides' cells are compared as: decimals without trailing
/// fractional zeros, `-0` as `0`.
fn canonical(text: String) -> String {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let unsigned = text.strip_prefix('-').unwrap_or(&text);
    let decimal = match unsigned.split_once('.') {
        Some((whole, fraction)) => digits(whole) && digits(fraction),
        None => false,
    };
    let mut text = if decimal {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    };
    if text == "-0" {
        text = "0".to_string();
    }
    text
}

// ---------------------------------------------------------------------------
// hekla's side

/// Collects one query's rows (every result set's) and errors as text.
#[derive(Default)]
struct Collect {
    result_sets: usize,
    rows: Rows,
    errors: Vec<String>,
}

impl Collect {
    fn into_rows(self) -> Result<Rows, String> {
        if !self.errors.is_empty() {
            return Err(self.errors.join("\n"));
        }
        if self.result_sets != 1 {
            return Err(format!("{} result sets, expected 1", self.result_sets));
        }
        Ok(self.rows)
    }
}

impl ResultSink for Collect {
    fn columns(&mut self, _columns: &[ResultColumn]) {
        self.result_sets += 1;
    }

    fn row(&mut self, values: &[Value]) {
        self.rows.push(values.iter().map(render).collect());
    }

    fn done(&mut self, _rows: Option<u64>) {}

    fn message(&mut self, _text: &str) {}

    fn error(&mut self, error: &ErrorEvent) {
        self.errors.push(error.to_string());
    }
}

fn render(value: &Value) -> String {
    match value {
        Value::Null => NULL.to_string(),
        Value::Bit(b) => u8::from(*b).to_string(),
        Value::String(s) => canonical(s.clone()),
        other => canonical(other.to_string()),
    }
}

// ---------------------------------------------------------------------------
// The data set, generated deterministically

/// A literal, written the same way in both dialects.
#[derive(Clone)]
enum Lit {
    Null,
    Int(i64),
    Str(String),
    /// A decimal with two places, in hundredths.
    Cents(i64),
    Float(f64),
}

impl Lit {
    fn sql(&self) -> String {
        match self {
            Lit::Null => "NULL".to_string(),
            Lit::Int(v) => v.to_string(),
            Lit::Str(s) => {
                assert!(
                    s.bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()),
                    "portable strings only: {s:?}"
                );
                format!("'{s}'")
            }
            Lit::Cents(c) => {
                let sign = if *c < 0 { "-" } else { "" };
                format!("{sign}{}.{:02}", c.abs() / 100, c.abs() % 100)
            }
            Lit::Float(f) => format!("{f:?}"),
        }
    }
}

/// A linear congruential generator (Knuth's MMIX constants).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }

    /// 0 ..= n - 1.
    fn below(&mut self, n: u64) -> i64 {
        (self.next() % n) as i64
    }

    /// True with probability `percent`%.
    fn chance(&mut self, percent: i64) -> bool {
        self.below(100) < percent
    }

    fn pick(&mut self, items: &[&str]) -> String {
        items[self.below(items.len() as u64) as usize].to_string()
    }

    /// NULL with probability `percent`%, else `lit`.
    fn maybe(&mut self, percent: i64, lit: Lit) -> Lit {
        if self.chance(percent) {
            Lit::Null
        } else {
            lit
        }
    }
}

struct DataSet {
    tables: Vec<(&'static str, Vec<Vec<Lit>>)>,
}

impl DataSet {
    fn generate() -> DataSet {
        use Lit::{Cents, Float, Int, Null, Str};
        let mut rng = Lcg(0x5eed_1234_abcd);

        // dept: 12 departments; 11 and 12 have nobody, region and budget
        // are sometimes NULL.
        let regions = ["north", "south", "east", "west"];
        let dept = (1..=12)
            .map(|id| {
                let region = Str(rng.pick(&regions));
                let budget = Int(rng.below(50) * 1000 + 10000);
                vec![
                    Int(id),
                    Str(format!("dept{id:02}")),
                    rng.maybe(20, region),
                    rng.maybe(15, budget),
                ]
            })
            .collect();

        // emp: 300 people with duplicate names, NULL departments and
        // salaries, negative bonuses, a few departments that do not exist.
        let names = [
            "ada", "bo", "cy", "dee", "eve", "fay", "gus", "hal", "ivy", "jo", "kit", "lee", "max",
            "ned", "oz", "pam", "quin", "rex", "sal", "tia", "uma", "vic", "wes", "xia", "yan",
            "zed",
        ];
        let cities = ["oslo", "reykjavik", "bergen", "akureyri", "tromso"];
        let emp = (1..=300)
            .map(|id| {
                let dept_id = if rng.chance(8) {
                    Null
                } else if rng.chance(3) {
                    Int(13 + rng.below(2) * 86) // 13 or 99: no such department
                } else {
                    Int(1 + rng.below(10))
                };
                let manager = if id <= 5 {
                    Null
                } else {
                    let boss = Int(1 + rng.below(id.min(40) as u64 - 1));
                    rng.maybe(5, boss)
                };
                let name = Str(rng.pick(&names));
                let salary = Int(30000 + rng.below(181) * 500);
                let bonus = Int(rng.below(26) * 100 - 500);
                let grade = Int(1 + rng.below(5));
                let city = Str(rng.pick(&cities));
                vec![
                    Int(id),
                    name,
                    dept_id,
                    manager,
                    rng.maybe(6, salary),
                    rng.maybe(35, bonus),
                    grade,
                    rng.maybe(10, city),
                ]
            })
            .collect();

        // sales: 600 sales, some by nobody or by people who do not exist.
        let products = ["apple", "pear", "plum", "fig", "kiwi", "lime", "date"];
        let sales = (1..=600)
            .map(|id| {
                let emp_id = if rng.chance(5) {
                    Null
                } else if rng.chance(3) {
                    Int(900 + rng.below(5))
                } else {
                    Int(1 + rng.below(300))
                };
                let product = Str(rng.pick(&products));
                let qty = Int(rng.below(20) + 1);
                let price = Cents(rng.below(9999) + 1);
                let discount = Float(rng.below(40) as f64 / 100.0);
                let yr = Int(2019 + rng.below(5));
                vec![
                    Int(id),
                    emp_id,
                    product,
                    rng.maybe(7, qty),
                    price,
                    rng.maybe(30, discount),
                    yr,
                ]
            })
            .collect();

        // tags: duplicates per person, NULL tags.
        let labels = ["red", "green", "blue", "gold", "x1", "x2"];
        let tags = (1..=220)
            .map(|id| {
                let emp_id = Int(1 + rng.below(120));
                let tag = Str(rng.pick(&labels));
                vec![Int(id), emp_id, rng.maybe(10, tag)]
            })
            .collect();

        // tri: every pair of {0, 1, NULL}, for three-valued logic.
        let three = [Int(0), Int(1), Null];
        let mut tri = Vec::new();
        for a in &three {
            for b in &three {
                tri.push(vec![Int(tri.len() as i64 + 1), a.clone(), b.clone()]);
            }
        }

        DataSet {
            tables: vec![
                ("dept", dept),
                ("emp", emp),
                ("sales", sales),
                ("tags", tags),
                ("tri", tri),
            ],
        }
    }

    /// INSERT ... VALUES statements for every table, each followed by
    /// `terminator`.
    fn inserts(&self, terminator: &str) -> String {
        let mut out = String::new();
        for (table, rows) in &self.tables {
            for chunk in rows.chunks(ROWS_PER_INSERT) {
                let values: Vec<String> = chunk
                    .iter()
                    .map(|row| {
                        let cells: Vec<String> = row.iter().map(Lit::sql).collect();
                        format!("({})", cells.join(", "))
                    })
                    .collect();
                out += &format!(
                    "INSERT INTO {table} VALUES\n{}{terminator}",
                    values.join(",\n")
                );
            }
        }
        out
    }
}

// ---------------------------------------------------------------------------
// PostgreSQL's side

/// Why PostgreSQL cannot run here.
struct Unavailable(String);

/// A throw-away cluster; dropping it stops the server and removes its
/// directory.
struct PgCluster {
    bin: PathBuf,
    dir: PathBuf,
    port: u16,
    /// The user the PostgreSQL programs run as when the test runs as root.
    run_as: Option<String>,
    running: bool,
    version: String,
}

impl PgCluster {
    fn start() -> Result<PgCluster, Unavailable> {
        let bin = find_postgres()?;
        let dir = std::env::temp_dir().join(format!(
            "hekla-differential-{}-{}",
            std::process::id(),
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.subsec_nanos())
        ));
        std::fs::create_dir_all(&dir)
            .map_err(|e| Unavailable(format!("cannot create {}: {e}", dir.display())))?;
        let mut cluster = PgCluster {
            bin,
            dir,
            port: free_port(),
            run_as: None,
            running: false,
            version: String::new(),
        };
        // From here on, Drop cleans up whatever happens.
        let root = std::fs::metadata(&cluster.dir).is_ok_and(|m| m.uid() == 0);
        if root {
            cluster.run_as = Some(unprivileged_user()?);
            // The other user makes the data directory and socket in here.
            std::fs::set_permissions(&cluster.dir, std::fs::Permissions::from_mode(0o777))
                .map_err(|e| Unavailable(format!("chmod {}: {e}", cluster.dir.display())))?;
        }
        let version = cluster.run("psql", &["--version"], None)?;
        cluster.version = String::from_utf8_lossy(&version.stdout).trim().to_string();

        let data = cluster.dir.join("data");
        let data = data.to_string_lossy().into_owned();
        let output = cluster.run(
            "initdb",
            &[
                "-D",
                &data,
                "-A",
                "trust",
                "-U",
                "postgres",
                "--locale=C",
                "-E",
                "UTF8",
                "--no-sync",
            ],
            None,
        )?;
        check("initdb", &output).map_err(Unavailable)?;

        let options = format!(
            "-p {} -k '{}' -c listen_addresses='' -c fsync=off -c synchronous_commit=off \
             -c full_page_writes=off -c TimeZone=UTC",
            cluster.port,
            cluster.dir.display()
        );
        let log = cluster.dir.join("log").to_string_lossy().into_owned();
        cluster.running = true;
        let output = cluster.run(
            "pg_ctl",
            &[
                "-D", &data, "-l", &log, "-w", "-t", "60", "-o", &options, "start",
            ],
            None,
        )?;
        if let Err(e) = check("pg_ctl start", &output) {
            let log = std::fs::read_to_string(&log).unwrap_or_default();
            return Err(Unavailable(format!("{e}\nserver log:\n{log}")));
        }
        Ok(cluster)
    }

    /// Runs one of PostgreSQL's programs (as the unprivileged user when
    /// running as root) with `stdin` as its input.
    fn run(
        &self,
        program: &str,
        args: &[&str],
        stdin: Option<&str>,
    ) -> Result<Output, Unavailable> {
        let path = self.bin.join(program);
        let mut command = match &self.run_as {
            Some(user) => {
                let mut command = Command::new("runuser");
                command.args(["-u", user, "--"]).arg(&path);
                command
            }
            None => Command::new(&path),
        };
        command.args(args).current_dir(&self.dir);
        for var in [
            "PGHOST",
            "PGHOSTADDR",
            "PGPORT",
            "PGUSER",
            "PGDATABASE",
            "PGOPTIONS",
            "PGSERVICE",
            "PGSERVICEFILE",
            "PGPASSFILE",
            "PGSSLMODE",
            "PGDATA",
            "PSQLRC",
        ] {
            command.env_remove(var);
        }
        command
            .stdin(if stdin.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = command
            .spawn()
            .map_err(|e| Unavailable(format!("cannot run {}: {e}", path.display())))?;
        if let Some(text) = stdin {
            // psql reads its whole script before the output could fill the
            // pipe; the pipe closes when the handle drops.
            let mut pipe = child.stdin.take().expect("piped stdin");
            let _ = pipe.write_all(text.as_bytes());
        }
        child
            .wait_with_output()
            .map_err(|e| Unavailable(format!("waiting for {program}: {e}")))
    }

    fn psql(&self, sql: &str) -> Result<Output, String> {
        let port = self.port.to_string();
        let host = self.dir.to_string_lossy().into_owned();
        let separator = FIELD_SEPARATOR.to_string();
        let null = format!("null={NULL}");
        self.run(
            "psql",
            &[
                "-X",
                "-q",
                "-A",
                "-t",
                "-0",
                "-F",
                &separator,
                "-P",
                &null,
                "-v",
                "ON_ERROR_STOP=1",
                "-h",
                &host,
                "-p",
                &port,
                "-U",
                "postgres",
                "-d",
                "postgres",
                "-f",
                "-",
            ],
            Some(sql),
        )
        .map_err(|Unavailable(e)| e)
    }

    /// Runs a script in one transaction.
    fn run_script(&self, sql: &str) -> Result<(), String> {
        let output = self.psql(&format!("BEGIN;\n{sql}\nCOMMIT;\n"))?;
        check("psql", &output)
    }

    /// A query's rows as canonical text.
    fn query(&self, sql: &str) -> Result<Rows, String> {
        let output = self.psql(sql)?;
        check("psql", &output)?;
        let text = String::from_utf8(output.stdout).map_err(|e| e.to_string())?;
        let Some(records) = text.strip_suffix('\0') else {
            return if text.is_empty() {
                Ok(Vec::new())
            } else {
                Err(format!("unexpected psql output {text:?}"))
            };
        };
        Ok(records
            .split('\0')
            .map(|record| {
                record
                    .split(FIELD_SEPARATOR)
                    .map(|cell| canonical(cell.to_string()))
                    .collect()
            })
            .collect())
    }
}

impl Drop for PgCluster {
    fn drop(&mut self) {
        if self.running {
            let data = self.dir.join("data").to_string_lossy().into_owned();
            let _ = self.run(
                "pg_ctl",
                &["-D", &data, "-m", "immediate", "-w", "stop"],
                None,
            );
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn check(what: &str, output: &Output) -> Result<(), String> {
    if output.status.success() {
        return Ok(());
    }
    Err(format!(
        "{what} failed ({}): {}{}",
        output.status,
        String::from_utf8_lossy(&output.stderr),
        String::from_utf8_lossy(&output.stdout)
    ))
}

fn find_postgres() -> Result<PathBuf, Unavailable> {
    let usable = |dir: &Path| {
        ["initdb", "pg_ctl", "psql"]
            .iter()
            .all(|p| dir.join(p).is_file())
    };
    if let Some(dir) = std::env::var_os("HEKLA_PG_BIN") {
        let dir = PathBuf::from(dir);
        return if usable(&dir) {
            Ok(dir)
        } else {
            Err(Unavailable(format!(
                "PostgreSQL not found at {} (HEKLA_PG_BIN)",
                dir.display()
            )))
        };
    }
    let preferred = PathBuf::from("/usr/lib/postgresql/15/bin");
    if usable(&preferred) {
        return Ok(preferred);
    }
    let mut others: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let version = entry.file_name().to_str()?.parse().ok()?;
            Some((version, entry.path().join("bin")))
        })
        .filter(|(_, dir)| usable(dir))
        .collect();
    others.sort();
    others.pop().map(|(_, dir)| dir).ok_or_else(|| {
        Unavailable(format!(
            "PostgreSQL not found at {} (install postgresql-15, or set HEKLA_PG_BIN to a \
             directory holding initdb, pg_ctl and psql)",
            preferred.display()
        ))
    })
}

/// A user other than root to run PostgreSQL as.
fn unprivileged_user() -> Result<String, Unavailable> {
    let passwd = std::fs::read_to_string("/etc/passwd").unwrap_or_default();
    let exists = |name: &str| passwd.lines().any(|l| l.split(':').next() == Some(name));
    let user = ["postgres", "nobody"]
        .into_iter()
        .find(|u| exists(u))
        .ok_or_else(|| {
            Unavailable(
                "running as root, and there is no `postgres` or `nobody` user to run \
                 PostgreSQL as (initdb refuses root)"
                    .to_string(),
            )
        })?;
    let runuser = Command::new("runuser")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    if !runuser.is_ok_and(|s| s.success()) {
        return Err(Unavailable(
            "running as root and `runuser` is missing, so PostgreSQL cannot run as another \
             user (initdb refuses root)"
                .to_string(),
        ));
    }
    Ok(user.to_string())
}

/// A port number nothing listens on. The server listens on a socket in
/// its own directory only, so the number merely names the socket file and
/// the shared memory key; a free TCP port keeps it unique on the machine.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map_or(54321, |a| a.port())
}

// ---------------------------------------------------------------------------
// The harness itself, without PostgreSQL

#[test]
fn harness_normalises_and_compares_cells() {
    assert_eq!(canonical("1.500".into()), "1.5");
    assert_eq!(canonical("-2.000".into()), "-2");
    assert_eq!(canonical("-0.00".into()), "0");
    assert_eq!(canonical("100".into()), "100");
    assert_eq!(canonical("a.10".into()), "a.10");
    assert_eq!(canonical("1.2.0".into()), "1.2.0");
    assert!(cells_equal("0.30000000000000004", "0.3"));
    assert!(cells_equal("1e+16", "10000000000000000"));
    assert!(!cells_equal("0.31", "0.3"));
    assert!(!cells_equal("9007199254740993", "9007199254740992"));
    assert!(!cells_equal(NULL, "0"));
    assert_eq!(render(&Value::Bit(true)), "1");
    assert_eq!(render(&Value::Null), NULL);
    assert_eq!(render(&Value::Int(-4)), "-4");
}

#[test]
fn harness_parses_entries_and_reports_differences() {
    let queries = parse_queries(
        "-- a comment only\n-- ;\n-- name: q\n-- ordered\n-- pg-replace: a DESC => a DESC NULLS LAST\n\
         SELECT a FROM t\nORDER BY a DESC\n-- ;\n-- name: r\n-- pg: SELECT 2\n-- empty\nSELECT 1\n-- ;\n",
        "t.sql",
    );
    assert_eq!(queries.len(), 2);
    assert_eq!(queries[0].line, 3);
    assert!(queries[0].ordered && !queries[0].empty);
    assert_eq!(queries[0].pg, "SELECT a FROM t\nORDER BY a DESC NULLS LAST");
    assert_eq!(
        (queries[1].hekla.as_str(), queries[1].pg.as_str()),
        ("SELECT 1", "SELECT 2")
    );
    let rows = |cells: &[&[&str]]| -> Rows {
        cells
            .iter()
            .map(|r| r.iter().map(|c| c.to_string()).collect())
            .collect()
    };
    let unordered = Query {
        ordered: false,
        ..parse_entry("t.sql", &[(1, "-- name: u"), (2, "SELECT 1")]).unwrap()
    };
    let (a, b) = (rows(&[&["1"], &["2"]]), rows(&[&["2"], &["1"]]));
    assert!(compare(&unordered, Ok(a.clone()), Ok(b.clone())).is_none());
    let ordered = Query {
        ordered: true,
        ..parse_entry("t.sql", &[(1, "-- name: o"), (2, "SELECT 1 ORDER BY 1")]).unwrap()
    };
    assert!(compare(&ordered, Ok(a.clone()), Ok(b)).is_some());
    let diff = compare(&unordered, Ok(a), Ok(rows(&[&["1"], &["3"]]))).unwrap();
    assert!(diff.contains("only in hekla:    1 rows\n    2\n"), "{diff}");
    assert!(diff.contains("only in postgres: 1 rows\n    3\n"), "{diff}");
    assert!(compare(&unordered, Ok(Vec::new()), Ok(Vec::new())).is_some());
    assert!(compare(&unordered, Err("Msg 1".into()), Ok(Vec::new())).is_some());
    let failing = Query {
        error: true,
        ..parse_entry("t.sql", &[(1, "-- name: e"), (2, "SELECT 1 / 0")]).unwrap()
    };
    assert!(compare(&failing, Err("Msg 8134".into()), Err("ERROR".into())).is_none());
    let diff = compare(&failing, Ok(rows(&[&["1"]])), Err("ERROR".into())).unwrap();
    assert!(diff.contains("1 rows, expected an error"), "{diff}");
}
