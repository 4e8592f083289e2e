//! What the Brandes engine (engine.rs), its one-thread form (lone.rs) and the team that redoes
//! overflowing sources (scaled_team.rs) share: the run's result, its counters, the rule that
//! decides when a level pulls, and the per-vertex atomics.

use ordo_exec::ThreadStats;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};
use std::time::Duration;

pub(super) const UNVISITED: u32 = u32::MAX;

/// Application counters in [`ThreadStats::app`].
pub const FOREIGN_CHUNKS: usize = 0;
pub const EDGES: usize = 1;
pub const LEVELS: usize = 2;
/// Levels found by pulling (engine.rs, Dense levels), counted by thread 0.
pub const PULLED_LEVELS: usize = 3;

/// Whether the next level is found by pulling (engine.rs, Dense levels): when pushing would
/// scan more arcs (the frontier's, `frontier_arcs`) than pulling would, which reads the depth
/// of every one of the `n` nodes, sequentially (counted as a quarter of an arc each), and
/// scans the in-arcs of the vertices not reached yet (about `unexplored_arcs`, their
/// out-arcs: the same on a symmetric graph). `every_level`: always
/// ([`super::BcConfig::pull_every_level`]).
pub(super) fn pulls(frontier_arcs: u64, unexplored_arcs: u64, n: usize, every_level: bool) -> bool {
    every_level || unexplored_arcs + n as u64 / 4 < frontier_arcs
}

pub(super) struct EngineRun {
    pub scores: Vec<f64>,
    pub time: Duration,
    pub per_thread: Vec<ThreadStats>,
    /// Distinct vertices each thread touched, summed over the sources (with `working_set`).
    pub touched: Vec<u64>,
    /// Vertices reached, summed over the sources.
    pub reached: u64,
    /// Forward only (ADL's layout BFS): the last source's vertices by (depth, lane, discovery).
    pub discovery_order: Vec<u32>,
    pub cancelled: bool,
}

/// f64 values in `AtomicU64` bits.
pub(super) fn load(a: &AtomicU64) -> f64 {
    f64::from_bits(a.load(Relaxed))
}

pub(super) fn store(a: &AtomicU64, x: f64) {
    a.store(x.to_bits(), Relaxed);
}

/// Adds `x`; `alone`: no other thread writes `a` in this step, so no read-modify-write.
pub(super) fn add(a: &AtomicU64, x: f64, alone: bool) {
    if alone {
        return store(a, load(a) + x);
    }
    let mut cur = a.load(Relaxed);
    loop {
        let new = (f64::from_bits(cur) + x).to_bits();
        match a.compare_exchange_weak(cur, new, Relaxed, Relaxed) {
            Ok(_) => return,
            Err(seen) => cur = seen,
        }
    }
}

/// Moves an unvisited `depth` to `level`: `Ok` for the thread that did, else the depth another
/// thread set first. `alone`: no other thread writes it in this step (no compare-and-swap).
pub(super) fn claim(depth: &AtomicU32, level: u32, alone: bool) -> Result<(), u32> {
    if alone {
        depth.store(level, Relaxed);
        return Ok(());
    }
    depth
        .compare_exchange(UNVISITED, level, Relaxed, Relaxed)
        .map(|_| ())
}
