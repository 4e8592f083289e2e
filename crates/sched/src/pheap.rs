//! `pheap`: a locked heap per worker with the owner-computes rule (seed 002 §2.1, "Pheap"; Tang
//! et al.). A task pushed with an owner (ordo's graph tasks give the node they work on) goes to
//! heap `owner % workers`, so each worker processes a fixed share of the nodes; a task pushed
//! without one stays local. A pop takes the top of the worker's own heap only: no stealing.

use crate::contract::{Counters, Handle, Scheduler, Task};
use crate::params::{Config, ConfigError, ParamInfo};
use crate::per_worker::PerWorkerHeaps;

#[derive(Debug, Clone, Default)]
pub struct PheapConfig;

impl Config for PheapConfig {
    const NAME: &'static str = "pheap";
    const SUMMARY: &'static str =
        "per-thread locked heaps, owner-computes (task to its node's owner), no stealing (seed 002 baseline)";

    fn describe(&self) -> Vec<ParamInfo> {
        vec![]
    }

    fn set(&mut self, key: &str, _value: &str) -> Result<(), ConfigError> {
        Err(Self::unknown_param(key))
    }
}

pub struct Pheap<T>(PerWorkerHeaps<T>);

impl<T: Task> Pheap<T> {
    pub fn new(_cfg: &PheapConfig, workers: usize) -> Self {
        Pheap(PerWorkerHeaps::new(workers))
    }
}

pub struct PheapHandle<'s, T> {
    s: &'s PerWorkerHeaps<T>,
    me: usize,
    remote_pushes: u64,
}

impl<T: Task> Scheduler<T> for Pheap<T> {
    type Handle<'s> = PheapHandle<'s, T>;

    fn handle(&self, worker: usize) -> PheapHandle<'_, T> {
        self.0.claims.claim(worker);
        PheapHandle {
            s: &self.0,
            me: worker,
            remote_pushes: 0,
        }
    }

    fn workers(&self) -> usize {
        self.0.workers()
    }

    fn counters(&self) -> Counters {
        self.0.sink.snapshot()
    }
}

impl<T: Task> Handle<T> for PheapHandle<'_, T> {
    #[inline]
    fn push(&mut self, task: T, priority: u64) {
        self.s.push(self.me, task, priority);
    }

    #[inline]
    fn push_owned(&mut self, task: T, priority: u64, owner: u64) {
        let q = (owner % self.s.workers() as u64) as usize;
        self.remote_pushes += (q != self.me) as u64;
        self.s.push(q, task, priority);
    }

    #[inline]
    fn pop(&mut self) -> Option<T> {
        self.s.pop(self.me)
    }
}

impl<T> Drop for PheapHandle<'_, T> {
    fn drop(&mut self) {
        self.s.sink.merge(&[("remote_pushes", self.remote_pushes)]);
        self.s.claims.release(self.me);
    }
}
