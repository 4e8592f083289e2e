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
//! **Precision.** The pull loop gathers one share per in-edge at a random place: on graphs
//! larger than the cache that gather is the iteration's cost. When the requested L1 change is
//! at least [`SINGLE_PRECISION_STOP`] (the default tolerance's and GAPBS's), shares are stored
//! as `f32`, as GAPBS stores all its scores: half the bytes gathered; a share is divided in
//! single precision too. Values and sums stay `f64`. Rounding a share (three roundings: the
//! value, the degree, the quotient, so `u = 3 x 2^-24`) perturbs each Jacobi step by at most
//! `α u |y|₁` in L1, since the shares of all in-edges sum to the non-dangling part of `|y|₁`,
//! and the bound takes it in: `B = (α δ + α u |y|₁) / (1 - α)`, about 1e-6 of the scores'
//! mass, a sixth of the smallest bound such a run stops with.
//!
//! Work: O(n + m) per iteration, about `log(tolerance) / log(α)` iterations.

use super::{AtomicF64, PrVerifyError, DAMPING};
use crate::in_edges::InEdges;
use ordo_exec::{run_team, ExecConfig, ExecError, RunReport, Stopped, Team, ThreadStats};
use ordo_graph::Graph;
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

/// Runs asking for an L1 change at least this large store shares in single precision (module
/// docs, Precision).
pub const SINGLE_PRECISION_STOP: f64 = 1e-6;

/// A node's share `y_u / outdeg(u)` as the pull loop stores it.
trait Share: Send + Sync {
    /// The relative rounding error of a stored share.
    const UNIT_ROUNDOFF: f64;
    fn zero() -> Self;
    fn get(&self) -> f64;
    fn set(&self, x: f64);
    /// Stores `x / degree`.
    fn set_quotient(&self, x: f64, degree: i64) {
        self.set(x / degree as f64)
    }
}

impl Share for AtomicF64 {
    const UNIT_ROUNDOFF: f64 = f64::EPSILON / 2.0;

    fn zero() -> Self {
        AtomicF64::new(0.0)
    }

    #[inline(always)]
    fn get(&self) -> f64 {
        AtomicF64::get(self)
    }

    #[inline(always)]
    fn set(&self, x: f64) {
        AtomicF64::set(self, x)
    }
}

/// An `f32` share in an atomic word (plain loads and stores, as [`AtomicF64`]'s).
struct AtomicF32(AtomicU32);

impl Share for AtomicF32 {
    /// Three roundings: the value to `f32`, the degree (above 2^24), the quotient.
    const UNIT_ROUNDOFF: f64 = 3.0 * f32::EPSILON as f64 / 2.0;

    fn zero() -> Self {
        AtomicF32(AtomicU32::new(0f32.to_bits()))
    }

    #[inline(always)]
    fn get(&self) -> f64 {
        f32::from_bits(self.0.load(Relaxed)) as f64
    }

    #[inline(always)]
    fn set(&self, x: f64) {
        self.0.store((x as f32).to_bits(), Relaxed)
    }

    /// Divides in single precision: `divss` has a fraction of `divsd`'s latency, and the
    /// division per node was a quarter of a road graph's sweep.
    #[inline(always)]
    fn set_quotient(&self, x: f64, degree: i64) {
        self.0
            .store(((x as f32) / degree as f32).to_bits(), Relaxed)
    }
}

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
    let stop = tolerance * g.num_nodes() as f64;
    if stop >= SINGLE_PRECISION_STOP {
        run_with::<AtomicF32>(g, incoming, stop, sweep, cfg)
    } else {
        run_with::<AtomicF64>(g, incoming, stop, sweep, cfg)
    }
}

fn run_with<S: Share>(
    g: &Graph,
    incoming: InEdges,
    stop: f64,
    sweep: Sweep,
    cfg: &ExecConfig,
) -> Result<PullOutput, ExecError> {
    let n = g.num_nodes();
    let s = State::<S> {
        g,
        incoming,
        value: (0..n).map(|_| AtomicF64::new(0.0)).collect(),
        shares: [0, 1].map(|_| (0..n).map(|_| S::zero()).collect()),
    };
    let (results, time) = run_team(cfg, |team| s.iterate(stop, sweep, team))?;
    let last = results.first().map_or(Last::default(), |r| r.1);
    let report = RunReport::from_threads(time, results.iter().map(|r| r.0).collect());
    let value: Vec<f64> = s.value.into_iter().map(AtomicF64::into_inner).collect();
    let (score, error_bound) = if last.total > 0.0 {
        // The closing Jacobi step's change, and what rounding the shares may have moved it.
        let perturbation = DAMPING * S::UNIT_ROUNDOFF * last.total;
        let b = (DAMPING * last.change_raw + perturbation) / (1.0 - DAMPING);
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

struct State<'g, S> {
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
    shares: [Vec<S>; 2],
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

impl<S: Share> State<'_, S> {
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
                // As in `pull`: a dangling node's share is read by no one.
                let degree = (self.g.out_degree(v as u32) as i64).max(1);
                self.shares[0][v].set_quotient(start, degree);
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
        let (from, to): (&[S], &[S]) = (&self.shares[read], &self.shares[write]);
        let value: &[AtomicF64] = &self.value;
        let (in_offsets, sources) = self.incoming.csr();
        let out_offsets = self.g.offsets();
        let (mut delta, mut total) = (0.0, 0.0);
        team.for_chunks(self.g.num_nodes(), CHUNK, |r| {
            stats.tasks += r.len() as u64;
            // Sums kept local to the chunk, in registers rather than in the captured variables.
            let (mut chunk_delta, mut chunk_total) = (0.0, 0.0);
            // Everything sliced per chunk: one bounds check per chunk, not per node. A node's
            // edges end where the next node's begin, so each offset is read once.
            let ins = &in_offsets[r.start + 1..=r.end];
            let outs = &out_offsets[r.start + 1..=r.end];
            let (mut in_lo, mut out_lo) = (in_offsets[r.start] as usize, out_offsets[r.start]);
            let nodes = value[r.clone()].iter().zip(&to[r]);
            for ((&in_hi, &out_hi), (val, share)) in ins.iter().zip(outs).zip(nodes) {
                let in_hi = in_hi as usize;
                let pulled = gather(from, &sources[in_lo..in_hi]);
                in_lo = in_hi;
                let new = base + DAMPING * pulled;
                chunk_delta += (new - val.get()).abs();
                chunk_total += new;
                val.set(new);
                // A dangling node's share is read by no one (it has no out-edges): dividing
                // it by 1 instead of testing for 0 costs nothing. Degrees fit in i64, whose
                // conversion to f64 is one instruction.
                let degree = ((out_hi - out_lo) as i64).max(1);
                out_lo = out_hi;
                share.set_quotient(new, degree);
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

/// The sum of the shares of `sources`. Long lists get four running sums: one sum is a chain
/// of dependent additions, four cycles each, which on hub-heavy graphs (in-degrees in the
/// hundreds) costs more than the gathers themselves. Short lists (road graphs: 2 to 4) get
/// one, without the split's bookkeeping.
#[inline(always)]
fn gather<S: Share>(shares: &[S], sources: &[u32]) -> f64 {
    if sources.len() < 8 {
        return sources.iter().map(|&u| shares[u as usize].get()).sum();
    }
    let mut sums = [0.0; 4];
    let quads = sources.chunks_exact(4);
    let rest = quads.remainder();
    for q in quads {
        for (sum, &u) in sums.iter_mut().zip(q) {
            *sum += shares[u as usize].get();
        }
    }
    for (sum, &u) in sums.iter_mut().zip(rest) {
        *sum += shares[u as usize].get();
    }
    (sums[0] + sums[1]) + (sums[2] + sums[3])
}

/// Checks `out` against the serial power iteration: the L1 distance must be within the run's
/// error bound (plus the oracle's own 1e-10). Returns the distance.
pub fn verify(g: &Graph, out: &PullOutput) -> Result<f64, PrVerifyError> {
    super::check_scores(&super::power_iteration(g).0, &out.score, out.error_bound)
}
