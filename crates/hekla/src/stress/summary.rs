//! The report of a `hekla stress` run: every connection's outcome merged,
//! as text (printed, and `-o`'s summary.log) or as the benches' JSON.

use super::worker::{ErrorCount, Outcome};
use super::Plan;
use crate::bench::histogram::Histogram;
use crate::bench::report::{format_value, Report};
use std::collections::BTreeMap;
use std::fmt::Write;
use std::time::Duration;

pub struct Summary<'a> {
    plan: &'a Plan,
    /// Connections that logged in.
    connected: u32,
    /// Connections whose link broke during the run.
    lost: u32,
    /// The first login failure's text, if any failed.
    first_failure: Option<&'a str>,
    iterations: u64,
    batches: u64,
    rows: u64,
    latency: Histogram,
    errors: BTreeMap<u32, ErrorCount>,
    elapsed: Duration,
}

const PERCENTILES: [(&str, f64); 3] = [("p50", 0.50), ("p95", 0.95), ("p99", 0.99)];

impl<'a> Summary<'a> {
    pub fn new(plan: &'a Plan, outcomes: &'a [Outcome], elapsed: Duration) -> Summary<'a> {
        let mut summary = Summary {
            plan,
            connected: 0,
            lost: 0,
            first_failure: None,
            iterations: 0,
            batches: 0,
            rows: 0,
            latency: Histogram::default(),
            errors: BTreeMap::new(),
            elapsed,
        };
        for outcome in outcomes {
            match &outcome.connect_error {
                Some(error) => {
                    summary.first_failure.get_or_insert(error);
                }
                None => summary.connected += 1,
            }
            summary.lost += u32::from(outcome.lost);
            summary.iterations += outcome.iterations;
            summary.batches += outcome.batches;
            summary.rows += outcome.rows;
            summary.latency.merge(&outcome.latency);
            for (number, errors) in &outcome.errors {
                let merged = summary.errors.entry(*number).or_insert_with(|| ErrorCount {
                    count: 0,
                    text: errors.text.clone(),
                });
                merged.count += errors.count;
            }
        }
        summary
    }

    fn batches_per_second(&self) -> f64 {
        let seconds = self.elapsed.as_secs_f64();
        if seconds > 0.0 {
            self.batches as f64 / seconds
        } else {
            0.0
        }
    }

    fn error_total(&self) -> u64 {
        self.errors.values().map(|e| e.count).sum()
    }

    pub fn text(&self) -> String {
        let plan = self.plan;
        let mut out = String::new();
        // Writing to a String cannot fail.
        let _ = self.write_text(&mut out, plan);
        out
    }

    fn write_text(&self, out: &mut String, plan: &Plan) -> std::fmt::Result {
        writeln!(
            out,
            "{}: {} connections x {} iterations, {} batch(es) per iteration ({})",
            plan.program,
            plan.connections,
            plan.iterations,
            plan.batches_per_iteration,
            plan.target
        )?;
        let line =
            |out: &mut String, name: &str, value: String| writeln!(out, "{name:<20} {value}");
        line(out, "elapsed", seconds(self.elapsed))?;
        line(
            out,
            "iterations",
            format!(
                "{} of {}",
                count(self.iterations),
                count(u64::from(plan.connections) * plan.iterations)
            ),
        )?;
        line(
            out,
            "batches",
            format!("{} of {}", count(self.batches), count(plan.total_batches())),
        )?;
        line(out, "batches/s", format_value(self.batches_per_second()))?;
        line(out, "rows returned", count(self.rows))?;
        for (name, fraction) in PERCENTILES {
            line(
                out,
                &format!("latency {name}"),
                millis(self.latency.percentile(fraction)),
            )?;
        }
        line(out, "latency max", millis(self.latency.max()))?;
        let failed = plan.connections - self.connected;
        let failures = match self.first_failure {
            Some(first) => format!("{failed} (first: {first})"),
            None => failed.to_string(),
        };
        line(out, "connections failed", failures)?;
        if self.lost > 0 {
            line(out, "connections lost", self.lost.to_string())?;
        }
        line(out, "errors", count(self.error_total()))?;
        for (number, errors) in &self.errors {
            writeln!(out, "  {number}: {}  {}", count(errors.count), errors.text)?;
        }
        Ok(())
    }

    /// Prints `{"bench": "stress", "results": [{"name", "value", "unit"}]}`.
    pub fn json(&self) {
        let mut report = Report::new("stress", true);
        report.record("elapsed_s", self.elapsed.as_secs_f64(), "s");
        report.record("iterations", self.iterations as f64, "iterations");
        report.record("batches", self.batches as f64, "batches");
        report.record("batches_per_s", self.batches_per_second(), "batches/s");
        report.record("rows", self.rows as f64, "rows");
        for (name, fraction) in PERCENTILES {
            let nanos = self.latency.percentile(fraction);
            report.record(format!("latency_{name}_ms"), nanos as f64 / 1e6, "ms");
        }
        report.record("latency_max_ms", self.latency.max() as f64 / 1e6, "ms");
        let failed = self.plan.connections - self.connected;
        report.record("connections_failed", f64::from(failed), "connections");
        report.record("connections_lost", f64::from(self.lost), "connections");
        report.record("errors", self.error_total() as f64, "errors");
        for (number, errors) in &self.errors {
            report.record(format!("errors_{number}"), errors.count as f64, "errors");
        }
        report.finish();
    }
}

/// A count with thousands separators.
pub fn count(value: u64) -> String {
    if value >= 1000 {
        format_value(value as f64)
    } else {
        value.to_string()
    }
}

pub fn seconds(duration: Duration) -> String {
    format!("{:.3} s", duration.as_secs_f64())
}

fn millis(nanos: u64) -> String {
    format!("{:.3} ms", nanos as f64 / 1e6)
}
