//! Which arcs lead one level deeper from the current source: one bit per arc, set by the
//! forward phase where it adds a path count along the arc, read by the backward phase in arc
//! order. Without it the backward phase reads the depth of every neighbour, a random access
//! per arc; with it, it reads the bits a word at a time and touches only the successors
//! ([`Successors::for_each_marked`]; GAPBS's `bc` keeps the same bitmap, and tests each bit).
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

    /// The word holding `arc`'s bit.
    ///
    /// # Safety
    /// `arc` is below the count given to [`Successors::new`]: the engine passes arcs of the
    /// graph whose arc count that was.
    #[inline(always)]
    unsafe fn word(&self, arc: usize) -> &AtomicU64 {
        debug_assert!(arc / 64 < self.bits.len());
        // SAFETY: the caller's promise.
        unsafe { self.bits.get_unchecked(arc / 64) }
    }

    /// Marks `arc`; `alone`: no other thread sets bits in this step (no read-modify-write).
    ///
    /// # Safety
    /// As [`Successors::word`]'s.
    #[inline]
    pub unsafe fn set(&self, arc: usize, alone: bool) {
        // SAFETY: the caller's promise.
        let word = unsafe { self.word(arc) };
        let bit = 1u64 << (arc % 64);
        if alone {
            word.store(word.load(Relaxed) | bit, Relaxed);
        } else {
            word.fetch_or(bit, Relaxed);
        }
    }

    /// Whether `arc` is marked (the engine reads marks with `for_each_marked`).
    ///
    /// # Safety
    /// As [`Successors::word`]'s.
    #[cfg(test)]
    unsafe fn get(&self, arc: usize) -> bool {
        // SAFETY: the caller's promise.
        unsafe { self.word(arc) }.load(Relaxed) >> (arc % 64) & 1 != 0
    }

    /// Calls `f(i)` for every marked arc `arcs.start + i` of `arcs`, in order: a word at a
    /// time, jumping from set bit to set bit, so unmarked arcs cost nothing each (on social
    /// graphs most arcs lead to the same level or back).
    ///
    /// # Safety
    /// `arcs.end` is at most the count given to [`Successors::new`].
    #[inline]
    pub unsafe fn for_each_marked(&self, arcs: Range<usize>, mut f: impl FnMut(usize)) {
        if arcs.is_empty() {
            return;
        }
        let (first, last) = (arcs.start / 64, (arcs.end - 1) / 64);
        for k in first..=last {
            // SAFETY: `k <= (arcs.end - 1) / 64`, a word of the bitmap (the caller's promise).
            let mut bits = unsafe { self.bits.get_unchecked(k) }.load(Relaxed);
            if k == first {
                bits &= u64::MAX << (arcs.start % 64);
            }
            if k == last {
                bits &= u64::MAX >> (63 - (arcs.end - 1) % 64);
            }
            while bits != 0 {
                f(k * 64 + bits.trailing_zeros() as usize - arcs.start);
                bits &= bits - 1;
            }
        }
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
        // SAFETY (every set and get): the arcs are below 200.
        let get = |arc| unsafe { s.get(arc) };
        unsafe {
            s.set(3, true);
            s.set(64, false);
            s.set(199, false);
        }
        assert!(get(3) && get(64) && get(199) && !get(4) && !get(63));
        let marked = |arcs| {
            let mut seen = Vec::new();
            // SAFETY: the ranges end at most at 200.
            unsafe { s.for_each_marked(arcs, |i| seen.push(i)) };
            seen
        };
        assert_eq!(marked(0..200), [3, 64, 199]);
        assert_eq!(marked(4..199), [60]);
        assert_eq!(marked(65..199), Vec::<usize>::new());
        assert_eq!(marked(63..65), [1]);
        assert_eq!(marked(64..64), Vec::<usize>::new());
        assert_eq!(marked(3..4), [0]);
        // Whole words: arcs 60..66 lie in words 0 and 1.
        s.clear(60..66);
        assert!(!get(3) && !get(64) && get(199));
        assert_eq!(marked(0..200), [199]);
        s.clear(150..150);
        s.clear(190..200);
        assert!(!get(199));
    }
}
