//! The power-loss test has teeth: with each sync the engine relies on
//! switched off (`durability::mutations`, the `mutations` feature), the
//! checker of `power_loss.rs` reports a violation within a bounded number
//! of cuts.
//!
//! `cargo test -p hekla-engine --features mutations --test power_loss_mutations`
//! (`HEKLA_POWER_SEED` picks the seed; 20 by default, so CI is repeatable).

mod common;
mod power_loss_support;

use common::Scratch;
use hekla_engine::durability::mutations::{self, Mutation};
use std::sync::Mutex;

/// A mutation must be caught within this many cuts (the figures in
/// docs/reliability.md show how far below it they are).
const CUTS_TO_CATCH: u64 = 3000;

/// The switch is process-wide: the tests take turns.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

fn caught_within_bound(mutation: Mutation) {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let seed = std::env::var("HEKLA_POWER_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    let dir = Scratch::new("power-loss-mutation");
    mutations::set(Some(mutation));
    let outcome = power_loss_support::run(&dir.0, seed, CUTS_TO_CATCH);
    mutations::set(None);
    match outcome {
        Ok(figures) => panic!(
            "{mutation:?} survived {} cuts from seed {seed}: the power-loss test cannot see it",
            figures.cuts
        ),
        Err(violation) => eprintln!(
            "{mutation:?}: caught after {} cuts: {}",
            violation.cuts, violation.problem
        ),
    }
}

#[test]
fn no_sync_after_a_log_block_is_caught() {
    caught_within_bound(Mutation::NoLogSync);
}

#[test]
fn no_sync_of_pair_files_before_the_root_names_them_is_caught() {
    caught_within_bound(Mutation::NoPairSync);
}

#[test]
fn no_directory_sync_after_the_root_rename_is_caught() {
    caught_within_bound(Mutation::NoRootDirSync);
}

#[test]
fn the_root_written_in_place_is_caught() {
    caught_within_bound(Mutation::RootInPlace);
}
