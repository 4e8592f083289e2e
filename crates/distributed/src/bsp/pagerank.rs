//! PageRank by pull iteration, as `ordo pagerank` computes it by default
//! (`ordo_algos::pagerank::pull`): the same definition, stopping rule (the L1 change of an
//! iteration below `n x tolerance`, scores summing to 1, or a fixed count) and error bound.
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
//! **The loop.** A sweep is `ordo_algos::pagerank::pull`'s own loop (`PullLoop`) over the
//! halo's in-lists, with its shares (`f32` when the run asks for an L1 change of at least
//! [`SINGLE_PRECISION_STOP`], else `f64`), its arithmetic, its gather for the share array's
//! size, and its skipping of the nodes without in-edges; so the rounding terms of the error
//! bound are `pull`'s (module docs, Precision). A rank's share array holds its own nodes' shares
//! and then its ghosts', which a refresh writes from the owners' stored bits.

use super::halo::Halo;
use super::{global_sums, Funnel};
use crate::graph::LocalGraph;
use crate::net::{DistError, DistResult, Net};
use crate::runtime::Ran;
use mpi::datatype::Equivalence;
use ordo_algos::pagerank::pull::{
    dangling_values, error_bound, for_each_run, mass_correction_factor, AtomicF32, Gather,
    PullLoop, Share, Until, SINGLE_PRECISION_STOP,
};
use ordo_algos::pagerank::{AtomicF64, DAMPING};
use ordo_exec::frontier::Bitmap;
use ordo_exec::{run_team, ExecConfig, RunReport, Stopped, Team, ThreadStats};
use std::sync::atomic::Ordering::Relaxed;

/// Owned nodes per chunk of a sweep: whole words of the node bitmaps.
const CHUNK: usize = 2048;
const _: () = assert!(CHUNK.is_multiple_of(64));

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

/// A share of `pull`'s loop as a refresh sends it: its stored bits, so a ghost holds exactly
/// its owner's share. Written whole by the worker that owns its node (worker 0 for ghosts,
/// between collectives), read by any (Relaxed, as `pull`'s shares).
trait Sent: Share {
    type Wire: Equivalence + Copy + Default;
    const BITS: u32;
    fn wire(&self) -> Self::Wire;
    fn set_wire(&self, w: Self::Wire);
}

impl Sent for AtomicF32 {
    type Wire = f32;
    const BITS: u32 = 32;
    fn wire(&self) -> f32 {
        f32::from_bits(self.load(Relaxed))
    }
    fn set_wire(&self, w: f32) {
        self.store(w.to_bits(), Relaxed);
    }
}

impl Sent for AtomicF64 {
    type Wire = f64;
    const BITS: u32 = 64;
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
    /// Out-degree of each owned node (at least 1: a dangling node's share is its value), and
    /// its inverse, as `pull` keeps them.
    degree: Vec<S>,
    inverse: Vec<S>,
    /// The owned nodes with in-edges; `None` when all have some.
    pulling: Option<Bitmap>,
    /// The owned nodes with in-edges and without out-arcs; `None` when there are none.
    dangling: Option<Bitmap>,
    gather: Gather,
    base: f64,
    /// The normalized L1 change to stop below, and the least a mass correction must mend
    /// (`until`'s).
    stop: f64,
    correction_floor: f64,
    until: Until,
    /// The values of the nodes without in-edges, over all ranks, and those of them without
    /// out-arcs: fixed at `base`, skipped by the sweeps and by a mass correction.
    fixed: f64,
    fixed_dangling: f64,
}

/// Pull PageRank over all ranks until an iteration changes the scores by less than
/// `n x tolerance` in L1 (a collective), or for a fixed number of iterations ([`Until`]).
pub fn run(
    net: &Net,
    g: &LocalGraph,
    halo: &Halo<'_>,
    until: Until,
    exec: &ExecConfig,
) -> DistResult<PullRun> {
    if until.stop(g.num_nodes() as usize) >= SINGLE_PRECISION_STOP {
        run_with::<AtomicF32>(net, g, halo, until, exec)
    } else {
        run_with::<AtomicF64>(net, g, halo, until, exec)
    }
}

fn run_with<S: Sent>(
    net: &Net,
    g: &LocalGraph,
    halo: &Halo<'_>,
    until: Until,
    exec: &ExecConfig,
) -> DistResult<PullRun> {
    let n = g.num_nodes() as f64;
    let local = g.local_nodes() as usize;
    let base = (1.0 - DAMPING) / n;
    // Ghosts start at zero: the first iteration refreshes them before any sweep reads them.
    let (share, degree, inverse) = (S::zeros(halo.len()), S::zeros(local), S::zeros(local));
    let (pulling, dangling) = (Bitmap::new(local), Bitmap::new(local));
    let (mut fixed, mut fixed_dangling) = (0.0, 0.0);
    let (mut all_pull, mut any_dangling) = (true, false);
    for l in 0..local {
        let out_degree = g.degree(l as u32) as i64;
        let d = out_degree.max(1);
        degree[l].set(d as f64);
        inverse[l].set_quotient(1.0, d);
        if !halo.in_neighbors(l as u32).is_empty() {
            share[l].set_quotient(1.0 / n, d);
            pulling.set_owned(l);
            if out_degree == 0 {
                dangling.set_owned(l);
                any_dangling = true;
            }
        } else {
            // Its value in every iteration, as `pull` stores it.
            let value: f64 = share[l]
                .update(S::num(base), S::num(0.0), inverse[l].read())
                .into();
            fixed += value;
            if out_degree == 0 {
                fixed_dangling += value;
            }
            all_pull = false;
        }
    }
    let [fixed, fixed_dangling] = net.sum_f64s([fixed, fixed_dangling]);
    let s = State {
        halo,
        gather: Gather::for_shares(std::mem::size_of::<S>() * share.len()),
        share,
        degree,
        inverse,
        pulling: (!all_pull).then_some(pulling),
        dangling: any_dangling.then_some(dangling),
        base,
        stop: until.stop(g.num_nodes() as usize),
        correction_floor: until.correction_floor(g.num_nodes() as usize),
        until,
        fixed,
        fixed_dangling,
    };
    let funnel = Funnel::new(net);
    net.world_barrier();
    let (results, time) = run_team(exec, |team| s.iterate(&funnel, team))
        .map_err(|e| DistError::Failed(e.to_string()))?;
    let (_, last) = results.first().copied().unwrap_or_default();
    let report = RunReport::from_threads(time, results.iter().map(|r| r.0).collect());
    let value: Vec<f64> = (0..local)
        .map(|l| s.share[l].get() * s.degree[l].get())
        .collect();
    let total = net.sum_f64(value.iter().sum());
    let error_bound = error_bound::<S>(last.change, total);
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

/// What every worker knows when the iteration stops.
#[derive(Default, Clone, Copy)]
struct Last {
    iterations: u32,
    /// The last iteration's raw L1 change.
    change: f64,
    corrections: u32,
}

impl<S: Sent> State<'_, S> {
    /// `pull`'s mass correction factor after an iteration of L1 change `change` whose pulled
    /// values total `pulled` over all ranks, `dangling` of it without out-arcs.
    fn mass_correction(&self, change: f64, pulled: f64, dangling: f64) -> Option<f64> {
        let fixed = [self.fixed, self.fixed_dangling];
        mass_correction_factor([pulled, dangling], fixed, change, self.correction_floor)
    }

    /// Updates the owned nodes of `range` that pull, in place (`pull`'s loop, Gauss-Seidel);
    /// returns their change, the total of their new values and that of the dangling ones
    /// among them, and how many there were.
    #[inline]
    fn sweep(&self, pull_loop: &PullLoop<'_, S>, range: std::ops::Range<usize>) -> ([f64; 3], u64) {
        let share = &self.share[..];
        let base = S::num(self.base);
        let (change, total, nodes) =
            pull_loop.pull_chunk(share, share, range.clone(), self.pulling.as_ref(), base);
        // Final for this iteration: only this worker writes the chunk's shares.
        let dangling = dangling_values(share, range, self.dangling.as_ref());
        ([change, total, dangling], nodes)
    }

    /// One worker's part: its counters and the last iteration's figures.
    fn iterate(&self, funnel: &Funnel, team: &Team) -> Result<(ThreadStats, Last), Stopped> {
        let mut stats = ThreadStats::default();
        let local = self.halo.local as usize;
        // SAFETY: the halo's in-lists are a CSR over the owned nodes (offsets non-decreasing,
        // ending at the sources' length) whose sources are halo indices, below `halo.len()`,
        // the share array's length (`Halo::build`; at one rank a symmetric graph's own
        // targets, below n = `local` <= `halo.len()`: `load.rs` checks every file's ids and
        // the generators make none larger).
        let pull_loop = unsafe {
            PullLoop::new(
                (&self.halo.offsets, &self.halo.sources),
                (&self.degree, &self.inverse),
                self.share.len(),
                self.gather,
            )
        };
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
                let ([c, t, d], nodes) = self.sweep(&pull_loop, range);
                (change, total, dangling) = (change + c, total + t, dangling + d);
                stats.tasks += nodes;
                0
            });
            let [change, pulled, dangling] = global_sums(funnel, team, [change, total, dangling])?;
            last.iterations += 1;
            last.change = change;
            let converged = change < self.stop * (pulled + self.fixed);
            if self.until.ends(last.iterations, converged) {
                return Ok((stats, last));
            }
            // Every worker and rank has the same sums, so all take the same branch.
            if let Some(c) = self.mass_correction(change, pulled, dangling) {
                team.for_chunks(local, CHUNK, |range| {
                    for_each_run(self.pulling.as_ref(), range, |run| {
                        for share in &self.share[run] {
                            share.set(share.get() * c);
                        }
                    });
                    0
                })?;
                last.corrections += 1;
            }
        }
    }
}
