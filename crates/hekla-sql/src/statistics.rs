//! `SET STATISTICS TIME ON` and `SET STATISTICS IO ON`: the messages SQL
//! Server sends with each batch and statement, with hekla's own figures.
//!
//! TIME measures the thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`) and
//! the wall clock: a batch's parse, and each query or data-changing
//! statement's run (binding, planning and execution; hekla compiles
//! statements as they run, so their compile time is counted there).
//!
//! IO reports, per table a statement read, how many scans and seeks
//! started (SQL Server's scan count). hekla keeps rows in memory without
//! pages, so every page figure is 0; memory-optimized tables get no line
//! at all, as SQL Server gives none for them.

use std::time::{Duration, Instant};

/// Wall-clock and CPU time since it started.
pub struct Stopwatch {
    wall: Instant,
    cpu: Duration,
}

/// Where a stopwatch stood when read: CPU and elapsed microseconds since
/// it started, and the thread's CPU clock at that moment.
pub struct Lap {
    pub worker_micros: u64,
    pub elapsed_micros: u64,
    pub cpu_now: Duration,
}

impl Stopwatch {
    pub fn start() -> Stopwatch {
        Stopwatch::from_cpu(thread_cpu_time())
    }

    /// A stopwatch counting CPU time from `cpu`, an earlier reading of
    /// this thread's CPU clock taken while running the same request (so
    /// all CPU time since then was spent on it). Reading the clock is a
    /// system call (about a microsecond on a VM), a large share of a
    /// point statement, so consecutive statements share one reading.
    pub fn from_cpu(cpu: Duration) -> Stopwatch {
        Stopwatch {
            wall: Instant::now(),
            cpu,
        }
    }

    /// CPU and elapsed milliseconds so far.
    fn milliseconds(&self) -> (u128, u128) {
        let cpu = thread_cpu_time().saturating_sub(self.cpu);
        (cpu.as_millis(), self.wall.elapsed().as_millis())
    }

    /// CPU and elapsed microseconds so far (`sys.dm_exec_query_stats`).
    pub fn lap(&self) -> Lap {
        let cpu_now = thread_cpu_time();
        let micros = |d: Duration| u64::try_from(d.as_micros()).unwrap_or(u64::MAX);
        Lap {
            worker_micros: micros(cpu_now.saturating_sub(self.cpu)),
            elapsed_micros: micros(self.wall.elapsed()),
            cpu_now,
        }
    }

    /// SQL Server's Msg 3613, after a batch is parsed.
    pub fn compile_message(&self) -> String {
        let (cpu, elapsed) = self.milliseconds();
        format!(
            "SQL Server parse and compile time: \n   CPU time = {cpu} ms, elapsed time = {elapsed} ms."
        )
    }

    /// SQL Server's Msg 3612, after a statement ran.
    pub fn execution_message(&self) -> String {
        let (cpu, elapsed) = self.milliseconds();
        format!(
            "\n SQL Server Execution Times:\n   CPU time = {cpu} ms,  elapsed time = {elapsed} ms."
        )
    }
}

/// The CPU time the calling thread has used.
fn thread_cpu_time() -> Duration {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `now` is a valid, writable timespec for the call's duration,
    // and CLOCK_THREAD_CPUTIME_ID is a clock every Linux kernel has.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) };
    if status != 0 {
        return Duration::ZERO;
    }
    Duration::new(
        u64::try_from(now.tv_sec).unwrap_or(0),
        u32::try_from(now.tv_nsec).unwrap_or(0),
    )
}

/// The scans and seeks a statement started, per table it read, in the
/// order it first read them.
#[derive(Debug, Default)]
pub struct TableReads {
    tables: Vec<(String, u64)>,
}

impl TableReads {
    /// One more scan or seek of `table`.
    pub fn count(&mut self, table: &str) {
        match self.tables.iter_mut().find(|(name, _)| name == table) {
            Some((_, scans)) => *scans += 1,
            None => self.tables.push((table.to_string(), 1)),
        }
    }

    /// Adds the reads `other` counted.
    pub fn merge(&mut self, other: TableReads) {
        for (table, scans) in other.tables {
            match self.tables.iter_mut().find(|(name, _)| *name == table) {
                Some((_, mine)) => *mine += scans,
                None => self.tables.push((table, scans)),
            }
        }
    }

    /// SQL Server's Msg 3615 line for each table.
    pub fn messages(&self) -> impl Iterator<Item = String> + '_ {
        self.tables.iter().map(|(table, scans)| {
            format!(
                "Table '{table}'. Scan count {scans}, logical reads 0, physical reads 0, page server reads 0, read-ahead reads 0, page server read-ahead reads 0, lob logical reads 0, lob physical reads 0, lob page server reads 0, lob read-ahead reads 0, lob page server read-ahead reads 0."
            )
        })
    }
}
