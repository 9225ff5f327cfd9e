//! Stopping a running request from another thread (a TDS ATTENTION).
//!
//! A [`CancelHandle`] is a flag shared between a session and whoever may
//! stop it. The interpreter looks at it before every statement and every
//! loop iteration, and the executor every [`ROWS_PER_CHECK`] rows it
//! reads, joins or sorts, so a request stops promptly however it spends its
//! time. A stopped request ends with [`cancelled`], which the interpreter
//! recognises: the running statement is undone, nothing more is reported,
//! and no CATCH block runs (as SQL Server treats an attention).
//!
//! Running a request does not clear the flag: a cancel that arrives before
//! the request starts must still stop it. Whoever cancels clears the flag
//! once the request has ended (TDS: when it acknowledges the attention).

use hekla_types::SqlError;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// How many rows an operator handles between two looks at the flag.
pub const ROWS_PER_CHECK: u32 = 1024;

/// Something another thread uses to stop a session's running request.
#[derive(Clone, Debug, Default)]
pub struct CancelHandle {
    cancelled: Arc<AtomicBool>,
}

impl CancelHandle {
    /// Asks the running request (or the next one) to stop.
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::Relaxed);
    }

    /// Lets requests run again.
    pub fn clear(&self) {
        self.cancelled.store(false, Ordering::Relaxed);
    }

    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Relaxed)
    }
}

/// The error a cancelled request unwinds with. It never reaches a client:
/// SQL Server's number for an attention (3617, what its traces show) only
/// names it.
pub fn cancelled() -> SqlError {
    SqlError::new(3617, 25, 1, "The request was cancelled by the client.")
}

/// Whether `error` is [`cancelled`].
pub fn is_cancelled(error: &SqlError) -> bool {
    error.number == 3617
}
