//! A benchmark's own directory under the system temp directory (or a
//! given parent), removed when dropped unless kept.

use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

pub struct WorkDir {
    pub path: PathBuf,
    keep: bool,
}

impl WorkDir {
    /// A new directory `hekla-bench-BENCH-PID-NANOS` in `parent`.
    pub fn create(parent: Option<&Path>, bench: &str, keep: bool) -> Result<WorkDir, String> {
        let parent = parent.map_or_else(std::env::temp_dir, Path::to_path_buf);
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let path = parent.join(format!(
            "hekla-bench-{bench}-{}-{nanos}",
            std::process::id()
        ));
        std::fs::create_dir_all(&path)
            .map_err(|e| format!("cannot create {}: {e}", path.display()))?;
        Ok(WorkDir { path, keep })
    }
}

impl Drop for WorkDir {
    fn drop(&mut self) {
        if self.keep {
            eprintln!("hekla: files kept in {}", self.path.display());
        } else {
            let _ = std::fs::remove_dir_all(&self.path);
        }
    }
}
