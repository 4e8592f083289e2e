//! Which arcs lead one level deeper from the current source: one bit per arc, set by the
//! forward phase where it adds a path count along the arc, read by the backward phase in arc
//! order. Without it the backward phase reads the depth of every neighbour, a random access
//! per arc; with it, it reads a bit in sequence and touches only the successors (GAPBS's `bc`
//! keeps the same bitmap).
//!
//! Orderings: bits are set during forward steps (with `fetch_or`, since the arcs of two
//! vertices expanded by two threads can share a word), read after the barriers that end
//! them, and cleared in the reset step, when no thread sets or reads any: Relaxed throughout.

use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

pub(super) struct Successors {
    bits: Vec<AtomicU64>,
}

impl Successors {
    pub fn new(arcs: usize) -> Self {
        Successors {
            bits: (0..arcs.div_ceil(64)).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    /// Marks `arc`; `alone`: no other thread sets bits in this step (no read-modify-write).
    #[inline]
    pub fn set(&self, arc: usize, alone: bool) {
        let word = &self.bits[arc / 64];
        let bit = 1u64 << (arc % 64);
        if alone {
            word.store(word.load(Relaxed) | bit, Relaxed);
        } else {
            word.fetch_or(bit, Relaxed);
        }
    }

    #[inline]
    pub fn get(&self, arc: usize) -> bool {
        self.bits[arc / 64].load(Relaxed) >> (arc % 64) & 1 != 0
    }

    /// Clears every word holding a bit of `arcs` (bits of neighbouring arcs too: the reset
    /// step clears them all).
    pub fn clear(&self, arcs: Range<usize>) {
        if arcs.is_empty() {
            return;
        }
        for word in &self.bits[arcs.start / 64..=(arcs.end - 1) / 64] {
            word.store(0, Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_set_read_and_cleared_by_range() {
        let s = Successors::new(200);
        s.set(3, true);
        s.set(64, false);
        s.set(199, false);
        assert!(s.get(3) && s.get(64) && s.get(199) && !s.get(4) && !s.get(63));
        // Whole words: arcs 60..66 lie in words 0 and 1.
        s.clear(60..66);
        assert!(!s.get(3) && !s.get(64) && s.get(199));
        s.clear(150..150);
        s.clear(190..200);
        assert!(!s.get(199));
    }
}
