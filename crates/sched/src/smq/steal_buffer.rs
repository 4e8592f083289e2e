//! SMQ's stealing buffer (the SMQ paper, Postnikova et al., PPoPP'22, §4, Listing 4): the
//! owner's best tasks, exposed to thieves through one 64-bit word holding `(epoch, phase)`.
//!
//! Listing 4 keeps `(epoch, stolen)` and lets a thief read the slots *before* its CAS, then
//! validates with the epoch: a seqlock. In Rust that read races with the owner's refill (a data
//! race, undefined behaviour), so the phase here has three values and the read moves after the
//! claim:
//!
//! * `EMPTY`: only the owner touches the slots. It writes them, the top priority, and then
//!   stores `(epoch + 1, FULL)` with Release.
//! * `FULL`: anyone may claim: CAS `(e, FULL)` → `(e, CLAIMED)` with Acquire. The epoch makes a
//!   CAS from a stale read fail (the buffer was emptied and refilled meanwhile), as in Listing 4.
//! * `CLAIMED`: only the claimer touches the slots: it copies them out and stores `(e, EMPTY)`
//!   with Release, which hands the slots back to the owner (whose refill loads the word with
//!   Acquire first).
//!
//! Each transition is made by exactly one thread and the slots are only accessed in the phase
//! that gives one thread exclusive access, ordered by Release/Acquire on the word: every task
//! written into the buffer is copied out by exactly one claimer. The `top` hint is an atomic
//! read optimistically (as Listing 4's `top()`): a stale value only makes a steal attempt
//! pointless, never wrong. Proof sketch in `README.md`; model-checked in `tests/loom_smq.rs`.

use crate::sync::{AtomicU64, Ordering, UnsafeCell};
use std::mem::MaybeUninit;

const EMPTY: u64 = 0;
const FULL: u64 = 1;
const CLAIMED: u64 = 2;
const PHASE: u64 = 3;

/// A buffered `(priority, task)`, written before it is read.
type Slot<T> = UnsafeCell<MaybeUninit<(u64, T)>>;

pub struct StealBuffer<T> {
    state: AtomicU64,
    top: AtomicU64,
    len: UnsafeCell<usize>,
    slots: Box<[Slot<T>]>,
}

// SAFETY: the slots and `len` are accessed only by the thread the phase protocol above gives
// exclusive access, with Release/Acquire on `state` between consecutive owners.
unsafe impl<T: Send> Sync for StealBuffer<T> {}
// SAFETY: the buffer owns its slots.
unsafe impl<T: Send> Send for StealBuffer<T> {}

impl<T: Copy> StealBuffer<T> {
    pub fn new(capacity: usize) -> Self {
        assert!(capacity > 0);
        StealBuffer {
            state: AtomicU64::new(EMPTY),
            top: AtomicU64::new(u64::MAX),
            len: UnsafeCell::new(0),
            slots: (0..capacity)
                .map(|_| UnsafeCell::new(MaybeUninit::uninit()))
                .collect(),
        }
    }

    pub fn capacity(&self) -> usize {
        self.slots.len()
    }

    /// Owner only: if the buffer is empty, fills it with up to `capacity` entries from `next`
    /// (best first). Returns whether it published anything.
    pub fn refill(&self, mut next: impl FnMut() -> Option<(u64, T)>) -> bool {
        let s = self.state.load(Ordering::Acquire);
        if s & PHASE != EMPTY {
            return false;
        }
        let mut n = 0;
        let mut first = u64::MAX;
        while n < self.slots.len() {
            let Some(e) = next() else { break };
            if n == 0 {
                first = e.0;
            }
            // SAFETY: EMPTY phase: the owner is the only thread touching the slots.
            self.slots[n].with_mut(|p| unsafe { (*p).write(e) });
            n += 1;
        }
        if n == 0 {
            return false;
        }
        // SAFETY: as above.
        self.len.with_mut(|p| unsafe { *p = n });
        self.top.store(first, Ordering::Relaxed);
        let epoch = (s >> 2) + 1;
        self.state.store(epoch << 2 | FULL, Ordering::Release);
        true
    }

    /// The priority of the best buffered task, if the buffer looks full (a hint).
    #[inline]
    pub fn top(&self) -> Option<u64> {
        let s = self.state.load(Ordering::Acquire);
        if s & PHASE != FULL {
            return None;
        }
        Some(self.top.load(Ordering::Relaxed))
    }

    /// Any thread: takes every buffered task (best first) into `out`. False if there were none
    /// to take.
    pub fn steal(&self, out: &mut Vec<(u64, T)>) -> bool {
        let mut s = self.state.load(Ordering::Acquire);
        loop {
            if s & PHASE != FULL {
                return false;
            }
            match self.state.compare_exchange_weak(
                s,
                (s & !PHASE) | CLAIMED,
                Ordering::Acquire,
                Ordering::Acquire,
            ) {
                Ok(_) => break,
                Err(actual) => s = actual,
            }
        }
        // SAFETY: CLAIMED phase: this thread alone touches the slots, and the Acquire CAS
        // synchronizes with the owner's Release store that published them.
        let n = self.len.with(|p| unsafe { *p });
        for i in 0..n {
            out.push(self.slots[i].with(|p| unsafe { (*p).assume_init() }));
        }
        self.state.store((s & !PHASE) | EMPTY, Ordering::Release);
        true
    }
}
