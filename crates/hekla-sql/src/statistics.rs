//! `SET STATISTICS TIME ON` and `SET STATISTICS IO ON`: the messages SQL
//! Server sends with each batch and statement, with hekla's own figures.
//!
//! TIME measures the thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`) and
//! the wall clock: a batch's parse, and each query or data-changing
//! statement's run (binding, planning and execution; hekla compiles
//! statements as they run, so their compile time is counted there).
//! The plan cache's counters take their worker time from a [`CpuMeter`]
//! instead, which reads the CPU clock once per [`CPU_WINDOW`] or per
//! statement or procedure call as long, whichever is rarer.
//!
//! IO reports, per table a statement read, how many scans and seeks
//! started (SQL Server's scan count, which the executor counts in its
//! `exec::table_reads`). hekla keeps rows in memory without
//! pages, so every page figure is 0; memory-optimized tables get no line
//! at all, as SQL Server gives none for them.

use std::cell::RefCell;
use std::time::{Duration, Instant};

/// Wall-clock and CPU time since it started, read exactly: `SET
/// STATISTICS TIME ON` (an opt-in, as in SQL Server) pays two reads of
/// the thread's CPU clock per statement for it.
pub struct Stopwatch {
    wall: Instant,
    cpu: Duration,
}

/// A statement's worker (CPU) and elapsed microseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lap {
    pub worker_micros: u64,
    pub elapsed_micros: u64,
}

impl Lap {
    fn new(worker: Duration, elapsed: Duration) -> Lap {
        Lap {
            worker_micros: micros(worker),
            elapsed_micros: micros(elapsed),
        }
    }
}

fn micros(duration: Duration) -> u64 {
    u64::try_from(duration.as_micros()).unwrap_or(u64::MAX)
}

impl Stopwatch {
    pub fn start() -> Stopwatch {
        Stopwatch {
            wall: Instant::now(),
            cpu: thread_cpu_time(),
        }
    }

    /// CPU and elapsed milliseconds so far.
    fn milliseconds(&self) -> (u128, u128) {
        let cpu = thread_cpu_time().saturating_sub(self.cpu);
        (cpu.as_millis(), self.wall.elapsed().as_millis())
    }

    /// CPU and elapsed microseconds so far.
    pub fn lap(&self) -> Lap {
        Lap::new(
            thread_cpu_time().saturating_sub(self.cpu),
            self.wall.elapsed(),
        )
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

/// How much wall time passes between two reads of the thread's CPU clock
/// at most (see [`CpuMeter`]). A read costs about 1 µs on the development
/// VM, so the meter costs at most 0.5% of a busy thread; a statement of
/// 2 ms or more is measured within 10% (the window it closes began at
/// most 200 µs before it), and a window still holds dozens of point
/// statements, so their share is a fresh one.
pub const CPU_WINDOW: Duration = Duration::from_micros(200);

/// A thread's CPU clock; tests drive a scripted one.
pub trait CpuClock {
    /// The CPU time the thread has used so far.
    fn now(&mut self) -> Duration;
}

/// The calling thread's `CLOCK_THREAD_CPUTIME_ID`.
pub struct ThreadCpuClock;

impl CpuClock for ThreadCpuClock {
    fn now(&mut self) -> Duration {
        thread_cpu_time()
    }
}

/// The worker time of the statements and procedure calls a thread runs,
/// for the plan cache's counters (`sys.dm_exec_query_stats`,
/// `sys.dm_exec_procedure_stats`), without reading the thread's CPU clock
/// (a system call) twice for each.
///
/// Elapsed time is exact (the monotonic clock is cheap). The CPU clock is
/// read at a statement's start or end once a window of [`CPU_WINDOW`] has
/// passed since the last read, and at the end of a statement that ran
/// for a window or longer. A statement that long gets the CPU time used
/// since the read before its start (at most a window earlier), capped at
/// its elapsed time: exact but for that margin, whatever ran inside it
/// (a procedure's statements, a wait). A shorter one gets its elapsed
/// time times the thread's share of the CPU in the last window closed:
/// the CPU time used divided by the time statements were running in it
/// (time between requests, when the thread waits for its client, is not
/// counted against it), capped at 1 (and 1 before the first window). A
/// worker time is never more than the elapsed time.
pub struct CpuMeter<C> {
    clock: C,
    window: Option<Window>,
    /// The thread's share of the CPU in the last window closed, in [0, 1].
    share: f64,
}

/// A window of time over which the thread's CPU share is measured.
struct Window {
    opened: Instant,
    cpu_at_open: Duration,
    /// Time statements were running in the window so far.
    busy: Duration,
    /// The latest end of a statement in the window: a statement running
    /// around others (an EXEC and the procedure's statements) only adds
    /// the time after them, so no moment counts twice. Its own time
    /// before and between them is left out, which can only raise the
    /// share (and it is capped at 1).
    busy_until: Instant,
}

impl<C: CpuClock> CpuMeter<C> {
    pub const fn new(clock: C) -> CpuMeter<C> {
        CpuMeter {
            clock,
            window: None,
            share: 1.0,
        }
    }

    /// A statement starts `now`: where it started, for
    /// [`Self::statement_ended`].
    pub fn statement_started(&mut self, now: Instant) -> Start {
        self.close_window_if_due(now);
        Start {
            at: now,
            cpu: self
                .window
                .as_ref()
                .map_or(Duration::ZERO, |w| w.cpu_at_open),
        }
    }

    /// The statement that started at `start` ends at `ended`: its worker
    /// and elapsed time.
    pub fn statement_ended(&mut self, start: Start, ended: Instant) -> Lap {
        let started = start.at;
        if let Some(window) = &mut self.window {
            let from = started.max(window.busy_until).max(window.opened);
            window.busy += ended.saturating_duration_since(from);
            window.busy_until = window.busy_until.max(ended);
        }
        let elapsed = ended.saturating_duration_since(started);
        if elapsed >= CPU_WINDOW {
            let cpu = self.close_window(ended);
            return Lap::new(cpu.saturating_sub(start.cpu).min(elapsed), elapsed);
        }
        self.close_window_if_due(ended);
        Lap::new(elapsed.mul_f64(self.share), elapsed)
    }

    /// Closes the window if none is open or the open one is
    /// [`CPU_WINDOW`] old.
    fn close_window_if_due(&mut self, now: Instant) {
        if let Some(window) = &self.window {
            if now.saturating_duration_since(window.opened) < CPU_WINDOW {
                return;
            }
        }
        self.close_window(now);
    }

    /// Reads the CPU clock, taking the share of the open window (if any
    /// statement ran in it) and opening the next; the CPU time read.
    fn close_window(&mut self, now: Instant) -> Duration {
        let cpu = self.clock.now();
        if let Some(window) = &self.window {
            if !window.busy.is_zero() {
                let used = cpu.saturating_sub(window.cpu_at_open);
                self.share = (used.as_secs_f64() / window.busy.as_secs_f64()).min(1.0);
            }
        }
        self.window = Some(Window {
            opened: now,
            cpu_at_open: cpu,
            busy: Duration::ZERO,
            busy_until: now,
        });
        cpu
    }
}

/// Where a measured statement started: when, and the thread's CPU time
/// at the last read of the clock before (the open window's start).
#[derive(Clone, Copy, Debug)]
pub struct Start {
    at: Instant,
    cpu: Duration,
}

thread_local! {
    /// One meter per thread: the CPU clock it reads is the thread's, and
    /// whichever session runs on the thread runs on that clock.
    static METER: RefCell<CpuMeter<ThreadCpuClock>> =
        const { RefCell::new(CpuMeter::new(ThreadCpuClock)) };
}

/// A statement counted in the plan cache starts on this thread; pass
/// what is returned to [`statement_ended`].
fn statement_started() -> Start {
    let now = Instant::now();
    METER.with(|meter| meter.borrow_mut().statement_started(now))
}

/// The statement that [`statement_started`] at `start` ends: its worker
/// and elapsed time by this thread's [`CpuMeter`].
fn statement_ended(start: Start) -> Lap {
    let now = Instant::now();
    METER.with(|meter| meter.borrow_mut().statement_ended(start, now))
}

/// A statement or a procedure call being measured for the plan cache's
/// counters: exactly under `SET STATISTICS TIME ON` (which reads the CPU
/// clock around each statement anyway), else by this thread's
/// [`CpuMeter`].
pub struct Measurement {
    exact: Option<Stopwatch>,
    started: Start,
}

impl Measurement {
    pub fn start(exact: bool) -> Measurement {
        Measurement {
            exact: exact.then(Stopwatch::start),
            started: statement_started(),
        }
    }

    /// Its worker and elapsed time.
    pub fn finish(self) -> Lap {
        let estimated = statement_ended(self.started);
        self.exact.map_or(estimated, |stopwatch| stopwatch.lap())
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A CPU clock that reads its value from a shared cell the test moves.
    struct ScriptedClock {
        cpu: std::rc::Rc<std::cell::Cell<Duration>>,
        reads: std::rc::Rc<std::cell::Cell<u32>>,
    }

    impl CpuClock for ScriptedClock {
        fn now(&mut self) -> Duration {
            self.reads.set(self.reads.get() + 1);
            self.cpu.get()
        }
    }

    /// A meter on a scripted clock, with a wall clock counted in
    /// microseconds from `base`.
    struct Rig {
        meter: CpuMeter<ScriptedClock>,
        cpu: std::rc::Rc<std::cell::Cell<Duration>>,
        reads: std::rc::Rc<std::cell::Cell<u32>>,
        base: Instant,
    }

    impl Rig {
        fn new() -> Rig {
            let cpu = std::rc::Rc::new(std::cell::Cell::new(Duration::ZERO));
            let reads = std::rc::Rc::new(std::cell::Cell::new(0));
            let clock = ScriptedClock {
                cpu: std::rc::Rc::clone(&cpu),
                reads: std::rc::Rc::clone(&reads),
            };
            Rig {
                meter: CpuMeter::new(clock),
                cpu,
                reads,
                base: Instant::now(),
            }
        }

        fn at(&self, micros: u64) -> Instant {
            self.base + Duration::from_micros(micros)
        }

        /// A statement from `start` to `end` (µs) using `cpu` µs of CPU.
        fn statement(&mut self, start: u64, end: u64, cpu: u64) -> Lap {
            let started = self.meter.statement_started(self.at(start));
            self.cpu.set(self.cpu.get() + Duration::from_micros(cpu));
            self.meter.statement_ended(started, self.at(end))
        }
    }

    #[test]
    fn a_statement_spanning_a_window_is_measured_exactly() {
        let mut rig = Rig::new();
        let lap = rig.statement(0, 10_000, 2_500);
        assert_eq!(
            lap,
            Lap {
                worker_micros: 2_500,
                elapsed_micros: 10_000
            }
        );
        assert_eq!(rig.reads.get(), 2);
    }

    #[test]
    fn short_statements_share_one_read_per_window_and_take_its_share() {
        let mut rig = Rig::new();
        // 100 statements of 4 µs, back to back, half of it on the CPU:
        // the first counts as all CPU (nothing is known yet), those after
        // the first window closes get its share.
        let laps: Vec<Lap> = (0..100)
            .map(|i| rig.statement(i * 4, i * 4 + 4, 2))
            .collect();
        assert_eq!(laps[0].worker_micros, 4);
        assert!(laps[60..].iter().all(|lap| lap.worker_micros == 2));
        // 400 µs of wall time: the first read, then one per 200 µs.
        assert_eq!(rig.reads.get(), 3);
    }

    #[test]
    fn time_between_statements_does_not_dilute_the_share() {
        let mut rig = Rig::new();
        rig.statement(0, 300, 300);
        // Statements 1 ms apart (the thread waits for its client between
        // them) that are all CPU keep a share of 1.
        for i in 1..10 {
            let lap = rig.statement(i * 1_000, i * 1_000 + 10, 10);
            assert_eq!(lap.worker_micros, 10, "statement {i}");
        }
    }

    #[test]
    fn a_waiting_statement_gets_next_to_no_worker_time() {
        let mut rig = Rig::new();
        rig.statement(0, 50, 50);
        let wait = rig.statement(50, 200_050, 10);
        assert!(wait.worker_micros <= 60, "{wait:?}");
        assert_eq!(wait.elapsed_micros, 200_000);
        // The statements right after it start a new window, with the
        // waiting one's share: an estimate, never above elapsed.
        let next = rig.statement(200_060, 200_070, 10);
        assert!(next.worker_micros <= next.elapsed_micros);
    }

    #[test]
    fn nested_statements_count_the_busy_time_once() {
        let mut rig = Rig::new();
        rig.statement(0, 300, 300);
        // An EXEC from 1,000 to 1,150 µs with two statements inside, all
        // on the CPU: the window's busy time counts each moment once (130
        // µs: the inner statements, then the EXEC's time after them), not
        // the 230 µs of all three summed, so the share stays 1.
        let started = rig.meter.statement_started(rig.at(1_000));
        rig.statement(1_010, 1_050, 40);
        rig.statement(1_060, 1_100, 40);
        rig.cpu.set(rig.cpu.get() + Duration::from_micros(70));
        let exec = rig.meter.statement_ended(started, rig.at(1_150));
        assert_eq!(exec.worker_micros, 150);
        let next = rig.statement(1_200, 1_300, 100);
        assert_eq!(next.worker_micros, 100);
    }

    #[test]
    fn a_long_call_gets_the_cpu_time_read_around_it() {
        let mut rig = Rig::new();
        rig.statement(0, 300, 300);
        // A procedure call waits 50 ms, then computes for 1 ms in short
        // statements with work between them that no statement counts (a
        // WHILE loop's condition): the last window's share would make
        // all of the call's 51 ms CPU time.
        let call = rig.meter.statement_started(rig.at(1_000));
        rig.statement(1_000, 51_000, 10);
        for i in 0..100 {
            let at = 51_000 + i * 10;
            rig.statement(at, at + 5, 5);
            rig.cpu.set(rig.cpu.get() + Duration::from_micros(5));
        }
        let lap = rig.meter.statement_ended(call, rig.at(52_000));
        assert_eq!(
            lap,
            Lap {
                worker_micros: 1_010,
                elapsed_micros: 51_000
            }
        );
    }

    #[test]
    fn worker_time_never_exceeds_elapsed() {
        let mut rig = Rig::new();
        // More CPU than wall time (time outside statements, such as
        // parsing, is on the clock but not in any statement): capped.
        let lap = rig.statement(0, 1_000, 5_000);
        assert_eq!(lap.worker_micros, 1_000);
    }
}
