//! Rows read into memory before any of them goes downstream (a read that
//! cannot stream, such as `INSERT INTO t SELECT ... FROM t`), one after
//! another in chunks of a bounded number of rows. One vector of all the
//! values would copy everything it holds each time it grows, and hold up
//! to three times the rows while it does: 10.9 GiB at the peak of the
//! checkpoint article's last doubling of 20 million rows.

use hekla_types::Value;

/// Rows per chunk once a read has outgrown its first one.
const CHUNK_ROWS: usize = 4096;

pub struct RowBuffer {
    width: usize,
    /// Every chunk but the last holds `CHUNK_ROWS` rows.
    chunks: Vec<Vec<Value>>,
    /// Rows held in all, and in the last chunk.
    count: usize,
    in_last: usize,
}

impl RowBuffer {
    /// Rows of `width` values, room for `expected` of them at first.
    pub fn new(width: usize, expected: usize) -> RowBuffer {
        RowBuffer {
            width,
            chunks: vec![Vec::with_capacity(width * expected.min(CHUNK_ROWS))],
            count: 0,
            in_last: 0,
        }
    }

    /// Where the next row's values are to be appended. The row is held
    /// once [`Self::keep`] is called; [`Self::discard`] drops it instead.
    pub fn next_row(&mut self) -> &mut Vec<Value> {
        if self.in_last == CHUNK_ROWS {
            self.chunks
                .push(Vec::with_capacity(self.width * CHUNK_ROWS));
            self.in_last = 0;
        }
        self.chunks.last_mut().expect("a buffer has a chunk")
    }

    /// Holds the row just appended.
    pub fn keep(&mut self) {
        self.count += 1;
        self.in_last += 1;
    }

    /// Drops the values appended since the last row kept.
    pub fn discard(&mut self) {
        let kept = self.in_last * self.width;
        self.chunks
            .last_mut()
            .expect("a buffer has a chunk")
            .truncate(kept);
    }

    /// The rows held, in the order they were kept.
    pub fn rows(&self) -> impl Iterator<Item = &[Value]> {
        (0..self.count).map(move |n| {
            let chunk = &self.chunks[n / CHUNK_ROWS];
            let start = (n % CHUNK_ROWS) * self.width;
            &chunk[start..start + self.width]
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_come_back_in_order_across_chunks_without_the_discarded_ones() {
        let mut buffer = RowBuffer::new(2, 1);
        let total = CHUNK_ROWS * 2 + 7;
        for n in 0..total as i32 {
            let row = buffer.next_row();
            row.push(Value::Int(n));
            row.push(Value::Int(-n));
            if n % 3 == 0 {
                buffer.discard();
            } else {
                buffer.keep();
            }
        }
        let kept: Vec<i32> = buffer
            .rows()
            .map(|row| match (&row[0], &row[1]) {
                (Value::Int(a), Value::Int(b)) if *a == -*b => *a,
                other => panic!("a row torn apart: {other:?}"),
            })
            .collect();
        let expected: Vec<i32> = (0..total as i32).filter(|n| n % 3 != 0).collect();
        assert_eq!(kept, expected);
        // No chunk but the last holds more than its share.
        assert!(buffer.chunks[..buffer.chunks.len() - 1]
            .iter()
            .all(|chunk| chunk.len() == 2 * CHUNK_ROWS));
    }

    #[test]
    fn rows_of_no_values_are_counted() {
        let mut buffer = RowBuffer::new(0, 8);
        for _ in 0..CHUNK_ROWS + 3 {
            buffer.next_row();
            buffer.keep();
        }
        assert_eq!(buffer.rows().count(), CHUNK_ROWS + 3);
    }
}
