//! The sources whose path counts overflowed `f64` (scaled_counts.rs), run one at a time by the
//! whole team on the engine's arrays, after the other sources.
//!
//! **Why.** Run one per thread, each on arrays of its own (`dependencies_with_scaled_counts`),
//! they cost 20 bytes a node per thread at once: on a 1000 x 1000 grid, whose sources nearly
//! all overflow, the peak grows by 20 MB a thread (about 410 MiB at 16 threads, against a
//! 37 MiB graph). Here the team shares one set: the engine's depth, count and dependency
//! arrays (free once the other sources are done) hold the depth, the mantissa and the scale,
//! and one queue of `n` ids holds the levels: 111-115 MiB at 4 to 16 threads.
//!
//! **When.** The per-thread way has no barrier a level: where cross-core round trips are slow
//! (350 ns), the team's was up to 1.4x slower with 16 sources on the grid at 2 threads. So the
//! engine keeps the per-thread way where every thread gets a source and the threads' arrays,
//! with the engine's, fit within the graph's own arrays (`scaled_per_thread_fits`: the run is
//! to hold at most twice the graph), and where in-edges are not at hand (a directed graph
//! without its transpose, `--algo push`).
//! With fewer such sources than threads the team is the faster way too: the per-thread way
//! leaves threads idle.
//!
//! **Forward**, one pass and one barrier a level: each node `w` of level `d` pulls its count
//! from its in-neighbours at depth `d - 1` (its own slot: one writer, plain stores) and claims
//! its unreached out-neighbours for level `d + 1` with a compare-and-swap, appending them to
//! the queue after level `d`. **Backward**, level by level from the deepest: each node `u`
//! pulls `(1 + δ_w) / m_w` from its out-neighbours one level down, as the serial kernel does,
//! writes its own `(1 + δ_u) / m_u` and adds `δ_u` to its score (one writer per node; sources
//! run one after the other and the engine's threads have joined: plain stores). Then the
//! source's nodes are unvisited again.
//!
//! Orderings: Relaxed throughout; a level's counts and depths are read only after the barrier
//! that ends the pass that wrote them (the team's `for_chunks`).

use super::scaled_counts::{add_scaled, scale};
use super::state::{add, claim, load, store, UNVISITED};
use crate::in_edges::InEdges;
use ordo_exec::frontier::{Queue, QueueWriter};
use ordo_exec::{run_team, ExecConfig, ExecError, Stopped, Team};
use ordo_graph::Graph;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};
use std::time::Duration;

/// Nodes per chunk of a level (fewer where a level is small: `Team::chunk_for`).
const CHUNK: usize = 64;

/// The engine's arrays, lent for the scaled counts: every `depth` unvisited on entry, and
/// again on return.
pub(super) struct Arrays<'a> {
    pub depth: &'a [AtomicU32],
    /// The count's mantissa (f64 bits), then `(1 + δ) / m` once the node is done.
    pub mantissa: &'a [AtomicU64],
    /// The count's scale (an `i32` in the low bits).
    pub scale: &'a [AtomicU64],
    /// The scores the dependencies are added to (f64 bits).
    pub score: &'a [AtomicU64],
}

/// Adds every source's dependencies to `a.score`, the team taking the sources one at a time;
/// returns the time the team ran.
pub(super) fn run(
    g: &Graph,
    incoming: InEdges,
    sources: &[u32],
    a: &Arrays,
    cfg: &ExecConfig,
) -> Result<Duration, ExecError> {
    let order = Queue::new(g.num_nodes());
    let (_, time) = run_team(cfg, |team| {
        for &src in sources {
            source(g, incoming, src, a, &order, team)?;
        }
        Ok(())
    })?;
    Ok(time)
}

/// A count's scale, from the low bits of its slot.
fn k(a: &AtomicU64) -> i32 {
    a.load(Relaxed) as u32 as i32
}

fn set_k(a: &AtomicU64, k: i32) {
    a.store(k as u32 as u64, Relaxed);
}

/// One source's dependencies (the SPMD body for one source).
fn source(
    g: &Graph,
    incoming: InEdges,
    src: u32,
    a: &Arrays,
    order: &Queue,
    team: &Team,
) -> Result<(), Stopped> {
    if team.worker() == 0 {
        order.fill([src]);
        a.depth[src as usize].store(0, Relaxed);
        store(&a.mantissa[src as usize], 1.0);
        set_k(&a.scale[src as usize], 0);
    }
    team.barrier()?;
    // Level d is order[bounds[d]..bounds[d + 1]] (alike on every worker: from collectives).
    let mut bounds = vec![0, 1];
    let (depth, mantissa, scales) = (a.depth, a.mantissa, a.scale);
    for d in 0u32.. {
        let (lo, hi) = (bounds[d as usize], bounds[d as usize + 1]);
        let level = &order.first(hi)[lo..];
        let mut out = QueueWriter::new(order);
        let found = team.for_chunks(level.len(), team.chunk_for(level.len(), CHUNK), |r| {
            let mut found = 0;
            for w in &level[r] {
                let w = w.load(Relaxed);
                if d > 0 {
                    let (mut m, mut kw) = (0.0, 0);
                    for &u in incoming.of(w as usize) {
                        let u = u as usize;
                        if depth[u].load(Relaxed) == d - 1 {
                            (m, kw) = add_scaled(m, kw, load(&mantissa[u]), k(&scales[u]));
                        }
                    }
                    store(&mantissa[w as usize], m);
                    set_k(&scales[w as usize], kw);
                }
                for &x in g.neighbors(w) {
                    let slot = &depth[x as usize];
                    if slot.load(Relaxed) == UNVISITED && claim(slot, d + 1, false).is_ok() {
                        out.push(x);
                        found += 1;
                    }
                }
            }
            out.flush();
            found
        })?;
        if found == 0 {
            break;
        }
        bounds.push(hi + found as usize);
    }
    // Backward from the deepest level to level 1 (the source adds nothing).
    for d in (1..bounds.len() - 1).rev() {
        let level = &order.first(bounds[d + 1])[bounds[d]..];
        let below = d as u32 + 1;
        team.for_chunks(level.len(), team.chunk_for(level.len(), CHUNK), |r| {
            for u in &level[r] {
                let u = u.load(Relaxed) as usize;
                let (mu, ku) = (load(&mantissa[u]), k(&scales[u]));
                let mut acc = 0.0;
                for &w in g.neighbors(u as u32) {
                    let w = w as usize;
                    if depth[w].load(Relaxed) == below {
                        // Done: its slot holds `(1 + δ_w) / m_w`.
                        acc += load(&mantissa[w]) * scale(ku - k(&scales[w]));
                    }
                }
                let delta = mu * acc;
                store(&mantissa[u], (1.0 + delta) / mu);
                // One writer per node, the engine's threads joined: no read-modify-write.
                add(&a.score[u], delta, true);
            }
            0
        })?;
    }
    // Unvisited again for the next source (and the engine's arrays as lent).
    let reached = order.first(*bounds.last().expect("level 0"));
    team.for_chunks(reached.len(), 4096, |r| {
        for v in &reached[r] {
            depth[v.load(Relaxed) as usize].store(UNVISITED, Relaxed);
        }
        0
    })?;
    Ok(())
}
