//! Discharging one node: the run's state (residuals, excesses, labels and the gap
//! heuristic's level counts) and the push-relabel operator the scheduler's tasks run, with
//! the relabel budget that ends a round for a global relabel.

use super::network::Network;
use super::word::Word;
use ordo_exec::malloc::prefaulted;
use ordo_exec::Context;
use ordo_sched::Handle;
use std::sync::atomic::{
    AtomicBool, AtomicU32, AtomicU64, Ordering::AcqRel, Ordering::Relaxed, Ordering::Release,
};
use std::sync::Arc;

/// "Discharge node `node`."
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PfpTask {
    pub node: u32,
}

pub(super) const PUSHES: usize = 0;
pub(super) const RELABELS: usize = 1;
pub(super) const GAPS: usize = 2;

/// The fewest nodes a gap must cut off to end a round for a global relabel, as a fraction
/// of n. The relabel scans every node and arc; a sixteenth of the nodes, each of which would
/// otherwise climb to n one relabel (at least [`BETA`] work) at a time while it holds excess,
/// is worth it. The count also keeps a node that climbs alone above the others (its own gap
/// at every step) from relabelling the graph each time.
fn gap_nodes(n: usize) -> usize {
    (n / 16).max(1)
}

/// Galois' global relabelling interval: relabel work 6n + m, a relabel costing its degree + 12.
pub(super) const ALPHA: u64 = 6;
pub(super) const BETA: u64 = 12;

/// The run's state, residuals and excesses in words of type `W` (32 or 64 bits, `word.rs`).
pub(super) struct State<'n, W> {
    pub(super) net: &'n Network<'n>,
    pub(super) res: Vec<W>,
    pub(super) excess: Vec<W>,
    pub(super) height: Vec<AtomicU32>,
    /// Phase 1: how many nodes hold each label below n (the gap heuristic's counts), as the
    /// last global relabel left them and the relabels since moved them.
    pub(super) levels: Vec<AtomicU32>,
    /// Phase 1: the highest label below n given out; every level above it is empty.
    pub(super) top: AtomicU32,
    pub(super) s: u32,
    pub(super) t: u32,
}

impl<'n, W: Word> State<'n, W> {
    /// Residual capacities `res`, every node at label 0 with no excess.
    pub(super) fn new(net: &'n Network<'n>, res: Vec<W>, s: u32, t: u32) -> Self {
        let n = net.num_nodes();
        // Written here rather than taken zeroed from the allocator: the first round reads
        // every node's excess and label, and untouched zero pages would fault inside the
        // timed run (`prefaulted`).
        State {
            net,
            res,
            excess: prefaulted(n, || W::new(0)),
            height: prefaulted(n, || AtomicU32::new(0)),
            levels: prefaulted(n, || AtomicU32::new(0)),
            top: AtomicU32::new(0),
            s,
            t,
        }
    }

    /// The residual capacities; the node arrays are freed.
    pub(super) fn into_residuals(self) -> Vec<W> {
        self.res
    }

    /// Highest label first; a label above 2n (a parked node's) gets the lowest priority.
    pub(super) fn priority(&self, h: u32) -> u64 {
        (2 * self.net.num_nodes() as u64).saturating_sub(h as u64)
    }

    pub(super) fn active(&self, bound: u32) -> Vec<(PfpTask, u64)> {
        (0..self.net.num_nodes() as u32)
            .filter(|&v| v != self.s && v != self.t)
            .filter(|&v| self.excess[v as usize].read(Relaxed) > 0)
            .filter_map(|v| {
                let h = self.height[v as usize].load(Relaxed);
                (h < bound).then(|| (PfpTask { node: v }, self.priority(h)))
            })
            .collect()
    }

    /// Phase 1's count of a relabel from `from` (below n) to `to`; returns whether it left a
    /// gap under at least [`gap_nodes`] nodes: an empty level `from` below nodes at
    /// higher labels under n. Those nodes cannot reach the sink (a residual arc descends at
    /// most one label), so phase 1 is done with them; the next global relabel finds that out
    /// and gives them n (Cherkassky and Goldberg's gap relabelling, through the exact labels
    /// rather than a lift of each node, which only a node's owner may raise).
    ///
    /// Relaxed throughout, and a relabel elsewhere may be half counted: the counts only
    /// decide when to relabel globally, never a label.
    pub(super) fn move_level(&self, from: u32, to: u32) -> bool {
        let n = self.net.num_nodes();
        if (to as usize) < n {
            self.levels[to as usize].fetch_add(1, Relaxed);
            // A read first: most relabels stay below the top, and an unconditional
            // read-modify-write would take the shared line from every other worker.
            if to > self.top.load(Relaxed) {
                self.top.fetch_max(to, Relaxed);
            }
        }
        if self.levels[from as usize].fetch_sub(1, Relaxed) != 1 {
            return false;
        }
        let (top, wanted) = (self.top.load(Relaxed) as usize, gap_nodes(n));
        let mut above = 0;
        for level in &self.levels[from as usize + 1..=top.max(from as usize)] {
            above += level.load(Relaxed) as usize;
            if above >= wanted {
                return true;
            }
        }
        false
    }

    /// Discharges `u` (its owner): pushes and relabels until its excess is gone or its label
    /// reaches `bound` (left for the next phase), or until the round's budget is spent.
    pub(super) fn discharge<H: Handle<PfpTask>>(
        &self,
        u: u32,
        bound: u32,
        budget: &Budget,
        ctx: &mut Context<'_, PfpTask, H>,
    ) {
        let net = self.net;
        // Slices taken once: the network's arrays may be borrowed or owned (`Cow`), and the
        // deref would otherwise test which on every arc.
        let rows = net.rows();
        let head = rows.head;
        // Phase 1 (labels bounded by n) keeps the level counts.
        let gaps = bound as usize <= net.num_nodes();
        let mut e = self.excess[u as usize].read(Relaxed);
        let mut hu = self.height[u as usize].load(Relaxed);
        loop {
            // The lowest neighbour along a residual arc.
            let mut best = None;
            let mut lowest = u32::MAX;
            for a in rows.arcs(u) {
                if self.res[a].read(Relaxed) > 0 {
                    let hv = self.height[head[a] as usize].load(Relaxed);
                    if hv < lowest {
                        (lowest, best) = (hv, Some(a));
                    }
                }
            }
            let Some(a) = best else {
                // No residual arc out: impossible while the excess (which came in along an
                // arc whose pair is now residual) is positive; park the node.
                self.height[u as usize].store(u32::MAX, Relaxed);
                if gaps {
                    self.move_level(hu, u32::MAX);
                }
                return;
            };
            if hu > lowest {
                let v = head[a];
                let d = e.min(self.res[a].read(Relaxed));
                self.res[a].sub(d, Relaxed);
                self.res[rows.reverse(a, u, v)].add(d, Relaxed);
                ctx.count(PUSHES, 1);
                // Acquire: when this raises v's excess from zero, the task it creates (handed over
                // through the scheduler) must see the last writes of v's previous owner, which
                // released them with its final fetch_sub below.
                if v != self.s && self.excess[v as usize].add(d, AcqRel) == 0 && v != self.t {
                    let hv = self.height[v as usize].load(Relaxed);
                    if hv < bound {
                        ctx.push(PfpTask { node: v }, self.priority(hv));
                    }
                }
                // Release: if this empties u, the next owner must see u's residuals as left.
                let before = self.excess[u as usize].sub(d, Release);
                e = before - d;
                if e == 0 {
                    return;
                }
                continue;
            }
            let h = lowest.saturating_add(1);
            self.height[u as usize].store(h, Relaxed);
            ctx.count(RELABELS, 1);
            let mut round_over = budget.spend(net.arcs(u).len() as u64 + BETA);
            if gaps && self.move_level(hu, h) {
                ctx.count(GAPS, 1);
                budget.end_round();
                round_over = true;
            }
            if h >= bound {
                return;
            }
            // A relabel raises u above every label it had, so highest-label order would serve
            // u next anyway: go on pushing (as Galois' discharge does) instead of rescheduling
            // it, unless the round's budget is spent (its tasks are then dropped and a global
            // relabel finds u active again).
            if round_over {
                ctx.push(PfpTask { node: u }, self.priority(h));
                return;
            }
            hu = h;
        }
    }
}

/// A round's allowance of relabel work; spent, it stops the round for a global relabel.
pub(super) struct Budget {
    pub(super) spent: AtomicU64,
    pub(super) limit: u64,
    /// The round's cancel flag. Relaxed: the executor polls it between tasks, and nothing
    /// written before it needs to be seen through it (the round's end joins the workers).
    pub(super) stop: Arc<AtomicBool>,
    /// The user's cancel flag (Ctrl-C), which ends the round early like a spent budget.
    pub(super) user: Option<Arc<AtomicBool>>,
}

impl Budget {
    /// Ends the round before its budget is spent (a gap was found).
    pub(super) fn end_round(&self) {
        self.stop.store(true, Relaxed);
    }

    /// Spends `cost`; returns whether the round is over (budget spent or Ctrl-C).
    pub(super) fn spend(&self, cost: u64) -> bool {
        let spent = self.spent.fetch_add(cost, Relaxed) + cost >= self.limit;
        if spent || self.user.as_ref().is_some_and(|c| c.load(Relaxed)) {
            self.stop.store(true, Relaxed);
            return true;
        }
        false
    }
}
