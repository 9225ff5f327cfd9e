//! The live progress line on stderr: batches done of the total, batches/s,
//! errors and elapsed time. At a terminal it is redrawn in place every
//! 500 ms; into a file or a pipe a line is written every 5 s instead, so a
//! long run's log stays readable.

use super::summary::{count, seconds};
use crate::bench::report::format_value;
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

const REDRAW: Duration = Duration::from_millis(500);
/// Redraws per line written when stderr is not a terminal.
const REDRAWS_PER_LOG_LINE: u32 = 10;

pub struct Progress {
    total: u64,
    batches: AtomicU64,
    errors: AtomicU64,
    shown: bool,
    terminal: bool,
}

impl Progress {
    pub fn new(total: u64, shown: bool) -> Progress {
        Progress {
            total,
            batches: AtomicU64::new(0),
            errors: AtomicU64::new(0),
            shown,
            terminal: std::io::stderr().is_terminal(),
        }
    }

    /// A connection finished one batch execution, with `errors` errors.
    pub fn batch_done(&self, errors: u64) {
        self.batches.fetch_add(1, Ordering::Relaxed);
        if errors > 0 {
            self.errors.fetch_add(errors, Ordering::Relaxed);
        }
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
        let done = self.batches.load(Ordering::Relaxed);
        let rate = done as f64 / elapsed.as_secs_f64().max(f64::MIN_POSITIVE);
        let line = format!(
            "{}/{} batches  {} batches/s  {} errors  {} elapsed",
            count(done),
            count(self.total),
            format_value(rate),
            count(self.errors.load(Ordering::Relaxed)),
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
