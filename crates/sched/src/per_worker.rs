//! One locked heap per worker, shared by `reld`, `sheap` and `pheap`, which differ only in
//! where a push goes and where a pop looks.

use crate::contract::{CounterSink, HandleClaims, Task};
use crate::locked_heap::{heaps, LockedHeap, EMPTY_TOP};
use crate::random::Rng;
use crossbeam_utils::CachePadded;

pub struct PerWorkerHeaps<T> {
    pub queues: Box<[CachePadded<LockedHeap<T>>]>,
    pub claims: HandleClaims,
    pub sink: CounterSink,
}

impl<T: Task> PerWorkerHeaps<T> {
    pub fn new(workers: usize) -> Self {
        PerWorkerHeaps {
            queues: heaps(workers),
            claims: HandleClaims::new(workers),
            sink: CounterSink::default(),
        }
    }

    pub fn workers(&self) -> usize {
        self.queues.len()
    }

    #[inline]
    pub fn push(&self, q: usize, task: T, priority: u64) {
        self.queues[q].with(|h| h.push(priority, task));
    }

    /// Pops the top of queue `q` (waiting for its lock); `None` if it looks empty.
    #[inline]
    pub fn pop(&self, q: usize) -> Option<T> {
        if self.queues[q].top() == EMPTY_TOP {
            return None;
        }
        self.queues[q].with(|h| h.pop()).map(|e| e.1)
    }

    /// A steal: the top of a random other queue, tried once per other worker.
    pub fn steal(&self, me: usize, rng: &mut Rng) -> Option<T> {
        let n = self.queues.len();
        if n < 2 {
            return None;
        }
        for _ in 0..n {
            let v = (me + 1 + rng.below(n - 1)) % n;
            if self.queues[v].top() == EMPTY_TOP {
                continue;
            }
            if let Some(Some((_, t))) = self.queues[v].try_with(|h| h.pop()) {
                return Some(t);
            }
        }
        None
    }
}
