//! Optional instrumentation of a run (docs/design.md, "The executor"): the cycle breakdown of
//! the PMOD paper's Table 1 (Yesil et al., SC'19), application-reported useless work, and
//! per-worker traces of the priorities processed over time (the obim paper's Fig. 1, Lenharth
//! et al., Euro-Par'15).
//!
//! Everything here is off by default, and then costs a few predictable branches per task
//! (the executor's run-time `probed` flag and the [`Context`](crate::Context) methods checking
//! for a probe): see `docs/measurement.md`, "What the probes cost when off".

use std::sync::Arc;

pub use crate::trace::{Trace, TRACE_SAMPLES};

/// What a run measures beyond the counts it always keeps.
#[derive(Debug, Clone, Default)]
pub struct Probes {
    /// Time every scheduler operation and operator call with [`ticks`] and report a
    /// [`Breakdown`].
    pub breakdown: bool,
    /// Record `(time, priority)` of sampled tasks per worker (at most [`TRACE_SAMPLES`] each).
    pub trace: bool,
    /// Sample the rank error of the tasks run (see [`crate::rank`]): every push and task goes
    /// through one shared lock, so the run slows down and serializes.
    pub rank: bool,
    /// The serial oracle's final label of every node (SSSP and BFS distances, CC component
    /// labels), so that the operator can tell work that later proves useless (it set a label
    /// that is not final) from good work. Applications without labels ignore it.
    pub oracle: Option<Arc<[u64]>>,
}

impl Probes {
    /// True when the run needs the instrumented worker loop.
    pub fn any(&self) -> bool {
        self.breakdown || self.trace || self.rank
    }
}

/// What [`ticks`] counts, for reports.
#[cfg(target_arch = "x86_64")]
pub const CLOCK: &str = "tsc";
/// What [`ticks`] counts, for reports.
#[cfg(not(target_arch = "x86_64"))]
pub const CLOCK: &str = "ns";

/// A cheap clock: the time-stamp counter on x86-64 (reference cycles, constant rate on every
/// processor of the last fifteen years), nanoseconds since the first call elsewhere.
#[inline]
pub fn ticks() -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: RDTSC exists on every x86-64 processor and has no preconditions.
        unsafe { core::arch::x86_64::_rdtsc() }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        static EPOCH: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
        EPOCH
            .get_or_init(std::time::Instant::now)
            .elapsed()
            .as_nanos() as u64
    }
}

/// Where a run's cycles went (the PMOD paper's Table 1), in [`ticks`] summed over workers.
///
/// * `gwork`: operator calls whose work stays useful;
/// * `uwork`: operator calls the application marked useless (a stale task, or, given an
///   oracle, a label that is not final);
/// * `enq`: pushes into the scheduler from the operator;
/// * `deq`: pops that returned a task;
/// * `fdeq`: pops that found nothing, with the flush, termination check and back-off that
///   follow them (the time a worker spends looking for work);
/// * `other`: the rest of the worker loop (termination bookkeeping, initial pushes, the
///   clock reads themselves).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Breakdown {
    pub gwork: u64,
    pub uwork: u64,
    pub enq: u64,
    pub deq: u64,
    pub fdeq: u64,
    pub other: u64,
    /// Timed pushes (the operator's; initial tasks are in `other`).
    pub enqs: u64,
    /// Pops that returned a task.
    pub deqs: u64,
    /// Pops that found nothing.
    pub fdeqs: u64,
}

impl Breakdown {
    pub fn merge(&mut self, o: &Breakdown) {
        self.gwork += o.gwork;
        self.uwork += o.uwork;
        self.enq += o.enq;
        self.deq += o.deq;
        self.fdeq += o.fdeq;
        self.other += o.other;
        self.enqs += o.enqs;
        self.deqs += o.deqs;
        self.fdeqs += o.fdeqs;
    }

    /// Every category's cycles.
    pub fn total(&self) -> u64 {
        self.gwork + self.uwork + self.enq + self.deq + self.fdeq + self.other
    }

    /// The categories as fractions of the total, in the order `gwork, uwork, enq, deq, fdeq,
    /// other` (all zero when nothing was measured); they sum to 1.
    pub fn fractions(&self) -> [(&'static str, f64); 6] {
        let t = self.total().max(1) as f64;
        [
            ("gwork", self.gwork as f64 / t),
            ("uwork", self.uwork as f64 / t),
            ("enq", self.enq as f64 / t),
            ("deq", self.deq as f64 / t),
            ("fdeq", self.fdeq as f64 / t),
            ("other", self.other as f64 / t),
        ]
    }

    /// Mean cycles per push (0 without pushes).
    pub fn cycles_per_enq(&self) -> f64 {
        self.enq as f64 / self.enqs.max(1) as f64
    }

    /// Mean cycles per successful pop (0 without pops).
    pub fn cycles_per_deq(&self) -> f64 {
        self.deq as f64 / self.deqs.max(1) as f64
    }
}

/// What the operator tells the probe about the task it runs, and the pushes it made.
#[derive(Debug, Default)]
pub struct TaskProbe {
    pub(crate) useless: bool,
    pub(crate) priority: Option<u64>,
    pub(crate) enq: u64,
    pub(crate) enqs: u64,
    /// The run's pending priorities, with [`Probes::rank`] and in the simulation.
    pub(crate) rank: Option<std::sync::Arc<crate::rank::RankTracker>>,
}

impl TaskProbe {
    pub(crate) fn reset(&mut self) {
        self.useless = false;
        self.priority = None;
        self.enq = 0;
        self.enqs = 0;
    }

    /// Accounts a push that started at `t0`.
    #[inline]
    pub(crate) fn note_push(&mut self, t0: u64, priority: u64) {
        self.enq += ticks().wrapping_sub(t0);
        self.enqs += 1;
        if let Some(r) = &self.rank {
            r.pushed(priority);
        }
    }
}

/// One worker's measurements.
#[derive(Debug, Clone, Default)]
pub struct WorkerProbe {
    pub breakdown: Breakdown,
    pub trace: Trace,
}
