//! What the kernel says about a server process: CPU time and resident
//! memory from `/proc`, so a benchmark can charge each request the server's
//! own CPU (not the client's, which shares the machine).

/// Fields of `/proc/PID/stat` after the command name.
struct Stat {
    parent: u32,
    /// utime + stime in clock ticks.
    own_ticks: u64,
    /// cutime + cstime: children the process has waited for.
    reaped_children_ticks: u64,
}

fn stat(pid: u32) -> Option<Stat> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name may contain spaces and parentheses: fields start
    // after the last ')'.
    let fields: Vec<&str> = text[text.rfind(')')? + 1..].split_whitespace().collect();
    let number = |index: usize| fields.get(index)?.parse::<u64>().ok();
    Some(Stat {
        parent: u32::try_from(number(1)?).ok()?,
        own_ticks: number(11)? + number(12)?,
        reaped_children_ticks: number(13)? + number(14)?,
    })
}

fn ticks_per_second() -> f64 {
    // SAFETY: sysconf reads a constant of the running kernel; no memory is
    // passed.
    let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    if ticks > 0 {
        ticks as f64
    } else {
        100.0
    }
}

/// CPU seconds used so far by process `pid` alone.
pub fn cpu_seconds(pid: u32) -> f64 {
    stat(pid).map_or(0.0, |s| s.own_ticks as f64) / ticks_per_second()
}

/// CPU seconds used so far by `pid`, its live children and the children
/// it has reaped: a PostgreSQL postmaster and its backends, including
/// backends that already exited.
pub fn tree_cpu_seconds(pid: u32) -> f64 {
    let Some(root) = stat(pid) else {
        return 0.0;
    };
    let mut ticks = root.own_ticks + root.reaped_children_ticks;
    for child in children(pid) {
        if let Some(child) = stat(child) {
            ticks += child.own_ticks;
        }
    }
    ticks as f64 / ticks_per_second()
}

fn children(parent: u32) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&pid| stat(pid).is_some_and(|s| s.parent == parent))
        .collect()
}

/// Resident set size of `pid` in bytes.
pub fn resident_bytes(pid: u32) -> u64 {
    status_bytes(pid, "VmRSS:")
}

/// The peak resident set size of `pid` in bytes (since it started, or
/// since [`reset_peak_resident`]).
pub fn peak_resident_bytes(pid: u32) -> u64 {
    status_bytes(pid, "VmHWM:")
}

/// Resets this process's peak resident set size to its current size, so
/// that a later [`peak_resident_bytes`] measures one step. False where the
/// kernel does not allow it.
pub fn reset_peak_resident() -> bool {
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}

/// A `kB` field of `/proc/PID/status`, in bytes (0 if it cannot be read).
fn status_bytes(pid: u32, field: &str) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_default()
        .lines()
        .find_map(|line| line.strip_prefix(field))
        .and_then(|rest| {
            rest.trim()
                .trim_end_matches("kB")
                .trim()
                .parse::<u64>()
                .ok()
        })
        .map_or(0, |kb| kb * 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_process_has_used_cpu_and_memory() {
        let pid = std::process::id();
        let spin = std::time::Instant::now();
        let mut x = 0u64;
        while spin.elapsed().as_millis() < 30 {
            x = x.wrapping_mul(31).wrapping_add(1);
        }
        assert!(x != 7);
        // Own CPU first: other test threads keep running, so a later
        // reading of the whole tree can only be larger.
        let own = cpu_seconds(pid);
        assert!(own > 0.0);
        assert!(tree_cpu_seconds(pid) >= own);
        assert!(resident_bytes(pid) > 1024 * 1024);
    }

    #[test]
    fn a_missing_process_counts_nothing() {
        assert_eq!(cpu_seconds(u32::MAX), 0.0);
        assert_eq!(resident_bytes(u32::MAX), 0);
    }
}
