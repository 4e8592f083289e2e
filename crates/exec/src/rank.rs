//! Rank error: how many pending tasks had a strictly better priority than the one a worker
//! ran, kept by one [`RankTracker`]. A threaded run uses it with
//! [`Probes::rank`](crate::Probes::rank); the simulation always does, and there it is exact.

use crate::trace::Trace;
use std::collections::BTreeMap;
use std::sync::Mutex;

/// Summary statistics of the sampled rank errors.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct RankSummary {
    pub samples: usize,
    pub mean: f64,
    pub p50: u64,
    pub p90: u64,
    pub p99: u64,
    pub max: u64,
}

impl RankSummary {
    /// Mean and percentiles of `(index, rank)` samples (`None` without samples).
    pub fn of(samples: &Trace) -> Option<RankSummary> {
        let mut r: Vec<u64> = samples.samples.iter().map(|&(_, r)| r).collect();
        if r.is_empty() {
            return None;
        }
        r.sort_unstable();
        let at = |q: f64| r[((r.len() - 1) as f64 * q).round() as usize];
        Some(RankSummary {
            samples: r.len(),
            mean: r.iter().map(|&x| x as f64).sum::<f64>() / r.len() as f64,
            p50: at(0.5),
            p90: at(0.9),
            p99: at(0.99),
            max: r[r.len() - 1],
        })
    }
}

/// The pending tasks' priorities, as counts per priority.
#[derive(Debug, Default)]
struct Pending(BTreeMap<u64, u64>);

impl Pending {
    fn insert(&mut self, p: u64) {
        *self.0.entry(p).or_insert(0) += 1;
    }

    fn remove(&mut self, p: u64) {
        if let Some(c) = self.0.get_mut(&p) {
            *c -= 1;
            if *c == 0 {
                self.0.remove(&p);
            }
        }
    }

    /// Pending tasks with a priority strictly smaller than `p`. Costs one step per distinct
    /// smaller priority, which is small exactly when the scheduler is good.
    fn rank_of(&self, p: u64) -> u64 {
        self.0.range(..p).map(|(_, c)| c).sum()
    }
}

/// Sampled rank errors of a threaded run.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RankSamples {
    /// Tasks whose priority the operator reported.
    pub ranked_pops: u64,
    /// Sampled `(task index, rank error)`.
    pub ranks: Trace,
}

impl RankSamples {
    pub fn summary(&self) -> Option<RankSummary> {
        RankSummary::of(&self.ranks)
    }
}

/// The pending priorities of a threaded run, shared by every worker behind one lock: each
/// push adds its priority, and a task's rank is taken when its operator reports its priority
/// (first thing in the operator, so just after the pop), against the tasks pending then,
/// before the task itself is removed. The lock serializes pushes and pops, so this measures
/// order, not speed.
#[derive(Debug, Default)]
pub struct RankTracker(Mutex<(Pending, RankSamples)>);

impl RankTracker {
    pub(crate) fn seed(&self, priorities: impl Iterator<Item = u64>) {
        let mut g = self.0.lock().unwrap_or_else(|e| e.into_inner());
        for p in priorities {
            g.0.insert(p);
        }
    }

    /// A task of priority `p` was pushed.
    pub(crate) fn pushed(&self, p: u64) {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).0.insert(p);
    }

    /// A task of priority `p` is running: sample its rank and remove it.
    pub(crate) fn popped(&self, p: u64) {
        let mut g = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let (pending, samples) = &mut *g;
        let index = samples.ranked_pops;
        samples.ranks.offer_with(index, || pending.rank_of(p));
        samples.ranked_pops += 1;
        pending.remove(p);
    }

    pub(crate) fn into_samples(self) -> RankSamples {
        self.0.into_inner().unwrap_or_else(|e| e.into_inner()).1
    }
}
