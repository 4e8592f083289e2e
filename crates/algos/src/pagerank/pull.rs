//! PageRank by pull iteration over in-edges on the frontier executor, with GAPBS's and
//! networkx's stopping rule, the L1 change of one iteration below `n x tolerance` (scores
//! summing to 1), or a fixed number of iterations ([`Until`]).
//!
//! **What is iterated.** As in the residual-pushing version (module docs of
//! [`pagerank`](super)), the scores are the normalized solution `y / |y|₁` of
//! `y = (1 - α)/n + α P'ᵀ y`, where `P'` drops the dangling nodes' rows: spreading the dangling
//! mass uniformly only rescales `y`. So no iteration needs the dangling total, and a node's new
//! value reads only its in-neighbours' shares `y_u / outdeg(u)`: one pass over the in-edges per
//! iteration, each value written by one worker, no read-modify-writes.
//!
//! **Only shares are stored.** A node's value is its share times its degree (a dangling node's
//! share is its value), so the loop keeps no value array: 8n bytes less, and one stream fewer
//! per iteration (no measurable change in time at 2 threads). Beside the shares, every node's
//! degree and its inverse (`f32` or `f64` as the shares) are written once before the first
//! sweep: an update multiplies by the inverse rather than divide by the degree (a division's
//! latency lies in the chain from node to node of a Gauss-Seidel sweep on a road graph), and
//! reads 8 bytes per node rather than two offsets (0.81-0.96x the time of dividing on five
//! graphs at 1 and 2 threads).
//!
//! **Nodes without in-edges.** Such a node's value is `(1 - α)/n` in every iteration. It is
//! written once, before the first sweep, in every share array, and the sweeps skip it: a
//! bitmap marks the nodes that pull, and a chunk's loop runs over the runs of set bits. SNAP
//! files with gaps in their ids, Kronecker graphs and directed graphs have many: CA-HepPh 86%
//! of its ids, Kronecker 20 38%; there a sweep costs a third less on CA-HepPh. A graph
//! where every node has in-edges keeps the plain loop over the chunk. A skipped node's share
//! does not change, so it adds nothing to an iteration's change, and its stored value differs
//! from `(1 - α)/n` by the share's rounding alone: the error bound below holds as it is.
//!
//! **Sweeps.** A Jacobi iteration reads the previous iteration's shares and writes the new ones
//! into a second array. A Gauss-Seidel sweep (GAPBS's `pr`) writes a node's share in place as
//! soon as its value changes, so later nodes of the same sweep already pull it: fewer
//! iterations on road graphs, and a result that depends on the interleaving. The change of a
//! sweep is measured on the normalized scale (`Σ|Δy| / |y|₁`).
//!
//! **Mass correction.** Summing the equation over the nodes gives the exact solution's total:
//! `Σy* = (1 - α) + α (Σy* - D*)`, where `D*` is the total of the nodes without out-arcs
//! (their mass is what `P'` drops). An iterate whose total misses this is off in the one
//! direction that the iteration corrects slowest: a Jacobi iteration shrinks it by about `α`
//! (less the dangling part) per step, and a Gauss-Seidel sweep, which reads values of both
//! the old and the new iteration, moves the total off at every sweep, even where it started
//! right (a graph with few dangling nodes and fast mixing, such as Kronecker, then takes more
//! Gauss-Seidel sweeps than Jacobi iterations). So after an iteration the loop computes the
//! factor `c` that makes the pulled nodes' values (the skipped ones are exact) satisfy the
//! equation, from two sums the sweep adds up anyway (all new values, and those of nodes
//! without out-arcs), and multiplies their shares by `c` in one pass over the nodes: a
//! one-variable aggregation step. The pass is made only where it matters: when the total is
//! off by at least the change the run stops at ([`Until::correction_floor`]) and by a quarter
//! of the last iteration's change ([`CORRECTION_SHARE`]; the quarter made as few passes as
//! possible with no more sweeps than correcting every time, on the 10 graphs of `compare.py`
//! and 7 held-out ones).
//! Gauss-Seidel sweeps at GAPBS's tolerance without -> with it: Kronecker 20 9 -> 5, Slashdot
//! 23 -> 11-12; road graphs and meshes unchanged, with at most two passes. The bound
//! below holds whatever the last iteration read, so a scaled iterate needs no change to it;
//! the stopping rule is still the L1 change of the last iteration.
//!
//! **Error bound.** The last iteration's change bounds the distance to the exact solution `y*`.
//! The residual `r = (1 - α)/n + α P'ᵀ y' - y'` of the values `y'` an iteration wrote is
//! `r_i = α Σ_j (y'_j / outdeg(j) - s_j)` over the in-neighbours `j` of `i`, where `s_j` is
//! the share the iteration read: the previous iteration's (Jacobi, and Gauss-Seidel for nodes
//! not yet updated) or the new one (Gauss-Seidel; one writer per node, so a read sees one of
//! the two). Each `j` is read by its `outdeg(j)` out-neighbours, so `|r|₁ <= α δ` with
//! `δ = |y' - y|₁`, and since `I - α P'ᵀ` has an inverse of L1 norm at most `1 / (1 - α)`,
//! `|y' - y*|₁ <= B = α δ / (1 - α)`: the bound holds for any last iteration, whatever came
//! before it. Normalizing moves the distance to at most
//! `2B / |y*|₁ <= 2B / (|y'|₁ - B)`. That bound is reported; the verifier checks it against the
//! serial power iteration. (So a Gauss-Seidel run needs no closing Jacobi step for a bound,
//! which would cost one iteration in 10 to 20.)
//!
//! **Precision.** The pull loop gathers one share per in-edge at a random place: on graphs
//! larger than the cache that gather is the iteration's cost. When the requested L1 change is
//! at least [`SINGLE_PRECISION_STOP`] (the default tolerance's and GAPBS's), shares are stored
//! as `f32` and a node's update is computed in `f32`, as GAPBS does: half the bytes gathered,
//! and no conversions in the chain from one node to the next. Only in-lists of 8 or more sum
//! in `f64`: four running sums where the shares fit in the cache, and where they do not,
//! blocks of 8 summed in `f32` whose sums add up in `f64` (`gather_blocked`). A node's change
//! is computed in `f32` (`Share::change`), and the changes and the total add up in `f64`.
//! The values are
//! what the stored shares say (`y'_j = s'_j outdeg(j)`). The loop computes each node's new
//! value `z_i` within `v z*_i` of `z*_i = (1 - α)/n + α Σ_j s_j` (`v = 10 x 2^-24`: up to 7
//! additions of a short sum or a block, the base, the product, the sum) and stores it as a
//! share within
//! `u = 4 x 2^-24`, so `|y' - z|₁ <= u |z|₁`. Then
//! `r_i = α Σ_j (s'_j - s_j) + (z_i - y'_i) + (z*_i - z_i)`, and with `δ = |z - y|₁` (the
//! change the loop measures, raised by its own rounding: `c = 2u` of it in `f32`) and
//! `|z*|₁ <= |y'|₁ + δ`, `B = (α δ + (1 + α) u |y'|₁ + v (|y'|₁ + δ)) / (1 - α)`, where `u`
//! also covers the old value's product in `f32`. The rounding terms come to
//! about 1e-5 of the scores' mass, a tenth of the smallest bound such a run stops with. (In
//! double precision the sums' own rounding, below 1e-11 of the mass, is left out.)
//!
//! Work: O(n + m) per iteration, about `log(tolerance) / log(α)` iterations.

use super::{AtomicF64, DAMPING};
use crate::in_edges::InEdges;
use crate::VerifyError;
use ordo_exec::frontier::{zeroed_u32s, Bitmap};
use ordo_exec::{run_team, ExecConfig, ExecError, RunReport, Stopped, Team, ThreadStats};
use ordo_graph::Graph;
use std::ops::Range;
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

/// Runs asking for an L1 change at least this large store shares in single precision (module
/// docs, Precision).
pub const SINGLE_PRECISION_STOP: f64 = 1e-5;

/// A node's share `y_u / outdeg(u)` as the pull loop stores it, and the arithmetic of a node's
/// update (module docs, Precision): [`AtomicF32`] for runs that stop at an L1 change of at
/// least [`SINGLE_PRECISION_STOP`], else [`AtomicF64`].
pub trait Share: Send + Sync + Sized {
    /// What sums and new values are computed in.
    type Num: Copy + Into<f64> + std::ops::Add<Output = Self::Num>;
    /// The relative error of a stored share, read back as a value (share times degree).
    const SHARE_ROUNDOFF: f64;
    /// The relative error of a new value against `base + α Σ shares` in exact arithmetic.
    const VALUE_ROUNDOFF: f64;
    /// The relative error of a measured change ([`Share::change`]) against the exact
    /// difference of the value and the old share times the degree as stored.
    const CHANGE_ROUNDOFF: f64 = 0.0;
    /// `n` zero shares.
    fn zeros(n: usize) -> Vec<Self>;
    /// The share as stored.
    fn read(&self) -> Self::Num;
    #[inline(always)]
    fn get(&self) -> f64 {
        self.read().into()
    }
    /// Stores `x / degree`.
    fn set_quotient(&self, x: f64, degree: i64);
    /// Stores `x` (rounded to the share's precision).
    fn set(&self, x: f64);
    fn num(x: f64) -> Self::Num;
    /// The sum of the shares of `sources`: a short list, or a block of a long one.
    ///
    /// Adds in `Num`: single precision adds as GAPBS does, with no conversion per edge.
    ///
    /// One edge per trip of a plain loop. Left to itself, LLVM unrolls the loop four times
    /// with a remainder loop, and on road graphs (2 to 4 in-edges) choosing between them cost
    /// more than the loop. The empty `asm!` in the body keeps the loop as written (LLVM does
    /// not unroll across it); it emits nothing. Kept so, it measured 0.91-0.96x the time on
    /// five road graphs at 1 and 2 threads (on Rome, 53 instructions per node and sweep against
    /// 63), level on the social and Kronecker graphs.
    ///
    /// # Safety
    /// As [`gather_unrolled`]'s.
    #[inline(always)]
    unsafe fn sum_short(shares: &[Self], sources: &[u32]) -> Self::Num {
        // SAFETY: the caller's promise.
        let share = |u: u32| unsafe { shares.get_unchecked(u as usize) }.read();
        let mut sum = Self::num(0.0);
        for &u in sources {
            sum = sum + share(u);
            // SAFETY: an empty instruction sequence that touches no memory, stack or flags.
            #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
            unsafe {
                std::arch::asm!("", options(nomem, nostack, preserves_flags))
            };
        }
        sum
    }
    /// Stores the share of the value `base + α pulled`, that value times `inverse` (the
    /// node's `1 / degree`), and returns the value.
    fn update(&self, base: Self::Num, pulled: Self::Num, inverse: Self::Num) -> Self::Num;
    /// `|new - old_share × degree|`, computed in `Num` and converted once.
    fn change(old_share: Self::Num, degree: Self::Num, new: Self::Num) -> f64;
}

impl Share for AtomicF64 {
    type Num = f64;
    /// Three roundings: the inverse degree, the product with it, and the value read back as
    /// share times degree.
    const SHARE_ROUNDOFF: f64 = 1.5 * f64::EPSILON;
    /// The sums' rounding (a hub of 10^5 in-edges: 1e-11 of its value) is left out.
    const VALUE_ROUNDOFF: f64 = 0.0;

    fn zeros(n: usize) -> Vec<Self> {
        (0..n).map(|_| AtomicF64::new(0.0)).collect()
    }

    #[inline(always)]
    fn read(&self) -> f64 {
        AtomicF64::get(self)
    }

    #[inline(always)]
    fn set_quotient(&self, x: f64, degree: i64) {
        AtomicF64::set(self, x / degree as f64)
    }

    #[inline(always)]
    fn set(&self, x: f64) {
        AtomicF64::set(self, x)
    }

    #[inline(always)]
    fn num(x: f64) -> f64 {
        x
    }

    #[inline(always)]
    fn update(&self, base: f64, pulled: f64, inverse: f64) -> f64 {
        let new = base + DAMPING * pulled;
        AtomicF64::set(self, new * inverse);
        new
    }

    #[inline(always)]
    fn change(old_share: f64, degree: f64, new: f64) -> f64 {
        (new - old_share * degree).abs()
    }
}

/// An `f32` share as the bits of an atomic word (plain loads and stores, as [`AtomicF64`]'s).
pub type AtomicF32 = AtomicU32;

/// `f32`'s unit roundoff.
const U32: f64 = f32::EPSILON as f64 / 2.0;

impl Share for AtomicF32 {
    type Num = f32;
    /// Three roundings (the degree above 2^24, its inverse, the product with the inverse) and
    /// two for the old value that a change is measured from, read back as share times the
    /// degree as stored (rounded above 2^24) and multiplied in `f32` ([`Share::change`]).
    const SHARE_ROUNDOFF: f64 = 5.0 * U32;
    /// The subtraction and the absolute value's conversion are exact to within one rounding
    /// each of the change itself.
    const CHANGE_ROUNDOFF: f64 = 2.0 * U32;
    /// Up to `SHORT - 1` additions of a short sum or of a long sum's block (a long sum's
    /// `f64` total: one rounding), the base, the product and the sum.
    const VALUE_ROUNDOFF: f64 = (SHORT + 2) as f64 * U32;

    /// Zeroed memory (0.0's bits), which costs nothing until the first sweep writes it.
    fn zeros(n: usize) -> Vec<Self> {
        zeroed_u32s(n)
    }

    #[inline(always)]
    fn read(&self) -> f32 {
        f32::from_bits(self.load(Relaxed))
    }

    #[inline(always)]
    fn set_quotient(&self, x: f64, degree: i64) {
        self.store(((x as f32) / degree as f32).to_bits(), Relaxed)
    }

    #[inline(always)]
    fn set(&self, x: f64) {
        self.store((x as f32).to_bits(), Relaxed)
    }

    #[inline(always)]
    fn num(x: f64) -> f32 {
        x as f32
    }

    /// All in single precision, as GAPBS computes: on graphs whose neighbours have nearby ids
    /// (roads), a Gauss-Seidel sweep's next node often pulls the share just stored, so the
    /// update is a chain from node to node, and conversions to and from `f64` would lengthen
    /// it. (Fewer instructions; the time on Rome did not move measurably in an A/B.)
    #[inline(always)]
    fn update(&self, base: f32, pulled: f32, inverse: f32) -> f32 {
        let new = base + DAMPING as f32 * pulled;
        self.store((new * inverse).to_bits(), Relaxed);
        new
    }

    /// In `f32`, converted once: the old value and the difference in `f64` would take three
    /// conversions and a product per node (roads: a tenth of a sweep's instructions).
    #[inline(always)]
    fn change(old_share: f32, degree: f32, new: f32) -> f64 {
        (new - old_share * degree).abs() as f64
    }
}

/// In-lists shorter than this are summed by [`Share::sum_short`]; longer ones in four `f64`
/// running sums where the shares fit in the cache ([`gather_unrolled`]), in blocks of this
/// many where they do not ([`gather_blocked`]).
const SHORT: usize = 8;
/// Share arrays of more bytes than this are gathered by [`gather_blocked`]: about a core's
/// L2 cache (1 MiB on the AMD EPYC cores measured; recent Xeons have 1-2 MiB). Near it both
/// gathers take the same time (Kronecker 18's 1 MiB of `f32` shares: level).
const CACHED_SHARES: usize = 1 << 20;

/// Iterations at most (the contraction makes 1e-13 reachable in about 190).
pub const MAX_ITERATIONS: u32 = 1000;

/// Nodes per chunk of a sweep: whole words of the `pulling` bitmap.
const CHUNK: usize = 2048;
const _: () = assert!(CHUNK.is_multiple_of(64));

/// How an iteration uses the values it has just computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sweep {
    /// Every value from the previous iteration's shares.
    Jacobi,
    /// Shares updated in place during the sweep (GAPBS's `pr`).
    GaussSeidel,
}

/// When the iteration stops.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Until {
    /// networkx's per-node tolerance: stop after an iteration that changes the scores (summing
    /// to 1) by less than `n x tolerance` in L1, or after [`MAX_ITERATIONS`]. It also picks the
    /// shares' precision (module docs, Precision).
    pub tolerance: f64,
    /// Exactly this many iterations (at least one: 0 runs one), whatever the change: the
    /// fixed count of Gemini's PageRank benchmark. The error bound still says how close the
    /// scores are.
    pub iterations: Option<u32>,
}

impl Until {
    /// Until an iteration changes the scores by less than `n x tolerance` in L1.
    pub fn converged(tolerance: f64) -> Until {
        Until {
            tolerance,
            iterations: None,
        }
    }

    /// The L1 change to stop below on a graph of `n` nodes.
    pub fn stop(&self, n: usize) -> f64 {
        self.tolerance * n as f64
    }

    /// The change below which a mass correction is not worth a pass (module docs, Mass
    /// correction): the change the run stops at. A fixed count stops at none, and a loose
    /// tolerance would then never correct: it corrects from at most [`SINGLE_PRECISION_STOP`]
    /// (0 would correct after nearly every iteration once the change is at its rounding).
    pub fn correction_floor(&self, n: usize) -> f64 {
        match self.iterations {
            Some(_) => self.stop(n).min(SINGLE_PRECISION_STOP),
            None => self.stop(n),
        }
    }

    /// Whether the loop ends after `done` iterations, the last of which changed the scores
    /// by less than the requested change (`converged`) or not.
    pub fn ends(&self, done: u32, converged: bool) -> bool {
        match self.iterations {
            Some(k) => done >= k,
            None => converged || done >= MAX_ITERATIONS,
        }
    }

    /// The rule's name in the JSON (`stopping_rule`).
    pub fn rule(&self) -> &'static str {
        match self.iterations {
            Some(_) => "iterations",
            None => "l1-change",
        }
    }
}

pub struct PullOutput {
    /// Scores summing to 1.
    pub score: Vec<f64>,
    /// Iterations run.
    pub iterations: u32,
    /// The L1 change of the last iteration, on the scale of the normalized scores.
    pub last_change: f64,
    /// The L1 distance to the exact scores is at most this.
    pub error_bound: f64,
    /// Iterations after which the values were rescaled to the exact scores' total (module
    /// docs, Mass correction).
    pub corrections: u32,
    pub report: RunReport,
}

/// Pull PageRank of `g` (whose in-edges are `incoming`) until an iteration changes the scores
/// by less than `n x tolerance` in L1, or for a fixed number of iterations ([`Until`]).
///
/// ```
/// use ordo_graph::{gen, BuildOptions};
/// use ordo_exec::ExecConfig;
/// use ordo_algos::{in_edges::InEdges, pagerank};
/// let mut g = gen::uniform_random(500, 3000, 2, &BuildOptions::default()).unwrap();
/// g.build_transpose();
/// let incoming = InEdges::transpose(&g).unwrap();
/// let sweep = pagerank::pull::Sweep::GaussSeidel;
/// let until = pagerank::pull::Until::converged(1e-9);
/// let out = pagerank::pull::run(&g, incoming, until, sweep, &ExecConfig::new(2)).unwrap();
/// pagerank::pull::verify(&g, &out).unwrap();
/// ```
pub fn run(
    g: &Graph,
    incoming: InEdges,
    until: Until,
    sweep: Sweep,
    cfg: &ExecConfig,
) -> Result<PullOutput, ExecError> {
    run_gathering(g, incoming, until, sweep, cfg, None)
}

/// How a node's in-neighbours' shares are summed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gather {
    /// [`gather_unrolled`]
    Unrolled,
    /// [`gather_blocked`]
    Blocked,
}

impl Gather {
    /// The gather for share arrays of `bytes` bytes ([`CACHED_SHARES`]).
    pub fn for_shares(bytes: usize) -> Gather {
        if bytes > CACHED_SHARES {
            Gather::Blocked
        } else {
            Gather::Unrolled
        }
    }
}

/// [`run`] with the gather chosen by the shares' size, or by `gather` (the tests run both on
/// small graphs).
fn run_gathering(
    g: &Graph,
    incoming: InEdges,
    until: Until,
    sweep: Sweep,
    cfg: &ExecConfig,
    gather: Option<Gather>,
) -> Result<PullOutput, ExecError> {
    let stop = until.stop(g.num_nodes());
    let choose = |share: usize| gather.unwrap_or(Gather::for_shares(share * g.num_nodes()));
    if stop >= SINGLE_PRECISION_STOP {
        let gather = choose(std::mem::size_of::<AtomicF32>());
        run_with::<AtomicF32>(g, incoming, until, sweep, gather, cfg)
    } else {
        let gather = choose(std::mem::size_of::<AtomicF64>());
        run_with::<AtomicF64>(g, incoming, until, sweep, gather, cfg)
    }
}

fn run_with<S: Share>(
    g: &Graph,
    incoming: InEdges,
    until: Until,
    sweep: Sweep,
    gather: Gather,
    cfg: &ExecConfig,
) -> Result<PullOutput, ExecError> {
    let n = g.num_nodes();
    // The pull loop indexes shares by in-neighbour without bounds checks (the gathers).
    assert_eq!(incoming.nodes(), n, "in-edges of another graph");
    let arrays = match sweep {
        Sweep::Jacobi => 2,
        Sweep::GaussSeidel => 1,
    };
    let s = State::<S> {
        g,
        incoming,
        shares: (0..arrays).map(|_| S::zeros(n)).collect(),
        degree: S::zeros(n),
        inverse: S::zeros(n),
        pulling: Bitmap::new(n),
        dangling: Bitmap::new(n),
        gather,
    };
    let (results, time) = run_team(cfg, |team| s.iterate(until, sweep, team))?;
    let (last, last_array) = results.first().map_or((Last::default(), 0), |r| r.1);
    let report = RunReport::from_threads(time, results.iter().map(|r| r.0).collect());
    // A node's value is its share times its degree (module docs); computed twice rather than
    // kept in a vector of its own.
    let shares = &s.shares[last_array];
    let value = |v: usize| shares[v].get() * g.out_degree(v as u32).max(1) as f64;
    let total: f64 = (0..n).map(value).sum();
    let (score, error_bound) = if total > 0.0 {
        let score = (0..n).map(|v| value(v) / total).collect();
        (score, error_bound::<S>(last.change_raw, total))
    } else {
        (vec![1.0 / n.max(1) as f64; n], super::MAX_L1)
    };
    Ok(PullOutput {
        score,
        iterations: last.iterations,
        last_change: last.change,
        error_bound,
        corrections: last.corrections,
        report,
    })
}

struct State<'g, S> {
    g: &'g Graph,
    incoming: InEdges<'g>,
    /// `y_u / outdeg(u)` (a dangling node's is its value, read by no other node): Jacobi reads
    /// one array and writes the other, Gauss-Seidel reads and writes its only one.
    ///
    /// Orderings: Relaxed plain loads and stores (`AtomicF64::get`/`set`). A node's share is
    /// written only by the worker whose chunk holds the node, once per iteration (and once
    /// more by a mass correction's pass, `scale`, between two iterations), and iterations
    /// and passes are separated by collectives. So a Gauss-Seidel reader sees the share of
    /// the previous iteration or of this one, which is all the error bound assumes (module
    /// docs).
    shares: Vec<Vec<S>>,
    /// Every node's out-degree (1 for a dangling node, module docs) and its inverse, written
    /// before the first iteration: a node's update multiplies by the inverse instead of
    /// dividing (a division's latency is in the chain from one node to the next in a
    /// Gauss-Seidel sweep) and reads 8 bytes per node instead of two 8-byte offsets.
    degree: Vec<S>,
    inverse: Vec<S>,
    /// The nodes with in-edges (module docs, Nodes without in-edges), written before the first
    /// iteration; read only if some node has none.
    pulling: Bitmap,
    /// The nodes that pull and have no out-arcs (module docs, Mass correction), written before
    /// the first iteration; read only if there is one.
    dangling: Bitmap,
    gather: Gather,
}

/// The nodes the sweeps skip, those without in-edges (module docs).
struct Skipped<'a> {
    /// The nodes that pull; `None` when every node does.
    pulling: Option<&'a Bitmap>,
    /// The sum of the skipped nodes' values.
    total: f64,
    /// The sum of the skipped nodes' values that have no out-arcs (isolated nodes).
    dangling_total: f64,
    /// The pulling nodes without out-arcs; `None` when there are none.
    dangling: Option<&'a Bitmap>,
}

/// What the last iteration measured (alike on every worker).
#[derive(Debug, Clone, Copy, Default)]
struct Last {
    iterations: u32,
    /// `Σ|Δy|`, and that divided by `|y|₁` (as the loop computed them, before rounding).
    change_raw: f64,
    change: f64,
    /// The sum of the pulled nodes' new values, and of those of them without out-arcs.
    pulled: f64,
    pulled_dangling: f64,
    /// Mass corrections applied before this iteration's sweeps (module docs).
    corrections: u32,
}

impl<S: Share> State<'_, S> {
    /// One worker's part: its statistics and the last iteration's figures.
    fn iterate(
        &self,
        until: Until,
        sweep: Sweep,
        team: &Team,
    ) -> Result<(ThreadStats, (Last, usize)), Stopped> {
        let mut stats = ThreadStats::default();
        let n = self.g.num_nodes();
        let stop = until.stop(n);
        let start = 1.0 / n.max(1) as f64;
        let base = self.base();
        let in_offsets = self.incoming.csr().0;
        // The values of the nodes without in-edges, which no sweep adds up, those of them
        // without out-arcs too, and how many nodes pull without out-arcs.
        let (mut fixed, mut fixed_dangling, mut dangling) = (0.0, 0.0, 0.0);
        let without_in_edges = team.for_chunks(n, CHUNK, |r| {
            let mut without = 0;
            for v in r {
                // As in `pull`: a dangling node's share is its value.
                let out_degree = self.g.out_degree(v as u32) as i64;
                let degree = out_degree.max(1);
                self.degree[v].set(degree as f64);
                self.inverse[v].set_quotient(1.0, degree);
                if in_offsets[v] < in_offsets[v + 1] {
                    self.shares[0][v].set_quotient(start, degree);
                    // The chunk is whole words: this worker alone writes them.
                    self.pulling.set_owned(v);
                    if out_degree == 0 {
                        self.dangling.set_owned(v);
                        dangling += 1.0;
                    }
                } else {
                    // Its value in every iteration, in every array the sweeps read.
                    let inverse = self.inverse[v].read();
                    for shares in &self.shares[1..] {
                        shares[v].update(base, S::num(0.0), inverse);
                    }
                    let value = self.shares[0][v].update(base, S::num(0.0), inverse).into();
                    fixed += value;
                    if out_degree == 0 {
                        fixed_dangling += value;
                    }
                    without += 1;
                }
            }
            without
        })?;
        let [fixed, fixed_dangling, dangling] = team.sum_f64s([fixed, fixed_dangling, dangling])?;
        let skipped = Skipped {
            pulling: (without_in_edges > 0).then_some(&self.pulling),
            total: fixed,
            dangling_total: fixed_dangling,
            dangling: (dangling > 0.0).then_some(&self.dangling),
        };
        // Gauss-Seidel reads and writes one array; Jacobi alternates.
        let mut cur = 0;
        let mut last = Last::default();
        let mut corrections = 0;
        loop {
            let write = match sweep {
                Sweep::GaussSeidel => cur,
                Sweep::Jacobi => 1 - cur,
            };
            last = self.pull(cur, write, last.iterations, &skipped, &mut stats, team)?;
            last.corrections = corrections;
            cur = write;
            if until.ends(last.iterations, last.change < stop) {
                return Ok((stats, (last, cur)));
            }
            // Every worker has the same sums (collectives), so all take the same branch.
            if let Some(c) = mass_correction(&last, &skipped, until.correction_floor(n)) {
                self.scale(cur, c, skipped.pulling, team)?;
                corrections += 1;
            }
        }
    }

    /// Multiplies the shares in array `array` of the nodes that pull (all, when `pulling` is
    /// `None`) by `c`, then waits for the team.
    fn scale(
        &self,
        array: usize,
        c: f64,
        pulling: Option<&Bitmap>,
        team: &Team,
    ) -> Result<(), Stopped> {
        let shares = &self.shares[array];
        team.for_chunks(self.g.num_nodes(), CHUNK, |r| {
            for_each_run(pulling, r, |run| {
                for share in &shares[run] {
                    share.set(share.get() * c);
                }
            });
            0
        })?;
        Ok(())
    }

    /// The teleport term of every value, `(1 - α)/n`.
    fn base(&self) -> S::Num {
        S::num((1.0 - DAMPING) / self.g.num_nodes() as f64)
    }

    /// One pass: every node's value from the shares in `read`, its new share into `write`
    /// (the same array for Gauss-Seidel), except the nodes that `skipped` names.
    fn pull(
        &self,
        read: usize,
        write: usize,
        done: u32,
        skipped: &Skipped,
        stats: &mut ThreadStats,
        team: &Team,
    ) -> Result<Last, Stopped> {
        let base = self.base();
        let (from, to): (&[S], &[S]) = (&self.shares[read], &self.shares[write]);
        let (in_offsets, sources) = self.incoming.csr();
        // SAFETY: InEdges' offsets are non-decreasing and end at `sources.len()`, its sources
        // are below n, and the share arrays have n entries (`run_with`).
        let pull_loop = unsafe {
            PullLoop::new(
                (in_offsets, sources),
                (&self.degree, &self.inverse),
                self.g.num_nodes(),
                self.gather,
            )
        };
        let (mut delta, mut total, mut dangling) = (0.0, 0.0, 0.0);
        team.for_chunks(self.g.num_nodes(), CHUNK, |r| {
            let (d, t, nodes) = pull_loop.pull_chunk(from, to, r.clone(), skipped.pulling, base);
            // Final for this iteration: only this worker writes the chunk's shares.
            dangling += dangling_values(to, r, skipped.dangling);
            stats.tasks += nodes;
            delta += d;
            total += t;
            0
        })?;
        let [delta, pulled, pulled_dangling] = team.sum_f64s([delta, total, dangling])?;
        let total = pulled + skipped.total;
        Ok(Last {
            iterations: done + 1,
            change_raw: delta,
            change: if total > 0.0 { delta / total } else { 0.0 },
            pulled,
            pulled_dangling,
            corrections: 0,
        })
    }
}

/// The pull loop of [`run`] over in-lists and shares that its caller keeps: `ordo-dist`'s
/// ranks run it on their own nodes, whose shares are followed by ghost copies of remote ones.
pub struct PullLoop<'a, S> {
    offsets: &'a [u64],
    sources: &'a [u32],
    degree: &'a [S],
    inverse: &'a [S],
    /// The length of the share arrays the loop reads and writes.
    shares: usize,
    gather: Gather,
}

impl<'a, S: Share> PullLoop<'a, S> {
    /// The loop over the in-lists `offsets`/`sources` of `degree.len()` nodes, with their
    /// out-degrees (1 for a node without out-arcs) and inverses as shares, on share arrays of
    /// `shares` entries.
    ///
    /// # Safety
    /// `offsets` is non-decreasing and ends at most at `sources.len()`, and every source is
    /// below `shares`: the loop reads them without bounds checks.
    pub unsafe fn new(
        (offsets, sources): (&'a [u64], &'a [u32]),
        (degree, inverse): (&'a [S], &'a [S]),
        shares: usize,
        gather: Gather,
    ) -> Self {
        assert!(degree.len() == inverse.len() && offsets.len() > degree.len());
        assert!(degree.len() <= shares);
        PullLoop {
            offsets,
            sources,
            degree,
            inverse,
            shares,
            gather,
        }
    }

    /// Pulls the nodes of the chunk `r` (those of `pulling` when given; `r` starts on one of
    /// its words): their values `base + α Σ` of their in-neighbours' shares in `from`, their
    /// new shares into `to` (the same array for a Gauss-Seidel sweep). Returns the L1 change,
    /// the sum of the new values and the number of nodes pulled.
    #[inline(always)]
    pub fn pull_chunk(
        &self,
        from: &[S],
        to: &[S],
        r: Range<usize>,
        pulling: Option<&Bitmap>,
        base: S::Num,
    ) -> (f64, f64, u64) {
        if self.gather == Gather::Blocked {
            self.pull_chunk_with::<true>(from, to, r, pulling, base)
        } else {
            self.pull_chunk_with::<false>(from, to, r, pulling, base)
        }
    }

    /// [`pull_chunk`](Self::pull_chunk) with [`gather_blocked`] (`BLOCKED`) or
    /// [`gather_unrolled`].
    ///
    /// Not inlined: inside the sweep's closure the loop ran short of registers and reloaded
    /// two array pointers from the stack per node.
    #[inline(never)]
    fn pull_chunk_with<const BLOCKED: bool>(
        &self,
        from: &[S],
        to: &[S],
        r: Range<usize>,
        pulling: Option<&Bitmap>,
        base: S::Num,
    ) -> (f64, f64, u64) {
        // Checked once per chunk, so the runs read without bounds checks: the offsets have an
        // entry past every node, the degrees and inverses one per node (`new`), and the shares
        // `self.shares`, which the sources stay below.
        assert!(r.end < self.offsets.len() && r.end <= self.degree.len());
        assert!(from.len() == self.shares && to.len() == self.shares);
        // The runs come from whole words: bits outside `r` must not count.
        assert!(pulling.is_none() || r.start.is_multiple_of(64));
        // Sums local to the chunk, in registers rather than in the captured variables.
        let mut sums = (0.0, 0.0);
        let Some(bits) = pulling else {
            // SAFETY: the asserts above.
            unsafe { self.pull_run::<BLOCKED>(from, to, r.clone(), base, &mut sums) };
            return (sums.0, sums.1, r.len() as u64);
        };
        let mut nodes = 0;
        // The loop of `for_each_run`, written out over `take_run`: with the sweep in a closure
        // passed to it, CA-HepPh's run measured 1.2% more instructions (as an iterator over the
        // runs, 2.2%).
        // `r` starts on a word (asserted); the last word is cut at `r.end`.
        for w in r.start / 64..r.end.div_ceil(64) {
            let mut word = word_within(bits, w, r.end);
            // Each run of set bits is a run of consecutive nodes that pull.
            while let Some((lo, len)) = take_run(&mut word) {
                let first = w * 64 + lo;
                // SAFETY: the bits kept are nodes of the chunk, below `r.end`, and the asserts.
                unsafe { self.pull_run::<BLOCKED>(from, to, first..first + len, base, &mut sums) };
                nodes += len as u64;
            }
        }
        (sums.0, sums.1, nodes)
    }

    /// Pulls the consecutive nodes `r`, adding their change and new values to `sums`.
    ///
    /// # Safety
    /// `r.end` is at most the node count, and `from` and `to` have `self.shares` entries
    /// (`pull_chunk_with` checks).
    #[inline(always)]
    unsafe fn pull_run<const BLOCKED: bool>(
        &self,
        from: &[S],
        to: &[S],
        r: Range<usize>,
        base: S::Num,
        sums: &mut (f64, f64),
    ) {
        let (in_offsets, sources) = (self.offsets, self.sources);
        let (degrees, inverses) = (self.degree, self.inverse);
        let (mut delta, mut total) = *sums;
        // A node's edges end where the next node's begin, so each offset is read once.
        // SAFETY (all `get_unchecked` below): `v < r.end` and the caller's promise.
        let mut in_lo = unsafe { *in_offsets.get_unchecked(r.start) as usize };
        for v in r {
            let in_hi = unsafe { *in_offsets.get_unchecked(v + 1) as usize };
            // SAFETY: the offsets are non-decreasing and end within `sources`, and the sources
            // are below the shares' length (`new`'s contract, the gathers').
            let pulled = unsafe {
                let sources = sources.get_unchecked(in_lo..in_hi);
                if BLOCKED {
                    gather_blocked(from, sources)
                } else {
                    gather_unrolled(from, sources)
                }
            };
            in_lo = in_hi;
            // Gauss-Seidel: `from` is `to`, and the old share is read before it is written.
            let (old, share) = unsafe { (from.get_unchecked(v), to.get_unchecked(v)) };
            let (degree, inverse) =
                unsafe { (degrees.get_unchecked(v), inverses.get_unchecked(v)) };
            let old = old.read();
            let new = share.update(base, pulled, inverse.read());
            delta += S::change(old, degree.read(), new);
            total += new.into();
        }
        *sums = (delta, total);
    }
}

/// Calls `f` on each run of consecutive nodes of the chunk `r` (which starts on a bitmap word)
/// whose bits are set in `bits`, or on all of `r` when `bits` is `None`.
#[inline(always)]
pub fn for_each_run(bits: Option<&Bitmap>, r: Range<usize>, mut f: impl FnMut(Range<usize>)) {
    let Some(bits) = bits else {
        return f(r);
    };
    debug_assert!(r.start.is_multiple_of(64));
    for w in r.start / 64..r.end.div_ceil(64) {
        let mut word = word_within(bits, w, r.end);
        while let Some((lo, len)) = take_run(&mut word) {
            f(w * 64 + lo..w * 64 + lo + len);
        }
    }
}

/// Word `w` of `bits` without the bits at `end` and beyond.
#[inline(always)]
fn word_within(bits: &Bitmap, w: usize, end: usize) -> u64 {
    let word = bits.word(w);
    match end - w * 64 {
        past if past >= 64 => word,
        within => word & ((1u64 << within) - 1),
    }
}

/// The sum of the values of the nodes of the chunk `r` (which starts on a bitmap word) that
/// `dangling` names, read from `shares` (a node without out-arcs has its value as its share);
/// 0 without a bitmap.
#[inline]
pub fn dangling_values<S: Share>(shares: &[S], r: Range<usize>, dangling: Option<&Bitmap>) -> f64 {
    let Some(bits) = dangling else {
        return 0.0;
    };
    let mut sum = 0.0;
    for_each_run(Some(bits), r, |run| {
        sum += shares[run].iter().map(S::get).sum::<f64>();
    });
    sum
}

/// Takes the lowest run of set bits off `word`: where it starts and how long it is.
#[inline(always)]
fn take_run(word: &mut u64) -> Option<(usize, usize)> {
    if *word == 0 {
        return None;
    }
    let lo = word.trailing_zeros() as usize;
    let len = (!(*word >> lo)).trailing_zeros() as usize;
    *word &= (!0u64).checked_shl((lo + len) as u32).unwrap_or(0);
    Some((lo, len))
}

/// A mass correction is applied when the values' total is off by at least this part of the
/// last iteration's change (module docs, Mass correction).
const CORRECTION_SHARE: f64 = 0.25;

/// [`mass_correction_factor`] after the iteration `last`, with the nodes `skipped` fixed.
fn mass_correction(last: &Last, skipped: &Skipped, floor: f64) -> Option<f64> {
    let pulled = [last.pulled, last.pulled_dangling];
    let fixed = [skipped.total, skipped.dangling_total];
    mass_correction_factor(pulled, fixed, last.change_raw, floor)
}

/// The factor that gives the pulled nodes' values the total the exact scores have relative to
/// the nodes without out-arcs (module docs, Mass correction), if the total is off by at least
/// `floor` ([`Until::correction_floor`]) and by [`CORRECTION_SHARE`] of the last iteration's
/// L1 change `change_raw`; `None` otherwise. `pulled` is the pulled nodes' values' total and
/// that of those of them without out-arcs; `fixed` the same for the nodes without in-edges.
pub fn mass_correction_factor(
    [pulled, pulled_dangling]: [f64; 2],
    [fixed, fixed_dangling]: [f64; 2],
    change_raw: f64,
    floor: f64,
) -> Option<f64> {
    let a = DAMPING;
    // Σy = (1 - α) + α (Σy - D), with the skipped nodes' values fixed and the pulled ones
    // scaled by c: c ((1 - α) S + α D) = (1 - α)(1 - S_fixed) - α D_fixed.
    let wanted = (1.0 - a) * (1.0 - fixed) - a * fixed_dangling;
    let weighed = (1.0 - a) * pulled + a * pulled_dangling;
    let c = wanted / weighed;
    let total = pulled + fixed;
    let off = (c - 1.0).abs() * pulled;
    let worth = off >= floor * total && off >= CORRECTION_SHARE * change_raw;
    (c.is_finite() && c > 0.0 && worth).then_some(c)
}

/// The bound on the L1 distance of the normalized scores to the exact ones after an iteration
/// whose L1 change was `change_raw`, for values of total `total` stored as `S` shares (module
/// docs, Error bound and Precision). Past the mass itself the bound says nothing: capped.
pub fn error_bound<S: Share>(change_raw: f64, total: f64) -> f64 {
    let (u, v) = (S::SHARE_ROUNDOFF, S::VALUE_ROUNDOFF);
    let change = change_raw * (1.0 + S::CHANGE_ROUNDOFF);
    let residual = DAMPING * change + (1.0 + DAMPING) * u * total + v * (total + change);
    let b = residual / (1.0 - DAMPING);
    super::capped(2.0 * b / (total - b).max(f64::MIN_POSITIVE))
}

/// The sum of the shares of `sources`, for shares that fit in the cache. Long lists get four
/// running sums: one sum is a chain of dependent additions, four cycles each, which on
/// hub-heavy graphs (in-degrees in the hundreds) costs more than the gathers themselves.
/// Short lists (road graphs: 2 to 4) get one, without the split's bookkeeping.
///
/// # Safety
/// Every source must be below `shares.len()`: [`PullLoop::new`]'s contract (for [`run`], the
/// in-neighbours of an [`InEdges`] with as many nodes as there are shares). A bounds check
/// would be two of the eight instructions per edge.
#[inline(always)]
unsafe fn gather_unrolled<S: Share>(shares: &[S], sources: &[u32]) -> S::Num {
    // SAFETY: the caller's promise.
    let share = |u: u32| unsafe { shares.get_unchecked(u as usize) }.get();
    if sources.len() < SHORT {
        // SAFETY: the caller's promise.
        return unsafe { S::sum_short(shares, sources) };
    }
    let mut sums = [0.0; 4];
    let quads = sources.chunks_exact(4);
    let rest = quads.remainder();
    for q in quads {
        for (sum, &u) in sums.iter_mut().zip(q) {
            *sum += share(u);
        }
    }
    for (sum, &u) in sums.iter_mut().zip(rest) {
        *sum += share(u);
    }
    S::num((sums[0] + sums[1]) + (sums[2] + sums[3]))
}

/// The sum of the shares of `sources`, for shares larger than the cache: blocks of [`SHORT`]
/// summed one edge per trip by [`Share::sum_short`] (one chain of additions in `Num`), their
/// sums added in `f64`. Where most gathers miss the L2 cache this plain loop is faster than
/// [`gather_unrolled`]'s four sums (a uniform random graph of 2^20 nodes: 0.60-0.83x the
/// time), and slower where they hit (1.02-1.14x on CA-HepPh, bcsstk33, Enron and finan512).
/// Why the unrolled loop overlaps fewer misses is not measured (no hardware counters on the
/// machines measured). The blocks bound the rounding of a sum in `f32` as a short list's
/// (`VALUE_ROUNDOFF`).
///
/// # Safety
/// As [`gather_unrolled`]'s.
#[inline(always)]
unsafe fn gather_blocked<S: Share>(shares: &[S], sources: &[u32]) -> S::Num {
    if sources.len() <= SHORT {
        // SAFETY: the caller's promise.
        return unsafe { S::sum_short(shares, sources) };
    }
    let mut sum = 0.0;
    for block in sources.chunks(SHORT) {
        // SAFETY: the caller's promise.
        sum += unsafe { S::sum_short(shares, block) }.into();
    }
    S::num(sum)
}

/// Checks `out` against the serial power iteration: the L1 distance must be within the run's
/// error bound (plus the oracle's own 1e-10). Returns the distance.
pub fn verify(g: &Graph, out: &PullOutput) -> Result<f64, VerifyError> {
    super::check_scores(&super::power_iteration(g).0, &out.score, out.error_bound)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ordo_graph::{gen, BuildOptions};

    #[test]
    fn a_stop_that_one_sweep_meets_bounds_the_error_truthfully() {
        // A per-node tolerance of 1e-5 asks for an L1 change of 0.4 here: one sweep meets it,
        // far from the exact scores.
        let mut g = gen::road_grid(200, 200, 1, &BuildOptions::default()).unwrap();
        g.build_transpose();
        let exact = super::super::power_iteration(&g).0;
        let incoming = InEdges::transpose(&g).unwrap();
        let out = run(
            &g,
            incoming,
            Until::converged(1e-5),
            Sweep::GaussSeidel,
            &ExecConfig::new(2),
        )
        .unwrap();
        assert_eq!(out.iterations, 1);
        let l1 = super::super::check_scores(&exact, &out.score, out.error_bound).unwrap();
        assert!(l1 > 0.01, "{l1}");
        // GAPBS's rule on the same graph: a bound that can fail, and holds.
        let incoming = InEdges::transpose(&g).unwrap();
        let n = g.num_nodes() as f64;
        let out = run(
            &g,
            incoming,
            Until::converged(1e-4 / n),
            Sweep::GaussSeidel,
            &ExecConfig::new(2),
        )
        .unwrap();
        assert!(out.error_bound < 0.01, "{}", out.error_bound);
        super::super::check_scores(&exact, &out.score, out.error_bound).unwrap();
    }

    #[test]
    fn both_gathers_stay_within_their_bounds() {
        // In-degrees from 0 to a few hundred (a Kronecker graph's hubs), so long lists end in
        // every remainder of a block; the shares are far below the size that picks the blocked
        // gather, which is forced here.
        let mut g = gen::kronecker(11, 8, 3, &BuildOptions::default()).unwrap();
        g.build_transpose();
        let n = g.num_nodes() as f64;
        let ins = InEdges::transpose(&g).unwrap();
        let longest = (0..g.num_nodes()).map(|v| ins.of(v).len()).max().unwrap();
        assert!(longest > 100, "{longest}");
        let exact = super::super::power_iteration(&g).0;
        // Single precision (1e-4) and double (1e-9).
        for stop in [1e-4, 1e-9] {
            for sweep in [Sweep::GaussSeidel, Sweep::Jacobi] {
                for threads in [1, 2, 8] {
                    let cfg = ExecConfig::new(threads);
                    let mut iterations = Vec::new();
                    for gather in [Gather::Unrolled, Gather::Blocked] {
                        let incoming = InEdges::transpose(&g).unwrap();
                        let out = run_gathering(
                            &g,
                            incoming,
                            Until::converged(stop / n),
                            sweep,
                            &cfg,
                            Some(gather),
                        )
                        .unwrap();
                        let what = format!("{stop} {sweep:?} x{threads} {gather:?}");
                        assert!(out.last_change < stop, "{what}");
                        super::super::check_scores(&exact, &out.score, out.error_bound)
                            .unwrap_or_else(|e| panic!("{what}: {e}"));
                        iterations.push(out.iterations);
                    }
                    // The same sums but for rounding: the same number of sweeps, give or take
                    // the one that a change at the threshold can tip.
                    assert!(iterations[0].abs_diff(iterations[1]) <= 1, "{iterations:?}");
                }
            }
        }
    }

    #[test]
    fn the_mass_correction_restores_the_exact_solutions_total() {
        // Directed, with nodes without in-edges (skipped), without out-arcs (dangling) and
        // both (isolated).
        let mut g = gen::uniform_random(300, 400, 5, &BuildOptions::default()).unwrap();
        g.build_transpose();
        let ins = InEdges::transpose(&g).unwrap();
        let n = g.num_nodes();
        let a = DAMPING;
        let out = |v: usize| g.out_degree(v as u32);
        // y* of `y = (1 - α)/n + α P'ᵀ y` by plain iteration, not from the balance equation.
        let mut y = vec![1.0 / n as f64; n];
        for _ in 0..400 {
            let share: Vec<f64> = (0..n).map(|u| y[u] / out(u).max(1) as f64).collect();
            let pulled = |v: usize| ins.of(v).iter().map(|&u| share[u as usize]).sum::<f64>();
            y = (0..n)
                .map(|v| (1.0 - a) / n as f64 + a * pulled(v))
                .collect();
        }
        let skipped_node = |v: usize| ins.of(v).is_empty();
        let dangling = |v: usize| out(v) == 0;
        assert!((0..n).any(|v| skipped_node(v) && dangling(v)));
        assert!((0..n).any(|v| skipped_node(v) && !dangling(v)));
        assert!((0..n).any(|v| !skipped_node(v) && dangling(v)));
        let sum = |keep: &dyn Fn(usize) -> bool, scale: f64| {
            (0..n)
                .filter(|&v| keep(v))
                .map(|v| y[v] * scale)
                .sum::<f64>()
        };
        let skipped = Skipped {
            pulling: None,
            total: sum(&skipped_node, 1.0),
            dangling_total: sum(&|v| skipped_node(v) && dangling(v), 1.0),
            dangling: None,
        };
        for scale in [0.5, 1.0, 1.7] {
            let last = Last {
                pulled: sum(&|v| !skipped_node(v), scale),
                pulled_dangling: sum(&|v| !skipped_node(v) && dangling(v), scale),
                change_raw: 1e-9,
                ..Last::default()
            };
            match mass_correction(&last, &skipped, 1e-9) {
                Some(c) => assert!((c * scale - 1.0).abs() < 1e-9, "{scale}: {c}"),
                None => assert_eq!(scale, 1.0),
            }
            // Off by less than a quarter of the last change: not worth a pass.
            let busy = Last {
                change_raw: 8.0 * (scale - 1.0f64).abs(),
                ..last
            };
            assert_eq!(mass_correction(&busy, &skipped, 1e-9), None, "{scale}");
        }
    }

    #[test]
    fn a_fixed_count_runs_exactly_that_many_iterations_within_its_bound() {
        // Two chunks of nodes, so both workers sweep.
        let mut g = gen::kronecker(12, 8, 7, &BuildOptions::default()).unwrap();
        g.build_transpose();
        let n = g.num_nodes() as f64;
        let exact = super::super::power_iteration(&g).0;
        for sweep in [Sweep::GaussSeidel, Sweep::Jacobi] {
            let mut bounds = Vec::new();
            // Fewer than convergence needs, and more (the change then falls below the
            // default's stop long before the count is reached).
            for count in [1, 3, 20, 60] {
                let until = Until {
                    tolerance: 1e-4 / n,
                    iterations: Some(count),
                };
                let incoming = InEdges::transpose(&g).unwrap();
                let out = run(&g, incoming, until, sweep, &ExecConfig::new(2)).unwrap();
                assert_eq!(out.iterations, count, "{sweep:?}");
                // A single iteration's bound may be the vacuous 2, which check_scores refuses.
                let l1: f64 = exact
                    .iter()
                    .zip(&out.score)
                    .map(|(a, b)| (a - b).abs())
                    .sum();
                assert!(
                    l1 <= out.error_bound,
                    "{sweep:?} {count}: {l1} > {}",
                    out.error_bound
                );
                bounds.push(out.error_bound);
            }
            // Single precision (this tolerance's) bounds the error near 1.5e-5 at best.
            assert!(
                bounds[3] < 1e-4 && bounds[3] <= bounds[2] * 1.01,
                "{sweep:?} {bounds:?}"
            );
        }
        let converged = Until::converged(1e-4 / n);
        let incoming = InEdges::transpose(&g).unwrap();
        let out = run(
            &g,
            incoming,
            converged,
            Sweep::GaussSeidel,
            &ExecConfig::new(2),
        )
        .unwrap();
        assert!(out.iterations < 20, "{}", out.iterations);
    }

    #[test]
    fn the_blocked_gather_is_for_shares_beyond_the_cache() {
        assert_eq!(Gather::for_shares(CACHED_SHARES), Gather::Unrolled);
        assert_eq!(Gather::for_shares(CACHED_SHARES + 1), Gather::Blocked);
    }
}
