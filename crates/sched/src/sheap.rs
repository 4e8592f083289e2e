//! `sheap`: a locked heap per worker with work stealing (the obim paper, Lenharth et al.,
//! Euro-Par'15, §2.1, "Sheap"; Bertsekas et al.). A push goes to the worker's own heap; a pop
//! takes its own top, and steals the top of a random other heap when its own is empty.

use crate::contract::Task;
use crate::params::Config;
use crate::per_worker::{PerWorker, Rule};

#[derive(Debug, Clone, Default)]
pub struct SheapConfig;

impl Config for SheapConfig {
    const NAME: &'static str = "sheap";
    const SUMMARY: &'static str =
        "per-thread locked heaps, push local, steal when empty (Lenharth et al.'s baseline)";
}

pub fn new<T: Task>(_cfg: &SheapConfig, workers: usize) -> PerWorker<T> {
    PerWorker::new(Rule::LocalWithStealing, workers)
}
