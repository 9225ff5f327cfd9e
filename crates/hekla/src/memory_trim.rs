//! Handing freed memory back to the operating system, for `hekla serve`.
//!
//! glibc's allocator keeps what a thread frees in that thread's arena for
//! reuse, and gives memory back to the system only from the top of a heap.
//! A server with hundreds of connection threads, whose checkpoints free a
//! delete set of a hundred megabytes at a time, then stays far larger than
//! what it uses: in the 10-minute soak one `malloc_trim(0)` took the
//! server from 530 to 325 MiB resident. So the server trims on a timer.

use hekla_tds::log;
use std::time::{Duration, Instant};

/// A trim slower than this is logged: it holds each arena's lock while it
/// walks that arena, so allocating threads wait meanwhile.
const SLOW_TRIM: Duration = Duration::from_millis(100);

/// Trims every `interval` on a thread of its own, for the life of the
/// process. Where the allocator is not glibc's there is nothing to do.
pub fn start(interval: Duration) -> Result<(), String> {
    if !SUPPORTED {
        return Ok(());
    }
    std::thread::Builder::new()
        .name("hekla-memory-trim".to_string())
        .spawn(move || loop {
            std::thread::sleep(interval);
            let started = Instant::now();
            trim();
            let took = started.elapsed();
            if took > SLOW_TRIM {
                log::warn("slow memory trim", &[("ms", &took.as_millis())]);
            }
        })
        .map(drop)
        .map_err(|e| format!("cannot start the memory trim thread: {e}"))
}

const SUPPORTED: bool = cfg!(all(target_os = "linux", target_env = "gnu"));

#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn trim() {
    // SAFETY: malloc_trim has no preconditions; it takes the allocator's
    // own locks and only releases memory that is free.
    unsafe {
        libc::malloc_trim(0);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn trim() {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::process::resident_bytes;

    #[test]
    fn a_trim_hands_back_what_was_freed_below_memory_in_use() {
        if !SUPPORTED {
            return;
        }
        const BLOCKS: usize = 200_000;
        const BLOCK_BYTES: usize = 1000;
        let resident = || resident_bytes(std::process::id()) as i64;
        let mut blocks: Vec<Box<[u8; BLOCK_BYTES]>> =
            (0..BLOCKS).map(|_| Box::new([1u8; BLOCK_BYTES])).collect();
        // The newest block stays, so the freed ones lie below memory in
        // use, where glibc's free() does not hand them back.
        let newest = blocks.pop();
        drop(blocks);
        let before = resident();
        trim();
        let after = resident();
        drop(newest);
        let freed = (BLOCKS * BLOCK_BYTES) as i64;
        assert!(
            before - after > freed / 2,
            "resident {before} -> {after} bytes after freeing {freed}"
        );
    }
}
