//! Key choosers and data generators for YCSB-style workloads.

/// SplitMix64: tiny, fast and good enough to drive benchmarks.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x5DEE_CE66_D1CE_4E5B)
    }

    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in 0..n.
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }

    /// Uniform in [0, 1).
    #[inline]
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// YCSB's zipfian distribution (Gray et al., "Quickly generating
/// billion-record synthetic databases"), scrambled like YCSB's
/// `ScrambledZipfianGenerator` so that popular items are spread out.
pub struct Zipfian {
    items: u64,
    theta: f64,
    alpha: f64,
    zeta_n: f64,
    eta: f64,
}

impl Zipfian {
    pub fn new(items: u64, theta: f64) -> Zipfian {
        let zeta = |n: u64| (1..=n).map(|i| 1.0 / (i as f64).powf(theta)).sum::<f64>();
        let zeta_n = zeta(items);
        let zeta_2 = zeta(2);
        Zipfian {
            items,
            theta,
            alpha: 1.0 / (1.0 - theta),
            zeta_n,
            eta: (1.0 - (2.0 / items as f64).powf(1.0 - theta)) / (1.0 - zeta_2 / zeta_n),
        }
    }

    /// A rank in 0..items, rank 0 the most popular.
    #[inline]
    pub fn rank(&self, rng: &mut Rng) -> u64 {
        let u = rng.unit();
        let uz = u * self.zeta_n;
        if uz < 1.0 {
            return 0;
        }
        if uz < 1.0 + 0.5f64.powf(self.theta) {
            return 1;
        }
        let rank = (self.items as f64 * (self.eta * u - self.eta + 1.0).powf(self.alpha)) as u64;
        rank.min(self.items - 1)
    }

    /// An item in 0..items; popular ranks land on scattered items.
    #[inline]
    pub fn next(&self, rng: &mut Rng) -> u64 {
        fnv1a(self.rank(rng)) % self.items
    }
}

/// FNV-1a over the 8 bytes of `value`, as YCSB hashes its key numbers.
pub fn fnv1a(value: u64) -> u64 {
    let mut hash = 0xCBF2_9CE4_8422_2325u64;
    for byte in value.to_le_bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01B3);
    }
    hash
}

/// YCSB's key for record number `n`: "user" followed by a hashed number.
pub fn ycsb_key(n: u64) -> String {
    let mut key = String::with_capacity(24);
    write_ycsb_key(n, &mut key);
    key
}

/// Appends YCSB's key for record number `n` to `out`. Digits are written
/// by hand: `format!` machinery cost a tenth of a point read.
pub fn write_ycsb_key(n: u64, out: &mut String) {
    let mut value = fnv1a(n) >> 1;
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (value % 10) as u8;
        value /= 10;
        if value == 0 {
            break;
        }
    }
    out.push_str("user");
    // SAFETY: the bytes are ASCII digits, valid UTF-8; from_utf8 would
    // cost more than the digits themselves.
    out.push_str(unsafe { std::str::from_utf8_unchecked(&digits[at..]) });
}

/// A field value of `len` printable ASCII characters.
pub fn field_value(rng: &mut Rng, len: usize) -> String {
    (0..len)
        .map(|_| char::from(b' ' + (rng.below(95) as u8)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zipfian_favours_few_items() {
        let items = 10_000;
        let zipf = Zipfian::new(items, 0.99);
        let mut rng = Rng::new(7);
        let mut counts = vec![0u32; items as usize];
        let draws = 200_000;
        for _ in 0..draws {
            counts[zipf.next(&mut rng) as usize] += 1;
        }
        counts.sort_unstable_by(|a, b| b.cmp(a));
        let top_percent: u32 = counts[..100].iter().sum();
        // With theta 0.99 the top 1% of items draw roughly half the requests.
        assert!(top_percent > draws / 3, "top 1% drew {top_percent}");
        assert!(counts.iter().all(|&c| c < draws / 5));
    }

    #[test]
    fn uniform_stays_in_range() {
        let mut rng = Rng::new(1);
        assert!((0..10_000).all(|_| rng.below(17) < 17));
        let keys: std::collections::HashSet<_> = (0..1000).map(ycsb_key).collect();
        assert_eq!(keys.len(), 1000);
        assert_eq!(ycsb_key(7), format!("user{}", fnv1a(7) >> 1));
        assert_eq!(ycsb_key(0), format!("user{}", fnv1a(0) >> 1));
    }
}
