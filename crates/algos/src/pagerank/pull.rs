//! PageRank by pull iteration over in-edges on the frontier executor, with GAPBS's and
//! networkx's stopping rule: the L1 change of one iteration below `n x tolerance` (scores
//! summing to 1).
//!
//! **What is iterated.** As in the residual-pushing version (module docs of
//! [`pagerank`](super)), the scores are the normalized solution `y / |y|₁` of
//! `y = (1 - α)/n + α P'ᵀ y`, where `P'` drops the dangling nodes' rows: spreading the dangling
//! mass uniformly only rescales `y`. So no iteration needs the dangling total, and a node's new
//! value reads only its in-neighbours' shares `y_u / outdeg(u)`: one pass over the in-edges per
//! iteration, each value written by one worker, no read-modify-writes.
//!
//! **Sweeps.** A Jacobi iteration reads the previous iteration's shares and writes the new ones
//! into a second array. A Gauss-Seidel sweep (GAPBS's `pr`) writes a node's share in place as
//! soon as its value changes, so later nodes of the same sweep already pull it: fewer
//! iterations on road graphs, and a result that depends on the interleaving. The change of a
//! sweep is measured on the normalized scale (`Σ|Δy| / |y|₁`).
//!
//! **Error bound.** `y ↦ (1 - α)/n + α P'ᵀ y` is a contraction by α in L1 (`P'ᵀ` is
//! substochastic), so after any `y`, one Jacobi step to `y'` with change `δ = |y' - y|₁` gives
//! `|y' - y*|₁ <= B = α δ / (1 - α)`. Normalizing moves the distance to at most
//! `2B / |y*|₁ <= 2B / (|y'|₁ - B)`. Both sweeps end with a Jacobi step, and that bound is
//! reported; the verifier checks it against the serial power iteration.
//!
//! Work: O(n + m) per iteration, about `log(tolerance) / log(α)` iterations.

use super::{AtomicF64, PrVerifyError, DAMPING};
use crate::in_edges::InEdges;
use ordo_exec::{run_team, ExecConfig, ExecError, RunReport, Stopped, Team, ThreadStats};
use ordo_graph::Graph;

/// Iterations at most (the contraction makes 1e-13 reachable in about 190).
pub const MAX_ITERATIONS: u32 = 1000;
const CHUNK: usize = 2048;

/// How an iteration uses the values it has just computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sweep {
    /// Every value from the previous iteration's shares.
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
    /// Iterations run (the closing Jacobi step included).
    pub iterations: u32,
    /// The L1 change of the last iteration (the closing Jacobi step), on the scale of the
    /// normalized scores.
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
    let s = State {
        g,
        incoming,
        value: (0..n).map(|_| AtomicF64::new(0.0)).collect(),
        shares: [0, 1].map(|_| (0..n).map(|_| AtomicF64::new(0.0)).collect()),
    };
    let stop = tolerance * n as f64;
    let (results, time) = run_team(cfg, |team| s.iterate(stop, sweep, team))?;
    let last = results.first().map_or(Last::default(), |r| r.1);
    let report = RunReport::from_threads(time, results.iter().map(|r| r.0).collect());
    let value: Vec<f64> = s.value.into_iter().map(AtomicF64::into_inner).collect();
    let (score, error_bound) = if last.total > 0.0 {
        let b = DAMPING * last.change_raw / (1.0 - DAMPING);
        let score = value.iter().map(|&v| v / last.total).collect();
        (score, 2.0 * b / (last.total - b).max(f64::MIN_POSITIVE))
    } else {
        (vec![1.0 / n.max(1) as f64; n], 2.0)
    };
    Ok(PullOutput {
        score,
        iterations: last.iterations,
        last_change: last.change,
        error_bound,
        report,
    })
}

struct State<'g> {
    g: &'g Graph,
    incoming: InEdges<'g>,
    /// `y`.
    value: Vec<AtomicF64>,
    /// `y_u / outdeg(u)` (0 for dangling nodes): Jacobi reads one array and writes the other,
    /// Gauss-Seidel reads and writes the current one.
    ///
    /// Orderings: Relaxed plain loads and stores (`AtomicF64::get`/`set`). A node's value and
    /// share are written only by the worker whose chunk holds the node; a Gauss-Seidel reader
    /// in the same pass sees the old share or the new one, either valid for the iteration,
    /// and the closing Jacobi step, which reads only what the barrier before it published,
    /// is what the error bound rests on.
    shares: [Vec<AtomicF64>; 2],
}

/// What the last iteration measured (alike on every worker).
#[derive(Debug, Clone, Copy, Default)]
struct Last {
    iterations: u32,
    /// `Σ|Δy|`, and that divided by `|y|₁`.
    change_raw: f64,
    change: f64,
    /// `|y|₁` after the iteration.
    total: f64,
}

impl State<'_> {
    /// One worker's part: its statistics and the last iteration's figures.
    fn iterate(
        &self,
        stop: f64,
        sweep: Sweep,
        team: &Team,
    ) -> Result<(ThreadStats, Last), Stopped> {
        let mut stats = ThreadStats::default();
        let n = self.g.num_nodes();
        let start = 1.0 / n.max(1) as f64;
        team.for_chunks(n, CHUNK, |r| {
            for v in r {
                self.value[v].set(start);
                self.shares[0][v].set(self.share_of(v, start));
            }
            0
        })?;
        let mut cur = 0;
        let mut last = Last::default();
        // Gauss-Seidel sweeps until the change is small, then one Jacobi step; Jacobi iterates.
        if sweep == Sweep::GaussSeidel {
            loop {
                last = self.pull(cur, cur, last.iterations, &mut stats, team)?;
                if last.change < stop || last.iterations >= MAX_ITERATIONS {
                    break;
                }
            }
        }
        loop {
            last = self.pull(cur, 1 - cur, last.iterations, &mut stats, team)?;
            cur = 1 - cur;
            if last.change < stop || last.iterations >= MAX_ITERATIONS {
                return Ok((stats, last));
            }
        }
    }

    fn share_of(&self, v: usize, value: f64) -> f64 {
        match self.g.out_degree(v as u32) {
            0 => 0.0,
            d => value / d as f64,
        }
    }

    /// One pass: every node's value from the shares in `read`, its new share into `write`.
    fn pull(
        &self,
        read: usize,
        write: usize,
        done: u32,
        stats: &mut ThreadStats,
        team: &Team,
    ) -> Result<Last, Stopped> {
        let base = (1.0 - DAMPING) / self.g.num_nodes() as f64;
        // Slices, not the vectors: their pointers and lengths then stay in registers across
        // the atomic stores below.
        let (from, to): (&[AtomicF64], &[AtomicF64]) = (&self.shares[read], &self.shares[write]);
        let value: &[AtomicF64] = &self.value;
        let (in_offsets, sources) = self.incoming.csr();
        let out_offsets = self.g.offsets();
        let (mut delta, mut total) = (0.0, 0.0);
        team.for_chunks(self.g.num_nodes(), CHUNK, |r| {
            stats.tasks += r.len() as u64;
            // Sums kept local to the chunk, in registers rather than in the captured variables.
            let (mut chunk_delta, mut chunk_total) = (0.0, 0.0);
            // Everything sliced per chunk: one bounds check per chunk, not per node.
            let ins = in_offsets[r.start..=r.end].windows(2);
            let outs = out_offsets[r.start..=r.end].windows(2);
            let nodes = value[r.clone()].iter().zip(&to[r]);
            for ((i, o), (val, share)) in ins.zip(outs).zip(nodes) {
                let mut pulled = 0.0;
                for &u in &sources[i[0] as usize..i[1] as usize] {
                    pulled += from[u as usize].get();
                }
                let new = base + DAMPING * pulled;
                chunk_delta += (new - val.get()).abs();
                chunk_total += new;
                val.set(new);
                // Degrees fit in i64, whose conversion to f64 is one instruction.
                let degree = (o[1] - o[0]) as i64;
                share.set(if degree == 0 {
                    0.0
                } else {
                    new / degree as f64
                });
            }
            delta += chunk_delta;
            total += chunk_total;
            0
        })?;
        let [delta, total] = team.sum_f64s([delta, total])?;
        Ok(Last {
            iterations: done + 1,
            change_raw: delta,
            change: if total > 0.0 { delta / total } else { 0.0 },
            total,
        })
    }
}

/// Checks `out` against the serial power iteration: the L1 distance must be within the run's
/// error bound (plus the oracle's own 1e-10). Returns the distance.
pub fn verify(g: &Graph, out: &PullOutput) -> Result<f64, PrVerifyError> {
    super::check_scores(&super::power_iteration(g).0, &out.score, out.error_bound)
}
