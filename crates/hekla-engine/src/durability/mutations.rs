//! Fault switches at the sync sites, for proving that the power-loss test
//! (`tests/power_loss.rs`) notices when one is skipped. They exist only
//! with the `mutations` cargo feature; without it `is_active` is a
//! constant `false` and the checks compile away.

/// A deliberate durability bug.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mutation {
    /// The log writer does not sync a block it wrote.
    NoLogSync = 1,
    /// A checkpoint does not sync the data and delta files the new root names.
    NoPairSync = 2,
    /// The root is renamed into place but its directory is not synced.
    NoRootDirSync = 3,
    /// The root is overwritten in place instead of renamed over.
    RootInPlace = 4,
}

#[cfg(feature = "mutations")]
static ACTIVE: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

/// Turns `mutation` on (or every mutation off) for the whole process.
#[cfg(feature = "mutations")]
pub fn set(mutation: Option<Mutation>) {
    ACTIVE.store(
        mutation.map_or(0, |m| m as u8),
        std::sync::atomic::Ordering::SeqCst,
    );
}

/// Whether `mutation` is switched on.
#[cfg(feature = "mutations")]
pub fn is_active(mutation: Mutation) -> bool {
    ACTIVE.load(std::sync::atomic::Ordering::Relaxed) == mutation as u8
}

#[cfg(not(feature = "mutations"))]
pub const fn is_active(_: Mutation) -> bool {
    false
}
