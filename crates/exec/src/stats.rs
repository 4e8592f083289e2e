//! Per-thread statistics, kept in the worker's own stack frame on the hot path (passed `&mut`)
//! and merged into one [`RunReport`] at the end.

use crate::probe::{Breakdown, Probes, WorkerProbe};
use crate::rank::{RankSamples, RankSummary};
use crate::trace::Trace;
use ordo_sched::{Counters, Event};
use std::time::Duration;

/// Counters an application may bump through `Context::count` (SSSP: stale tasks, ...).
pub const APP_COUNTERS: usize = 8;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ThreadStats {
    /// Operator invocations.
    pub tasks: u64,
    pub pushes: u64,
    /// Successful pops.
    pub pops: u64,
    /// Pops that found nothing.
    pub empty_pops: u64,
    pub app: [u64; APP_COUNTERS],
}

impl ThreadStats {
    pub fn merge(&mut self, o: &ThreadStats) {
        self.tasks += o.tasks;
        self.pushes += o.pushes;
        self.pops += o.pops;
        self.empty_pops += o.empty_pops;
        for (a, b) in self.app.iter_mut().zip(o.app) {
            *a += b;
        }
    }
}

/// What one `for_each` run did.
#[derive(Debug, Clone, Default)]
pub struct RunReport {
    pub threads: usize,
    /// Wall time from the first worker start to the last worker exit.
    pub time: Duration,
    /// Sum over threads.
    pub total: ThreadStats,
    pub per_thread: Vec<ThreadStats>,
    /// The scheduler's own counters.
    pub scheduler: Counters,
    /// What the scheduler decided during the run (PMOD: lmf changes).
    pub events: Vec<Event>,
    /// The cycle breakdown summed over workers, when [`Probes::breakdown`] was on.
    pub breakdown: Option<Breakdown>,
    /// Each worker's sampled priorities over time, when [`Probes::trace`] was on.
    pub traces: Vec<Trace>,
    /// Sampled rank errors, when [`Probes::rank`] was on (threaded runs).
    pub rank: Option<crate::RankSamples>,
    /// What the simulation executor measured, when the run was simulated.
    pub simulation: Option<Simulation>,
}

impl RunReport {
    /// A report of `per_thread` statistics, with their total.
    pub fn from_threads(time: Duration, per_thread: Vec<ThreadStats>) -> Self {
        let mut total = ThreadStats::default();
        for s in &per_thread {
            total.merge(s);
        }
        RunReport {
            threads: per_thread.len(),
            time,
            total,
            per_thread,
            ..RunReport::default()
        }
    }

    /// Adds the workers' probe measurements that `probes` asked for.
    pub fn with_probes(mut self, probes: &Probes, workers: Vec<WorkerProbe>) -> Self {
        if probes.breakdown {
            let mut total = Breakdown::default();
            for w in &workers {
                total.merge(&w.breakdown);
            }
            self.breakdown = Some(total);
        }
        if probes.trace {
            self.traces = workers.into_iter().map(|w| w.trace).collect();
        }
        self
    }

    /// Adds a later run of the same job (a round of it): times, counts and events accumulate.
    pub fn absorb(&mut self, r: RunReport) {
        self.threads = r.threads;
        self.time += r.time;
        self.total.merge(&r.total);
        if self.per_thread.len() < r.per_thread.len() {
            self.per_thread
                .resize(r.per_thread.len(), ThreadStats::default());
        }
        for (a, b) in self.per_thread.iter_mut().zip(&r.per_thread) {
            a.merge(b);
        }
        for (k, v) in r.scheduler.0 {
            self.scheduler.add(k, v);
        }
        self.events.extend(r.events);
        if let Some(b) = r.breakdown {
            self.breakdown
                .get_or_insert_with(Breakdown::default)
                .merge(&b);
        }
        if self.traces.is_empty() {
            self.traces = r.traces;
        }
        match (&mut self.simulation, r.simulation) {
            (Some(a), Some(b)) => a.absorb(b),
            (a @ None, b) => *a = b,
            _ => {}
        }
    }
}

/// What a simulated run measured.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Simulation {
    /// Logical workers.
    pub workers: usize,
    /// Rounds (each worker takes one step per round).
    pub rounds: u64,
    /// The sampled rank errors of the pops whose priority the operator reported.
    pub rank: RankSamples,
}

impl Simulation {
    /// Mean and percentiles of the sampled rank errors (`None` when no priority was reported).
    pub fn rank_summary(&self) -> Option<RankSummary> {
        self.rank.summary()
    }

    /// Adds a later round of the same job.
    pub fn absorb(&mut self, o: Simulation) {
        self.rounds += o.rounds;
        self.rank.ranked_pops += o.rank.ranked_pops;
        self.rank.ranks.samples.extend(o.rank.ranks.samples);
    }
}
