//! k-core decomposition: the core number of every node (the largest k such that the node
//! belongs to a subgraph where every node has degree at least k).
//!
//! The parallel operator is peeling driven by priorities, in the asynchronous h-index form of
//! Montresor, De Pellegrini and Miorandi ("Distributed k-core decomposition", IEEE TPDS 2013):
//! every node holds an estimate that starts at its degree and only decreases. A task for v
//! recomputes v's estimate as the h-index of its neighbours' estimates (the largest h with at
//! least h neighbours estimated at h or more); if that is lower, v takes it and every
//! neighbour whose estimate is above the new value is scheduled again. The priority is the
//! current estimate, lowest first, so low-degree nodes peel first as in the serial algorithm.
//!
//! Estimates stay at or above the core number and the only fixed point reached from the
//! degrees is the core numbers, so the result does not depend on the order tasks run in; the
//! order changes only how many recomputations happen (counted). The serial oracle is the
//! bucket peeling of Batagelj and Zaversnik (2003), O(n + m).
//!
//! Input: an undirected simple graph (see [`ordo_graph::undirected_simple`]).
//!
//! [`peel`] is parallel bucketed peeling on the frontier executor, the fastest method (what
//! `ordo kcore` runs by default); [`bucket`] is serial bucket peeling, faster on one thread
//! on small graphs. This priority-scheduled version stays as the papers'-style variant.

pub mod app;

pub mod bucket;
pub mod peel;

use crate::verify::{compare, VerifyError};
use ordo_exec::{for_each, ExecConfig, ExecError, RunReport};
use ordo_graph::Graph;
use ordo_sched::Scheduler;
use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

const LOWERED: usize = 0;
const UNCHANGED: usize = 1;

/// "Recompute node `node`'s estimate."
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KcoreTask {
    pub node: u32,
    /// The estimate it was pushed with (its priority), for traces and rank error.
    pub estimate: u32,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct KcoreStats {
    /// Tasks that lowered their node's estimate.
    pub lowered: u64,
    /// Tasks that found nothing to lower.
    pub unchanged: u64,
}

pub struct KcoreOutput {
    pub core: Vec<u32>,
    pub report: RunReport,
    pub stats: KcoreStats,
}

thread_local! {
    /// Per-thread histogram for the h-index (reused across tasks: no allocation per task).
    static HISTOGRAM: RefCell<Vec<u32>> = const { RefCell::new(Vec::new()) };
}

/// The h-index of `values` capped at `cap`: the largest h <= cap such that at least h values
/// are >= h.
#[inline(never)] // out of line: inlined into the TLS access, kcore ran 7% more instructions
fn h_index(values: impl Iterator<Item = u32>, cap: u32, hist: &mut Vec<u32>) -> u32 {
    hist.clear();
    hist.resize(cap as usize + 1, 0);
    for x in values {
        hist[x.min(cap) as usize] += 1;
    }
    let mut at_least = 0;
    for h in (1..=cap).rev() {
        at_least += hist[h as usize];
        if at_least >= h {
            return h;
        }
    }
    0
}

/// Parallel core numbers of the undirected simple graph `g`.
///
/// ```
/// use ordo_graph::{gen, BuildOptions};
/// use ordo_exec::ExecConfig;
/// use ordo_sched::obim::{Obim, ObimConfig};
/// let g = gen::road_grid(20, 20, 1, &BuildOptions::default()).unwrap();
/// let g = ordo_graph::undirected_simple(&g).unwrap();
/// let cfg = ExecConfig::new(2);
/// let sched = Obim::new(&ObimConfig::default(), 2, &cfg.topology);
/// let out = ordo_algos::kcore::run(&g, &sched, &cfg).unwrap();
/// ordo_algos::kcore::verify(&g, &out.core).unwrap();
/// ```
pub fn run<S: Scheduler<KcoreTask>>(
    g: &Graph,
    sched: &S,
    cfg: &ExecConfig,
) -> Result<KcoreOutput, ExecError> {
    let n = g.num_nodes() as u32;
    let est: Vec<AtomicU32> = (0..n)
        .map(|v| AtomicU32::new(g.out_degree(v) as u32))
        .collect();
    // Whether a node has a task queued that has not started. A task clears its node's flag
    // before reading any estimate, and a lowering sets a neighbour's flag after writing its
    // own estimate; both are AcqRel swaps on the flag, so when the setter finds the flag
    // already set, the queued task's clear comes later and its reads see the new estimate.
    // Without this, relaxed orders ran up to 7x more tasks (1.4M on Slashdot).
    let queued: Vec<AtomicBool> = (0..n).map(|_| AtomicBool::new(true)).collect();
    let initial = (0..n).map(|v| {
        let d = g.out_degree(v) as u32;
        (
            KcoreTask {
                node: v,
                estimate: d,
            },
            d as u64,
        )
    });
    let oracle = cfg.probes.oracle.as_deref();
    let report = for_each(sched, initial, cfg, |task, ctx| {
        let v = task.node;
        ctx.task_priority(task.estimate as u64);
        // The estimates themselves are Relaxed: what must be seen is ordered by the `queued`
        // swaps (above) or by the scheduler's hand-off of a pushed task, which releases the
        // pusher's writes to the popper; the final read follows the join in `for_each`.
        queued[v as usize].swap(false, Ordering::AcqRel);
        let mine = est[v as usize].load(Ordering::Relaxed);
        let nbrs = g.neighbors(v);
        let h = HISTOGRAM.with(|hist| {
            h_index(
                nbrs.iter()
                    .map(|&u| est[u as usize].load(Ordering::Relaxed)),
                mine,
                &mut hist.borrow_mut(),
            )
        });
        // fetch_min: another task for v may have lowered it meanwhile; keep the lower.
        if h >= mine || est[v as usize].fetch_min(h, Ordering::Relaxed) <= h {
            ctx.count(UNCHANGED, 1);
            ctx.useless();
            return;
        }
        ctx.count(LOWERED, 1);
        if oracle.is_some_and(|f| f[v as usize] != h as u64) {
            ctx.useless(); // an estimate that a later task lowers again
        }
        // A neighbour estimated above h may have counted v towards its own h-index. One
        // with a task queued and not started yet needs no second one: that task reads v's
        // new estimate (see `queued`).
        for &u in nbrs {
            let eu = est[u as usize].load(Ordering::Relaxed);
            if eu > h && !queued[u as usize].swap(true, Ordering::AcqRel) {
                let task = KcoreTask {
                    node: u,
                    estimate: eu,
                };
                ctx.push_owned(task, eu as u64, u as u64);
            }
        }
    })?;
    let stats = KcoreStats {
        lowered: report.total.app[LOWERED],
        unchanged: report.total.app[UNCHANGED],
    };
    Ok(KcoreOutput {
        core: est.into_iter().map(AtomicU32::into_inner).collect(),
        report,
        stats,
    })
}

/// The priority shift bucketing schedulers should use: about 32 buckets up to the largest
/// degree (on Slashdot at 2 threads, obim ran 264K tasks in 135 ms with it, 383K in 439 ms
/// with delta 0). Strict order is not the cheapest: a node that waits longer absorbs more of
/// its neighbours' lowerings into one recomputation.
pub fn default_delta(g: &Graph) -> u32 {
    let max_degree = (0..g.num_nodes() as u32)
        .map(|v| g.out_degree(v))
        .max()
        .unwrap_or(1);
    (max_degree.max(1) as u64).ilog2().saturating_sub(5)
}

/// Serial oracle: Batagelj-Zaversnik peeling with degree buckets.
pub fn serial_kcore(g: &Graph) -> Vec<u32> {
    let n = g.num_nodes();
    let mut deg: Vec<u32> = (0..n as u32).map(|v| g.out_degree(v) as u32).collect();
    let max = deg.iter().copied().max().unwrap_or(0) as usize;
    // Nodes sorted by degree, with the start of each degree's block.
    let mut start = vec![0usize; max + 2];
    for &d in &deg {
        start[d as usize + 1] += 1;
    }
    for d in 0..=max {
        start[d + 1] += start[d];
    }
    let mut order = vec![0u32; n];
    let mut pos = vec![0usize; n];
    let mut next = start.clone();
    for v in 0..n {
        let d = deg[v] as usize;
        pos[v] = next[d];
        order[pos[v]] = v as u32;
        next[d] += 1;
    }
    for i in 0..n {
        let v = order[i];
        for &u in g.neighbors(v) {
            let (du, dv) = (deg[u as usize], deg[v as usize]);
            if du > dv {
                // Move u to the front of its degree block, then shrink the block: u's degree
                // drops by one while the order stays sorted.
                let front = start[du as usize];
                let w = order[front];
                if w != u {
                    order.swap(front, pos[u as usize]);
                    pos[w as usize] = pos[u as usize];
                    pos[u as usize] = front;
                }
                start[du as usize] += 1;
                deg[u as usize] -= 1;
            }
        }
    }
    deg
}

/// Checks `core` against the serial oracle.
pub fn verify(g: &Graph, core: &[u32]) -> Result<(), VerifyError> {
    compare(core, &serial_kcore(g), |c| c.to_string(), |v| g.file_id(v))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn h_index_examples() {
        let mut hist = Vec::new();
        assert_eq!(h_index([3, 0, 6, 1, 5].into_iter(), 10, &mut hist), 3);
        assert_eq!(h_index([3, 0, 6, 1, 5].into_iter(), 2, &mut hist), 2);
        assert_eq!(h_index(std::iter::empty(), 0, &mut hist), 0);
        assert_eq!(h_index([1, 1, 1].into_iter(), 3, &mut hist), 1);
    }
}
