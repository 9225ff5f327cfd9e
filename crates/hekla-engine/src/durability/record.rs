//! Log records: what one committed transaction or catalog change writes.
//!
//! A transaction's changes are split into parts of at most `PART_BYTES`, so
//! that no block has to hold a huge transaction whole; the last part is
//! flagged, and recovery applies a transaction only once it has seen it.
//!
//! ```text
//! commit part:   [1][commit ts u64][last u8][count u32] changes...
//!   insert:      [1][table u32][row bytes]
//!   delete:      [2][table u32][begin ts u64][row identity bytes]
//! create schema: [2][ts u64][schema id u32][name]
//! create table:  [3][ts u64][table id u32][table definition]
//! drop table:    [4][ts u64][table id u32]
//! options:       [7][ts u64][delayed durability u8][elevate to snapshot u8]
//!                   [recovery model u8][user access u8]
//! ```
//!
//! Older logs' options records still read, the options they lack at their
//! defaults: kind 5, `[5][ts u64][delayed durability u8]`, from before
//! MEMORY_OPTIMIZED_ELEVATE_TO_SNAPSHOT was kept, and kind 6, `[6][ts
//! u64][delayed durability u8][elevate to snapshot u8]`, from before
//! RECOVERY and the user access were.

use super::codec::{decode_table_def, encode_table_def, Decoded, Decoder, Encoder, Malformed};
use super::options::{DatabaseOptions, DelayedDurability};
use crate::catalog::{SchemaId, TableDef, TableId};

/// A transaction's changes are cut into parts of about this many bytes.
pub const PART_BYTES: usize = 1 << 20;

const COMMIT: u8 = 1;
const CREATE_SCHEMA: u8 = 2;
const CREATE_TABLE: u8 = 3;
const DROP_TABLE: u8 = 4;
/// Options before MEMORY_OPTIMIZED_ELEVATE_TO_SNAPSHOT: read, never written.
const DELAYED_DURABILITY_ONLY: u8 = 5;
/// Options before RECOVERY and the user access: read, never written.
const WITHOUT_RECOVERY_AND_ACCESS: u8 = 6;
const OPTIONS: u8 = 7;

const INSERT: u8 = 1;
const DELETE: u8 = 2;

#[derive(Debug, Clone, PartialEq)]
pub enum Change<'a> {
    Insert {
        table: TableId,
        row: &'a [u8],
    },
    /// The version the table's row `identity` names that was born at `begin_ts`.
    Delete {
        table: TableId,
        begin_ts: u64,
        identity: &'a [u8],
    },
}

#[derive(Debug, Clone, PartialEq)]
pub enum Record<'a> {
    CommitPart {
        ts: u64,
        last: bool,
        changes: Vec<Change<'a>>,
    },
    CreateSchema {
        ts: u64,
        id: SchemaId,
        name: String,
    },
    CreateTable {
        ts: u64,
        id: TableId,
        def: TableDef,
    },
    DropTable {
        ts: u64,
        id: TableId,
    },
    /// `ALTER DATABASE ... SET`: every option as the change leaves them.
    Options {
        ts: u64,
        options: DatabaseOptions,
    },
}

impl Record<'_> {
    pub fn ts(&self) -> u64 {
        match *self {
            Record::CommitPart { ts, .. }
            | Record::CreateSchema { ts, .. }
            | Record::CreateTable { ts, .. }
            | Record::DropTable { ts, .. }
            | Record::Options { ts, .. } => ts,
        }
    }

    /// Appends the encoded record to `out`.
    pub fn encode(&self, out: &mut Vec<u8>) {
        let mut e = Encoder(out);
        match self {
            Record::CommitPart { ts, last, changes } => {
                let mut part = CommitPartWriter::begin(e.0, *ts);
                for change in changes {
                    part.push(change);
                }
                part.finish(*last);
            }
            Record::CreateSchema { ts, id, name } => {
                e.u8(CREATE_SCHEMA);
                e.u64(*ts);
                e.u32(*id);
                e.str(name);
            }
            Record::CreateTable { ts, id, def } => {
                e.u8(CREATE_TABLE);
                e.u64(*ts);
                e.u32(*id);
                encode_table_def(&mut e, def);
            }
            Record::DropTable { ts, id } => {
                e.u8(DROP_TABLE);
                e.u64(*ts);
                e.u32(*id);
            }
            Record::Options { ts, options } => {
                e.u8(OPTIONS);
                e.u64(*ts);
                options.encode(&mut e);
            }
        }
    }
}

/// Writes one commit part straight into a buffer, without building a
/// `Vec<Change>` first (the commit path's way in).
pub struct CommitPartWriter<'a> {
    out: &'a mut Vec<u8>,
    header: usize,
    count: u32,
}

impl<'a> CommitPartWriter<'a> {
    pub fn begin(out: &'a mut Vec<u8>, ts: u64) -> CommitPartWriter<'a> {
        let header = out.len();
        let mut e = Encoder(out);
        e.u8(COMMIT);
        e.u64(ts);
        e.u8(0);
        e.u32(0);
        CommitPartWriter {
            out,
            header,
            count: 0,
        }
    }

    /// Bytes written for this part so far.
    pub fn len(&self) -> usize {
        self.out.len() - self.header
    }

    pub fn push(&mut self, change: &Change) {
        let mut e = Encoder(self.out);
        match *change {
            Change::Insert { table, row } => {
                e.u8(INSERT);
                e.u32(table);
                e.bytes(row);
            }
            Change::Delete {
                table,
                begin_ts,
                identity,
            } => {
                e.u8(DELETE);
                e.u32(table);
                e.u64(begin_ts);
                e.bytes(identity);
            }
        }
        self.count += 1;
    }

    pub fn finish(self, last: bool) {
        self.out[self.header + 9] = last as u8;
        self.out[self.header + 10..self.header + 14].copy_from_slice(&self.count.to_le_bytes());
    }
}

/// Decodes the records of the log block at `lsn` in `log_dir`; a record
/// that does not decode is corruption naming the log.
pub fn decode_block<'a>(
    payload: &'a [u8],
    log_dir: &std::path::Path,
    lsn: u64,
) -> hekla_types::SqlResult<Vec<Record<'a>>> {
    decode_all(payload).map_err(|m| crate::errors::recovery_failed(log_dir, lsn, &m.0))
}

/// Decodes the records of one block payload, in order.
fn decode_all(payload: &[u8]) -> Decoded<Vec<Record<'_>>> {
    let mut d = Decoder::new(payload);
    let mut records = Vec::new();
    while !d.is_empty() {
        records.push(decode_one(&mut d)?);
    }
    Ok(records)
}

fn decode_one<'a>(d: &mut Decoder<'a>) -> Decoded<Record<'a>> {
    let kind = d.u8()?;
    let ts = d.u64()?;
    Ok(match kind {
        COMMIT => {
            let last = d.bool()?;
            let count = d.u32()? as usize;
            // Each change takes at least 9 bytes: a corrupt count cannot
            // make us reserve more than the payload could hold.
            let mut changes = Vec::with_capacity(count.min(PART_BYTES));
            for _ in 0..count {
                changes.push(match d.u8()? {
                    INSERT => Change::Insert {
                        table: d.u32()?,
                        row: d.bytes()?,
                    },
                    DELETE => Change::Delete {
                        table: d.u32()?,
                        begin_ts: d.u64()?,
                        identity: d.bytes()?,
                    },
                    other => return Err(Malformed(format!("unknown change kind {other}"))),
                });
            }
            Record::CommitPart { ts, last, changes }
        }
        CREATE_SCHEMA => Record::CreateSchema {
            ts,
            id: d.u32()?,
            name: d.str()?,
        },
        CREATE_TABLE => Record::CreateTable {
            ts,
            id: d.u32()?,
            def: decode_table_def(d)?,
        },
        DROP_TABLE => Record::DropTable { ts, id: d.u32()? },
        DELAYED_DURABILITY_ONLY => Record::Options {
            ts,
            options: DatabaseOptions::with_defaults_after_elevate(
                DelayedDurability::from_code(d.u8()?)?,
                false,
            ),
        },
        WITHOUT_RECOVERY_AND_ACCESS => Record::Options {
            ts,
            options: DatabaseOptions::with_defaults_after_elevate(
                DelayedDurability::from_code(d.u8()?)?,
                d.bool()?,
            ),
        },
        OPTIONS => Record::Options {
            ts,
            options: DatabaseOptions::decode(d)?,
        },
        other => return Err(Malformed(format!("unknown record kind {other}"))),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::{ColumnDef, IndexDef, Uniqueness};
    use crate::durability::{RecoveryModel, UserAccess};
    use hekla_types::DataType;

    #[test]
    fn records_round_trip_and_truncations_fail_cleanly() {
        let records = vec![
            Record::CreateSchema {
                ts: 2,
                id: 5,
                name: "Sales".into(),
            },
            Record::CreateTable {
                ts: 3,
                id: 9,
                def: TableDef::new(
                    "t",
                    vec![ColumnDef::new("k", DataType::Int, false)],
                    vec![IndexDef::hash("pk", &[0], 8, Uniqueness::PrimaryKey)],
                ),
            },
            Record::CommitPart {
                ts: 4,
                last: true,
                changes: vec![
                    Change::Insert {
                        table: 9,
                        row: &[1, 0, 0, 0],
                    },
                    Change::Delete {
                        table: 9,
                        begin_ts: 3,
                        identity: &[2, 0],
                    },
                ],
            },
            Record::DropTable { ts: 5, id: 9 },
            Record::Options {
                ts: 6,
                options: DatabaseOptions {
                    delayed_durability: DelayedDurability::Forced,
                    elevate_to_snapshot: true,
                    recovery: RecoveryModel::BulkLogged,
                    user_access: UserAccess::Single,
                },
            },
        ];
        let mut bytes = Vec::new();
        for record in &records {
            record.encode(&mut bytes);
        }
        assert_eq!(decode_all(&bytes).unwrap(), records);
        for cut in 0..bytes.len() {
            let _ = decode_all(&bytes[..cut]);
        }
    }

    #[test]
    fn an_options_record_of_an_older_log_reads_with_elevate_to_snapshot_off() {
        let mut bytes = vec![DELAYED_DURABILITY_ONLY];
        bytes.extend_from_slice(&9u64.to_le_bytes());
        bytes.push(DelayedDurability::Allowed.code());
        let expected = Record::Options {
            ts: 9,
            options: DatabaseOptions {
                delayed_durability: DelayedDurability::Allowed,
                ..DatabaseOptions::default()
            },
        };
        assert_eq!(decode_all(&bytes).unwrap(), vec![expected]);
    }

    #[test]
    fn an_options_record_without_recovery_and_access_reads_with_their_defaults() {
        let mut bytes = vec![WITHOUT_RECOVERY_AND_ACCESS];
        bytes.extend_from_slice(&9u64.to_le_bytes());
        bytes.extend_from_slice(&[DelayedDurability::Forced.code(), 1]);
        let expected = Record::Options {
            ts: 9,
            options: DatabaseOptions {
                delayed_durability: DelayedDurability::Forced,
                elevate_to_snapshot: true,
                recovery: RecoveryModel::Simple,
                user_access: UserAccess::Multi,
            },
        };
        assert_eq!(decode_all(&bytes).unwrap(), vec![expected]);
    }
}
