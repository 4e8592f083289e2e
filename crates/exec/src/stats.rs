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
