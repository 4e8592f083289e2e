//! Direction-optimizing BFS (Beamer, Asanovic, Patterson, SC 2012), level-synchronous on the
//! frontier executor ([`ordo_exec::run_team`]).
//!
//! Top-down steps expand a sparse frontier (a queue): every frontier node claims its unvisited
//! out-neighbours with a compare-and-swap. When the frontier's out-edges (`scout`) exceed the
//! unexplored edges divided by [`ALPHA`], the search turns bottom-up: every unvisited node scans
//! its in-neighbours for one in the dense frontier (a bitmap) and stops at the first, which
//! skips most edges while the frontier holds a large part of the graph (social graphs). It
//! turns back when the frontier shrinks below `n /` [`BETA`] and stops growing. ordo also asks
//! the frontier's edges to be at least `n /` [`SCAN`] before turning (see there). Road graphs
//! never reach the threshold and stay top-down; there the gain over the priority version is
//! one barrier per level instead of a scheduler operation per node.
//!
//! Complexity: O(n + m) work, O(diameter) rounds. Output: the same levels as
//! [`serial_bfs`](super::serial_bfs).

use super::{BfsOutput, BfsStats, UNREACHED};
use ordo_exec::frontier::{filled_u32s, Bitmap, Queue, QueueRing, QueueWriter};
use ordo_exec::{run_team, ExecConfig, ExecError, RunReport, Stopped, Team, ThreadStats};
use ordo_graph::Graph;

pub use crate::in_edges::InEdges;
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

/// Turn bottom-up when the frontier's out-edges exceed the unexplored edges / ALPHA (the
/// paper's and GAPBS's value).
pub const ALPHA: u64 = 15;
/// Turn back top-down when the frontier is below n / BETA and shrinking.
pub const BETA: u64 = 18;
/// ordo's addition to the paper's rule: turn bottom-up only when the frontier's out-edges are
/// also at least n / SCAN, since a bottom-up step scans every node. Without it a road graph's
/// last few levels (few unexplored edges left, so the ALPHA test passes with a frontier of a
/// few hundred edges) turn bottom-up and scan all n nodes each: on NY, 5 scans of 264K nodes,
/// a third of the search's instructions.
pub const SCAN: u64 = 8;

/// Nodes per chunk of a bottom-up step: a multiple of 64, so a worker owns whole bitmap words.
const BOTTOM_UP_CHUNK: usize = 1024;
/// Frontier nodes per chunk of a top-down step (fewer in a frontier too small to give every
/// worker one such chunk: `Team::chunk_for`).
const TOP_DOWN_CHUNK: usize = 64;
/// Frontier nodes a worker below which a top-down level is expanded by one worker
/// ([`Team::shared_from`]; 16 workers share from 256 nodes).
const SHARED_PER_WORKER: usize = 64;

struct Shared<'g> {
    g: &'g Graph,
    incoming: InEdges<'g>,
    level: Vec<AtomicU32>,
    /// Sparse frontiers: step `k` (a top-down level, or the conversion after bottom-up ones)
    /// reads `queues.input(k)` and appends to `queues.output(k)`.
    queues: QueueRing,
    bitmaps: [Bitmap; 2],
    /// Eight times the mean out-degree: a generous estimate of a frontier node's out-edges.
    degree_estimate: u64,
}

#[derive(Default)]
struct Counts {
    stats: ThreadStats,
    top_down: u64,
    bottom_up: u64,
}

/// Direction-optimizing BFS from `source`; `incoming` are `g`'s in-edges.
///
/// ```
/// use ordo_graph::{gen, BuildOptions};
/// use ordo_exec::ExecConfig;
/// use ordo_algos::bfs::{self, direction::{self, InEdges}};
/// let g = gen::road_grid(30, 30, 1, &BuildOptions::default()).unwrap();
/// let out = direction::run(&g, InEdges::symmetric(&g), 0, &ExecConfig::new(2)).unwrap();
/// assert_eq!(out.level, bfs::serial_bfs(&g, 0));
/// ```
pub fn run(
    g: &Graph,
    incoming: InEdges,
    source: u32,
    cfg: &ExecConfig,
) -> Result<BfsOutput, ExecError> {
    let n = g.num_nodes();
    assert!((source as usize) < n, "source out of range");
    assert_eq!(incoming.nodes(), n, "in-edges of another graph");
    let s = Shared {
        g,
        incoming,
        level: filled_u32s(n, UNREACHED),
        queues: QueueRing::new(n),
        bitmaps: [Bitmap::new(n), Bitmap::new(n)],
        degree_estimate: 8 * (g.num_edges() / n.max(1)) as u64 + 8,
    };
    s.level[source as usize].store(0, Relaxed);
    s.queues.input(0).fill([source]);
    let (counts, time) = run_team(cfg, |team| search(&s, team, source))?;
    let report = RunReport::from_threads(time, counts.iter().map(|c| c.stats).collect());
    let reached = s
        .level
        .iter()
        .filter(|l| l.load(Relaxed) != UNREACHED)
        .count() as u64;
    Ok(BfsOutput {
        level: s.level.into_iter().map(AtomicU32::into_inner).collect(),
        stats: BfsStats {
            stale_tasks: 0,
            improving_relaxations: reached.saturating_sub(1),
            top_down_steps: counts[0].top_down,
            bottom_up_steps: counts[0].bottom_up,
        },
        report,
    })
}

/// One worker's part of the search (the SPMD body).
fn search(s: &Shared, team: &Team, source: u32) -> Result<Counts, Stopped> {
    let n = s.g.num_nodes();
    let mut c = Counts::default();
    // The frontier is queues.input(k) with `len` nodes at level `depth`.
    let (mut k, mut len, mut depth) = (0usize, 1usize, 0u32);
    let mut scout = s.g.out_degree(source) as u64;
    let mut unexplored = s.g.num_edges() as u64;
    let (mut front, mut next) = (&s.bitmaps[0], &s.bitmaps[1]);
    // Frontiers below this are expanded by one worker (`run_ahead`): too few nodes to pay for
    // a round (`Team::shared_from`). A team of one runs ahead too, which spares it a barrier
    // per level (a 10^7-node path at 1 thread: 95 ms against 245; road graphs level).
    let ahead_limit = team.shared_from(SHARED_PER_WORKER);
    while len > 0 {
        if scout > unexplored / ALPHA && scout > n as u64 / SCAN {
            queue_to_bitmap(team, s.queues.input(k), len, front)?;
            let mut awake = len as u64;
            loop {
                let before = awake;
                awake = bottom_up(s, team, front, next, depth, &mut c)?;
                depth += 1;
                c.bottom_up += 1;
                std::mem::swap(&mut front, &mut next);
                if awake < before && awake <= n as u64 / BETA {
                    break;
                }
            }
            s.queues.start(k, team.worker());
            len = bitmap_to_queue(team, front, s.queues.output(k))?;
            k += 1;
            scout = 1;
        } else {
            unexplored = unexplored.saturating_sub(scout);
            if len < ahead_limit {
                // Every worker has the same `len` (from a collective, never read off a queue
                // that worker 0 may be rewriting here): all take this branch, and worker 0
                // alone expands levels while they stay small.
                if team.worker() == 0 {
                    (k, len, depth) = run_ahead(s, team, k, len, depth, ahead_limit, &mut c);
                }
                let [k0, len0, depth0] = team.broadcast(0, [k as u64, len as u64, depth as u64])?;
                (k, len, depth) = (k0 as usize, len0 as usize, depth0 as u32);
            } else {
                s.queues.start(k, team.worker());
                len = top_down(s, team, k, len, depth, &mut c)?;
                depth += 1;
                c.top_down += 1;
                k += 1;
            }
            // The new frontier's out-edges matter only if they might pass n / SCAN: on a road
            // graph they never do, and summing them costs a cache miss per node. Skipped levels
            // count 0, which only leaves `unexplored` high (the ALPHA test stricter); the
            // estimate is generous, and a frontier of hubs is large by the next level anyway.
            scout = if (len as u64).saturating_mul(s.degree_estimate) > n as u64 / SCAN {
                frontier_edges(s, team, k, len)?
            } else {
                0
            };
        }
    }
    Ok(c)
}

/// Expands the frontier `queues.input(k)` into `queues.output(k)`; returns the new
/// frontier's size (on every worker).
fn top_down(
    s: &Shared,
    team: &Team,
    k: usize,
    len: usize,
    depth: u32,
    c: &mut Counts,
) -> Result<usize, Stopped> {
    let next = depth + 1;
    if team.workers() == 1 {
        return top_down_alone(s, team, k, len, next, c);
    }
    // Locals, as in `top_down_alone`.
    let frontier = s.queues.input(k).first(len);
    let level = &s.level[..];
    let mut out = QueueWriter::new(s.queues.output(k));
    let found = team.for_chunks(len, team.chunk_for(len, TOP_DOWN_CHUNK), |r| {
        c.stats.tasks += r.len() as u64;
        let mut found = 0;
        for u in &frontier[r] {
            for &v in s.g.neighbors(u.load(Relaxed)) {
                // SAFETY: targets are nodes, and `level` has one entry per node.
                let slot = unsafe { level.get_unchecked(v as usize) };
                // Relaxed: a level is a word carrying no other data; the barrier ending the
                // step publishes it with the queue.
                if slot.load(Relaxed) != UNREACHED {
                    continue;
                }
                if slot
                    .compare_exchange(UNREACHED, next, Relaxed, Relaxed)
                    .is_ok()
                {
                    out.push(v);
                    found += 1;
                }
            }
        }
        out.flush();
        found
    })?;
    Ok(found as usize)
}

/// [`top_down`] for a team of one: no chunks to claim, no buffer in front of the next queue,
/// no compare-and-swap (road graphs have hundreds of levels of a few hundred nodes, where
/// those would be a third of the instructions).
fn top_down_alone(
    s: &Shared,
    team: &Team,
    k: usize,
    len: usize,
    next: u32,
    c: &mut Counts,
) -> Result<usize, Stopped> {
    let found = expand_alone(s, k, len, next, c);
    // The round's end, as `for_chunks` would have it (a Ctrl-C is seen here).
    team.barrier()?;
    Ok(found)
}

/// Top-down levels from step `k` (a frontier of `len` nodes at `depth`) expanded by worker 0
/// alone while the other workers wait in the next collective, as long as the frontier stays
/// below `limit` nodes and too small to turn bottom-up (its out-edges need not be counted).
/// A level of a few dozen nodes is a microsecond of work, which a barrier per level would
/// double at 2 threads (road graphs' first and last levels; a path: a barrier per node,
/// 2.8 s for 10^7 nodes against 0.23 s for one worker). Returns the step, frontier size and
/// depth it stopped at; stops early on a Ctrl-C (the next collective reports it).
///
/// Levels are written without compare-and-swap, as in [`top_down_alone`]: no other worker
/// touches them before the collective that ends this.
fn run_ahead(
    s: &Shared,
    team: &Team,
    mut k: usize,
    mut len: usize,
    mut depth: u32,
    limit: usize,
    c: &mut Counts,
) -> (usize, usize, u32) {
    let n = s.g.num_nodes() as u64;
    loop {
        s.queues.start(k, 0);
        len = expand_alone(s, k, len, depth + 1, c);
        depth += 1;
        c.top_down += 1;
        k += 1;
        let bottom_up_maybe = (len as u64).saturating_mul(s.degree_estimate) > n / SCAN;
        if len == 0
            || len >= limit
            || bottom_up_maybe
            || (k.is_multiple_of(ALONE_CHECK) && team.cancel_requested())
        {
            return (k, len, depth);
        }
    }
}

/// Levels between two looks at the cancel flag in [`run_ahead`] (and pfp's relabel's).
pub(crate) const ALONE_CHECK: usize = 4096;

/// Expands the frontier `queues.input(k)` into `queues.output(k)`, by the only worker
/// touching them and the levels; returns the new frontier's size.
fn expand_alone(s: &Shared, k: usize, len: usize, next: u32, c: &mut Counts) -> usize {
    // Slices held in locals: the loop stores to atomics, after which fields read through `s`
    // would be reloaded (0.88-0.95x the time of a search on five road graphs).
    let frontier = s.queues.input(k).first(len);
    let level = &s.level[..];
    c.stats.tasks += len as u64;
    let mut out = s.queues.output(k).alone();
    let mut found = 0;
    for u in frontier {
        for &v in s.g.neighbors(u.load(Relaxed)) {
            // SAFETY: targets are nodes, and `level` has one entry per node.
            let slot = unsafe { level.get_unchecked(v as usize) };
            if slot.load(Relaxed) == UNREACHED {
                slot.store(next, Relaxed);
                out.push(v);
                found += 1;
            }
        }
    }
    found
}

/// The out-edges of the `len` nodes of `queues.input(k)`.
fn frontier_edges(s: &Shared, team: &Team, k: usize, len: usize) -> Result<u64, Stopped> {
    let (offsets, frontier) = (s.g.offsets(), s.queues.input(k));
    team.for_chunks(len, 1024, |r| {
        r.map(|i| frontier.get(i) as usize)
            .map(|v| offsets[v + 1] - offsets[v])
            .sum()
    })
}

/// One bottom-up step: every unvisited node with an in-neighbour in `front` joins `next` at
/// `depth + 1`. Returns how many joined.
fn bottom_up(
    s: &Shared,
    team: &Team,
    front: &Bitmap,
    next: &Bitmap,
    depth: u32,
    c: &mut Counts,
) -> Result<u64, Stopped> {
    let n = s.g.num_nodes();
    // Locals, as in `top_down_alone`.
    let (level, incoming) = (&s.level[..], s.incoming);
    team.for_chunks(n, BOTTOM_UP_CHUNK, |r| {
        // The chunk is whole words of `next`: this worker clears and sets them alone.
        next.clear_words_of(r.clone());
        let mut awake = 0;
        c.stats.tasks += r.len() as u64;
        for (v, ins) in r.clone().zip(incoming.lists(r)) {
            // Only this worker writes v's level in a bottom-up step.
            if level[v].load(Relaxed) != UNREACHED {
                continue;
            }
            // SAFETY: InEdges' sources are nodes, and `front` has a bit per node.
            if ins
                .iter()
                .any(|&u| unsafe { front.get_unchecked(u as usize) })
            {
                level[v].store(depth + 1, Relaxed);
                next.set_owned(v);
                awake += 1;
            }
        }
        awake
    })
}

/// Sets `bits` to exactly the `len` nodes of `queue`.
fn queue_to_bitmap(team: &Team, queue: &Queue, len: usize, bits: &Bitmap) -> Result<(), Stopped> {
    team.for_chunks(bits.num_words(), 256, |r| {
        bits.clear_words_of(r.start * 64..r.end * 64);
        0
    })?;
    team.for_chunks(len, 4096, |r| {
        for i in r {
            bits.set_shared(queue.get(i) as usize);
        }
        0
    })
    .map(drop)
}

/// Appends the nodes of `bits` to the empty `queue`; returns how many (on every worker).
fn bitmap_to_queue(team: &Team, bits: &Bitmap, queue: &Queue) -> Result<usize, Stopped> {
    let mut out = QueueWriter::new(queue);
    let nodes = team.for_chunks(bits.num_words(), 64, |r| {
        let mut nodes = 0;
        for w in r {
            let mut word = bits.word(w);
            nodes += u64::from(word.count_ones());
            while word != 0 {
                out.push((w * 64) as u32 + word.trailing_zeros());
                word &= word - 1;
            }
        }
        out.flush();
        nodes
    })?;
    Ok(nodes as usize)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bfs::serial_bfs;
    use crate::test_graphs::thin_thick_thin;

    #[test]
    fn thin_stretches_go_to_one_worker_and_back_to_the_team() {
        // Frontiers go small, large (2000 leaves: enough to share), small again, so worker 0
        // runs ahead, hands back to the team, and runs ahead again.
        let g = thin_thick_thin(3000, 2000, 300);
        let expected = serial_bfs(&g, 0);
        for threads in [1, 2, 3, 8] {
            let out = run(&g, InEdges::symmetric(&g), 0, &ExecConfig::new(threads)).unwrap();
            assert_eq!(out.level, expected, "x{threads}");
        }
    }
}
