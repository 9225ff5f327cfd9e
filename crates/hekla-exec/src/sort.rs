//! Sorting rows on ORDER BY keys: a full sort, or SQL Server's Top N Sort,
//! which keeps only the first n rows in order (with ties, also the rows
//! equal to the last of them) so `SELECT TOP (n) ... ORDER BY` over a big
//! input holds about 2n rows, not the input. Rows with equal keys keep
//! their input order in both, so a Top N Sort returns exactly the rows a
//! full sort would put first.

use hekla_plan::plan::{SortKey, TopN};
use hekla_types::Value;
use std::cmp::Ordering;

/// A row with its sort key values and its place in the input.
struct Entry {
    keys: Vec<Value>,
    arrival: u64,
    row: Vec<Value>,
}

/// Collects rows and hands them back in `keys` order.
pub struct Sorter<'k> {
    keys: &'k [SortKey],
    top: Option<TopN>,
    entries: Vec<Entry>,
    arrived: u64,
    /// A Top N Sort trims its rows when it holds this many: twice what
    /// the last trim kept (at least twice n), so trimming costs O(log n)
    /// per row however many rows tie.
    trim_at: usize,
    /// A Top N Sort's keys of its n-th row as of the last trim: a later
    /// row whose keys sort after them (or equal them, without ties: it
    /// arrived later) cannot be among the first n.
    cutoff: Option<Vec<Value>>,
}

impl<'k> Sorter<'k> {
    /// A full sort, or with `top` a Top N Sort.
    pub fn new(keys: &'k [SortKey], top: Option<TopN>) -> Self {
        let wanted = top.map_or(usize::MAX, wanted);
        Sorter {
            keys,
            top,
            entries: Vec::new(),
            arrived: 0,
            trim_at: wanted.saturating_mul(2).max(1),
            cutoff: None,
        }
    }

    /// Whether a row with these sort key values could still be returned;
    /// a caller can skip building a row it would not admit.
    pub fn admits(&self, keys: &[Value]) -> bool {
        match (self.top, &self.cutoff) {
            (Some(top), _) if wanted(top) == 0 => false,
            (Some(top), Some(cutoff)) => match key_order(self.keys, keys, cutoff) {
                Ordering::Less => true,
                Ordering::Equal => top.with_ties,
                Ordering::Greater => false,
            },
            _ => true,
        }
    }

    /// Takes `row`, whose sort key values are `keys`.
    pub fn push(&mut self, keys: Vec<Value>, row: Vec<Value>) {
        self.entries.push(Entry {
            keys,
            arrival: self.arrived,
            row,
        });
        self.arrived += 1;
        if let Some(top) = self.top {
            if self.entries.len() >= self.trim_at {
                self.trim(top);
                let floor = self.entries.len().max(wanted(top));
                self.trim_at = floor.saturating_mul(2).max(1);
            }
        }
    }

    /// How many rows it holds now.
    pub fn retained(&self) -> usize {
        self.entries.len()
    }

    /// The rows in order: all of them, or a Top N Sort's first n (and
    /// their ties).
    pub fn finish(mut self) -> Vec<Vec<Value>> {
        match self.top {
            Some(top) => self.trim(top),
            None => self.sort(),
        }
        self.entries.into_iter().map(|entry| entry.row).collect()
    }

    /// Sorts the rows, equal keys in input order.
    fn sort(&mut self) {
        let keys = self.keys;
        self.entries.sort_by(|a, b| compare(keys, a, b));
    }

    /// Keeps the first `top.rows` rows in order, and with ties those equal
    /// on the keys to the last of them.
    fn trim(&mut self, top: TopN) {
        self.sort();
        let wanted = wanted(top);
        if self.entries.len() <= wanted {
            return;
        }
        self.cutoff = wanted
            .checked_sub(1)
            .map(|last| self.entries[last].keys.clone());
        let mut kept = wanted;
        if top.with_ties && wanted > 0 {
            let last = &self.entries[wanted - 1].keys;
            kept += self.entries[wanted..]
                .iter()
                .take_while(|entry| equal_keys(self.keys, last, &entry.keys))
                .count();
        }
        self.entries.truncate(kept);
    }
}

/// How many rows a Top N Sort must return (before ties).
fn wanted(top: TopN) -> usize {
    usize::try_from(top.rows).unwrap_or(usize::MAX)
}

/// Key order, then input order.
fn compare(keys: &[SortKey], a: &Entry, b: &Entry) -> Ordering {
    key_order(keys, &a.keys, &b.keys).then(a.arrival.cmp(&b.arrival))
}

fn key_order(keys: &[SortKey], a: &[Value], b: &[Value]) -> Ordering {
    keys.iter()
        .zip(a.iter().zip(b))
        .map(|(key, (a, b))| key.compare(a, b))
        .find(|ordering| ordering.is_ne())
        .unwrap_or(Ordering::Equal)
}

fn equal_keys(keys: &[SortKey], a: &[Value], b: &[Value]) -> bool {
    key_order(keys, a, b).is_eq()
}

#[cfg(test)]
mod tests {
    use super::*;
    use hekla_plan::bind::expr::{Scalar, ScalarKind};
    use hekla_types::DataType;

    fn key(descending: bool) -> SortKey {
        SortKey {
            expr: Scalar {
                kind: ScalarKind::Column(0),
                data_type: DataType::Int,
            },
            descending,
        }
    }

    /// Rows `[value, arrival]` with values cycling through 0..97.
    fn input() -> impl Iterator<Item = Vec<Value>> {
        (0..10_000).map(|i| vec![Value::Int((i * 37) % 97), Value::Int(i)])
    }

    /// Sorts `input()` as the executor does (pushing only the rows the
    /// sorter admits); the most rows it held, and how many it admitted.
    fn sorted_counting(
        keys: &[SortKey],
        top: Option<TopN>,
        most_held: &mut usize,
        admitted: &mut usize,
    ) -> Vec<Vec<Value>> {
        let mut sorter = Sorter::new(keys, top);
        for row in input() {
            if sorter.admits(&row[..1]) {
                *admitted += 1;
                sorter.push(vec![row[0].clone()], row);
            }
            *most_held = (*most_held).max(sorter.retained());
        }
        sorter.finish()
    }

    fn sorted(keys: &[SortKey], top: Option<TopN>, most_held: &mut usize) -> Vec<Vec<Value>> {
        sorted_counting(keys, top, most_held, &mut 0)
    }

    #[test]
    fn top_n_sort_copies_only_rows_that_sort_before_its_nth() {
        let keys = [key(true)];
        let full = sorted(&keys, None, &mut 0);
        let (mut held, mut admitted) = (0, 0);
        let top = TopN {
            rows: 10,
            with_ties: false,
        };
        let first = sorted_counting(&keys, Some(top), &mut held, &mut admitted);
        assert_eq!(first, full[..10].to_vec());
        assert!(
            admitted < 200,
            "admitted {admitted} of 10,000 rows for TOP 10"
        );
        // With ties every row equal to the n-th must still come in.
        let ties = TopN {
            rows: 10,
            with_ties: true,
        };
        let (mut held, mut admitted) = (0, 0);
        let first = sorted_counting(&keys, Some(ties), &mut held, &mut admitted);
        let equal_to_max = full.iter().filter(|row| row[0] == full[0][0]).count();
        assert_eq!(first, full[..equal_to_max].to_vec());
        assert!(admitted >= equal_to_max);
    }

    #[test]
    fn top_n_sort_holds_about_twice_n_rows_and_matches_a_full_sort() {
        let keys = [key(true)];
        let mut full_held = 0;
        let full = sorted(&keys, None, &mut full_held);
        assert_eq!(full_held, 10_000, "a full sort holds its whole input");
        let mut held = 0;
        let top = TopN {
            rows: 10,
            with_ties: false,
        };
        let first = sorted(&keys, Some(top), &mut held);
        assert!(held <= 20, "held {held} rows for TOP 10");
        assert_eq!(first, full[..10].to_vec());
    }

    #[test]
    fn top_n_sort_with_ties_keeps_the_rows_equal_to_the_last() {
        let keys = [key(false)];
        let mut full_held = 0;
        let full = sorted(&keys, None, &mut full_held);
        // Value 0 occurs 104 times in the input, value 1 103 times.
        let ties = full.iter().filter(|row| row[0] == Value::Int(0)).count();
        let mut held = 0;
        let top = TopN {
            rows: 3,
            with_ties: true,
        };
        let first = sorted(&keys, Some(top), &mut held);
        assert_eq!(first, full[..ties].to_vec());
        assert!(held <= 2 * ties, "held {held} rows for TOP 3 WITH TIES");
    }

    #[test]
    fn top_zero_keeps_nothing() {
        let keys = [key(false)];
        let mut held = 0;
        let top = TopN {
            rows: 0,
            with_ties: true,
        };
        assert!(sorted(&keys, Some(top), &mut held).is_empty());
        assert!(held <= 1);
    }
}
