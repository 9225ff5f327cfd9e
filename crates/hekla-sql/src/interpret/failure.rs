//! What an error ends, by SQL Server's rules (XACT_ABORT OFF):
//!
//! - most errors end only their **statement**: a key or constraint
//!   violation, divide by zero, an overflow, a RAISERROR;
//! - a name that does not resolve (208, 207, 4104) is a compile error of
//!   the statement's **scope**: the rest of the batch or procedure is
//!   skipped, and a TRY in that same scope does not catch it (one in a
//!   calling scope does);
//! - a conversion error, a deadlock, a conflict of memory-optimized
//!   tables (41302, 41305, 41325, 41301), a memory-optimized table read
//!   at a session level it does not allow (41332, 41333) or memory that
//!   cannot be had (701, 41805) ends the whole **batch** and rolls back
//!   the transaction, and so does THROW (without the rollback).
//!
//! With `SET XACT_ABORT ON` every error ends the batch and rolls back.
//! A cancelled request ends the batch unreported (see [`hekla_plan::cancel`]).
//! Inside TRY, an error that would roll back dooms the transaction instead.

use hekla_plan::result::ErrorEvent;
use hekla_types::SqlError;

/// How far an error unwinds when no TRY catches it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Reach {
    Statement,
    Scope,
    Batch,
}

/// An error unwinding the interpreter.
#[derive(Clone, Debug)]
pub struct Failure {
    pub event: ErrorEvent,
    pub reach: Reach,
    /// It rolls back the user transaction (or dooms it, inside TRY).
    pub rolls_back: bool,
    /// A compile error raised at this nesting level: a TRY at the same
    /// level lets it pass.
    pub compiled_at: Option<u8>,
    /// Already shown to the client: it only unwinds now.
    pub reported: bool,
    /// SQL Server follows it with "The statement has been terminated.".
    pub terminated: bool,
    /// The client cancelled the request (see [`hekla_plan::cancel`]): it ends
    /// the batch silently and no CATCH block sees it.
    pub cancelled: bool,
}

/// Errors resolving a name: the statement's scope could not be compiled.
const COMPILE_ERRORS: &[u32] = &[207, 208, 4104];

/// Errors that end the batch and roll back its transaction: conversion
/// errors, deadlock, the conflicts of optimistic concurrency, the
/// isolation errors SQL Server lists with them as dooming, and running out
/// of memory.
const BATCH_ERRORS: &[u32] = &[
    245, 8114, 1205, 41301, 41302, 41305, 41325, 41332, 41333, 3930, 701, 41805,
];

impl Failure {
    /// Classifies `event`, raised by a statement at nesting `level`;
    /// `thrown` by THROW.
    pub fn classify(event: ErrorEvent, level: u8, xact_abort: bool, thrown: bool) -> Failure {
        let number = event.error.number;
        let compile = COMPILE_ERRORS.contains(&number);
        let cancelled = hekla_plan::cancel::is_cancelled(&event.error);
        let (reach, rolls_back) = if cancelled {
            // Only the running statement is undone, unless XACT_ABORT.
            (Reach::Batch, xact_abort)
        } else if xact_abort && event.error.severity >= 11 {
            (Reach::Batch, true)
        } else if thrown {
            (Reach::Batch, false)
        } else if BATCH_ERRORS.contains(&number) {
            (Reach::Batch, true)
        } else if compile {
            (Reach::Scope, false)
        } else {
            (Reach::Statement, false)
        };
        Failure {
            event,
            reach,
            rolls_back,
            compiled_at: compile.then_some(level),
            reported: false,
            terminated: false,
            cancelled,
        }
    }

    /// Whether a TRY at nesting `level` catches it.
    pub fn caught_at(&self, level: u8) -> bool {
        !self.reported && !self.cancelled && self.compiled_at != Some(level)
    }

    pub fn error(&self) -> &SqlError {
        &self.event.error
    }
}
