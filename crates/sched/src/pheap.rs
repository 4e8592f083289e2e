//! `pheap`: a locked heap per worker with the owner-computes rule (the obim paper, Lenharth
//! et al., Euro-Par'15, §2.1, "Pheap"; Tang et al.). A task pushed with an owner (ordo's graph
//! tasks give the node they work on) goes to heap `owner % workers`, so each worker processes
//! a fixed share of the nodes; a task pushed without one stays local. A pop takes the top of
//! the worker's own heap only: no stealing.

use crate::contract::Task;
use crate::params::Config;
use crate::per_worker::{PerWorker, Rule};

#[derive(Debug, Clone, Default)]
pub struct PheapConfig;

impl Config for PheapConfig {
    const NAME: &'static str = "pheap";
    const SUMMARY: &'static str =
        "per-thread locked heaps, owner-computes (task to its node's owner), no stealing (Lenharth et al.'s baseline)";
}

pub fn new<T: Task>(_cfg: &PheapConfig, workers: usize) -> PerWorker<T> {
    PerWorker::new(Rule::OwnerComputes, workers)
}
