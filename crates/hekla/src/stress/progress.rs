//! The live progress line on stderr: batches (or what they make, such as
//! `hekla demo`'s orders) done of the total, per second, errors by number
//! and elapsed time. At a terminal it is redrawn in place every
//! 500 ms; into a file or a pipe a line is written every 5 s instead, so a
//! long run's log stays readable.

use super::summary::{count, seconds};
use crate::bench::report::format_value;
use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::Mutex;
use std::time::{Duration, Instant};

const REDRAW: Duration = Duration::from_millis(500);
/// Redraws per line written when stderr is not a terminal.
const REDRAWS_PER_LOG_LINE: u32 = 10;

pub struct Progress {
    total: u64,
    batches: AtomicU64,
    /// Errors by number; locked only when a batch had errors.
    errors: Mutex<BTreeMap<u32, u64>>,
    /// What is counted ("batches", or "orders" at `per_batch` a batch).
    unit: &'static str,
    per_batch: u64,
    shown: bool,
    terminal: bool,
}

impl Progress {
    pub fn new(total: u64, shown: bool) -> Progress {
        Progress {
            total,
            batches: AtomicU64::new(0),
            errors: Mutex::new(BTreeMap::new()),
            unit: "batches",
            per_batch: 1,
            shown,
            terminal: std::io::stderr().is_terminal(),
        }
    }

    /// Counts `unit`s, `per_batch` of them a batch, instead of batches.
    pub fn counting(self, unit: &'static str, per_batch: u64) -> Progress {
        Progress {
            unit,
            per_batch,
            ..self
        }
    }

    /// A connection finished one batch execution, with errors of these
    /// numbers.
    pub fn batch_done(&self, errors: impl Iterator<Item = u32>) {
        self.batches.fetch_add(1, Ordering::Relaxed);
        let mut errors = errors.peekable();
        if errors.peek().is_some() {
            let mut counts = self.error_counts();
            for number in errors {
                *counts.entry(number).or_default() += 1;
            }
        }
    }

    fn error_counts(&self) -> std::sync::MutexGuard<'_, BTreeMap<u32, u64>> {
        // Counters stay consistent if a holder panicked mid-update.
        self.errors.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Shows the line until every connection has said it finished on
    /// `finishes` (the channel closes when the last one is done).
    pub fn watch(&self, start: Instant, finishes: &Receiver<()>) {
        let mut redraws = 0u32;
        let mut next = start + REDRAW;
        loop {
            match finishes.recv_timeout(next.saturating_duration_since(Instant::now())) {
                Ok(()) => continue,
                Err(RecvTimeoutError::Disconnected) => return,
                Err(RecvTimeoutError::Timeout) => {}
            }
            next += REDRAW;
            redraws += 1;
            if self.shown && (self.terminal || redraws.is_multiple_of(REDRAWS_PER_LOG_LINE)) {
                self.draw(start.elapsed());
            }
        }
    }

    fn draw(&self, elapsed: Duration) {
        let done = self.batches.load(Ordering::Relaxed) * self.per_batch;
        let rate = done as f64 / elapsed.as_secs_f64().max(f64::MIN_POSITIVE);
        let errors = self.error_counts();
        let errors = if errors.is_empty() {
            "0 errors".to_string()
        } else {
            let counts: Vec<String> = errors
                .iter()
                .map(|(number, n)| format!("{number}: {}", count(*n)))
                .collect();
            format!("errors {}", counts.join(", "))
        };
        let unit = self.unit;
        let line = format!(
            "{}/{} {unit}  {} {unit}/s  {errors}  {} elapsed",
            count(done),
            count(self.total * self.per_batch),
            format_value(rate),
            seconds(elapsed),
        );
        let mut stderr = std::io::stderr().lock();
        // A progress line that cannot be written is not worth stopping for.
        let _ = if self.terminal {
            write!(stderr, "\r{line}\x1b[K")
        } else {
            writeln!(stderr, "{line}")
        };
        let _ = stderr.flush();
    }

    /// Clears the line at a terminal, so the report starts on a clean one.
    pub fn finish(&self) {
        if self.shown && self.terminal {
            let _ = write!(std::io::stderr(), "\r\x1b[K");
        }
    }
}
