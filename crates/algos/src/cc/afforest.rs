//! Connected components by Afforest (Sutton, Ben-Nun, Barak, IPDPS 2018) on the frontier
//! executor: union-find linking of a sample of each node's edges, then of the rest of the
//! edges of every node outside the component that the sample shows to be the largest.
//!
//! Every node starts as its own tree (`comp[v] = v`). Linking an edge hooks the root with the
//! larger index under the smaller one with a compare-and-swap, so a parent is always smaller
//! than its child and the root of a component is its smallest node: the canonical label of
//! [`serial_cc`](super::serial_cc). After [`NEIGHBOR_ROUNDS`] rounds of linking each node's
//! first edges (and compressing paths), most of a large component hangs under one root `c`
//! (the most frequent root in [`SAMPLES`] random nodes); the final round skips every node
//! whose root is already `c`. That skip is correct on an undirected graph only: an edge from
//! a skipped node `u` to a node `v` outside `c` is linked when `v`'s edges are (both arcs are
//! stored). Most edges of a large component are never touched, which is where Afforest beats
//! label propagation (and the priority version) by a factor of the average degree.
//!
//! Work: O(m) at most, typically O(n + the edges outside the largest component); rounds: 2 x
//! (NEIGHBOR_ROUNDS + 1).

use super::{CcOutput, CcStats};
use crate::union_find::point_at_root;
use ordo_exec::{run_team, ExecConfig, ExecError, RunReport, Stopped, Team, ThreadStats};
use ordo_graph::Graph;
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

/// Edges per node linked before sampling (the paper's and GAPBS's value).
pub const NEIGHBOR_ROUNDS: usize = 2;
/// Nodes sampled to find the largest intermediate component.
pub const SAMPLES: usize = 1024;
/// Nodes per chunk of a linking or compressing loop.
const CHUNK: usize = 4096;

/// Components of the undirected graph `g` (both arcs of every edge stored).
///
/// ```
/// use ordo_graph::{gen, BuildOptions};
/// use ordo_exec::ExecConfig;
/// let g = gen::road_grid(20, 20, 1, &BuildOptions::default()).unwrap();
/// let out = ordo_algos::cc::afforest::run(&g, &ExecConfig::new(2)).unwrap();
/// assert_eq!(out.label, ordo_algos::cc::serial_cc(&g));
/// ```
pub fn run(g: &Graph, cfg: &ExecConfig) -> Result<CcOutput, ExecError> {
    let n = g.num_nodes();
    let comp = crate::union_find::singletons(n);
    let largest = AtomicU32::new(0);
    let (stats, time) = run_team(cfg, |team| components(g, &comp, &largest, team))?;
    let report = RunReport::from_threads(time, stats);
    let label: Vec<u32> = comp.into_iter().map(AtomicU32::into_inner).collect();
    Ok(CcOutput {
        label,
        stats: CcStats {
            stale_tasks: 0,
            relabels: report.total.tasks,
        },
        report,
    })
}

/// One worker's part (the SPMD body). `tasks` counts the edges it linked.
fn components(
    g: &Graph,
    comp: &[AtomicU32],
    largest: &AtomicU32,
    team: &Team,
) -> Result<ThreadStats, Stopped> {
    let n = g.num_nodes();
    let mut stats = ThreadStats::default();
    for r in 0..NEIGHBOR_ROUNDS {
        team.for_chunks(n, CHUNK, |range| {
            let mut links = 0;
            for v in range {
                if let Some(&u) = g.neighbors(v as u32).get(r) {
                    link(comp, v as u32, u);
                    links += 1;
                }
            }
            stats.tasks += links;
            0
        })?;
        compress(comp, team)?;
    }
    if team.worker() == 0 {
        largest.store(most_frequent_root(comp), Relaxed);
    }
    team.barrier()?;
    let c = largest.load(Relaxed);
    team.for_chunks(n, CHUNK, |range| {
        for v in range {
            // A node already under `c` is skipped: see the module docs.
            if comp[v].load(Relaxed) == c {
                continue;
            }
            let rest = g.neighbors(v as u32).get(NEIGHBOR_ROUNDS..).unwrap_or(&[]);
            for &u in rest {
                link(comp, v as u32, u);
            }
            stats.tasks += rest.len() as u64;
        }
        0
    })?;
    compress(comp, team)?;
    Ok(stats)
}

/// Joins the trees of `u` and `v`: the larger root goes under the smaller.
///
/// Relaxed throughout: every `comp` entry only ever decreases, each value read is a node on
/// the path to the root at some moment, and the hook itself is a compare-and-swap on a root's
/// current value; no other data hangs on these words.
#[inline]
fn link(comp: &[AtomicU32], u: u32, v: u32) {
    let get = |x: u32| comp[x as usize].load(Relaxed);
    let (mut p1, mut p2) = (get(u), get(v));
    while p1 != p2 {
        let (high, low) = if p1 > p2 { (p1, p2) } else { (p2, p1) };
        let p_high = get(high);
        if p_high == low {
            return;
        }
        if p_high == high
            && comp[high as usize]
                .compare_exchange(high, low, Relaxed, Relaxed)
                .is_ok()
        {
            return;
        }
        p1 = get(get(high));
        p2 = get(low);
    }
}

/// Points every node at its root (no linking runs meanwhile).
fn compress(comp: &[AtomicU32], team: &Team) -> Result<u64, Stopped> {
    team.for_chunks(comp.len(), CHUNK, |range| {
        for v in range {
            point_at_root(comp, v);
        }
        0
    })
}

/// The root that most of [`SAMPLES`] pseudo-random nodes have (fixed seed: runs repeat).
fn most_frequent_root(comp: &[AtomicU32]) -> u32 {
    let n = comp.len() as u64;
    if n == 0 {
        return 0;
    }
    let mut counts = std::collections::HashMap::with_capacity(64);
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    for _ in 0..SAMPLES {
        state = ordo_graph::mix64(state);
        let v = (state % n) as usize;
        *counts.entry(comp[v].load(Relaxed)).or_insert(0u32) += 1;
    }
    // Ties go to the smaller root, so the choice does not depend on the map's order.
    counts
        .into_iter()
        .max_by_key(|&(root, count)| (count, std::cmp::Reverse(root)))
        .map_or(0, |(root, _)| root)
}
