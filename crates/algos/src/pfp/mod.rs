//! Maximum flow by preflow-push (push-relabel; Goldberg and Tarjan 1988) with highest-label
//! priority and global relabelling, the `pfp` of the obim paper (Lenharth, Nguyen, Pingali,
//! Euro-Par'15) and of the Lonestar suite.
//!
//! Each active node (positive excess, not the source or sink) is one task at priority
//! 2n - height, so schedulers serve the highest labels first (the obim paper's §1: "processing
//! nodes in decreasing height order improves work-efficiency"), in buckets of 2^delta labels;
//! the default delta puts every label in one bucket, FIFO order ([`default_delta`]). A task
//! discharges its node in the lock-free manner of Hong (2008): find the lowest neighbour along
//! a residual arc; if it is lower than the node, push min(excess, residual) to it with atomic
//! adds, else relabel the node to one above it and go on (its new label is above all it had,
//! so highest-label order would serve it next: Galois' discharge goes on too; rescheduling it
//! instead makes 1.7x the tasks on NY).
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
//! preflow: the sink's excess is the flow value, and the nodes that cannot reach the sink in
//! the residual graph are the source side of a minimum cut. That is all a maximum flow's
//! value and cut need, and all Galois' preflowpush computes. Phase 2 ([`Goal::Flow`]) runs
//! the same rounds without the bound, returning the remaining excess to the source, so the
//! result is a flow (conserved at every node).
//!
//! **Gaps.** In phase 1 the nodes at each label below n are counted. A relabel that empties
//! its old level while many nodes sit above it ends the round: those nodes cannot reach the
//! sink, and the global relabel that follows gives them n at once instead of letting them
//! climb there one relabel at a time (`State::move_level`).
//!
//! **Verification** ([`verify`]) needs no second algorithm: capacities hold on every arc, no
//! node but the source sends out more than it receives (every node conserves flow, for a
//! flow), the sink receives the value, and the nodes that cannot reach the sink in the
//! residual graph form a cut whose capacity equals the value. A preflow carries a flow of the
//! value its sink receives (decompose it into paths and cycles), and no flow exceeds a cut,
//! so this proves the value maximum. The serial oracle ([`dinic`]) gives the value
//! independently as well.
//!
//! Capacities are the edge weights (1 on unweighted graphs); self-loops are ignored.
//! Residual capacities and excesses are 32-bit words where every value fits (capacities
//! below 2^31, the source's below 2^32 in all: road maps, unit capacities), else 64-bit
//! (`word.rs`); a flow on an input arc is at most its 32-bit weight.

pub mod app;

mod dinic;
mod discharge;
mod network;
mod relabel;
mod word;

pub use dinic::dinic;
pub use discharge::PfpTask;
use discharge::{Budget, State, ALPHA, GAPS, PUSHES, RELABELS};
pub use network::{Network, Prebuilt};
use word::Word;

use ordo_exec::{for_each, ExecConfig, ExecError, RunReport};
use ordo_graph::Graph;
use ordo_sched::{ConfigError, Scheduler, SchedulerConfig, SchedulerVisitor};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering::Relaxed};
use std::sync::Arc;

#[derive(Debug, thiserror::Error)]
pub enum PfpError {
    #[error(transparent)]
    Exec(#[from] ExecError),
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error("the source and the sink are the same node ({0})")]
    SourceIsSink(u32),
    #[error("{0} arcs: preflow-push handles at most {max}", max = Network::MAX_INPUT_ARCS)]
    TooLarge(usize),
}

/// What the discharges did.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PfpStats {
    pub pushes: u64,
    pub relabels: u64,
    pub global_relabels: u64,
    /// Gaps found in phase 1 (each ends its round for a global relabel).
    pub gaps: u64,
    /// Rounds of phase 1 (to the maximum preflow) and phase 2 (to a flow).
    pub rounds: [u64; 2],
    /// Seconds to the maximum preflow, when the flow value is known.
    pub phase1_s: f64,
}

/// What [`run`] computes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Goal {
    /// A maximum preflow (phase 1): the flow's value and a minimum cut.
    Preflow,
    /// A maximum flow (phases 1 and 2): also a flow on each arc that every node conserves.
    Flow,
}

pub struct PfpOutput {
    pub flow: u64,
    /// What was computed: with [`Goal::Preflow`], `arc_flow` is a preflow (nodes may keep
    /// excess).
    pub goal: Goal,
    /// Flow on each input arc, in the input's CSR order (0 on self-loops); at most the arc's
    /// weight, so 32 bits.
    pub arc_flow: Vec<u32>,
    /// The source side of a minimum cut: the nodes that cannot reach the sink in the residual
    /// graph.
    pub source_side: Vec<bool>,
    /// All rounds merged (time is the whole run, global relabelling included).
    pub report: RunReport,
    pub stats: PfpStats,
}

struct Round<'a, 'n, W> {
    state: &'a State<'n, W>,
    initial: Vec<(PfpTask, u64)>,
    bound: u32,
    work_limit: u64,
    cfg: ExecConfig,
}

impl<W: Word> SchedulerVisitor<PfpTask> for Round<'_, '_, W> {
    /// The round's report, and whether it drained its tasks (else its budget was spent or the
    /// user cancelled it: a global relabel and the remaining active nodes come next).
    type Output = Result<(RunReport, bool), ExecError>;
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
            Ok(r) => Ok((r, true)),
            Err(ExecError::Cancelled(r)) => Ok((*r, false)),
            Err(e) => Err(e),
        }
    }
}

/// The bucket width (log2) that obim and `auto` use for pfp: one bucket for every label (at
/// most 2n), so discharges run in FIFO order, as in Galois' preflowpush (its default
/// worklist is a chunked FIFO; highest-label order is its option). With the gap heuristic and
/// global relabelling, finer buckets do more work on every road graph at 1 thread (NY: 144K
/// relabels with two buckets against 6K with one) and no less on the social graphs.
/// Highest-label order stays a choice: `--param delta=K`.
pub fn default_delta(g: &Graph) -> u32 {
    usize::BITS - (2 * g.num_nodes()).leading_zeros()
}

/// The maximum flow from `s` to `t` (its value, a minimum cut, and with [`Goal::Flow`] the
/// flow itself) on a fresh scheduler from `sched` per round.
///
/// ```
/// use ordo_algos::pfp;
/// use ordo_exec::ExecConfig;
/// use ordo_graph::{gen, BuildOptions};
/// use ordo_sched::SchedulerConfig;
/// let g = gen::road_grid(12, 12, 5, &BuildOptions::default()).unwrap();
/// let sched = SchedulerConfig::parse("obim", &[]).unwrap();
/// let out = pfp::run(&g, 0, 143, pfp::Goal::Flow, &sched, &ExecConfig::new(2)).unwrap();
/// pfp::verify(&g, 0, 143, &out).unwrap();
/// assert_eq!(out.flow, pfp::dinic(&pfp::Network::new(&g), 0, 143));
/// ```
pub fn run(
    g: &Graph,
    s: u32,
    t: u32,
    goal: Goal,
    sched: &SchedulerConfig,
    cfg: &ExecConfig,
) -> Result<PfpOutput, PfpError> {
    if g.num_edges() > Network::MAX_INPUT_ARCS {
        return Err(PfpError::TooLarge(g.num_edges()));
    }
    run_on(g, &Network::new(g), s, t, goal, sched, cfg)
}

/// [`run`] on `net`, the network of `g` ([`Network::new`], or a [`Prebuilt`] one).
pub fn run_on(
    g: &Graph,
    net: &Network,
    s: u32,
    t: u32,
    goal: Goal,
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
    if net.fits_in_32_bits(s) {
        run_with::<AtomicU32>(g, net, s, t, goal, sched, cfg)
    } else {
        run_with::<AtomicU64>(g, net, s, t, goal, sched, cfg)
    }
}

/// [`run`] with residuals and excesses in words of type `W`.
fn run_with<W: Word>(
    g: &Graph,
    net: &Network,
    s: u32,
    t: u32,
    goal: Goal,
    sched: &SchedulerConfig,
    cfg: &ExecConfig,
) -> Result<PfpOutput, PfpError> {
    let n = g.num_nodes();
    let res = net.capacities().map(W::new).collect();
    let state = State::new(net, res, s, t);
    let start = std::time::Instant::now();
    // Saturate the source's arcs (before any worker exists; Relaxed is enough).
    for a in net.arcs(s) {
        let c = state.res[a].take(Relaxed);
        let v = net.head[a];
        state.res[net.reverse(a, s, v)].add(c, Relaxed);
        if v != s {
            state.excess[v as usize].add(c, Relaxed);
        }
    }
    let relabeller = relabel::Relabeller::new(n, cfg.threads);
    let mut report = RunReport::default();
    let mut stats = PfpStats::default();
    let work_limit = ALPHA * n as u64 + net.head.len() as u64 / 2;
    let n32 = n as u32;
    let phases = match goal {
        Goal::Preflow => &[(0, n32)][..],
        Goal::Flow => &[(0, n32), (1, u32::MAX)][..],
    };
    for &(phase, bound) in phases {
        // Exact labels; in phase 1 every node that cannot reach the sink gets n, which is all
        // phase 1 needs to know about it, at half the cost.
        relabeller.relabel(&state, phase == 1, cfg)?;
        stats.global_relabels += 1;
        loop {
            if cfg.cancel.as_ref().is_some_and(|c| c.load(Relaxed)) {
                report.time = start.elapsed();
                report.threads = cfg.threads;
                return Err(ExecError::Cancelled(Box::new(report)).into());
            }
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
            let (round_report, drained) = sched.with(cfg.threads, &cfg.topology, round)??;
            report.absorb(round_report);
            // A drained round leaves no active node below the bound: a push creates a task
            // whenever its target is below it, and labels only rise within a round. So the
            // phase is over without the global relabel that would find that out.
            if drained {
                break;
            }
            relabeller.relabel(&state, phase == 1, cfg)?;
            stats.global_relabels += 1;
        }
        if phase == 0 {
            stats.phase1_s = start.elapsed().as_secs_f64();
        }
    }
    report.time = start.elapsed();
    stats.pushes = report.total.app[PUSHES];
    stats.relabels = report.total.app[RELABELS];
    stats.gaps = report.total.app[GAPS];
    let flow = state.excess[t as usize].read(Relaxed);
    // The node arrays and the relabeller's queues go first (the cut's search would otherwise
    // set the peak on top of them); the residuals then become the flows in place.
    drop(relabeller);
    let res = state.into_residuals();
    let source_side = net.source_side(t, &res);
    Ok(PfpOutput {
        flow,
        goal,
        arc_flow: net.input_flows(g, res),
        source_side,
        report,
        stats,
    })
}

/// Checks `out` on `g` from first principles: every arc's flow within its capacity, no node
/// but `s` sending out more than it receives (conservation at every node but `s` and `t`, for
/// a flow), the value reaching `t`, and a cut (`out.source_side`, containing s and not t)
/// whose capacity equals the value.
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
            let f = u64::from(out.arc_flow[i]);
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
    let inner = (0..n).filter(|&v| v != s as usize && v != t as usize);
    let broken = match out.goal {
        Goal::Flow => inner.clone().find(|&v| net_out[v] != 0),
        Goal::Preflow => inner.clone().find(|&v| net_out[v] > 0),
    };
    if let Some(v) = broken {
        let kind = match out.goal {
            Goal::Flow => "flow is not conserved",
            Goal::Preflow => "the preflow overdraws a node",
        };
        return Err(format!(
            "{kind} at node {}: {} more leaves than enters",
            g.file_id(v as u32),
            net_out[v]
        ));
    }
    let value = out.flow as i128;
    let sent_enough = match out.goal {
        Goal::Flow => net_out[s as usize] == value,
        Goal::Preflow => net_out[s as usize] >= value,
    };
    if !sent_enough || net_out[t as usize] != -value {
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
