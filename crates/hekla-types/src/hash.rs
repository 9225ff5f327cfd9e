//! A small, fast, non-cryptographic hasher for index keys.
//!
//! Hash indexes hash the *stored* form of each key column through
//! [`crate::DataType::stored_hash`], so that a probe key and a row's key hash
//! alike whenever they compare equal under the column's collation.

/// Multiplicative hasher: one multiply-xorshift round per 8 input bytes.
#[derive(Clone, Copy, Debug)]
pub struct KeyHasher {
    state: u64,
}

const SEED: u64 = 0x9E37_79B9_7F4A_7C15;
const MULTIPLIER: u64 = 0xD6E8_FEB8_6659_FD93;

impl Default for KeyHasher {
    fn default() -> Self {
        KeyHasher { state: SEED }
    }
}

impl KeyHasher {
    #[inline]
    fn mix(&mut self, word: u64) {
        self.state = (self.state ^ word).wrapping_mul(MULTIPLIER);
        self.state ^= self.state >> 32;
    }

    #[inline]
    pub fn write_u64(&mut self, word: u64) {
        self.mix(word);
    }

    /// Hashes `bytes` and their length (so that `"ab","c"` and `"a","bc"` differ).
    #[inline]
    pub fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            self.mix(u64::from_le_bytes(chunk.try_into().expect("chunk of 8")));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut tail = [0u8; 8];
            tail[..rest.len()].copy_from_slice(rest);
            self.mix(u64::from_le_bytes(tail));
        }
        self.mix(bytes.len() as u64);
    }

    /// The final hash; the last round spreads entropy into the low bits that
    /// bucket selection uses.
    #[inline]
    pub fn finish(self) -> u64 {
        let mut h = self.state;
        h ^= h >> 29;
        h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
        h ^ (h >> 32)
    }
}

/// For hash maps keyed by encoded keys: the same hashing, through std's
/// `Hasher` (much cheaper than the default SipHash, and these keys are
/// not chosen by an adversary).
impl std::hash::Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        KeyHasher::write(self, bytes);
    }

    fn finish(&self) -> u64 {
        KeyHasher::finish(*self)
    }
}

/// For maps keyed by a hash already computed (the key is its own hash):
/// `HashMap<u64, V, BuildHasherDefault<PassThrough>>` hashes nothing again.
#[derive(Default)]
pub struct PassThrough(u64);

impl std::hash::Hasher for PassThrough {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, _: &[u8]) {
        unreachable!("only u64 hashes are stored");
    }

    fn write_u64(&mut self, hash: u64) {
        self.0 = hash;
    }
}

/// A map keyed by hashes (see [`PassThrough`]).
pub type HashKeyed<V> =
    std::collections::HashMap<u64, V, std::hash::BuildHasherDefault<PassThrough>>;

#[cfg(test)]
mod tests {
    use super::*;

    fn hash(bytes: &[u8]) -> u64 {
        let mut h = KeyHasher::default();
        h.write(bytes);
        h.finish()
    }

    #[test]
    fn length_is_part_of_the_hash() {
        assert_ne!(hash(b"a"), hash(b"a\0"));
        assert_ne!(hash(b""), hash(b"\0"));
    }

    #[test]
    fn a_hash_keyed_map_finds_entries_by_their_hash() {
        let mut map = HashKeyed::default();
        for i in 0..100u64 {
            map.insert(hash(&i.to_le_bytes()), i);
        }
        assert_eq!(map.len(), 100);
        assert_eq!(map.get(&hash(&7u64.to_le_bytes())), Some(&7));
        assert_eq!(map.get(&hash(b"absent")), None);
    }

    #[test]
    fn low_bits_spread_over_sequential_keys() {
        let buckets = 1024u64;
        let mut used = vec![false; buckets as usize];
        for i in 0..buckets {
            used[(hash(&i.to_le_bytes()) % buckets) as usize] = true;
        }
        let filled = used.iter().filter(|&&u| u).count();
        // A uniform hash fills about 1 - 1/e = 63% of the buckets.
        assert!(filled > 580, "only {filled} of {buckets} buckets used");
    }
}
