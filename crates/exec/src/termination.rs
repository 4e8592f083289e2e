//! Termination detection by task tokens. The protocol and its proof sketch are in
//! `README.md` beside this file; the short version:
//!
//! * `outstanding` (G) counts tokens. Every pending or running task holds one token; every
//!   worker may also hold a few spare tokens (its [`Credit`]).
//! * Push: take a spare token (borrowing a batch from G when out). Completion: the finished
//!   task's token becomes a spare. Going idle: give every spare back to G.
//! * Invariant: G = tasks pending or running + spare tokens held. So G = 0 means no task
//!   exists and none can be created (tasks are created only by running tasks): done.
//!
//! G is touched once per `BATCH` pushes or completions, and when a worker goes idle, so the
//! counter is not a contended hot spot.

#[cfg(loom)]
use loom::sync::atomic::{AtomicU64, Ordering};
#[cfg(not(loom))]
use std::sync::atomic::{AtomicU64, Ordering};

/// Tokens borrowed from G at a time.
#[cfg(not(loom))]
pub const BATCH: u64 = 256;
#[cfg(loom)]
pub const BATCH: u64 = 1;

/// The global token count.
#[derive(Debug)]
pub struct Termination {
    outstanding: AtomicU64,
}

/// A worker's spare tokens. Never dropped while holding tokens except on abort.
#[derive(Debug, Default)]
pub struct Credit {
    spare: u64,
}

impl Credit {
    /// Spare tokens pre-assigned to a worker (for the initial tasks it will push).
    pub fn preassigned(tokens: u64) -> Self {
        Credit { spare: tokens }
    }

    pub fn spare(&self) -> u64 {
        self.spare
    }
}

impl Termination {
    /// A detector whose `initial` tokens are handed out with [`Credit::preassigned`].
    pub fn new(initial: u64) -> Self {
        Termination {
            outstanding: AtomicU64::new(initial),
        }
    }

    /// Before pushing a task: moves one spare token to the new task.
    #[inline]
    pub fn on_push(&self, c: &mut Credit) {
        if c.spare == 0 {
            self.borrow(c);
        }
        c.spare -= 1;
    }

    #[cold]
    fn borrow(&self, c: &mut Credit) {
        // The caller is running a task, which holds a token, so G > 0 and stays > 0 while we
        // add: no other worker can see 0 "between" (see README, step 2). The proof needs only
        // G's modification order; AcqRel also orders this worker's earlier writes before any
        // reader of the new value, at no extra cost on x86.
        self.outstanding.fetch_add(BATCH, Ordering::AcqRel);
        c.spare += BATCH;
    }

    /// After a task finished (its pushes done): its token becomes a spare.
    #[inline]
    pub fn on_done(&self, c: &mut Credit) {
        c.spare += 1;
    }

    /// After `n` tasks finished, one after the other, with no idle step between.
    #[inline]
    pub fn on_done_many(&self, c: &mut Credit, n: u64) {
        c.spare += n;
    }

    /// Called now and then between tasks (every 256 in `for_each`, not after each, which would
    /// put a compare on the hot path): above `2 * BATCH` spares, keeps `BATCH`
    /// and gives the rest back, so a worker that only completes tasks does not hoard tokens.
    #[inline]
    pub fn trim(&self, c: &mut Credit) {
        if c.spare > 2 * BATCH {
            self.give_back(c, c.spare - BATCH);
        }
    }

    /// When idle: returns every spare token.
    #[inline]
    pub fn release(&self, c: &mut Credit) {
        if c.spare > 0 {
            self.give_back(c, c.spare);
        }
    }

    #[cold]
    fn give_back(&self, c: &mut Credit, n: u64) {
        // AcqRel: the worker that later reads 0 (Acquire) sees every write made by the tasks
        // whose tokens this returns, so results are complete when the run ends.
        self.outstanding.fetch_sub(n, Ordering::AcqRel);
        c.spare -= n;
    }

    /// True once no task exists anywhere; final (never false again).
    #[inline]
    pub fn is_terminated(&self) -> bool {
        self.outstanding.load(Ordering::Acquire) == 0
    }

    /// Current token count (for diagnostics).
    pub fn outstanding(&self) -> u64 {
        self.outstanding.load(Ordering::Relaxed)
    }
}
