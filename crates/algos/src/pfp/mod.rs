//! Maximum flow by preflow-push (push-relabel; Goldberg and Tarjan 1988) with highest-label
//! priority and global relabelling, the `pfp` of seed 002 and of the Lonestar suite.
//!
//! Each active node (positive excess, not the source or sink) is one task at priority
//! 2n - height, so schedulers serve the highest labels first (seed 002 §1: "processing nodes
//! in decreasing height order improves work-efficiency"). A task discharges its node in the
//! lock-free manner of Hong (2008): find the lowest neighbour along a residual arc; if it is
//! lower than the node, push min(excess, residual) to it with atomic adds, else relabel the
//! node to one above it and go on (its new label is above all it had, so highest-label order
//! would serve it next: Galois' discharge goes on too; rescheduling it instead made 1.7x the
//! tasks on NY).
//!
//! **Ownership.** At most one task per node exists at any time: a push creates the task of
//! its target exactly when it raises the target's excess from zero (the `fetch_add` returns 0),
//! and a task ends exactly when its own `fetch_sub` brings the excess to zero, so a later push
//! creates the next one. Only the owner lowers its node's excess and residual capacities and
//! raises its height; others only raise them.
//!
//! **Global relabelling.** The run proceeds in rounds. A round ends (through the executor's
//! cancel flag) once relabels have done about 6n + m work (Galois' interval); the labels are
//! then recomputed exactly from the residual graph by two reverse BFS (distance to the sink,
//! else n + distance to the source), and the active nodes start the next round.
//!
//! **Two phases.** Phase 1 discharges only nodes below height n and ends with a maximum
//! preflow: the sink's excess is the flow value. Phase 2 runs the same rounds without the
//! bound, returning the remaining excess to the source, so the result is a flow.
//!
//! **Verification** ([`verify`]) needs no second algorithm: capacities and conservation hold
//! on every arc and node, and the nodes the source reaches in the residual graph form a cut
//! whose capacity equals the flow's value, which proves the flow maximum. The serial oracle
//! ([`dinic`]) gives the value independently as well.
//!
//! Capacities are the edge weights (1 on unweighted graphs); self-loops are ignored.

pub mod app;

mod dinic;
mod network;
mod relabel;

pub use dinic::dinic;
pub use network::Network;

use ordo_exec::{for_each, Context, ExecConfig, ExecError, RunReport};
use ordo_graph::Graph;
use ordo_sched::{ConfigError, Handle, Scheduler, SchedulerConfig, SchedulerVisitor};
use std::sync::atomic::{
    AtomicBool, AtomicU32, AtomicU64, Ordering::AcqRel, Ordering::Relaxed, Ordering::Release,
};
use std::sync::Arc;

/// "Discharge node `node`."
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PfpTask {
    pub node: u32,
}

#[derive(Debug, thiserror::Error)]
pub enum PfpError {
    #[error(transparent)]
    Exec(#[from] ExecError),
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error("the source and the sink are the same node ({0})")]
    SourceIsSink(u32),
}

/// What the discharges did.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PfpStats {
    pub pushes: u64,
    pub relabels: u64,
    pub global_relabels: u64,
    /// Rounds of phase 1 (to the maximum preflow) and phase 2 (to a flow).
    pub rounds: [u64; 2],
    /// Seconds to the maximum preflow, when the flow value is known.
    pub phase1_s: f64,
}

pub struct PfpOutput {
    pub flow: u64,
    /// Flow on each input arc, in the input's CSR order (0 on self-loops).
    pub arc_flow: Vec<u64>,
    /// The source side of a minimum cut.
    pub source_side: Vec<bool>,
    /// All rounds merged (time is the whole run, global relabelling included).
    pub report: RunReport,
    pub stats: PfpStats,
}

const PUSHES: usize = 0;
const RELABELS: usize = 1;

/// Galois' global relabelling interval: relabel work 6n + m, a relabel costing its degree + 12.
const ALPHA: u64 = 6;
const BETA: u64 = 12;

struct State<'n> {
    net: &'n Network,
    res: Vec<AtomicU64>,
    excess: Vec<AtomicU64>,
    height: Vec<AtomicU32>,
    s: u32,
    t: u32,
}

impl State<'_> {
    /// Highest label first; a label above 2n (a parked node's) gets the lowest priority.
    fn priority(&self, h: u32) -> u64 {
        (2 * self.net.num_nodes() as u64).saturating_sub(h as u64)
    }

    fn active(&self, bound: u32) -> Vec<(PfpTask, u64)> {
        (0..self.net.num_nodes() as u32)
            .filter(|&v| v != self.s && v != self.t)
            .filter(|&v| self.excess[v as usize].load(Relaxed) > 0)
            .filter_map(|v| {
                let h = self.height[v as usize].load(Relaxed);
                (h < bound).then(|| (PfpTask { node: v }, self.priority(h)))
            })
            .collect()
    }

    /// Discharges `u` (its owner): pushes and relabels until its excess is gone or its label
    /// reaches `bound` (left for the next phase), or until the round's budget is spent.
    fn discharge<H: Handle<PfpTask>>(
        &self,
        u: u32,
        bound: u32,
        budget: &Budget,
        ctx: &mut Context<'_, PfpTask, H>,
    ) {
        let net = self.net;
        let mut e = self.excess[u as usize].load(Relaxed);
        let mut hu = self.height[u as usize].load(Relaxed);
        loop {
            // The lowest neighbour along a residual arc.
            let mut best = None;
            let mut lowest = u32::MAX;
            for a in net.arcs(u) {
                if self.res[a].load(Relaxed) > 0 {
                    let hv = self.height[net.head[a] as usize].load(Relaxed);
                    if hv < lowest {
                        (lowest, best) = (hv, Some(a));
                    }
                }
            }
            let Some(a) = best else {
                // No residual arc out: impossible while the excess (which came in along an
                // arc whose pair is now residual) is positive; park the node.
                self.height[u as usize].store(u32::MAX, Relaxed);
                return;
            };
            if hu > lowest {
                let v = net.head[a];
                let d = e.min(self.res[a].load(Relaxed));
                self.res[a].fetch_sub(d, Relaxed);
                self.res[net.rev[a]].fetch_add(d, Relaxed);
                ctx.count(PUSHES, 1);
                // Acquire: when this raises v's excess from zero, the task it creates (handed over
                // through the scheduler) must see the last writes of v's previous owner, which
                // released them with its final fetch_sub below.
                if v != self.s && self.excess[v as usize].fetch_add(d, AcqRel) == 0 && v != self.t {
                    let hv = self.height[v as usize].load(Relaxed);
                    if hv < bound {
                        ctx.push(PfpTask { node: v }, self.priority(hv));
                    }
                }
                // Release: if this empties u, the next owner must see u's residuals as left.
                let before = self.excess[u as usize].fetch_sub(d, Release);
                e = before - d;
                if e == 0 {
                    return;
                }
                continue;
            }
            let h = lowest.saturating_add(1);
            self.height[u as usize].store(h, Relaxed);
            ctx.count(RELABELS, 1);
            let round_over = budget.spend(net.arcs(u).len() as u64 + BETA);
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
struct Budget {
    spent: AtomicU64,
    limit: u64,
    /// The round's cancel flag. Relaxed: the executor polls it between tasks, and nothing
    /// written before it needs to be seen through it (the round's end joins the workers).
    stop: Arc<AtomicBool>,
    /// The user's cancel flag (Ctrl-C), which ends the round early like a spent budget.
    user: Option<Arc<AtomicBool>>,
}

impl Budget {
    /// Spends `cost`; returns whether the round is over (budget spent or Ctrl-C).
    fn spend(&self, cost: u64) -> bool {
        let spent = self.spent.fetch_add(cost, Relaxed) + cost >= self.limit;
        if spent || self.user.as_ref().is_some_and(|c| c.load(Relaxed)) {
            self.stop.store(true, Relaxed);
            return true;
        }
        false
    }
}

struct Round<'a, 'n> {
    state: &'a State<'n>,
    initial: Vec<(PfpTask, u64)>,
    bound: u32,
    work_limit: u64,
    cfg: ExecConfig,
}

impl SchedulerVisitor<PfpTask> for Round<'_, '_> {
    /// The round's report, whether it drained its tasks or spent its budget: either way a
    /// global relabel and the remaining active nodes come next.
    type Output = Result<RunReport, ExecError>;
    fn visit<S: Scheduler<PfpTask>>(self, sched: &S) -> Self::Output {
        let budget = Budget {
            spent: AtomicU64::new(0),
            limit: self.work_limit,
            stop: Arc::new(AtomicBool::new(false)),
            user: self.cfg.cancel.clone(),
        };
        let mut cfg = self.cfg;
        // The round's own stop flag, raised by the budget (which also watches the user's
        // cancel flag); a cancelled run ends between rounds.
        cfg.cancel = Some(budget.stop.clone());
        let (state, bound) = (self.state, self.bound);
        match for_each(sched, self.initial, &cfg, |task, ctx| {
            state.discharge(task.node, bound, &budget, ctx)
        }) {
            Ok(r) => Ok(r),
            Err(ExecError::Cancelled(r)) => Ok(*r),
            Err(e) => Err(e),
        }
    }
}

/// The bucket width (log2) that obim and `auto` use for pfp: about n / 128 heights per bucket.
/// Strict highest-label order is slow without a gap heuristic when a small cut strands most
/// of the excess (measured on osm-rome: delta 0 does 15x the tasks of delta 10); coarse
/// buckets keep it highest-label-first between buckets and FIFO-like within.
pub fn default_delta(g: &Graph) -> u32 {
    (usize::BITS - 1 - g.num_nodes().max(1).leading_zeros()).saturating_sub(7)
}

/// The maximum flow from `s` to `t` on a fresh scheduler from `sched` per round.
///
/// ```
/// use ordo_algos::pfp;
/// use ordo_exec::ExecConfig;
/// use ordo_graph::{gen, BuildOptions};
/// use ordo_sched::SchedulerConfig;
/// let g = gen::road_grid(12, 12, 5, &BuildOptions::default()).unwrap();
/// let sched = SchedulerConfig::parse("obim", &[]).unwrap();
/// let out = pfp::run(&g, 0, 143, &sched, &ExecConfig::new(2)).unwrap();
/// pfp::verify(&g, 0, 143, &out).unwrap();
/// assert_eq!(out.flow, pfp::dinic(&pfp::Network::new(&g), 0, 143));
/// ```
pub fn run(
    g: &Graph,
    s: u32,
    t: u32,
    sched: &SchedulerConfig,
    cfg: &ExecConfig,
) -> Result<PfpOutput, PfpError> {
    let n = g.num_nodes();
    assert!(
        (s as usize) < n && (t as usize) < n,
        "source or sink out of range"
    );
    if s == t {
        return Err(PfpError::SourceIsSink(s));
    }
    let net = Network::new(g);
    let state = State {
        net: &net,
        res: net.cap.iter().map(|&c| AtomicU64::new(c)).collect(),
        excess: (0..n).map(|_| AtomicU64::new(0)).collect(),
        height: (0..n).map(|_| AtomicU32::new(0)).collect(),
        s,
        t,
    };
    let start = std::time::Instant::now();
    // Saturate the source's arcs (before any worker exists; Relaxed is enough).
    for a in net.arcs(s) {
        let c = state.res[a].swap(0, Relaxed);
        state.res[net.rev[a]].fetch_add(c, Relaxed);
        let v = net.head[a] as usize;
        if v != s as usize {
            state.excess[v].fetch_add(c, Relaxed);
        }
    }
    let relabeller = relabel::Relabeller::new(n, cfg.threads);
    let mut report = RunReport::default();
    let mut stats = PfpStats::default();
    let work_limit = ALPHA * n as u64 + net.head.len() as u64 / 2;
    let n32 = n as u32;
    for (phase, bound) in [(0, n32), (1, u32::MAX)] {
        loop {
            if cfg.cancel.as_ref().is_some_and(|c| c.load(Relaxed)) {
                report.time = start.elapsed();
                report.threads = cfg.threads;
                return Err(ExecError::Cancelled(Box::new(report)).into());
            }
            // Exact labels; in phase 1 every node that cannot reach the sink gets n, which is
            // all phase 1 needs to know about it, at half the cost.
            relabeller.relabel(&state, phase == 1, cfg)?;
            stats.global_relabels += 1;
            let initial = state.active(bound);
            if initial.is_empty() {
                break;
            }
            stats.rounds[phase] += 1;
            let round = Round {
                state: &state,
                initial,
                bound,
                work_limit,
                cfg: cfg.clone(),
            };
            // The loop ends when a global relabel leaves no active node below the bound.
            report.absorb(sched.with(cfg.threads, &cfg.topology, round)??);
        }
        if phase == 0 {
            stats.phase1_s = start.elapsed().as_secs_f64();
        }
    }
    report.time = start.elapsed();
    stats.pushes = report.total.app[PUSHES];
    stats.relabels = report.total.app[RELABELS];
    let res = |a: usize| state.res[a].load(Relaxed);
    let arc_flow = net.input_flows(g, res);
    Ok(PfpOutput {
        flow: state.excess[t as usize].load(Relaxed),
        arc_flow,
        source_side: net.source_side(s, res),
        report,
        stats,
    })
}

/// Checks `out` on `g` from first principles: every arc's flow within its capacity,
/// conservation at every node but `s` and `t`, the value leaving `s` and reaching `t`, and a
/// cut (`out.source_side`, containing s and not t) whose capacity equals the value.
pub fn verify(g: &Graph, s: u32, t: u32, out: &PfpOutput) -> Result<(), String> {
    let n = g.num_nodes();
    if out.arc_flow.len() != g.num_edges() || out.source_side.len() != n {
        return Err("the output does not match the graph's size".into());
    }
    let mut net_out = vec![0i128; n];
    let mut cut = 0u64;
    let mut i = 0;
    for u in 0..n as u32 {
        for (v, w) in g.out_edges(u) {
            let f = out.arc_flow[i];
            i += 1;
            if u == v {
                continue;
            }
            if f > w as u64 {
                return Err(format!(
                    "arc {} -> {} carries {f} over its capacity {w}",
                    g.file_id(u),
                    g.file_id(v)
                ));
            }
            net_out[u as usize] += f as i128;
            net_out[v as usize] -= f as i128;
            if out.source_side[u as usize] && !out.source_side[v as usize] {
                cut += w as u64;
            }
        }
    }
    if let Some(v) = (0..n).find(|&v| v != s as usize && v != t as usize && net_out[v] != 0) {
        return Err(format!(
            "flow is not conserved at node {}: {} more leaves than enters",
            g.file_id(v as u32),
            net_out[v]
        ));
    }
    let value = out.flow as i128;
    if net_out[s as usize] != value || net_out[t as usize] != -value {
        return Err(format!(
            "the source sends {} and the sink receives {}, the flow claims {value}",
            net_out[s as usize], -net_out[t as usize]
        ));
    }
    if !out.source_side[s as usize] || out.source_side[t as usize] {
        return Err("the cut does not separate the source from the sink".into());
    }
    if cut as i128 != value {
        return Err(format!(
            "the residual cut has capacity {cut}, the flow {value}: not a maximum flow"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests;
