//! `reld`: random enqueue, local dequeue (the PMOD paper, Yesil et al., SC'19, §2.2; Jeffrey
//! et al., Swarm). One locked heap per worker; a push goes to a uniformly random worker's
//! heap, a pop takes the top of the worker's own heap only (empty means "nothing for me now").

use crate::contract::Task;
use crate::params::Config;
use crate::per_worker::{PerWorker, Rule};

#[derive(Debug, Clone, Default)]
pub struct ReldConfig;

impl Config for ReldConfig {
    const NAME: &'static str = "reld";
    const SUMMARY: &'static str =
        "random enqueue, local dequeue: per-thread locked heaps (Yesil et al. §2.2)";
}

pub fn new<T: Task>(_cfg: &ReldConfig, workers: usize) -> PerWorker<T> {
    PerWorker::new(Rule::RandomEnqueueLocalDequeue, workers)
}
