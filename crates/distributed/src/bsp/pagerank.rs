//! PageRank by pull iteration, as `ordo pagerank` computes it by default
//! (`ordo_algos::pagerank::pull`): the same definition, stopping rule (the L1 change of an
//! iteration below `n x tolerance`, scores summing to 1) and error bound.
//!
//! A node's share `y / outdeg` is what its out-neighbours pull. An iteration first refreshes
//! the ghosts' shares (one exchange), then sweeps the owned nodes, Gauss-Seidel within the
//! rank: a share is rewritten as soon as its node is updated, so later nodes of the sweep on
//! the same rank pull the new value, while ghosts hold the previous iteration's. Every read is
//! thus of the node's old or new share, which is all the error bound of
//! `ordo_algos::pagerank::pull` (module docs, Error bound) asks: `|y' - y*|₁ <= α δ / (1 - α)`
//! for the change `δ` of the last iteration, plus the shares' rounding. Between iterations the
//! values are rescaled to the exact solution's total when it is off (`pull`'s mass correction,
//! from sums the sweep adds up anyway). Nodes without in-edges hold `(1 - α) / n` from the
//! start, as in `pull`.
//!
//! **Precision.** As in `pull`, a run asking for an L1 change of at least
//! [`SINGLE_PRECISION_STOP`] stores shares as `f32`, half the bytes the pull loop gathers
//! and a refresh sends; sums, values and changes are computed in `f64` either way. A stored
//! share is then within `u = 2^-24` of its value's quotient (one rounding to `f32`), which
//! adds `(1 + α) u |y'|₁ / (1 - α)` to the bound, as `pull`'s `SHARE_ROUNDOFF` term does.

use super::halo::Halo;
use super::{global_sums, Funnel};
use crate::graph::LocalGraph;
use crate::net::{DistError, DistResult, Net};
use crate::runtime::Ran;
use mpi::datatype::Equivalence;
use ordo_algos::pagerank::pull::SINGLE_PRECISION_STOP;
use ordo_algos::pagerank::{capped, AtomicF64, DAMPING};
use ordo_exec::{run_team, ExecConfig, RunReport, Stopped, Team, ThreadStats};
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

/// Iterations at most, as `ordo_algos::pagerank::pull`.
const MAX_ITERATIONS: u32 = ordo_algos::pagerank::pull::MAX_ITERATIONS;
/// Owned nodes per chunk of a sweep.
const CHUNK: usize = 2048;
/// A mass correction is made when the values' total is off by at least this part of the last
/// iteration's change (as `ordo_algos::pagerank::pull`).
const CORRECTION_SHARE: f64 = 0.25;

pub struct PullRun {
    /// The owned nodes' scores (summing to 1 over all ranks).
    pub score: Vec<f64>,
    pub iterations: u32,
    /// The L1 change of the last iteration, on the normalized scale.
    pub last_change: f64,
    /// The L1 distance of all scores to the exact ones is at most this.
    pub error_bound: f64,
    /// Iterations after which the values were rescaled.
    pub corrections: u32,
    /// The shares' precision: 32 or 64 bits.
    pub precision: u32,
    pub ran: Ran,
}

/// A share as stored: written whole by the worker that owns its node (worker 0 for ghosts,
/// between collectives), read by any. Relaxed: a read during a sweep may see the old or the
/// new share, which the error bound allows (module docs), and no other data hangs on it.
trait Share: Send + Sync {
    /// What a refresh sends.
    type Wire: Equivalence + Copy + Default;
    /// The relative error of a stored share against its exact quotient.
    const ROUNDOFF: f64;
    const BITS: u32;
    fn new(x: f64) -> Self;
    fn get(&self) -> f64;
    fn set(&self, x: f64);
    fn wire(&self) -> Self::Wire;
    fn set_wire(&self, w: Self::Wire);
}

/// An `f32` share (`ordo_algos::pagerank::AtomicF64` is the `f64` one).
struct Single(AtomicU32);

impl Share for Single {
    type Wire = f32;
    // One rounding to f32, and the f64 quotient's own.
    const ROUNDOFF: f64 = 1.0 / (1u64 << 24) as f64 + 2.0 * f64::EPSILON;
    const BITS: u32 = 32;
    fn new(x: f64) -> Self {
        Single(AtomicU32::new((x as f32).to_bits()))
    }
    #[inline]
    fn get(&self) -> f64 {
        f32::from_bits(self.0.load(Relaxed)) as f64
    }
    #[inline]
    fn set(&self, x: f64) {
        self.0.store((x as f32).to_bits(), Relaxed);
    }
    fn wire(&self) -> f32 {
        f32::from_bits(self.0.load(Relaxed))
    }
    fn set_wire(&self, w: f32) {
        self.0.store(w.to_bits(), Relaxed);
    }
}

impl Share for AtomicF64 {
    type Wire = f64;
    // One division, one product.
    const ROUNDOFF: f64 = 1.5 * f64::EPSILON;
    const BITS: u32 = 64;
    fn new(x: f64) -> Self {
        AtomicF64::new(x)
    }
    #[inline]
    fn get(&self) -> f64 {
        AtomicF64::get(self)
    }
    #[inline]
    fn set(&self, x: f64) {
        AtomicF64::set(self, x);
    }
    fn wire(&self) -> f64 {
        AtomicF64::get(self)
    }
    fn set_wire(&self, w: f64) {
        AtomicF64::set(self, w);
    }
}

struct State<'a, S> {
    halo: &'a Halo<'a>,
    /// Shares of the owned nodes, then of the ghosts.
    share: Vec<S>,
    /// Out-degree (at least 1: a dangling node's share is its value) of each owned node.
    degree: Vec<f64>,
    /// Its inverse: an update multiplies by it rather than divide (a division's latency lies
    /// in the chain from node to node of a Gauss-Seidel sweep).
    inverse: Vec<f64>,
    /// The owned nodes without out-arcs, a bit each.
    dangling: Vec<u64>,
    base: f64,
    /// The normalized L1 change to stop below.
    stop: f64,
    /// The values of the nodes without in-edges, over all ranks, and those of them without
    /// out-arcs: fixed at `base`, skipped by the sweeps and by a mass correction.
    fixed: f64,
    fixed_dangling: f64,
}

/// Pull PageRank over all ranks until an iteration changes the scores by less than
/// `n x tolerance` in L1 (a collective).
pub fn run(
    net: &Net,
    g: &LocalGraph,
    halo: &Halo<'_>,
    tolerance: f64,
    exec: &ExecConfig,
) -> DistResult<PullRun> {
    let stop = tolerance * g.num_nodes() as f64;
    if stop >= SINGLE_PRECISION_STOP {
        run_with::<Single>(net, g, halo, stop, exec)
    } else {
        run_with::<AtomicF64>(net, g, halo, stop, exec)
    }
}

fn run_with<S: Share>(
    net: &Net,
    g: &LocalGraph,
    halo: &Halo<'_>,
    stop: f64,
    exec: &ExecConfig,
) -> DistResult<PullRun> {
    let n = g.num_nodes() as f64;
    let local = g.local_nodes() as usize;
    let degree: Vec<f64> = (0..local as u32)
        .map(|l| g.neighbors(l).len().max(1) as f64)
        .collect();
    let inverse = degree.iter().map(|d| 1.0 / d).collect();
    let mut dangling = vec![0u64; local.div_ceil(64)];
    for l in 0..local {
        if g.neighbors(l as u32).is_empty() {
            dangling[l / 64] |= 1 << (l % 64);
        }
    }
    let base = (1.0 - DAMPING) / n;
    let share = (0..halo.len())
        .map(|i| {
            // A node without in-edges holds its final value from the start.
            let y = match degree.get(i) {
                Some(_) if halo.in_neighbors(i as u32).is_empty() => base,
                _ => 1.0 / n,
            };
            S::new(y / degree.get(i).copied().unwrap_or(1.0))
        })
        .collect();
    let fixed_nodes = |dangling_only: bool| {
        (0..local as u32)
            .filter(|&l| halo.in_neighbors(l).is_empty())
            .filter(|&l| !dangling_only || g.neighbors(l).is_empty())
            .count() as u64
    };
    let fixed = net.sum_u64(fixed_nodes(false)) as f64 * base;
    let fixed_dangling = net.sum_u64(fixed_nodes(true)) as f64 * base;
    let s = State {
        halo,
        share,
        degree,
        inverse,
        dangling,
        base,
        stop,
        fixed,
        fixed_dangling,
    };
    let funnel = Funnel::new(net);
    net.world_barrier();
    let (results, time) = run_team(exec, |team| s.iterate(&funnel, team))
        .map_err(|e| DistError::Failed(e.to_string()))?;
    let (_, last) = results.first().copied().unwrap_or_default();
    let report = RunReport::from_threads(time, results.iter().map(|r| r.0).collect());
    let value: Vec<f64> = (0..local).map(|l| s.share[l].get() * s.degree[l]).collect();
    let total = net.sum_f64(value.iter().sum());
    // The last iteration's residual bound (`ordo_algos::pagerank::pull`, Error bound).
    let residual = DAMPING * last.change + (1.0 + DAMPING) * S::ROUNDOFF * total;
    let b = residual / (1.0 - DAMPING);
    let error_bound = capped(2.0 * b / (total - b).max(f64::MIN_POSITIVE));
    let score = value.iter().map(|&y| y / total).collect();
    Ok(PullRun {
        score,
        iterations: last.iterations,
        last_change: last.change / total,
        error_bound,
        corrections: last.corrections,
        precision: S::BITS,
        ran: funnel.ran(report, time),
    })
}

/// The sum of the shares of `list`: four running sums for long lists (one sum is a chain of
/// dependent additions, which on hub-heavy graphs costs more than the gathers).
#[inline]
fn gather<S: Share>(share: &[S], list: &[u32]) -> f64 {
    // SAFETY: in-lists hold halo indices, below `halo.len()` (`Halo::build`), which is the
    // length of the share array.
    let at = |s: u32| unsafe { share.get_unchecked(s as usize) }.get();
    if list.len() < 8 {
        // One edge per trip, as `ordo_algos::pagerank::pull`'s short sums: the empty `asm!`
        // keeps LLVM from unrolling the loop four times with a remainder loop, whose choice
        // costs more than the loop on road graphs' 2-4 in-edges. It emits nothing.
        let mut sum = 0.0;
        for &s in list {
            sum += at(s);
            // SAFETY: an empty instruction sequence that touches no memory, stack or flags.
            #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
            unsafe {
                std::arch::asm!("", options(nomem, nostack, preserves_flags))
            };
        }
        return sum;
    }
    let mut sums = [0.0; 4];
    let quads = list.chunks_exact(4);
    let rest = quads.remainder();
    for q in quads {
        for (sum, &s) in sums.iter_mut().zip(q) {
            *sum += at(s);
        }
    }
    let tail: f64 = rest.iter().map(|&s| at(s)).sum();
    (sums[0] + sums[1]) + (sums[2] + sums[3]) + tail
}

/// What every worker knows when the iteration stops.
#[derive(Default, Clone, Copy)]
struct Last {
    iterations: u32,
    /// The last iteration's raw L1 change.
    change: f64,
    corrections: u32,
}

impl<S: Share> State<'_, S> {
    /// The factor that gives the values the total the exact solution has relative to its
    /// dangling nodes, `Σy = (1 - α) + α (Σy - D)` (`ordo_algos::pagerank::pull`, module docs,
    /// Mass correction), when the total is off by at least the change the run stops at and by
    /// [`CORRECTION_SHARE`] of the last change.
    fn mass_correction(&self, change: f64, pulled: f64, dangling: f64) -> Option<f64> {
        let a = DAMPING;
        // With the fixed values kept and the pulled ones scaled by c:
        // c ((1 - α) S + α D) = (1 - α)(1 - S_fixed) - α D_fixed.
        let wanted = (1.0 - a) * (1.0 - self.fixed) - a * self.fixed_dangling;
        let c = wanted / ((1.0 - a) * pulled + a * dangling);
        let off = (c - 1.0).abs() * pulled;
        let total = pulled + self.fixed;
        let worth = off >= self.stop * total && off >= CORRECTION_SHARE * change;
        (c.is_finite() && c > 0.0 && worth).then_some(c)
    }

    /// Updates the owned nodes `range` in place; returns their change, the total of their new
    /// values and that of the dangling ones among them.
    #[inline]
    fn sweep(&self, range: std::ops::Range<usize>) -> [f64; 3] {
        // Locals: the loop stores to atomics, after which fields read through `self` would
        // be reloaded.
        // The owned nodes' arrays as slices of the range, zipped: no bounds check per node.
        let sources = &self.halo.sources[..];
        let share = &self.share[..];
        let nodes = self.halo.offsets[range.start..=range.end]
            .windows(2)
            .zip(&share[range.clone()])
            .zip(&self.degree[range.clone()])
            .zip(&self.inverse[range.clone()]);
        let (mut change, mut total, mut dangling) = (0.0, 0.0, 0.0);
        for (v, (((ends, own), &degree), &inverse)) in range.zip(nodes) {
            let list = &sources[ends[0] as usize..ends[1] as usize];
            if list.is_empty() {
                continue; // fixed at `base`
            }
            let y = self.base + DAMPING * gather(share, list);
            let old = own.get() * degree;
            change += (y - old).abs();
            total += y;
            if self.dangling[v / 64] >> (v % 64) & 1 != 0 {
                dangling += y;
            }
            own.set(y * inverse);
        }
        [change, total, dangling]
    }

    /// One worker's part: its counters and the last iteration's figures.
    fn iterate(&self, funnel: &Funnel, team: &Team) -> Result<(ThreadStats, Last), Stopped> {
        let mut stats = ThreadStats::default();
        let local = self.halo.local as usize;
        let mut last = Last::default();
        loop {
            if team.worker() == 0 {
                let ghosts = self
                    .halo
                    .refresh(funnel, team, |l| self.share[l as usize].wire());
                let ghost_slots = &self.share[self.halo.ghost_base as usize..];
                for (slot, x) in ghost_slots.iter().zip(ghosts) {
                    slot.set_wire(x);
                }
            }
            team.barrier()?;
            let (mut change, mut total, mut dangling) = (0.0, 0.0, 0.0);
            team.for_chunks_nowait(local, CHUNK, |range| {
                let [c, t, d] = self.sweep(range.clone());
                (change, total, dangling) = (change + c, total + t, dangling + d);
                stats.tasks += range.len() as u64;
                0
            });
            let [change, pulled, dangling] = global_sums(funnel, team, [change, total, dangling])?;
            last.iterations += 1;
            last.change = change;
            if change < self.stop * (pulled + self.fixed) || last.iterations >= MAX_ITERATIONS {
                return Ok((stats, last));
            }
            // Every worker and rank has the same sums, so all take the same branch.
            if let Some(c) = self.mass_correction(change, pulled, dangling) {
                team.for_chunks(local, CHUNK, |range| {
                    for v in range {
                        if !self.halo.in_neighbors(v as u32).is_empty() {
                            self.share[v].set(self.share[v].get() * c);
                        }
                    }
                    0
                })?;
                last.corrections += 1;
            }
        }
    }
}
