//! A simulated disk for power-loss tests (test support; production uses
//! [`RealStorage`](super::RealStorage)).
//!
//! It keeps every file twice: what a reader sees now, and what a real disk
//! is obliged to still hold after a power loss. Writes, truncations and
//! directory changes are recorded as pending until they are synced:
//! `sync_data`/`sync_all` make a file's pending writes durable, `sync_dir`
//! a directory's pending creations, renames and removals.
//!
//! When the power is cut ([`SimulatedStorage::cut_power_after`] picks the
//! mutating operation it fails at), every later operation of the old
//! "process" fails with `EIO`, so no background thread writes after the
//! cut, and [`SimulatedStorage::surviving_image`] builds the disk a reboot
//! would find, choosing at random from a seed:
//! - synced data and synced directory entries always survive;
//! - each unsynced write is dropped, kept, or torn: kept sector by sector
//!   (512 B or 4 KiB sectors), so that any subset of its sectors survives,
//!   and later writes may survive while earlier ones do not (reordering);
//! - each unsynced truncation is kept or dropped;
//! - a directory's unsynced creations, renames and removals survive as a
//!   prefix of the order they were made in (a journaling file system
//!   commits them in order): any suffix may be undone.
//!
//! Directories themselves are durable once created (the engine creates
//! its three directories once, before anything is written in them).

use super::storage::{SharedStorage, Storage, StorageFile};
use std::collections::{BTreeMap, HashMap};
use std::ffi::OsString;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

type InodeId = u64;

/// A change to a directory's entries.
#[derive(Clone)]
enum NameChange {
    Link(OsString, InodeId),
    Unlink(OsString),
    Rename(OsString, OsString),
}

#[derive(Clone, Default)]
struct Directory {
    now: BTreeMap<OsString, InodeId>,
    durable: BTreeMap<OsString, InodeId>,
    pending: Vec<NameChange>,
}

impl NameChange {
    fn apply(&self, names: &mut BTreeMap<OsString, InodeId>) {
        match self {
            NameChange::Link(name, inode) => {
                names.insert(name.clone(), *inode);
            }
            NameChange::Unlink(name) => {
                names.remove(name);
            }
            NameChange::Rename(from, to) => {
                if let Some(inode) = names.remove(from) {
                    names.insert(to.clone(), inode);
                }
            }
        }
    }
}

/// A change to a file's bytes.
#[derive(Clone)]
enum DataChange {
    Write { offset: u64, bytes: Vec<u8> },
    SetLen(u64),
}

impl DataChange {
    fn apply(&self, content: &mut Vec<u8>) {
        match self {
            DataChange::Write { offset, bytes } => write_at(content, *offset, bytes),
            DataChange::SetLen(len) => content.resize(*len as usize, 0),
        }
    }
}

fn write_at(content: &mut Vec<u8>, offset: u64, bytes: &[u8]) {
    let end = offset as usize + bytes.len();
    if content.len() < end {
        content.resize(end, 0);
    }
    content[offset as usize..end].copy_from_slice(bytes);
}

#[derive(Clone, Default)]
struct Inode {
    now: Vec<u8>,
    durable: Vec<u8>,
    pending: Vec<DataChange>,
    allocated: u64,
}

impl Inode {
    fn change(&mut self, change: DataChange) {
        change.apply(&mut self.now);
        self.pending.push(change);
    }

    fn sync(&mut self) {
        for change in self.pending.drain(..) {
            change.apply(&mut self.durable);
        }
    }
}

#[derive(Default)]
struct Disk {
    directories: BTreeMap<PathBuf, Directory>,
    inodes: HashMap<InodeId, Inode>,
    next_inode: InodeId,
    /// Mutating operations so far.
    mutations: u64,
    /// The power fails at this mutating operation.
    cut_at: Option<u64>,
    powered_off: bool,
}

fn powered_off() -> io::Error {
    io::Error::from_raw_os_error(libc::EIO)
}

fn not_found(path: &Path) -> io::Error {
    io::Error::new(
        io::ErrorKind::NotFound,
        format!("{}: no such file", path.display()),
    )
}

/// Splits a path into its directory and name.
fn split(path: &Path) -> io::Result<(&Path, OsString)> {
    match (path.parent(), path.file_name()) {
        (Some(dir), Some(name)) => Ok((dir, name.to_os_string())),
        _ => Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{}: not a file path", path.display()),
        )),
    }
}

/// Whether the power holds through the operation about to run.
enum Power {
    On,
    FailsNow,
}

impl Disk {
    fn alive(&self) -> io::Result<()> {
        match self.powered_off {
            true => Err(powered_off()),
            false => Ok(()),
        }
    }

    /// Counts a mutating operation and tells whether the power fails in it.
    fn mutation(&mut self) -> io::Result<Power> {
        self.alive()?;
        self.mutations += 1;
        if self.cut_at.is_some_and(|at| self.mutations >= at) {
            self.powered_off = true;
            return Ok(Power::FailsNow);
        }
        Ok(Power::On)
    }

    /// Counts a mutating operation that the power failure stops entirely.
    fn mutation_or_fail(&mut self) -> io::Result<()> {
        match self.mutation()? {
            Power::On => Ok(()),
            Power::FailsNow => Err(powered_off()),
        }
    }

    fn directory(&mut self, dir: &Path) -> io::Result<&mut Directory> {
        self.directories.get_mut(dir).ok_or_else(|| not_found(dir))
    }

    fn lookup(&self, path: &Path) -> io::Result<InodeId> {
        let (dir, name) = split(path)?;
        self.directories
            .get(dir)
            .and_then(|d| d.now.get(&name))
            .copied()
            .ok_or_else(|| not_found(path))
    }

    fn inode(&mut self, id: InodeId) -> &mut Inode {
        self.inodes.entry(id).or_default()
    }

    /// The disk a reboot finds.
    fn survivor(&self, random: &mut SplitMix) -> Disk {
        let sector: u64 = if random.below(2) == 0 { 512 } else { 4096 };
        let mut survivor = Disk {
            next_inode: self.next_inode,
            ..Disk::default()
        };
        for (path, directory) in &self.directories {
            let mut names = directory.durable.clone();
            let kept = random.below(directory.pending.len() as u64 + 1) as usize;
            for change in &directory.pending[..kept] {
                change.apply(&mut names);
            }
            for &inode in names.values() {
                let before = &self.inodes[&inode];
                survivor.inodes.entry(inode).or_insert_with(|| {
                    let content = before.surviving_bytes(sector, random);
                    Inode {
                        now: content.clone(),
                        durable: content,
                        pending: Vec::new(),
                        allocated: before.allocated,
                    }
                });
            }
            survivor.directories.insert(
                path.clone(),
                Directory {
                    now: names.clone(),
                    durable: names,
                    pending: Vec::new(),
                },
            );
        }
        survivor
    }
}

impl Inode {
    /// The durable bytes plus a random choice of the pending changes:
    /// each write dropped, kept, or kept sector by sector.
    fn surviving_bytes(&self, sector: u64, random: &mut SplitMix) -> Vec<u8> {
        let mut content = self.durable.clone();
        for change in &self.pending {
            match change {
                DataChange::SetLen(_) => {
                    if random.below(2) == 0 {
                        change.apply(&mut content);
                    }
                }
                DataChange::Write { offset, bytes } => match random.below(3) {
                    0 => {}
                    1 => change.apply(&mut content),
                    _ => {
                        let end = offset + bytes.len() as u64;
                        let mut at = *offset;
                        while at < end {
                            let sector_end = ((at / sector) + 1) * sector;
                            let piece_end = sector_end.min(end);
                            if random.below(2) == 0 {
                                let piece =
                                    &bytes[(at - offset) as usize..(piece_end - offset) as usize];
                                write_at(&mut content, at, piece);
                            }
                            at = piece_end;
                        }
                    }
                },
            }
        }
        content
    }
}

/// A small seeded generator (SplitMix64): the image depends only on the seed.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

/// A simulated disk whose power can be cut. Clones share the disk.
#[derive(Clone, Default)]
pub struct SimulatedStorage {
    disk: Arc<Mutex<Disk>>,
}

impl SimulatedStorage {
    /// An empty disk, powered on.
    pub fn new() -> SimulatedStorage {
        SimulatedStorage::default()
    }

    /// This disk, for `StorageConfig::storage`.
    pub fn shared(&self) -> SharedStorage {
        Arc::new(self.clone())
    }

    fn lock(&self) -> MutexGuard<'_, Disk> {
        // A panic elsewhere must not hide the disk from the test's checks.
        self.disk.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Makes the power fail during the `n`th mutating operation from now
    /// (write, truncation, creation, rename, removal, sync; reads do not
    /// count). That operation and every later one fail with `EIO`; a write
    /// it interrupts may have reached the disk in part.
    pub fn cut_power_after(&self, n: u64) {
        let mut disk = self.lock();
        disk.cut_at = Some(disk.mutations + n.max(1));
    }

    /// Cuts the power now.
    pub fn cut_power(&self) {
        self.lock().powered_off = true;
    }

    pub fn is_powered_off(&self) -> bool {
        self.lock().powered_off
    }

    /// Mutating operations so far.
    pub fn mutations(&self) -> u64 {
        self.lock().mutations
    }

    /// Cuts the power (if still on) and returns the disk a reboot finds,
    /// powered on, chosen from `seed` as the module describes.
    pub fn surviving_image(&self, seed: u64) -> SimulatedStorage {
        let mut disk = self.lock();
        disk.powered_off = true;
        let survivor = disk.survivor(&mut SplitMix(seed));
        SimulatedStorage {
            disk: Arc::new(Mutex::new(survivor)),
        }
    }
}

impl Storage for SimulatedStorage {
    fn create_dir_all(&self, dir: &Path) -> io::Result<()> {
        let mut disk = self.lock();
        disk.alive()?;
        for ancestor in dir.ancestors() {
            disk.directories.entry(ancestor.to_path_buf()).or_default();
        }
        Ok(())
    }

    fn create(&self, path: &Path) -> io::Result<Box<dyn StorageFile>> {
        let mut disk = self.lock();
        disk.mutation_or_fail()?;
        let (dir, name) = split(path)?;
        let inode = match disk.lookup(path) {
            Ok(inode) => {
                disk.inode(inode).change(DataChange::SetLen(0));
                inode
            }
            Err(_) => {
                let inode = disk.next_inode;
                disk.next_inode += 1;
                disk.inodes.insert(inode, Inode::default());
                let directory = disk.directory(dir)?;
                directory.now.insert(name.clone(), inode);
                directory.pending.push(NameChange::Link(name, inode));
                inode
            }
        };
        Ok(Box::new(SimulatedFile {
            storage: self.clone(),
            inode,
        }))
    }

    fn open(&self, path: &Path) -> io::Result<Box<dyn StorageFile>> {
        let disk = self.lock();
        disk.alive()?;
        let inode = disk.lookup(path)?;
        Ok(Box::new(SimulatedFile {
            storage: self.clone(),
            inode,
        }))
    }

    fn list(&self, dir: &Path) -> io::Result<Vec<PathBuf>> {
        let disk = self.lock();
        disk.alive()?;
        let directory = disk.directories.get(dir).ok_or_else(|| not_found(dir))?;
        Ok(directory.now.keys().map(|name| dir.join(name)).collect())
    }

    fn rename(&self, from: &Path, to: &Path) -> io::Result<()> {
        let mut disk = self.lock();
        disk.mutation_or_fail()?;
        let (dir, from_name) = split(from)?;
        let (to_dir, to_name) = split(to)?;
        if dir != to_dir {
            return Err(io::Error::from_raw_os_error(libc::EXDEV));
        }
        let directory = disk.directory(dir)?;
        let inode = directory
            .now
            .remove(&from_name)
            .ok_or_else(|| not_found(from))?;
        directory.now.insert(to_name.clone(), inode);
        directory
            .pending
            .push(NameChange::Rename(from_name, to_name));
        Ok(())
    }

    fn remove(&self, path: &Path) -> io::Result<()> {
        let mut disk = self.lock();
        disk.mutation_or_fail()?;
        let (dir, name) = split(path)?;
        let directory = disk.directory(dir)?;
        directory.now.remove(&name).ok_or_else(|| not_found(path))?;
        directory.pending.push(NameChange::Unlink(name));
        Ok(())
    }

    fn sync_dir(&self, dir: &Path) -> io::Result<()> {
        let mut disk = self.lock();
        disk.mutation_or_fail()?;
        let directory = disk.directory(dir)?;
        directory.durable = directory.now.clone();
        directory.pending.clear();
        Ok(())
    }
}

/// An open file of a [`SimulatedStorage`].
struct SimulatedFile {
    storage: SimulatedStorage,
    inode: InodeId,
}

impl SimulatedFile {
    /// Runs a mutating operation on the file's inode.
    fn mutate(&self, change: impl FnOnce(&mut Inode)) -> io::Result<()> {
        let mut disk = self.storage.lock();
        disk.mutation_or_fail()?;
        change(disk.inode(self.inode));
        Ok(())
    }

    fn read<T>(&self, read: impl FnOnce(&Inode) -> io::Result<T>) -> io::Result<T> {
        let mut disk = self.storage.lock();
        disk.alive()?;
        read(disk.inode(self.inode))
    }
}

impl StorageFile for SimulatedFile {
    fn write_all_at(&self, bytes: &[u8], offset: u64) -> io::Result<()> {
        let mut disk = self.storage.lock();
        let power = disk.mutation()?;
        // A write the power failure interrupts may have reached the disk
        // in part: it is left pending, for the image to keep or tear.
        disk.inode(self.inode).change(DataChange::Write {
            offset,
            bytes: bytes.to_vec(),
        });
        match power {
            Power::On => Ok(()),
            Power::FailsNow => Err(powered_off()),
        }
    }

    fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> io::Result<()> {
        self.read(|inode| {
            let start = offset as usize;
            match inode.now.get(start..start + buf.len()) {
                Some(bytes) => {
                    buf.copy_from_slice(bytes);
                    Ok(())
                }
                None => Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    "failed to fill whole buffer",
                )),
            }
        })
    }

    fn size(&self) -> io::Result<u64> {
        self.read(|inode| Ok(inode.now.len() as u64))
    }

    fn set_len(&self, len: u64) -> io::Result<()> {
        self.mutate(|inode| inode.change(DataChange::SetLen(len)))
    }

    fn reserve(&self, len: u64) -> io::Result<()> {
        self.mutate(|inode| inode.allocated = inode.allocated.max(len))
    }

    fn allocated(&self) -> io::Result<u64> {
        self.read(|inode| Ok(inode.allocated.max(inode.now.len() as u64)))
    }

    fn sync_data(&self) -> io::Result<()> {
        self.mutate(Inode::sync)
    }

    fn sync_all(&self) -> io::Result<()> {
        self.mutate(Inode::sync)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn content(storage: &SimulatedStorage, path: &str) -> Option<Vec<u8>> {
        storage.read(Path::new(path)).ok()
    }

    /// Over many seeds, the images of one history.
    fn images(storage: &SimulatedStorage, path: &str) -> Vec<Option<Vec<u8>>> {
        (0..200)
            .map(|seed| content(&storage.surviving_image(seed), path))
            .collect()
    }

    #[test]
    fn synced_bytes_and_entries_always_survive_and_unsynced_ones_may_not() {
        let storage = SimulatedStorage::new();
        storage.create_dir_all(Path::new("/d")).unwrap();
        let file = storage.create(Path::new("/d/f")).unwrap();
        file.write_all_at(&[1; 1000], 0).unwrap();
        file.sync_data().unwrap();
        storage.sync_dir(Path::new("/d")).unwrap();
        file.write_all_at(&[2; 1000], 0).unwrap();
        let seen = images(&storage, "/d/f");
        assert!(seen
            .iter()
            .all(|c| c.as_ref().is_some_and(|c| c.len() == 1000)));
        assert!(seen.contains(&Some(vec![1; 1000])), "dropped");
        assert!(seen.contains(&Some(vec![2; 1000])), "kept");
        let torn = seen
            .iter()
            .flatten()
            .any(|c| c.contains(&1) && c.contains(&2));
        assert!(torn, "torn");
        assert!(
            seen.iter()
                .flatten()
                .all(|c| c.chunks(512).all(|s| s.iter().all(|&b| b == s[0]))),
            "tearing is sector-granular"
        );
    }

    #[test]
    fn unsynced_renames_may_be_undone_and_synced_ones_stay() {
        let renamed = |then_sync: bool| {
            let storage = SimulatedStorage::new();
            storage.create_dir_all(Path::new("/d")).unwrap();
            let file = storage.create(Path::new("/d/new.tmp")).unwrap();
            file.write_all_at(b"new", 0).unwrap();
            file.sync_all().unwrap();
            storage
                .rename(Path::new("/d/new.tmp"), Path::new("/d/root"))
                .unwrap();
            if then_sync {
                storage.sync_dir(Path::new("/d")).unwrap();
            }
            images(&storage, "/d/root")
        };
        let seen = renamed(false);
        assert!(seen.contains(&None) && seen.contains(&Some(b"new".to_vec())));
        let seen = renamed(true);
        assert!(seen.iter().all(|c| c.as_deref() == Some(b"new".as_slice())));
    }

    #[test]
    fn after_the_cut_every_operation_fails() {
        let storage = SimulatedStorage::new();
        storage.create_dir_all(Path::new("/d")).unwrap();
        let file = storage.create(Path::new("/d/f")).unwrap();
        storage.cut_power_after(2);
        file.write_all_at(b"a", 0).unwrap();
        assert!(file.sync_data().is_err(), "the cut fails the second");
        assert!(file.write_all_at(b"b", 0).is_err());
        assert!(storage.list(Path::new("/d")).is_err());
        assert!(storage.is_powered_off());
        let image = storage.surviving_image(1);
        assert!(
            image.list(Path::new("/d")).is_ok(),
            "the image is powered on"
        );
    }
}
