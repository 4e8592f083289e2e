//! One run-spec builder for every front end: a scheduler by name with its parameters, a
//! thread count and the probes become the scheduler and executor configurations of a run, or
//! a typed error the front end words in its own terms (`--threads` or `threads=`).

use ordo_exec::{default_threads, ExecConfig, Probes, MAX_THREADS};
use ordo_sched::{ConfigError, SchedulerConfig, Topology};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// What a front end asks of a run.
#[derive(Debug, Clone)]
pub struct RunRequest {
    /// The method (`--algo`): one of the application's, or `auto`.
    pub algo: String,
    /// What in the request asks for a priority scheduler, in the front end's words
    /// (`--scheduler obim`, `scheduler='obim'`), if anything does: `auto` then picks the
    /// scheduled method, and a method without a scheduler is refused.
    pub asks_scheduler: Option<String>,
    /// A scheduler of [`ordo_sched::catalogue`], or `auto`.
    pub scheduler: String,
    /// The scheduler's parameters as `key=value` pairs.
    pub params: Vec<(String, String)>,
    /// Chunk size (a shorthand for the `chunk` parameter).
    pub chunk: Option<usize>,
    /// Worker threads; `None`: every core, or fewer where the scheduler is limited.
    pub threads: Option<usize>,
    pub topology: Topology,
    pub pin: bool,
    pub probes: Probes,
    /// Set from outside (Ctrl-C) to stop the run.
    pub cancel: Option<Arc<AtomicBool>>,
    /// The application's `delta` parameter, when given, must reach the scheduler: an error for
    /// a scheduler without one (Python's `delta=`). Otherwise it is a hint that a scheduler
    /// without the parameter ignores and `--param delta=K` overrides (the command line).
    pub strict_delta: bool,
}

/// Why a request cannot be run.
#[derive(Debug, thiserror::Error)]
pub enum SpecError {
    #[error(transparent)]
    Scheduler(#[from] ConfigError),
    /// A thread count outside `1..=MAX_THREADS`.
    #[error("{0} threads: must be in 1..={MAX_THREADS}")]
    Threads(usize),
    /// A strict `delta` ([`RunRequest::strict_delta`]) for a scheduler without one.
    #[error("scheduler '{0}' has no delta parameter")]
    NoDelta(String),
}

impl RunRequest {
    /// `--algo auto` on scheduler `auto` on every core, pinned, without probes.
    pub fn new(topology: Topology) -> RunRequest {
        RunRequest {
            algo: "auto".into(),
            asks_scheduler: None,
            scheduler: "auto".into(),
            params: Vec::new(),
            chunk: None,
            threads: None,
            topology,
            pin: true,
            probes: Probes::default(),
            cancel: None,
            strict_delta: false,
        }
    }

    /// Whether the request names a scheduler: one other than `auto`, a parameter, or a chunk
    /// size.
    pub fn names_a_scheduler(&self) -> bool {
        self.scheduler != "auto" || !self.params.is_empty() || self.chunk.is_some()
    }

    /// The scheduler, with the application's bucket width `delta_hint` where it takes one
    /// and the request did not set it.
    pub fn scheduler(&self, delta_hint: Option<u32>) -> Result<SchedulerConfig, ConfigError> {
        let mut cfg = SchedulerConfig::parse(&self.scheduler, &self.params)?;
        if let Some(c) = self.chunk {
            cfg.set("chunk", &c.to_string())?;
        }
        if let Some(d) = delta_hint {
            cfg.hint_delta(d, &self.params)?;
        }
        Ok(cfg)
    }

    /// The workers the run gets: those asked for, else every core, at most `max_workers`.
    pub fn threads(&self, max_workers: Option<usize>) -> usize {
        self.threads.unwrap_or_else(|| default_threads(max_workers))
    }

    /// The executor for at most `max_workers` default threads.
    pub fn exec(&self, max_workers: Option<usize>) -> Result<ExecConfig, SpecError> {
        let threads = self.threads(max_workers);
        if threads == 0 || threads > MAX_THREADS {
            return Err(SpecError::Threads(threads));
        }
        Ok(ExecConfig {
            pin: self.pin,
            cancel: self.cancel.clone(),
            probes: self.probes.clone(),
            ..ExecConfig::with_topology(threads, self.topology.clone())
        })
    }

    /// The scheduler and the executor for a run on it.
    pub fn scheduled(
        &self,
        delta_hint: Option<u32>,
    ) -> Result<(SchedulerConfig, ExecConfig), SpecError> {
        let sched = self.scheduler(delta_hint)?;
        let exec = self.exec(sched.max_workers())?;
        Ok((sched, exec))
    }
}
