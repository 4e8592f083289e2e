//! The distributed applications. Each keeps its per-node state for the nodes this rank owns,
//! runs local tasks through the executor, and sends a record to a node's owner instead of
//! touching remote state.

pub mod bfs;
pub mod cc;
pub mod pagerank;
pub mod sssp;
pub mod tc;

use crate::net::{DistResult, Net};
use crate::partition::Partition;
use mpi::datatype::Equivalence;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

/// Lowers a component label `a` to `x`; true if it did. One `fetch_min`, as
/// `ordo_algos::cc` takes labels: a label is lowered on most visits while components merge,
/// so a read first would rarely save the write.
#[inline]
pub fn lower_u32(a: &AtomicU32, x: u32) -> bool {
    a.fetch_min(x, Ordering::Relaxed) > x
}

/// Every rank's per-node values on rank 0, in global node order (`None` elsewhere).
pub fn gather_values<T: Equivalence + Copy + Default>(
    net: &Net,
    part: &Partition,
    mine: &[T],
) -> DistResult<Option<Vec<T>>> {
    let Some(all) = net.gather(mine)? else {
        return Ok(None);
    };
    let mut out = vec![T::default(); part.num_nodes() as usize];
    for (v, x) in part.global_order().zip(all) {
        out[v as usize] = x;
    }
    Ok(Some(out))
}

/// Per-worker counters for work done inside message handlers (which have no `Context`).
pub struct WorkerCounters(Vec<crossbeam_utils::CachePadded<AtomicU64>>);

impl WorkerCounters {
    pub fn new(workers: usize) -> Self {
        WorkerCounters(
            (0..workers)
                .map(|_| crossbeam_utils::CachePadded::new(AtomicU64::new(0)))
                .collect(),
        )
    }

    #[inline]
    pub fn add(&self, worker: usize, n: u64) {
        self.0[worker].fetch_add(n, Ordering::Relaxed);
    }

    pub fn total(&self) -> u64 {
        self.0.iter().map(|c| c.load(Ordering::Relaxed)).sum()
    }
}
