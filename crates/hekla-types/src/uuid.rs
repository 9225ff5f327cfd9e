//! uniqueidentifier: 16 bytes in SQL Server's byte order and sort order.

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Uuid(pub [u8; 16]);
