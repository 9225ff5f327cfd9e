//! Differential fuzz test of natively compiled procedures (issue 19): random
//! procedures over a small schema of memory-optimized tables run in two
//! databases holding the same rows, one compiling native modules and one
//! interpreting them (`SqlDatabase::set_native_compilation(false)`), and
//! everything each sends its client must be the same: result sets (column
//! names, types, values), messages, row counts and errors (number,
//! severity, state, text, line).
//!
//! The generator aims at the edge of what compiles (see
//! `hekla-exec/src/compiled.rs`): aggregates over a full scan filtered by
//! ANDed comparisons of integer, money, smallmoney, bit, date and datetime2
//! columns with constants, variables and parameters, aggregates of integer
//! columns and constants joined by +, - and *, next to near misses that must be interpreted (comparisons
//! across types, OR, NOT, GROUP BY, expressions in aggregates, AVG,
//! DISTINCT, NULL variables, assignment SELECTs, subqueries, IF and WHILE,
//! writes before the aggregate in the same atomic block). The columns hold
//! NULLs and values near their types' limits, so that SUMs overflow.
//!
//! It fails unless a fifth of the procedures ran a row kernel, as
//! `sys.dm_hekla_native_modules` counts them (and if one ran with
//! compilation off): comparing proves something only if the compiled path
//! is taken.
//!
//! `HEKLA_FUZZ_CASES=n` runs n procedures (default 300) and
//! `HEKLA_FUZZ_SEED=s` starts from seed s (default a fixed one); a case that
//! differs is reported with the seed, its number and its script.

mod common;

use hekla_parser::script::split_batches;
use hekla_sql::session::{ErrorEvent, ResultColumn, ResultSink, Session, SqlDatabase};
use hekla_sql::{StatementCommand, TransactionEvent};
use hekla_types::Value;
use std::fmt::Write;

const DEFAULT_CASES: u64 = 300;
const DEFAULT_SEED: u64 = 19;

/// A table of the schema: `id`, `padding` nullable int columns (always
/// NULL: they move the other columns' places and null bits, and now and
/// then one is dropped and added again), [`COLUMNS`].
struct Table {
    name: &'static str,
    rows: i64,
    padding: usize,
    /// An index besides the primary key's range index on `id`, so that
    /// filters on it seek (kernels aggregate what seeks find too).
    index: &'static str,
}

const LARGE: Table = Table {
    name: "dbo.large",
    rows: 300,
    padding: 0,
    index: "INDEX large_i_n HASH (i_n) WITH (BUCKET_COUNT = 64)",
};
/// Mostly rows that do not pass, or none.
const SMALL: Table = Table {
    name: "dbo.small",
    rows: 4,
    padding: 0,
    index: "INDEX small_s NONCLUSTERED (s)",
};
/// Null bits past the first byte.
const WIDE: Table = Table {
    name: "dbo.wide",
    rows: 60,
    padding: 10,
    index: "INDEX wide_b NONCLUSTERED (b)",
};
/// Ends each case, once its procedures' counters are read.
const DROP: &str = "DROP PROCEDURE dbo.fuzzed\nGO\nDROP PROCEDURE IF EXISTS dbo.fuzzed_inner\nGO\n";
/// Mismatches reported before the run stops.
const MISMATCHES_KEPT: usize = 5;

#[test]
fn compiled_procedures_answer_as_interpreted_ones() {
    let cases = env_number("HEKLA_FUZZ_CASES").unwrap_or(DEFAULT_CASES);
    let seed = env_number("HEKLA_FUZZ_SEED").unwrap_or(DEFAULT_SEED);
    eprintln!("native differential: {cases} cases from seed {seed}");
    let schema = schema_script(&mut Rng::new(seed));
    let mut compiled = Side::new(true, &schema);
    let mut interpreted = Side::new(false, &schema);
    let mut mismatches = Vec::new();
    let mut cases_with_kernels = 0;
    let mut cases_with_late_kernels = 0;
    for case in 0..cases {
        let script = Generator::new(Rng::new(seed ^ mix(case + 1))).case_script();
        let expected = interpreted.run(&script);
        let actual = compiled.run(&script);
        let (interpreted_kernels, _) = interpreted.kernel_executions();
        assert_eq!(
            interpreted_kernels, 0,
            "seed {seed}, case {case}: row kernels ran with native compilation off\n{script}"
        );
        let (kernels, late) = compiled.kernel_executions();
        cases_with_kernels += u64::from(kernels > 0);
        // Compiled at run time rather than at CREATE: worth knowing.
        cases_with_late_kernels += u64::from(late > 0);
        let (interpreted_drop, compiled_drop) = (interpreted.run(DROP), compiled.run(DROP));
        let report = difference(&expected, &actual)
            .or_else(|| difference(&interpreted_drop, &compiled_drop));
        if let Some(report) = report {
            mismatches.push(format!(
                "seed {seed}, case {case} (HEKLA_FUZZ_SEED={seed} HEKLA_FUZZ_CASES={} \
                 reproduces it):\n{script}{DROP}\n{report}",
                case + 1
            ));
            if mismatches.len() == MISMATCHES_KEPT {
                break;
            }
        }
    }
    assert!(
        mismatches.is_empty(),
        "compiled and interpreted native procedures differ ({} reported; later cases may \
         follow from an earlier one's writes):\n\n{}",
        mismatches.len(),
        mismatches.join("\n\n")
    );
    eprintln!(
        "native differential: {cases_with_kernels} of {cases} cases ran row kernels, \
         {cases_with_late_kernels} compiled some at a statement's first run (late_kernels)"
    );
    // The comparison proves something only if the compiled path is taken.
    assert!(
        cases_with_kernels * 5 >= cases,
        "only {cases_with_kernels} of {cases} cases ran a compiled row kernel"
    );
}

fn env_number(name: &str) -> Option<u64> {
    let text = std::env::var(name).ok()?;
    Some(
        text.parse()
            .unwrap_or_else(|_| panic!("{name}={text} is not a number")),
    )
}

/// One of the two databases, through a session of it.
struct Side {
    session: Session,
}

impl Side {
    fn new(native_compilation: bool, schema: &str) -> Side {
        let db = SqlDatabase::in_memory().expect("in-memory database");
        db.set_native_compilation(native_compilation);
        let mut side = Side {
            session: db.session().expect("a session"),
        };
        let setup = side.run(schema);
        assert!(
            !setup.iter().any(|event| event.starts_with("error")),
            "the schema script failed: {setup:#?}"
        );
        side
    }

    /// How often the fuzzed procedures ran a row kernel, and how many
    /// kernels they compiled at a statement's first run (for a plan their
    /// compile did not see), as `sys.dm_hekla_native_modules` says (zeros
    /// when they are not there).
    fn kernel_executions(&mut self) -> (i64, i64) {
        let answer = common::collect(
            &mut self.session,
            "SELECT SUM(kernel_executions), CAST(SUM(late_kernels) AS bigint) \
             FROM sys.dm_hekla_native_modules WHERE name LIKE N'fuzzed%'",
        );
        assert!(answer.errors.is_empty(), "{:?}", answer.errors);
        match answer.rows.as_slice() {
            [row] => match row.as_slice() {
                [Value::BigInt(runs), Value::BigInt(late)] => (*runs, *late),
                [Value::Null, Value::Null] => (0, 0),
                other => panic!("unexpected counters {other:?}"),
            },
            rows => panic!("one row expected: {rows:?}"),
        }
    }

    /// Everything the client is sent for `script`, batch by batch.
    fn run(&mut self, script: &str) -> Vec<String> {
        let mut transcript = Transcript::default();
        for batch in split_batches(script) {
            transcript
                .0
                .push(format!("batch at line {}", batch.first_line));
            self.session.execute(batch.text, &mut transcript);
        }
        transcript.0
    }
}

/// What a client is sent, one line per event.
#[derive(Default)]
struct Transcript(Vec<String>);

impl ResultSink for Transcript {
    fn columns(&mut self, columns: &[ResultColumn]) {
        self.0.push(format!("columns {columns:?}"));
    }
    fn row(&mut self, values: &[Value]) {
        self.0.push(format!("row {values:?}"));
    }
    fn done(&mut self, rows: Option<u64>) {
        self.0.push(format!("done {rows:?}"));
    }
    fn statement_done(&mut self, command: StatementCommand, rows: Option<u64>) {
        self.0.push(format!("done {command:?} {rows:?}"));
    }
    fn message(&mut self, text: &str) {
        self.0.push(format!("message {text:?}"));
    }
    fn numbered_message(&mut self, number: u32, state: u8, text: &str) {
        self.0
            .push(format!("message {number} state {state} {text:?}"));
    }
    fn error(&mut self, error: &ErrorEvent) {
        self.0.push(format!("error {error:?}"));
    }
    fn procedure_started(&mut self) {
        self.0.push("procedure started".into());
    }
    fn procedure_ended(&mut self, status: Option<i32>) {
        self.0.push(format!("procedure ended {status:?}"));
    }
    fn transaction_changed(&mut self, event: TransactionEvent) {
        self.0.push(format!("transaction {event:?}"));
    }
}

/// The first event where the compiled side (actual) departs from the
/// interpreted one (expected), with the events before it for context.
fn difference(expected: &[String], actual: &[String]) -> Option<String> {
    let at = expected
        .iter()
        .zip(actual)
        .position(|(e, a)| e != a)
        .or_else(|| (expected.len() != actual.len()).then(|| expected.len().min(actual.len())))?;
    let mut report = String::new();
    for line in &expected[at.saturating_sub(3)..at] {
        let _ = writeln!(report, "  same:        {line}");
    }
    let none = String::from("(nothing)");
    let _ = writeln!(
        report,
        "  interpreted: {}",
        expected.get(at).unwrap_or(&none)
    );
    let _ = write!(report, "  compiled:    {}", actual.get(at).unwrap_or(&none));
    Some(report)
}

/// splitmix64's finaliser: spreads a counter over 64 bits.
fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// A small seeded generator (splitmix64): the same seed, the same cases.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        mix(self.0)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// A number in `low..=high`.
    fn between(&mut self, low: i64, high: i64) -> i64 {
        let span = (i128::from(high) - i128::from(low) + 1) as u128;
        (i128::from(low) + (u128::from(self.next()) % span) as i128) as i64
    }
}

#[derive(Clone, Copy, PartialEq, Debug)]
enum Type {
    TinyInt,
    SmallInt,
    Int,
    BigInt,
    Money,
    Varchar,
    SmallMoney,
    Bit,
    Date,
    DateTime2,
}

/// The integer types first (`TYPES[..4]`).
const TYPES: [Type; 10] = [
    Type::TinyInt,
    Type::SmallInt,
    Type::Int,
    Type::BigInt,
    Type::Money,
    Type::Varchar,
    Type::SmallMoney,
    Type::Bit,
    Type::Date,
    Type::DateTime2,
];

/// datetime2's 100 ns ticks in a day.
const TICKS_PER_DAY: i64 = 864_000_000_000;
/// 2000-01-01 as days since 0001-01-01: where dates cluster.
const DAY_2000: i64 = 730_119;

impl Type {
    fn sql(self) -> &'static str {
        match self {
            Type::TinyInt => "tinyint",
            Type::SmallInt => "smallint",
            Type::Int => "int",
            Type::BigInt => "bigint",
            Type::Money => "money",
            Type::Varchar => "varchar(20)",
            Type::SmallMoney => "smallmoney",
            Type::Bit => "bit",
            Type::Date => "date",
            Type::DateTime2 => "datetime2",
        }
    }

    /// The type's range (money in ten-thousandths; a varchar's length;
    /// dates in days and datetime2 in ticks since 0001-01-01).
    fn range(self) -> (i64, i64) {
        match self {
            Type::TinyInt => (0, 255),
            Type::SmallInt => (i16::MIN.into(), i16::MAX.into()),
            Type::Int | Type::SmallMoney => (i32::MIN.into(), i32::MAX.into()),
            Type::BigInt | Type::Money => (i64::MIN, i64::MAX),
            Type::Varchar => (0, 5),
            Type::Bit => (0, 1),
            Type::Date => (0, 3_652_058),
            Type::DateTime2 => (0, 3_652_059 * TICKS_PER_DAY - 1),
        }
    }

    /// Where most values are, and how far apart: (middle, step, steps
    /// either side).
    fn cluster(self) -> (i64, i64, i64) {
        match self {
            Type::Money | Type::SmallMoney => (0, 1, 200_000),
            Type::Date => (DAY_2000, 1, 20),
            // Seconds, and now and then a tick: datetime2(7) keeps both.
            Type::DateTime2 => (DAY_2000 * TICKS_PER_DAY, 10_000_000, 20),
            _ => (0, 1, 20),
        }
    }

    /// Whether SUM and AVG take the type (else Msg 8117).
    fn is_summable(self) -> bool {
        self.is_integer() || matches!(self, Type::Money | Type::SmallMoney)
    }

    /// Whether the kernels compare values of the type (as the integers
    /// stored).
    fn compiles_in_comparisons(self) -> bool {
        self != Type::Varchar
    }

    /// A value of the type as a literal: mostly small (so that equality
    /// filters match rows), else at or next to a limit, or anywhere.
    fn literal(self, rng: &mut Rng) -> String {
        self.literal_of(self.value(rng), rng)
    }

    /// A value for a column, of the column's sign if it is summed: see
    /// [`COLUMNS`].
    fn stored(self, nullable: bool, rng: &mut Rng) -> String {
        if !self.is_summable() {
            return self.literal(rng);
        }
        let magnitude = self.value(rng).checked_abs().unwrap_or(i64::MAX);
        let value = if nullable { magnitude } else { -magnitude };
        let (low, high) = self.range();
        self.literal_of(value.clamp(low, high), rng)
    }

    fn value(self, rng: &mut Rng) -> i64 {
        let (low, high) = self.range();
        let (middle, step, steps) = self.cluster();
        match rng.below(10) {
            0 => high - rng.between(0, 2),
            1 => low + rng.between(0, 2),
            2 => rng.between(low, high),
            3 if self == Type::DateTime2 => middle + rng.between(-2, 2),
            _ => (middle + rng.between(-steps, steps) * step).clamp(low, high),
        }
    }

    /// `value` written as a literal of the type (money in ten-thousandths;
    /// a varchar's length).
    fn literal_of(self, value: i64, rng: &mut Rng) -> String {
        match self {
            Type::Varchar => {
                let text: String = (0..value.rem_euclid(6))
                    .map(|_| *rng.pick(&['a', 'b', 'c', 'x']))
                    .collect();
                format!("'{text}'")
            }
            Type::Money | Type::SmallMoney => {
                let sign = if value < 0 { "-" } else { "" };
                let magnitude = i128::from(value).unsigned_abs();
                format!("{sign}{}.{:04}", magnitude / 10_000, magnitude % 10_000)
            }
            Type::Date => format!("'{}'", calendar_date(value)),
            Type::DateTime2 => {
                let (days, ticks) = (value / TICKS_PER_DAY, value % TICKS_PER_DAY);
                let seconds = ticks / 10_000_000;
                format!(
                    "'{} {:02}:{:02}:{:02}.{:07}'",
                    calendar_date(days),
                    seconds / 3600,
                    seconds / 60 % 60,
                    seconds % 60,
                    ticks % 10_000_000
                )
            }
            _ => value.to_string(),
        }
    }

    /// Whether comparing values of the two types converts neither in a
    /// way that can fail. Errors that can happen on some rows only must
    /// be left out: the databases scan rows in different orders (once
    /// rows are rewritten, which slots are freed and reused differs), so
    /// whether such an error or a SUM's overflow comes first would differ
    /// as well. A string meets only strings; a bigint (which can be past
    /// money's range) no money.
    /// Dates meet only their own type too, and a smallmoney no int or
    /// bigint (past its range).
    fn compares_without_error(self, other: Type) -> bool {
        let numeric =
            |data_type: Type| !matches!(data_type, Type::Varchar | Type::Date | Type::DateTime2);
        let pair = [self, other];
        self == other
            || (numeric(self)
                && numeric(other)
                && !(pair.contains(&Type::BigInt) && pair.contains(&Type::Money))
                && !(pair.contains(&Type::SmallMoney)
                    && (pair.contains(&Type::Int) || pair.contains(&Type::BigInt))))
    }

    fn is_integer(self) -> bool {
        matches!(
            self,
            Type::TinyInt | Type::SmallInt | Type::Int | Type::BigInt
        )
    }
}

/// The tables' columns after `id`: each type nullable and NOT NULL. The
/// nullable ones hold values of zero or more, the others of zero or less,
/// so that whether a SUM overflows does not hang on the order rows are
/// scanned in (see [`Type::compares_without_error`]), and a statement has
/// at most one SUM that can overflow ([`Generator::aggregates`]).
const COLUMNS: [(&str, Type, bool); 17] = [
    ("t", Type::TinyInt, true),
    ("tn", Type::TinyInt, false),
    ("s", Type::SmallInt, true),
    ("sn", Type::SmallInt, false),
    ("i", Type::Int, true),
    ("i_n", Type::Int, false),
    ("b", Type::BigInt, true),
    ("bn", Type::BigInt, false),
    ("m", Type::Money, true),
    ("mn", Type::Money, false),
    ("sm", Type::SmallMoney, true),
    ("smn", Type::SmallMoney, false),
    ("bit", Type::Bit, true),
    ("d", Type::Date, true),
    ("dn", Type::Date, false),
    ("dt", Type::DateTime2, false),
    ("v", Type::Varchar, true),
];

/// The columns but the varchar one (the last).
fn non_string_columns() -> &'static [(&'static str, Type, bool)] {
    &COLUMNS[..COLUMNS.len() - 1]
}

/// Days since 0001-01-01 as `yyyy-mm-dd` (the proleptic Gregorian
/// calendar, as date's).
fn calendar_date(days: i64) -> String {
    // Days since 0000-03-01, in 400-year eras of 146,097 days.
    let shifted = days + 306;
    let era = shifted.div_euclid(146_097);
    let day_of_era = shifted.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_index + 2) / 5 + 1;
    let month = if month_index < 10 {
        month_index + 3
    } else {
        month_index - 9
    };
    let year = era * 400 + year_of_era + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

/// The tables, filled with the same rows on both sides.
fn schema_script(rng: &mut Rng) -> String {
    let mut script = String::new();
    for table in [LARGE, SMALL, WIDE] {
        let padding = (0..table.padding).map(|index| format!("pad{index} int NULL"));
        let columns: Vec<String> = padding
            .chain(COLUMNS.iter().map(|(name, data_type, nullable)| {
                let null = if *nullable { "NULL" } else { "NOT NULL" };
                format!("{name} {} {null}", data_type.sql())
            }))
            .collect();
        let _ = writeln!(
            script,
            "CREATE TABLE {} (id int NOT NULL PRIMARY KEY NONCLUSTERED, {}, {}) \
             WITH (MEMORY_OPTIMIZED = ON)\nGO",
            table.name,
            columns.join(", "),
            table.index
        );
        for id in 1..=table.rows {
            let _ = writeln!(script, "{}", insert(&table, id, rng));
        }
        script.push_str("GO\n");
    }
    script
}

/// An INSERT of row `id` into `table`, of random values.
fn insert(table: &Table, id: i64, rng: &mut Rng) -> String {
    let mut values = vec![id.to_string()];
    for (_, data_type, nullable) in COLUMNS {
        values.push(if nullable && rng.chance(15) {
            "NULL".into()
        } else {
            data_type.stored(nullable, rng)
        });
    }
    let columns: Vec<&str> = COLUMNS.iter().map(|(name, _, _)| *name).collect();
    format!(
        "INSERT INTO {} (id, {}) VALUES ({})",
        table.name,
        columns.join(", "),
        values.join(", ")
    )
}

/// `CREATE PROCEDURE name parameters` natively compiled, of `body`.
fn native_procedure(name: &str, parameters: &str, body: &str) -> String {
    format!(
        "CREATE PROCEDURE {name} {parameters} WITH NATIVE_COMPILATION, SCHEMABINDING AS \
         BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')\n\
         {body}END\nGO\n"
    )
}

/// A variable or parameter the procedure can name.
#[derive(Clone)]
struct Name {
    name: String,
    data_type: Type,
    not_null: bool,
}

/// Writes one case: a procedure and a few calls of it.
struct Generator {
    rng: Rng,
    parameters: Vec<Name>,
    variables: Vec<Name>,
    loops: usize,
    /// Whether `dbo.fuzzed_inner @x` is there to call.
    inner: bool,
    /// Whether the statement being written has an aggregate that can
    /// overflow (see [`Generator::aggregates`]).
    overflowing: bool,
}

impl Generator {
    fn new(rng: Rng) -> Generator {
        Generator {
            rng,
            parameters: Vec::new(),
            variables: Vec::new(),
            loops: 0,
            inner: false,
            overflowing: false,
        }
    }

    fn case_script(mut self) -> String {
        let mut script = String::new();
        if self.rng.chance(25) {
            script = self.inner_procedure();
        }
        for index in 0..self.rng.below(4) {
            let data_type = self.integer_mostly();
            self.parameters.push(Name {
                name: format!("@p{index}"),
                data_type,
                not_null: false,
            });
        }
        let mut declarations = String::new();
        for index in 0..self.rng.below(5) {
            let data_type = self.integer_mostly();
            let not_null = self.rng.chance(20);
            let initial = if not_null || self.rng.chance(60) {
                format!(" = {}", data_type.literal(&mut self.rng))
            } else {
                String::new()
            };
            let null = if not_null { " NOT NULL" } else { "" };
            let _ = writeln!(
                declarations,
                "    DECLARE @v{index} {}{null}{initial}",
                data_type.sql()
            );
            self.variables.push(Name {
                name: format!("@v{index}"),
                data_type,
                not_null,
            });
        }
        let mut body = String::new();
        for _ in 0..1 + self.rng.below(4) {
            body.push_str(&self.statement(1));
        }
        for index in 0..self.loops {
            declarations.push_str(&format!("    DECLARE @k{index} int = 0\n"));
        }
        let parameters: Vec<String> = self
            .parameters
            .iter()
            .map(|parameter| format!("{} {}", parameter.name, parameter.data_type.sql()))
            .collect();
        script.push_str(&native_procedure(
            "dbo.fuzzed",
            &parameters.join(", "),
            &format!("{declarations}{body}"),
        ));
        for call in 0..1 + self.rng.below(3) {
            if call > 0 && self.rng.chance(15) {
                // The padding column moves to the end: dbo.wide's rows get
                // another layout, so kernels compiled for the old one must
                // not run (a miss, interpreted), and the module is compiled
                // again.
                let padding = self.rng.below(WIDE.padding);
                let _ = writeln!(
                    script,
                    "ALTER TABLE dbo.wide DROP COLUMN pad{padding}\nGO\n\
                     ALTER TABLE dbo.wide ADD pad{padding} int NULL\nGO"
                );
            }
            let arguments: Vec<String> = self
                .parameters
                .clone()
                .iter()
                .map(|parameter| {
                    let value = if self.rng.chance(20) {
                        "NULL".into()
                    } else {
                        parameter.data_type.literal(&mut self.rng)
                    };
                    format!("{} = {value}", parameter.name)
                })
                .collect();
            let call = format!("EXEC dbo.fuzzed {}", arguments.join(", "));
            // Inside a user transaction the atomic block is a savepoint,
            // and the kernel must see what the transaction wrote before.
            let _ = match self.rng.below(8) {
                0 => writeln!(script, "BEGIN TRANSACTION\n{call}\nROLLBACK\nGO"),
                1 => writeln!(script, "BEGIN TRANSACTION\n{call}\nCOMMIT\nGO"),
                2 => {
                    let table = self.table();
                    let id = self.rng.between(1, table.rows);
                    let (column, data_type, nullable) = *self.rng.pick(&COLUMNS);
                    let value = data_type.stored(nullable, &mut self.rng);
                    writeln!(
                        script,
                        "BEGIN TRANSACTION\nUPDATE {} WITH (SNAPSHOT) SET {column} = {value} \
                         WHERE id = {id}\n{call}\nROLLBACK\nGO",
                        table.name
                    )
                }
                _ => writeln!(script, "{call}\nGO"),
            };
            // An error that ends the batch leaves its transaction open.
            script.push_str("IF @@TRANCOUNT > 0 ROLLBACK\nGO\n");
        }
        script
    }

    /// `dbo.fuzzed_inner @x`, of aggregates, for the procedure to call:
    /// the callee runs its own module's kernels, and the caller's after.
    fn inner_procedure(&mut self) -> String {
        let data_type = self.integer_mostly();
        self.parameters.push(Name {
            name: "@x".into(),
            data_type,
            not_null: false,
        });
        let body: String = (0..1 + self.rng.below(2))
            .map(|_| format!("    {}\n", self.aggregate_select()))
            .collect();
        self.parameters.clear();
        self.inner = true;
        native_procedure(
            "dbo.fuzzed_inner",
            &format!("@x {}", data_type.sql()),
            &body,
        )
    }

    /// A type for a parameter or variable: an integer type mostly.
    fn integer_mostly(&mut self) -> Type {
        if self.rng.chance(80) {
            *self.rng.pick(&TYPES[..4])
        } else {
            *self.rng.pick(&TYPES)
        }
    }

    fn table(&mut self) -> &'static Table {
        match self.rng.below(10) {
            0..=6 => &LARGE,
            7 => &SMALL,
            _ => &WIDE,
        }
    }

    /// A statement of the body, indented by `depth`.
    fn statement(&mut self, depth: usize) -> String {
        self.overflowing = false;
        let indent = "    ".repeat(depth);
        let nested = depth < 3;
        let text = match self.rng.below(20) {
            0..=7 => self.aggregate_select(),
            8..=9 => self.assignment_select(),
            10 => self.grouped_select(),
            11 => self.rows_select(),
            12 => self.set_variable(),
            13 => self.show_variables(),
            14 => self.write(),
            15 if nested => {
                let condition = self.variable_condition();
                let then = self.statement(depth + 1);
                let otherwise = self.statement(depth + 1);
                format!("IF {condition}\n{indent}BEGIN\n{then}{indent}END\n{indent}ELSE\n{indent}BEGIN\n{otherwise}{indent}END")
            }
            16 if nested => {
                let counter = format!("@k{}", self.loops);
                self.loops += 1;
                let rounds = 1 + self.rng.below(3);
                let inner = self.statement(depth + 1);
                format!(
                    "SET {counter} = 0\n{indent}WHILE {counter} < {rounds}\n{indent}BEGIN\n{inner}{indent}    SET {counter} = {counter} + 1\n{indent}END"
                )
            }
            18..=19 if self.inner => {
                let names: Vec<Name> = self
                    .parameters
                    .iter()
                    .chain(&self.variables)
                    .cloned()
                    .collect();
                let argument = match names.is_empty() || self.rng.chance(30) {
                    true => self.integer_mostly().literal(&mut self.rng),
                    false => self.rng.pick(&names).name.clone(),
                };
                format!("EXEC dbo.fuzzed_inner @x = {argument}")
            }
            17 if self.rng.chance(30) => {
                format!("THROW 50001, N'thrown', {}", 1 + self.rng.below(3))
            }
            _ => self.aggregate_select(),
        };
        format!("{indent}{text}\n")
    }

    /// `SELECT aggregates FROM table [WHERE ...]`: what compiles, or a
    /// near miss of it.
    fn aggregate_select(&mut self) -> String {
        let table = self.table().name;
        let shaped = self.rng.chance(50);
        let count = 1 + self.rng.below(4);
        let aggregates: Vec<String> = self
            .aggregates(count, shaped)
            .into_iter()
            .enumerate()
            .map(|(index, aggregate)| {
                // The kernel's result in an expression (which may
                // overflow in turn) runs the kernel all the same.
                let aggregate = match self.rng.below(20) {
                    0 => format!("ISNULL({aggregate}, 0)"),
                    1 => format!("{aggregate} + 1"),
                    2 => format!("-{aggregate}"),
                    _ => aggregate,
                };
                if self.rng.chance(85) {
                    format!("{aggregate} AS a{index}")
                } else {
                    aggregate
                }
            })
            .collect();
        let top = if self.rng.chance(10) { "TOP (1) " } else { "" };
        let filter = self.filter(shaped);
        let having = if self.rng.chance(10) {
            format!(" HAVING COUNT(*) > {}", self.rng.between(0, 3))
        } else {
            String::new()
        };
        format!(
            "SELECT {top}{} FROM {table}{filter}{having}",
            aggregates.join(", ")
        )
    }

    /// `SELECT @v = aggregate, ... FROM table [WHERE ...]`, then the
    /// variables' values.
    fn assignment_select(&mut self) -> String {
        if self.variables.is_empty() {
            return self.aggregate_select();
        }
        let table = self.table().name;
        let mut targets = Vec::new();
        let mut assignments = Vec::new();
        let shaped = self.rng.chance(50);
        let count = 1 + self.rng.below(2);
        for aggregate in self.aggregates(count, shaped) {
            let target = self.rng.pick(&self.variables).name.clone();
            assignments.push(format!("{target} = {aggregate}"));
            targets.push(target);
        }
        let filter = self.filter(shaped);
        format!(
            "SELECT {} FROM {table}{filter}\n    SELECT {}",
            assignments.join(", "),
            targets.join(", ")
        )
    }

    fn grouped_select(&mut self) -> String {
        let table = self.table().name;
        let key = self.rng.pick(&COLUMNS).0;
        let aggregate = self.aggregates(1, false).remove(0);
        format!(
            "SELECT {key}, {aggregate} AS a FROM {table}{} GROUP BY {key} ORDER BY {key}",
            self.filter(false)
        )
    }

    /// Rows rather than an aggregate, some with a subquery's aggregate.
    fn rows_select(&mut self) -> String {
        let column = self.rng.pick(&COLUMNS).0;
        let shaped = self.rng.chance(50);
        let filter = self.filter(shaped);
        if self.rng.chance(50) {
            let aggregate = self.aggregates(1, false).remove(0);
            let other = self.rng.pick(non_string_columns()).0;
            format!(
                "SELECT TOP (3) id, {column}, (SELECT {aggregate} FROM dbo.small AS inner_rows \
                 WHERE inner_rows.{other} >= outer_rows.{other}) AS sub \
                 FROM dbo.large AS outer_rows{filter} ORDER BY id"
            )
        } else {
            let table = self.table().name;
            format!("SELECT TOP (5) id, {column} FROM {table}{filter} ORDER BY id")
        }
    }

    fn set_variable(&mut self) -> String {
        if self.variables.is_empty() {
            return self.aggregate_select();
        }
        let target = self.rng.pick(&self.variables).clone();
        let value = match self.rng.below(4) {
            0 => target.data_type.literal(&mut self.rng),
            1 => "NULL".into(),
            2 if target.data_type.is_summable() || target.data_type == Type::Bit => {
                format!("{} + {}", target.name, self.rng.between(-2, 2))
            }
            _ => {
                let shaped = self.rng.chance(50);
                let aggregate = self.aggregates(1, shaped).remove(0);
                let table = self.table().name;
                format!("(SELECT {aggregate} FROM {table}{})", self.filter(shaped))
            }
        };
        format!("SET {} = {value}", target.name)
    }

    fn show_variables(&mut self) -> String {
        let names: Vec<String> = self
            .parameters
            .iter()
            .chain(&self.variables)
            .map(|name| name.name.clone())
            .collect();
        if names.is_empty() {
            return self.aggregate_select();
        }
        format!("SELECT {}", names.join(", "))
    }

    /// A change to a row before the aggregates that follow read it: the
    /// kernel must see the block's own writes, and no rolled-back ones.
    /// UPDATE and DELETE of a row, or of a few filtered as a SELECT's
    /// (filter kernels test rows for them too).
    fn write(&mut self) -> String {
        let table = self.table();
        let id = self.rng.between(1, table.rows);
        let (column, data_type, nullable) = *self.rng.pick(&COLUMNS);
        // NULL in a NOT NULL column: Msg 515 both ways.
        let value = if self.rng.chance(20) {
            "NULL".into()
        } else {
            data_type.stored(nullable, &mut self.rng)
        };
        match self.rng.below(5) {
            0 => format!(
                "UPDATE {} SET {column} = {value} WHERE id = {id}",
                table.name
            ),
            1 if self.rng.chance(50) => {
                let shaped = self.rng.chance(60);
                format!(
                    "UPDATE {} SET {column} = {value} WHERE id >= {id} AND id < {} AND {}",
                    table.name,
                    id + 5,
                    self.condition(shaped)
                )
            }
            1 => {
                let shaped = self.rng.chance(60);
                format!(
                    "DELETE FROM {} WHERE id >= {id} AND id < {} AND {}",
                    table.name,
                    id + 2,
                    self.condition(shaped)
                )
            }
            2 | 3 => format!(
                "DELETE FROM {} WHERE id = {id}\n    {}",
                table.name,
                insert(table, id, &mut self.rng)
            ),
            _ => format!("DELETE FROM {} WHERE id = {id}", table.name),
        }
    }

    /// `count` aggregate calls; of a statement's, at most one can
    /// overflow: when two can, which one overflows first hangs on the
    /// scan order.
    fn aggregates(&mut self, count: usize, kernel_shaped: bool) -> Vec<String> {
        (0..count)
            .map(|_| loop {
                let (call, may_overflow) = self.aggregate(kernel_shaped);
                if !(self.overflowing && may_overflow) {
                    self.overflowing |= may_overflow;
                    break call;
                }
            })
            .collect()
    }

    /// An aggregate call: one that compiles, or (unless `kernel_shaped`)
    /// a near miss; and whether it can overflow (a SUM or AVG of a column
    /// whose values can add up past its type).
    fn aggregate(&mut self, kernel_shaped: bool) -> (String, bool) {
        let (column, data_type, nullable) = *self.rng.pick(non_string_columns());
        let choices = if kernel_shaped { 9 } else { 16 };
        // `SUM(sm + 1)` can pass smallmoney's range too.
        let wide = matches!(
            data_type,
            Type::Int | Type::BigInt | Type::Money | Type::SmallMoney
        );
        let computes =
            data_type.is_integer() || matches!(data_type, Type::Money | Type::SmallMoney);
        if computes && self.rng.chance(25) {
            return self.computed_aggregate(column, nullable, data_type);
        }
        let choice = self.rng.below(choices);
        // Of a bit only counts, of a date no sums (else Msg 8117).
        if data_type == Type::Bit
            || !data_type.is_summable() && matches!(choice, 4..=6 | 9..=11 | 14)
        {
            let function = match data_type {
                Type::Bit => *self.rng.pick(&["COUNT", "COUNT_BIG"]),
                _ => *self.rng.pick(&["MIN", "MAX", "COUNT"]),
            };
            return (format!("{function}({column})"), false);
        }
        match choice {
            0 => ("COUNT(*)".into(), false),
            1 => ("COUNT_BIG(*)".into(), false),
            2 => (format!("COUNT({column})"), false),
            3 => (format!("COUNT_BIG({column})"), false),
            4..=6 => (format!("SUM({column})"), wide),
            7 => (format!("MIN({column})"), false),
            8 => (format!("MAX({column})"), false),
            9 => (format!("AVG({column})"), wide),
            10 => (format!("SUM({column} + {})", self.rng.between(0, 1)), wide),
            11 => (format!("SUM(DISTINCT {column})"), wide),
            12 => (format!("COUNT(DISTINCT {column})"), false),
            13 => (
                format!("{}(v)", self.rng.pick(&["MIN", "MAX", "COUNT"])),
                false,
            ),
            14 => (format!("SUM(CAST({column} AS bigint))"), wide),
            _ if data_type.is_integer() => ("MAX(id)".into(), false),
            _ => (format!("MIN({column})"), false),
        }
    }

    /// An aggregate of `column` joined by +, - or * (money: + or -) to
    /// itself or a small constant: computed in the kernel when the result
    /// type is the aggregate's. It can overflow (in the argument's type: a
    /// tinyint difference below 0, an int product, a money sum near its
    /// limit), so it is the statement's one that may. The argument keeps
    /// the column's sign (see [`COLUMNS`]), so that whether a SUM of it
    /// overflows does not hang on the order rows are scanned in.
    fn computed_aggregate(
        &mut self,
        column: &str,
        nullable: bool,
        data_type: Type,
    ) -> (String, bool) {
        let money = matches!(data_type, Type::Money | Type::SmallMoney);
        let (op, other) = if self.rng.chance(40) {
            let op = if money {
                "+"
            } else {
                *self.rng.pick(&["+", "*"])
            };
            (op, column.to_string())
        } else {
            let constant = self.rng.between(0, 3);
            let written = match money {
                true => data_type.literal_of(constant * 2_500, &mut self.rng),
                false => constant.to_string(),
            };
            // Away from zero on the column's side, or a scale.
            let op = match (money || self.rng.chance(60), nullable) {
                (true, true) => "+",
                (true, false) => "-",
                (false, _) => "*",
            };
            (op, written)
        };
        let function = *self.rng.pick(&["SUM", "MIN", "MAX", "COUNT"]);
        (format!("{function}({column} {op} {other})"), true)
    }

    /// ` WHERE ...` or nothing.
    fn filter(&mut self, kernel_shaped: bool) -> String {
        if self.rng.chance(30) {
            return String::new();
        }
        format!(" WHERE {}", self.condition(kernel_shaped))
    }

    /// Comparisons joined by AND (or, unless `kernel_shaped`, OR and NOT).
    fn condition(&mut self, kernel_shaped: bool) -> String {
        let mut condition = self.comparison(kernel_shaped);
        for _ in 0..self.rng.below(3) {
            let joiner = if kernel_shaped || self.rng.chance(85) {
                "AND"
            } else {
                "OR"
            };
            condition = format!("{condition} {joiner} {}", self.comparison(kernel_shaped));
        }
        if !kernel_shaped && self.rng.chance(5) {
            condition = format!("NOT ({condition})");
        }
        condition
    }

    /// A comparison of a column: with a constant or variable of its type
    /// mostly (compiles), else across types or with an expression.
    fn comparison(&mut self, kernel_shaped: bool) -> String {
        if kernel_shaped {
            return self.kernel_comparison();
        }
        let (column, data_type, _) = *self.rng.pick(&COLUMNS);
        let op = *self.rng.pick(&["=", "<>", "<", "<=", ">", ">="]);
        let same_type: Vec<Name> = self
            .parameters
            .iter()
            .chain(&self.variables)
            .filter(|name| name.data_type == data_type)
            .cloned()
            .collect();
        if data_type.is_integer() && self.rng.chance(15) {
            return self.cast_comparison(column, data_type, op);
        }
        let operand = match self.rng.below(12) {
            0..=4 if !same_type.is_empty() => self.rng.pick(&same_type).name.clone(),
            0..=6 if data_type == Type::Int || data_type == Type::TinyInt => {
                Type::Int.literal(&mut self.rng)
            }
            7 => {
                let names: Vec<&Name> = self
                    .parameters
                    .iter()
                    .chain(&self.variables)
                    .filter(|name| data_type.compares_without_error(name.data_type))
                    .collect();
                if names.is_empty() {
                    "NULL".into()
                } else {
                    self.rng.pick(&names).name.clone()
                }
            }
            8 => format!(
                "CAST({} AS {})",
                data_type.literal(&mut self.rng),
                data_type.sql()
            ),
            9 => {
                let columns: Vec<&str> = COLUMNS
                    .iter()
                    .filter(|(_, other, _)| data_type.compares_without_error(*other))
                    .map(|(column, _, _)| *column)
                    .collect();
                self.rng.pick(&columns).to_string()
            }
            // No column: not a kernel's condition.
            11 if !same_type.is_empty() => {
                let name = self.rng.pick(&same_type).name.clone();
                return format!("{name} {op} {}", data_type.literal(&mut self.rng));
            }
            10 => {
                return format!(
                    "{column} IS {}NULL",
                    if self.rng.chance(50) { "NOT " } else { "" }
                )
            }
            _ => data_type.literal(&mut self.rng),
        };
        self.compared(column, data_type, op, &operand)
    }

    /// `CAST(column AS type) op value` to a wider integer type (the kernel
    /// compares the column as stored), or `TRY_CAST` to any (a narrowing
    /// one gives NULL for the values that do not fit, so it must not be
    /// compiled as the column). A failing CAST cannot be fuzzed: its
    /// message names the first value scanned that does not fit.
    fn cast_comparison(&mut self, column: &str, data_type: Type, op: &str) -> String {
        let rank = |data_type: Type| TYPES.iter().position(|other| *other == data_type);
        let target = *self.rng.pick(&TYPES[..4]);
        let cast = if rank(target) < rank(data_type) || self.rng.chance(20) {
            "TRY_CAST"
        } else {
            "CAST"
        };
        let names: Vec<Name> = self
            .parameters
            .iter()
            .chain(&self.variables)
            .filter(|name| name.data_type == target)
            .cloned()
            .collect();
        let value = if !names.is_empty() && self.rng.chance(50) {
            self.rng.pick(&names).name.clone()
        } else {
            Type::Int.literal(&mut self.rng)
        };
        self.compared(
            &format!("{cast}({column} AS {})", target.sql()),
            target,
            op,
            &value,
        )
    }

    /// A comparison that compiles: an integer column with a variable or
    /// parameter of its type, or an integer column with an int constant
    /// (a narrower column widened; a bigint one compared as such).
    fn kernel_comparison(&mut self) -> String {
        let op = *self.rng.pick(&["=", "<>", "<", "<=", ">", ">="]);
        let names: Vec<Name> = self
            .parameters
            .iter()
            .chain(&self.variables)
            .filter(|name| name.data_type.compiles_in_comparisons())
            .cloned()
            .collect();
        if !names.is_empty() && self.rng.chance(60) {
            let name = self.rng.pick(&names).clone();
            let columns: Vec<&str> = COLUMNS
                .iter()
                .filter(|(_, data_type, _)| *data_type == name.data_type)
                .map(|(column, _, _)| *column)
                .collect();
            let column = *self.rng.pick(&columns);
            return self.compared(column, name.data_type, op, &name.name);
        }
        let column = *self.rng.pick(&["i", "i_n", "id", "s", "sn", "t", "b"]);
        let constant = Type::Int.literal(&mut self.rng);
        self.compared(column, Type::Int, op, &constant)
    }

    /// `column op operand`, written either way round, now and then with
    /// the column in an expression that leaves it as it is.
    fn compared(&mut self, column: &str, data_type: Type, op: &str, operand: &str) -> String {
        if self.rng.chance(30) {
            let flipped = match op {
                "<" => ">",
                "<=" => ">=",
                ">" => "<",
                ">=" => "<=",
                same => same,
            };
            format!("{operand} {flipped} {column}")
        } else if self.rng.chance(6) && data_type.is_integer() {
            // Computed in the kernel too; never past the type (which row
            // overflows first would hang on the scan order).
            let identity = *self.rng.pick(&["+ 0", "- 0", "* 1"]);
            format!("{column} {identity} {op} {operand}")
        } else {
            format!("{column} {op} {operand}")
        }
    }

    /// A condition for IF: on a variable or parameter.
    fn variable_condition(&mut self) -> String {
        let names: Vec<Name> = self
            .parameters
            .iter()
            .chain(&self.variables)
            .filter(|name| name.data_type.is_integer())
            .cloned()
            .collect();
        if names.is_empty() {
            return format!("{} > 0", self.rng.between(-1, 1));
        }
        let name = self.rng.pick(&names).clone();
        if self.rng.chance(30) && !name.not_null {
            format!("{} IS NULL", name.name)
        } else {
            format!("{} > {}", name.name, self.rng.between(-5, 5))
        }
    }
}
