//! The physical floor of a scan: how fast one thread streams bytes from
//! memory, and so how long reading a table's bytes once must take.

use std::hint::black_box;
use std::time::Instant;

/// Bytes per second one thread reads from memory: the best of `passes`
/// sums of the 64-bit words of a buffer of `bytes` bytes, which should be
/// much larger than the caches so that every pass comes from memory.
pub fn read_bytes_per_s(bytes: usize, passes: u32) -> f64 {
    // Written, not just allocated: zeroed pages fresh from the kernel all
    // map one shared page, which stays in the cache.
    let words: Vec<u64> = (0..(bytes / 8).max(1) as u64).collect();
    let mut best = f64::INFINITY;
    for _ in 0..passes.max(1) {
        let start = Instant::now();
        let sum = black_box(&words)
            .iter()
            .fold(0u64, |sum, &word| sum.wrapping_add(word));
        black_box(sum);
        best = best.min(start.elapsed().as_secs_f64());
    }
    (words.len() * 8) as f64 / best
}

/// Milliseconds to stream `bytes` once at `bytes_per_s`.
pub fn stream_ms(bytes: u64, bytes_per_s: f64) -> f64 {
    bytes as f64 / bytes_per_s * 1000.0
}

#[cfg(test)]
mod tests {
    use super::{read_bytes_per_s, stream_ms};

    #[test]
    fn the_floor_is_bytes_over_bandwidth_in_milliseconds() {
        let close = |a: f64, b: f64| (a - b).abs() < 1e-9;
        // 1 GB at 10 GB/s: 100 ms.
        assert!(close(stream_ms(1_000_000_000, 10e9), 100.0));
        assert!(close(stream_ms(0, 10e9), 0.0));
        assert!(close(stream_ms(320_000_000, 8e9), 40.0));
    }

    #[test]
    fn a_measured_bandwidth_is_positive_and_finite() {
        let bytes_per_s = read_bytes_per_s(1 << 20, 2);
        assert!(
            bytes_per_s.is_finite() && bytes_per_s > 0.0,
            "{bytes_per_s}"
        );
    }
}
