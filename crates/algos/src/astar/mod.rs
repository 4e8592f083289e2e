//! A* point-to-point shortest path by prioritized label-correcting relaxation (the PMOD paper,
//! Yesil et al., SC'19, §5.3).
//!
//! Tasks are SSSP's `(v, d)`, scheduled at priority `d + h(v)` where h estimates the distance
//! from v to the target by straight-line distance. Because relaxed schedulers may run tasks out
//! of order, a node is never "closed": a task is skipped if its distance is stale, or pruned if
//! `d + h(v)` already reaches the best distance to the target found so far (no path through it
//! can do better). With an exact order and a consistent h this expands what textbook A* does.
//!
//! **The estimate.** Coordinates are projected to the plane: DIMACS `.co` longitude/latitude
//! (millionths of a degree) by the equirectangular projection at the target's latitude, in
//! metres; other coordinates are used as they are. The projected distance is a metric, so if
//! every edge satisfies `w(u, v) >= s * dist(u, v)` then `h(v) = s * dist(v, t)` never
//! overestimates (sum the edge inequality along any path, then use the triangle inequality). The
//! scale s is the smallest `w / dist` over the graph's edges (slightly lowered against rounding),
//! so the estimate is admissible for any weights, including weights that are not lengths; it
//! is reported. Edges of zero length impose nothing; a zero-weight edge between distinct points
//! makes s = 0 and A* degrades to Dijkstra.

pub mod app;

use crate::distance::DistLabel;
use crate::prefetch::NodeReads;
use crate::sssp::{SsspTask, UNREACHABLE};
use ordo_exec::{for_each, Context, ExecConfig, ExecError, RunReport};
use ordo_graph::Graph;
use ordo_sched::{Handle, Scheduler};
use std::sync::atomic::{AtomicU64, Ordering};

const STALE: usize = 0;
const PRUNED: usize = 1;

/// How coordinates map to the plane.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Geometry {
    /// Longitude and latitude in millionths of a degree (DIMACS `.co`).
    LonLat,
    /// Planar coordinates, distances are Euclidean.
    Planar,
}

/// The straight-line estimate towards one target.
#[derive(Debug, Clone)]
pub struct Heuristic {
    /// Projected coordinates (x, y) per node.
    xy: Vec<(f64, f64)>,
    target: (f64, f64),
    /// Weight units per projected unit (metres for `LonLat`).
    pub scale: f64,
}

const EARTH_RADIUS_M: f64 = 6_371_000.0;

impl Heuristic {
    /// Projects `g`'s coordinates and computes the admissible scale. `None` if `g` has none.
    pub fn new(g: &Graph, target: u32, geometry: Geometry) -> Option<Self> {
        let c = g.coords()?;
        let n = g.num_nodes() as u32;
        let xy: Vec<(f64, f64)> = match geometry {
            Geometry::Planar => (0..n).map(|v| c.get(v)).collect(),
            Geometry::LonLat => {
                let lat0 = (c.get(target).1 * 1e-6).to_radians();
                let k = EARTH_RADIUS_M * 1e-6f64.to_radians();
                (0..n)
                    .map(|v| {
                        let (lon, lat) = c.get(v);
                        (lon * k * lat0.cos(), lat * k)
                    })
                    .collect()
            }
        };
        let dist = |a: (f64, f64), b: (f64, f64)| (a.0 - b.0).hypot(a.1 - b.1);
        let mut scale = f64::INFINITY;
        for v in 0..n {
            for (t, w) in g.out_edges(v) {
                let d = dist(xy[v as usize], xy[t as usize]);
                if d > 0.0 {
                    scale = scale.min(w as f64 / d);
                }
            }
        }
        // No edge of positive length: nothing bounds the estimate, so use none.
        let scale = if scale.is_finite() {
            scale * (1.0 - 1e-9)
        } else {
            0.0
        };
        Some(Heuristic {
            target: xy[target as usize],
            xy,
            scale,
        })
    }

    /// The estimate from `v` to the target, rounded down.
    #[inline]
    pub fn estimate(&self, v: u32) -> u64 {
        let (x, y) = self.xy[v as usize];
        let d = (x - self.target.0).hypot(y - self.target.1);
        (self.scale * d) as u64
    }
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AstarStats {
    /// Tasks that relaxed their node's edges.
    pub expanded: u64,
    /// Tasks skipped because their node had since got a shorter distance.
    pub stale_tasks: u64,
    /// Tasks dropped because they could not beat the best distance to the target.
    pub pruned: u64,
}

pub struct AstarOutput {
    /// The distance from the source to the target (`UNREACHABLE` if none).
    pub dist: u64,
    pub report: RunReport,
    pub stats: AstarStats,
}

/// Parallel A* from `source` to `target` with estimate `h`.
pub fn run<S: Scheduler<SsspTask>>(
    g: &Graph,
    source: u32,
    target: u32,
    h: &Heuristic,
    sched: &S,
    cfg: &ExecConfig,
) -> Result<AstarOutput, ExecError> {
    let n = check_ends(g, source, target);
    let dist: Vec<AtomicU64> = (0..n).map(|_| AtomicU64::new(UNREACHABLE)).collect();
    dist[source as usize].store(0, Ordering::Relaxed);
    let offsets = g.offsets();
    let best = &dist[target as usize];
    let to = Toward {
        targets: g.targets(),
        weights: g.weights(),
        dist: &dist,
        best,
        h,
    };
    // One worker: no other thread writes a label meanwhile, so a plain store lowers it.
    let concurrent = cfg.concurrent();
    let start = SsspTask {
        node: source,
        dist: 0,
    };
    // Relaxed, as in SSSP: distances carry no other data and only decrease, so a stale read of
    // a node's distance or of `best` makes a task do useless work (skip less, prune less), never
    // a wrong one; the final read follows the join in `for_each`.
    let labels = &dist[..];
    let reads = NodeReads::weighted(g, labels);
    // `move`: the closure holds these references and flags itself, one load each per task.
    let first = (start, h.estimate(source));
    let report = for_each(sched, [first], cfg, move |task, ctx| {
        let v = task.node;
        let d = task.dist;
        ctx.task_priority_with(|| d.saturating_add(h.estimate(v)));
        reads.upcoming_node(ctx, |t| t.node);
        // SAFETY (the `get_unchecked`s of this operator): `v` is the source (checked above)
        // or an arc's target, which the graph's constructor checks against n; so `v + 1`
        // indexes the n + 1 offsets, which are non-decreasing up to the arc count, the length
        // of targets and weights.
        if d > unsafe { labels.get_unchecked(v as usize) }.load(Ordering::Relaxed) {
            ctx.count(STALE, 1);
            ctx.useless();
            return;
        }
        if v == target || d.saturating_add(h.estimate(v)) >= best.load(Ordering::Relaxed) {
            ctx.count(PRUNED, 1);
            ctx.useless();
            return;
        }
        let v = v as usize;
        let (lo, hi) = unsafe { (*offsets.get_unchecked(v), *offsets.get_unchecked(v + 1)) };
        let range = lo as usize..hi as usize;
        match concurrent {
            true => to.relax_arcs::<_, true>(range, d, ctx),
            false => to.relax_arcs::<_, false>(range, d, ctx),
        }
    })?;
    Ok(AstarOutput {
        dist: best.load(Ordering::Relaxed),
        stats: AstarStats {
            // Every task is stale, pruned or expanded.
            expanded: report.total.tasks - report.total.app[STALE] - report.total.app[PRUNED],
            stale_tasks: report.total.app[STALE],
            pruned: report.total.app[PRUNED],
        },
        report,
    })
}

/// What a relaxation toward the target reads: the arcs (weights 1 each when absent), the
/// labels, the target's label, the estimate.
struct Toward<'a> {
    targets: &'a [u32],
    weights: Option<&'a [u32]>,
    dist: &'a [AtomicU64],
    best: &'a AtomicU64,
    h: &'a Heuristic,
}

impl Toward<'_> {
    /// [`relax`](Self::relax) on the arcs `range`, one node's: sliced once, weighted or not
    /// decided outside the loop. `range` must lie within the arcs (a node's offsets).
    #[inline(always)]
    fn relax_arcs<H: Handle<SsspTask>, const SHARED: bool>(
        &self,
        range: std::ops::Range<usize>,
        d: u64,
        ctx: &mut Context<'_, SsspTask, H>,
    ) {
        // SAFETY: `range` lies within the arcs (the caller's contract), and the weights are
        // as many as the targets.
        let out = unsafe { self.targets.get_unchecked(range.clone()) };
        match self.weights {
            Some(ws) => {
                let ws = unsafe { ws.get_unchecked(range) };
                self.relax::<H, SHARED>(out.iter().copied().zip(ws.iter().copied()), d, ctx)
            }
            None => self.relax::<H, SHARED>(out.iter().map(|&t| (t, 1)), d, ctx),
        }
    }

    /// Relaxes `edges` (target, weight) of a node reached at distance `d`: skips an arc whose
    /// bound cannot beat the target's label, lowers the others' labels (with a CAS loop when
    /// `SHARED`, the run has several workers), and pushes a task for every label it lowered.
    /// Always inlined, so each caller gets its own tight loop. The targets must be nodes.
    #[inline(always)]
    fn relax<H: Handle<SsspTask>, const SHARED: bool>(
        &self,
        edges: impl Iterator<Item = (u32, u32)>,
        d: u64,
        ctx: &mut Context<'_, SsspTask, H>,
    ) {
        for (t, w) in edges {
            let nd = d + w as u64;
            let bound = nd.saturating_add(self.h.estimate(t));
            if bound >= self.best.load(Ordering::Relaxed) {
                continue;
            }
            // SAFETY: an arc's target, below n (checked when the graph was built).
            if unsafe { self.dist.get_unchecked(t as usize) }.lower_in::<SHARED>(nd) {
                ctx.push_owned(SsspTask { node: t, dist: nd }, bound, t as u64);
            }
        }
    }
}

/// The node count, after checking that both ends are nodes of `g`.
fn check_ends(g: &Graph, source: u32, target: u32) -> usize {
    let n = g.num_nodes();
    assert!(
        (source as usize) < n && (target as usize) < n,
        "node out of range"
    );
    n
}

/// Checks `dist` against serial Dijkstra's distance from `source` to `target`.
pub fn verify(g: &Graph, source: u32, target: u32, dist: u64) -> Result<(), crate::VerifyError> {
    check(
        g,
        target,
        dist,
        crate::sssp::dijkstra(g, source)[target as usize],
    )
}

/// Checks `dist` against the `expected` distance to `target`.
pub fn check(g: &Graph, target: u32, dist: u64, expected: u64) -> Result<(), crate::VerifyError> {
    let show = |d: u64| {
        if d == UNREACHABLE {
            "inf".to_string()
        } else {
            d.to_string()
        }
    };
    if dist == expected {
        Ok(())
    } else {
        Err(crate::VerifyError::Nodes {
            mismatches: 1,
            node: g.file_id(target),
            got: show(dist),
            expected: show(expected),
        })
    }
}

impl crate::sssp::delta_step::Estimate for Heuristic {
    const TARGETED: bool = true;
    #[inline(always)]
    fn estimate(&self, v: u32) -> u64 {
        Heuristic::estimate(self, v)
    }
}

/// A* from `source` to `target` by delta-stepping on `d + h(v)` (buckets of `2^shift`), on the
/// frontier executor: SSSP's bins, rounds and bucket fusion
/// ([`sssp::delta_step`](crate::sssp::delta_step)), with every entry and relaxation whose key
/// reaches the best distance to the target dropped, and the search ending when no worker's
/// next bucket can improve it.
///
/// ```
/// use ordo_graph::{gen, BuildOptions};
/// use ordo_exec::ExecConfig;
/// use ordo_algos::astar::{self, Geometry, Heuristic};
/// let g = gen::road_grid(40, 40, 1, &BuildOptions::default()).unwrap();
/// let h = Heuristic::new(&g, 1599, Geometry::Planar).unwrap();
/// let out = astar::run_buckets(&g, 0, 1599, &h, 8, &ExecConfig::new(2)).unwrap();
/// astar::verify(&g, 0, 1599, out.dist).unwrap();
/// ```
pub fn run_buckets(
    g: &Graph,
    source: u32,
    target: u32,
    h: &Heuristic,
    shift: u32,
    cfg: &ExecConfig,
) -> Result<AstarOutput, ExecError> {
    use crate::distance::{fits_in_u32, DistLabel};
    use crate::sssp::delta_step::engine;
    use std::sync::atomic::AtomicU32;
    check_ends(g, source, target);
    let (dist, report, (expanded, stale_tasks, pruned)) = if fits_in_u32(g) {
        let run = engine::<AtomicU32, _>(g, source, Some(target), h, shift, cfg)?;
        let counts = run.astar_counts();
        (run.dist[target as usize].get(), run.report, counts)
    } else {
        let run = engine::<AtomicU64, _>(g, source, Some(target), h, shift, cfg)?;
        let counts = run.astar_counts();
        (run.dist[target as usize].get(), run.report, counts)
    };
    Ok(AstarOutput {
        dist,
        stats: AstarStats {
            expanded,
            stale_tasks,
            pruned,
        },
        report,
    })
}
