//! ordo-exec: the executor. [`for_each`] runs an operator over prioritized tasks on a pool of
//! pinned workers sharing any [`ordo_sched::Scheduler`], detects termination with the token
//! protocol of `src/README.md`, and returns a [`RunReport`] of merged per-thread statistics.

mod for_each;
pub mod inbox;
mod pin;
pub mod probe;
pub mod rank;
pub mod simulate;
mod stats;
pub mod termination;

pub use for_each::{
    cores, default_threads, for_each, for_each_open, panic_message, Context, ExecConfig, ExecError,
    FirstPanic, MAX_THREADS,
};
pub use inbox::{Closed, Inbox};
pub use pin::pin_current_thread;
pub use probe::{Breakdown, Probes, Trace};
pub use rank::{RankSamples, RankSummary};
pub use simulate::Simulation;
pub use stats::{RunReport, ThreadStats, APP_COUNTERS};
