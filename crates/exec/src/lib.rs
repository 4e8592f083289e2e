//! ordo-exec: the executors. [`for_each`] runs an operator over prioritized tasks on a pool of
//! pinned workers sharing any [`ordo_sched::Scheduler`], detects termination with the token
//! protocol of `src/README.md`, and returns a [`RunReport`] of merged per-thread statistics.
//! [`run_team`] (the frontier executor) runs level-synchronous rounds on the same pinned pool:
//! parallel loops ending at a barrier, over the sparse and dense frontiers of [`frontier`].

pub mod barrier;
mod config;
mod context;
mod error;
mod for_each;
pub mod frontier;
pub mod inbox;
pub mod malloc;
mod pin;
pub mod pool;
pub mod probe;
pub mod rank;
mod round_trip;
pub mod simulate;
mod stats;
pub mod team;
pub mod termination;
mod trace;
mod worker;

pub use config::{cores, default_threads, ExecConfig, MAX_THREADS};
pub use context::Context;
pub use error::{panic_message, ExecError, FirstPanic};
pub use for_each::{for_each, for_each_open};
pub use inbox::{Closed, Inbox};
pub use pin::{may_run_on, pin_current_thread};
pub use pool::run_workers;
pub use probe::{Breakdown, Probes, Trace};
pub use rank::{RankSamples, RankSummary};
pub use round_trip::round_trip_ns;
pub use stats::{RunReport, Simulation, ThreadStats, APP_COUNTERS};
pub use team::{run_team, Stopped, Team};
