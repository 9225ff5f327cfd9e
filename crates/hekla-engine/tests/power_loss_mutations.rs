//! The power-loss test has teeth: with each sync the engine relies on
//! switched off (`durability::mutations`, the `mutations` feature), the
//! checker of `power_loss.rs` reports a violation within a bounded number
//! of cuts.
//!
//! `cargo test -p hekla-engine --features mutations --test power_loss_mutations`

mod common;
mod power_loss_support;

use common::Scratch;
use hekla_engine::durability::mutations::{self, Mutation};

/// A mutation must be caught within this many cuts (the figures in
/// docs/reliability.md show how far below it they are).
const CUTS_TO_CATCH: u64 = 3000;

fn caught_within(mutation: Mutation, seed: u64) -> u64 {
    let dir = Scratch::new("power-loss-mutation");
    mutations::set(Some(mutation));
    let outcome = power_loss_support::run(&dir.0, seed, CUTS_TO_CATCH);
    mutations::set(None);
    match outcome {
        Ok(figures) => panic!(
            "{mutation:?} survived {} cuts from seed {seed}: the power-loss test cannot see it",
            figures.cuts
        ),
        Err(violation) => {
            eprintln!(
                "{mutation:?}: caught after {} cuts: {}",
                violation.cuts, violation.problem
            );
            violation.cuts
        }
    }
}

/// One test, so that the process-wide switch is never flipped under
/// another test running at the same time.
#[test]
fn each_skipped_sync_makes_the_power_loss_test_fail() {
    let seed = std::env::var("HEKLA_POWER_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    eprintln!("power loss mutations: seed {seed} (HEKLA_POWER_SEED)");
    for mutation in [
        Mutation::NoLogSync,
        Mutation::NoPairSync,
        Mutation::NoRootDirSync,
        Mutation::RootInPlace,
    ] {
        caught_within(mutation, seed);
    }
}
