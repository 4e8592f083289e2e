//! Single-source shortest paths by prioritized label-correcting relaxation.
//!
//! Each task `(v, d)` says "v was reached at distance d": if d is still v's label, relax v's
//! out-edges, lowering each neighbour's label with an atomic min and scheduling it at priority
//! `d + w`. With an exact priority queue this is Dijkstra; with a relaxed scheduler such as
//! obim (which buckets priorities by `delta`) it is delta-stepping in spirit (the PMOD paper,
//! Yesil et al., SC'19, §5.3; the obim paper, Lenharth, Nguyen, Pingali, Euro-Par'15, §2.2;
//! Meyer & Sanders, "Δ-stepping", J. Algorithms 2003). A task whose distance is no longer its
//! node's label is *stale* and skipped.
//!
//! Preconditions: weights are non-negative (u32); distances are u64 sums, so no overflow for
//! any path of fewer than 2^32 edges. Unreachable nodes get [`UNREACHABLE`].
//!
//! Complexity: O(m log n) with an exact order; relaxed schedulers trade extra (bad) relaxations
//! for parallelism, counted in [`SsspStats`].

pub mod app;

pub mod delta_step;
mod published;

use crate::distance::{fits_in_u32, DistLabel};
use crate::prefetch::NodeReads;
use crate::verify::{compare, VerifyError};
use ordo_exec::{for_each, Context, ExecConfig, ExecError, RunReport};
use ordo_graph::Graph;
use ordo_sched::{Handle, Scheduler};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::atomic::{AtomicU32, AtomicU64};

/// The label of a node no path reaches.
pub const UNREACHABLE: u64 = u64::MAX;

/// Application counters (indices into `RunReport::total.app`).
const STALE: usize = 0;
const EDGES: usize = 1;
const GOOD: usize = 2;

/// "Node `node` was reached at distance `dist`."
///
/// Packed to 12 bytes (no padding) so a scheduler's `(priority, task)` heap entry is 20 bytes
/// instead of 24 and obim's chunks are a quarter smaller; fields are read by value, which is
/// all the code does. `dist` first: a copy moves 8 bytes then 4, so each field is read back
/// from one store (with `node` first, reading `dist` spans two stores, and the CPU stalls on
/// the failed store-to-load forwarding, once on every pop and once on every push).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(C, packed(4))]
pub struct SsspTask {
    pub dist: u64,
    pub node: u32,
}

/// What the relaxation did, beyond the executor's counts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SsspStats {
    /// Tasks skipped because their node had since got a shorter distance.
    pub stale_tasks: u64,
    /// Relaxations that lowered a label (each pushed a task).
    pub improving_relaxations: u64,
    /// Edges looked at.
    pub edges_scanned: u64,
    /// Tasks that applied a node's final distance: the obim paper's good work (§2.2), whose
    /// relaxations are update requests applied when they are taken, as Dijkstra's queue applies
    /// them. The other tasks that were not stale are its bad work (a distance later lowered
    /// again), and the stale ones its empty work, so an exact order does good and empty work
    /// only. Counted only when the run had an oracle ([`ordo_exec::Probes`]).
    pub good_tasks: Option<u64>,
    /// Bucket rounds of [`delta_step`] (0 for the priority-scheduled version).
    pub rounds: u64,
    /// The bucket width [`delta_step`] ran with (`None` for the priority-scheduled version,
    /// whose scheduler has its own).
    pub delta: Option<u32>,
}

pub struct SsspOutput {
    pub dist: Vec<u64>,
    pub report: RunReport,
    pub stats: SsspStats,
}

/// Parallel SSSP from `source` over `sched` with `cfg.threads` workers.
///
/// ```
/// use ordo_graph::{gen, BuildOptions};
/// use ordo_exec::ExecConfig;
/// use ordo_sched::obim::{Obim, ObimConfig};
/// let g = gen::road_grid(30, 30, 1, &BuildOptions::default()).unwrap();
/// let cfg = ExecConfig::new(2);
/// let sched = Obim::new(&ObimConfig { delta: 6, ..Default::default() }, 2, &cfg.topology);
/// let out = ordo_algos::sssp::run(&g, 0, &sched, &cfg).unwrap();
/// ordo_algos::sssp::verify(&g, 0, &out.dist).unwrap();
/// ```
pub fn run<S: Scheduler<SsspTask>>(
    g: &Graph,
    source: u32,
    sched: &S,
    cfg: &ExecConfig,
) -> Result<SsspOutput, ExecError> {
    assert!((source as usize) < g.num_nodes(), "source out of range");
    if fits_in_u32(g) {
        run_with::<AtomicU32, S>(g, source, sched, cfg)
    } else {
        run_with::<AtomicU64, S>(g, source, sched, cfg)
    }
}

/// [`run`] with labels of type `D`, which must hold every distance of `g`.
fn run_with<D: DistLabel, S: Scheduler<SsspTask>>(
    g: &Graph,
    source: u32,
    sched: &S,
    cfg: &ExecConfig,
) -> Result<SsspOutput, ExecError> {
    let dist: Vec<D> = (0..g.num_nodes()).map(|_| D::unreached()).collect();
    dist[source as usize].set(0);
    let offsets = g.offsets();
    let (targets, weights) = (g.targets(), g.weights());
    let start = SsspTask {
        node: source,
        dist: 0,
    };
    let oracle = cfg.probes.oracle.as_deref();
    let labels = &dist[..];
    let arcs = Arcs { targets, weights };
    let reads = NodeReads::weighted(g, labels);
    // One worker: no other thread writes a label meanwhile, so a plain store lowers it.
    let concurrent = cfg.concurrent();
    // `move`: the closure holds these slices and flags itself, one load each per task.
    let report = for_each(sched, [(start, 0)], cfg, move |task, ctx| {
        let v = task.node as usize;
        ctx.task_priority(task.dist);
        reads.upcoming_node(ctx, |t| t.node);
        // SAFETY (the `get_unchecked`s of this operator): `v` is the source (checked above)
        // or an arc's target, which the graph's constructor checks against n; so `v + 1`
        // indexes the n + 1 offsets, which are non-decreasing up to the arc count, the length
        // of targets and weights.
        // Stale: the label has since dropped below the task's distance (no widening of
        // "unreached": a task's node is reached).
        if unsafe { labels.get_unchecked(v) }.below(task.dist) {
            ctx.count(STALE, 1);
            ctx.useless();
            return;
        }
        match oracle {
            Some(f) if f[v] == task.dist => ctx.count(GOOD, 1),
            Some(_) => ctx.useless(), // a label that a shorter path overwrites later
            None => {}
        }
        let (lo, hi) = unsafe { (*offsets.get_unchecked(v), *offsets.get_unchecked(v + 1)) };
        let (lo, hi) = (lo as usize, hi as usize);
        match concurrent {
            true => arcs.relax::<D, _, true>(lo..hi, task.dist, labels, ctx),
            false => arcs.relax::<D, _, false>(lo..hi, task.dist, labels, ctx),
        }
        ctx.count(EDGES, (hi - lo) as u64);
    })?;
    let stats = SsspStats {
        stale_tasks: report.total.app[STALE],
        // Every lowered label pushed one task, and the source's task was pushed first.
        improving_relaxations: report.total.pushes - 1,
        edges_scanned: report.total.app[EDGES],
        good_tasks: oracle.map(|_| report.total.app[GOOD]),
        rounds: 0,
        delta: None,
    };
    Ok(SsspOutput {
        dist: dist.into_iter().map(D::into_u64).collect(),
        report,
        stats,
    })
}

/// A graph's arcs: targets, and weights (1 each when absent).
#[derive(Clone, Copy)]
struct Arcs<'g> {
    targets: &'g [u32],
    weights: Option<&'g [u32]>,
}

impl Arcs<'_> {
    /// Relaxes the arcs `range`, one node's, reached at distance `d`: sliced once, weighted or
    /// not decided outside the loop, so no bounds check or test per arc. `range` must lie
    /// within the arcs (a node's offsets), and their targets must be nodes of `dist`.
    #[inline(always)]
    fn relax<D: DistLabel, H: Handle<SsspTask>, const SHARED: bool>(
        self,
        range: std::ops::Range<usize>,
        d: u64,
        dist: &[D],
        ctx: &mut Context<'_, SsspTask, H>,
    ) {
        // SAFETY: `range` lies within the arcs (the caller's contract), and the weights are
        // as many as the targets.
        let out = unsafe { self.targets.get_unchecked(range.clone()) };
        match self.weights {
            Some(ws) => {
                let ws = unsafe { ws.get_unchecked(range) };
                relax::<D, H, SHARED>(out.iter().copied().zip(ws.iter().copied()), d, dist, ctx)
            }
            None => relax::<D, H, SHARED>(out.iter().map(|&t| (t, 1)), d, dist, ctx),
        }
    }
}

/// Relaxes `edges` (target, weight) of a node reached at distance `d`: lowers each target's
/// label (with a CAS loop when `SHARED`, the run has several workers) and pushes a task for
/// every label it lowered. Always inlined, so each caller (weighted or not,
/// shared or not) gets its own tight loop. `edges`' targets must be nodes of `dist`.
#[inline(always)]
fn relax<D: DistLabel, H: Handle<SsspTask>, const SHARED: bool>(
    edges: impl Iterator<Item = (u32, u32)>,
    d: u64,
    dist: &[D],
    ctx: &mut Context<'_, SsspTask, H>,
) {
    for (t, w) in edges {
        let nd = d + w as u64;
        // SAFETY: an arc's target, below n (checked when the graph was built).
        if unsafe { dist.get_unchecked(t as usize) }.lower_in::<SHARED>(nd) {
            ctx.push_owned(SsspTask { node: t, dist: nd }, nd, t as u64);
        }
    }
}

/// Serial oracle: textbook Dijkstra with a binary heap and lazy deletion.
pub fn dijkstra(g: &Graph, source: u32) -> Vec<u64> {
    let mut dist = vec![UNREACHABLE; g.num_nodes()];
    let mut heap = BinaryHeap::new();
    dist[source as usize] = 0;
    heap.push(Reverse((0u64, source)));
    while let Some(Reverse((d, v))) = heap.pop() {
        if d > dist[v as usize] {
            continue;
        }
        for (t, w) in g.out_edges(v) {
            let nd = d + w as u64;
            if nd < dist[t as usize] {
                dist[t as usize] = nd;
                heap.push(Reverse((nd, t)));
            }
        }
    }
    dist
}

/// Checks `dist` against the serial oracle.
pub fn verify(g: &Graph, source: u32, dist: &[u64]) -> Result<(), VerifyError> {
    let expected = dijkstra(g, source);
    compare(dist, &expected, show_dist, |v| g.file_id(v))
}

fn show_dist(d: u64) -> String {
    if d == UNREACHABLE {
        "inf".into()
    } else {
        d.to_string()
    }
}

/// Summary figures of a distance vector: (reached nodes, sum of finite distances, max finite).
pub fn summarize(dist: &[u64]) -> (u64, u128, u64) {
    let finite = dist.iter().filter(|&&d| d != UNREACHABLE);
    let reached = finite.clone().count() as u64;
    let sum = finite.clone().map(|&d| d as u128).sum();
    let max = finite.copied().max().unwrap_or(0);
    (reached, sum, max)
}

/// The bucket width (a shift) for obim-like schedulers that needs no tuning: see
/// [`crate::delta`].
pub fn default_delta(g: &Graph) -> u32 {
    crate::delta::default_delta(g)
}
