//! The root file: the one small file that says what a checkpoint holds.
//! It is replaced atomically (write a temporary file, sync it, rename it
//! over the old one, sync the directory), so a crash leaves either the old
//! checkpoint or the new one, never a mix.

use super::codec::{decode_table_def, encode_table_def, Decoded, Decoder, Encoder, Malformed};
use super::frame::{self, Read};
use super::mutations::{self, Mutation};
use super::options::{DatabaseOptions, DelayedDurability};
use super::storage::Storage;
use crate::catalog::{SchemaId, TableDef, TableId};
use crate::errors;
use hekla_types::SqlResult;
use std::collections::BTreeMap;
use std::path::Path;

pub const ROOT_NAME: &str = "hekla.root";
/// Version 2 added MEMORY_OPTIMIZED_ELEVATE_TO_SNAPSHOT after the delayed
/// durability byte, version 3 RECOVERY and the user access after it;
/// older roots still read, the options they lack at their defaults.
const FORMAT_VERSION: u32 = 3;
const WITHOUT_ELEVATE_TO_SNAPSHOT: u32 = 1;
const WITHOUT_RECOVERY_AND_ACCESS: u32 = 2;

/// The catalog as of a checkpoint.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CatalogImage {
    pub schemas: BTreeMap<SchemaId, String>,
    pub tables: BTreeMap<TableId, TableDef>,
    /// Ids below these were handed out; a row of a table id below
    /// `next_table` that is not in `tables` belongs to a dropped table.
    pub next_schema: SchemaId,
    pub next_table: TableId,
    pub options: DatabaseOptions,
}

/// A sealed pair as the root records it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairImage {
    pub id: u64,
    pub lower_ts: u64,
    pub upper_ts: u64,
    pub data_len: u64,
    pub delta_len: u64,
    pub rows: u64,
    pub deleted: u64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Root {
    /// Every commit at or below this timestamp is in the pairs.
    pub checkpoint_ts: u64,
    /// Replay starts at this log position, skipping commits at or below
    /// `checkpoint_ts`.
    pub replay_lsn: u64,
    pub next_pair_id: u64,
    pub catalog: CatalogImage,
    pub pairs: Vec<PairImage>,
}

impl Root {
    fn encode(&self, out: &mut Vec<u8>) {
        let mut e = Encoder(out);
        e.u32(FORMAT_VERSION);
        e.u64(self.checkpoint_ts);
        e.u64(self.replay_lsn);
        e.u64(self.next_pair_id);
        let catalog = &self.catalog;
        e.u32(catalog.next_schema);
        e.u32(catalog.next_table);
        catalog.options.encode(&mut e);
        e.u32(catalog.schemas.len() as u32);
        for (&id, name) in &catalog.schemas {
            e.u32(id);
            e.str(name);
        }
        e.u32(catalog.tables.len() as u32);
        for (&id, def) in &catalog.tables {
            e.u32(id);
            encode_table_def(&mut e, def);
        }
        e.u32(self.pairs.len() as u32);
        for pair in &self.pairs {
            for v in [
                pair.id,
                pair.lower_ts,
                pair.upper_ts,
                pair.data_len,
                pair.delta_len,
                pair.rows,
                pair.deleted,
            ] {
                e.u64(v);
            }
        }
    }

    fn decode(d: &mut Decoder) -> Decoded<Root> {
        let version = d.u32()?;
        if !(WITHOUT_ELEVATE_TO_SNAPSHOT..=FORMAT_VERSION).contains(&version) {
            return Err(Malformed(format!("unknown root format version {version}")));
        }
        let checkpoint_ts = d.u64()?;
        let replay_lsn = d.u64()?;
        let next_pair_id = d.u64()?;
        let next_schema = d.u32()?;
        let next_table = d.u32()?;
        let options = match version {
            WITHOUT_ELEVATE_TO_SNAPSHOT => DatabaseOptions::with_defaults_after_elevate(
                DelayedDurability::from_code(d.u8()?)?,
                false,
            ),
            WITHOUT_RECOVERY_AND_ACCESS => DatabaseOptions::with_defaults_after_elevate(
                DelayedDurability::from_code(d.u8()?)?,
                d.bool()?,
            ),
            _ => DatabaseOptions::decode(d)?,
        };
        let mut schemas = BTreeMap::new();
        for _ in 0..d.u32()? {
            schemas.insert(d.u32()?, d.str()?);
        }
        let mut tables = BTreeMap::new();
        for _ in 0..d.u32()? {
            tables.insert(d.u32()?, decode_table_def(d)?);
        }
        let mut pairs = Vec::new();
        for _ in 0..d.u32()? {
            pairs.push(PairImage {
                id: d.u64()?,
                lower_ts: d.u64()?,
                upper_ts: d.u64()?,
                data_len: d.u64()?,
                delta_len: d.u64()?,
                rows: d.u64()?,
                deleted: d.u64()?,
            });
        }
        Ok(Root {
            checkpoint_ts,
            replay_lsn,
            next_pair_id,
            catalog: CatalogImage {
                schemas,
                tables,
                next_schema,
                next_table,
                options,
            },
            pairs,
        })
    }

    /// Reads the root in `dir`; None if the database has never checkpointed.
    pub fn read(storage: &dyn Storage, dir: &Path) -> SqlResult<Option<Root>> {
        let path = dir.join(ROOT_NAME);
        let bytes = match storage.read(&path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(errors::io_error("read", &path, &e)),
        };
        match frame::read(&bytes, 0, 0) {
            Read::Block { payload, .. } => {
                let mut d = Decoder::new(payload);
                let root = Root::decode(&mut d)
                    .map_err(|m| errors::recovery_failed(&path, d.position() as u64, &m.0))?;
                Ok(Some(root))
            }
            Read::End => Err(errors::recovery_failed(&path, 0, "the root file is empty")),
            Read::Bad(problem) => Err(errors::recovery_failed(&path, 0, &problem)),
        }
    }

    /// Replaces the root in `dir` atomically and durably.
    pub fn write(&self, storage: &dyn Storage, dir: &Path) -> SqlResult<()> {
        let mut block = frame::new_block(4096);
        self.encode(&mut block);
        frame::seal(&mut block, 0);
        let path = dir.join(ROOT_NAME);
        let in_place = mutations::is_active(Mutation::RootInPlace);
        let temp = match in_place {
            true => path.clone(),
            false => dir.join(format!("{ROOT_NAME}.tmp")),
        };
        (|| {
            let file = storage.create(&temp)?;
            file.write_all_at(&block, 0)?;
            file.sync_all()?;
            if !in_place {
                storage.rename(&temp, &path)?;
            }
            if mutations::is_active(Mutation::NoRootDirSync) {
                return Ok(());
            }
            storage.sync_dir(dir)
        })()
        .map_err(|e| errors::io_error("write", &path, &e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::durability::{RecoveryModel, UserAccess};

    fn root(options: DatabaseOptions) -> Root {
        Root {
            checkpoint_ts: 7,
            replay_lsn: 4096,
            next_pair_id: 3,
            catalog: CatalogImage {
                schemas: BTreeMap::from([(1, "dbo".to_string())]),
                next_schema: 2,
                next_table: 5,
                options,
                ..CatalogImage::default()
            },
            pairs: Vec::new(),
        }
    }

    #[test]
    fn roots_round_trip_and_older_versions_read_with_defaults() {
        let options = DatabaseOptions {
            delayed_durability: DelayedDurability::Allowed,
            elevate_to_snapshot: true,
            recovery: RecoveryModel::Full,
            user_access: UserAccess::Restricted,
        };
        let mut bytes = Vec::new();
        root(options).encode(&mut bytes);
        assert_eq!(Root::decode(&mut Decoder::new(&bytes)), Ok(root(options)));
        // The options start at byte 36 (after the version, three u64s and
        // two u32s): delayed durability, elevate, recovery, user access.
        let defaults = DatabaseOptions {
            delayed_durability: DelayedDurability::Allowed,
            ..DatabaseOptions::default()
        };
        let mut version_2 = bytes.clone();
        version_2[..4].copy_from_slice(&WITHOUT_RECOVERY_AND_ACCESS.to_le_bytes());
        version_2.drain(38..40);
        let expected = root(DatabaseOptions {
            elevate_to_snapshot: true,
            ..defaults
        });
        assert_eq!(Root::decode(&mut Decoder::new(&version_2)), Ok(expected));
        let mut version_1 = version_2;
        version_1[..4].copy_from_slice(&WITHOUT_ELEVATE_TO_SNAPSHOT.to_le_bytes());
        version_1.remove(37);
        assert_eq!(
            Root::decode(&mut Decoder::new(&version_1)),
            Ok(root(defaults))
        );
        let mut unknown = bytes;
        unknown[..4].copy_from_slice(&4u32.to_le_bytes());
        assert!(Root::decode(&mut Decoder::new(&unknown)).is_err());
    }
}
