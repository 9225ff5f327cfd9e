//! Durability: the redo log, the continuous checkpoint into data/delta file
//! pairs, and recovery. See `docs/durability.md` for the design.
//!
//! ```text
//! DIR/hekla.root          what the last checkpoint holds (replaced atomically)
//! DIR/log/<lsn>.log       redo log segments, named by their first LSN
//! DIR/data/<id>.data      checkpoint data files (rows inserted in a timestamp range)
//! DIR/data/<id>.delta     their delta files (rows since deleted)
//! ```

mod checkpoint;
mod codec;
mod frame;
mod log_reader;
mod log_writer;
pub mod mutations;
mod options;
mod pair;
mod record;
mod recovery;
mod root;
mod rows;
pub mod simulated;
mod storage;

pub(crate) use checkpoint::{run as run_checkpointer, Checkpointer, Request};
pub use checkpoint::{CheckpointReport, CheckpointTrigger, CompletedCheckpoint};
pub use log_writer::LogStats;
pub(crate) use log_writer::{spawn_flusher, LogWriter};
pub(crate) use options::OptionsCell;
pub use options::{DatabaseOptions, DelayedDurability, RecoveryModel, UserAccess};
pub use pair::{CheckpointFileInfo, FileState, FileType};
pub(crate) use record::Record;
pub(crate) use recovery::recover;
pub use recovery::RecoveryReport;
pub use simulated::SimulatedStorage;
pub use storage::{RealStorage, SharedStorage, Storage, StorageFile};

use crate::log::{CommitLog, CommitRecord, RowChange};
use hekla_types::SqlResult;
use record::Change;
use std::sync::Arc;
use std::time::Duration;

/// Where progress messages of recovery and checkpoints go.
pub type ProgressSink = Arc<dyn Fn(&str) + Send + Sync>;

/// Sizes and intervals of the durability machinery.
#[derive(Clone)]
pub struct StorageConfig {
    /// Target size of a checkpoint data file (space is reserved up front).
    pub data_file_bytes: u64,
    /// Space reserved for a delta file.
    pub delta_file_bytes: u64,
    /// Size of a log segment file.
    pub log_segment_bytes: u64,
    /// A checkpoint starts by itself once the log has grown this much since
    /// the last one.
    pub checkpoint_log_bytes: u64,
    /// Delayed-durability commits reach the disk at least this often.
    pub delayed_flush_interval: Duration,
    /// Threads loading checkpoint files at recovery; 0 = one per core.
    pub recovery_threads: usize,
    /// Receives recovery progress lines (the server log); None = silent.
    pub progress: Option<ProgressSink>,
    /// What the files live on: real files, or a simulated disk in tests.
    pub storage: SharedStorage,
}

impl std::fmt::Debug for StorageConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StorageConfig")
            .field("data_file_bytes", &self.data_file_bytes)
            .field("delta_file_bytes", &self.delta_file_bytes)
            .field("log_segment_bytes", &self.log_segment_bytes)
            .field("checkpoint_log_bytes", &self.checkpoint_log_bytes)
            .field("delayed_flush_interval", &self.delayed_flush_interval)
            .field("recovery_threads", &self.recovery_threads)
            .finish()
    }
}

/// Physical memory, for sizing defaults the way SQL Server does.
fn physical_memory() -> u64 {
    // SAFETY: sysconf has no preconditions.
    let (pages, page) = unsafe {
        (
            libc::sysconf(libc::_SC_PHYS_PAGES),
            libc::sysconf(libc::_SC_PAGESIZE),
        )
    };
    (pages.max(0) as u64).saturating_mul(page.max(0) as u64)
}

impl Default for StorageConfig {
    /// SQL Server's pair sizes: 16 MB data / 1 MB delta files below 16 GB of
    /// memory, 128 MB / 8 MB above.
    fn default() -> Self {
        let large = physical_memory() >= 16 << 30;
        StorageConfig {
            data_file_bytes: if large { 128 << 20 } else { 16 << 20 },
            delta_file_bytes: if large { 8 << 20 } else { 1 << 20 },
            log_segment_bytes: 64 << 20,
            checkpoint_log_bytes: if large { 1 << 30 } else { 256 << 20 },
            delayed_flush_interval: Duration::from_millis(10),
            recovery_threads: 0,
            progress: None,
            storage: RealStorage::shared(),
        }
    }
}

impl StorageConfig {
    /// Small files and a low checkpoint threshold, for tests.
    pub fn small() -> StorageConfig {
        StorageConfig {
            data_file_bytes: 256 << 10,
            delta_file_bytes: 16 << 10,
            log_segment_bytes: 1 << 20,
            checkpoint_log_bytes: 4 << 20,
            ..StorageConfig::default()
        }
    }

    pub(crate) fn report(&self, line: &str) {
        if let Some(progress) = &self.progress {
            progress(line);
        }
    }
}

/// An exclusive lock on a database directory, held while it is open, so
/// that two processes never write the same files.
/// Retries, 10 ms apart, before a held directory lock means "in use".
const LOCK_RETRIES: u32 = 50;

pub(crate) struct DirectoryLock {
    _file: std::fs::File,
}

impl DirectoryLock {
    pub fn acquire(dir: &std::path::Path) -> SqlResult<DirectoryLock> {
        use std::os::fd::AsRawFd;
        std::fs::create_dir_all(dir).map_err(|e| crate::errors::io_error("creation", dir, &e))?;
        let path = dir.join("hekla.lock");
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| crate::errors::io_error("open", &path, &e))?;
        // A process that forks (to run a command) while this process holds
        // the lock of a database it has just closed shares the lock until
        // the child execs and closes the descriptor (it is close-on-exec),
        // so a refusal is retried for a moment before it is believed.
        for attempt in 0..=LOCK_RETRIES {
            // SAFETY: flock on a descriptor we own; the lock goes with the
            // file.
            if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
                return Ok(DirectoryLock { _file: file });
            }
            if attempt < LOCK_RETRIES {
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
        }
        Err(crate::errors::database_in_use(dir))
    }
}

/// The commit path's way into the log.
pub(crate) struct DurableLog {
    pub log: Arc<LogWriter>,
    pub options: Arc<OptionsCell>,
}

impl CommitLog for DurableLog {
    fn append(&self, record: &CommitRecord<'_>) -> SqlResult<()> {
        let mode = self.options.delayed_durability();
        // Identities first, into one buffer the changes then borrow from.
        let mut identities = Vec::new();
        let mut spans = Vec::new();
        for change in record.changes {
            if let RowChange::Delete { table, row, .. } = change {
                let start = identities.len();
                table.row_identity(row, &mut identities);
                spans.push(start..identities.len());
            }
        }
        let mut spans = spans.into_iter();
        let changes = record.changes.iter().map(|change| match *change {
            RowChange::Insert { table, row } => Change::Insert {
                table: table.id,
                row,
            },
            RowChange::Delete {
                table, begin_ts, ..
            } => Change::Delete {
                table: table.id,
                begin_ts,
                identity: &identities[spans.next().expect("one span per delete")],
            },
        });
        self.log
            .append_commit(record.commit_ts, changes, mode.delays(record.delayed))
    }
}
