//! Connected components by minimum-label propagation on the undirected simple graph: every
//! node starts with its own global id; a lower label reaching a node is taken with an atomic
//! minimum and propagated. The final label of a node is the smallest id in its component,
//! as `ordo cc` labels them.

use super::lower_u32;
use crate::combine::Fold;
use crate::graph::LocalGraph;
use crate::mail::Post;
use crate::runtime::DistApp;
use crate::wire::Reader;
use ordo_exec::Context;
use ordo_sched::Handle;
use std::sync::atomic::{AtomicU32, Ordering};

const STALE: usize = 0;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CcTask {
    pub node: u32,
    pub label: u32,
}

pub struct Cc<'g> {
    g: &'g LocalGraph,
    pub label: Vec<AtomicU32>,
}

impl<'g> Cc<'g> {
    pub fn new(g: &'g LocalGraph) -> Self {
        Cc {
            g,
            label: (0..g.local_nodes())
                .map(|l| AtomicU32::new(g.global(l)))
                .collect(),
        }
    }

    /// Every node with a neighbour of a smaller id starts a task (the others only receive).
    pub fn initial(&self) -> Vec<(CcTask, u64)> {
        (0..self.g.local_nodes())
            .filter(|&l| {
                let v = self.g.global(l);
                self.g.neighbors(l).iter().any(|&t| t > v)
            })
            .map(|l| {
                let v = self.g.global(l);
                (CcTask { node: l, label: v }, v as u64)
            })
            .collect()
    }

    pub fn stale(report: &ordo_exec::RunReport) -> u64 {
        report.total.app[STALE]
    }

    pub fn into_labels(self) -> Vec<u32> {
        self.label.into_iter().map(AtomicU32::into_inner).collect()
    }
}

impl DistApp for Cc<'_> {
    type Task = CcTask;

    #[inline]
    fn run_task<H: Handle<CcTask>>(
        &self,
        task: CcTask,
        ctx: &mut Context<'_, CcTask, H>,
        mail: &Post<'_>,
    ) {
        let g = self.g;
        if task.label > self.label[task.node as usize].load(Ordering::Relaxed) {
            ctx.count(STALE, 1);
            return;
        }
        let me = g.rank;
        let mut out = mail.sender(ctx.worker());
        for &t in g.neighbors(task.node) {
            if t <= task.label {
                continue; // t's label is at most t: it cannot improve
            }
            let owner = g.part.owner(t);
            if owner == me {
                let lt = g.part.local(t);
                if lower_u32(&self.label[lt as usize], task.label) {
                    ctx.push(
                        CcTask {
                            node: lt,
                            label: task.label,
                        },
                        task.label as u64,
                    );
                }
            } else {
                out.send_keyed(owner, t, task.label as u64, Fold::MinU32);
            }
        }
    }

    fn deliver(&self, bytes: &[u8], _worker: usize, push: &mut dyn FnMut(CcTask, u64)) -> u64 {
        let mut r = Reader::new(bytes);
        let mut records = 0;
        while !r.is_empty() {
            records += 1;
            let (t, label) = (r.u32(), r.u32());
            let lt = self.g.part.local(t);
            if lower_u32(&self.label[lt as usize], label) {
                push(CcTask { node: lt, label }, label as u64);
            }
        }
        records
    }
}
