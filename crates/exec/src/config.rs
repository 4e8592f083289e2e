//! How to run the executor: threads, pinning, topology, cancellation, probes.

use crate::probe::Probes;
use ordo_sched::Topology;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// How to run a `for_each`.
#[derive(Debug, Clone)]
pub struct ExecConfig {
    pub threads: usize,
    /// Pin worker `i` to the `i`-th CPU of the topology (only when threads <= CPUs).
    pub pin: bool,
    pub topology: Topology,
    /// Set from outside (e.g. on Ctrl-C) to stop the run early.
    pub cancel: Option<Arc<AtomicBool>>,
    /// Instrumentation (off by default; then it costs a few predictable branches per task,
    /// measured in `docs/measurement.md`).
    pub probes: Probes,
    /// Run the `threads` workers as logical workers interleaved deterministically on the
    /// calling thread (the simulation executor, `src/simulate.rs`), to measure work increase
    /// and rank error at worker counts this machine does not have.
    pub simulate: bool,
}

/// The most worker threads a front end lets a run ask for.
pub const MAX_THREADS: usize = 4096;

/// The cores of this machine (1 if unknown).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The default worker count: every core, but at most `max_workers` where the scheduler is
/// limited (the serial scheduler runs one).
pub fn default_threads(max_workers: Option<usize>) -> usize {
    max_workers.map_or(cores(), |m| m.min(cores()))
}

impl ExecConfig {
    /// `threads` pinned workers on this machine's topology, uninstrumented.
    pub fn new(threads: usize) -> Self {
        Self::with_topology(threads, Topology::detect())
    }

    /// `threads` pinned workers on `topology`, uninstrumented.
    pub fn with_topology(threads: usize, topology: Topology) -> Self {
        ExecConfig {
            threads,
            pin: true,
            topology,
            cancel: None,
            probes: Probes::default(),
            simulate: false,
        }
    }

    /// Whether operators may run on more than one thread at once: false for one worker and
    /// for the simulation (its logical workers take turns on the calling thread), where a
    /// label no other thread writes can be lowered by a plain store.
    pub fn concurrent(&self) -> bool {
        self.threads > 1 && !self.simulate
    }
}
