//! `reld`: random enqueue, local dequeue (seed 000 §2.2; Jeffrey et al., Swarm). One locked
//! heap per worker; a push goes to a uniformly random worker's heap, a pop takes the top of
//! the worker's own heap only (empty means "nothing for me now").

use crate::contract::{Counters, Handle, Scheduler, Task};
use crate::params::{Config, ConfigError, ParamInfo};
use crate::per_worker::PerWorkerHeaps;
use crate::random::Rng;

#[derive(Debug, Clone, Default)]
pub struct ReldConfig;

impl Config for ReldConfig {
    const NAME: &'static str = "reld";
    const SUMMARY: &'static str =
        "random enqueue, local dequeue: per-thread locked heaps (seed 000 §2.2)";

    fn describe(&self) -> Vec<ParamInfo> {
        vec![]
    }

    fn set(&mut self, key: &str, _value: &str) -> Result<(), ConfigError> {
        Err(Self::unknown_param(key))
    }
}

pub struct Reld<T>(PerWorkerHeaps<T>);

impl<T: Task> Reld<T> {
    pub fn new(_cfg: &ReldConfig, workers: usize) -> Self {
        Reld(PerWorkerHeaps::new(workers))
    }
}

pub struct ReldHandle<'s, T> {
    s: &'s PerWorkerHeaps<T>,
    me: usize,
    rng: Rng,
}

impl<T: Task> Scheduler<T> for Reld<T> {
    type Handle<'s> = ReldHandle<'s, T>;

    fn handle(&self, worker: usize) -> ReldHandle<'_, T> {
        self.0.claims.claim(worker);
        ReldHandle {
            s: &self.0,
            me: worker,
            rng: Rng::for_worker(worker),
        }
    }

    fn workers(&self) -> usize {
        self.0.workers()
    }

    fn counters(&self) -> Counters {
        self.0.sink.snapshot()
    }
}

impl<T: Task> Handle<T> for ReldHandle<'_, T> {
    #[inline]
    fn push(&mut self, task: T, priority: u64) {
        let q = self.rng.below(self.s.workers());
        self.s.push(q, task, priority);
    }

    #[inline]
    fn pop(&mut self) -> Option<T> {
        self.s.pop(self.me)
    }
}

impl<T> Drop for ReldHandle<'_, T> {
    fn drop(&mut self) {
        self.s.claims.release(self.me);
    }
}
