//! The hash join's table: rows of the build side, found again by the key
//! encoding of their join columns (collation-aware, so 'a' finds 'A'
//! under a case-insensitive collation). Rows and key bytes live in flat
//! arrays and rows with the same hash are chained by index, so building
//! allocates a handful of growing vectors instead of several small
//! allocations per row (which dominated freeing a large build side).

use hekla_types::hash::HashKeyed;
use hekla_types::Value;

/// No chain continues past this index.
const END: u32 = u32::MAX;

pub struct HashTable {
    width: usize,
    values: Vec<Value>,
    /// Each row's encoded key: `keys[spans[i].0 .. spans[i].1]`.
    keys: Vec<u8>,
    spans: Vec<(usize, usize)>,
    /// The next row with the same hash, or END.
    next: Vec<u32>,
    heads: HashKeyed<u32>,
}

impl HashTable {
    /// A table of rows `width` values wide.
    pub fn new(width: usize) -> Self {
        HashTable {
            width,
            values: Vec::new(),
            keys: Vec::new(),
            spans: Vec::new(),
            next: Vec::new(),
            heads: HashKeyed::default(),
        }
    }

    pub fn len(&self) -> usize {
        self.spans.len()
    }

    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    pub fn row(&self, index: usize) -> &[Value] {
        &self.values[index * self.width..(index + 1) * self.width]
    }

    /// Adds a row; `key` is None for a row that joins nothing (a NULL in
    /// its key), which an outer join still needs to emit.
    pub fn push(&mut self, row: &[Value], key: Option<&[u8]>) {
        debug_assert_eq!(row.len(), self.width);
        let index = u32::try_from(self.spans.len()).expect("fewer than 2^32 build rows");
        self.values.extend_from_slice(row);
        let start = self.keys.len();
        let mut chained = END;
        if let Some(key) = key {
            self.keys.extend_from_slice(key);
            let head = self.heads.entry(hash_bytes(key)).or_insert(END);
            chained = std::mem::replace(head, index);
        }
        self.spans.push((start, self.keys.len()));
        self.next.push(chained);
    }

    /// Visits the rows whose key is exactly `key`, by index.
    pub fn matches<'t>(&'t self, key: &'t [u8]) -> impl Iterator<Item = usize> + 't {
        let mut at = self.heads.get(&hash_bytes(key)).copied().unwrap_or(END);
        std::iter::from_fn(move || {
            while at != END {
                let index = at as usize;
                at = self.next[index];
                let (start, end) = self.spans[index];
                if &self.keys[start..end] == key {
                    return Some(index);
                }
            }
            None
        })
    }
}

/// FNV-1a over the key bytes, then a final mix so that the low bits the
/// map uses depend on every byte.
fn hash_bytes(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &byte in bytes {
        hash = (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash ^= hash >> 33;
    hash = hash.wrapping_mul(0xff51_afd7_ed55_8ccd);
    hash ^ (hash >> 33)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_exactly_the_rows_with_a_key() {
        let mut table = HashTable::new(1);
        for i in 0..1000i32 {
            let key = [(i % 7) as u8, 1];
            table.push(&[Value::Int(i)], (i % 10 != 0).then_some(&key[..]));
        }
        assert_eq!(table.len(), 1000);
        let found: Vec<usize> = table.matches(&[3, 1]).collect();
        let expected: Vec<usize> = (0..1000).filter(|i| i % 7 == 3 && i % 10 != 0).collect();
        let mut sorted = found.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, expected);
        assert!(found
            .iter()
            .all(|&i| table.row(i) == [Value::Int(i as i32)]));
        assert_eq!(table.matches(&[3]).count(), 0, "a prefix is not a match");
        assert_eq!(table.matches(&[9, 9]).count(), 0);
    }
}
