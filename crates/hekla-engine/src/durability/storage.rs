//! The one way durability code reaches files: log segments, checkpoint
//! data and delta files, the root, renames, removals and directory syncs
//! all go through a [`Storage`], so that a test can put a simulated disk
//! underneath (see [`super::simulated`]) and cut its power. Production uses
//! [`RealStorage`], plain files.
//!
//! The directory lock (`hekla.lock`) stays on real files: it guards
//! against a second process, which a simulated disk has no use for.

use std::fs::{File, OpenOptions};
use std::io;
use std::os::fd::AsRawFd;
use std::os::unix::fs::{FileExt, MetadataExt};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A file system as the durability code needs it.
pub trait Storage: Send + Sync {
    fn create_dir_all(&self, dir: &Path) -> io::Result<()>;
    /// Opens `path` to read and write: a new empty file, or the file there
    /// emptied.
    fn create(&self, path: &Path) -> io::Result<Box<dyn StorageFile>>;
    /// Opens an existing file to read and write.
    fn open(&self, path: &Path) -> io::Result<Box<dyn StorageFile>>;
    /// The paths of the files in `dir`, in no particular order.
    fn list(&self, dir: &Path) -> io::Result<Vec<PathBuf>>;
    /// Renames within a directory, replacing any file at `to`.
    fn rename(&self, from: &Path, to: &Path) -> io::Result<()>;
    fn remove(&self, path: &Path) -> io::Result<()>;
    /// Makes the directory's entries (creations, renames, removals) durable.
    fn sync_dir(&self, dir: &Path) -> io::Result<()>;

    /// The whole content of `path`.
    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        let file = self.open(path)?;
        let mut bytes = vec![0u8; file.size()? as usize];
        file.read_exact_at(&mut bytes, 0)?;
        Ok(bytes)
    }
}

/// An open file.
pub trait StorageFile: Send + Sync {
    fn write_all_at(&self, bytes: &[u8], offset: u64) -> io::Result<()>;
    fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> io::Result<()>;
    /// The file's length in bytes.
    fn size(&self) -> io::Result<u64>;
    fn set_len(&self, len: u64) -> io::Result<()>;
    /// Allocates `len` bytes of space without changing the length, so that
    /// later writes neither wait for allocation nor fail for lack of space.
    fn reserve(&self, len: u64) -> io::Result<()>;
    /// Bytes allocated (at least the length).
    fn allocated(&self) -> io::Result<u64>;
    /// Makes the written bytes (and the length) durable.
    fn sync_data(&self) -> io::Result<()>;
    /// `sync_data` and the rest of the file's metadata.
    fn sync_all(&self) -> io::Result<()>;
}

/// What a database's files sit on.
pub type SharedStorage = Arc<dyn Storage>;

/// Plain files.
#[derive(Clone, Copy, Debug, Default)]
pub struct RealStorage;

impl RealStorage {
    pub fn shared() -> SharedStorage {
        Arc::new(RealStorage)
    }
}

impl Storage for RealStorage {
    fn create_dir_all(&self, dir: &Path) -> io::Result<()> {
        std::fs::create_dir_all(dir)
    }

    fn create(&self, path: &Path) -> io::Result<Box<dyn StorageFile>> {
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(path)?;
        Ok(Box::new(file))
    }

    fn open(&self, path: &Path) -> io::Result<Box<dyn StorageFile>> {
        let file = OpenOptions::new().read(true).write(true).open(path)?;
        Ok(Box::new(file))
    }

    fn list(&self, dir: &Path) -> io::Result<Vec<PathBuf>> {
        std::fs::read_dir(dir)?
            .map(|entry| entry.map(|e| e.path()))
            .collect()
    }

    fn rename(&self, from: &Path, to: &Path) -> io::Result<()> {
        std::fs::rename(from, to)
    }

    fn remove(&self, path: &Path) -> io::Result<()> {
        std::fs::remove_file(path)
    }

    fn sync_dir(&self, dir: &Path) -> io::Result<()> {
        File::open(dir)?.sync_all()
    }

    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        std::fs::read(path)
    }
}

impl StorageFile for File {
    fn write_all_at(&self, bytes: &[u8], offset: u64) -> io::Result<()> {
        FileExt::write_all_at(self, bytes, offset)
    }

    fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> io::Result<()> {
        FileExt::read_exact_at(self, buf, offset)
    }

    fn size(&self) -> io::Result<u64> {
        Ok(self.metadata()?.len())
    }

    fn set_len(&self, len: u64) -> io::Result<()> {
        File::set_len(self, len)
    }

    fn reserve(&self, len: u64) -> io::Result<()> {
        // SAFETY: fallocate on a file descriptor we own; no memory is involved.
        let rc = unsafe {
            libc::fallocate(
                self.as_raw_fd(),
                libc::FALLOC_FL_KEEP_SIZE,
                0,
                len as libc::off_t,
            )
        };
        if rc == 0 {
            return Ok(());
        }
        let error = io::Error::last_os_error();
        // Filesystems without fallocate still work, just allocate later.
        match error.raw_os_error() {
            Some(libc::EOPNOTSUPP) => Ok(()),
            _ => Err(error),
        }
    }

    fn allocated(&self) -> io::Result<u64> {
        let metadata = self.metadata()?;
        Ok((metadata.blocks() * 512).max(metadata.len()))
    }

    fn sync_data(&self) -> io::Result<()> {
        File::sync_data(self)
    }

    fn sync_all(&self) -> io::Result<()> {
        File::sync_all(self)
    }
}
