//! Collects a benchmark's figures and prints them as a table or as JSON.

pub struct Figure {
    pub name: String,
    pub value: f64,
    pub unit: &'static str,
}

pub struct Report {
    bench: &'static str,
    figures: Vec<Figure>,
    json: bool,
}

impl Report {
    pub fn new(bench: &'static str, json: bool) -> Report {
        Report {
            bench,
            figures: Vec::new(),
            json,
        }
    }

    /// Records a figure and, in table mode, prints it at once so that a
    /// long run shows progress.
    pub fn add(&mut self, name: impl Into<String>, value: f64, unit: &'static str) {
        let name = name.into();
        if !self.json {
            println!("{:<44} {:>16} {}", name, format_value(value), unit);
        }
        self.record(name, value, unit);
    }

    /// Records a figure without printing it, for benchmarks that print
    /// their own table.
    pub fn record(&mut self, name: impl Into<String>, value: f64, unit: &'static str) {
        self.figures.push(Figure {
            name: name.into(),
            value,
            unit,
        });
    }

    pub fn is_json(&self) -> bool {
        self.json
    }

    /// A heading line in table mode (nothing in JSON mode).
    pub fn section(&self, title: &str) {
        if !self.json {
            println!("\n## {title}");
        }
    }

    pub fn finish(self) {
        if !self.json {
            return;
        }
        let results: Vec<String> = self
            .figures
            .iter()
            .map(|f| {
                format!(
                    "{{\"name\": \"{}\", \"value\": {}, \"unit\": \"{}\"}}",
                    f.name,
                    if f.value.is_finite() { f.value } else { 0.0 },
                    f.unit
                )
            })
            .collect();
        println!(
            "{{\"bench\": \"{}\", \"results\": [{}]}}",
            self.bench,
            results.join(", ")
        );
    }
}

pub fn format_value(value: f64) -> String {
    if value >= 1000.0 {
        let whole = value.round() as u64;
        let digits = whole.to_string();
        let mut out = String::new();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                out.push(',');
            }
            out.push(c);
        }
        out
    } else {
        format!("{value:.1}")
    }
}

#[cfg(test)]
mod tests {
    use super::format_value;

    #[test]
    fn large_values_get_thousands_separators() {
        assert_eq!(format_value(2_150_000.4), "2,150,000");
        assert_eq!(format_value(999.94), "999.9");
        assert_eq!(format_value(1000.0), "1,000");
    }
}
