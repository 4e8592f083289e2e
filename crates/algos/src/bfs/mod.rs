//! Breadth-first search levels by prioritized relaxation (the PMOD paper, Yesil et al., SC'19,
//! §5.3): SSSP with unit weights, priority = level.
//!
//! Each task `(v, l)` relaxes v's out-edges to level `l + 1` with an atomic min; a task whose
//! level is no longer v's label is stale and skipped. Unreachable nodes get [`UNREACHED`].
//!
//! Complexity: O(n + m) with an exact or level-bucketed order (obim with delta 0 keeps levels
//! apart); relaxed orders may relabel a node more than once.
//!
//! [`direction`] is the direction-optimizing BFS on the frontier executor, the fastest method
//! (what `ordo bfs` runs by default); this priority-scheduled version is the papers'.

pub mod app;

pub mod direction;

use crate::prefetch::NodeReads;
use crate::verify::{compare, VerifyError};
use ordo_exec::{for_each, Context, ExecConfig, ExecError, RunReport};
use ordo_graph::Graph;
use ordo_sched::{Handle, Scheduler};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicU32, Ordering};

/// The level of a node the search does not reach.
pub const UNREACHED: u32 = u32::MAX;

const STALE: usize = 0;

/// "Node `node` was reached at level `level`."
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BfsTask {
    pub node: u32,
    pub level: u32,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BfsStats {
    pub stale_tasks: u64,
    pub improving_relaxations: u64,
    /// Rounds of the direction-optimizing search in each direction (0 for the priority one).
    pub top_down_steps: u64,
    pub bottom_up_steps: u64,
}

pub struct BfsOutput {
    pub level: Vec<u32>,
    pub report: RunReport,
    pub stats: BfsStats,
}

/// Lowers the level of each of `out` (nodes of `levels`) to `next` where that is lower (with
/// a CAS loop when `SHARED`, the run has several workers) and pushes a task for each it
/// lowered. Always inlined, so each caller gets its own loop.
#[inline(always)]
fn relax<H: Handle<BfsTask>, const SHARED: bool>(
    out: &[u32],
    next: u32,
    levels: &[AtomicU32],
    ctx: &mut Context<'_, BfsTask, H>,
) {
    for &t in out {
        // SAFETY: an arc's target, below n (checked when the graph was built).
        let slot = unsafe { levels.get_unchecked(t as usize) };
        let mut cur = slot.load(Ordering::Relaxed);
        while next < cur {
            if !SHARED {
                slot.store(next, Ordering::Relaxed);
            } else if let Err(actual) =
                slot.compare_exchange_weak(cur, next, Ordering::Relaxed, Ordering::Relaxed)
            {
                cur = actual;
                continue;
            }
            let task = BfsTask {
                node: t,
                level: next,
            };
            ctx.push_owned(task, next as u64, t as u64);
            break;
        }
    }
}

/// Parallel BFS from `source`.
pub fn run<S: Scheduler<BfsTask>>(
    g: &Graph,
    source: u32,
    sched: &S,
    cfg: &ExecConfig,
) -> Result<BfsOutput, ExecError> {
    assert!((source as usize) < g.num_nodes(), "source out of range");
    let level: Vec<AtomicU32> = (0..g.num_nodes())
        .map(|_| AtomicU32::new(UNREACHED))
        .collect();
    level[source as usize].store(0, Ordering::Relaxed);
    let offsets = g.offsets();
    let targets = g.targets();
    let start = BfsTask {
        node: source,
        level: 0,
    };
    let oracle = cfg.probes.oracle.as_deref();
    // One worker: no other thread writes a level meanwhile, so a plain store lowers it.
    let concurrent = cfg.concurrent();
    let levels = &level[..];
    let reads = NodeReads::new(g, levels);
    // `move`: the closure holds these slices and flags itself, one load each per task.
    let report = for_each(sched, [(start, 0)], cfg, move |task, ctx| {
        let v = task.node as usize;
        ctx.task_priority(task.level as u64);
        reads.upcoming_node(ctx, |t| t.node);
        // SAFETY (the `get_unchecked`s of this operator): `v` is the source (checked above)
        // or an arc's target, which the graph's constructor checks against n; so `v + 1`
        // indexes the n + 1 offsets, which are non-decreasing up to the arc count.
        if task.level > unsafe { levels.get_unchecked(v) }.load(Ordering::Relaxed) {
            ctx.count(STALE, 1);
            ctx.useless();
            return;
        }
        if oracle.is_some_and(|f| f[v] != task.level as u64) {
            ctx.useless(); // a level that a shorter path overwrites later
        }
        let (lo, hi) = unsafe { (*offsets.get_unchecked(v), *offsets.get_unchecked(v + 1)) };
        let out = unsafe { targets.get_unchecked(lo as usize..hi as usize) };
        match concurrent {
            true => relax::<_, true>(out, task.level + 1, levels, ctx),
            false => relax::<_, false>(out, task.level + 1, levels, ctx),
        }
    })?;
    let stats = BfsStats {
        stale_tasks: report.total.app[STALE],
        // Every lowered level pushed one task, and the source's task was pushed first.
        improving_relaxations: report.total.pushes - 1,
        ..BfsStats::default()
    };
    Ok(BfsOutput {
        level: level.into_iter().map(AtomicU32::into_inner).collect(),
        report,
        stats,
    })
}

/// Serial oracle: queue-based BFS.
pub fn serial_bfs(g: &Graph, source: u32) -> Vec<u32> {
    let mut level = vec![UNREACHED; g.num_nodes()];
    let mut queue = VecDeque::new();
    level[source as usize] = 0;
    queue.push_back(source);
    while let Some(v) = queue.pop_front() {
        let next = level[v as usize] + 1;
        for &t in g.neighbors(v) {
            if level[t as usize] == UNREACHED {
                level[t as usize] = next;
                queue.push_back(t);
            }
        }
    }
    level
}

/// Checks `level` against the serial oracle.
pub fn verify(g: &Graph, source: u32, level: &[u32]) -> Result<(), VerifyError> {
    let expected = serial_bfs(g, source);
    let show = |l: u32| {
        if l == UNREACHED {
            "inf".into()
        } else {
            l.to_string()
        }
    };
    compare(level, &expected, show, |v| g.file_id(v))
}

/// (reached nodes, sum of levels, max level).
pub fn summarize(level: &[u32]) -> (u64, u64, u32) {
    let finite = level.iter().filter(|&&l| l != UNREACHED);
    (
        finite.clone().count() as u64,
        finite.clone().map(|&l| l as u64).sum(),
        finite.copied().max().unwrap_or(0),
    )
}
