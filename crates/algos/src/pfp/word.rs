//! The word that holds residual capacities and excesses: 32 bits where every value fits, else
//! 64.
//!
//! The two arcs of a pair keep `res(u -> v) + res(v -> u) = cap(u -> v) + cap(v -> u)` (a push
//! moves capacity from one to the other), so every residual fits in 32 bits when no capacity
//! exceeds `2^31 - 1`; and no node's excess exceeds what the source's arcs carried out, their
//! total capacity (`Network::fits_in_32_bits`). Road maps and unit capacities fit: 32-bit
//! words take 4 bytes an arc and 4 a node less, a sixth of `ordo pfp`'s peak on a 1000x1000
//! grid.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

/// An atomic unsigned word, read and written as `u64`. Values given to it fit (the caller's
/// choice of word, `Network::fits_in_32_bits`).
pub(super) trait Word: Send + Sync + Sized + 'static {
    fn new(x: u64) -> Self;
    fn read(&self, order: Ordering) -> u64;
    fn write(&self, x: u64, order: Ordering);
    /// Adds `d`; returns the value before.
    fn add(&self, d: u64, order: Ordering) -> u64;
    /// Subtracts `d` (at most the value); returns the value before.
    fn sub(&self, d: u64, order: Ordering) -> u64;
    /// Replaces the value with 0; returns it.
    fn take(&self, order: Ordering) -> u64;
    /// The values as `u32`s (each fits), in place where the word is 32 bits.
    fn into_u32s(words: Vec<Self>) -> Vec<u32>;
}

impl Word for AtomicU32 {
    #[inline(always)]
    fn new(x: u64) -> Self {
        debug_assert!(x <= u64::from(u32::MAX));
        AtomicU32::new(x as u32)
    }
    #[inline(always)]
    fn read(&self, order: Ordering) -> u64 {
        u64::from(self.load(order))
    }
    #[inline(always)]
    fn write(&self, x: u64, order: Ordering) {
        debug_assert!(x <= u64::from(u32::MAX));
        self.store(x as u32, order)
    }
    #[inline(always)]
    fn add(&self, d: u64, order: Ordering) -> u64 {
        u64::from(self.fetch_add(d as u32, order))
    }
    #[inline(always)]
    fn sub(&self, d: u64, order: Ordering) -> u64 {
        u64::from(self.fetch_sub(d as u32, order))
    }
    #[inline(always)]
    fn take(&self, order: Ordering) -> u64 {
        u64::from(self.swap(0, order))
    }
    fn into_u32s(words: Vec<Self>) -> Vec<u32> {
        // Collected in place: `AtomicU32` and `u32` have one layout.
        words.into_iter().map(AtomicU32::into_inner).collect()
    }
}

impl Word for AtomicU64 {
    #[inline(always)]
    fn new(x: u64) -> Self {
        AtomicU64::new(x)
    }
    #[inline(always)]
    fn read(&self, order: Ordering) -> u64 {
        self.load(order)
    }
    #[inline(always)]
    fn write(&self, x: u64, order: Ordering) {
        self.store(x, order)
    }
    #[inline(always)]
    fn add(&self, d: u64, order: Ordering) -> u64 {
        self.fetch_add(d, order)
    }
    #[inline(always)]
    fn sub(&self, d: u64, order: Ordering) -> u64 {
        self.fetch_sub(d, order)
    }
    #[inline(always)]
    fn take(&self, order: Ordering) -> u64 {
        self.swap(0, order)
    }
    fn into_u32s(words: Vec<Self>) -> Vec<u32> {
        words
            .into_iter()
            .map(|w| u32::try_from(w.into_inner()).expect("a value that fits (the caller's)"))
            .collect()
    }
}
