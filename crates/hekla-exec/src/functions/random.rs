//! Pseudo-random numbers for RAND and NEWID: xorshift64* generators, one
//! per thread. RAND(seed) reseeds the thread's RAND sequence, so later
//! RAND() calls continue it as they continue a session's in SQL Server
//! (hekla has no per-session generator: sessions sharing a thread share
//! the sequence). NEWID draws from its own generator, seeded from the
//! clock, the thread and a counter, so RAND seeds never repeat GUIDs.
//! Neither is cryptographically strong.

use hekla_types::Uuid;
use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

thread_local! {
    static RAND: Cell<u64> = Cell::new(fresh_seed());
    static GUIDS: Cell<u64> = Cell::new(fresh_seed());
}

/// Distinguishes generators created in the same clock tick.
static CREATED: AtomicU64 = AtomicU64::new(0);

/// A seed from the clock, this thread's stack address and a counter,
/// mixed so that close inputs give unrelated seeds.
fn fresh_seed() -> u64 {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let local = 0u8;
    let address = std::ptr::addr_of!(local) as u64;
    let count = CREATED.fetch_add(1, Ordering::Relaxed);
    nonzero(mix(nanos ^ address.rotate_left(32) ^ mix(count)))
}

/// splitmix64's finalizer: a bijection that spreads every input bit.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// xorshift64 never leaves, and so must never reach, zero.
fn nonzero(state: u64) -> u64 {
    if state == 0 {
        0x2545_F491_4F6C_DD1D
    } else {
        state
    }
}

/// The next value of a xorshift64* generator.
fn next(generator: &'static std::thread::LocalKey<Cell<u64>>) -> u64 {
    generator.with(|state| {
        let mut x = state.get();
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        state.set(x);
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    })
}

/// A float in [0, 1) from the top 53 bits.
fn unit_float(bits: u64) -> f64 {
    (bits >> 11) as f64 / (1u64 << 53) as f64
}

/// RAND(): the next value of this thread's sequence, in [0, 1).
pub fn rand() -> f64 {
    unit_float(next(&RAND))
}

/// RAND(seed): restarts the sequence from `seed`; the same seed always
/// gives the same value.
pub fn seeded_rand(seed: i64) -> f64 {
    RAND.with(|state| state.set(nonzero(mix(seed as u64))));
    rand()
}

/// A version 4 (random) GUID in SQL Server's byte order: the version
/// nibble leads the third group, whose bytes are stored swapped, and the
/// variant bits lead the fourth.
pub fn new_guid() -> Uuid {
    let mut bytes = [0u8; 16];
    bytes[..8].copy_from_slice(&next(&GUIDS).to_le_bytes());
    bytes[8..].copy_from_slice(&next(&GUIDS).to_le_bytes());
    bytes[7] = (bytes[7] & 0x0F) | 0x40;
    bytes[8] = (bytes[8] & 0x3F) | 0x80;
    Uuid(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeded_values_repeat_and_stay_in_range() {
        let first = seeded_rand(42);
        let second = rand();
        assert_eq!(seeded_rand(42), first);
        assert_eq!(rand(), second);
        assert_ne!(first, second);
        for _ in 0..1000 {
            let v = rand();
            assert!((0.0..1.0).contains(&v));
        }
    }

    #[test]
    fn guids_are_version_four() {
        let a = new_guid().to_string();
        let b = new_guid().to_string();
        assert_ne!(a, b);
        for text in [a, b] {
            assert_eq!(text.len(), 36);
            assert_eq!(&text[14..15], "4", "{text}");
            assert!("89AB".contains(&text[19..20]), "{text}");
        }
    }
}
