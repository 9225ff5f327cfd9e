//! Spreading threads over shards of shared structures (free lists, queues,
//! counters) so that two cores rarely share a lock or a cache line.

use std::ops::{Deref, DerefMut};
use std::sync::atomic::{AtomicUsize, Ordering};

static NEXT_HINT: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    static HINT: usize = NEXT_HINT.fetch_add(1, Ordering::Relaxed);
}

/// This thread's shard among `shards` (shard 0 while the thread exits).
#[inline]
pub fn shard_of(shards: usize) -> usize {
    HINT.try_with(|h| *h).unwrap_or(0) % shards
}

/// A value alone on its cache lines (128 bytes covers adjacent-line
/// prefetching), so that neighbouring shards never false-share.
#[repr(align(128))]
#[derive(Default)]
pub struct Padded<T>(pub T);

impl<T> Deref for Padded<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T> DerefMut for Padded<T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.0
    }
}
