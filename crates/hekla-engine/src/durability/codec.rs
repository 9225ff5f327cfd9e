//! Little-endian binary encoding for everything the durability layer
//! writes: integers, byte strings, and catalog definitions. Decoding never
//! panics: a short or malformed input is a `Malformed` error that the caller
//! turns into "file X is corrupt at offset Y".

use crate::catalog::{ColumnDef, Durability, IndexDef, IndexKind, TableDef, Uniqueness};
use hekla_types::{Collation, DataType, Length, SortOrder};

/// What was wrong with an encoded input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Malformed(pub String);

pub type Decoded<T> = Result<T, Malformed>;

/// Appends encoded values to a byte vector.
pub struct Encoder<'a>(pub &'a mut Vec<u8>);

impl Encoder<'_> {
    pub fn u8(&mut self, v: u8) {
        self.0.push(v);
    }
    pub fn bool(&mut self, v: bool) {
        self.u8(v as u8);
    }
    pub fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    pub fn u64(&mut self, v: u64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    /// A length-prefixed byte string.
    pub fn bytes(&mut self, v: &[u8]) {
        self.u32(v.len() as u32);
        self.0.extend_from_slice(v);
    }
    pub fn str(&mut self, v: &str) {
        self.bytes(v.as_bytes());
    }
}

/// Reads encoded values from a byte slice.
pub struct Decoder<'a> {
    input: &'a [u8],
    at: usize,
}

impl<'a> Decoder<'a> {
    pub fn new(input: &'a [u8]) -> Decoder<'a> {
        Decoder { input, at: 0 }
    }
    pub fn is_empty(&self) -> bool {
        self.at >= self.input.len()
    }
    pub fn position(&self) -> usize {
        self.at
    }
    fn take(&mut self, n: usize) -> Decoded<&'a [u8]> {
        let end = self
            .at
            .checked_add(n)
            .filter(|&end| end <= self.input.len())
            .ok_or_else(|| {
                Malformed(format!(
                    "needs {n} bytes at {} of {}",
                    self.at,
                    self.input.len()
                ))
            })?;
        let out = &self.input[self.at..end];
        self.at = end;
        Ok(out)
    }
    fn array<const N: usize>(&mut self) -> Decoded<[u8; N]> {
        Ok(self.take(N)?.try_into().expect("length checked"))
    }
    pub fn u8(&mut self) -> Decoded<u8> {
        Ok(self.take(1)?[0])
    }
    pub fn u32(&mut self) -> Decoded<u32> {
        self.array().map(u32::from_le_bytes)
    }
    pub fn u64(&mut self) -> Decoded<u64> {
        self.array().map(u64::from_le_bytes)
    }
    pub fn bytes(&mut self) -> Decoded<&'a [u8]> {
        let len = self.u32()? as usize;
        self.take(len)
    }
    pub fn str(&mut self) -> Decoded<String> {
        let bytes = self.bytes()?;
        String::from_utf8(bytes.to_vec()).map_err(|_| Malformed("a name is not UTF-8".into()))
    }
    pub fn bool(&mut self) -> Decoded<bool> {
        match self.u8()? {
            0 => Ok(false),
            1 => Ok(true),
            other => Err(Malformed(format!("{other} is not a boolean"))),
        }
    }
}

fn encode_length(e: &mut Encoder, len: Length) {
    e.u32(match len {
        Length::Bounded(n) => n,
        Length::Max => u32::MAX,
    });
}

fn decode_length(d: &mut Decoder) -> Decoded<Length> {
    Ok(match d.u32()? {
        u32::MAX => Length::Max,
        n => Length::Bounded(n),
    })
}

fn encode_collation(e: &mut Encoder, collation: Collation) {
    e.str(collation.name());
}

fn decode_collation(d: &mut Decoder) -> Decoded<Collation> {
    let name = d.str()?;
    Collation::from_name(&name).ok_or_else(|| Malformed(format!("unknown collation {name}")))
}

pub fn encode_data_type(e: &mut Encoder, data_type: &DataType) {
    use DataType::*;
    match *data_type {
        Bit => e.u8(0),
        TinyInt => e.u8(1),
        SmallInt => e.u8(2),
        Int => e.u8(3),
        BigInt => e.u8(4),
        Decimal { precision, scale } => {
            e.u8(5);
            e.u8(precision);
            e.u8(scale);
        }
        Money => e.u8(6),
        SmallMoney => e.u8(7),
        Float => e.u8(8),
        Real => e.u8(9),
        Date => e.u8(10),
        Time { scale } => {
            e.u8(11);
            e.u8(scale);
        }
        DateTime => e.u8(12),
        DateTime2 { scale } => {
            e.u8(13);
            e.u8(scale);
        }
        SmallDateTime => e.u8(14),
        DateTimeOffset { scale } => {
            e.u8(15);
            e.u8(scale);
        }
        UniqueIdentifier => e.u8(16),
        Char { len, collation } => {
            e.u8(17);
            e.u32(len);
            encode_collation(e, collation);
        }
        VarChar { len, collation } => {
            e.u8(18);
            encode_length(e, len);
            encode_collation(e, collation);
        }
        NChar { len, collation } => {
            e.u8(19);
            e.u32(len);
            encode_collation(e, collation);
        }
        NVarChar { len, collation } => {
            e.u8(20);
            encode_length(e, len);
            encode_collation(e, collation);
        }
        Binary { len } => {
            e.u8(21);
            e.u32(len);
        }
        VarBinary { len } => {
            e.u8(22);
            encode_length(e, len);
        }
    }
}

pub fn decode_data_type(d: &mut Decoder) -> Decoded<DataType> {
    use DataType::*;
    Ok(match d.u8()? {
        0 => Bit,
        1 => TinyInt,
        2 => SmallInt,
        3 => Int,
        4 => BigInt,
        5 => Decimal {
            precision: d.u8()?,
            scale: d.u8()?,
        },
        6 => Money,
        7 => SmallMoney,
        8 => Float,
        9 => Real,
        10 => Date,
        11 => Time { scale: d.u8()? },
        12 => DateTime,
        13 => DateTime2 { scale: d.u8()? },
        14 => SmallDateTime,
        15 => DateTimeOffset { scale: d.u8()? },
        16 => UniqueIdentifier,
        17 => Char {
            len: d.u32()?,
            collation: decode_collation(d)?,
        },
        18 => VarChar {
            len: decode_length(d)?,
            collation: decode_collation(d)?,
        },
        19 => NChar {
            len: d.u32()?,
            collation: decode_collation(d)?,
        },
        20 => NVarChar {
            len: decode_length(d)?,
            collation: decode_collation(d)?,
        },
        21 => Binary { len: d.u32()? },
        22 => VarBinary {
            len: decode_length(d)?,
        },
        tag => return Err(Malformed(format!("unknown data type tag {tag}"))),
    })
}

pub fn encode_table_def(e: &mut Encoder, def: &TableDef) {
    e.u32(def.schema);
    e.str(&def.name);
    e.u8(match def.durability {
        Durability::SchemaAndData => 0,
        Durability::SchemaOnly => 1,
    });
    e.u32(def.columns.len() as u32);
    for column in &def.columns {
        e.str(&column.name);
        encode_data_type(e, &column.data_type);
        e.u8(column.nullable as u8);
    }
    e.u32(def.indexes.len() as u32);
    for index in &def.indexes {
        e.str(&index.name);
        match index.kind {
            IndexKind::Hash { bucket_count } => {
                e.u8(0);
                e.u64(bucket_count);
            }
            IndexKind::Range => e.u8(1),
        }
        e.u32(index.columns.len() as u32);
        for (&column, order) in index.columns.iter().zip(&index.orders) {
            e.u32(column as u32);
            e.u8((*order == SortOrder::Descending) as u8);
        }
        e.u8(match index.uniqueness {
            Uniqueness::NotUnique => 0,
            Uniqueness::UniqueIndex => 1,
            Uniqueness::PrimaryKey => 2,
            Uniqueness::UniqueConstraint => 3,
        });
    }
}

/// A count read from input, capped so that a corrupt count cannot make us
/// reserve unbounded memory.
fn count(d: &mut Decoder, limit: usize) -> Decoded<usize> {
    let n = d.u32()? as usize;
    if n > limit {
        return Err(Malformed(format!("count {n} exceeds {limit}")));
    }
    Ok(n)
}

pub fn decode_table_def(d: &mut Decoder) -> Decoded<TableDef> {
    let schema = d.u32()?;
    let name = d.str()?;
    let durability = match d.u8()? {
        0 => Durability::SchemaAndData,
        1 => Durability::SchemaOnly,
        other => return Err(Malformed(format!("unknown durability {other}"))),
    };
    let columns = (0..count(d, crate::catalog::MAX_COLUMNS)?)
        .map(|_| {
            Ok(ColumnDef {
                name: d.str()?,
                data_type: decode_data_type(d)?,
                nullable: d.bool()?,
            })
        })
        .collect::<Decoded<Vec<_>>>()?;
    let indexes = (0..count(d, crate::catalog::MAX_INDEXES)?)
        .map(|_| {
            let name = d.str()?;
            let kind = match d.u8()? {
                0 => IndexKind::Hash {
                    bucket_count: d.u64()?,
                },
                1 => IndexKind::Range,
                other => return Err(Malformed(format!("unknown index kind {other}"))),
            };
            let key_columns = count(d, crate::catalog::MAX_KEY_COLUMNS)?;
            let mut columns = Vec::with_capacity(key_columns);
            let mut orders = Vec::with_capacity(key_columns);
            for _ in 0..key_columns {
                columns.push(d.u32()? as usize);
                orders.push(if d.bool()? {
                    SortOrder::Descending
                } else {
                    SortOrder::Ascending
                });
            }
            let uniqueness = match d.u8()? {
                0 => Uniqueness::NotUnique,
                1 => Uniqueness::UniqueIndex,
                2 => Uniqueness::PrimaryKey,
                3 => Uniqueness::UniqueConstraint,
                other => return Err(Malformed(format!("unknown uniqueness {other}"))),
            };
            Ok(IndexDef {
                name,
                kind,
                columns,
                orders,
                uniqueness,
            })
        })
        .collect::<Decoded<Vec<_>>>()?;
    Ok(TableDef {
        schema,
        name,
        columns,
        durability,
        indexes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_definitions_round_trip() {
        let def = TableDef {
            schema: 7,
            name: "SalesOrderDetail".into(),
            columns: vec![
                ColumnDef::new("id", DataType::BigInt, false),
                ColumnDef::new(
                    "note",
                    DataType::NVarChar {
                        len: Length::Max,
                        collation: Collation::Latin1GeneralBin2,
                    },
                    true,
                ),
                ColumnDef::new(
                    "price",
                    DataType::Decimal {
                        precision: 19,
                        scale: 4,
                    },
                    false,
                ),
            ],
            durability: Durability::SchemaOnly,
            indexes: vec![
                IndexDef::hash("pk", &[0], 1 << 20, Uniqueness::PrimaryKey),
                IndexDef::range(
                    "ix",
                    &[(2, SortOrder::Descending), (1, SortOrder::Ascending)],
                    Uniqueness::NotUnique,
                ),
            ],
        };
        let mut bytes = Vec::new();
        encode_table_def(&mut Encoder(&mut bytes), &def);
        let mut d = Decoder::new(&bytes);
        assert_eq!(decode_table_def(&mut d).unwrap(), def);
        assert!(d.is_empty());
        // Every truncation is an error, never a panic.
        for cut in 0..bytes.len() {
            assert!(decode_table_def(&mut Decoder::new(&bytes[..cut])).is_err());
        }
    }
}
