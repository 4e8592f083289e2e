//! Connected components by prioritized min-label propagation.
//!
//! Every node starts labelled with its own index. A task `(v, l)` says "v now carries label l":
//! if l is still v's label, offer l to every neighbour with an atomic min and schedule each
//! neighbour that took it at priority l. Smaller labels run first, so with an exact order the
//! smallest label floods its whole component before a larger one moves and every node changes
//! label at most once; relaxed orders may relabel a node a few times (counted as stale tasks).
//! At the end every node carries the smallest node index of its component, a canonical label
//! that the serial union-find oracle reproduces exactly.
//!
//! Input: an undirected graph (both arcs stored); for a directed input run it on
//! [`ordo_graph::undirected_simple`] to get weakly connected components.
//! Complexity: O(n + m) label offers with an exact order.
//!
//! [`afforest`] is Afforest on the frontier executor, the fastest method (what `ordo cc` runs
//! by default); this priority-scheduled version is the papers'.

pub mod app;

pub mod afforest;

use crate::prefetch::NodeReads;
use crate::union_find::UnionFind;
use crate::verify::{compare, VerifyError};
use ordo_exec::{for_each, ExecConfig, ExecError, RunReport};
use ordo_graph::Graph;
use ordo_sched::Scheduler;
use std::sync::atomic::{AtomicU32, Ordering};

const STALE: usize = 0;
const RELABELS: usize = 1;

/// "Node `node` now carries label `label`."
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CcTask {
    pub node: u32,
    pub label: u32,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CcStats {
    /// Tasks skipped because their node had since taken a smaller label.
    pub stale_tasks: u64,
    /// Label changes (each pushed a task).
    pub relabels: u64,
}

pub struct CcOutput {
    /// The smallest node index of each node's component.
    pub label: Vec<u32>,
    pub report: RunReport,
    pub stats: CcStats,
}

/// Parallel components of the undirected graph `g`.
///
/// ```
/// use ordo_graph::{gen, BuildOptions};
/// use ordo_exec::ExecConfig;
/// use ordo_sched::obim::{Obim, ObimConfig};
/// let g = gen::road_grid(20, 20, 1, &BuildOptions::default()).unwrap();
/// let cfg = ExecConfig::new(2);
/// let sched = Obim::new(&ObimConfig::default(), 2, &cfg.topology);
/// let out = ordo_algos::cc::run(&g, &sched, &cfg).unwrap();
/// assert_eq!(ordo_algos::cc::count(&out.label), 1);
/// ordo_algos::cc::verify(&g, &out.label).unwrap();
/// ```
pub fn run<S: Scheduler<CcTask>>(
    g: &Graph,
    sched: &S,
    cfg: &ExecConfig,
) -> Result<CcOutput, ExecError> {
    let n = g.num_nodes() as u32;
    let label: Vec<AtomicU32> = (0..n).map(AtomicU32::new).collect();
    // Only a node with a larger-labelled neighbour has anything to offer at the start.
    let initial = (0..n)
        .filter(|&v| g.neighbors(v).iter().any(|&t| t > v))
        .map(|v| (CcTask { node: v, label: v }, v as u64));
    // Relaxed throughout: a label is one word that carries no other data, each task carries its
    // label by value, and the final read happens after `for_each` joins the workers. A stale
    // read only makes a task skip (it meets a label that is already smaller) or offer a label
    // that `fetch_min` then refuses.
    let oracle = cfg.probes.oracle.as_deref();
    let reads = NodeReads::new(g, &label);
    let report = for_each(sched, initial, cfg, |task, ctx| {
        let v = task.node;
        ctx.task_priority(task.label as u64);
        reads.upcoming_node(ctx, |t| t.node);
        if task.label > label[v as usize].load(Ordering::Relaxed) {
            ctx.count(STALE, 1);
            ctx.useless();
            return;
        }
        if oracle.is_some_and(|f| f[v as usize] != task.label as u64) {
            ctx.useless(); // a label that a smaller one overwrites later
        }
        let mut relabels = 0;
        for &t in g.neighbors(v) {
            let slot = &label[t as usize];
            // fetch_min: one atomic; the old value says whether t took the label.
            if slot.fetch_min(task.label, Ordering::Relaxed) > task.label {
                relabels += 1;
                ctx.push_owned(
                    CcTask {
                        node: t,
                        label: task.label,
                    },
                    task.label as u64,
                    t as u64,
                );
            }
        }
        ctx.count(RELABELS, relabels);
    })?;
    let stats = CcStats {
        stale_tasks: report.total.app[STALE],
        relabels: report.total.app[RELABELS],
    };
    Ok(CcOutput {
        label: label.into_iter().map(AtomicU32::into_inner).collect(),
        report,
        stats,
    })
}

/// Serial oracle: union-find (union by size, path halving), then the smallest index of each
/// set as its label.
pub fn serial_cc(g: &Graph) -> Vec<u32> {
    let n = g.num_nodes();
    let mut sets = UnionFind::new(n);
    for v in 0..n as u32 {
        for &t in g.neighbors(v) {
            sets.union(v, t);
        }
    }
    let mut smallest = vec![u32::MAX; n];
    for v in 0..n as u32 {
        let r = sets.find(v) as usize;
        smallest[r] = smallest[r].min(v);
    }
    (0..n as u32)
        .map(|v| smallest[sets.find(v) as usize])
        .collect()
}

/// The priority shift bucketing schedulers should use: labels are node indices, so about 256
/// buckets over `0..n` (measured on Slashdot and Enron: obim with delta 0 was 10x slower than
/// with this shift, one bag per label costing more than the few extra relabels coarse buckets
/// allow).
pub fn default_delta(g: &Graph) -> u32 {
    delta_for(g.num_nodes() as u64)
}

/// [`default_delta`] from the node count alone.
pub fn delta_for(nodes: u64) -> u32 {
    nodes.max(1).ilog2().saturating_sub(8)
}

/// Checks `label` against the serial oracle.
pub fn verify(g: &Graph, label: &[u32]) -> Result<(), VerifyError> {
    compare(label, &serial_cc(g), |l| l.to_string(), |v| g.file_id(v))
}

/// The number of components (nodes that are their own label).
pub fn count(label: &[u32]) -> u64 {
    label
        .iter()
        .enumerate()
        .filter(|&(v, &l)| v as u32 == l)
        .count() as u64
}

/// The size of the largest component.
pub fn largest(label: &[u32]) -> u64 {
    let mut size = vec![0u64; label.len()];
    for &l in label {
        size[l as usize] += 1;
    }
    size.into_iter().max().unwrap_or(0)
}
