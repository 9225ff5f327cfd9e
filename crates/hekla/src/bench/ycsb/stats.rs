//! Per-operation figures as YCSB reports them: count, average, min, max,
//! 95th and 99th percentile latency in microseconds, and return codes
//! (OK, or ERROR counted by SQL Server error number).

use super::workload::Operation;
use super::Phase;
use crate::bench::histogram::Histogram;
use crate::bench::report::Report;
use std::collections::BTreeMap;
use std::time::Duration;

/// How an operation ended (YCSB's return codes; an error by number).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Ok,
    NotFound,
    Error(u32),
}

pub struct OperationStats {
    pub operation: Operation,
    latency: Histogram,
    count: u64,
    total_ns: u128,
    min_ns: u64,
    max_ns: u64,
    ok: u64,
    not_found: u64,
    /// Failed operations by error number.
    errors: BTreeMap<u32, u64>,
}

impl OperationStats {
    fn new(operation: Operation) -> OperationStats {
        OperationStats {
            operation,
            latency: Histogram::default(),
            count: 0,
            total_ns: 0,
            min_ns: u64::MAX,
            max_ns: 0,
            ok: 0,
            not_found: 0,
            errors: BTreeMap::new(),
        }
    }

    pub fn record(&mut self, elapsed: Duration, status: Status) {
        let ns = elapsed.as_nanos().min(u128::from(u64::MAX)) as u64;
        self.latency.record(ns);
        self.count += 1;
        self.total_ns += u128::from(ns);
        self.min_ns = self.min_ns.min(ns);
        self.max_ns = self.max_ns.max(ns);
        match status {
            Status::Ok => self.ok += 1,
            Status::NotFound => self.not_found += 1,
            Status::Error(number) => *self.errors.entry(number).or_default() += 1,
        }
    }

    fn merge(&mut self, other: OperationStats) {
        self.latency.merge(&other.latency);
        self.count += other.count;
        self.total_ns += other.total_ns;
        self.min_ns = self.min_ns.min(other.min_ns);
        self.max_ns = self.max_ns.max(other.max_ns);
        self.ok += other.ok;
        self.not_found += other.not_found;
        for (number, count) in other.errors {
            *self.errors.entry(number).or_default() += count;
        }
    }
}

/// One thread's (or the merged) figures, by operation.
#[derive(Default)]
pub struct ByOperation(BTreeMap<Operation, OperationStats>);

impl ByOperation {
    pub fn entry(&mut self, operation: Operation) -> &mut OperationStats {
        self.0
            .entry(operation)
            .or_insert_with(|| OperationStats::new(operation))
    }

    pub fn merge(&mut self, other: ByOperation) {
        for (operation, stats) in other.0 {
            self.entry(operation).merge(stats);
        }
    }

    pub fn into_sorted(self) -> Vec<OperationStats> {
        self.0.into_values().collect()
    }
}

/// Prints each phase as YCSB does (`[OVERALL], RunTime(ms), ...`) or
/// collects it for one JSON object.
pub struct PhaseReport {
    report: Report,
}

impl PhaseReport {
    pub fn new(json: bool) -> PhaseReport {
        PhaseReport {
            report: Report::new("ycsb", json),
        }
    }

    pub fn phase(&mut self, name: &str, phase: &Phase) {
        let operations: u64 = phase.operations.iter().map(|s| s.count).sum();
        let throughput = operations as f64 / (phase.elapsed_ms / 1000.0).max(1e-9);
        let mut lines = vec![
            format!("[OVERALL], RunTime(ms), {:.0}", phase.elapsed_ms),
            format!("[OVERALL], Throughput(ops/sec), {throughput:.1}"),
        ];
        self.report
            .record(format!("{name}_ops_per_s"), throughput, "ops/s");
        for stats in &phase.operations {
            let label = stats.operation.label();
            let us = |ns: u64| ns as f64 / 1000.0;
            let average = stats.total_ns as f64 / stats.count.max(1) as f64 / 1000.0;
            let p95 = us(stats.latency.percentile(0.95));
            let p99 = us(stats.latency.percentile(0.99));
            lines.push(format!("[{label}], Operations, {}", stats.count));
            lines.push(format!("[{label}], AverageLatency(us), {average:.1}"));
            lines.push(format!(
                "[{label}], MinLatency(us), {:.0}",
                us(stats.min_ns)
            ));
            lines.push(format!(
                "[{label}], MaxLatency(us), {:.0}",
                us(stats.max_ns)
            ));
            lines.push(format!("[{label}], 95thPercentileLatency(us), {p95:.0}"));
            lines.push(format!("[{label}], 99thPercentileLatency(us), {p99:.0}"));
            lines.push(format!("[{label}], Return=OK, {}", stats.ok));
            if stats.not_found > 0 {
                lines.push(format!("[{label}], Return=NOT_FOUND, {}", stats.not_found));
            }
            let failed: u64 = stats.errors.values().sum();
            if failed > 0 {
                lines.push(format!("[{label}], Return=ERROR, {failed}"));
            }
            for (number, count) in &stats.errors {
                lines.push(format!("[{label}], Msg {number}, {count}"));
            }
            let key = label.to_ascii_lowercase().replace('-', "_");
            self.report.record(
                format!("{name}_{key}_operations"),
                stats.count as f64,
                "ops",
            );
            self.report
                .record(format!("{name}_{key}_average_us"), average, "us");
            self.report
                .record(format!("{name}_{key}_p95_us"), p95, "us");
            self.report
                .record(format!("{name}_{key}_p99_us"), p99, "us");
            self.report
                .record(format!("{name}_{key}_errors"), failed as f64, "ops");
            self.report.record(
                format!("{name}_{key}_not_found"),
                stats.not_found as f64,
                "ops",
            );
        }
        if !self.report.is_json() {
            println!("# {name} phase");
            for line in lines {
                println!("{line}");
            }
        }
    }

    pub fn finish(self) {
        self.report.finish();
    }
}
