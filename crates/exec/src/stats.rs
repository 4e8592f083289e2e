//! Per-thread statistics, kept in the worker's own stack frame on the hot path (passed `&mut`)
//! and merged into one [`RunReport`] at the end.

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
    }
}
