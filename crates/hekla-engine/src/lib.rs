//! hekla storage engine.
