//! How obim's engine maps a priority to the level of the bag that holds it.
//!
//! obim shifts the priority right by a fixed `delta` ([`Shift`]); PMOD (`crate::pmod`) changes
//! the shift at run time and keys bags by `(p >> lmf, lmf)`. Both run on the same bags, map,
//! and back-scan prevention; the engine calls the hooks below at every push, every pop served
//! from the current bag, and every slow pop (the points where PMOD counts), and they cost
//! nothing for plain obim.

use crate::contract::Event;
use std::fmt::Debug;

pub trait Leveling: Send + Sync + 'static {
    /// A bag's key; bags are visited in increasing key order.
    type Level: Copy + Ord + Send + Sync + Debug;
    /// Per-handle state (PMOD's thread-local counters).
    type Local;

    /// The state of worker `worker`'s handle.
    fn local(&self, worker: usize) -> Self::Local;

    /// The level of a task pushed with `priority` (Enq).
    fn level(&self, local: &mut Self::Local, priority: u64) -> Self::Level;

    /// A u64 summary of `level`, non-decreasing in level order, published for back-scan
    /// prevention; `u64::MAX` means "idle".
    fn hint(level: Self::Level) -> u64;

    /// Where a scan from `hint` starts: a level at or below every level whose hint is at
    /// least `hint`, ideally the smallest level with such a hint. Starting lower costs time
    /// only; starting above such a level would skip it.
    fn first_level(hint: u64) -> Self::Level;

    /// A u64 that differs between neighbouring levels in its low bits: the push cache's
    /// index. The hint by default.
    #[inline(always)]
    fn cache_key(level: Self::Level) -> u64 {
        Self::hint(level)
    }

    /// A pop served from the worker's current bag (fast Deq).
    #[inline(always)]
    fn on_pop(&self, _local: &mut Self::Local) {}

    /// A pop that found no current bag or its current bag empty and went to the map (a slow
    /// pop, idle re-probes included), after its scan; `found`: the scan found a task.
    #[inline(always)]
    fn on_slow_pop(&self, _local: &mut Self::Local, _found: bool) {}

    /// Counters to report when a handle is dropped.
    fn drain_counters(&self, _local: &mut Self::Local) -> Vec<(&'static str, u64)> {
        vec![]
    }

    /// Timed events for the run report (PMOD: every lmf change).
    fn events(&self) -> Vec<Event> {
        vec![]
    }
}

/// obim's leveling: `priority >> delta`.
#[derive(Debug, Clone, Copy)]
pub struct Shift {
    pub delta: u32,
}

impl Leveling for Shift {
    type Level = u64;
    type Local = ();

    fn local(&self, _worker: usize) {}

    #[inline(always)]
    fn level(&self, _: &mut (), priority: u64) -> u64 {
        priority >> self.delta
    }

    #[inline(always)]
    fn hint(level: u64) -> u64 {
        level
    }

    #[inline(always)]
    fn first_level(hint: u64) -> u64 {
        hint
    }
}
