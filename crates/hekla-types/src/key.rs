//! Order-preserving byte encoding of index key tuples: for keys `a` and `b`,
//! `encode(a) < encode(b)` (bytewise) exactly when `a` sorts before `b`.
