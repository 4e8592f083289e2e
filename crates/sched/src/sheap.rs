//! `sheap`: a locked heap per worker with work stealing (seed 002 §2.1, "Sheap"; Bertsekas et
//! al.). A push goes to the worker's own heap; a pop takes its own top, and steals the top of a
//! random other heap when its own is empty.

use crate::contract::{Counters, Handle, Scheduler, Task};
use crate::params::{Config, ConfigError, ParamInfo};
use crate::per_worker::PerWorkerHeaps;
use crate::random::Rng;

#[derive(Debug, Clone, Default)]
pub struct SheapConfig;

impl Config for SheapConfig {
    const NAME: &'static str = "sheap";
    const SUMMARY: &'static str =
        "per-thread locked heaps, push local, steal when empty (seed 002 baseline)";

    fn describe(&self) -> Vec<ParamInfo> {
        vec![]
    }

    fn set(&mut self, key: &str, _value: &str) -> Result<(), ConfigError> {
        Err(Self::unknown_param(key))
    }
}

pub struct Sheap<T>(PerWorkerHeaps<T>);

impl<T: Task> Sheap<T> {
    pub fn new(_cfg: &SheapConfig, workers: usize) -> Self {
        Sheap(PerWorkerHeaps::new(workers))
    }
}

pub struct SheapHandle<'s, T> {
    s: &'s PerWorkerHeaps<T>,
    me: usize,
    rng: Rng,
    steals: u64,
}

impl<T: Task> Scheduler<T> for Sheap<T> {
    type Handle<'s> = SheapHandle<'s, T>;

    fn handle(&self, worker: usize) -> SheapHandle<'_, T> {
        self.0.claims.claim(worker);
        SheapHandle {
            s: &self.0,
            me: worker,
            rng: Rng::for_worker(worker),
            steals: 0,
        }
    }

    fn workers(&self) -> usize {
        self.0.workers()
    }

    fn counters(&self) -> Counters {
        self.0.sink.snapshot()
    }
}

impl<T: Task> Handle<T> for SheapHandle<'_, T> {
    #[inline]
    fn push(&mut self, task: T, priority: u64) {
        self.s.push(self.me, task, priority);
    }

    #[inline]
    fn pop(&mut self) -> Option<T> {
        self.s.pop(self.me).or_else(|| {
            let t = self.s.steal(self.me, &mut self.rng);
            self.steals += t.is_some() as u64;
            t
        })
    }
}

impl<T> Drop for SheapHandle<'_, T> {
    fn drop(&mut self) {
        self.s.sink.merge(&[("steals", self.steals)]);
        self.s.claims.release(self.me);
    }
}
