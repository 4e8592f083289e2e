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
//! for the change `δ` of the last iteration. Between iterations the values are rescaled to the
//! exact solution's total when it is off (`pull`'s mass correction, from sums the sweep adds up
//! anyway). Shares are `f64` (the bound's rounding terms are those of `pull`'s double
//! precision).

use super::halo::Halo;
use super::{global_sums, Funnel};
use crate::graph::LocalGraph;
use crate::net::{DistResult, Net};
use crate::runtime::Ran;
use ordo_algos::pagerank::{capped, AtomicF64, DAMPING};
use ordo_exec::{run_team, ExecConfig, RunReport, Stopped, Team, ThreadStats};

/// Iterations at most, as `ordo_algos::pagerank::pull`.
pub const MAX_ITERATIONS: u32 = ordo_algos::pagerank::pull::MAX_ITERATIONS;
/// Owned nodes per chunk of a sweep.
const CHUNK: usize = 2048;
/// The relative rounding of a share read back as a value (one division, one product).
const SHARE_ROUNDOFF: f64 = 1.5 * f64::EPSILON;

pub struct PullRun {
    /// The owned nodes' scores (summing to 1 over all ranks).
    pub score: Vec<f64>,
    pub iterations: u32,
    /// The L1 change of the last iteration, on the normalized scale.
    pub last_change: f64,
    /// The L1 distance of all scores to the exact ones is at most this.
    pub error_bound: f64,
    pub ran: Ran,
}

struct State<'a> {
    halo: &'a Halo,
    /// Shares of the owned nodes, then of the ghosts.
    share: Vec<AtomicF64>,
    /// Out-degree (at least 1: a dangling node's share is its value) of each owned node.
    degree: Vec<f64>,
    /// The owned nodes without out-arcs.
    dangling: Vec<bool>,
    base: f64,
    /// The normalized L1 change to stop below.
    stop: f64,
}

/// Pull PageRank over all ranks until an iteration changes the scores by less than
/// `n x tolerance` in L1 (a collective).
pub fn run(
    net: &Net,
    g: &LocalGraph,
    halo: &Halo,
    tolerance: f64,
    exec: &ExecConfig,
) -> DistResult<PullRun> {
    let n = g.num_nodes() as f64;
    let local = g.local_nodes() as usize;
    let degree: Vec<f64> = (0..local as u32)
        .map(|l| g.neighbors(l).len().max(1) as f64)
        .collect();
    let dangling = (0..local as u32)
        .map(|l| g.neighbors(l).is_empty())
        .collect();
    let start = 1.0 / n;
    let share = (0..halo.len())
        .map(|i| AtomicF64::new(start / degree.get(i).copied().unwrap_or(1.0)))
        .collect();
    let s = State {
        halo,
        share,
        degree,
        dangling,
        base: (1.0 - DAMPING) / n,
        stop: tolerance * n,
    };
    let funnel = Funnel::new(net);
    net.world_barrier();
    let (results, time) = run_team(exec, |team| s.iterate(&funnel, team))
        .map_err(|e| crate::net::DistError::Failed(e.to_string()))?;
    let (_, iterations, change) = results.first().copied().unwrap_or_default();
    let report = RunReport::from_threads(time, results.iter().map(|r| r.0).collect());
    let value: Vec<f64> = (0..local).map(|l| s.share[l].get() * s.degree[l]).collect();
    let total = net.sum_f64(value.iter().sum());
    // The last iteration's residual bound (`ordo_algos::pagerank::pull`, Error bound).
    let residual = DAMPING * change + (1.0 + DAMPING) * SHARE_ROUNDOFF * total;
    let b = residual / (1.0 - DAMPING);
    let error_bound = capped(2.0 * b / (total - b).max(f64::MIN_POSITIVE));
    let score = value.iter().map(|&y| y / total).collect();
    Ok(PullRun {
        score,
        iterations,
        last_change: change / total,
        error_bound,
        ran: funnel.ran(report, time),
    })
}

/// A mass correction is made when the values' total is off by at least this part of the last
/// iteration's change (as `ordo_algos::pagerank::pull`).
const CORRECTION_SHARE: f64 = 0.25;

impl State<'_> {
    /// The factor that gives the values the total the exact solution has relative to its
    /// dangling nodes, `Σy = (1 - α) + α (Σy - D)` (`ordo_algos::pagerank::pull`, module docs,
    /// Mass correction), when the total is off by at least the change the run stops at and by
    /// [`CORRECTION_SHARE`] of the last change.
    fn mass_correction(&self, change: f64, total: f64, dangling: f64) -> Option<f64> {
        let c = (1.0 - DAMPING) / ((1.0 - DAMPING) * total + DAMPING * dangling);
        let off = (c - 1.0).abs() * total;
        let worth = off >= self.stop * total && off >= CORRECTION_SHARE * change;
        (c.is_finite() && c > 0.0 && worth).then_some(c)
    }

    /// One worker's part: returns its counters, the iterations and the last raw change.
    fn iterate(&self, funnel: &Funnel, team: &Team) -> Result<(ThreadStats, u32, f64), Stopped> {
        let mut stats = ThreadStats::default();
        let local = self.halo.local as usize;
        let mut iterations = 0;
        loop {
            if team.worker() == 0 {
                let ghosts = self
                    .halo
                    .refresh(funnel, team, |l| self.share[l as usize].get());
                for (slot, x) in self.share[local..].iter().zip(ghosts) {
                    slot.set(x);
                }
            }
            team.barrier()?;
            let (mut change, mut total, mut dangling) = (0.0, 0.0, 0.0);
            team.for_chunks_nowait(local, CHUNK, |range| {
                for v in range.clone() {
                    let sum: f64 = self
                        .halo
                        .in_neighbors(v as u32)
                        .iter()
                        .map(|&s| self.share[s as usize].get())
                        .sum();
                    let y = self.base + DAMPING * sum;
                    let old = self.share[v].get() * self.degree[v];
                    change += (y - old).abs();
                    total += y;
                    if self.dangling[v] {
                        dangling += y;
                    }
                    self.share[v].set(y / self.degree[v]);
                }
                stats.tasks += range.len() as u64;
                0
            });
            let [change, total, dangling] = global_sums(funnel, team, [change, total, dangling])?;
            iterations += 1;
            if change < self.stop * total || iterations >= MAX_ITERATIONS {
                return Ok((stats, iterations, change));
            }
            // Every worker and rank has the same sums, so all take the same branch.
            if let Some(c) = self.mass_correction(change, total, dangling) {
                team.for_chunks(local, CHUNK, |range| {
                    for share in &self.share[range] {
                        share.set(share.get() * c);
                    }
                    0
                })?;
            }
        }
    }
}
