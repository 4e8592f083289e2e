//! Static tasking: the reservation protocol of GMT as it was before the dynamic-tasking paper
//! (Drocco et al., SC'18 poster, §2.3 and its Fig. 2 left and centre), kept as the baseline
//! that paper measures against (`--tasking static`).
//!
//! Every rank has a fixed pool of task slots (`--task-pool`). A task spawned on another rank
//! takes a slot there *before* it is sent, and gives it back when the receiver has run it.
//! Slots are reserved in blocks (`--reserve-block`, GMT's `MTASKS_RES_BLOCK`, 1024):
//! * at start every rank holds one block at every other rank (GMT pre-reserves them the same
//!   way, so the pool must hold `block x (ranks - 1)`);
//! * a sender takes a slot from what it holds at the destination (one atomic decrement,
//!   GMT's `mtm_acquire_reservation`); when none is left it asks the destination for another
//!   block, one request per destination at a time (`mtasks_res_pending`), and waits;
//! * the destination's communication thread grants what its pool has left, up to a block,
//!   possibly nothing; a sender granted nothing asks again (the wait-retry loop of Fig. 2).
//!
//! A waiting worker hands over everything it buffered (records already hold their slots) and
//! runs arrived records meanwhile, so a cycle of ranks waiting on each other's slots drains
//! itself; GMT's waiting task yields to the others on its worker for the same reason.
//! Unused slots stay with their holder, as in GMT: each holds at most one block, so a pool of
//! `block x (ranks - 1)` always has a block for a sender once the records sent to it have run.

use crossbeam_utils::CachePadded;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};

/// GMT's defaults: task slots per rank (2^20 per queue, two queues) and the block a rank
/// reserves at another at a time (`MTASKS_RES_BLOCK`).
pub const GMT_POOL: u64 = 1 << 21;
pub const GMT_BLOCK: u64 = 1024;

/// How remote tasks are spawned: the dynamic-tasking paper's design or the static baseline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tasking {
    /// Per-thread buffer pools recycled through one-to-one bins; tasks sent without asking,
    /// buffered at the receiver under credit-based back-pressure (`mail.rs`).
    Dynamic,
    /// One shared buffer pool, and a slot reserved at the receiver before each remote task.
    Static {
        /// Task slots per rank.
        pool: u64,
        /// Slots asked for at a time.
        block: u64,
    },
}

impl Tasking {
    pub fn name(self) -> &'static str {
        match self {
            Tasking::Dynamic => "dynamic",
            Tasking::Static { .. } => "static",
        }
    }
}

/// The sender's side of the protocol, shared by a rank's workers and its communication
/// thread. All Relaxed: a slot count publishes no data (records travel in locked queues and
/// MPI messages), and a stale read only makes a worker wait a round longer.
pub struct Slots {
    pub pool: u64,
    pub block: u64,
    /// Per destination: slots this rank holds there and has not used (may dip below zero for
    /// a moment while a taker backs out).
    held: Vec<CachePadded<AtomicI64>>,
    /// Per destination: a request for a block is outstanding or wanted.
    asking: Vec<AtomicBool>,
    /// Records this rank's workers have run, whose slots go back to this rank's pool.
    freed: AtomicU64,
    /// Times a worker found no slot and had to wait.
    pub waits: AtomicU64,
}

impl Slots {
    pub fn new(ranks: usize, me: usize, pool: u64, block: u64) -> Slots {
        Slots {
            pool,
            block,
            held: (0..ranks)
                .map(|d| CachePadded::new(AtomicI64::new(if d == me { 0 } else { block as i64 })))
                .collect(),
            asking: (0..ranks).map(|_| AtomicBool::new(false)).collect(),
            freed: AtomicU64::new(0),
            waits: AtomicU64::new(0),
        }
    }

    /// Takes one slot at `dest` if this rank holds one.
    #[inline]
    pub fn try_take(&self, dest: usize) -> bool {
        if self.held[dest].fetch_sub(1, Ordering::Relaxed) > 0 {
            return true;
        }
        self.held[dest].fetch_add(1, Ordering::Relaxed);
        false
    }

    /// Returns a slot taken for a record that was folded into another instead of being sent.
    #[inline]
    pub fn put_back(&self, dest: usize) {
        self.held[dest].fetch_add(1, Ordering::Relaxed);
    }

    /// Asks for a block at `dest` unless a request is already outstanding.
    pub fn ask(&self, dest: usize) {
        if !self.asking[dest].load(Ordering::Relaxed) {
            self.asking[dest].store(true, Ordering::Relaxed);
        }
    }

    /// Whether a request for `dest` is wanted (read by the communication thread).
    pub(crate) fn is_asking(&self, dest: usize) -> bool {
        self.asking[dest].load(Ordering::Relaxed)
    }

    /// `dest` answered a request with `granted` slots (maybe none): a worker that still finds
    /// none will ask again.
    pub(crate) fn granted(&self, dest: usize, granted: u64) {
        self.held[dest].fetch_add(granted as i64, Ordering::Relaxed);
        self.asking[dest].store(false, Ordering::Relaxed);
    }

    /// `records` sent to this rank have run: their slots go back to the pool.
    #[inline]
    pub(crate) fn free(&self, records: u64) {
        self.freed.fetch_add(records, Ordering::Relaxed);
    }

    /// Slots freed so far (the communication thread adds the difference to its pool).
    pub(crate) fn freed(&self) -> u64 {
        self.freed.load(Ordering::Relaxed)
    }
}

/// The receiver's side, owned by the communication thread: the slots of this rank's pool not
/// held by any sender nor taken by a record still to run.
pub(crate) struct Pool {
    avail: u64,
    freed_seen: u64,
}

impl Pool {
    /// The pool after every other rank took its first block.
    pub(crate) fn new(slots: &Slots, ranks: usize) -> Pool {
        let pre = slots.block * (ranks as u64 - 1);
        debug_assert!(slots.pool >= pre, "checked with the command line");
        Pool {
            avail: slots.pool - pre,
            freed_seen: 0,
        }
    }

    /// Takes back the slots of records run since the last call.
    pub(crate) fn collect(&mut self, slots: &Slots) {
        let freed = slots.freed();
        self.avail += freed - self.freed_seen;
        self.freed_seen = freed;
    }

    /// Answers a request for `want` slots: what the pool has, up to that.
    pub(crate) fn grant(&mut self, want: u64) -> u64 {
        let g = want.min(self.avail);
        self.avail -= g;
        g
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sender_holds_one_block_at_each_other_rank_from_the_start() {
        let s = Slots::new(3, 1, 10, 4);
        for d in [0, 2] {
            assert!((0..4).all(|_| s.try_take(d)));
            assert!(!s.try_take(d), "a fifth slot at {d}");
        }
        s.put_back(2);
        assert!(s.try_take(2));
        assert!(!s.try_take(2));
        s.ask(2);
        assert!(s.is_asking(2) && !s.is_asking(0));
        s.granted(2, 3);
        assert!(!s.is_asking(2));
        assert!((0..3).all(|_| s.try_take(2)));
        assert!(!s.try_take(2));
    }

    #[test]
    fn the_pool_grants_what_it_has_and_takes_back_what_ran() {
        let s = Slots::new(3, 0, 10, 4);
        let mut p = Pool::new(&s, 3);
        // Two blocks went to the other ranks at the start: two slots are left.
        assert_eq!(p.grant(4), 2);
        assert_eq!(p.grant(4), 0);
        s.free(5);
        p.collect(&s);
        assert_eq!(p.grant(4), 4);
        p.collect(&s);
        assert_eq!(p.grant(4), 1);
    }
}
