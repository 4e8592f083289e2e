//! PageRank by pull iteration over in-edges on the frontier executor, with GAPBS's and
//! networkx's stopping rule: the L1 change of one iteration below `n x tolerance` (scores
//! summing to 1).
//!
//! A Jacobi iteration computes every node's outgoing share `x_u / outdeg(u)` and the dangling
//! mass, then every node's new score `(1 - α)/n + α (dangling/n + Σ_{u -> v} share_u)` from its
//! in-neighbours: no read-modify-writes, each score written by one worker. A Gauss-Seidel sweep
//! (GAPBS's `pr`) updates a node's share as soon as its score changes, so later nodes of the
//! same sweep already pull the new value (the dangling mass is the sweep's starting one):
//! fewer iterations, and a result that depends on the interleaving.
//!
//! **Error bound.** The operator `G` is a contraction by α in L1 (its linear part is
//! column-stochastic times α), so for any `x`, `|Gx - x*| <= α |Gx - x| / (1 - α)`. Both
//! sweeps end with one Jacobi step, whose change `δ` certifies the returned scores `Gx`;
//! normalizing them to sum 1 at most doubles the distance. The reported bound is
//! `2 α δ / (1 - α)`, which the verifier checks against the serial power iteration.
//!
//! Work: O(n + m) per iteration, about `log(tolerance) / log(α)` iterations.

use super::{PrVerifyError, DAMPING};
use crate::in_edges::InEdges;
use ordo_exec::{run_team, ExecConfig, ExecError, RunReport, Stopped, Team, ThreadStats};
use ordo_graph::Graph;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Iterations at most (the contraction makes 1e-13 reachable in about 190).
pub const MAX_ITERATIONS: u32 = 1000;
const CHUNK: usize = 2048;

/// How an iteration uses the values it has just computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sweep {
    /// Every score from the previous iteration's shares.
    Jacobi,
    /// Shares updated in place during the sweep (GAPBS's `pr`).
    GaussSeidel,
}

impl Sweep {
    /// The sweep of the `--algo` method `pull` or `pull-jacobi`.
    pub fn of_method(name: &str) -> Sweep {
        match name {
            "pull-jacobi" => Sweep::Jacobi,
            _ => Sweep::GaussSeidel,
        }
    }
}

pub struct PullOutput {
    /// Scores summing to 1.
    pub score: Vec<f64>,
    /// Iterations run.
    pub iterations: u32,
    /// The L1 change of the last iteration (the closing Jacobi step).
    pub last_change: f64,
    /// The L1 distance to the exact scores is at most this.
    pub error_bound: f64,
    pub report: RunReport,
}

/// Pull PageRank of `g` (whose in-edges are `incoming`) until an iteration changes the scores
/// by less than `n x tolerance` in L1.
///
/// ```
/// use ordo_graph::{gen, BuildOptions};
/// use ordo_exec::ExecConfig;
/// use ordo_algos::{in_edges::InEdges, pagerank};
/// let mut g = gen::uniform_random(500, 3000, 2, &BuildOptions::default()).unwrap();
/// g.build_transpose();
/// let incoming = InEdges::transpose(&g).unwrap();
/// let sweep = pagerank::pull::Sweep::GaussSeidel;
/// let out = pagerank::pull::run(&g, incoming, 1e-9, sweep, &ExecConfig::new(2)).unwrap();
/// pagerank::pull::verify(&g, &out).unwrap();
/// ```
pub fn run(
    g: &Graph,
    incoming: InEdges,
    tolerance: f64,
    sweep: Sweep,
    cfg: &ExecConfig,
) -> Result<PullOutput, ExecError> {
    let n = g.num_nodes();
    let stop = tolerance * n as f64;
    let init = 1.0 / n.max(1) as f64;
    let score: Vec<AtomicU64> = (0..n).map(|_| AtomicU64::new(init.to_bits())).collect();
    let share: Vec<AtomicU64> = (0..n).map(|_| AtomicU64::new(0)).collect();
    let (results, time) = run_team(cfg, |team| {
        iterate(g, incoming, stop, sweep, &score, &share, team)
    })?;
    let (iterations, last_change) = results.first().map_or((0, 0.0), |r| (r.1, r.2));
    let report = RunReport::from_threads(time, results.iter().map(|r| r.0).collect());
    let mut score: Vec<f64> = score
        .into_iter()
        .map(|s| f64::from_bits(s.into_inner()))
        .collect();
    // The sum is 1 up to rounding; normalizing removes that drift.
    let total: f64 = score.iter().sum();
    if total > 0.0 {
        score.iter_mut().for_each(|s| *s /= total);
    }
    Ok(PullOutput {
        score,
        iterations,
        last_change,
        error_bound: 2.0 * DAMPING * last_change / (1.0 - DAMPING),
        report,
    })
}

/// One worker's part: (its statistics, iterations, last change), the last two alike on all.
fn iterate(
    g: &Graph,
    incoming: InEdges,
    stop: f64,
    sweep: Sweep,
    score: &[AtomicU64],
    share: &[AtomicU64],
    team: &Team,
) -> Result<(ThreadStats, u32, f64), Stopped> {
    let mut stats = ThreadStats::default();
    let mut iterations = 0;
    // Gauss-Seidel sweeps until the change is small, then one Jacobi step; Jacobi iterates.
    let mut dangling = shares(g, score, share, team)?;
    if sweep == Sweep::GaussSeidel {
        loop {
            let change = pull(g, incoming, dangling, score, share, true, &mut stats, team)?;
            iterations += 1;
            dangling = shares(g, score, share, team)?;
            if change < stop || iterations >= MAX_ITERATIONS {
                break;
            }
        }
    }
    loop {
        let change = pull(g, incoming, dangling, score, share, false, &mut stats, team)?;
        iterations += 1;
        if change < stop || iterations >= MAX_ITERATIONS {
            return Ok((stats, iterations, change));
        }
        dangling = shares(g, score, share, team)?;
    }
}

fn get(a: &AtomicU64) -> f64 {
    f64::from_bits(a.load(Relaxed))
}

fn set(a: &AtomicU64, x: f64) {
    a.store(x.to_bits(), Relaxed)
}

/// Sets every node's outgoing share from its score; returns the dangling nodes' total score.
fn shares(
    g: &Graph,
    score: &[AtomicU64],
    share: &[AtomicU64],
    team: &Team,
) -> Result<f64, Stopped> {
    let mut dangling = 0.0;
    team.for_chunks(g.num_nodes(), CHUNK, |r| {
        for v in r {
            let deg = g.out_degree(v as u32);
            let x = get(&score[v]);
            if deg == 0 {
                dangling += x;
                set(&share[v], 0.0);
            } else {
                set(&share[v], x / deg as f64);
            }
        }
        0
    })?;
    team.sum_f64(dangling)
}

/// One pull over every node; with `in_place`, a node's share follows its new score at once.
/// Returns the L1 change.
#[allow(clippy::too_many_arguments)]
fn pull(
    g: &Graph,
    incoming: InEdges,
    dangling: f64,
    score: &[AtomicU64],
    share: &[AtomicU64],
    in_place: bool,
    stats: &mut ThreadStats,
    team: &Team,
) -> Result<f64, Stopped> {
    let nf = g.num_nodes() as f64;
    let base = (1.0 - DAMPING) / nf + DAMPING * dangling / nf;
    let mut delta = 0.0;
    team.for_chunks(g.num_nodes(), CHUNK, |r| {
        stats.tasks += r.len() as u64;
        for v in r {
            let pulled: f64 = incoming
                .of(v)
                .iter()
                .map(|&u| get(&share[u as usize]))
                .sum();
            let new = base + DAMPING * pulled;
            delta += (new - get(&score[v])).abs();
            set(&score[v], new);
            if in_place {
                let deg = g.out_degree(v as u32);
                if deg > 0 {
                    set(&share[v], new / deg as f64);
                }
            }
        }
        0
    })?;
    team.sum_f64(delta)
}

/// Checks `out` against the serial power iteration: the L1 distance must be within the run's
/// error bound (plus the oracle's own 1e-10). Returns the distance.
pub fn verify(g: &Graph, out: &PullOutput) -> Result<f64, PrVerifyError> {
    super::check_scores(&super::power_iteration(g).0, &out.score, out.error_bound)
}
