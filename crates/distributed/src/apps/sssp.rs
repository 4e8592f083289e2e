//! Single-source shortest paths (and BFS, its unit-weight case) by asynchronous relaxation:
//! a task (v, d) relaxes v's arcs; a shorter distance for a node on another rank travels as
//! a record (target, distance) and is applied there with an atomic minimum, which pushes a
//! local task when it improves. Same labels as `ordo sssp` / `ordo bfs` on one machine.

// Relaxation is ordo's own (`DistLabel::lower`): a relaxation that improves nothing, most of
// them, reads the label and never writes it.
use crate::combine::Fold;
use crate::graph::LocalGraph;
use crate::mail::Post;
use crate::runtime::DistApp;
use crate::wire::Reader;
use ordo_algos::distance::DistLabel;
use ordo_exec::Context;
use ordo_sched::Handle;
use std::sync::atomic::{AtomicU64, Ordering};

pub const UNREACHABLE: u64 = u64::MAX;

const STALE: usize = 0;
const IMPROVED: usize = 1;
const EDGES: usize = 2;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PathTask {
    /// Local node index.
    pub node: u32,
    pub dist: u64,
}

pub struct Paths<'g> {
    g: &'g LocalGraph,
    /// Every arc weighs 1 (BFS).
    unit: bool,
    pub dist: Vec<AtomicU64>,
}

impl<'g> Paths<'g> {
    pub fn new(g: &'g LocalGraph, unit: bool) -> Self {
        Paths {
            g,
            unit,
            dist: (0..g.local_nodes())
                .map(|_| AtomicU64::new(UNREACHABLE))
                .collect(),
        }
    }

    /// The initial task: the source's, on its owner only.
    pub fn start(&self, source: u32) -> Vec<(PathTask, u64)> {
        let part = &self.g.part;
        if part.owner(source) != self.g.rank {
            return Vec::new();
        }
        let l = part.local(source);
        self.dist[l as usize].store(0, Ordering::Relaxed);
        vec![(PathTask { node: l, dist: 0 }, 0)]
    }

    pub fn counters(report: &ordo_exec::RunReport) -> (u64, u64, u64) {
        let a = &report.total.app;
        (a[STALE], a[IMPROVED], a[EDGES])
    }

    pub fn into_dist(self) -> Vec<u64> {
        self.dist.into_iter().map(AtomicU64::into_inner).collect()
    }
}

impl DistApp for Paths<'_> {
    type Task = PathTask;

    #[inline]
    fn run_task<H: Handle<PathTask>>(
        &self,
        task: PathTask,
        ctx: &mut Context<'_, PathTask, H>,
        mail: &Post<'_>,
    ) {
        let g = self.g;
        if task.dist > self.dist[task.node as usize].load(Ordering::Relaxed) {
            ctx.count(STALE, 1);
            return;
        }
        let me = g.rank;
        let mut out = mail.sender(ctx.worker());
        let arcs = g.arcs(task.node);
        let mut improved = 0;
        for e in arcs.clone() {
            let t = g.targets[e];
            let w = if self.unit {
                1
            } else {
                g.weights.as_ref().map_or(1, |w| w[e]) as u64
            };
            let nd = task.dist + w;
            let owner = g.part.owner(t);
            if owner == me {
                let lt = g.part.local(t);
                if self.dist[lt as usize].lower(nd) {
                    improved += 1;
                    ctx.push(PathTask { node: lt, dist: nd }, nd);
                }
            } else {
                out.send_keyed(owner, t, nd, Fold::MinU64);
            }
        }
        ctx.count(IMPROVED, improved);
        ctx.count(EDGES, arcs.len() as u64);
    }

    fn deliver(&self, bytes: &[u8], _worker: usize, push: &mut dyn FnMut(PathTask, u64)) -> u64 {
        let mut r = Reader::new(bytes);
        let mut records = 0;
        while !r.is_empty() {
            records += 1;
            let (t, d) = (r.u32(), r.u64());
            let lt = self.g.part.local(t);
            if self.dist[lt as usize].lower(d) {
                push(PathTask { node: lt, dist: d }, d);
            }
        }
        records
    }
}
