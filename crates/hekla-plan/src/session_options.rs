//! A session's SET options: what each is, its default, and `@@OPTIONS`.
//! Binding reads some (ANSI_NULLS, ROWCOUNT, ANSI_WARNINGS for what an
//! INSERT or UPDATE stores) from the [`crate::plan::Planner`], evaluation
//! the rest from the statement's `Context` (in hekla-exec).
//! `set_statement` (in hekla-sql) reads the SET statements that change them.
//!
//! The defaults are what SQL Server's drivers (ODBC, OLE DB, SqlClient)
//! leave a session with: `@@OPTIONS` 5432, TEXTSIZE 2147483647.
//!
//! Options hekla does not store have one value it always runs with:
//! QUOTED_IDENTIFIER, ANSI_PADDING and ANSI_NULL_DFLT_ON are ON;
//! NUMERIC_ROUNDABORT and ANSI_NULL_DFLT_OFF OFF.

use hekla_parser::ast::IsolationLevel;
use hekla_types::datetime::DateFormat;

/// A session's SET options. A procedure that changes one changes it until
/// it returns, as in SQL Server.
#[derive(Clone, Debug, PartialEq)]
pub struct SetOptions {
    /// `SET NOCOUNT ON`: no row counts in DONE.
    pub nocount: bool,
    /// `SET SHOWPLAN_TEXT ON`: queries show their plans instead of running.
    pub showplan: bool,
    /// `SET XACT_ABORT ON`: an error ends the rest of the batch too.
    pub xact_abort: bool,
    /// `SET IMPLICIT_TRANSACTIONS ON`: outside a transaction, the
    /// statements SQL Server lists (see `interpret::implicit`) begin
    /// one, which stays open until COMMIT or ROLLBACK.
    pub implicit_transactions: bool,
    /// `SET TRANSACTION ISOLATION LEVEL` (an atomic block's level inside
    /// one).
    pub isolation: IsolationLevel,
    /// Inside a natively compiled procedure's atomic block, whose level
    /// reads every table (`exec::isolation`).
    pub atomic_block: bool,
    /// OFF: `x = NULL` holds when x is NULL, where NULL is a literal or a
    /// variable (see `bind::expr::Binder::compare`).
    pub ansi_nulls: bool,
    /// OFF: a string or binary value too long for its column is cut
    /// rather than refused (Msg 2628); with ARITHABORT OFF too, arithmetic
    /// errors are NULL.
    pub ansi_warnings: bool,
    /// OFF together with ANSI_WARNINGS: arithmetic errors are NULL.
    pub arithabort: bool,
    /// ON: arithmetic errors that become NULL say nothing.
    pub arithignore: bool,
    /// OFF: `'a' + NULL` is `'a'`.
    pub concat_null_yields_null: bool,
    /// hekla has no cursors, so there is nothing for it to close.
    pub cursor_close_on_commit: bool,
    /// How text without a CONVERT style reads as a date.
    pub date_format: DateFormat,
    /// The first day of the week, 1 (Monday) to 7 (Sunday): `@@DATEFIRST`,
    /// `DATEPART(weekday | week, ...)`.
    pub date_first: u8,
    /// Bytes of a varchar(max), nvarchar(max) or varbinary(max) value sent
    /// to the client.
    pub text_size: i32,
    /// Rows after which a SELECT, INSERT, UPDATE or DELETE stops; 0 for
    /// no limit.
    pub row_count: u64,
    /// `@@LOCK_TIMEOUT`; hekla takes no locks, so nothing waits for it.
    pub lock_timeout: i32,
    /// -10 to 10 (LOW -5, NORMAL 0, HIGH 5), for sys.dm_exec_sessions;
    /// hekla has no deadlocks to choose a victim of.
    pub deadlock_priority: i32,
    /// `SET STATISTICS IO ON`: each statement reports its table reads.
    pub statistics_io: bool,
    /// `SET STATISTICS TIME ON`: batches and statements report their
    /// times.
    pub statistics_time: bool,
    /// `SET IDENTITY_INSERT t ON`: the table (by object id) whose IDENTITY
    /// column an INSERT may give values to; one at a time.
    pub identity_insert: Option<i32>,
}

/// SET TEXTSIZE's largest value, which drivers set at connect.
pub const MAX_TEXT_SIZE: i32 = i32::MAX;

impl Default for SetOptions {
    fn default() -> Self {
        SetOptions {
            nocount: false,
            showplan: false,
            xact_abort: false,
            implicit_transactions: false,
            isolation: IsolationLevel::ReadCommitted,
            atomic_block: false,
            ansi_nulls: true,
            ansi_warnings: true,
            arithabort: false,
            arithignore: false,
            concat_null_yields_null: true,
            cursor_close_on_commit: false,
            date_format: DateFormat::Mdy,
            date_first: US_ENGLISH_DATE_FIRST,
            text_size: MAX_TEXT_SIZE,
            row_count: 0,
            lock_timeout: -1,
            deadlock_priority: 0,
            statistics_io: false,
            statistics_time: false,
            identity_insert: None,
        }
    }
}

/// us_english, the only language hekla has messages in.
pub const LANGUAGE: &str = "us_english";
/// us_english's first day of the week: Sunday.
const US_ENGLISH_DATE_FIRST: u8 = 7;

impl SetOptions {
    /// Arithmetic errors (overflow, divide by zero, an invalid floating
    /// point operation) give NULL instead of failing: SQL Server does so
    /// when ARITHABORT and ANSI_WARNINGS are both OFF.
    pub fn arithmetic_errors_are_null(&self) -> bool {
        !self.arithabort && !self.ansi_warnings
    }

    /// `SET LANGUAGE us_english` also sets the language's date order and
    /// first day of the week.
    pub fn use_us_english(&mut self) {
        self.date_format = DateFormat::Mdy;
        self.date_first = US_ENGLISH_DATE_FIRST;
    }

    /// `SET ANSI_DEFAULTS ON`: ANSI_NULLS, ANSI_WARNINGS,
    /// CURSOR_CLOSE_ON_COMMIT and IMPLICIT_TRANSACTIONS on (ANSI_PADDING,
    /// ANSI_NULL_DFLT_ON and QUOTED_IDENTIFIER, the rest of the group, are
    /// always on in hekla).
    pub fn set_ansi_defaults(&mut self) {
        self.ansi_nulls = true;
        self.ansi_warnings = true;
        self.cursor_close_on_commit = true;
        self.implicit_transactions = true;
    }

    /// Whether every option ANSI_DEFAULTS sets is on
    /// (sys.dm_exec_sessions' `ansi_defaults`).
    pub fn ansi_defaults(&self) -> bool {
        self.ansi_nulls
            && self.ansi_warnings
            && self.cursor_close_on_commit
            && self.implicit_transactions
    }

    /// `@@OPTIONS`: SQL Server's bits for the ON/OFF options.
    pub fn bitmask(&self) -> i32 {
        let bits = [
            (2, self.implicit_transactions),
            (4, self.cursor_close_on_commit),
            (8, self.ansi_warnings),
            (16, true), // ANSI_PADDING
            (32, self.ansi_nulls),
            (64, self.arithabort),
            (128, self.arithignore),
            (256, true), // QUOTED_IDENTIFIER
            (512, self.nocount),
            (1024, true), // ANSI_NULL_DFLT_ON
            (4096, self.concat_null_yields_null),
            (16384, self.xact_abort),
        ];
        bits.iter().filter(|(_, on)| *on).map(|(bit, _)| bit).sum()
    }

    /// sys.dm_exec_sessions' `transaction_isolation_level` code.
    pub fn isolation_code(&self) -> i16 {
        match self.isolation {
            IsolationLevel::ReadUncommitted => 1,
            IsolationLevel::ReadCommitted => 2,
            IsolationLevel::RepeatableRead => 3,
            IsolationLevel::Serializable => 4,
            IsolationLevel::Snapshot => 5,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_are_the_drivers() {
        let mut options = SetOptions::default();
        assert_eq!(options.bitmask(), 5432);
        options.nocount = true;
        options.xact_abort = true;
        options.ansi_nulls = false;
        options.implicit_transactions = true;
        assert_eq!(options.bitmask(), 5432 + 512 + 16384 - 32 + 2);
        assert_eq!(options.isolation_code(), 2);
    }
}
