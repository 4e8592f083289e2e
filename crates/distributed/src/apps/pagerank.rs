//! PageRank by residual pushing, as `ordo pagerank` computes it (same definition and
//! threshold; see `ordo_algos::pagerank`): a task takes its node's residual, keeps it,
//! and gives `α r / outdeg` to each out-neighbour; a share for a node on another rank travels
//! as a record (target, share) and is added there, which schedules a local task when it
//! lifts the residual over the threshold. Scores are normalized with a global sum.

use crate::combine::Fold;
use crate::graph::LocalGraph;
use crate::mail::Post;
use crate::runtime::DistApp;
use crate::wire::Reader;
use ordo_algos::pagerank::{self, AtomicF64, PriorityKind, DAMPING};
use ordo_exec::Context;
use ordo_sched::Handle;

const EMPTY_TAKES: usize = 0;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PrTask {
    pub node: u32,
}

pub struct PageRank<'g> {
    g: &'g LocalGraph,
    eps: f64,
    pub x: Vec<AtomicF64>,
    pub r: Vec<AtomicF64>,
}

/// PR priority (the PMOD paper, Yesil et al., SC'19): larger residuals first, the whole part
/// of residual / ε. Not divided by the node's arcs as `ordo pagerank` divides it: a rank has
/// its nodes' out-arcs at hand, not their in-arcs.
fn priority(residual: f64, eps: f64) -> u64 {
    pagerank::priority(residual, eps, 1, PriorityKind::Pr)
}

impl<'g> PageRank<'g> {
    pub fn new(g: &'g LocalGraph, tolerance: f64) -> Self {
        let eps = pagerank::threshold(g.num_nodes() as usize, tolerance);
        let start = 1.0 - DAMPING;
        PageRank {
            g,
            eps,
            x: (0..g.local_nodes()).map(|_| AtomicF64::new(0.0)).collect(),
            r: (0..g.local_nodes())
                .map(|_| AtomicF64::new(start))
                .collect(),
        }
    }

    pub fn initial(&self) -> Vec<(PrTask, u64)> {
        let start = 1.0 - DAMPING;
        if start < self.eps {
            return Vec::new();
        }
        (0..self.g.local_nodes())
            .map(|l| (PrTask { node: l }, priority(start, self.eps)))
            .collect()
    }

    pub fn empty_takes(report: &ordo_exec::RunReport) -> u64 {
        report.total.app[EMPTY_TAKES]
    }

    #[inline]
    fn add(&self, l: u32, share: f64, push: &mut impl FnMut(PrTask, u64)) {
        let before = self.r[l as usize].add(share);
        if before < self.eps && before + share >= self.eps {
            push(PrTask { node: l }, priority(before + share, self.eps));
        }
    }
}

impl DistApp for PageRank<'_> {
    type Task = PrTask;

    fn run_task<H: Handle<PrTask>>(
        &self,
        task: PrTask,
        ctx: &mut Context<'_, PrTask, H>,
        mail: &Post<'_>,
    ) {
        let g = self.g;
        let mass = self.r[task.node as usize].take();
        if mass == 0.0 {
            ctx.count(EMPTY_TAKES, 1);
            return;
        }
        self.x[task.node as usize].add(mass);
        let targets = g.neighbors(task.node);
        if targets.is_empty() {
            return; // dangling: its share only rescales the result
        }
        let share = DAMPING * mass / targets.len() as f64;
        let mut out = mail.sender(ctx.worker());
        for &t in targets {
            let owner = g.part.owner(t);
            if owner == g.rank {
                self.add(g.part.local(t), share, &mut |task, p| ctx.push(task, p));
            } else {
                out.send_keyed(owner, t, share.to_bits(), Fold::SumF64);
            }
        }
    }

    fn deliver(&self, bytes: &[u8], _worker: usize, push: &mut dyn FnMut(PrTask, u64)) -> u64 {
        let mut r = Reader::new(bytes);
        let mut records = 0;
        while !r.is_empty() {
            records += 1;
            let (t, share) = (r.u32(), f64::from_bits(r.u64()));
            self.add(self.g.part.local(t), share, &mut |task, p| push(task, p));
        }
        records
    }
}
