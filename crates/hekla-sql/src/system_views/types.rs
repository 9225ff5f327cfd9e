//! SQL Server's description of a data type: its system type id, name,
//! `max_length` in bytes, precision and scale, as `sys.columns`,
//! `sys.types` and `INFORMATION_SCHEMA.COLUMNS` report them.

use hekla_types::{Collation, DataType, Length};

/// One type as the catalog views describe it.
#[derive(Clone, Debug, PartialEq)]
pub struct TypeInfo {
    pub name: &'static str,
    pub system_type_id: u8,
    /// Equal to `system_type_id` for system types; `sysname` is 256.
    pub user_type_id: i32,
    /// Bytes; -1 for the `max` types.
    pub max_length: i16,
    pub precision: u8,
    pub scale: u8,
    pub collation: Option<Collation>,
}

/// SQL Server's system type ids.
pub mod id {
    pub const UNIQUEIDENTIFIER: u8 = 36;
    pub const DATE: u8 = 40;
    pub const TIME: u8 = 41;
    pub const DATETIME2: u8 = 42;
    pub const DATETIMEOFFSET: u8 = 43;
    pub const TINYINT: u8 = 48;
    pub const SMALLINT: u8 = 52;
    pub const INT: u8 = 56;
    pub const SMALLDATETIME: u8 = 58;
    pub const REAL: u8 = 59;
    pub const MONEY: u8 = 60;
    pub const DATETIME: u8 = 61;
    pub const FLOAT: u8 = 62;
    pub const BIT: u8 = 104;
    pub const DECIMAL: u8 = 106;
    pub const NUMERIC: u8 = 108;
    pub const SMALLMONEY: u8 = 122;
    pub const BIGINT: u8 = 127;
    pub const VARBINARY: u8 = 165;
    pub const VARCHAR: u8 = 167;
    pub const BINARY: u8 = 173;
    pub const CHAR: u8 = 175;
    pub const NVARCHAR: u8 = 231;
    pub const NCHAR: u8 = 239;
    /// `table`, the system type of every table type.
    pub const TABLE_TYPE: u8 = 243;
    /// `sysname`'s user_type_id (an alias of nvarchar(128)).
    pub const SYSNAME_USER_TYPE: i32 = 256;
}

/// The description of a column of type `data_type`. hekla keeps no alias
/// types, so a column declared `numeric` or `sysname` is described as the
/// `decimal` or `nvarchar(128)` it is stored as.
pub fn describe(data_type: &DataType) -> TypeInfo {
    use DataType::*;
    let (name, system_type_id, max_length, precision, scale) = match *data_type {
        Bit => ("bit", id::BIT, 1, 1, 0),
        TinyInt => ("tinyint", id::TINYINT, 1, 3, 0),
        SmallInt => ("smallint", id::SMALLINT, 2, 5, 0),
        Int => ("int", id::INT, 4, 10, 0),
        BigInt => ("bigint", id::BIGINT, 8, 19, 0),
        Decimal { precision, scale } => {
            let bytes = match precision {
                0..=9 => 5,
                10..=19 => 9,
                20..=28 => 13,
                _ => 17,
            };
            ("decimal", id::DECIMAL, bytes, precision, scale)
        }
        Money => ("money", id::MONEY, 8, 19, 4),
        SmallMoney => ("smallmoney", id::SMALLMONEY, 4, 10, 4),
        Float => ("float", id::FLOAT, 8, 53, 0),
        Real => ("real", id::REAL, 4, 24, 0),
        Date => ("date", id::DATE, 3, 10, 0),
        Time { scale } => (
            "time",
            id::TIME,
            3 + fraction_bytes(scale),
            time_precision(8, scale),
            scale,
        ),
        DateTime => ("datetime", id::DATETIME, 8, 23, 3),
        DateTime2 { scale } => (
            "datetime2",
            id::DATETIME2,
            6 + fraction_bytes(scale),
            time_precision(19, scale),
            scale,
        ),
        SmallDateTime => ("smalldatetime", id::SMALLDATETIME, 4, 16, 0),
        DateTimeOffset { scale } => (
            "datetimeoffset",
            id::DATETIMEOFFSET,
            8 + fraction_bytes(scale),
            time_precision(26, scale),
            scale,
        ),
        UniqueIdentifier => ("uniqueidentifier", id::UNIQUEIDENTIFIER, 16, 0, 0),
        Char { len, .. } => ("char", id::CHAR, bytes(len, 1), 0, 0),
        VarChar { len, .. } => ("varchar", id::VARCHAR, length(len, 1), 0, 0),
        NChar { len, .. } => ("nchar", id::NCHAR, bytes(len, 2), 0, 0),
        NVarChar { len, .. } => ("nvarchar", id::NVARCHAR, length(len, 2), 0, 0),
        Binary { len } => ("binary", id::BINARY, bytes(len, 1), 0, 0),
        VarBinary { len } => ("varbinary", id::VARBINARY, length(len, 1), 0, 0),
    };
    TypeInfo {
        name,
        system_type_id,
        user_type_id: i32::from(system_type_id),
        max_length,
        precision,
        scale,
        collation: data_type.collation(),
    }
}

/// Extra bytes time(n), datetime2(n) and datetimeoffset(n) spend on the
/// fraction beyond their scale-0 size.
fn fraction_bytes(scale: u8) -> i16 {
    match scale {
        0..=2 => 0,
        3..=4 => 1,
        _ => 2,
    }
}

/// Characters of the type's literal: `whole` at scale 0, plus the point
/// and the digits otherwise.
fn time_precision(whole: u8, scale: u8) -> u8 {
    if scale == 0 {
        whole
    } else {
        whole + 1 + scale
    }
}

fn bytes(len: u32, per_unit: u32) -> i16 {
    i16::try_from(len.saturating_mul(per_unit)).unwrap_or(i16::MAX)
}

fn length(len: Length, per_unit: u32) -> i16 {
    match len {
        Length::Bounded(n) => bytes(n, per_unit),
        Length::Max => -1,
    }
}

/// A row of `sys.types`.
pub struct SystemType {
    pub info: TypeInfo,
    pub nullable: bool,
}

/// The system types hekla supports, as `sys.types` lists them: each at
/// its widest (`max_length`, precision and scale are the type's limits).
pub fn system_types() -> Vec<SystemType> {
    let collation = Collation::default();
    let widest = [
        DataType::UniqueIdentifier,
        DataType::Date,
        DataType::Time { scale: 7 },
        DataType::DateTime2 { scale: 7 },
        DataType::DateTimeOffset { scale: 7 },
        DataType::TinyInt,
        DataType::SmallInt,
        DataType::Int,
        DataType::SmallDateTime,
        DataType::Real,
        DataType::Money,
        DataType::DateTime,
        DataType::Float,
        DataType::Bit,
        DataType::Decimal {
            precision: 38,
            scale: 38,
        },
        DataType::SmallMoney,
        DataType::BigInt,
        DataType::VarBinary {
            len: Length::Bounded(8000),
        },
        DataType::VarChar {
            len: Length::Bounded(8000),
            collation,
        },
        DataType::Binary { len: 8000 },
        DataType::Char {
            len: 8000,
            collation,
        },
        DataType::NVarChar {
            len: Length::Bounded(4000),
            collation,
        },
        DataType::NChar {
            len: 4000,
            collation,
        },
    ];
    let mut types: Vec<SystemType> = widest
        .iter()
        .map(|data_type| SystemType {
            info: describe(data_type),
            nullable: true,
        })
        .collect();
    // numeric is decimal under another name and id.
    let decimal = describe(&widest[14]);
    types.push(SystemType {
        info: TypeInfo {
            name: "numeric",
            system_type_id: id::NUMERIC,
            user_type_id: i32::from(id::NUMERIC),
            ..decimal
        },
        nullable: true,
    });
    // sysname: nvarchar(128) NOT NULL, with a user type id of its own.
    let nvarchar = describe(&DataType::NVarChar {
        len: Length::Bounded(128),
        collation,
    });
    types.push(SystemType {
        info: TypeInfo {
            name: "sysname",
            user_type_id: id::SYSNAME_USER_TYPE,
            ..nvarchar
        },
        nullable: false,
    });
    types.sort_by_key(|t| (t.info.system_type_id, t.info.user_type_id));
    types
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(data_type: DataType) -> (u8, i16, u8, u8) {
        let info = describe(&data_type);
        (
            info.system_type_id,
            info.max_length,
            info.precision,
            info.scale,
        )
    }

    #[test]
    fn columns_are_described_as_sql_server_describes_them() {
        let collation = Collation::default();
        assert_eq!(shape(DataType::Int), (56, 4, 10, 0));
        assert_eq!(
            shape(DataType::Decimal {
                precision: 18,
                scale: 2
            }),
            (106, 9, 18, 2)
        );
        assert_eq!(shape(DataType::DateTime2 { scale: 7 }), (42, 8, 27, 7));
        assert_eq!(shape(DataType::DateTime2 { scale: 0 }), (42, 6, 19, 0));
        assert_eq!(shape(DataType::Time { scale: 3 }), (41, 4, 12, 3));
        assert_eq!(
            shape(DataType::DateTimeOffset { scale: 7 }),
            (43, 10, 34, 7)
        );
        assert_eq!(
            shape(DataType::NVarChar {
                len: Length::Bounded(25),
                collation
            }),
            (231, 50, 0, 0)
        );
        assert_eq!(
            shape(DataType::VarChar {
                len: Length::Max,
                collation
            }),
            (167, -1, 0, 0)
        );
        assert_eq!(shape(DataType::Money), (60, 8, 19, 4));
    }

    #[test]
    fn system_types_include_sysname_and_numeric() {
        let types = system_types();
        let find = |name: &str| types.iter().find(|t| t.info.name == name).unwrap();
        let sysname = find("sysname");
        assert_eq!(
            (sysname.info.system_type_id, sysname.info.user_type_id),
            (231, 256)
        );
        assert_eq!(sysname.info.max_length, 256);
        assert!(!sysname.nullable);
        assert_eq!(find("numeric").info.system_type_id, 108);
        assert_eq!(find("nvarchar").info.max_length, 8000);
        assert_eq!(types.len(), 25);
    }
}
